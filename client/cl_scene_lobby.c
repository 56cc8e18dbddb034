/* cl_scene_lobby.c: the room before a race: the code and join link to share, both players,
 * ready flags and ping. */
#include <stdio.h>
#include <string.h>

#include "cl_scene.h"
#include "cl_pump.h"
#include "cl_draw.h"
#include "cl_netui.h"
#include "cl_ui.h"
#include "joinlink.h"

enum { L_READY = 1, L_COPY, L_INVITE, L_LEAVE };

/* The screen's own state (cl_scene.state_size). */
typedef struct lobby_ui {
    cl_form form;
    uint64_t copied_until, invite_copied_until; /* until when the Copy buttons say "Copied!" (app clock) */
} lobby_ui;

static void enter(cl_app *a)
{
    lobby_ui *u = cl_app_scene_state(a, CL_SCENE_LOBBY);
    cl_form_clear(&u->form);
    cl_form_add(&u->form, CL_ITEM_BUTTON, L_READY, "I'm ready");
    cl_form_add(&u->form, CL_ITEM_BUTTON, L_LEAVE, "Leave");
}

static void event(cl_app *a, const SDL_Event *e)
{
    lobby_ui *u = cl_app_scene_state(a, CL_SCENE_LOBBY);
    cl_form_result r = cl_form_event(&u->form, e, a->mouse_scale);
    if (r.back || r.activated == L_LEAVE) {
        cl_app_end_backend(a);
        cl_app_set_scene(a, a->mode == CL_MODE_JOIN ? CL_SCENE_JOIN : CL_SCENE_MENU);
        return;
    }
    if (r.activated == L_READY && a->backend)
        a->backend->ops->ready(a->backend, a->now_ms);
    char link[JOINLINK_TEXT_MAX];
    if (r.activated == L_INVITE && cl_app_invite_link(a, link, sizeof link)) {
        if (SDL_SetClipboardText(link) == 0) {
            u->invite_copied_until = a->now_ms + 2500;
            cl_app_say(a, false, "Copied %s: send it to your friend, or read out the code", link);
            char *back = SDL_GetClipboardText();
            printf("mazerace: invite link copied: %s\n", back ? back : "");
            fflush(stdout);
            SDL_free(back);
        } else
            cl_app_say(a, true, "Could not copy the invite link: %s", SDL_GetError());
    }
    if (r.activated == L_COPY && cl_app_join_link(a, link, sizeof link)) {
        if (SDL_SetClipboardText(link) == 0) {
            u->copied_until = a->now_ms + 2500;
            cl_app_say(a, false, "Copied %s: paste it to your friend", link);
            char *back = SDL_GetClipboardText(); /* what a paste will get, for scripts and tests */
            printf("mazerace: join link copied: %s\n", back ? back : "");
            fflush(stdout);
            SDL_free(back);
        } else
            cl_app_say(a, true, "Could not copy the link: %s", SDL_GetError());
    }
}

static void update(cl_app *a)
{
    lobby_ui *u = cl_app_scene_state(a, CL_SCENE_LOBBY);
    cl_pump(a);
    if (a->scene == CL_SCENE_LOBBY && !a->backend)
        cl_app_set_scene(a, CL_SCENE_MENU);
    /* The link is known once the server has given the room its code. */
    char link[JOINLINK_TEXT_MAX], invite[JOINLINK_TEXT_MAX];
    bool have_link = cl_app_join_link(a, link, sizeof link);
    bool have_invite = cl_app_invite_link(a, invite, sizeof invite);
    bool new_link = have_link && !cl_form_find(&u->form, L_COPY);
    bool new_invite = have_invite && !cl_form_find(&u->form, L_INVITE);
    if (new_link || new_invite) {
        int sel = u->form.sel;
        cl_form_clear(&u->form);
        cl_form_add(&u->form, CL_ITEM_BUTTON, L_READY, "I'm ready");
        if (have_invite)
            cl_form_add(&u->form, CL_ITEM_BUTTON, L_INVITE, "Copy the invite link");
        if (have_link)
            cl_form_add(&u->form, CL_ITEM_BUTTON, L_COPY, "Copy the join link");
        cl_form_add(&u->form, CL_ITEM_BUTTON, L_LEAVE, "Leave");
        u->form.sel = sel >= 0 && sel < u->form.n ? sel : 0;
        if (new_link)
            printf("mazerace: join link %s\n", link);
        if (new_invite)
            printf("mazerace: invite link %s\n", invite);
        fflush(stdout);
    }
    cl_item *copy = cl_form_find(&u->form, L_COPY);
    if (copy)
        snprintf(copy->label, sizeof copy->label, "%s",
                 a->now_ms < u->copied_until        ? "Copied! Paste it to your friend"
                 : cl_form_find(&u->form, L_INVITE) ? "Copy the LAN join link"
                                                    : "Copy the join link");
    cl_item *inv = cl_form_find(&u->form, L_INVITE);
    if (inv)
        snprintf(inv->label, sizeof inv->label, "%s",
                 a->now_ms < u->invite_copied_until ? "Copied! Send it to your friend"
                                                    : "Copy the invite link");
    cl_item *it = cl_form_find(&u->form, L_READY);
    if (it && a->backend)
        snprintf(it->label, sizeof it->label, "%s",
                 a->backend->ready[a->backend->my_slot] || a->backend->ready_pending ? "Not ready yet"
                                                                                     : "I'm ready");
}

/* Hosting: the invite code's link and what the coordinator, the router
 * and a joiner's ways in said; or, with no coordinator, that there is none. */
static int draw_internet(cl_app *a, int y)
{
    cl_backend *b = a->backend;
    cl_text *t = a->text;
    int sh = cl_text_height(t, CL_FONT_SMALL) * 3 / 2, w = a->out_w - 2 * cl_text_height(t, CL_FONT_BODY);
    char line[320], link[JOINLINK_TEXT_MAX];
    if (!cl_app_coordinator(a)[0]) {
        snprintf(line, sizeof line,
                 "Internet: no coordinator set, so no invite code (Settings, or --coordinator HOST:PORT). "
                 "LAN play works.");
        cl_text_fit(t, CL_FONT_SMALL, line, w, link, sizeof link);
        cl_text_draw(t, CL_FONT_SMALL, link, a->out_w / 2, y, cl_col_dim, CL_CENTER);
        return y + sh;
    }
    if (cl_app_invite_link(a, link, sizeof link)) {
        snprintf(line, sizeof line, "Invite link: %.260s", link);
        cl_text_draw(t, CL_FONT_SMALL, line, a->out_w / 2, y, cl_col_text, CL_CENTER);
        y += sh;
    }
    const char *lines[3] = {b->invite_coord, b->invite_router, b->invite_joiner};
    for (int i = 0; i < 3; i++) {
        if (!lines[i][0] || (i == 0 && b->invite[0] && !b->invite_failed))
            continue; /* registered: the code says it */
        cl_text_fit(t, CL_FONT_SMALL, lines[i], w, line, sizeof line);
        cl_text_draw(t, CL_FONT_SMALL, line, a->out_w / 2, y,
                     i == 0 && b->invite_failed ? cl_col_bad : cl_col_dim, CL_CENTER);
        y += sh;
    }
    return y;
}

/* The lines under the players: what is raced, the link, where we are. */
static int draw_info(cl_app *a, int y)
{
    cl_backend *b = a->backend;
    cl_text *t = a->text;
    int fh = cl_text_height(t, CL_FONT_BODY), sh = cl_text_height(t, CL_FONT_SMALL) * 3 / 2;
    char line[320], link[JOINLINK_TEXT_MAX];
    if (b->have_params) {
        char spec[96];
        cl_race_spec(&b->params, b->series_len, spec, sizeof spec);
        snprintf(line, sizeof line, "Race: %s", spec);
        cl_text_draw(t, CL_FONT_BODY, line, a->out_w / 2, y, cl_col_text, CL_CENTER);
        y += fh * 3 / 2;
    }
    if (a->mode == CL_MODE_HOST)
        y = draw_internet(a, y);
    if (cl_app_join_link(a, link, sizeof link)) {
        bool local = strstr(link, "://127.") != NULL;
        snprintf(line, sizeof line, "Join link: %.260s%s", link,
                 local ? "  (works on this computer only)" : "");
        cl_text_draw(t, CL_FONT_SMALL, line, a->out_w / 2, y, cl_col_text, CL_CENTER);
        y += sh;
    }
    if (a->mode == CL_MODE_HOST) {
        char lan[4][16];
        const char *bind = a->args.host_bind;
        bool one = bind && strcmp(bind, "0.0.0.0") != 0; /* --host-bind: that address alone */
        int n = one ? 1 : cl_lan_addresses(lan, 4);
        if (one)
            snprintf(lan[0], sizeof lan[0], "%.15s", bind);
        size_t k = (size_t)snprintf(line, sizeof line, "This computer: ");
        for (int i = 0; i < n && k < sizeof line; i++)
            k += (size_t)snprintf(line + k, sizeof line - k, "%s%s", i ? ", " : "", lan[i]);
        if (n == 0 && k < sizeof line)
            k += (size_t)snprintf(line + k, sizeof line - k,
                                  "no network address (only this computer can join)");
        if (k < sizeof line)
            k += (size_t)snprintf(line + k, sizeof line - k, "  -  port %u", (unsigned)a->online.server_port);
        if (a->online.port_taken && k < sizeof line)
            k += (size_t)snprintf(line + k, sizeof line - k, " (%d was taken by another server)",
                                  a->online.port_taken);
        cl_text_draw(t, CL_FONT_SMALL, line, a->out_w / 2, y,
                     a->online.port_taken ? cl_col_accent : cl_col_dim, CL_CENTER);
        y += sh;
        if (a->online.disc_port)
            snprintf(line, sizeof line,
                     "Friends: Join, then pick your game in the LAN list (it answers on discovery port %u)",
                     (unsigned)a->online.disc_port);
        else
            snprintf(line, sizeof line,
                     "LAN discovery is off: friends join with the link or address and code");
    } else if (b->route[0] && !b->route_how[0]) {
        snprintf(line, sizeof line, "%.300s", b->route); /* joining by code: how far it got */
    } else if (b->route_how[0]) {
        snprintf(line, sizeof line, "Path: %.200s  -  ping %d ms", b->route, b->ping_ms < 0 ? 0 : b->ping_ms);
    } else {
        snprintf(line, sizeof line, "ping %d ms", b->ping_ms < 0 ? 0 : b->ping_ms);
    }
    if (b->spectators > 0) {
        size_t n = strlen(line);
        snprintf(line + n, sizeof line - n, "   -   %d watching", b->spectators);
    }
    cl_text_draw(t, CL_FONT_SMALL, line, a->out_w / 2, y, cl_col_dim, CL_CENTER);
    return y + sh;
}

static void draw(cl_app *a)
{
    lobby_ui *u = cl_app_scene_state(a, CL_SCENE_LOBBY);
    cl_backend *b = a->backend;
    if (!b)
        return;
    char sub[128];
    bool alone = b->my_slot >= 0 && b->my_slot < 2 && !b->name[b->my_slot ^ 1][0];
    bool invite = a->mode == CL_MODE_HOST && b->invite[0];
    if (invite && alone)
        snprintf(sub, sizeof sub, "Invite code for a friend anywhere: they pick Join and type it");
    else if (invite)
        snprintf(sub, sizeof sub, "Invite code %s  -  room %s", b->invite, b->room);
    else if (b->room[0] && alone)
        snprintf(sub, sizeof sub, "Room code: %s  -  give it (or the join link) to your friend", b->room);
    else if (b->room[0])
        snprintf(sub, sizeof sub, "Room code: %s", b->room);
    else
        snprintf(sub, sizeof sub, "Connecting...");
    SDL_Rect area = cl_app_title(a,
                                 a->mode != CL_MODE_HOST    ? "Lobby"
                                 : cl_app_coordinator(a)[0] ? "Your game"
                                                            : "Your LAN game",
                                 sub);
    cl_text *t = a->text;
    int fh = cl_text_height(t, CL_FONT_BODY);
    if (invite)
        cl_text_draw(t, CL_FONT_HUGE, b->invite, a->out_w / 2, area.y, cl_col_accent, CL_CENTER);
    else if (b->room[0])
        cl_text_draw(t, CL_FONT_HUGE, b->room, a->out_w / 2, area.y, cl_col_accent, CL_CENTER);
    int y = area.y + cl_text_height(t, CL_FONT_HUGE) + fh / 2;
    for (int s = 0; s < 2; s++) {
        int w = fh * 24, x = (a->out_w - w) / 2;
        cl_draw_panel(a->ren, x, y, w, fh * 2, cl_col_panel);
        cl_draw_marker(a->ren, s, (float)(x + fh), (float)(y + fh), fh * 0.45f, false);
        char line[96];
        snprintf(line, sizeof line, "%s%s", b->name[s][0] ? b->name[s] : "(waiting for a player)",
                 s == b->my_slot && b->room[0] ? " (you)" : "");
        cl_text_draw_mid(t, CL_FONT_BODY, line, x + fh * 2, y + fh, b->name[s][0] ? cl_col_text : cl_col_dim,
                         CL_LEFT);
        if (b->name[s][0])
            cl_text_draw_mid(t, CL_FONT_BODY, b->ready[s] ? "ready" : "not ready", x + w - fh, y + fh,
                             b->ready[s] ? cl_col_good : cl_col_dim, CL_RIGHT);
        y += fh * 5 / 2;
    }
    y = draw_info(a, y);
    SDL_Rect rest = {0, y, a->out_w, a->out_h - y - fh * 2};
    cl_form_draw(&u->form, a->ren, t, rest);
}

const cl_scene cl_scene_lobby = {.name = "lobby",
                                 .enter = enter,
                                 .event = event,
                                 .update = update,
                                 .draw = draw,
                                 .state_size = sizeof(lobby_ui)};
