/* test_match.c: the match engine's states, events and rules, driven by a fake clock and a fake kind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "match.h"
#include "maze.h"
#include "rng.h"
#include "token_attack.h"
#include "util.h"

/* ---- "walk": a 1-D puzzle, walk right from cell 0 to cell w-1 ----
 * Small enough to drive every transition of the engine by hand. */
struct pz_puzzle {
    pz_params params;
    uint64_t seed;
};
struct pz_state {
    int pos;
};

static pz_puzzle *walk_generate(const pz_params *p, uint64_t seed, const char **err)
{
    if (p->w < 2) {
        *err = "too short";
        return NULL;
    }
    pz_puzzle *pz = mr_alloc(1, sizeof *pz);
    pz->params = *p;
    pz->seed = seed;
    return pz;
}
static void walk_free_puzzle(pz_puzzle *pz)
{
    free(pz);
}
static char *walk_encode(const pz_puzzle *pz)
{
    char buf[64];
    snprintf(buf, sizeof buf, "L%dS%llu", pz->params.w, (unsigned long long)pz->seed);
    return mr_strdup(buf);
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
static const char *walk_move(const pz_puzzle *pz, const pz_state *from, pz_move mv, pz_state *to)
{
    if (from->pos == pz->params.w - 1)
        return "already solved";
    if (mv.type == PZ_MOVE_ROTATE_CW) { /* looking around: a move that changes nothing */
        *to = *from;
        return NULL;
    }
    if (mv.type != PZ_MOVE_STEP)
        return "walk only steps";
    if (mv.dir == PZ_RIGHT) {
        to->pos = from->pos + 1;
        return NULL;
    }
    if (mv.dir == PZ_LEFT && from->pos > 0) {
        to->pos = from->pos - 1;
        return NULL;
    }
    return "no way there";
}
static bool walk_solved(const pz_puzzle *pz, const pz_state *st)
{
    return st->pos == pz->params.w - 1;
}
static void walk_progress(const pz_puzzle *pz, const pz_state *st, pz_progress *out)
{
    out->x = st->pos;
    out->y = 0;
    out->path_len = 0;
    out->value = st->pos;
    out->solved = walk_solved(pz, st);
}

static const pz_kind walk_kind = {
    .name = "walk",
    .id = PZ_MAZE,
    .generate = walk_generate,
    .free_puzzle = walk_free_puzzle,
    .encode_desc = walk_encode,
    .new_state = walk_new_state,
    .copy_state = walk_copy,
    .free_state = walk_free_state,
    .execute_move = walk_move,
    .is_solved = walk_solved,
    .progress = walk_progress,
};

#define LEN 6 /* cells: 5 steps right solve it */
static const pz_move RIGHT = {PZ_MOVE_STEP, PZ_RIGHT, 0, 0};
static const pz_move LEFT = {PZ_MOVE_STEP, PZ_LEFT, 0, 0};
static const pz_move UP = {PZ_MOVE_STEP, PZ_UP, 0, 0};

static match *new_match(uint32_t countdown, uint32_t grace, int series, uint64_t seed)
{
    pz_params p = {PZ_MAZE, LEN, 1, PZ_EASY};
    const char *err = NULL;
    pz_puzzle *pz = walk_generate(&p, seed, &err);
    match_config cfg = {countdown, grace, series, false};
    match *m = match_create_puzzle(&walk_kind, pz, true, seed, &cfg, 99, &err);
    assert_non_null(m);
    return m;
}

/* Drains the queue into evs (at most max); returns how many. */
static int drain(match *m, match_event *evs, int max)
{
    int n = 0;
    match_event ev;
    while (match_poll_event(m, &ev)) {
        assert_true(n < max);
        evs[n++] = ev;
    }
    return n;
}

static int count_type(const match_event *evs, int n, int type)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += evs[i].type == type;
    return c;
}

static const match_event *find(const match_event *evs, int n, int type)
{
    for (int i = 0; i < n; i++)
        if (evs[i].type == type)
            return &evs[i];
    return NULL;
}

/* Two players joined and ready at t=1000; countdown 3000 -> race at 4000. */
static match *racing_match(int series)
{
    match *m = new_match(3000, 30000, series, 7);
    int slot;
    assert_null(match_join(m, -1, "ann", 1000, &slot));
    assert_int_equal(slot, 0);
    assert_null(match_join(m, -1, "bob", 1000, &slot));
    assert_int_equal(slot, 1);
    assert_null(match_ready(m, 0, true, 1000));
    assert_null(match_ready(m, 1, true, 1000));
    match_update(m, 4000);
    assert_int_equal(match_phase(m), MATCH_RACING);
    match_event evs[32];
    drain(m, evs, 32);
    return m;
}

static void play_moves(match *m, int slot, int n, uint64_t now)
{
    for (int i = 0; i < n; i++)
        assert_null(match_move(m, slot, (uint32_t)i, RIGHT, now, NULL));
}

static void test_full_race(void **ctx)
{
    (void)ctx;
    match *m = new_match(3000, 30000, 1, 7);
    match_event evs[64];
    int slot = -1, n;
    assert_int_equal(match_phase(m), MATCH_WAITING);
    assert_null(match_join(m, -1, "ann", 1000, &slot));
    assert_null(match_join(m, -1, "bob", 1000, &slot));
    n = drain(m, evs, 64);
    assert_int_equal(count_type(evs, n, MATCH_EV_JOINED), 2);
    assert_string_equal(evs[0].name, "ann");
    assert_int_equal(evs[0].to, MATCH_TO_BOTH);

    /* One ready is not enough. */
    assert_null(match_ready(m, 0, true, 1100));
    assert_int_equal(match_phase(m), MATCH_WAITING);
    int code = -1;
    assert_non_null(match_move(m, 0, 1, RIGHT, 1150, &code));
    assert_int_equal(code, MATCH_REJ_NOT_STARTED);
    assert_null(match_ready(m, 1, true, 1200));
    assert_int_equal(match_phase(m), MATCH_COUNTDOWN);
    n = drain(m, evs, 64);
    const match_event *cd = find(evs, n, MATCH_EV_COUNTDOWN);
    assert_non_null(cd);
    assert_int_equal(cd->start_ms, 4200);
    assert_int_equal(cd->game_no, 1);
    assert_int_equal(match_next_deadline(m), 4200);

    /* During the countdown: rejected, with the sequence number, to the mover. */
    assert_non_null(match_move(m, 1, 41, RIGHT, 4199, &code));
    assert_int_equal(code, MATCH_REJ_NOT_STARTED);
    n = drain(m, evs, 64);
    const match_event *rj = find(evs, n, MATCH_EV_REJECT);
    assert_non_null(rj);
    assert_int_equal(rj->seq, 41);
    assert_int_equal(rj->to, 1);
    assert_int_equal(rj->code, MATCH_REJ_NOT_STARTED);
    assert_int_equal(match_phase(m), MATCH_COUNTDOWN);

    /* A move stamped at the start time starts the race itself. */
    assert_null(match_move(m, 0, 1, RIGHT, 4200, &code));
    assert_int_equal(code, MATCH_OK);
    n = drain(m, evs, 64);
    assert_int_equal(evs[0].type, MATCH_EV_START);
    const match_event *ack = find(evs, n, MATCH_EV_ACK);
    const match_event *pr = find(evs, n, MATCH_EV_PROGRESS);
    assert_non_null(ack);
    assert_non_null(pr);
    assert_int_equal(ack->to, 0);
    assert_int_equal(ack->seq, 1);
    assert_int_equal(ack->moves, 1);
    assert_int_equal(pr->to, 1);
    assert_int_equal(pr->slot, 0);
    assert_int_equal(pr->move.dir, PZ_RIGHT);
    assert_int_equal(pr->progress.x, 1);
    assert_int_equal(pr->moves, 1);

    /* Illegal: the kind's reason comes back. Not counted. */
    assert_string_equal(match_move(m, 1, 2, LEFT, 4300, &code), "no way there");
    assert_int_equal(code, MATCH_REJ_ILLEGAL);
    n = drain(m, evs, 64);
    assert_int_equal(n, 1);
    assert_string_equal(evs[0].reason, "no way there");
    assert_int_equal(match_moves(m, 1), 0);
    pz_move junk = {0xEE, 0xEE, 0xFFFF, 0xFFFF};
    assert_non_null(match_move(m, 1, 3, UP, 4300, &code));
    assert_non_null(match_move(m, 1, 4, junk, 4300, &code));
    assert_int_equal(code, MATCH_REJ_ILLEGAL);
    assert_int_equal(drain(m, evs, 64), 2);

    /* ann: 4 more steps, the last at 9200 wins. */
    for (uint32_t i = 2; i <= 5; i++)
        assert_null(match_move(m, 0, i, RIGHT, 4200 + 1000 * (i - 1), NULL));
    assert_int_equal(match_phase(m), MATCH_FINISHED);
    n = drain(m, evs, 64);
    const match_event *fin = find(evs, n, MATCH_EV_FINISHED);
    assert_non_null(fin);
    assert_int_equal(fin->result.winner, 0);
    assert_int_equal(fin->result.reason, MATCH_END_SOLVED);
    assert_int_equal(fin->result.time_ms[0], 4000);
    assert_int_equal(fin->result.time_ms[1], 4000);
    assert_true(fin->result.solved[0]);
    assert_false(fin->result.solved[1]);
    assert_int_equal(fin->result.moves[0], 5);
    assert_int_equal(fin->result.moves[1], 0);
    assert_int_equal(fin->result.score[0], 1);
    assert_true(fin->result.series_over);

    /* After the finish. */
    assert_non_null(match_move(m, 1, 9, RIGHT, 9300, &code));
    assert_int_equal(code, MATCH_REJ_FINISHED);
    match_destroy(m);
}

static void test_first_solve_wins_by_server_clock(void **ctx)
{
    (void)ctx;
    match *m = racing_match(1);
    play_moves(m, 0, LEN - 2, 5000);
    play_moves(m, 1, LEN - 2, 5000);
    assert_null(match_move(m, 1, 100, RIGHT, 6000, NULL));
    int code;
    assert_non_null(match_move(m, 0, 100, RIGHT, 6001, &code));
    assert_int_equal(code, MATCH_REJ_FINISHED);
    const match_result *r = match_last_result(m);
    assert_int_equal(r->winner, 1);
    assert_int_equal(r->time_ms[1], 2000);
    assert_int_equal(r->moves[0], LEN - 2);
    assert_int_equal(r->moves[1], LEN - 1);
    match_destroy(m);
}

static void test_bad_calls_change_nothing(void **ctx)
{
    (void)ctx;
    match *m = new_match(3000, 30000, 1, 7);
    match_event evs[8];
    int slot;
    assert_non_null(match_join(m, 2, "x", 0, &slot));
    assert_non_null(match_join(m, -1, "", 0, &slot));
    assert_null(match_join(m, -1, "\x01\x02", 0, &slot)); /* becomes "??" */
    assert_int_equal(drain(m, evs, 8), 1);
    assert_string_equal(match_name(m, 0), "??");
    assert_null(match_leave(m, 0, 0));
    drain(m, evs, 8);
    assert_null(match_join(m, 1, "a name that is far longer than twenty-four bytes", 0, &slot));
    assert_int_equal(slot, 1);
    assert_int_equal(strlen(match_name(m, 1)), MATCH_NAME_MAX);
    assert_non_null(match_join(m, 1, "again", 0, &slot));
    drain(m, evs, 8);
    int bad[] = {-1, 2, 1000, -1000};
    match_token_t one = {{1}};
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        int code = -1;
        assert_non_null(match_ready(m, bad[i], true, 0));
        assert_non_null(match_leave(m, bad[i], 0));
        assert_non_null(match_disconnect(m, bad[i], 0));
        assert_non_null(match_resume(m, bad[i], &one, 0));
        assert_non_null(match_rematch(m, bad[i], 0));
        assert_non_null(match_move(m, bad[i], 0, RIGHT, 0, &code));
        assert_int_equal(code, MATCH_REJ_NO_PLAYER);
        assert_null(match_state(m, bad[i]));
        match_token_t t = match_token(m, bad[i]);
        assert_false(match_token_set(&t));
    }
    /* Empty slot 0. */
    assert_non_null(match_ready(m, 0, true, 0));
    assert_non_null(match_move(m, 0, 0, RIGHT, 0, NULL));
    assert_false(match_poll_event(m, &evs[0]));
    assert_int_equal(match_phase(m), MATCH_WAITING);
    /* Full room; joining during a race is refused. */
    assert_null(match_join(m, -1, "c", 0, &slot));
    assert_non_null(match_join(m, -1, "d", 0, &slot));
    match_destroy(m);
    m = racing_match(1);
    assert_null(match_leave(m, 1, 5000));
    assert_non_null(match_join(m, 5, "late", 5000, &slot));
    match_destroy(m);
    match_destroy(NULL);
}

static void test_ready_toggle_and_lobby_leave(void **ctx)
{
    (void)ctx;
    match *m = new_match(3000, 30000, 1, 7);
    match_event evs[16];
    int slot;
    assert_null(match_join(m, -1, "ann", 0, &slot));
    assert_null(match_join(m, -1, "bob", 0, &slot));
    assert_null(match_ready(m, 0, true, 0));
    assert_null(match_ready(m, 0, false, 0));
    assert_null(match_ready(m, 1, true, 0));
    assert_int_equal(match_phase(m), MATCH_WAITING);
    assert_false(match_is_ready(m, 0));
    assert_true(match_is_ready(m, 1));
    /* A drop in the lobby frees the slot at once. */
    assert_null(match_disconnect(m, 0, 10));
    assert_false(match_present(m, 0));
    int n = drain(m, evs, 16);
    assert_non_null(find(evs, n, MATCH_EV_LEFT));
    assert_null(match_join(m, -1, "cat", 20, &slot));
    assert_int_equal(slot, 0);
    assert_null(match_ready(m, 0, true, 30));
    assert_int_equal(match_phase(m), MATCH_COUNTDOWN);
    match_destroy(m);
}

static void test_zero_countdown(void **ctx)
{
    (void)ctx;
    match *m = new_match(0, 30000, 1, 7);
    int slot;
    assert_null(match_join(m, -1, "ann", 50, &slot));
    assert_null(match_join(m, -1, "bob", 50, &slot));
    assert_null(match_ready(m, 0, true, 50));
    assert_null(match_ready(m, 1, true, 60));
    assert_int_equal(match_phase(m), MATCH_RACING);
    assert_int_equal(match_start_ms(m), 60);
    match_destroy(m);
}

static void test_disconnect_resume(void **ctx)
{
    (void)ctx;
    match *m = racing_match(1);
    match_event evs[16];
    play_moves(m, 0, 2, 4500);
    drain(m, evs, 16);
    match_token_t tok = match_token(m, 0), other = match_token(m, 1);
    assert_true(match_token_set(&tok));
    assert_false(match_token_equal(&tok, &other));
    assert_null(match_disconnect(m, 0, 5000));
    assert_non_null(match_disconnect(m, 0, 5001));
    assert_true(match_present(m, 0));
    assert_false(match_connected(m, 0));
    int n = drain(m, evs, 16);
    const match_event *d = find(evs, n, MATCH_EV_DISCONNECTED);
    assert_non_null(d);
    assert_int_equal(d->slot, 0);
    assert_int_equal(d->deadline_ms, 35000);
    assert_int_equal(match_next_deadline(m), 35000);
    int code;
    assert_non_null(match_move(m, 0, 9, RIGHT, 6000, &code));
    assert_int_equal(code, MATCH_REJ_DISCONNECTED);
    match_token_t wrong = tok;
    wrong.b[MATCH_TOKEN_BYTES - 1] ^= 1;
    assert_non_null(match_resume(m, 0, &wrong, 20000));
    assert_non_null(match_resume(m, 0, NULL, 20000));
    assert_non_null(match_resume(m, 1, &other, 20000)); /* not disconnected */
    assert_null(match_resume(m, 0, &tok, 34999));
    assert_true(match_connected(m, 0));
    assert_int_equal(match_moves(m, 0), 2);
    pz_move log[4];
    assert_int_equal(match_move_log(m, 0, NULL, 0), 2);
    assert_int_equal(match_move_log(m, 0, log, 4), 2);
    assert_int_equal(log[1].dir, PZ_RIGHT);
    assert_int_equal(log[1].type, PZ_MOVE_STEP);
    match_update(m, 40000); /* grace would have ended: nothing happens */
    assert_int_equal(match_phase(m), MATCH_RACING);
    play_moves(m, 0, LEN - 3, 41000);
    assert_int_equal(match_phase(m), MATCH_FINISHED);
    assert_int_equal(match_last_result(m)->winner, 0);
    assert_int_equal(match_last_result(m)->moves[0], LEN - 1);
    match_destroy(m);
}

static void test_grace_expires_forfeit(void **ctx)
{
    (void)ctx;
    match *m = racing_match(3);
    match_event evs[16];
    assert_null(match_disconnect(m, 1, 5000));
    match_token_t tok = match_token(m, 1);
    drain(m, evs, 16);
    match_update(m, 34999);
    assert_int_equal(match_phase(m), MATCH_RACING);
    match_update(m, 36000);
    assert_int_equal(match_phase(m), MATCH_FINISHED);
    int n = drain(m, evs, 16);
    const match_event *f = find(evs, n, MATCH_EV_FINISHED);
    assert_non_null(f);
    assert_int_equal(f->result.winner, 0);
    assert_int_equal(f->result.reason, MATCH_END_FORFEIT);
    assert_int_equal(f->result.time_ms[1], 31000); /* to the end of the grace */
    assert_true(f->result.series_over);
    assert_int_equal(match_score(m, 0), 1);
    const match_event *l = find(evs, n, MATCH_EV_LEFT);
    assert_non_null(l);
    assert_int_equal(l->slot, 1);
    assert_false(match_present(m, 1));
    assert_non_null(match_resume(m, 1, &tok, 36001));
    assert_int_equal(match_next_deadline(m), UINT64_MAX);
    assert_non_null(match_rematch(m, 0, 36002)); /* nobody to play */
    match_destroy(m);
}

static void test_both_drop(void **ctx)
{
    (void)ctx;
    match *m = racing_match(1);
    assert_null(match_disconnect(m, 0, 5000));
    assert_null(match_disconnect(m, 1, 5000));
    match_update(m, 100000);
    const match_result *r = match_last_result(m);
    assert_int_equal(match_phase(m), MATCH_FINISHED);
    assert_int_equal(r->winner, MATCH_NONE);
    assert_int_equal(r->reason, MATCH_END_BOTH_LEFT);
    assert_false(match_present(m, 0));
    assert_false(match_present(m, 1));
    match_destroy(m);

    /* One after the other: the first to run out loses. */
    m = racing_match(1);
    assert_null(match_disconnect(m, 0, 5000));
    assert_null(match_disconnect(m, 1, 6000));
    match_update(m, 35000);
    assert_int_equal(match_last_result(m)->winner, 1);
    assert_int_equal(match_last_result(m)->reason, MATCH_END_FORFEIT);
    assert_true(match_present(m, 1));
    match_token_t t1 = match_token(m, 1);
    assert_null(match_resume(m, 1, &t1, 35500));
    match_destroy(m);
}

static void test_leave_forfeits_and_abort(void **ctx)
{
    (void)ctx;
    match *m = racing_match(1);
    match_event evs[16];
    assert_null(match_leave(m, 0, 4100));
    int n = drain(m, evs, 16);
    const match_event *f = find(evs, n, MATCH_EV_FINISHED);
    assert_non_null(f);
    assert_int_equal(f->result.winner, 1);
    assert_int_equal(f->result.reason, MATCH_END_FORFEIT);
    assert_true(f < find(evs, n, MATCH_EV_LEFT)); /* result first, then the empty slot */
    /* A newcomer joining a finished room starts a new series in the lobby. */
    int slot;
    assert_null(match_join(m, -1, "cat", 5000, &slot));
    assert_int_equal(slot, 0);
    assert_int_equal(match_phase(m), MATCH_WAITING);
    assert_int_equal(match_score(m, 1), 0);
    match_destroy(m);

    m = racing_match(1);
    match_abort(m, 4500);
    assert_int_equal(match_last_result(m)->reason, MATCH_END_ABORTED);
    assert_int_equal(match_last_result(m)->winner, MATCH_NONE);
    match_abort(m, 4600); /* finished already: nothing */
    assert_int_equal(match_phase(m), MATCH_FINISHED);
    match_destroy(m);
}

/* host_puzzles (the server's worker threads): a rematch asks the host for
 * the next puzzle and waits, flags set, until it is given; a failed one
 * clears the flags; a late one waits for the next start. */
static void test_host_puzzles(void **ctx)
{
    (void)ctx;
    pz_params p = {PZ_MAZE, LEN, 1, PZ_EASY};
    const char *err = NULL;
    match_config cfg = {3000, 30000, 3, true};
    match *m = match_create_puzzle(&walk_kind, walk_generate(&p, 7, &err), true, 7, &cfg, 99, &err);
    assert_non_null(m);
    match_event evs[32];
    assert_null(match_join(m, -1, "ann", 1000, NULL));
    assert_null(match_join(m, -1, "bob", 1000, NULL));
    assert_null(match_ready(m, 0, true, 1000));
    assert_null(match_ready(m, 1, true, 1000)); /* the first puzzle is there: no wait */
    assert_int_equal(match_phase(m), MATCH_COUNTDOWN);
    assert_false(match_wants_puzzle(m));
    match_update(m, 4000);
    play_moves(m, 0, LEN - 1, 5000);
    drain(m, evs, 32);
    assert_non_null(match_give_puzzle(m, walk_generate(&p, 1, &err), 1, 5050)); /* not asked */
    assert_null(match_rematch(m, 0, 5100));
    assert_null(match_rematch(m, 1, 5200));
    assert_int_equal(match_phase(m), MATCH_FINISHED); /* waiting for the puzzle */
    assert_true(match_wants_puzzle(m));
    int n = drain(m, evs, 32);
    const match_event *need = find(evs, n, MATCH_EV_NEED_PUZZLE);
    assert_non_null(need);
    uint64_t seed = need->seed;
    /* The generation failed: both may ask again. */
    assert_null(match_give_puzzle(m, NULL, 0, 5300));
    assert_false(match_wants_rematch(m, 0));
    assert_false(match_wants_rematch(m, 1));
    n = drain(m, evs, 32);
    assert_int_equal(count_type(evs, n, MATCH_EV_READY), 2);
    assert_null(match_rematch(m, 0, 5400));
    assert_null(match_rematch(m, 1, 5400));
    n = drain(m, evs, 32);
    need = find(evs, n, MATCH_EV_NEED_PUZZLE);
    assert_non_null(need);
    seed = need->seed;
    assert_null(match_give_puzzle(m, walk_generate(&p, seed, &err), seed, 5500));
    assert_int_equal(match_phase(m), MATCH_COUNTDOWN);
    n = drain(m, evs, 32);
    assert_non_null(find(evs, n, MATCH_EV_COUNTDOWN));
    uint64_t got;
    assert_true(match_seeded(m, &got));
    assert_int_equal(got, seed);
    match_destroy(m);
}

static void test_rematch_and_series(void **ctx)
{
    (void)ctx;
    match *m = racing_match(3);
    match_event evs[32];
    uint64_t seed1;
    assert_true(match_seeded(m, &seed1));
    char id1[64], id2[64];
    match_game_id(m, id1, sizeof id1);
    uint64_t h1 = match_desc_hash(m);

    play_moves(m, 0, LEN - 1, 5000); /* ann 1-0 */
    const match_result *r = match_last_result(m);
    assert_int_equal(r->game_no, 1);
    assert_int_equal(r->series_len, 3);
    assert_false(r->series_over);
    assert_non_null(match_ready(m, 0, true, 5100)); /* not in this phase */
    assert_null(match_rematch(m, 0, 5100));
    assert_int_equal(match_phase(m), MATCH_FINISHED);
    assert_true(match_wants_rematch(m, 0));
    assert_null(match_rematch(m, 0, 5150)); /* asking twice is harmless */
    int n = drain(m, evs, 32);
    assert_int_equal(count_type(evs, n, MATCH_EV_REMATCH_REQUEST), 1);
    assert_null(match_rematch(m, 1, 5200));
    assert_int_equal(match_phase(m), MATCH_COUNTDOWN);
    n = drain(m, evs, 32);
    const match_event *cd = find(evs, n, MATCH_EV_COUNTDOWN);
    assert_non_null(cd);
    assert_int_equal(cd->game_no, 2);
    assert_int_equal(cd->start_ms, 8200);
    uint64_t seed2;
    assert_true(match_seeded(m, &seed2));
    assert_true(seed1 != seed2);
    match_game_id(m, id2, sizeof id2);
    assert_string_not_equal(id1, id2);
    assert_true(h1 != match_desc_hash(m));
    assert_int_equal(match_moves(m, 0), 0);

    play_moves(m, 1, LEN - 1, 9000); /* bob: 1-1 */
    assert_int_equal(match_score(m, 1), 1);
    assert_false(match_last_result(m)->series_over);
    assert_null(match_rematch(m, 1, 9100));
    assert_null(match_rematch(m, 0, 9100));
    match_update(m, 12100);
    play_moves(m, 1, LEN - 1, 13000); /* bob: 1-2, series over */
    r = match_last_result(m);
    assert_int_equal(r->score[0], 1);
    assert_int_equal(r->score[1], 2);
    assert_true(r->series_over);
    assert_int_equal(r->game_no, 3);
    /* A rematch after the series begins a new one. */
    assert_null(match_rematch(m, 0, 14000));
    assert_null(match_rematch(m, 1, 14000));
    assert_int_equal(match_score(m, 1), 0);
    assert_int_equal(match_game_no(m), 1);
    match_destroy(m);
}

static void test_disconnect_after_finish(void **ctx)
{
    (void)ctx;
    match *m = racing_match(3);
    play_moves(m, 0, LEN - 1, 5000);
    assert_null(match_rematch(m, 0, 5100));
    assert_null(match_disconnect(m, 0, 5200));
    assert_false(match_wants_rematch(m, 0));
    assert_null(match_rematch(m, 1, 5300)); /* waits for the dropped player */
    assert_int_equal(match_phase(m), MATCH_FINISHED);
    match_token_t t0 = match_token(m, 0);
    assert_null(match_resume(m, 0, &t0, 6000));
    assert_null(match_rematch(m, 0, 6100));
    assert_int_equal(match_phase(m), MATCH_COUNTDOWN);
    /* Dropped after a finish and never back: the slot empties. */
    match_destroy(m);
    m = racing_match(3);
    play_moves(m, 0, LEN - 1, 5000);
    assert_null(match_disconnect(m, 1, 5200));
    match_update(m, 35200);
    assert_false(match_present(m, 1));
    assert_int_equal(match_last_result(m)->reason, MATCH_END_SOLVED);
    match_destroy(m);
}

/* Tokens are secrets (issue 14): the same rng_init gives other tokens every
 * time, and the old attack (one's own token -> the match rng's seed -> the
 * opponent's token) predicts nothing. With the old code (tokens from the
 * match rng) both asserts fail. */
static void test_tokens_not_derivable(void **ctx)
{
    (void)ctx;
    for (int i = 0; i < 200; i++) {
        match *a = racing_match(1), *b = racing_match(1);
        match_token_t a0 = match_token(a, 0), a1 = match_token(a, 1), b0 = match_token(b, 0);
        assert_false(match_token_equal(&a0, &b0));
        assert_false(match_token_equal(&a0, &a1));
        for (int be = 0; be < 2; be++) {
            uint64_t predicted = ta_predict_second(ta_token_u64(&a0, be));
            assert_true(predicted != ta_token_u64(&a1, 0) && predicted != ta_token_u64(&a1, 1));
        }
        match_destroy(a);
        match_destroy(b);
    }
}

/* The attack itself works on tokens made the old way, so the test above
 * would catch a return to them. */
static void test_token_attack_on_old_tokens(void **ctx)
{
    (void)ctx;
    rng_t r;
    rng_seed(&r, 99);
    for (int i = 0; i < 100; i++) {
        uint64_t init = rng_u64(&r);
        rng_t old;
        rng_seed(&old, init);
        uint64_t t0 = rng_u64(&old), t1 = rng_u64(&old);
        assert_int_equal(ta_predict_second(t0), t1);
    }
}

static void test_memory_budget(void **ctx)
{
    (void)ctx;
    match *m = racing_match(1);
    /* A long race: 300 moves each (back and forth), events drained as a host does. */
    match_event ev;
    for (int i = 0; i < 300; i++) {
        for (int s = 0; s < 2; s++)
            assert_null(match_move(m, s, (uint32_t)i, i % 2 ? LEFT : RIGHT, 5000 + (uint64_t)i, NULL));
        while (match_poll_event(m, &ev))
            ;
    }
    size_t bytes = match_memory(m);
    printf("match_memory after 600 moves: %zu bytes (sizeof struct match event %zu)\n", bytes,
           sizeof(match_event));
    assert_true(bytes < 16 * 1024);
    assert_true(bytes > 0);
    match_destroy(m);
}

/* However a client behaves, a game's move log stays bounded. */
static void test_move_limit(void **ctx)
{
    (void)ctx;
    match *m = racing_match(1);
    uint32_t limit = match_move_limit(m);
    assert_int_equal(limit, 3 * LEN + 1 + 1024);
    match_event ev;
    for (uint32_t i = 0; i < limit; i++) {
        assert_null(match_move(m, 0, i, i % 2 ? LEFT : RIGHT, 5000, NULL));
        while (match_poll_event(m, &ev))
            ;
    }
    int code;
    assert_non_null(match_move(m, 0, limit, RIGHT, 5000, &code));
    assert_int_equal(code, MATCH_REJ_TOO_MANY);
    assert_int_equal(match_moves(m, 0), limit);
    assert_true(match_memory(m) < 16 * 1024);
    /* The other player is not affected; a new game resets the count. */
    play_moves(m, 1, LEN - 1, 6000);
    assert_int_equal(match_last_result(m)->winner, 1);
    assert_null(match_rematch(m, 0, 7000));
    assert_null(match_rematch(m, 1, 7000));
    assert_int_equal(match_moves(m, 0), 0);
    match_destroy(m);
}

/* Random calls in random order with random slots, tokens and times, as a
 * hostile or buggy host might make them: never a crash, and the engine's
 * promises hold after every call. Bounded: 30 000 calls. */
static void test_random_calls_keep_invariants(void **ctx)
{
    (void)ctx;
    rng_t r;
    rng_seed(&r, 4242);
    match *m = new_match(200, 500, 3, 11);
    uint64_t now = 0;
    int finished = 0, races = 0;
    for (int i = 0; i < 30000; i++) {
        now += rng_below(&r, 120);
        int slot = (int)rng_below(&r, 4) - 1; /* -1..2 */
        match_token_t tok = match_token(m, slot);
        if (rng_below(&r, 4) == 0)
            tok.b[rng_below(&r, MATCH_TOKEN_BYTES)] ^= (uint8_t)(1 + rng_below(&r, 255));
        pz_move mv = {(uint8_t)rng_below(&r, 4), (uint8_t)rng_below(&r, 5), 0, 0};
        if (rng_below(&r, 3))
            mv = RIGHT;
        switch (rng_below(&r, 10)) {
        case 0:
            match_join(m, slot, "p", now, NULL);
            break;
        case 1:
            if (rng_below(&r, 4) == 0)
                match_leave(m, slot, now);
            break;
        case 2:
            match_ready(m, slot, rng_below(&r, 4) != 0, now);
            break;
        case 3:
            match_disconnect(m, slot, now);
            break;
        case 4:
            match_resume(m, slot, &tok, now);
            break;
        case 5:
            match_rematch(m, slot, now);
            break;
        case 6:
            match_update(m, now);
            break;
        default:
            match_move(m, slot, (uint32_t)i, mv, now, NULL);
            break;
        }
        int ph = match_phase(m);
        assert_true(ph >= MATCH_WAITING && ph <= MATCH_FINISHED);
        if (ph == MATCH_COUNTDOWN || ph == MATCH_RACING) {
            assert_true(match_present(m, 0) && match_present(m, 1));
            races += ph == MATCH_RACING;
        }
        for (int s = 0; s < MATCH_SLOTS; s++) {
            assert_true(match_moves(m, s) <= match_move_limit(m));
            assert_true(!match_connected(m, s) || match_present(m, s));
            assert_true(match_score(m, s) <= match_series_len(m) / 2 + 1);
        }
        assert_true(match_next_deadline(m) == UINT64_MAX || match_next_deadline(m) + 1000 > now);
        match_event ev;
        while (match_poll_event(m, &ev)) {
            assert_true(ev.type >= MATCH_EV_JOINED && ev.type <= MATCH_EV_FINISHED);
            assert_true(ev.to == MATCH_TO_BOTH || ev.to == 0 || ev.to == 1);
            if (ev.type == MATCH_EV_REJECT)
                assert_true(ev.code > MATCH_OK && ev.code < MATCH_REJ_COUNT && ev.reason);
            if (ev.type == MATCH_EV_FINISHED) {
                finished++;
                assert_true(ev.result.winner >= MATCH_NONE && ev.result.winner < MATCH_SLOTS);
                assert_true(ev.result.reason >= MATCH_END_SOLVED && ev.result.reason <= MATCH_END_ABORTED);
                assert_true(ev.result.winner != MATCH_NONE || ev.result.reason >= MATCH_END_BOTH_LEFT);
            }
        }
    }
    assert_true(match_memory(m) < 16 * 1024);
    printf("random calls: %d games finished, %d calls while racing\n", finished, races);
    assert_true(finished > 10); /* the walk covered the whole state machine */
    match_destroy(m);
}

static void test_config_and_texts(void **ctx)
{
    (void)ctx;
    match_config c;
    match_config_default(&c);
    assert_int_equal(c.countdown_ms, 3000);
    assert_int_equal(c.grace_ms, 30000);
    assert_int_equal(c.series_len, 1);
    assert_null(match_config_check(&c));
    c.series_len = 0;
    assert_non_null(match_config_check(&c));
    c.series_len = 100;
    assert_non_null(match_config_check(&c));
    pz_params p = {PZ_MAZE, LEN, 1, PZ_EASY};
    const char *err = NULL;
    pz_puzzle *pz = walk_generate(&p, 1, &err);
    assert_null(match_create_puzzle(&walk_kind, pz, true, 1, &c, 1, &err)); /* frees pz */
    assert_non_null(err);
    for (int i = 0; i < MATCH_REJ_COUNT; i++)
        assert_true(strlen(match_reject_text(i)) > 0);
    assert_string_equal(match_end_text(MATCH_END_FORFEIT), "forfeit");
    assert_string_equal(match_phase_text(MATCH_RACING), "racing");
    char e[128];
    assert_null(match_create_from_id("nonsense:1x1", NULL, 1, e, sizeof e));
    assert_true(strlen(e) > 0);
    assert_null(match_create_from_id(NULL, NULL, 1, e, sizeof e));
}

/* The protocol's puzzle transfer: the game ID a match reports rebuilds the
 * same puzzle elsewhere, and its description hash matches, for every kind;
 * a description-ID match reports the description form until a rematch. */
static void test_game_id_rebuilds_same_puzzle(void **ctx)
{
    (void)ctx;
    const char *ids[] = {"sum:5x4:medium#3", "maze:30x20:hard#4", "ice:25x20:easy#5", "pipes:6x4:hard#6"};
    for (size_t i = 0; i < MR_ARRAY_LEN(ids); i++) {
        char err[160], id[128];
        match *m = match_create_from_id(ids[i], NULL, 1, err, sizeof err);
        if (!m)
            fail_msg("%s: %s", ids[i], err);
        assert_true(match_seeded(m, NULL));
        assert_true(match_game_id(m, id, sizeof id) < (int)sizeof id);
        assert_string_equal(id, ids[i]);
        pz_puzzle *pz = pz_from_id(id, err, sizeof err);
        assert_non_null(pz);
        char *d = pz_kind_of(pz)->encode_desc(pz);
        assert_int_equal(mr_hash64(d, strlen(d)), match_desc_hash(m));
        free(d);

        /* The same puzzle by description: same hash, description form. */
        char *did = pz_id_format_desc(pz);
        match *md = match_create_from_id(did, NULL, 1, err, sizeof err);
        assert_non_null(md);
        assert_false(match_seeded(md, NULL));
        assert_int_equal(match_desc_hash(md), match_desc_hash(m));
        /* Its difficulty is the measured band: the generated one's. */
        assert_int_equal(pz_params_of(match_puzzle(md))->diff, pz_params_of(match_puzzle(m))->diff);
        int n = match_game_id(md, NULL, 0);
        assert_int_equal(n, (int)strlen(did));
        char *back = mr_alloc((size_t)n + 1, 1);
        match_game_id(md, back, (size_t)n + 1);
        assert_string_equal(back, did);
        free(back);
        free(did);
        pz_kind_of(pz)->free_puzzle(pz);
        match_destroy(md);
        match_destroy(m);
    }
}

/* Issue 12 point 5: a room made from a description has the board's
 * measured band (a board in no band is easy), and its rematches generate
 * seeded puzzles at that difficulty. */
static void test_description_difficulty(void **ctx)
{
    (void)ctx;
    char err[160], id[128];
    match_config cfg;
    match_config_default(&cfg);
    cfg.countdown_ms = 0;
    match *m = match_create_from_id("ice:6x6:1.1.AAA", &cfg, 3, err, sizeof err); /* one slide up */
    assert_non_null(m);
    assert_int_equal(pz_params_of(match_puzzle(m))->diff, PZ_EASY);
    int s0, s1;
    assert_null(match_join(m, -1, "a", 0, &s0));
    assert_null(match_join(m, -1, "b", 0, &s1));
    assert_null(match_ready(m, s0, true, 0));
    assert_null(match_ready(m, s1, true, 0));
    int code = -1;
    match_move(m, s0, 1, (pz_move){PZ_MOVE_STEP, PZ_UP, 0, 0}, 1, &code);
    assert_int_equal(code, MATCH_OK);
    assert_int_equal(match_phase(m), MATCH_FINISHED);
    match_token_t token = match_token(m, s0);
    assert_null(match_rematch(m, s0, 2));
    assert_null(match_rematch(m, s1, 2));
    assert_true(match_seeded(m, NULL));
    match_game_id(m, id, sizeof id);
    assert_non_null(strstr(id, "ice:6x6:easy#"));
    /* The resume token stays with the seat across the rematch. */
    match_token_t now = match_token(m, s0);
    assert_true(match_token_equal(&now, &token));
    match_destroy(m);
}

/* "kind:WxH:difficulty" with no seed: the match draws one from rng_init, so
 * the same rng_init gives the same puzzle and another gives another; the
 * match's game ID then names the seed it drew. */
static void test_game_id_without_seed(void **ctx)
{
    (void)ctx;
    char err[160], a[128], b[128], c[128];
    match *m1 = match_create_from_id("maze:21x15:medium", NULL, 11, err, sizeof err);
    match *m2 = match_create_from_id("maze:21x15:medium", NULL, 11, err, sizeof err);
    match *m3 = match_create_from_id("maze:21x15:medium", NULL, 12, err, sizeof err);
    assert_non_null(m1);
    assert_non_null(m2);
    assert_non_null(m3);
    assert_true(match_seeded(m1, NULL));
    match_game_id(m1, a, sizeof a);
    match_game_id(m2, b, sizeof b);
    match_game_id(m3, c, sizeof c);
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    assert_non_null(strstr(a, "maze:21x15:medium#"));
    assert_int_equal(match_desc_hash(m1), match_desc_hash(m2));
    /* An impossible request still fails with the kind's reason. */
    assert_null(match_create_from_id("ice:5x5:hard", NULL, 1, err, sizeof err));
    assert_true(err[0] != '\0');
    match_destroy(m1);
    match_destroy(m2);
    match_destroy(m3);
}

/* The move log is packed; whatever fields an accepted move has, the log
 * gives them back. */
static void test_move_log_round_trip(void **ctx)
{
    (void)ctx;
    match *m = racing_match(1);
    static const uint16_t vals[] = {0, 1, 127, 128, 300, 16383, 16384, 65535};
    pz_move want[64 + 2];
    size_t n = 0;
    match_event ev;
    for (size_t i = 0; i < MR_ARRAY_LEN(vals); i++)
        for (size_t j = 0; j < MR_ARRAY_LEN(vals); j++) {
            pz_move mv = {PZ_MOVE_ROTATE_CW, 0, vals[i], vals[j]};
            assert_null(match_move(m, 0, (uint32_t)n, mv, 5000, NULL));
            want[n++] = mv;
        }
    assert_null(match_move(m, 0, (uint32_t)n, RIGHT, 5000, NULL));
    want[n++] = RIGHT;
    while (match_poll_event(m, &ev))
        ;
    pz_move got[64 + 2];
    assert_int_equal(match_move_log(m, 0, got, MR_ARRAY_LEN(got)), n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(got[i].type, want[i].type);
        assert_int_equal(got[i].dir, want[i].dir);
        assert_int_equal(got[i].x, want[i].x);
        assert_int_equal(got[i].y, want[i].y);
    }
    assert_int_equal(match_move_log(m, 0, got, 3), n); /* a short buffer gets the first 3 */
    assert_int_equal(got[2].y, want[2].y);
    assert_int_equal(match_move_log(m, 1, got, 4), 0);
    assert_int_equal(match_move_log(m, 5, got, 4), 0);
    match_destroy(m);
}

/* Each accepted move keeps its time from the race start, whatever the
 * gaps (0 ms to weeks); rejected moves leave no trace; a new game starts a
 * new log. */
static void test_move_times(void **ctx)
{
    (void)ctx;
    match *m = racing_match(1); /* race starts at 4000 */
    static const uint64_t at[] = {4000, 4000, 4127, 4128, 20384, 20385, 2100000, 300000000, 5000000000ull};
    match_event ev;
    for (size_t i = 0; i < MR_ARRAY_LEN(at); i++)
        assert_null(match_move(m, 0, (uint32_t)i, i % 2 ? LEFT : RIGHT, at[i], NULL));
    assert_non_null(match_move(m, 0, 99, UP, 5000000001ull, NULL)); /* rejected: not logged */
    assert_null(match_move(m, 1, 0, RIGHT, 4500, NULL));
    while (match_poll_event(m, &ev))
        ;
    uint32_t t[16];
    pz_move mv[16];
    assert_int_equal(match_move_times(m, 0, t, 16), MR_ARRAY_LEN(at));
    for (size_t i = 0; i + 1 < MR_ARRAY_LEN(at); i++)
        assert_int_equal(t[i], at[i] - 4000);
    assert_int_equal(t[MR_ARRAY_LEN(at) - 1], UINT32_MAX); /* 57 days: saturated */
    memset(t, 0, sizeof t);
    assert_int_equal(match_move_log_timed(m, 0, mv, t, 3), MR_ARRAY_LEN(at));
    assert_int_equal(t[2], 127);
    assert_int_equal(t[3], 0);
    assert_int_equal(mv[1].dir, PZ_LEFT);
    assert_int_equal(match_move_times(m, 1, t, 16), 1);
    assert_int_equal(t[0], 500);
    assert_int_equal(match_move_times(m, 1, NULL, 0), 1);
    assert_int_equal(match_move_times(m, 2, t, 16), 0);
    /* Slot 1 solves; the rematch starts with empty logs and times from its own start. */
    play_moves(m, 1, LEN - 2, 6000);
    assert_null(match_rematch(m, 0, 7000));
    assert_null(match_rematch(m, 1, 7000));
    match_update(m, 10000);
    assert_int_equal(match_move_times(m, 0, t, 16), 0);
    assert_null(match_move(m, 0, 0, RIGHT, 10250, NULL));
    assert_int_equal(match_move_times(m, 0, t, 16), 1);
    assert_int_equal(t[0], 250);
    match_destroy(m);
}

/* Issue 3's budget: a running match at the default size stays under
 * 16 KiB beyond the puzzle states even when both players reach the move
 * limit (the worst a client can make it). */
static void test_memory_at_move_limit_default_maze(void **ctx)
{
    (void)ctx;
    char err[128];
    match_config cfg = {0, 30000, 1, false};
    match *m = match_create_from_id("maze:21x15:medium#1", &cfg, 5, err, sizeof err);
    assert_non_null(m);
    assert_null(match_join(m, -1, "ann", 0, NULL));
    assert_null(match_join(m, -1, "bob", 0, NULL));
    assert_null(match_ready(m, 0, true, 0));
    assert_null(match_ready(m, 1, true, 0));
    match_update(m, 1);
    assert_int_equal(match_phase(m), MATCH_RACING);
    /* From the start (0, 14), walk through an open passage and back. */
    int dir = -1;
    for (int d = 0; d < PZ_DIR_COUNT && dir < 0; d++)
        if (maze_open(match_puzzle(m), 0, 14, d))
            dir = d;
    assert_true(dir >= 0);
    pz_move fwd = {PZ_MOVE_STEP, (uint8_t)dir, 0, 0},
            back = {PZ_MOVE_STEP, (uint8_t)pz_dir_opposite(dir), 0, 0};
    uint32_t limit = match_move_limit(m);
    match_event ev;
    /* One move every 250 ms each, a fast human pace (gaps of 128 ms to 16 s
     * cost the most a time usually takes, 2 bytes). */
    for (uint32_t i = 0; i < limit; i++) {
        for (int s = 0; s < 2; s++)
            assert_null(match_move(m, s, i, i % 2 ? back : fwd, 1 + (uint64_t)i * 250, NULL));
        while (match_poll_event(m, &ev))
            ;
    }
    size_t bytes = match_memory(m);
    printf("match_memory, default maze, both players at the move limit (%u): %zu bytes\n", limit, bytes);
    assert_true(bytes < 16 * 1024);
    uint32_t t[2];
    assert_int_equal(match_move_times(m, 1, t, 2), limit);
    assert_int_equal(t[1] - t[0], 250);
    match_destroy(m);
}

/* A player whose grace ran out is told the result when they come back:
 * their old token still names the emptied seat until the next game, and
 * only that token, only that seat. */
static void test_back_after_grace_knows_the_seat(void **state)
{
    (void)state;
    match *m = racing_match(1);
    match_token_t tok = match_token(m, 1), other = match_token(m, 0);
    assert_false(match_was_seat(m, 1, &tok)); /* seated: nothing to tell */
    assert_null(match_disconnect(m, 1, 5000));
    match_update(m, 5000 + 30000);
    assert_int_equal(match_phase(m), MATCH_FINISHED);
    assert_false(match_present(m, 1));
    const match_result *r = match_last_result(m);
    assert_int_equal(r->winner, 0);
    assert_int_equal(r->reason, MATCH_END_FORFEIT);
    assert_non_null(match_resume(m, 1, &tok, 35001)); /* the seat is gone ... */
    assert_true(match_was_seat(m, 1, &tok));          /* ... but it was theirs */
    assert_false(match_was_seat(m, 1, &other));
    assert_false(match_was_seat(m, 0, &tok));
    assert_false(match_was_seat(m, 2, &tok));
    assert_false(match_was_seat(m, 1, NULL));
    /* Someone else takes the seat: forgotten. */
    int slot;
    assert_null(match_join(m, -1, "cy", 36000, &slot));
    assert_int_equal(slot, 1);
    assert_false(match_was_seat(m, 1, &tok));
    match_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_race),
        cmocka_unit_test(test_description_difficulty),
        cmocka_unit_test(test_first_solve_wins_by_server_clock),
        cmocka_unit_test(test_bad_calls_change_nothing),
        cmocka_unit_test(test_ready_toggle_and_lobby_leave),
        cmocka_unit_test(test_zero_countdown),
        cmocka_unit_test(test_disconnect_resume),
        cmocka_unit_test(test_grace_expires_forfeit),
        cmocka_unit_test(test_both_drop),
        cmocka_unit_test(test_leave_forfeits_and_abort),
        cmocka_unit_test(test_rematch_and_series),
        cmocka_unit_test(test_host_puzzles),
        cmocka_unit_test(test_disconnect_after_finish),
        cmocka_unit_test(test_tokens_not_derivable),
        cmocka_unit_test(test_token_attack_on_old_tokens),
        cmocka_unit_test(test_memory_budget),
        cmocka_unit_test(test_move_limit),
        cmocka_unit_test(test_move_log_round_trip),
        cmocka_unit_test(test_move_times),
        cmocka_unit_test(test_memory_at_move_limit_default_maze),
        cmocka_unit_test(test_random_calls_keep_invariants),
        cmocka_unit_test(test_config_and_texts),
        cmocka_unit_test(test_game_id_rebuilds_same_puzzle),
        cmocka_unit_test(test_game_id_without_seed),
        cmocka_unit_test(test_back_after_grace_knows_the_seat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
