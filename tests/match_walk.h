/* match_walk.h: a fake puzzle kind ("walk") and the helpers test_match.c and test_match_limits.c drive the
 * match engine with. */
#ifndef MR_MATCH_WALK_H
#define MR_MATCH_WALK_H

#include "match.h"
#include "puzzle.h"

/* "walk": a 1-D puzzle, walk right from cell 0 to cell w-1 (kind id PZ_MAZE). */
extern const pz_kind walk_kind;
/* A walk of p->w cells (at least 2, else NULL and *err). */
pz_puzzle *walk_generate(const pz_params *p, uint64_t seed, const char **err);

#define LEN 6 /* cells: 5 steps right solve it */
static const pz_move RIGHT = {PZ_MOVE_STEP, PZ_RIGHT, 0, 0};
static const pz_move LEFT = {PZ_MOVE_STEP, PZ_LEFT, 0, 0};
static const pz_move UP = {PZ_MOVE_STEP, PZ_UP, 0, 0};

/* A match on a walk of LEN cells, with this countdown, grace, series length and seed. */
match *new_match(uint32_t countdown, uint32_t grace, int series, uint64_t seed);
/* Drains the queue into evs (at most max); returns how many. */
int drain(match *m, match_event *evs, int max);
/* How many of evs[0..n) are of this type; the first one (NULL if none). */
int count_type(const match_event *evs, int n, int type);
const match_event *find(const match_event *evs, int n, int type);
/* Two players joined and ready at t=1000; countdown 3000 -> race at 4000. */
match *racing_match(int series);
/* n steps right for slot, move numbers 0..n-1, all at time now. */
void play_moves(match *m, int slot, int n, uint64_t now);

#endif
