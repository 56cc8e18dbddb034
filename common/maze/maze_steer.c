/* maze_steer.c: moves dead-end branches of a finished maze between route cells so its measure falls in the
 * requested band (docs/kinds/maze.md, "Steering"). */
#include <stdlib.h>
#include <string.h>

#include "maze_impl.h"
#include "util.h"

/* At most this many branches are tried per maze: the biggest first, so a
 * band is normally reached within a handful; the cap bounds the work when
 * it cannot be. */
#define MAX_TRIES 256

typedef struct branch {
    long root; /* the branch's first cell off the route */
    long size; /* its cells */
} branch;

typedef struct route_cell {
    uint32_t cell;
    int32_t next; /* direction to the next route cell; -1 on the exit */
} route_cell;

void maze_walker_init(maze_walker *wk, int w)
{
    long off[PZ_DIR_COUNT];
    maze_offsets(w, off);
    for (unsigned x = 0; x < 64; x++) {
        unsigned kids = x & MAZE_OPEN_MASK & ~(1u << maze_parent_of((uint8_t)x));
        uint32_t t[PZ_DIR_COUNT] = {0, 0, 0, 0};
        unsigned k = 0;
        for (int d = 0; d < PZ_DIR_COUNT; d++)
            if ((kids >> d) & 1u)
                t[k++] = (uint32_t)off[d]; /* wrap-around intended: added to a uint32_t cell */
        memcpy(&wk->kids[x], t, sizeof t);
        wk->count[x] = (uint8_t)k;
    }
}

/* The walk behind maze_subtree; with out != NULL (out == c) it also sets
 * (mark > 0) or clears (mark < 0) MAZE_SEEN_BIT on every cell. Inline, so
 * the counting walk keeps no store. */
static inline long walk(const maze_walker *wk, const uint8_t *c, uint8_t *out, int mark, long ch, uint32_t *q)
{
    size_t head = 0, tail = 1;
    q[0] = (uint32_t)ch;
    do {
        uint32_t cur = q[head++];
        uint8_t cc = c[cur];
        unsigned x = cc & 0x3Fu;
        if (out)
            out[cur] = mark > 0 ? (uint8_t)(cc | MAZE_SEEN_BIT) : (uint8_t)(cc & ~MAZE_SEEN_BIT);
        maze_quad y = wk->kids[x] + cur;
        memcpy(q + tail, &y, sizeof y);
        tail += wk->count[x];
    } while (head < tail);
    return (long)tail;
}

long maze_subtree(const maze_walker *wk, const uint8_t *c, long ch, uint32_t *q)
{
    return walk(wk, c, NULL, 0, ch, q);
}

/* maze_subtree that also sets (or clears) MAZE_SEEN_BIT on every cell. */
static long mark_subtree(const maze_walker *wk, uint8_t *c, long ch, uint32_t *q, bool set)
{
    return walk(wk, c, c, set ? 1 : -1, ch, q);
}

/* Whether the heading player at route cell (x, y), whose route goes on in
 * direction next (-1: the exit, where nothing is tried), walks into a
 * branch in direction d: d comes before next in the heading order. */
static bool tried(int w, int x, int y, int d, int next)
{
    if (next < 0)
        return false;
    int ord[PZ_DIR_COUNT];
    maze_heading_order(w, x, y, ord);
    for (int i = 0; i < PZ_DIR_COUNT; i++) {
        if (ord[i] == next)
            return false;
        if (ord[i] == d)
            return true;
    }
    return false;
}

/* The direction from route cell cur to the next route cell, -1 on the exit. */
static int route_next(const uint8_t *c, int w, int h, const long off[PZ_DIR_COUNT], long cur)
{
    long start = (long)(h - 1) * w, exit = w - 1;
    if (cur == exit)
        return -1;
    unsigned par_bit = cur == start ? 0u : 1u << maze_parent_of(c[cur]);
    for (int d = 0; d < PZ_DIR_COUNT; d++)
        if ((c[cur] & ~par_bit & (1u << d)) && (c[cur + off[d]] & MAZE_ROUTE_BIT))
            return d;
    return -1; /* not reached in a measured maze */
}

/* The route from the start, each cell with its onward direction, into rt
 * (if not NULL); returns its cell count. */
static long list_route(const uint8_t *c, int w, int h, const long off[PZ_DIR_COUNT], route_cell *rt)
{
    long n = 0;
    for (long cur = (long)(h - 1) * w;;) {
        int next = route_next(c, w, h, off, cur);
        if (rt)
            rt[n] = (route_cell){(uint32_t)cur, next};
        n++;
        if (next < 0)
            return n;
        cur += off[next];
    }
}

static int by_size_desc(const void *a, const void *b)
{
    const branch *x = a, *y = b;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return x->root < y->root ? -1 : x->root > y->root; /* qsort is not stable: keep it deterministic */
}

/* Where branch `root` can hang so that the heading player walks into it
 * (want_tried) or not: a wall between one of its cells t and either a route
 * cell where the player's choice about t is that one, or a cell of another
 * branch with that status (MAZE_SEEN_BIT marks the branches walked into).
 * Depth-first from the root, stopping at the first such wall: the cell
 * across it and the direction from there to t, or false. */
static bool find_attach(const uint8_t *c, int w, int h, const long off[PZ_DIR_COUNT], long root,
                        bool want_tried, uint32_t *stack, long *at, int *dir)
{
    size_t sp = 0;
    stack[sp++] = (uint32_t)root;
    while (sp) {
        long cur = stack[--sp];
        uint8_t cc = c[cur];
        int x = (int)(cur % w), y = (int)(cur / w);
        for (int d = 0; d < PZ_DIR_COUNT; d++) {
            int nx = x + pz_dir_dx(d), ny = y + pz_dir_dy(d);
            if (nx < 0 || ny < 0 || nx >= w || ny >= h || (cc & (1u << d)))
                continue;
            long nb = cur + off[d];
            bool ok;
            if (c[nb] & MAZE_ROUTE_BIT)
                ok = tried(w, nx, ny, d ^ 1, route_next(c, w, h, off, nb)) == want_tried;
            else
                ok = ((c[nb] & MAZE_SEEN_BIT) != 0) == want_tried;
            if (ok) {
                *at = nb;
                *dir = d ^ 1;
                return true;
            }
        }
        unsigned kids = cc & MAZE_OPEN_MASK & ~(1u << maze_parent_of(cc));
        for (int d = 0; d < PZ_DIR_COUNT; d++) {
            stack[sp] = (uint32_t)(cur + off[d]);
            sp += (kids >> d) & 1u;
        }
    }
    return false;
}

/* Cuts branch `root` from its route cell and hangs it from route cell `at`
 * through the wall in direction d; the branch is re-rooted at the cell
 * behind that wall (only the parents on the path from there to the old root
 * turn round). */
static void move_branch(uint8_t *c, const long off[PZ_DIR_COUNT], long root, long at, int d)
{
    int up = maze_parent_of(c[root]);
    c[root] &= (uint8_t) ~(1u << up);
    c[root + off[up]] &= (uint8_t) ~(1u << (up ^ 1));
    long t = at + off[d];
    c[at] |= (uint8_t)(1u << d);
    c[t] |= (uint8_t)(1u << (d ^ 1));
    int toward = d ^ 1; /* from the current cell to its new parent */
    for (long cur = t;;) {
        int old = maze_parent_of(c[cur]);
        c[cur] = (uint8_t)((c[cur] & ~(3u << MAZE_PARENT_SHIFT)) | ((unsigned)toward << MAZE_PARENT_SHIFT));
        if (cur == root)
            break;
        cur += off[old];
        toward = old ^ 1;
    }
}

bool maze_steer(uint8_t *c, int w, int h, long dead, long *wasted, int want, uint32_t *stack)
{
    int band = maze_band(*wasted, dead);
    if (band == want)
        return true;
    bool up = band < want; /* walk into more: hang untried branches where they are tried */
    long off[PZ_DIR_COUNT];
    maze_offsets(w, off);
    maze_walker wk;
    maze_walker_init(&wk, w);
    size_t n = (size_t)w * (size_t)h;
    long rn = list_route(c, w, h, off, NULL);
    route_cell *rt = mr_alloc((size_t)rn, sizeof *rt);
    list_route(c, w, h, off, rt);
    branch *br = mr_alloc((size_t)rn * 3, sizeof *br);
    long nb = 0;
    /* Mark the branches walked into; list (with sizes) those to move. */
    for (long i = 0; i < rn; i++) {
        long cur = rt[i].cell;
        int x = (int)(cur % w), y = (int)(cur / w);
        unsigned par_bit = i == 0 ? 0u : 1u << maze_parent_of(c[cur]);
        for (int d = 0; d < PZ_DIR_COUNT; d++) {
            if (!(c[cur] & ~par_bit & (1u << d)) || d == rt[i].next)
                continue;
            long root = cur + off[d];
            bool t = tried(w, x, y, d, rt[i].next);
            if (t == up && !t)
                continue; /* going down: an untried branch is neither moved nor marked */
            long size = t ? mark_subtree(&wk, c, root, stack, true) : maze_subtree(&wk, c, root, stack);
            if (t != up)
                br[nb++] = (branch){root, size};
        }
    }
    qsort(br, (size_t)nb, sizeof *br, by_size_desc);
    long wv = *wasted;
    for (long i = 0; i < nb && i < MAX_TRIES && maze_band(wv, dead) != want; i++) {
        long next = up ? wv + br[i].size : wv - br[i].size;
        if (up ? maze_band(next, dead) > want : maze_band(next, dead) < want)
            continue; /* would jump over the band */
        long at;
        int d;
        if (!find_attach(c, w, h, off, br[i].root, up, stack, &at, &d))
            continue;
        move_branch(c, off, br[i].root, at, d);
        mark_subtree(&wk, c, at + off[d], stack, up);
        wv = next;
    }
    for (size_t i = 0; i < n; i++)
        c[i] &= (uint8_t)~MAZE_SEEN_BIT;
    free(br);
    free(rt);
    *wasted = wv;
    return maze_band(wv, dead) == want;
}
