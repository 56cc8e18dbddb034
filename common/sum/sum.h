/* sum.h: read-only queries on a number-path (sum) puzzle and state, for
 * renderers, bots and tests. Coordinates are 0-based (x column, y row). */
#ifndef MR_SUM_H
#define MR_SUM_H

#include "puzzle.h"

int sum_value(const pz_puzzle *pz, int x, int y); /* 0 if out of range */
void sum_start(const pz_puzzle *pz, int *x, int *y);
void sum_end(const pz_puzzle *pz, int *x, int *y);
int sum_target(const pz_puzzle *pz);

int sum_path_len(const pz_state *st); /* >= 1: Start is always on the path */
/* i-th cell of the path, 0 = Start; i must be in [0, path_len). */
void sum_path_cell(const pz_state *st, int i, int *x, int *y);
int sum_running(const pz_state *st); /* sum of the values on the path */

/* The seed of the generator's stream for a seeded ID (docs/generation.md). */
uint64_t sum_stream_seed(const pz_params *p, uint64_t seed);

/* The kind's generate, also giving the draws it used (dropped walks
 * included; docs/generation.md), success or not: the test vectors record
 * them. */
pz_puzzle *sum_generate_counted(const pz_params *p, uint64_t seed, const char **err, int *draws);

/* Most cells on a sum board (10x10; docs/kinds/sum.md). */
#define SUM_MAX_CELLS 100
#define SUM_MAX_CELLS_TEXT "100"

/* What the exact counter measured: valid paths (self-avoiding Start..End,
 * End only as the last cell, sum == target), the fewest cells of any of
 * them (0 if none) and the search nodes it took. */
typedef struct sum_count {
    long paths;
    int min_cells;
    long nodes;
} sum_count;

/* The exact counter on a raw board, for the bench and tests: w * h values
 * row by row (any range), Start and End as cell indices. 0 and *out filled,
 * or -1 if the arguments are out of range (boards up to 6x6 and 7x5 / 5x7
 * fit its bitmasks: (w + 1) * (h + 2) + 1 <= 64). */
int sum_count_paths(int w, int h, const int8_t *vals, int start, int end, int target, sum_count *out);

#endif
