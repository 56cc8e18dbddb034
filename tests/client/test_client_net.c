/* test_client_net.c: the headless client against the real mazerace-server
 * over 127.0.0.1 (ephemeral ports): races a bot to the results screen,
 * hosts a LAN game a bot joins by room code, finds a hosted game by LAN
 * discovery and joins it. */
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

static void test_client_races_bot_to_results(void **ctx)
{
    (void)ctx;
    int port;
    char addr[64];
    pid_t sv = clt_start_server(&port, addr, sizeof addr);
    assert_true(sv > 0);
    const char *bot_argv[] = {MR_BOT_BIN, "--server",  addr, "--pace", "60",
                              "--quiet",  "--timeout", "60", NULL};
    pid_t bot = clt_spawn(bot_argv, clt_path("bot.log"));
    /* The client joins by quick match, plays a couple of keys, and waits
     * for the results screen: the bot solves first. */
    assert_true(
        clt_write(clt_path("net.txt"), "0 wait race\n+100 key D\n+100 key W\n+0 wait results\n+300 quit\n"));
    const char *args[] = {"--headless",    "--join", addr,       "--quick",
                          "--name",        "Tester", "--script", clt_path("net.txt"),
                          "--max-seconds", "60",     NULL};
    int rc = clt_run(args, out, sizeof out, 90000);
    clt_stop(bot);
    clt_stop(sv);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "RESULT winner="));
    assert_non_null(strstr(out, "winner_name=bot"));
    assert_non_null(strstr(out, "reason=solved"));
}

/* A client hosting game id on 127.0.0.1 (free ports) as name, running script, output to log. */
static pid_t spawn_host(const char *id, const char *name, const char *script, const char *log)
{
    const char *argv[] = {MAZERACE_BIN,    "--headless", "--host",    id,   "--host-bind", "127.0.0.1",
                          "--host-port",   "0",          "--name",    name, "--script",    script,
                          "--max-seconds", "40",         "--no-save", NULL};
    return clt_spawn(argv, log);
}

static void test_host_lan_game_bot_joins_by_code(void **ctx)
{
    (void)ctx;
    /* The client hosts (in-process server on a free port) and prints its
     * port and room code; a bot joins that room. */
    assert_true(clt_write(clt_path("host.txt"), "0 wait lobby\n+0 wait race\n+0 wait results\n+200 quit\n"));
    const char *log = clt_path("host.log");
    int port;
    char room[16];
    pid_t host =
        clt_start_host("maze:9x7:easy#21", "Host", clt_path("host.txt"), log, &port, room, sizeof room);
    if (host <= 0)
        fail_msg("the host never printed its port and room code");
    pid_t bot = clt_bot_join(port, room, "40", clt_path("hostbot.log"));
    int status = 0;
    bool done = clt_wait_exit(host, 90000, &status);
    clt_stop(bot);
    if (!done)
        clt_stop(host);
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
    assert_true(clt_wait_for(log, "RESULT winner=", rest, sizeof rest, 1000));
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
    pid_t host = spawn_host("ice:12x10:easy#5", "Hoster", clt_path("lanhost.txt"), hlog);
    char disc[64], code[64];
    bool up = clt_wait_for(hlog, "LAN discovery port ", disc, sizeof disc, 15000) &&
              clt_wait_for(hlog, "room code ", code, sizeof code, 15000);
    if (!up) {
        clt_stop(host);
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
             "+0 wait join-listed\n+50 key Down\n+50 text %.5s\n+50 key Up\n+50 key Up\n"
             "+50 key Return\n+50 wait lobby\n+300 key Return\n+0 wait race\n+300 quit\n",
             code);
    assert_true(clt_write(clt_path("lanjoin.txt"), script));
    const char *args[] = {
        "--headless",    "--lan-port", lan, "--name", "Joiner", "--script", clt_path("lanjoin.txt"),
        "--max-seconds", "40",         NULL};
    int rc = clt_run(args, out, sizeof out, 60000);
    int status = 0;
    bool done = clt_wait_exit(host, 15000, &status);
    if (!done)
        clt_stop(host);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "found \"Hoster's game\" at 127.0.0.1:"));
    assert_non_null(strstr(out, "race started"));
    assert_true(done && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_join_link_copied_and_opened(void **ctx)
{
    (void)ctx;
    /* A host on a known address shows its room's join link; its player
     * copies it (Down to "Copy the join link", Return): the clipboard holds
     * the link. A second client started as the URL handler starts it
     * (`mazerace LINK`) lands in that room and both race. */
    assert_true(clt_write(clt_path("linkhost.txt"),
                          "0 wait lobby\n+600 key Down\n+50 key Return\n+0 wait race\n+300 quit\n"));
    const char *hlog = clt_path("linkhost.log");
    pid_t host = spawn_host("maze:9x7:easy#8", "Linker", clt_path("linkhost.txt"), hlog);
    char link[128], copied[128];
    bool up = clt_wait_for(hlog, "mazerace: join link mazerace://", link, sizeof link, 15000) &&
              clt_wait_for(hlog, "join link copied: ", copied, sizeof copied, 15000);
    if (!up) {
        clt_stop(host);
        fail_msg("the host showed no join link, or copying it failed");
    }
    char full[160];
    snprintf(full, sizeof full, "mazerace://%s", link);
    assert_string_equal(copied, full);
    assert_non_null(strstr(full, "mazerace://127.0.0.1:"));
    assert_true(clt_write(clt_path("linkjoin.txt"), "0 wait lobby\n+0 wait race\n+300 quit\n"));
    const char *args[] = {
        full,        "--headless",    "--name", "Clicker", "--script", clt_path("linkjoin.txt"),
        "--no-save", "--max-seconds", "40",     NULL};
    int rc = clt_run(args, out, sizeof out, 60000);
    int status = 0;
    bool done = clt_wait_exit(host, 15000, &status);
    if (!done)
        clt_stop(host);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "race started"));
    /* A bad link opens the game on the Join screen, the link in its field
     * and the reason on screen (a headless run then ends with 1). */
    assert_true(clt_write(clt_path("badlink.txt"), "0 wait join\n+100 quit\n"));
    const char *bad[] = {"--headless",
                         "--join",
                         "mazerace://127.0.0.1:0/ABCDE",
                         "--script",
                         clt_path("badlink.txt"),
                         "--max-seconds",
                         "20",
                         NULL};
    assert_int_equal(clt_run(bad, out, sizeof out, 20000), 1);
    assert_non_null(strstr(out, "This link cannot be opened: the port must be 1..65535"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_join_link_copied_and_opened),
        cmocka_unit_test(test_client_races_bot_to_results),
        cmocka_unit_test(test_host_lan_game_bot_joins_by_code),
        cmocka_unit_test(test_lan_discovery_then_join_by_code),
    };
    return clt_finish(cmocka_run_group_tests(tests, NULL, NULL));
}

#else

int main(void)
{
    puts("test_client_net: server or bot not built; nothing to test");
    return 0;
}

#endif
