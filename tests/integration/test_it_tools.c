/* test_it_tools.c: mazerace-bot against a real server, its flags, and LAN discovery on 127.0.0.1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_net.h"
#include "it_proc.h"
#include "it_race.h"
#include "util.h"

static const char *const fast_server[] = {"--no-discovery", "--countdown", "0.2", NULL};

/* Starts the real server on 127.0.0.1 (an ephemeral port) and writes
 * "127.0.0.1:PORT" to addr; returns the port. */
static int server_up(it_proc *sv, const char *const extra[], char *addr, size_t len)
{
    int port = it_server_start(sv, MR_SERVER_PATH, extra);
    assert_true(port > 0);
    snprintf(addr, len, "127.0.0.1:%d", port);
    return port;
}

/* SIGINT (stop at once: bench races never end, SIGTERM would drain); the
 * server must exit by itself, with status 0. */
static void server_down(it_proc *sv)
{
    it_proc_signal(sv, SIGINT);
    int sc = -1;
    assert_true(it_proc_wait(sv, 5000, &sc, "server"));
    assert_int_equal(sc, 0);
    it_proc_cleanup(sv);
}

static bool has_room(it_env *e, void *arg)
{
    (void)arg;
    return bt_player_room(e->p[0]) != NULL || bt_player_failed(e->p[0]);
}

/* Runs mazerace-bot with args (NULL-terminated) to its end, returns its
 * exit code and counts output lines containing each of two needles; the
 * last line with n1 is copied into keep (when not NULL). */
static int run_bot_keep(const char *const args[], const char *n1, int *c1, const char *n2, int *c2,
                        char *keep, size_t keeplen)
{
    char *argv[32];
    int n = 0;
    argv[n++] = MR_BOT_PATH;
    for (int i = 0; args[i] && n < 31; i++)
        argv[n++] = (char *)args[i];
    argv[n] = NULL;
    it_proc bot;
    assert_true(it_proc_spawn(&bot, argv));
    char line[1024];
    uint64_t deadline = mr_now_us() + 90000000u;
    /* A bot at a person's pace (--level) is silent for seconds before its
     * first line: wait for lines as long as the run may take. */
    while (mr_now_us() < deadline && it_proc_line(&bot, line, sizeof line, 30000, "bot")) {
        if (n1 && strstr(line, n1)) {
            (*c1)++;
            if (keep)
                snprintf(keep, keeplen, "%s", line);
        }
        if (n2 && strstr(line, n2))
            (*c2)++;
    }
    int code = -1;
    bool ended = it_proc_wait(&bot, 5000, &code, "bot");
    it_proc_cleanup(&bot);
    assert_true(ended);
    return code;
}

static int run_bot(const char *const args[], const char *n1, int *c1, const char *n2, int *c2)
{
    return run_bot_keep(args, n1, c1, n2, c2, NULL, 0);
}

/* A server that makes one puzzle at a time (--gen-queue 1) answers most of
 * twenty players asking for a big maze at once with ERROR BUSY ("try again
 * in a few seconds"): each bot turned away asks again 1-3 s later, as a
 * player would, and every one races. */
static void test_bot_retries_busy_server(void **ctx)
{
    (void)ctx;
    static const char *const busy_server[] = {"--no-discovery", "--countdown", "0.2", "--gen-queue", "1",
                                              "--log-level",    "info",        NULL};
    it_proc sv;
    char addr[32];
    server_up(&sv, busy_server, addr, sizeof addr);
    const char *args[] = {"--server", addr,     "--bots", "20",        "--pace", "5", "--kind",
                          "maze",     "--size", "40x40",  "--timeout", "60",     NULL};
    int matches = 0, summary = 0;
    assert_int_equal(run_bot(args, "match bot-", &matches, "summary:", &summary), 0);
    assert_int_equal(matches, 20);
    assert_int_equal(summary, 1);
    int busy = 0;
    it_proc_drain(&sv, "server", "room refused: server busy making puzzles", &busy);
    print_message("BUSY answers: %d\n", busy);
    assert_true(busy >= 1);
    server_down(&sv);
}

/* The documented smoke run: two bots, quick match, one full match, exit 0. */
static void test_bot_plays_one_match(void **ctx)
{
    (void)ctx;
    it_proc sv;
    char addr[32];
    server_up(&sv, fast_server, addr, sizeof addr);
    const char *args[] = {"--server", addr, "--bots",    "2",  "--matches", "1",
                          "--pace",   "5",  "--timeout", "60", NULL};
    int matches = 0, summary = 0;
    int code = run_bot(args, "match bot-", &matches, "summary:", &summary);
    assert_int_equal(code, 0);
    assert_int_equal(matches, 2); /* each bot prints the match it played */
    assert_int_equal(summary, 1);
    server_down(&sv);
}

/* --level: two bots playing like experts (a person's reading, keys and
 * thinking) finish a race on a small maze over the real server. */
static void test_bot_level_plays_a_match(void **ctx)
{
    (void)ctx;
    it_proc sv;
    char addr[32];
    server_up(&sv, fast_server, addr, sizeof addr);
    const char *args[] = {"--server",     addr,     "--bots",    "2",    "--matches", "1",
                          "--level",      "expert", "--kind",    "maze", "--size",    "5x5",
                          "--difficulty", "easy",   "--timeout", "60",   NULL};
    int matches = 0, summary = 0;
    assert_int_equal(run_bot(args, "match bot-", &matches, "summary:", &summary), 0);
    assert_int_equal(matches, 2);
    assert_int_equal(summary, 1);
    server_down(&sv);
}

/* Created rooms (bot 1 creates, bot 2 joins by code), two pairs, two
 * matches each with mistakes: all finish. */
static void test_bot_pairs_rooms_and_rematches(void **ctx)
{
    (void)ctx;
    it_proc sv;
    char addr[32];
    server_up(&sv, fast_server, addr, sizeof addr);
    const char *args[] = {"--server",  addr,  "--bots", "4",     "--matches",    "2",    "--pace",     "3",
                          "--kind",    "ice", "--size", "12x10", "--difficulty", "easy", "--mistakes", "0.2",
                          "--timeout", "60",  NULL};
    int matches = 0, won = 0;
    int code = run_bot(args, "match bot-", &matches, ": won;", &won);
    assert_int_equal(code, 0);
    assert_int_equal(matches, 8);
    assert_int_equal(won, 4); /* one winner per game */
    server_down(&sv);
}

/* Rooms created from a game ID, with a seed and without one ("kind:WxH:
 * difficulty": the server draws the seed), both race to the end. */
static void test_bot_rooms_from_game_ids(void **ctx)
{
    (void)ctx;
    it_proc sv;
    char addr[32];
    server_up(&sv, fast_server, addr, sizeof addr);
    const char *ids[] = {"pipes:6x4:easy#77", "maze:9x7:medium"};
    for (size_t i = 0; i < MR_ARRAY_LEN(ids); i++) {
        const char *args[] = {"--server", addr,   "--bots", "2",         "--matches", "1", "--pace",
                              "3",        "--id", ids[i],   "--timeout", "60",        NULL};
        int matches = 0, won = 0;
        int code = run_bot(args, "match bot-", &matches, ": won;", &won);
        assert_int_equal(code, 0);
        assert_int_equal(matches, 2);
        assert_int_equal(won, 1);
    }
    server_down(&sv);
}

/* --room CODE: the bot joins a room someone else created (here a player
 * of the test's own) and races there. */
static void test_bot_joins_room_by_code(void **ctx)
{
    (void)ctx;
    it_env e;
    assert_true(it_env_start(&e, fast_server));
    bt_player_cfg host = it_cfg("host", BT_CREATE, 40);
    host.params.kind = PZ_PIPES;
    host.params.w = 6;
    host.params.h = 4;
    assert_int_equal(it_env_add(&e, &host, false), 0);
    assert_true(it_env_run(&e, has_room, NULL, 10000));
    char addr[32], code[8];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", e.port);
    snprintf(code, sizeof code, "%s", bt_player_room(e.p[0]));
    char *argv[] = {MR_BOT_PATH, "--server", addr,    "--room",    code, "--pace",
                    "5",         "--name",   "guest", "--timeout", "30", NULL};
    it_proc bot;
    assert_true(it_proc_spawn(&bot, argv));
    assert_true(it_env_run(&e, it_all_done, NULL, 30000));
    int rc = -1;
    assert_true(it_proc_wait(&bot, 10000, &rc, "bot"));
    it_proc_cleanup(&bot);
    assert_int_equal(rc, 0);
    const bt_result *r;
    assert_null(bt_player_failed(e.p[0]));
    assert_int_equal(bt_player_results(e.p[0], &r), 1);
    assert_string_equal(r[0].names[1 - r[0].slot], "guest");
    assert_int_equal(r[0].end.winner, 1 - r[0].slot); /* the guest is 8 times faster */
    it_env_stop(&e);
}

/* The bench mode in small: two shuttling bots for half a second; every
 * move answered, a RESULT line in the baselines' shape, with the ghost
 * delay (a move sent -> the opponent's PROGRESS) timed too: at least the
 * ack round trip, at most the server's progress hold plus a generous
 * margin. */
static void test_bot_bench_small(void **ctx)
{
    (void)ctx;
    it_proc sv;
    char addr[32], pid[16];
    server_up(&sv, fast_server, addr, sizeof addr);
    snprintf(pid, sizeof pid, "%d", (int)sv.pid);
    const char *args[] = {"--server", addr,           "--bots", "2",         "--bench", "0.5", "--size",
                          "9x9",      "--server-pid", pid,      "--timeout", "30",      NULL};
    int result = 0, answered = 0;
    char line[1024] = "";
    int code =
        run_bot_keep(args, "RESULT net rate20_k2 ", &result, " 0 unanswered)", &answered, line, sizeof line);
    assert_int_equal(code, 0);
    assert_int_equal(result, 1);
    assert_int_equal(answered, 1);
    const char *p50 = strstr(line, " p50_us="), *g50 = strstr(line, " ghost_p50_us="),
               *g99 = strstr(line, " ghost_p99_us=");
    assert_non_null(p50);
    assert_non_null(g50);
    assert_non_null(g99);
    double ack = atof(p50 + 8), ghost = atof(g50 + 14), ghost99 = atof(g99 + 14);
    assert_true(ack > 0);
    assert_true(ghost >= ack);
    assert_true(ghost99 >= ghost && ghost99 < 5e6);
    server_down(&sv);
}

/* Nobody listening: the bot fails with 1 within its timeout, never hangs. */
/* Issue 14: one bot's failure does not end the run. Three bots on a server
 * that takes two players: one is refused (server full) and reported, the
 * other two still play their match, print it and the summary; exit 1.
 * The old mazerace-bot stopped at the refusal and printed no match. */
static void test_bot_failure_isolated(void **ctx)
{
    (void)ctx;
    it_proc sv;
    char addr[32];
    const char *const small[] = {"--no-discovery", "--countdown", "0.2", "--max-clients", "2", NULL};
    server_up(&sv, small, addr, sizeof addr);
    const char *args[] = {"--server", addr, "--bots",    "3",  "--matches", "1",
                          "--pace",   "5",  "--timeout", "60", NULL};
    int matches = 0, summary = 0;
    int code = run_bot(args, "match bot-", &matches, "1 failed", &summary);
    assert_int_equal(code, 1);
    assert_int_equal(matches, 2);
    assert_int_equal(summary, 1);
    server_down(&sv);
}

static void test_bot_fails_without_server(void **ctx)
{
    (void)ctx;
    /* The discard port on this machine: nothing answers ENet there. */
    const char *args[] = {"--server", "127.0.0.1:9", "--timeout", "3", NULL};
    assert_int_equal(run_bot(args, NULL, NULL, NULL, NULL), 1);
}

static void test_bot_bad_flags(void **ctx)
{
    (void)ctx;
    const char *bad[][4] = {
        {"--bots", "0", NULL},         {"--server", "127.0.0.1:99999", NULL},
        {"--pace", "fast", NULL},      {"--mistakes", "2", NULL},
        {"--room", "AB", NULL},        {"--kind", "chess", NULL},
        {"--size", "10by10", NULL},    {"--frobnicate", NULL},
        {"--room", "ABCDE", "--kind"}, {"--bench", "5", NULL},
        {"--level", "pro", NULL},      {"--level", "expert", "--pace"},
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        const char *args[6] = {bad[i][0], bad[i][1], bad[i][2], NULL};
        if (strcmp(bad[i][0], "--room") == 0 && bad[i][2])
            args[3] = "maze";
        if (strcmp(bad[i][0], "--bench") == 0)
            args[2] = "--bots", args[3] = "3";
        if (strcmp(bad[i][0], "--level") == 0 && bad[i][2])
            args[3] = "5"; /* --level with --pace: refused */
        assert_int_equal(run_bot(args, NULL, NULL, NULL, NULL), 2);
    }
    const char *help[] = {"--help", NULL};
    int usage = 0;
    assert_int_equal(run_bot(help, "usage:", &usage, NULL, NULL), 0);
    assert_int_equal(usage, 1);
    const char *ver[] = {"--version", NULL};
    int v = 0;
    assert_int_equal(run_bot(ver, "mazerace-bot ", &v, NULL, NULL), 0);
    assert_int_equal(v, 1);
}

/* A discovery probe to 127.0.0.1 finds the server, with its game port. */
static void test_discovery_finds_local_server(void **ctx)
{
    (void)ctx;
    static const char *const extra[] = {"--discovery", "0", "--name", "itest", NULL};
    it_proc sv;
    int port = it_server_start(&sv, MR_SERVER_PATH, extra);
    assert_true(port > 0);
    char line[256];
    assert_true(it_proc_expect(&sv, "discovery on", line, sizeof line, 5000, "server"));
    const char *colon = strrchr(line, ':');
    int dport = colon ? atoi(colon + 1) : 0;
    assert_true(dport > 0);
    const char *err = NULL;
    cl_disc_t *d = cl_disc_create(dport, &err);
    assert_non_null(d);
    cl_server_info info, got;
    bool found = false, details = false;
    uint64_t deadline = mr_now_us() + 5000000u, next_probe = 0;
    /* UDP may lose a probe: probe again every 200 ms until a reply and its
     * details (the server id) came. */
    while (!(found && details) && mr_now_us() < deadline) {
        uint64_t now = mr_now_us();
        if (now >= next_probe) {
            assert_null(cl_disc_probe(d, "127.0.0.1", now / 1000u));
            next_probe = now + 200000u;
        }
        it_proc_line(&sv, line, sizeof line, 5, "server");
        while (cl_disc_poll(d, mr_now_us() / 1000u, &got)) {
            assert_int_equal(got.game_port, port);
            if (got.details) {
                details = true;
                assert_true(got.server_id != 0);
                assert_false(got.has_room); /* a dedicated server names no room */
            } else {
                found = true;
                info = got;
            }
        }
    }
    assert_true(found && details);
    assert_int_equal(info.game_port, port);
    assert_string_equal(info.name, "itest");
    assert_string_equal(info.addr, "127.0.0.1");
    assert_true(info.max_players > 0);
    assert_int_equal(info.players, 0);
    assert_non_null(cl_disc_probe(d, "not-an-address", 0));
    cl_disc_destroy(d);
    server_down(&sv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_bot_plays_one_match, it_teardown),
        cmocka_unit_test_teardown(test_bot_retries_busy_server, it_teardown),
        cmocka_unit_test_teardown(test_bot_level_plays_a_match, it_teardown),
        cmocka_unit_test_teardown(test_bot_pairs_rooms_and_rematches, it_teardown),
        cmocka_unit_test_teardown(test_bot_rooms_from_game_ids, it_teardown),
        cmocka_unit_test_teardown(test_bot_joins_room_by_code, it_teardown),
        cmocka_unit_test_teardown(test_bot_bench_small, it_teardown),
        cmocka_unit_test_teardown(test_bot_failure_isolated, it_teardown),
        cmocka_unit_test_teardown(test_bot_fails_without_server, it_teardown),
        cmocka_unit_test_teardown(test_bot_bad_flags, it_teardown),
        cmocka_unit_test_teardown(test_discovery_finds_local_server, it_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
