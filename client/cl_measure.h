/* cl_measure.h: the race measure players see (who is ahead, the side panel): only what the board shows, never
 * the solver's. */
#ifndef CL_MEASURE_H
#define CL_MEASURE_H

#include "puzzle.h"

/* How far st is from done, as a player could count it on the screen
 * (docs/racing.md, "What progress shows"): maze and ice, cells from the
 * exit along rows and columns; sum, cells from End, and at least 3 when
 * the next step onto End would miss the target (a detour round a square)
 * or 4 on End without it (one step back, then the detour); pipes, tiles
 * without water. 0 when solved, -1 for an unknown kind. */
int cl_measure_remaining(const pz_puzzle *pz, const pz_state *st);

#endif
