/* ice_impl.h: the sliding-ice board shared by ice.c, ice_gen.c and ice_text.c (not public). */
#ifndef MR_ICE_IMPL_H
#define MR_ICE_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puzzle.h"

/* Difficulty bands in minimum moves (docs/kinds/ice.md). */
#define ICE_EASY_LO 3
#define ICE_EASY_HI 5
#define ICE_MEDIUM_LO 6
#define ICE_MEDIUM_HI 9
#define ICE_HARD_LO 10

/* Boulders are kept twice, as bit rows and bit columns, so that a slide in
 * any direction is one scan for the next set bit (O(1) up to 64 cells, one
 * word per further 64) instead of a walk over the cells. */
struct pz_puzzle {
    pz_params params; /* first, by the pz_params_of() convention */
    int w, h;         /* columns, rows (== params.w, params.h) */
    int sx, ex;       /* start (sx, h - 1) in the bottom border, exit (ex, 0) in the top */
    int rw, cw;       /* 64-bit words per row, per column */
    int moves;        /* minimum moves start to exit, measured when the puzzle is built */
    uint64_t *rows;   /* h * rw words: bit x of row y set = boulder */
    uint64_t *cols;   /* w * cw words: bit y of column x set = boulder */
    uint64_t bits[];  /* storage of rows then cols */
};

struct pz_state {
    int x, y;
};

/* A board of w x h with every cell free (w, h >= 1); the caller sets sx, ex,
 * params and boulders. Free with free(). */
pz_puzzle *ice_alloc(int w, int h);
void ice_set_boulder(pz_puzzle *pz, int x, int y, bool on);

/* Minimum moves from (x, y) to the exit on the board as it is (gaps open),
 * or -1 if the exit cannot be reached. 0 on the exit. */
int ice_min_moves(const pz_puzzle *pz, int x, int y);

/* Band of a minimum move count, or -1. */
int ice_band_of(int moves);

/* The kind's entries that live in ice_gen.c and ice_text.c (see pz_kind). */
pz_puzzle *ice_generate(const pz_params *p, uint64_t seed, const char **err);
char *ice_encode_desc(const pz_puzzle *pz);
pz_puzzle *ice_decode_desc(const pz_params *p, const char *desc, const char **err);
char *ice_format_text(const pz_puzzle *pz);
pz_puzzle *ice_parse_text(const char *text, size_t len, pz_error *err);

/* Lowest set bit index >= from in words[0..n), or -1. */
static inline int ice_next_bit(const uint64_t *words, int n, int from)
{
    int k = from >> 6;
    if (k >= n)
        return -1;
    uint64_t m = words[k] & (~0ull << (from & 63));
    while (!m) {
        if (++k >= n)
            return -1;
        m = words[k];
    }
    return k * 64 + __builtin_ctzll(m);
}

/* Highest set bit index <= from in words, or -1. */
static inline int ice_prev_bit(const uint64_t *words, int from)
{
    if (from < 0)
        return -1;
    int k = from >> 6;
    uint64_t m = words[k] & ((2ull << (from & 63)) - 1);
    while (!m) {
        if (--k < 0)
            return -1;
        m = words[k];
    }
    return k * 64 + 63 - __builtin_clzll(m);
}

static inline bool ice_boulder(const pz_puzzle *pz, int x, int y)
{
    return (pz->rows[y * pz->rw + (x >> 6)] >> (x & 63)) & 1;
}

/* The rules' slide from a free cell (x, y): returns the stopping
 * coordinate along the axis of dir (y for UP/DOWN, x for LEFT/RIGHT). */
static inline int ice_slide_to(const pz_puzzle *pz, int x, int y, int dir)
{
    const uint64_t *col = pz->cols + (size_t)x * pz->cw;
    const uint64_t *row = pz->rows + (size_t)y * pz->rw;
    int q;
    switch (dir) {
    case PZ_UP:
        return ice_prev_bit(col, y - 1) + 1;
    case PZ_DOWN:
        q = ice_next_bit(col, pz->cw, y + 1);
        return q < 0 ? pz->h - 1 : q - 1;
    case PZ_LEFT:
        return ice_prev_bit(row, x - 1) + 1;
    default:
        q = ice_next_bit(row, pz->rw, x + 1);
        return q < 0 ? pz->w - 1 : q - 1;
    }
}

#endif
