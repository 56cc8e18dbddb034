/* cl_scene_history.c: the History screen: this player's races, newest first,
 * a page at a time (any of them opens as a replay), and the best-times view:
 * the fastest solves on each kind and size, the computer's kept apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cl_scene.h"
#include "cl_draw.h"
#include "cl_replay.h"
#include "cl_ui.h"
#include "st_engine.h"
#include "st_writer.h"
#include "util.h"

enum { ROWS = 10, PAGES = 256, H_ROW = 1, H_NEWER = 100, H_OLDER, H_VIEW, H_BACK };

/* The screen's own state (cl_scene.state_size): the page shown and how it
 * was reached. */
typedef struct hist_ui {
    cl_form form;
    uint32_t ticket, race_ticket;
    int page_no;
    int64_t before[PAGES]; /* by page number: the id the page starts before */
    st_answer *page;       /* NULL until the first answer: its races (ROWS at most) */
    bool more;             /* older races than the page's */
    /* The best-times view (shown instead of the races when bests). */
    bool bests;
    int best_page;
    uint32_t table_ticket;
    cl_hist_table *table; /* NULL until the first answer */
} hist_ui;

/* Frees the page and the table shown. */
static void free_answers(void *state)
{
    hist_ui *u = state;
    st_answer_free(u->page);
    free(u->page);
    u->page = NULL;
    free(u->table);
    u->table = NULL;
}

static void ask(cl_app *a)
{
    hist_ui *u = cl_app_scene_state(a, CL_SCENE_HISTORY);
    u->ticket = cl_history_ask_page(a->history, u->before[u->page_no], ROWS);
}

/* Rows for the races on the page (none in the best-times view: its rows
 * only show), then the buttons. */
static void build(cl_app *a)
{
    hist_ui *u = cl_app_scene_state(a, CL_SCENE_HISTORY);
    int sel = u->form.n ? u->form.items[u->form.sel].id : H_ROW;
    /* The first rows to show take the selection from the buttons; the
     * best-times view keeps it on its buttons. */
    if (u->bests) {
        if (sel < H_NEWER)
            sel = H_VIEW;
    } else if (u->form.n == 0 || u->form.items[0].id >= H_NEWER) {
        sel = H_ROW;
    }
    cl_form_clear(&u->form);
    const st_answer *p = u->bests ? NULL : u->page;
    for (int i = 0; p && i < p->n; i++)
        cl_form_add(&u->form, CL_ITEM_BUTTON, H_ROW + i, "");
    if (u->bests) {
        const cl_hist_table *t = u->table;
        cl_form_add(&u->form, CL_ITEM_BUTTON, H_NEWER, "Previous")->disabled = u->best_page == 0;
        cl_form_add(&u->form, CL_ITEM_BUTTON, H_OLDER, "Next")->disabled =
            !t || (u->best_page + 1) * ROWS >= t->n;
    } else {
        cl_form_add(&u->form, CL_ITEM_BUTTON, H_NEWER, "Newer")->disabled = u->page_no == 0;
        cl_form_add(&u->form, CL_ITEM_BUTTON, H_OLDER, "Older")->disabled =
            !p || !u->more || u->page_no + 1 >= PAGES;
    }
    cl_form_add(&u->form, CL_ITEM_BUTTON, H_VIEW, u->bests ? "Races" : "Best times");
    cl_form_add(&u->form, CL_ITEM_BUTTON, H_BACK, "Back");
    u->form.sel = u->form.n - 1;
    for (int i = 0; i < u->form.n; i++)
        if (u->form.items[i].id == sel && !u->form.items[i].disabled)
            u->form.sel = i;
    if (sel >= H_ROW && sel < H_NEWER && p && p->n > 0)
        u->form.sel = sel - H_ROW < p->n ? sel - H_ROW : p->n - 1;
}

static void enter(cl_app *a)
{
    hist_ui *u = cl_app_scene_state(a, CL_SCENE_HISTORY);
    u->page_no = 0;
    u->before[0] = 0;
    u->race_ticket = 0;
    free_answers(u);
    u->bests = false;
    u->best_page = 0;
    u->table_ticket = 0;
    cl_form_clear(&u->form);
    ask(a);
    build(a);
}

/* Between the races and the best times; the table is read afresh each
 * time it is shown. */
static void toggle(cl_app *a)
{
    hist_ui *u = cl_app_scene_state(a, CL_SCENE_HISTORY);
    u->bests = !u->bests;
    if (u->bests) {
        u->best_page = 0;
        u->table_ticket = cl_history_ask_table(a->history, a->settings.name);
    }
    build(a);
}

static void turn(cl_app *a, int d)
{
    hist_ui *u = cl_app_scene_state(a, CL_SCENE_HISTORY);
    if (u->bests) {
        const cl_hist_table *t = u->table;
        if (d < 0 && u->best_page > 0)
            u->best_page--;
        else if (d > 0 && t && (u->best_page + 1) * ROWS < t->n)
            u->best_page++;
        build(a);
        return;
    }
    const st_answer *p = u->page;
    if (d < 0 && u->page_no > 0) {
        u->page_no--;
    } else if (d > 0 && p && u->more && p->n > 0 && u->page_no + 1 < PAGES) {
        u->page_no++;
        u->before[u->page_no] = p->matches[p->n - 1].id;
    } else {
        return;
    }
    ask(a);
}

static void event(cl_app *a, const SDL_Event *e)
{
    hist_ui *u = cl_app_scene_state(a, CL_SCENE_HISTORY);
    int d = cl_form_page_turn(e);
    if (d) {
        turn(a, d);
        return;
    }
    if ((e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_b) ||
        (e->type == SDL_CONTROLLERBUTTONDOWN && e->cbutton.button == SDL_CONTROLLER_BUTTON_Y)) {
        toggle(a);
        return;
    }
    cl_form_result r = cl_form_event(&u->form, e, a->mouse_scale);
    if (r.back || r.activated == H_BACK) {
        cl_app_set_scene(a, CL_SCENE_MENU);
        return;
    }
    if (r.activated == H_VIEW) {
        toggle(a);
        return;
    }
    if (r.activated == H_NEWER || r.activated == H_OLDER) {
        turn(a, r.activated == H_NEWER ? -1 : 1);
        return;
    }
    const st_answer *p = u->page;
    int i = r.activated - H_ROW;
    if (p && !u->bests && r.activated >= H_ROW && i < p->n && !u->race_ticket)
        u->race_ticket = cl_history_ask_race(a->history, p->matches[i].id);
}

static void fmt_secs(char *buf, size_t len, uint64_t ms);

/* A race from the history (with its moves) opened in the replay screen. */
static void open_replay(cl_app *a, const st_answer *race)
{
    if (race->error || !race->found) {
        cl_app_say(a, true, "%s",
                   race->error ? "The history cannot be read now" : "That race is no longer in the history");
        return;
    }
    const char *why = NULL;
    replay *rp = st_to_replay(&race->match, &why);
    if (!rp)
        cl_app_say(a, true, "This race cannot be replayed: %s", why ? why : "unknown problem");
    else
        cl_replay_open(a, rp, "history");
}

/* The best-times table came in: keep it and say its rows (tests and terminals). */
static void table_in(cl_app *a, const cl_hist_table *t)
{
    hist_ui *u = cl_app_scene_state(a, CL_SCENE_HISTORY);
    free(u->table);
    u->table = malloc(sizeof *u->table);
    if (u->table)
        *u->table = *t;
    build(a);
    printf("HISTORY_BESTS ok=%d rows=%d\n", t->ok, t->n);
    for (int i = 0; i < t->n; i++) {
        const cl_hist_best_row *e = &t->e[i];
        const pz_kind *k = pz_kind_by_id(e->kind);
        printf("HISTORY_BEST %s %dx%d races=%d unsolved=%d you=%llu person=%llu(%s) computer=%llu\n",
               k ? k->name : "?", e->w, e->h, e->races, e->unsolved, (unsigned long long)e->you_ms,
               (unsigned long long)e->person_ms, e->person[0] ? e->person : "-",
               (unsigned long long)e->bot_ms);
    }
    fflush(stdout);
}

static void update(cl_app *a)
{
    hist_ui *u = cl_app_scene_state(a, CL_SCENE_HISTORY);
    if (u->table_ticket) {
        cl_hist_table *t = malloc(sizeof *t);
        if (t && cl_history_table(a->history, u->table_ticket, t)) {
            u->table_ticket = 0;
            table_in(a, t);
        }
        free(t);
    }
    st_answer got;
    if (cl_history_page(a->history, u->ticket, &got, &u->more)) {
        u->ticket = 0;
        if (!u->page)
            u->page = mr_alloc(1, sizeof *u->page);
        else
            st_answer_free(u->page);
        *u->page = got;
        build(a);
        /* Tests and terminals see what the screen lists. */
        printf("HISTORY page=%d races=%d more=%d newest=%s\n", u->page_no + 1, got.n, u->more,
               got.n ? got.matches[0].game_id : "-");
        fflush(stdout);
    }
    st_answer race;
    if (u->race_ticket && cl_history_race(a->history, u->race_ticket, &race)) {
        u->race_ticket = 0;
        open_replay(a, &race);
        st_answer_free(&race);
    }
}

/* This player's slot in r: the one with the player's name, else -1. */
static int my_slot(const cl_app *a, const st_match *r)
{
    if (cl_hist_mode_is(r, CL_HIST_HOTSEAT))
        return -1;
    for (int s = 0; s < 2; s++)
        if (strcmp(r->p[s].name, a->settings.name) == 0)
            return s;
    return cl_hist_mode_is(r, CL_HIST_COMPUTER) ? 0 : -1;
}

static void fmt_secs(char *buf, size_t len, uint64_t ms)
{
    snprintf(buf, len, "%llu.%02llu s", (unsigned long long)(ms / 1000),
             (unsigned long long)(ms % 1000 / 10));
}

/* The columns of one race. */
static void columns(const cl_app *a, const st_match *r, char cols[5][64])
{
    time_t t = (time_t)(r->start_utc_ms / 1000);
    struct tm tm;
    if (localtime_r(&t, &tm))
        strftime(cols[0], 64, "%Y-%m-%d %H:%M", &tm);
    else
        snprintf(cols[0], 64, "?");
    snprintf(cols[1], 64, "%s %dx%d", r->kind, r->width, r->height);
    int me = my_slot(a, r);
    if (me < 0)
        snprintf(cols[2], 64, "%.20s v %.20s%s", r->p[0].name, r->p[1].name,
                 cl_hist_mode_is(r, CL_HIST_HOTSEAT) ? " (hotseat)" : "");
    else
        snprintf(cols[2], 64, "%.24s%s", r->p[1 - me].name,
                 cl_hist_mode_is(r, CL_HIST_ONLINE) ? " (online)" : "");
    if (r->winner < 0 || r->winner > 1)
        snprintf(cols[3], 64, "%s", r->ending == ST_END_ABORTED ? "unfinished" : "no winner");
    else if (me < 0)
        snprintf(cols[3], 64, "%.20s won", r->p[r->winner].name);
    else
        snprintf(cols[3], 64, "%s%s", r->winner == me ? "won" : "lost",
                 r->ending == ST_END_FORFEIT ? " (forfeit)" : "");
    /* The race's time: the winner's solve. */
    uint64_t ms = cl_hist_best_ms(r);
    if (ms)
        fmt_secs(cols[4], 64, ms);
    else
        snprintf(cols[4], 64, "-");
}

/* A best time for the table, or a dash when there is none. */
static void fmt_best(char *buf, size_t len, uint64_t ms)
{
    if (ms)
        fmt_secs(buf, len, ms);
    else
        snprintf(buf, len, "-");
}

/* The columns of one row of the best-times view. */
static void best_columns(const cl_hist_best_row *e, char cols[5][64])
{
    const pz_kind *k = pz_kind_by_id(e->kind);
    snprintf(cols[0], 64, "%s %dx%d", k ? k->name : "?", e->w, e->h);
    if (e->unsolved)
        snprintf(cols[1], 64, "%d (%d unsolved)", e->races, e->unsolved);
    else
        snprintf(cols[1], 64, "%d", e->races);
    fmt_best(cols[2], 64, e->you_ms);
    if (e->person_ms) {
        char secs[32];
        fmt_secs(secs, sizeof secs, e->person_ms);
        snprintf(cols[3], 64, "%s  %.20s", secs, e->person);
    } else {
        snprintf(cols[3], 64, "-");
    }
    fmt_best(cols[4], 64, e->bot_ms);
}

/* What stands where the table's rows would be when there are none: the
 * history cannot be used, is being read, or is empty. NULL when there are rows. */
static const char *empty_text(const cl_app *a, bool ok, bool in, int n)
{
    const hist_ui *u = cl_app_scene_state(a, CL_SCENE_HISTORY);
    if (!a->history || (in && !ok))
        return a->history ? "The history file cannot be used (see the message)" : "No history this run";
    if (!in)
        return "Reading...";
    if (n > 0)
        return NULL;
    return u->bests ? "No races yet: finish one and your best times show here"
                    : "No races yet: finish one and it shows here";
}

/* The best-times view's rows (they show; nothing to open). */
static void draw_bests(cl_app *a, SDL_Rect area)
{
    hist_ui *u = cl_app_scene_state(a, CL_SCENE_HISTORY);
    cl_text *t = a->text;
    static const int at[5] = {2, 24, 52, 60, 98};
    static const int align[5] = {CL_LEFT, CL_LEFT, CL_RIGHT, CL_LEFT, CL_RIGHT};
    static const char *const head[5] = {"puzzle", "races", "your best", "best by a person",
                                        "computer's best"};
    cl_table_geo g;
    cl_form_table_heads(t, a->out_w, area.y, 5, head, at, align, &g);
    const cl_hist_table *tb = u->table;
    const char *none = empty_text(a, tb && tb->ok, tb != NULL, tb ? tb->n : 0);
    if (none)
        cl_text_draw(t, CL_FONT_BODY, none, a->out_w / 2, g.y + g.fh, cl_col_dim, CL_CENTER);
    int y = g.y;
    for (int i = u->best_page * ROWS; tb && i < tb->n && i < (u->best_page + 1) * ROWS; i++) {
        const cl_hist_best_row *e = &tb->e[i];
        char cols[5][64];
        best_columns(e, cols);
        /* Your own best stands out; the computer's is set apart in grey. */
        const SDL_Color ink[5] = {cl_col_text, cl_col_dim, e->you_ms ? cl_col_good : cl_col_text, cl_col_text,
                                  cl_col_dim};
        cl_form_table_row(a->ren, t, &g, y, false, cols, ink);
        y += g.row + g.gap;
    }
    if (tb && tb->more)
        cl_text_draw(t, CL_FONT_SMALL,
                     "(more kinds and sizes than fit: those played only long ago are left out)", a->out_w / 2,
                     g.y + ROWS * (g.row + g.gap) - g.gap, cl_col_dim, CL_CENTER);
    cl_form_draw_button_row(&u->form, a->ren, t, H_NEWER, g.x, g.y + ROWS * (g.row + g.gap) + g.gap, g.w,
                            g.row);
    cl_text_draw(t, CL_FONT_SMALL,
                 "Fastest solves on each kind and size; the computer's never count as a person's best  -  "
                 "B or pad Y: races",
                 a->out_w / 2, a->out_h - cl_text_height(t, CL_FONT_SMALL) * 2, cl_col_dim, CL_CENTER);
}

static void draw(cl_app *a)
{
    hist_ui *u = cl_app_scene_state(a, CL_SCENE_HISTORY);
    char sub[96];
    if (u->bests) {
        const cl_hist_table *tb = u->table;
        int pages = tb && tb->n > ROWS ? (tb->n + ROWS - 1) / ROWS : 1;
        snprintf(sub, sizeof sub, "Best times by puzzle kind and size  -  page %d of %d", u->best_page + 1,
                 pages);
        draw_bests(a, cl_app_title(a, "History", sub));
        return;
    }
    snprintf(sub, sizeof sub, "Your races, newest first  -  page %d", u->page_no + 1);
    SDL_Rect area = cl_app_title(a, "History", sub);
    cl_text *t = a->text;
    /* Where each column starts (fractions of the table width). */
    static const int at[5] = {2, 24, 41, 73, 98};
    static const int align[5] = {CL_LEFT, CL_LEFT, CL_LEFT, CL_LEFT, CL_RIGHT};
    static const char *const head[5] = {"date", "puzzle", "opponent", "result", "winning time"};
    cl_table_geo g;
    cl_form_table_heads(t, a->out_w, area.y, 5, head, at, align, &g);
    int fh = g.fh, row = g.row, gap = g.gap, w = g.w, x = g.x, y = g.y;
    const st_answer *p = u->page;
    int rows_top = y;
    const char *none = empty_text(a, p && !p->error, p != NULL, p ? p->n : 0);
    if (none)
        cl_text_draw(t, CL_FONT_BODY, none, a->out_w / 2, y + fh, cl_col_dim, CL_CENTER);
    for (int i = 0; i < u->form.n; i++) {
        cl_item *it = &u->form.items[i];
        if (it->id >= H_NEWER || !p || it->id - H_ROW >= p->n)
            continue;
        const st_match *r = &p->matches[it->id - H_ROW];
        char cols[5][64];
        columns(a, r, cols);
        int me = my_slot(a, r);
        SDL_Color ink[5] = {cl_col_text, cl_col_text, cl_col_text, cl_col_text, cl_col_text};
        if (r->winner >= 0 && r->winner < 2)
            ink[3] = me < 0 ? cl_col_player_soft[r->winner] : r->winner == me ? cl_col_good : cl_col_bad;
        it->rect = cl_form_table_row(a->ren, t, &g, y, i == u->form.sel, cols, ink);
        y += row + gap;
    }
    /* The buttons in one row under the table's full height. */
    y = rows_top + ROWS * (row + gap) + gap;
    cl_form_draw_button_row(&u->form, a->ren, t, H_NEWER, x, y, w, row);
    cl_text_draw(t, CL_FONT_SMALL,
                 "Enter/click opens a replay  -  PgUp/PgDn, Left/Right, wheel or LB/RB turn pages  -  B or "
                 "pad Y: best "
                 "times",
                 a->out_w / 2, a->out_h - cl_text_height(t, CL_FONT_SMALL) * 2, cl_col_dim, CL_CENTER);
}

const cl_scene cl_scene_history = {.name = "history",
                                   .enter = enter,
                                   .event = event,
                                   .update = update,
                                   .draw = draw,
                                   .state_size = sizeof(hist_ui),
                                   .fini = free_answers};
