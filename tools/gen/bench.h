/* bench.h: the benchmark harness of `mazerace-gen bench`: timing loops and
 * the RESULT lines (same shape as ../shared/baselines) that docs/performance.md
 * quotes. Each kind adds its own figures in tools/gen/bench_<kind>.c. */
#ifndef MR_BENCH_H
#define MR_BENCH_H

#include <stdbool.h>

#include "puzzle.h"

typedef struct bench_opts {
    int count;          /* puzzles per configuration (default 2000) */
    double max_seconds; /* stop a configuration after this long (default 5) */
    bool quick;         /* fewer puzzles, for smoke tests */
    bool effort;        /* sum: only the measure vs human-like effort study */
} bench_opts;

/* Sorted-sample statistics in microseconds. */
typedef struct bench_stats {
    int n;
    double mean, median, p99, max;
} bench_stats;

/* Sorts samples in place and fills st. */
void bench_stats_of(double *samples_us, int n, bench_stats *st);

/* This thread's CPU time in microseconds: steadier than the wall clock on a
 * loaded machine. */
double bench_cpu_us(void);

/* Times generate + grade for params over seeds 1..count (bounded by
 * max_seconds), prints a readable line and
 *   RESULT gen <kind>_<W>x<H>_<diff> median_us=.. p99_us=.. mean_us=.. max_us=.. n=.. fails=..
 * and the same in thread CPU time as RESULT gen_cpu <kind>_<W>x<H>_<diff> ..,
 * and returns the stats. fails counts seeds whose generation returned NULL. */
bench_stats bench_generate(const bench_opts *o, const pz_params *p);

/* Kind-specific benches (each in its own file): extra comparisons against
 * ../shared/baselines and the kind's sizes. */
void bench_sum(const bench_opts *o);
/* The detour measure of w x h sum boards against a human-like search's
 * effort on the same boards (bench_sum_effort.c). */
void bench_sum_effort(const bench_opts *o, int w, int h);
void bench_maze(const bench_opts *o);
void bench_ice(const bench_opts *o);
void bench_pipes(const bench_opts *o);
/* `bench-bot`: each computer level's median solve time per kind (only_kind,
 * or -1 for all) and size band on diff boards, count seeds a cell, printed
 * as a Markdown table (bench_bot.c). Returns the exit status. */
int bench_bot(int count, int only_kind, int diff);

#endif
