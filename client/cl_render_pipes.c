/* cl_render_pipes.c: draws a rotating-pipes board: tiles, water from the Start
 * cap, the End cap and the player's cursor. */
#include <stdlib.h>
#include <string.h>

#include "cl_draw.h"
#include "cl_render.h"
#include "pipes.h"
#include "util.h"

/* Adds one tile's pipe to the current rect batch. */
static void pipe_arms(int px, int py, int c, int mask, int pw)
{
    int cx = px + c / 2, cy = py + c / 2;
    cl_rects_add(cx - pw / 2, cy - pw / 2, pw, pw);
    if (mask & PIPES_N)
        cl_rects_add(cx - pw / 2, py, pw, c / 2);
    if (mask & PIPES_S)
        cl_rects_add(cx - pw / 2, cy, pw, c - c / 2);
    if (mask & PIPES_W)
        cl_rects_add(px, cy - pw / 2, c / 2, pw);
    if (mask & PIPES_E)
        cl_rects_add(cx, cy - pw / 2, c - c / 2, pw);
}

/* Which tiles water reaches from the Start cap: one flood over the masks
 * per draw (the accessor's per-tile query would flood once per tile). The
 * buffers grow to the largest board seen and are kept. */
static unsigned char *wet;
static int *queue;
static size_t wet_cap;

static void flood(const pz_puzzle *pz, const pz_state *st, int w, int h)
{
    size_t n = (size_t)w * (size_t)h;
    if (n > wet_cap) {
        free(wet);
        free(queue);
        wet = mr_alloc(n, 1);
        queue = mr_alloc(n, sizeof *queue);
        wet_cap = n;
    }
    memset(wet, 0, n);
    int sr = pipes_start_row(pz);
    if (sr < 0 || sr >= h || !(pipes_tile(pz, st, 0, sr) & PIPES_W))
        return;
    int head = 0, tail = 0;
    wet[(size_t)sr * (size_t)w] = 1;
    queue[tail++] = sr * w;
    static const int bit[4] = {PIPES_N, PIPES_S, PIPES_W, PIPES_E},
                     back[4] = {PIPES_S, PIPES_N, PIPES_E, PIPES_W};
    static const int dx[4] = {0, 0, -1, 1}, dy[4] = {-1, 1, 0, 0};
    while (head < tail) {
        int i = queue[head++], x = i % w, y = i / w;
        int m = pipes_tile(pz, st, x, y);
        for (int d = 0; d < 4; d++) {
            int nx = x + dx[d], ny = y + dy[d];
            if (!(m & bit[d]) || nx < 0 || ny < 0 || nx >= w || ny >= h)
                continue;
            int j = ny * w + nx;
            if (!wet[j] && (pipes_tile(pz, st, nx, ny) & back[d])) {
                wet[j] = 1;
                queue[tail++] = j;
            }
        }
    }
}

/* The thin lines between tiles: darker than the tiles, so every tile reads
 * as one square at any size. */
static void grid(SDL_Renderer *r, const cl_view *v, int bx, int by, int bw, int bh)
{
    int c = v->cell, lw = c >= 20 ? 2 : 1;
    cl_rects_begin(r, cl_col_bg);
    for (int x = v->x0; x <= v->x1; x++)
        cl_rects_add(v->ox + x * c - lw / 2, by, lw, bh);
    for (int y = v->y0; y <= v->y1; y++)
        cl_rects_add(bx, v->oy + y * c - lw / 2, bw, lw);
    cl_rects_flush();
}

/* Start and End caps: a block as tall as the row (at least 8 px), a cell
 * wide (at least 16 px) where the margin beside the board allows, outlined
 * so it shows on any background. */
static void cap(SDL_Renderer *r, int x, int y, int w, int h, SDL_Color c)
{
    cl_draw_fill(r, x, y, w, h, c);
    cl_draw_frame(r, x, y, w, h, 1, cl_col_text);
}

static void draw_caps(SDL_Renderer *r, const cl_view *v, const pz_puzzle *pz, const pz_state *st)
{
    int c = v->cell;
    int sr = pipes_start_row(pz), er = pipes_end_row(pz);
    int room = v->ox - v->area.x - 1;
    int want = c < 16 ? 16 : c;
    int cw = want < room ? want : room;
    if (cw < 6)
        cw = 6;
    int ch = c < 8 ? 8 : c;
    cap(r, v->ox - cw, v->oy + sr * c + (c - ch) / 2, cw, ch, cl_col_water);
    bool done = er >= 0 && er < v->h && wet[(size_t)er * (size_t)v->w + (size_t)(v->w - 1)] &&
                (pipes_tile(pz, st, v->w - 1, er) & PIPES_E);
    cap(r, v->ox + v->w * c, v->oy + er * c + (c - ch) / 2, cw, ch, done ? cl_col_water : cl_col_good);
}

static void draw(SDL_Renderer *r, cl_text *t, const cl_view *v, const pz_puzzle *pz, const pz_state *st)
{
    (void)t;
    int c = v->cell;
    int pw = c / 4 < 3 ? 3 : c / 4;
    if (pw > c / 2)
        pw = c / 2 < 1 ? 1 : c / 2;
    SDL_Color tile = v->ghost ? cl_color_mix(cl_col_panel_hi, cl_col_panel, 100) : cl_col_panel_hi;
    /* One fill for the tiles, then the grid lines between them: far fewer
     * pixels than a rect per tile. */
    int bx = v->ox + v->x0 * c, by = v->oy + v->y0 * c, bw = (v->x1 - v->x0) * c, bh = (v->y1 - v->y0) * c;
    cl_draw_fill(r, bx, by, bw, bh, tile);
    if (c >= 6)
        grid(r, v, bx, by, bw, bh);
    flood(pz, st, v->w, v->h);
    /* Two batches: dry pipes, then the ones water reaches. */
    for (int pass = 0; pass < 2; pass++) {
        cl_rects_begin(r, pass ? cl_col_water : cl_col_pipe);
        for (int y = v->y0; y < v->y1; y++)
            for (int x = v->x0; x < v->x1; x++)
                if (wet[(size_t)y * (size_t)v->w + (size_t)x] == pass)
                    pipe_arms(v->ox + x * c, v->oy + y * c, c, pipes_tile(pz, st, x, y), pw);
        cl_rects_flush();
    }
    draw_caps(r, v, pz, st);
    if (v->cursor && v->cur_x >= v->x0 && v->cur_x < v->x1 && v->cur_y >= v->y0 && v->cur_y < v->y1) {
        /* A thick yellow frame reaching past the tile, the player's colour
         * inside it, and the slot's shape in the corner: found at a glance
         * and not by colour alone. */
        SDL_Rect k = cl_view_cell_rect(v, v->cur_x, v->cur_y);
        int th = c / 6 < 4 ? 4 : c / 6 > 8 ? 8 : c / 6, in = th - th / 2;
        cl_draw_frame(r, k.x - th / 2, k.y - th / 2, k.w + th, k.h + th, th, cl_col_accent);
        cl_draw_frame(r, k.x + in, k.y + in, k.w - 2 * in, k.h - 2 * in, th / 2, cl_col_player[v->slot & 1]);
        if (c >= 16)
            cl_draw_marker(r, v->slot, (float)k.x + c * 0.22f, (float)k.y + c * 0.22f, c * 0.12f, v->ghost);
    }
}

static bool pointer(const pz_puzzle *pz, const pz_state *st, int cx, int cy, int button, bool drag,
                    pz_move *out)
{
    (void)pz;
    (void)st;
    if (drag || (button != 1 && button != 3))
        return false;
    out->type = button == 1 ? PZ_MOVE_ROTATE_CW : PZ_MOVE_ROTATE_CCW;
    out->dir = 0;
    out->x = (uint16_t)cx;
    out->y = (uint16_t)cy;
    return true;
}

/* Cells shrink to 14 px before the camera scrolls: a 40x40 board (the
 * largest) then fits a 1280x720 window whole, so both caps stay in view. */
const cl_kind_render cl_render_pipes = {14, draw, pointer};
