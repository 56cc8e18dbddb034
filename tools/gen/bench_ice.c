/* bench_ice.c: ice figures for `mazerace-gen bench`: generate+grade per size and band, side by side
 * with an in-process copy of seed_ice, and the per-move cost. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "ice.h"
#include "util.h"

/* ---- the reference: ../shared/baselines/seed_ice.c's algorithm, as is ----
 * Redraw the whole board (rand(), p = 0.125) and BFS with cell-by-cell
 * slides until the minimum moves fall in the band. Kept in this file so the
 * ratio is taken in one process, interleaved with ours, on this noisy
 * machine; `make -C ../shared/baselines && ./seed_ice` gives the original's
 * own figures. rand() is fine here: this is a measuring stick, not the game. */
typedef struct ref_ice {
    int m, n; /* rows, cols (seed_ice's order) */
    char *g;
    int *dist, *q;
} ref_ice;

static int ref_slide(const ref_ice *r, int cell, int d)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    int row = cell / r->n, c = cell % r->n;
    for (;;) {
        int nr = row + dr[d], nc = c + dc[d];
        if (nr < 0 || nr >= r->m || nc < 0 || nc >= r->n || r->g[nr * r->n + nc] == 'O')
            break;
        row = nr, c = nc;
    }
    return row * r->n + c;
}

static int ref_bfs(ref_ice *r, int s, int e)
{
    for (int i = 0; i < r->m * r->n; i++)
        r->dist[i] = -1;
    int head = 0, tail = 0;
    r->q[tail++] = s;
    r->dist[s] = 0;
    while (head < tail) {
        int u = r->q[head++];
        if (u == e)
            return r->dist[u];
        for (int d = 0; d < 4; d++) {
            int v = ref_slide(r, u, d);
            if (r->dist[v] < 0) {
                r->dist[v] = r->dist[u] + 1;
                r->q[tail++] = v;
            }
        }
    }
    return -1;
}

/* One map in the band [lo, hi]; adds the boards drawn to *tries. */
static int ref_generate(ref_ice *r, int lo, int hi, long *tries)
{
    int m = r->m, n = r->n;
    for (long t = 0; t < 100000; t++) {
        ++*tries;
        for (int row = 0; row < m; row++)
            for (int c = 0; c < n; c++)
                r->g[row * n + c] =
                    (row == 0 || c == 0 || row == m - 1 || c == n - 1 || (double)rand() / RAND_MAX < 0.125)
                        ? 'O'
                        : '.';
        int s = (m - 1) * n + 1 + rand() % (n - 2);
        int e = 1 + rand() % (n - 2);
        r->g[s] = 's';
        r->g[e] = 'e';
        int k = ref_bfs(r, s, e);
        if (k >= lo && k <= hi)
            return k;
    }
    return -1;
}

/* This thread's CPU time in microseconds: on a shared machine a preempted
 * batch costs wall time that neither algorithm spent. */
static double cpu_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Ours against the reference on the same size and band, in alternating
 * batches so that both see the same load, timed in thread CPU time. Prints
 * our mean in seed_ice's RESULT shape (tool ice_gen), the reference's (tool
 * ice_ref), and the ratio of the means. */
static void bench_versus(const bench_opts *o, int w, int h, int diff)
{
    static const int lo[3] = {3, 6, 10}, hi[3] = {5, 9, INT_MAX};
    static const char *names[3] = {"easy", "medium", "hard"};
    const pz_kind *k = &pz_kind_ice;
    pz_params p = {.kind = PZ_ICE, .w = w, .h = h, .diff = diff};
    ref_ice r = {.m = h, .n = w};
    r.g = mr_alloc((size_t)w * h, 1);
    r.dist = mr_alloc((size_t)w * h, sizeof *r.dist);
    r.q = mr_alloc((size_t)w * h, sizeof *r.q);
    srand(1);
    int total = o->quick ? 100 : o->count, batch = 50, ours_n = 0, ref_n = 0, fails = 0;
    long tries = 0;
    double ours_us = 0, ref_us = 0;
    uint64_t t_end = mr_now_us() + (uint64_t)(o->max_seconds * 2e6);
    for (int done = 0; done < total && mr_now_us() < t_end; done += batch) {
        int nb = total - done < batch ? total - done : batch;
        double t0 = cpu_now_us();
        for (int i = 0; i < nb; i++) {
            const char *err = NULL;
            pz_grade g;
            pz_puzzle *pz = k->generate(&p, (uint64_t)(done + i) + 1, &err);
            if (pz)
                k->grade(pz, &g);
            else
                fails++;
            k->free_puzzle(pz);
        }
        double t1 = cpu_now_us();
        for (int i = 0; i < nb; i++)
            if (ref_generate(&r, lo[diff], hi[diff], &tries) < 0)
                fails++;
        double t2 = cpu_now_us();
        ours_us += t1 - t0;
        ref_us += t2 - t1;
        ours_n += nb;
        ref_n += nb;
    }
    double ours = ours_n ? ours_us / ours_n : 0, ref = ref_n ? ref_us / ref_n : 0;
    printf("  ice %dx%d %-6s vs seed_ice %dx%d: ours %8.2f us/map, seed_ice's algorithm %9.2f us/map (CPU) "
           "(%.1f tries/map): %.1fx\n",
           w, h, names[diff], h, w, ours, ref, ref_n ? (double)tries / ref_n : 0, ours > 0 ? ref / ours : 0);
    printf("RESULT ice_gen %dx%d_%s us_per_map=%.3f maps=%d fails=%d\n", h, w, names[diff], ours, ours_n,
           fails);
    printf("RESULT ice_ref %dx%d_%s us_per_map=%.3f tries_per_map=%.2f maps=%d\n", h, w, names[diff], ref,
           ref_n ? (double)tries / ref_n : 0, ref_n);
    printf("RESULT ice_speedup %dx%d_%s ratio=%.2f\n", h, w, names[diff], ours > 0 ? ref / ours : 0);
    free(r.g);
    free(r.dist);
    free(r.q);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* generate + grade in thread CPU time: the figure the maximum size rests on
 * (docs/kinds/ice.md), since on a loaded machine the wall-clock p99 is set
 * by preemption rather than by the work. */
static void bench_cpu(const bench_opts *o, int w, int h, int diff)
{
    const pz_kind *k = &pz_kind_ice;
    pz_params p = {.kind = PZ_ICE, .w = w, .h = h, .diff = diff};
    int count = o->quick ? 20 : (o->count < 300 ? o->count : 300), n = 0, fails = 0;
    double *s = mr_alloc((size_t)count, sizeof *s);
    uint64_t t_end = mr_now_us() + (uint64_t)(o->max_seconds * 1e6);
    for (int i = 0; i < count && mr_now_us() < t_end; i++) {
        const char *err = NULL;
        pz_grade g;
        double t0 = cpu_now_us();
        pz_puzzle *pz = k->generate(&p, (uint64_t)i + 1, &err);
        if (pz)
            k->grade(pz, &g);
        else
            fails++;
        s[n++] = cpu_now_us() - t0;
        k->free_puzzle(pz);
    }
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    double med = n ? s[n / 2] : 0, p99 = n ? s[(int)((n - 1) * 0.99 + 0.5)] : 0;
    printf("  ice %dx%d %s in CPU time: median %.1f us, p99 %.1f us (n=%d, fails=%d)\n", w, h,
           diff == PZ_EASY     ? "easy"
           : diff == PZ_MEDIUM ? "medium"
                               : "hard",
           med, p99, n, fails);
    printf("RESULT ice_cpu %dx%d_%s median_us=%.2f p99_us=%.2f n=%d fails=%d\n", w, h,
           diff == PZ_EASY     ? "easy"
           : diff == PZ_MEDIUM ? "medium"
                               : "hard",
           med, p99, n, fails);
    free(s);
}

/* The server's per-move cost: execute_move over attempted slides in random
 * directions (legal and blocked) on a hard 100x100 board, restarting when
 * solved. */
static void bench_moves(int moves)
{
    const pz_kind *k = &pz_kind_ice;
    pz_params p = {.kind = PZ_ICE, .w = 100, .h = 100, .diff = PZ_HARD};
    const char *err = NULL;
    pz_puzzle *pz = k->generate(&p, 1, &err);
    if (!pz) {
        printf("  move check: %s\n", err);
        return;
    }
    pz_state *st = k->new_state(pz), *start = k->new_state(pz);
    uint64_t x = 88172645463325252ull;
    long legal = 0;
    uint64_t t0 = mr_now_us();
    for (int i = 0; i < moves; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        pz_move mv = {.type = PZ_MOVE_STEP, .dir = (uint8_t)(x & 3)};
        if (!k->execute_move(pz, st, mv, st))
            legal++;
        if (k->is_solved(pz, st))
            k->copy_state(st, start);
    }
    uint64_t us = mr_now_us() - t0;
    double ns = moves ? (double)us * 1e3 / moves : 0;
    printf("  execute_move on 100x100: %.1f ns per move (%d moves, %ld legal)\n", ns, moves, legal);
    printf("RESULT ice moves_100x100 ns_per_move=%.2f moves=%d\n", ns, moves);
    k->free_state(st);
    k->free_state(start);
    k->free_puzzle(pz);
}

void bench_ice(const bench_opts *o)
{
    const pz_kind *k = &pz_kind_ice;
    /* The original's sizes, the default, and the limits of each band. */
    static const int cases[][3] = {
        {25, 20, PZ_EASY}, {25, 20, PZ_MEDIUM}, {25, 20, PZ_HARD}, {35, 30, PZ_EASY},   {35, 30, PZ_MEDIUM},
        {35, 30, PZ_HARD}, {100, 100, PZ_HARD}, {64, 48, PZ_EASY}, {64, 64, PZ_MEDIUM}, {8, 8, PZ_HARD},
    };
    printf("  generate + grade, microseconds per puzzle:\n");
    for (size_t i = 0; i < MR_ARRAY_LEN(cases); i++) {
        pz_params p = {.kind = PZ_ICE, .w = cases[i][0], .h = cases[i][1], .diff = cases[i][2]};
        bench_generate(o, &p);
    }
    pz_params pmax = {.kind = PZ_ICE, .w = k->max_w, .h = k->max_h, .diff = PZ_HARD};
    bench_opts big = *o;
    if (!o->quick && big.count > 300)
        big.count = 300; /* enough for a p99 at the largest size */
    bench_generate(&big, &pmax);
    bench_cpu(o, 100, 100, PZ_HARD);
    bench_cpu(o, 256, 256, PZ_HARD);
    bench_cpu(o, k->max_w, k->max_h, PZ_HARD);

    printf("  against seed_ice's algorithm (same sizes, rows x cols in its RESULT lines):\n");
    for (int d = 0; d < PZ_DIFF_COUNT; d++) {
        bench_versus(o, 25, 20, d);
        bench_versus(o, 35, 30, d);
    }
    bench_moves(o->quick ? 100000 : 2000000);
}
