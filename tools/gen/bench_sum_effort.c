/* bench_sum_effort.c: `mazerace-gen bench` figures that justify the detour measure of big sum boards: the
 * measure against the search effort of a human-like strategy (shortest routes first) on generated boards. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "sum.h"
#include "util.h"

/* Node cap per board: a board the strategy has not solved by then counts
 * as this many nodes (it shows as ">= cap" in the figures). */
#define EFFORT_CAP 20000000L

typedef struct human {
    const pz_puzzle *pz;
    int w, h, ex, ey, target;
    long nodes;
    bool on[SUM_MAX_CELLS];
} human;

static int iabs(int v)
{
    return v < 0 ? -v : v;
}

/* Depth first over the self-avoiding routes of exactly `left` more moves,
 * with only what a person sees at a glance: End must stay within reach of
 * the moves left, and the sum still missing within 9 per cell left. */
static bool human_dfs(human *s, int x, int y, int left, int need)
{
    if (++s->nodes >= EFFORT_CAP)
        return false;
    static const int dx[4] = {0, -1, 1, 0}, dy[4] = {-1, 0, 0, 1};
    for (int k = 0; k < 4; k++) {
        int nx = x + dx[k], ny = y + dy[k];
        if (nx < 0 || ny < 0 || nx >= s->w || ny >= s->h || s->on[ny * s->w + nx])
            continue;
        int d = iabs(nx - s->ex) + iabs(ny - s->ey), v = sum_value(s->pz, nx, ny);
        if (d > left - 1 || iabs(need - v) > 9 * left)
            continue;
        if (d == 0) {
            if (left == 1 && need == v)
                return true;
            continue;
        }
        s->on[ny * s->w + nx] = true;
        bool hit = human_dfs(s, nx, ny, left - 1, need - v);
        s->on[ny * s->w + nx] = false;
        if (hit || s->nodes >= EFFORT_CAP)
            return hit;
    }
    return false;
}

/* Nodes until the first valid path, trying every route of the Start-End
 * distance first, then 2 moves more, and so on. */
static long human_effort(const pz_puzzle *pz)
{
    human *s = mr_alloc(1, sizeof *s);
    const pz_params *p = pz_params_of(pz);
    int sx, sy;
    s->pz = pz;
    s->w = p->w;
    s->h = p->h;
    sum_start(pz, &sx, &sy);
    sum_end(pz, &s->ex, &s->ey);
    s->target = sum_target(pz);
    int dist = iabs(sx - s->ex) + iabs(sy - s->ey);
    s->on[sy * s->w + sx] = true;
    for (int moves = dist; moves < p->w * p->h && s->nodes < EFFORT_CAP; moves += 2)
        if (human_dfs(s, sx, sy, moves, s->target - sum_value(pz, sx, sy)))
            break;
    long n = s->nodes;
    free(s);
    return n;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static long pct(long *v, int n, int p)
{
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_long);
    return v[(long)(n - 1) * p / 100];
}

/* Spearman's rank correlation of two samples (ties get their mean rank). */
static void ranks(const double *v, int n, double *r)
{
    for (int i = 0; i < n; i++) {
        int less = 0, same = 0;
        for (int j = 0; j < n; j++) {
            less += v[j] < v[i];
            same += v[j] == v[i];
        }
        r[i] = less + (same + 1) / 2.0;
    }
}

static double spearman(const double *a, const double *b, int n)
{
    double *ra = mr_alloc((size_t)n, sizeof *ra), *rb = mr_alloc((size_t)n, sizeof *rb);
    ranks(a, n, ra);
    ranks(b, n, rb);
    double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
    for (int i = 0; i < n; i++) {
        ma += ra[i] / n;
        mb += rb[i] / n;
    }
    for (int i = 0; i < n; i++) {
        sab += (ra[i] - ma) * (rb[i] - mb);
        saa += (ra[i] - ma) * (ra[i] - ma);
        sbb += (rb[i] - mb) * (rb[i] - mb);
    }
    free(ra);
    free(rb);
    return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0;
}

static int iabs_dist(const pz_puzzle *pz)
{
    int sx, sy, ex, ey;
    sum_start(pz, &sx, &sy);
    sum_end(pz, &ex, &ey);
    return iabs(sx - ex) + iabs(sy - ey);
}

static void print_row(const char *what, int w, int h, const char *key, long *v, int n)
{
    long lo = pct(v, n, 10), med = pct(v, n, 50), p90 = pct(v, n, 90);
    printf("  %-22s n=%4d effort p10 %8ld  median %8ld  p90 %8ld nodes\n", what, n, lo, med, p90);
    printf("RESULT sum_effort %dx%d %s n=%d p10=%ld median=%ld p90=%ld\n", w, h, key, n, lo, med, p90);
}

/* For count boards per band at w x h: the human-like effort by band, by
 * the measure (routes tried first, in powers of 4) and by the detour, and
 * the rank correlation of the effort with each; RESULT sum_effort lines. */
void bench_sum_effort(const bench_opts *o, int w, int h)
{
    enum { BUCKETS = 16, DETOURS = 16 };
    const pz_kind *k = &pz_kind_sum;
    int count = o->quick ? 20 : o->count < 1000 ? o->count : 1000;
    int total = count * PZ_DIFF_COUNT, m = 0, capped = 0;
    long *by_band[PZ_DIFF_COUNT], *by_tries[BUCKETS], *by_detour[DETOURS];
    int nb[PZ_DIFF_COUNT] = {0}, nt[BUCKETS] = {0}, nd[DETOURS] = {0};
    for (int i = 0; i < PZ_DIFF_COUNT; i++)
        by_band[i] = mr_alloc((size_t)count, sizeof(long));
    for (int i = 0; i < BUCKETS; i++)
        by_tries[i] = mr_alloc((size_t)total, sizeof(long));
    for (int i = 0; i < DETOURS; i++)
        by_detour[i] = mr_alloc((size_t)total, sizeof(long));
    double *tries = mr_alloc((size_t)total, sizeof *tries), *det = mr_alloc((size_t)total, sizeof *det),
           *dist = mr_alloc((size_t)total, sizeof *dist), *eff = mr_alloc((size_t)total, sizeof *eff);
    printf(
        "sum: measure vs a human-like search (shortest routes first, nodes to the first valid path), %dx%d, "
        "seeds 1..%d per band\n",
        w, h, count);
    for (int d = 0; d < PZ_DIFF_COUNT; d++)
        for (int i = 0; i < count; i++) {
            pz_params p = {.kind = PZ_SUM, .w = w, .h = h, .diff = d};
            const char *err = NULL;
            pz_puzzle *pz = k->generate(&p, (uint64_t)i + 1, &err);
            if (!pz)
                continue;
            pz_grade g;
            k->grade(pz, &g);
            long e = human_effort(pz);
            capped += e >= EFFORT_CAP;
            int dd = iabs_dist(pz), detour = (g.par - dd) / 2, bucket = 0;
            for (long t = g.measure; t >= 4 && bucket < BUCKETS - 1; t /= 4)
                bucket++;
            by_band[d][nb[d]++] = e;
            by_tries[bucket][nt[bucket]++] = e;
            if (detour >= 0 && detour < DETOURS)
                by_detour[detour][nd[detour]++] = e;
            tries[m] = (double)g.measure;
            det[m] = detour;
            dist[m] = dd;
            eff[m++] = (double)e;
            k->free_puzzle(pz);
        }
    char what[64], key[64];
    for (int d = 0; d < PZ_DIFF_COUNT; d++) {
        snprintf(what, sizeof what, "band %s", pz_difficulty_name(d));
        snprintf(key, sizeof key, "band=%s", pz_difficulty_name(d));
        print_row(what, w, h, key, by_band[d], nb[d]);
    }
    for (int b = 0; b < BUCKETS; b++)
        if (nt[b]) {
            long lo = b ? 1L << (2 * b) : 0, hi = (1L << (2 * b + 2)) - 1;
            snprintf(what, sizeof what, "tries %ld..%ld", lo, hi);
            snprintf(key, sizeof key, "tries=%ld..%ld", lo, hi);
            print_row(what, w, h, key, by_tries[b], nt[b]);
        }
    for (int b = 0; b < DETOURS; b++)
        if (nd[b]) {
            snprintf(what, sizeof what, "detour %d", b);
            snprintf(key, sizeof key, "detour=%d", b);
            print_row(what, w, h, key, by_detour[b], nd[b]);
        }
    double r_tries = spearman(tries, eff, m), r_det = spearman(det, eff, m), r_dist = spearman(dist, eff, m);
    printf("  Spearman rank correlation with the effort: routes tried first (the measure) %.3f, detour %.3f, "
           "Start-End distance %.3f (n=%d, capped at %ld nodes: %d)\n",
           r_tries, r_det, r_dist, m, EFFORT_CAP, capped);
    printf("RESULT sum_effort %dx%d spearman_tries=%.3f spearman_detour=%.3f spearman_distance=%.3f n=%d "
           "capped=%d\n",
           w, h, r_tries, r_det, r_dist, m, capped);
    for (int i = 0; i < PZ_DIFF_COUNT; i++)
        free(by_band[i]);
    for (int i = 0; i < BUCKETS; i++)
        free(by_tries[i]);
    for (int i = 0; i < DETOURS; i++)
        free(by_detour[i]);
    free(tries);
    free(det);
    free(dist);
    free(eff);
}
