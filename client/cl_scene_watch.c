/* cl_scene_watch.c: watching a race as a spectator: both boards at equal size
 * as ghosts, the players' names, times and moves, then the result. */
#include <stdio.h>
#include <string.h>

#include "cl_scene.h"
#include "cl_netui.h"
#include "cl_pump.h"
#include "cl_draw.h"

static void leave(cl_app *a)
{
    cl_app_end_backend(a);
    cl_app_set_scene(a, a->args.join_addr ? CL_SCENE_MENU : CL_SCENE_JOIN);
}

static void event(cl_app *a, const SDL_Event *e)
{
    /* A spectator has nothing to play: any way back leaves at once. */
    bool back =
        (e->type == SDL_KEYDOWN && (e->key.keysym.sym == SDLK_ESCAPE || e->key.keysym.sym == SDLK_q)) ||
        (e->type == SDL_CONTROLLERBUTTONDOWN && e->cbutton.button == SDL_CONTROLLER_BUTTON_B) ||
        (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_RIGHT);
    if (back)
        leave(a);
}

static void update(cl_app *a)
{
    cl_pump(a);
    cl_race_tick(&a->race, a->dt_ms);
    cl_sfx_watch(a->audio, &a->cues, &a->race, 0, true, a->now_ms); /* no one is "you" */
}

static void fmt_time(char *buf, size_t len, uint64_t ms)
{
    snprintf(buf, len, "%llu:%02llu.%llu", (unsigned long long)(ms / 60000),
             (unsigned long long)(ms / 1000 % 60), (unsigned long long)(ms / 100 % 10));
}

SDL_Rect cl_watch_result_rect(int out_w, int out_h)
{
    return (SDL_Rect){out_w / 4, out_h * 2 / 3, out_w / 2, out_h / 6};
}

/* The result over the lower middle of the boards. */
static void draw_result(cl_app *a)
{
    const match_result *res = &a->race.result;
    cl_text *t = a->text;
    int fh = cl_text_height(t, CL_FONT_BODY);
    SDL_Rect p = cl_watch_result_rect(a->out_w, a->out_h);
    int y = p.y + p.h / 2 - fh * 5 / 2;
    cl_draw_panel(a->ren, p.x, p.y, p.w, p.h, (SDL_Color){24, 28, 38, 245});
    char line[160];
    if (res->winner == 0 || res->winner == 1)
        snprintf(line, sizeof line, "%s wins (%s)", a->race.name[res->winner], match_end_text(res->reason));
    else
        snprintf(line, sizeof line, "No winner (%s)", match_end_text(res->reason));
    SDL_Color c = res->winner == 0 || res->winner == 1 ? cl_col_player[res->winner] : cl_col_text;
    cl_text_draw_mid(t, CL_FONT_TITLE, line, a->out_w / 2, y + fh * 3 / 2, c, CL_CENTER);
    char tb[2][32];
    for (int s = 0; s < 2; s++)
        fmt_time(tb[s], sizeof tb[s], res->time_ms[s]);
    snprintf(line, sizeof line, "%s: %s, %u moves   -   %s: %s, %u moves", a->race.name[0], tb[0],
             res->moves[0], a->race.name[1], tb[1], res->moves[1]);
    cl_text_draw_mid(t, CL_FONT_BODY, line, a->out_w / 2, y + fh * 7 / 2, cl_col_text, CL_CENTER);
}

static void draw(cl_app *a)
{
    if (!a->backend)
        return;
    if (!a->race.pz) {
        /* Watching a room whose game has not begun: its lobby. */
        const cl_backend *b = a->backend;
        char sub[160];
        if (b->name[0][0] && b->name[1][0])
            snprintf(sub, sizeof sub, "Room %s: %s and %s are getting ready", b->room, b->name[0],
                     b->name[1]);
        else if (b->room[0])
            snprintf(sub, sizeof sub, "Room %s: waiting for two players", b->room);
        else
            snprintf(sub, sizeof sub, "Looking for a race to watch...");
        cl_app_title(a, "Watching", sub);
        cl_text_draw(a->text, CL_FONT_SMALL, "Esc leaves", a->out_w / 2,
                     a->out_h - cl_text_height(a->text, CL_FONT_SMALL) * 2, cl_col_dim, CL_CENTER);
        return;
    }
    cl_race_draw_screen(a);
    if (a->race.finished)
        draw_result(a);
}

static const char *wait_name(const cl_app *a)
{
    if (cl_race_lost_shown(a))
        return "lost";
    return a->race.finished ? "watch-results" : a->race.pz ? "watching" : "watch";
}

const cl_scene cl_scene_watch = {
    .name = "watch", .event = event, .update = update, .draw = draw, .wait_name = wait_name, .boards = true};
