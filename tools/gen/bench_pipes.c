/* bench_pipes.c: `mazerace-gen bench` figures for pipes: generation + par, solve, desc check, moves. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "pipes.h"
#include "util.h"

/* Times solve (from the start) and decode_desc on the puzzles of seeds 1..n;
 * prints one RESULT line. */
static void bench_solve(const bench_opts *o, const pz_params *p)
{
    const pz_kind *k = &pz_kind_pipes;
    int count = o->quick ? 50 : (o->count < 500 ? o->count : 500);
    double *solve_us = mr_alloc((size_t)count, sizeof *solve_us);
    double *decode_us = mr_alloc((size_t)count, sizeof *decode_us);
    int max = 3 * p->w * p->h + 1, n = 0, bad = 0;
    pz_move *mv = mr_alloc((size_t)max, sizeof *mv);
    for (int i = 0; i < count; i++) {
        const char *err = NULL;
        pz_puzzle *pz = k->generate(p, (uint64_t)i + 1, &err);
        if (!pz) {
            bad++;
            continue;
        }
        char *desc = k->encode_desc(pz);
        uint64_t t0 = mr_now_us();
        int len = k->solve(pz, NULL, mv, max);
        uint64_t t1 = mr_now_us();
        /* decode_desc is what a server runs on a description it receives:
         * it re-checks solvability, so it costs about one solve */
        pz_puzzle *back = k->decode_desc(p, desc, &err);
        uint64_t t2 = mr_now_us();
        if (len < 1 || !back)
            bad++;
        solve_us[n] = (double)(t1 - t0);
        decode_us[n++] = (double)(t2 - t1);
        k->free_puzzle(back);
        k->free_puzzle(pz);
        free(desc);
    }
    bench_stats s, d;
    bench_stats_of(solve_us, n, &s);
    bench_stats_of(decode_us, n, &d);
    printf("  pipes  %5dx%-5d %-6s  solve median %7.1f us p99 %7.1f us; decode_desc median %7.1f us p99 "
           "%7.1f us\n",
           p->w, p->h, pz_difficulty_name(p->diff), s.median, s.p99, d.median, d.p99);
    printf("RESULT pipes solve_%dx%d_%s median_us=%.2f p99_us=%.2f decode_median_us=%.2f decode_p99_us=%.2f "
           "n=%d bad=%d\n",
           p->w, p->h, pz_difficulty_name(p->diff), s.median, s.p99, d.median, d.p99, n, bad);
    free(mv);
    free(solve_us);
    free(decode_us);
}

/* The server checks every move with execute_move: rotate one tile and
 * re-trace the chain from Start. Cycles through every tile of one board. */
static void bench_moves(const bench_opts *o, const pz_params *p)
{
    const pz_kind *k = &pz_kind_pipes;
    const char *err = NULL;
    pz_puzzle *pz = k->generate(p, 1, &err);
    if (!pz) {
        printf("RESULT pipes move_%dx%d ns_per_move=0 moves=0 error=1\n", p->w, p->h);
        return;
    }
    pz_state *st = k->new_state(pz);
    pz_state *to = k->new_state(pz);
    long moves = o->quick ? 100000 : 2000000, rejected = 0;
    uint64_t t0 = mr_now_us();
    for (long i = 0; i < moves; i++) {
        int cell = (int)(i % (p->w * p->h));
        pz_move m = {.type = (uint8_t)(i & 1 ? PZ_MOVE_ROTATE_CW : PZ_MOVE_ROTATE_CCW),
                     .x = (uint16_t)(cell % p->w),
                     .y = (uint16_t)(cell / p->w)};
        /* into a second state, so a solved board never stops the loop */
        if (k->execute_move(pz, st, m, to))
            rejected++;
    }
    uint64_t t1 = mr_now_us();
    double ns = (double)(t1 - t0) * 1000.0 / (double)moves;
    printf("  pipes  %5dx%-5d move check %.1f ns per move (%ld moves)\n", p->w, p->h, ns, moves);
    printf("RESULT pipes move_%dx%d ns_per_move=%.2f moves=%ld rejected=%ld\n", p->w, p->h, ns, moves,
           rejected);
    k->free_state(st);
    k->free_state(to);
    k->free_puzzle(pz);
}

void bench_pipes(const bench_opts *o)
{
    const pz_kind *k = &pz_kind_pipes;
    /* the default, two larger boards, a wide one, and the maximum */
    const int sizes[][2] = {{6, 4}, {10, 8}, {16, 12}, {20, 6}, {22, 22}, {30, 30}, {k->max_w, k->max_h}};
    printf("pipes: generate + par (issue 2: 6x4 median < 50 us, p99 < 1 ms; max size p99 < 5 ms)\n");
    for (size_t s = 0; s < MR_ARRAY_LEN(sizes); s++)
        for (int d = 0; d < PZ_DIFF_COUNT; d++) {
            pz_params p = {.kind = PZ_PIPES, .w = sizes[s][0], .h = sizes[s][1], .diff = d};
            bench_generate(o, &p);
        }
    printf("pipes: par solver alone and description check\n");
    for (int d = 0; d < PZ_DIFF_COUNT; d++) {
        pz_params p = {.kind = PZ_PIPES, .w = 6, .h = 4, .diff = d};
        bench_solve(o, &p);
    }
    pz_params big = {.kind = PZ_PIPES, .w = k->max_w, .h = k->max_h, .diff = PZ_HARD};
    bench_solve(o, &big);
    printf("pipes: move check\n");
    pz_params def = {.kind = PZ_PIPES, .w = 6, .h = 4, .diff = PZ_MEDIUM};
    bench_moves(o, &def);
    bench_moves(o, &big);
}
