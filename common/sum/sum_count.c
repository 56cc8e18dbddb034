/* sum_count.c: the exact counter of number-path solutions, on bitmasks, and the path lists generation counts
 * with. */
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
    memset(b->nbr, 0, sizeof b->nbr);
    for (int i = 0; b->n <= 64 && i < b->n; i++) {
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

/* ---- every path's cell set, for generation ----
 * A draw keeps its walk (so Start and End) while its values are drawn
 * again; each count is then a scan of the fixed list of paths, the sum of a
 * set read from three tables of subset sums, about 3 ns a path instead of
 * about 30 ns a search node. The list is made by a plain depth-first walk
 * with no reachability pruning: on 5x4 it visits twice the nodes of the
 * pruned search (3 100 against 1 700, for 580 paths on average) but each
 * costs a quarter, and a flood fill at the shallow levels only (where the
 * dead branches are largest) was measured slower too. */

static void push_path(sum_paths *ps, uint32_t set)
{
    if (ps->count == ps->cap) {
        long cap = ps->cap ? 2 * ps->cap : 1024;
        uint32_t *m = mr_alloc((size_t)cap, sizeof *m);
        if (ps->count)
            memcpy(m, ps->mask, (size_t)ps->count * sizeof *m);
        free(ps->mask);
        ps->mask = m;
        ps->cap = cap;
    }
    ps->mask[ps->count++] = set;
}

/* Depth-first over the paths from Start with an explicit stack: per level
 * the cells on the path and the neighbours still to try. A path is listed
 * when its head touches End; a branch ends once End has no free neighbour
 * left. */
bool sum_paths_enumerate(const sum_board *b, sum_paths *ps)
{
    ps->count = 0;
    ps->n = b->n;
    if (b->n > SUM_PATHS_MAX_CELLS)
        return false;
    uint32_t nbr[32], endbit = (uint32_t)1 << b->end, end_nbr = (uint32_t)b->nbr[b->end];
    for (int i = 0; i < b->n; i++)
        nbr[i] = (uint32_t)b->nbr[i] & ~endbit;
    uint32_t on[SUM_PATHS_MAX_CELLS + 1], pending[SUM_PATHS_MAX_CELLS + 1];
    int d = 0;
    on[0] = (uint32_t)1 << b->start;
    pending[0] = nbr[b->start] & ~on[0];
    if (end_nbr >> b->start & 1)
        push_path(ps, on[0] | endbit);
    while (d >= 0) {
        if (!pending[d] || !(end_nbr & ~on[d])) {
            d--;
            continue;
        }
        int nb = __builtin_ctz(pending[d]);
        pending[d] &= pending[d] - 1;
        uint32_t o = on[d] | (uint32_t)1 << nb;
        if (end_nbr >> nb & 1)
            push_path(ps, o | endbit);
        d++;
        on[d] = o;
        pending[d] = nbr[nb] & ~o;
    }
    return true;
}

void sum_paths_free(sum_paths *ps)
{
    free(ps->mask);
    memset(ps, 0, sizeof *ps);
}

/* Eight 16-bit sums at once (GCC and clang vector extension; plain code
 * where the target has no vector unit). */
typedef int16_t sum_lanes __attribute__((vector_size(16)));

/* Subset sums of the values of cells base .. base + k - 1, indexed by the
 * k-bit subset. Built once per value draw, so it is most of a scan that the
 * cap stops early: the halves from 8 entries up are added eight lanes at a
 * time (0.2 us instead of 1.3 us for the two 1 024-entry tables of 5x4). */
static void subset_sums(const int8_t *val, int base, int k, int16_t *t)
{
    t[0] = 0;
    int j = 0;
    for (; j < k && j < 3; j++) {
        int half = 1 << j, v = val[base + j];
        for (int m = 0; m < half; m++)
            t[half + m] = (int16_t)(t[m] + v);
    }
    for (; j < k; j++) {
        int half = 1 << j;
        sum_lanes v = {0};
        v += (int16_t)val[base + j];
        for (int m = 0; m < half; m += 8) {
            sum_lanes x;
            memcpy(&x, t + m, sizeof x);
            x += v;
            memcpy(t + half + m, &x, sizeof x);
        }
    }
}

/* Counts a matching set; true once the cap is reached. */
static bool match(sum_count *c, int *best, uint32_t s, uint32_t *shortest, long cap)
{
    c->paths++;
    int cells = __builtin_popcount(s);
    if (*best == 0 || cells < *best) {
        *best = cells;
        *shortest = s;
    }
    return c->paths == cap;
}

sum_count sum_paths_count(const sum_paths *ps, const int8_t *val, int target, long cap, uint32_t *shortest)
{
    sum_count c = {0, 0, 0};
    *shortest = 0;
    const uint32_t *m = ps->mask;
    int best = 0;
    long i = 0;
    /* two chunks of at most 11 cells, or three of at most 9
     * (SUM_PATHS_MAX_CELLS = 27): 2^11 entries are the most worth building
     * per draw */
    int16_t t0[2048], t1[2048], t2[512];
    if (ps->n <= 22) {
        int k = (ps->n + 1) / 2;
        subset_sums(val, 0, k, t0);
        subset_sums(val, k, ps->n - k, t1);
        uint32_t low = (1u << k) - 1;
        for (; i < ps->count; i++) {
            uint32_t s = m[i];
            if (t0[s & low] + t1[s >> k] != target)
                continue;
            if (match(&c, &best, s, shortest, cap)) {
                i++;
                break;
            }
        }
    } else {
        int k = (ps->n + 2) / 3;
        subset_sums(val, 0, k, t0);
        subset_sums(val, k, k, t1);
        subset_sums(val, 2 * k, ps->n - 2 * k, t2);
        uint32_t low = (1u << k) - 1;
        for (; i < ps->count; i++) {
            uint32_t s = m[i];
            if (t0[s & low] + t1[s >> k & low] + t2[s >> 2 * k] != target)
                continue;
            if (match(&c, &best, s, shortest, cap)) {
                i++;
                break;
            }
        }
    }
    c.min_cells = best;
    c.nodes = i;
    return c;
}

static bool through(const sum_board *b, int cur, uint32_t left, uint8_t *out, int k)
{
    out[k] = (uint8_t)cur;
    if (cur == b->end)
        return left == 0;
    for (uint32_t m = (uint32_t)b->nbr[cur] & left; m; m &= m - 1) {
        int nb = __builtin_ctz(m);
        if (through(b, nb, left & ~((uint32_t)1 << nb), out, k + 1))
            return true;
    }
    return false;
}

int sum_board_path_through(const sum_board *b, uint32_t set, uint8_t *out)
{
    if (b->n > 32 || !(set >> b->start & 1) || !(set >> b->end & 1))
        return 0;
    if (!through(b, b->start, set & ~((uint32_t)1 << b->start), out, 0))
        return 0;
    return __builtin_popcount(set);
}
