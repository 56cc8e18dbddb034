/* sum_board.h: the number-path board and its exact path counter; private to
 * the mr_kind_sum library (sum.c and sum_count.c). */
#ifndef MR_SUM_BOARD_H
#define MR_SUM_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "sum.h"

/* Cells are bits of a uint64_t. */
enum { SUM_BOARD_CELLS = 64 };

typedef struct sum_board {
    int w, h, n;
    int start, end, target;
    int8_t val[SUM_BOARD_CELLS];
    uint64_t nbr[SUM_BOARD_CELLS]; /* 4-neighbour masks */
} sum_board;

/* Geometry of a w x h board (w * h <= SUM_BOARD_CELLS); values, ends and
 * target are the caller's to fill. */
void sum_board_init(sum_board *b, int w, int h);

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

#endif
