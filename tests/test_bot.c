/* test_bot.c: the bot keeps its pace, solves every kind in par, recovers from its mistakes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bot.h"
#include "match.h"
#include "util.h"
#include "wire.h"

/* ---- "walk": a 1-D puzzle (walk right from cell 0 to cell w-1), for the
 * pacing rules without depending on any real kind ---- */
struct pz_puzzle {
    pz_params params;
};
struct pz_state {
    int pos;
};

static void walk_free_puzzle(pz_puzzle *pz)
{
    free(pz);
}
static pz_state *walk_new_state(const pz_puzzle *pz)
{
    (void)pz;
    return mr_alloc(1, sizeof(pz_state));
}
static void walk_copy(pz_state *d, const pz_state *s)
{
    *d = *s;
}
static void walk_free_state(pz_state *st)
{
    free(st);
}
static bool walk_solved(const pz_puzzle *pz, const pz_state *st)
{
    return st->pos == pz->params.w - 1;
}
static const char *walk_move(const pz_puzzle *pz, const pz_state *from, pz_move mv, pz_state *to)
{
    if (walk_solved(pz, from))
        return "already solved";
    if (mv.type == PZ_MOVE_STEP && mv.dir == PZ_RIGHT) {
        to->pos = from->pos + 1;
        return NULL;
    }
    if (mv.type == PZ_MOVE_STEP && mv.dir == PZ_LEFT && from->pos > 0) {
        to->pos = from->pos - 1;
        return NULL;
    }
    return "no way there";
}
static int walk_solve(const pz_puzzle *pz, const pz_state *st, pz_move *out, int max)
{
    int n = pz->params.w - 1 - (st ? st->pos : 0);
    for (int i = 0; i < n && i < max; i++)
        out[i] = (pz_move){PZ_MOVE_STEP, PZ_RIGHT, 0, 0};
    return n;
}

/* Handed to bot_create_with_kind: the registry knows nothing of it. */
static const pz_kind walk_kind = {
    .name = "walk",
    .new_state = walk_new_state,
    .copy_state = walk_copy,
    .free_state = walk_free_state,
    .free_puzzle = walk_free_puzzle,
    .execute_move = walk_move,
    .is_solved = walk_solved,
    .solve = walk_solve,
};

static void test_pace(void **ctx)
{
    (void)ctx;
    pz_puzzle *pz = mr_alloc(1, sizeof *pz);
    pz->params = (pz_params){PZ_MAZE, 10, 1, PZ_EASY};
    const char *err = NULL;
    bot *b = bot_create_with_kind(&walk_kind, pz, 50, 0.0, 1, &err);
    assert_non_null(b);
    pz_move mv;
    assert_false(bot_next_move(b, 5000, &mv)); /* not started */
    assert_int_equal(bot_next_due(b), UINT64_MAX);
    bot_start(b, 1000);
    assert_int_equal(bot_next_due(b), 1050);
    assert_false(bot_next_move(b, 1049, &mv));
    assert_true(bot_next_move(b, 1050, &mv));
    assert_int_equal(mv.dir, PZ_RIGHT);
    assert_false(bot_next_move(b, 1050, &mv)); /* one per due time */
    assert_int_equal(bot_next_due(b), 1100);
    /* Late by a lot: one move now, the next one pace later, no burst. */
    assert_true(bot_next_move(b, 3000, &mv));
    assert_false(bot_next_move(b, 3000, &mv));
    assert_int_equal(bot_next_due(b), 3050);
    assert_int_equal(bot_state(b)->pos, 2);
    /* Sync to a state the host says is right (e.g. after a rejection). */
    pz_state st = {7};
    bot_sync(b, &st);
    uint64_t t = 3050;
    int n = 0;
    while (!bot_solved(b) && n < 100) {
        if (bot_next_move(b, t, &mv))
            n++;
        t += 10;
    }
    assert_true(bot_solved(b));
    assert_int_equal(n, 2);
    assert_int_equal(bot_moves(b), 4);
    assert_int_equal(bot_next_due(b), UINT64_MAX);
    assert_false(bot_next_move(b, t + 1000, &mv));
    bot_destroy(b);
    free(pz);
    bot_destroy(NULL);
    assert_null(bot_create(NULL, 50, 0, 1, &err));
    assert_non_null(err);
}

/* Plays bot to the end at its pace; returns the moves played, -1 if it
 * did not finish within the bound. */
static int run_bot(bot *b, uint32_t pace, int bound)
{
    bot_start(b, 0);
    pz_move mv;
    int played = 0;
    uint64_t t = 0;
    for (int i = 0; i < bound * 2 && !bot_solved(b); i++) {
        t += pace;
        if (bot_next_move(b, t, &mv))
            played++;
    }
    return bot_solved(b) ? played : -1;
}

static const char *const ids[] = {
    "sum:5x4:easy#11",   "sum:5x4:hard#12",   "maze:15x10:medium#13", "maze:40x30:hard#14",
    "ice:25x20:easy#15", "ice:25x20:hard#16", "pipes:6x4:easy#17",    "pipes:8x6:medium#18",
};

static pz_puzzle *build(const char *id)
{
    char err[160];
    pz_puzzle *pz = pz_from_id(id, err, sizeof err);
    if (!pz)
        fail_msg("%s: %s", id, err);
    return pz;
}

/* With no mistakes the bot's moves solve the puzzle, checked move by move
 * with the kind's own rules, in exactly the par the kind's grader reports. */
static void test_solves_every_kind_in_par(void **ctx)
{
    (void)ctx;
    for (size_t i = 0; i < MR_ARRAY_LEN(ids); i++) {
        pz_puzzle *pz = build(ids[i]);
        const pz_kind *k = pz_kind_of(pz);
        pz_grade g;
        memset(&g, 0, sizeof g);
        k->grade(pz, &g);
        const char *err = NULL;
        bot *b = bot_create(pz, 10, 0.0, 3, &err);
        assert_non_null(b);
        pz_state *ref = k->new_state(pz);
        bot_start(b, 0);
        pz_move mv;
        int moves = 0;
        for (uint64_t t = 10; moves <= g.par && !k->is_solved(pz, ref); t += 10) {
            if (!bot_next_move(b, t, &mv))
                continue;
            const char *why = k->execute_move(pz, ref, mv, ref);
            if (why)
                fail_msg("%s: bot move %d illegal: %s", ids[i], moves, why);
            moves++;
        }
        assert_true(k->is_solved(pz, ref));
        assert_true(bot_solved(b));
        if (moves != g.par)
            fail_msg("%s: bot took %d moves, par %d", ids[i], moves, g.par);
        assert_int_equal(bot_mistakes(b), 0);
        k->free_state(ref);
        bot_destroy(b);
        k->free_puzzle(pz);
    }
}

/* With mistakes it wanders off the plan, and still solves within a bound. */
static void test_mistakes_then_recovers(void **ctx)
{
    (void)ctx;
    uint32_t total_mistakes = 0;
    for (size_t i = 0; i < MR_ARRAY_LEN(ids); i++) {
        pz_puzzle *pz = build(ids[i]);
        const pz_kind *k = pz_kind_of(pz);
        pz_grade g;
        k->grade(pz, &g);
        const char *err = NULL;
        bot *b = bot_create(pz, 10, 0.3, 100 + i, &err);
        assert_non_null(b);
        int bound = 10 * g.par + 200;
        int played = run_bot(b, 10, bound);
        if (played < 0)
            fail_msg("%s: not solved within %d moves (mistakes %u)", ids[i], bound, bot_mistakes(b));
        assert_true(played >= g.par);
        assert_int_equal((uint32_t)played, bot_moves(b));
        total_mistakes += bot_mistakes(b);
        printf("%-22s par %4d  with 30%% mistakes: %4d moves, %3u mistakes\n", ids[i], g.par, played,
               bot_mistakes(b));
        bot_destroy(b);
        k->free_puzzle(pz);
    }
    assert_true(total_mistakes > 0);
}

/* Same seed and times, same moves. */
static void test_deterministic(void **ctx)
{
    (void)ctx;
    pz_puzzle *pz = build("maze:20x20:medium#5");
    const char *err = NULL;
    bot *a = bot_create(pz, 10, 0.5, 9, &err), *b = bot_create(pz, 10, 0.5, 9, &err);
    bot_start(a, 0);
    bot_start(b, 0);
    pz_move ma, mb;
    for (uint64_t t = 10; t < 10000 && !bot_solved(a); t += 10) {
        assert_int_equal(bot_next_move(a, t, &ma), bot_next_move(b, t, &mb));
        assert_memory_equal(&ma, &mb, sizeof ma);
    }
    assert_true(bot_solved(a));
    bot_destroy(a);
    bot_destroy(b);
    pz_kind_of(pz)->free_puzzle(pz);
}

/* Two bots race through the match engine on a default-size maze, as in
 * "vs computer": the faster one wins, both sides see the other's progress. */
static void test_bots_race_a_match(void **ctx)
{
    (void)ctx;
    char err[160];
    match *m = match_create_from_id("maze#77", NULL, 1, err, sizeof err);
    assert_non_null(m);
    int slot;
    assert_null(match_join(m, -1, "fast", 0, &slot));
    assert_null(match_join(m, -1, "slow", 0, &slot));
    assert_null(match_ready(m, 0, true, 0));
    assert_null(match_ready(m, 1, true, 0));
    const char *e = NULL;
    bot *b[2] = {bot_create(match_puzzle(m), 40, 0.0, 1, &e), bot_create(match_puzzle(m), 55, 0.0, 2, &e)};
    bot_start(b[0], match_start_ms(m));
    bot_start(b[1], match_start_ms(m));
    uint32_t seq[2] = {0, 0};
    int progress_seen[2] = {0, 0};
    match_event ev;
    for (uint64_t t = 0; t < 600000 && match_phase(m) != MATCH_FINISHED; t += 5) {
        match_update(m, t);
        for (int s = 0; s < 2; s++) {
            pz_move mv;
            if (match_phase(m) == MATCH_RACING && bot_next_move(b[s], t, &mv))
                assert_null(match_move(m, s, seq[s]++, mv, t, NULL));
        }
        while (match_poll_event(m, &ev))
            if (ev.type == MATCH_EV_PROGRESS)
                progress_seen[ev.to]++;
    }
    assert_int_equal(match_phase(m), MATCH_FINISHED);
    const match_result *r = match_last_result(m);
    assert_int_equal(r->winner, 0);
    assert_int_equal(r->reason, MATCH_END_SOLVED);
    assert_true(r->time_ms[0] > 0);
    assert_int_equal(r->moves[0], bot_moves(b[0]));
    assert_true(progress_seen[0] > 0 && progress_seen[1] > 0);
    /* Memory budget of a running match beyond the puzzle and states. */
    printf("match_memory after a race of %u + %u moves: %zu bytes\n", r->moves[0], r->moves[1],
           match_memory(m));
    assert_true(match_memory(m) < 16 * 1024);
    bot_destroy(b[0]);
    bot_destroy(b[1]);
    match_destroy(m);
}

/* The server's work per move, without the network: decode MOVE, play it
 * in the match, encode the ACK and PROGRESS it causes. Each game is both
 * players playing the solution in turn (slot 0 first, so it wins); every
 * move must be accepted. Prints ns per move as a figure to compare with
 * enet_echo's per-packet cost (docs/performance.md); asserts no timing. */
static void test_server_cost_per_move(void **ctx)
{
    (void)ctx;
    const char *kinds[] = {"sum#1", "maze#1", "ice#1", "pipes#1"};
    for (size_t ki = 0; ki < MR_ARRAY_LEN(kinds); ki++) {
        char err[160];
        match *m = match_create_from_id(kinds[ki], NULL, 1, err, sizeof err);
        assert_non_null(m);
        int slot;
        assert_null(match_join(m, -1, "a", 0, &slot));
        assert_null(match_join(m, -1, "b", 0, &slot));
        assert_null(match_ready(m, 0, true, 0));
        assert_null(match_ready(m, 1, true, 0));
        uint64_t now = MATCH_DEFAULT_COUNTDOWN_MS;
        uint8_t in[64], out[64];
        wire_msg w, r;
        match_event ev;
        long moves = 0, bytes = 0;
        uint64_t us = 0;
        uint32_t seq = 0;
        for (int game = 0; game < 50; game++) {
            match_update(m, now);
            assert_int_equal(match_phase(m), MATCH_RACING);
            const pz_puzzle *pz = match_puzzle(m);
            int cap = pz_max_solution(pz);
            pz_move *sol = mr_alloc((size_t)cap, sizeof *sol);
            int n = pz_kind_of(pz)->solve(pz, NULL, sol, cap);
            assert_true(n > 0);
            uint64_t t0 = mr_now_us();
            for (int i = 0; i < n && match_phase(m) == MATCH_RACING; i++) {
                for (int p = 0; p < 2 && match_phase(m) == MATCH_RACING; p++) {
                    memset(&w, 0, sizeof w);
                    w.type = WIRE_MOVE;
                    w.move.seq = seq++;
                    w.move.move = sol[i];
                    size_t len = wire_write(&w, in, sizeof in);
                    assert_true(wire_read(in, len, &r));
                    int code;
                    match_move(m, p, r.move.seq, r.move.move, now, &code);
                    assert_int_equal(code, MATCH_OK);
                    while (match_poll_event(m, &ev)) {
                        memset(&w, 0, sizeof w);
                        if (ev.type == MATCH_EV_ACK) {
                            w.type = WIRE_ACK;
                            w.ack.seq = ev.seq;
                            w.ack.moves = ev.moves;
                            w.ack.solved = ev.progress.solved;
                        } else if (ev.type == MATCH_EV_PROGRESS) {
                            w.type = WIRE_PROGRESS;
                            w.progress.slot = (uint8_t)ev.slot;
                            w.progress.move = ev.move;
                            w.progress.moves = ev.moves;
                            w.progress.x = (int16_t)ev.progress.x;
                            w.progress.y = (int16_t)ev.progress.y;
                            w.progress.path_len = (uint32_t)ev.progress.path_len;
                            w.progress.value = ev.progress.value;
                            w.progress.solved = ev.progress.solved;
                        } else {
                            continue;
                        }
                        bytes += (long)wire_write(&w, out, sizeof out);
                    }
                    moves++;
                }
            }
            us += mr_now_us() - t0;
            free(sol);
            assert_int_equal(match_phase(m), MATCH_FINISHED);
            assert_int_equal(match_last_result(m)->winner, 0);
            now += 10;
            assert_null(match_rematch(m, 0, now));
            assert_null(match_rematch(m, 1, now));
            now += MATCH_DEFAULT_COUNTDOWN_MS;
        }
        assert_true(bytes > 0);
        printf("%-8s %6ld moves in 50 games: %.0f ns per move (wire decode + match_move + events + encode)\n",
               kinds[ki], moves, (double)us * 1000.0 / (double)moves);
        match_destroy(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pace),
        cmocka_unit_test(test_solves_every_kind_in_par),
        cmocka_unit_test(test_mistakes_then_recovers),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_bots_race_a_match),
        cmocka_unit_test(test_server_cost_per_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
