/* cl_render_ice.c: draws a sliding-ice board and its player. */
#include "cl_draw.h"
#include "cl_render.h"
#include "ice.h"

static void draw(SDL_Renderer *r, cl_text *t, const cl_view *v, const pz_puzzle *pz, const pz_state *st)
{
    (void)t;
    int c = v->cell;
    if (v->x0 >= v->x1 || v->y0 >= v->y1)
        return;
    SDL_Color ice = v->ghost ? cl_color_mix(cl_col_ice, cl_col_panel, 80) : cl_col_ice;
    cl_draw_fill(r, v->ox + v->x0 * c, v->oy + v->y0 * c, (v->x1 - v->x0) * c, (v->y1 - v->y0) * c, ice);
    /* Boulders: a dark base square with a lighter stone inset, batched. */
    int in = c / 8;
    cl_rects_begin(r, cl_color_mix(cl_col_rock, cl_col_wall, 110));
    for (int y = v->y0; y < v->y1; y++)
        for (int x = v->x0; x < v->x1; x++)
            if (ice_cell(pz, x, y) == 'O')
                cl_rects_add(v->ox + x * c, v->oy + y * c, c, c);
    cl_rects_flush();
    if (c >= 6) {
        cl_rects_begin(r, cl_col_rock);
        for (int y = v->y0; y < v->y1; y++)
            for (int x = v->x0; x < v->x1; x++)
                if (ice_cell(pz, x, y) == 'O')
                    cl_rects_add(v->ox + x * c + in, v->oy + y * c + in, c - 2 * in, c - 2 * in);
        cl_rects_flush();
    }
    if (c >= 12) {
        /* Faint grid lines so slides can be counted by eye. */
        SDL_Color line = cl_color_mix(ice, cl_col_water, 60);
        cl_rects_begin(r, line);
        for (int x = v->x0; x <= v->x1; x++)
            cl_rects_add(v->ox + x * c, v->oy + v->y0 * c, 1, (v->y1 - v->y0) * c);
        for (int y = v->y0; y <= v->y1; y++)
            cl_rects_add(v->ox + v->x0 * c, v->oy + y * c, (v->x1 - v->x0) * c, 1);
        cl_rects_flush();
    }
    int sx, sy, ex, ey;
    ice_start(pz, &sx, &sy);
    ice_exit(pz, &ex, &ey);
    SDL_Rect e = cl_view_cell_rect(v, ex, ey), s = cl_view_cell_rect(v, sx, sy);
    cl_draw_fill(r, e.x, e.y, e.w, e.h, cl_col_good);
    cl_draw_fill(r, s.x, s.y, s.w, s.h, cl_color_mix(ice, cl_col_dim, 110));
    if (c >= 10)
        cl_draw_frame(r, e.x + c / 5, e.y + c / 5, c - 2 * (c / 5), c - 2 * (c / 5), c >= 30 ? 3 : 1,
                      cl_col_text);
    int px, py;
    ice_pos(st, &px, &py);
    SDL_Rect m = cl_view_cell_rect(v, px, py);
    cl_draw_marker(r, v->slot, (float)m.x + c / 2.0f, (float)m.y + c / 2.0f,
                   v->ghost && c < 14 ? 5.0f : c * 0.36f, v->ghost);
}

static bool pointer(const pz_puzzle *pz, const pz_state *st, int cx, int cy, int button, bool drag,
                    pz_move *out)
{
    return button == 1 && !drag && cl_render_pointer_step(pz, st, cx, cy, true, out);
}

const cl_kind_render cl_render_ice = {20, draw, pointer};
