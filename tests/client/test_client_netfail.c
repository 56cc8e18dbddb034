/* test_client_netfail.c: the headless client when the network goes wrong
 * (real mazerace-server and bot on 127.0.0.1, ephemeral ports): the
 * opponent drops mid-race and forfeits; unknown room code; no server. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cl_test_util.h"
#include "util.h"

#if defined(MR_SERVER_BIN) && defined(MR_BOT_BIN)

static char out[1 << 16];

static void test_opponent_drop_is_shown_then_forfeit(void **ctx)
{
    (void)ctx;
    /* The bot is killed mid-race: the client says the opponent dropped,
     * and after the server's grace period (2 s here) wins by forfeit. */
    int port;
    char addr[64];
    pid_t sv = clt_start_server(&port, addr, sizeof addr);
    assert_true(sv > 0);
    const char *bot_argv[] = {MR_BOT_BIN, "--server",  addr, "--pace", "2000",
                              "--quiet",  "--timeout", "60", NULL};
    pid_t bot = clt_spawn(bot_argv, clt_path("dropbot.log"));
    assert_true(clt_write(clt_path("drop.txt"), "0 wait race\n+0 wait results\n+200 quit\n"));
    const char *log = clt_path("drop.log");
    const char *argv[] = {
        MAZERACE_BIN, "--headless",         "--join",        addr, "--quick", "--name", "Tester",
        "--script",   clt_path("drop.txt"), "--max-seconds", "40", NULL};
    pid_t cl = clt_spawn(argv, log);
    char rest[256];
    bool started = clt_wait_for(log, "race started", rest, sizeof rest, 20000);
    kill(bot, SIGKILL);
    waitpid(bot, NULL, 0);
    int status = 0;
    bool done = false;
    for (int i = 0; i < 4000 && !done; i++) {
        done = waitpid(cl, &status, WNOHANG) == cl;
        if (!done)
            clt_nap_ms(10);
    }
    if (!done)
        clt_stop(cl);
    clt_stop(sv);
    assert_true(started);
    assert_true(done);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(clt_wait_for(log, "connection dropped", rest, sizeof rest, 100));
    assert_true(clt_wait_for(log, "RESULT winner=", rest, sizeof rest, 100));
    assert_non_null(strstr(rest, "winner_name=Tester"));
    assert_non_null(strstr(rest, "reason=forfeit"));
}

static void test_plain_word_errors(void **ctx)
{
    (void)ctx;
    /* Nothing listens on this port (the server we start and stop first had
     * it): "server not found", back at the menu, exit 0. */
    int port;
    char addr[64];
    pid_t sv = clt_start_server(&port, addr, sizeof addr);
    assert_true(sv > 0);
    /* Unknown room code: refused in plain words, the game goes back to the menu. */
    assert_true(clt_write(clt_path("menu.txt"), "0 wait menu\n"));
    const char *args[] = {"--headless",         "--join",        addr, "--room", "QQQQQ", "--script",
                          clt_path("menu.txt"), "--max-seconds", "30", NULL};
    assert_int_equal(clt_run(args, out, sizeof out, 60000), 0);
    assert_non_null(strstr(out, "Unknown room code"));
    clt_stop(sv);
    const char *args2[] = {"--headless",         "--join",        addr, "--quick", "--script",
                           clt_path("menu.txt"), "--max-seconds", "40", NULL};
    assert_int_equal(clt_run(args2, out, sizeof out, 60000), 0);
    assert_non_null(strstr(out, "not found"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_opponent_drop_is_shown_then_forfeit),
        cmocka_unit_test(test_plain_word_errors),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (!failed)
        clt_cleanup();
    return failed;
}

#else

int main(void)
{
    puts("test_client_netfail: server or bot not built; nothing to test");
    return 0;
}

#endif
