/* cl_scene_replay.c: the replay player: opening a replay (file, drop, history),
 * play/pause, speed, steps and seeking by keys, buttons, pad and timeline. */
#include <stdio.h>
#include <string.h>

#include "cl_replay.h"
#include "cl_netui.h"

/* The scene's state is the player (cl_scene.state_size); v NULL: closed. */
/* A line for tests and terminals after every change the player makes. */
static void report(cl_app *a, const char *what)
{
    const cl_rview *v = cl_replay_ui_of(a)->v;
    printf("REPLAY %s pos=%zu/%zu t=%u moves=%u,%u speed=%s %s\n", what, cl_rview_pos(v),
           replay_move_count(cl_rview_replay(v)), cl_rview_time(v), cl_rview_moves(v, 0),
           cl_rview_moves(v, 1), cl_rview_speed_text(cl_rview_speed(v)),
           cl_rview_playing(v) ? "playing" : "paused");
    fflush(stdout);
}

static void close_ui(void *state)
{
    struct cl_replay_ui *u = state;
    cl_rview_destroy(u->v);
    memset(u, 0, sizeof *u);
}

const char *cl_replay_open(cl_app *a, replay *r, const char *label)
{
    static char why[300];
    if (a->backend && a->scene != CL_SCENE_RESULTS) {
        replay_destroy(r);
        snprintf(why, sizeof why, "Leave the race before opening a replay");
        cl_app_say(a, true, "%s", why);
        return why;
    }
    pz_error e = {0, 0, ""};
    cl_rview *v = cl_rview_create(r, &e);
    if (!v) {
        if (e.line > 0)
            snprintf(why, sizeof why, "%.60s:%d:%d: %s", label, e.line, e.col, e.msg);
        else
            snprintf(why, sizeof why, "%.60s: %s", label, e.msg);
        cl_app_say(a, true, "%s", why);
        return why;
    }
    struct cl_replay_ui *u = cl_replay_ui_of(a);
    int back = u->v ? u->back : a->scene;
    close_ui(u);
    if (back == CL_SCENE_RESULTS) /* the race is over: leaving the replay goes to the menu */
        back = CL_SCENE_MENU;
    cl_app_end_backend(a);
    u->v = v;
    u->back = back;
    u->race.pz = cl_rview_puzzle(v);
    u->race.k = pz_kind_of(u->race.pz);
    snprintf(u->label, sizeof u->label, "%s", label);
    cl_rview_play(v, true); /* a replay opens playing, from the start */
    const replay *rp = cl_rview_replay(v);
    printf("REPLAY open %s game=%s players=%s,%s moves=%zu length=%u\n", label, replay_game_id(rp),
           replay_name(rp, 0), replay_name(rp, 1), replay_move_count(rp), cl_rview_length(v));
    fflush(stdout);
    cl_app_set_scene(a, CL_SCENE_REPLAY);
    return NULL;
}

const char *cl_replay_open_file(cl_app *a, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    pz_error e = {0, 0, ""};
    replay *r = replay_read_file(path, &e);
    if (!r) {
        static char why[300];
        if (e.line > 0)
            snprintf(why, sizeof why, "%.60s:%d:%d: %s", base, e.line, e.col, e.msg);
        else
            snprintf(why, sizeof why, "%.60s: %s", base, e.msg);
        cl_app_say(a, true, "%s", why);
        return why;
    }
    return cl_replay_open(a, r, base);
}

static void leave(cl_app *a)
{
    struct cl_replay_ui *u = cl_replay_ui_of(a);
    int back = u->v ? u->back : CL_SCENE_MENU;
    close_ui(u);
    cl_app_set_scene(a, back);
}

static void toggle(cl_app *a)
{
    cl_rview_play(cl_replay_ui_of(a)->v, !cl_rview_playing(cl_replay_ui_of(a)->v));
    report(a, cl_rview_playing(cl_replay_ui_of(a)->v) ? "play" : "pause");
}

static void speed(cl_app *a, int d)
{
    cl_rview_set_speed(cl_replay_ui_of(a)->v, cl_rview_speed(cl_replay_ui_of(a)->v) + d);
    report(a, "speed");
}

static void step(cl_app *a, int d)
{
    cl_rview_step(cl_replay_ui_of(a)->v, d);
    report(a, d > 0 ? "step" : "back");
}

static void seek_to(cl_app *a, uint32_t t, const char *what)
{
    cl_rview_seek(cl_replay_ui_of(a)->v, t);
    report(a, what);
}

/* The timeline's time under screen x. */
static uint32_t time_at(const cl_app *a, const SDL_Rect *tl, int x)
{
    uint32_t len = cl_rview_length(cl_replay_ui_of(a)->v);
    if (x <= tl->x || tl->w <= 0)
        return 0;
    if (x >= tl->x + tl->w)
        return len;
    return (uint32_t)((uint64_t)(x - tl->x) * len / (uint64_t)tl->w);
}

/* A press (mouse or finger) at output pixel (x, y): a button, or the
 * timeline (anywhere on the bar's height beside the buttons). */
static void press(cl_app *a, int x, int y)
{
    cl_replay_layout L;
    cl_layout_replay(a->out_w, a->out_h, &L);
    SDL_Point p = {x, y};
    for (int i = 0; i < CL_RB_COUNT; i++) {
        if (!SDL_PointInRect(&p, &L.button[i]))
            continue;
        switch (i) {
        case CL_RB_START:
            seek_to(a, 0, "start");
            break;
        case CL_RB_BACK:
            step(a, -1);
            break;
        case CL_RB_PLAY:
            toggle(a);
            break;
        case CL_RB_STEP:
            step(a, 1);
            break;
        case CL_RB_SLOWER:
            speed(a, -1);
            break;
        case CL_RB_FASTER:
            speed(a, 1);
            break;
        default:
            break;
        }
        return;
    }
    SDL_Rect zone = {L.timeline.x - 8, L.bar.y, L.timeline.w + 16, L.bar.h};
    if (SDL_PointInRect(&p, &zone)) {
        struct cl_replay_ui *u = cl_replay_ui_of(a);
        u->seeking = true;
        u->was_playing = cl_rview_playing(u->v);
        cl_rview_play(u->v, false);
        seek_to(a, time_at(a, &L.timeline, x), "seek");
    }
}

static void drag(cl_app *a, int x)
{
    cl_replay_layout L;
    cl_layout_replay(a->out_w, a->out_h, &L);
    uint32_t t = time_at(a, &L.timeline, x);
    if (t != cl_rview_time(cl_replay_ui_of(a)->v))
        seek_to(a, t, "seek");
}

static void release(cl_app *a)
{
    struct cl_replay_ui *u = cl_replay_ui_of(a);
    if (!u->seeking)
        return;
    u->seeking = false;
    if (u->was_playing && !cl_rview_at_end(u->v)) {
        cl_rview_play(u->v, true);
        report(a, "play");
    }
}

static void key(cl_app *a, SDL_Keycode k)
{
    switch (k) {
    case SDLK_SPACE:
    case SDLK_k:
    case SDLK_p:
        toggle(a);
        break;
    case SDLK_RIGHT:
    case SDLK_l:
    case SDLK_PERIOD:
        step(a, 1);
        break;
    case SDLK_LEFT:
    case SDLK_j:
    case SDLK_COMMA:
        step(a, -1);
        break;
    case SDLK_UP:
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
    case SDLK_RIGHTBRACKET:
        speed(a, 1);
        break;
    case SDLK_DOWN:
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
    case SDLK_LEFTBRACKET:
        speed(a, -1);
        break;
    case SDLK_HOME:
        seek_to(a, 0, "start");
        break;
    case SDLK_END:
        seek_to(a, cl_rview_length(cl_replay_ui_of(a)->v), "end");
        break;
    case SDLK_ESCAPE:
    case SDLK_BACKSPACE:
    case SDLK_q:
        leave(a);
        break;
    default:
        break;
    }
}

static void pad(cl_app *a, int button)
{
    switch (button) {
    case SDL_CONTROLLER_BUTTON_A:
        toggle(a);
        break;
    case SDL_CONTROLLER_BUTTON_DPAD_RIGHT:
    case SDL_CONTROLLER_BUTTON_RIGHTSHOULDER:
        step(a, 1);
        break;
    case SDL_CONTROLLER_BUTTON_DPAD_LEFT:
    case SDL_CONTROLLER_BUTTON_LEFTSHOULDER:
        step(a, -1);
        break;
    case SDL_CONTROLLER_BUTTON_DPAD_UP:
        speed(a, 1);
        break;
    case SDL_CONTROLLER_BUTTON_DPAD_DOWN:
        speed(a, -1);
        break;
    case SDL_CONTROLLER_BUTTON_B:
        leave(a);
        break;
    default:
        break;
    }
}

static void event(cl_app *a, const SDL_Event *e)
{
    if (!cl_replay_ui_of(a)->v)
        return;
    float s = a->mouse_scale;
    switch (e->type) {
    case SDL_KEYDOWN:
        key(a, e->key.keysym.sym);
        break;
    case SDL_CONTROLLERBUTTONDOWN:
        pad(a, e->cbutton.button);
        break;
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.which == SDL_TOUCH_MOUSEID)
            break;
        if (e->button.button == SDL_BUTTON_LEFT)
            press(a, (int)(e->button.x * s), (int)(e->button.y * s));
        else if (e->button.button == SDL_BUTTON_RIGHT)
            leave(a);
        break;
    case SDL_MOUSEMOTION:
        if (cl_replay_ui_of(a)->seeking && e->motion.which != SDL_TOUCH_MOUSEID)
            drag(a, (int)(e->motion.x * s));
        break;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT)
            release(a);
        break;
    case SDL_FINGERDOWN:
        press(a, (int)(e->tfinger.x * (float)a->out_w), (int)(e->tfinger.y * (float)a->out_h));
        break;
    case SDL_FINGERMOTION:
        if (cl_replay_ui_of(a)->seeking)
            drag(a, (int)(e->tfinger.x * (float)a->out_w));
        break;
    case SDL_FINGERUP:
        release(a);
        break;
    default:
        break;
    }
}

static void update(cl_app *a)
{
    struct cl_replay_ui *u = cl_replay_ui_of(a);
    if (!u->v) {
        cl_app_set_scene(a, CL_SCENE_MENU);
        return;
    }
    bool was = cl_rview_playing(u->v);
    cl_rview_tick(u->v, a->dt_ms);
    if (was && !cl_rview_playing(u->v))
        report(a, "end");
    for (int s = 0; s < 2; s++)
        u->race.p[s].shown = (pz_state *)cl_rview_state(u->v, s);
    cl_race_tick(&u->race, a->dt_ms);
}

static void draw(cl_app *a)
{
    if (cl_replay_ui_of(a)->v)
        cl_replay_draw(a);
}

static const char *wait_name(const cl_app *a)
{
    const struct cl_replay_ui *u = cl_replay_ui_of(a);
    return u->v && cl_rview_at_end(u->v) ? "replay-end" : "replay";
}

const cl_scene cl_scene_replay = {.name = "replay",
                                  .event = event,
                                  .update = update,
                                  .draw = draw,
                                  .state_size = sizeof(struct cl_replay_ui),
                                  .fini = close_ui,
                                  .wait_name = wait_name,
                                  .boards = true};
