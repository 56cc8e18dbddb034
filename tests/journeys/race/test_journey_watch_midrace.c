/* test_journey_watch_midrace.c: a spectator arriving 7 s into a race (maze 41x31, bots at --pace 300)
 * with `--watch any` sees one marker per racer on each board and the clock running from the race's
 * real start, in its state (stdout) and on its pixels. */
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
#include "jr_race.h"

enum { W = 1280, H = 720, ARRIVE_MS = 7000 };

static char out[1 << 16];

static void test_spectator_arrives_mid_race(void **ctx)
{
    (void)ctx;
    char addr[64], slog[512], blog[512], script[1024], rest[256];
    snprintf(slog, sizeof slog, "%s", clt_path("server.log"));
    snprintf(blog, sizeof blog, "%s", clt_path("bots.log"));
    const char *spect[] = {"--spectator-port", "0", NULL};
    pid_t sv = jr_server(2, spect, slog, addr, sizeof addr);
    assert_true(sv > 0);
    const char *bot_argv[] = {MR_JR_BOT, "--server", addr,     "--bots",    "2",      "--kind",  "maze",
                              "--size",  "41x31",    "--seed", "7",         "--pace", "300",     "--mistakes",
                              "0.2",     "--name",   "Ada",    "--timeout", "120",    "--quiet", NULL};
    pid_t bots = clt_spawn(bot_argv, blog);
    assert_true(bots > 0);
    assert_true(clt_wait_for(slog, "game 1: countdown", rest, sizeof rest, 30000));
    /* The journey's own timing, not a wait for anything: the spectator
     * comes 7 s into the race (the countdown is 1 s). */
    clt_nap_ms(1000 + ARRIVE_MS);
    snprintf(script, sizeof script, "0 wait watching\n+1000 screenshot %s\n+1500 screenshot %s\n+100 quit\n",
             clt_path("mid-1.bmp"), clt_path("mid-2.bmp"));
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
                          "40",
                          NULL};
    int rc = clt_run(args, out, sizeof out, 60000);
    clt_stop(bots);
    clt_stop(sv);
    puts(out);
    assert_int_equal(rc, 0);

    /* The clock runs from the real start: the race began some 7 s before. */
    const char *st = strstr(out, "mazerace: race started ");
    assert_non_null(st);
    long ago = atol(st + strlen("mazerace: race started "));
    assert_true(ago >= ARRIVE_MS - 1000 && ago < ARRIVE_MS + 20000);
    /* Neither ghost lost track of its player's moves (a second marker). */
    assert_null(strstr(out, "lost track of"));
    assert_null(strstr(out, "RESULT winner=")); /* still racing at both screenshots */

    cl_layout L;
    cl_layout_watch(W, H, &L);
    SDL_Surface *shot[2] = {clt_load(clt_path("mid-1.bmp")), clt_load(clt_path("mid-2.bmp"))};
    for (int i = 0; i < 2; i++) {
        assert_non_null(shot[i]);
        assert_int_equal(shot[i]->w, W);
        for (int s = 0; s < 2; s++) {
            SDL_Rect b = L.board[s];
            SDL_Rect in = {b.x + 4, b.y + 4, b.w - 8, b.h - 8};
            int mine = jr_blobs(shot[i], in, cl_col_player[s], 10, 4);
            int other = jr_blobs(shot[i], in, cl_col_player[s ^ 1], 10, 4);
            printf("screenshot %d, board %d: %d marker(s) of its player, %d of the other\n", i + 1, s, mine,
                   other);
            assert_int_equal(mine, 1);
            assert_int_equal(other, 0);
        }
    }
    /* The clock's digits change between the screenshots 1.5 s apart. */
    SDL_Rect clock = {W / 2 - 80, 4, 160, 50};
    assert_false(jr_same_rect(shot[0], shot[1], clock));
    SDL_FreeSurface(shot[0]);
    SDL_FreeSurface(shot[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spectator_arrives_mid_race),
    };
    return clt_finish(cmocka_run_group_tests(tests, NULL, NULL));
}
