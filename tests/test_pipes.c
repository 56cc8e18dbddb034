/* test_pipes.c: pipes kind tests: generation properties, exact par, moves, descriptions, text, catalogue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipes.h"
#include "rng.h"
#include "util.h"

#define K pz_kind_pipes
#define SEEDS 1000

static pz_params params(int w, int h, int diff)
{
    return (pz_params){.kind = PZ_PIPES, .w = w, .h = h, .diff = diff};
}

static pz_puzzle *gen(int w, int h, int diff, uint64_t seed)
{
    pz_params p = params(w, h, diff);
    const char *err = NULL;
    pz_puzzle *pz = K.generate(&p, seed, &err);
    if (!pz)
        fail_msg("generate %dx%d %d #%" PRIu64 ": %s", w, h, diff, seed, err ? err : "?");
    return pz;
}

static pz_puzzle *from_text(const char *text, pz_error *err)
{
    memset(err, 0, sizeof *err);
    return K.parse_text(text, strlen(text), err);
}

/* Replays moves from the start; returns the state (caller frees). Every
 * move must be legal, and only the last may solve. */
static pz_state *replay(const pz_puzzle *pz, const pz_move *mv, int n)
{
    pz_state *st = K.new_state(pz);
    for (int i = 0; i < n; i++) {
        assert_false(K.is_solved(pz, st));
        const char *why = K.execute_move(pz, st, mv[i], st);
        if (why)
            fail_msg("move %d rejected: %s", i, why);
    }
    return st;
}

/* Everything the issue asks of one generated puzzle. */
static void check_puzzle(const pz_puzzle *pz, int w, int h, int diff, uint64_t seed)
{
    pz_params p = params(w, h, diff);
    /* description round trip, byte for byte */
    char *desc = K.encode_desc(pz);
    for (const char *c = desc; *c; c++)
        assert_non_null(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *c));
    const char *err = NULL;
    pz_puzzle *back = K.decode_desc(&p, desc, &err);
    if (!back)
        fail_msg("decode of own description %s failed: %s", desc, err);
    char *desc2 = K.encode_desc(back);
    assert_string_equal(desc, desc2);
    /* text form round trip */
    char *text = K.format_text(pz);
    pz_error e;
    pz_puzzle *parsed = from_text(text, &e);
    if (!parsed)
        fail_msg("parse of own text failed at %d:%d: %s\n%s", e.line, e.col, e.msg, text);
    char *desc3 = K.encode_desc(parsed);
    assert_string_equal(desc, desc3);
    char *text2 = K.format_text(parsed);
    assert_string_equal(text, text2);
    /* same seed, same puzzle */
    pz_puzzle *again = gen(w, h, diff, seed);
    char *desc4 = K.encode_desc(again);
    assert_string_equal(desc, desc4);
    /* solve, grade, replay */
    pz_grade g;
    K.grade(pz, &g);
    assert_int_equal(g.band, diff);
    assert_true(g.par >= 1);
    assert_int_equal(g.measure, g.par);
    pz_state *st0 = K.new_state(pz);
    assert_false(K.is_solved(pz, st0));
    pz_progress pr;
    K.progress(pz, st0, &pr);
    assert_false(pr.solved);
    K.free_state(st0);
    int max = 3 * w * h + 1;
    pz_move *mv = mr_alloc((size_t)max, sizeof *mv);
    int n = K.solve(pz, NULL, mv, max);
    assert_int_equal(n, g.par);
    pz_state *st = replay(pz, mv, n);
    assert_true(K.is_solved(pz, st));
    K.progress(pz, st, &pr);
    assert_true(pr.solved);
    assert_true(pr.value >= w);
    free(mv);
    K.free_state(st);
    free(desc);
    free(desc2);
    free(desc3);
    free(desc4);
    free(text);
    free(text2);
    K.free_puzzle(back);
    K.free_puzzle(parsed);
    K.free_puzzle(again);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Seeds per band at the maximum 40x40 (about 1-10 ms each with the checks):
 * 1000, or 150 under the sanitizers (MR_SANITIZE) to keep CI in budget. */
#ifdef MR_SANITIZE
#define MAX_SIZE_SEEDS 150
#else
#define MAX_SIZE_SEEDS 1000
#endif

static void properties_at(int w, int h, int diff, int seeds)
{
    uint64_t *hashes = mr_alloc((size_t)seeds, sizeof *hashes);
    for (uint64_t seed = 1; seed <= (uint64_t)seeds; seed++) {
        pz_puzzle *pz = gen(w, h, diff, seed);
        check_puzzle(pz, w, h, diff, seed);
        char *desc = K.encode_desc(pz);
        hashes[seed - 1] = mr_hash64(desc, strlen(desc));
        free(desc);
        K.free_puzzle(pz);
    }
    /* the seed shapes the board: nearly every seed gives a different one */
    qsort(hashes, (size_t)seeds, sizeof *hashes, cmp_u64);
    int distinct = 1;
    for (int i = 1; i < seeds; i++)
        distinct += hashes[i] != hashes[i - 1];
    assert_true(distinct >= seeds * 95 / 100);
    free(hashes);
}

static void properties(int diff)
{
    properties_at(6, 4, diff, SEEDS);
    properties_at(K.max_w, K.max_h, diff, MAX_SIZE_SEEDS);
}

static void test_properties_easy(void **ctx)
{
    (void)ctx;
    properties(PZ_EASY);
}

static void test_properties_medium(void **ctx)
{
    (void)ctx;
    properties(PZ_MEDIUM);
}

static void test_properties_hard(void **ctx)
{
    (void)ctx;
    properties(PZ_HARD);
}

/* Each band is reachable beyond the default size too, up to the maximum. */
static void test_other_sizes(void **ctx)
{
    (void)ctx;
    static const int sizes[][2] = {{2, 2},  {3, 3},   {4, 3},  {9, 2},  {2, 9},  {12, 8},
                                   {20, 6}, {22, 22}, {23, 3}, {40, 3}, {3, 40}, {31, 17}};
    for (size_t s = 0; s < MR_ARRAY_LEN(sizes); s++) {
        for (int d = 0; d < PZ_DIFF_COUNT; d++) {
            pz_params p = params(sizes[s][0], sizes[s][1], d);
            if (K.validate_params(&p))
                continue;
            for (uint64_t seed = 1; seed <= 8; seed++) {
                pz_puzzle *pz = gen(p.w, p.h, d, seed);
                check_puzzle(pz, p.w, p.h, d, seed);
                K.free_puzzle(pz);
            }
        }
    }
    pz_params big = params(K.max_w, K.max_h, PZ_HARD);
    assert_null(K.validate_params(&big));
}

/* ---- par is exact: compare with brute force on small boards ---- */

static int rotl4(int m, int t)
{
    return ((m << t) | (m >> (4 - t))) & 15;
}

/* An independent reading of the rules: follow the chain from the Start cap
 * over masks m[] and say whether it leaves through the End cap. */
static bool chain_done(const int *m, int w, int h, int sr, int er)
{
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    int x = 0, y = sr, entry = 3;
    for (int steps = 0; steps <= w * h; steps++) {
        int mask = m[y * w + x];
        if (!(mask & (1 << entry)))
            return false;
        int exit = 0;
        while (exit == entry || !(mask & (1 << exit)))
            exit++;
        int nx = x + dx[exit], ny = y + dy[exit];
        if (nx < 0 || ny < 0 || nx >= w || ny >= h)
            return exit == 1 && x == w - 1 && y == er;
        x = nx;
        y = ny;
        entry = (exit + 2) & 3;
    }
    return false;
}

/* Min rotations over every orientation of every tile that solves the
 * board of initial masks m0; -1 if none does. */
static int brute_masks(const int *m0, int w, int h, int sr, int er)
{
    int n = w * h, m[16], turns[16] = {0}, best = -1;
    for (;;) {
        int cost = 0;
        for (int i = 0; i < n; i++) {
            m[i] = rotl4(m0[i], turns[i]);
            cost += turns[i] == 3 ? 1 : turns[i];
        }
        if ((best < 0 || cost < best) && chain_done(m, w, h, sr, er))
            best = cost;
        int i = 0;
        while (i < n && ++turns[i] == (m0[i] == 5 || m0[i] == 10 ? 2 : 4))
            turns[i++] = 0;
        if (i == n)
            break;
    }
    return best;
}

static int brute_par(const pz_puzzle *pz, int w, int h)
{
    int m0[16];
    for (int i = 0; i < w * h; i++)
        m0[i] = pipes_tile(pz, NULL, i % w, i / w);
    return brute_masks(m0, w, h, pipes_start_row(pz), pipes_end_row(pz));
}

static long orientation_space(const pz_puzzle *pz, int w, int h)
{
    long space = 1;
    for (int i = 0; i < w * h; i++) {
        int m = pipes_tile(pz, NULL, i % w, i / w);
        space *= (m == (PIPES_N | PIPES_S) || m == (PIPES_E | PIPES_W)) ? 2 : 4;
    }
    return space;
}

static void test_par_exact(void **ctx)
{
    (void)ctx;
    int checked = 0;
    /* generated boards */
    for (uint64_t seed = 1; seed <= 40; seed++) {
        int w = seed % 2 ? 3 : 4, h = 3, diff = (int)(seed % 3);
        pz_params p = params(w, h, diff);
        if (K.validate_params(&p))
            continue;
        pz_puzzle *pz = gen(w, h, diff, seed);
        if (orientation_space(pz, w, h) <= 70000) {
            pz_grade g;
            K.grade(pz, &g);
            assert_int_equal(g.par, brute_par(pz, w, h));
            checked++;
        }
        K.free_puzzle(pz);
    }
    assert_true(checked >= 10);
    /* arbitrary boards, through descriptions: the reader must refuse exactly
     * those that no rotation solves */
    rng_t r;
    rng_seed(&r, 2024);
    int solvable = 0, refused = 0;
    for (int k = 0; k < 300; k++) {
        int w = 3 + (int)rng_below(&r, 2), h = 3, sr = (int)rng_below(&r, 3), er = (int)rng_below(&r, 3);
        /* description digits: 6 * first tile + second, tiles | - L F 7 J */
        static const int masks[6] = {5, 10, 3, 6, 12, 9};
        int m0[16];
        char desc[32];
        int len = snprintf(desc, sizeof desc, "%d.%d.", sr, er);
        for (int c = 0; c < (w * h + 1) / 2; c++) {
            int v = (int)rng_below(&r, 36);
            if (2 * c + 1 == w * h)
                v -= v % 6;
            desc[len++] = "0123456789abcdefghijklmnopqrstuvwxyz"[v];
            m0[2 * c] = masks[v / 6];
            if (2 * c + 1 < w * h)
                m0[2 * c + 1] = masks[v % 6];
        }
        desc[len] = '\0';
        pz_params p = params(w, h, PZ_EASY);
        const char *err = NULL;
        pz_puzzle *pz = K.decode_desc(&p, desc, &err);
        long space = 1;
        for (int i = 0; i < w * h; i++)
            space *= m0[i] == 5 || m0[i] == 10 ? 2 : 4;
        if (!pz) {
            /* refused only if no orientation at all solves it */
            if (space <= 70000) {
                assert_int_equal(brute_masks(m0, w, h, sr, er), -1);
                refused++;
            }
            continue;
        }
        if (space > 70000) {
            K.free_puzzle(pz);
            continue;
        }
        int want = brute_par(pz, w, h);
        assert_true(want >= 0);
        pz_grade g;
        K.grade(pz, &g);
        assert_int_equal(g.par, want);
        pz_move mv[64];
        assert_int_equal(K.solve(pz, NULL, mv, 64), want);
        solvable++;
        K.free_puzzle(pz);
    }
    assert_true(solvable >= 20);
    assert_true(refused >= 20);
}

/* A hand-made board: both straights on the Start row are forced east, so
 * the only chain is the row itself, and two of its tiles need a turn. */
static void test_par_hand_made(void **ctx)
{
    (void)ctx;
    const char *text = ".F-7.\n"
                       "S|-|E\n"
                       ".L-J.\n";
    pz_error e;
    pz_puzzle *pz = from_text(text, &e);
    if (!pz)
        fail_msg("%d:%d %s", e.line, e.col, e.msg);
    pz_grade g;
    K.grade(pz, &g);
    assert_int_equal(g.par, 2);
    assert_int_equal(brute_par(pz, 3, 3), 2);
    pz_move mv[32];
    int n = K.solve(pz, NULL, mv, 32);
    assert_int_equal(n, 2);
    pz_state *st = replay(pz, mv, n);
    assert_true(K.is_solved(pz, st));
    K.free_state(st);
    K.free_puzzle(pz);
}

/* ---- moves ---- */

static void test_illegal_moves(void **ctx)
{
    (void)ctx;
    pz_puzzle *pz = gen(6, 4, PZ_MEDIUM, 7);
    pz_state *st = K.new_state(pz);
    pz_state *to = K.new_state(pz);
    char *before = K.encode_desc(pz);
    const pz_move bad[] = {
        {.type = 0, .x = 0, .y = 0},
        {.type = PZ_MOVE_STEP, .dir = PZ_RIGHT, .x = 0, .y = 0},
        {.type = 4, .x = 0, .y = 0},
        {.type = 255, .x = 1, .y = 1},
        {.type = PZ_MOVE_ROTATE_CW, .x = 6, .y = 0},
        {.type = PZ_MOVE_ROTATE_CW, .x = 0, .y = 4},
        {.type = PZ_MOVE_ROTATE_CCW, .x = 65535, .y = 65535},
        {.type = PZ_MOVE_ROTATE_CCW, .x = 2, .y = 65535},
        {.type = PZ_MOVE_ROTATE_CW, .dir = 1, .x = 0, .y = 0},
        {.type = PZ_MOVE_ROTATE_CW, .dir = 200, .x = 0, .y = 0},
    };
    pz_move ok = {.type = PZ_MOVE_ROTATE_CW, .x = 1, .y = 1};
    assert_null(K.execute_move(pz, st, ok, to)); /* to now differs from st */
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        const char *why = K.execute_move(pz, st, bad[i], to);
        assert_non_null(why);
        assert_true(strlen(why) > 5);
        /* `to` unchanged: still one turn at (1,1) */
        assert_int_equal(pipes_turns(to, 1, 1), 1);
        assert_int_equal(pipes_turns(st, 1, 1), 0);
    }
    /* after solved, every move is refused */
    pz_move mv[128];
    int n = K.solve(pz, NULL, mv, 128);
    K.free_state(st);
    st = replay(pz, mv, n);
    assert_true(K.is_solved(pz, st));
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 6; x++) {
            pz_move m = {.type = (uint8_t)(x % 2 ? PZ_MOVE_ROTATE_CW : PZ_MOVE_ROTATE_CCW),
                         .x = (uint16_t)x,
                         .y = (uint16_t)y};
            assert_non_null(K.execute_move(pz, st, m, st));
        }
    assert_true(K.is_solved(pz, st));
    char *after = K.encode_desc(pz);
    assert_string_equal(before, after);
    free(before);
    free(after);
    K.free_state(st);
    K.free_state(to);
    K.free_puzzle(pz);
}

static void test_rotation_and_accessors(void **ctx)
{
    (void)ctx;
    pz_puzzle *pz = gen(6, 4, PZ_HARD, 3);
    pz_state *st = K.new_state(pz);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 6; x++) {
            int m0 = pipes_tile(pz, st, x, y);
            assert_int_equal(m0, pipes_tile(pz, NULL, x, y));
            pz_move cw = {.type = PZ_MOVE_ROTATE_CW, .x = (uint16_t)x, .y = (uint16_t)y};
            pz_move ccw = {.type = PZ_MOVE_ROTATE_CCW, .x = (uint16_t)x, .y = (uint16_t)y};
            assert_null(K.execute_move(pz, st, cw, st));
            int m1 = pipes_tile(pz, st, x, y);
            /* clockwise: N->E, E->S, S->W, W->N */
            assert_int_equal(m1, ((m0 << 1) | (m0 >> 3)) & 15);
            assert_int_equal(pipes_turns(st, x, y), 1);
            assert_null(K.execute_move(pz, st, ccw, st));
            assert_null(K.execute_move(pz, st, ccw, st));
            assert_int_equal(pipes_turns(st, x, y), 3);
            assert_null(K.execute_move(pz, st, cw, st));
            assert_int_equal(pipes_tile(pz, st, x, y), m0);
            assert_int_equal(pipes_turns(st, x, y), 0);
        }
    assert_int_equal(pipes_tile(pz, st, -1, 0), 0);
    assert_int_equal(pipes_tile(pz, st, 6, 0), 0);
    assert_int_equal(pipes_tile(pz, st, 0, 4), 0);
    assert_int_equal(pipes_turns(st, 0, -1), 0);
    assert_false(pipes_connected(pz, st, 6, 0));
    assert_true(pipes_start_row(pz) >= 0 && pipes_start_row(pz) < 4);
    assert_true(pipes_end_row(pz) >= 0 && pipes_end_row(pz) < 4);
    /* progress counts exactly the connected tiles */
    pz_progress pr;
    K.progress(pz, st, &pr);
    int lit = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 6; x++)
            lit += pipes_connected(pz, st, x, y);
    assert_int_equal(pr.value, lit);
    assert_int_equal(pr.x, -1);
    /* copy_state gives an independent equal state */
    pz_state *cp = K.new_state(pz);
    pz_move m = {.type = PZ_MOVE_ROTATE_CW, .x = 2, .y = 2};
    assert_null(K.execute_move(pz, st, m, st));
    K.copy_state(cp, st);
    assert_int_equal(pipes_turns(cp, 2, 2), 1);
    K.free_state(cp);
    K.free_state(st);
    K.free_state(NULL);
    K.free_puzzle(pz);
    K.free_puzzle(NULL);
}

/* From any reachable state, solve gives moves that solve it. */
static void test_solve_midway(void **ctx)
{
    (void)ctx;
    rng_t r;
    rng_seed(&r, 99);
    for (uint64_t seed = 1; seed <= 100; seed++) {
        pz_puzzle *pz = gen(6, 4, (int)(seed % 3), seed);
        pz_state *st = K.new_state(pz);
        for (int k = 0; k < 10 && !K.is_solved(pz, st); k++) {
            pz_move m = {.type = (uint8_t)(rng_below(&r, 2) ? PZ_MOVE_ROTATE_CW : PZ_MOVE_ROTATE_CCW),
                         .x = (uint16_t)rng_below(&r, 6),
                         .y = (uint16_t)rng_below(&r, 4)};
            assert_null(K.execute_move(pz, st, m, st));
        }
        pz_move mv[80];
        int n = K.solve(pz, st, mv, 80);
        assert_true(n >= 0 && n <= 80);
        for (int k = 0; k < n; k++)
            assert_null(K.execute_move(pz, st, mv[k], st));
        assert_true(K.is_solved(pz, st));
        assert_int_equal(K.solve(pz, st, mv, 80), 0);
        K.free_state(st);
        K.free_puzzle(pz);
    }
}

/* Moves with every field random (as off the network): a refused move leaves
 * the state alone, an accepted one turns exactly the named tile. */
static void test_random_moves(void **ctx)
{
    (void)ctx;
    rng_t r;
    rng_seed(&r, 31337);
    pz_puzzle *pz = gen(6, 4, PZ_HARD, 5);
    pz_state *st = K.new_state(pz);
    pz_state *to = K.new_state(pz);
    int accepted = 0;
    for (int k = 0; k < 5000; k++) {
        uint64_t bits = rng_u64(&r);
        pz_move m = {.type = (uint8_t)(bits & 3),
                     .dir = (uint8_t)(bits >> 8 & 1 ? 0 : bits >> 16),
                     .x = (uint16_t)(bits >> 24 & 1 ? bits >> 32 & 7 : bits >> 32),
                     .y = (uint16_t)(bits >> 25 & 1 ? bits >> 48 & 7 : bits >> 48)};
        K.copy_state(to, st);
        const char *why = K.execute_move(pz, st, m, to);
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 6; x++) {
                int d = (pipes_turns(to, x, y) - pipes_turns(st, x, y) + 4) & 3;
                bool named = !why && x == m.x && y == m.y;
                assert_int_equal(d, named ? (m.type == PZ_MOVE_ROTATE_CW ? 1 : 3) : 0);
            }
        if (!why) {
            accepted++;
            K.copy_state(st, to);
        }
        if (K.is_solved(pz, st)) {
            K.free_state(st);
            st = K.new_state(pz);
        }
    }
    assert_true(accepted > 100);
    K.free_state(st);
    K.free_state(to);
    K.free_puzzle(pz);
}

/* Random text and descriptions: refused with a position inside the text, or
 * accepted and then consistent. */
static void test_random_input(void **ctx)
{
    (void)ctx;
    rng_t r;
    rng_seed(&r, 4242);
    static const char alphabet[] = "|-LF7JSE.\n\r x0a";
    int accepted = 0;
    for (int k = 0; k < 3000; k++) {
        char text[64];
        int len = (int)rng_below(&r, sizeof text);
        /* mostly well-formed rows with a few random characters swapped in */
        for (int i = 0; i < len; i++) {
            int col = i % 6;
            text[i] = col == 5   ? '\n'
                      : col == 0 ? (i / 6 == 1 ? 'S' : '.')
                      : col == 4 ? (i / 6 == 2 ? 'E' : '.')
                                 : "|-LF7J"[rng_below(&r, 6)];
            if (rng_below(&r, 40) == 0)
                text[i] = alphabet[rng_below(&r, sizeof alphabet - 1)];
        }
        pz_error e;
        memset(&e, 0, sizeof e);
        pz_puzzle *pz = K.parse_text(text, (size_t)len, &e);
        if (!pz) {
            assert_true(e.line >= 1 && e.line <= len / 6 + 2);
            assert_true(e.col >= 1);
            assert_true(e.msg[0] != '\0');
            continue;
        }
        accepted++;
        char *out = K.format_text(pz);
        pz_puzzle *again = from_text(out, &e);
        assert_non_null(again);
        K.free_puzzle(again);
        free(out);
        K.free_puzzle(pz);
    }
    assert_true(accepted > 50);
    for (int k = 0; k < 3000; k++) {
        char desc[24];
        int len = (int)rng_below(&r, sizeof desc);
        for (int i = 0; i < len; i++)
            desc[i] = "0123456789az.-_Z"[rng_below(&r, 16)];
        desc[len] = '\0';
        pz_params p = params(3 + (int)rng_below(&r, 3), 3, PZ_EASY);
        const char *err = NULL;
        pz_puzzle *pz = K.decode_desc(&p, desc, &err);
        if (!pz) {
            assert_non_null(err);
            continue;
        }
        char *again = K.encode_desc(pz);
        assert_string_equal(again, desc);
        free(again);
        K.free_puzzle(pz);
    }
}

/* ---- descriptions ---- */

static void test_bad_descriptions(void **ctx)
{
    (void)ctx;
    pz_puzzle *pz = gen(6, 4, PZ_EASY, 11);
    char *good = K.encode_desc(pz);
    pz_params p = params(6, 4, PZ_EASY);
    const char *err = NULL;
    pz_puzzle *ok = K.decode_desc(&p, good, &err);
    assert_non_null(ok);
    K.free_puzzle(ok);
    const char *dot2 = strchr(strchr(good, '.') + 1, '.') + 1; /* the tiles */
    char buf[128];
    const char *bad[16];
    int nb = 0;
    bad[nb++] = "";
    bad[nb++] = "0";
    bad[nb++] = "0.1";
    bad[nb++] = "0.1.";
    bad[nb++] = "x.1.000000000000";
    bad[nb++] = "4.1.000000000000";  /* start row out of range */
    bad[nb++] = "0.9.000000000000";  /* end row out of range */
    bad[nb++] = "00.1.000000000000"; /* leading zero */
    bad[nb++] = "0.1.00000000000";   /* one tile char short */
    bad[nb++] = "0.1.0000000000000"; /* one too many */
    bad[nb++] = "0.1.00000000000A";  /* upper case */
    bad[nb++] = "0.1.00000000000_";  /* not a digit */
    bad[nb++] = "0.1.0000000000z-";
    bad[nb++] = "-1.1.000000000000";
    snprintf(buf, sizeof buf, "%.*s.%s", (int)(strchr(good, '.') - good), good, dot2); /* end row gone */
    bad[nb++] = buf;
    for (int i = 0; i < nb; i++) {
        err = NULL;
        pz_puzzle *x = K.decode_desc(&p, bad[i], &err);
        if (x)
            fail_msg("accepted bad description '%s'", bad[i]);
        assert_non_null(err);
    }
    /* unsolvable: the top row is five straights and a corner, so a chain from
     * a Start cap on it is forced east and must turn away at the End tile */
    err = NULL;
    assert_null(K.decode_desc(&p, "0.0.002000000000", &err));
    assert_non_null(strstr(err, "Start to End"));
    /* odd tile count: the lone last character must be canonical (a multiple of 6) */
    pz_params p3 = params(3, 3, PZ_EASY);
    err = NULL;
    assert_null(K.decode_desc(&p3, "1.1.66661", &err));
    assert_non_null(err);
    /* sizes outside the limits */
    pz_params huge = params(K.max_w + 1, 4, PZ_EASY);
    err = NULL;
    assert_null(K.decode_desc(&huge, good, &err));
    assert_non_null(err);
    pz_params tiny = params(1, 4, PZ_EASY);
    err = NULL;
    assert_null(K.decode_desc(&tiny, good, &err));
    assert_non_null(err);
    free(good);
    K.free_puzzle(pz);
}

/* ---- text form ---- */

static void expect_text_error(const char *text, int line, int col)
{
    pz_error e;
    pz_puzzle *pz = from_text(text, &e);
    if (pz)
        fail_msg("accepted bad text:\n%s", text);
    if (e.line != line || e.col != col)
        fail_msg("error at %d:%d (%s), expected %d:%d, for:\n%s", e.line, e.col, e.msg, line, col, text);
    assert_true(strlen(e.msg) > 5);
}

static void test_text_form(void **ctx)
{
    (void)ctx;
    /* A straight run: one rotation of the middle tile solves it. */
    const char *text = "S-|-E\n"
                       ".LJF.\n";
    pz_error e;
    pz_puzzle *pz = from_text(text, &e);
    if (!pz)
        fail_msg("%d:%d %s", e.line, e.col, e.msg);
    pz_grade g;
    K.grade(pz, &g);
    assert_int_equal(g.par, 1);
    assert_int_equal(pipes_start_row(pz), 0);
    assert_int_equal(pipes_end_row(pz), 0);
    assert_int_equal(pipes_tile(pz, NULL, 1, 0), PIPES_N | PIPES_S);
    assert_int_equal(pipes_tile(pz, NULL, 0, 1), PIPES_N | PIPES_E);
    char *out = K.format_text(pz);
    assert_string_equal(out, text);
    free(out);
    K.free_puzzle(pz);
    /* CRLF and a missing final newline are accepted */
    pz = from_text("S-|-E\r\n.LJF.", &e);
    assert_non_null(pz);
    K.free_puzzle(pz);
    /* trailing blank lines too */
    pz = from_text("S-|-E\n.LJF.\n\n\n", &e);
    assert_non_null(pz);
    K.free_puzzle(pz);

    expect_text_error("", 1, 1);
    expect_text_error("\nS-|-E\n.LJF.\n", 1, 1);
    expect_text_error("S-|-E\n.LxF.\n", 2, 3);   /* bad tile */
    expect_text_error("S-|-E\n.LJF\n", 2, 5);    /* short row */
    expect_text_error("S-|-E\n.LJF..\n", 2, 6);  /* long row */
    expect_text_error("S-|-E\nSLJF.\n", 2, 1);   /* second Start */
    expect_text_error("S-|-E\n.LJFE\n", 2, 5);   /* second End */
    expect_text_error("S-|-.\n.LJF.\n", 1, 5);   /* no End */
    expect_text_error(".-|-E\n.LJF.\n", 1, 1);   /* no Start */
    expect_text_error("E-|-S\n.LJF.\n", 1, 1);   /* caps swapped */
    expect_text_error("S-|-E\n\n.LJF.\n", 2, 1); /* blank line inside */
    expect_text_error("S-|-E\n", 2, 1);          /* one row */
    expect_text_error("S-E\n.L.\n", 1, 3);       /* one column */
    expect_text_error("SE\n..\n", 1, 2);         /* no tiles */
    expect_text_error("S--JE\n.LJF.\n", 1, 1);   /* no chain */
    expect_text_error("S-|-E\n.L F.\n", 2, 3);   /* space */
    /* too wide */
    char wide[2 * (40 + 4) + 8]; /* two rows of max_w + 3 characters */
    assert_true(K.max_w <= 40);
    int n = 0;
    wide[n++] = 'S';
    for (int i = 0; i < K.max_w + 1; i++)
        wide[n++] = '-';
    wide[n++] = 'E';
    wide[n++] = '\n';
    wide[n++] = '.';
    for (int i = 0; i < K.max_w + 1; i++)
        wide[n++] = '-';
    wide[n++] = '.';
    wide[n] = '\0';
    expect_text_error(wide, 1, K.max_w + 2);
    /* length counts, not NUL: a NUL inside the text is a bad character */
    pz = K.parse_text("S-|-E\n.L\0F.\n", 12, &e);
    assert_null(pz);
    assert_int_equal(e.line, 2);
    assert_int_equal(e.col, 3);
    assert_null(K.parse_text(NULL, 0, &e));
}

/* ---- params ---- */

static void test_params(void **ctx)
{
    (void)ctx;
    assert_int_equal(K.default_w, 6);
    assert_int_equal(K.default_h, 4);
    pz_params d = params(6, 4, PZ_MEDIUM);
    assert_null(K.validate_params(&d));
    const pz_params bad[] = {
        params(2, 2, PZ_HARD), params(3, 3, PZ_HARD), params(2, 2, PZ_MEDIUM), params(20, 2, PZ_HARD),
        params(1, 4, PZ_EASY), params(6, 1, PZ_EASY), params(41, 4, PZ_EASY),  params(6, 41, PZ_EASY),
        params(6, 4, -1),      params(6, 4, 3),       params(-6, 4, PZ_EASY),
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        assert_non_null(K.validate_params(&bad[i]));
        uint64_t t0 = mr_now_us();
        const char *err = NULL;
        assert_null(K.generate(&bad[i], 1, &err));
        assert_non_null(err);
        /* refused up front, not after a long search */
        assert_true(mr_now_us() - t0 < 50000);
    }
    pz_params wrong_kind = params(6, 4, PZ_EASY);
    wrong_kind.kind = PZ_ICE;
    assert_non_null(K.validate_params(&wrong_kind));
}

/* ---- catalogue: seed -> description, committed; regenerate with
 * MR_UPDATE_CATALOGUE=1 ---- */

static void catalogue_line(char *buf, size_t len, int w, int h, int diff, uint64_t seed)
{
    static const char *const names[] = {"easy", "medium", "hard"};
    pz_puzzle *pz = gen(w, h, diff, seed);
    char *desc = K.encode_desc(pz);
    snprintf(buf, len, "pipes:%dx%d:%s#%" PRIu64 " %s\n", w, h, names[diff], seed, desc);
    free(desc);
    K.free_puzzle(pz);
}

static void test_catalogue(void **ctx)
{
    (void)ctx;
    static const int sizes[][2] = {{6, 4}, {12, 8}};
    static const int per_size[] = {10, 3};
    size_t cap = 64 * 1024, used = 0;
    char *want = mr_alloc(cap, 1);
    used += (size_t)snprintf(want, cap,
                             "# pipes catalogue: game ID -> description (tests/test_pipes.c;"
                             " MR_UPDATE_CATALOGUE=1 rewrites it)\n");
    for (size_t s = 0; s < MR_ARRAY_LEN(sizes); s++)
        for (int d = 0; d < PZ_DIFF_COUNT; d++)
            for (int k = 1; k <= per_size[s]; k++) {
                char line[256];
                catalogue_line(line, sizeof line, sizes[s][0], sizes[s][1], d, (uint64_t)k);
                assert_true(used + strlen(line) < cap);
                memcpy(want + used, line, strlen(line) + 1);
                used += strlen(line);
            }
    const char *path = MR_SOURCE_DIR "/tests/catalogue/pipes.txt";
    const char *update = getenv("MR_UPDATE_CATALOGUE");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(want, 1, used, f), used);
        assert_int_equal(fclose(f), 0);
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (MR_UPDATE_CATALOGUE=1 writes it)", path);
    char *have = mr_alloc(cap, 1);
    size_t got = fread(have, 1, cap - 1, f);
    fclose(f);
    /* report the first line that differs */
    if (got != used || memcmp(have, want, used) != 0) {
        size_t i = 0, line = 1;
        while (i < used && i < got && have[i] == want[i])
            line += want[i++] == '\n';
        fail_msg("tests/catalogue/pipes.txt differs from generation at line %zu: if the change is "
                 "deliberate, rerun with MR_UPDATE_CATALOGUE=1",
                 line);
    }
    free(have);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_text_form),
        cmocka_unit_test(test_bad_descriptions),
        cmocka_unit_test(test_illegal_moves),
        cmocka_unit_test(test_rotation_and_accessors),
        cmocka_unit_test(test_par_hand_made),
        cmocka_unit_test(test_par_exact),
        cmocka_unit_test(test_solve_midway),
        cmocka_unit_test(test_random_moves),
        cmocka_unit_test(test_random_input),
        cmocka_unit_test(test_properties_easy),
        cmocka_unit_test(test_properties_medium),
        cmocka_unit_test(test_properties_hard),
        cmocka_unit_test(test_other_sizes),
        cmocka_unit_test(test_catalogue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
