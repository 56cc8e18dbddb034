/* ice.c: the ice puzzle kind (Sliding ice). Being written; see docs/puzzles.md. */
#include "puzzle.h"

const pz_kind pz_kind_ice = {
    .name = "ice",
    .title = "Sliding ice",
    .id = PZ_ICE,
    .default_w = 25,
    .default_h = 20,
    .min_w = 3,
    .min_h = 3,
    .max_w = 64,
    .max_h = 64,
};
