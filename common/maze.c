/* maze.c: the maze puzzle kind (Perfect maze). Being written; see docs/puzzles.md. */
#include "puzzle.h"

const pz_kind pz_kind_maze = {
    .name = "maze",
    .title = "Perfect maze",
    .id = PZ_MAZE,
    .default_w = 21,
    .default_h = 15,
    .min_w = 3,
    .min_h = 3,
    .max_w = 64,
    .max_h = 64,
};
