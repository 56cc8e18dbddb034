/* maze_impl.h: the maze's cell bits and tree helpers shared by maze.c and maze_steer.c (not public). */
#ifndef MR_MAZE_IMPL_H
#define MR_MAZE_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puzzle.h"
#include "rng.h"

/* One byte per cell, in the finished maze:
 *   bits 0-3  open passages, bit (1 << dir) for enum pz_dir;
 *   bits 4-5  the direction towards the parent in the tree rooted at the
 *             start (meaningless on the start cell itself);
 *   bit 6     the cell is on the route from start to exit;
 *   bit 7     scratch (visited), zero in a finished maze.
 * The parent and route bits make solve() walk only the cells of its answer,
 * with no allocation, from any position. */
#define MAZE_OPEN_MASK 0x0Fu
#define MAZE_PARENT_SHIFT 4
#define MAZE_ROUTE_BIT 0x40u
#define MAZE_SEEN_BIT 0x80u

#define MAZE_EASY_BELOW 240 /* permille of dead-end cells walked into */
#define MAZE_MEDIUM_BELOW 480

static inline int maze_parent_of(uint8_t c)
{
    return (c >> MAZE_PARENT_SHIFT) & 3;
}

static inline void maze_offsets(int w, long off[PZ_DIR_COUNT])
{
    off[PZ_UP] = -(long)w;
    off[PZ_DOWN] = w;
    off[PZ_LEFT] = -1;
    off[PZ_RIGHT] = 1;
}

/* The band of `wasted` dead-end cells walked into out of `dead`. */
static inline int maze_band(long wasted, long dead)
{
    long m = dead > 0 ? wasted * 1000 / dead : 0;
    return m < MAZE_EASY_BELOW ? PZ_EASY : m < MAZE_MEDIUM_BELOW ? PZ_MEDIUM : PZ_HARD;
}

/* The order in which a player heading for the exit tries passages at (x, y):
 * first along the axis with more distance left to the exit (ties: right),
 * then the other way forward, then back along the nearer axis, then back
 * along the farther one. */
static inline void maze_heading_order(int w, int x, int y, int ord[PZ_DIR_COUNT])
{
    int dx = w - 1 - x, dy = y;
    int f1 = dx >= dy ? PZ_RIGHT : PZ_UP;
    int f2 = dx >= dy ? PZ_UP : PZ_RIGHT;
    ord[0] = f1;
    ord[1] = f2;
    ord[2] = pz_dir_opposite(f2);
    ord[3] = pz_dir_opposite(f1);
}

/* Scratch space for maze_carve at one size, reused across draws; the
 * caller destroys it (NULL is accepted). */
typedef struct maze_scratch maze_scratch;
maze_scratch *maze_scratch_create(int w, int h);
void maze_scratch_destroy(maze_scratch *s);

/* One randomized traversal from r into c (w * h bytes, row-major: open
 * bits and parents; route bits clear), exactly docs/generation.md's
 * "One draw"; r ends where that draw leaves it. */
void maze_carve(uint8_t *c, maze_scratch *s, int w, int h, rng_t *r);

/* What the subtree walks need for a board w cells wide: per cell byte's
 * low 6 bits (open passages, parent), the offsets of its children in
 * direction order and how many there are. */
typedef uint32_t maze_quad __attribute__((vector_size(16)));
typedef struct maze_walker {
    maze_quad kids[64];
    uint8_t count[64];
} maze_walker;
void maze_walker_init(maze_walker *wk, int w);

/* Cells in the subtree entered from its root child ch (parent already set),
 * walked breadth-first through q (capacity cells + 4: each cell is queued
 * once, and a push writes 4 slots). Breadth-first because the walk only
 * counts: the next cell to read is usually queued long before, so reading
 * it does not wait on the last push, and the pushes are one 16-byte store
 * whatever the cell's passages are. */
long maze_subtree(const maze_walker *wk, const uint8_t *c, long ch, uint32_t *q);

/* Moves whole dead-end branches (subtrees hanging off the route) to another
 * route cell they touch, where the heading player's choice about them is
 * the other way, until the share walked into falls in band `want`. The
 * route stays as it is and the maze stays perfect. c is the measured maze
 * (route bits and parents set); *wasted is updated. Returns true when the
 * band is reached; on false the maze is still perfect and *wasted exact. */
bool maze_steer(uint8_t *c, int w, int h, long dead, long *wasted, int want, uint32_t *stack);

#endif
