/* cl_scene_settings.c: player name, sound, display, the computer's default
 * level and key bindings (conflicts refused); saved when leaving the screen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot_model.h"
#include "cl_scene.h"
#include "cl_draw.h"
#include "cl_prefdir.h"
#include "cl_ui.h"

enum {
    T_NAME = 1,
    T_SOUND,
    T_VOLUME,
    T_DISPLAY,
    T_SCALE,
    T_LEVEL,
    T_COORD,
    T_WHO,
    T_RESET,
    T_BACK,
    T_KEY = 100,
    GENERAL_ROWS = 7 /* name .. coordinator: the left column; keys on the right */
};

static const int volumes[] = {10, 25, 40, 55, 70, 85, 100};
static const int scales[] = {75, 90, 100, 115, 130, 150};
enum { NVOL = sizeof volumes / sizeof volumes[0], NSCALE = sizeof scales / sizeof scales[0] };

/* The screen's own state (cl_scene.state_size). */
typedef struct settings_ui {
    cl_form form;
    int bind_wait; /* the action index being rebound, -1 none */
} settings_ui;

/* The choice whose value is nearest v. */
static int nearest(const int *opts, int n, int v)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (abs(opts[i] - v) < abs(opts[best] - v))
            best = i;
    return best;
}

static void labels(cl_app *a)
{
    settings_ui *u = cl_app_scene_state(a, CL_SCENE_SETTINGS);
    int who = cl_form_find(&u->form, T_WHO)->choice;
    static const char *const names[CL_ACT_COUNT] = {
        "Up", "Down", "Left", "Right", "Turn clockwise", "Turn anticlockwise", "Restart (ice)"};
    for (int i = 0; i < CL_ACT_COUNT; i++) {
        cl_item *it = cl_form_find(&u->form, T_KEY + i);
        snprintf(it->label, sizeof it->label, "%s", names[i]);
        if (u->bind_wait == i)
            snprintf(it->value, sizeof it->value, "press one now");
        else {
            /* "pad A" beside key A would read as one key: pads say so. */
            const char *pb = cl_pad_button_name(a->settings.keys.pad[i]);
            snprintf(it->value, sizeof it->value, "%s   %s%s", SDL_GetKeyName(a->settings.keys.key[who][i]),
                     strstr(pb, "pad") ? "" : "pad ", pb);
        }
    }
}

static cl_item *choice(cl_app *a, int id, const char *label, int n, const char *const *texts, int pick)
{
    settings_ui *u = cl_app_scene_state(a, CL_SCENE_SETTINGS);
    cl_item *it = cl_form_add(&u->form, CL_ITEM_CHOICE, id, label);
    for (int i = 0; i < n; i++)
        cl_item_choice(it, texts[i]);
    it->choice = pick;
    return it;
}

/* A choice of percentages, on the one nearest v. */
static void percents(cl_app *a, int id, const char *label, const int *opts, int n, int v)
{
    settings_ui *u = cl_app_scene_state(a, CL_SCENE_SETTINGS);
    cl_item *it = cl_form_add(&u->form, CL_ITEM_CHOICE, id, label);
    for (int i = 0; i < n; i++) {
        char b[16];
        snprintf(b, sizeof b, "%d%%", opts[i]);
        cl_item_choice(it, b);
    }
    it->choice = nearest(opts, n, v);
}

static void enter(cl_app *a)
{
    settings_ui *u = cl_app_scene_state(a, CL_SCENE_SETTINGS);
    u->bind_wait = -1;
    cl_form_clear(&u->form);
    cl_settings *s = &a->settings;
    cl_item *it = cl_form_add(&u->form, CL_ITEM_TEXT, T_NAME, "Your name");
    snprintf(it->value, sizeof it->value, "%s", s->name);
    it->maxlen = WIRE_NAME_MAX;
    static const char *const onoff[] = {"On", "Off"};
    choice(a, T_SOUND, "Sound", 2, onoff, s->muted ? 1 : 0);
    percents(a, T_VOLUME, "Volume", volumes, NVOL, s->volume);
    static const char *const disp[] = {"Window", "Fullscreen"};
    choice(a, T_DISPLAY, "Display", 2, disp, s->fullscreen ? 1 : 0);
    percents(a, T_SCALE, "Text and controls", scales, NSCALE, s->ui_scale);
    it = cl_form_add(&u->form, CL_ITEM_CHOICE, T_LEVEL, "Computer level");
    for (int i = 0; i < BOT_LEVEL_COUNT; i++)
        cl_item_choice(it, bot_level_name(i));
    it->choice = s->bot_level >= 0 && s->bot_level < BOT_LEVEL_COUNT ? s->bot_level : BOT_LEVEL_DEFAULT;
    /* Invite codes and the Internet list (docs/client.md): HOST[:PORT], or empty for none. */
    it = cl_form_add(&u->form, CL_ITEM_TEXT, T_COORD, "Coordinator");
    snprintf(it->value, sizeof it->value, "%s", s->coordinator);
    it->maxlen = (int)sizeof s->coordinator - 1;
    it = cl_form_add(&u->form, CL_ITEM_CHOICE, T_WHO, "Keys for");
    cl_item_choice(it, "Player 1");
    cl_item_choice(it, "Player 2");
    for (int i = 0; i < CL_ACT_COUNT; i++)
        cl_form_add(&u->form, CL_ITEM_BUTTON, T_KEY + i, "");
    cl_form_add(&u->form, CL_ITEM_BUTTON, T_RESET, "Default keys");
    cl_form_add(&u->form, CL_ITEM_BUTTON, T_BACK, "Save and go back");
    labels(a);
}

static void leave(cl_app *a)
{
    settings_ui *u = cl_app_scene_state(a, CL_SCENE_SETTINGS);
    cl_item *name = cl_form_find(&u->form, T_NAME);
    const char *bad = cl_name_problem(name->value);
    if (!bad)
        snprintf(a->settings.name, sizeof a->settings.name, "%.24s", name->value);
    else
        cl_app_say(a, true, "Name not changed: %s; kept %s", bad, a->settings.name);
    cl_item *co = cl_form_find(&u->form, T_COORD);
    char line[200];
    snprintf(line, sizeof line, "coordinator = %s", co->value);
    char why[160];
    if (cl_settings_parse(&a->settings, line, strlen(line), why, sizeof why))
        cl_app_say(a, true,
                   "Coordinator not changed: it is HOST or HOST:PORT (e.g. coord.example.org:27920)");
    cl_app_save_settings(a);
    cl_app_set_scene(a, CL_SCENE_MENU);
}

/* A choice changed: applied at once, so the player hears, sees and feels it. */
static void changed(cl_app *a, int id)
{
    settings_ui *u = cl_app_scene_state(a, CL_SCENE_SETTINGS);
    cl_settings *s = &a->settings;
    int c = cl_form_find(&u->form, id)->choice;
    switch (id) {
    case T_SOUND:
    case T_VOLUME:
        s->muted = cl_form_find(&u->form, T_SOUND)->choice == 1;
        s->volume = volumes[cl_form_find(&u->form, T_VOLUME)->choice];
        cl_audio_set_volume(a->audio, s->volume, s->muted);
        cl_audio_play(a->audio, CL_SFX_MILESTONE); /* a sample at the new volume */
        break;
    case T_DISPLAY:
        if ((c == 1) != s->fullscreen)
            cl_app_toggle_fullscreen(a);
        break;
    case T_SCALE:
        s->ui_scale = scales[c]; /* laid out again on the next frame */
        break;
    case T_LEVEL:
        s->bot_level = c;
        a->args.bot_level = c;     /* the setup screen starts on it from now, */
        a->settings.setup[3] = -1; /* over the level it last remembered */
        break;
    default:
        break;
    }
}

static void event(cl_app *a, const SDL_Event *e)
{
    settings_ui *u = cl_app_scene_state(a, CL_SCENE_SETTINGS);
    if (u->bind_wait >= 0) {
        const char *why = NULL;
        if (e->type == SDL_CONTROLLERBUTTONDOWN) {
            int b = e->cbutton.button;
            if (b != SDL_CONTROLLER_BUTTON_B && (why = cl_pad_bind(&a->settings.keys, u->bind_wait, b)))
                cl_app_say(a, true, "Pad %s: %s", cl_pad_button_name(b), why);
        } else if (e->type == SDL_KEYDOWN) {
            SDL_Keycode k = e->key.keysym.sym;
            int who = cl_form_find(&u->form, T_WHO)->choice;
            if (k != SDLK_ESCAPE && (why = cl_bindings_set(&a->settings.keys, who, u->bind_wait, k)))
                cl_app_say(a, true, "%s: %s", SDL_GetKeyName(k), why);
        } else {
            return;
        }
        u->bind_wait = -1;
        labels(a);
        return;
    }
    cl_form_result r = cl_form_event(&u->form, e, a->mouse_scale);
    if (r.back || r.activated == T_BACK) {
        leave(a);
        return;
    }
    if (r.changed > 0)
        changed(a, r.changed);
    if (r.activated == T_RESET) {
        cl_bindings_default(&a->settings.keys);
        cl_app_say(a, false, "Default keys restored");
    } else if (r.activated >= T_KEY && r.activated < T_KEY + CL_ACT_COUNT) {
        u->bind_wait = r.activated - T_KEY;
    }
    labels(a);
}

static void draw(cl_app *a)
{
    settings_ui *u = cl_app_scene_state(a, CL_SCENE_SETTINGS);
    SDL_Rect area = cl_app_title(a, "Settings", NULL);
    int fh = cl_text_height(a->text, CL_FONT_BODY), sh = cl_text_height(a->text, CL_FONT_SMALL);
    /* Two columns, general and the way back on the left, keys on the
     * right, so the whole screen fits at the smallest window (640x480);
     * a large text scale brings the rows closer (never overlapping). */
    int nkeys = u->form.n - GENERAL_ROWS - 1;
    int row = fh * 17 / 10, step = row + fh / 3;
    int top = area.y + sh + sh / 2, room = a->out_h - sh * 2 - 6 - top;
    if (step * nkeys > room)
        step = room / nkeys > row ? room / nkeys : row + 1;
    int half = area.w / 2, inset = fh / 2, cw = half - inset * 3 / 2;
    int lx = area.x + inset, rx = area.x + half + inset / 2;
    cl_text_draw(a->text, CL_FONT_SMALL, "General", lx + cw / 2, top - sh - sh / 4, cl_col_dim, CL_CENTER);
    cl_text_draw(a->text, CL_FONT_SMALL, "Keys", rx + cw / 2, top - sh - sh / 4, cl_col_dim, CL_CENTER);
    for (int i = 0; i < u->form.n; i++) {
        /* General rows, a gap, the way back; then the keys on the right. */
        bool keys = i >= GENERAL_ROWS && i < u->form.n - 1;
        int slot = keys ? i - GENERAL_ROWS : i < GENERAL_ROWS ? i : GENERAL_ROWS + 1;
        SDL_Rect rc = {keys ? rx : lx, top + slot * step, cw, row};
        cl_form_draw_rows(&u->form, a->ren, a->text, rc, i, 1);
    }
    /* The file, small and out of the way at the foot of the screen. */
    char where[1200], shown[1100];
    if (!a->settings_path[0]) {
        snprintf(where, sizeof where, "Settings are not saved in this run");
    } else {
        cl_prefdir_show(a->settings_path, getenv("HOME"), shown, sizeof shown);
        snprintf(where, sizeof where, "Settings file: %s", shown);
    }
    int y = a->out_h - sh * 2 - 4;
    cl_text_draw(
        a->text, CL_FONT_SMALL,
        "Enter (pad A) on an action, then a key or pad button; Esc or B cancels. A key in use is refused.",
        a->out_w / 2, y, cl_col_dim, CL_CENTER);
    cl_text_draw(a->text, CL_FONT_SMALL, where, a->out_w / 2, y + sh, cl_col_dim, CL_CENTER);
}

const cl_scene cl_scene_settings = {
    .name = "settings", .enter = enter, .event = event, .draw = draw, .state_size = sizeof(settings_ui)};
