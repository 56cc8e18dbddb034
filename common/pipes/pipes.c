/* pipes.c: the rotating-pipes kind: rules, bands, puzzle and state lifetime, moves, accessors, kind table. */
#include "pipes.h"

#include <stdlib.h>
#include <string.h>

#include "pipes_impl.h"
#include "util.h"

/* The six tiles, in the order of the text letters and description digits. */
const uint8_t pipes_tile_masks[6] = {
    MASK_NS,           /* '|' */
    MASK_EW,           /* '-' */
    PIPES_N | PIPES_E, /* 'L' */
    PIPES_E | PIPES_S, /* 'F' */
    PIPES_S | PIPES_W, /* '7' */
    PIPES_W | PIPES_N, /* 'J' */
};

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

int pipes_band_of(int w, int par)
{
    int e, m;
    band_limits(w, &e, &m);
    if (par < 1)
        return -1;
    return par <= e ? PZ_EASY : par <= m ? PZ_MEDIUM : PZ_HARD;
}

/* Par range [lo, hi] of band diff on a board w wide (hard: hi is huge). */
void pipes_band_range(int w, int diff, int *lo, int *hi)
{
    int e, m;
    band_limits(w, &e, &m);
    *lo = diff == PZ_EASY ? 1 : diff == PZ_MEDIUM ? e + 1 : m + 1;
    *hi = diff == PZ_EASY ? e : diff == PZ_MEDIUM ? m : 1 << 20;
}

const char *pipes_check_size(int w, int h)
{
    if (w < PIPES_MIN_W || h < PIPES_MIN_H)
        return "pipes boards are at least " STR(PIPES_MIN_W) "x" STR(PIPES_MIN_H);
    if (w > PIPES_MAX_W || h > PIPES_MAX_H)
        return "pipes boards are at most " STR(PIPES_MAX_W) "x" STR(PIPES_MAX_H);
    return NULL;
}

const char *pipes_validate_params(const pz_params *p)
{
    if (p->kind != PZ_PIPES)
        return "not a pipes puzzle";
    const char *why = pipes_check_size(p->w, p->h);
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

pz_puzzle *pipes_alloc(const pz_params *p)
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

pz_state *pipes_new_state(const pz_puzzle *pz)
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

void pipes_free_state(pz_state *st)
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
    .validate_params = pipes_validate_params,
    .generate = pipes_generate,
    .free_puzzle = free_puzzle,
    .encode_desc = pipes_encode_desc,
    .decode_desc = pipes_decode_desc,
    .format_text = pipes_format_text,
    .parse_text = pipes_parse_text,
    .new_state = pipes_new_state,
    .copy_state = copy_state,
    .free_state = pipes_free_state,
    .execute_move = execute_move,
    .is_solved = is_solved,
    .solve = pipes_solve,
    .grade = pipes_grade,
    .progress = pipes_progress,
};
