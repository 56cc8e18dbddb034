/* test_client_render.c: the real client, headless, checked through its
 * screenshots: markers at the expected cells after scripted moves, the
 * ghost board, a hotseat match to the right winner, Esc confirmation, and
 * command-line errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cl_app.h"
#include "cl_draw.h"
#include "cl_test_util.h"
#include "pipes.h"
#include "sum.h"

enum { W = 1280, H = 720, RUN_MS = 60000 };

static char out[1 << 16];

/* Where slot's marker should be drawn when its state is st. */
static void marker_point(const pz_puzzle *pz, const cl_view *v, const pz_state *st, int *px, int *py)
{
    cl_race r;
    memset(&r, 0, sizeof r);
    r.pz = pz;
    r.k = pz_kind_of(pz);
    r.p[0].shown = (pz_state *)st;
    int x, y;
    cl_race_focus(&r, 0, &x, &y);
    SDL_Rect c = cl_view_cell_rect(v, x, y);
    if (pz_params_of(pz)->kind == PZ_SUM) {
        *px = c.x + (int)(c.w * CL_SUM_MARKER_AT);
        *py = c.y + (int)(c.h * CL_SUM_MARKER_AT);
    } else {
        *px = c.x + c.w / 2;
        *py = c.y + c.h / 2;
    }
}

/* Plays the first m solution moves of id as player 1 in hotseat, then
 * checks both markers (or, for pipes, player 1's cursor and tile). */
static bool use_pad, use_touch;

static void check_kind(const char *base, int m)
{
    pz_move sol[512];
    pz_puzzle *pz = NULL;
    char id[96];
    int n = -1;
    /* The first seed from base whose solution is longer than m: the test
     * does not depend on what one seed generates. */
    for (int seed = 1; seed <= 50 && n <= m; seed++) {
        if (pz)
            pz_kind_of(pz)->free_puzzle(pz);
        snprintf(id, sizeof id, "%s#%d", base, seed);
        n = clt_solution(id, sol, 512, &pz);
    }
    assert_true(n > m);
    const pz_kind *k = pz_kind_of(pz);
    int cx = 0, cy = pz_params_of(pz)->kind == PZ_PIPES ? pipes_start_row(pz) : 0;
    static char script[1 << 15];
    snprintf(script, sizeof script, "0 wait race\n");
    if (use_touch) {
        /* Swipes on player 1's (left) half: a direction each. */
        static const int dx[4] = {0, 0, -120, 120}, dy[4] = {-120, 120, 0, 0};
        for (int i = 0; i < m; i++) {
            size_t len = strlen(script);
            int d = sol[i].dir & 3;
            snprintf(script + len, sizeof script - len, "+40 swipe 320 400 %d %d\n", 320 + dx[d],
                     400 + dy[d]);
        }
    } else if (use_pad) {
        /* The same moves from a (scripted) gamepad's d-pad. */
        static const char *const pad[4] = {"dpup", "dpdown", "dpleft", "dpright"};
        for (int i = 0; i < m; i++) {
            size_t len = strlen(script);
            snprintf(script + len, sizeof script - len, "+40 pad %s\n", pad[sol[i].dir & 3]);
        }
    } else {
        clt_script_moves(script, sizeof script, 0, sol, m, 40, &cx, &cy);
    }
    assert_true(clt_write(clt_path("moves.txt"), script));
    const char *shot = clt_path("moves.bmp");
    const char *args[] = {
        "--headless",          "--size",       "1280x720", "--hotseat",     id,   "--script",
        clt_path("moves.txt"), "--screenshot", shot,       "--max-seconds", "60", NULL};
    assert_int_equal(clt_run(args, out, sizeof out, RUN_MS), 0);
    SDL_Surface *s = clt_load(shot);
    assert_non_null(s);
    assert_int_equal(s->w, W);

    cl_race r;
    memset(&r, 0, sizeof r);
    cl_race_reset(&r, pz, true, true);
    cl_layout L;
    cl_layout_race(W, H, true, 0, &L);
    pz_state *st = k->new_state(pz);
    for (int i = 0; i < m; i++)
        assert_null(k->execute_move(pz, st, sol[i], st));
    cl_view v0, v1;
    cl_layout_view(&L, &r, 0, &v0);
    cl_layout_view(&L, &r, 1, &v1);
    if (pz_params_of(pz)->kind == PZ_PIPES) {
        /* Player 1's cursor sits on the last rotated tile: a thick yellow
         * frame on its edge, their colour just inside it. */
        SDL_Rect c = cl_view_cell_rect(&v0, cx, cy);
        assert_true(clt_same(clt_pixel(s, c.x + c.w / 2, c.y + 1), cl_col_accent, 8));
        assert_true(clt_same(clt_pixel(s, c.x + 1, c.y + c.h / 2), cl_col_accent, 8));
        bool own = false;
        for (int d = 2; d < c.w / 5; d++)
            own = own || clt_same(clt_pixel(s, c.x + d, c.y + c.h / 2), cl_col_player[0], 8);
        assert_true(own);
        /* The tile's drawn openings match the state: a pipe arm reaches the
         * middle of an edge exactly where the mask says. */
        int mask = pipes_tile(pz, st, cx, cy);
        bool north_drawn = !clt_same(clt_pixel(s, c.x + c.w / 2, c.y + c.h / 5), cl_col_panel_hi, 4);
        assert_int_equal(north_drawn, (mask & PIPES_N) != 0);
        bool south_drawn = !clt_same(clt_pixel(s, c.x + c.w / 2, c.y + c.h * 4 / 5), cl_col_panel_hi, 4);
        assert_int_equal(south_drawn, (mask & PIPES_S) != 0);
        bool west_drawn = !clt_same(clt_pixel(s, c.x + c.w / 5, c.y + c.h / 2), cl_col_panel_hi, 4);
        assert_int_equal(west_drawn, (mask & PIPES_W) != 0);
        bool east_drawn = !clt_same(clt_pixel(s, c.x + c.w * 4 / 5, c.y + c.h / 2), cl_col_panel_hi, 4);
        assert_int_equal(east_drawn, (mask & PIPES_E) != 0);
    } else {
        int px, py;
        marker_point(pz, &v0, st, &px, &py);
        SDL_Color got = clt_pixel(s, px, py);
        fprintf(stderr, "%s: p1 marker at (%d,%d) = %d,%d,%d\n", id, px, py, got.r, got.g, got.b);
        assert_true(clt_same(got, cl_col_player[0], 8));
        pz_state *start = k->new_state(pz);
        marker_point(pz, &v1, start, &px, &py);
        got = clt_pixel(s, px, py);
        assert_true(clt_same(got, cl_col_player[1], 8));
        /* And player 1 is no longer drawn at the start on their own board. */
        marker_point(pz, &v0, start, &px, &py);
        if (m > 0)
            assert_false(clt_same(clt_pixel(s, px, py), cl_col_player[0], 8));
        k->free_state(start);
    }
    assert_non_null(strstr(out, "screenshot"));
    k->free_state(st);
    cl_race_free(&r);
    k->free_puzzle(pz);
    SDL_FreeSurface(s);
}

static void test_markers_maze(void **ctx)
{
    (void)ctx;
    check_kind("maze:15x11:easy", 5);
}
static void test_markers_ice(void **ctx)
{
    (void)ctx;
    check_kind("ice:12x10:easy", 2);
}
static void test_markers_sum(void **ctx)
{
    (void)ctx;
    check_kind("sum:5x4:easy", 2);
}
static void test_markers_pipes(void **ctx)
{
    (void)ctx;
    check_kind("pipes:6x4:easy", 2);
}
static void test_markers_gamepad(void **ctx)
{
    (void)ctx;
    use_pad = true;
    check_kind("maze:11x9:easy", 4);
    use_pad = false;
}

/* Mouse play: clicks on neighbouring cells (maze) or drags from the path
 * head to the next cell (sum), for player 1 in hotseat; then player 1's
 * marker must be where the moves lead. */
static void check_mouse(const char *base, bool drag)
{
    pz_move sol[512];
    pz_puzzle *pz = NULL;
    char id[96];
    int n = -1, m = 3;
    for (int seed = 1; seed <= 50 && n <= m; seed++) {
        if (pz)
            pz_kind_of(pz)->free_puzzle(pz);
        snprintf(id, sizeof id, "%s#%d", base, seed);
        n = clt_solution(id, sol, 512, &pz);
    }
    assert_true(n > m);
    const pz_kind *k = pz_kind_of(pz);
    cl_race r;
    memset(&r, 0, sizeof r);
    cl_race_reset(&r, pz, true, true);
    cl_layout L;
    cl_layout_race(W, H, true, 0, &L);
    cl_view v;
    cl_layout_view(&L, &r, 0, &v);
    pz_state *st = k->new_state(pz);
    pz_state *own = r.p[0].shown; /* lent to the race for focus queries below */
    static char script[8192];
    snprintf(script, sizeof script, "0 wait race\n");
    for (int i = 0; i < m; i++) {
        int fx, fy, tx, ty;
        r.p[0].shown = st;
        cl_race_focus(&r, 0, &fx, &fy);
        assert_null(k->execute_move(pz, st, sol[i], st));
        cl_race_focus(&r, 0, &tx, &ty);
        SDL_Rect a = cl_view_cell_rect(&v, fx, fy), b = cl_view_cell_rect(&v, tx, ty);
        size_t len = strlen(script);
        if (drag)
            snprintf(script + len, sizeof script - len, "+60 drag %d %d %d %d\n", a.x + a.w / 2,
                     a.y + a.h / 2, b.x + b.w / 2, b.y + b.h / 2);
        else
            snprintf(script + len, sizeof script - len, "+60 click %d %d\n", b.x + b.w / 2, b.y + b.h / 2);
    }
    r.p[0].shown = own;
    assert_true(clt_write(clt_path("mouse.txt"), script));
    const char *shot = clt_path("mouse.bmp");
    const char *args[] = {
        "--headless",          "--size",       "1280x720", "--hotseat",     id,   "--script",
        clt_path("mouse.txt"), "--screenshot", shot,       "--max-seconds", "60", NULL};
    assert_int_equal(clt_run(args, out, sizeof out, RUN_MS), 0);
    SDL_Surface *s = clt_load(shot);
    assert_non_null(s);
    int px, py;
    marker_point(pz, &v, st, &px, &py);
    assert_true(clt_same(clt_pixel(s, px, py), cl_col_player[0], 8));
    SDL_FreeSurface(s);
    k->free_state(st);
    cl_race_free(&r);
    k->free_puzzle(pz);
}

static void test_markers_touch(void **ctx)
{
    (void)ctx;
    use_touch = true;
    check_kind("ice:12x10:easy", 2);
    use_touch = false;
}

static void test_mouse_clicks_maze(void **ctx)
{
    (void)ctx;
    check_mouse("maze:11x9:easy", false);
}
static void test_mouse_drag_sum(void **ctx)
{
    (void)ctx;
    check_mouse("sum:5x4:easy", true);
}

/* Plays a whole hotseat race for `winner` only; the other player idles.
 * The client prints one RESULT line naming the winner. */
static void play_to_end(const char *id, int winner)
{
    pz_move sol[512];
    pz_puzzle *pz;
    int n = clt_solution(id, sol, 512, &pz);
    assert_true(n > 0);
    int cx = 0, cy = pz_params_of(pz)->kind == PZ_PIPES ? pipes_start_row(pz) : 0;
    static char script[1 << 15];
    snprintf(script, sizeof script, "0 wait race\n");
    clt_script_moves(script, sizeof script, winner, sol, n, 30, &cx, &cy);
    size_t len = strlen(script);
    snprintf(script + len, sizeof script - len,
             "+0 wait results\n+200 key Escape\n+100 wait menu\n+50 quit\n");
    assert_true(clt_write(clt_path("full.txt"), script));
    const char *args[] = {"--headless",         "--hotseat",     id,   "--script",
                          clt_path("full.txt"), "--max-seconds", "90", NULL};
    assert_int_equal(clt_run(args, out, sizeof out, 120000), 0);
    char want[64];
    snprintf(want, sizeof want, "RESULT winner=%d ", winner);
    assert_non_null(strstr(out, want));
    char moves[32];
    snprintf(moves, sizeof moves, " moves%d=%d ", winner, n);
    assert_non_null(strstr(out, moves));
    pz_kind_of(pz)->free_puzzle(pz);
}

static void test_hotseat_p1_wins(void **ctx)
{
    (void)ctx;
    play_to_end("maze:9x7:easy#11", 0);
}
static void test_hotseat_p2_wins(void **ctx)
{
    (void)ctx;
    play_to_end("ice:10x10:easy#5", 1);
}

static void test_ghost_board_vs_computer(void **ctx)
{
    (void)ctx;
    /* The computer moves every 40 ms; after a second its ghost marker is
     * on the ghost board, in its colour, and our marker on ours. */
    assert_true(clt_write(clt_path("ghost.txt"), "0 wait race\n+1000 wait race\n"));
    const char *shot = clt_path("ghost.bmp");
    const char *args[] = {"--headless", "--vs-computer",       "maze:21x15:easy#2", "--bot-pace", "40",
                          "--script",   clt_path("ghost.txt"), "--screenshot",      shot,         NULL};
    assert_int_equal(clt_run(args, out, sizeof out, RUN_MS), 0);
    SDL_Surface *s = clt_load(shot);
    assert_non_null(s);
    cl_layout L;
    cl_layout_race(s->w, s->h, false, 0, &L);
    assert_true(L.ghost[1]);
    assert_true(clt_count(s, L.board[1], cl_col_player[1], 6) > 4);
    assert_true(clt_count(s, L.board[0], cl_col_player[0], 6) > 20);
    /* The computer has moved: its ghost is not at the start cell. */
    char err[200];
    pz_puzzle *pz = pz_from_id("maze:21x15:easy#2", err, sizeof err);
    cl_race r;
    memset(&r, 0, sizeof r);
    cl_race_reset(&r, pz, true, false);
    cl_view v;
    cl_layout_view(&L, &r, 1, &v);
    SDL_Rect start = cl_view_cell_rect(&v, 0, 14);
    assert_int_equal(clt_count(s, start, cl_col_player[1], 6), 0);
    cl_race_free(&r);
    pz_kind_of(pz)->free_puzzle(pz);
    SDL_FreeSurface(s);
}

static void test_escape_asks_first(void **ctx)
{
    (void)ctx;
    /* Esc then N keeps racing; Esc then Y leaves to the menu. */
    assert_true(clt_write(clt_path("esc.txt"), "0 wait race\n+50 key F11\n+50 key F11\n+50 key Escape\n+50 "
                                               "key N\n+50 wait race\n+50 key Escape\n+50 key Y\n"
                                               "+50 wait menu\n"));
    const char *args[] = {"--headless",        "--hotseat",     "maze#1", "--script",
                          clt_path("esc.txt"), "--max-seconds", "30",     NULL};
    assert_int_equal(clt_run(args, out, sizeof out, RUN_MS), 0);
    assert_null(strstr(out, "RESULT"));
}

static void test_bad_input_is_refused(void **ctx)
{
    (void)ctx;
    const char *bad_flag[] = {"--no-such-flag", NULL};
    assert_int_equal(clt_run(bad_flag, out, sizeof out, RUN_MS), 2);
    assert_non_null(strstr(out, "usage"));
    const char *help[] = {"--help", NULL};
    assert_int_equal(clt_run(help, out, sizeof out, RUN_MS), 0);
    const char *ver[] = {"--version", NULL};
    assert_int_equal(clt_run(ver, out, sizeof out, RUN_MS), 0);
    assert_non_null(strstr(out, "mazerace 0."));
    /* A bad game ID says why in plain words, and never crashes. */
    const char *bad_id[] = {"--headless", "--hotseat", "cube:3x3#1", NULL};
    assert_int_equal(clt_run(bad_id, out, sizeof out, RUN_MS), 1);
    assert_non_null(strstr(out, "unknown puzzle kind"));
    const char *huge[] = {"--headless", "--vs-computer", "maze:99999x3#1", NULL};
    assert_int_equal(clt_run(huge, out, sizeof out, RUN_MS), 1);
    assert_true(clt_write(clt_path("bad.txt"), "10 key Left\nbanana\n"));
    const char *bad_script[] = {"--headless", "--script", clt_path("bad.txt"), NULL};
    assert_int_equal(clt_run(bad_script, out, sizeof out, RUN_MS), 2);
    assert_non_null(strstr(out, "line 2"));
    /* A corrupt settings file: defaults and a message, the game runs. */
    assert_true(clt_write(clt_path("settings.txt"), "name = \x01\x02\nwindow = 1x1\nkey.p1.up = Escape\n"));
    const char *shot = clt_path("menu.bmp");
    const char *bad_settings[] = {
        "--headless", "--settings", clt_path("settings.txt"), "--no-save", "--screenshot", shot, NULL};
    assert_int_equal(clt_run(bad_settings, out, sizeof out, RUN_MS), 0);
    assert_non_null(strstr(out, "settings line 1"));
}

static void test_menu_navigation_and_game_id(void **ctx)
{
    (void)ctx;
    /* From the menu: Hotseat, type a game ID, Start: the race runs on that ID. */
    assert_true(clt_write(clt_path("menu.txt"),
                          "0 wait menu\n+50 key Down\n+50 key Return\n+50 wait setup\n"
                          "+50 key Down\n+50 key Down\n+50 key Down\n+50 text ice:9x9:easy#77\n"
                          "+50 key Down\n+50 key Down\n+50 key Return\n"
                          /* the first race of a kind: its How to play card, then Enter starts */
                          "+100 key Return\n+50 wait countdown\n"));
    const char *shot = clt_path("menu_race.bmp");
    const char *args[] = {
        "--headless", "--script", clt_path("menu.txt"), "--screenshot", shot, "--max-seconds", "30", NULL};
    assert_int_equal(clt_run(args, out, sizeof out, RUN_MS), 0);
    SDL_Surface *s = clt_load(shot);
    assert_non_null(s);
    /* Two boards in hotseat: both players' colours show. */
    cl_layout L;
    cl_layout_race(s->w, s->h, true, 0, &L);
    assert_true(clt_count(s, L.board[0], cl_col_player[0], 6) > 20);
    assert_true(clt_count(s, L.board[1], cl_col_player[1], 6) > 20);
    SDL_FreeSurface(s);
}

/* The setup screen offers sum up to 10x10 (issue 13), and the race draws
 * all 10 x 10 tiles inside the board's rectangle (cells scaled to fit). */
static void test_setup_big_sum(void **ctx)
{
    (void)ctx;
    /* Kind: one Left from the maze to sum; Size: the fourth choice (5x4,
     * 7x6, 10x8, 10x10); then down to Start. The shot is taken a second
     * into the race, after the GO! banner (0.8 s), which covers the middle
     * cells: End's dark band under it reads as the board's background. */
    assert_true(clt_write(clt_path("bigsum.txt"),
                          "0 wait menu\n+50 key Down\n+50 key Return\n+50 wait setup\n"
                          "+50 key Left\n+50 key Down\n+50 key Right\n+50 key Right\n"
                          "+50 key Right\n+50 key Down\n+50 key Down\n+50 key Down\n"
                          "+50 key Down\n+50 key Return\n+100 key Return\n+50 wait race\n+1000 wait race\n"));
    const char *shot = clt_path("bigsum.bmp");
    const char *args[] = {"--headless",   "--size", "1280x720",      "--script", clt_path("bigsum.txt"),
                          "--screenshot", shot,     "--max-seconds", "30",       NULL};
    assert_int_equal(clt_run(args, out, sizeof out, RUN_MS), 0);
    SDL_Surface *s = clt_load(shot);
    assert_non_null(s);
    pz_params p = {PZ_SUM, 10, 10, PZ_EASY};
    const char *err = NULL;
    pz_puzzle *pz = pz_kind_sum.generate(&p, 1, &err);
    assert_non_null(pz);
    cl_race r;
    memset(&r, 0, sizeof r);
    cl_race_reset(&r, pz, true, true);
    cl_layout L;
    cl_layout_race(W, H, true, 0, &L);
    cl_view v;
    cl_layout_view(&L, &r, 0, &v);
    SDL_Color bg = clt_pixel(s, L.board[0].x + 3, L.board[0].y + L.board[0].h / 2);
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 10; x++) {
            SDL_Rect c = cl_view_cell_rect(&v, x, y);
            assert_true(c.x >= L.board[0].x && c.y >= L.board[0].y &&
                        c.x + c.w <= L.board[0].x + L.board[0].w && c.y + c.h <= L.board[0].y + L.board[0].h);
            /* a tile's corner, inside its gap: not the board's background */
            assert_false(clt_same(clt_pixel(s, c.x + c.w / 8 + 2, c.y + c.h / 8 + 2), bg, 6));
        }
    /* and nothing past the tenth column */
    SDL_Rect last = cl_view_cell_rect(&v, 9, 5);
    assert_true(clt_same(clt_pixel(s, last.x + last.w + last.w / 2, last.y + last.h / 2), bg, 6));
    cl_race_free(&r);
    pz_kind_sum.free_puzzle(pz);
    SDL_FreeSurface(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_markers_maze),
        cmocka_unit_test(test_markers_ice),
        cmocka_unit_test(test_markers_sum),
        cmocka_unit_test(test_markers_pipes),
        cmocka_unit_test(test_markers_gamepad),
        cmocka_unit_test(test_markers_touch),
        cmocka_unit_test(test_mouse_clicks_maze),
        cmocka_unit_test(test_mouse_drag_sum),
        cmocka_unit_test(test_hotseat_p1_wins),
        cmocka_unit_test(test_hotseat_p2_wins),
        cmocka_unit_test(test_ghost_board_vs_computer),
        cmocka_unit_test(test_escape_asks_first),
        cmocka_unit_test(test_bad_input_is_refused),
        cmocka_unit_test(test_menu_navigation_and_game_id),
        cmocka_unit_test(test_setup_big_sum),
    };
    return clt_finish(cmocka_run_group_tests(tests, NULL, NULL));
}
