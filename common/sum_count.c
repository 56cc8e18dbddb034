/* sum_count.c: the exact counter of number-path solutions, on bitmasks. */
#include <stdlib.h>
#include <string.h>

#include "sum_board.h"
#include "util.h"

static uint64_t bit(int i)
{
    return (uint64_t)1 << i;
}

static int ctz64(uint64_t x)
{
    return __builtin_ctzll(x);
}

void sum_board_init(sum_board *b, int w, int h)
{
    b->w = w;
    b->h = h;
    b->n = w * h;
    for (int i = 0; i < b->n; i++) {
        int x = i % w, y = i / w;
        uint64_t m = 0;
        if (y > 0)
            m |= bit(i - w);
        if (y < h - 1)
            m |= bit(i + w);
        if (x > 0)
            m |= bit(i - 1);
        if (x < w - 1)
            m |= bit(i + 1);
        b->nbr[i] = m;
    }
}

/* ---- the search ----
 * A depth-first search over self-avoiding paths from the prefix's head. It
 * keeps comp, the cells End can still be reached through (End's component
 * among the unvisited cells), and prunes without losing a path: the head
 * must touch comp, and the sum still needed must lie between the sums of the
 * negative and of the positive values in comp.
 *
 * Speed comes from the layout: the board is copied into a frame with an
 * empty column between rows and an empty row above and below, stride
 * w + 1, so that neighbours are plain shifts with no edge masks, and a
 * cell's 3x3 neighbourhood is three 3-bit slices. comp is kept
 * incrementally: taking out a cell whose neighbours in comp stay joined
 * around it (looked up from its 3x3 neighbourhood) cannot split comp, so
 * only the other steps flood fill. */

/* Bit p of simple9[p / 32] is set if, in the 3x3 neighbourhood p (bit 0 NW,
 * 1 N, 2 NE, 3 W, 4 centre, 5 E, 6 SW, 7 S, 8 SE), the edge neighbours
 * present form at most one group, corners joining the edges beside them. */
static const uint32_t simple9[16] = {
    0xbbffbbffu, 0x80f380f3u, 0xbbffbbffu, 0x80f380f3u, 0x00330033u, 0x00000000u, 0xbb33bb33u, 0x80008000u,
    0xbbffbbffu, 0x80f380f3u, 0xbbffbbffu, 0x80f380f3u, 0x00330033u, 0x80f380f3u, 0xbb33bb33u, 0xfbf3fbf3u,
};

typedef struct search {
    int s;                   /* frame stride, w + 1 */
    int end;                 /* End, framed */
    int8_t val[64];          /* values by framed bit */
    int8_t neg[64], pos[64]; /* min(value, 0) and max(value, 0) */
    uint8_t cell[64];        /* framed bit -> cell index */
    long cap;
    sum_count res;
    uint8_t stack[SUM_BOARD_CELLS]; /* framed bits of the path */
    uint8_t *best;
} search;

bool sum_board_countable(int w, int h)
{
    return w >= 1 && h >= 1 && (w + 1) * (h + 2) + 1 <= 64;
}

static int framed(int w, int i)
{
    return (i / w + 1) * (w + 1) + i % w + 1;
}

static uint64_t flood(int s, uint64_t from, uint64_t free)
{
    uint64_t f = from & free, prev;
    do {
        prev = f;
        f |= (f << 1) | (f >> 1) | (f << s) | (f >> s);
        f &= free;
    } while (f != prev);
    return f;
}

/* Branch-free: the signs of the values are unpredictable. */
static void bounds(const search *s, uint64_t m, int *lo, int *hi)
{
    int l = 0, u = 0;
    while (m) {
        int p = ctz64(m);
        m &= m - 1;
        l += s->neg[p];
        u += s->pos[p];
    }
    *lo = l;
    *hi = u;
}

static bool simple_cell(int s, int p, uint64_t comp)
{
    unsigned w = (unsigned)(comp >> (p - s - 1) & 7) | (unsigned)(comp >> (p - 1) & 5) << 3 |
                 (unsigned)(comp >> (p + s - 1) & 7) << 6;
    return simple9[w >> 5] >> (w & 31) & 1;
}

static void found(search *s, int len)
{
    s->res.paths++;
    if (s->res.min_cells == 0 || len + 1 < s->res.min_cells) {
        s->res.min_cells = len + 1;
        if (s->best) {
            for (int i = 0; i < len; i++)
                s->best[i] = s->cell[s->stack[i]];
            s->best[len] = s->cell[s->end];
        }
    }
}

/* cur is the head (stack[len - 1]); comp as above (End included); lo and hi
 * the sums over comp without End; need the sum the cells still to come
 * before End must add up to. */
static void dfs(search *s, int cur, uint64_t comp, int lo, int hi, int need, int len)
{
    s->res.nodes++;
    int st = s->s, e = s->end;
    uint64_t next = (bit(cur + 1) | bit(cur - 1) | bit(cur + st) | bit(cur - st)) & comp;
    while (next) {
        int nb = ctz64(next);
        next &= next - 1;
        if (nb == e) {
            if (need == 0) {
                found(s, len);
                if (s->cap && s->res.paths >= s->cap)
                    return;
            }
            continue;
        }
        int v = s->val[nb];
        uint64_t c2 = comp & ~bit(nb);
        int lo2 = lo - s->neg[nb], hi2 = hi - s->pos[nb];
        if (!simple_cell(st, nb, comp)) {
            c2 = flood(st, bit(e), c2);
            bounds(s, c2 & ~bit(e), &lo2, &hi2);
        }
        int need2 = need - v;
        if (need2 < lo2 || need2 > hi2 || !((bit(nb + 1) | bit(nb - 1) | bit(nb + st) | bit(nb - st)) & c2))
            continue;
        s->stack[len] = (uint8_t)nb;
        dfs(s, nb, c2, lo2, hi2, need2, len + 1);
        if (s->cap && s->res.paths >= s->cap)
            return;
    }
}

sum_count sum_board_count(const sum_board *b, const uint8_t *prefix, int len, long cap, uint8_t *best)
{
    search s;
    memset(&s, 0, sizeof s);
    if (!sum_board_countable(b->w, b->h))
        return s.res;
    s.s = b->w + 1;
    s.end = framed(b->w, b->end);
    s.cap = cap;
    s.best = best;
    uint64_t free = 0;
    for (int i = 0; i < b->n; i++) {
        int p = framed(b->w, i);
        s.val[p] = b->val[i];
        s.neg[p] = (int8_t)(b->val[i] < 0 ? b->val[i] : 0);
        s.pos[p] = (int8_t)(b->val[i] > 0 ? b->val[i] : 0);
        s.cell[p] = (uint8_t)i;
        free |= bit(p);
    }
    int sum = 0;
    for (int i = 0; i < len; i++) {
        s.stack[i] = (uint8_t)framed(b->w, prefix[i]);
        free &= ~bit(s.stack[i]);
        sum += b->val[prefix[i]];
    }
    if (prefix[len - 1] == b->end) {
        if (sum == b->target) {
            s.res.paths = 1;
            s.res.min_cells = len;
            if (best)
                memcpy(best, prefix, (size_t)len);
        }
        return s.res;
    }
    int head = s.stack[len - 1];
    uint64_t comp = flood(s.s, bit(s.end), free);
    if ((bit(head + 1) | bit(head - 1) | bit(head + s.s) | bit(head - s.s)) & comp) {
        int lo, hi, need = b->target - sum - b->val[b->end];
        bounds(&s, comp & ~bit(s.end), &lo, &hi);
        if (need >= lo && need <= hi)
            dfs(&s, head, comp, lo, hi, need, len);
    }
    return s.res;
}

int sum_board_distance(const sum_board *b)
{
    int dx = b->start % b->w - b->end % b->w, dy = b->start / b->w - b->end / b->w;
    return abs(dx) + abs(dy);
}

/* Monotone paths only: each step goes towards End. */
static bool direct_from(const sum_board *b, int x, int y, int sum)
{
    int ex = b->end % b->w, ey = b->end / b->w;
    sum += b->val[y * b->w + x];
    if (x == ex && y == ey)
        return sum == b->target;
    if (x != ex && direct_from(b, x + (ex > x ? 1 : -1), y, sum))
        return true;
    return y != ey && direct_from(b, x, y + (ey > y ? 1 : -1), sum);
}

bool sum_board_direct(const sum_board *b)
{
    return direct_from(b, b->start % b->w, b->start / b->w, 0);
}

int sum_count_paths(int w, int h, const int8_t *vals, int start, int end, int target, sum_count *out)
{
    memset(out, 0, sizeof *out);
    if (!sum_board_countable(w, h) || start < 0 || start >= w * h || end < 0 || end >= w * h || start == end)
        return -1;
    sum_board *b = mr_alloc(1, sizeof *b);
    sum_board_init(b, w, h);
    memcpy(b->val, vals, (size_t)b->n);
    b->start = start;
    b->end = end;
    b->target = target;
    uint8_t s = (uint8_t)start;
    *out = sum_board_count(b, &s, 1, 0, NULL);
    free(b);
    return 0;
}
