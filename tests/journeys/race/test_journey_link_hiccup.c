/* test_journey_link_hiccup.c: the network between a racer and the server goes dead and comes back
 * (a relay that drops every datagram): after 1 s the banner is up; back within a second or two it
 * clears by itself ("connection back"); dead past 5 s the game drops the connection and resumes the
 * seat ("Reconnected - carry on!"); either way the race goes on with the clock running. */
#include <setjmp.h>
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
#include "clt_peers.h"
#include "jr_race.h"

enum { W = 1280, H = 720 };

static void test_link_goes_dead_and_comes_back(void **ctx)
{
    (void)ctx;
    char addr[64], raddr[64], slog[512], clog[512], blog[512], script[1024], rest[256];
    snprintf(slog, sizeof slog, "%s", clt_path("server.log"));
    snprintf(clog, sizeof clog, "%s", clt_path("client.log"));
    snprintf(blog, sizeof blog, "%s", clt_path("bot.log"));
    pid_t sv = jr_server(30, NULL, slog, addr, sizeof addr);
    assert_true(sv > 0);
    clt_relay relay;
    assert_true(clt_relay_start(&relay, atoi(strchr(addr, ':') + 1), 120));
    snprintf(raddr, sizeof raddr, "127.0.0.1:%d", relay.port);
    /* Banner up and gone twice, then two screenshots of the race going on. */
    snprintf(script, sizeof script,
             "0 wait race\n+0 wait lost\n+0 wait race\n+0 wait lost\n+0 wait race\n+500 screenshot %s\n"
             "+1000 screenshot %s\n+100 quit\n",
             clt_path("after-1.bmp"), clt_path("after-2.bmp"));
    assert_true(clt_write(clt_path("hiccup.txt"), script));
    const char *args[] = {"--headless",    "--size", "1280x720", "--join",   raddr,
                          "--quick",       "--name", "Racer",    "--script", clt_path("hiccup.txt"),
                          "--max-seconds", "90",     NULL};
    pid_t cl = jr_client(args, clog);
    /* One move a second: the bot is still racing when all this is over. */
    const char *bot_argv[] = {MR_JR_BOT, "--server", addr,        "--pace", "1000", "--name",
                              "Bot",     "--quiet",  "--timeout", "90",     NULL};
    pid_t bot = clt_spawn(bot_argv, blog);
    bool started = clt_wait_for(clog, "race started", rest, sizeof rest, 30000);
    /* A short hiccup: dead until the banner is up, then back. */
    bool off1 = started && clt_relay_set(&relay, false);
    bool lost1 =
        off1 && clt_wait_for(clog, "connection lost: no word from the server", rest, sizeof rest, 5000);
    bool on1 = clt_relay_set(&relay, true);
    bool back1 = lost1 && clt_wait_for(clog, "connection back after ", rest, sizeof rest, 5000);
    /* A long one: dead until the game has dropped the link to resume. */
    bool off2 = back1 && clt_relay_set(&relay, false);
    bool resuming =
        off2 && clt_wait_for(clog, "Connection lost - trying to resume", rest, sizeof rest, 15000);
    bool on2 = clt_relay_set(&relay, true);
    bool back2 = resuming && clt_wait_for(clog, "Reconnected - carry on!", rest, sizeof rest, 20000);
    int status = 0;
    bool done = back2 && clt_wait_exit(cl, 30000, &status);
    if (!done)
        clt_stop(cl);
    clt_stop(bot);
    clt_relay_stop(&relay);
    clt_stop(sv);
    char *out = jr_slurp(clog);
    if (out)
        puts(out);
    assert_true(started && off1 && on1 && off2 && on2);
    assert_true(lost1);
    assert_true(back1);
    assert_true(resuming);
    assert_true(back2);
    assert_true(done && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* Neither hiccup ended the race or lost it from the history's view. */
    assert_non_null(out);
    assert_null(strstr(out, "RESULT winner="));
    assert_null(strstr(out, "unfinished"));
    free(out);
    /* On screen after both: no banner, the clock running again. */
    SDL_Surface *a = clt_load(clt_path("after-1.bmp")), *b = clt_load(clt_path("after-2.bmp"));
    assert_non_null(a);
    assert_non_null(b);
    SDL_Rect banner = cl_race_banner_rect(W, H), clock = {W / 2 - 80, 4, 160, 50};
    assert_true(jr_share(a, banner, cl_race_banner_color(), 6) < 0.1);
    assert_true(jr_share(b, banner, cl_race_banner_color(), 6) < 0.1);
    assert_false(jr_same_rect(a, b, clock));
    SDL_FreeSurface(a);
    SDL_FreeSurface(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_link_goes_dead_and_comes_back),
    };
    return clt_finish(cmocka_run_group_tests(tests, NULL, NULL));
}
