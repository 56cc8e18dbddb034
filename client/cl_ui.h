/* cl_ui.h: a vertical form of buttons, choices and text fields, used by
 * every menu-like screen; keyboard, mouse and gamepad all drive it. */
#ifndef CL_UI_H
#define CL_UI_H

#include <SDL.h>
#include <stdbool.h>

#include "cl_text.h"

enum cl_item_type { CL_ITEM_BUTTON, CL_ITEM_CHOICE, CL_ITEM_TEXT, CL_ITEM_LABEL };
enum { CL_FORM_MAX = 24, CL_CHOICE_MAX = 8 };

typedef struct cl_item {
    int type;
    int id;
    char label[64];
    char value[160]; /* TEXT: the text; BUTTON/LABEL: shown at the right */
    int maxlen;      /* TEXT: bytes, < sizeof value */
    char choices[CL_CHOICE_MAX][32];
    int nchoices, choice;
    bool disabled;
    SDL_Rect rect; /* set by cl_form_draw, for the mouse */
    int caret;     /* TEXT: byte offset of the caret; past the end = at the end */
    bool all;      /* TEXT: the whole text is selected (typing replaces it) */
} cl_item;

typedef struct cl_form {
    cl_item items[CL_FORM_MAX];
    int n, sel;
} cl_form;

/* What an event did to the form. */
typedef struct cl_form_result {
    int activated; /* id of a pressed button (Enter, click, pad A), else -1 */
    int changed;   /* id of a choice or text that changed, else -1 */
    bool back;     /* Esc, pad B */
} cl_form_result;

void cl_form_clear(cl_form *f);
cl_item *cl_form_add(cl_form *f, int type, int id, const char *label);
cl_item *cl_form_find(cl_form *f, int id);
void cl_item_choice(cl_item *it, const char *text); /* adds a choice */
/* Pointer coordinates in e are window coordinates; scale converts them to
 * renderer output pixels (HiDPI). */
cl_form_result cl_form_event(cl_form *f, const SDL_Event *e, float scale);
/* Draws the form centred in area, one row per item. */
void cl_form_draw(cl_form *f, SDL_Renderer *r, cl_text *t, SDL_Rect area);
/* Table screens (History, Server replays): a row's panel at rc, lit with
 * the accent bar when selected; and the items with ids >= first_id as one
 * row of equal buttons across width w at (x, y), each row high. */
/* A page turn on a paged table: -1 (PageUp, Left, wheel up, LB, d-pad
 * left), 1 (PageDown, Right, wheel down, RB, d-pad right) or 0. */
int cl_form_page_turn(const SDL_Event *e);
void cl_form_draw_row_panel(SDL_Renderer *r, SDL_Rect rc, bool sel, int bar);
/* A table's geometry on a screen out_w wide from y = top (rows row high,
 * gap apart, w wide at x; fh the body font's height), its ncols column heads
 * drawn (at: where each starts, percent of w; at and align are kept for the
 * rows and must outlive them); g->y is under the heads. */
typedef struct cl_table_geo {
    int x, y, w, row, gap, fh;
    int ncols;
    const int *at, *align;
} cl_table_geo;
void cl_form_table_heads(cl_text *t, int out_w, int top, int ncols, const char *const head[], const int at[],
                         const int align[], cl_table_geo *g);
/* One row of the table at y: its panel (sel: highlighted) and a cell per
 * column under its head, in its ink; returns the row's rect. */
SDL_Rect cl_form_table_row(SDL_Renderer *r, cl_text *t, const cl_table_geo *g, int y, bool sel,
                           const char cols[][64], const SDL_Color ink[]);
void cl_form_draw_button_row(cl_form *f, SDL_Renderer *r, cl_text *t, int first_id, int x, int y, int w,
                             int row);
/* Text field editing (cl_ui_textedit.c). Focus puts the caret at the end and
 * selects everything, so typing replaces a pre-filled value; insert puts
 * s (printable ASCII only, cut at maxlen) at the caret, replacing the
 * selection; op moves the caret or deletes. Both return true when the
 * text changed. */
enum cl_edit_op {
    CL_EDIT_LEFT,
    CL_EDIT_RIGHT,
    CL_EDIT_WORD_LEFT,
    CL_EDIT_WORD_RIGHT,
    CL_EDIT_HOME,
    CL_EDIT_END,
    CL_EDIT_BACKSPACE,
    CL_EDIT_DELETE,
    CL_EDIT_WORD_BACKSPACE,
    CL_EDIT_ALL,
    CL_EDIT_CLEAR
};
void cl_edit_focus(cl_item *it);
bool cl_edit_insert(cl_item *it, const char *s);
bool cl_edit_op(cl_item *it, int op);
/* Draws only items [first, first + count) from the top of area, at full
 * row height (rows never move as other items come and go). */
void cl_form_draw_rows(cl_form *f, SDL_Renderer *r, cl_text *t, SDL_Rect area, int first, int count);
/* Selects item i (giving a text field the focus: cl_edit_focus). */
void cl_form_select(cl_form *f, int i);
/* True if the selected item is a text field (typing goes there). */
bool cl_form_editing(const cl_form *f);

#endif
