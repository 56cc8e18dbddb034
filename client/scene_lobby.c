/* scene_lobby.c: the room before a race: the code and join link to share, both players,
 * ready flags and ping. */
#include <stdio.h>
#include <string.h>

#include "cl_app.h"
#include "cl_draw.h"
#include "joinlink.h"

enum { L_READY = 1, L_COPY, L_LEAVE };

static void enter(cl_app *a)
{
    cl_form_clear(&a->form);
    cl_form_add(&a->form, CL_ITEM_BUTTON, L_READY, "I'm ready");
    cl_form_add(&a->form, CL_ITEM_BUTTON, L_LEAVE, "Leave");
}

static void event(cl_app *a, const SDL_Event *e)
{
    cl_form_result r = cl_form_event(&a->form, e, a->mouse_scale);
    if (r.back || r.activated == L_LEAVE) {
        cl_app_end_backend(a);
        cl_app_set_scene(a, a->mode == CL_MODE_JOIN ? CL_SCENE_JOIN : CL_SCENE_MENU);
        return;
    }
    if (r.activated == L_READY && a->backend)
        a->backend->ops->ready(a->backend, a->now_ms);
    char link[JOINLINK_TEXT_MAX];
    if (r.activated == L_COPY && cl_app_join_link(a, link, sizeof link)) {
        if (SDL_SetClipboardText(link) == 0) {
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
    cl_app_pump(a);
    if (a->scene == CL_SCENE_LOBBY && !a->backend)
        cl_app_set_scene(a, CL_SCENE_MENU);
    /* The link is known once the server has given the room its code. */
    char link[JOINLINK_TEXT_MAX];
    if (!cl_form_find(&a->form, L_COPY) && cl_app_join_link(a, link, sizeof link)) {
        cl_form_clear(&a->form);
        cl_form_add(&a->form, CL_ITEM_BUTTON, L_READY, "I'm ready");
        cl_form_add(&a->form, CL_ITEM_BUTTON, L_COPY, "Copy the join link");
        cl_form_add(&a->form, CL_ITEM_BUTTON, L_LEAVE, "Leave");
        printf("mazerace: join link %s\n", link);
        fflush(stdout);
    }
    cl_item *it = cl_form_find(&a->form, L_READY);
    if (it && a->backend)
        snprintf(it->label, sizeof it->label, "%s",
                 a->backend->ready[a->backend->my_slot] || a->backend->ready_pending ? "Not ready yet"
                                                                                     : "I'm ready");
}

static void draw(cl_app *a)
{
    cl_backend *b = a->backend;
    if (!b)
        return;
    char sub[128];
    if (b->room[0])
        snprintf(sub, sizeof sub, "Room code: %s  -  give it to your friend", b->room);
    else
        snprintf(sub, sizeof sub, "Connecting...");
    SDL_Rect area = cl_app_title(a, a->mode == CL_MODE_HOST ? "Your LAN game" : "Lobby", sub);
    cl_text *t = a->text;
    int fh = cl_text_height(t, CL_FONT_BODY);
    if (b->room[0])
        cl_text_draw(t, CL_FONT_HUGE, b->room, a->out_w / 2, area.y, cl_col_accent, CL_CENTER);
    int y = area.y + cl_text_height(t, CL_FONT_HUGE) + fh;
    for (int s = 0; s < 2; s++) {
        int w = fh * 24, x = (a->out_w - w) / 2;
        cl_draw_panel(a->ren, x, y, w, fh * 2, cl_col_panel);
        cl_draw_marker(a->ren, s, (float)(x + fh), (float)(y + fh), fh * 0.45f, false);
        char line[96];
        snprintf(line, sizeof line, "%s%s", b->name[s][0] ? b->name[s] : "(waiting for a player)",
                 s == b->my_slot ? " (you)" : "");
        cl_text_draw_mid(t, CL_FONT_BODY, line, x + fh * 2, y + fh, b->name[s][0] ? cl_col_text : cl_col_dim,
                         CL_LEFT);
        if (b->name[s][0])
            cl_text_draw_mid(t, CL_FONT_BODY, b->ready[s] ? "ready" : "not ready", x + w - fh, y + fh,
                             b->ready[s] ? cl_col_good : cl_col_dim, CL_RIGHT);
        y += fh * 5 / 2;
    }
    char info[160], link[JOINLINK_TEXT_MAX];
    if (cl_app_join_link(a, link, sizeof link)) {
        char line[JOINLINK_TEXT_MAX + 16];
        snprintf(line, sizeof line, "Join link: %s", link);
        cl_text_draw(t, CL_FONT_SMALL, line, a->out_w / 2, y, cl_col_text, CL_CENTER);
        y += fh * 2;
    }
    if (a->mode == CL_MODE_HOST)
        snprintf(
            info, sizeof info,
            "Friends: Join, then pick this game in the LAN list (or type this computer's address, port %u)",
            (unsigned)a->server_port);
    else
        snprintf(info, sizeof info, "ping %d ms", b->ping_ms < 0 ? 0 : b->ping_ms);
    if (b->spectators > 0) {
        size_t n = strlen(info);
        snprintf(info + n, sizeof info - n, "   -   %d watching", b->spectators);
    }
    cl_text_draw(t, CL_FONT_SMALL, info, a->out_w / 2, y, cl_col_dim, CL_CENTER);
    y += fh * 2;
    SDL_Rect rest = {0, y, a->out_w, a->out_h - y - fh * 2};
    cl_form_draw(&a->form, a->ren, t, rest);
}

const cl_scene cl_scene_lobby = {"lobby", enter, event, update, draw};
