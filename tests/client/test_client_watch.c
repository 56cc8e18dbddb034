/* test_client_watch.c: the headless client watching two bots race on the real server: both boards at equal
 * size in the players' frames with their markers, the result panel, and the result the bots saw. */
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
#include "cl_test_util.h"

#if defined(MR_SERVER_BIN) && defined(MR_BOT_BIN)

enum { W = 1280, H = 720 };

static char out[1 << 16];

/* Share of the pixels of r that are dark (every channel below 80). */
static double dark_share(SDL_Surface *s, SDL_Rect r)
{
    int dark = 0, all = 0;
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++, all++) {
            SDL_Color c = clt_pixel(s, x, y);
            dark += c.r < 80 && c.g < 80 && c.b < 80;
        }
    return all ? (double)dark / all : 0;
}

static void test_watch_two_bots(void **ctx)
{
    (void)ctx;
    int port, sport;
    char addr[64];
    /* Spectators on a port of their own: the client follows WATCH_AT there. */
    pid_t sv = clt_start_server_spectators(&port, &sport, addr, sizeof addr);
    assert_true(sv > 0);
    assert_true(sport > 0 && sport != port);
    const char *bot_argv[] = {MR_BOT_BIN, "--server",   addr,     "--bots",    "2",      "--name", "Ada",
                              "--kind",   "maze",       "--size", "15x11",     "--seed", "7",      "--pace",
                              "120",      "--mistakes", "0.2",    "--timeout", "60",     NULL};
    char blog[512]; /* clt_path's buffers are reused */
    snprintf(blog, sizeof blog, "%s", clt_path("watchbots.log"));
    pid_t bots = clt_spawn(bot_argv, blog);
    /* The client watches the first race the server lists (asking again
     * until the bots have one), a screenshot mid-race (after the countdown
     * and its GO!), then the result. */
    char script[512];
    snprintf(script, sizeof script,
             "0 wait watching\n+2500 screenshot %s\n+0 wait watch-results\n+300 screenshot %s\n+100 quit\n",
             clt_path("watch-mid.bmp"), clt_path("watch-end.bmp"));
    assert_true(clt_write(clt_path("watch.txt"), script));
    const char *args[] = {"--headless",
                          "--size",
                          "1280x720",
                          "--join",
                          addr,
                          "--watch",
                          "any",
                          "--name",
                          "Watcher",
                          "--script",
                          clt_path("watch.txt"),
                          "--max-seconds",
                          "60",
                          NULL};
    int rc = clt_run(args, out, sizeof out, 90000);
    int status = 0;
    bool bots_done = clt_wait_exit(bots, 30000, &status);
    if (!bots_done)
        clt_stop(bots);
    clt_stop(sv);
    assert_int_equal(rc, 0);

    /* It watched at the spectator port. */
    char at[64];
    snprintf(at, sizeof at, "at server port %d", sport);
    assert_non_null(strstr(out, at));
    /* The result the spectator printed is the one the players saw. */
    const char *res = strstr(out, "RESULT winner=");
    assert_non_null(res);
    int winner = -1;
    unsigned m0 = 0, m1 = 0;
    assert_int_equal(sscanf(res, "RESULT winner=%d", &winner), 1);
    const char *p0 = strstr(res, "moves0="), *p1 = strstr(res, "moves1=");
    assert_non_null(p0);
    assert_non_null(p1);
    m0 = (unsigned)atoi(p0 + 7);
    m1 = (unsigned)atoi(p1 + 7);
    assert_true(winner == 0 || winner == 1);
    char rest[256], want[64];
    assert_true(clt_wait_for(blog, "match Ada-1 #1 (", rest, sizeof rest, 1000));
    snprintf(want, sizeof want, "moves %u/%u;", m0, m1);
    assert_non_null(strstr(rest, want));

    cl_layout L;
    cl_layout_watch(W, H, &L);
    assert_int_equal(L.board[0].w, L.board[1].w);
    assert_int_equal(L.board[0].h, L.board[1].h);
    assert_true(L.ghost[0] && L.ghost[1]);
    SDL_Surface *mid = clt_load(clt_path("watch-mid.bmp"));
    assert_non_null(mid);
    assert_int_equal(mid->w, W);
    for (int s = 0; s < 2; s++) {
        SDL_Rect b = L.board[s];
        /* Each board framed in its player's colour on both sides... */
        assert_true(clt_same(clt_pixel(mid, b.x - 1, b.y + b.h / 4), cl_col_player[s], 8));
        assert_true(clt_same(clt_pixel(mid, b.x + b.w, b.y + b.h / 4), cl_col_player[s], 8));
        /* ... with that player's marker on it, and not the other's. */
        SDL_Rect in = {b.x + 4, b.y + 4, b.w - 8, b.h - 8};
        assert_true(clt_count(mid, in, cl_col_player[s], 8) > 40);
        assert_true(clt_count(mid, in, cl_col_player[s ^ 1], 8) < 10);
    }
    /* No result yet mid-race: the boards' light cells show where the panel goes. */
    SDL_Rect pr = cl_watch_result_rect(W, H);
    SDL_Rect strip = {pr.x + 6, pr.y + 6, 14, pr.h - 12};
    assert_true(dark_share(mid, strip) < 0.9);
    SDL_FreeSurface(mid);

    SDL_Surface *end = clt_load(clt_path("watch-end.bmp"));
    assert_non_null(end);
    assert_true(dark_share(end, strip) > 0.95);
    SDL_Rect strip_r = {pr.x + pr.w - 20, pr.y + 6, 14, pr.h - 12};
    assert_true(dark_share(end, strip_r) > 0.95);
    /* The winner's name in their colour on the panel. */
    SDL_Rect inner = {pr.x + 24, pr.y + 4, pr.w - 48, pr.h / 2};
    assert_true(clt_count(end, inner, cl_col_player[winner], 12) > 100);
    SDL_FreeSurface(end);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_watch_two_bots),
    };
    return clt_finish(cmocka_run_group_tests(tests, NULL, NULL));
}

#else

int main(void)
{
    puts("test_client_watch: server or bot not built; nothing to test");
    return 0;
}

#endif
