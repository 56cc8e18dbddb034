/* pipes.c: the pipes puzzle kind (Rotating pipes). Being written; see docs/puzzles.md. */
#include "puzzle.h"

const pz_kind pz_kind_pipes = {
    .name = "pipes",
    .title = "Rotating pipes",
    .id = PZ_PIPES,
    .default_w = 6,
    .default_h = 4,
    .min_w = 3,
    .min_h = 3,
    .max_w = 64,
    .max_h = 64,
};
