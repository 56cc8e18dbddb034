/* scene_join.c: joining a game: servers found on the LAN, or an address,
 * then a room code or quick match; or watching a race there. */
#include <stdio.h>
#include <string.h>

#include "cl_app.h"
#include "cl_draw.h"
#include "joinlink.h"

enum {
    J_ADDR = 1,
    J_ROOM,
    J_JOIN,
    J_QUICK,
    J_WATCH,
    J_REPLAYS,
    J_BACK,
    J_LABEL,
    J_FOUND = 100,
    J_WATCH_FOUND = 200
};

/* Buttons the found servers need: one each, and a Watch for each racing. */
static int found_buttons(cl_app *a)
{
    char l[128], ad[96];
    int n = 0;
    for (int i = 0; i < 6 && cl_app_found(a, i, l, sizeof l, ad, sizeof ad) == 0; i++)
        n += 1 + (cl_app_found_races(a, i) > 0);
    return n;
}

static void build(cl_app *a)
{
    char addr[160] = "", room[160] = "";
    int sel_id = a->form.n ? a->form.items[a->form.sel].id : J_ADDR;
    cl_item *it = cl_form_find(&a->form, J_ADDR);
    snprintf(addr, sizeof addr, "%s", it ? it->value : a->settings.last_server);
    it = cl_form_find(&a->form, J_ROOM);
    if (it)
        snprintf(room, sizeof room, "%s", it->value);
    cl_form_clear(&a->form);
    char label[128], address[96];
    int n = 0;
    for (int i = 0; i < 6 && cl_app_found(a, i, label, sizeof label, address, sizeof address) == 0;
         i++, n++) {
        it = cl_form_add(&a->form, CL_ITEM_BUTTON, J_FOUND + i, label);
        snprintf(it->value, sizeof it->value, "%s", address);
        if (cl_app_found_races(a, i) > 0) {
            char watch[160];
            snprintf(watch, sizeof watch, "  Watch a race there (%d racing)", cl_app_found_races(a, i));
            it = cl_form_add(&a->form, CL_ITEM_BUTTON, J_WATCH_FOUND + i, watch);
            snprintf(it->value, sizeof it->value, "%s", address);
        }
    }
    if (n == 0)
        cl_form_add(&a->form, CL_ITEM_LABEL, J_LABEL, "Searching the LAN for games...");
    it = cl_form_add(&a->form, CL_ITEM_TEXT, J_ADDR, "Server or link");
    snprintf(it->value, sizeof it->value, "%s", addr);
    it->maxlen = 150; /* a join link fits */
    it = cl_form_add(&a->form, CL_ITEM_TEXT, J_ROOM, "Room code");
    snprintf(it->value, sizeof it->value, "%s", room);
    it->maxlen = 8;
    cl_form_add(&a->form, CL_ITEM_BUTTON, J_JOIN, "Join the room");
    cl_form_add(&a->form, CL_ITEM_BUTTON, J_QUICK, "Quick match (anyone waiting)");
    cl_form_add(&a->form, CL_ITEM_BUTTON, J_WATCH, "Watch (that room, or the first race)");
    cl_form_add(&a->form, CL_ITEM_BUTTON, J_REPLAYS, "Server replays (stored matches there)");
    cl_form_add(&a->form, CL_ITEM_BUTTON, J_BACK, "Back");
    a->form.sel = 0;
    for (int i = 0; i < a->form.n; i++)
        if (a->form.items[i].id == sel_id)
            a->form.sel = i;
    if (a->form.items[a->form.sel].type == CL_ITEM_LABEL)
        a->form.sel++;
}

static void enter(cl_app *a)
{
    cl_form_clear(&a->form);
    build(a);
}

static void go(cl_app *a, const char *addr, bool quick)
{
    cl_item *room = cl_form_find(&a->form, J_ROOM);
    joinlink l;
    bool link_room = !joinlink_parse(addr, &l) && l.room[0];
    if (!quick && !link_room && (!room || !room->value[0])) {
        cl_app_say(a, true, "Type the room code your friend sees, or pick Quick match");
        return;
    }
    const char *why = cl_app_join(a, addr, room ? room->value : NULL, quick);
    if (why)
        cl_app_say(a, true, "%s", why);
    else
        cl_app_set_scene(a, CL_SCENE_LOBBY);
}

static void event(cl_app *a, const SDL_Event *e)
{
    cl_form_result r = cl_form_event(&a->form, e, a->mouse_scale);
    if (r.back || r.activated == J_BACK) {
        cl_app_net_stop(a);
        cl_app_set_scene(a, CL_SCENE_MENU);
        return;
    }
    cl_item *addr = cl_form_find(&a->form, J_ADDR);
    if (r.activated == J_WATCH || r.activated >= J_WATCH_FOUND) {
        cl_item *it = r.activated == J_WATCH ? addr : cl_form_find(&a->form, r.activated);
        cl_item *room = cl_form_find(&a->form, J_ROOM);
        const char *why = it ? cl_app_watch(a, it->value, r.activated == J_WATCH && room ? room->value : NULL)
                             : "no server";
        if (why)
            cl_app_say(a, true, "%s", why);
    } else if (r.activated == J_REPLAYS) {
        /* The address typed, else the first server found on the LAN. */
        char label[128], found[96];
        const char *at = addr && addr->value[0]                                              ? addr->value
                         : cl_app_found(a, 0, label, sizeof label, found, sizeof found) == 0 ? found
                                                                                             : "";
        const char *why = at[0] ? cl_srvrep_open(a, at, 0) : "Type a server's address first";
        if (why)
            cl_app_say(a, true, "%s", why);
    } else if (r.activated >= J_FOUND) {
        cl_item *it = cl_form_find(&a->form, r.activated);
        if (it && addr) {
            snprintf(addr->value, sizeof addr->value, "%s", it->value);
            cl_item *room = cl_form_find(&a->form, J_ROOM);
            go(a, it->value, !room || !room->value[0]);
        }
    } else if (r.activated == J_JOIN || r.activated == J_QUICK) {
        go(a, addr ? addr->value : "", r.activated == J_QUICK);
    }
}

static void update(cl_app *a)
{
    if (a->scene != CL_SCENE_JOIN)
        return;
    cl_app_discover(a);
    /* Rebuild when the list changed size, keeping what was typed. */
    int shown = 0;
    for (int i = 0; i < a->form.n; i++)
        shown += a->form.items[i].id >= J_FOUND;
    if (found_buttons(a) != shown)
        build(a);
}

static void draw(cl_app *a)
{
    SDL_Rect area = cl_app_title(a, "Join a game",
                                 "Pick a game found on your network, or type (Ctrl+V) an address or link");
    cl_form_draw(&a->form, a->ren, a->text, area);
    cl_text_draw(a->text, CL_FONT_SMALL,
                 "A room code joins a friend's room; quick match pairs you with whoever waits; Watch "
                 "looks on",
                 a->out_w / 2, a->out_h - cl_text_height(a->text, CL_FONT_SMALL) * 2, cl_col_dim, CL_CENTER);
}

const cl_scene cl_scene_join = {"join", enter, event, update, draw};
