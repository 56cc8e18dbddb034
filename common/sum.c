/* sum.c: the sum puzzle kind (Number path). Being written; see docs/puzzles.md. */
#include "puzzle.h"

const pz_kind pz_kind_sum = {
    .name = "sum",
    .title = "Number path",
    .id = PZ_SUM,
    .default_w = 5,
    .default_h = 4,
    .min_w = 3,
    .min_h = 3,
    .max_w = 64,
    .max_h = 64,
};
