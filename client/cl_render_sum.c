/* cl_render_sum.c: draws a number-path board: values, the traced path, Start,
 * and the End cell with its own value, the target and the running sum. */
#include <stdio.h>

#include "cl_draw.h"
#include "cl_render.h"
#include "sum.h"

/* How far a path joint may reach into cell (x, y) from its edge: up to the
 * margin beside the number drawn there (across for a sideways joint, above
 * or below for an upright one), and never past a sixth of the cell. End's
 * joints stay in the gap: its bands reach its edges. */
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

/* One band of End: a dark strip across the cell (top or bottom) with
 * "label N", or only N where the label does not fit. */
static void band(SDL_Renderer *r, cl_text *t, int font, SDL_Rect in, bool top, const char *label, int n,
                 SDL_Color ink)
{
    int bh = cl_text_height(t, font) + 2;
    int y = top ? in.y : in.y + in.h - bh;
    cl_draw_fill(r, in.x, y, in.w, bh, cl_col_wall);
    char buf[40];
    snprintf(buf, sizeof buf, "%s %d", label, n);
    if (cl_text_width(t, font, buf) > in.w - 4)
        snprintf(buf, sizeof buf, "%d", n);
    cl_text_draw_mid(t, font, buf, in.x + in.w / 2, y + bh / 2, ink, CL_CENTER);
}

/* End's value stays in the middle like every cell's; the target runs in a
 * dark band along its top and the running sum in one along its bottom, in
 * a type about half the value's size so neither covers it. The sum turns
 * green on End with the target, vermilion on End without it. */
static void draw_end_bands(SDL_Renderer *r, cl_text *t, const cl_view *v, const pz_puzzle *pz,
                           const pz_state *st, int gap)
{
    int c = v->cell, ex, ey, hx, hy;
    int font = v->ghost ? CL_FONT_GHOST_BAND : CL_FONT_CELL_BAND;
    int px = c * 17 / 100;
    cl_text_set_size(t, font, px >= 7 ? px : 0);
    if (cl_text_size(t, font) < 7)
        return;
    sum_end(pz, &ex, &ey);
    sum_path_cell(st, sum_path_len(st) - 1, &hx, &hy);
    SDL_Rect e = cl_view_cell_rect(v, ex, ey);
    SDL_Rect in = {e.x + gap, e.y + gap, c - 2 * gap, c - 2 * gap};
    band(r, t, font, in, true, "goal", sum_target(pz), cl_col_accent);
    SDL_Color ink = cl_color_mix(cl_col_player[v->slot & 1], cl_col_text, 90);
    if (hx == ex && hy == ey)
        ink = sum_running(st) == sum_target(pz) ? cl_col_good : cl_col_bad;
    band(r, t, font, in, false, "sum", sum_running(st), ink);
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
        /* Every value the rule counts, End's own included. */
        char buf[24];
        SDL_Color ink = v->ghost ? cl_col_text : cl_col_wall;
        for (int y = v->y0; y < v->y1; y++)
            for (int x = v->x0; x < v->x1; x++) {
                snprintf(buf, sizeof buf, "%d", sum_value(pz, x, y));
                int cx = v->ox + x * c + c / 2, cy = v->oy + y * c + c / 2;
                cl_text_draw_mid(t, v->font, buf, cx, cy, (x == ex && y == ey) ? cl_col_wall : ink,
                                 CL_CENTER);
            }
        if (ex >= v->x0 && ex < v->x1 && ey >= v->y0 && ey < v->y1)
            draw_end_bands(r, t, v, pz, st, gap);
    }
    int hx, hy;
    sum_path_cell(st, n - 1, &hx, &hy);
    SDL_Rect h = cl_view_cell_rect(v, hx, hy);
    /* The head is framed in the player's colour and its marker sits in the
     * top-left corner, clear of the value in the middle; on End the frame
     * alone marks it, so the target band stays whole. */
    int ring = c / 20 < 2 ? 2 : c / 20;
    cl_draw_frame(r, h.x + gap, h.y + gap, c - 2 * gap, c - 2 * gap, ring, cl_col_player[v->slot & 1]);
    if (!(hx == ex && hy == ey) || !text)
        cl_draw_marker(r, v->slot, (float)h.x + c * CL_SUM_MARKER_AT, (float)h.y + c * CL_SUM_MARKER_AT,
                       c * 0.12f, v->ghost);
}

/* Click or drag onto a 4-neighbour of the path head: a step (onto the
 * previous cell it undoes one, by the rules). */
static bool pointer(const pz_puzzle *pz, const pz_state *st, int cx, int cy, int button, bool drag,
                    pz_move *out)
{
    (void)drag;
    return button == 1 && cl_render_pointer_step(pz, st, cx, cy, false, out);
}

const cl_kind_render cl_render_sum = {40, draw, pointer};
