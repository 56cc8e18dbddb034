/* pipes_impl.h: the rotating-pipes board, state and solver shared by pipes.c, pipes_solve.c, pipes_gen.c
 * and pipes_text.c (not public). */
#ifndef MR_PIPES_IMPL_H
#define MR_PIPES_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pipes.h"
#include "puzzle.h"

/* Sides are numbered clockwise (N E S W) so that a clockwise quarter turn of
 * a tile adds one to every side; the mask bit of side s is 1 << s, which is
 * the PIPES_N/E/S/W numbering of pipes.h. */
enum { SIDE_N, SIDE_E, SIDE_S, SIDE_W };

#define MASK_NS (PIPES_N | PIPES_S)
#define MASK_EW (PIPES_E | PIPES_W)

/* Hard limits of this kind (docs/kinds/pipes.md explains each figure). */
#define PIPES_MIN_W 2
#define PIPES_MIN_H 2
#define PIPES_MAX_W 40
#define PIPES_MAX_H 40
#define STR_(x) #x
#define STR(x) STR_(x)

/* The six tiles, in the order of the text letters and description digits
 * (pipes.c). */
extern const uint8_t pipes_tile_masks[6];

struct pz_puzzle {
    pz_params params;
    int start_row, end_row;
    int n;
    uint8_t mask[]; /* initial openings of each tile, row by row */
};

struct pz_state {
    int w, h, n;
    bool solved;
    int lit_count;  /* tiles on the chain from Start */
    uint8_t data[]; /* turns[n] (0..3 clockwise quarter turns), then lit[n] */
};

static inline uint8_t *turns_of(pz_state *st)
{
    return st->data;
}
static inline const uint8_t *cturns_of(const pz_state *st)
{
    return st->data;
}
static inline uint8_t *lit_of(pz_state *st)
{
    return st->data + st->n;
}
static inline const uint8_t *clit_of(const pz_state *st)
{
    return st->data + st->n;
}

static inline int rot_cw(int mask, int turns)
{
    turns &= 3;
    return ((mask << turns) | (mask >> (4 - turns))) & 15;
}

static inline bool is_straight(int mask)
{
    return mask == MASK_NS || mask == MASK_EW;
}

/* Fewest quarter turns (either direction) from mask `from` to mask `to` of
 * the same shape. */
static inline int rot_cost(int from, int to)
{
    if (from == to)
        return 0;
    if (is_straight(from))
        return 1;
    return rot_cw(from, 2) == to ? 2 : 1;
}

static inline int side_dx(int s)
{
    return s == SIDE_E ? 1 : s == SIDE_W ? -1 : 0;
}
static inline int side_dy(int s)
{
    return s == SIDE_S ? 1 : s == SIDE_N ? -1 : 0;
}

static inline int cur_mask(const pz_puzzle *pz, const pz_state *st, int i)
{
    return st ? rot_cw(pz->mask[i], cturns_of(st)[i]) : pz->mask[i];
}

/* ---- rules (pipes.c) ---- */

/* The band (PZ_EASY..PZ_HARD) of par on a board w wide; -1 if par < 1. */
int pipes_band_of(int w, int par);
/* Par range [lo, hi] of band diff on a board w wide (hard: hi is huge). */
void pipes_band_range(int w, int diff, int *lo, int *hi);
/* NULL if w x h is within the kind's limits, else why not. */
const char *pipes_check_size(int w, int h);
const char *pipes_validate_params(const pz_params *p);
/* A puzzle of p's size with unset tiles and rows; free with free(). */
pz_puzzle *pipes_alloc(const pz_params *p);
pz_state *pipes_new_state(const pz_puzzle *pz);
void pipes_free_state(pz_state *st);

/* ---- the par solver ----
 *
 * A chain is a self-avoiding sequence of tiles from the Start cap to the End
 * cap; on it each tile joins its entry side to its exit side, so a straight
 * must go straight on and a corner must turn. Its cost is the sum over its
 * tiles of the quarter turns that bring each tile from its current
 * orientation to the one the chain needs; tiles off the chain never matter.
 * Par is the cheapest chain. Dropping self-avoidance makes this a shortest
 * path over (tile, entry side), which a Dijkstra solves; that gives an
 * admissible bound h for a depth-first branch and bound over real chains,
 * which stops as soon as it meets the bound (the usual case). */

typedef struct pipes_solver {
    const pz_puzzle *pz;
    int w, h, n;
    uint8_t *cur;   /* current masks */
    int16_t *hcost; /* bound per (tile, entry side); H_INF unreachable */
    uint8_t *used;  /* tiles on the chain being built */
    /* depth-first stack: one frame per tile on the chain being built */
    int16_t *cell, *gcost, *best_cell;
    int8_t *entry, *opt, *best_exit;
    int8_t (*exits)[2]; /* a frame's exit sides, most promising first; -1 none */
    /* Dial's bucket queue for the bound: a list per cost */
    int *head, *next, *val;
    int best_len, best_cost;
    long nodes, budget;
    bool exact;
} pipes_solver;

/* ---- the solver (pipes_solve.c) ---- */

/* A solver for boards of n tiles, budget SOLVE_BUDGET nodes; free with free(). */
pipes_solver *pipes_solver_create(int n);
/* Solves pz from state st (NULL: the start) with a solver made for its
 * tile count. */
void pipes_solver_run(pipes_solver *sv, const pz_puzzle *pz, const pz_state *st);
/* pipes_solver_create and pipes_solver_run in one. */
pipes_solver *pipes_solve_board(const pz_puzzle *pz, const pz_state *st);
int pipes_solve(const pz_puzzle *pz, const pz_state *st, pz_move *out, int max);
void pipes_grade(const pz_puzzle *pz, pz_grade *out);
void pipes_progress(const pz_puzzle *pz, const pz_state *st, pz_progress *out);

/* ---- generation (pipes_gen.c) ---- */

pz_puzzle *pipes_generate(const pz_params *p, uint64_t seed, const char **err);

/* ---- description and text form (pipes_text.c) ---- */

char *pipes_encode_desc(const pz_puzzle *pz);
pz_puzzle *pipes_decode_desc(const pz_params *p, const char *desc, const char **err);
char *pipes_format_text(const pz_puzzle *pz);
pz_puzzle *pipes_parse_text(const char *text, size_t len, pz_error *err);

#endif
