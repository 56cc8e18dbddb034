/* test_store.c: the match store against real SQLite files in a temporary directory (no mocks); the cases
 * every backend shares are in store_cases.h. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "st.h"
#include "st_sqlite.h"
#include "st_writer.h"
#include "util.h"

static char dir[256];
static char path[320];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "%s/mr_store_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/matches.db", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    return 0;
}

#include "store_cases.h"

static int64_t pragma(const char *file, const char *sql)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *s = NULL;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
    int64_t v = -1;
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        v = sqlite3_column_type(s, 0) == SQLITE_TEXT ? (int64_t)sqlite3_column_text(s, 0)[0]
                                                     : sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return v;
}

static void test_fresh_store(void **state)
{
    (void)state;
    st *s = open_ok(ST_OPEN_CREATE);
    assert_string_equal(st_backend_name(s), "sqlite");
    assert_int_equal(st_schema_version(s), ST_SQLITE_VERSION);
    st_close(s);
    assert_int_equal(pragma(path, "PRAGMA journal_mode"), 'w');
    assert_int_equal(pragma(path, "PRAGMA application_id"), ST_SQLITE_APP_ID);
    assert_int_equal(pragma(path, "PRAGMA user_version"), ST_SQLITE_VERSION);
    /* Reopening an up-to-date store changes nothing. */
    s = open_ok(ST_OPEN_READONLY);
    assert_int_equal(st_schema_version(s), ST_SQLITE_VERSION);
    st_close(s);
}

/* A v1 row written the way version 1 wrote it (no mode column). */
static void put_v1_row(sqlite3 *db)
{
    const char *sql =
        "INSERT INTO matches (id, game_id, desc_id, desc_hash, kind, width, height, difficulty, started_ms,"
        " winner, ending, game_no, series_len) VALUES (7, 'ice:8x8:easy#1', 'ice:8x8:d', -5, 'ice', 8, 8,"
        " 'easy', 1700000000000, 1, 'forfeit', 1, 1);"
        "INSERT INTO players VALUES (7, 0, 'old0', 500, 4, 0, 'lost'), (7, 1, 'old1', 400, 3, 1, 'won');"
        "INSERT INTO moves VALUES (7, 0, 1, 100, 0, 2, 0, 0), (7, 1, 0, 150, 0, 1, 0, 0);";
    char *e = NULL;
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, &e), SQLITE_OK);
}

/* Every earlier version (1 .. current - 1; 0 is the empty file of
 * test_fresh_store) migrates to the current one with its rows intact. */
static void test_migrations(void **state)
{
    (void)state;
    for (int v = 1; v < ST_SQLITE_VERSION; v++) {
        unlink(path);
        char err[512];
        assert_null(st_sqlite_create_at(path, v, err, sizeof err));
        assert_int_equal(pragma(path, "PRAGMA user_version"), v);
        sqlite3 *db = NULL;
        assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
        put_v1_row(db);
        sqlite3_close(db);
        /* A read-only opener does not migrate: it says so. */
        assert_null(st_open(path, ST_OPEN_READONLY, err, sizeof err));
        assert_non_null(strstr(err, "older"));
        st *s = open_ok(ST_OPEN_CREATE);
        assert_int_equal(st_schema_version(s), ST_SQLITE_VERSION);
        check_v1_row(s);
        put_n(s, 0, 1); /* new rows go after the old ones */
        st_close(s);
        assert_int_equal(pragma(path, "PRAGMA user_version"), ST_SQLITE_VERSION);
        assert_int_equal(pragma(path, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = "
                                      "'players_by_name'"),
                         1);
    }
}

static void write_file(const char *p, const void *data, size_t n)
{
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* Locations refused with a message naming the real trouble. */
static void test_refused_locations(void **state)
{
    (void)state;
    char err[512];
    assert_null(st_open("none ", ST_OPEN_CREATE, err, sizeof err));
    assert_non_null(strstr(err, "white space"));
    assert_int_equal(access("none ", F_OK), -1); /* no file made */
    assert_null(st_open("mysql://u@h/db", ST_OPEN_CREATE, err, sizeof err));
    assert_non_null(strstr(err, "unknown database scheme 'mysql://'"));
    assert_null(st_open("/nonexistent-mr/dir/x.db", ST_OPEN_CREATE, err, sizeof err));
    assert_non_null(strstr(err, "the directory /nonexistent-mr/dir does not exist"));
    assert_null(st_open("/nonexistent-mr/x.db", ST_OPEN_READONLY, err, sizeof err));
    assert_non_null(strstr(err, "No such file"));
}

static void test_refused_files(void **state)
{
    (void)state;
    /* Not a database at all. */
    char junk[4096];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (char)(i * 7 + 3);
    write_file(path, junk, sizeof junk);
    expect_refused(ST_OPEN_CREATE, "not a mazerace database");
    /* A text file. */
    write_file(path, "hello\n", 6);
    expect_refused(ST_OPEN_CREATE, "not a mazerace database");
    /* Someone else's SQLite database: left untouched. */
    unlink(path);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE notes (t TEXT)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    expect_refused(ST_OPEN_CREATE, "another program");
    assert_int_equal(pragma(path, "PRAGMA user_version"), 0);
    /* A store from a newer mazerace. */
    unlink(path);
    st_close(open_ok(ST_OPEN_CREATE));
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    expect_refused(ST_OPEN_CREATE, "newer");
    /* A store cut short: its schema pages are gone. */
    unlink(path);
    st *s = open_ok(ST_OPEN_CREATE);
    put_n(s, 0, 50);
    st_close(s);
    size_t len = 0;
    char *whole = mr_read_file(path, &len);
    assert_non_null(whole);
    assert_true(len > 8192);
    whole[4096 + 100] ^= 0x55;      /* garbage in page 2 */
    memset(whole + 4096, 0xee, 64); /* page 2's header: not a b-tree page */
    write_file(path, whole, len);
    free(whole);
    char err[512] = "";
    s = st_open(path, ST_OPEN_CREATE, err, sizeof err);
    if (s) { /* the schema (page 1) survived: reading the broken tables must fail cleanly */
        st_match *r = NULL;
        int n = 0;
        const char *e = st_recent(s, 0, 100, &r, &n);
        st_matches_free(r, n);
        st_match m;
        bool found;
        const char *e2 = st_get(s, 1, &m, &found);
        st_match_free(&m);
        assert_true(e || e2);
        print_message("damaged store: %s\n", e ? e : e2);
        st_close(s);
    }
    /* Missing files: read-only openers do not create them. */
    unlink(path);
    expect_refused(ST_OPEN_READONLY, "cannot open");
    /* An empty file is a new store for the server, but nothing to read. */
    write_file(path, "", 0);
    expect_refused(ST_OPEN_READONLY, "empty");
    st_close(open_ok(ST_OPEN_CREATE));
}

/* With the file locked by another connection the thread waits (busy
 * timeout) and the queue fills: further records are dropped at once, the
 * caller never waits; once the lock goes, what was queued is stored. */
static void test_writer_queue_full(void **state)
{
    (void)state;
    st_close(open_ok(ST_OPEN_CREATE));
    sqlite3 *lock = NULL;
    assert_int_equal(sqlite3_open(path, &lock), SQLITE_OK);
    assert_int_equal(sqlite3_exec(lock, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    st_writer *w = st_writer_create(open_ok(ST_OPEN_CREATE), 2, 0);
    int accepted = 0, dropped = 0;
    uint64_t t0 = mr_now_us();
    for (int i = 0; i < 10; i++) {
        if (st_writer_put(w, make(i)))
            accepted++;
        else
            dropped++;
    }
    uint64_t took_us = mr_now_us() - t0;
    /* 2 waiting, plus what the thread took off the queue before it blocked
     * on the lock: nothing yet, or one batch of what was waiting then (at
     * most the queue's 2). Which one depends on when the thread woke. */
    assert_true(accepted >= 2 && accepted <= 4);
    assert_int_equal(accepted + dropped, 10);
    assert_true(took_us < 1000000); /* nowhere near the 5 s busy timeout */
    assert_int_equal(sqlite3_exec(lock, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(lock);
    st_writer_sync(w);
    st_writer_stats s;
    st_writer_stats_get(w, &s);
    assert_int_equal(s.written, accepted);
    assert_int_equal(s.dropped, dropped);
    st_writer_destroy(w);
    assert_int_equal(pragma(path, "SELECT count(*) FROM matches"), accepted);
}

/* The store's thread as the game uses it for its history (client/cl_history.c): opened on the thread,
 * any question run there, st_writer_sync waiting for questions too. */
/* The open's data: where, and what the thread saw. */
typedef struct opening {
    char where[400];
    bool ran;
} opening;

static st *open_it(void *data, char *err, size_t errlen)
{
    opening *o = data;
    o->ran = true;
    return st_open(o->where, ST_OPEN_CREATE, err, errlen);
}

static st_writer *start(const char *where)
{
    opening *o = mr_alloc(1, sizeof *o);
    snprintf(o->where, sizeof o->where, "%s", where);
    st_writer *w = st_writer_open(open_it, o, 0, 0);
    assert_non_null(w);
    return w;
}

/* A question no fixed query asks: how many matches, and the newest id. */
static const char *count_call(st *s, const st_query *q, void **out)
{
    st_match *ms = NULL;
    int n = 0;
    const char *why = st_recent(s, 0, q->limit, &ms, &n);
    if (why)
        return why;
    int64_t *r = mr_alloc(2, sizeof *r);
    r[0] = n;
    r[1] = n ? ms[0].id : 0;
    st_matches_free(ms, n);
    *out = r;
    return NULL;
}

/* The open's answer comes first; records and a CALL follow in order, and
 * sync returns only once the question is answered too. */
static void test_open_on_thread(void **state)
{
    (void)state;
    st_writer *w = start(path);
    for (int i = 0; i < 3; i++)
        assert_true(st_writer_put(w, make(i)));
    st_query q = {.type = ST_Q_CALL, .call = count_call, .limit = 50, .tag = 77};
    assert_true(st_writer_ask(w, &q));
    st_writer_sync(w);
    st_answer a;
    assert_true(st_writer_poll(w, &a));
    assert_int_equal(a.type, ST_Q_OPEN);
    assert_null(a.error);
    assert_true(((opening *)a.data)->ran);
    st_answer_free(&a);
    assert_true(st_writer_poll(w, &a)); /* sync waited for it */
    assert_int_equal(a.type, ST_Q_CALL);
    assert_int_equal(a.tag, 77);
    assert_null(a.error);
    const int64_t *r = a.data;
    assert_int_equal(r[0], 3);
    assert_true(r[1] > 0);
    /* The newest, whole, as it went in. */
    st_query g = {.type = ST_Q_GET, .id = r[1]};
    st_answer_free(&a);
    assert_true(st_writer_ask(w, &g));
    st_writer_sync(w);
    assert_true(st_writer_poll(w, &a));
    assert_true(a.found);
    st_match *want = make(2);
    assert_same(&a.match, want, true);
    st_match_free(want);
    free(want);
    st_answer_free(&a);
    assert_false(st_writer_poll(w, &a));
    st_writer_stats s;
    st_writer_stats_get(w, &s);
    assert_int_equal(s.written, 3);
    st_writer_destroy(w);
}

/* A store that cannot be opened: the open's answer says why; records are
 * counted failed with that reason, questions answered with it, and a CALL
 * is never run without a store. */
static void test_failed_open(void **state)
{
    (void)state;
    char bad[400];
    snprintf(bad, sizeof bad, "%s/no/such/dir/matches.db", dir);
    st_writer *w = start(bad);
    assert_true(st_writer_put(w, make(1))); /* queued: the thread counts it */
    st_query q = {.type = ST_Q_CALL, .call = count_call, .limit = 5};
    assert_true(st_writer_ask(w, &q));
    st_query g = {.type = ST_Q_GET, .id = 1};
    assert_true(st_writer_ask(w, &g));
    st_writer_sync(w);
    st_answer a;
    assert_true(st_writer_poll(w, &a));
    assert_int_equal(a.type, ST_Q_OPEN);
    assert_non_null(a.error);
    assert_non_null(strstr(a.error, "does not exist"));
    char why[256];
    snprintf(why, sizeof why, "%s", a.error);
    st_answer_free(&a);
    for (int i = 0; i < 2; i++) {
        assert_true(st_writer_poll(w, &a));
        assert_string_equal(a.error, why);
        assert_null(a.data);
        assert_false(a.found);
        st_answer_free(&a);
    }
    st_writer_stats s;
    st_writer_stats_get(w, &s);
    assert_int_equal(s.failed, 1);
    assert_int_equal(s.written, 0);
    assert_string_equal(s.last_error, why);
    st_writer_destroy(w);
    assert_int_not_equal(access(bad, F_OK), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fresh_store, setup, teardown),
        STORE_CASES(setup, teardown),
        cmocka_unit_test_setup_teardown(test_migrations, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused_locations, setup, teardown),
        cmocka_unit_test_setup_teardown(test_writer_queue_full, setup, teardown),
        cmocka_unit_test_setup_teardown(test_open_on_thread, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_open, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
