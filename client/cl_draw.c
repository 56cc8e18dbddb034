/* cl_draw.c: palette and shape primitives for the client. */
#include "cl_draw.h"

#include <math.h>

const SDL_Color cl_col_bg = {24, 28, 38, 255};
const SDL_Color cl_col_panel = {38, 44, 58, 255};
const SDL_Color cl_col_panel_hi = {58, 68, 92, 255};
const SDL_Color cl_col_text = {236, 238, 244, 255};
const SDL_Color cl_col_dim = {150, 158, 176, 255};
const SDL_Color cl_col_accent = {240, 228, 66, 255}; /* Okabe-Ito yellow */
const SDL_Color cl_col_bad = {213, 94, 0, 255};      /* vermillion */
const SDL_Color cl_col_good = {0, 158, 115, 255};    /* bluish green */
const SDL_Color cl_col_wall = {20, 22, 30, 255};
const SDL_Color cl_col_floor = {226, 220, 204, 255};
const SDL_Color cl_col_floor_alt = {214, 207, 190, 255};
const SDL_Color cl_col_ice = {200, 228, 240, 255};
const SDL_Color cl_col_rock = {92, 96, 110, 255};
const SDL_Color cl_col_water = {86, 180, 233, 255};
const SDL_Color cl_col_pipe = {226, 230, 238, 255}; /* light on the slate tiles: >= 7:1 */
const SDL_Color cl_col_player[2] = {{0, 114, 178, 255}, {230, 159, 0, 255}};
const SDL_Color cl_col_player_soft[2] = {{150, 196, 228, 255}, {244, 208, 140, 255}};

/* Unit circle for discs, computed once: no trig per frame. */
enum { DISC_SEG = 28 };
static float unit_x[DISC_SEG + 1], unit_y[DISC_SEG + 1];
static bool unit_ready;

/* Opaque colours draw without blending: in the software renderer a blended
 * fill costs several times a plain one, and boards are mostly opaque. */
void cl_draw_color(SDL_Renderer *r, SDL_Color c)
{
    SDL_SetRenderDrawBlendMode(r, c.a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
}

void cl_draw_fill(SDL_Renderer *r, int x, int y, int w, int h, SDL_Color c)
{
    SDL_Rect rc = {x, y, w, h};
    cl_draw_color(r, c);
    SDL_RenderFillRect(r, &rc);
}

void cl_draw_frame(SDL_Renderer *r, int x, int y, int w, int h, int t, SDL_Color c)
{
    if (t * 2 >= w || t * 2 >= h) {
        cl_draw_fill(r, x, y, w, h, c);
        return;
    }
    SDL_Rect rc[4] = {
        {x, y, w, t}, {x, y + h - t, w, t}, {x, y + t, t, h - 2 * t}, {x + w - t, y + t, t, h - 2 * t}};
    cl_draw_color(r, c);
    SDL_RenderFillRects(r, rc, 4);
}

void cl_draw_bar(SDL_Renderer *r, int x0, int y0, int x1, int y1, int t, SDL_Color c)
{
    int lx = x0 < x1 ? x0 : x1, hx = x0 < x1 ? x1 : x0;
    int ly = y0 < y1 ? y0 : y1, hy = y0 < y1 ? y1 : y0;
    int h = t / 2;
    cl_draw_fill(r, lx - h, ly - h, hx - lx + t, hy - ly + t, c);
}

static void fan(SDL_Renderer *r, float cx, float cy, float rx, float ry, int n, const float *ux,
                const float *uy, SDL_Color c)
{
    SDL_Vertex v[3 * DISC_SEG];
    int k = 0;
    for (int i = 0; i < n; i++) {
        SDL_Vertex a = {{cx, cy}, c, {0, 0}};
        SDL_Vertex b = {{cx + rx * ux[i], cy + ry * uy[i]}, c, {0, 0}};
        SDL_Vertex d = {{cx + rx * ux[i + 1], cy + ry * uy[i + 1]}, c, {0, 0}};
        v[k++] = a;
        v[k++] = b;
        v[k++] = d;
    }
    SDL_RenderGeometry(r, NULL, v, k, NULL, 0);
}

void cl_draw_disc(SDL_Renderer *r, float cx, float cy, float rad, SDL_Color c)
{
    if (!unit_ready) {
        for (int i = 0; i <= DISC_SEG; i++) {
            double a = 6.283185307179586 * i / DISC_SEG;
            unit_x[i] = (float)cos(a);
            unit_y[i] = (float)sin(a);
        }
        unit_ready = true;
    }
    if (rad < 1.5f) {
        cl_draw_fill(r, (int)(cx - 1), (int)(cy - 1), 2, 2, c);
        return;
    }
    fan(r, cx, cy, rad, rad, DISC_SEG, unit_x, unit_y, c);
}

void cl_draw_diamond(SDL_Renderer *r, float cx, float cy, float rad, SDL_Color c)
{
    /* One call per triangle: SDL's software renderer pairs consecutive
     * triangles into rects when it thinks they form one, which mangles a
     * four-triangle fan. */
    static const float dx[5] = {0, 1, 0, -1, 0}, dy[5] = {-1, 0, 1, 0, -1};
    for (int i = 0; i < 4; i++)
        fan(r, cx, cy, rad, rad, 1, dx + i, dy + i, c);
}

void cl_draw_marker(SDL_Renderer *r, int slot, float cx, float cy, float rad, bool ghost)
{
    SDL_Color rim = ghost ? cl_col_player_soft[slot & 1] : cl_col_wall;
    SDL_Color body = cl_col_player[slot & 1];
    float inner = rad > 6 ? rad - (rad > 16 ? 3.0f : 2.0f) : rad * 0.7f;
    if (slot & 1) {
        cl_draw_diamond(r, cx, cy, rad * 1.15f, rim);
        cl_draw_diamond(r, cx, cy, inner * 1.15f, body);
    } else {
        cl_draw_disc(r, cx, cy, rad, rim);
        cl_draw_disc(r, cx, cy, inner, body);
    }
}

void cl_draw_panel(SDL_Renderer *r, int x, int y, int w, int h, SDL_Color fill)
{
    cl_draw_fill(r, x, y, w, h, fill);
    cl_draw_frame(r, x, y, w, h, 1, cl_color_mix(fill, cl_col_text, 40));
}

SDL_Color cl_color_mix(SDL_Color a, SDL_Color b, int t)
{
    SDL_Color o = {(Uint8)((a.r * (256 - t) + b.r * t) >> 8), (Uint8)((a.g * (256 - t) + b.g * t) >> 8),
                   (Uint8)((a.b * (256 - t) + b.b * t) >> 8), (Uint8)((a.a * (256 - t) + b.a * t) >> 8)};
    return o;
}
