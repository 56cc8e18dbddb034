/* pipes_gen.c: the rotating-pipes generator: a random walk, decoys, rotations, nudges towards the band. */
#include <stdlib.h>
#include <string.h>

#include "pipes_impl.h"
#include "rng.h"
#include "util.h"

/* Generation effort: draws per request, walk attempts per draw, nudges
 * (single-tile turns towards the band) per draw, solver runs per request in
 * all, and the solver's node budget while generating (a draw that needs
 * more is dropped). The solver-run cap is what bounds a failing request:
 * about 40 ms at 22x22; the most any request has used is 47. */
#define GEN_DRAWS 64
#define GEN_WALK_TRIES 64
#define GEN_NUDGES 48
#define GEN_SOLVES 200
#define GEN_BUDGET 6000L

/* ---- generation ---- */

/* A random self-avoiding walk from (0, sr) to (w-1, er), written as cells in
 * path[]; returns its length, or 0 on a dead end. `pull` (0..100) is the
 * percentage of steps that go towards the End when they can: high for short
 * walks (easy), low for long winding ones (hard). */
static int walk(rng_t *r, int w, int h, int sr, int er, int pull, uint8_t *seen, int16_t *path)
{
    int n = w * h;
    memset(seen, 0, (size_t)n);
    int x = 0, y = sr, len = 0;
    int end = er * w + w - 1;
    for (;;) {
        int i = y * w + x;
        seen[i] = 1;
        path[len++] = (int16_t)i;
        if (i == end)
            return len;
        if (len >= n)
            return 0;
        int cand[4], nc = 0, toward[4], nt = 0;
        for (int s = 0; s < 4; s++) {
            int nx = x + side_dx(s), ny = y + side_dy(s);
            if (nx < 0 || ny < 0 || nx >= w || ny >= h || seen[ny * w + nx])
                continue;
            cand[nc++] = s;
            int dist_now = (w - 1 - x) + abs(er - y);
            int dist_next = (w - 1 - nx) + abs(er - ny);
            if (dist_next < dist_now)
                toward[nt++] = s;
        }
        if (nc == 0)
            return 0;
        int s;
        if (nt > 0 && (int)rng_below(r, 100) < pull)
            s = toward[rng_below(r, (uint32_t)nt)];
        else
            s = cand[rng_below(r, (uint32_t)nc)];
        x += side_dx(s);
        y += side_dy(s);
    }
}

/* One draw: a walk, its tiles, decoys, random rotations. False if the walk
 * attempts all dead-ended. */
static bool draw(rng_t *r, pz_puzzle *pz, int pull, uint8_t *seen, int16_t *path)
{
    int w = pz->params.w, h = pz->params.h;
    pz->start_row = (int)rng_below(r, (uint32_t)h);
    pz->end_row = (int)rng_below(r, (uint32_t)h);
    int len = 0;
    for (int t = 0; t < GEN_WALK_TRIES && len == 0; t++)
        len = walk(r, w, h, pz->start_row, pz->end_row, pull, seen, path);
    if (len == 0)
        return false;
    for (int i = 0; i < pz->n; i++)
        pz->mask[i] = pipes_tile_masks[rng_below(r, 6)];
    for (int k = 0; k < len; k++) {
        int i = path[k];
        int a = SIDE_W, b = SIDE_E;
        for (int s = 0; s < 4; s++) {
            int j = i + side_dx(s) + side_dy(s) * w;
            bool inside = (i % w) + side_dx(s) >= 0 && (i % w) + side_dx(s) < w &&
                          (i / w) + side_dy(s) >= 0 && (i / w) + side_dy(s) < h;
            if (!inside)
                continue;
            if (k > 0 && j == path[k - 1])
                a = s;
            if (k + 1 < len && j == path[k + 1])
                b = s;
        }
        pz->mask[i] = (uint8_t)((1 << a) | (1 << b));
    }
    for (int i = 0; i < pz->n; i++)
        pz->mask[i] = (uint8_t)rot_cw(pz->mask[i], (int)rng_below(r, 4));
    return true;
}

uint64_t pipes_stream_seed(const pz_params *p, uint64_t seed)
{
    unsigned char b[12];
    int v[3] = {p->w, p->h, p->diff};
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 4; j++)
            b[k * 4 + j] = (unsigned char)((unsigned)v[k] >> (8 * j));
    return seed ^ mr_hash64(b, sizeof b);
}

/* Turns up to `count` tiles of the cheapest chain found by sv one quarter
 * each, so that par moves towards the band: harder turns them away from what
 * the chain needs (par grows by at most count, as another chain may take
 * over), easier towards it (par drops by exactly count when there are that
 * many to turn). False if no tile of the chain can move that way. */
static bool nudge(rng_t *r, pz_puzzle *pz, const pipes_solver *sv, bool harder, int count)
{
    int cand[PIPES_MAX_W * PIPES_MAX_H], nc = 0;
    uint8_t want[PIPES_MAX_W * PIPES_MAX_H];
    for (int k = 0; k < sv->best_len; k++) {
        int i = sv->best_cell[k];
        int a = k == 0 ? SIDE_W : (sv->best_exit[k - 1] + 2) & 3;
        int wm = (1 << a) | (1 << sv->best_exit[k]);
        int c = rot_cost(pz->mask[i], wm);
        bool fits = harder ? (c == 0 || (c == 1 && !is_straight(wm))) : c > 0;
        if (fits) {
            want[i] = (uint8_t)wm;
            cand[nc++] = i;
        }
    }
    if (nc == 0)
        return false;
    for (int k = 0; k < count && k < nc; k++) {
        int pick = k + (int)rng_below(r, (uint32_t)(nc - k));
        int i = cand[pick];
        cand[pick] = cand[k];
        int m = pz->mask[i], wm = want[i];
        if (harder)
            pz->mask[i] = (uint8_t)(m == wm || rot_cw(m, 3) == wm ? rot_cw(m, 1) : rot_cw(m, 3));
        else
            pz->mask[i] = (uint8_t)(is_straight(m) || rot_cw(m, 1) == wm ? wm : rot_cw(m, 3));
    }
    return true;
}

/* Draws boards and nudges each towards the band; bounded in count: at most
 * GEN_DRAWS draws and GEN_SOLVES solver runs of at most GEN_BUDGET nodes. */
pz_puzzle *pipes_generate(const pz_params *p, uint64_t seed, const char **err)
{
    const char *why = pipes_validate_params(p);
    if (why) {
        if (err)
            *err = why;
        return NULL;
    }
    static const int pulls[PZ_DIFF_COUNT] = {90, 60, 25};
    rng_t r;
    rng_seed(&r, pipes_stream_seed(p, seed));
    pz_puzzle *pz = pipes_alloc(p);
    uint8_t *seen = mr_alloc((size_t)pz->n, 1);
    int16_t *path = mr_alloc((size_t)pz->n, sizeof *path);
    pipes_solver *sv = pipes_solver_create(pz->n);
    sv->budget = GEN_BUDGET;
    bool ok = false;
    int solves = 0;
    for (int t = 0; t < GEN_DRAWS && !ok && solves < GEN_SOLVES; t++) {
        if (!draw(&r, pz, pulls[p->diff], seen, path))
            continue;
        for (int step = 0; step <= GEN_NUDGES && solves < GEN_SOLVES; step++) {
            pipes_solver_run(sv, pz, NULL);
            solves++;
            if (!sv->exact || sv->best_len <= 0)
                break;
            int band = pipes_band_of(p->w, sv->best_cost);
            if (band == p->diff) {
                ok = true;
                break;
            }
            /* Turning as many tiles as par is away from the band's near edge
             * cannot overshoot it (see nudge). */
            int lo, hi;
            pipes_band_range(p->w, p->diff, &lo, &hi);
            bool harder = band < p->diff;
            int gap = harder ? lo - sv->best_cost : sv->best_cost - hi;
            if (step == GEN_NUDGES || !nudge(&r, pz, sv, harder, gap))
                break;
        }
    }
    free(sv);
    free(seen);
    free(path);
    return pz_decoded(
        pz, ok ? NULL : "could not make a pipes board of that difficulty at that size; try another size",
        err);
}
