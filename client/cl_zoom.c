/* cl_zoom.c: zoom steps of the player's own board (cl_zoom.h). */
#include "cl_zoom.h"

#include "cl_render.h"
#include "puzzle.h"

int cl_zoom_next(int cur, int fit, int min_cell, int dir)
{
    if (dir == 0)
        return 0;
    int next = dir > 0 ? cur * 5 / 4 : cur * 4 / 5;
    if (dir > 0 && next == cur)
        next = cur + 1;
    if (next > CL_ZOOM_MAX_CELL)
        next = CL_ZOOM_MAX_CELL;
    if (next < min_cell)
        next = min_cell;
    /* Out to (or past) the size that shows the whole board: fit again. */
    if (dir < 0 && next <= fit)
        return 0;
    return next;
}

void cl_zoom(cl_app *a, int slot, int dir)
{
    cl_race *r = &a->race;
    if (!r->pz || slot < 0 || slot > 1)
        return;
    cl_layout L;
    cl_layout_for(a, &L);
    cl_player *pl = &r->p[slot];
    int keep = pl->zoom_cell;
    cl_view v;
    pl->zoom_cell = 0;
    cl_layout_view(&L, r, slot, &v);
    int fit = v.cell;
    pl->zoom_cell = keep;
    cl_layout_view(&L, r, slot, &v);
    const cl_kind_render *kr = cl_render_for(pz_params_of(r->pz)->kind);
    pl->zoom_cell = cl_zoom_next(v.cell, fit, kr ? kr->min_cell : 16, dir);
}

bool cl_zoom_key(SDL_Keycode k, int *dir)
{
    switch (k) {
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
        *dir = 1;
        return true;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        *dir = -1;
        return true;
    case SDLK_0:
    case SDLK_KP_0:
        *dir = 0;
        return true;
    default:
        return false;
    }
}
