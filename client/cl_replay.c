/* cl_replay.c: the replay player's screen: HUD with names, clock and move
 * counts, both boards at equal size, the control bar and the timeline. */
#include <stdio.h>
#include <string.h>

#include "cl_draw.h"
#include "cl_replay.h"
#include "sum.h"

struct cl_replay_ui *cl_replay_ui_of(const cl_app *a)
{
    return cl_app_scene_state(a, CL_SCENE_REPLAY);
}

void cl_replay_fmt_clock(char *buf, size_t len, uint64_t ms)
{
    snprintf(buf, len, "%llu:%02llu.%llu", (unsigned long long)(ms / 60000),
             (unsigned long long)(ms / 1000 % 60), (unsigned long long)(ms / 100 % 10));
}

static void draw_board(cl_app *a, const cl_layout *L, int slot)
{
    struct cl_replay_ui *u = cl_replay_ui_of(a);
    cl_view v;
    cl_layout_view(L, &u->race, slot, &v);
    const pz_params *p = pz_params_of(u->race.pz);
    cl_text_set_size(a->text, v.font, p->kind == PZ_SUM ? v.cell * 36 / 100 : v.cell * 3 / 10);
    SDL_Rect area = L->board[slot];
    SDL_RenderSetClipRect(a->ren, &area);
    cl_render_for(p->kind)->draw(a->ren, a->text, &v, u->race.pz, cl_rview_state(u->v, slot));
    SDL_RenderSetClipRect(a->ren, NULL);
    cl_draw_frame(a->ren, area.x - 2, area.y - 2, area.w + 4, area.h + 4, 2, cl_col_player[slot]);
    if (cl_rview_solved(u->v, slot)) {
        int th = cl_text_height(a->text, CL_FONT_TITLE);
        cl_draw_fill(a->ren, area.x, area.y + area.h / 2 - th, area.w, th * 2, (SDL_Color){0, 0, 0, 150});
        cl_text_draw_mid(a->text, CL_FONT_TITLE, "SOLVED", area.x + area.w / 2, area.y + area.h / 2,
                         cl_col_good, CL_CENTER);
    }
}

static void player_block(cl_app *a, int slot, int x, int cy, int align)
{
    const cl_rview *v = cl_replay_ui_of(a)->v;
    cl_text *t = a->text;
    int fh = cl_text_height(t, CL_FONT_BODY);
    int dir = align == CL_LEFT ? 1 : -1;
    float mr = fh * 0.42f;
    cl_draw_marker(a->ren, slot, (float)(x + dir * (int)mr), (float)(cy - fh / 2), mr, false);
    int tx = x + dir * (int)(mr * 2.6f);
    cl_text_draw_mid(t, CL_FONT_BODY, replay_name(cl_rview_replay(v), slot), tx, cy - fh / 2, cl_col_text,
                     align);
    char line[96];
    const pz_puzzle *pz = cl_rview_puzzle(v);
    if (pz_params_of(pz)->kind == PZ_SUM)
        snprintf(line, sizeof line, "moves %u   sum %d of %d", cl_rview_moves(v, slot),
                 sum_running(cl_rview_state(v, slot)), sum_target(pz));
    else
        snprintf(line, sizeof line, "moves %u", cl_rview_moves(v, slot));
    cl_text_draw_mid(t, CL_FONT_SMALL, line, tx, cy + fh / 2, cl_col_dim, align);
}

static void draw_hud(cl_app *a, const cl_layout *L)
{
    const cl_rview *v = cl_replay_ui_of(a)->v;
    SDL_Rect h = L->hud;
    cl_draw_fill(a->ren, h.x, h.y, h.w, h.h, cl_col_panel);
    cl_draw_fill(a->ren, h.x, h.y + h.h - 2, h.w, 2, cl_col_panel_hi);
    int cy = h.y + h.h / 2, m = h.h / 3;
    player_block(a, 0, m, cy, CL_LEFT);
    player_block(a, 1, a->out_w - m, cy, CL_RIGHT);
    char buf[64], sub[160];
    cl_replay_fmt_clock(buf, sizeof buf, cl_rview_time(v));
    cl_text_draw_mid(a->text, CL_FONT_TITLE, buf, a->out_w / 2,
                     cy - cl_text_height(a->text, CL_FONT_SMALL) / 2, cl_col_text, CL_CENTER);
    const match_result *res = cl_rview_result(v);
    SDL_Color c = cl_col_dim;
    if (cl_rview_at_end(v) && (res->winner == 0 || res->winner == 1)) {
        snprintf(sub, sizeof sub, "replay  -  %s wins (%s)", replay_name(cl_rview_replay(v), res->winner),
                 match_end_text(res->reason));
        c = cl_col_player_soft[res->winner];
    } else if (cl_rview_at_end(v)) {
        snprintf(sub, sizeof sub, "replay  -  no winner (%s)", match_end_text(res->reason));
    } else {
        snprintf(sub, sizeof sub, "replay  -  %s  -  %s", cl_rview_speed_text(cl_rview_speed(v)),
                 cl_rview_playing(v) ? "playing" : "paused");
    }
    cl_text_draw_mid(a->text, CL_FONT_SMALL, sub, a->out_w / 2,
                     cy + cl_text_height(a->text, CL_FONT_TITLE) / 2, c, CL_CENTER);
}

static void button(cl_app *a, SDL_Rect r, const char *label, bool lit)
{
    cl_draw_panel(a->ren, r.x, r.y, r.w, r.h, lit ? cl_col_accent : cl_col_panel_hi);
    cl_text_draw_mid(a->text, CL_FONT_BODY, label, r.x + r.w / 2, r.y + r.h / 2,
                     lit ? cl_col_bg : cl_col_text, CL_CENTER);
}

/* The track, one tick per move (player 0 above, player 1 below), the part
 * played so far and the playhead. */
static void draw_timeline(cl_app *a, const cl_replay_layout *L)
{
    const cl_rview *v = cl_replay_ui_of(a)->v;
    const replay *r = cl_rview_replay(v);
    SDL_Rect tl = L->timeline;
    uint32_t len = cl_rview_length(v);
    int tick = L->bar.h / 4;
    for (int s = 0; s < 2; s++) {
        cl_rects_begin(a->ren, cl_col_player_soft[s]);
        int last = -1;
        for (size_t i = 0; i < replay_move_count(r); i++) {
            const replay_move *m = replay_move_at(r, i);
            int x = tl.x + (len ? (int)((uint64_t)m->t_ms * (uint64_t)tl.w / len) : 0);
            if (m->slot != s || x == last)
                continue;
            last = x;
            cl_rects_add(x, s == 0 ? tl.y - tick - 2 : tl.y + tl.h + 2, 1, tick);
        }
        cl_rects_flush();
    }
    cl_draw_fill(a->ren, tl.x, tl.y, tl.w, tl.h, cl_col_panel_hi);
    int px = tl.x + (len ? (int)((uint64_t)cl_rview_time(v) * (uint64_t)tl.w / len) : tl.w);
    cl_draw_fill(a->ren, tl.x, tl.y, px - tl.x, tl.h, cl_col_accent);
    int kw = tl.h + 6;
    cl_draw_fill(a->ren, px - kw / 2, L->bar.y + 2, kw, L->bar.h - 4, cl_col_text);
}

void cl_replay_draw(cl_app *a)
{
    struct cl_replay_ui *u = cl_replay_ui_of(a);
    cl_replay_layout L;
    cl_layout_replay(a->out_w, a->out_h, &L);
    for (int s = 0; s < 2; s++)
        draw_board(a, &L.race, s);
    draw_hud(a, &L.race);
    static const char *const labels[CL_RB_COUNT] = {"|<", "<", "Play", ">", "-", "", "+"};
    for (int i = 0; i < CL_RB_COUNT; i++) {
        if (i == CL_RB_SPEED) {
            SDL_Rect r = L.button[i];
            cl_text_draw_mid(a->text, CL_FONT_BODY, cl_rview_speed_text(cl_rview_speed(u->v)), r.x + r.w / 2,
                             r.y + r.h / 2, cl_col_text, CL_CENTER);
        } else if (i == CL_RB_PLAY) {
            button(a, L.button[i], cl_rview_playing(u->v) ? "Pause" : "Play", cl_rview_playing(u->v));
        } else {
            button(a, L.button[i], labels[i], false);
        }
    }
    draw_timeline(a, &L);
    char foot[400];
    snprintf(foot, sizeof foot,
             "Replay of %s  -  Space play/pause, Left/Right a move, Up/Down speed, drag the timeline  -  Esc "
             "leaves",
             u->label);
    if (cl_text_width(a->text, CL_FONT_SMALL, foot) > a->out_w - 20)
        snprintf(foot, sizeof foot, "Space play/pause, Left/Right a move, Up/Down speed  -  Esc leaves");
    cl_text_draw(a->text, CL_FONT_SMALL, foot, a->out_w / 2,
                 a->out_h - cl_text_height(a->text, CL_FONT_SMALL) - 4, cl_col_dim, CL_CENTER);
}
