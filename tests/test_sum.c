/* test_sum.c: the sum (number path) kind: generation properties, the exact
 * counter against a plain reference, move rules, readers and the catalogue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "puzzle.h"
#include "rng.h"
#include "sum.h"
#include "sum_board.h"
#include "util.h"

static const pz_kind *K = &pz_kind_sum;

/* The registry (puzzle.c) is not linked here; these follow its contract:
 * pz_params is the first member of every puzzle. */
static const pz_params *params_of(const pz_puzzle *pz)
{
    return (const pz_params *)(const void *)pz;
}

enum { SEEDS = 1000, MAXMOVES = 128 };

static pz_puzzle *gen(int w, int h, int diff, uint64_t seed)
{
    pz_params p = {PZ_SUM, w, h, diff};
    const char *err = NULL;
    pz_puzzle *pz = K->generate(&p, seed, &err);
    if (!pz)
        fail_msg("generate %dx%d diff %d seed %llu: %s", w, h, diff, (unsigned long long)seed, err);
    return pz;
}

static pz_puzzle *from_text(const char *text)
{
    pz_error e;
    pz_puzzle *pz = K->parse_text(text, strlen(text), &e);
    if (!pz)
        fail_msg("parse_text: %d:%d %s", e.line, e.col, e.msg);
    return pz;
}

/* Plays moves from the start; returns the state (caller frees) and checks
 * that every move is legal. */
static pz_state *replay(const pz_puzzle *pz, const pz_move *mv, int n)
{
    pz_state *st = K->new_state(pz);
    for (int i = 0; i < n; i++) {
        const char *why = K->execute_move(pz, st, mv[i], st);
        if (why)
            fail_msg("move %d rejected: %s", i, why);
    }
    return st;
}

/* ---- a plain reference counter: every self-avoiding path, no pruning ---- */

typedef struct ref {
    const pz_puzzle *pz;
    int w, h, ex, ey, target;
    bool on[64];
    long paths;
    int min_cells;
} ref;

static void ref_dfs(ref *r, int x, int y, int sum, int cells)
{
    if (x == r->ex && y == r->ey) {
        if (sum == r->target) {
            r->paths++;
            if (r->min_cells == 0 || cells < r->min_cells)
                r->min_cells = cells;
        }
        return;
    }
    for (int d = 0; d < PZ_DIR_COUNT; d++) {
        int nx = x + pz_dir_dx(d), ny = y + pz_dir_dy(d);
        if (nx < 0 || ny < 0 || nx >= r->w || ny >= r->h || r->on[ny * r->w + nx])
            continue;
        r->on[ny * r->w + nx] = true;
        ref_dfs(r, nx, ny, sum + sum_value(r->pz, nx, ny), cells + 1);
        r->on[ny * r->w + nx] = false;
    }
}

static ref ref_count(const pz_puzzle *pz)
{
    ref r;
    memset(&r, 0, sizeof r);
    r.pz = pz;
    r.w = params_of(pz)->w;
    r.h = params_of(pz)->h;
    r.target = sum_target(pz);
    sum_end(pz, &r.ex, &r.ey);
    int sx, sy;
    sum_start(pz, &sx, &sy);
    r.on[sy * r.w + sx] = true;
    ref_dfs(&r, sx, sy, sum_value(pz, sx, sy), 1);
    return r;
}

/* ---- properties over many seeds ---- */

static void check_seed(int w, int h, int diff, uint64_t seed, bool with_ref)
{
    pz_puzzle *pz = gen(w, h, diff, seed);
    pz_grade g;
    K->grade(pz, &g);
    assert_int_equal(g.band, diff);
    assert_true(g.solutions >= 1);
    assert_int_equal(g.measure, g.solutions);

    /* description round trip, and the same seed gives the same puzzle */
    char *desc = K->encode_desc(pz);
    for (const char *c = desc; *c; c++)
        assert_non_null(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *c));
    const char *err = NULL;
    pz_puzzle *back = K->decode_desc(params_of(pz), desc, &err);
    assert_non_null(back);
    char *desc2 = K->encode_desc(back);
    assert_string_equal(desc, desc2);
    pz_puzzle *again = gen(w, h, diff, seed);
    char *desc3 = K->encode_desc(again);
    assert_string_equal(desc, desc3);

    /* text round trip */
    char *text = K->format_text(pz);
    pz_puzzle *parsed = from_text(text);
    char *desc4 = K->encode_desc(parsed);
    assert_string_equal(desc, desc4);
    pz_grade g2;
    K->grade(parsed, &g2);
    assert_int_equal(g2.solutions, g.solutions);
    assert_int_equal(g2.par, g.par);

    /* a shortest solution, replayed */
    pz_move mv[MAXMOVES];
    int n = K->solve(pz, NULL, mv, MAXMOVES);
    assert_int_equal(n, g.par);
    assert_true(n <= 3 * params_of(pz)->w * params_of(pz)->h + 1);
    pz_state *st = K->new_state(pz);
    assert_false(K->is_solved(pz, st));
    K->free_state(st);
    st = replay(pz, mv, n);
    assert_true(K->is_solved(pz, st));
    assert_int_equal(sum_running(st), sum_target(pz));
    assert_int_equal(sum_path_len(st), n + 1);
    K->free_state(st);

    if (with_ref) {
        ref r = ref_count(pz);
        assert_int_equal(r.paths, g.solutions);
        assert_int_equal(r.min_cells - 1, g.par);
    }
    free(desc);
    free(desc2);
    free(desc3);
    free(desc4);
    free(text);
    K->free_puzzle(back);
    K->free_puzzle(again);
    K->free_puzzle(parsed);
    K->free_puzzle(pz);
}

static void check_band(int diff)
{
    for (uint64_t seed = 1; seed <= SEEDS; seed++)
        check_seed(K->default_w, K->default_h, diff, seed, seed <= 200);
}

static void test_easy(void **ctx)
{
    (void)ctx;
    check_band(PZ_EASY);
}

static void test_medium(void **ctx)
{
    (void)ctx;
    check_band(PZ_MEDIUM);
}

static void test_hard(void **ctx)
{
    (void)ctx;
    check_band(PZ_HARD);
}

/* Other sizes within the limits, fewer seeds, counter checked against the
 * reference on every one. */
static void test_other_sizes(void **ctx)
{
    (void)ctx;
    static const int sizes[][2] = {{3, 3}, {4, 3}, {3, 5}, {4, 4}, {6, 4}, {5, 5}, {8, 3}};
    for (size_t i = 0; i < MR_ARRAY_LEN(sizes); i++)
        for (int d = 0; d < PZ_DIFF_COUNT; d++) {
            pz_params p = {PZ_SUM, sizes[i][0], sizes[i][1], d};
            if (K->validate_params(&p))
                continue;
            for (uint64_t seed = 1; seed <= 20; seed++)
                check_seed(p.w, p.h, d, seed, true);
        }
}

/* Different seeds give different puzzles (not all the same board). */
static void test_seeds_differ(void **ctx)
{
    (void)ctx;
    char *first = NULL;
    int same = 0;
    for (uint64_t seed = 1; seed <= 50; seed++) {
        pz_puzzle *pz = gen(5, 4, PZ_MEDIUM, seed);
        char *d = K->encode_desc(pz);
        if (!first)
            first = d;
        else {
            same += strcmp(first, d) == 0;
            free(d);
        }
        K->free_puzzle(pz);
    }
    assert_int_equal(same, 0);
    free(first);
}

/* The exact counter against the reference on values 1..9 and -9..9 at the
 * baseline's shapes (4x5, 5x4) and on 6x6 with values 1..9. */
static void test_counter_matches_reference(void **ctx)
{
    (void)ctx;
    rng_t r;
    rng_seed(&r, 2024);
    static const int shapes[][3] = {{5, 4, -9}, {4, 5, 1}, {5, 4, 1}, {6, 6, 1}};
    for (size_t s = 0; s < MR_ARRAY_LEN(shapes); s++) {
        int w = shapes[s][0], h = shapes[s][1], lo = shapes[s][2], n = w * h;
        int rounds = n > 25 ? 3 : 40;
        for (int k = 0; k < rounds; k++) {
            int8_t v[64];
            for (int i = 0; i < n; i++)
                v[i] = (int8_t)rng_range(&r, lo, 9);
            int a = (int)rng_below(&r, (uint32_t)n), b = (int)rng_below(&r, (uint32_t)n);
            if (a == b)
                continue;
            /* a target near a plausible path sum, so some paths hit it */
            int target = v[a] + v[b] + rng_range(&r, 0, 6) * (lo > 0 ? 5 : 1);
            sum_count c;
            assert_int_equal(sum_count_paths(w, h, v, a, b, target, &c), 0);
            long want = 0;
            int want_min = 0;
            {
                /* iterative reference over every self-avoiding path */
                int stack[64], dirs[64], sum = v[a], depth = 0;
                bool on[64] = {false};
                stack[0] = a;
                dirs[0] = 0;
                on[a] = true;
                while (depth >= 0) {
                    int cur = stack[depth];
                    if (cur == b || dirs[depth] == PZ_DIR_COUNT) {
                        if (cur == b && dirs[depth] == 0 && sum == target) {
                            want++;
                            if (want_min == 0 || depth + 1 < want_min)
                                want_min = depth + 1;
                        }
                        on[cur] = false;
                        sum -= v[cur];
                        depth--;
                        continue;
                    }
                    int d = dirs[depth]++;
                    int nx = cur % w + pz_dir_dx(d), ny = cur / w + pz_dir_dy(d);
                    if (nx < 0 || ny < 0 || nx >= w || ny >= h || on[ny * w + nx])
                        continue;
                    int nb = ny * w + nx;
                    stack[++depth] = nb;
                    dirs[depth] = 0;
                    on[nb] = true;
                    sum += v[nb];
                }
            }
            assert_int_equal(c.paths, want);
            assert_int_equal(c.min_cells, want_min);
        }
    }
    sum_count c;
    int8_t v[4] = {1, 1, 1, 1};
    assert_int_equal(sum_count_paths(0, 4, v, 0, 1, 2, &c), -1);
    assert_int_equal(sum_count_paths(2, 2, v, 0, 0, 2, &c), -1);
    assert_int_equal(sum_count_paths(2, 2, v, 0, 4, 2, &c), -1);
    assert_int_equal(sum_count_paths(2, 2, v, 0, 3, 3, &c), 0);
    assert_int_equal(c.paths, 2);
}

/* Generation counts by scanning a list of every Start-End path's cell set
 * (sum_paths); that count must be the search's (checked against the
 * reference above) on every size within the limits, the cap must stop it
 * early, and the shortest set must give back a real path of that sum. */
static void test_path_lists_match_counter(void **ctx)
{
    (void)ctx;
    rng_t r;
    rng_seed(&r, 77);
    static const int shapes[][2] = {{3, 3}, {4, 3}, {4, 4}, {5, 4}, {4, 5}, {8, 3}, {6, 4}, {5, 5}};
    sum_paths ps;
    memset(&ps, 0, sizeof ps);
    for (size_t s = 0; s < MR_ARRAY_LEN(shapes); s++) {
        int w = shapes[s][0], h = shapes[s][1], n = w * h;
        sum_board b;
        sum_board_init(&b, w, h);
        int walks = n > 20 ? 3 : 12;
        for (int k = 0; k < walks; k++) {
            b.start = (int)rng_below(&r, (uint32_t)n);
            do
                b.end = (int)rng_below(&r, (uint32_t)n);
            while (b.end == b.start);
            assert_true(sum_paths_enumerate(&b, &ps));
            assert_true(ps.count >= 1);
            for (int d = 0; d < 8; d++) {
                for (int i = 0; i < n; i++)
                    b.val[i] = (int8_t)rng_range(&r, -9, 9);
                /* the target of a listed path, so at least one hits it */
                uint32_t pick = ps.mask[rng_below(&r, (uint32_t)ps.count)];
                b.target = 0;
                for (int i = 0; i < n; i++)
                    b.target += (pick >> i & 1) ? b.val[i] : 0;
                uint8_t start = (uint8_t)b.start;
                sum_count want = sum_board_count(&b, &start, 1, 0, NULL);
                uint32_t set;
                sum_count got = sum_paths_count(&ps, b.val, b.target, 0, &set);
                assert_true(want.paths >= 1);
                assert_int_equal(got.paths, want.paths);
                assert_int_equal(got.min_cells, want.min_cells);
                uint8_t path[64];
                assert_int_equal(sum_board_path_through(&b, set, path), got.min_cells);
                int sum = 0;
                uint32_t seen = 0;
                for (int i = 0; i < got.min_cells; i++) {
                    if (i > 0)
                        assert_true(b.nbr[path[i - 1]] >> path[i] & 1);
                    assert_false(seen >> path[i] & 1);
                    seen |= (uint32_t)1 << path[i];
                    sum += b.val[path[i]];
                }
                assert_int_equal(path[0], b.start);
                assert_int_equal(path[got.min_cells - 1], b.end);
                assert_int_equal(sum, b.target);
                /* capped: stops at the cap, never over it */
                sum_count capped = sum_paths_count(&ps, b.val, b.target, 2, &set);
                assert_int_equal(capped.paths, want.paths < 2 ? want.paths : 2);
                assert_true(capped.nodes <= ps.count);
            }
        }
    }
    sum_paths_free(&ps);
    /* a board past the list's limit is refused, not overrun */
    sum_board big;
    sum_board_init(&big, 7, 4);
    big.start = 0;
    big.end = 27;
    assert_false(sum_paths_enumerate(&big, &ps));
    sum_paths_free(&ps);
}

/* ---- moves ---- */

/* Start top-left, End bottom-right, all ones: 5 cells (4 steps) reach End
 * with sum 5 along any staircase. */
static const char *ONES = "target 5\n"
                          "S1  1  1\n"
                          " 1  1  1\n"
                          " 1  1 E1\n";

static pz_move step(int dir)
{
    return (pz_move){.type = PZ_MOVE_STEP, .dir = (uint8_t)dir};
}

static void expect_reject(const pz_puzzle *pz, pz_state *st, pz_move mv)
{
    pz_state *copy = K->new_state(pz);
    K->copy_state(copy, st);
    pz_state *to = K->new_state(pz);
    K->copy_state(to, st);
    const char *why = K->execute_move(pz, st, mv, to);
    assert_non_null(why);
    assert_true(strlen(why) > 0);
    assert_int_equal(sum_path_len(to), sum_path_len(copy));
    assert_int_equal(sum_running(to), sum_running(copy));
    assert_int_equal(sum_path_len(st), sum_path_len(copy));
    K->free_state(copy);
    K->free_state(to);
}

static void expect_ok(const pz_puzzle *pz, pz_state *st, int dir)
{
    const char *why = K->execute_move(pz, st, step(dir), st);
    if (why)
        fail_msg("step %c rejected: %s", "UDLR"[dir], why);
}

static void test_moves(void **ctx)
{
    (void)ctx;
    pz_puzzle *pz = from_text(ONES);
    pz_state *st = K->new_state(pz);
    /* off the board */
    expect_reject(pz, st, step(PZ_UP));
    expect_reject(pz, st, step(PZ_LEFT));
    /* bad type and direction fields */
    expect_reject(pz, st, (pz_move){.type = PZ_MOVE_ROTATE_CW, .dir = PZ_RIGHT});
    expect_reject(pz, st, (pz_move){.type = 0, .dir = PZ_RIGHT});
    expect_reject(pz, st, (pz_move){.type = 255, .dir = PZ_RIGHT});
    expect_reject(pz, st, (pz_move){.type = PZ_MOVE_STEP, .dir = 4});
    expect_reject(pz, st, (pz_move){.type = PZ_MOVE_STEP, .dir = 255});
    /* a step names no cell: a far (non-adjacent) target cannot be asked for */
    expect_reject(pz, st, (pz_move){.type = PZ_MOVE_STEP, .dir = PZ_RIGHT, .x = 2, .y = 2});
    expect_reject(pz, st, (pz_move){.type = PZ_MOVE_STEP, .dir = PZ_RIGHT, .y = 1});

    /* step and undo by stepping back */
    expect_ok(pz, st, PZ_RIGHT);
    assert_int_equal(sum_path_len(st), 2);
    assert_int_equal(sum_running(st), 2);
    expect_ok(pz, st, PZ_LEFT);
    assert_int_equal(sum_path_len(st), 1);
    assert_int_equal(sum_running(st), 1);

    /* onto a cell already on the path (not the previous one) */
    expect_ok(pz, st, PZ_RIGHT);
    expect_ok(pz, st, PZ_DOWN);
    expect_ok(pz, st, PZ_LEFT);
    expect_reject(pz, st, step(PZ_UP));
    int x, y;
    sum_path_cell(st, 3, &x, &y);
    assert_int_equal(x, 0);
    assert_int_equal(y, 1);
    pz_progress pr;
    K->progress(pz, st, &pr);
    assert_int_equal(pr.x, 0);
    assert_int_equal(pr.y, 1);
    assert_int_equal(pr.path_len, 4);
    assert_int_equal(pr.value, 4);
    assert_false(pr.solved);

    /* into End with the wrong sum (7 cells): only stepping back is legal */
    expect_ok(pz, st, PZ_DOWN);
    expect_ok(pz, st, PZ_RIGHT);
    expect_ok(pz, st, PZ_RIGHT);
    assert_false(K->is_solved(pz, st));
    assert_int_equal(sum_running(st), 7);
    expect_reject(pz, st, step(PZ_UP));
    expect_reject(pz, st, step(PZ_DOWN));
    expect_reject(pz, st, step(PZ_RIGHT));
    /* a solution from here undoes first */
    pz_move mv[MAXMOVES];
    int n = K->solve(pz, st, mv, MAXMOVES);
    assert_true(n > 0);
    pz_state *t = K->new_state(pz);
    K->copy_state(t, st);
    for (int i = 0; i < n; i++)
        assert_null(K->execute_move(pz, t, mv[i], t));
    assert_true(K->is_solved(pz, t));
    K->free_state(t);

    expect_ok(pz, st, PZ_LEFT);
    /* to a separate state object: from is untouched */
    pz_state *to = K->new_state(pz);
    assert_null(K->execute_move(pz, st, step(PZ_LEFT), to));
    assert_int_equal(sum_path_len(to), sum_path_len(st) - 1);
    K->free_state(to);

    /* solved: every move after it is rejected, undo included */
    K->free_state(st);
    st = K->new_state(pz);
    expect_ok(pz, st, PZ_DOWN);
    expect_ok(pz, st, PZ_DOWN);
    expect_ok(pz, st, PZ_RIGHT);
    expect_ok(pz, st, PZ_RIGHT);
    assert_true(K->is_solved(pz, st));
    K->progress(pz, st, &pr);
    assert_true(pr.solved);
    assert_int_equal(pr.value, 5);
    for (int d = 0; d < PZ_DIR_COUNT; d++)
        expect_reject(pz, st, step(d));
    assert_int_equal(K->solve(pz, st, mv, MAXMOVES), 0);
    K->free_state(st);
    K->free_puzzle(pz);
}

/* Random legal and illegal moves never break the state's invariants, and a
 * solution exists from every state reached. */
static void test_random_play(void **ctx)
{
    (void)ctx;
    rng_t r;
    rng_seed(&r, 77);
    for (uint64_t seed = 1; seed <= 30; seed++) {
        pz_puzzle *pz = gen(5, 4, (int)(seed % 3), seed);
        pz_state *st = K->new_state(pz);
        for (int i = 0; i < 60 && !K->is_solved(pz, st); i++) {
            pz_move mv = {.type = (uint8_t)(rng_below(&r, 8) ? PZ_MOVE_STEP : rng_below(&r, 256)),
                          .dir = (uint8_t)(rng_below(&r, 8) ? rng_below(&r, 4) : rng_below(&r, 256)),
                          .x = (uint16_t)(rng_below(&r, 8) ? 0 : rng_u32(&r)),
                          .y = (uint16_t)(rng_below(&r, 8) ? 0 : rng_u32(&r))};
            K->execute_move(pz, st, mv, st);
            int len = sum_path_len(st), sum = 0;
            assert_true(len >= 1 && len <= 20);
            for (int k = 0; k < len; k++) {
                int x, y;
                sum_path_cell(st, k, &x, &y);
                sum += sum_value(pz, x, y);
            }
            assert_int_equal(sum, sum_running(st));
            if (i % 10 == 0) {
                pz_move sol[MAXMOVES];
                int n = K->solve(pz, st, sol, MAXMOVES);
                assert_true(n >= 0);
                pz_state *t = K->new_state(pz);
                K->copy_state(t, st);
                for (int k = 0; k < n; k++)
                    assert_null(K->execute_move(pz, t, sol[k], t));
                assert_true(K->is_solved(pz, t));
                K->free_state(t);
            }
        }
        K->free_state(st);
        K->free_puzzle(pz);
    }
}

/* ---- readers ---- */

static void test_bad_descriptions(void **ctx)
{
    (void)ctx;
    pz_params p = {PZ_SUM, 3, 3, PZ_EASY};
    /* the good one first, so the bad ones fail for their own reason */
    const char *err = NULL;
    pz_puzzle *ok = K->decode_desc(&p, "0.8.5.111111111", &err);
    assert_non_null(ok);
    K->free_puzzle(ok);
    static const char *bad[] = {
        "",                    /* empty */
        "0.8.5",               /* no cells */
        "0.8.5.",              /* no cells */
        "0.8.5.11111111",      /* one short */
        "0.8.5.1111111111",    /* one long */
        "0.8.5.11111111z",     /* bad value */
        "0.8.5.11111111j",     /* bad value */
        "0.0.5.111111111",     /* Start == End */
        "0.9.5.111111111",     /* End off the board */
        "-1.8.5.111111111",    /* Start off the board */
        "0.8.4.111111111",     /* no path sums to 4 */
        "0.8.100.111111111",   /* target out of range */
        "0.8.99999.111111111", /* target too long */
        "a.8.5.111111111",     /* not a number */
        "0..8.5.111111111",    /* empty field */
        "0.8.5.11111111.1",    /* stray dot */
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        err = NULL;
        pz_puzzle *pz = K->decode_desc(&p, bad[i], &err);
        if (pz)
            fail_msg("accepted bad description '%s'", bad[i]);
        assert_non_null(err);
    }
    /* a size the kind refuses */
    pz_params big = {PZ_SUM, 11, 9, PZ_EASY};
    err = NULL;
    assert_null(K->decode_desc(&big, "0.8.5.111111111", &err));
    assert_non_null(err);
}

typedef struct bad_text {
    const char *text;
    int line, col; /* 0: not checked */
} bad_text;

static void test_bad_text(void **ctx)
{
    (void)ctx;
    static const bad_text bad[] = {
        {"", 1, 1},
        {"targt 5\nS1 1 1\n1 1 1\n1 1 E1\n", 1, 1},
        {"target\nS1 1 1\n1 1 1\n1 1 E1\n", 1, 7},
        {"target x\nS1 1 1\n1 1 1\n1 1 E1\n", 1, 8},
        {"target 5 6\nS1 1 1\n1 1 1\n1 1 E1\n", 1, 10},
        {"target 5\nS1 x 1\n1 1 1\n1 1 E1\n", 2, 4},
        {"target 5\nS1 1 1\n1 1\n1 1 E1\n", 3, 4},
        {"target 5\nS1 1 1\n1 10 1\n1 1 E1\n", 3, 3},
        {"target 5\nS1 1 1\n1 1 1\n1 1 1\n", 2, 1},
        {"target 5\nS1 1 1\n1 S1 1\n1 1 E1\n", 3, 3},
        {"target 5\nS1 1 1\n1 E1 1\n1 1 E1\n", 4, 5},
        {"target 5\nS1 1 1\n1\t1 1\n1 1 E1\n", 3, 2},
        {"target 5\nS1 1 1\n1 1 1\r\n1 1 E1\n", 3, 6},
        {"target 5\nS1 1 1\n1 1 1\n1 1 E1\n\n1 1 1\n", 6, 1},
        {"target 5\nS1 1 1\n1 1 1\n1 1 E1x\n", 4, 7},
        {"target 5\nS1 1 1\n1 1 1\n1 1 E\n", 4, 6},
        {"target 5\nS1 1 1\n1 1 1\n1 1 SE1\n", 4, 6},
        {"target 4\nS1 1 1\n1 1 1\n1 1 E1\n", 0, 0},     /* no path sums to 4 */
        {"target 5\nS1 1\n1 1\n1 E1\n", 0, 0},           /* 2 columns: too narrow */
        {"target 5\nS1 1 1 1 1 1 1 1 1 1 1\n", 2, 22},   /* 11 columns */
        {"target 5\n", 2, 1},                            /* no rows */
        {"target 99999\nS1 1 1\n1 1 1\n1 1 E1\n", 1, 8}, /* too many digits */
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        pz_error e = {0, 0, ""};
        pz_puzzle *pz = K->parse_text(bad[i].text, strlen(bad[i].text), &e);
        if (pz)
            fail_msg("accepted bad text #%zu", i);
        assert_true(e.line >= 1);
        assert_true(e.col >= 1);
        assert_true(strlen(e.msg) > 0);
        if (bad[i].line && (e.line != bad[i].line || e.col != bad[i].col))
            fail_msg("bad text #%zu: got %d:%d (%s), want %d:%d", i, e.line, e.col, e.msg, bad[i].line,
                     bad[i].col);
    }
    /* lenient where a reader should be: spacing, a missing final newline,
     * trailing blank lines, explicit '+' */
    pz_puzzle *pz = from_text("target +5\n  S1 1   1  \n1 1 1\n1 1 E1");
    K->free_puzzle(pz);
    pz = from_text("target 5\nS1 1 1\n1 1 1\n1 1 E1\n\n  \n");
    K->free_puzzle(pz);
    /* len is honoured: the text after len is not read */
    const char *t = "target 5\nS1 1 1\n1 1 1\n1 1 E1\ngarbage";
    pz_error e;
    pz = K->parse_text(t, strlen(t) - strlen("garbage"), &e);
    assert_non_null(pz);
    K->free_puzzle(pz);
}

static void test_params(void **ctx)
{
    (void)ctx;
    pz_params p = {PZ_SUM, 5, 4, PZ_HARD};
    assert_null(K->validate_params(&p));
    p = (pz_params){PZ_SUM, 3, 3, PZ_MEDIUM};
    assert_non_null(K->validate_params(&p));
    p = (pz_params){PZ_SUM, 11, 10, PZ_EASY};
    assert_non_null(K->validate_params(&p));
    p = (pz_params){PZ_SUM, 10, 10, PZ_HARD};
    assert_null(K->validate_params(&p));
    /* generate refuses what validation refuses, quickly, with a message */
    static const pz_params impossible[] = {
        {PZ_SUM, 3, 3, PZ_MEDIUM}, {PZ_SUM, 11, 5, PZ_EASY},
        {PZ_SUM, 2, 5, PZ_EASY},   {PZ_SUM, 0, 0, PZ_EASY},
        {PZ_SUM, 5, 4, 7},         {PZ_MAZE, 5, 4, PZ_EASY},
        {PZ_SUM, -5, 4, PZ_EASY},  {PZ_SUM, 100000, 100000, PZ_HARD},
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(impossible); i++) {
        const char *err = NULL;
        uint64_t t0 = mr_now_us();
        pz_puzzle *pz = K->generate(&impossible[i], 1, &err);
        uint64_t t1 = mr_now_us();
        assert_null(pz);
        assert_non_null(err);
        assert_true(t1 - t0 < 50000);
    }
    /* the hardest request the limits allow still ends with a puzzle */
    pz_puzzle *pz = gen(5, 5, PZ_HARD, 3);
    K->free_puzzle(pz);
}

/* ---- the catalogue: seed -> description, committed ---- */

static void test_catalogue(void **ctx)
{
    (void)ctx;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/catalogue/sum.txt", MR_SOURCE_DIR);
    /* what the generator makes now */
    size_t cap = 1 << 14, len = 0;
    char *now = mr_alloc(cap, 1);
    len += (size_t)snprintf(now + len, cap - len,
                            "# sum catalogue: game ID -> description. Regenerate with "
                            "MR_UPDATE_CATALOGUE=1 ctest -R test_sum\n");
    for (int d = 0; d < PZ_DIFF_COUNT; d++)
        for (uint64_t seed = 1; seed <= 10; seed++) {
            pz_puzzle *pz = gen(5, 4, d, seed);
            char *desc = K->encode_desc(pz);
            char id[64];
            snprintf(id, sizeof id, "sum:5x4:%s#%llu",
                     d == 0   ? "easy"
                     : d == 1 ? "medium"
                              : "hard",
                     (unsigned long long)seed);
            len += (size_t)snprintf(now + len, cap - len, "%s %s\n", id, desc);
            free(desc);
            K->free_puzzle(pz);
        }
    const char *upd = getenv("MR_UPDATE_CATALOGUE");
    if (upd && strcmp(upd, "1") == 0) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        assert_int_equal(fwrite(now, 1, len, f), len);
        assert_int_equal(fclose(f), 0);
    }
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot read %s (regenerate with MR_UPDATE_CATALOGUE=1)", path);
    char *old = mr_alloc(cap, 1);
    size_t n = fread(old, 1, cap - 1, f);
    fclose(f);
    if (n != len || memcmp(old, now, len) != 0) {
        /* name the first line that differs */
        size_t i = 0, line = 1;
        while (i < n && i < len && old[i] == now[i])
            line += old[i++] == '\n';
        fail_msg("generation changed: %s differs from line %zu (if deliberate, regenerate with "
                 "MR_UPDATE_CATALOGUE=1)",
                 path, line);
    }
    free(old);
    free(now);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counter_matches_reference),
        cmocka_unit_test(test_path_lists_match_counter),
        cmocka_unit_test(test_moves),
        cmocka_unit_test(test_random_play),
        cmocka_unit_test(test_bad_descriptions),
        cmocka_unit_test(test_bad_text),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_seeds_differ),
        cmocka_unit_test(test_catalogue),
        cmocka_unit_test(test_other_sizes),
        cmocka_unit_test(test_easy),
        cmocka_unit_test(test_medium),
        cmocka_unit_test(test_hard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
