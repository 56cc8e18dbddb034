/* render_pipes.c: draws a rotating-pipes board: tiles, water from the Start
 * cap, the End cap and the player's cursor. */
#include "cl_draw.h"
#include "cl_render.h"
#include "pipes.h"

static void pipe_arms(SDL_Renderer *r, int px, int py, int c, int mask, int pw, SDL_Color col)
{
    int cx = px + c / 2, cy = py + c / 2;
    cl_rects_begin(r, col);
    cl_rects_add(cx - pw / 2, cy - pw / 2, pw, pw);
    if (mask & PIPES_N)
        cl_rects_add(cx - pw / 2, py, pw, c / 2);
    if (mask & PIPES_S)
        cl_rects_add(cx - pw / 2, cy, pw, c - c / 2);
    if (mask & PIPES_W)
        cl_rects_add(px, cy - pw / 2, c / 2, pw);
    if (mask & PIPES_E)
        cl_rects_add(cx, cy - pw / 2, c - c / 2, pw);
    cl_rects_flush();
}

static void draw(SDL_Renderer *r, cl_text *t, const cl_view *v, const pz_puzzle *pz, const pz_state *st)
{
    (void)t;
    int c = v->cell;
    int gap = c >= 20 ? 1 : 0;
    int pw = c / 4 < 2 ? 2 : c / 4;
    SDL_Color tile = v->ghost ? cl_color_mix(cl_col_panel_hi, cl_col_panel, 100) : cl_col_panel_hi;
    cl_rects_begin(r, tile);
    for (int y = v->y0; y < v->y1; y++)
        for (int x = v->x0; x < v->x1; x++)
            cl_rects_add(v->ox + x * c + gap, v->oy + y * c + gap, c - 2 * gap, c - 2 * gap);
    cl_rects_flush();
    for (int y = v->y0; y < v->y1; y++)
        for (int x = v->x0; x < v->x1; x++) {
            int m = pipes_tile(pz, st, x, y);
            bool wet = pipes_connected(pz, st, x, y);
            pipe_arms(r, v->ox + x * c, v->oy + y * c, c, m, pw, wet ? cl_col_water : cl_col_pipe);
        }
    /* Caps sit just outside the board, at the rows the pipe enters and leaves. */
    int sr = pipes_start_row(pz), er = pipes_end_row(pz);
    int cap = c / 3 < 3 ? 3 : c / 3;
    cl_draw_fill(r, v->ox - cap, v->oy + sr * c + c / 2 - pw, cap, 2 * pw, cl_col_water);
    bool done = pipes_connected(pz, st, v->w - 1, er) && (pipes_tile(pz, st, v->w - 1, er) & PIPES_E);
    cl_draw_fill(r, v->ox + v->w * c, v->oy + er * c + c / 2 - pw, cap, 2 * pw, done ? cl_col_water : cl_col_good);
    if (v->cursor && v->cur_x >= v->x0 && v->cur_x < v->x1 && v->cur_y >= v->y0 && v->cur_y < v->y1) {
        SDL_Rect k = cl_view_cell_rect(v, v->cur_x, v->cur_y);
        int th = c >= 30 ? 4 : 2;
        cl_draw_frame(r, k.x, k.y, k.w, k.h, th, cl_col_player[v->slot & 1]);
        /* The slot's shape in the corner: the cursor is not colour alone. */
        if (c >= 16)
            cl_draw_marker(r, v->slot, (float)k.x + c * 0.18f, (float)k.y + c * 0.18f, c * 0.12f, v->ghost);
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

const cl_kind_render cl_render_pipes = {28, draw, pointer};
