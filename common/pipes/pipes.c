/* pipes.c: the rotating-pipes kind: rules, generator, exact par solver, description and text forms. */
#include "pipes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "util.h"

/* Sides are numbered clockwise (N E S W) so that a clockwise quarter turn of
 * a tile adds one to every side; the mask bit of side s is 1 << s, which is
 * the PIPES_N/E/S/W numbering of pipes.h. */
enum { SIDE_N, SIDE_E, SIDE_S, SIDE_W };

#define MASK_NS (PIPES_N | PIPES_S)
#define MASK_EW (PIPES_E | PIPES_W)

/* Hard limits of this kind (docs/kinds/pipes.md explains each figure). */
#define PIPES_MIN_W 2
#define PIPES_MIN_H 2
#define PIPES_MAX_W 40
#define PIPES_MAX_H 40
#define STR_(x) #x
#define STR(x) STR_(x)

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

/* Branch-and-bound node budget of one solve. Generated boards never get
 * near it (the relaxed bound is almost always tight); a hand-made board that
 * exhausts it is refused by the readers, so every accepted board has an
 * exact par. */
#define SOLVE_BUDGET 100000L

/* The six tiles, in the order of the text letters and description digits. */
static const uint8_t tile_masks[6] = {
    MASK_NS,           /* '|' */
    MASK_EW,           /* '-' */
    PIPES_N | PIPES_E, /* 'L' */
    PIPES_E | PIPES_S, /* 'F' */
    PIPES_S | PIPES_W, /* '7' */
    PIPES_W | PIPES_N, /* 'J' */
};
static const char tile_letters[] = "|-LF7J";

struct pz_puzzle {
    pz_params params;
    int start_row, end_row;
    int n;
    uint8_t mask[]; /* initial openings of each tile, row by row */
};

struct pz_state {
    int w, h, n;
    bool solved;
    int lit_count;  /* tiles on the chain from Start */
    uint8_t data[]; /* turns[n] (0..3 clockwise quarter turns), then lit[n] */
};

static uint8_t *turns_of(pz_state *st)
{
    return st->data;
}
static const uint8_t *cturns_of(const pz_state *st)
{
    return st->data;
}
static uint8_t *lit_of(pz_state *st)
{
    return st->data + st->n;
}
static const uint8_t *clit_of(const pz_state *st)
{
    return st->data + st->n;
}

static int rot_cw(int mask, int turns)
{
    turns &= 3;
    return ((mask << turns) | (mask >> (4 - turns))) & 15;
}

static bool is_straight(int mask)
{
    return mask == MASK_NS || mask == MASK_EW;
}

static int tile_index(int mask)
{
    for (int i = 0; i < 6; i++)
        if (tile_masks[i] == mask)
            return i;
    return -1;
}

/* Fewest quarter turns (either direction) from mask `from` to mask `to` of
 * the same shape. */
static int rot_cost(int from, int to)
{
    if (from == to)
        return 0;
    if (is_straight(from))
        return 1;
    return rot_cw(from, 2) == to ? 2 : 1;
}

static int side_dx(int s)
{
    return s == SIDE_E ? 1 : s == SIDE_W ? -1 : 0;
}
static int side_dy(int s)
{
    return s == SIDE_S ? 1 : s == SIDE_N ? -1 : 0;
}

static int cur_mask(const pz_puzzle *pz, const pz_state *st, int i)
{
    return st ? rot_cw(pz->mask[i], cturns_of(st)[i]) : pz->mask[i];
}

/* ---- params ---- */

/* The band of a par on a board of width w: thresholds are fractions of the
 * width because the cheapest crossing grows with it (see the docs). Above 22
 * columns (the limit until protocol 2) the hard threshold grows by one per
 * column: on wide boards so many decoy chains cross that par stays near the
 * width (about 40 at 40x40) and 3W/2 is out of reach. */
static void band_limits(int w, int *easy_max, int *medium_max)
{
    *easy_max = (w + 1) / 2; /* 6 wide: 1..3 */
    if (w <= 22)
        *medium_max = (3 * w + 1) / 2; /* 6 wide: 4..9; hard 10 and more */
    else
        *medium_max = w + 11; /* continues 22 wide (33); 40 wide: 21..51, hard 52 and more */
}

static int band_of(int w, int par)
{
    int e, m;
    band_limits(w, &e, &m);
    if (par < 1)
        return -1;
    return par <= e ? PZ_EASY : par <= m ? PZ_MEDIUM : PZ_HARD;
}

/* Par range [lo, hi] of band diff on a board w wide (hard: hi is huge). */
static void band_range(int w, int diff, int *lo, int *hi)
{
    int e, m;
    band_limits(w, &e, &m);
    *lo = diff == PZ_EASY ? 1 : diff == PZ_MEDIUM ? e + 1 : m + 1;
    *hi = diff == PZ_EASY ? e : diff == PZ_MEDIUM ? m : 1 << 20;
}

static const char *check_size(int w, int h)
{
    if (w < PIPES_MIN_W || h < PIPES_MIN_H)
        return "pipes boards are at least " STR(PIPES_MIN_W) "x" STR(PIPES_MIN_H);
    if (w > PIPES_MAX_W || h > PIPES_MAX_H)
        return "pipes boards are at most " STR(PIPES_MAX_W) "x" STR(PIPES_MAX_H);
    return NULL;
}

static const char *validate_params(const pz_params *p)
{
    if (p->kind != PZ_PIPES)
        return "not a pipes puzzle";
    const char *why = check_size(p->w, p->h);
    if (why)
        return why;
    if (p->diff < 0 || p->diff >= PZ_DIFF_COUNT)
        return "difficulty must be easy, medium or hard";
    /* Below these sizes the measured bands cannot be reached (docs). */
    if (p->diff == PZ_MEDIUM && p->w * p->h < 9)
        return "medium pipes needs at least 9 tiles (e.g. 3x3)";
    if (p->diff == PZ_HARD && (p->w < 4 || p->h < 3))
        return "hard pipes needs a board of at least 4x3";
    return NULL;
}

/* ---- puzzle and state lifetime ---- */

static pz_puzzle *puzzle_alloc(const pz_params *p)
{
    int n = p->w * p->h;
    pz_puzzle *pz = mr_alloc(1, sizeof *pz + (size_t)n);
    pz->params = *p;
    pz->params.kind = PZ_PIPES;
    pz->n = n;
    return pz;
}

static void free_puzzle(pz_puzzle *pz)
{
    free(pz);
}

static size_t state_size(int n)
{
    return sizeof(pz_state) + 2 * (size_t)n;
}

/* Follows the chain from the Start cap, lighting its tiles; returns true if
 * it leaves through the End cap. A chain can never revisit a tile (each tile
 * has two openings, both used once on the chain), but the walk is bounded by
 * the tile count anyway. */
static bool trace(const pz_puzzle *pz, const pz_state *st, uint8_t *lit, int *count)
{
    int w = pz->params.w, h = pz->params.h;
    int x = 0, y = pz->start_row, entry = SIDE_W, lit_n = 0;
    bool done = false;
    for (int steps = 0; steps < pz->n; steps++) {
        int i = y * w + x;
        int m = cur_mask(pz, st, i);
        if (!(m & (1 << entry)))
            break;
        if (lit)
            lit[i] = 1;
        lit_n++;
        int exit = 0;
        while (exit == entry || !(m & (1 << exit)))
            exit++;
        int nx = x + side_dx(exit), ny = y + side_dy(exit);
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) {
            done = (exit == SIDE_E && x == w - 1 && y == pz->end_row);
            break;
        }
        x = nx;
        y = ny;
        entry = (exit + 2) & 3;
    }
    if (count)
        *count = lit_n;
    return done;
}

static void refresh(const pz_puzzle *pz, pz_state *st)
{
    memset(lit_of(st), 0, (size_t)st->n);
    st->solved = trace(pz, st, lit_of(st), &st->lit_count);
}

static pz_state *new_state(const pz_puzzle *pz)
{
    pz_state *st = mr_alloc(1, state_size(pz->n));
    st->w = pz->params.w;
    st->h = pz->params.h;
    st->n = pz->n;
    refresh(pz, st);
    return st;
}

static void copy_state(pz_state *dst, const pz_state *src)
{
    if (dst != src)
        memcpy(dst, src, state_size(src->n));
}

static void free_state(pz_state *st)
{
    free(st);
}

/* ---- moves ---- */

static const char *execute_move(const pz_puzzle *pz, const pz_state *from, pz_move mv, pz_state *to)
{
    if (!pz || !from || !to)
        return "no puzzle or state";
    if (mv.type != PZ_MOVE_ROTATE_CW && mv.type != PZ_MOVE_ROTATE_CCW)
        return "pipes moves rotate a tile (clockwise or counter-clockwise)";
    if (mv.dir != 0)
        return "a rotation takes no direction (dir must be 0)";
    if (mv.x >= pz->params.w || mv.y >= pz->params.h)
        return "no tile there: outside the board";
    if (from->solved)
        return "the puzzle is already solved";
    copy_state(to, from);
    int i = mv.y * pz->params.w + mv.x;
    uint8_t *t = turns_of(to);
    t[i] = (uint8_t)((t[i] + (mv.type == PZ_MOVE_ROTATE_CW ? 1 : 3)) & 3);
    refresh(pz, to);
    return NULL;
}

static bool is_solved(const pz_puzzle *pz, const pz_state *st)
{
    (void)pz;
    return st->solved;
}

/* ---- the par solver ----
 *
 * A chain is a self-avoiding sequence of tiles from the Start cap to the End
 * cap; on it each tile joins its entry side to its exit side, so a straight
 * must go straight on and a corner must turn. Its cost is the sum over its
 * tiles of the quarter turns that bring each tile from its current
 * orientation to the one the chain needs; tiles off the chain never matter.
 * Par is the cheapest chain. Dropping self-avoidance makes this a shortest
 * path over (tile, entry side), which a Dijkstra solves; that gives an
 * admissible bound h for a depth-first branch and bound over real chains,
 * which stops as soon as it meets the bound (the usual case). */

typedef struct solver {
    const pz_puzzle *pz;
    int w, h, n;
    uint8_t *cur;   /* current masks */
    int16_t *hcost; /* bound per (tile, entry side); H_INF unreachable */
    uint8_t *used;  /* tiles on the chain being built */
    /* depth-first stack: one frame per tile on the chain being built */
    int16_t *cell, *gcost, *best_cell;
    int8_t *entry, *opt, *best_exit;
    int8_t (*exits)[2]; /* a frame's exit sides, most promising first; -1 none */
    /* Dial's bucket queue for the bound: a list per cost */
    int *head, *next, *val;
    int best_len, best_cost;
    long nodes, budget;
    bool exact;
} solver;

/* Each state is settled once and relaxes at most three edges. */
static int queue_cap(int n)
{
    return 4 * n * 3 + 8;
}
/* A relaxed path visits each (tile, side) state at most once, 2 per state. */
static int cost_cap(int n)
{
    return 8 * n + 8;
}

/* One allocation holds the solver and all its arrays, sized for n tiles. */
static solver *solver_create(int n)
{
    size_t ns = 4 * (size_t)n, qc = (size_t)queue_cap(n), cc = (size_t)cost_cap(n);
    size_t bytes = sizeof(solver) + ns * sizeof(int16_t) + 3 * (size_t)n * sizeof(int16_t) +
                   (cc + 2 * qc) * sizeof(int) + 7 * (size_t)n;
    solver *sv = mr_alloc(1, bytes);
    char *p = (char *)(sv + 1);
    /* ints first, then int16s, then bytes: every array stays aligned */
    sv->head = (int *)(void *)p;
    p += cc * sizeof(int);
    sv->next = (int *)(void *)p;
    p += qc * sizeof(int);
    sv->val = (int *)(void *)p;
    p += qc * sizeof(int);
    sv->hcost = (int16_t *)(void *)p;
    p += ns * sizeof(int16_t);
    sv->cell = (int16_t *)(void *)p;
    p += (size_t)n * sizeof(int16_t);
    sv->gcost = (int16_t *)(void *)p;
    p += (size_t)n * sizeof(int16_t);
    sv->best_cell = (int16_t *)(void *)p;
    p += (size_t)n * sizeof(int16_t);
    sv->exits = (int8_t(*)[2])(void *)p;
    p += 2 * (size_t)n;
    sv->cur = (uint8_t *)p;
    p += (size_t)n;
    sv->used = (uint8_t *)p;
    p += (size_t)n;
    sv->entry = (int8_t *)p;
    p += (size_t)n;
    sv->opt = (int8_t *)p;
    p += (size_t)n;
    sv->best_exit = (int8_t *)p;
    sv->n = n;
    sv->budget = SOLVE_BUDGET;
    return sv;
}

#define H_INF 0x3fff

/* Cost for tile i to join side a to side b, or -1 if its shape cannot. */
static int join_cost(const solver *sv, int i, int a, int b)
{
    int m = sv->cur[i];
    int want = (1 << a) | (1 << b);
    if (is_straight(m) != is_straight(want))
        return -1;
    return rot_cost(m, want);
}

/* The neighbour of cell i across side s, or -1 off the board. */
static int neighbour(const solver *sv, int i, int s)
{
    int x = i % sv->w + side_dx(s), y = i / sv->w + side_dy(s);
    if (x < 0 || y < 0 || x >= sv->w || y >= sv->h)
        return -1;
    return y * sv->w + x;
}

/* Backward Dijkstra (costs 0..2, so buckets) from the End cap. State
 * (i, a): entering tile i through side a; h = cheapest way out through End. */
static void bound(solver *sv)
{
    int ns = sv->n * 4;
    for (int k = 0; k < ns; k++)
        sv->hcost[k] = H_INF;
    int maxc = cost_cap(sv->n), qcap = queue_cap(sv->n);
    int *head = sv->head, *next = sv->next, *val = sv->val;
    int used_slots = 0;
    for (int c = 0; c < maxc; c++)
        head[c] = -1;
#define PUSH(c, s)                                                                                           \
    do {                                                                                                     \
        val[used_slots] = (s);                                                                               \
        next[used_slots] = head[c];                                                                          \
        head[c] = used_slots++;                                                                              \
    } while (0)
    int end = sv->pz->end_row * sv->w + sv->w - 1;
    for (int a = 0; a < 4; a++) {
        if (a == SIDE_E)
            continue;
        int c = join_cost(sv, end, a, SIDE_E);
        if (c >= 0 && c < sv->hcost[end * 4 + a]) {
            sv->hcost[end * 4 + a] = (int16_t)c;
            PUSH(c, end * 4 + a);
        }
    }
    for (int c = 0; c < maxc; c++) {
        while (head[c] >= 0) {
            int slot = head[c];
            head[c] = next[slot];
            int s = val[slot];
            if (sv->hcost[s] != c)
                continue;
            /* predecessors: tile j left through side b into (i, a), so j is
             * i's neighbour across a and b is opposite a */
            int i = s >> 2, a = s & 3;
            int j = neighbour(sv, i, a);
            if (j < 0)
                continue;
            int b = (a + 2) & 3;
            for (int e = 0; e < 4; e++) {
                if (e == b)
                    continue;
                int jc = join_cost(sv, j, e, b);
                if (jc < 0)
                    continue;
                int nc = c + jc;
                if (nc < sv->hcost[j * 4 + e] && nc < maxc && used_slots < qcap) {
                    sv->hcost[j * 4 + e] = (int16_t)nc;
                    PUSH(nc, j * 4 + e);
                }
            }
        }
    }
#undef PUSH
}

/* Fills frame d's exit options for entering cell i through side a. */
static void frame_options(solver *sv, int d)
{
    int i = sv->cell[d], a = sv->entry[d];
    int cand[2], nc = 0;
    if (is_straight(sv->cur[i])) {
        cand[nc++] = (a + 2) & 3;
    } else {
        cand[nc++] = (a + 1) & 3;
        cand[nc++] = (a + 3) & 3;
    }
    int score[2];
    for (int k = 0; k < nc; k++) {
        int b = cand[k];
        int j = neighbour(sv, i, b);
        int c = join_cost(sv, i, a, b);
        int hn = j >= 0 ? sv->hcost[j * 4 + ((b + 2) & 3)]
                        : (i == sv->pz->end_row * sv->w + sv->w - 1 && b == SIDE_E ? 0 : H_INF);
        score[k] = hn >= H_INF ? H_INF : c + hn;
    }
    if (nc == 2 && score[1] < score[0]) {
        int t = cand[0];
        cand[0] = cand[1];
        cand[1] = t;
        t = score[0];
        score[0] = score[1];
        score[1] = t;
    }
    sv->exits[d][0] = (int8_t)(score[0] < H_INF ? cand[0] : -1);
    sv->exits[d][1] = (int8_t)(nc == 2 && score[1] < H_INF ? cand[1] : -1);
    sv->opt[d] = 0;
}

/* Runs the branch and bound; best_len = -1 if no chain exists. */
static void search(solver *sv)
{
    sv->best_len = -1;
    sv->best_cost = H_INF;
    sv->nodes = 0;
    sv->exact = true;
    int start = sv->pz->start_row * sv->w;
    int lower = sv->hcost[start * 4 + SIDE_W];
    if (lower >= H_INF)
        return;
    int end = sv->pz->end_row * sv->w + sv->w - 1;
    memset(sv->used, 0, (size_t)sv->n);
    int d = 0;
    sv->cell[0] = (int16_t)start;
    sv->entry[0] = SIDE_W;
    sv->gcost[0] = 0;
    sv->used[start] = 1;
    frame_options(sv, 0);
    while (d >= 0) {
        if (sv->best_cost <= lower)
            break; /* met the bound: nothing cheaper exists */
        if (++sv->nodes > sv->budget) {
            sv->exact = false;
            break;
        }
        int i = sv->cell[d], a = sv->entry[d];
        int b = sv->opt[d] < 2 ? sv->exits[d][sv->opt[d]] : -1;
        if (b < 0) {
            sv->used[i] = 0;
            d--;
            continue;
        }
        sv->opt[d]++;
        int g = sv->gcost[d] + join_cost(sv, i, a, b);
        int j = neighbour(sv, i, b);
        if (j < 0) {
            if (i == end && b == SIDE_E && g < sv->best_cost) {
                sv->best_cost = g;
                sv->best_len = d + 1;
                for (int k = 0; k < d; k++) {
                    sv->best_cell[k] = sv->cell[k];
                    sv->best_exit[k] = sv->exits[k][sv->opt[k] - 1];
                }
                sv->best_cell[d] = (int16_t)i;
                sv->best_exit[d] = (int8_t)b;
            }
            continue;
        }
        int e = (b + 2) & 3;
        if (sv->used[j] || g + sv->hcost[j * 4 + e] >= sv->best_cost)
            continue;
        d++;
        sv->cell[d] = (int16_t)j;
        sv->entry[d] = (int8_t)e;
        sv->gcost[d] = (int16_t)g;
        sv->used[j] = 1;
        frame_options(sv, d);
    }
}

/* Solves pz from state st (NULL: the start) with a solver made for its
 * tile count. */
static void solver_run(solver *sv, const pz_puzzle *pz, const pz_state *st)
{
    sv->pz = pz;
    sv->w = pz->params.w;
    sv->h = pz->params.h;
    for (int i = 0; i < pz->n; i++)
        sv->cur[i] = (uint8_t)cur_mask(pz, st, i);
    bound(sv);
    search(sv);
}

static solver *solve_board(const pz_puzzle *pz, const pz_state *st)
{
    solver *sv = solver_create(pz->n);
    solver_run(sv, pz, st);
    return sv;
}

/* Writes the rotations of the best chain; returns their count. */
static int chain_moves(const solver *sv, pz_move *out, int max)
{
    int len = 0;
    for (int k = 0; k < sv->best_len; k++) {
        int i = sv->best_cell[k];
        int a = k == 0 ? SIDE_W : (sv->best_exit[k - 1] + 2) & 3;
        int want = (1 << a) | (1 << sv->best_exit[k]);
        int m = sv->cur[i], cw = 0;
        while (rot_cw(m, cw) != want)
            cw++;
        int type = PZ_MOVE_ROTATE_CW, count = cw;
        if (is_straight(m))
            count = cw ? 1 : 0;
        else if (cw == 3) {
            type = PZ_MOVE_ROTATE_CCW;
            count = 1;
        }
        for (int r = 0; r < count; r++, len++)
            if (out && len < max)
                out[len] =
                    (pz_move){.type = (uint8_t)type, .x = (uint16_t)(i % sv->w), .y = (uint16_t)(i / sv->w)};
    }
    return len;
}

static int solve(const pz_puzzle *pz, const pz_state *st, pz_move *out, int max)
{
    if (st && st->solved)
        return 0;
    solver *sv = solve_board(pz, st);
    int len = sv->best_len < 0 ? -1 : chain_moves(sv, out, max);
    free(sv);
    return len;
}

static void fill_grade(const pz_puzzle *pz, const solver *sv, pz_grade *out)
{
    memset(out, 0, sizeof *out);
    out->solutions = -1;
    if (sv->best_len < 0) {
        out->band = -1;
        out->par = -1;
        out->measure = -1;
        snprintf(out->summary, sizeof out->summary, "no chain joins Start to End");
        return;
    }
    out->par = sv->best_cost;
    out->measure = sv->best_cost;
    out->band = band_of(pz->params.w, sv->best_cost);
    snprintf(out->summary, sizeof out->summary, "par %d rotations, chain of %d tiles%s", sv->best_cost,
             sv->best_len, sv->exact ? "" : " (search budget hit: par may be high)");
}

static void grade(const pz_puzzle *pz, pz_grade *out)
{
    pz_state *st = new_state(pz);
    if (st->solved) {
        memset(out, 0, sizeof *out);
        out->solutions = -1;
        out->band = -1;
        snprintf(out->summary, sizeof out->summary, "par 0: already solved");
        free_state(st);
        return;
    }
    free_state(st);
    solver *sv = solve_board(pz, NULL);
    fill_grade(pz, sv, out);
    free(sv);
}

static void progress(const pz_puzzle *pz, const pz_state *st, pz_progress *out)
{
    (void)pz;
    memset(out, 0, sizeof *out);
    out->x = -1;
    out->y = -1;
    out->value = st->lit_count;
    out->solved = st->solved;
}

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
        pz->mask[i] = tile_masks[rng_below(r, 6)];
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
static bool nudge(rng_t *r, pz_puzzle *pz, const solver *sv, bool harder, int count)
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
static pz_puzzle *generate(const pz_params *p, uint64_t seed, const char **err)
{
    const char *why = validate_params(p);
    if (why) {
        if (err)
            *err = why;
        return NULL;
    }
    static const int pulls[PZ_DIFF_COUNT] = {90, 60, 25};
    rng_t r;
    rng_seed(&r, pipes_stream_seed(p, seed));
    pz_puzzle *pz = puzzle_alloc(p);
    uint8_t *seen = mr_alloc((size_t)pz->n, 1);
    int16_t *path = mr_alloc((size_t)pz->n, sizeof *path);
    solver *sv = solver_create(pz->n);
    sv->budget = GEN_BUDGET;
    bool ok = false;
    int solves = 0;
    for (int t = 0; t < GEN_DRAWS && !ok && solves < GEN_SOLVES; t++) {
        if (!draw(&r, pz, pulls[p->diff], seen, path))
            continue;
        for (int step = 0; step <= GEN_NUDGES && solves < GEN_SOLVES; step++) {
            solver_run(sv, pz, NULL);
            solves++;
            if (!sv->exact || sv->best_len <= 0)
                break;
            int band = band_of(p->w, sv->best_cost);
            if (band == p->diff) {
                ok = true;
                break;
            }
            /* Turning as many tiles as par is away from the band's near edge
             * cannot overshoot it (see nudge). */
            int lo, hi;
            band_range(p->w, p->diff, &lo, &hi);
            bool harder = band < p->diff;
            int gap = harder ? lo - sv->best_cost : sv->best_cost - hi;
            if (step == GEN_NUDGES || !nudge(&r, pz, sv, harder, gap))
                break;
        }
    }
    free(sv);
    free(seen);
    free(path);
    if (!ok) {
        free(pz);
        if (err)
            *err = "could not make a pipes board of that difficulty at that size; try another size";
        return NULL;
    }
    return pz;
}

/* ---- description: "<start row>.<end row>.<tiles>" ----
 * Tiles row by row, two per character: 6 * first + second as a base-36 digit
 * (0-9 a-z); an odd last tile stands alone as 6 * tile. */

static const char digits36[] = "0123456789abcdefghijklmnopqrstuvwxyz";

static char *encode_desc(const pz_puzzle *pz)
{
    size_t cap = 32 + (size_t)pz->n / 2 + 1;
    char *s = mr_alloc(cap, 1);
    int k = snprintf(s, cap, "%d.%d.", pz->start_row, pz->end_row);
    for (int i = 0; i < pz->n; i += 2) {
        int a = tile_index(pz->mask[i]);
        int b = i + 1 < pz->n ? tile_index(pz->mask[i + 1]) : 0;
        s[k++] = digits36[a * 6 + b];
    }
    s[k] = '\0';
    return s;
}

/* Reads a row number with no leading zeros ending at `stop`; -1 if bad. */
static int read_row(const char **p, char stop)
{
    const char *s = *p;
    int v = 0, nd = 0;
    while (*s >= '0' && *s <= '9' && nd < 4) {
        v = v * 10 + (*s - '0');
        s++;
        nd++;
    }
    if (nd == 0 || *s != stop || (nd > 1 && **p == '0'))
        return -1;
    *p = s + 1;
    return v;
}

/* Refuses boards whose par cannot be worked out exactly (see SOLVE_BUDGET)
 * or that have no chain at all: a race on them would be meaningless. */
static const char *check_solvable(const pz_puzzle *pz)
{
    pz_state *st = new_state(pz);
    bool solved = st->solved;
    free_state(st);
    if (solved)
        return NULL;
    solver *sv = solve_board(pz, NULL);
    const char *why = NULL;
    if (sv->best_len < 0 && sv->exact)
        why = "no rotation of these tiles joins Start to End";
    else if (!sv->exact)
        why = "board too intricate to check within the solver's budget";
    free(sv);
    return why;
}

/* Reads the tile characters of a description into pz->mask. */
static const char *decode_tiles(pz_puzzle *pz, const char *s)
{
    if (strlen(s) != (size_t)(pz->n + 1) / 2)
        return "description has the wrong number of tile characters for this size";
    for (int k = 0; s[k]; k++) {
        const char *d = memchr(digits36, s[k], 36);
        int v = d ? (int)(d - digits36) : -1;
        if (v < 0)
            return "description tiles must be digits 0-9 and lower-case letters";
        if (2 * k + 1 == pz->n && v % 6 != 0)
            return "description's last tile character is not canonical";
        pz->mask[2 * k] = tile_masks[v / 6];
        if (2 * k + 1 < pz->n)
            pz->mask[2 * k + 1] = tile_masks[v % 6];
    }
    return NULL;
}

static pz_puzzle *decode_desc(const pz_params *p, const char *desc, const char **err)
{
    if (!p || !desc) {
        if (err)
            *err = "no description";
        return NULL;
    }
    const char *why = check_size(p->w, p->h);
    if (why) {
        if (err)
            *err = why;
        return NULL;
    }
    const char *s = desc;
    pz_puzzle *pz = puzzle_alloc(p);
    pz->start_row = read_row(&s, '.');
    pz->end_row = pz->start_row < 0 ? -1 : read_row(&s, '.');
    if (pz->start_row < 0 || pz->start_row >= p->h)
        why = "description must start with the Start row (0..h-1) and a '.'";
    else if (pz->end_row < 0 || pz->end_row >= p->h)
        why = "description needs the End row (0..h-1) and a '.' after the Start row";
    else
        why = decode_tiles(pz, s);
    if (!why)
        why = check_solvable(pz);
    if (why) {
        free(pz);
        if (err)
            *err = why;
        return NULL;
    }
    return pz;
}

/* ---- text form ----
 * One line per row: a cap column, w tiles, a cap column. Caps: 'S' (Start,
 * left column, once), 'E' (End, right column, once), '.' elsewhere. Tiles:
 * | - L F 7 J (openings N+S, E+W, N+E, E+S, S+W, W+N). */

static char *format_text(const pz_puzzle *pz)
{
    int w = pz->params.w, h = pz->params.h;
    size_t line = (size_t)w + 3;
    char *s = mr_alloc(line * (size_t)h + 1, 1);
    char *o = s;
    for (int y = 0; y < h; y++) {
        *o++ = y == pz->start_row ? 'S' : '.';
        for (int x = 0; x < w; x++)
            *o++ = tile_letters[tile_index(pz->mask[y * w + x])];
        *o++ = y == pz->end_row ? 'E' : '.';
        *o++ = '\n';
    }
    *o = '\0';
    return s;
}

static pz_puzzle *parse_text(const char *text, size_t len, pz_error *err)
{
    if (!text) {
        pz_error_set(err, 1, 1, "no text");
        return NULL;
    }
    /* First pass: line lengths, so the board size is known. */
    int rows = 0, width = -1;
    size_t pos = 0;
    while (pos < len) {
        size_t eol = pos;
        while (eol < len && text[eol] != '\n')
            eol++;
        size_t n = eol;
        if (n > pos && text[n - 1] == '\r')
            n--;
        int lw = (int)(n - pos > 1000 ? 1000 : n - pos);
        if (lw == 0) {
            /* only trailing blank lines may follow the board */
            size_t q = eol;
            while (q < len && (text[q] == '\n' || text[q] == '\r'))
                q++;
            if (q < len || rows == 0) {
                pz_error_set(err, rows + 1, 1,
                             rows == 0 ? "empty line: expected a row of tiles"
                                       : "blank line inside the board");
                return NULL;
            }
            break;
        }
        if (width < 0)
            width = lw;
        else if (lw != width) {
            pz_error_set(err, rows + 1, lw < width ? lw + 1 : width + 1,
                         "every row must be %d characters long (cap, %d tiles, cap)", width, width - 2);
            return NULL;
        }
        rows++;
        if (rows > PIPES_MAX_H) {
            pz_error_set(err, rows, 1, "too many rows: pipes boards are at most %d rows", PIPES_MAX_H);
            return NULL;
        }
        pos = eol + 1;
    }
    if (rows == 0) {
        pz_error_set(err, 1, 1, "empty text: expected rows of tiles");
        return NULL;
    }
    int w = width - 2, h = rows;
    if (w < PIPES_MIN_W || w > PIPES_MAX_W) {
        /* point at the cap that came too early, or the first tile too many */
        pz_error_set(err, 1, w < PIPES_MIN_W ? width : PIPES_MAX_W + 2,
                     "rows must hold %d to %d tiles between the cap columns", PIPES_MIN_W, PIPES_MAX_W);
        return NULL;
    }
    if (h < PIPES_MIN_H) {
        pz_error_set(err, h + 1, 1, "pipes boards have at least %d rows", PIPES_MIN_H);
        return NULL;
    }
    pz_params p = {.kind = PZ_PIPES, .w = w, .h = h, .diff = PZ_MEDIUM};
    pz_puzzle *pz = puzzle_alloc(&p);
    pz->start_row = pz->end_row = -1;
    pos = 0;
    for (int y = 0; y < h; y++) {
        const char *row = text + pos;
        for (int c = 0; c < width; c++) {
            char ch = row[c];
            const char *why = NULL;
            if (c == 0 || c == width - 1) {
                char cap = c == 0 ? 'S' : 'E';
                int *slot = c == 0 ? &pz->start_row : &pz->end_row;
                if (ch == cap) {
                    if (*slot >= 0)
                        why = c == 0 ? "a second Start cap 'S': there must be exactly one"
                                     : "a second End cap 'E': there must be exactly one";
                    else
                        *slot = y;
                } else if (ch != '.')
                    why = c == 0 ? "left cap column holds 'S' (Start) or '.'"
                                 : "right cap column holds 'E' (End) or '.'";
            } else {
                const char *t = memchr(tile_letters, ch, 6);
                if (!t || ch == '\0')
                    why = "expected a tile: one of | - L F 7 J";
                else
                    pz->mask[y * w + c - 1] = tile_masks[t - tile_letters];
            }
            if (why) {
                pz_error_set(err, y + 1, c + 1, "%s", why);
                free(pz);
                return NULL;
            }
        }
        while (pos < len && text[pos] != '\n')
            pos++;
        pos++;
    }
    if (pz->start_row < 0 || pz->end_row < 0) {
        bool no_start = pz->start_row < 0;
        pz_error_set(err, 1, no_start ? 1 : width,
                     no_start ? "no Start cap: put 'S' in the left column of one row"
                              : "no End cap: put 'E' in the right column of one row");
        free(pz);
        return NULL;
    }
    const char *why = check_solvable(pz);
    if (why) {
        pz_error_set(err, pz->start_row + 1, 1, "%s", why);
        free(pz);
        return NULL;
    }
    return pz;
}

/* ---- accessors (pipes.h) ---- */

int pipes_tile(const pz_puzzle *pz, const pz_state *st, int x, int y)
{
    if (!pz || x < 0 || y < 0 || x >= pz->params.w || y >= pz->params.h)
        return 0;
    return cur_mask(pz, st, y * pz->params.w + x);
}

int pipes_turns(const pz_state *st, int x, int y)
{
    if (!st || x < 0 || y < 0 || x >= st->w || y >= st->h)
        return 0;
    return cturns_of(st)[y * st->w + x];
}

int pipes_start_row(const pz_puzzle *pz)
{
    return pz ? pz->start_row : -1;
}

int pipes_end_row(const pz_puzzle *pz)
{
    return pz ? pz->end_row : -1;
}

bool pipes_connected(const pz_puzzle *pz, const pz_state *st, int x, int y)
{
    if (!pz || !st || x < 0 || y < 0 || x >= pz->params.w || y >= pz->params.h)
        return false;
    return clit_of(st)[y * pz->params.w + x] != 0;
}

const pz_kind pz_kind_pipes = {
    .name = "pipes",
    .title = "Rotating pipes",
    .id = PZ_PIPES,
    .default_w = 6,
    .default_h = 4,
    .min_w = PIPES_MIN_W,
    .min_h = PIPES_MIN_H,
    .max_w = PIPES_MAX_W,
    .max_h = PIPES_MAX_H,
    .validate_params = validate_params,
    .generate = generate,
    .free_puzzle = free_puzzle,
    .encode_desc = encode_desc,
    .decode_desc = decode_desc,
    .format_text = format_text,
    .parse_text = parse_text,
    .new_state = new_state,
    .copy_state = copy_state,
    .free_state = free_state,
    .execute_move = execute_move,
    .is_solved = is_solved,
    .solve = solve,
    .grade = grade,
    .progress = progress,
};
