/* test_client_net.c: the headless client against the real mazerace-server
 * over 127.0.0.1 (ephemeral ports): races a bot to the results screen,
 * hosts a LAN game a bot joins by room code, and shows plain-word errors
 * for a missing server and an unknown room code. */
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

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static char out[1 << 16];

/* Starts argv with stdout and stderr into log; returns the pid or -1. */
static pid_t spawn(const char *const argv[], const char *log)
{
    pid_t pid = fork();
    if (pid == 0) {
        FILE *f = freopen(log, "w", stdout);
        if (!f)
            _exit(127);
        dup2(1, 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    return pid;
}

static void stop(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(pid, SIGTERM);
    for (int i = 0; i < 300; i++) {
        if (waitpid(pid, NULL, WNOHANG) == pid)
            return;
        nap_ms(10);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

/* Polls file path (bounded: timeout_ms) for a line containing needle;
 * copies the text after the needle into rest. */
static bool wait_for(const char *path, const char *needle, char *rest, size_t cap, int timeout_ms)
{
    uint64_t end = mr_now_us() / 1000 + (uint64_t)timeout_ms;
    while (mr_now_us() / 1000 < end) {
        FILE *f = fopen(path, "r");
        if (f) {
            char line[1024];
            while (fgets(line, sizeof line, f)) {
                char *p = strstr(line, needle);
                if (p) {
                    snprintf(rest, cap, "%s", p + strlen(needle));
                    fclose(f);
                    return true;
                }
            }
            fclose(f);
        }
        nap_ms(20);
    }
    return false;
}

static pid_t start_server(int *port)
{
    const char *argv[] = {MR_SERVER_BIN, "--bind", "127.0.0.1", "--port", "0", "--no-discovery",
                          "--countdown", "1",      "--grace",   "2",      NULL};
    /* A fresh log per server, so an old one's port is never read. */
    static int n;
    char name[32];
    snprintf(name, sizeof name, "server%d.log", ++n);
    const char *log = clt_path(name);
    pid_t pid = spawn(argv, log);
    char rest[256];
    if (pid < 0 || !wait_for(log, "listening on 127.0.0.1:", rest, sizeof rest, 10000)) {
        stop(pid);
        return -1;
    }
    *port = atoi(rest);
    return pid;
}

static void test_client_races_bot_to_results(void **ctx)
{
    (void)ctx;
    int port;
    pid_t sv = start_server(&port);
    assert_true(sv > 0);
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    const char *bot_argv[] = {MR_BOT_BIN, "--server",  addr, "--pace", "60",
                              "--quiet",  "--timeout", "60", NULL};
    pid_t bot = spawn(bot_argv, clt_path("bot.log"));
    /* The client joins by quick match, plays a couple of keys, and waits
     * for the results screen: the bot solves first. */
    assert_true(
        clt_write(clt_path("net.txt"), "0 wait race\n+100 key D\n+100 key W\n+0 wait results\n+300 quit\n"));
    const char *args[] = {"--headless",    "--join", addr,       "--quick",
                          "--name",        "Tester", "--script", clt_path("net.txt"),
                          "--max-seconds", "60",     NULL};
    int rc = clt_run(args, out, sizeof out, 90000);
    stop(bot);
    stop(sv);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "RESULT winner="));
    assert_non_null(strstr(out, "winner_name=bot"));
    assert_non_null(strstr(out, "reason=solved"));
}

static void test_host_lan_game_bot_joins_by_code(void **ctx)
{
    (void)ctx;
    /* The client hosts (in-process server on a free port) and prints its
     * port and room code; a bot joins that room. */
    assert_true(clt_write(clt_path("host.txt"), "0 wait lobby\n+0 wait race\n+0 wait results\n+200 quit\n"));
    const char *log = clt_path("host.log");
    const char *argv[] = {MAZERACE_BIN,    "--headless", "--host",      "maze:9x7:easy#21",
                          "--host-bind",   "127.0.0.1",  "--host-port", "0",
                          "--name",        "Host",       "--script",    clt_path("host.txt"),
                          "--max-seconds", "60",         NULL};
    pid_t host = spawn(argv, log);
    assert_true(host > 0);
    char port[64], code[64];
    bool ok = wait_for(log, "hosting on port ", port, sizeof port, 15000) &&
              wait_for(log, "room code ", code, sizeof code, 15000);
    if (!ok) {
        stop(host);
        fail_msg("the host never printed its port and room code");
    }
    char addr[64], room[16];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", atoi(port));
    snprintf(room, sizeof room, "%.5s", code);
    const char *bot_argv[] = {MR_BOT_BIN, "--server", addr,        "--room", room, "--pace",
                              "40",       "--quiet",  "--timeout", "60",     NULL};
    pid_t bot = spawn(bot_argv, clt_path("hostbot.log"));
    int status = 0;
    bool done = false;
    for (int i = 0; i < 9000 && !done; i++) {
        done = waitpid(host, &status, WNOHANG) == host;
        if (!done)
            nap_ms(10);
    }
    stop(bot);
    if (!done)
        stop(host);
    char rest[256];
    if (!done || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        FILE *f = fopen(log, "r");
        char line[512];
        while (f && fgets(line, sizeof line, f))
            fprintf(stderr, "host: %s", line);
        if (f)
            fclose(f);
    }
    assert_true(done);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(wait_for(log, "RESULT winner=", rest, sizeof rest, 1000));
    assert_non_null(strstr(rest, "winner_name=bot"));
}

static void test_lan_discovery_then_join_by_code(void **ctx)
{
    (void)ctx;
    /* A hosting client (free ports on 127.0.0.1) and a second client whose
     * join screen asks that discovery port: the host shows up in the LAN
     * list; the second player types the room code, picks the listed game,
     * readies, and both reach the race. */
    assert_true(clt_write(clt_path("lanhost.txt"), "0 wait lobby\n+0 wait race\n+300 quit\n"));
    const char *hlog = clt_path("lanhost.log");
    const char *hargv[] = {MAZERACE_BIN,    "--headless", "--host",      "ice:12x10:easy#5",
                           "--host-bind",   "127.0.0.1",  "--host-port", "0",
                           "--name",        "Hoster",     "--script",    clt_path("lanhost.txt"),
                           "--max-seconds", "40",         NULL};
    pid_t host = spawn(hargv, hlog);
    char disc[64], code[64];
    bool up = wait_for(hlog, "LAN discovery port ", disc, sizeof disc, 15000) &&
              wait_for(hlog, "room code ", code, sizeof code, 15000);
    if (!up) {
        stop(host);
        fail_msg("the host did not come up");
    }
    char script[512], lan[16];
    snprintf(lan, sizeof lan, "%d", atoi(disc));
    /* Menu: Join. Join screen (the Server field is selected, and stays so
     * when the list fills): wait for the list, type the code into the room
     * field below, go up past Server to the listed game and pick it; then
     * ready in the lobby. */
    snprintf(script, sizeof script,
             "0 wait menu\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Return\n+50 wait join\n"
             "+2500 wait join\n+50 key Down\n+50 text %.5s\n+50 key Up\n+50 key Up\n"
             "+50 key Return\n+50 wait lobby\n+300 key Return\n+0 wait race\n+300 quit\n",
             code);
    assert_true(clt_write(clt_path("lanjoin.txt"), script));
    const char *args[] = {
        "--headless",    "--lan-port", lan, "--name", "Joiner", "--script", clt_path("lanjoin.txt"),
        "--max-seconds", "40",         NULL};
    int rc = clt_run(args, out, sizeof out, 60000);
    int status = 0;
    bool done = false;
    for (int i = 0; i < 1500 && !done; i++) {
        done = waitpid(host, &status, WNOHANG) == host;
        if (!done)
            nap_ms(10);
    }
    if (!done)
        stop(host);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "found \"Hoster's game\" at 127.0.0.1:"));
    assert_non_null(strstr(out, "race started"));
    assert_true(done && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_opponent_drop_is_shown_then_forfeit(void **ctx)
{
    (void)ctx;
    /* The bot is killed mid-race: the client says the opponent dropped,
     * and after the server's grace period (2 s here) wins by forfeit. */
    int port;
    pid_t sv = start_server(&port);
    assert_true(sv > 0);
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    const char *bot_argv[] = {MR_BOT_BIN, "--server",  addr, "--pace", "2000",
                              "--quiet",  "--timeout", "60", NULL};
    pid_t bot = spawn(bot_argv, clt_path("dropbot.log"));
    assert_true(clt_write(clt_path("drop.txt"), "0 wait race\n+0 wait results\n+200 quit\n"));
    const char *log = clt_path("drop.log");
    const char *argv[] = {
        MAZERACE_BIN, "--headless",         "--join",        addr, "--quick", "--name", "Tester",
        "--script",   clt_path("drop.txt"), "--max-seconds", "40", NULL};
    pid_t cl = spawn(argv, log);
    char rest[256];
    bool started = wait_for(log, "race started", rest, sizeof rest, 20000);
    kill(bot, SIGKILL);
    waitpid(bot, NULL, 0);
    int status = 0;
    bool done = false;
    for (int i = 0; i < 4000 && !done; i++) {
        done = waitpid(cl, &status, WNOHANG) == cl;
        if (!done)
            nap_ms(10);
    }
    if (!done)
        stop(cl);
    stop(sv);
    assert_true(started);
    assert_true(done);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(wait_for(log, "connection dropped", rest, sizeof rest, 100));
    assert_true(wait_for(log, "RESULT winner=", rest, sizeof rest, 100));
    assert_non_null(strstr(rest, "winner_name=Tester"));
    assert_non_null(strstr(rest, "reason=forfeit"));
}

static void test_plain_word_errors(void **ctx)
{
    (void)ctx;
    /* Nothing listens on this port (the server we start and stop first had
     * it): "server not found", back at the menu, exit 0. */
    int port;
    pid_t sv = start_server(&port);
    assert_true(sv > 0);
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    /* Unknown room code: refused in plain words, the game goes back to the menu. */
    assert_true(clt_write(clt_path("menu.txt"), "0 wait menu\n"));
    const char *args[] = {"--headless",         "--join",        addr, "--room", "QQQQQ", "--script",
                          clt_path("menu.txt"), "--max-seconds", "30", NULL};
    assert_int_equal(clt_run(args, out, sizeof out, 60000), 0);
    assert_non_null(strstr(out, "Unknown room code"));
    stop(sv);
    const char *args2[] = {"--headless",         "--join",        addr, "--quick", "--script",
                           clt_path("menu.txt"), "--max-seconds", "40", NULL};
    assert_int_equal(clt_run(args2, out, sizeof out, 60000), 0);
    assert_non_null(strstr(out, "not found"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_client_races_bot_to_results),
        cmocka_unit_test(test_host_lan_game_bot_joins_by_code),
        cmocka_unit_test(test_lan_discovery_then_join_by_code),
        cmocka_unit_test(test_opponent_drop_is_shown_then_forfeit),
        cmocka_unit_test(test_plain_word_errors),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    /* Files stay behind for a look when something failed. */
    if (!failed)
        clt_cleanup();
    return failed;
}

#else

int main(void)
{
    puts("test_client_net: server or bot not built; nothing to test");
    return 0;
}

#endif
