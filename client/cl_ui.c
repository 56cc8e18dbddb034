/* cl_ui.c: the form widget. */
#include "cl_ui.h"

#include <stdio.h>
#include <string.h>

#include "cl_draw.h"

void cl_form_clear(cl_form *f)
{
    memset(f, 0, sizeof *f);
}

cl_item *cl_form_add(cl_form *f, int type, int id, const char *label)
{
    if (f->n == CL_FORM_MAX)
        return &f->items[CL_FORM_MAX - 1];
    cl_item *it = &f->items[f->n++];
    memset(it, 0, sizeof *it);
    it->type = type;
    it->id = id;
    it->maxlen = (int)sizeof it->value - 1;
    it->caret = -1; /* at the end of whatever value the caller puts in */
    snprintf(it->label, sizeof it->label, "%s", label);
    if (f->sel == f->n - 1 && (type == CL_ITEM_LABEL))
        f->sel = f->n;
    return it;
}

cl_item *cl_form_find(cl_form *f, int id)
{
    for (int i = 0; i < f->n; i++)
        if (f->items[i].id == id)
            return &f->items[i];
    return NULL;
}

void cl_item_choice(cl_item *it, const char *text)
{
    if (it->nchoices < CL_CHOICE_MAX)
        snprintf(it->choices[it->nchoices++], sizeof it->choices[0], "%s", text);
}

static bool selectable(const cl_item *it)
{
    return it->type != CL_ITEM_LABEL && !it->disabled;
}

void cl_form_select(cl_form *f, int i)
{
    if (i < 0 || i >= f->n)
        return;
    bool moved = i != f->sel;
    f->sel = i;
    if (moved && f->items[i].type == CL_ITEM_TEXT)
        cl_edit_focus(&f->items[i]);
}

static void move_sel(cl_form *f, int d)
{
    int at = f->sel;
    for (int k = 0; k < f->n; k++) {
        at = (at + d + f->n) % f->n;
        if (selectable(&f->items[at])) {
            cl_form_select(f, at);
            return;
        }
    }
}

bool cl_form_editing(const cl_form *f)
{
    return f->sel >= 0 && f->sel < f->n && f->items[f->sel].type == CL_ITEM_TEXT;
}

/* A text field's keys: caret, words, select-all; true if k was one. */
static bool edit_key(cl_item *it, SDL_Keycode k, Uint16 mod, cl_form_result *res)
{
    bool ctrl = (mod & (KMOD_CTRL | KMOD_GUI)) != 0;
    int op = -1;
    switch (k) {
    case SDLK_LEFT:
        op = ctrl ? CL_EDIT_WORD_LEFT : CL_EDIT_LEFT;
        break;
    case SDLK_RIGHT:
        op = ctrl ? CL_EDIT_WORD_RIGHT : CL_EDIT_RIGHT;
        break;
    case SDLK_HOME:
        op = CL_EDIT_HOME;
        break;
    case SDLK_END:
        op = CL_EDIT_END;
        break;
    case SDLK_BACKSPACE:
        op = ctrl ? CL_EDIT_WORD_BACKSPACE : CL_EDIT_BACKSPACE;
        break;
    case SDLK_DELETE:
        op = CL_EDIT_DELETE;
        break;
    case SDLK_a:
        op = ctrl ? CL_EDIT_ALL : -1;
        break;
    case SDLK_u:
        op = ctrl ? CL_EDIT_CLEAR : -1; /* as in a terminal */
        break;
    default:
        break;
    }
    if (op < 0)
        return false;
    if (cl_edit_op(it, op))
        res->changed = it->id;
    return true;
}

static void cycle(cl_item *it, int d)
{
    if (it->nchoices > 0)
        it->choice = (it->choice + d + it->nchoices) % it->nchoices;
}

static int hit(const cl_form *f, int x, int y)
{
    for (int i = 0; i < f->n; i++) {
        const SDL_Rect *r = &f->items[i].rect;
        if (selectable(&f->items[i]) && x >= r->x && y >= r->y && x < r->x + r->w && y < r->y + r->h)
            return i;
    }
    return -1;
}

/* Keys: arrows and Tab move and change, Return presses, Esc goes back. */
static void key(cl_form *f, SDL_Keycode k, Uint16 mod, cl_form_result *res)
{
    if (f->n == 0)
        return;
    if (!selectable(&f->items[f->sel]))
        move_sel(f, 1);
    cl_item *it = &f->items[f->sel];
    if (it->type == CL_ITEM_TEXT && edit_key(it, k, mod, res))
        return;
    switch (k) {
    case SDLK_UP:
        move_sel(f, -1);
        break;
    case SDLK_DOWN:
        move_sel(f, 1);
        break;
    case SDLK_TAB:
        move_sel(f, (mod & KMOD_SHIFT) ? -1 : 1);
        break;
    case SDLK_LEFT:
    case SDLK_RIGHT:
        if (it->type == CL_ITEM_CHOICE) {
            cycle(it, k == SDLK_LEFT ? -1 : 1);
            res->changed = it->id;
        }
        break;
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
        if (it->type == CL_ITEM_CHOICE) {
            cycle(it, 1);
            res->changed = it->id;
        } else if (it->type == CL_ITEM_TEXT) {
            move_sel(f, 1);
        } else {
            res->activated = it->id;
        }
        break;
    case SDLK_SPACE:
        if (it->type == CL_ITEM_BUTTON)
            res->activated = it->id;
        break;
    case SDLK_ESCAPE:
        res->back = true;
        break;
    case SDLK_v:
        if (it->type == CL_ITEM_TEXT && (mod & KMOD_CTRL) && SDL_HasClipboardText()) {
            char *clip = SDL_GetClipboardText();
            if (clip) {
                /* A pasted game ID often carries a trailing newline. */
                for (char *p = clip; *p; p++)
                    if (*p == '\n' || *p == '\r')
                        *p = '\0';
                if (cl_edit_insert(it, clip))
                    res->changed = it->id;
                SDL_free(clip);
            }
        }
        break;
    default:
        break;
    }
}

cl_form_result cl_form_event(cl_form *f, const SDL_Event *e, float scale)
{
    cl_form_result res = {-1, -1, false};
    if (f->n == 0)
        return res;
    if (f->sel >= f->n)
        f->sel = 0;
    switch (e->type) {
    case SDL_KEYDOWN:
        key(f, e->key.keysym.sym, e->key.keysym.mod, &res);
        break;
    case SDL_TEXTINPUT:
        if (cl_form_editing(f) && cl_edit_insert(&f->items[f->sel], e->text.text))
            res.changed = f->items[f->sel].id;
        break;
    case SDL_MOUSEMOTION: {
        /* Hover moves the highlight only: a field's text and caret stay as
         * they were (a selection on a passing pointer would lose typing). */
        int i = hit(f, (int)(e->motion.x * scale), (int)(e->motion.y * scale));
        if (i >= 0)
            f->sel = i;
        break;
    }
    case SDL_MOUSEBUTTONDOWN: {
        int i = hit(f, (int)(e->button.x * scale), (int)(e->button.y * scale));
        if (i < 0)
            break;
        f->sel = i;
        cl_item *it = &f->items[i];
        /* A click on a field selects its text (typing replaces it); a
         * second click puts the caret at the end. */
        if (it->type == CL_ITEM_TEXT) {
            if (it->all)
                cl_edit_op(it, CL_EDIT_END);
            else
                cl_edit_focus(it);
        }
        if (it->type == CL_ITEM_BUTTON && e->button.button == SDL_BUTTON_LEFT)
            res.activated = it->id;
        else if (it->type == CL_ITEM_CHOICE) {
            cycle(it, e->button.button == SDL_BUTTON_RIGHT ? -1 : 1);
            res.changed = it->id;
        }
        break;
    }
    case SDL_CONTROLLERBUTTONDOWN: {
        static const SDL_Keycode map[SDL_CONTROLLER_BUTTON_MAX] = {
            [SDL_CONTROLLER_BUTTON_A] = SDLK_RETURN,         [SDL_CONTROLLER_BUTTON_B] = SDLK_ESCAPE,
            [SDL_CONTROLLER_BUTTON_START] = SDLK_RETURN,     [SDL_CONTROLLER_BUTTON_DPAD_UP] = SDLK_UP,
            [SDL_CONTROLLER_BUTTON_DPAD_DOWN] = SDLK_DOWN,   [SDL_CONTROLLER_BUTTON_DPAD_LEFT] = SDLK_LEFT,
            [SDL_CONTROLLER_BUTTON_DPAD_RIGHT] = SDLK_RIGHT,
        };
        if (e->cbutton.button < SDL_CONTROLLER_BUTTON_MAX && map[e->cbutton.button])
            key(f, map[e->cbutton.button], 0, &res);
        break;
    }
    default:
        break;
    }
    return res;
}

/* A text field's value in the box at bx (bw wide) on the row at y: the
 * part around the caret that fits, the selection lit, the caret when sel. */
static void draw_text_value(SDL_Renderer *r, cl_text *t, const cl_item *it, bool sel, int bx, int bw, int y,
                            int row, int pad)
{
    int cy = y + row / 2;
    cl_draw_fill(r, bx, y + row / 6, bw, row - row / 3, cl_col_bg);
    char buf[sizeof it->value];
    size_t n = strlen(it->value);
    size_t caret = it->caret >= 0 && (size_t)it->caret <= n ? (size_t)it->caret : n;
    /* Drop characters from the left until the text up to the caret fits. */
    size_t from = 0;
    for (;; from++) {
        memcpy(buf, it->value + from, caret - from);
        buf[caret - from] = '\0';
        if (from >= caret || cl_text_width(t, CL_FONT_BODY, buf) <= bw - pad / 2)
            break;
    }
    int cw = cl_text_width(t, CL_FONT_BODY, buf);
    snprintf(buf, sizeof buf, "%s", it->value + from);
    while (strlen(buf) > caret - from && cl_text_width(t, CL_FONT_BODY, buf) > bw - pad / 2)
        buf[strlen(buf) - 1] = '\0';
    if (sel && it->all && buf[0])
        cl_draw_fill(r, bx + pad / 4, y + row / 4, cl_text_width(t, CL_FONT_BODY, buf), row / 2,
                     cl_col_accent);
    cl_text_draw_mid(t, CL_FONT_BODY, buf, bx + pad / 4, cy, sel && it->all ? cl_col_bg : cl_col_text,
                     CL_LEFT);
    if (sel && !it->all)
        cl_draw_fill(r, bx + pad / 4 + cw, y + row / 4, 2, row / 2, cl_col_accent);
}

static void draw_item(cl_form *f, int i, SDL_Renderer *r, cl_text *t, int x, int y, int w, int row)
{
    int fh = cl_text_height(t, CL_FONT_BODY);
    cl_item *it = &f->items[i];
    bool sel = i == f->sel && selectable(it);
    it->rect = (SDL_Rect){x, y, w, row};
    int cy = y + row / 2;
    if (it->type == CL_ITEM_LABEL) {
        cl_text_draw_mid(t, CL_FONT_BODY, it->label, x + w / 2, cy, cl_col_dim, CL_CENTER);
        return;
    }
    SDL_Color fill = sel ? cl_col_panel_hi : cl_col_panel;
    cl_draw_panel(r, x, y, w, row, fill);
    if (sel)
        cl_draw_fill(r, x, y, fh / 4, row, cl_col_accent);
    SDL_Color ink = it->disabled ? cl_col_dim : cl_col_text;
    int pad = fh;
    if (it->type == CL_ITEM_BUTTON) {
        cl_text_draw_mid(t, CL_FONT_BODY, it->label, it->value[0] ? x + pad : x + w / 2, cy, ink,
                         it->value[0] ? CL_LEFT : CL_CENTER);
        if (it->value[0])
            cl_text_draw_mid(t, CL_FONT_BODY, it->value, x + w - pad, cy, cl_col_dim, CL_RIGHT);
    } else if (it->type == CL_ITEM_CHOICE) {
        cl_text_draw_mid(t, CL_FONT_BODY, it->label, x + pad, cy, ink, CL_LEFT);
        char buf[64];
        snprintf(buf, sizeof buf, "<  %s  >", it->nchoices ? it->choices[it->choice] : "");
        cl_text_draw_mid(t, CL_FONT_BODY, buf, x + w - pad, cy, sel ? cl_col_accent : ink, CL_RIGHT);
    } else {
        int lw = cl_text_draw_mid(t, CL_FONT_BODY, it->label, x + pad, cy, ink, CL_LEFT);
        int bx = x + pad + lw + pad / 2;
        draw_text_value(r, t, it, sel, bx, x + w - pad / 2 - bx, y, row, pad);
    }
}

void cl_form_draw(cl_form *f, SDL_Renderer *r, cl_text *t, SDL_Rect area)
{
    int fh = cl_text_height(t, CL_FONT_BODY);
    int row = fh * 17 / 10, gap = fh / 3;
    /* Long forms tighten their rows to fit rather than run off the screen. */
    if (f->n > 0 && f->n * (row + gap) > area.h) {
        gap = fh / 6;
        row = area.h / f->n - gap;
        if (row < fh * 5 / 4)
            row = fh * 5 / 4;
    }
    int w = area.w < fh * 26 ? area.w : fh * 26;
    int total = f->n * (row + gap);
    int x = area.x + (area.w - w) / 2;
    int y = area.y + (area.h - total) / 2;
    if (y < area.y)
        y = area.y;
    for (int i = 0; i < f->n; i++, y += row + gap)
        draw_item(f, i, r, t, x, y, w, row);
}

void cl_form_draw_rows(cl_form *f, SDL_Renderer *r, cl_text *t, SDL_Rect area, int first, int count)
{
    int fh = cl_text_height(t, CL_FONT_BODY);
    int row = fh * 17 / 10, gap = fh / 3;
    int w = area.w < fh * 26 ? area.w : fh * 26;
    int x = area.x + (area.w - w) / 2, y = area.y;
    for (int i = first; i < first + count && i < f->n; i++, y += row + gap)
        draw_item(f, i, r, t, x, y, w, row);
}

void cl_form_draw_row_panel(SDL_Renderer *r, SDL_Rect rc, bool sel, int bar)
{
    cl_draw_panel(r, rc.x, rc.y, rc.w, rc.h, sel ? cl_col_panel_hi : cl_col_panel);
    if (sel)
        cl_draw_fill(r, rc.x, rc.y, bar, rc.h, cl_col_accent);
}

void cl_form_draw_button_row(cl_form *f, SDL_Renderer *r, cl_text *t, int first_id, int x, int y, int w,
                             int row)
{
    int fh = cl_text_height(t, CL_FONT_BODY), n = 0, nb = 0;
    for (int i = 0; i < f->n; i++)
        n += f->items[i].id >= first_id;
    if (n == 0)
        return;
    int bw = (w - (n - 1) * fh) / n;
    for (int i = 0; i < f->n; i++) {
        cl_item *it = &f->items[i];
        if (it->id < first_id)
            continue;
        int bx = x + nb++ * (bw + fh);
        it->rect = (SDL_Rect){bx, y, bw, row};
        cl_form_draw_row_panel(r, it->rect, i == f->sel && !it->disabled, fh / 4);
        cl_text_draw_mid(t, CL_FONT_BODY, it->label, bx + bw / 2, y + row / 2,
                         it->disabled ? cl_col_dim : cl_col_text, CL_CENTER);
    }
}

void cl_form_table_heads(cl_text *t, int out_w, int top, int ncols, const char *const head[], const int at[],
                         const int align[], cl_table_geo *g)
{
    g->fh = cl_text_height(t, CL_FONT_BODY);
    g->row = g->fh * 3 / 2;
    g->gap = g->fh / 5;
    g->w = out_w - 80 < g->fh * 44 ? out_w - 80 : g->fh * 44;
    g->x = (out_w - g->w) / 2;
    g->ncols = ncols;
    g->at = at;
    g->align = align;
    for (int c = 0; c < ncols; c++)
        cl_text_draw(t, CL_FONT_SMALL, head[c], g->x + g->w * at[c] / 100, top, cl_col_dim, align[c]);
    g->y = top + cl_text_height(t, CL_FONT_SMALL) + g->gap;
}

SDL_Rect cl_form_table_row(SDL_Renderer *r, cl_text *t, const cl_table_geo *g, int y, bool sel,
                           const char cols[][64], const SDL_Color ink[])
{
    SDL_Rect rc = {g->x, y, g->w, g->row};
    cl_form_draw_row_panel(r, rc, sel, g->fh / 4);
    for (int c = 0; c < g->ncols; c++)
        cl_text_draw_mid(t, CL_FONT_BODY, cols[c], g->x + g->w * g->at[c] / 100, y + g->row / 2, ink[c],
                         g->align[c]);
    return rc;
}

int cl_form_page_turn(const SDL_Event *e)
{
    if (e->type == SDL_KEYDOWN) {
        SDL_Keycode k = e->key.keysym.sym;
        if (k == SDLK_PAGEUP || k == SDLK_LEFT)
            return -1;
        if (k == SDLK_PAGEDOWN || k == SDLK_RIGHT)
            return 1;
    } else if (e->type == SDL_MOUSEWHEEL && e->wheel.y != 0) {
        return e->wheel.y > 0 ? -1 : 1;
    } else if (e->type == SDL_CONTROLLERBUTTONDOWN) {
        int b = e->cbutton.button;
        if (b == SDL_CONTROLLER_BUTTON_LEFTSHOULDER || b == SDL_CONTROLLER_BUTTON_DPAD_LEFT)
            return -1;
        if (b == SDL_CONTROLLER_BUTTON_RIGHTSHOULDER || b == SDL_CONTROLLER_BUTTON_DPAD_RIGHT)
            return 1;
    }
    return 0;
}
