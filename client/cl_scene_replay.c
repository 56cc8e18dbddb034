/* cl_scene_replay.c: the replay player: opening a replay (file, drop, history),
 * play/pause, speed, steps and seeking by keys, buttons, pad and timeline. */
#include <stdio.h>
#include <string.h>

#include "cl_replay.h"
#include "cl_netui.h"
#include "util.h"

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

/* Why a replay did not open: said on screen, and returned (static). */
static char why[300];

/* A replay that did not read or check: "label:line:col: msg" (or "label:
 * msg" with no line), said and returned. */
static const char *say_error(cl_app *a, const char *label, const pz_error *e)
{
    if (e->line > 0)
        snprintf(why, sizeof why, "%.60s:%d:%d: %s", label, e->line, e->col, e->msg);
    else
        snprintf(why, sizeof why, "%.60s: %s", label, e->msg);
    cl_app_say(a, true, "%s", why);
    return why;
}

const char *cl_replay_open(cl_app *a, replay *r, const char *label)
{
    if (a->backend && a->scene != CL_SCENE_RESULTS) {
        replay_destroy(r);
        snprintf(why, sizeof why, "Leave the race before opening a replay");
        cl_app_say(a, true, "%s", why);
        return why;
    }
    pz_error e = {0, 0, ""};
    cl_rview *v = cl_rview_create(r, &e);
    if (!v)
        return say_error(a, label, &e);
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
    return r ? cl_replay_open(a, r, base) : say_error(a, base, &e);
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

/* What the player does, whichever key, pad button or on-screen button asks. */
enum { A_NONE, A_TOGGLE, A_STEP, A_BACK, A_FASTER, A_SLOWER, A_START, A_END, A_LEAVE };

static void act(cl_app *a, int what)
{
    switch (what) {
    case A_TOGGLE:
        toggle(a);
        break;
    case A_STEP:
    case A_BACK:
        step(a, what == A_STEP ? 1 : -1);
        break;
    case A_FASTER:
    case A_SLOWER:
        speed(a, what == A_FASTER ? 1 : -1);
        break;
    case A_START:
        seek_to(a, 0, "start");
        break;
    case A_END:
        seek_to(a, cl_rview_length(cl_replay_ui_of(a)->v), "end");
        break;
    case A_LEAVE:
        leave(a);
        break;
    default:
        break;
    }
}

typedef struct input_act {
    int input; /* SDL_Keycode or SDL_GameControllerButton */
    int what;
} input_act;

/* clang-format off: one action a line */
static const input_act keys[] = {
    {SDLK_SPACE, A_TOGGLE},    {SDLK_k, A_TOGGLE},
    {SDLK_p, A_TOGGLE},        {SDLK_RIGHT, A_STEP},
    {SDLK_l, A_STEP},          {SDLK_PERIOD, A_STEP},
    {SDLK_LEFT, A_BACK},       {SDLK_j, A_BACK},
    {SDLK_COMMA, A_BACK},      {SDLK_UP, A_FASTER},
    {SDLK_PLUS, A_FASTER},     {SDLK_EQUALS, A_FASTER},
    {SDLK_KP_PLUS, A_FASTER},  {SDLK_RIGHTBRACKET, A_FASTER},
    {SDLK_DOWN, A_SLOWER},     {SDLK_MINUS, A_SLOWER},
    {SDLK_KP_MINUS, A_SLOWER}, {SDLK_LEFTBRACKET, A_SLOWER},
    {SDLK_HOME, A_START},      {SDLK_END, A_END},
    {SDLK_ESCAPE, A_LEAVE},    {SDLK_BACKSPACE, A_LEAVE},
    {SDLK_q, A_LEAVE},
};
static const input_act pad_buttons[] = {
    {SDL_CONTROLLER_BUTTON_A, A_TOGGLE},           {SDL_CONTROLLER_BUTTON_DPAD_RIGHT, A_STEP},
    {SDL_CONTROLLER_BUTTON_RIGHTSHOULDER, A_STEP}, {SDL_CONTROLLER_BUTTON_DPAD_LEFT, A_BACK},
    {SDL_CONTROLLER_BUTTON_LEFTSHOULDER, A_BACK},  {SDL_CONTROLLER_BUTTON_DPAD_UP, A_FASTER},
    {SDL_CONTROLLER_BUTTON_DPAD_DOWN, A_SLOWER},   {SDL_CONTROLLER_BUTTON_B, A_LEAVE},
};
/* clang-format on */
/* The bar's buttons; CL_RB_SPEED is the speed's label: nothing. */
static const int bar_buttons[CL_RB_COUNT] = {
    [CL_RB_START] = A_START, [CL_RB_BACK] = A_BACK,     [CL_RB_PLAY] = A_TOGGLE,
    [CL_RB_STEP] = A_STEP,   [CL_RB_SLOWER] = A_SLOWER, [CL_RB_FASTER] = A_FASTER,
};

static int input_what(const input_act *t, size_t n, int input)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].input == input)
            return t[i].what;
    return A_NONE;
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
        act(a, bar_buttons[i]);
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

static void event(cl_app *a, const SDL_Event *e)
{
    if (!cl_replay_ui_of(a)->v)
        return;
    float s = a->mouse_scale;
    switch (e->type) {
    case SDL_KEYDOWN:
        act(a, input_what(keys, MR_ARRAY_LEN(keys), e->key.keysym.sym));
        break;
    case SDL_CONTROLLERBUTTONDOWN:
        act(a, input_what(pad_buttons, MR_ARRAY_LEN(pad_buttons), e->cbutton.button));
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
