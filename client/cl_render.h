/* cl_render.h: drawing a board: the view (where cells land on screen, with
 * a camera for boards too large to fit readably) and one renderer per kind
 * behind a small table of functions. */
#ifndef CL_RENDER_H
#define CL_RENDER_H

#include <SDL.h>
#include <stdbool.h>

#include "cl_text.h"
#include "puzzle.h"

typedef struct cl_view {
    SDL_Rect area;      /* screen rect given to the board */
    int cell;           /* cell size in pixels */
    int ox, oy;         /* screen position of cell (0, 0)'s top-left */
    int x0, y0, x1, y1; /* visible cells: [x0, x1) x [y0, y1) */
    int w, h;           /* board size in cells */
    int slot;           /* whose board: colour and marker shape */
    bool ghost;         /* the opponent's small board */
    bool cursor;        /* pipes: draw the cursor at cur_x, cur_y */
    int cur_x, cur_y;
    int font; /* CL_FONT_CELL or CL_FONT_GHOST */
} cl_view;

/* Lays out a w x h board in area: the largest cell size up to max_cell that
 * fits; if that is below min_cell the cells stay at min_cell and the view is
 * a window centred on (cam_x, cam_y) in cells, clamped to the board. */
void cl_view_fit(cl_view *v, SDL_Rect area, int w, int h, int min_cell, int max_cell, float cam_x,
                 float cam_y);
/* Cell under a screen point; false if outside the board or the area. */
bool cl_view_cell_at(const cl_view *v, int px, int py, int *cx, int *cy);
/* Screen rect of cell (x, y) (may lie outside the area). */
SDL_Rect cl_view_cell_rect(const cl_view *v, int x, int y);

/* Where a sum head marker sits, as a fraction of the cell from its top-left
 * corner (render tests look for it there). */
#define CL_SUM_MARKER_AT 0.19f

typedef struct cl_kind_render {
    /* Smallest readable cell size for the player's own board. */
    int min_cell;
    void (*draw)(SDL_Renderer *r, cl_text *t, const cl_view *v, const pz_puzzle *pz, const pz_state *st);
    /* The move a pointer press (button 1 left, 3 right; drag: the button is
     * held while moving) on cell (cx, cy) makes, if any. */
    bool (*pointer)(const pz_puzzle *pz, const pz_state *st, int cx, int cy, int button, bool drag,
                    pz_move *out);
} cl_kind_render;

/* The renderer for a kind (enum pz_kind_id); NULL if out of range. */
const cl_kind_render *cl_render_for(int kind);

/* The pointer of the kinds moved by steps (sum, maze, ice), shared by their
 * renderers: from the player's position (the kind's progress x, y: the path
 * head for sum), a step towards a 4-neighbour (or, with any_distance, any
 * cell in the same row or column); the caller picks the buttons. */
bool cl_render_pointer_step(const pz_puzzle *pz, const pz_state *st, int cx, int cy, bool any_distance,
                            pz_move *out);
/* Batched filled rects, so a board costs a few draw calls. */
void cl_rects_begin(SDL_Renderer *r, SDL_Color c);
void cl_rects_add(int x, int y, int w, int h);
void cl_rects_flush(void);

#endif
