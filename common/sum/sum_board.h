/* sum_board.h: the number-path board and its exact path counter; private to
 * the mr_kind_sum library (sum.c and sum_count.c). */
#ifndef MR_SUM_BOARD_H
#define MR_SUM_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "sum.h"

/* Cells of a board: at most 128 (the limit is 100, docs/kinds/sum.md). */
enum { SUM_BOARD_CELLS = 128 };

/* A set of cells of any board, one bit each. */
typedef struct sum_mask {
    uint64_t w[SUM_BOARD_CELLS / 64];
} sum_mask;

static inline bool sum_mask_has(const sum_mask *m, int i)
{
    return m->w[i >> 6] >> (i & 63) & 1;
}

static inline void sum_mask_set(sum_mask *m, int i)
{
    m->w[i >> 6] |= (uint64_t)1 << (i & 63);
}

static inline void sum_mask_clear(sum_mask *m, int i)
{
    m->w[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

typedef struct sum_board {
    int w, h, n;
    int start, end, target;
    int8_t val[SUM_BOARD_CELLS];
    uint64_t nbr[64]; /* 4-neighbour masks; only on boards of at most 64 cells */
} sum_board;

/* Geometry of a w x h board (w * h <= SUM_BOARD_CELLS); values, ends and
 * target are the caller's to fill. */
void sum_board_init(sum_board *b, int w, int h);

/* The neighbour of cell i at angle a (0 right, 1 up, 2 left, 3 down), or -1
 * off the board. */
int sum_board_neighbour(const sum_board *b, int i, int a);

/* Whether sum_board_count can take a w x h board: it works on a copy
 * framed by a border of empty bits, (w + 1) * (h + 2) + 1 <= 64. */
bool sum_board_countable(int w, int h);

/* Counts the valid paths that continue prefix[0..len) (prefix[0] = Start,
 * a self-avoiding path of neighbours): self-avoiding, End entered only as
 * the last cell, sum == target. Stops once cap paths are found (cap 0: count
 * them all). best (if not NULL) gets a shortest one found, whole. */
sum_count sum_board_count(const sum_board *b, const uint8_t *prefix, int len, long cap, uint8_t *best);

/* Manhattan distance from Start to End, and whether a path of that length
 * (a monotone staircase) already sums to the target. */
int sum_board_distance(const sum_board *b);
bool sum_board_direct(const sum_board *b);

/* The cell sets of every Start..End path of a board of at most
 * SUM_PATHS_MAX_CELLS cells (End only as the last cell), values ignored:
 * one mask per path, so a set two paths share is listed twice. */
enum { SUM_PATHS_MAX_CELLS = 27 };

typedef struct sum_paths {
    int n; /* cells of the board the masks are over */
    long count, cap;
    uint32_t *mask;
} sum_paths;

/* Fills ps (freed by sum_paths_free; ps zeroed first by the caller) with
 * the paths of b's Start and End; false if the board has too many cells. */
bool sum_paths_enumerate(const sum_board *b, sum_paths *ps);
void sum_paths_free(sum_paths *ps);

/* The count of the listed paths whose values (val, ps->n cells) sum to
 * target, and the fewest cells of such a path; *shortest gets the first
 * such path's cell set with that many cells (0 if none). Stops once cap
 * paths are found (cap 0: counts them all); nodes = sets looked at. */
sum_count sum_paths_count(const sum_paths *ps, const int8_t *val, int target, long cap, uint32_t *shortest);

/* A path from Start to End through exactly the cells of set (a set from
 * sum_paths_count), written to out; its cell count, or 0 if there is none. */
int sum_board_path_through(const sum_board *b, uint32_t set, uint8_t *out);

/* ---- boards above the exact count's limit (sum_big.c) ----
 * The detour of a path is (its moves - the Start-End distance) / 2. The
 * measure of a big board is the detour of its shortest valid path. */
enum {
    SUM_EXACT_CELLS = 25, /* boards up to this many cells are graded by the exact count */
    SUM_BIG_EXACT = 2,    /* sum sets are exact up to this detour */
    SUM_BIG_SEARCH = 12,  /* the most detour the measure searches */
};

/* For every cell c and detour e <= emax, the sums (values of every cell,
 * both ends included) of the walks from src to c of dist(src, c) + 2e
 * moves that never step straight back and never close a unit square. Up to
 * a detour of 2 those are exactly the self-avoiding paths from src that
 * enter c only at their end; beyond, a superset. */
typedef struct sum_sets {
    int n, emax, words, off;
    uint64_t *bits; /* [cell][e][words], bit sum + off */
} sum_sets;

/* counts (if not NULL; n * (emax + 1) entries, the caller's) gets the
 * number of those walks at [c * (emax + 1) + e], values ignored. */
void sum_sets_build(const sum_board *b, int src, int emax, sum_sets *s, double *counts);
bool sum_sets_has(const sum_sets *s, int cell, int e, int sum);
void sum_sets_free(sum_sets *s);

/* One valid path of b with exactly dist + 2 * detour moves, pruned with g
 * (sets from End; detour must be at most g->emax, else 0 without a
 * search): written to out, its cell count returned; 0 if there is none, -1
 * if *budget search nodes ran out (*budget is decreased by the nodes used). */
int sum_find_path(const sum_board *b, const sum_sets *g, int detour, long *budget, uint8_t *out);

/* The routes a player who tries every route of detour 0, then 1, ... is
 * expected to try before the first valid one, when the shortest valid path
 * has this detour: every route of a smaller detour and half of its own
 * (routes[e]: the routes of detour e, counted by sum_sets_build). */
long sum_big_tries(const double *routes, int detour);

/* The detour of b's shortest valid path (best gets it, *cells its cells,
 * *tries sum_big_tries): exact from the sets up to SUM_BIG_EXACT, then
 * searched level by level up to SUM_BIG_SEARCH. -1: no valid path of
 * detour SUM_BIG_SEARCH or less; -2: budget search nodes ran out first. */
int sum_big_measure(const sum_board *b, long budget, uint8_t *best, int *cells, long *tries);

#endif
