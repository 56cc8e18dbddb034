/* test_journey_lost_server.c: kill -9 of the server mid-race: within 1.5 s the racing client shows
 * "Connection lost - reconnecting, N s" over the board (in its state, on stdout, and on its pixels),
 * its clock stops, Esc leaves, and the race is in the history as unfinished. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "cl_app.h"
#include "cl_draw.h"
#include "cl_test_util.h"
#include "st.h"
#include "jr_race.h"
#include "match.h"

enum { W = 1280, H = 720 };

static void test_server_killed_mid_race(void **ctx)
{
    (void)ctx;
    char addr[64], slog[512], clog[512], blog[512], hist[512], script[1024];
    snprintf(slog, sizeof slog, "%s", clt_path("server.log"));
    snprintf(clog, sizeof clog, "%s", clt_path("client.log"));
    snprintf(blog, sizeof blog, "%s", clt_path("bot.log"));
    snprintf(hist, sizeof hist, "%s", clt_path("history.sqlite"));
    pid_t sv = jr_server(30, NULL, slog, addr, sizeof addr);
    assert_true(sv > 0);
    /* The player races by quick match against a bot; once the banner is up
     * two screenshots 1.5 s apart show it lasting and the clock stopped,
     * then Esc leaves (the banner offers it) and the run ends. */
    snprintf(
        script, sizeof script,
        "0 wait race\n+0 wait lost\n+0 screenshot %s\n+1500 screenshot %s\n+100 key Escape\n+300 wait menu\n"
        "+100 quit\n",
        clt_path("lost-1.bmp"), clt_path("lost-2.bmp"));
    assert_true(clt_write(clt_path("lost.txt"), script));
    const char *args[] = {"--headless",    "--size", "1280x720",  "--join", addr,       "--quick",
                          "--name",        "Racer",  "--history", hist,     "--script", clt_path("lost.txt"),
                          "--max-seconds", "60",     NULL};
    pid_t cl = jr_client(args, clog);
    assert_true(cl > 0);
    const char *bot_argv[] = {MR_JR_BOT, "--server", addr,        "--pace", "300", "--name",
                              "Bot",     "--quiet",  "--timeout", "60",     NULL};
    pid_t bot = clt_spawn(bot_argv, blog);
    char rest[256];
    assert_true(clt_wait_for(clog, "race started", rest, sizeof rest, 30000));
    /* The bot has made moves the client was told of: a race well under way. */
    assert_true(clt_wait_for(slog, "game 1: countdown", rest, sizeof rest, 1000));
    uint64_t killed = jr_ms();
    assert_int_equal(kill(sv, SIGKILL), 0);
    waitpid(sv, NULL, 0);
    bool seen = clt_wait_for(clog, "connection lost: no word from the server for ", rest, sizeof rest, 5000);
    uint64_t shown = jr_ms();
    assert_true(seen);
    unsigned quiet = (unsigned)atoi(rest);
    printf("banner %llu ms after kill -9 (the client heard nothing for %u ms)\n",
           (unsigned long long)(shown - killed), quiet);
    /* The client's own measure, and the wall clock from the kill. */
    assert_true(quiet >= 1000 && quiet < 1500);
    assert_true(shown - killed <= 1500);
    int status = 0;
    bool done = clt_wait_exit(cl, 30000, &status);
    if (!done)
        clt_stop(cl);
    clt_stop(bot);
    assert_true(done);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    /* The banner on the pixels, in both screenshots: it lasts. */
    SDL_Rect banner = cl_race_banner_rect(W, H);
    SDL_Rect clock = {W / 2 - 80, 4, 160, 50};
    SDL_Surface *s1 = clt_load(clt_path("lost-1.bmp")), *s2 = clt_load(clt_path("lost-2.bmp"));
    assert_non_null(s1);
    assert_non_null(s2);
    assert_int_equal(s1->w, W);
    double b1 = jr_share(s1, banner, cl_race_banner_color(), 6),
           b2 = jr_share(s2, banner, cl_race_banner_color(), 6);
    printf("banner colour on %.0f%% and %.0f%% of its rectangle\n", b1 * 100, b2 * 100);
    assert_true(b1 > 0.6 && b2 > 0.6);
    /* The clock stopped: its digits 1.5 s apart are the same pixels. */
    assert_true(jr_same_rect(s1, s2, clock));
    SDL_FreeSurface(s1);
    SDL_FreeSurface(s2);

    /* Kept in the history as unfinished: no winner, aborted. */
    char *out = jr_slurp(clog);
    assert_non_null(out);
    assert_non_null(strstr(out, "race kept in the history as unfinished"));
    assert_null(strstr(out, "RESULT winner="));
    free(out);
    st_match r;
    assert_true(jr_history_newest(hist, &r));
    assert_int_equal(r.winner, -1);
    assert_int_equal(r.ending, MATCH_END_ABORTED);
    assert_string_equal(r.mode, "online");
    assert_true(strcmp(r.p[0].name, "Racer") == 0 || strcmp(r.p[1].name, "Racer") == 0);
    st_match_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_server_killed_mid_race),
    };
    return clt_finish(cmocka_run_group_tests(tests, NULL, NULL));
}
