/* scene_settings.c: player name and key bindings (conflicts refused);
 * saved when leaving the screen. */
#include <stdio.h>
#include <string.h>

#include "cl_app.h"
#include "cl_draw.h"

enum { T_NAME = 1, T_WHO, T_RESET, T_BACK, T_KEY = 100 };

static void labels(cl_app *a)
{
    int who = cl_form_find(&a->form, T_WHO)->choice;
    static const char *const names[CL_ACT_COUNT] = {
        "Up", "Down", "Left", "Right", "Rotate clockwise", "Rotate counter-clockwise", "Restart (ice)"};
    for (int i = 0; i < CL_ACT_COUNT; i++) {
        cl_item *it = cl_form_find(&a->form, T_KEY + i);
        snprintf(it->label, sizeof it->label, "%s", names[i]);
        if (a->bind_wait == i)
            snprintf(it->value, sizeof it->value, "press a key (Esc cancels)");
        else
            snprintf(it->value, sizeof it->value, "%s", SDL_GetKeyName(a->settings.keys.key[who][i]));
    }
}

static void enter(cl_app *a)
{
    a->bind_wait = -1;
    cl_form_clear(&a->form);
    cl_item *it = cl_form_add(&a->form, CL_ITEM_TEXT, T_NAME, "Your name");
    snprintf(it->value, sizeof it->value, "%s", a->settings.name);
    it->maxlen = WIRE_NAME_MAX;
    it = cl_form_add(&a->form, CL_ITEM_CHOICE, T_WHO, "Keys for");
    cl_item_choice(it, "Player 1 (and solo)");
    cl_item_choice(it, "Player 2 (hotseat)");
    for (int i = 0; i < CL_ACT_COUNT; i++)
        cl_form_add(&a->form, CL_ITEM_BUTTON, T_KEY + i, "");
    cl_form_add(&a->form, CL_ITEM_BUTTON, T_RESET, "Default keys");
    cl_form_add(&a->form, CL_ITEM_BUTTON, T_BACK, "Save and go back");
    labels(a);
}

static void leave(cl_app *a)
{
    cl_item *name = cl_form_find(&a->form, T_NAME);
    const char *bad = cl_name_problem(name->value);
    if (!bad)
        snprintf(a->settings.name, sizeof a->settings.name, "%.24s", name->value);
    else
        cl_app_say(a, true, "Name not changed: %s; kept %s", bad, a->settings.name);
    cl_app_save_settings(a);
    cl_app_set_scene(a, CL_SCENE_MENU);
}

static void event(cl_app *a, const SDL_Event *e)
{
    if (a->bind_wait >= 0) {
        if (e->type != SDL_KEYDOWN)
            return;
        SDL_Keycode k = e->key.keysym.sym;
        if (k != SDLK_ESCAPE) {
            int who = cl_form_find(&a->form, T_WHO)->choice;
            const char *why = cl_bindings_set(&a->settings.keys, who, a->bind_wait, k);
            if (why)
                cl_app_say(a, true, "%s: %s", SDL_GetKeyName(k), why);
        }
        a->bind_wait = -1;
        labels(a);
        return;
    }
    cl_form_result r = cl_form_event(&a->form, e, a->mouse_scale);
    if (r.back || r.activated == T_BACK) {
        leave(a);
        return;
    }
    if (r.activated == T_RESET) {
        cl_bindings_default(&a->settings.keys);
        cl_app_say(a, false, "Default keys restored");
    } else if (r.activated >= T_KEY && r.activated < T_KEY + CL_ACT_COUNT) {
        a->bind_wait = r.activated - T_KEY;
    }
    labels(a);
}

static void draw(cl_app *a)
{
    char sub[1100];
    if (!a->settings_path[0]) {
        snprintf(sub, sizeof sub, "Settings are not saved in this run");
    } else {
        /* A long path loses its leading directories so the line fits. */
        const char *p = a->settings_path;
        snprintf(sub, sizeof sub, "Saved in %s", p);
        while (cl_text_width(a->text, CL_FONT_BODY, sub) > a->out_w * 9 / 10 && strchr(p + 1, '/')) {
            p = strchr(p + 1, '/');
            snprintf(sub, sizeof sub, "Saved in ...%s", p);
        }
    }
    SDL_Rect area = cl_app_title(a, "Settings", sub);
    cl_form_draw(&a->form, a->ren, a->text, area);
    cl_text_draw(a->text, CL_FONT_SMALL,
                 "Enter on a key to change it; a key used elsewhere is refused. Esc saves and goes back.",
                 a->out_w / 2, a->out_h - cl_text_height(a->text, CL_FONT_SMALL) * 2, cl_col_dim, CL_CENTER);
}

const cl_scene cl_scene_settings = {"settings", enter, event, NULL, draw};
