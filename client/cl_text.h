/* cl_text.h: text through SDL2_ttf with the shipped font, drawn from cached
 * glyph atlases (one texture per font size, rebuilt only when sizes change). */
#ifndef CL_TEXT_H
#define CL_TEXT_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>

enum cl_font {
    CL_FONT_SMALL,
    CL_FONT_BODY,
    CL_FONT_TITLE,
    CL_FONT_HUGE,
    CL_FONT_CELL,       /* numbers on the large board: sized to its cells */
    CL_FONT_GHOST,      /* numbers on the ghost board */
    CL_FONT_CELL_BAND,  /* small type inside a cell of the large board (sum End's target and sum) */
    CL_FONT_GHOST_BAND, /* the same on the ghost board */
    CL_FONT_COUNT
};
enum cl_align { CL_LEFT, CL_CENTER, CL_RIGHT };

typedef struct cl_text cl_text;

/* Opens the font (regular and bold files). NULL with *err if it cannot.
 * The caller destroys it with cl_text_destroy before the renderer. */
cl_text *cl_text_create(SDL_Renderer *ren, const char *regular, const char *bold, const char **err);
void cl_text_destroy(cl_text *t); /* accepts NULL */
/* Sizes the UI fonts for an output height in pixels. */
void cl_text_layout(cl_text *t, int out_h);
/* Pixel size for CL_FONT_CELL or CL_FONT_GHOST; 0 hides that font. */
void cl_text_set_size(cl_text *t, int font, int px);
int cl_text_size(const cl_text *t, int font);
int cl_text_height(const cl_text *t, int font);
int cl_text_width(const cl_text *t, int font, const char *s);
/* Draws s with its top at y and x per align; returns the width. Characters
 * outside printable ASCII show as '?'. */
int cl_text_draw(cl_text *t, int font, const char *s, int x, int y, SDL_Color c, int align);
/* Same, vertically centred on cy. */
int cl_text_draw_mid(cl_text *t, int font, const char *s, int x, int cy, SDL_Color c, int align);

/* Copies s into out (cap bytes), cut and ended with "..." if it is wider
 * than max_w pixels in font (cl_text_fit.c). */
void cl_text_fit(cl_text *t, int font, const char *s, int max_w, char *out, size_t cap);

/* For render tests: while recording, each string drawn is kept (the first
 * CL_TEXT_LOG_MAX, each cut to 31 bytes) with its font and the screen rect
 * its glyphs cover. Turning recording on empties the log. */
enum { CL_TEXT_LOG_MAX = 4096 };
typedef struct cl_text_drawn {
    char s[32];
    int font;
    SDL_Rect r;
} cl_text_drawn;
void cl_text_record(cl_text *t, bool on);
int cl_text_drawn_count(const cl_text *t);
const cl_text_drawn *cl_text_drawn_at(const cl_text *t, int i); /* NULL if out of range */
/* With MAZERACE_TEXT_DUMP=1 in the environment each screenshot PATH gets
 * PATH.txt: a line "font x y w h text" per string drawn, in drawing order
 * (cl_text_dump.c). */
bool cl_text_dump_wanted(void);
bool cl_text_dump(const cl_text *t, const char *shot_path);

#endif
