/* test_client_netfail.c: the headless client when the network goes wrong
 * (real mazerace-server and bot on 127.0.0.1, ephemeral ports): the
 * opponent drops mid-race and forfeits; unknown room code; no server; a
 * full room; a server of another protocol version; the player's own
 * connection dies mid-race and the game resumes it. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cl_test_util.h"
#include "clt_peers.h"
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
    bool done = clt_wait_exit(cl, 40000, &status);
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

static void test_room_full_in_plain_words(void **ctx)
{
    (void)ctx;
    /* A hosting client and a bot fill the host's room; a third player who
     * types the same code is told the room is full and is back at the menu. */
    assert_true(
        clt_write(clt_path("fullhost.txt"), "0 wait lobby\n+0 wait race\n+0 wait results\n+200 quit\n"));
    const char *hlog = clt_path("fullhost.log");
    int port;
    char room[16];
    pid_t host = clt_start_host("maze:21x15:medium#4", "Host", clt_path("fullhost.txt"), hlog, &port, room,
                                sizeof room);
    if (host <= 0)
        fail_msg("the host never printed its port and room code");
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    pid_t bot = clt_bot_join(port, room, "2000", clt_path("fullbot.log"));
    char rest[256];
    bool racing = clt_wait_for(hlog, "race started", rest, sizeof rest, 20000);
    int rc = -1;
    if (racing) {
        assert_true(clt_write(clt_path("fullmenu.txt"), "0 wait menu\n"));
        const char *args[] = {"--headless",    "--join",   addr,
                              "--room",        room,       "--name",
                              "Third",         "--script", clt_path("fullmenu.txt"),
                              "--max-seconds", "30",       NULL};
        rc = clt_run(args, out, sizeof out, 60000);
    }
    clt_stop(bot);
    clt_stop(host);
    assert_true(racing);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "That room is full"));
}

static void test_version_mismatch_in_plain_words(void **ctx)
{
    (void)ctx;
    /* A server of another protocol version refuses the HELLO: the player
     * reads that the versions differ, and is back at the menu. */
    int port = 0;
    pid_t sv = clt_other_version_server(&port, 40);
    assert_true(sv > 0);
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    assert_true(clt_write(clt_path("vermenu.txt"), "0 wait menu\n"));
    const char *args[] = {"--headless",    "--join", addr, "--quick", "--script", clt_path("vermenu.txt"),
                          "--max-seconds", "30",     NULL};
    int rc = clt_run(args, out, sizeof out, 60000);
    clt_stop(sv);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "Version mismatch"));
}

/* Watching where the server's spectator port is blocked (a fake server
 * answers WATCH with WATCH_AT to a UDP port nobody listens on): within
 * the follow timeout (5 s) the player reads that port's number and what
 * to do, and is back at the menu; no hang. */
static void test_blocked_spectator_port_in_words(void **ctx)
{
    (void)ctx;
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t alen = sizeof a;
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &alen), 0);
    close(fd); /* nothing listens there now */
    int dead = ntohs(a.sin_port), port = 0;
    pid_t sv = clt_watch_at_server(&port, dead, 40);
    assert_true(sv > 0);
    char addr[64], script[512];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    snprintf(script, sizeof script, "0 wait menu\n+100 screenshot %s\n+100 quit\n", clt_path("blocked.bmp"));
    assert_true(clt_write(clt_path("blocked.txt"), script));
    const char *args[] = {"--headless",    "--size",   "1280x720",
                          "--join",        addr,       "--watch",
                          "ABCDE",         "--script", clt_path("blocked.txt"),
                          "--max-seconds", "30",       NULL};
    uint64_t t0 = mr_now_us();
    int rc = clt_run(args, out, sizeof out, 60000);
    uint64_t took_ms = (mr_now_us() - t0) / 1000u;
    clt_stop(sv);
    assert_int_equal(rc, 0);
    char want[96];
    snprintf(want, sizeof want, "Cannot reach the server's spectator port %d (UDP): ", dead);
    assert_non_null(strstr(out, want));
    assert_true(took_ms < 15000);
}

/* The player's own link dies mid-race: the real server, a bot playing
 * straight to it, and the game joining by quick match through a UDP relay
 * (clt_peers.h) that the test silences once the race is on. Files are named
 * after the test, so that a log left by an earlier test is never read
 * before this test's program has opened its own. */
typedef struct drop_rig {
    pid_t sv, bot, cl;
    clt_relay relay;
    char log[512], srv_log[512];
} drop_rig;

/* Starts it all (grace period grace_s, the bot moving every bot_pace ms,
 * the game running script) and, when the race has started, kills the link.
 * False if something did not start or the race never did; drop_end stops
 * whatever runs either way. */
static bool drop_start(drop_rig *r, const char *tag, int grace_s, const char *bot_pace, const char *script)
{
    char name[64], path[512], raddr[64], saddr[64];
    int port;
    memset(r, 0, sizeof *r);
    r->relay.pid = r->relay.ctl = -1;
    /* A failure returns false with what did start left for drop_end. */
    r->sv = clt_start_server_grace(grace_s, &port, saddr, sizeof saddr, r->srv_log, sizeof r->srv_log);
    if (r->sv <= 0 || !clt_relay_start(&r->relay, port, 150))
        return false;
    snprintf(raddr, sizeof raddr, "127.0.0.1:%d", r->relay.port);
    snprintf(name, sizeof name, "%s-bot.log", tag);
    const char *bot_argv[] = {MR_BOT_BIN, "--server",  saddr, "--pace", bot_pace,
                              "--quiet",  "--timeout", "120", NULL};
    r->bot = clt_spawn(bot_argv, clt_path(name));
    snprintf(name, sizeof name, "%s.txt", tag);
    snprintf(path, sizeof path, "%s", clt_path(name));
    if (!clt_write(path, script))
        return false;
    snprintf(name, sizeof name, "%s.log", tag);
    snprintf(r->log, sizeof r->log, "%s", clt_path(name));
    const char *argv[] = {MAZERACE_BIN, "--headless", "--join", raddr,           "--quick", "--name",
                          "Dropper",    "--script",   path,     "--max-seconds", "120",     NULL};
    r->cl = clt_spawn(argv, r->log);
    char rest[256];
    return clt_wait_for(r->log, "race started", rest, sizeof rest, 20000) && clt_relay_set(&r->relay, false);
}

/* Waits up to wait_ms for the game to exit by itself, then stops what is
 * left. True if the game exited with status 0. */
static bool drop_end(drop_rig *r, int wait_ms)
{
    int status = 0;
    bool done = wait_ms > 0 && clt_wait_exit(r->cl, wait_ms, &status);
    if (!done)
        clt_stop(r->cl);
    clt_stop(r->bot);
    clt_relay_stop(&r->relay);
    clt_stop(r->sv);
    return done && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* When ENet gives the connection up the game says it is resuming; the link
 * comes back once both the game and the server have given the old
 * connection up (and if game_over_first, once the server saw the bot win);
 * the game resumes with its token within the grace period (20 s) and ends
 * on the results screen, the bot the winner. */
static void own_drop(const char *tag, const char *bot_pace, bool game_over_first, char *srv_log,
                     size_t srv_log_len)
{
    drop_rig r;
    char rest[256];
    bool started = drop_start(&r, tag, 20, bot_pace, "0 wait race\n+0 wait results\n+200 quit\n");
    bool lost = false, over = !game_over_first, resumed = false;
    if (started) {
        /* ENet gives a silent peer up after 5 to 30 s. */
        lost = clt_wait_for(r.log, "Connection lost - trying to resume", rest, sizeof rest, 45000);
        if (game_over_first)
            over = clt_wait_for(r.srv_log, " finished: winner bot", rest, sizeof rest, 60000);
        /* The server has given the old connection up too: the seat is in
         * its grace period, and only the token brings the player back. */
        lost = lost && clt_wait_for(r.srv_log, ": Dropper dropped", rest, sizeof rest, 45000);
        assert_true(clt_relay_set(&r.relay, true));
        if (lost && over)
            resumed = clt_wait_for(r.log, "Reconnected", rest, sizeof rest, 20000);
    }
    bool exited = drop_end(&r, resumed ? 90000 : 0);
    snprintf(srv_log, srv_log_len, "%s", r.srv_log);
    assert_true(started);
    assert_true(lost);
    assert_true(over);
    assert_true(resumed);
    assert_true(exited);
    assert_true(clt_wait_for(r.log, "RESULT winner=", rest, sizeof rest, 100));
    assert_non_null(strstr(rest, "winner_name=bot"));
    assert_non_null(strstr(rest, "reason=solved"));
}

/* Index of the first line of file path that contains needle, or -1. */
static int line_of(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int n = 0, at = -1;
    while (f && at < 0 && fgets(line, sizeof line, f)) {
        if (strstr(line, needle))
            at = n;
        n++;
    }
    if (f)
        fclose(f);
    return at;
}

static void test_own_drop_resumes_mid_race(void **ctx)
{
    (void)ctx;
    /* The bot needs 34 s or more for the quick match maze (21x15, one move
     * a second): the player is back in the race long before it ends, and
     * the server says so in that order. */
    char srv_log[512];
    own_drop("dropmid", "1000", false, srv_log, sizeof srv_log);
    int back = line_of(srv_log, ": Dropper resumed"), end = line_of(srv_log, " finished: winner bot");
    assert_true(back >= 0);
    assert_true(end > back);
}

static void test_own_drop_game_ended_meanwhile(void **ctx)
{
    (void)ctx;
    /* The bot wins while the player's link is dead: the room waits for the
     * player's grace period, and on resume the game shows how it ended. */
    char srv_log[512];
    own_drop("dropend", "100", true, srv_log, sizeof srv_log);
    int end = line_of(srv_log, " finished: winner bot"), back = line_of(srv_log, ": Dropper resumed");
    assert_true(end >= 0);
    assert_true(back > end);
}

static void test_own_drop_too_long(void **ctx)
{
    (void)ctx;
    /* The link stays dead past the grace period (2 s here): the player has
     * forfeited, and when the link is back the server refuses the resume;
     * the game says so in words and goes back to the menu. */
    drop_rig r;
    char rest[256];
    bool started = drop_start(&r, "late", 2, "1000", "0 wait race\n+0 wait menu\n");
    bool forfeited = false, told = false;
    if (started) {
        forfeited = clt_wait_for(r.srv_log, " finished: winner bot (forfeit)", rest, sizeof rest, 60000);
        assert_true(clt_relay_set(&r.relay, true));
        if (forfeited)
            told = clt_wait_for(r.log, "Could not get back into the game", rest, sizeof rest, 45000);
    }
    bool exited = drop_end(&r, told ? 30000 : 0);
    assert_true(started);
    assert_true(forfeited);
    assert_true(told);
    assert_true(exited);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_opponent_drop_is_shown_then_forfeit),
        cmocka_unit_test(test_plain_word_errors),
        cmocka_unit_test(test_room_full_in_plain_words),
        cmocka_unit_test(test_version_mismatch_in_plain_words),
        cmocka_unit_test(test_blocked_spectator_port_in_words),
        cmocka_unit_test(test_own_drop_resumes_mid_race),
        cmocka_unit_test(test_own_drop_game_ended_meanwhile),
        cmocka_unit_test(test_own_drop_too_long),
    };
    return clt_finish(cmocka_run_group_tests(tests, NULL, NULL));
}

#else

int main(void)
{
    puts("test_client_netfail: server or bot not built; nothing to test");
    return 0;
}

#endif
