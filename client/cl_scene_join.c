/* cl_scene_join.c: joining a game: servers found on the LAN, or an address,
 * then a room code, a new room, quick match; or watching a race there. */
#include <stdio.h>
#include <string.h>

#include "cl_scene.h"
#include "cl_draw.h"
#include "cl_netui.h"
#include "cl_ui.h"
#include "joinlink.h"

enum {
    J_ADDR = 1,
    J_ROOM,
    J_JOIN,
    J_CREATE,
    J_QUICK,
    J_WATCH,
    J_REPLAYS,
    J_BACK,
    J_LABEL,
    J_FOUND = 100,
    J_WATCH_FOUND = 200,
    J_INET_LABEL = 300,
    J_INET_REFRESH = 301,
    J_INET = 400
};

/* The fixed controls come first and never move; the LAN list and the
 * Internet list, which fill in while the screen is open, are drawn beside
 * them (items NFIXED on). */
enum { NFIXED = 8, MAX_SHOWN = 6, LAN_SHOWN_WITH_INET = 3, INET_SHOWN = 4 };

/* The screen's own state (cl_scene.state_size). */
typedef struct join_ui {
    cl_form form;
    char room_kept[8]; /* the room code last typed, kept over a failed join */
} join_ui;

/* What a list row is, to keep the cursor on it when the lists change. */
static int row_kind(int id)
{
    return id >= J_INET ? 3 : id == J_INET_REFRESH ? 4 : id >= J_WATCH_FOUND ? 2 : 1;
}

static void enter(cl_app *a)
{
    join_ui *u = cl_app_scene_state(a, CL_SCENE_JOIN);
    cl_form_clear(&u->form);
    cl_item *it = cl_form_add(&u->form, CL_ITEM_TEXT, J_ADDR, "Server, link or +code");
    snprintf(it->value, sizeof it->value, "%s", a->settings.last_server);
    it->maxlen = 150; /* a join link fits */
    it = cl_form_add(&u->form, CL_ITEM_TEXT, J_ROOM, "Room code");
    snprintf(it->value, sizeof it->value, "%s", u->room_kept);
    it->maxlen = 8;
    cl_form_add(&u->form, CL_ITEM_BUTTON, J_JOIN, "Join the room");
    cl_form_add(&u->form, CL_ITEM_BUTTON, J_CREATE, "Create a room there");
    cl_form_add(&u->form, CL_ITEM_BUTTON, J_QUICK, "Quick match (anyone waiting)");
    cl_form_add(&u->form, CL_ITEM_BUTTON, J_WATCH, "Watch (that room, or the first race)");
    cl_form_add(&u->form, CL_ITEM_BUTTON, J_REPLAYS, "Server replays (stored matches there)");
    cl_form_add(&u->form, CL_ITEM_BUTTON, J_BACK, "Back");
    u->form.sel = -1;
    cl_form_select(&u->form, 0); /* typing replaces the remembered address */
    cl_app_inet_refresh(a);
}

/* Rebuilds the LAN list after the fixed controls, keeping the selection on
 * the same server when it is in the list (its rows may move, the cursor
 * stays with what it was on). */
static void build_list(cl_app *a)
{
    join_ui *u = cl_app_scene_state(a, CL_SCENE_JOIN);
    cl_form *f = &u->form;
    char sel_addr[160] = "";
    int sel_kind = 0;
    if (f->sel >= NFIXED && f->sel < f->n) {
        snprintf(sel_addr, sizeof sel_addr, "%s", f->items[f->sel].value);
        sel_kind = row_kind(f->items[f->sel].id);
    }
    int old_sel = f->sel;
    f->n = NFIXED;
    cl_found g;
    int shown = 0;
    bool inet = cl_app_inet_state(a)[0] != '\0';
    int lan_max = inet && cl_app_inet_found(a, 0, &g) ? LAN_SHOWN_WITH_INET : MAX_SHOWN;
    for (int i = 0; shown < lan_max && cl_app_found(a, i, &g); i++, shown++) {
        cl_item *it = cl_form_add(f, CL_ITEM_BUTTON, J_FOUND + i, g.label);
        snprintf(it->value, sizeof it->value, "%s", g.address);
        if (g.races > 0) {
            char watch[64];
            snprintf(watch, sizeof watch, "  Watch a race there (%d racing)", g.races);
            it = cl_form_add(f, CL_ITEM_BUTTON, J_WATCH_FOUND + i, watch);
            snprintf(it->value, sizeof it->value, "%s", g.address);
        }
    }
    if (shown == 0)
        cl_form_add(f, CL_ITEM_LABEL, J_LABEL, "Searching the LAN for games...");
    if (inet) {
        cl_item *it = cl_form_add(f, CL_ITEM_LABEL, J_INET_LABEL, "Internet");
        snprintf(it->value, sizeof it->value, "%s", cl_app_inet_state(a));
        for (int i = 0; i < INET_SHOWN && cl_app_inet_found(a, i, &g); i++) {
            it = cl_form_add(f, CL_ITEM_BUTTON, J_INET + i, g.label);
            snprintf(it->value, sizeof it->value, "%s", g.address);
        }
        if (cl_app_coordinator(a)[0]) { /* none set: nothing to refresh, the heading says so */
            it = cl_form_add(f, CL_ITEM_BUTTON, J_INET_REFRESH, "Refresh the Internet list");
            snprintf(it->value, sizeof it->value, "refresh");
        }
    }
    if (old_sel < NFIXED)
        return;
    f->sel = NFIXED - 1; /* the server left: Back, the last fixed row */
    for (int i = NFIXED; i < f->n; i++)
        if (f->items[i].type == CL_ITEM_BUTTON && strcmp(f->items[i].value, sel_addr) == 0 &&
            row_kind(f->items[i].id) == sel_kind)
            f->sel = i;
}

static void keep_room(cl_app *a)
{
    join_ui *u = cl_app_scene_state(a, CL_SCENE_JOIN);
    cl_item *room = cl_form_find(&u->form, J_ROOM);
    if (room)
        snprintf(u->room_kept, sizeof u->room_kept, "%.7s", room->value);
}

static void go(cl_app *a, const char *addr, const char *code, bool quick)
{
    join_ui *u = cl_app_scene_state(a, CL_SCENE_JOIN);
    joinlink l;
    char icode[12], icoord[128];
    const char *ibad;
    bool invite = joinlink_invite(addr, icode, icoord, sizeof icoord, &ibad);
    bool link_room = invite || (!joinlink_parse(addr, &l) && l.room[0]);
    if (!quick && !link_room && (!code || !code[0])) {
        cl_app_say(a, true, "Type the room code your friend sees, or pick Create a room or Quick match");
        cl_form_select(&u->form, 1);
        return;
    }
    const char *why = cl_app_join(a, addr, code, quick);
    if (why)
        cl_app_say(a, true, "%s", why);
    else
        cl_app_set_scene(a, CL_SCENE_LOBBY);
}

/* A LAN or Internet list entry picked: a player's waiting game is joined; a
 * server asks what to do there (nothing is created behind the player's back). */
static void pick(cl_app *a, int i, bool internet)
{
    join_ui *u = cl_app_scene_state(a, CL_SCENE_JOIN);
    cl_found g;
    cl_item *addr = cl_form_find(&u->form, J_ADDR), *room = cl_form_find(&u->form, J_ROOM);
    if (!(internet ? cl_app_inet_found(a, i, &g) : cl_app_found(a, i, &g)) || !addr || !room)
        return;
    snprintf(addr->value, sizeof addr->value, "%s", g.address);
    addr->caret = -1;
    if (g.room[0]) {
        snprintf(room->value, sizeof room->value, "%s", g.room);
        room->caret = -1;
        keep_room(a);
        go(a, g.address, g.room, false);
    } else if (g.host_game) {
        cl_app_say(a, true, "That game is not waiting for a player%s", g.races ? ": Watch it instead" : "");
    } else {
        cl_app_say(a, false, "Server at %s: type a room code and Join, or Create a room, or Quick match",
                   g.address);
        cl_form_select(&u->form, 1);
    }
}

/* Ctrl+V of a join link anywhere on the screen fills both fields. */
static bool paste_link(cl_app *a, const SDL_Event *e)
{
    join_ui *u = cl_app_scene_state(a, CL_SCENE_JOIN);
    if (e->type != SDL_KEYDOWN || e->key.keysym.sym != SDLK_v ||
        !(e->key.keysym.mod & (KMOD_CTRL | KMOD_GUI)) || !SDL_HasClipboardText())
        return false;
    char *clip = SDL_GetClipboardText();
    char code[12], coord[128];
    const char *bad = NULL;
    if (clip && joinlink_invite(clip, code, coord, sizeof coord, &bad) && !bad) {
        /* An invite link: the code goes into the address field whole. */
        cl_item *addr = cl_form_find(&u->form, J_ADDR), *room = cl_form_find(&u->form, J_ROOM);
        snprintf(addr->value, sizeof addr->value, "%.150s", clip);
        room->value[0] = '\0';
        addr->caret = room->caret = -1;
        addr->all = room->all = false;
        keep_room(a);
        SDL_free(clip);
        cl_app_say(a, false, "Invite pasted: %s. Press Join the room", code);
        cl_form_select(&u->form, 2);
        return true;
    }
    joinlink l;
    bool link = clip && !joinlink_parse(clip, &l) &&
                (l.room[0] || strncmp(clip, JOINLINK_SCHEME, strlen(JOINLINK_SCHEME)) == 0);
    SDL_free(clip);
    if (!link)
        return false; /* ordinary text: the field under the cursor takes it */
    cl_item *addr = cl_form_find(&u->form, J_ADDR), *room = cl_form_find(&u->form, J_ROOM);
    snprintf(addr->value, sizeof addr->value, "%.150s:%d", l.host, l.port);
    snprintf(room->value, sizeof room->value, "%s", l.room);
    addr->caret = room->caret = -1;
    addr->all = room->all = false;
    keep_room(a);
    if (l.room[0]) {
        cl_app_say(a, false, "Link pasted: room %s on %s:%d. Press Join the room", l.room, l.host, l.port);
        cl_form_select(&u->form, 2);
    } else {
        cl_app_say(a, false, "Link pasted: server %s:%d", l.host, l.port);
        cl_form_select(&u->form, 1);
    }
    return true;
}

static void event(cl_app *a, const SDL_Event *e)
{
    join_ui *u = cl_app_scene_state(a, CL_SCENE_JOIN);
    if (paste_link(a, e))
        return;
    cl_form_result r = cl_form_event(&u->form, e, a->mouse_scale);
    if (r.back || r.activated == J_BACK) {
        cl_app_net_stop(a);
        cl_app_set_scene(a, CL_SCENE_MENU);
        return;
    }
    if (r.changed == J_ROOM)
        keep_room(a);
    cl_item *addr = cl_form_find(&u->form, J_ADDR);
    cl_item *room = cl_form_find(&u->form, J_ROOM);
    if (r.activated == J_INET_REFRESH) {
        cl_app_inet_refresh(a);
    } else if (r.activated >= J_INET) {
        pick(a, r.activated - J_INET, true);
    } else if (r.activated == J_WATCH || (r.activated >= J_WATCH_FOUND && r.activated < J_INET_LABEL)) {
        cl_item *it = r.activated == J_WATCH ? addr : cl_form_find(&u->form, r.activated);
        const char *why = it ? cl_app_watch(a, it->value, r.activated == J_WATCH && room ? room->value : NULL)
                             : "no server";
        if (why)
            cl_app_say(a, true, "%s", why);
    } else if (r.activated == J_REPLAYS) {
        /* The address typed, else the first server found on the LAN. */
        cl_found g;
        const char *at = addr && addr->value[0] ? addr->value : cl_app_found(a, 0, &g) ? g.address : "";
        const char *why = at[0] ? cl_srvrep_open(a, at, 0) : "Type a server's address first";
        if (why)
            cl_app_say(a, true, "%s", why);
    } else if (r.activated >= J_FOUND) {
        pick(a, r.activated - J_FOUND, false);
    } else if (r.activated == J_CREATE) {
        joinlink l;
        const char *why = addr && addr->value[0]
                              ? joinlink_parse(addr->value, &l)
                              : "Type a server's address or pick one in the LAN list first";
        if (why) {
            cl_app_say(a, true, "%s", why);
        } else {
            char there[160];
            snprintf(there, sizeof there, "%.150s:%d", l.host, l.port);
            cl_app_net_stop(a);
            cl_app_setup_create(a, there);
        }
    } else if (r.activated == J_JOIN || r.activated == J_QUICK) {
        keep_room(a);
        go(a, addr ? addr->value : "", room ? room->value : NULL, r.activated == J_QUICK);
    }
}

static void update(cl_app *a)
{
    if (a->scene != CL_SCENE_JOIN)
        return;
    cl_app_discover(a);
    cl_app_inet_update(a);
    build_list(a);
}

/* The LAN list: two lines a server (who and what; what it races or holds,
 * and its address), a Watch row under a server with races. */
static void draw_list(cl_app *a, SDL_Rect area)
{
    join_ui *u = cl_app_scene_state(a, CL_SCENE_JOIN);
    cl_text *t = a->text;
    int fh = cl_text_height(t, CL_FONT_BODY), sh = cl_text_height(t, CL_FONT_SMALL);
    int w = area.w < fh * 26 ? area.w : fh * 26, x = area.x + (area.w - w) / 2, y = area.y;
    for (int i = NFIXED; i < u->form.n; i++) {
        cl_item *it = &u->form.items[i];
        bool sel = i == u->form.sel;
        if (it->id == J_INET_LABEL) { /* the Internet list's heading: where it comes from, how it went */
            y += fh / 2;
            char head[300];
            snprintf(head, sizeof head, "Internet  -  %s", it->value);
            char cut[300];
            cl_text_fit(t, CL_FONT_SMALL, head, w, cut, sizeof cut);
            cl_text_draw(t, CL_FONT_SMALL, cut, x, y, cl_col_dim, CL_LEFT);
            y += sh * 3 / 2;
            continue;
        }
        if (it->type == CL_ITEM_LABEL) {
            cl_text_draw(t, CL_FONT_BODY, it->label, x + w / 2, y, cl_col_dim, CL_CENTER);
            y += fh * 2;
            continue;
        }
        cl_found g;
        bool entry = it->id >= J_INET ? cl_app_inet_found(a, it->id - J_INET, &g)
                                      : it->id < J_WATCH_FOUND && cl_app_found(a, it->id - J_FOUND, &g);
        int row = entry ? fh * 2 + sh : fh * 17 / 10;
        it->rect = (SDL_Rect){x, y, w, row};
        cl_form_draw_row_panel(a->ren, it->rect, sel, fh / 4);
        if (entry) {
            cl_text_draw(t, CL_FONT_BODY, it->label, x + fh, y + fh / 3, cl_col_text, CL_LEFT);
            /* A narrow window cuts the line rather than run over the row. */
            char sub[sizeof g.sub];
            cl_text_fit(t, CL_FONT_SMALL, g.sub, w - fh * 3 / 2, sub, sizeof sub);
            memcpy(g.sub, sub, sizeof sub);
            cl_text_draw(t, CL_FONT_SMALL, g.sub, x + fh, y + fh / 3 + fh * 6 / 5,
                         g.room[0] ? cl_col_accent : cl_col_dim, CL_LEFT);
        } else {
            cl_text_draw_mid(t, CL_FONT_BODY, it->label, x + fh, y + row / 2, cl_col_text, CL_LEFT);
        }
        y += row + fh / 3;
    }
}

static void draw(cl_app *a)
{
    join_ui *u = cl_app_scene_state(a, CL_SCENE_JOIN);
    SDL_Rect area = cl_app_title(a, "Join a game",
                                 "Pick a game found on your network or the Internet, or type or paste "
                                 "(Ctrl+V) an address, link or +code");
    cl_text *t = a->text;
    int fh = cl_text_height(t, CL_FONT_BODY);
    SDL_Rect left = area, right = area;
    left.w = area.w / 2;
    right.x = area.x + area.w / 2;
    right.w = area.w - left.w;
    int margin = fh;
    left.x += margin;
    left.w -= margin * 3 / 2;
    right.x += margin / 2;
    right.w -= margin * 3 / 2;
    cl_form_draw_rows(&u->form, a->ren, t, left, 0, NFIXED);
    int rw = right.w < fh * 26 ? right.w : fh * 26;
    cl_text_draw(t, CL_FONT_SMALL, "Games on your network", right.x + (right.w - rw) / 2, right.y, cl_col_dim,
                 CL_LEFT);
    right.y += cl_text_height(t, CL_FONT_SMALL) * 3 / 2;
    draw_list(a, right);
    cl_text_draw(t, CL_FONT_SMALL,
                 "+code: a friend's invite  -  Room code: a friend's room  -  Create a room: a new one  -  "
                 "Quick match: "
                 "whoever waits",
                 a->out_w / 2, a->out_h - cl_text_height(t, CL_FONT_SMALL) * 2, cl_col_dim, CL_CENTER);
}

void cl_app_join_show(cl_app *a, const char *text)
{
    cl_app_set_scene(a, CL_SCENE_JOIN);
    join_ui *u = cl_app_scene_state(a, CL_SCENE_JOIN);
    cl_item *it = cl_form_find(&u->form, J_ADDR);
    if (it && it->type == CL_ITEM_TEXT) {
        snprintf(it->value, sizeof it->value, "%s", text);
        it->caret = -1;
        it->all = false;
    }
}

/* Script waits: "join-listed" once the LAN list shows a server,
 * "join-internet" once the internet list does. */
static bool waits_for(cl_app *a, const char *wait)
{
    cl_found g;
    if (strcmp(wait, "join-listed") == 0)
        return cl_app_found(a, 0, &g);
    if (strcmp(wait, "join-internet") == 0)
        return cl_app_inet_found(a, 0, &g);
    return false;
}

const cl_scene cl_scene_join = {.name = "join",
                                .waits_for = waits_for,
                                .enter = enter,
                                .event = event,
                                .update = update,
                                .draw = draw,
                                .state_size = sizeof(join_ui)};
