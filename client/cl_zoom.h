/* cl_zoom.h: zooming the player's own board in and out (wheel, + - 0 keys,
 * pinch), never below the kind's readable minimum cell size. */
#ifndef CL_ZOOM_H
#define CL_ZOOM_H

#include "cl_app.h"

enum { CL_ZOOM_MAX_CELL = 96 };

/* The cell size one zoom step from cur: dir > 0 in, dir < 0 out, clamped to
 * [min_cell, CL_ZOOM_MAX_CELL]; 0 (fit the board) when zooming out reaches
 * the size that fits, or dir == 0. */
int cl_zoom_next(int cur, int fit, int min_cell, int dir);
/* Zooms slot's board of the running race one step (dir as above). */
void cl_zoom(cl_app *a, int slot, int dir);
/* The zoom step a key asks for: +1, -1, 0 (fit); false if not a zoom key. */
bool cl_zoom_key(SDL_Keycode k, int *dir);

#endif
