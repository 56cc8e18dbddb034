/* cl_howto.c: the "How to play" cards and the race hints, worded with the keys the player has bound. */
#include "cl_howto.h"

#include <stdio.h>
#include <string.h>

#include "cl_draw.h"
#include "puzzle.h"

/* SDL_GetKeyName's buffer is reused by the next call: copy at once. */
static void key_name(const cl_bindings *b, int slot, int act, char *buf, size_t len)
{
    snprintf(buf, len, "%s", SDL_GetKeyName(b->key[slot & 1][act]));
}

void cl_howto_move_keys(const cl_bindings *b, int slot, char *buf, size_t len)
{
    const SDL_Keycode *k = b->key[slot & 1];
    if (k[CL_ACT_UP] == SDLK_UP && k[CL_ACT_LEFT] == SDLK_LEFT && k[CL_ACT_DOWN] == SDLK_DOWN &&
        k[CL_ACT_RIGHT] == SDLK_RIGHT) {
        snprintf(buf, len, "the arrows");
        return;
    }
    char u[24], l[24], d[24], r[24];
    key_name(b, slot, CL_ACT_UP, u, sizeof u);
    key_name(b, slot, CL_ACT_LEFT, l, sizeof l);
    key_name(b, slot, CL_ACT_DOWN, d, sizeof d);
    key_name(b, slot, CL_ACT_RIGHT, r, sizeof r);
    snprintf(buf, len, "%s %s %s %s", u, l, d, r);
}

void cl_howto_hint(const cl_bindings *b, int slot, int kind, char *buf, size_t len)
{
    char mv[100], cw[32], ccw[32], rs[32];
    cl_howto_move_keys(b, slot, mv, sizeof mv);
    key_name(b, slot, CL_ACT_CW, cw, sizeof cw);
    key_name(b, slot, CL_ACT_CCW, ccw, sizeof ccw);
    key_name(b, slot, CL_ACT_RESTART, rs, sizeof rs);
    switch (kind) {
    case PZ_SUM:
        snprintf(buf, len, "%s step, step back to undo; or drag with the mouse", mv);
        break;
    case PZ_MAZE:
        snprintf(buf, len, "%s walk; or click a neighbouring cell", mv);
        break;
    case PZ_ICE:
        snprintf(buf, len, "%s slide, %s restarts if stuck; or click a cell in line", mv, rs);
        break;
    case PZ_PIPES:
        snprintf(buf, len, "%s move the cursor, %s turns clockwise, %s back; or click / right-click a tile",
                 mv, cw, ccw);
        break;
    default:
        snprintf(buf, len, "%s move", mv);
        break;
    }
}

void cl_howto_hotseat_keys(const cl_bindings *b, int kind, char *buf, size_t len)
{
    char part[2][200];
    for (int s = 0; s < 2; s++) {
        char m[100], x[32], y[32];
        cl_howto_move_keys(b, s, m, sizeof m);
        if (kind == PZ_ICE) {
            key_name(b, s, CL_ACT_RESTART, x, sizeof x);
            snprintf(part[s], sizeof part[s], "%s, %s restart", m, x);
        } else if (kind == PZ_PIPES || kind < 0) {
            key_name(b, s, CL_ACT_CCW, x, sizeof x);
            key_name(b, s, CL_ACT_CW, y, sizeof y);
            snprintf(part[s], sizeof part[s], "%s, %s/%s rotate", m, x, y);
        } else {
            snprintf(part[s], sizeof part[s], "%s", m);
        }
    }
    snprintf(buf, len, "Player 1: %s   -   Player 2: %s", part[0], part[1]);
}

int cl_howto_lines(const cl_bindings *b, int slot, int kind, char lines[][CL_HOWTO_LINE], int max)
{
    char mv[100], cw[32], ccw[32], rs[32];
    cl_howto_move_keys(b, slot, mv, sizeof mv);
    key_name(b, slot, CL_ACT_CW, cw, sizeof cw);
    key_name(b, slot, CL_ACT_CCW, ccw, sizeof ccw);
    key_name(b, slot, CL_ACT_RESTART, rs, sizeof rs);
    const pz_kind *k = pz_kind_by_id(kind);
    int n = 0;
#define LINE(...)                                                                                            \
    do {                                                                                                     \
        if (n < max)                                                                                         \
            snprintf(lines[n++], CL_HOWTO_LINE, __VA_ARGS__);                                                \
    } while (0)
    LINE("How to play: %s", k ? k->title : "?");
    switch (kind) {
    case PZ_SUM:
        LINE(
            "Goal: trace a path from Start (green) to End (yellow) whose numbers add up to the goal on End.");
        LINE("Every cell on the path counts, Start and End included. The path never crosses itself.");
        LINE("End shows its own number, the goal above it and your running sum below it.");
        LINE("Entered End with the wrong sum? Step back and try another way: any path with the right sum "
             "wins.");
        LINE("Keys: %s step; stepping back onto the last cell undoes it. Mouse: click or drag.", mv);
        break;
    case PZ_MAZE:
        LINE("Goal: walk from the bottom-left corner to the exit in the top-right corner.");
        LINE("Walls block you. There is exactly one way through; the rest are dead ends.");
        LINE("Keys: %s walk one cell. Mouse: click a neighbouring cell.", mv);
        break;
    case PZ_ICE:
        LINE("Goal: get from the gap in the bottom wall to the exit gap in the top wall.");
        LINE("On ice you slide until a boulder or the wall stops you: plan where each slide ends.");
        LINE("Stuck where no slide helps? %s puts you back at the start (it counts as a move).", rs);
        LINE("Keys: %s slide. Mouse: click a cell in line with you.", mv);
        break;
    case PZ_PIPES:
        LINE("Goal: turn the pipe tiles until one chain joins the Start cap (left) to the End cap (right).");
        LINE("Each move turns one tile a quarter turn. Water shows how far your chain from Start reaches.");
        LINE("Any chain that joins both caps wins; tiles off the chain do not matter.");
        LINE("Keys: %s move the cursor, %s turns clockwise, %s counter-clockwise.", mv, cw, ccw);
        LINE("Mouse: click a tile to turn it clockwise, right-click for counter-clockwise.");
        break;
    default:
        break;
    }
    LINE("Race: both players get the same puzzle; the first to solve it wins. Esc leaves a race.");
#undef LINE
    return n;
}

/* Draws s word-wrapped to width w from (x, y) (or only measures it);
 * returns the y below it. */
static int wrapped(cl_text *t, int font, const char *s, int x, int y, int w, SDL_Color c, bool draw)
{
    char line[CL_HOWTO_LINE];
    int fh = cl_text_height(t, font);
    size_t n = 0;
    const char *p = s;
    while (*p) {
        /* the next word with the space before it */
        const char *e = p;
        while (*e == ' ')
            e++;
        while (*e && *e != ' ')
            e++;
        size_t add = (size_t)(e - p);
        char trial[CL_HOWTO_LINE];
        snprintf(trial, sizeof trial, "%.*s%.*s", (int)n, line, (int)add, p);
        if (n > 0 && cl_text_width(t, font, trial) > w) {
            line[n] = '\0';
            if (draw)
                cl_text_draw(t, font, line, x, y, c, CL_LEFT);
            y += fh;
            while (*p == ' ')
                p++;
            n = 0;
            continue;
        }
        if (n + add >= sizeof line)
            add = sizeof line - 1 - n;
        memcpy(line + n, p, add);
        n += add;
        p = e;
    }
    if (n > 0) {
        line[n] = '\0';
        if (draw)
            cl_text_draw(t, font, line, x, y, c, CL_LEFT);
        y += fh;
    }
    return y;
}

/* The card's body from y: the lines after the title; returns the y below. */
static int body(cl_text *t, char lines[][CL_HOWTO_LINE], int n, int x, int y, int w, bool draw)
{
    int fh = cl_text_height(t, CL_FONT_BODY);
    for (int i = 1; i < n; i++) {
        bool keys = strncmp(lines[i], "Keys:", 5) == 0 || strncmp(lines[i], "Mouse:", 6) == 0;
        y = wrapped(t, CL_FONT_BODY, lines[i], x, y, w, keys ? cl_col_good : cl_col_text, draw);
        y += fh / 3;
    }
    return y;
}

void cl_howto_draw(SDL_Renderer *r, cl_text *t, const cl_bindings *b, int kind, int out_w, int out_h,
                   const char *foot)
{
    char lines[10][CL_HOWTO_LINE];
    int n = cl_howto_lines(b, 0, kind, lines, 10);
    int fh = cl_text_height(t, CL_FONT_BODY), th = cl_text_height(t, CL_FONT_TITLE);
    int sh = cl_text_height(t, CL_FONT_SMALL), pad = fh;
    int w = out_w - 2 * fh < fh * 40 ? out_w - 2 * fh : fh * 40;
    /* As tall as its text, within the screen. */
    int h = body(t, lines, n, 0, th + fh / 2, w - 2 * pad, false) + sh + 2 * pad + fh / 2;
    if (h > out_h - 2 * fh / 3)
        h = out_h - 2 * fh / 3;
    int x = (out_w - w) / 2, y = (out_h - h) / 2;
    cl_draw_fill(r, 0, 0, out_w, out_h, (SDL_Color){0, 0, 0, 170});
    cl_draw_panel(r, x, y, w, h, cl_col_panel);
    cl_draw_frame(r, x, y, w, h, 2, cl_col_accent);
    cl_text_draw(t, CL_FONT_TITLE, lines[0], x + pad, y + pad, cl_col_accent, CL_LEFT);
    body(t, lines, n, x + pad, y + pad + th + fh / 2, w - 2 * pad, true);
    if (foot)
        cl_text_draw(t, CL_FONT_SMALL, foot, x + w / 2, y + h - pad - sh, cl_col_dim, CL_CENTER);
}
