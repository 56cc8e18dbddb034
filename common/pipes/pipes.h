/* pipes.h: read-only queries on a rotating-pipes puzzle and a player's state. */
#ifndef MR_PIPES_H
#define MR_PIPES_H

#include "puzzle.h"

/* Connection bits of a tile as currently rotated. */
enum { PIPES_N = 1, PIPES_E = 2, PIPES_S = 4, PIPES_W = 8 };

/* Openings of tile (x, y) in state st: a mask of PIPES_N/E/S/W
 * (a straight has two opposite bits, a corner two adjacent ones); 0 if out
 * of range. st may be NULL: the puzzle's initial orientation. */
int pipes_tile(const pz_puzzle *pz, const pz_state *st, int x, int y);
/* Quarter turns clockwise applied to tile (x, y) relative to its solved
 * orientation in the generated board is not exposed; this is the number of
 * clockwise quarter turns from the puzzle's initial orientation, 0..3. */
int pipes_turns(const pz_state *st, int x, int y);
/* Start cap on the left of row start_row (column 0); End cap on the right of
 * row end_row (column w-1). */
/* The seed of the generator's stream for a seeded ID (docs/generation.md). */
uint64_t pipes_stream_seed(const pz_params *p, uint64_t seed);
int pipes_start_row(const pz_puzzle *pz);
int pipes_end_row(const pz_puzzle *pz);
/* True if tile (x, y) is joined to the Start cap through matching
 * connections in st (for drawing the water). */
bool pipes_connected(const pz_puzzle *pz, const pz_state *st, int x, int y);

#endif
