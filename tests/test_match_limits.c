/* test_match_limits.c: the match engine's tokens, memory and move limits, random calls against its
 * invariants, game IDs and move logs (the fake kind and clock of match_walk.c; test_match.c has the states
 * and events). */
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
#include "maze.h"
#include "rng.h"
#include "token_attack.h"
#include "util.h"

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
    for (int i = 0; i < MATCH_REJ_COUNT; i++) /* every code has its own words */
        assert_string_not_equal(match_reject_text(i), match_reject_text(MATCH_REJ_COUNT));
    assert_string_equal(match_reject_text(MATCH_REJ_TOO_MANY), "too many moves in this game");
    assert_string_equal(match_reject_text(-1), "unknown reason");
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_description_difficulty),
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
