/* test_client_units.c: the client's pure parts: settings file, key
 * bindings, scripts, command line, board views and move prediction with
 * rollback. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cl_app.h"
#include "cl_args.h"
#include "cl_backend.h"
#include "cl_race.h"
#include "cl_render.h"
#include "cl_script.h"
#include "cl_settings.h"
#include "maze.h"
#include "wire.h"

static void test_settings_round_trip(void **ctx)
{
    (void)ctx;
    cl_settings s, t;
    cl_settings_default(&s);
    snprintf(s.name, sizeof s.name, "Ada");
    snprintf(s.last_server, sizeof s.last_server, "10.0.0.7:27910");
    s.win_w = 1600;
    s.win_h = 900;
    assert_null(cl_bindings_set(&s.keys, 0, CL_ACT_UP, SDLK_i));
    /* Moving player 2's "up" onto a key player 1 used before is fine once W is free. */
    assert_null(cl_bindings_set(&s.keys, 1, CL_ACT_UP, SDLK_w));
    char *text = cl_settings_format(&s);
    cl_settings_default(&t);
    char msg[200];
    assert_int_equal(cl_settings_parse(&t, text, strlen(text), msg, sizeof msg), 0);
    assert_string_equal(t.name, "Ada");
    assert_string_equal(t.last_server, "10.0.0.7:27910");
    assert_int_equal(t.win_w, 1600);
    assert_int_equal(t.win_h, 900);
    assert_memory_equal(&t.keys, &s.keys, sizeof s.keys);
    free(text);
}

static void test_settings_bad_lines_fall_back(void **ctx)
{
    (void)ctx;
    cl_settings s;
    cl_settings_default(&s);
    const char *bad = "name = \nwindow = 12x\nkey.p1.up = NoSuchKey\nbogus\nfullscreen = 7\nname = Bob\n"
                      "key.p3.up = W\n\x01\x02garbage = \xff\n";
    char msg[200];
    int n = cl_settings_parse(&s, bad, strlen(bad), msg, sizeof msg);
    assert_true(n >= 6);
    assert_non_null(strstr(msg, "line 1"));
    assert_string_equal(s.name, "Bob");
    assert_int_equal(s.win_w, 1280);
    cl_bindings def;
    cl_bindings_default(&def);
    assert_memory_equal(&s.keys, &def, sizeof def);
    /* Binary noise never crashes and leaves valid settings. */
    char noise[512];
    for (size_t i = 0; i < sizeof noise; i++)
        noise[i] = (char)(i * 7919u >> 3);
    cl_settings_default(&s);
    cl_settings_parse(&s, noise, sizeof noise, msg, sizeof msg);
    assert_null(cl_name_problem(s.name));
    assert_null(cl_bindings_check(&s.keys));
}

static void test_settings_missing_and_unwritable(void **ctx)
{
    (void)ctx;
    cl_settings s;
    char msg[200];
    assert_null(cl_settings_load(&s, "/nonexistent/dir/settings.txt", msg, sizeof msg));
    assert_string_equal(s.name, "Player");
    assert_non_null(cl_settings_save(&s, "/nonexistent/dir/settings.txt"));
}

static void test_bindings_conflicts_refused(void **ctx)
{
    (void)ctx;
    cl_bindings b;
    cl_bindings_default(&b);
    assert_null(cl_bindings_check(&b));
    cl_bindings before = b;
    assert_non_null(cl_bindings_set(&b, 0, CL_ACT_UP, SDLK_UP));     /* player 2's key */
    assert_non_null(cl_bindings_set(&b, 1, CL_ACT_CW, SDLK_a));      /* player 1's key */
    assert_non_null(cl_bindings_set(&b, 0, CL_ACT_UP, SDLK_ESCAPE)); /* reserved */
    assert_non_null(cl_bindings_set(&b, 0, CL_ACT_UP, SDLK_F11));
    assert_memory_equal(&b, &before, sizeof b);
    assert_null(cl_bindings_set(&b, 0, CL_ACT_UP, SDLK_w)); /* its own key again */
    int act;
    assert_int_equal(cl_bindings_lookup(&b, SDLK_RIGHT, &act), 1);
    assert_int_equal(act, CL_ACT_RIGHT);
    assert_int_equal(cl_bindings_lookup(&b, SDLK_z, &act), -1);
    /* The two default hands share no key. */
    for (int a = 0; a < CL_ACT_COUNT; a++)
        for (int c = 0; c < CL_ACT_COUNT; c++)
            assert_true(b.key[0][a] != b.key[1][c]);
}

static void test_script_parse(void **ctx)
{
    (void)ctx;
    char err[200];
    const char *ok = "# demo\n0 wait race\n+100 key Left\n250 click 10 20\n+5 drag 1 2 3 4\n+1 text hello\n"
                     "+1 pad a\n+1 tap 5 6\n+1 swipe 1 2 3 4\n+1 screenshot /tmp/x.bmp\n+1 quit\n";
    cl_script *s = cl_script_parse(ok, strlen(ok), err, sizeof err);
    assert_non_null(s);
    assert_int_equal(cl_script_count(s), 10);
    assert_int_equal(cl_script_line_at(s, 7)->op, CL_SOP_SWIPE);
    assert_int_equal(cl_script_line_at(s, 1)->op, CL_SOP_KEY);
    assert_int_equal(cl_script_line_at(s, 1)->key, SDLK_LEFT);
    assert_true(cl_script_line_at(s, 1)->relative);
    assert_int_equal(cl_script_line_at(s, 2)->x0, 10);
    /* Timing: absolute lines wait for their time, relative ones for the gap. */
    assert_non_null(cl_script_due(s, 1000)); /* wait line, due at once */
    cl_script_advance(s, 1000);
    assert_null(cl_script_due(s, 1050));
    assert_non_null(cl_script_due(s, 1100));
    cl_script_destroy(s);
    const char *bad[] = {"x key Left\n",      "10 key NoSuchKey\n", "10 jump\n",       "10 click 1\n",
                         "10 wait nowhere\n", "10 quit now\n",      "10 click 1 2 3\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_null(cl_script_parse(bad[i], strlen(bad[i]), err, sizeof err));
        assert_non_null(strstr(err, "line 1"));
    }
}

static void test_args(void **ctx)
{
    (void)ctx;
    cl_args a;
    char err[200];
    char *ok[] = {"mazerace", "--headless", "--hotseat", "maze#3", "--series",
                  "3",        "--size",     "800x600",   NULL};
    assert_null(cl_args_parse(&a, 8, ok, err, sizeof err));
    assert_true(a.headless);
    assert_string_equal(a.hotseat_id, "maze#3");
    assert_int_equal(a.series, 3);
    assert_int_equal(a.width, 800);
    char *bad1[] = {"mazerace", "--frobnicate", NULL};
    assert_non_null(cl_args_parse(&a, 2, bad1, err, sizeof err));
    char *bad2[] = {"mazerace", "--series", "0", NULL};
    assert_non_null(cl_args_parse(&a, 3, bad2, err, sizeof err));
    char *bad3[] = {"mazerace", "--hotseat", "maze", "--vs-computer", "ice", NULL};
    assert_non_null(cl_args_parse(&a, 5, bad3, err, sizeof err));
    char *bad4[] = {"mazerace", "--script", NULL};
    assert_non_null(cl_args_parse(&a, 2, bad4, err, sizeof err));
}

static void test_view_fit_and_camera(void **ctx)
{
    (void)ctx;
    cl_view v;
    SDL_Rect area = {10, 20, 600, 400};
    /* A small board fits, centred, all cells visible. */
    cl_view_fit(&v, area, 10, 8, 18, 96, 0, 0);
    assert_int_equal(v.cell, 50);
    assert_int_equal(v.ox, 10 + (600 - 500) / 2);
    assert_int_equal(v.x1 - v.x0, 10);
    int cx, cy;
    assert_true(cl_view_cell_at(&v, v.ox + 3 * 50 + 1, v.oy + 2 * 50 + 49, &cx, &cy));
    assert_int_equal(cx, 3);
    assert_int_equal(cy, 2);
    assert_false(cl_view_cell_at(&v, v.ox - 1, v.oy, &cx, &cy));
    /* A 1000x1000 maze keeps readable cells and shows only what fits, around
     * the camera, clamped at the board's edge. */
    cl_view_fit(&v, area, 1000, 1000, 18, 96, 500, 500);
    assert_int_equal(v.cell, 18);
    assert_true(v.x1 - v.x0 <= 600 / 18 + 2);
    assert_true(v.x0 <= 500 && v.x1 > 500);
    SDL_Rect c = cl_view_cell_rect(&v, 500, 500);
    assert_true(c.x >= area.x && c.x + c.w <= area.x + area.w);
    cl_view_fit(&v, area, 1000, 1000, 18, 96, 0, 999);
    assert_int_equal(v.x0, 0);
    assert_int_equal(v.y1, 1000);
    assert_int_equal(v.ox, area.x);
}

/* A backend that records moves and answers nothing by itself. */
typedef struct fake {
    cl_backend base;
    uint32_t seqs[16];
    int n;
} fake;
static void f_update(cl_backend *b, uint64_t t)
{
    (void)b, (void)t;
}
static bool f_poll(cl_backend *b, cl_event *e)
{
    (void)b, (void)e;
    return false;
}
static void f_move(cl_backend *b, int s, uint32_t seq, pz_move mv, uint64_t t)
{
    (void)s, (void)mv, (void)t;
    fake *f = (fake *)b;
    if (f->n < 16)
        f->seqs[f->n++] = seq;
}
static void f_nop(cl_backend *b, uint64_t t)
{
    (void)b, (void)t;
}
static const pz_puzzle *f_puzzle(cl_backend *b)
{
    (void)b;
    return NULL;
}
static const pz_state *f_state(cl_backend *b, int s)
{
    (void)b, (void)s;
    return NULL;
}
static void f_destroy(cl_backend *b)
{
    (void)b;
}
static const cl_backend_ops fake_ops = {f_update, f_poll,  f_move,    f_nop, f_nop,
                                        f_puzzle, f_state, f_destroy, NULL};

static void test_prediction_and_rollback(void **ctx)
{
    (void)ctx;
    char err[200];
    pz_puzzle *pz = pz_from_id("maze:9x7:easy#5", err, sizeof err);
    assert_non_null(pz);
    const pz_kind *k = pz_kind_of(pz);
    pz_move sol[256];
    int n = k->solve(pz, NULL, sol, 256);
    assert_true(n >= 3);
    fake f = {.base = {.ops = &fake_ops}};
    cl_race r;
    memset(&r, 0, sizeof r);
    cl_race_reset(&r, pz, true, false);
    /* Before the start nothing moves. */
    assert_non_null(cl_race_play(&r, &f.base, 0, sol[0], 10));
    r.racing = true;
    int x0, y0, x, y;
    maze_pos(r.p[0].shown, &x0, &y0);
    for (int i = 0; i < 3; i++)
        assert_null(cl_race_play(&r, &f.base, 0, sol[i], 10));
    assert_int_equal(f.n, 3);
    assert_int_equal(r.p[0].npending, 3);
    pz_state *expect = k->new_state(pz);
    for (int i = 0; i < 3; i++)
        assert_null(k->execute_move(pz, expect, sol[i], expect));
    int ex, ey;
    maze_pos(expect, &ex, &ey);
    maze_pos(r.p[0].shown, &x, &y);
    assert_int_equal(x, ex);
    assert_int_equal(y, ey);
    /* Ack the first, reject the second: the shown state becomes start +
     * move 1 + move 3 if move 3 still applies, else start + move 1. */
    cl_event ev = {.type = CL_BE_ACK, .slot = 0, .seq = f.seqs[0]};
    cl_race_event(&r, &ev, 20);
    assert_int_equal(r.p[0].npending, 2);
    cl_event rej = {.type = CL_BE_REJECT, .slot = 0, .seq = f.seqs[1]};
    snprintf(rej.text, sizeof rej.text, "test says no");
    cl_race_event(&r, &rej, 30);
    assert_int_equal(r.p[0].npending, 1);
    assert_non_null(strstr(r.p[0].hint, "test says no"));
    assert_true(r.p[0].hint_until > 30);
    pz_state *e2 = k->new_state(pz);
    k->execute_move(pz, e2, sol[0], e2);
    k->execute_move(pz, e2, sol[2], e2);
    maze_pos(e2, &ex, &ey);
    maze_pos(r.p[0].shown, &x, &y);
    assert_int_equal(x, ex);
    assert_int_equal(y, ey);
    /* An illegal move is refused locally with a hint and never sent. */
    int sent = f.n;
    pz_move wall = {PZ_MOVE_STEP, PZ_LEFT, 0, 0};
    cl_race_reset(&r, pz, true, false);
    r.racing = true;
    assert_non_null(cl_race_play(&r, &f.base, 0, wall, 40)); /* start is bottom-left: no way left */
    assert_int_equal(f.n, sent);
    assert_true(r.p[0].hint[0] != '\0');
    /* The ghost replays the opponent's moves; a gap falls back to progress. */
    cl_event pr = {.type = CL_BE_PROGRESS, .slot = 1, .move = sol[0], .moves = 1};
    cl_race_event(&r, &pr, 50);
    maze_pos(r.p[1].shown, &x, &y);
    k->copy_state(e2, r.p[0].confirmed);
    k->execute_move(pz, e2, sol[0], e2);
    maze_pos(e2, &ex, &ey);
    assert_int_equal(x, ex);
    assert_int_equal(y, ey);
    assert_false(r.p[1].ghost_lost);
    pr.moves = 5;
    pr.progress.x = 2;
    pr.progress.y = 3;
    cl_race_event(&r, &pr, 60);
    assert_true(r.p[1].ghost_lost);
    cl_race_focus(&r, 1, &x, &y);
    assert_int_equal(x, 2);
    assert_int_equal(y, 3);
    k->free_state(expect);
    k->free_state(e2);
    cl_race_free(&r);
    k->free_puzzle(pz);
}

static void test_ice_restart_key_path(void **ctx)
{
    (void)ctx;
    char err[200];
    pz_puzzle *pz = pz_from_id("ice:12x10:easy#4", err, sizeof err);
    assert_non_null(pz);
    const pz_kind *k = pz_kind_of(pz);
    pz_move sol[64];
    assert_true(k->solve(pz, NULL, sol, 64) >= 2);
    fake f = {.base = {.ops = &fake_ops}};
    cl_race r;
    memset(&r, 0, sizeof r);
    cl_race_reset(&r, pz, true, false);
    r.racing = true;
    pz_move restart = {PZ_MOVE_RESTART, 0, 0, 0};
    assert_non_null(cl_race_play(&r, &f.base, 0, restart, 1)); /* refused at the start */
    assert_null(cl_race_play(&r, &f.base, 0, sol[0], 2));
    assert_null(cl_race_play(&r, &f.base, 0, restart, 3));
    assert_int_equal(r.p[0].moves, 2);
    int x, y, sx, sy;
    cl_race_focus(&r, 0, &x, &y);
    pz_state *st = k->new_state(pz);
    pz_progress pr;
    k->progress(pz, st, &pr);
    sx = pr.x, sy = pr.y;
    assert_int_equal(x, sx);
    assert_int_equal(y, sy);
    k->free_state(st);
    cl_race_free(&r);
    k->free_puzzle(pz);
    SDL_Keycode key = SDLK_r;
    cl_bindings b;
    cl_bindings_default(&b);
    int act;
    assert_int_equal(cl_bindings_lookup(&b, key, &act), 0);
    assert_int_equal(act, CL_ACT_RESTART);
}

/* A press on a cell in line with the player (the path head for sum) steps
 * towards it: a neighbour in the step kinds, any distance on ice; a
 * diagonal, the player's own cell or a far cell in a maze is no move. */
static void test_pointer_steps_from_the_player(void **ctx)
{
    (void)ctx;
    static const char *const ids[] = {"sum:5x4:easy#3", "maze:9x7:easy#5", "ice:12x10:easy#4"};
    for (int i = 0; i < 3; i++) {
        char err[200];
        pz_puzzle *pz = pz_from_id(ids[i], err, sizeof err);
        assert_non_null(pz);
        const pz_kind *k = pz_kind_of(pz);
        const cl_kind_render *kr = cl_render_for(k->id);
        pz_state *st = k->new_state(pz);
        pz_progress at;
        k->progress(pz, st, &at);
        bool ice = k->id == PZ_ICE;
        pz_move mv;
        assert_true(kr->pointer(pz, st, at.x + 1, at.y, 1, false, &mv));
        assert_int_equal(mv.type, PZ_MOVE_STEP);
        assert_int_equal(mv.dir, PZ_RIGHT);
        assert_int_equal(mv.x, 0);
        assert_int_equal(mv.y, 0);
        assert_true(kr->pointer(pz, st, at.x, at.y - 1, 1, false, &mv));
        assert_int_equal(mv.dir, PZ_UP);
        assert_int_equal(kr->pointer(pz, st, at.x, at.y - 3, 1, false, &mv), ice);
        if (ice)
            assert_int_equal(mv.dir, PZ_UP);
        assert_false(kr->pointer(pz, st, at.x + 1, at.y - 1, 1, false, &mv));
        assert_false(kr->pointer(pz, st, at.x, at.y, 1, false, &mv));
        assert_false(kr->pointer(pz, st, at.x + 1, at.y, 3, false, &mv));
        /* A drag steps on with the step kinds; ice slides on a press only. */
        assert_int_equal(kr->pointer(pz, st, at.x + 1, at.y, 1, true, &mv), !ice);
        k->free_state(st);
        k->free_puzzle(pz);
    }
}

/* A backend's events come out in the order made, across the ring's end;
 * past 64 waiting, the newest are dropped. */
static void test_event_queue_order_and_limit(void **ctx)
{
    (void)ctx;
    cl_event_queue q;
    memset(&q, 0, sizeof q);
    cl_event ev = {.type = CL_BE_INFO};
    assert_false(cl_event_queue_pop(&q, &ev));
    uint32_t next = 0;
    for (uint32_t seq = 0; seq < 100; seq++) { /* three in, two out: the head goes round */
        ev.seq = seq;
        cl_event_queue_push(&q, &ev);
        if (seq % 3 == 2)
            for (int i = 0; i < 2; i++) {
                assert_true(cl_event_queue_pop(&q, &ev));
                assert_int_equal(ev.seq, next++);
            }
    }
    int n = q.n;
    assert_int_equal(n, 100 - 2 * 33);
    assert_int_equal(next, 2 * 33);
    for (uint32_t seq = 100; seq < 200; seq++) {
        ev.seq = seq;
        cl_event_queue_push(&q, &ev);
    }
    for (int i = 0; i < 64; i++) {
        assert_true(cl_event_queue_pop(&q, &ev));
        assert_int_equal(ev.seq, next++);
    }
    assert_false(cl_event_queue_pop(&q, &ev));
    assert_int_equal(next, 100 + 64 - n); /* 100.. up to the limit came in, the rest dropped */
}

static void test_layout_800x600_and_up(void **ctx)
{
    (void)ctx;
    int sizes[][2] = {{800, 600}, {1280, 720}, {1920, 1080}, {3840, 2160}};
    for (size_t i = 0; i < 4; i++) {
        for (int hs = 0; hs < 2; hs++) {
            cl_layout L;
            cl_layout_race(sizes[i][0], sizes[i][1], hs, 0, &L);
            for (int s = 0; s < 2; s++) {
                SDL_Rect b = L.board[s];
                assert_true(b.w > 100 && b.h > 100);
                assert_true(b.x >= 0 && b.y >= L.hud.h && b.x + b.w <= sizes[i][0] &&
                            b.y + b.h <= sizes[i][1]);
            }
            SDL_Rect a = L.board[0], b = L.board[1];
            bool overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
            assert_false(overlap);
            if (!hs)
                assert_true(L.board[0].w > 2 * L.board[1].w); /* own board large, ghost small */
        }
    }
}

/* The errors a player can meet from a server are said in plain words. */
static void test_server_errors_in_plain_words(void **ctx)
{
    (void)ctx;
    assert_non_null(strstr(cl_wire_error_words(WIRE_ERR_VERSION, "v2 != v1"), "Version mismatch"));
    assert_non_null(strstr(cl_wire_error_words(WIRE_ERR_ROOM_FULL, ""), "room is full"));
    assert_non_null(strstr(cl_wire_error_words(WIRE_ERR_NO_ROOM, ""), "Unknown room code"));
    assert_non_null(strstr(cl_wire_error_words(WIRE_ERR_FULL, ""), "server is full"));
    assert_non_null(strstr(cl_wire_error_words(WIRE_ERR_FULL, "server full"), "server is full"));
    assert_non_null(
        strstr(cl_wire_error_words(WIRE_ERR_FULL, "Too many players from your address"), "address"));
    assert_non_null(strstr(cl_wire_error_words(WIRE_ERR_DRAINING, "x"), "The server is restarting"));
    assert_non_null(
        strstr(cl_wire_error_words(WIRE_ERR_RESUME, "no such room"), "Could not get back into the game"));
    assert_string_equal(cl_wire_error_words(WIRE_ERR_BAD_PARAMS, "board too large for this kind"),
                        "board too large for this kind");
    assert_non_null(strstr(cl_wire_error_words(WIRE_ERR_BAD_PARAMS, ""), "refused"));
    /* Codes without words of our own show the server's text, or a fallback. */
    assert_string_equal(cl_wire_error_words(250, "no such thing"), "no such thing");
    assert_non_null(strstr(cl_wire_error_words(250, ""), "error"));
    assert_non_null(strstr(cl_wire_error_words(250, NULL), "error"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_settings_round_trip),
        cmocka_unit_test(test_settings_bad_lines_fall_back),
        cmocka_unit_test(test_settings_missing_and_unwritable),
        cmocka_unit_test(test_bindings_conflicts_refused),
        cmocka_unit_test(test_script_parse),
        cmocka_unit_test(test_args),
        cmocka_unit_test(test_view_fit_and_camera),
        cmocka_unit_test(test_prediction_and_rollback),
        cmocka_unit_test(test_ice_restart_key_path),
        cmocka_unit_test(test_pointer_steps_from_the_player),
        cmocka_unit_test(test_event_queue_order_and_limit),
        cmocka_unit_test(test_layout_800x600_and_up),
        cmocka_unit_test(test_server_errors_in_plain_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
