/* test_it_watch.c: spectators over a real server: every move of both players and the result, a mid-race
 * spectator catching up, a spectator's move refused and counted, the spectator limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "it_race.h"
#include "match.h"
#include "util.h"

static const char *const fast_server[] = {"--no-discovery", "--countdown", "0.3", NULL};

static void assert_ok(bt_player *p)
{
    if (bt_player_failed(p))
        fail_msg("%s failed: %s", bt_player_name(p), bt_player_failed(p));
}

static bool acked_at_least(it_env *e, void *arg)
{
    for (int i = 0; i < e->n; i++)
        if (bt_player_failed(e->p[i]))
            return true;
    return bt_player_counts(e->p[0])->acked >= *(uint64_t *)arg;
}

/* A pair on a maze (with mistakes, so both make moves), a spectator
 * from the lobby (index 2) and, once alice has made some moves, one that
 * comes mid-race (index 3). */
static void test_spectators_see_every_move(void **ctx)
{
    (void)ctx;
    it_env e;
    assert_true(it_env_start(&e, fast_server));
    bt_player_cfg a = it_cfg("alice", BT_CREATE, 25);
    a.params = (pz_params){PZ_MAZE, 12, 12, PZ_MEDIUM};
    a.has_seed = true;
    a.seed = 77;
    a.mistakes = 0.3;
    bt_player_cfg b = it_cfg("bob", BT_WAIT, 35);
    b.mistakes = 0.3;
    bt_player_cfg w = it_cfg("carol", BT_WATCH, 25);
    assert_int_equal(it_env_add(&e, &a, true), 0);
    assert_int_equal(it_env_add(&e, &b, true), 1);
    assert_int_equal(it_env_add(&e, &w, true), 2); /* gets bob's code from it_env_run */
    uint64_t some = 6;
    assert_true(it_env_run(&e, acked_at_least, &some, 60000));
    for (int i = 0; i < 3; i++)
        assert_ok(e.p[i]);
    const char *code = bt_player_room(e.p[0]);
    assert_non_null(code);
    bt_player_cfg late = it_cfg("dave", BT_WATCH, 25);
    late.room = code;
    assert_int_equal(it_env_add(&e, &late, false), 3);
    assert_true(it_env_run(&e, it_all_done, NULL, 60000));
    for (int i = 0; i < 4; i++)
        assert_ok(e.p[i]);

    const bt_result *ra, *rw, *rl;
    assert_int_equal(bt_player_results(e.p[0], &ra), 1);
    assert_int_equal(bt_player_results(e.p[2], &rw), 1);
    assert_int_equal(bt_player_results(e.p[3], &rl), 1);
    assert_int_equal(rw->slot, -1);
    /* The same result, field by field. */
    assert_memory_equal(&rw->end, &ra->end, sizeof ra->end);
    assert_memory_equal(&rl->end, &ra->end, sizeof ra->end);
    assert_string_equal(rw->game_id, ra->game_id);
    assert_string_equal(rw->names[0], "alice");
    assert_string_equal(rw->names[1], "bob");

    /* Every move of each player, as that player's own ACKs list it: the
     * lobby spectator saw all of them, in order; the late one a run to the
     * end after what it caught up (its board counts them all). */
    for (int s = 0; s < 2; s++) {
        size_t np, nw, nl;
        const bt_move_rec *own = bt_player_moves(e.p[s], s, &np);
        const bt_move_rec *seen = bt_player_moves(e.p[2], s, &nw);
        const bt_move_rec *tail = bt_player_moves(e.p[3], s, &nl);
        assert_int_equal(np, ra->end.moves[s]);
        assert_true(np >= 2);
        assert_int_equal(nw, np);
        for (size_t i = 0; i < np; i++) {
            assert_int_equal(own[i].n, i + 1);
            assert_int_equal(seen[i].n, own[i].n);
            assert_memory_equal(&seen[i].mv, &own[i].mv, sizeof own[i].mv);
        }
        for (size_t i = 0; i < nl; i++) {
            assert_int_equal(tail[i].n, np - nl + i + 1);
            assert_memory_equal(&tail[i].mv, &own[tail[i].n - 1].mv, sizeof own[0].mv);
        }
        assert_int_equal(cl_net_board_moves(bt_player_net(e.p[3]), s), np);
        assert_int_equal(cl_net_board_moves(bt_player_net(e.p[2]), s), np);
    }
    size_t live;
    bt_player_moves(e.p[3], 0, &live);
    assert_true(live < ra->end.moves[0]); /* alice had moved before dave came: he caught up */
    it_env_stop(&e);
}

static bool never(it_env *e, void *arg)
{
    (void)e;
    (void)arg;
    return false;
}

static bool watching(it_env *e, void *arg)
{
    int i = *(int *)arg;
    return cl_net_watching(bt_player_net(e->p[i])) || bt_player_failed(e->p[i]);
}

static bool failed(it_env *e, void *arg)
{
    return bt_player_failed(e->p[*(int *)arg]) != NULL;
}

/* One spectator seat per room: the second spectator is refused with
 * WATCH_FULL. A spectator's MOVE gets ERROR SPECTATOR and counts as bad:
 * with --max-bad 2 the second one disconnects it. */
static void test_spectator_refusals(void **ctx)
{
    (void)ctx;
    static const char *const server[] = {"--no-discovery", "--countdown", "0.3", "--room-spectators", "1",
                                         "--max-bad",      "2",           NULL};
    it_env e;
    assert_true(it_env_start(&e, server));
    bt_player_cfg a = it_cfg("alice", BT_CREATE, 200);
    a.params = (pz_params){PZ_MAZE, 30, 30, PZ_HARD};
    bt_player_cfg b = it_cfg("bob", BT_WAIT, 200);
    bt_player_cfg w = it_cfg("carol", BT_WATCH, 25);
    assert_int_equal(it_env_add(&e, &a, true), 0);
    assert_int_equal(it_env_add(&e, &b, true), 1);
    assert_int_equal(it_env_add(&e, &w, true), 2);
    int two = 2, three = 3;
    assert_true(it_env_run(&e, watching, &two, 30000));
    assert_ok(e.p[2]);
    bt_player_cfg x = it_cfg("xavier", BT_WATCH, 25);
    x.room = bt_player_room(e.p[0]);
    assert_int_equal(it_env_add(&e, &x, true), 3);
    assert_true(it_env_run(&e, failed, &three, 30000));
    assert_int_equal(bt_player_counts(e.p[3])->last_error, WIRE_ERR_WATCH_FULL);
    assert_non_null(strstr(bt_player_failed(e.p[3]), "spectators"));

    /* carol tries to move, twice: refused, then disconnected. */
    wire_msg m = {.type = WIRE_MOVE};
    m.move.seq = 1;
    m.move.move = (pz_move){PZ_MOVE_STEP, PZ_UP, 0, 0};
    uint8_t buf[16];
    size_t n = wire_write(&m, buf, sizeof buf);
    cl_net_t *net = bt_player_net(e.p[2]);
    cl_net_set_resume_window(net,
                             0); /* a watcher dropped comes back by itself: not here, where it is kicked */
    assert_null(cl_net_send_raw(net, buf, n));
    int ci = 2;
    assert_true(it_env_run(&e, failed, &ci, 10000));
    assert_int_equal(bt_player_counts(e.p[2])->last_error, WIRE_ERR_SPECTATOR);
    assert_non_null(strstr(bt_player_failed(e.p[2]), "spectators cannot move"));
    assert_null(cl_net_send_raw(net, buf, n));
    uint64_t deadline = mr_now_us() + 10000000u;
    while (cl_net_phase(net) != CL_NET_CLOSED && mr_now_us() < deadline) {
        it_env_run(&e, never, NULL, 10);
        cl_net_event ev;
        while (cl_net_poll(net, mr_now_us() / 1000u, &ev))
            if (ev.type == CL_EV_ERROR)
                assert_int_equal(ev.code, WIRE_ERR_SPECTATOR);
    }
    assert_int_equal(cl_net_phase(net), CL_NET_CLOSED); /* kicked: the second bad message */
    /* The players never noticed. */
    assert_ok(e.p[0]);
    assert_ok(e.p[1]);
    it_env_stop(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_spectators_see_every_move, it_teardown),
        cmocka_unit_test_teardown(test_spectator_refusals, it_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
