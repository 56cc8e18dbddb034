/* cl_app.c: the client's window, one frame (script, events, scene, message,
 * screenshot), scene switching through the table it is given, and the
 * services every screen uses; cl_run.c holds the main loop and the screens. */
#include "cl_app.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cl_assets.h"
#include "cl_draw.h"
#include "st.h"
#include "cl_prefdir.h"
#include "cl_vpad.h"
#include "util.h"

void cl_app_set_scene(cl_app *a, int scene)
{
    if (scene < 0 || scene >= CL_SCENE_COUNT)
        return;
    a->scene = scene;
    if (a->scenes[scene]->enter)
        a->scenes[scene]->enter(a);
}

void *cl_app_scene_state(const cl_app *a, int scene)
{
    return scene >= 0 && scene < CL_SCENE_COUNT ? a->scene_state[scene] : NULL;
}

const char *cl_app_state_name(const cl_app *a)
{
    const cl_scene *s = a->scenes[a->scene];
    return s->wait_name ? s->wait_name(a) : s->name;
}

void cl_app_say(cl_app *a, bool bad, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg.text, sizeof a->msg.text, fmt, ap);
    va_end(ap);
    a->msg.bad = bad;
    a->msg.until = a->now_ms + 5000;
    /* Tests and players' terminals see the same words as the screen. */
    fprintf(bad ? stderr : stdout, "mazerace: %s\n", a->msg.text);
    fflush(bad ? stderr : stdout);
}

void cl_app_start_backend(cl_app *a, cl_backend *b)
{
    cl_race_free(&a->race);
    cl_backend_destroy(a->backend);
    a->backend = b;
    a->series.result_printed = false;
    a->series.finished_at = 0;
}

void cl_app_save_settings(cl_app *a)
{
    if (a->args.no_save || !a->settings_path[0])
        return;
    const char *why = cl_settings_save(&a->settings, a->settings_path);
    if (why)
        cl_app_say(a, true, "%s (%s)", why, a->settings_path);
}

void cl_app_toggle_fullscreen(cl_app *a)
{
    bool fs = (SDL_GetWindowFlags(a->win) & SDL_WINDOW_FULLSCREEN_DESKTOP) != 0;
    SDL_SetWindowFullscreen(a->win, fs ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP);
    a->settings.fullscreen = !fs;
}

SDL_Rect cl_app_title(cl_app *a, const char *title, const char *sub)
{
    /* The menu gets the big title; other screens a smaller one, so their
     * forms fit at 800x600. */
    int font = a->scene == CL_SCENE_MENU && a->out_h >= 540 ? CL_FONT_HUGE : CL_FONT_TITLE;
    int th = cl_text_height(a->text, font);
    int y = a->scene == CL_SCENE_MENU ? a->out_h / 14 : a->out_h / 30;
    cl_text_draw(a->text, font, title, a->out_w / 2, y, cl_col_text, CL_CENTER);
    y += th;
    if (sub) {
        char fit[256];
        cl_text_fit(a->text, CL_FONT_BODY, sub, a->out_w - 20, fit, sizeof fit);
        cl_text_draw(a->text, CL_FONT_BODY, fit, a->out_w / 2, y, cl_col_dim, CL_CENTER);
        y += cl_text_height(a->text, CL_FONT_BODY);
    }
    y += cl_text_height(a->text, CL_FONT_BODY) / 2;
    SDL_Rect r = {0, y, a->out_w, a->out_h - y - cl_text_height(a->text, CL_FONT_BODY) * 2};
    return r;
}

void cl_app_confirm(cl_app *a, int em_wide, const char *title, const char *hint)
{
    int fh = cl_text_height(a->text, CL_FONT_BODY);
    int w = fh * em_wide < a->out_w - 20 ? fh * em_wide : a->out_w - 20, h = fh * 5;
    int x = (a->out_w - w) / 2, y = (a->out_h - h) / 2;
    cl_draw_fill(a->ren, 0, 0, a->out_w, a->out_h, (SDL_Color){0, 0, 0, 140});
    cl_draw_panel(a->ren, x, y, w, h, cl_col_panel);
    cl_text_draw_mid(a->text, CL_FONT_TITLE, title, a->out_w / 2, y + fh * 3 / 2, cl_col_text, CL_CENTER);
    cl_text_draw_mid(a->text, CL_FONT_BODY, hint, a->out_w / 2, y + fh * 7 / 2, cl_col_dim, CL_CENTER);
}

static void update_size(cl_app *a)
{
    int w, h, ww, wh;
    SDL_GetRendererOutputSize(a->ren, &w, &h);
    SDL_GetWindowSize(a->win, &ww, &wh);
    a->mouse_scale = ww > 0 ? (float)w / (float)ww : 1.0f;
    if (w != a->out_w || h != a->out_h || a->settings.ui_scale != a->ui_scale_laid) {
        a->out_w = w;
        a->out_h = h;
        a->ui_scale_laid = a->settings.ui_scale;
        cl_text_layout(a->text, (h < w * 3 / 4 ? h : w * 3 / 4) * a->settings.ui_scale / 100);
    }
}

static bool save_screenshot(cl_app *a, const char *path)
{
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, a->out_w, a->out_h, 32, SDL_PIXELFORMAT_ARGB8888);
    if (!s)
        return false;
    bool ok = SDL_RenderReadPixels(a->ren, NULL, SDL_PIXELFORMAT_ARGB8888, s->pixels, s->pitch) == 0 &&
              SDL_SaveBMP(s, path) == 0;
    SDL_FreeSurface(s);
    if (ok && cl_text_dump_wanted() && !cl_text_dump(a->text, path))
        fprintf(stderr, "mazerace: cannot write %s.txt\n", path);
    if (ok)
        printf("mazerace: screenshot %s (%dx%d)\n", path, a->out_w, a->out_h);
    else
        fprintf(stderr, "mazerace: cannot save screenshot %s: %s\n", path, SDL_GetError());
    fflush(stdout);
    return ok;
}

/* Runs due script lines; a wait holds the script until the app is in the
 * named state. Returns a screenshot path to take this frame, or NULL. */
static const char *run_script(cl_app *a)
{
    const char *shot = NULL;
    if (!a->script)
        return NULL;
    cl_vpad_frame();
    for (int guard = 0; guard < 64; guard++) {
        const cl_script_line *l = cl_script_due(a->script, a->now_ms);
        if (!l)
            break;
        if (l->op == CL_SOP_WAIT) {
            const cl_scene *s = a->scenes[a->scene];
            bool met = strcmp(cl_app_state_name(a), l->arg) == 0 || (s->waits_for && s->waits_for(a, l->arg));
            if (!met)
                break;
        } else if (l->op == CL_SOP_SCREENSHOT) {
            if (shot)
                break; /* one per frame: the next waits for a fresh frame */
            shot = l->arg;
        } else if (l->op == CL_SOP_QUIT) {
            a->quit = true;
        } else {
            cl_script_push_events(l, a->out_w, a->out_h);
        }
        cl_script_advance(a->script, a->now_ms);
    }
    return shot;
}

static void handle_global(cl_app *a, SDL_Event *e, bool *eaten)
{
    *eaten = false;
    switch (e->type) {
    case SDL_QUIT:
        a->quit = true;
        *eaten = true;
        break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
            update_size(a);
            if (!(SDL_GetWindowFlags(a->win) & SDL_WINDOW_FULLSCREEN_DESKTOP)) {
                SDL_GetWindowSize(a->win, &a->settings.win_w, &a->settings.win_h);
                if (a->settings.win_w < 640)
                    a->settings.win_w = 640;
                if (a->settings.win_h < 360)
                    a->settings.win_h = 360;
            }
        }
        break;
    case SDL_KEYDOWN:
        if (e->key.keysym.sym == SDLK_F11 ||
            (e->key.keysym.sym == SDLK_RETURN && (e->key.keysym.mod & KMOD_ALT))) {
            if (!e->key.repeat)
                cl_app_toggle_fullscreen(a);
            *eaten = true;
        }
        break;
    case SDL_DROPFILE:
        /* A file dropped on the window is a replay to play. */
        if (e->drop.file && a->open_dropped)
            a->open_dropped(a, e->drop.file);
        SDL_free(e->drop.file);
        *eaten = true;
        break;
    case SDL_CONTROLLERDEVICEADDED:
    case SDL_CONTROLLERDEVICEREMOVED:
        if (cl_pads_event(&a->pads, e) > 0)
            cl_app_say(a, false, "Gamepad %s",
                       e->type == SDL_CONTROLLERDEVICEADDED ? "connected" : "disconnected");
        *eaten = true;
        break;
    default:
        break;
    }
}

static void draw_message(cl_app *a)
{
    if (!a->msg.text[0] || a->now_ms >= a->msg.until)
        return;
    int fh = cl_text_height(a->text, CL_FONT_BODY);
    SDL_Rect r = {10, a->out_h - fh * 2 - 2, a->out_w - 20, fh * 2}; /* over the bottom hint line */
    /* Screens with boards keep a strip for messages under them (the same
     * in every race layout: single, hotseat, watch and replay). */
    if (a->scenes[a->scene]->boards) {
        cl_layout L;
        cl_layout_race(a->out_w, a->out_h, true, 0, &L);
        r = L.msg;
    }
    cl_message_draw(a->ren, a->text, r, a->msg.text, a->msg.bad);
}

static bool init_video(cl_app *a, const char **err)
{
    if (a->args.headless || a->args.bench) {
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "dummy");
        setenv("SDL_VIDEODRIVER", "dummy", 1);
    }
    if (a->args.headless || a->args.software || a->args.bench)
        SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software");
    /* Taps arrive as finger events; no synthetic mouse clicks on top. */
    SDL_SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0");
    SDL_SetHint(SDL_HINT_MOUSE_FOCUS_CLICKTHROUGH, "1");
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0) {
        *err = SDL_GetError();
        return false;
    }
    /* Headless too: scripts plug SDL's virtual gamepad (cl_vpad.h). A
     * headless window never has the focus SDL wants for pad buttons. */
    if (a->args.headless)
        SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
    if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) == 0) {
        char dir[900];
        if (!a->args.headless && !a->args.bench && cl_prefdir(dir, sizeof dir))
            cl_pads_add_mappings(dir); /* the player's own gamecontrollerdb.txt, if any */
        cl_pads_open_all(&a->pads);
    }
    int w = a->args.width ? a->args.width : a->settings.win_w;
    int h = a->args.height ? a->args.height : a->settings.win_h;
    Uint32 flags = SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
    if ((a->args.fullscreen || a->settings.fullscreen) && !a->args.headless && !a->args.bench)
        flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
    a->win = SDL_CreateWindow("mazerace", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, flags);
    if (!a->win) {
        *err = SDL_GetError();
        return false;
    }
    SDL_SetWindowMinimumSize(a->win, 640, 360);
    Uint32 rflags = (a->args.headless || a->args.software || a->args.bench) ? SDL_RENDERER_SOFTWARE : 0;
    if (!a->args.no_vsync && !a->args.headless && !a->args.bench)
        rflags |= SDL_RENDERER_PRESENTVSYNC;
    a->ren = SDL_CreateRenderer(a->win, -1, rflags);
    if (!a->ren)
        a->ren = SDL_CreateRenderer(a->win, -1, SDL_RENDERER_SOFTWARE);
    if (!a->ren) {
        *err = SDL_GetError();
        return false;
    }
    SDL_SetRenderDrawBlendMode(a->ren, SDL_BLENDMODE_BLEND);
    /* The message outlives this call: *err points into it. */
    static char missing[2048];
    char reg[CL_ASSET_PATH_MAX + 64], bold[CL_ASSET_PATH_MAX + 64], unused[256];
    cl_asset_dirs dirs;
    char *base = SDL_GetBasePath();
    cl_asset_dirs_default(&dirs, base);
    SDL_free(base);
    if (cl_asset_find(&dirs, "fonts/DejaVuSans.ttf", reg, sizeof reg, missing, sizeof missing)) {
        *err = missing;
        return false;
    }
    const char *bp =
        cl_asset_find(&dirs, "fonts/DejaVuSans-Bold.ttf", bold, sizeof bold, unused, sizeof unused) ? NULL
                                                                                                    : bold;
    a->text = cl_text_create(a->ren, reg, bp, err);
    if (!a->text)
        return false;
    update_size(a);
    SDL_StartTextInput();
    return true;
}

static void load_settings(cl_app *a)
{
    if (a->args.settings) {
        snprintf(a->settings_path, sizeof a->settings_path, "%s", a->args.settings);
    } else if (!a->args.headless && !a->args.bench) {
        char pref[900];
        if (cl_prefdir(pref, sizeof pref))
            snprintf(a->settings_path, sizeof a->settings_path, "%ssettings.txt", pref);
    }
    char msg[256] = "";
    const char *why =
        a->settings_path[0] ? cl_settings_load(&a->settings, a->settings_path, msg, sizeof msg) : NULL;
    if (!a->settings_path[0])
        cl_settings_default(&a->settings);
    if (why)
        snprintf(a->msg.text, sizeof a->msg.text, "%s", why);
    if (!a->args.bot_level_given)
        a->args.bot_level = a->settings.bot_level;
    if (a->args.name) {
        const char *bad = cl_name_problem(a->args.name);
        if (!bad)
            snprintf(a->settings.name, sizeof a->settings.name, "%s", a->args.name);
        else
            snprintf(a->msg.text, sizeof a->msg.text, "--name: %s; kept %s", bad, a->settings.name);
    }
}

/* The history file: --history, else beside the settings in SDL's pref path
 * (never for headless runs and benchmarks unless asked, so tests do not
 * touch the player's own). Opening happens on the history's thread. */
static void open_history(cl_app *a)
{
    const char *p = a->args.history;
    char path[1024];
    if (p && strcmp(p, "none") == 0)
        return;
    if (p) {
        snprintf(path, sizeof path, "%s", p);
    } else if (!a->args.headless && !a->args.bench && !a->args.settings) {
        char pref[900];
        if (!cl_prefdir(pref, sizeof pref))
            return;
        snprintf(path, sizeof path, "%shistory.sqlite", pref);
    } else {
        return;
    }
    a->history = cl_history_create(path, a->args.no_save);
}

void cl_app_frame(cl_app *a)
{
    const char *shot = run_script(a);
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        bool eaten;
        handle_global(a, &e, &eaten);
        if (!eaten && a->scenes[a->scene]->event)
            a->scenes[a->scene]->event(a, &e);
    }
    char why[256];
    if (cl_history_problem(a->history, why, sizeof why))
        cl_app_say(a, true, "%s", why);
    if (a->backend)
        a->backend->ops->update(a->backend, a->now_ms);
    if (a->scenes[a->scene]->update)
        a->scenes[a->scene]->update(a);
    update_size(a);
    cl_draw_color(a->ren, cl_col_bg);
    SDL_RenderClear(a->ren);
    if (cl_text_dump_wanted())
        cl_text_record(a->text, true); /* this frame's strings, for a screenshot's PATH.txt */
    a->scenes[a->scene]->draw(a);
    draw_message(a);
    if (shot)
        save_screenshot(a, shot);
    if (a->args.screenshot && !a->args.script && a->frames >= 1)
        a->screenshot_due = true;
    if (a->script && cl_script_finished(a->script)) {
        /* A script's end is the end of the run (after its screenshot). */
        if (a->args.screenshot)
            a->screenshot_due = true;
        else
            a->quit = true;
    }
    if (a->screenshot_due) {
        if (!save_screenshot(a, a->args.screenshot))
            a->exit_code = 1;
        a->quit = true;
    }
    SDL_RenderPresent(a->ren);
    a->frames++;
}

cl_app *cl_app_open(const cl_args *args, const cl_scene *const *scenes, const char **err)
{
    cl_app *a = mr_alloc(1, sizeof *a);
    a->args = *args;
    a->scenes = scenes;
    rng_seed(&a->fx_rng, mr_now_us() ^ (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull);
    load_settings(a);
    open_history(a);
    *err = NULL;
    if (!init_video(a, err)) {
        cl_history_destroy(a->history);
        cl_text_destroy(a->text);
        if (a->ren)
            SDL_DestroyRenderer(a->ren);
        if (a->win)
            SDL_DestroyWindow(a->win);
        SDL_Quit();
        free(a);
        if (!*err)
            *err = "unknown error";
        return NULL;
    }
    for (int i = 0; i < CL_SCENE_COUNT; i++)
        if (scenes[i]->state_size)
            a->scene_state[i] = mr_alloc(1, scenes[i]->state_size);
    /* No device (none on the machine, SDL_AUDIODRIVER=none): silent, no error. */
    a->audio = cl_audio_create(!a->args.bench);
    cl_audio_set_volume(a->audio, a->settings.volume, a->settings.muted);
    if (a->args.script) {
        char msg[256];
        a->script = cl_script_load(a->args.script, msg, sizeof msg);
        if (!a->script) {
            fprintf(stderr, "mazerace: %s\n", msg);
            a->exit_code = 2;
            a->quit = true;
        }
    }
    return a;
}

void cl_app_close(cl_app *a)
{
    cl_race_free(&a->race);
    cl_backend_destroy(a->backend);
    cl_history_destroy(a->history);
    st_match_free(a->rec.m);
    free(a->rec.m);
    for (int i = 0; i < CL_SCENE_COUNT; i++) {
        if (a->scene_state[i] && a->scenes[i]->fini)
            a->scenes[i]->fini(a->scene_state[i]);
        free(a->scene_state[i]);
    }
    cl_script_destroy(a->script);
    cl_pads_close_all(&a->pads);
    cl_vpad_unplug();
    cl_audio_destroy(a->audio);
    cl_text_destroy(a->text);
    SDL_StopTextInput();
    SDL_DestroyRenderer(a->ren);
    SDL_DestroyWindow(a->win);
    SDL_Quit();
    free(a);
}
