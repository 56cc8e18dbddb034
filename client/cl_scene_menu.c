/* cl_scene_menu.c: the main menu. */
#include "cl_scene.h"
#include "cl_draw.h"
#include "cl_ui.h"
#include "util.h"

/* The buttons, in order: the mode each sets (-1: the mode stays) and the
 * scene it opens (-1: Quit). */
static const struct {
    const char *label;
    int mode, scene;
} items[] = {
    {"Play vs computer", CL_MODE_COMPUTER, CL_SCENE_SETUP},
    {"Hotseat (two players, one keyboard)", CL_MODE_HOTSEAT, CL_SCENE_SETUP},
    {"Host a LAN game", CL_MODE_HOST, CL_SCENE_SETUP},
    {"Join a game", CL_MODE_JOIN, CL_SCENE_JOIN},
    {"History and best times", -1, CL_SCENE_HISTORY},
    {"Settings", -1, CL_SCENE_SETTINGS},
    {"Quit", -1, -1},
};

/* The screen's own state (cl_scene.state_size). */
typedef struct menu_ui {
    cl_form form;
    bool confirm_quit; /* Esc asks before quitting; the Quit button is the direct way */
} menu_ui;

static void enter(cl_app *a)
{
    menu_ui *u = cl_app_scene_state(a, CL_SCENE_MENU);
    cl_form_clear(&u->form);
    for (int i = 0; i < (int)MR_ARRAY_LEN(items); i++)
        cl_form_add(&u->form, CL_ITEM_BUTTON, i, items[i].label);
}

static bool confirm_event(cl_app *a, const SDL_Event *e)
{
    menu_ui *u = cl_app_scene_state(a, CL_SCENE_MENU);
    if (!u->confirm_quit)
        return false;
    if (e->type == SDL_KEYDOWN) {
        SDL_Keycode k = e->key.keysym.sym;
        if (k == SDLK_y || k == SDLK_RETURN || k == SDLK_KP_ENTER)
            a->quit = true;
        if (k == SDLK_n || k == SDLK_ESCAPE || k == SDLK_y || k == SDLK_RETURN || k == SDLK_KP_ENTER)
            u->confirm_quit = false;
    } else if (e->type == SDL_CONTROLLERBUTTONDOWN) {
        if (e->cbutton.button == SDL_CONTROLLER_BUTTON_A)
            a->quit = true;
        if (e->cbutton.button == SDL_CONTROLLER_BUTTON_A || e->cbutton.button == SDL_CONTROLLER_BUTTON_B)
            u->confirm_quit = false;
    }
    return true;
}

static void event(cl_app *a, const SDL_Event *e)
{
    menu_ui *u = cl_app_scene_state(a, CL_SCENE_MENU);
    if (confirm_event(a, e))
        return;
    cl_form_result r = cl_form_event(&u->form, e, a->mouse_scale);
    if (r.back) {
        u->confirm_quit = true;
        return;
    }
    if (r.activated < 0 || r.activated >= (int)MR_ARRAY_LEN(items))
        return;
    if (items[r.activated].mode >= 0)
        a->mode = items[r.activated].mode;
    if (items[r.activated].scene >= 0)
        cl_app_set_scene(a, items[r.activated].scene);
    else
        a->quit = true;
}

static void draw(cl_app *a)
{
    menu_ui *u = cl_app_scene_state(a, CL_SCENE_MENU);
    char sub[96];
    snprintf(sub, sizeof sub, "Race a friend through the same puzzle  -  playing as %s", a->settings.name);
    SDL_Rect area = cl_app_title(a, "mazerace", sub);
    /* The two players' markers as a small emblem under the title. */
    int r = cl_text_height(a->text, CL_FONT_SMALL) / 2;
    /* The emblem gets its own row below the subtitle, then the form. */
    cl_draw_marker(a->ren, 0, (float)(a->out_w / 2 - 2 * r), (float)(area.y + r), (float)r, false);
    cl_draw_marker(a->ren, 1, (float)(a->out_w / 2 + 2 * r), (float)(area.y + r), (float)r, false);
    area.y += 3 * r;
    area.h -= 3 * r;
    cl_form_draw(&u->form, a->ren, a->text, area);
    /* The hint on the bottom line, under the form's area (never over Quit). */
    const char *hint = "Arrows/mouse/gamepad to choose, Enter to pick, Esc to quit, F11 fullscreen";
    if (cl_text_width(a->text, CL_FONT_SMALL, hint) > a->out_w - 20)
        hint = "Arrows: choose  -  Enter: pick  -  Esc: quit";
    int sh = cl_text_height(a->text, CL_FONT_SMALL);
    cl_text_draw(a->text, CL_FONT_SMALL, hint, a->out_w / 2, a->out_h - sh * 3 / 2, cl_col_dim, CL_CENTER);
    if (u->confirm_quit)
        cl_app_confirm(a, 18, "Quit mazerace?", "Y or Enter: quit  -  N or Esc: stay");
}

const cl_scene cl_scene_menu = {
    .name = "menu", .enter = enter, .event = event, .draw = draw, .state_size = sizeof(menu_ui)};
