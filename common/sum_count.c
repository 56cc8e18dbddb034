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
    static const int rdx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    static const int rdy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
    b->w = w;
    b->h = h;
    b->n = w * h;
    b->all = bit(b->n) - 1;
    b->not_left = b->not_right = 0;
    for (int i = 0; i < b->n; i++) {
        int x = i % w, y = i / w;
        b->nbr[i] = 0;
        for (int k = 0; k < 8; k++) {
            int nx = x + rdx[k], ny = y + rdy[k];
            bool in = nx >= 0 && ny >= 0 && nx < w && ny < h;
            b->ring[i][k] = (uint8_t)(in ? ny * w + nx : SUM_OFF_BOARD);
            if (k % 2 == 0 && in)
                b->nbr[i] |= bit(ny * w + nx);
        }
        if (x > 0)
            b->not_left |= bit(i);
        if (x < w - 1)
            b->not_right |= bit(i);
    }
}

/* ---- the search ----
 * A depth-first search over self-avoiding paths from the prefix's head. It
 * keeps comp, the cells End can still be reached through (End's component
 * among the unvisited cells), and prunes without losing a path: the head
 * must touch comp, and the sum still needed must lie between the sums of the
 * negative and of the positive values in comp. comp is kept incrementally:
 * removing a cell whose free neighbours are joined around it (through its
 * 8-neighbourhood) cannot split comp, so only the other steps flood fill. */

typedef struct search {
    const sum_board *b;
    sum_count res;
    long cap;
    uint8_t stack[SUM_BOARD_CELLS];
    uint8_t *best;
} search;

static uint64_t flood(const sum_board *b, uint64_t from, uint64_t free)
{
    uint64_t f = from & free, prev;
    int w = b->w;
    do {
        prev = f;
        f |= ((f & b->not_right) << 1) | ((f & b->not_left) >> 1) | (f << w) | (f >> w);
        f &= free;
    } while (f != prev);
    return f;
}

static void bounds(const sum_board *b, uint64_t m, int *lo, int *hi)
{
    int l = 0, u = 0;
    while (m) {
        int v = b->val[ctz64(m)];
        m &= m - 1;
        if (v < 0)
            l += v;
        else
            u += v;
    }
    *lo = l;
    *hi = u;
}

/* simple_ring: bit p set if, with ring pattern p (bit k: the k-th cell of
 * N NE E SE S SW W NW is in comp), the edge neighbours in comp form at most
 * one group, corners in comp joining the edges beside them. */
static const uint32_t simple_ring[8] = {0xd505dfdfu, 0xd505dfdfu, 0x00000505u, 0xd5050505u,
                                        0xd505dfdfu, 0xd505dfdfu, 0x80008f8fu, 0xff8f8f8fu};

/* True if taking cell i out of comp leaves the rest of comp connected. */
static bool simple_cell(const sum_board *b, int i, uint64_t comp)
{
    const uint8_t *r = b->ring[i];
    unsigned p = (unsigned)(comp >> r[0] & 1) | (unsigned)(comp >> r[1] & 1) << 1 |
                 (unsigned)(comp >> r[2] & 1) << 2 | (unsigned)(comp >> r[3] & 1) << 3 |
                 (unsigned)(comp >> r[4] & 1) << 4 | (unsigned)(comp >> r[5] & 1) << 5 |
                 (unsigned)(comp >> r[6] & 1) << 6 | (unsigned)(comp >> r[7] & 1) << 7;
    return simple_ring[p >> 5] >> (p & 31) & 1;
}

/* cur is the head (stack[len - 1]); comp as above (End included); lo and hi
 * the sums over comp without End; need the sum the cells still to come
 * before End must add up to. */
static void dfs(search *s, int cur, uint64_t comp, int lo, int hi, int need, int len)
{
    const sum_board *b = s->b;
    int e = b->end;
    s->res.nodes++;
    if (need < lo || need > hi)
        return;
    uint64_t next = b->nbr[cur] & comp;
    while (next) {
        int nb = ctz64(next);
        next &= next - 1;
        if (nb == e) {
            if (need != 0)
                continue;
            s->res.paths++;
            if (s->res.min_cells == 0 || len + 1 < s->res.min_cells) {
                s->res.min_cells = len + 1;
                if (s->best) {
                    memcpy(s->best, s->stack, (size_t)len);
                    s->best[len] = (uint8_t)e;
                }
            }
            if (s->cap && s->res.paths >= s->cap)
                return;
            continue;
        }
        int v = b->val[nb];
        uint64_t c2 = comp & ~bit(nb);
        int lo2 = lo - (v < 0 ? v : 0), hi2 = hi - (v > 0 ? v : 0);
        if (!simple_cell(b, nb, comp)) {
            c2 = flood(b, bit(e), c2);
            bounds(b, c2 & ~bit(e), &lo2, &hi2);
        }
        if (!(b->nbr[nb] & c2))
            continue;
        s->stack[len] = (uint8_t)nb;
        dfs(s, nb, c2, lo2, hi2, need - v, len + 1);
        if (s->cap && s->res.paths >= s->cap)
            return;
    }
}

sum_count sum_board_count(const sum_board *b, const uint8_t *prefix, int len, long cap, uint8_t *best)
{
    search s;
    memset(&s, 0, sizeof s);
    s.b = b;
    s.cap = cap;
    s.best = best;
    uint64_t free = b->all;
    int sum = 0;
    for (int i = 0; i < len; i++) {
        s.stack[i] = prefix[i];
        free &= ~bit(prefix[i]);
        sum += b->val[prefix[i]];
    }
    int head = prefix[len - 1];
    if (head == b->end) {
        if (sum == b->target) {
            s.res.paths = 1;
            s.res.min_cells = len;
            if (best)
                memcpy(best, prefix, (size_t)len);
        }
        return s.res;
    }
    uint64_t comp = flood(b, bit(b->end), free);
    if (b->nbr[head] & comp) {
        int lo, hi;
        bounds(b, comp & ~bit(b->end), &lo, &hi);
        dfs(&s, head, comp, lo, hi, b->target - sum - b->val[b->end], len);
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
    if (w < 1 || h < 1 || w > SUM_BOARD_CELLS || h > SUM_BOARD_CELLS || w * h > SUM_BOARD_CELLS ||
        start < 0 || start >= w * h || end < 0 || end >= w * h || start == end)
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
