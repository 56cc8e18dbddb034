/* render_sum.c: draws a number-path board: values, the traced path, Start,
 * and the End cell with the target and the player's running sum. */
#include <stdio.h>

#include "cl_draw.h"
#include "cl_render.h"
#include "sum.h"

/* How far a path joint may reach into cell (x, y) from its edge: up to the
 * margin beside the number drawn there (across for a sideways joint, above
 * or below for an upright one), and never past a sixth of the cell. End's
 * joints stay in the gap: its target and sum fill the cell. */
static int reach(cl_text *t, const cl_view *v, const pz_puzzle *pz, int x, int y, bool sideways, int bar,
                 int gap, bool text, bool end)
{
    int c = v->cell, most = c / 6;
    if (end)
        return gap + 1;
    if (text) {
        char buf[24];
        snprintf(buf, sizeof buf, "%d", sum_value(pz, x, y));
        int span = sideways ? cl_text_width(t, v->font, buf) : cl_text_size(t, v->font) * 3 / 4;
        int margin = (c - span) / 2 - bar / 2 - c / 14 - 1;
        if (margin < most)
            most = margin;
    }
    return most < gap + 1 ? gap + 1 : most;
}

static void draw(SDL_Renderer *r, cl_text *t, const cl_view *v, const pz_puzzle *pz, const pz_state *st)
{
    int c = v->cell;
    int gap = c >= 24 ? c / 16 + 1 : 0;
    int sx, sy, ex, ey;
    sum_start(pz, &sx, &sy);
    sum_end(pz, &ex, &ey);
    int n = sum_path_len(st);
    SDL_Color tile = v->ghost ? cl_color_mix(cl_col_panel_hi, cl_col_panel, 128) : cl_col_floor;
    /* The ghost's light digits need a dark tint under the path; the main
     * board's dark digits a light one. */
    SDL_Color soft = v->ghost ? cl_color_mix(cl_col_panel, cl_col_player[v->slot & 1], 110)
                              : cl_col_player_soft[v->slot & 1];
    for (int y = v->y0; y < v->y1; y++)
        for (int x = v->x0; x < v->x1; x++) {
            SDL_Color col = tile;
            if (x == sx && y == sy)
                col = cl_color_mix(tile, cl_col_good, 90);
            if (x == ex && y == ey)
                col = cl_col_accent;
            cl_draw_fill(r, v->ox + x * c + gap, v->oy + y * c + gap, c - 2 * gap, c - 2 * gap, col);
        }
    /* Path cells are tinted, then joined centre to centre in the player's
     * colour so the order of the trace reads at a glance. */
    for (int i = 0; i < n; i++) {
        int x, y;
        sum_path_cell(st, i, &x, &y);
        if (x < v->x0 || x >= v->x1 || y < v->y0 || y >= v->y1 || (x == ex && y == ey))
            continue;
        cl_draw_fill(r, v->ox + x * c + gap, v->oy + y * c + gap, c - 2 * gap, c - 2 * gap, soft);
    }
    /* The trace is joined edge to edge, never across a cell's middle: each
     * joint sits in the gap between two cells and reaches into each only
     * as far as the margin beside that cell's number, so every value on
     * the path stays readable. */
    bool text = cl_text_size(t, v->font) >= 8;
    int bar = c / 7 < 2 ? 2 : c / 7;
    for (int i = 1; i < n; i++) {
        int ax, ay, bx, by;
        sum_path_cell(st, i - 1, &ax, &ay);
        sum_path_cell(st, i, &bx, &by);
        int ra = reach(t, v, pz, ax, ay, ay == by, bar, gap, text, ax == ex && ay == ey);
        int rb = reach(t, v, pz, bx, by, ay == by, bar, gap, text, bx == ex && by == ey);
        int dx = bx - ax, dy = by - ay;
        /* The edge point between the two cells, then back into a, on into b. */
        int mx = v->ox + ax * c + c / 2 + dx * c / 2, my = v->oy + ay * c + c / 2 + dy * c / 2;
        cl_draw_bar(r, mx - dx * ra, my - dy * ra, mx + dx * rb, my + dy * rb, bar,
                    cl_col_player[v->slot & 1]);
    }
    if (text) {
        char buf[24];
        SDL_Color ink = v->ghost ? cl_col_text : cl_col_wall;
        for (int y = v->y0; y < v->y1; y++)
            for (int x = v->x0; x < v->x1; x++) {
                if (x == ex && y == ey)
                    continue;
                snprintf(buf, sizeof buf, "%d", sum_value(pz, x, y));
                int cx = v->ox + x * c + c / 2, cy = v->oy + y * c + c / 2;
                cl_text_draw_mid(t, v->font, buf, cx, cy, ink, CL_CENTER);
            }
    }
    int hx, hy;
    sum_path_cell(st, n - 1, &hx, &hy);
    SDL_Rect h = cl_view_cell_rect(v, hx, hy);
    /* The head is framed in the player's colour and its marker sits in the
     * top-left corner, clear of the value in the middle. */
    int ring = c / 20 < 2 ? 2 : c / 20;
    cl_draw_frame(r, h.x + gap, h.y + gap, c - 2 * gap, c - 2 * gap, ring, cl_col_player[v->slot & 1]);
    cl_draw_marker(r, v->slot, (float)h.x + c * CL_SUM_MARKER_AT, (float)h.y + c * CL_SUM_MARKER_AT,
                   c * 0.12f, v->ghost);
    if (text) {
        /* End: the target on top, the running sum below it. */
        char buf[32];
        SDL_Rect e = cl_view_cell_rect(v, ex, ey);
        snprintf(buf, sizeof buf, "%d", sum_target(pz));
        cl_text_draw_mid(t, v->font, buf, e.x + c / 2, e.y + c * 3 / 8, cl_col_wall, CL_CENTER);
        snprintf(buf, sizeof buf, "%d", sum_running(st));
        int rf = v->font;
        /* Darkened so orange still reads on the yellow End cell. */
        SDL_Color sum_ink = cl_color_mix(cl_col_player[v->slot & 1], cl_col_wall, 80);
        cl_text_draw_mid(t, rf, buf, e.x + c / 2, e.y + c * 3 / 4, sum_ink, CL_CENTER);
        cl_draw_fill(r, e.x + c / 4, e.y + c * 9 / 16, c / 2, c / 24 + 1, cl_col_wall);
    }
}

/* Click or drag onto a 4-neighbour of the path head: a step (onto the
 * previous cell it undoes one, by the rules). */
static bool pointer(const pz_puzzle *pz, const pz_state *st, int cx, int cy, int button, bool drag,
                    pz_move *out)
{
    (void)pz;
    (void)drag;
    if (button != 1)
        return false;
    int hx, hy;
    sum_path_cell(st, sum_path_len(st) - 1, &hx, &hy);
    return cl_render_step_toward(hx, hy, cx, cy, false, out);
}

const cl_kind_render cl_render_sum = {40, draw, pointer};
