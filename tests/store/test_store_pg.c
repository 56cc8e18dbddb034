/* test_store_pg.c: the match store against a real PostgreSQL server (tests/store/pg_harness.sh starts it). */
#include <pthread.h>
#include <setjmp.h>
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
#include <libpq-fe.h>

#include "st.h"
#include "st_pg.h"
#include "st_writer.h"
#include "util.h"

/* The harness's server: MR_PG_URI names its "postgres" database; every
 * case gets a new database of its own (mr_t<N>) at `path`. */
static char path[512];
static char spool[512];
static int ncase;

/* The URI of database `db` on the harness's server (its socket directory). */
static void uri_of(const char *db, const char *userinfo, char *out, size_t n)
{
    snprintf(out, n, "postgresql://%s@/%s?host=%s", userinfo, db, getenv("MR_PG_DIR"));
}

/* Runs SQL (constant text from this file) on the database at uri; the
 * first column of the first row as a number, or -1 when there is none. */
static long long sql_at(const char *uri, const char *sql)
{
    PGconn *c = PQconnectdb(uri);
    if (PQstatus(c) != CONNECTION_OK)
        fail_msg("connect %s: %s", uri, PQerrorMessage(c));
    PGresult *r = PQexec(c, sql);
    ExecStatusType rs = PQresultStatus(r);
    if (rs != PGRES_COMMAND_OK && rs != PGRES_TUPLES_OK)
        fail_msg("%s: %s", sql, PQerrorMessage(c));
    long long v = rs == PGRES_TUPLES_OK && PQntuples(r) > 0 ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : -1;
    PQclear(r);
    PQfinish(c);
    return v;
}

static long long sql(const char *q)
{
    return sql_at(path, q);
}

static int setup(void **state)
{
    (void)state;
    char db[32], create[64];
    snprintf(db, sizeof db, "mr_t%d", ++ncase);
    snprintf(create, sizeof create, "CREATE DATABASE %s", db);
    sql_at(getenv("MR_PG_URI"), create);
    uri_of(db, "mazerace", path, sizeof path);
    snprintf(spool, sizeof spool, "%s/spool_%d", getenv("MR_PG_DIR"), ncase);
    return 0;
}

static bool pg_stopped;

/* Stops or restarts the harness's server (pg_harness.sh stop|start). */
static void pg_ctl(const char *what)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "'%s' %s", getenv("MR_PG_HARNESS"), what);
    if (system(cmd) != 0)
        fail_msg("%s failed", cmd);
    pg_stopped = strcmp(what, "stop") == 0;
}

static int teardown(void **state)
{
    (void)state;
    if (pg_stopped) /* a case that failed while the server was down */
        pg_ctl("start");
    unlink(spool);
    return 0;
}

#include "../store_cases.h"

static void test_fresh_store(void **state)
{
    (void)state;
    st *s = open_ok(ST_OPEN_CREATE);
    assert_string_equal(st_backend_name(s), "postgresql");
    assert_int_equal(st_schema_version(s), ST_PG_VERSION);
    assert_false(st_unavailable(s));
    st_close(s);
    assert_int_equal(sql("SELECT count(*) FROM mazerace_schema"), ST_PG_VERSION);
    assert_int_equal(sql("SELECT max(version) FROM mazerace_schema"), ST_PG_VERSION);
    /* Reopening an up-to-date store changes nothing. */
    s = open_ok(ST_OPEN_READONLY);
    assert_int_equal(st_schema_version(s), ST_PG_VERSION);
    st_close(s);
    s = open_ok(ST_OPEN_CREATE);
    st_close(s);
    assert_int_equal(sql("SELECT count(*) FROM mazerace_schema"), ST_PG_VERSION);
}

/* Every earlier version (0, an empty database, to current - 1) migrates to
 * the current one with its rows intact. */
static void test_migrations(void **state)
{
    (void)state;
    for (int v = 0; v < ST_PG_VERSION; v++) {
        if (v > 0)
            setup(NULL); /* a new database for each version */
        char err[512];
        /* Nothing yet: read-only openers refuse an empty database. */
        assert_null(st_open(path, ST_OPEN_READONLY, err, sizeof err));
        assert_non_null(strstr(err, "empty database"));
        if (v > 0) {
            assert_null(st_pg_create_at(path, v, err, sizeof err));
            assert_int_equal(sql("SELECT max(version) FROM mazerace_schema"), v);
            /* A row written the way version 1 wrote it (no mode column). */
            sql("INSERT INTO matches (id, game_id, desc_id, desc_hash, kind, width, height, difficulty,"
                " started_ms, winner, ending, game_no, series_len) VALUES (7, 'ice:8x8:easy#1', 'ice:8x8:d',"
                " -5, 'ice', 8, 8, 'easy', 1700000000000, 1, 'forfeit', 1, 1);"
                "INSERT INTO players VALUES (7, 0, 'old0', 500, 4, false, 'lost'),"
                " (7, 1, 'old1', 400, 3, true, 'won');"
                "INSERT INTO moves VALUES (7, 0, 1, 100, 0, 2, 0, 0), (7, 1, 0, 150, 0, 1, 0, 0);"
                "SELECT setval(pg_get_serial_sequence('matches', 'id'), 7)");
            assert_null(st_open(path, ST_OPEN_READONLY, err, sizeof err));
            assert_non_null(strstr(err, "older"));
        }
        st *s = open_ok(ST_OPEN_CREATE);
        assert_int_equal(st_schema_version(s), ST_PG_VERSION);
        if (v > 0) {
            check_v1_row(s);
        }
        put_n(s, 0, 1); /* new rows go after the old ones */
        st_close(s);
        assert_int_equal(sql("SELECT max(id) FROM matches"), v > 0 ? 8 : 1);
        assert_int_equal(sql("SELECT max(version) FROM mazerace_schema"), ST_PG_VERSION);
        assert_int_equal(sql("SELECT count(*) FROM pg_indexes WHERE indexname = 'players_by_name'"), 1);
    }
}

static void test_refused(void **state)
{
    (void)state;
    /* Someone else's tables: left untouched. */
    sql("CREATE TABLE notes (t text)");
    expect_refused(ST_OPEN_CREATE, "another program");
    expect_refused(ST_OPEN_READONLY, "another program");
    assert_int_equal(sql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"), 1);
    /* A store from a newer mazerace. */
    setup(NULL);
    st_close(open_ok(ST_OPEN_CREATE));
    sql("INSERT INTO mazerace_schema (version) VALUES (99)");
    expect_refused(ST_OPEN_CREATE, "newer");
    /* A database that does not exist: the server answers, so this is a
     * refusal at once (not "down, retry later"), and the password given in
     * the URI appears nowhere in the message. */
    char uri[512], err[512] = "";
    uri_of("no_such_db", "mazerace:s3cr%40t", uri, sizeof uri);
    snprintf(uri + strlen(uri), sizeof uri - strlen(uri), "&password=hunter2");
    assert_null(st_open(uri, ST_OPEN_CREATE, err, sizeof err));
    print_message("refused: %s\n", err);
    assert_non_null(strstr(err, "no_such_db"));
    assert_null(strstr(err, "s3cr"));
    assert_null(strstr(err, "hunter2"));
    assert_non_null(strstr(err, "mazerace:***@"));
    /* A URI libpq cannot parse. */
    assert_null(st_open("postgresql://[::1", ST_OPEN_CREATE, err, sizeof err));
    assert_non_null(strstr(err, "cannot connect"));
}

static void test_redact(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"postgresql://u:pw@h:5432/db", "postgresql://u:***@h:5432/db"},
        {"postgres://u@h/db?password=pw&sslmode=require", "postgres://u@h/db?password=***&sslmode=require"},
        {"postgresql://h/db?sslmode=disable&password=p%20w",
         "postgresql://h/db?sslmode=disable&password=***"},
        {"postgresql://u:p@ss@h/db", "postgresql://u:***@h/db"},
        {"postgresql:///db?host=/tmp/x", "postgresql:///db?host=/tmp/x"},
        {"postgresql://u:pw@/db?host=/run/pg", "postgresql://u:***@/db?host=/run/pg"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[256];
        st_pg_redact(cases[i][0], out, sizeof out);
        assert_string_equal(out, cases[i][1]);
    }
    char out[256];
    st_location_text("postgres://u:pw@h/db", out, sizeof out); /* through st.h, for the server's logs */
    assert_string_equal(out, "postgres://u:***@h/db");
    st_location_text("/var/lib/mazerace/matches.db", out, sizeof out);
    assert_string_equal(out, "/var/lib/mazerace/matches.db");
    assert_true(st_pg_claims("postgresql://x") && st_pg_claims("postgres://x"));
    assert_false(st_pg_claims("/var/lib/mazerace/matches.db") || st_pg_claims("postgresql:x"));
}

/* Names that are not UTF-8 are kept (as '?'), not refused. */
static void test_bad_utf8_name(void **state)
{
    (void)state;
    st *s = open_ok(ST_OPEN_CREATE);
    st_match *m = make(0);
    snprintf(m->p[1].name, sizeof m->p[1].name, "b\xff\xc3o\xc3\xa9");
    assert_null(st_put(s, &m, 1));
    st_match got;
    bool found = false;
    assert_null(st_get(s, m->id, &got, &found));
    assert_true(found);
    assert_string_equal(got.p[1].name, "b??o\xc3\xa9");
    st_match_free(&got);
    st_match_free(m);
    free(m);
    st_close(s);
}

#define TWO_RECORDS 300

/* One of two servers: opens the fresh database at the same moment as the
 * other (both race to migrate it) and stores TWO_RECORDS records through
 * its own writer thread. Runs in a child process; exits 0 on success. */
static void two_child(int go_fd, int who)
{
    char c;
    if (read(go_fd, &c, 1) != 1)
        _exit(10);
    char err[512];
    st *s = st_open(path, ST_OPEN_CREATE, err, sizeof err);
    if (!s) {
        fprintf(stderr, "server %d: %s\n", who, err);
        _exit(11);
    }
    st_writer *w = st_writer_create(s, TWO_RECORDS, 0);
    for (int i = 0; i < TWO_RECORDS; i++) {
        st_match *m = make(i);
        m->p[0].name[0] = (char)('A' + who); /* whose record it is */
        if (!st_writer_put(w, m))
            _exit(12);
        if (i % 25 == 24)
            st_writer_sync(w);
    }
    st_writer_sync(w);
    st_writer_stats ws;
    st_writer_stats_get(w, &ws);
    st_writer_destroy(w);
    _exit(ws.written == TWO_RECORDS ? 0 : 13);
}

static void test_two_servers(void **state)
{
    (void)state;
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t pid[2];
    for (int k = 0; k < 2; k++) {
        pid[k] = fork();
        assert_true(pid[k] >= 0);
        if (pid[k] == 0) {
            close(go[1]);
            two_child(go[0], k);
        }
    }
    close(go[0]);
    assert_int_equal(write(go[1], "gg", 2), 2); /* both start at once */
    close(go[1]);
    for (int k = 0; k < 2; k++) {
        int status = 0;
        assert_int_equal(waitpid(pid[k], &status, 0), pid[k]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    assert_int_equal(sql("SELECT count(*) FROM mazerace_schema"), ST_PG_VERSION); /* migrated once */
    assert_int_equal(sql("SELECT count(DISTINCT id) FROM matches"), 2 * TWO_RECORDS);
    assert_int_equal(sql("SELECT count(*) FROM players WHERE slot = 0 AND name LIKE 'A%'"), TWO_RECORDS);
    assert_int_equal(sql("SELECT count(*) FROM players WHERE slot = 0 AND name LIKE 'B%'"), TWO_RECORDS);
    /* Every match complete: two players, all its moves, seq 0..n-1. */
    assert_int_equal(sql("SELECT count(*) FROM matches m WHERE (SELECT count(*) FROM players p WHERE"
                         " p.match_id = m.id) <> 2 OR (SELECT count(*) FROM moves v WHERE v.match_id = m.id)"
                         " <> (SELECT sum(moves) FROM players p WHERE p.match_id = m.id)"
                         " OR (SELECT max(seq) + 1 FROM moves v WHERE v.match_id = m.id) <>"
                         " (SELECT count(*) FROM moves v WHERE v.match_id = m.id)"),
                     0);
    /* And the queries see both servers' records. */
    st *s = open_ok(ST_OPEN_READONLY);
    st_best *b = NULL;
    int n = 0;
    assert_null(st_best_times(s, "maze:5x5:easy#0", 0, 100, &b, &n));
    assert_int_equal(n, 2 * ((TWO_RECORDS + 6) / 7));
    for (int i = 1; i < n; i++)
        assert_true(b[i - 1].time_ms < b[i].time_ms ||
                    (b[i - 1].time_ms == b[i].time_ms && b[i - 1].match_id < b[i].match_id));
    free(b);
    st_close(s);
}

static st_writer *spooled_writer(st *s)
{
    st_writer *w = st_writer_create(s, 0, 0);
    char err[512];
    if (!st_writer_spool(w, spool, err, sizeof err))
        fail_msg("%s", err);
    return w;
}

/* Waits (bounded: 60 s) until the writer has stored `written` records in
 * all and its spool is empty; the database's reconnection backoff is a
 * few seconds at most. */
static void wait_drained(st_writer *w, uint64_t written)
{
    st_writer_stats ws;
    for (int i = 0; i < 6000; i++) {
        st_writer_stats_get(w, &ws);
        if (ws.written == written && ws.spool_waiting == 0)
            return;
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    fail_msg("spool not drained in 60 s: %llu of %llu written, %d waiting, last error %s",
             (unsigned long long)ws.written, (unsigned long long)written, ws.spool_waiting, ws.last_error);
}

/* The database holds exactly make(0) .. make(n - 1), each once, complete,
 * and in order (ids grow with i). */
static void check_all_there(int n)
{
    assert_int_equal(sql("SELECT count(*) FROM matches"), n);
    assert_int_equal(sql("SELECT count(DISTINCT started_ms) FROM matches"), n);
    assert_int_equal(sql("SELECT min(started_ms) - 1764000000000 FROM matches"), 0);
    assert_int_equal(sql("SELECT max(started_ms) - 1764000000000 FROM matches"), n - 1);
    assert_int_equal(sql("SELECT count(*) FROM matches a JOIN matches b ON a.id < b.id"
                         " AND a.started_ms > b.started_ms"),
                     0);
    assert_int_equal(sql("SELECT count(*) FROM moves"), sql("SELECT sum(moves) FROM players"));
}

/* The database stops in the middle of a run and comes back: records put
 * meanwhile go to the spool (none dropped, none failed, the caller never
 * waits), questions get an error at once, and once it is back the spool
 * is sent, in order, and emptied. */
static void test_db_stopped_mid_run(void **state)
{
    (void)state;
    st_writer *w = spooled_writer(open_ok(ST_OPEN_CREATE));
    for (int i = 0; i < 100; i++)
        assert_true(st_writer_put(w, make(i)));
    st_writer_sync(w);
    pg_ctl("stop");
    uint64_t worst_us = 0;
    for (int i = 100; i < 200; i++) {
        uint64_t t0 = mr_now_us();
        assert_true(st_writer_put(w, make(i)));
        if (mr_now_us() - t0 > worst_us)
            worst_us = mr_now_us() - t0;
        if (i % 20 == 19)
            st_writer_sync(w); /* several failed attempts, each record kept */
    }
    st_writer_sync(w);
    st_query q = {.type = ST_Q_RECENT, .tag = 1, .limit = 5};
    assert_true(st_writer_ask(w, &q));
    st_answer a;
    wait_answer(w, &a);
    assert_non_null(a.error);
    print_message("asked while down: %s\n", a.error);
    st_answer_free(&a);
    st_writer_stats ws;
    st_writer_stats_get(w, &ws);
    print_message("while down: %llu written, %llu spooled, %d waiting; slowest put %llu us\n",
                  (unsigned long long)ws.written, (unsigned long long)ws.spooled, ws.spool_waiting,
                  (unsigned long long)worst_us);
    assert_int_equal(ws.written, 100);
    assert_int_equal(ws.spooled, 100);
    assert_int_equal(ws.spool_waiting, 100);
    assert_int_equal(ws.dropped + ws.failed, 0);
    pg_ctl("start");
    wait_drained(w, 200);
    st_writer_stats_get(w, &ws);
    assert_int_equal(ws.dropped + ws.failed, 0);
    st_writer_destroy(w);
    check_all_there(200);
}

/* The database is down when the server starts: the store opens anyway
 * (down), records wait in the spool, a restart of the server keeps them,
 * and when the database appears it is created, migrated and filled. */
static void test_db_down_at_start(void **state)
{
    (void)state;
    pg_ctl("stop");
    char err[512];
    st *s = st_open(path, ST_OPEN_CREATE, err, sizeof err);
    if (!s)
        fail_msg("open while down: %s", err);
    assert_true(st_unavailable(s));
    assert_int_equal(st_schema_version(s), 0);
    assert_null(st_open(path, ST_OPEN_READONLY, err, sizeof err)); /* operator tools need it now */
    st_writer *w = spooled_writer(s);
    for (int i = 0; i < 30; i++)
        assert_true(st_writer_put(w, make(i)));
    st_writer_sync(w);
    st_writer_destroy(w); /* the server stops while the database is still down */
    w = spooled_writer(open_ok(ST_OPEN_CREATE));
    for (int i = 30; i < 50; i++)
        assert_true(st_writer_put(w, make(i)));
    st_writer_sync(w);
    st_writer_stats ws;
    st_writer_stats_get(w, &ws);
    assert_int_equal(ws.spool_waiting, 50); /* the first run's 30 and these 20 */
    pg_ctl("start");
    wait_drained(w, 50);
    st_writer_destroy(w);
    check_all_there(50);
    assert_int_equal(sql("SELECT max(version) FROM mazerace_schema"), ST_PG_VERSION);
}

int main(void)
{
    if (!getenv("MR_PG_URI") || !getenv("MR_PG_DIR")) {
        fprintf(stderr, "test_store_pg: run it through tests/store/pg_harness.sh run (ctest does)\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_redact),
        cmocka_unit_test_setup_teardown(test_fresh_store, setup, teardown),
        STORE_CASES(setup, teardown),
        cmocka_unit_test_setup_teardown(test_migrations, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_utf8_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_servers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_db_stopped_mid_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_db_down_at_start, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
