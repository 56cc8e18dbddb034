/* cl_overview.h: the overview (minimap) of the player's own board, shown
 * when the view holds only part of it: the whole board, the part in view,
 * the player's cell and the goal, in a corner away from the player. */
#ifndef CL_OVERVIEW_H
#define CL_OVERVIEW_H

#include <SDL.h>
#include <stdbool.h>

#include "cl_render.h"
#include "puzzle.h"

/* The goal cell of pz (maze and ice exit, sum End, pipes End's tile). */
void cl_overview_goal(const pz_puzzle *pz, int *x, int *y);
/* Where the overview of v goes with the player on cell (fx, fy): a corner
 * of v's area whose rect does not cover that cell; w == 0 when the whole
 * board is in view (no overview). */
SDL_Rect cl_overview_rect(const cl_view *v, int fx, int fy);
/* Draws it (nothing when the whole board is in view). */
void cl_overview_draw(SDL_Renderer *r, const cl_view *v, const pz_puzzle *pz, int fx, int fy);

#endif
