/* cl_app_layout.c: where the race screen puts the HUD, the boards and the ghost,
 * as pure functions of the output size (shared with the render tests). */
#include "cl_app.h"

void cl_layout_race(int out_w, int out_h, bool hotseat, int my_slot, cl_layout *L)
{
    int hud = out_h / 9 < 48 ? 48 : out_h / 9;
    int m = out_h / 60 < 6 ? 6 : out_h / 60;
    L->hud = (SDL_Rect){0, 0, out_w, hud};
    /* Under the boards: a strip for messages, then a line for hints and the game ID. */
    int band = out_h / 30 < 18 ? 18 : out_h / 30;
    int top = hud + m, bottom = out_h - m - out_h / 22 - band;
    int h = bottom - top;
    L->msg = (SDL_Rect){m, bottom + m / 2, out_w - 2 * m, band};
    if (hotseat) {
        int w = (out_w - 3 * m) / 2;
        L->board[0] = (SDL_Rect){m, top, w, h};
        L->board[1] = (SDL_Rect){2 * m + w, top, w, h};
        L->ghost[0] = L->ghost[1] = false;
        L->ghost_info = (SDL_Rect){0, 0, 0, 0};
        return;
    }
    /* Single play: the own board takes about three quarters of the width;
     * the opponent's ghost sits in a column on the right. */
    int side = out_w / 4;
    int main_w = out_w - side - 3 * m;
    int me = my_slot & 1, opp = me ^ 1;
    L->board[me] = (SDL_Rect){m, top, main_w, h};
    L->ghost[me] = false;
    int gx = 2 * m + main_w;
    int gh = h * 3 / 5 < side ? h * 3 / 5 : side;
    int label = out_h / 24;
    L->board[opp] = (SDL_Rect){gx, top + label, side, gh};
    L->ghost[opp] = true;
    L->ghost_info = (SDL_Rect){gx, top + label + gh + m, side, h - gh - label - m};
}

void cl_layout_watch(int out_w, int out_h, cl_layout *L)
{
    cl_layout_race(out_w, out_h, true, 0, L);
    L->ghost[0] = L->ghost[1] = true;
}

void cl_layout_replay(int out_w, int out_h, cl_replay_layout *L)
{
    cl_layout_race(out_w, out_h, true, 0, &L->race);
    int m = out_h / 60 < 6 ? 6 : out_h / 60;
    int bh = out_h / 14 < 40 ? 40 : out_h / 14;
    SDL_Rect *b = L->race.board;
    for (int s = 0; s < 2; s++)
        b[s].h -= bh + m;
    L->bar = (SDL_Rect){b[0].x, b[0].y + b[0].h + m, b[1].x + b[1].w - b[0].x, bh};
    /* Square-ish buttons, wider for Play/Pause and the speed label. */
    static const int widths[CL_RB_COUNT] = {10, 10, 16, 10, 8, 11, 8}; /* tenths of the bar's height */
    int x = L->bar.x;
    for (int i = 0; i < CL_RB_COUNT; i++) {
        int w = bh * widths[i] / 10;
        L->button[i] = (SDL_Rect){x, L->bar.y, w, bh};
        x += w + (i == CL_RB_STEP || i == CL_RB_FASTER ? 2 * m : m / 2);
    }
    int th = bh / 5 < 4 ? 4 : bh / 5;
    L->timeline = (SDL_Rect){x + m, L->bar.y + (bh - th) / 2, L->bar.x + L->bar.w - x - 2 * m, th};
}

void cl_layout_for(const cl_app *a, cl_layout *L)
{
    if (a->backend && a->backend->watching)
        cl_layout_watch(a->out_w, a->out_h, L);
    else
        cl_layout_race(a->out_w, a->out_h, a->backend && a->backend->hotseat,
                       a->backend ? a->backend->my_slot : 0, L);
}

void cl_layout_view(const cl_layout *L, const cl_race *r, int slot, cl_view *v)
{
    const pz_params *p = pz_params_of(r->pz);
    const cl_kind_render *kr = cl_render_for(p->kind);
    const cl_player *pl = &r->p[slot];
    bool ghost = L->ghost[slot];
    int min_cell = ghost ? 4 : (kr ? kr->min_cell : 16);
    int max_cell = ghost ? 48 : 96;
    if (!ghost && pl->zoom_cell > 0)
        min_cell = max_cell = pl->zoom_cell < min_cell ? min_cell : pl->zoom_cell;
    /* Room around the board for the pipes caps. */
    SDL_Rect area = L->board[slot];
    SDL_Rect fit = area;
    if (p->kind == PZ_PIPES) {
        int pad = area.w / (p->w + 2);
        if (pad > 32)
            pad = 32;
        fit.x += pad;
        fit.w -= 2 * pad;
    }
    cl_view_fit(v, fit, p->w, p->h, min_cell, max_cell, pl->cam_x, pl->cam_y);
    v->area = area;
    v->slot = slot;
    v->ghost = ghost;
    v->cursor = p->kind == PZ_PIPES && pl->local;
    v->cur_x = pl->cur_x;
    v->cur_y = pl->cur_y;
    v->font = ghost ? CL_FONT_GHOST : CL_FONT_CELL;
    /* Recompute the visible range against the real area (caps margin). */
    int c = v->cell;
    v->x0 = (area.x - v->ox) / c;
    v->y0 = (area.y - v->oy) / c;
    v->x1 = (area.x + area.w - v->ox + c - 1) / c;
    v->y1 = (area.y + area.h - v->oy + c - 1) / c;
    if (v->x0 < 0)
        v->x0 = 0;
    if (v->y0 < 0)
        v->y0 = 0;
    if (v->x1 > p->w)
        v->x1 = p->w;
    if (v->y1 > p->h)
        v->y1 = p->h;
}
