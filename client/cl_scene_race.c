/* cl_scene_race.c: the race screen: input to moves, backend events, and the
 * boards, HUD, countdown and hints. */
#include <stdio.h>
#include <string.h>

#include "cl_scene.h"
#include "cl_netui.h"
#include "cl_pump.h"
#include "cl_howto.h"
#include "cl_overview.h"
#include "cl_record.h"
#include "cl_zoom.h"
#include "cl_draw.h"
#include "pipes.h"
#include "sum.h"

enum { RESULTS_DELAY_MS = 1500, GO_MS = 800, STICK = 16000 };

/* The race screen's own state (cl_scene.state_size). */
typedef struct race_ui {
    bool confirm_leave;            /* "Leave the race?" is up */
    int drag_slot, drag_x, drag_y; /* the board and cell a drag is on */
    bool dragging;
    int stick_dir[4];       /* last stick direction per pad, for edge triggering */
    float touch_x, touch_y; /* where the finger went down */
} race_ui;

static bool local_slot(const cl_app *a, int slot)
{
    return a->backend && (a->backend->hotseat || slot == a->backend->my_slot);
}

/* A local move with its sound: taken, or refused by the rules while racing. */
static void play(cl_app *a, int slot, pz_move mv)
{
    if (!cl_race_play(&a->race, a->backend, slot, mv, a->now_ms))
        cl_audio_play(a->audio, CL_SFX_MOVE);
    else if (a->race.racing && !a->race.finished)
        cl_audio_play(a->audio, CL_SFX_BLOCKED);
}

/* One race action for slot: steps for sum, maze and ice; for pipes the
 * directions move the cursor and the rotate actions turn the tile under it. */
static void act(cl_app *a, int slot, int action)
{
    cl_race *r = &a->race;
    if (!r->pz || !local_slot(a, slot) || a->backend->lost_at)
        return; /* nothing reaches a silent server: the banner says so */
    int kind = pz_params_of(r->pz)->kind;
    pz_move mv = {0, 0, 0, 0};
    static const int dirs[4] = {PZ_UP, PZ_DOWN, PZ_LEFT, PZ_RIGHT};
    if (action == CL_ACT_RESTART) {
        if (kind != PZ_ICE)
            return;
        mv.type = PZ_MOVE_RESTART;
    } else if (kind == PZ_PIPES) {
        if (action <= CL_ACT_RIGHT) {
            cl_race_cursor(r, slot, pz_dir_dx(dirs[action]), pz_dir_dy(dirs[action]));
            return;
        }
        mv.type = action == CL_ACT_CW ? PZ_MOVE_ROTATE_CW : PZ_MOVE_ROTATE_CCW;
        mv.x = (uint16_t)r->p[slot].cur_x;
        mv.y = (uint16_t)r->p[slot].cur_y;
    } else {
        if (action > CL_ACT_RIGHT)
            return;
        mv.type = PZ_MOVE_STEP;
        mv.dir = (uint8_t)dirs[action];
    }
    play(a, slot, mv);
}

static void leave(cl_app *a)
{
    /* A race left before its end stays in this machine's history as
     * unfinished (online, the server records the forfeit as well). */
    if (a->backend)
        cl_record_unfinished(a);
    cl_app_end_backend(a);
    cl_app_set_scene(a, CL_SCENE_MENU);
}

static void pointer(cl_app *a, int px, int py, int button, bool drag)
{
    race_ui *u = cl_app_scene_state(a, CL_SCENE_RACE);
    cl_race *r = &a->race;
    if (!r->pz || a->backend->lost_at)
        return;
    cl_layout L;
    cl_layout_race(a->out_w, a->out_h, a->backend->hotseat, a->backend->my_slot, &L);
    for (int s = 0; s < 2; s++) {
        if (!local_slot(a, s) || (drag && s != u->drag_slot))
            continue;
        cl_view v;
        cl_layout_view(&L, r, s, &v);
        int cx, cy;
        if (!cl_view_cell_at(&v, px, py, &cx, &cy))
            continue;
        if (drag && cx == u->drag_x && cy == u->drag_y)
            return;
        u->drag_slot = s;
        u->drag_x = cx;
        u->drag_y = cy;
        u->dragging = button == 1;
        if (pz_params_of(r->pz)->kind == PZ_PIPES) {
            r->p[s].cur_x = cx;
            r->p[s].cur_y = cy;
        }
        pz_move mv;
        if (cl_render_for(pz_params_of(r->pz)->kind)
                ->pointer(r->pz, r->p[s].shown, cx, cy, button, drag, &mv))
            play(a, s, mv);
        return;
    }
}

/* Zoom (keys, wheel, pinch) applies to every board played from here. */
static void zoom_local(cl_app *a, int dir)
{
    for (int s = 0; s < 2; s++)
        if (a->race.p[s].local)
            cl_zoom(a, s, dir);
}

static void key(cl_app *a, const SDL_Event *e)
{
    race_ui *u = cl_app_scene_state(a, CL_SCENE_RACE);
    SDL_Keycode k = e->key.keysym.sym;
    if (u->confirm_leave) {
        if (k == SDLK_y || k == SDLK_RETURN || k == SDLK_KP_ENTER)
            leave(a);
        else if (k == SDLK_n || k == SDLK_ESCAPE)
            u->confirm_leave = false;
        return;
    }
    if (k == SDLK_ESCAPE) {
        if (a->race.finished || a->backend->lost_at)
            leave(a); /* lost: the banner offers it, nothing to forfeit */
        else
            u->confirm_leave = true;
        return;
    }
    int action;
    int slot = cl_bindings_lookup(&a->settings.keys, k, &action);
    if (slot < 0 && k == SDLK_SPACE) {
        slot = 0;
        action = CL_ACT_CW;
    }
    int zdir;
    if (slot < 0 && cl_zoom_key(k, &zdir))
        zoom_local(a, zdir);
    if (slot < 0)
        return;
    /* Alone at the keyboard, both hands' keys drive the one player. */
    if (!a->backend->hotseat)
        slot = a->backend->my_slot;
    act(a, slot, action);
}

static int pad_slot(cl_app *a, SDL_JoystickID which)
{
    if (!a->backend->hotseat)
        return a->backend->my_slot;
    int i = cl_pads_index(&a->pads, which);
    return i < 0 ? 0 : i % 2;
}

static void event(cl_app *a, const SDL_Event *e)
{
    race_ui *u = cl_app_scene_state(a, CL_SCENE_RACE);
    if (!a->backend)
        return;
    switch (e->type) {
    case SDL_KEYDOWN:
        key(a, e);
        break;
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.which == SDL_TOUCH_MOUSEID || u->confirm_leave)
            break;
        pointer(a, (int)(e->button.x * a->mouse_scale), (int)(e->button.y * a->mouse_scale),
                e->button.button == SDL_BUTTON_RIGHT  ? 3
                : e->button.button == SDL_BUTTON_LEFT ? 1
                                                      : 0,
                false);
        break;
    case SDL_MOUSEBUTTONUP:
        u->dragging = false;
        break;
    case SDL_MOUSEWHEEL:
        if (e->wheel.y)
            zoom_local(a, e->wheel.y > 0 ? 1 : -1);
        break;
    case SDL_MULTIGESTURE:
        if (e->mgesture.dDist > 0.01f || e->mgesture.dDist < -0.01f)
            zoom_local(a, e->mgesture.dDist > 0 ? 1 : -1);
        break;
    case SDL_MOUSEMOTION:
        if (u->dragging && (e->motion.state & SDL_BUTTON_LMASK) && e->motion.which != SDL_TOUCH_MOUSEID)
            pointer(a, (int)(e->motion.x * a->mouse_scale), (int)(e->motion.y * a->mouse_scale), 1, true);
        break;
    case SDL_FINGERDOWN:
        u->touch_x = e->tfinger.x * (float)a->out_w;
        u->touch_y = e->tfinger.y * (float)a->out_h;
        break;
    case SDL_FINGERUP: {
        float x = e->tfinger.x * (float)a->out_w, y = e->tfinger.y * (float)a->out_h;
        float dx = x - u->touch_x, dy = y - u->touch_y;
        float swipe = (float)a->out_h / 25.0f;
        if (dx * dx + dy * dy < swipe * swipe) {
            pointer(a, (int)x, (int)y, 1, false);
            break;
        }
        /* A swipe is a direction for the board it started on. */
        int action =
            (dx * dx > dy * dy) ? (dx > 0 ? CL_ACT_RIGHT : CL_ACT_LEFT) : (dy > 0 ? CL_ACT_DOWN : CL_ACT_UP);
        int slot = a->backend->my_slot;
        if (a->backend->hotseat)
            slot = u->touch_x < (float)a->out_w / 2 ? 0 : 1;
        act(a, slot, action);
        break;
    }
    case SDL_CONTROLLERBUTTONDOWN: {
        int b = e->cbutton.button;
        if (b == SDL_CONTROLLER_BUTTON_B || b == SDL_CONTROLLER_BUTTON_BACK) {
            SDL_Event k;
            memset(&k, 0, sizeof k);
            k.type = SDL_KEYDOWN;
            k.key.keysym.sym = SDLK_ESCAPE;
            key(a, &k);
            break;
        }
        if (u->confirm_leave && b == SDL_CONTROLLER_BUTTON_A) {
            leave(a);
            break;
        }
        int action = cl_pad_button_act(&a->settings.keys, b);
        if (action >= 0)
            act(a, pad_slot(a, e->cbutton.which), action);
        break;
    }
    case SDL_CONTROLLERAXISMOTION: {
        int i = cl_pads_index(&a->pads, e->caxis.which);
        if (i < 0 || e->caxis.axis > SDL_CONTROLLER_AXIS_LEFTY)
            break;
        SDL_GameController *gc = a->pads.pad[i];
        int x = SDL_GameControllerGetAxis(gc, SDL_CONTROLLER_AXIS_LEFTX);
        int y = SDL_GameControllerGetAxis(gc, SDL_CONTROLLER_AXIS_LEFTY);
        int d = -1;
        if (x * x > y * y && (x > STICK || x < -STICK))
            d = x > 0 ? CL_ACT_RIGHT : CL_ACT_LEFT;
        else if (y > STICK || y < -STICK)
            d = y > 0 ? CL_ACT_DOWN : CL_ACT_UP;
        /* The stick acts once per push, like a d-pad press. */
        if (d != u->stick_dir[i] - 1) {
            u->stick_dir[i] = d + 1;
            if (d >= 0)
                act(a, pad_slot(a, e->caxis.which), d);
        }
        break;
    }
    default:
        break;
    }
}

static void update(cl_app *a)
{
    cl_pump(a);
    cl_race_tick(&a->race, a->dt_ms);
    cl_sfx_watch(a->audio, &a->cues, &a->race, a->backend ? a->backend->my_slot : 0,
                 !a->backend || a->backend->hotseat || a->backend->watching, a->now_ms);
    if (a->scene == CL_SCENE_RACE && a->race.finished && a->series.finished_at &&
        a->now_ms >= a->series.finished_at + RESULTS_DELAY_MS)
        cl_app_set_scene(a, CL_SCENE_RESULTS);
}

static void fmt_time(char *buf, size_t len, uint64_t ms)
{
    snprintf(buf, len, "%llu:%02llu.%llu", (unsigned long long)(ms / 60000),
             (unsigned long long)(ms / 1000 % 60), (unsigned long long)(ms / 100 % 10));
}

/* Slot's name and figures from x towards the centre, each line cut to
 * max_w pixels so the longest name allowed never reaches the clock. */
static void player_block(cl_app *a, int slot, int x, int cy, int align, int max_w)
{
    cl_race *r = &a->race;
    cl_text *t = a->text;
    int fh = cl_text_height(t, CL_FONT_BODY);
    char line[96];
    const char *name = a->race.name[slot][0]       ? a->race.name[slot]
                       : a->backend->name[slot][0] ? a->backend->name[slot]
                                                   : "waiting...";
    bool me = !a->backend->hotseat && slot == a->backend->my_slot;
    char fit[64];
    int dir = align == CL_LEFT ? 1 : -1;
    float mr = fh * 0.42f;
    cl_draw_marker(a->ren, slot, (float)(x + dir * (int)mr), (float)(cy - fh / 2), mr, false);
    int tx = x + dir * (int)(mr * 2.6f);
    max_w -= (int)(mr * 2.6f);
    /* Cut the name, not " (you)". */
    const char *you = me ? " (you)" : "";
    cl_text_fit(t, CL_FONT_BODY, name, max_w - cl_text_width(t, CL_FONT_BODY, you), fit, sizeof fit);
    snprintf(line, sizeof line, "%s%s", fit, you);
    cl_text_draw_mid(t, CL_FONT_BODY, line, tx, cy - fh / 2, cl_col_text, align);
    const cl_player *p = &r->p[slot];
    int kind = r->pz ? pz_params_of(r->pz)->kind : -1;
    if (kind == PZ_SUM && p->shown && !(p->ghost_lost))
        snprintf(line, sizeof line, "moves %u   sum %d of %d", p->moves, sum_running(p->shown),
                 sum_target(r->pz));
    else if (kind == PZ_PIPES && !p->local)
        snprintf(line, sizeof line, "moves %u   connected %d", p->moves, p->prog.value);
    else
        snprintf(line, sizeof line, "moves %u", p->moves);
    if (r->finished) {
        char tb[32];
        fmt_time(tb, sizeof tb, r->result.time_ms[slot]);
        size_t n = strlen(line);
        snprintf(line + n, sizeof line - n, "   %s %s", r->result.solved[slot] ? "solved in" : "stopped at",
                 tb);
    }
    cl_text_fit(t, CL_FONT_SMALL, line, max_w, fit, sizeof fit);
    cl_text_draw_mid(t, CL_FONT_SMALL, fit, tx, cy + fh / 2, cl_col_dim, align);
}

static void draw_hud(cl_app *a, const cl_layout *L)
{
    cl_race *r = &a->race;
    SDL_Rect h = L->hud;
    cl_draw_fill(a->ren, h.x, h.y, h.w, h.h, cl_col_panel);
    cl_draw_fill(a->ren, h.x, h.y + h.h - 2, h.w, 2, cl_col_panel_hi);
    int cy = h.y + h.h / 2, m = h.h / 3;
    char buf[64];
    uint64_t el = 0;
    if (r->finished) {
        el = r->result.time_ms[0] > r->result.time_ms[1] ? r->result.time_ms[0] : r->result.time_ms[1];
        if (r->result.winner >= 0 && r->result.winner < 2)
            el = r->result.time_ms[r->result.winner];
    } else if (r->racing && a->now_ms > r->start_ms) {
        /* Lost: the clock stops where the server fell silent. */
        uint64_t at =
            a->backend->lost_at && a->backend->lost_at < a->now_ms ? a->backend->lost_at : a->now_ms;
        el = at > r->start_ms ? at - r->start_ms : 0;
    }
    fmt_time(buf, sizeof buf, el);
    int clock_w = cl_text_width(a->text, CL_FONT_TITLE, "00:00.0");
    /* The clock over its line, the two stacked about the HUD's middle. */
    int clock_y = cy - (cl_text_height(a->text, CL_FONT_TITLE) + cl_text_height(a->text, CL_FONT_SMALL)) / 2;
    cl_text_draw(a->text, CL_FONT_TITLE, buf, a->out_w / 2, clock_y, cl_col_text, CL_CENTER);
    const char *sub = "";
    char sb[96];
    int lead = cl_race_leader(r);
    if (r->finished)
        sub = "finished";
    else if (a->backend->lost_at)
        sub = "clock stopped: no word from the server";
    else if (!r->racing)
        sub = "get ready";
    else if (lead >= 0) {
        if (!a->backend->hotseat && lead == a->backend->my_slot)
            snprintf(sb, sizeof sb, "you are ahead");
        else
            snprintf(sb, sizeof sb, "%s is ahead", a->race.name[lead]);
        sub = sb;
    } else
        sub = "neck and neck";
    char withscore[160];
    if (a->backend->series_len > 1) {
        snprintf(withscore, sizeof withscore, "best of %d: %d-%d  -  %s", a->backend->series_len,
                 a->series.score[0], a->series.score[1], sub);
        sub = withscore;
    }
    /* The centre line takes at most a third of the width; the players'
     * blocks get what is left on each side. */
    char subfit[160];
    cl_text_fit(a->text, CL_FONT_SMALL, sub, a->out_w / 3, subfit, sizeof subfit);
    int sub_w = cl_text_width(a->text, CL_FONT_SMALL, subfit);
    int centre = (sub_w > clock_w ? sub_w : clock_w) / 2 + m;
    player_block(a, 0, m, cy, CL_LEFT, a->out_w / 2 - centre - m);
    player_block(a, 1, a->out_w - m, cy, CL_RIGHT, a->out_w / 2 - centre - m);
    cl_text_draw(a->text, CL_FONT_SMALL, subfit, a->out_w / 2,
                 clock_y + cl_text_height(a->text, CL_FONT_TITLE),
                 lead >= 0 && r->racing ? cl_col_player_soft[lead] : cl_col_dim, CL_CENTER);
}

/* A player whose connection dropped: their board dimmed and labelled for
 * as long as they are gone. */
static void draw_away(cl_app *a, SDL_Rect area, int slot)
{
    cl_draw_fill(a->ren, area.x, area.y, area.w, area.h, (SDL_Color){0, 0, 0, 150});
    int fh = cl_text_height(a->text, CL_FONT_BODY);
    const char *who = a->backend->watching ? a->race.name[slot] : "Opponent";
    char line[96];
    snprintf(line, sizeof line, "%s: connection lost", who[0] ? who : "Player");
    int w = cl_text_width(a->text, CL_FONT_BODY, line) + fh * 2;
    if (w > area.w)
        w = area.w;
    int x = area.x + (area.w - w) / 2, y = area.y + area.h / 2 - fh * 2;
    cl_draw_panel(a->ren, x, y, w, fh * 4, cl_color_mix(cl_col_bad, cl_col_panel, 110));
    cl_text_draw_mid(a->text, CL_FONT_BODY, line, area.x + area.w / 2, y + fh, cl_col_text, CL_CENTER);
    cl_text_draw_mid(a->text, CL_FONT_SMALL, "waiting for them to come back", area.x + area.w / 2, y + fh * 3,
                     cl_col_text, CL_CENTER);
}

static void draw_board(cl_app *a, const cl_layout *L, int slot)
{
    cl_race *r = &a->race;
    cl_view v;
    cl_layout_view(L, r, slot, &v);
    const pz_params *p = pz_params_of(r->pz);
    int fpx = p->kind == PZ_SUM ? v.cell * 36 / 100 : v.cell * 3 / 10;
    if (v.ghost && fpx < 9)
        fpx = 0;
    cl_text_set_size(a->text, v.font, fpx);
    SDL_Rect area = L->board[slot];
    SDL_RenderSetClipRect(a->ren, &area);
    cl_render_for(p->kind)->draw(a->ren, a->text, &v, r->pz, r->p[slot].shown);
    const cl_player *pl = &r->p[slot];
    if (pl->ghost_lost && pl->prog.x >= 0) {
        SDL_Rect c = cl_view_cell_rect(&v, pl->prog.x, pl->prog.y);
        cl_draw_marker(a->ren, slot, (float)c.x + c.w / 2.0f, (float)c.y + c.h / 2.0f, c.w * 0.35f, true);
    }
    if (!v.ghost) {
        int fx, fy;
        cl_race_focus(r, slot, &fx, &fy);
        cl_overview_draw(a->ren, &v, r->pz, fx, fy);
    }
    SDL_RenderSetClipRect(a->ren, NULL);
    cl_draw_frame(a->ren, area.x - 2, area.y - 2, area.w + 4, area.h + 4, 2, cl_col_player[slot]);
    if (v.ghost && !a->backend->watching)
        cl_text_draw(a->text, CL_FONT_SMALL, "Opponent's board", area.x,
                     area.y - cl_text_height(a->text, CL_FONT_SMALL) - 4, cl_col_dim, CL_LEFT);
    if (pl->away && !r->finished)
        draw_away(a, area, slot);
    if (r->finished && r->result.solved[slot]) {
        cl_draw_fill(a->ren, area.x, area.y + area.h / 2 - cl_text_height(a->text, CL_FONT_TITLE), area.w,
                     cl_text_height(a->text, CL_FONT_TITLE) * 2, (SDL_Color){0, 0, 0, 150});
        cl_text_draw_mid(a->text, v.ghost ? CL_FONT_BODY : CL_FONT_TITLE, "SOLVED", area.x + area.w / 2,
                         area.y + area.h / 2, cl_col_good, CL_CENTER);
    }
    if (pl->hint_until > a->now_ms && pl->hint[0]) {
        int fh = cl_text_height(a->text, CL_FONT_BODY);
        int w = cl_text_width(a->text, CL_FONT_BODY, pl->hint) + fh * 2;
        int x = area.x + (area.w - w) / 2, y = area.y + area.h - fh * 2 - 8;
        cl_draw_panel(a->ren, x, y, w, fh * 2, cl_color_mix(cl_col_bad, cl_col_panel, 90));
        cl_text_draw_mid(a->text, CL_FONT_BODY, pl->hint, area.x + area.w / 2, y + fh, cl_col_text,
                         CL_CENTER);
    }
}

static void draw_ghost_info(cl_app *a, const cl_layout *L)
{
    int opp = a->backend->my_slot ^ 1;
    SDL_Rect g = L->ghost_info;
    if (g.w <= 0 || g.h <= 0)
        return;
    cl_text *t = a->text;
    int fh = cl_text_height(t, CL_FONT_SMALL), y = g.y;
    const cl_player *p = &a->race.p[opp];
    char line[96];
    snprintf(line, sizeof line, "%s: %u moves", a->race.name[opp][0] ? a->race.name[opp] : "Opponent",
             p->moves);
    cl_text_draw(t, CL_FONT_SMALL, line, g.x, y, cl_col_text, CL_LEFT);
    y += fh * 3 / 2;
    int kind = pz_params_of(a->race.pz)->kind;
    /* A measure of the race for this kind: a title line, then both sides. */
    const char *title = NULL;
    int them = 0, you = 0;
    const cl_player *me = &a->race.p[opp ^ 1];
    if (kind == PZ_PIPES && me->remaining >= 0) {
        title = "tiles with water";
        them = p->prog.value;
        you = pz_params_of(a->race.pz)->w * pz_params_of(a->race.pz)->h - me->remaining;
    } else if (p->remaining >= 0 && me->remaining >= 0) {
        /* Never the solver's distance: it would tell a good move from a bad one (docs/racing.md). */
        title = kind == PZ_SUM ? "cells from the End" : "cells from the exit";
        them = p->remaining;
        you = me->remaining;
    }
    if (title) {
        cl_text_draw(t, CL_FONT_SMALL, title, g.x, y, cl_col_dim, CL_LEFT);
        y += fh * 5 / 4;
        snprintf(line, sizeof line, "them %d  -  you %d", them, you);
        cl_text_draw(t, CL_FONT_SMALL, line, g.x, y, cl_col_text, CL_LEFT);
        y += fh * 3 / 2;
    }
    if (a->backend->series_len > 1) {
        snprintf(line, sizeof line, "best of %d", a->backend->series_len);
        cl_text_draw(t, CL_FONT_SMALL, line, g.x, y, cl_col_dim, CL_LEFT);
        y += fh * 3 / 2;
    }
    if (a->backend->lost_at) {
        cl_text_draw(t, CL_FONT_SMALL, "no answer from the server", g.x, y, cl_col_bad, CL_LEFT);
    } else if (a->backend->ping_ms >= 0) {
        /* Joined by code: the path the race travels (docs/nat.md). */
        snprintf(line, sizeof line, "ping %d ms%s%s%s", a->backend->ping_ms,
                 a->backend->route_how[0] ? " (" : "", a->backend->route_how,
                 a->backend->route_how[0] ? ")" : "");
        cl_text_draw(t, CL_FONT_SMALL, line, g.x, y, cl_col_dim, CL_LEFT);
    }
}

SDL_Color cl_race_banner_color(void)
{
    return cl_color_mix(cl_col_bad, cl_col_panel, 160);
}

SDL_Rect cl_race_banner_rect(int out_w, int out_h)
{
    return (SDL_Rect){out_w / 8, out_h * 2 / 5, out_w * 3 / 4, out_h / 5};
}

/* The server is silent: a lasting banner over the boards until it is back
 * (or the backend gives up), with the way out. */
static void draw_lost(cl_app *a)
{
    SDL_Rect p = cl_race_banner_rect(a->out_w, a->out_h);
    cl_draw_panel(a->ren, p.x, p.y, p.w, p.h, cl_race_banner_color());
    int fh = cl_text_height(a->text, CL_FONT_BODY);
    char line[96];
    snprintf(line, sizeof line, "Connection lost - reconnecting, %d s", a->backend->lost_left_s);
    cl_text_draw_mid(a->text, CL_FONT_TITLE, line, a->out_w / 2, p.y + p.h / 2 - fh, cl_col_text, CL_CENTER);
    const char *how =
        a->backend->watching ? "Esc: leave" : "Esc: leave (the race stays in your history as unfinished)";
    cl_text_draw_mid(a->text, CL_FONT_BODY, how, a->out_w / 2, p.y + p.h / 2 + fh, cl_col_text, CL_CENTER);
}

void cl_race_draw_screen(cl_app *a)
{
    cl_race *r = &a->race;
    if (!a->backend)
        return;
    cl_layout L;
    cl_layout_for(a, &L);
    if (!r->pz) {
        cl_text_draw_mid(a->text, CL_FONT_TITLE, "Waiting for the puzzle...", a->out_w / 2, a->out_h / 2,
                         cl_col_text, CL_CENTER);
        return;
    }
    for (int s = 0; s < 2; s++)
        draw_board(a, &L, s);
    draw_hud(a, &L);
    if (!a->backend->hotseat && !a->backend->watching)
        draw_ghost_info(a, &L);
    /* One line of help for this kind naming the bound keys, then the
     * shareable game ID. */
    int kind = pz_params_of(r->pz)->kind;
    char help[240];
    if (a->backend->hotseat)
        cl_howto_hotseat_keys(&a->settings.keys, kind, help, sizeof help);
    else
        cl_howto_hint(&a->settings.keys, 0, kind, help, sizeof help);
    char foot[480];
    if (a->backend->watching)
        snprintf(foot, sizeof foot, "Watching room %s (%d watching)   -   Game ID %s   -   Esc leaves",
                 a->backend->room, a->backend->spectators, a->backend->game_id);
    else
        snprintf(foot, sizeof foot, "%s   -   + - zoom, 0 fits   -   Game ID %s   -   Esc leaves", help,
                 a->backend->game_id);
    /* Too wide: the zoom keys go first (docs/client.md names them). */
    if (!a->backend->watching && cl_text_width(a->text, CL_FONT_SMALL, foot) > a->out_w - 20)
        snprintf(foot, sizeof foot, "%s   -   Game ID %s   -   Esc leaves", help, a->backend->game_id);
    if (cl_text_width(a->text, CL_FONT_SMALL, foot) > a->out_w - 20)
        snprintf(foot, sizeof foot, "Game ID %s   -   Esc leaves", a->backend->game_id);
    cl_text_draw(a->text, CL_FONT_SMALL, foot, a->out_w / 2,
                 a->out_h - cl_text_height(a->text, CL_FONT_SMALL) - 4, cl_col_dim, CL_CENTER);
    /* Countdown: a big number over the boards, then "GO!" briefly. */
    const char *big = NULL;
    char nb[24];
    if (!r->racing && !r->finished && r->start_ms > a->now_ms) {
        snprintf(nb, sizeof nb, "%llu", (unsigned long long)((r->start_ms - a->now_ms + 999) / 1000));
        big = nb;
    } else if (r->racing && a->now_ms < r->start_ms + GO_MS) {
        big = "GO!";
    }
    if (big) {
        int hh = cl_text_height(a->text, CL_FONT_HUGE);
        int w = hh * 3;
        cl_draw_panel(a->ren, (a->out_w - w) / 2, a->out_h / 2 - hh, w, hh * 2, (SDL_Color){24, 28, 38, 220});
        cl_text_draw_mid(a->text, CL_FONT_HUGE, big, a->out_w / 2, a->out_h / 2, cl_col_accent, CL_CENTER);
    }
    if (a->backend->lost_at && !r->finished)
        draw_lost(a);
}

static void draw(cl_app *a)
{
    race_ui *u = cl_app_scene_state(a, CL_SCENE_RACE);
    cl_race_draw_screen(a);
    if (u->confirm_leave)
        cl_app_confirm(a, 22, "Leave the race?", "Y or Enter: leave  -  N or Esc: keep racing");
}

static void enter(cl_app *a)
{
    race_ui *u = cl_app_scene_state(a, CL_SCENE_RACE);
    u->confirm_leave = false;
    u->dragging = false;
}

bool cl_race_lost_shown(const cl_app *a)
{
    return a->backend && a->backend->lost_at && !a->race.finished;
}

static const char *wait_name(const cl_app *a)
{
    if (cl_race_lost_shown(a))
        return "lost";
    return a->race.racing || a->race.finished ? "race" : "countdown";
}

const cl_scene cl_scene_race = {.name = "race",
                                .enter = enter,
                                .event = event,
                                .update = update,
                                .draw = draw,
                                .state_size = sizeof(race_ui),
                                .wait_name = wait_name,
                                .boards = true};
