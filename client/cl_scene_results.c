/* cl_scene_results.c: who won, both times and move counts, the series score;
 * rematch or back to the menu. */
#include <stdio.h>
#include <string.h>

#include "cl_scene.h"
#include "cl_netui.h"
#include "cl_pump.h"
#include "cl_draw.h"
#include "cl_record.h"
#include "cl_ui.h"

enum { R_REMATCH = 1, R_MENU };

/* The screen's own state (cl_scene.state_size). */
typedef struct results_ui {
    cl_form form;
} results_ui;

static void enter(cl_app *a)
{
    results_ui *u = cl_app_scene_state(a, CL_SCENE_RESULTS);
    cl_form_clear(&u->form);
    /* The server gone (the host left), the result stands with no rematch. */
    if (!a->backend || !a->backend->closed)
        cl_form_add(&u->form, CL_ITEM_BUTTON, R_REMATCH,
                    a->race.result.series_len <= 1 ? "Rematch"
                    : a->race.result.series_over   ? "New series"
                                                   : "Next race");
    cl_form_add(&u->form, CL_ITEM_BUTTON, R_MENU, "Back to the menu");
}

static void event(cl_app *a, const SDL_Event *e)
{
    results_ui *u = cl_app_scene_state(a, CL_SCENE_RESULTS);
    cl_form_result r = cl_form_event(&u->form, e, a->mouse_scale);
    if (r.back || r.activated == R_MENU) {
        cl_app_end_backend(a);
        cl_app_set_scene(a, CL_SCENE_MENU);
        return;
    }
    if (r.activated == R_REMATCH && a->backend) {
        a->series.rematch_asked = true;
        a->backend->ops->rematch(a->backend, a->now_ms);
        if (!a->backend->hotseat && a->mode != CL_MODE_COMPUTER)
            cl_app_say(a, false, "%s asked - waiting for your opponent",
                       a->race.result.series_len > 1 && !a->race.result.series_over ? "Next race"
                                                                                    : "Rematch");
    }
}

static void update(cl_app *a)
{
    results_ui *u = cl_app_scene_state(a, CL_SCENE_RESULTS);
    cl_pump(a);
    cl_record_update(a);
    if (a->scene == CL_SCENE_RESULTS && !a->backend)
        cl_app_set_scene(a, CL_SCENE_MENU);
    else if (a->backend && a->backend->closed && cl_form_find(&u->form, R_REMATCH))
        enter(a);
}

static void draw(cl_app *a)
{
    results_ui *u = cl_app_scene_state(a, CL_SCENE_RESULTS);
    cl_race_draw_screen(a);
    cl_backend *b = a->backend;
    if (!b)
        return;
    const match_result *res = &a->race.result;
    cl_text *t = a->text;
    int fh = cl_text_height(t, CL_FONT_BODY);
    /* Height from the content: title, reason, table, series line, buttons. */
    char best[3][160];
    int nbest = cl_record_bests_text(a, best);
    int sh = cl_text_height(t, CL_FONT_SMALL);
    int content = fh + cl_text_height(t, CL_FONT_TITLE) + fh * 2 + fh * 3 / 2 * 3 +
                  (res->series_len > 1 ? fh * 3 / 2 : 0) + nbest * sh * 5 / 4 + fh +
                  2 * (fh * 17 / 10 + fh / 3) + fh;
    int w = fh * 30 < a->out_w - 40 ? fh * 30 : a->out_w - 40, h = content;
    if (h > a->out_h - 40)
        h = a->out_h - 40;
    int x = (a->out_w - w) / 2, y = (a->out_h - h) / 2;
    cl_draw_fill(a->ren, 0, 0, a->out_w, a->out_h, (SDL_Color){0, 0, 0, 150});
    cl_draw_panel(a->ren, x, y, w, h, cl_col_panel);
    char title[96];
    int win = res->winner;
    if (win == 0 || win == 1) {
        if (!b->hotseat && win == b->my_slot)
            snprintf(title, sizeof title, "You win!");
        else
            snprintf(title, sizeof title, "%s wins!", a->race.name[win][0] ? a->race.name[win] : "Opponent");
    } else {
        snprintf(title, sizeof title, "No winner");
    }
    int ty = y + fh;
    if (win == 0 || win == 1) {
        int hh = cl_text_height(t, CL_FONT_TITLE);
        int tw = cl_text_width(t, CL_FONT_TITLE, title);
        cl_draw_marker(a->ren, win, (float)(a->out_w / 2 - tw / 2 - hh), (float)(ty + hh / 2), hh * 0.4f,
                       false);
    }
    cl_text_draw(t, CL_FONT_TITLE, title, a->out_w / 2, ty,
                 win >= 0 ? cl_col_player_soft[win & 1] : cl_col_text, CL_CENTER);
    ty += cl_text_height(t, CL_FONT_TITLE);
    char why[160];
    snprintf(why, sizeof why, "%s%s%s", match_end_text(res->reason), b->closed_why[0] ? "  -  " : "",
             b->closed_why);
    cl_text_draw(t, CL_FONT_SMALL, why, a->out_w / 2, ty, cl_col_dim, CL_CENTER);
    ty += fh * 2;
    int c1 = x + fh * 2, c2 = x + w * 11 / 20, c3 = x + w - fh * 2;
    cl_text_draw(t, CL_FONT_SMALL, "player", c1, ty, cl_col_dim, CL_LEFT);
    cl_text_draw(t, CL_FONT_SMALL, "time", c2, ty, cl_col_dim, CL_RIGHT);
    cl_text_draw(t, CL_FONT_SMALL, "moves", c3, ty, cl_col_dim, CL_RIGHT);
    ty += fh * 3 / 2;
    for (int s = 0; s < 2; s++) {
        char buf[64];
        cl_draw_marker(a->ren, s, (float)(c1 + fh / 2), (float)(ty + fh / 2), fh * 0.4f, false);
        /* A player who did not reach the goal has no finish time. */
        if (res->solved[s])
            snprintf(buf, sizeof buf, "%llu.%02llu s", (unsigned long long)(res->time_ms[s] / 1000),
                     (unsigned long long)(res->time_ms[s] % 1000 / 10));
        else
            snprintf(buf, sizeof buf, "did not finish");
        int tw = cl_text_width(t, CL_FONT_BODY, buf);
        /* The longest name allowed is cut to end before the time column. */
        char name[64];
        cl_text_fit(t, CL_FONT_BODY, a->race.name[s][0] ? a->race.name[s] : "-",
                    c2 - tw - fh - (c1 + fh * 3 / 2), name, sizeof name);
        cl_text_draw(t, CL_FONT_BODY, name, c1 + fh * 3 / 2, ty, cl_col_text, CL_LEFT);
        cl_text_draw(t, CL_FONT_BODY, buf, c2, ty, cl_col_text, CL_RIGHT);
        snprintf(buf, sizeof buf, "%u", res->moves[s]);
        cl_text_draw(t, CL_FONT_BODY, buf, c3, ty, cl_col_text, CL_RIGHT);
        ty += fh * 3 / 2;
    }
    if (res->series_len > 1) {
        char buf[96];
        snprintf(buf, sizeof buf, "Series (best of %d): %d - %d%s", res->series_len, res->score[0],
                 res->score[1], res->series_over ? "  -  series over" : "");
        cl_text_draw(t, CL_FONT_BODY, buf, a->out_w / 2, ty, cl_col_accent, CL_CENTER);
        ty += fh * 3 / 2;
    }
    for (int i = 0; i < nbest; i++) {
        bool news = strstr(best[i], "new best") != NULL;
        cl_text_draw(t, CL_FONT_SMALL, best[i], a->out_w / 2, ty, news ? cl_col_good : cl_col_dim, CL_CENTER);
        ty += sh * 5 / 4;
    }
    ty += fh;
    SDL_Rect rest = {x, ty, w, y + h - ty};
    cl_form_draw(&u->form, a->ren, t, rest);
}

const cl_scene cl_scene_results = {.name = "results",
                                   .enter = enter,
                                   .event = event,
                                   .update = update,
                                   .draw = draw,
                                   .state_size = sizeof(results_ui)};
