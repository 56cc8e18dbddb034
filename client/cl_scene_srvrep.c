/* cl_scene_srvrep.c: the Server replays screen: a server's stored matches,
 * newest first, a page at a time (RECENT_REQUEST); any of them is fetched
 * by match id in chunks (REPLAY_REQUEST) and opens in the replay player. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cl_scene.h"
#include "cl_draw.h"
#include "cl_net.h"
#include "cl_replay.h"
#include "cl_ui.h"
#include "util.h"

enum { ROWS = 10, PAGES = 256, TIMEOUT_MS = 10000, S_ROW = 1, S_NEWER = 100, S_OLDER, S_RETRY, S_BACK };

/* The screen's own state (cl_scene.state_size). */
struct cl_srvrep {
    bool open; /* cl_srvrep_open ran and Back was not taken yet */
    cl_form form;
    char host[256];
    int port;
    cl_net_t *net;
    uint64_t open_id; /* --replay-from's match: fetched once connected, 0 none */
    uint32_t list_req, fetch_req;
    uint64_t asked_at; /* when the request running was sent (wall_ms) */
    uint64_t fetch_id;
    int page_no;
    uint64_t before[PAGES]; /* by page number: the id the page starts before */
    wire_recent_list page;
    bool have_page;
    char status[160]; /* what the screen says over the table ("" none) */
    bool status_bad;
};

/* The network answers in real time, also on the headless virtual clock. */
static uint64_t wall_ms(void)
{
    return mr_now_us() / 1000u;
}

static void say(cl_app *a, bool bad, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(cl_app *a, bool bad, const char *fmt, ...)
{
    struct cl_srvrep *s = cl_app_scene_state(a, CL_SCENE_SRVREP);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->status, sizeof s->status, fmt, ap);
    va_end(ap);
    s->status_bad = bad;
    /* Tests and terminals see what the screen says. */
    printf("SERVER_REPLAYS %s %s\n", bad ? "error" : "status", s->status);
    fflush(stdout);
    if (bad && a->args.replay_from && a->args.headless && s->open_id) {
        a->exit_code = 2; /* the command line's replay cannot be shown */
        a->quit = true;
    }
}

static const char *code_text(int code)
{
    return code == WIRE_ERR_NO_RECORDS ? "this server keeps no match records"
           : code == WIRE_ERR_NO_MATCH ? "no such match on this server"
           : code == WIRE_ERR_BUSY     ? "the server is busy, try again"
                                       : "the server could not answer";
}

static void connect_net(cl_app *a)
{
    struct cl_srvrep *s = cl_app_scene_state(a, CL_SCENE_SRVREP);
    cl_net_destroy(s->net);
    s->list_req = s->fetch_req = 0;
    const char *err = NULL;
    s->net = cl_net_create(a->settings.name[0] ? a->settings.name : "viewer", &err);
    if (s->net)
        err = cl_net_connect(s->net, s->host, s->port, a->now_ms);
    s->asked_at = wall_ms();
    if (err)
        say(a, true, "Cannot connect: %s", err);
    else
        say(a, false, "Connecting to %s...", s->host);
}

static void ask_page(cl_app *a)
{
    struct cl_srvrep *s = cl_app_scene_state(a, CL_SCENE_SRVREP);
    s->list_req = cl_net_request_recent(s->net, s->before[s->page_no], ROWS);
    s->asked_at = wall_ms();
    if (!s->list_req)
        say(a, true, "%s", "Not connected: pick Retry");
}

static void ask_replay(cl_app *a, uint64_t id)
{
    struct cl_srvrep *s = cl_app_scene_state(a, CL_SCENE_SRVREP);
    if (s->fetch_req)
        return;
    s->fetch_id = id;
    s->fetch_req = cl_net_fetch_replay(s->net, id);
    s->asked_at = wall_ms();
    char num[24];
    snprintf(num, sizeof num, "%llu", (unsigned long long)id);
    if (s->fetch_req)
        say(a, false, "Fetching the replay of match %s...", num);
    else
        say(a, true, "%s", "Not connected: pick Retry");
}

/* Rows for the matches on the page, then the buttons. */
static void build(cl_app *a)
{
    struct cl_srvrep *s = cl_app_scene_state(a, CL_SCENE_SRVREP);
    cl_form *f = &s->form;
    int sel = f->n ? f->items[f->sel].id : S_ROW;
    /* The first rows to show take the selection from the buttons. */
    if (f->n == 0 || f->items[0].id >= S_NEWER)
        sel = S_ROW;
    cl_form_clear(f);
    int n = s->have_page ? s->page.count : 0;
    for (int i = 0; i < n; i++)
        cl_form_add(f, CL_ITEM_BUTTON, S_ROW + i, "");
    cl_form_add(f, CL_ITEM_BUTTON, S_NEWER, "Newer")->disabled = s->page_no == 0;
    cl_form_add(f, CL_ITEM_BUTTON, S_OLDER, "Older")->disabled =
        !s->have_page || !s->page.next_before || s->page_no + 1 >= PAGES;
    cl_form_add(f, CL_ITEM_BUTTON, S_RETRY, "Reload");
    cl_form_add(f, CL_ITEM_BUTTON, S_BACK, "Back");
    f->sel = f->n - 1;
    for (int i = 0; i < f->n; i++)
        if (f->items[i].id == sel && !f->items[i].disabled)
            f->sel = i;
    if (sel >= S_ROW && sel < S_NEWER && n > 0)
        f->sel = sel - S_ROW < n ? sel - S_ROW : n - 1;
}

/* Closes the screen: the connection and the page go. */
static void close_srvrep(void *state)
{
    struct cl_srvrep *s = state;
    cl_net_destroy(s->net);
    memset(s, 0, sizeof *s);
}

const char *cl_srvrep_open(cl_app *a, const char *address, uint64_t match_id)
{
    char host[256];
    int port;
    const char *why = cl_net_parse_addr(address, host, sizeof host, &port);
    if (why)
        return why;
    struct cl_srvrep *s = cl_app_scene_state(a, CL_SCENE_SRVREP);
    close_srvrep(s);
    s->open = true;
    snprintf(s->host, sizeof s->host, "%s", host);
    s->port = port;
    s->open_id = match_id;
    cl_app_set_scene(a, CL_SCENE_SRVREP);
    return NULL;
}

static const char *wait_name(const cl_app *a)
{
    const struct cl_srvrep *s = cl_app_scene_state(a, CL_SCENE_SRVREP);
    return s->open && s->have_page && !s->list_req && !s->fetch_req ? "server-replays-list"
                                                                    : "server-replays";
}

/* Entered from cl_srvrep_open, or back from the replay player: the page
 * stays; a connection that dropped meanwhile is made again. */
static void enter(cl_app *a)
{
    struct cl_srvrep *s = cl_app_scene_state(a, CL_SCENE_SRVREP);
    if (!s->open) {
        cl_app_set_scene(a, CL_SCENE_JOIN);
        return;
    }
    if (!s->net || cl_net_phase(s->net) != CL_NET_ONLINE)
        connect_net(a);
    else
        s->status[0] = '\0';
    build(a);
}

static void turn(cl_app *a, int d)
{
    struct cl_srvrep *s = cl_app_scene_state(a, CL_SCENE_SRVREP);
    if (s->list_req)
        return;
    if (d < 0 && s->page_no > 0) {
        s->page_no--;
    } else if (d > 0 && s->have_page && s->page.next_before && s->page_no + 1 < PAGES) {
        s->page_no++;
        s->before[s->page_no] = s->page.next_before;
    } else {
        return;
    }
    ask_page(a);
}

static void event(cl_app *a, const SDL_Event *e)
{
    struct cl_srvrep *s = cl_app_scene_state(a, CL_SCENE_SRVREP);
    int d = cl_form_page_turn(e);
    if (d) {
        turn(a, d);
        return;
    }
    cl_form_result r = cl_form_event(&s->form, e, a->mouse_scale);
    if (r.back || r.activated == S_BACK) {
        close_srvrep(s);
        cl_app_set_scene(a, CL_SCENE_JOIN);
    } else if (r.activated == S_NEWER || r.activated == S_OLDER) {
        turn(a, r.activated == S_NEWER ? -1 : 1);
    } else if (r.activated == S_RETRY) {
        if (!s->net || cl_net_phase(s->net) != CL_NET_ONLINE)
            connect_net(a);
        else if (!s->fetch_req && !s->list_req)
            ask_page(a);
    } else if (r.activated >= S_ROW && r.activated < S_NEWER && s->have_page &&
               r.activated - S_ROW < s->page.count) {
        ask_replay(a, s->page.e[r.activated - S_ROW].match_id);
    }
}

static void got_replay(cl_app *a, const cl_net_event *ev)
{
    struct cl_srvrep *s = cl_app_scene_state(a, CL_SCENE_SRVREP);
    s->fetch_req = 0;
    if (ev->code) {
        say(a, true, "%s",
            ev->code == WIRE_ERR_NO_MATCH || ev->code == WIRE_ERR_NO_RECORDS || !ev->text[0]
                ? code_text(ev->code)
                : ev->text);
        return;
    }
    pz_error pe;
    replay *r = replay_parse(ev->replay, ev->replay_len, &pe);
    char label[48];
    snprintf(label, sizeof label, "match %llu", (unsigned long long)ev->match_id);
    if (!r) {
        say(a, true, "The server's replay is bad: %s:%d:%d: %.80s", label, pe.line, pe.col, pe.msg);
        return;
    }
    s->open_id = 0;
    s->status[0] = '\0';
    const char *why = cl_replay_open(a, r, label);
    if (why)
        say(a, true, "%s", why);
}

static void update(cl_app *a)
{
    struct cl_srvrep *s = cl_app_scene_state(a, CL_SCENE_SRVREP);
    if (!s->open || a->scene != CL_SCENE_SRVREP || !s->net)
        return;
    cl_net_event ev;
    while (s->open && a->scene == CL_SCENE_SRVREP && cl_net_poll(s->net, a->now_ms, &ev)) {
        if (ev.type == CL_EV_CONNECTED) {
            s->status[0] = '\0';
            if (s->open_id)
                ask_replay(a, s->open_id);
            else
                ask_page(a);
        } else if (ev.type == CL_EV_REFUSED || ev.type == CL_EV_DISCONNECTED ||
                   (ev.type == CL_EV_ERROR && cl_net_phase(s->net) == CL_NET_CLOSED)) {
            s->list_req = s->fetch_req = 0;
            say(a, true, "Connection lost: %s (pick Reload to try again)",
                ev.text[0] ? ev.text : "no reason");
        } else if (ev.type == CL_EV_RECENT && ev.req == s->list_req) {
            s->list_req = 0;
            if (ev.code) {
                say(a, true, "%s", code_text(ev.code));
            } else {
                s->page = *ev.recent;
                s->have_page = true;
                build(a);
                printf("SERVER_REPLAYS page=%d matches=%d more=%d newest=%llu\n", s->page_no + 1,
                       s->page.count, s->page.next_before != 0,
                       (unsigned long long)(s->page.count ? s->page.e[0].match_id : 0));
                fflush(stdout);
            }
        } else if (ev.type == CL_EV_REPLAY && ev.req == s->fetch_req) {
            got_replay(a, &ev);
        }
    }
    if (!s->open || a->scene != CL_SCENE_SRVREP)
        return;
    bool waiting = s->list_req || s->fetch_req || cl_net_phase(s->net) == CL_NET_CONNECTING;
    if (waiting && wall_ms() - s->asked_at > TIMEOUT_MS) {
        cl_net_destroy(s->net); /* a late answer must not land on the next request */
        s->net = NULL;
        s->list_req = s->fetch_req = 0;
        say(a, true, "%s", "No answer from the server in 10 s (pick Reload to try again)");
    }
}

static void fmt_time(char *buf, size_t len, uint32_t ms)
{
    if (ms)
        snprintf(buf, len, "%u.%02u s", ms / 1000, ms % 1000 / 10);
    else
        snprintf(buf, len, "-");
}

/* The columns of one match: date, puzzle, players, winner, winning time. */
static void columns(const wire_recent_entry *e, char cols[5][64])
{
    time_t t = (time_t)(e->start_utc_ms / 1000);
    struct tm tm;
    if (localtime_r(&t, &tm))
        strftime(cols[0], 64, "%Y-%m-%d %H:%M", &tm);
    else
        snprintf(cols[0], 64, "?");
    const pz_kind *k = pz_kind_by_id(e->params.kind);
    snprintf(cols[1], 64, "%s %dx%d", k ? k->name : "?", e->params.w, e->params.h);
    snprintf(cols[2], 64, "%.20s v %.20s", e->player[0].name, e->player[1].name);
    if (e->winner < 2)
        snprintf(cols[3], 64, "%.20s%s", e->player[e->winner].name,
                 e->ending == MATCH_END_FORFEIT ? " (forfeit)" : "");
    else
        snprintf(cols[3], 64, "no winner");
    fmt_time(cols[4], 64, e->winner < 2 ? e->player[e->winner].time_ms : 0);
}

static void draw(cl_app *a)
{
    struct cl_srvrep *s = cl_app_scene_state(a, CL_SCENE_SRVREP);
    if (!s->open)
        return;
    char sub[320];
    snprintf(sub, sizeof sub, "Matches stored on %s:%d, newest first  -  page %d", s->host, s->port,
             s->page_no + 1);
    SDL_Rect area = cl_app_title(a, "Server replays", sub);
    cl_text *t = a->text;
    static const int at[5] = {2, 22, 40, 70, 98};
    static const int align[5] = {CL_LEFT, CL_LEFT, CL_LEFT, CL_LEFT, CL_RIGHT};
    static const char *const head[5] = {"date", "puzzle", "players", "winner", "winning time"};
    cl_table_geo g;
    cl_form_table_heads(t, a->out_w, area.y, 5, head, at, align, &g);
    int fh = g.fh, row = g.row, gap = g.gap, w = g.w, x = g.x, y = g.y;
    int rows_top = y;
    /* What is going on (fetching, errors) in the help line's place. */
    size_t got = 0, total = 0;
    char line[200];
    SDL_Color ink = cl_col_dim;
    snprintf(line, sizeof line, "%s",
             "Enter/click fetches and plays a match  -  PgUp/PgDn, Left/Right or wheel turn pages");
    if (s->fetch_req && cl_net_fetch_progress(s->net, &got, &total) && total) {
        snprintf(line, sizeof line, "Fetching the replay of match %llu: %zu of %zu bytes",
                 (unsigned long long)s->fetch_id, got, total);
        ink = cl_col_text;
    } else if (s->status[0]) {
        snprintf(line, sizeof line, "%s", s->status);
        ink = s->status_bad ? cl_col_bad : cl_col_text;
    }
    cl_text_draw(t, CL_FONT_BODY, line, a->out_w / 2, a->out_h - fh * 2, ink, CL_CENTER);
    if (s->have_page && !s->list_req && s->page.count == 0)
        cl_text_draw(t, CL_FONT_BODY, "No matches stored yet", a->out_w / 2, y + fh, cl_col_dim, CL_CENTER);
    else if (!s->have_page && !s->status_bad)
        cl_text_draw(t, CL_FONT_BODY, "Asking the server...", a->out_w / 2, y + fh, cl_col_dim, CL_CENTER);
    for (int i = 0; i < s->form.n; i++) {
        cl_item *it = &s->form.items[i];
        if (it->id >= S_NEWER || !s->have_page || it->id - S_ROW >= s->page.count)
            continue;
        const wire_recent_entry *e = &s->page.e[it->id - S_ROW];
        char cols[5][64];
        columns(e, cols);
        SDL_Color cell_ink[5] = {cl_col_text, cl_col_text, cl_col_text, cl_col_text, cl_col_text};
        if (e->winner < 2)
            cell_ink[3] = cl_col_player_soft[e->winner];
        it->rect = cl_form_table_row(a->ren, t, &g, y, i == s->form.sel, cols, cell_ink);
        y += row + gap;
    }
    y = rows_top + ROWS * (row + gap) + gap;
    cl_form_draw_button_row(&s->form, a->ren, t, S_NEWER, x, y, w, row);
}

const cl_scene cl_scene_srvrep = {.name = "server-replays",
                                  .enter = enter,
                                  .event = event,
                                  .update = update,
                                  .draw = draw,
                                  .state_size = sizeof(struct cl_srvrep),
                                  .fini = close_srvrep,
                                  .wait_name = wait_name};
