/* test_match.c: the match engine's states, events and rules (lobby, race, disconnects, grace, series, host
 * puzzles), driven by a fake clock and a fake kind (match_walk.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "match.h"
#include "match_walk.h"
#include "util.h"

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
        cmocka_unit_test(test_back_after_grace_knows_the_seat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
