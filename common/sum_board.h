/* sum_board.h: the number-path board and its exact path counter; private to
 * the mr_kind_sum library (sum.c and sum_count.c). */
#ifndef MR_SUM_BOARD_H
#define MR_SUM_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "sum.h"

/* Cells are bits 0..62 of a uint64_t; bit 63 is never a cell and stands
 * for "off the board" in ring[]. */
enum { SUM_BOARD_CELLS = 63, SUM_OFF_BOARD = 63 };

typedef struct sum_board {
    int w, h, n;
    int start, end, target;
    int8_t val[SUM_BOARD_CELLS];
    uint64_t nbr[SUM_BOARD_CELLS];    /* 4-neighbour masks */
    uint8_t ring[SUM_BOARD_CELLS][8]; /* N NE E SE S SW W NW, or SUM_OFF_BOARD */
    uint64_t all, not_left, not_right;
} sum_board;

/* Geometry of a w x h board (w * h <= SUM_BOARD_CELLS); values, ends and target are the
 * caller's to fill. */
void sum_board_init(sum_board *b, int w, int h);

/* Counts the valid paths that continue prefix[0..len) (prefix[0] = Start,
 * a self-avoiding path of neighbours): self-avoiding, End entered only as
 * the last cell, sum == target. Stops once cap paths are found (cap 0: count
 * them all). best (if not NULL) gets a shortest one found, whole. */
sum_count sum_board_count(const sum_board *b, const uint8_t *prefix, int len, long cap, uint8_t *best);

/* Manhattan distance from Start to End, and whether a path of that length
 * (a monotone staircase) already sums to the target. */
int sum_board_distance(const sum_board *b);
bool sum_board_direct(const sum_board *b);

#endif
