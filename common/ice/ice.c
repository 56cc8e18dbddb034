/* ice.c: the ice puzzle kind (Sliding ice): board, moves, solver, grading and accessors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ice.h"
#include "ice_impl.h"
#include "util.h"

pz_puzzle *ice_alloc(int w, int h)
{
    int rw = (w + 63) / 64, cw = (h + 63) / 64;
    size_t words = (size_t)h * (size_t)rw + (size_t)w * (size_t)cw;
    pz_puzzle *pz = mr_alloc(1, sizeof *pz + words * sizeof(uint64_t));
    pz->w = w;
    pz->h = h;
    pz->rw = rw;
    pz->cw = cw;
    pz->rows = pz->bits;
    pz->cols = pz->bits + (size_t)h * (size_t)rw;
    pz->params.kind = PZ_ICE;
    pz->params.w = w;
    pz->params.h = h;
    return pz;
}

void ice_set_boulder(pz_puzzle *pz, int x, int y, bool on)
{
    uint64_t rb = 1ull << (x & 63), cb = 1ull << (y & 63);
    uint64_t *r = &pz->rows[(size_t)y * pz->rw + (x >> 6)];
    uint64_t *c = &pz->cols[(size_t)x * pz->cw + (y >> 6)];
    if (on) {
        *r |= rb;
        *c |= cb;
    } else {
        *r &= ~rb;
        *c &= ~cb;
    }
}

int ice_band_of(int moves)
{
    if (moves >= ICE_EASY_LO && moves <= ICE_EASY_HI)
        return PZ_EASY;
    if (moves >= ICE_MEDIUM_LO && moves <= ICE_MEDIUM_HI)
        return PZ_MEDIUM;
    if (moves >= ICE_HARD_LO)
        return PZ_HARD;
    return -1;
}

/* Breadth-first search over stopping cells from (fx, fy) until the exit.
 * With parent/pdir (cells long) it records how each cell was first reached,
 * for solve. Returns the minimum number of moves or -1. */
static int bfs(const pz_puzzle *pz, int fx, int fy, int32_t *parent, uint8_t *pdir)
{
    int w = pz->w, cells = w * pz->h;
    int goal = pz->ex; /* cell index of (ex, 0) */
    int from = fy * w + fx;
    if (from == goal)
        return 0;
    uint64_t *seen = mr_alloc((size_t)(cells + 63) / 64, sizeof *seen);
    int32_t *queue = mr_alloc((size_t)cells, sizeof *queue);
    int head = 0, tail = 0, depth = 0, layer_end = 1, found = -1;
    queue[tail++] = from;
    seen[from >> 6] |= 1ull << (from & 63);
    while (head < tail && found < 0) {
        if (head == layer_end) {
            depth++;
            layer_end = tail;
        }
        int u = queue[head++], ux = u % w, uy = u / w;
        for (int d = 0; d < PZ_DIR_COUNT && found < 0; d++) {
            int s = ice_slide_to(pz, ux, uy, d);
            int v = (d == PZ_UP || d == PZ_DOWN) ? s * w + ux : uy * w + s;
            if (v == u || (seen[v >> 6] >> (v & 63)) & 1)
                continue;
            seen[v >> 6] |= 1ull << (v & 63);
            queue[tail++] = v;
            if (parent) {
                parent[v] = u;
                pdir[v] = (uint8_t)d;
            }
            if (v == goal)
                found = depth + 1;
        }
    }
    free(seen);
    free(queue);
    return found;
}

int ice_min_moves(const pz_puzzle *pz, int x, int y)
{
    return bfs(pz, x, y, NULL, NULL);
}

static void free_puzzle(pz_puzzle *pz)
{
    free(pz);
}

static pz_state *new_state(const pz_puzzle *pz)
{
    pz_state *st = mr_alloc(1, sizeof *st);
    st->x = pz->sx;
    st->y = pz->h - 1;
    return st;
}

static void copy_state(pz_state *dst, const pz_state *src)
{
    *dst = *src;
}

static void free_state(pz_state *st)
{
    free(st);
}

static bool is_solved(const pz_puzzle *pz, const pz_state *st)
{
    return st->y == 0 && st->x == pz->ex;
}

/* Any bit pattern may come from the network: every field is checked. A
 * slide that would not move is refused rather than counted, as a player
 * bumping into a boulder expects nothing to happen. */
static const char *execute_move(const pz_puzzle *pz, const pz_state *from, pz_move mv, pz_state *to)
{
    if (mv.type == PZ_MOVE_RESTART) {
        if (mv.dir != 0 || mv.x != 0 || mv.y != 0)
            return "a restart takes no direction or coordinates";
        if (is_solved(pz, from))
            return "puzzle already solved";
        if (from->x == pz->sx && from->y == pz->h - 1)
            return "already at the start";
        to->x = pz->sx;
        to->y = pz->h - 1;
        return NULL;
    }
    if (mv.type != PZ_MOVE_STEP)
        return "ice moves are slides (step moves with a direction)";
    if (mv.dir >= PZ_DIR_COUNT)
        return "direction must be up, down, left or right";
    if (mv.x != 0 || mv.y != 0)
        return "an ice slide takes no coordinates (x and y must be 0)";
    if (is_solved(pz, from))
        return "puzzle already solved";
    int x = from->x, y = from->y;
    int s = ice_slide_to(pz, x, y, mv.dir);
    if (mv.dir == PZ_UP || mv.dir == PZ_DOWN)
        y = s;
    else
        x = s;
    if (x == from->x && y == from->y)
        return "blocked: nothing to slide into that way";
    to->x = x;
    to->y = y;
    return NULL;
}

static int solve(const pz_puzzle *pz, const pz_state *st, pz_move *out, int max)
{
    int fx = st ? st->x : pz->sx, fy = st ? st->y : pz->h - 1;
    int cells = pz->w * pz->h;
    int32_t *parent = mr_alloc((size_t)cells, sizeof *parent);
    uint8_t *pdir = mr_alloc((size_t)cells, 1);
    int n = bfs(pz, fx, fy, parent, pdir);
    int lead = 0; /* moves before the slides: a restart out of a trap */
    if (n < 0 && (fx != pz->sx || fy != pz->h - 1)) {
        fx = pz->sx;
        fy = pz->h - 1;
        n = bfs(pz, fx, fy, parent, pdir);
        if (n >= 0) {
            if (max > 0) {
                memset(&out[0], 0, sizeof out[0]);
                out[0].type = PZ_MOVE_RESTART;
            }
            lead = 1;
            out++;
            max--;
        }
    }
    if (n > 0) {
        int v = pz->ex, from = fy * pz->w + fx;
        for (int i = n - 1; i >= 0 && v != from; i--) {
            if (i < max) {
                memset(&out[i], 0, sizeof out[i]);
                out[i].type = PZ_MOVE_STEP;
                out[i].dir = pdir[v];
            }
            v = parent[v];
        }
    }
    free(parent);
    free(pdir);
    return n < 0 ? n : n + lead;
}

static void grade(const pz_puzzle *pz, pz_grade *out)
{
    /* Measured by the BFS that built the puzzle (generation, or the
     * reachability check of a description or text form). */
    int n = pz->moves;
    memset(out, 0, sizeof *out);
    out->band = n < 0 ? -1 : ice_band_of(n);
    out->measure = n;
    out->par = n;
    out->solutions = -1;
    if (n < 0)
        snprintf(out->summary, sizeof out->summary, "exit unreachable");
    else
        snprintf(out->summary, sizeof out->summary, "min moves %d (%s)", n,
                 out->band == PZ_EASY     ? "easy"
                 : out->band == PZ_MEDIUM ? "medium"
                 : out->band == PZ_HARD   ? "hard"
                                          : "in no band");
}

static void progress(const pz_puzzle *pz, const pz_state *st, pz_progress *out)
{
    memset(out, 0, sizeof *out);
    out->x = st->x;
    out->y = st->y;
    out->solved = is_solved(pz, st);
}

/* ---- accessors (ice.h) ---- */

char ice_cell(const pz_puzzle *pz, int x, int y)
{
    if (x < 0 || y < 0 || x >= pz->w || y >= pz->h)
        return 'O';
    if (y == pz->h - 1 && x == pz->sx)
        return 's';
    if (y == 0 && x == pz->ex)
        return 'e';
    return ice_boulder(pz, x, y) ? 'O' : '.';
}

void ice_start(const pz_puzzle *pz, int *x, int *y)
{
    *x = pz->sx;
    *y = pz->h - 1;
}

void ice_exit(const pz_puzzle *pz, int *x, int *y)
{
    *x = pz->ex;
    *y = 0;
}

void ice_pos(const pz_state *st, int *x, int *y)
{
    *x = st->x;
    *y = st->y;
}

void ice_slide(const pz_puzzle *pz, int x, int y, int dir, int *ox, int *oy)
{
    *ox = x;
    *oy = y;
    if (dir < 0 || dir >= PZ_DIR_COUNT || ice_cell(pz, x, y) == 'O')
        return;
    int s = ice_slide_to(pz, x, y, dir);
    if (dir == PZ_UP || dir == PZ_DOWN)
        *oy = s;
    else
        *ox = s;
}

const pz_kind pz_kind_ice = {
    .name = "ice",
    .title = "Sliding ice",
    .id = PZ_ICE,
    .default_w = 25,
    .default_h = 20,
    .min_w = 3,
    .min_h = 3,
    .max_w = 384,
    .max_h = 384,
    /* No checks beyond the size limits above: which sizes each band can be
     * generated on is checked by generate (see ice_gen.c). */
    .validate_params = NULL,
    .generate = ice_generate,
    .free_puzzle = free_puzzle,
    .encode_desc = ice_encode_desc,
    .decode_desc = ice_decode_desc,
    .format_text = ice_format_text,
    .parse_text = ice_parse_text,
    .new_state = new_state,
    .copy_state = copy_state,
    .free_state = free_state,
    .execute_move = execute_move,
    .is_solved = is_solved,
    .solve = solve,
    .grade = grade,
    .progress = progress,
};
