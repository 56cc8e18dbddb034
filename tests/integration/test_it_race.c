/* test_it_race.c: bots race over a real server: every kind, winner, progress, rejects, resume, forfeit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "it_race.h"
#include "match.h"
#include "util.h"

static const char *const fast_server[] = {"--no-discovery", "--countdown", "0.2", NULL};

/* Creator (player 0) and joiner (player 1) on kind at w x h (0: the
 * kind's default size), with their paces. */
static void add_pair(it_env *e, int kind, int w, int h, uint32_t pace0, uint32_t pace1, bool shared)
{
    bt_player_cfg a = it_cfg("fast", BT_CREATE, pace0);
    a.params.kind = kind;
    a.params.w = w ? w : pz_kind_by_id(kind)->default_w;
    a.params.h = h ? h : pz_kind_by_id(kind)->default_h;
    a.params.diff = PZ_MEDIUM; /* pars of several moves: the slow one gets to move too */
    a.has_seed = true;
    a.seed = 1000 + (uint64_t)kind;
    bt_player_cfg b = it_cfg("slow", BT_WAIT, pace1);
    assert_int_equal(it_env_add(e, &a, shared), 0);
    assert_int_equal(it_env_add(e, &b, shared), 1);
}

static const bt_result *only_result(bt_player *p)
{
    const bt_result *r;
    int n = bt_player_results(p, &r);
    if (bt_player_failed(p))
        fail_msg("%s failed: %s", bt_player_name(p), bt_player_failed(p));
    assert_int_equal(n, 1);
    return r;
}

/* Two bots race to the end on kind at w x h (0: default); the fast one
 * must win on the server's clock, and each saw every accepted move of the
 * other. */
static void race_fast_wins(int kind, int w, int h)
{
    const pz_kind *k = pz_kind_by_id(kind);
    assert_non_null(k->generate); /* every kind is raced; none skipped */
    it_env e;
    assert_true(it_env_start(&e, fast_server));
    /* One pair on private connections, the sum pair on the shared hub,
     * so both ways of running cl_net are raced. */
    add_pair(&e, kind, w, h, 10, 20, kind == PZ_SUM);
    bool ok = it_env_run(&e, it_all_done, NULL, 60000);
    const bt_result *ra = only_result(e.p[0]), *rb = only_result(e.p[1]);
    assert_true(ok);
    int sa = ra->slot, sb = rb->slot;
    assert_int_not_equal(sa, sb);
    assert_int_equal(ra->end.winner, sa);
    assert_int_equal(rb->end.winner, sa);
    assert_int_equal(ra->end.reason, MATCH_END_SOLVED);
    assert_true(ra->end.solved[sa]);
    assert_false(ra->end.solved[sb]);
    assert_true(ra->end.time_ms[sa] <= ra->end.time_ms[sb]);
    /* Progress: a PROGRESS for each accepted move of the other. */
    const bt_counts *ca = bt_player_counts(e.p[0]), *cb = bt_player_counts(e.p[1]);
    assert_true(ra->end.moves[sa] > 0);
    assert_true(ra->end.moves[sb] > 0); /* the slow one got going too */
    assert_int_equal(cb->progress, ra->end.moves[sa]);
    assert_int_equal(ca->progress, ra->end.moves[sb]);
    assert_int_equal(ca->acked, ra->end.moves[sa]);
    assert_int_equal(ca->rejected, 0);
    /* Both bots' own confirmed state: the winner's is solved. */
    cl_net_t *na = bt_player_net(e.p[0]);
    assert_true(k->is_solved(cl_net_puzzle(na), cl_net_state(na)));
    fprintf(stderr, "%s: fast %u moves in %u ms, slow %u moves\n", k->name, ra->end.moves[sa],
            ra->end.time_ms[sa], ra->end.moves[sb]);
    it_env_stop(&e);
}

static void test_each_kind_fast_bot_wins(void **ctx)
{
    (void)ctx;
    for (int kind = 0; kind < PZ_KIND_COUNT; kind++)
        race_fast_wins(kind, 0, 0);
}

/* The largest number path (issue 13, 100 cells: paths past the first 64
 * cells, PROGRESS of long paths) over the wire. */
static void test_big_sum_race(void **ctx)
{
    (void)ctx;
    race_fast_wins(PZ_SUM, 10, 10);
}

/* A move the rules refuse, sent in the middle of the race: REJECT with the
 * illegal code, and both players still finish. */
static void test_illegal_move_rejected_play_continues(void **ctx)
{
    (void)ctx;
    it_env e;
    assert_true(it_env_start(&e, fast_server));
    add_pair(&e, PZ_MAZE, 0, 0, 5, 8, false);
    /* Wait until player 0 has a few accepted moves. */
    bool ok = false;
    uint64_t deadline = mr_now_us() + 30000000u;
    while (!ok && mr_now_us() < deadline) {
        it_env_run(&e, it_all_done, NULL, 5);
        ok = bt_player_counts(e.p[0])->acked >= 3;
    }
    assert_true(ok);
    cl_net_t *n = bt_player_net(e.p[0]);
    /* A pipes rotation is never legal on a maze. */
    pz_move bad = {.type = PZ_MOVE_ROTATE_CW, .x = 0, .y = 0};
    assert_true(cl_net_send_move(n, bad) > 0);
    assert_true(it_env_run(&e, it_all_done, NULL, 60000));
    const bt_counts *c = bt_player_counts(e.p[0]);
    assert_int_equal(c->rejected, 1);
    assert_int_equal(c->last_reject, MATCH_REJ_ILLEGAL);
    const bt_result *ra = only_result(e.p[0]), *rb = only_result(e.p[1]);
    assert_int_equal(ra->end.reason, MATCH_END_SOLVED);
    assert_int_equal(rb->end.winner, ra->end.winner);
    it_env_stop(&e);
}

/* A drop mid-race: cl_net reconnects, resumes with the token, rebuilds the
 * board from the server's log, and the race ends normally. */
static void drop_and_resume(bool silently)
{
    it_env e;
    assert_true(it_env_start(&e, fast_server));
    add_pair(&e, PZ_MAZE, 0, 0, 10, 12, false);
    bool ok = false;
    uint64_t deadline = mr_now_us() + 30000000u;
    while (!ok && mr_now_us() < deadline) {
        it_env_run(&e, it_all_done, NULL, 5);
        ok = bt_player_counts(e.p[0])->acked >= 5;
    }
    assert_true(ok);
    cl_net_t *n = bt_player_net(e.p[0]);
    uint32_t before = bt_player_counts(e.p[0])->acked;
    if (silently)
        cl_net_drop_silently(n, mr_now_us() / 1000u);
    else
        cl_net_drop(n, mr_now_us() / 1000u, true);
    assert_int_equal(cl_net_phase(n), CL_NET_RESUMING);
    assert_true(it_env_run(&e, it_all_done, NULL, 60000));
    const bt_counts *c = bt_player_counts(e.p[0]);
    assert_int_equal(c->drops, 1);
    assert_int_equal(c->resumed, 1);
    const bt_result *ra = only_result(e.p[0]), *rb = only_result(e.p[1]);
    assert_int_equal(ra->end.reason, MATCH_END_SOLVED);
    assert_int_equal(rb->end.winner, ra->end.winner);
    /* The moves made before the drop count in the server's total. */
    assert_true(ra->end.moves[ra->slot] >= before);
    it_env_stop(&e);
}

static void test_drop_and_resume(void **ctx)
{
    (void)ctx;
    drop_and_resume(false);
}

/* The same when the server never heard of the drop: the new connection's
 * token takes the seat from the old one. */
static void test_silent_drop_and_resume(void **ctx)
{
    (void)ctx;
    drop_and_resume(true);
}

/* A player who drops and never comes back loses by forfeit once the
 * server's grace period is over. */
static void test_no_return_forfeits(void **ctx)
{
    (void)ctx;
    static const char *const short_grace[] = {"--no-discovery", "--countdown", "0.2", "--grace", "0.5", NULL};
    it_env e;
    assert_true(it_env_start(&e, short_grace));
    add_pair(&e, PZ_MAZE, 0, 0, 50, 50, false);
    bool ok = false;
    uint64_t deadline = mr_now_us() + 30000000u;
    while (!ok && mr_now_us() < deadline) {
        it_env_run(&e, it_all_done, NULL, 5);
        ok = bt_player_counts(e.p[1])->acked >= 2;
    }
    assert_true(ok);
    int gone_slot = cl_net_slot(bt_player_net(e.p[1]));
    uint64_t t_drop = mr_now_us();
    bt_player_destroy(e.p[1]); /* drops at once, no leave message */
    e.p[1] = NULL;
    assert_true(it_env_run(&e, it_all_done, NULL, 10000));
    const bt_result *r = only_result(e.p[0]);
    assert_int_equal(r->end.reason, MATCH_END_FORFEIT);
    assert_int_equal(r->end.winner, 1 - gone_slot);
    /* Not before the grace period (0.5 s) was over. */
    assert_true(mr_now_us() - t_drop >= 500000u);
    it_env_stop(&e);
}

/* With two matches each, the bots ask for a rematch: a second game on a
 * new seed, in the same room. */
static void test_rematch(void **ctx)
{
    (void)ctx;
    it_env e;
    assert_true(it_env_start(&e, fast_server));
    bt_player_cfg a = it_cfg("first", BT_CREATE, 3);
    a.params.kind = PZ_PIPES;
    a.params.w = 6;
    a.params.h = 4;
    a.matches = 2;
    bt_player_cfg b = it_cfg("second", BT_WAIT, 4);
    b.matches = 2;
    assert_int_equal(it_env_add(&e, &a, true), 0);
    assert_int_equal(it_env_add(&e, &b, true), 1);
    assert_true(it_env_run(&e, it_all_done, NULL, 60000));
    for (int i = 0; i < 2; i++) {
        const bt_result *r;
        if (bt_player_failed(e.p[i]))
            fail_msg("%s", bt_player_failed(e.p[i]));
        assert_int_equal(bt_player_results(e.p[i], &r), 2);
        assert_int_equal(r[0].end.game_no, 1);
        assert_string_not_equal(r[0].game_id, r[1].game_id);
        assert_int_equal(r[1].end.reason, MATCH_END_SOLVED);
    }
    it_env_stop(&e);
}

static bool both_heard_shutdown(it_env *e, void *arg)
{
    (void)arg;
    return bt_player_counts(e->p[0])->shutdowns > 0 && bt_player_counts(e->p[1])->shutdowns > 0;
}

/* SIGINT on the server mid-race (an immediate stop; SIGTERM would drain):
 * both players hear the game end (aborted) and the shutdown notice, and the
 * server exits 0 within 2 s. */
static void test_server_shutdown_reaches_both(void **ctx)
{
    (void)ctx;
    it_env e;
    assert_true(it_env_start(&e, fast_server));
    add_pair(&e, PZ_MAZE, 0, 0, 200, 200, false);
    bool ok = false;
    uint64_t deadline = mr_now_us() + 30000000u;
    while (!ok && mr_now_us() < deadline) {
        it_env_run(&e, it_all_done, NULL, 5);
        ok = bt_player_counts(e.p[0])->acked >= 1 && bt_player_counts(e.p[1])->acked >= 1;
    }
    assert_true(ok);
    uint64_t t0 = mr_now_us();
    it_proc_signal(&e.server, SIGINT);
    assert_true(it_env_run(&e, both_heard_shutdown, NULL, 5000));
    for (int i = 0; i < 2; i++) {
        const bt_counts *c = bt_player_counts(e.p[i]);
        assert_int_equal(c->shutdowns, 1);
        const bt_result *r;
        assert_int_equal(bt_player_results(e.p[i], &r), 1);
        assert_int_equal(r[0].end.reason, MATCH_END_ABORTED);
    }
    int code = -1;
    assert_true(it_proc_wait(&e.server, 3000, &code, "server"));
    assert_int_equal(code, 0);
    assert_true(mr_now_us() - t0 < 3000000u); /* 2 s promised, plus slack for a loaded machine */
    it_env_stop(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_each_kind_fast_bot_wins, it_teardown),
        cmocka_unit_test_teardown(test_big_sum_race, it_teardown),
        cmocka_unit_test_teardown(test_illegal_move_rejected_play_continues, it_teardown),
        cmocka_unit_test_teardown(test_drop_and_resume, it_teardown),
        cmocka_unit_test_teardown(test_silent_drop_and_resume, it_teardown),
        cmocka_unit_test_teardown(test_no_return_forfeits, it_teardown),
        cmocka_unit_test_teardown(test_rematch, it_teardown),
        cmocka_unit_test_teardown(test_server_shutdown_reaches_both, it_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
