/* test_client_replay.c: the replay player: its model (seeking against the engine, the cost of a seek on a
 * long replay, speeds, steps), and the real client headless: --replay, keys, the timeline dragged, a file
 * dropped on the window, bad files refused with line:column, pixels of both boards and the bar. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cl_app.h"
#include "cl_draw.h"
#include "cl_rview.h"
#include "cl_test_util.h"
#include "rng.h"
#include "util.h"

enum { W = 1280, H = 720 };

static char out[1 << 16];

static const char *example(void)
{
    return MR_SOURCE_DIR "/tests/replays/maze-8x6.replay";
}

/* Both players wander at random on id (legal moves only, one every 250 ms
 * each) until the move limit or a solve: a long replay. */
static replay *wander(const char *id, uint64_t seed)
{
    char err[160];
    match_config cfg;
    match_config_default(&cfg);
    cfg.countdown_ms = 0;
    match *m = match_create_from_id(id, &cfg, 1, err, sizeof err);
    assert_non_null(m);
    assert_null(match_join(m, 0, "ann", 0, NULL));
    assert_null(match_join(m, 1, "bob", 0, NULL));
    assert_null(match_ready(m, 0, true, 0));
    assert_null(match_ready(m, 1, true, 0));
    rng_t r;
    rng_seed(&r, seed);
    match_event ev;
    uint64_t t = 0;
    uint32_t limit = match_move_limit(m);
    while (match_phase(m) == MATCH_RACING && match_moves(m, 0) < limit && match_moves(m, 1) < limit) {
        t += 125;
        int s = (int)(t / 125 % 2);
        for (int tries = 0; tries < 16; tries++) {
            pz_move mv = {PZ_MOVE_STEP, (uint8_t)rng_below(&r, 4), 0, 0};
            if (!match_move(m, s, 0, mv, t, NULL))
                break;
        }
        while (match_poll_event(m, &ev))
            ;
    }
    if (match_phase(m) == MATCH_RACING)
        match_abort(m, t + 1000);
    const char *why = NULL;
    replay *rp = replay_from_match(m, NULL, &why);
    assert_non_null(rp);
    match_destroy(m);
    return rp;
}

static bool same_progress(const pz_puzzle *pz, const pz_state *a, const pz_state *b)
{
    pz_progress pa, pb;
    memset(&pa, 0, sizeof pa);
    memset(&pb, 0, sizeof pb);
    pz_kind_of(pz)->progress(pz, a, &pa);
    pz_kind_of(pz)->progress(pz, b, &pb);
    return pa.x == pb.x && pa.y == pb.y && pa.path_len == pb.path_len && pa.value == pb.value &&
           pa.solved == pb.solved;
}

/* Any seek lands on the engine's states, with a bounded number of moves
 * replayed; prints what a seek costs against replaying from the start. */
static void test_seek_long_replay(void **ctx)
{
    (void)ctx;
    replay *rp = wander("maze:61x45:medium#3", 11);
    size_t n = replay_move_count(rp);
    printf("long replay: %zu moves, %u ms\n", n, replay_get_end(rp).end_ms);
    assert_true(n > 10000);
    pz_error e;
    cl_rview *v = cl_rview_create(rp, &e);
    assert_non_null(v);
    size_t every = cl_rview_snapshot_every(v);
    printf("snapshots: %zu, one every %zu moves\n", cl_rview_snapshots(v), every);
    assert_true(cl_rview_snapshots(v) <= 513);
    rng_t r;
    rng_seed(&r, 5);
    size_t worst = 0;
    for (int i = 0; i < 60; i++) {
        size_t at = rng_below(&r, (uint32_t)n + 1);
        cl_rview_seek_move(v, at);
        if (cl_rview_last_cost(v) > worst)
            worst = cl_rview_last_cost(v);
        assert_int_equal(cl_rview_pos(v), at);
        match *m = replay_match_at(cl_rview_replay(v), at, &e);
        assert_non_null(m);
        for (int s = 0; s < 2; s++) {
            assert_int_equal(cl_rview_moves(v, s), match_moves(m, s));
            assert_true(same_progress(cl_rview_puzzle(v), cl_rview_state(v, s), match_state(m, s)));
        }
        match_destroy(m);
    }
    printf("worst seek: %zu moves replayed (bound %zu)\n", worst, every);
    assert_true(worst <= every);
    /* What a seek costs, against building the match from the start: the
     * figures docs/client.md quotes (printed, not asserted). */
    enum { SEEKS = 2000 };
    uint64_t t0 = mr_now_us();
    for (int i = 0; i < SEEKS; i++)
        cl_rview_seek(v, (uint32_t)rng_below(&r, cl_rview_length(v) + 1));
    uint64_t t1 = mr_now_us();
    for (int i = 0; i < 20; i++)
        match_destroy(replay_match_at(cl_rview_replay(v), rng_below(&r, (uint32_t)n + 1), &e));
    uint64_t t2 = mr_now_us();
    printf("RESULT replay_seek moves=%zu snapshot_us_per_seek=%.1f from_start_us_per_seek=%.1f\n", n,
           (double)(t1 - t0) / SEEKS, (double)(t2 - t1) / 20);
    cl_rview_destroy(v);
}

static cl_rview *example_view(void)
{
    pz_error e;
    replay *rp = replay_read_file(example(), &e);
    assert_non_null(rp);
    cl_rview *v = cl_rview_create(rp, &e);
    assert_non_null(v);
    return v;
}

/* Speeds scale the clock; playback pauses at the end and starts again from
 * the start; steps go one move either way. */
static void test_play_speed_step(void **ctx)
{
    (void)ctx;
    cl_rview *v = example_view();
    assert_int_equal(cl_rview_length(v), 5542);
    assert_int_equal(cl_rview_pos(v), 0);
    assert_int_equal(cl_rview_speed(v), CL_RVIEW_SPEED_1X);
    cl_rview_tick(v, 500); /* paused: nothing */
    assert_int_equal(cl_rview_time(v), 0);
    cl_rview_play(v, true);
    cl_rview_tick(v, 1000);
    assert_int_equal(cl_rview_time(v), 1000);
    assert_int_equal(cl_rview_pos(v), 1); /* the move at 900 ms */
    cl_rview_set_speed(v, 0);
    cl_rview_tick(v, 1000); /* 0.25x */
    assert_int_equal(cl_rview_time(v), 1250);
    assert_int_equal(cl_rview_pos(v), 1); /* the next move is at 1317 */
    cl_rview_set_speed(v, 99);
    assert_int_equal(cl_rview_speed(v), CL_RVIEW_SPEEDS - 1);
    assert_string_equal(cl_rview_speed_text(cl_rview_speed(v)), "8x");
    cl_rview_tick(v, 100); /* 8x */
    assert_int_equal(cl_rview_time(v), 2050);
    cl_rview_tick(v, 10000);
    assert_true(cl_rview_at_end(v));
    assert_false(cl_rview_playing(v));
    assert_int_equal(cl_rview_time(v), 5542);
    assert_true(cl_rview_solved(v, 0));
    assert_false(cl_rview_solved(v, 1));
    assert_int_equal(cl_rview_moves(v, 0), 12);
    assert_int_equal(cl_rview_moves(v, 1), 8);
    cl_rview_play(v, true); /* at the end: from the start */
    assert_int_equal(cl_rview_time(v), 0);
    assert_int_equal(cl_rview_pos(v), 0);
    cl_rview_step(v, 1);
    assert_false(cl_rview_playing(v));
    assert_int_equal(cl_rview_pos(v), 1);
    assert_int_equal(cl_rview_time(v), 900);
    cl_rview_step(v, 1);
    cl_rview_step(v, -1);
    assert_int_equal(cl_rview_pos(v), 1);
    cl_rview_step(v, -1);
    cl_rview_step(v, -1);
    assert_int_equal(cl_rview_pos(v), 0);
    assert_int_equal(cl_rview_time(v), 0);
    cl_rview_seek(v, 1500);
    assert_int_equal(cl_rview_pos(v), 3);
    cl_rview_seek(v, 99999);
    assert_int_equal(cl_rview_time(v), 5542);
    cl_rview_step(v, 1); /* past the last move: stays at the end */
    assert_true(cl_rview_at_end(v));
    cl_rview_destroy(v);
    /* A replay that does not check is refused with its line. */
    pz_error e;
    static const char text[] = "mazerace-replay 1\ngame maze:8x6:2hz41oeEHz5NPGFE\nplayer 0 a\nplayer 1 b\n"
                               "move 10 0 L\nend 10 aborted -\n";
    replay *bad = replay_parse(text, sizeof text - 1, &e);
    assert_non_null(bad);
    assert_null(cl_rview_create(bad, &e));
    assert_int_equal(e.line, 5);
    assert_null(cl_rview_create(NULL, &e));
}

/* Where slot's marker is after the first n moves of the example, in the
 * replay screen's layout at W x H. */
static SDL_Point marker_at(size_t n, int slot)
{
    pz_error e;
    replay *rp = replay_read_file(example(), &e);
    match *m = replay_match_at(rp, n, &e);
    assert_non_null(m);
    pz_progress pr;
    const pz_puzzle *pz = match_puzzle(m);
    pz_kind_of(pz)->progress(pz, match_state(m, slot), &pr);
    cl_replay_layout L;
    cl_layout_replay(W, H, &L);
    cl_race race;
    memset(&race, 0, sizeof race);
    race.pz = pz;
    cl_view v;
    cl_layout_view(&L.race, &race, slot, &v);
    SDL_Rect c = cl_view_cell_rect(&v, pr.x, pr.y);
    match_destroy(m);
    replay_destroy(rp);
    return (SDL_Point){c.x + c.w / 2, c.y + c.h / 2};
}

static int accent_in_timeline(SDL_Surface *s)
{
    cl_replay_layout L;
    cl_layout_replay(W, H, &L);
    return clt_count(s, L.timeline, cl_col_accent, 12);
}

/* --replay FILE: steps, the end, the timeline dragged, playback, all seen
 * in the output and in the pixels. */
static void test_player_headless(void **ctx)
{
    (void)ctx;
    cl_replay_layout L;
    cl_layout_replay(W, H, &L);
    SDL_Rect tl = L.timeline;
    int ty = L.bar.y + L.bar.h / 2;
    char script[2048];
    snprintf(script, sizeof script,
             "0 wait replay\n+0 key Space\n+0 key Home\n+100 screenshot %s\n"
             "+50 key Right\n+50 key Right\n+50 key Right\n+50 key Right\n+50 key Right\n+100 screenshot %s\n"
             "+50 key End\n+100 screenshot %s\n"
             "+50 drag %d %d %d %d\n+100 screenshot %s\n"
             "+50 key Up\n+50 key Up\n+50 key Up\n+50 key Space\n+0 wait replay-end\n"
             "+50 click %d %d\n+50 pad dpleft\n+50 tap %d %d\n+50 pad a\n+50 pad a\n+50 quit\n",
             clt_path("start.bmp"), clt_path("five.bmp"), clt_path("end.bmp"), tl.x + 10, ty, tl.x + tl.w / 2,
             ty, clt_path("half.bmp"), L.button[CL_RB_BACK].x + 5, L.button[CL_RB_BACK].y + 5,
             L.button[CL_RB_STEP].x + 5, L.button[CL_RB_STEP].y + 5);
    assert_true(clt_write(clt_path("player.txt"), script));
    const char *args[] = {
        "--headless",           "--size",        "1280x720", "--replay", example(), "--script",
        clt_path("player.txt"), "--max-seconds", "60",       NULL};
    assert_int_equal(clt_run(args, out, sizeof out, 90000), 0);
    assert_non_null(strstr(out, "REPLAY open maze-8x6.replay game=maze:8x6:2hz41oeEHz5NPGFE players=ann,bob "
                                "moves=20 length=5542"));
    /* The replay opens playing: the first Space pauses it, before any step. */
    const char *pause = strstr(out, "REPLAY pause pos=");
    assert_non_null(pause);
    assert_true(pause < strstr(out, "REPLAY step pos="));
    assert_non_null(strstr(out, "REPLAY step pos=5/20 t=2003 moves=3,2 speed=1x paused"));
    assert_non_null(strstr(out, "REPLAY end pos=20/20 t=5542 moves=12,8 speed=1x paused"));
    assert_non_null(strstr(out, "REPLAY speed pos=")); /* Up three times: 8x */
    assert_non_null(strstr(out, "speed=8x playing"));
    assert_non_null(strstr(out, "REPLAY end pos=20/20 t=5542 moves=12,8 speed=8x paused"));
    assert_non_null(strstr(out, "REPLAY back pos=19/20 t=5115 moves=11,8")); /* the < button */
    assert_non_null(strstr(out, "REPLAY back pos=18/20 t=5054 moves=10,8")); /* the pad's d-pad */
    assert_non_null(strstr(out, "REPLAY step pos=19/20 t=5115 moves=11,8")); /* a tap on > */
    assert_non_null(strstr(out, "REPLAY play pos=19/20 t=5115 moves=11,8")); /* pad A, twice */
    assert_non_null(strstr(out, "REPLAY pause pos=19/20"));
    /* The drag ends half-way along the timeline: the clock there. */
    char want[64];
    snprintf(want, sizeof want, "REPLAY seek pos=");
    const char *last = NULL;
    for (const char *p = strstr(out, want); p; p = strstr(p + 1, want))
        last = p;
    assert_non_null(last);
    unsigned pos, t;
    assert_int_equal(sscanf(last, "REPLAY seek pos=%u/20 t=%u", &pos, &t), 2);
    printf("drag ended at t=%u, %u moves\n", t, pos);
    assert_true(t >= 5542 / 2 - 20 && t <= 5542 / 2 + 20);

    /* Pixels: the markers where the engine puts them, the timeline filled
     * as far as the clock, SOLVED in green on the winner's board only. */
    SDL_Surface *s0 = clt_load(clt_path("start.bmp")), *s5 = clt_load(clt_path("five.bmp")),
                *se = clt_load(clt_path("end.bmp")), *sh = clt_load(clt_path("half.bmp"));
    assert_non_null(s0);
    assert_non_null(s5);
    assert_non_null(se);
    assert_non_null(sh);
    static const size_t at[] = {0, 5, 20};
    SDL_Surface *shots[] = {s0, s5, se};
    for (int k = 0; k < 3; k++)
        for (int slot = 0; slot < 2; slot++) {
            SDL_Point p = marker_at(at[k], slot);
            assert_true(clt_same(clt_pixel(shots[k], p.x, p.y), cl_col_player[slot], 10));
        }
    int a0 = accent_in_timeline(s0), a5 = accent_in_timeline(s5), ah = accent_in_timeline(sh),
        ae = accent_in_timeline(se);
    printf("timeline accent pixels: start %d, 5 moves %d, half %d, end %d\n", a0, a5, ah, ae);
    assert_true(a0 < 20);
    assert_true(a5 > a0 && ah > a5 && ae > ah);
    assert_true(ah * 2 > ae - ae / 10 && ah * 2 < ae + ae / 10); /* half-way: half filled */
    /* "SOLVED" across the middle of ann's board only (the exits, also
     * green, are in the top row). */
    int g[2];
    for (int b = 0; b < 2; b++) {
        SDL_Rect band = L.race.board[b];
        band.y += band.h / 2 - 20;
        band.h = 40;
        g[b] = clt_count(se, band, cl_col_good, 12);
    }
    printf("SOLVED pixels in the middle of the boards at the end: %d, %d\n", g[0], g[1]);
    assert_true(g[0] > 100);
    assert_int_equal(g[1], 0);
    SDL_FreeSurface(s0);
    SDL_FreeSurface(s5);
    SDL_FreeSurface(se);
    SDL_FreeSurface(sh);
}

/* A file dropped on the window opens; leaving returns to the menu; a bad
 * file dropped is said with its line:column and nothing changes; a bad
 * file given on the command line exits 2. */
static void test_drop_and_bad_files(void **ctx)
{
    (void)ctx;
    char *good = mr_read_file(example(), NULL);
    assert_non_null(good);
    char *bad = mr_alloc(strlen(good) + 1, 1);
    strcpy(bad, good);
    char *mv = strstr(bad, "move 900 0 U");
    assert_non_null(mv);
    mv[11] = 'L'; /* into the wall: line 9, column 12 */
    char badpath[512];
    snprintf(badpath, sizeof badpath, "%s", clt_path("bad.replay"));
    assert_true(clt_write(badpath, bad));
    char script[2048];
    snprintf(script, sizeof script,
             "0 wait menu\n+100 drop %s\n+200 wait menu\n+50 drop %s\n+0 wait replay\n+100 screenshot %s\n"
             "+50 key Escape\n+0 wait menu\n+100 quit\n",
             badpath, example(), clt_path("dropped.bmp"));
    assert_true(clt_write(clt_path("drop.txt"), script));
    const char *args[] = {"--headless",         "--size",        "1280x720", "--script",
                          clt_path("drop.txt"), "--max-seconds", "60",       NULL};
    assert_int_equal(clt_run(args, out, sizeof out, 90000), 0);
    assert_non_null(strstr(out, "bad.replay:9:12: move refused by the engine: a wall is in the way"));
    assert_non_null(strstr(out, "REPLAY open maze-8x6.replay"));
    SDL_Surface *s = clt_load(clt_path("dropped.bmp"));
    assert_non_null(s);
    SDL_Point p = marker_at(0, 1);
    assert_true(clt_same(clt_pixel(s, p.x, p.y), cl_col_player[1], 10));
    SDL_FreeSurface(s);

    const char *bad_args[] = {"--headless", "--size",        "1280x720", "--replay",
                              badpath,      "--max-seconds", "20",       NULL};
    assert_int_equal(clt_run(bad_args, out, sizeof out, 30000), 2);
    assert_non_null(strstr(out, "bad.replay:9:12: move refused by the engine"));
    const char *missing[] = {"--headless", "--replay", "/nonexistent/x.replay", "--max-seconds", "20", NULL};
    assert_int_equal(clt_run(missing, out, sizeof out, 30000), 2);
    assert_non_null(strstr(out, "x.replay: cannot open"));
    const char *two[] = {"--headless", "--replay", example(), "--hotseat", "maze#1", NULL};
    assert_int_equal(clt_run(two, out, sizeof out, 30000), 2);
    free(good);
    free(bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seek_long_replay),
        cmocka_unit_test(test_play_speed_step),
        cmocka_unit_test(test_player_headless),
        cmocka_unit_test(test_drop_and_bad_files),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (rc == 0)
        clt_cleanup();
    return rc;
}
