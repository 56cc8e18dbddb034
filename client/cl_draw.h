/* cl_draw.h: the client's palette and shape primitives (rects, discs,
 * diamonds, thick lines) on an SDL_Renderer. */
#ifndef CL_DRAW_H
#define CL_DRAW_H

#include <SDL.h>
#include <stdbool.h>

/* Player colours come from the Okabe-Ito palette, which stays distinct for
 * the common forms of colour blindness; players also differ by marker shape
 * (player 1 a disc, player 2 a diamond), so colour is never the only cue. */
extern const SDL_Color cl_col_bg, cl_col_panel, cl_col_panel_hi, cl_col_text, cl_col_dim, cl_col_accent,
    cl_col_bad, cl_col_good, cl_col_wall, cl_col_floor, cl_col_floor_alt, cl_col_ice, cl_col_rock,
    cl_col_water, cl_col_pipe;
/* Indexed by player slot 0/1. */
extern const SDL_Color cl_col_player[2];
extern const SDL_Color cl_col_player_soft[2];

enum cl_shape { CL_SHAPE_DISC, CL_SHAPE_DIAMOND };

void cl_draw_color(SDL_Renderer *r, SDL_Color c);
void cl_draw_fill(SDL_Renderer *r, int x, int y, int w, int h, SDL_Color c);
/* Outline of thickness t drawn inside the rect. */
void cl_draw_frame(SDL_Renderer *r, int x, int y, int w, int h, int t, SDL_Color c);
/* Axis-aligned thick line from (x0, y0) to (x1, y1), as a rect of width t. */
void cl_draw_bar(SDL_Renderer *r, int x0, int y0, int x1, int y1, int t, SDL_Color c);
void cl_draw_disc(SDL_Renderer *r, float cx, float cy, float rad, SDL_Color c);
void cl_draw_diamond(SDL_Renderer *r, float cx, float cy, float rad, SDL_Color c);
/* A player's marker: the shape for slot (0 disc, 1 diamond) with a dark rim. */
void cl_draw_marker(SDL_Renderer *r, int slot, float cx, float cy, float rad, bool ghost);
/* Panel: filled rect with a 1-px lighter rim. */
void cl_draw_panel(SDL_Renderer *r, int x, int y, int w, int h, SDL_Color fill);
SDL_Color cl_color_mix(SDL_Color a, SDL_Color b, int t256);

#endif
