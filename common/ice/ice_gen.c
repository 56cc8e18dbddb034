/* ice_gen.c: sliding-ice generation: boards drawn as the brief says, start/exit columns chosen by BFS. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ice.h"
#include "ice_impl.h"
#include "rng.h"
#include "util.h"

/* Effort bound of one generate call, in work units: one unit per interior
 * cell drawn and per BFS node expanded, plus a fixed cost per board and per
 * search. It is a count, so the same ID gives the same result (or the same
 * error) on every machine. The bound is this plus ICE_WORK_PER_CELL units
 * per cell of the board: room for a few boards even at the largest size. */
#define ICE_WORK_BUDGET 600000L
#define ICE_WORK_PER_CELL 4

/* Tallest boards on which the short bands are generated. */
#define ICE_EASY_MAX_H 48
#define ICE_MEDIUM_MAX_H 64

/* Scratch space of one generate call. */
typedef struct gen_ws {
    uint8_t *seen;   /* one byte per cell: bits would chain each visit to the last store */
    int32_t *queue;  /* packed (y << 16) | x */
    int *exit_moves; /* per column: minimum moves to an exit there, 0 = unknown */
    int *order;      /* start columns in the order they are tried */
    int *perm;       /* exit columns in the order they are considered */
    long work;
} gen_ws;

/* Which sizes each band is generated on, from measurements
 * (docs/kinds/ice.md): a band is offered where generation reliably finds
 * one well inside the time limit, and refused at once elsewhere, so an
 * impossible request (hard on 7x7, easy on 100x100) fails in microseconds
 * instead of spending the effort bound. Not in validate_params: a
 * description ID carries the default difficulty, and a hand-made puzzle of
 * any size must still load. */
static const char *band_size_error(const pz_params *p)
{
    int w = p->w, h = p->h, inner = (w - 2) * (h - 2);
    if (w < 4)
        return "ice generation needs at least 4 columns (narrower boards only have 1-move puzzles)";
    switch (p->diff) {
    case PZ_EASY:
        if (h > ICE_EASY_MAX_H)
            return "easy ice needs at most 48 rows: 3 to 5 moves rarely cross a taller board";
        return NULL;
    case PZ_MEDIUM:
        if (h < 4 || inner < 12)
            return "medium ice needs at least 4 rows and 12 inner cells (e.g. 6x5)";
        if (h > ICE_MEDIUM_MAX_H)
            return "medium ice needs at most 64 rows: 6 to 9 moves rarely cross a taller board";
        return NULL;
    default:
        if (h < 4 || inner < 36)
            return "hard ice needs at least 4 rows and 36 inner cells (e.g. 8x8): smaller boards "
                   "almost never need 10 moves";
        return NULL;
    }
}

/* Interior cells boulders with probability 1/8 (rng_below(r, 8) == 0, row by
 * row), border all boulders: the gaps are opened once the columns are chosen.
 * Rows are drawn, then the column copy is filled from their set bits. */
static void draw_board(pz_puzzle *pz, rng_t *r)
{
    int w = pz->w, h = pz->h, rw = pz->rw, cw = pz->cw;
    memset(pz->bits, 0, ((size_t)h * rw + (size_t)w * cw) * sizeof(uint64_t));
    for (int y = 0; y < h; y++) {
        uint64_t *row = pz->rows + (size_t)y * rw;
        if (y == 0 || y == h - 1) {
            for (int x = 0; x < w; x++)
                row[x >> 6] |= 1ull << (x & 63);
            continue;
        }
        /* Built in a local word without branches: the row may alias the
         * generator's state, and a boulder test is a branch mispredicted
         * one time in eight. */
        for (int k = 0; k < rw; k++) {
            int x1 = k * 64 + 64 < w - 1 ? k * 64 + 64 : w - 1;
            uint64_t acc = 0;
            for (int x = k == 0 ? 1 : k * 64; x < x1; x++)
                acc |= (uint64_t)(rng_below(r, 8) == 0) << (x & 63);
            row[k] = acc;
        }
        row[0] |= 1;
        row[(w - 1) >> 6] |= 1ull << ((w - 1) & 63);
    }
    for (int y = 0; y < h; y++) {
        const uint64_t *row = pz->rows + (size_t)y * rw;
        uint64_t ybit = 1ull << (y & 63);
        for (int k = 0; k < rw; k++)
            for (uint64_t m = row[k]; m; m &= m - 1) {
                int x = k * 64 + __builtin_ctzll(m);
                pz->cols[(size_t)x * cw + (y >> 6)] |= ybit;
            }
    }
}

/* Queues (x, y) unless seen; a slide that did not move finds its own cell
 * seen. Branch-free: on random boards the seen test is a coin toss that a
 * branch predictor keeps losing. */
static inline void visit(gen_ws *ws, int x, int y, int w, int *tail)
{
    int v = y * w + x;
    int fresh = !ws->seen[v];
    ws->seen[v] = 1;
    ws->queue[*tail] = (y << 16) | x;
    *tail += fresh;
}

/* Minimum moves from the start gap at column sx to an exit gap at every top
 * column at once, on the board with both borders closed. Two facts make one
 * search serve every exit column:
 * - with the exit at column e, the only move that differs from the closed
 *   board is the winning one (an up slide in column e with nothing above),
 *   so moves(e) = 1 + the least distance of a cell in column e with a clear
 *   run up to row 1;
 * - a down slide in column sx that reaches row h - 2 would fall into the
 *   start gap, whose only way out is back up: never on a shortest route, so
 *   it is skipped.
 * The exit is the first column of a random order (perm) whose moves fall in
 * lo..hi: the same as a uniform pick among the columns in the band, but the
 * search can stop as soon as that column is settled instead of running on
 * to every reachable cell. Searches no deeper than a solution of hi moves
 * needs. Returns the exit column, or 0 if no column is in the band. */
static int scan_start(const pz_puzzle *pz, gen_ws *ws, int sx, int lo, int hi, const int *perm)
{
    int w = pz->w, h = pz->h, n = w - 2;
    int *em = ws->exit_moves;
    memset(em, 0, (size_t)w * sizeof *em);
    int unknown = n, cur = 0, chosen = 0;
    bool small = pz->rw == 1 && pz->cw == 1;
    int ty = ice_slide_to(pz, sx, h - 2, PZ_UP);
    if (ty == 1) {
        em[sx] = 1; /* a clear column: one move, in no band */
        unknown--;
    }
    memset(ws->seen, 0, (size_t)w * h);
    int32_t *q = ws->queue;
    int head = 0, tail = 0, depth = 1, layer_end = 1;
    q[tail++] = (ty << 16) | sx;
    ws->seen[ty * w + sx] = 1;
    while (head < tail && unknown > 0 && !chosen) {
        if (head == layer_end) {
            depth++;
            layer_end = tail;
        }
        if (depth + 1 > hi)
            break;
        int ux = q[head] & 0xffff, uy = q[head] >> 16;
        head++;
        int up, dn, lf, rt;
        if (small) {
            /* One word per row and column, and the closed border makes
             * every mask non-zero: four slides without a branch. */
            uint64_t col = pz->cols[ux], row = pz->rows[uy];
            up = 64 - __builtin_clzll(col & ((1ull << uy) - 1));
            dn = __builtin_ctzll(col & (~0ull << (uy + 1))) - 1;
            lf = 64 - __builtin_clzll(row & ((1ull << ux) - 1));
            rt = __builtin_ctzll(row & (~0ull << (ux + 1))) - 1;
        } else {
            up = ice_slide_to(pz, ux, uy, PZ_UP);
            dn = ice_slide_to(pz, ux, uy, PZ_DOWN);
            lf = ice_slide_to(pz, ux, uy, PZ_LEFT);
            rt = ice_slide_to(pz, ux, uy, PZ_RIGHT);
        }
        if (up == 1 && em[ux] == 0) {
            em[ux] = depth + 1;
            unknown--;
            /* skip the columns settled outside the band; stop when the
             * first unsettled one turns out inside it */
            while (cur < n && em[perm[cur]] != 0 && (em[perm[cur]] < lo || em[perm[cur]] > hi))
                cur++;
            if (cur < n && em[perm[cur]] != 0)
                chosen = perm[cur];
        }
        if (depth + 2 > hi)
            continue; /* children could only reach exits beyond the band */
        if (ux == sx && dn == h - 2)
            dn = uy; /* into the start gap: skipped */
        visit(ws, ux, up, w, &tail);
        visit(ws, ux, dn, w, &tail);
        visit(ws, lf, uy, w, &tail);
        visit(ws, rt, uy, w, &tail);
    }
    ws->work += head + 16; /* + the fixed cost of a scan */
    /* search over: columns still unknown are unreachable or beyond hi */
    for (; !chosen && cur < n; cur++)
        if (em[perm[cur]] >= lo && em[perm[cur]] <= hi)
            chosen = perm[cur];
    return chosen;
}

/* Different sizes and bands get unrelated streams from the same seed.
 * The key is bytes in a fixed order, so every platform hashes the same. */
uint64_t ice_stream_seed(const pz_params *p, uint64_t seed)
{
    int fields[4] = {p->kind, p->w, p->h, p->diff};
    unsigned char key[16];
    for (int i = 0; i < 16; i++)
        key[i] = (unsigned char)((uint32_t)fields[i / 4] >> (8 * (i % 4)));
    return seed ^ mr_hash64(key, sizeof key);
}

pz_puzzle *ice_generate(const pz_params *p, uint64_t seed, const char **err)
{
    return ice_generate_counted(p, seed, err, NULL);
}

pz_puzzle *ice_generate_counted(const pz_params *p, uint64_t seed, const char **err, long *work)
{
    if (work)
        *work = 0;
    /* Checked here too: this library links without the registry. */
    const char *why = NULL;
    if (!p || p->kind != PZ_ICE)
        why = "not an ice puzzle";
    else if (p->diff < 0 || p->diff >= PZ_DIFF_COUNT)
        why = "difficulty must be easy, medium or hard";
    else if (p->w < pz_kind_ice.min_w || p->h < pz_kind_ice.min_h)
        why = "board too small for this kind (see docs/puzzles.md)";
    else if (p->w > pz_kind_ice.max_w || p->h > pz_kind_ice.max_h)
        why = "board too large for this kind (see docs/puzzles.md)";
    else
        why = band_size_error(p);
    if (why) {
        if (err)
            *err = why;
        return NULL;
    }
    int lo = p->diff == PZ_EASY ? ICE_EASY_LO : p->diff == PZ_MEDIUM ? ICE_MEDIUM_LO : ICE_HARD_LO;
    int hi = p->diff == PZ_EASY ? ICE_EASY_HI : p->diff == PZ_MEDIUM ? ICE_MEDIUM_HI : INT_MAX - 2;
    int w = p->w, h = p->h;
    pz_puzzle *pz = ice_alloc(w, h);
    pz->params = *p;
    gen_ws ws = {0};
    /* One block for all scratch arrays: generation is called per puzzle and
     * per bench sample, where separate allocations show. The queue gets a
     * spare slot for the branch-free visit's unconditional write. */
    size_t seen_words = ((size_t)w * h + 7) / 8, qlen = (size_t)w * h + 1;
    size_t words = seen_words + (qlen + 3 * (size_t)w + 1) / 2;
    uint64_t *block = mr_alloc(words, sizeof(uint64_t));
    ws.seen = (uint8_t *)block;
    ws.queue = (int32_t *)(block + seen_words);
    ws.exit_moves = (int *)(ws.queue + qlen);
    ws.order = ws.exit_moves + w;
    ws.perm = ws.order + w;

    rng_t r;
    rng_seed(&r, ice_stream_seed(p, seed));
    bool done = false;
    int n = w - 2;
    long budget = ICE_WORK_BUDGET + ICE_WORK_PER_CELL * (long)w * h;
    while (!done && ws.work < budget) {
        draw_board(pz, &r);
        ws.work += (long)n * (h - 2) + w + 16;
        for (int i = 0; i < n; i++)
            ws.order[i] = i + 1;
        /* Start columns in random order (a Fisher-Yates shuffle drawn one
         * step at a time, as far as needed); the first one with an exit
         * column in the band wins. */
        for (int i = 0; i < n && !done && ws.work < budget; i++) {
            int j = i + (int)rng_below(&r, (uint32_t)(n - i));
            int sx = ws.order[j];
            ws.order[j] = ws.order[i];
            ws.order[i] = sx;
            if (ice_boulder(pz, sx, h - 2))
                continue; /* the start cannot move at all */
            for (int k = 0; k < n; k++)
                ws.perm[k] = k + 1;
            rng_shuffle_int(&r, ws.perm, n);
            int ex = scan_start(pz, &ws, sx, lo, hi, ws.perm);
            if (ex > 0) {
                pz->sx = sx;
                pz->ex = ex;
                pz->moves = ws.exit_moves[ex];
                done = true;
            }
        }
    }
    free(block);
    if (work)
        *work = ws.work;
    if (!done)
        return pz_decoded(
            pz, "no ice puzzle of that difficulty found within the effort bound; try another size", err);
    ice_set_boulder(pz, pz->sx, h - 1, false);
    ice_set_boulder(pz, pz->ex, 0, false);
    return pz;
}
