/* ice.h: read-only queries on a sliding-ice puzzle and a player's state. */
#ifndef MR_ICE_H
#define MR_ICE_H

#include "puzzle.h"

/* 'O' boulder, '.' ice, 's' start, 'e' exit; 'O' out of range. */
char ice_cell(const pz_puzzle *pz, int x, int y);
void ice_start(const pz_puzzle *pz, int *x, int *y);
void ice_exit(const pz_puzzle *pz, int *x, int *y);
void ice_pos(const pz_state *st, int *x, int *y);
/* The seed of the generator's stream for a seeded ID (docs/generation.md). */
uint64_t ice_stream_seed(const pz_params *p, uint64_t seed);

/* The kind's generate, also giving the work units it used, success or not
 * (docs/generation.md, "Effort budget"): the test vectors record them. */
pz_puzzle *ice_generate_counted(const pz_params *p, uint64_t seed, const char **err, long *work);
/* Where a slide from (x, y) in dir stops (the rules' slide, no side effects). */
void ice_slide(const pz_puzzle *pz, int x, int y, int dir, int *ox, int *oy);

#endif
