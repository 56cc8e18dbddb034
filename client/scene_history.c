/* scene_history.c: the History screen: this player's races, newest first,
 * a page at a time; any of them opens as a replay. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cl_app.h"
#include "cl_draw.h"

enum { ROWS = 10, H_ROW = 1, H_NEWER = 100, H_OLDER, H_BACK };

static void ask(cl_app *a)
{
    a->hist.ticket = cl_history_ask_page(a->history, a->hist.before[a->hist.page_no], ROWS);
}

/* Rows for the races on the page, then the buttons. */
static void build(cl_app *a)
{
    int sel = a->form.n ? a->form.items[a->form.sel].id : H_ROW;
    /* The first rows to show take the selection from the buttons. */
    if (a->form.n == 0 || a->form.items[0].id >= H_NEWER)
        sel = H_ROW;
    cl_form_clear(&a->form);
    const cl_hist_page *p = a->hist.page;
    for (int i = 0; p && i < p->n; i++)
        cl_form_add(&a->form, CL_ITEM_BUTTON, H_ROW + i, "");
    cl_form_add(&a->form, CL_ITEM_BUTTON, H_NEWER, "Newer")->disabled = a->hist.page_no == 0;
    cl_form_add(&a->form, CL_ITEM_BUTTON, H_OLDER, "Older")->disabled =
        !p || !p->more || a->hist.page_no + 1 >= CL_HIST_PAGES;
    cl_form_add(&a->form, CL_ITEM_BUTTON, H_BACK, "Back");
    a->form.sel = a->form.n - 1;
    for (int i = 0; i < a->form.n; i++)
        if (a->form.items[i].id == sel && !a->form.items[i].disabled)
            a->form.sel = i;
    if (sel >= H_ROW && sel < H_NEWER && p && p->n > 0)
        a->form.sel = sel - H_ROW < p->n ? sel - H_ROW : p->n - 1;
}

static void enter(cl_app *a)
{
    a->hist.page_no = 0;
    a->hist.before[0] = 0;
    a->hist.race_ticket = 0;
    free(a->hist.page);
    a->hist.page = NULL;
    cl_form_clear(&a->form);
    ask(a);
    build(a);
}

void cl_history_scene_free(cl_app *a)
{
    free(a->hist.page);
    a->hist.page = NULL;
}

static void turn(cl_app *a, int d)
{
    const cl_hist_page *p = a->hist.page;
    if (d < 0 && a->hist.page_no > 0) {
        a->hist.page_no--;
    } else if (d > 0 && p && p->more && p->n > 0 && a->hist.page_no + 1 < CL_HIST_PAGES) {
        a->hist.page_no++;
        a->hist.before[a->hist.page_no] = p->e[p->n - 1].id;
    } else {
        return;
    }
    ask(a);
}

static void event(cl_app *a, const SDL_Event *e)
{
    int d = cl_form_page_turn(e);
    if (d) {
        turn(a, d);
        return;
    }
    cl_form_result r = cl_form_event(&a->form, e, a->mouse_scale);
    if (r.back || r.activated == H_BACK) {
        cl_app_set_scene(a, CL_SCENE_MENU);
        return;
    }
    if (r.activated == H_NEWER || r.activated == H_OLDER) {
        turn(a, r.activated == H_NEWER ? -1 : 1);
        return;
    }
    const cl_hist_page *p = a->hist.page;
    int i = r.activated - H_ROW;
    if (p && r.activated >= H_ROW && i < p->n && !a->hist.race_ticket)
        a->hist.race_ticket = cl_history_ask_race(a->history, p->e[i].id);
}

static void update(cl_app *a)
{
    cl_hist_page got;
    if (cl_history_page(a->history, a->hist.ticket, &got)) {
        a->hist.ticket = 0;
        if (!a->hist.page)
            a->hist.page = malloc(sizeof *a->hist.page);
        if (a->hist.page)
            *a->hist.page = got;
        build(a);
        /* Tests and terminals see what the screen lists. */
        printf("HISTORY page=%d races=%d more=%d newest=%s\n", a->hist.page_no + 1, got.n, got.more,
               got.n ? got.e[0].game_id : "-");
        fflush(stdout);
    }
    cl_hist_race race;
    if (a->hist.race_ticket && cl_history_race(a->history, a->hist.race_ticket, &race)) {
        a->hist.race_ticket = 0;
        if (race.id == 0)
            cl_app_say(a, true, "That race is no longer in the history");
        else
            cl_history_open_replay(a, &race);
        cl_hist_race_free(&race);
    }
}

/* This player's slot in r: the one with the player's name, else -1. */
static int my_slot(const cl_app *a, const cl_hist_race *r)
{
    if (r->mode == CL_HIST_HOTSEAT)
        return -1;
    for (int s = 0; s < 2; s++)
        if (strcmp(r->name[s], a->settings.name) == 0)
            return s;
    return r->mode == CL_HIST_COMPUTER ? 0 : -1;
}

static void fmt_secs(char *buf, size_t len, uint64_t ms)
{
    snprintf(buf, len, "%llu.%02llu s", (unsigned long long)(ms / 1000),
             (unsigned long long)(ms % 1000 / 10));
}

/* The columns of one race. */
static void columns(const cl_app *a, const cl_hist_race *r, char cols[5][64])
{
    time_t t = (time_t)r->started;
    struct tm tm;
    if (localtime_r(&t, &tm))
        strftime(cols[0], 64, "%Y-%m-%d %H:%M", &tm);
    else
        snprintf(cols[0], 64, "?");
    const pz_kind *k = pz_kind_by_id(r->params.kind);
    snprintf(cols[1], 64, "%s %dx%d", k ? k->name : "?", r->params.w, r->params.h);
    int me = my_slot(a, r);
    if (me < 0)
        snprintf(cols[2], 64, "%.20s v %.20s%s", r->name[0], r->name[1],
                 r->mode == CL_HIST_HOTSEAT ? " (hotseat)" : "");
    else
        snprintf(cols[2], 64, "%.24s%s", r->name[1 - me], r->mode == CL_HIST_ONLINE ? " (online)" : "");
    if (r->winner < 0 || r->winner > 1)
        snprintf(cols[3], 64, "%s", r->reason == MATCH_END_ABORTED ? "unfinished" : "no winner");
    else if (me < 0)
        snprintf(cols[3], 64, "%.20s won", r->name[r->winner]);
    else
        snprintf(cols[3], 64, "%s%s", r->winner == me ? "won" : "lost",
                 r->reason == MATCH_END_FORFEIT ? " (forfeit)" : "");
    /* The race's time: the winner's solve. */
    uint64_t ms = cl_hist_race_best_ms(r);
    if (ms)
        fmt_secs(cols[4], 64, ms);
    else
        snprintf(cols[4], 64, "-");
}

static void draw(cl_app *a)
{
    char sub[96];
    snprintf(sub, sizeof sub, "Your races, newest first  -  page %d", a->hist.page_no + 1);
    SDL_Rect area = cl_app_title(a, "History", sub);
    cl_text *t = a->text;
    /* Where each column starts (fractions of the table width). */
    static const int at[5] = {2, 24, 41, 73, 98};
    static const int align[5] = {CL_LEFT, CL_LEFT, CL_LEFT, CL_LEFT, CL_RIGHT};
    static const char *const head[5] = {"date", "puzzle", "opponent", "result", "winning time"};
    cl_table_geo g;
    cl_form_table_heads(t, a->out_w, area.y, 5, head, at, align, &g);
    int fh = g.fh, row = g.row, gap = g.gap, w = g.w, x = g.x, y = g.y;
    const cl_hist_page *p = a->hist.page;
    int rows_top = y;
    if (!a->history || (p && !p->ok)) {
        cl_text_draw(t, CL_FONT_BODY,
                     a->history ? "The history file cannot be used (see the message)" : "No history this run",
                     a->out_w / 2, y + fh, cl_col_dim, CL_CENTER);
    } else if (!p) {
        cl_text_draw(t, CL_FONT_BODY, "Reading...", a->out_w / 2, y + fh, cl_col_dim, CL_CENTER);
    } else if (p->n == 0) {
        cl_text_draw(t, CL_FONT_BODY, "No races yet: finish one and it shows here", a->out_w / 2, y + fh,
                     cl_col_dim, CL_CENTER);
    }
    for (int i = 0; i < a->form.n; i++) {
        cl_item *it = &a->form.items[i];
        if (it->id >= H_NEWER || !p || it->id - H_ROW >= p->n)
            continue;
        const cl_hist_race *r = &p->e[it->id - H_ROW];
        bool sel = i == a->form.sel;
        it->rect = (SDL_Rect){x, y, w, row};
        cl_form_draw_row_panel(a->ren, it->rect, sel, fh / 4);
        char cols[5][64];
        columns(a, r, cols);
        int me = my_slot(a, r);
        for (int c = 0; c < 5; c++) {
            SDL_Color ink = cl_col_text;
            if (c == 3 && r->winner >= 0 && r->winner < 2)
                ink = me < 0 ? cl_col_player_soft[r->winner] : r->winner == me ? cl_col_good : cl_col_bad;
            cl_text_draw_mid(t, CL_FONT_BODY, cols[c], x + w * at[c] / 100, y + row / 2, ink, align[c]);
        }
        y += row + gap;
    }
    /* The buttons in one row under the table's full height. */
    y = rows_top + ROWS * (row + gap) + gap;
    cl_form_draw_button_row(&a->form, a->ren, t, H_NEWER, x, y, w, row);
    cl_text_draw(t, CL_FONT_SMALL,
                 "Enter/click opens a replay  -  PgUp/PgDn, Left/Right, wheel or LB/RB turn pages",
                 a->out_w / 2, a->out_h - cl_text_height(t, CL_FONT_SMALL) * 2, cl_col_dim, CL_CENTER);
}

const cl_scene cl_scene_history = {"history", enter, event, update, draw};
