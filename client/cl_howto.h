/* cl_howto.h: each kind's "How to play" card and the one-line hints, naming the keys actually bound. */
#ifndef CL_HOWTO_H
#define CL_HOWTO_H

#include <stdbool.h>
#include <stddef.h>

#include "cl_input.h"
#include "cl_text.h"

enum { CL_HOWTO_LINE = 320 };

/* slot's step keys as a player reads them: "W A S D" (up, left, down,
 * right), or "the arrows" when those are the arrow keys. */
void cl_howto_move_keys(const cl_bindings *b, int slot, char *buf, size_t len);
/* The one-line race hint for kind with slot's bound keys, e.g. for ice
 * "W A S D slide, R restarts if stuck; or click a cell in line". */
void cl_howto_hint(const cl_bindings *b, int slot, int kind, char *buf, size_t len);
/* Both hotseat players' keys for kind on one line (kind -1: moves and
 * rotation, for a screen before the kind is known). */
void cl_howto_hotseat_keys(const cl_bindings *b, int kind, char *buf, size_t len);

/* The card's title ("How to play: Number path") and its lines (the goal,
 * the rules, the keys of slot, the race) into lines[], at most max of
 * them, each up to CL_HOWTO_LINE bytes; returns how many. */
int cl_howto_lines(const cl_bindings *b, int slot, int kind, char lines[][CL_HOWTO_LINE], int max);
/* Draws kind's card centred on an out_w x out_h screen over whatever is
 * there, with foot as its last line (what Enter and Esc do). */
void cl_howto_draw(SDL_Renderer *r, cl_text *t, const cl_bindings *b, int kind, int out_w, int out_h,
                   const char *foot);

#endif
