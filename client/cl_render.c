/* cl_render.c: board views, cameras, the kind table and shared helpers. */
#include "cl_render.h"

#include "cl_draw.h"
#include "util.h"

extern const cl_kind_render cl_render_sum, cl_render_maze, cl_render_ice, cl_render_pipes;

const cl_kind_render *cl_render_for(int kind)
{
    static const cl_kind_render *const table[PZ_KIND_COUNT] = {
        [PZ_SUM] = &cl_render_sum,
        [PZ_MAZE] = &cl_render_maze,
        [PZ_ICE] = &cl_render_ice,
        [PZ_PIPES] = &cl_render_pipes,
    };
    return (kind >= 0 && kind < PZ_KIND_COUNT) ? table[kind] : NULL;
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void cl_view_fit(cl_view *v, SDL_Rect area, int w, int h, int min_cell, int max_cell, float cam_x,
                 float cam_y)
{
    v->area = area;
    v->w = w;
    v->h = h;
    int cell = area.w / (w > 0 ? w : 1);
    int ch = area.h / (h > 0 ? h : 1);
    if (ch < cell)
        cell = ch;
    if (cell > max_cell)
        cell = max_cell;
    if (cell < min_cell)
        cell = min_cell;
    if (cell < 1)
        cell = 1;
    v->cell = cell;
    int bw = cell * w, bh = cell * h;
    /* Per axis: centre the board if it fits, else follow the camera and
     * clamp so no empty space shows beyond the board's edge. */
    if (bw <= area.w)
        v->ox = area.x + (area.w - bw) / 2;
    else
        v->ox =
            clampi(area.x + area.w / 2 - (int)((cam_x + 0.5f) * (float)cell), area.x + area.w - bw, area.x);
    if (bh <= area.h)
        v->oy = area.y + (area.h - bh) / 2;
    else
        v->oy =
            clampi(area.y + area.h / 2 - (int)((cam_y + 0.5f) * (float)cell), area.y + area.h - bh, area.y);
    v->x0 = clampi((area.x - v->ox) / cell, 0, w);
    v->y0 = clampi((area.y - v->oy) / cell, 0, h);
    v->x1 = clampi((area.x + area.w - v->ox + cell - 1) / cell, 0, w);
    v->y1 = clampi((area.y + area.h - v->oy + cell - 1) / cell, 0, h);
}

bool cl_view_cell_at(const cl_view *v, int px, int py, int *cx, int *cy)
{
    if (px < v->area.x || py < v->area.y || px >= v->area.x + v->area.w || py >= v->area.y + v->area.h)
        return false;
    int dx = px - v->ox, dy = py - v->oy;
    if (dx < 0 || dy < 0)
        return false;
    int x = dx / v->cell, y = dy / v->cell;
    if (x >= v->w || y >= v->h)
        return false;
    *cx = x;
    *cy = y;
    return true;
}

SDL_Rect cl_view_cell_rect(const cl_view *v, int x, int y)
{
    SDL_Rect r = {v->ox + x * v->cell, v->oy + y * v->cell, v->cell, v->cell};
    return r;
}

bool cl_render_pointer_step(const pz_puzzle *pz, const pz_state *st, int cx, int cy, bool any_distance,
                            pz_move *out)
{
    pz_progress at;
    pz_kind_of(pz)->progress(pz, st, &at);
    int dx = cx - at.x, dy = cy - at.y;
    if ((dx != 0) == (dy != 0))
        return false;
    int dist = dx ? (dx > 0 ? dx : -dx) : (dy > 0 ? dy : -dy);
    if (dist > 1 && !any_distance)
        return false;
    out->type = PZ_MOVE_STEP;
    out->dir = (uint8_t)(dx > 0 ? PZ_RIGHT : dx < 0 ? PZ_LEFT : dy > 0 ? PZ_DOWN : PZ_UP);
    out->x = out->y = 0;
    return true;
}

/* One static batch: boards draw a few thousand rects per colour and flush
 * when full, so there is no allocation per frame. */
enum { BATCH = 4096 };
static SDL_Rect batch[BATCH];
static int nbatch;
static SDL_Renderer *batch_ren;

void cl_rects_begin(SDL_Renderer *r, SDL_Color c)
{
    batch_ren = r;
    nbatch = 0;
    cl_draw_color(r, c);
}

void cl_rects_flush(void)
{
    if (nbatch && batch_ren)
        SDL_RenderFillRects(batch_ren, batch, nbatch);
    nbatch = 0;
}

void cl_rects_add(int x, int y, int w, int h)
{
    if (nbatch == BATCH)
        cl_rects_flush();
    batch[nbatch++] = (SDL_Rect){x, y, w, h};
}
