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

#endif
