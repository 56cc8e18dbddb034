/* sum_big.c: the detour measure of number-path boards above the exact count's limit: sets of path sums by
 * detour, and the search for a valid path of a given detour (docs/kinds/sum.md, "Boards above 25 cells"). */
#include <stdlib.h>
#include <string.h>

#include "sum_board.h"
#include "util.h"

/* Directions by angle, a quarter turn apart: right, up, left, down. */
static const int ang_dx[4] = {1, 0, -1, 0}, ang_dy[4] = {0, -1, 0, 1};

/* A walk's last move and its run of turns: state a * 5 + r + 2 for the last
 * move's angle a and r in -2..2 (r > 0: the last r moves each turned a
 * quarter turn one way, r < 0 the other, 0: the last move went straight),
 * and START before the first move. A move back onto the previous cell is
 * never taken, and neither is a third turn the same way in a row: those
 * four moves would close a unit square. */
enum { RUNS = 5, START = 4 * RUNS, STATES = START + 1 };

static int next_state(int st, int a2)
{
    if (st == START)
        return a2 * RUNS + 2;
    int a = st / RUNS, r = st % RUNS - 2, turn = (a2 - a) & 3;
    if (turn == 2)
        return -1;
    if (turn == 0)
        return a2 * RUNS + 2;
    int s = turn == 1 ? 1 : -1, nr = r * s > 0 ? r + s : s;
    if (nr == 3 || nr == -3)
        return -1;
    return a2 * RUNS + nr + 2;
}

static int dist(const sum_board *b, int i, int j)
{
    return abs(i % b->w - j % b->w) + abs(i / b->w - j / b->w);
}

int sum_board_neighbour(const sum_board *b, int i, int a)
{
    int x = i % b->w + ang_dx[a], y = i / b->w + ang_dy[a];
    if (x < 0 || y < 0 || x >= b->w || y >= b->h)
        return -1;
    return y * b->w + x;
}

/* dst |= src shifted up by v bits (down for v < 0), words words each. */
static void shift_or(uint64_t *dst, const uint64_t *src, int words, int v)
{
    if (v == 0) {
        for (int i = 0; i < words; i++)
            dst[i] |= src[i];
    } else if (v > 0) {
        dst[0] |= src[0] << v;
        for (int i = 1; i < words; i++)
            dst[i] |= src[i] << v | src[i - 1] >> (64 - v);
    } else {
        int u = -v;
        for (int i = 0; i < words - 1; i++)
            dst[i] |= src[i] >> u | src[i + 1] << (64 - u);
        dst[words - 1] |= src[words - 1] >> u;
    }
}

/* Walks from src in order of their length t: a walk at cell c after t moves
 * has detour e = (t - dist(src, c)) / 2, which never falls along a walk, so
 * a layer of states per t (cell x turn state, each a set of sums and a
 * count of walks; a state is reached iff its count is not 0) holds every
 * walk of that length with e <= emax. Every walk of detour 0, 1 or 2 under
 * the two rules above is a self-avoiding path: a walk that meets itself
 * closes a loop of at least 4 moves without a step back, which costs a
 * detour of 2, and the only such loop of 4 moves is a unit square. */
void sum_sets_build(const sum_board *b, int src, int emax, sum_sets *s, double *counts)
{
    int n = b->n, dmax = 0;
    for (int i = 0; i < n; i++)
        if (dist(b, src, i) > dmax)
            dmax = dist(b, src, i);
    int tmax = dmax + 2 * emax;
    s->n = n;
    s->emax = emax;
    s->off = 9 * (tmax + 1);
    s->words = (2 * s->off + 1 + 63) / 64;
    int words = s->words;
    s->bits = mr_alloc((size_t)n * (size_t)(emax + 1) * (size_t)words, sizeof *s->bits);
    if (counts)
        memset(counts, 0, (size_t)n * (size_t)(emax + 1) * sizeof *counts);
    size_t slot = (size_t)STATES * (size_t)words;
    uint64_t *cur = mr_alloc((size_t)n * slot, sizeof *cur), *nxt = mr_alloc((size_t)n * slot, sizeof *nxt);
    double *curk = mr_alloc((size_t)n * STATES, sizeof *curk),
           *nxtk = mr_alloc((size_t)n * STATES, sizeof *nxtk);
    int off0 = s->off + b->val[src];
    cur[(size_t)src * slot + (size_t)START * (size_t)words + (size_t)(off0 / 64)] = (uint64_t)1
                                                                                    << (off0 % 64);
    curk[src * STATES + START] = 1;
    for (int t = 0; t <= tmax; t++) {
        for (int c = 0; c < n; c++) {
            int e = (t - dist(b, src, c)) / 2;
            for (int st = 0; st < STATES; st++) {
                double k = curk[c * STATES + st];
                if (k == 0)
                    continue;
                curk[c * STATES + st] = 0;
                if (counts)
                    counts[c * (emax + 1) + e] += k;
                uint64_t *from = cur + (size_t)c * slot + (size_t)st * (size_t)words;
                uint64_t *out = s->bits + ((size_t)c * (size_t)(emax + 1) + (size_t)e) * (size_t)words;
                for (int i = 0; i < words; i++)
                    out[i] |= from[i];
                for (int a = 0; a < 4 && t < tmax; a++) {
                    int nb = sum_board_neighbour(b, c, a), st2 = next_state(st, a);
                    if (nb < 0 || st2 < 0 || t + 1 - dist(b, src, nb) > 2 * emax)
                        continue;
                    shift_or(nxt + (size_t)nb * slot + (size_t)st2 * (size_t)words, from, words, b->val[nb]);
                    nxtk[nb * STATES + st2] += k;
                }
                memset(from, 0, (size_t)words * sizeof *from);
            }
        }
        uint64_t *tw = cur;
        cur = nxt;
        nxt = tw;
        double *tk = curk;
        curk = nxtk;
        nxtk = tk;
    }
    free(cur);
    free(nxt);
    free(curk);
    free(nxtk);
}

bool sum_sets_has(const sum_sets *s, int cell, int e, int sum)
{
    int k = sum + s->off;
    if (e < 0 || e > s->emax || k < 0 || k >= 64 * s->words)
        return false;
    return s->bits[((size_t)cell * (size_t)(s->emax + 1) + (size_t)e) * (size_t)s->words +
                   (size_t)(k / 64)] >>
               (k % 64) &
           1;
}

void sum_sets_free(sum_sets *s)
{
    free(s->bits);
    memset(s, 0, sizeof *s);
}

/* ---- the search for one valid path of a given detour ---- */

typedef struct finder {
    const sum_board *b;
    const sum_sets *g; /* from End */
    int steps;         /* the path's moves: distance + 2 * detour */
    long nodes, budget;
    sum_mask on;
    uint8_t *path;
} finder;

/* Depth first, neighbours in increasing cell index. A neighbour is entered
 * only if some walk of the right detour from it to End (g: self-avoiding
 * in itself up to a detour of 2, but free to cross the path so far) has the
 * sum still missing: no valid path is cut off. 1 found, 0 none, -1 out of
 * budget. */
static int find_from(finder *f, int head, int t, int sum)
{
    if (++f->nodes > f->budget)
        return -1;
    const sum_board *b = f->b;
    static const int order[4] = {1, 2, 0, 3}; /* up, left, right, down */
    for (int k = 0; k < 4; k++) {
        int nb = sum_board_neighbour(b, head, order[k]);
        if (nb < 0 || sum_mask_has(&f->on, nb))
            continue;
        int left = f->steps - t - 1, dn = dist(b, nb, b->end);
        if (dn > left)
            continue;
        if (nb == b->end) {
            if (left == 0 && sum + b->val[nb] == b->target) {
                f->path[t + 1] = (uint8_t)nb;
                return 1;
            }
            continue;
        }
        if (!sum_sets_has(f->g, nb, (left - dn) / 2, b->target - sum))
            continue;
        sum_mask_set(&f->on, nb);
        f->path[t + 1] = (uint8_t)nb;
        int rc = find_from(f, nb, t + 1, sum + b->val[nb]);
        sum_mask_clear(&f->on, nb);
        if (rc)
            return rc;
    }
    return 0;
}

int sum_find_path(const sum_board *b, const sum_sets *g, int detour, long *budget, uint8_t *out)
{
    finder f;
    memset(&f, 0, sizeof f);
    f.b = b;
    f.g = g;
    f.steps = dist(b, b->start, b->end) + 2 * detour;
    f.budget = *budget;
    f.path = out;
    out[0] = (uint8_t)b->start;
    sum_mask_set(&f.on, b->start);
    int rc = detour > g->emax ? 0 : find_from(&f, b->start, 0, b->val[b->start]);
    *budget -= f.nodes;
    if (*budget < 0)
        *budget = 0;
    return rc > 0 ? f.steps + 1 : rc;
}

long sum_big_tries(const double *routes, int detour)
{
    double r = routes[detour] / 2;
    for (int e = 0; e < detour; e++)
        r += routes[e];
    return r >= 9e18 ? (long)9e18 : (long)r;
}

int sum_big_measure(const sum_board *b, long budget, uint8_t *best, int *cells, long *tries)
{
    /* Routes from End to Start are those from Start to End, reversed. */
    double *routes = mr_alloc((size_t)b->n * (SUM_BIG_SEARCH + 1), sizeof *routes);
    sum_sets g;
    memset(&g, 0, sizeof g);
    sum_sets_build(b, b->end, SUM_BIG_EXACT, &g, routes);
    int level = -1;
    for (int e = 0; e <= SUM_BIG_EXACT && level < 0; e++)
        if (sum_sets_has(&g, b->start, e, b->target))
            level = e;
    if (level < 0) {
        sum_sets_free(&g);
        sum_sets_build(b, b->end, SUM_BIG_SEARCH, &g, routes);
    }
    int first = level < 0 ? SUM_BIG_EXACT + 1 : level, last = level < 0 ? SUM_BIG_SEARCH : level;
    int rc = 0;
    for (int e = first; e <= last && rc == 0; e++) {
        rc = sum_find_path(b, &g, e, &budget, best);
        if (rc > 0) {
            level = e;
            *cells = rc;
        }
    }
    if (rc > 0)
        *tries = sum_big_tries(routes + b->start * (g.emax + 1), level);
    sum_sets_free(&g);
    free(routes);
    if (rc < 0)
        return -2;
    return rc > 0 ? level : -1;
}
