/* maze_carve.c: one randomized traversal (docs/generation.md section 3, "One draw"), branch-free and looking
 * one pop ahead; the maze's speed target lives here (docs/kinds/maze.md, "Speed"). */
#include <stdlib.h>
#include <string.h>

#include "maze_impl.h"
#include "rng.h"
#include "util.h"

/* Why it is written this way. The traversal is one long chain: which edge
 * the next pop takes depends on the frontier's size, which depends on how
 * many edges this pop pushed, which depends on whether its far cell was
 * new. Half of all pops find their far cell already in the maze, at random,
 * so a branch on it mispredicts about every other pop; and a plain
 * branch-free loop makes every pop wait for the whole chain. Instead:
 *
 * - Each scratch cell says which of its neighbours are already in the maze
 *   (bits 0-3, the border counting as in), so a pop reads one byte to know
 *   both whether its far cell is new and which edges that cell pushes; a
 *   carve tells its four neighbours with three OR stores that nothing waits
 *   on. The pushes are one 16-byte store of a precomputed pattern.
 * - The next pop's index is (v * size) >> 32 for the next random value v and
 *   a size that is this size - 1 + k, k = 0..3 edges pushed: all four
 *   candidate edges are loaded before k is known, and k only selects one.
 *   The loads come after this pop's stores, so an index that hits the slot
 *   just swapped or pushed reads the right edge.
 * - Random values come from a buffer refilled 512 at a time; at the end the
 *   generator is wound to exactly where the one-value-at-a-time draw leaves
 *   it, so the next draw of a banded request sees the same stream.
 *
 * The result is the same maze, bit for bit, as the plain loop in the
 * specification (tests/genspec/reimpl.py, test_genvec and the catalogue
 * check it). */

/* Scratch cell, during the traversal. */
#define NB_MASK 0x0Fu /* bit d: the neighbour in direction d is in the maze or off the board */
#define IN_BIT 0x10u  /* the cell is in the maze */
#define PAR_SHIFT 5   /* bits 5-6: direction to the parent; on the frame, pointing off the board */
#define PAR_MASK (3u << PAR_SHIFT)

#define VALUES 512 /* random 32-bit values per refill (even: whole rng_u64 draws) */

typedef uint32_t quad __attribute__((vector_size(16)));
typedef uint8_t bytes16 __attribute__((vector_size(16)));

struct maze_scratch {
    uint8_t *g;   /* (w + 2) * (h + 2): the board inside a one-cell frame */
    uint32_t *e;  /* the frontier */
    uint32_t cap; /* its capacity: at least 8 more than the edges on it */
};

/* The frontier peaks at about 8 000 edges at 1000x1000 (3 * cells + 2 at
 * most), so it starts small and doubles when needed: an array sized for the
 * worst case would be zeroed again on every draw once the allocator reuses
 * it. */
#define FRONTIER_START 4096u

maze_scratch *maze_scratch_create(int w, int h)
{
    maze_scratch *s = mr_alloc(1, sizeof *s);
    s->g = mr_realloc(NULL, ((size_t)w + 2) * ((size_t)h + 2), 1); /* clear_board writes every byte */
    s->cap = FRONTIER_START;
    s->e = mr_alloc(s->cap, sizeof *s->e);
    return s;
}

/* Room for fn edges plus the 8 slots past the top that a pop reads and a
 * push writes. */
static uint32_t *grow(maze_scratch *s, uint32_t fn)
{
    while (s->cap < fn + 8)
        s->cap *= 2;
    s->e = mr_realloc(s->e, s->cap, sizeof *s->e);
    return s->e;
}

void maze_scratch_destroy(maze_scratch *s)
{
    if (!s)
        return;
    free(s->g);
    free(s->e);
    free(s);
}

/* The random values, buffered; `at` is the generator before the buffer. */
typedef struct values {
    uint32_t v[VALUES + 1]; /* the last is 0: a prefetch reads one value ahead */
    rng_t at;
} values;

static void values_fill(values *b, rng_t *r)
{
    b->at = *r;
    b->v[VALUES] = 0;
    for (int j = 0; j < VALUES; j += 2) {
        uint64_t x = rng_u64(r);
        b->v[j] = (uint32_t)x; /* low half first (docs/generation.md) */
        b->v[j + 1] = (uint32_t)(x >> 32);
    }
}

/* pick(n) of the specification from value *next on: Lemire's multiply-shift,
 * rejecting the biased low range. Off the hot path (first pop, a frontier
 * of one, a rejection: about 1 in 2^32 / n). */
static uint32_t values_pick(values *b, rng_t *r, unsigned *next, uint32_t n)
{
    unsigned j = *next;
    for (;;) {
        if (j == VALUES) {
            values_fill(b, r);
            j = 0;
        }
        uint64_t m = (uint64_t)b->v[j++] * n;
        uint32_t low = (uint32_t)m;
        if (low >= n || low >= (uint32_t)(-n) % n) {
            *next = j;
            return (uint32_t)(m >> 32);
        }
    }
}

/* The scratch board: interior cells empty but for their border bits, frame
 * cells with a parent pointing off the board (so write_cells() never reads a
 * passage into the frame). */
static void clear_board(uint8_t *g, size_t pw, size_t ph)
{
    memset(g, PZ_UP << PAR_SHIFT, pw);
    for (size_t y = 1; y + 1 < ph; y++) {
        uint8_t *row = g + y * pw;
        row[0] = PZ_LEFT << PAR_SHIFT;
        memset(row + 1, 0, pw - 2);
        row[pw - 1] = PZ_RIGHT << PAR_SHIFT;
        row[1] |= 1u << PZ_LEFT;
        row[pw - 2] |= 1u << PZ_RIGHT;
    }
    memset(g + (ph - 1) * pw, PZ_DOWN << PAR_SHIFT, pw);
    for (size_t x = 1; x + 1 < pw; x++) {
        g[pw + x] |= 1u << PZ_UP;
        g[(ph - 2) * pw + x] |= 1u << PZ_DOWN;
    }
}

/* Byte k (0-3, in memory order) of a 32-bit word, whatever the byte order. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BYTE_AT(v, k) ((uint32_t)(v) << (8 * (3 - (k))))
#else
#define BYTE_AT(v, k) ((uint32_t)(v) << (8 * (k)))
#endif

static inline void or32(uint8_t *p, uint32_t x)
{
    uint32_t t;
    memcpy(&t, p, 4);
    t |= x;
    memcpy(p, &t, 4);
}

/* The finished cells from the parents alone: a passage joins each cell to
 * its parent. 16 cells at a time; the start (parent field LEFT during the
 * traversal, so that it opens nothing towards its neighbours) is fixed
 * afterwards. */
static inline uint8_t cell_of(const uint8_t *s, size_t pw)
{
    unsigned q = s[0] & PAR_MASK;
    unsigned o = 1u << (q >> PAR_SHIFT);
    o |= (unsigned)((s[-(ptrdiff_t)pw] & PAR_MASK) == (PZ_DOWN << PAR_SHIFT)) << PZ_UP;
    o |= (unsigned)((s[pw] & PAR_MASK) == (PZ_UP << PAR_SHIFT)) << PZ_DOWN;
    o |= (unsigned)((s[-1] & PAR_MASK) == (PZ_RIGHT << PAR_SHIFT)) << PZ_LEFT;
    o |= (unsigned)((s[1] & PAR_MASK) == (PZ_LEFT << PAR_SHIFT)) << PZ_RIGHT;
    return (uint8_t)(o | (q >> PAR_SHIFT) << MAZE_PARENT_SHIFT);
}

static inline bytes16 load16(const uint8_t *p)
{
    bytes16 x;
    memcpy(&x, p, sizeof x);
    return x;
}

static inline bytes16 cells16(const uint8_t *s, size_t pw)
{
    const bytes16 m = (bytes16){0} + PAR_MASK;
    bytes16 q = load16(s) & m, a = load16(s - pw) & m, b = load16(s + pw) & m;
    bytes16 l = load16(s - 1) & m, r = load16(s + 1) & m;
    bytes16 o = ((bytes16)(q == (PZ_UP << PAR_SHIFT)) & (1u << PZ_UP)) |
                ((bytes16)(q == (PZ_DOWN << PAR_SHIFT)) & (1u << PZ_DOWN)) |
                ((bytes16)(q == (PZ_LEFT << PAR_SHIFT)) & (1u << PZ_LEFT)) |
                ((bytes16)(q == (PZ_RIGHT << PAR_SHIFT)) & (1u << PZ_RIGHT));
    o |= ((bytes16)(a == (PZ_DOWN << PAR_SHIFT)) & (1u << PZ_UP)) |
         ((bytes16)(b == (PZ_UP << PAR_SHIFT)) & (1u << PZ_DOWN)) |
         ((bytes16)(l == (PZ_RIGHT << PAR_SHIFT)) & (1u << PZ_LEFT)) |
         ((bytes16)(r == (PZ_LEFT << PAR_SHIFT)) & (1u << PZ_RIGHT));
    return o | (q >> (PAR_SHIFT - MAZE_PARENT_SHIFT));
}

static void write_cells(uint8_t *c, const uint8_t *g, int w, int h)
{
    size_t pw = (size_t)w + 2;
    for (int y = 0; y < h; y++) {
        const uint8_t *s = g + (size_t)(y + 1) * pw + 1;
        uint8_t *o = c + (size_t)y * (size_t)w;
        int x = 0;
        for (; x + 16 <= w; x += 16) {
            bytes16 v = cells16(s + x, pw);
            memcpy(o + x, &v, sizeof v);
        }
        for (; x < w; x++)
            o[x] = cell_of(s + x, pw);
    }
    c[(size_t)(h - 1) * (size_t)w] &= (uint8_t) ~((1u << PZ_LEFT) | (3u << MAZE_PARENT_SHIFT));
}

void maze_carve(uint8_t *c, maze_scratch *s, int w, int h, rng_t *r)
{
    size_t pw = (size_t)w + 2;
    uint8_t *g = s->g;
    uint32_t *e = s->e;
    clear_board(g, pw, (size_t)h + 2);
    size_t start = (size_t)h * pw + 1;
    g[start] = IN_BIT | PZ_LEFT << PAR_SHIFT;
    g[start - pw] |= 1u << PZ_DOWN;
    g[start + 1] |= 1u << PZ_LEFT;

    /* Per neighbour byte (bits 0-4): the edges a carve there pushes, as
     * offsets from 4 * cell (an edge is its far cell * 4 + the direction
     * back, so the far cell needs no lookup), how many count (none if the
     * cell is in the maze already), and a mask that keeps a stale pop from
     * changing the cell. */
    const uint32_t off[PZ_DIR_COUNT] = {0u - (uint32_t)pw, (uint32_t)pw, 0u - 1u,
                                        1u}; /* wrap-around intended */
    quad push[32];
    uint8_t count[32];
    uint32_t keep[32], parent[PZ_DIR_COUNT];
    for (unsigned m = 0; m < 32; m++) {
        uint32_t t[PZ_DIR_COUNT] = {0, 0, 0, 0};
        unsigned k = 0;
        for (unsigned d = 0; d < PZ_DIR_COUNT; d++)
            if (!((m >> d) & 1u))
                t[k++] = off[d] * 4 + (d ^ 1);
        memcpy(&push[m], t, sizeof t);
        count[m] = (uint8_t)((m & IN_BIT) ? 0 : k);
        keep[m] = (m & IN_BIT) ? 0 : ~0u;
    }
    /* A carve ORs one 32-bit word over its left neighbour, itself and its
     * right neighbour: "in the maze" and the parent for itself, the
     * neighbour bits for the other two. */
    for (unsigned d = 0; d < PZ_DIR_COUNT; d++)
        parent[d] = BYTE_AT(IN_BIT | d << PAR_SHIFT, 1);
    const uint32_t sides = BYTE_AT(1u << PZ_RIGHT, 0) | BYTE_AT(1u << PZ_LEFT, 2);

    values b;
    unsigned next = 0;
    values_fill(&b, r);
    uint32_t fn = 2, limit = s->cap - 8;
    e[0] = (uint32_t)(start - pw) * 4 + PZ_DOWN;
    e[1] = (uint32_t)(start + 1) * 4 + PZ_LEFT;
    uint32_t i = values_pick(&b, r, &next, fn);
    uint32_t edge = e[i];
    for (;;) {
        size_t nb = edge >> 2;
        uint32_t gv = g[nb];
        uint32_t x = gv & (NB_MASK | IN_BIT);
        if (__builtin_expect(fn == 1 || next == VALUES, 0)) {
            if (next == VALUES) {
                values_fill(&b, r);
                next = 0;
            }
            if (fn == 1) { /* maybe the last pop: no value is drawn ahead */
                or32(g + nb - 1, sides | (parent[edge & 3] & keep[x]));
                g[nb - pw] |= 1u << PZ_DOWN;
                g[nb + pw] |= 1u << PZ_UP;
                quad y = push[x] + (uint32_t)(nb * 4);
                memcpy(e, &y, sizeof y);
                fn = count[x];
                if (!fn)
                    break;
                i = values_pick(&b, r, &next, fn);
                edge = e[i];
                continue;
            }
        }
        uint32_t v = b.v[next++];
        e[i] = e[fn - 1];
        fn--;
        or32(g + nb - 1, sides | (parent[edge & 3] & keep[x]));
        g[nb - pw] |= 1u << PZ_DOWN;
        g[nb + pw] |= 1u << PZ_UP;
        quad y = push[x] + (uint32_t)(nb * 4);
        memcpy(e + fn, &y, sizeof y);
        /* The next pop, for each possible count pushed. */
        uint64_t m0 = (uint64_t)v * fn;
        uint32_t c0 = e[m0 >> 32], c1 = e[(m0 + v) >> 32];
        uint32_t c2 = e[(m0 + 2 * (uint64_t)v) >> 32], c3 = e[(m0 + 3 * (uint64_t)v) >> 32];
        /* Their far cells for k = 0 (half of all pops are stale) and k = 2,
         * the likeliest; and the far cells of the pop after, whose frontier
         * is within a few edges of this one's size. At 1000x1000 the board
         * and the frontier do not both fit in L1, and the board's byte is
         * what each pop waits for. */
        __builtin_prefetch(g + (c0 >> 2));
        __builtin_prefetch(g + (c2 >> 2));
        const uint32_t *after = e + (((uint64_t)b.v[next] * fn) >> 32); /* after[2]: at most pushed */
        __builtin_prefetch(g + (after[0] >> 2));
        __builtin_prefetch(g + (after[2] >> 2));
        uint32_t k = count[x];
        uint64_t mk = m0 + (uint64_t)v * k;
        fn += k;
        if (__builtin_expect(fn > limit, 0)) {
            e = grow(s, fn);
            limit = s->cap - 8;
        }
        uint32_t c01 = (k & 1) ? c1 : c0, c23 = (k & 1) ? c3 : c2;
        edge = (k & 2) ? c23 : c01;
        i = (uint32_t)(mk >> 32);
        if (__builtin_expect((uint32_t)mk < fn, 0)) { /* maybe in the biased range */
            if ((uint32_t)mk < (uint32_t)(-fn) % fn)
                i = values_pick(&b, r, &next, fn);
            edge = e[i];
        }
    }
    /* Wind the generator to where value-at-a-time draws would leave it. */
    *r = b.at;
    for (unsigned j = 0; j < (next + 1) / 2; j++)
        rng_u64(r);
    write_cells(c, g, w, h);
}
