/* fuzz_moves.c: libFuzzer target: execute_move on random move streams, every kind, against the solver and
 * is_solved. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "puzzle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One small puzzle per kind and seed byte, made once; sum's seeds 4..7 are
 * 10x10 boards (above 25 cells: the other measure, 128-cell paths). */
static pz_puzzle *cache[PZ_KIND_COUNT][8];

static pz_puzzle *puzzle_for(int kind, int seed)
{
    if (!cache[kind][seed]) {
        const pz_kind *k = pz_kind_by_id(kind);
        pz_params p = {kind, k->default_w, k->default_h, PZ_EASY};
        if (kind == PZ_SUM && seed >= 4)
            p = (pz_params){kind, 10, 10, seed % 3};
        const char *err = NULL;
        cache[kind][seed] = k->generate(&p, (uint64_t)seed + 1, &err);
        if (!cache[kind][seed])
            abort();
    }
    return cache[kind][seed];
}

/* Byte 0: kind and seed; then 6 bytes a move (type, dir, x, y: any values,
 * as a hostile client sends them). A refused move leaves the state as it
 * was; a solved state refuses every further move; the solver's answer from
 * any reached state solves it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    int kind = data[0] % PZ_KIND_COUNT, seed = (data[0] / PZ_KIND_COUNT) % 8;
    const pz_kind *k = pz_kind_by_id(kind);
    pz_puzzle *pz = puzzle_for(kind, seed);
    pz_state *st = k->new_state(pz), *copy = k->new_state(pz);
    for (size_t i = 1; i + 6 <= size; i += 6) {
        pz_move mv = {data[i], data[i + 1], (uint16_t)(data[i + 2] << 8 | data[i + 3]),
                      (uint16_t)(data[i + 4] << 8 | data[i + 5])};
        bool solved = k->is_solved(pz, st);
        k->copy_state(copy, st);
        const char *why = k->execute_move(pz, st, mv, st);
        if (solved && !why)
            abort(); /* no move after solved */
        if (why && k->is_solved(pz, st) != solved)
            abort(); /* a refused move changed the state */
    }
    int max = pz_max_solution(pz);
    pz_move *plan = malloc((size_t)max * sizeof *plan);
    int n = k->is_solved(pz, st) ? -1 : k->solve(pz, st, plan, max);
    for (int i = 0; i < n && i < max; i++)
        if (k->execute_move(pz, st, plan[i], st))
            abort(); /* the solver's moves are legal */
    if (n >= 0 && !k->is_solved(pz, st))
        abort();
    free(plan);
    k->free_state(st);
    k->free_state(copy);
    return 0;
}
