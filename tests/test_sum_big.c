/* test_sum_big.c: sum boards above 25 cells (the detour measure): properties over 1000 seeds per band at
 * 10x10, every band at every size above 25 cells, the measure against a plain shortest-first search, and
 * play. */
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

/* 1000 seeds per band at the largest size, as issue 13 asks: about 2 ms a
 * seed (generate, decode, parse, solve, replay). */
enum { SEEDS = 1000, MAXMOVES = 256 };

static const pz_params *params_of(const pz_puzzle *pz)
{
    return (const pz_params *)(const void *)pz;
}

static pz_puzzle *gen(int w, int h, int diff, uint64_t seed)
{
    pz_params p = {PZ_SUM, w, h, diff};
    const char *err = NULL;
    pz_puzzle *pz = K->generate(&p, seed, &err);
    if (!pz)
        fail_msg("generate %dx%d diff %d seed %llu: %s", w, h, diff, (unsigned long long)seed, err);
    return pz;
}

static int iabs(int v)
{
    return v < 0 ? -v : v;
}

static int distance(const pz_puzzle *pz)
{
    int sx, sy, ex, ey;
    sum_start(pz, &sx, &sy);
    sum_end(pz, &ex, &ey);
    return iabs(sx - ex) + iabs(sy - ey);
}

/* ---- a plain reference: routes of exactly `left` more moves, no pruning
 * beyond End's distance, shortest first ---- */

typedef struct ref {
    const pz_puzzle *pz;
    int w, h, ex, ey;
    bool on[SUM_MAX_CELLS];
    long nodes;
} ref;

static bool ref_dfs(ref *r, int x, int y, int left, int need)
{
    r->nodes++;
    for (int d = 0; d < PZ_DIR_COUNT; d++) {
        int nx = x + pz_dir_dx(d), ny = y + pz_dir_dy(d);
        if (nx < 0 || ny < 0 || nx >= r->w || ny >= r->h || r->on[ny * r->w + nx])
            continue;
        int dist = iabs(nx - r->ex) + iabs(ny - r->ey), v = sum_value(r->pz, nx, ny);
        if (dist > left - 1 || iabs(need - v) > 9 * left)
            continue;
        if (dist == 0) {
            if (left == 1 && need == v)
                return true;
            continue;
        }
        r->on[ny * r->w + nx] = true;
        bool hit = ref_dfs(r, nx, ny, left - 1, need - v);
        r->on[ny * r->w + nx] = false;
        if (hit)
            return true;
    }
    return false;
}

/* The moves of a shortest valid path, or -1 past max_moves. */
static int ref_shortest(const pz_puzzle *pz, int max_moves)
{
    ref r;
    memset(&r, 0, sizeof r);
    r.pz = pz;
    r.w = params_of(pz)->w;
    r.h = params_of(pz)->h;
    sum_end(pz, &r.ex, &r.ey);
    int sx, sy;
    sum_start(pz, &sx, &sy);
    r.on[sy * r.w + sx] = true;
    for (int moves = distance(pz); moves <= max_moves; moves += 2)
        if (ref_dfs(&r, sx, sy, moves, sum_target(pz) - sum_value(pz, sx, sy)))
            return moves;
    return -1;
}

static pz_state *replay(const pz_puzzle *pz, pz_state *st, const pz_move *mv, int n)
{
    for (int i = 0; i < n; i++) {
        const char *why = K->execute_move(pz, st, mv[i], st);
        if (why)
            fail_msg("move %d rejected: %s", i, why);
    }
    return st;
}

static void check_seed(int w, int h, int diff, uint64_t seed, bool with_ref)
{
    pz_puzzle *pz = gen(w, h, diff, seed);
    pz_grade g;
    K->grade(pz, &g);
    if (g.band != diff)
        fail_msg("%dx%d seed %llu: band %d, asked %d", w, h, (unsigned long long)seed, g.band, diff);
    assert_int_equal(g.solutions, -1);
    assert_true(g.par >= distance(pz) && (g.par - distance(pz)) % 2 == 0);
    assert_true(g.measure >= 0);

    /* same ID, same puzzle; the description and the text read back to it */
    char *desc = K->encode_desc(pz);
    pz_puzzle *again = gen(w, h, diff, seed);
    char *desc2 = K->encode_desc(again);
    assert_string_equal(desc, desc2);
    const char *err = NULL;
    pz_puzzle *back = K->decode_desc(params_of(pz), desc, &err);
    if (!back)
        fail_msg("%dx%d seed %llu: decode: %s", w, h, (unsigned long long)seed, err);
    char *desc3 = K->encode_desc(back);
    assert_string_equal(desc, desc3);
    pz_grade g2;
    K->grade(back, &g2);
    assert_int_equal(g2.band, g.band);
    assert_int_equal(g2.par, g.par);
    char *text = K->format_text(pz);
    pz_error e;
    pz_puzzle *parsed = K->parse_text(text, strlen(text), &e);
    if (!parsed)
        fail_msg("parse_text: %d:%d %s", e.line, e.col, e.msg);
    char *desc4 = K->encode_desc(parsed);
    assert_string_equal(desc, desc4);

    /* the solver solves, the replay reaches solved */
    pz_move mv[MAXMOVES];
    int n = K->solve(pz, NULL, mv, MAXMOVES);
    assert_int_equal(n, g.par);
    pz_state *st = replay(pz, K->new_state(pz), mv, n);
    assert_true(K->is_solved(pz, st));
    assert_int_equal(sum_running(st), sum_target(pz));
    K->free_state(st);

    /* from a state off the solution: a few random steps, then solve */
    rng_t r;
    rng_seed(&r, seed);
    st = K->new_state(pz);
    for (int i = 0; i < 6; i++) {
        pz_move m = {.type = PZ_MOVE_STEP, .dir = (uint8_t)rng_below(&r, PZ_DIR_COUNT)};
        if (K->execute_move(pz, st, m, st) == NULL && K->is_solved(pz, st))
            break;
    }
    n = K->solve(pz, st, mv, MAXMOVES);
    assert_true(n >= 0 && n <= MAXMOVES);
    replay(pz, st, mv, n);
    assert_true(K->is_solved(pz, st));
    K->free_state(st);

    /* the measure is the plain search's shortest */
    if (with_ref)
        assert_int_equal(ref_shortest(pz, g.par), g.par);
    free(desc);
    free(desc2);
    free(desc3);
    free(desc4);
    free(text);
    K->free_puzzle(again);
    K->free_puzzle(back);
    K->free_puzzle(parsed);
    K->free_puzzle(pz);
}

static void check_band(int diff)
{
    for (uint64_t seed = 1; seed <= SEEDS; seed++)
        check_seed(10, 10, diff, seed, seed <= 100);
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

/* Every band at every size above 25 cells, a few seeds each. */
static void test_every_size(void **ctx)
{
    (void)ctx;
    for (int w = K->min_w; w <= K->max_w; w++)
        for (int h = K->min_h; h <= K->max_h; h++) {
            if (w * h <= 25)
                continue;
            for (int d = 0; d < PZ_DIFF_COUNT; d++) {
                pz_params p = {PZ_SUM, w, h, d};
                assert_null(K->validate_params(&p));
                for (uint64_t seed = 1; seed <= 4; seed++)
                    check_seed(w, h, d, seed, true);
            }
        }
}

/* ---- the sets and counts of sum_big.c against plain enumeration: every
 * self-avoiding route from src to dst (dst only at the end) of detour
 * 0..2, its count and its sums ---- */

typedef struct enum_routes {
    const sum_board *b;
    int dst, dist;
    bool on[SUM_MAX_CELLS];
    double count[3];
    bool sums[3][2000];
} enum_routes;

static void enum_dfs(enum_routes *r, int c, int moves, int sum)
{
    if (c == r->dst) {
        int e = (moves - r->dist) / 2;
        r->count[e]++;
        r->sums[e][sum + 1000] = true;
        return;
    }
    for (int a = 0; a < 4; a++) {
        int nb = sum_board_neighbour(r->b, c, a);
        if (nb < 0 || r->on[nb])
            continue;
        int dn = abs(nb % r->b->w - r->dst % r->b->w) + abs(nb / r->b->w - r->dst / r->b->w);
        if (moves + 1 + dn > r->dist + 4)
            continue;
        r->on[nb] = true;
        enum_dfs(r, nb, moves + 1, sum + r->b->val[nb]);
        r->on[nb] = false;
    }
}

static void test_sets_exact(void **ctx)
{
    (void)ctx;
    static const int sizes[][2] = {{6, 5}, {10, 10}, {3, 10}, {7, 7}};
    rng_t r;
    rng_seed(&r, 99);
    sum_board *b = mr_alloc(1, sizeof *b);
    enum_routes *en = mr_alloc(1, sizeof *en);
    double *counts = mr_alloc(SUM_MAX_CELLS * 3, sizeof *counts);
    int checked = 0;
    for (size_t k = 0; k < MR_ARRAY_LEN(sizes); k++)
        for (int trial = 0; trial < 6; trial++) {
            sum_board_init(b, sizes[k][0], sizes[k][1]);
            for (int i = 0; i < b->n; i++)
                b->val[i] = (int8_t)rng_range(&r, -9, 9);
            int src = (int)rng_below(&r, (uint32_t)b->n);
            sum_sets f;
            sum_sets_build(b, src, 2, &f, counts);
            for (int dst = 0; dst < b->n; dst++) {
                int dist = abs(src % b->w - dst % b->w) + abs(src / b->w - dst / b->w);
                if (dst == src || dist > 8)
                    continue;
                memset(en, 0, sizeof *en);
                en->b = b;
                en->dst = dst;
                en->dist = dist;
                en->on[src] = true;
                enum_dfs(en, src, 0, b->val[src]);
                for (int e = 0; e <= 2; e++) {
                    if (counts[dst * 3 + e] != en->count[e])
                        fail_msg("%dx%d %d->%d detour %d: %.0f walks, %.0f routes", b->w, b->h, src, dst, e,
                                 counts[dst * 3 + e], en->count[e]);
                    for (int v = -999; v < 1000; v++)
                        if (sum_sets_has(&f, dst, e, v) != en->sums[e][v + 1000])
                            fail_msg("%dx%d %d->%d detour %d sum %d", b->w, b->h, src, dst, e, v);
                }
                checked++;
            }
            sum_sets_free(&f);
        }
    assert_true(checked > 500);
    free(counts);
    free(en);
    free(b);
}

/* A 6x5 board of 1s, Start top-left, End 5 to the right, one cell set to
 * v (0 for none), and a target; NULL if the reader refuses it, else graded
 * (and the plain search's shortest in *shortest). */
static bool grade_ones(int target, int cell, int v, pz_grade *g, int *shortest)
{
    char t[256];
    int k = snprintf(t, sizeof t, "target %d\n", target);
    for (int i = 0; i < 30; i++)
        k += snprintf(t + k, sizeof t - (size_t)k, "%s%s%d%s", i % 6 ? " " : "",
                      i == 0   ? "S"
                      : i == 5 ? "E"
                               : "",
                      i == cell ? v : 1, i % 6 == 5 ? "\n" : "");
    pz_error e;
    pz_puzzle *pz = K->parse_text(t, strlen(t), &e);
    if (!pz) {
        assert_int_equal(e.line, 1);
        return false;
    }
    K->grade(pz, g);
    *shortest = ref_shortest(pz, 40);
    K->free_puzzle(pz);
    return true;
}

/* Hand-made boards: detours the sets settle, and one only the search does. */
static void test_detour_boards(void **ctx)
{
    (void)ctx;
    pz_grade g;
    int plain;
    /* the straight route sums to 6; through the 9 below it, one bump: 16 */
    assert_true(grade_ones(16, 8, 9, &g, &plain));
    assert_int_equal(g.par, 7);
    assert_int_equal(g.measure, 8); /* 1 straight route, then half of the 15 with one bump */
    assert_int_equal(g.band, PZ_EASY);
    /* 10 cells of 1: detour 2 */
    assert_true(grade_ones(10, -1, 0, &g, &plain));
    assert_int_equal(g.par, 9);
    assert_int_equal(g.measure, 58); /* 1 + 15 + 84 / 2 */
    assert_int_equal(g.band, PZ_MEDIUM);
    /* 12 cells: detour 3, found by the search, hard by its detour */
    assert_true(grade_ones(12, -1, 0, &g, &plain));
    assert_int_equal(g.par, 11);
    assert_int_equal(plain, 11);
    assert_int_equal(g.measure, 273);
    assert_int_equal(g.band, PZ_HARD);
    /* odd: no route has an odd number of cells, refused with a message */
    assert_false(grade_ones(11, -1, 0, &g, &plain));
}

/* Play on a 100-cell board: a snake over rows 0..7 puts cells past the
 * first 64 on the path; one of them is refused, undo frees another. */
static void test_wide_mask(void **ctx)
{
    (void)ctx;
    char t[1024];
    int k = snprintf(t, sizeof t, "target 19\n");
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 10; x++)
            k += snprintf(t + k, sizeof t - (size_t)k, "%s%s%s", x ? " " : "",
                          y == 0 && x == 0   ? "S1"
                          : y == 9 && x == 9 ? "E1"
                                             : "1",
                          x == 9 ? "\n" : "");
    pz_error e;
    pz_puzzle *pz = K->parse_text(t, strlen(t), &e);
    if (!pz)
        fail_msg("%d:%d %s", e.line, e.col, e.msg);
    pz_state *st = K->new_state(pz);
    for (int y = 0; y < 8; y++) {
        for (int i = 0; i < 9; i++) {
            pz_move m = {.type = PZ_MOVE_STEP, .dir = y % 2 ? PZ_LEFT : PZ_RIGHT};
            assert_null(K->execute_move(pz, st, m, st));
        }
        pz_move down = {.type = PZ_MOVE_STEP, .dir = PZ_DOWN};
        assert_null(K->execute_move(pz, st, down, st));
    }
    assert_int_equal(sum_path_len(st), 81); /* rows 0..7 and (0, 8) */
    pz_move right = {.type = PZ_MOVE_STEP, .dir = PZ_RIGHT}, up = {.type = PZ_MOVE_STEP, .dir = PZ_UP},
            left = {.type = PZ_MOVE_STEP, .dir = PZ_LEFT};
    assert_null(K->execute_move(pz, st, right, st));  /* (1, 8): cell 81 */
    assert_non_null(K->execute_move(pz, st, up, st)); /* (1, 7): cell 71, on the path */
    assert_null(K->execute_move(pz, st, left, st));   /* undo */
    assert_int_equal(sum_path_len(st), 81);
    assert_null(K->execute_move(pz, st, right, st)); /* cell 81 is free again */
    assert_int_equal(sum_running(st), 82);
    pz_progress pr;
    K->progress(pz, st, &pr);
    assert_int_equal(pr.path_len, 82);
    assert_int_equal(pr.x, 1);
    assert_int_equal(pr.y, 8);
    K->free_state(st);
    K->free_puzzle(pz);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sets_exact), cmocka_unit_test(test_detour_boards),
        cmocka_unit_test(test_wide_mask),  cmocka_unit_test(test_every_size),
        cmocka_unit_test(test_easy),       cmocka_unit_test(test_medium),
        cmocka_unit_test(test_hard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
