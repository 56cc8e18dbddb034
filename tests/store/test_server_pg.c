/* test_server_pg.c: two real mazerace-servers share one PostgreSQL database while bots race; the database
 * is stopped in the middle and restarted, or down when a server starts; every game ends up in it once, and
 * no password is ever printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <libpq-fe.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "it_proc.h"
#include "st_pg.h"

/* The harness's server (tests/store/pg_harness.sh); a database of this test's own. */
static char
    uri[640]; /* with a password parameter: trust authentication ignores it, the logs must not show it */
static char plain[512]; /* without: for the checks */
#define SECRET "hunter2-not-printed"

static long long sql(const char *q)
{
    PGconn *c = PQconnectdb(plain);
    if (PQstatus(c) != CONNECTION_OK)
        fail_msg("connect: %s", PQerrorMessage(c));
    PGresult *r = PQexec(c, q);
    long long v = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0
                      ? strtoll(PQgetvalue(r, 0, 0), NULL, 10)
                      : -1;
    if (PQresultStatus(r) != PGRES_TUPLES_OK && PQresultStatus(r) != PGRES_COMMAND_OK)
        fail_msg("%s: %s", q, PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
    return v;
}

static void pg_ctl(const char *what)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "'%s' %s", getenv("MR_PG_HARNESS"), what);
    if (system(cmd) != 0)
        fail_msg("%s failed", cmd);
}

static int server_up(it_proc *sv, const char *spool)
{
    const char *extra[] = {"--no-discovery", "--countdown", "0.2",        "--log-level", "info", "--stats",
                           "--db",           uri,           "--db-spool", spool,         NULL};
    int port = it_server_start(sv, MR_SERVER_PATH, extra);
    assert_true(port > 0);
    return port;
}

static void bot_start(it_proc *bot, int port, const char *name, int matches)
{
    char addr[32], nm[8];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    snprintf(nm, sizeof nm, "%d", matches);
    char *argv[] = {MR_BOT_PATH, "--server", addr,           "--bots",    "2",      "--kind", "maze",
                    "--size",    "8x8",      "--difficulty", "easy",      "--pace", "10",     "--matches",
                    nm,          "--name",   (char *)name,   "--timeout", "120",    NULL};
    assert_true(it_proc_spawn(bot, argv));
}

/* Reads one line of a bot (its "match ..." lines count games: two per
 * game), keeping the servers' pipes drained; false when the bot is done. */
static bool bot_line(it_proc *bot, int *games, it_proc *sv, int nsv, int *leaks)
{
    char line[1024];
    for (int i = 0; i < nsv; i++)
        it_proc_drain(&sv[i], "server", SECRET, leaks);
    if (!it_proc_line(bot, line, sizeof line, 60000, "bot"))
        return false;
    if (strncmp(line, "match ", 6) == 0)
        (*games)++;
    return true;
}

static void bot_end(it_proc *bot)
{
    int code = -1;
    assert_true(it_proc_wait(bot, 10000, &code, "bot"));
    assert_int_equal(code, 0);
}

/* Waits (bounded: 60 s) until the database holds `want` matches. */
static void wait_rows(long long want, it_proc *sv, int nsv, int *leaks)
{
    long long n = -1;
    for (int i = 0; i < 600; i++) {
        for (int k = 0; k < nsv; k++)
            it_proc_drain(&sv[k], "server", SECRET, leaks);
        if (sql("SELECT count(*) FROM pg_tables WHERE tablename = 'matches'") == 1) /* made at reconnection */
            n = sql("SELECT count(*) FROM matches");
        if (n >= want)
            break;
        struct timespec ts = {0, 100000000};
        nanosleep(&ts, NULL);
    }
    assert_int_equal(n, want);
}

static void test_fleet_and_outage(void **state)
{
    (void)state;
    const char *dir = getenv("MR_PG_DIR");
    snprintf(plain, sizeof plain, "postgresql://mazerace@/fleet?host=%s", dir);
    snprintf(uri, sizeof uri, "%s&password=" SECRET, plain);
    char admin[512];
    snprintf(admin, sizeof admin, "%s", getenv("MR_PG_URI"));
    PGconn *c = PQconnectdb(admin);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PQclear(PQexec(c, "CREATE DATABASE fleet"));
    PQfinish(c);

    char spool[2][600];
    it_proc sv[2];
    int port[2], leaks = 0;
    for (int i = 0; i < 2; i++) { /* a fleet of two, both migrating the new database at once */
        snprintf(spool[i], sizeof spool[i], "%s/server%d.spool", dir, i);
        port[i] = server_up(&sv[i], spool[i]);
    }
    assert_int_equal(sql("SELECT count(*) FROM mazerace_schema"), ST_PG_VERSION);

    /* Both servers record races into the one database. */
    it_proc bot[2];
    int games = 0;
    bot_start(&bot[0], port[0], "alpha", 4);
    bot_start(&bot[1], port[1], "beta", 4);
    for (int i = 0; i < 2; i++) {
        while (bot_line(&bot[i], &games, sv, 2, &leaks)) {
        }
        bot_end(&bot[i]);
    }
    assert_int_equal(games, 2 * 2 * 4); /* two lines a game */
    wait_rows(8, sv, 2, &leaks);
    assert_int_equal(sql("SELECT count(*) FROM players WHERE slot = 0 AND name LIKE 'alpha%'"), 4);
    assert_int_equal(sql("SELECT count(*) FROM players WHERE slot = 0 AND name LIKE 'beta%'"), 4);

    /* The database stops in the middle of a run of races and comes back:
     * the races go on, their records wait in server 0's spool, then arrive. */
    games = 0;
    bot_start(&bot[0], port[0], "gamma", 12);
    bool stopped = false, restarted = false;
    while (bot_line(&bot[0], &games, sv, 2, &leaks)) {
        if (!stopped && games >= 2 * 3) {
            pg_ctl("stop");
            stopped = true;
        }
        if (stopped && !restarted && games >= 2 * 9) {
            pg_ctl("start");
            restarted = true;
        }
    }
    bot_end(&bot[0]);
    assert_true(restarted);
    assert_int_equal(games, 2 * 12);
    wait_rows(8 + 12, sv, 2, &leaks);
    assert_int_equal(sql("SELECT count(*) FROM players WHERE slot = 0 AND name LIKE 'gamma%'"), 12);
    assert_int_equal(sql("SELECT count(*) FROM matches m WHERE (SELECT count(*) FROM moves v WHERE"
                         " v.match_id = m.id) <> (SELECT sum(moves) FROM players p WHERE p.match_id = m.id)"),
                     0);

    /* A clean stop: the statistics say what was spooled and that the spool is empty. */
    int spooled = -1, waiting = -1;
    for (int i = 0; i < 2; i++) {
        it_proc_signal(&sv[i], SIGTERM);
        char line[1024];
        while (it_proc_line(&sv[i], line, sizeof line, 15000, "server")) {
            if (strstr(line, SECRET))
                leaks++;
            if (i == 0) {
                sscanf(line, "stats records_spooled %d", &spooled);
                sscanf(line, "stats records_spool_waiting %d", &waiting);
            }
        }
        int code = -1;
        assert_true(it_proc_wait(&sv[i], 15000, &code, "server"));
        assert_int_equal(code, 0);
    }
    print_message("server 0: %d records spooled while the database was down, %d still waiting\n", spooled,
                  waiting);
    assert_true(spooled >= 1);
    assert_int_equal(waiting, 0);
    assert_int_equal(leaks, 0); /* the password never appeared in any output */
}

/* A server started while its database is down starts anyway and races;
 * its records arrive when the database comes up. */
static void test_down_at_start(void **state)
{
    (void)state;
    const char *dir = getenv("MR_PG_DIR");
    snprintf(plain, sizeof plain, "postgresql://mazerace@/late?host=%s", dir);
    snprintf(uri, sizeof uri, "%s", plain);
    PGconn *c = PQconnectdb(getenv("MR_PG_URI"));
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PQclear(PQexec(c, "CREATE DATABASE late"));
    PQfinish(c);
    pg_ctl("stop");
    char spool[600];
    snprintf(spool, sizeof spool, "%s/late.spool", dir);
    it_proc sv;
    int leaks = 0, games = 0;
    int port = server_up(&sv, spool);
    it_proc bot;
    bot_start(&bot, port, "early", 4);
    while (bot_line(&bot, &games, &sv, 1, &leaks)) {
    }
    bot_end(&bot);
    assert_int_equal(games, 2 * 4);
    pg_ctl("start");
    /* Said by the server's once-a-second check, with no game ending after
     * the database came back (the bot is gone). */
    char line[1024];
    assert_true(it_proc_expect(&sv, "match database back", line, sizeof line, 30000, "server"));
    wait_rows(4, &sv, 1, &leaks); /* and the schema was made on the way */
    assert_int_equal(sql("SELECT count(*) FROM players WHERE slot = 0 AND name LIKE 'early%'"), 4);
    it_proc_signal(&sv, SIGINT);
    int code = -1;
    assert_true(it_proc_wait(&sv, 15000, &code, "server"));
    assert_int_equal(code, 0);
}

int main(void)
{
    if (!getenv("MR_PG_URI") || !getenv("MR_PG_DIR") || !getenv("MR_PG_HARNESS")) {
        fprintf(stderr, "test_server_pg: run it through tests/store/pg_harness.sh run (ctest does)\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_fleet_and_outage, it_teardown),
        cmocka_unit_test_teardown(test_down_at_start, it_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
