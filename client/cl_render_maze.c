/* cl_render_maze.c: draws a perfect maze (visible cells only) and its player. */
#include "cl_draw.h"
#include "cl_render.h"
#include "maze.h"

static void draw(SDL_Renderer *r, cl_text *t, const cl_view *v, const pz_puzzle *pz, const pz_state *st)
{
    (void)t;
    int c = v->cell;
    int wt = c / 6 < 1 ? 1 : c / 6;
    int x0 = v->x0, y0 = v->y0, x1 = v->x1, y1 = v->y1;
    if (x0 >= x1 || y0 >= y1)
        return;
    cl_draw_fill(r, v->ox + x0 * c, v->oy + y0 * c, (x1 - x0) * c, (y1 - y0) * c,
                 v->ghost ? cl_color_mix(cl_col_floor, cl_col_panel, 80) : cl_col_floor);
    SDL_Rect ex = cl_view_cell_rect(v, v->w - 1, 0), sx = cl_view_cell_rect(v, 0, v->h - 1);
    cl_draw_fill(r, ex.x, ex.y, ex.w, ex.h, cl_col_good);
    cl_draw_fill(r, sx.x, sx.y, sx.w, sx.h, cl_color_mix(cl_col_floor, cl_col_dim, 90));
    /* Each wall belongs to the cell on its left or above, so it is drawn
     * once; the first visible row and column also draw their top and left. */
    cl_rects_begin(r, cl_col_wall);
    for (int y = y0; y < y1; y++) {
        int py = v->oy + y * c;
        for (int x = x0; x < x1; x++) {
            int px = v->ox + x * c;
            if (!maze_open(pz, x, y, PZ_RIGHT))
                cl_rects_add(px + c - wt / 2 - (wt & 1), py - wt / 2, wt, c + wt);
            if (!maze_open(pz, x, y, PZ_DOWN))
                cl_rects_add(px - wt / 2, py + c - wt / 2 - (wt & 1), c + wt, wt);
            if (x == x0 && !maze_open(pz, x, y, PZ_LEFT))
                cl_rects_add(px - wt / 2, py - wt / 2, wt, c + wt);
            if (y == y0 && !maze_open(pz, x, y, PZ_UP))
                cl_rects_add(px - wt / 2, py - wt / 2, c + wt, wt);
        }
    }
    cl_rects_flush();
    int mx, my;
    maze_pos(st, &mx, &my);
    SDL_Rect m = cl_view_cell_rect(v, mx, my);
    /* The player's cell glows in their soft colour: easy to find again in
     * a big maze. */
    if (!v->ghost)
        cl_draw_fill(r, m.x + wt / 2, m.y + wt / 2, c - wt, c - wt, cl_col_player_soft[v->slot & 1]);
    cl_draw_marker(r, v->slot, (float)m.x + c / 2.0f, (float)m.y + c / 2.0f,
                   v->ghost && c < 14 ? 5.0f : c * 0.36f, v->ghost);
}

static bool pointer(const pz_puzzle *pz, const pz_state *st, int cx, int cy, int button, bool drag,
                    pz_move *out)
{
    (void)drag;
    return button == 1 && cl_render_pointer_step(pz, st, cx, cy, false, out);
}

const cl_kind_render cl_render_maze = {18, draw, pointer};
