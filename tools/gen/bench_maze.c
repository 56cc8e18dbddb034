/* bench_maze.c: maze figures for `mazerace-gen bench`: generate+grade per size and band, one traversal
 * against seed_traversal (its RESULT shape, and CPU time beside an in-process copy), storage, move check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "maze.h"
#include "util.h"

/* ---- the reference: ../shared/baselines/seed_traversal.c's generate(), as is ---- */

enum { REF_N = 1, REF_S = 2, REF_W = 4, REF_E = 8, REF_VISITED = 16 };
typedef struct ref_edge {
    int cell;
    unsigned char dir;
} ref_edge;
typedef struct ref_maze {
    unsigned char *cells;
    ref_edge *fr;
    size_t frn, frcap;
} ref_maze;

static void ref_push(ref_maze *m, int cell, unsigned char dir)
{
    if (m->frn == m->frcap) {
        m->frcap = m->frcap ? m->frcap * 2 : 1024;
        m->fr = mr_realloc(m->fr, m->frcap, sizeof *m->fr);
    }
    m->fr[m->frn++] = (ref_edge){cell, dir};
}

static void ref_generate(ref_maze *m, int w, int h)
{
    unsigned char *cells = m->cells;
    memset(cells, 0, (size_t)w * h);
    int start = (h - 1) * w;
    cells[start] = REF_VISITED;
    m->frn = 0;
    ref_push(m, start, REF_N), ref_push(m, start, REF_E);
    while (m->frn) {
        size_t i = (size_t)rand() % m->frn;
        ref_edge e = m->fr[i];
        m->fr[i] = m->fr[--m->frn];
        int i0 = e.cell, i1, d1;
        switch (e.dir) {
        case REF_N:
            i1 = i0 - w, d1 = REF_S;
            break;
        case REF_S:
            i1 = i0 + w, d1 = REF_N;
            break;
        case REF_W:
            i1 = i0 - 1, d1 = REF_E;
            break;
        default:
            i1 = i0 + 1, d1 = REF_W;
            break;
        }
        if (cells[i1] & REF_VISITED)
            continue;
        cells[i0] |= e.dir, cells[i1] |= (unsigned char)(d1 | REF_VISITED);
        int x1 = i1 % w, y1 = i1 / w;
        if (y1 > 0 && !(cells[i1 - w] & REF_VISITED))
            ref_push(m, i1, REF_N);
        if (y1 < h - 1 && !(cells[i1 + w] & REF_VISITED))
            ref_push(m, i1, REF_S);
        if (x1 > 0 && !(cells[i1 - 1] & REF_VISITED))
            ref_push(m, i1, REF_W);
        if (x1 < w - 1 && !(cells[i1 + 1] & REF_VISITED))
            ref_push(m, i1, REF_E);
    }
}

/* One of our traversals (with the measure) against one of the reference's,
 * alternating, each timed in thread CPU time so both see the same load:
 *   RESULT maze_cpu traversal_WxH ours_ms=.. ref_ms=.. ratio=.. n=..
 * with the medians over reps pairs. */
static void bench_traversal_versus(const bench_opts *o, int side, int reps)
{
    pz_params p = {.kind = PZ_MAZE, .w = side, .h = side, .diff = PZ_EASY};
    ref_maze m = {.cells = mr_alloc((size_t)side * side, 1)};
    double *ours = mr_alloc((size_t)reps, sizeof *ours), *ref = mr_alloc((size_t)reps, sizeof *ref);
    srand(1);
    int n = 0;
    uint64_t t_end = mr_now_us() + (uint64_t)(o->max_seconds * 2e6);
    for (int r = 0; r < reps && mr_now_us() < t_end; r++, n++) {
        const char *err = NULL;
        double t0 = bench_cpu_us();
        pz_puzzle *pz = maze_generate_once(&p, (uint64_t)r + 1, &err);
        double t1 = bench_cpu_us();
        ref_generate(&m, side, side);
        double t2 = bench_cpu_us();
        pz_kind_maze.free_puzzle(pz);
        ours[n] = t1 - t0;
        ref[n] = t2 - t1;
    }
    bench_stats so, sr;
    bench_stats_of(ours, n, &so);
    bench_stats_of(ref, n, &sr);
    double ratio = so.median > 0 ? sr.median / so.median : 0;
    printf("  %dx%d one traversal, CPU time, alternating: ours %.3f ms, seed_traversal's %.3f ms, %.2fx "
           "(n=%d)\n",
           side, side, so.median / 1e3, sr.median / 1e3, ratio, n);
    printf("RESULT maze_cpu traversal_%dx%d ours_ms=%.3f ref_ms=%.3f ratio=%.3f n=%d\n", side, side,
           so.median / 1e3, sr.median / 1e3, ratio, n);
    free(ours);
    free(ref);
    free(m.cells);
    free(m.fr);
}

/* One traversal per rep (no difficulty redraws): the work seed_traversal's
 * gen_WxH times, printed in its RESULT shape so the two sit side by side.
 * ok=1 when every maze built was a spanning tree (cells - 1 passages,
 * checked through maze_open; connectivity is proved inside the kind). */
static void bench_traversal(const bench_opts *o, int side, int reps)
{
    pz_params p = {.kind = PZ_MAZE, .w = side, .h = side, .diff = PZ_EASY};
    const pz_kind *k = &pz_kind_maze;
    double *samples = mr_alloc((size_t)reps, sizeof *samples);
    int ok = 1, n = 0;
    uint64_t t_end = mr_now_us() + (uint64_t)(o->max_seconds * 1e6);
    for (int r = 0; r < reps; r++) {
        const char *err = NULL;
        uint64_t t0 = mr_now_us();
        pz_puzzle *pz = maze_generate_once(&p, (uint64_t)r + 1, &err);
        uint64_t t1 = mr_now_us();
        samples[n++] = (double)(t1 - t0);
        if (!pz) {
            ok = 0;
            break;
        }
        long passages = 0;
        for (int y = 0; y < side; y++)
            for (int x = 0; x < side; x++)
                passages += maze_open(pz, x, y, PZ_RIGHT) + maze_open(pz, x, y, PZ_DOWN);
        if (passages != (long)side * side - 1)
            ok = 0;
        if (r == 0)
            printf("  storage %dx%d: %zu bytes (%.4f bytes per cell)\n", side, side, maze_storage_bytes(pz),
                   (double)maze_storage_bytes(pz) / ((double)side * side));
        if (r == 0)
            printf("RESULT maze storage_%dx%d bytes=%zu bytes_per_cell=%.4f\n", side, side,
                   maze_storage_bytes(pz), (double)maze_storage_bytes(pz) / ((double)side * side));
        k->free_puzzle(pz);
        if (t1 > t_end)
            break;
    }
    bench_stats st;
    bench_stats_of(samples, n, &st);
    double cells = (double)side * side;
    printf(
        "  %dx%d one traversal  mean %10.3f ms  median %10.3f ms  (%.1f ns/cell, n=%d, spanning tree %s)\n",
        side, side, st.mean / 1e3, st.median / 1e3, st.mean * 1e3 / cells, n, ok ? "ok" : "BROKEN");
    printf("RESULT maze gen_%dx%d ms=%.3f ns_per_cell=%.2f ok=%d\n", side, side, st.mean / 1e3,
           st.mean * 1e3 / cells, ok);
    free(samples);
}

/* One side x side maze (one traversal, seed), or NULL with the reason printed under what. */
static pz_puzzle *one_maze(int side, uint64_t seed, const char *what)
{
    pz_params p = {.kind = PZ_MAZE, .w = side, .h = side, .diff = PZ_EASY};
    const char *err = NULL;
    pz_puzzle *pz = maze_generate_once(&p, seed, &err);
    if (!pz)
        printf("  %s: %s\n", what, err);
    return pz;
}

/* The server's per-move cost: execute_move through the kind's table over a
 * random walk of attempted steps (legal and walled) on a large maze. */
static void bench_moves(int side, int moves)
{
    const pz_kind *k = &pz_kind_maze;
    pz_puzzle *pz = one_maze(side, 1, "move check");
    if (!pz)
        return;
    pz_state *st = k->new_state(pz);
    uint8_t *dirs = mr_alloc((size_t)moves, 1);
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < moves; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        dirs[i] = (uint8_t)(x & 3);
    }
    long legal = 0;
    uint64_t t0 = mr_now_us();
    for (int i = 0; i < moves; i++) {
        pz_move mv = {.type = PZ_MOVE_STEP, .dir = dirs[i]};
        if (!k->execute_move(pz, st, mv, st))
            legal++;
        if (k->is_solved(pz, st)) {
            k->free_state(st);
            st = k->new_state(pz);
        }
    }
    double ns = (double)(mr_now_us() - t0) * 1e3 / moves;
    printf("  %dx%d move check  %.2f ns/move (%ld/%d legal)\n", side, side, ns, legal, moves);
    printf("RESULT maze move_%dx%d ns_per_move=%.3f legal=%ld moves=%d\n", side, side, ns, legal, moves);
    free(dirs);
    k->free_state(st);
    k->free_puzzle(pz);
}

/* solve from the start and the validation of a received description (what
 * a server does with a `maze:WxH:<desc>` ID), on the largest board. */
static void bench_solve_decode(int side)
{
    pz_params p = {.kind = PZ_MAZE, .w = side, .h = side, .diff = PZ_EASY};
    const pz_kind *k = &pz_kind_maze;
    const char *err = NULL;
    pz_puzzle *pz = one_maze(side, 2, "solve/decode");
    if (!pz)
        return;
    int max = 3 * side * side + 1;
    pz_move *sol = mr_alloc((size_t)max, sizeof *sol);
    pz_grade g;
    uint64_t t0 = mr_now_us();
    int len = k->solve(pz, NULL, sol, max);
    k->grade(pz, &g);
    uint64_t t1 = mr_now_us();
    char *desc = k->encode_desc(pz);
    uint64_t t2 = mr_now_us();
    pz_puzzle *back = k->decode_desc(&p, desc, &err);
    uint64_t t3 = mr_now_us();
    printf("  %dx%d solve+grade %llu us (route %d moves), decode_desc %llu us (%zu chars, %s)\n", side, side,
           (unsigned long long)(t1 - t0), len, (unsigned long long)(t3 - t2), strlen(desc),
           back ? "ok" : err);
    printf("RESULT maze solve_%dx%d us=%llu route=%d decode_us=%llu desc_chars=%zu ok=%d\n", side, side,
           (unsigned long long)(t1 - t0), len, (unsigned long long)(t3 - t2), strlen(desc), back != NULL);
    free(desc);
    free(sol);
    k->free_puzzle(back);
    k->free_puzzle(pz);
}

void bench_maze(const bench_opts *o)
{
    printf("maze: one traversal (compare RESULT traversal gen_* of seed_traversal)\n");
    bench_traversal(o, 100, o->quick ? 20 : 200);
    bench_traversal(o, 1000, o->quick ? 2 : 10);
    bench_traversal_versus(o, 1000, o->quick ? 3 : 15);
    bench_moves(1000, o->quick ? 100000 : 10000000);
    bench_solve_decode(1000);

    printf("maze: generate + grade (steered into the band, redrawn if steering misses)\n");
    static const int sizes[][2] = {{21, 15}, {64, 48}, {100, 100}, {160, 160}, {200, 200}, {1000, 1000}};
    for (size_t s = 0; s < MR_ARRAY_LEN(sizes); s++)
        for (int d = 0; d < PZ_DIFF_COUNT; d++) {
            pz_params p = {.kind = PZ_MAZE, .w = sizes[s][0], .h = sizes[s][1], .diff = d};
            bench_opts big = *o;
            if (p.w * p.h >= 1000000) { /* ~40 ms each: keep the run bounded */
                if (big.count > 200)
                    big.count = 200;
                if (o->quick)
                    big.max_seconds = 1.0;
            }
            bench_generate(&big, &p);
        }
}
