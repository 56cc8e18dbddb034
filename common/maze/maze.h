/* maze.h: read-only queries on a perfect maze and a player's state. Start is
 * the bottom-left cell (0, h-1), the exit the top-right cell (w-1, 0). */
#ifndef MR_MAZE_H
#define MR_MAZE_H

#include "puzzle.h"

/* True if a passage leads from (x, y) in direction dir (enum pz_dir);
 * false for walls, the outer border and out-of-range cells. O(1). */
bool maze_open(const pz_puzzle *pz, int x, int y, int dir);
void maze_pos(const pz_state *st, int *x, int *y);
/* One randomized traversal from the seed, whatever its difficulty (recorded
 * in its params): the first draw generate() would make. For benchmarks.
 * NULL with *err for bad params; free with pz_kind_maze.free_puzzle. */
pz_puzzle *maze_generate_once(const pz_params *p, uint64_t seed, const char **err);
/* Bytes the finished maze occupies (its struct plus one byte per cell). */
size_t maze_storage_bytes(const pz_puzzle *pz);

#endif
