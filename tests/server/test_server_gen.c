/* test_server_gen.c: puzzle generation off the game loop: others are served while a giant puzzle is made, the
 * generation budget and the puzzle memory budget refuse with BUSY and MEMORY, rematches wait for the worker.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "puzzle.h"
#include "sv_fixture.h"
#include "util.h"

static bool gen_busy(const sv_stats *s)
{
    return s->gen_pending > 0;
}

static bool gen_idle(const sv_stats *s)
{
    return s->gen_pending == 0;
}

/* Issue 14's CPU stall: a 1000x1000 hard maze used to be made inside the
 * step that read the CREATE_ROOM, so nobody else was answered until it
 * was done. Now, while it is being made (gen_pending > 0), a race goes on:
 * moves are acknowledged. On the old server no move could be answered
 * while a generation was pending. */
static void test_answers_during_giant_generation(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    raw_client *a = join_server(f, "alice"), *b = join_server(f, "bob"), *x = join_server(f, "mallory");
    pz_move plan[512];
    int n = start_pair_race(a, b, plan, (int)MR_ARRAY_LEN(plan));
    wire_msg m;

    send_create(x, PZ_MAZE, 1000, 1000, PZ_HARD);
    sv_stats st = wait_stats(f, x, gen_busy);
    assert_true(st.gen_pending > 0);
    int acked_while_busy = 0;
    /* One move at a time, each acknowledged, until the maze is ready. */
    for (int i = 0; i < n - 1; i++) {
        send_move(a, (uint32_t)i, plan[i]);
        assert_true(raw_wait(a, WIRE_ACK, &m, WAIT_MS));
        sv_get_stats(f->sv, &st);
        if (st.gen_pending == 0)
            break;
        acked_while_busy++;
    }
    assert_true(acked_while_busy >= 1);
    /* The maze arrives: the room opens for its creator. */
    assert_true(raw_wait(x, WIRE_ROOM_STATE, &m, 30000));
    assert_int_equal(m.room.params.w, 1000);
    assert_int_equal(m.room.phase, MATCH_WAITING);
    raw_close(a);
    raw_close(b);
    raw_close(x);
    stop(f);
}

/* The attack itself: CREATE_ROOM for a 1000x1000 hard maze and LEAVE, over
 * and over. The budget runs out within a few rounds (BUSY), LEAVE cancels
 * quietly, and the client can still make a small room once it waits. */
static void test_generation_budget(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    raw_client *x = join_server(f, "mallory");
    wire_msg m;
    bool busy = false;
    for (int i = 0; i < 40 && !busy; i++) {
        send_create(x, PZ_MAZE, 1000, 1000, PZ_HARD);
        send_simple(x, WIRE_LEAVE_ROOM);
        raw_pump(x, 5, false);
        while (!busy && raw_has(x, WIRE_ERROR)) {
            assert_true(raw_wait(x, WIRE_ERROR, &m, 0));
            busy = m.error.code == WIRE_ERR_BUSY;
        }
    }
    assert_true(busy);
    sv_stats st = wait_stats(f, x, gen_idle);
    for (int i = 0; i < 20 && st.gen_pending > 0; i++) /* slow under sanitizers: up to a minute */
        st = wait_stats(f, x, gen_idle);
    assert_int_equal(st.gen_pending, 0);
    assert_true(st.gen_refused > 0);
    assert_true(st.gen_jobs >= 1);
    assert_int_equal(st.rooms_now, 0);    /* every request was left before it opened */
    assert_int_equal(st.puzzle_bytes, 0); /* and its memory given back */
    raw_close(x);
    stop(f);
}

/* The server-wide puzzle memory budget, and an address's eighth of it. */
static void test_memory_budget(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    cfg.puzzle_mem_mb = 16; /* an address may hold 2 MiB */
    fixture *f = start(&cfg);
    raw_client *x = join_server(f, "mallory");
    wire_msg m;
    send_create(x, PZ_MAZE, 1000, 1000, PZ_EASY); /* about 4 MiB with its next puzzle */
    assert_true(raw_wait(x, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_MEMORY);
    send_create(x, PZ_MAZE, 500, 500, PZ_EASY); /* about 1 MiB: fits */
    assert_true(raw_wait(x, WIRE_ROOM_STATE, &m, 30000));
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_true(st.puzzle_bytes >= 1000000);
    send_simple(x, WIRE_LEAVE_ROOM); /* the room closes: its memory comes back */
    raw_client *y = join_server(f, "other");
    send_create(y, PZ_MAZE, 21, 15, PZ_EASY);
    assert_true(raw_wait(y, WIRE_ROOM_STATE, &m, WAIT_MS));
    sv_get_stats(f->sv, &st);
    assert_true(st.puzzle_bytes < 100000);
    raw_close(x);
    raw_close(y);
    stop(f);
}

/* A rematch's puzzle comes from the worker: both ask, the countdown
 * follows once it is made. */
static void test_rematch_from_worker(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    raw_client *a = join_server(f, "alice"), *b = join_server(f, "bob");
    send_create(a, PZ_MAZE, 9, 7, PZ_EASY);
    wire_msg m;
    assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
    join_room(b, m.room.code, 1);
    send_ready(a);
    send_ready(b);
    assert_true(raw_wait(a, WIRE_MATCH_START, &m, WAIT_MS));
    assert_int_equal(m.start.game_no, 1);
    send_simple(b, WIRE_LEAVE_ROOM); /* forfeit: alice wins, the room stays */
    assert_true(raw_wait(a, WIRE_MATCH_END, &m, WAIT_MS));
    char code[WIRE_ROOM_CODE_LEN + 1];
    memset(code, 0, sizeof code);
    for (int i = 0; i < 10; i++) {
        assert_true(raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS));
        memcpy(code, m.room.code, sizeof code);
        if (!m.room.player[1].present)
            break;
    }
    join_room(b, code, 1); /* a new series in the finished room needs a new puzzle */
    send_ready(a);
    send_ready(b);
    assert_true(raw_wait(a, WIRE_MATCH_START, &m, WAIT_MS));
    assert_int_equal(m.start.game_no, 1);
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_true(st.gen_jobs >= 2); /* the room and the new series' puzzle */
    raw_close(a);
    raw_close(b);
    stop(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_answers_during_giant_generation),
        cmocka_unit_test(test_generation_budget),
        cmocka_unit_test(test_memory_budget),
        cmocka_unit_test(test_rematch_from_worker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
