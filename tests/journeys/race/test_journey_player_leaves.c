/* test_journey_player_leaves.c: a player leaves a race on a dedicated server (Esc, then Y): the
 * leave reaches the server before the disconnect, so the opponent wins by forfeit at once instead
 * of waiting out the grace period (docs/racing.md, "Leaving, dropping, resuming"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cl_test_util.h"
#include "jr_race.h"

static char out[1 << 16];

static void test_leave_is_a_forfeit_at_once(void **ctx)
{
    (void)ctx;
    char addr[64], slog[512], blog[512], rest[512];
    snprintf(slog, sizeof slog, "%s", clt_path("server.log"));
    snprintf(blog, sizeof blog, "%s", clt_path("bot.log"));
    /* A 60 s grace: a leave taken for a drop would keep the bot waiting. */
    pid_t sv = jr_server(60, NULL, slog, addr, sizeof addr);
    assert_true(sv > 0);
    const char *bot_argv[] = {MR_JR_BOT, "--server", addr,        "--pace", "1000",
                              "--name",  "Bot",      "--timeout", "90",     NULL};
    pid_t bot = clt_spawn(bot_argv, blog);
    assert_true(clt_write(clt_path("leave.txt"), "0 wait race\n+1000 key Escape\n+100 key Y\n+0 wait menu\n"
                                                 "+100 quit\n"));
    const char *args[] = {"--headless",    "--join", addr,       "--quick",
                          "--name",        "Leaver", "--script", clt_path("leave.txt"),
                          "--max-seconds", "60",     NULL};
    int rc = clt_run(args, out, sizeof out, 60000);
    uint64_t left = jr_ms();
    bool told = clt_wait_for(blog, "winner Bot (forfeit)", rest, sizeof rest, 10000);
    uint64_t took = jr_ms() - left;
    int status = 0;
    bool bot_done = clt_wait_exit(bot, 10000, &status);
    if (!bot_done)
        clt_stop(bot);
    clt_stop(sv);
    puts(out);
    assert_int_equal(rc, 0);
    assert_true(told);
    printf("the bot had its forfeit win %llu ms after the leaver's program ended\n",
           (unsigned long long)took);
    assert_true(took < 5000);
    char *sl = jr_slurp(slog);
    assert_non_null(sl);
    assert_non_null(strstr(sl, "\"Leaver\" left"));
    assert_null(strstr(sl, "Leaver dropped"));
    free(sl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_leave_is_a_forfeit_at_once),
    };
    return clt_finish(cmocka_run_group_tests(tests, NULL, NULL));
}
