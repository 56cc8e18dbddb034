/* cl_overview.c: the overview (minimap) of the player's own board (cl_overview.h). */
#include "cl_overview.h"

#include "cl_draw.h"
#include "ice.h"
#include "pipes.h"
#include "sum.h"

void cl_overview_goal(const pz_puzzle *pz, int *x, int *y)
{
    const pz_params *p = pz_params_of(pz);
    switch (p->kind) {
    case PZ_ICE:
        ice_exit(pz, x, y);
        break;
    case PZ_SUM:
        sum_end(pz, x, y);
        break;
    case PZ_PIPES:
        *x = p->w - 1;
        *y = pipes_end_row(pz);
        break;
    default: /* maze: the exit is the top-right cell */
        *x = p->w - 1;
        *y = 0;
        break;
    }
}

/* The overview's size for v: its longer side a quarter of the area's
 * shorter one (at most 200 px), the board's shape kept. */
static void size_for(const cl_view *v, int *w, int *h)
{
    int side = (v->area.w < v->area.h ? v->area.w : v->area.h) / 4;
    if (side > 200)
        side = 200;
    if (v->w >= v->h) {
        *w = side;
        *h = side * v->h / v->w;
    } else {
        *h = side;
        *w = side * v->w / v->h;
    }
    if (*w < 24)
        *w = 24;
    if (*h < 24)
        *h = 24;
}

SDL_Rect cl_overview_rect(const cl_view *v, int fx, int fy)
{
    SDL_Rect none = {0, 0, 0, 0};
    if (v->ghost || (v->x1 - v->x0 >= v->w && v->y1 - v->y0 >= v->h))
        return none;
    int w, h, m = 8;
    size_for(v, &w, &h);
    w += 2 * 3;
    h += 2 * 3;
    const SDL_Rect a = v->area;
    const SDL_Point corner[4] = {{a.x + a.w - w - m, a.y + a.h - h - m},
                                 {a.x + a.w - w - m, a.y + m},
                                 {a.x + m, a.y + a.h - h - m},
                                 {a.x + m, a.y + m}};
    /* The player's cell with a cell's margin around it stays uncovered. */
    SDL_Rect c = cl_view_cell_rect(v, fx, fy);
    SDL_Rect keep = {c.x - c.w, c.y - c.h, c.w * 3, c.h * 3};
    for (int i = 0; i < 4; i++) {
        SDL_Rect r = {corner[i].x, corner[i].y, w, h};
        if (!SDL_HasIntersection(&r, &keep))
            return r;
    }
    return (SDL_Rect){corner[0].x, corner[0].y, w, h};
}

/* Board column (or row) i of n to a point of a span of len pixels at o. */
static int at(int o, int len, int i, int n)
{
    return o + (int)((long long)i * len / n);
}

void cl_overview_draw(SDL_Renderer *r, const cl_view *v, const pz_puzzle *pz, int fx, int fy)
{
    SDL_Rect o = cl_overview_rect(v, fx, fy);
    if (o.w == 0)
        return;
    cl_draw_fill(r, o.x, o.y, o.w, o.h, (SDL_Color){0, 0, 0, 200});
    cl_draw_frame(r, o.x, o.y, o.w, o.h, 1, cl_col_dim);
    SDL_Rect b = {o.x + 3, o.y + 3, o.w - 6, o.h - 6};
    cl_draw_fill(r, b.x, b.y, b.w, b.h, cl_color_mix(cl_col_panel_hi, cl_col_panel, 128));
    int vx0 = at(b.x, b.w, v->x0, v->w), vy0 = at(b.y, b.h, v->y0, v->h), vx1 = at(b.x, b.w, v->x1, v->w),
        vy1 = at(b.y, b.h, v->y1, v->h);
    cl_draw_frame(r, vx0, vy0, vx1 - vx0 < 3 ? 3 : vx1 - vx0, vy1 - vy0 < 3 ? 3 : vy1 - vy0, 1, cl_col_text);
    int gx, gy;
    cl_overview_goal(pz, &gx, &gy);
    int gcx = at(b.x, b.w, gx, v->w) + b.w / (2 * v->w), gcy = at(b.y, b.h, gy, v->h) + b.h / (2 * v->h);
    cl_draw_fill(r, gcx - 4, gcy - 4, 9, 9, cl_col_text);
    cl_draw_fill(r, gcx - 3, gcy - 3, 7, 7, cl_col_good);
    int pcx = at(b.x, b.w, fx, v->w) + b.w / (2 * v->w), pcy = at(b.y, b.h, fy, v->h) + b.h / (2 * v->h);
    cl_draw_disc(r, (float)pcx, (float)pcy, 6.0f, cl_col_text);
    cl_draw_marker(r, v->slot, (float)pcx, (float)pcy, 5.0f, false);
}
