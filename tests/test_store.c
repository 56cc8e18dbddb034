/* test_store.c: the match store against real SQLite files in a temporary directory (no mocks). */
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

/* A record: match i on game "maze:5x5:easy#<i % 7>", player a solves in
 * 1000 + i ms with 3 + i % 5 moves, player b loses (or solves later). */
static st_match *make(int i)
{
    st_match *m = mr_alloc(1, sizeof *m);
    memset(m, 0, sizeof *m);
    snprintf(m->mode, sizeof m->mode, "server");
    char gid[64];
    snprintf(gid, sizeof gid, "maze:5x5:easy#%d", i % 7);
    m->game_id = mr_strdup(gid);
    snprintf(gid, sizeof gid, "maze:5x5:desc%d", i % 7);
    m->desc_id = mr_strdup(gid);
    m->desc_hash = 0xF000000000000000ull + (uint64_t)(i % 7); /* above INT64_MAX: stored as negative */
    snprintf(m->kind, sizeof m->kind, "maze");
    m->width = 5;
    m->height = 5 + (i % 2);
    snprintf(m->difficulty, sizeof m->difficulty, "easy");
    m->start_utc_ms = 1764000000000 + i;
    m->winner = 0;
    m->ending = i % 3 == 2 ? ST_END_FORFEIT : ST_END_SOLVED;
    m->game_no = 1 + i % 3;
    m->series_len = 3;
    snprintf(m->p[0].name, sizeof m->p[0].name, "ann%d", i % 2);
    snprintf(m->p[1].name, sizeof m->p[1].name, "bob");
    m->p[0].time_ms = 1000 + (uint64_t)i;
    m->p[0].moves = 3 + (uint32_t)(i % 5);
    m->p[0].solved = true;
    m->p[0].result = ST_WON;
    m->p[1].time_ms = 1000 + (uint64_t)i;
    m->p[1].moves = 2;
    m->p[1].solved = false;
    m->p[1].result = ST_LOST;
    m->nmoves = m->p[0].moves + m->p[1].moves;
    m->moves = mr_alloc(m->nmoves, sizeof *m->moves);
    for (size_t k = 0; k < m->nmoves; k++)
        m->moves[k] = (st_move){.ms = (uint32_t)(10 * k),
                                .player = k % 2 && k / 2 < 2 ? 1 : 0,
                                .type = (uint8_t)(k % 4),
                                .dir = (uint8_t)(k % 4),
                                .x = (uint16_t)k,
                                .y = (uint16_t)(65535 - k)};
    return m;
}

static st *open_ok(int flags)
{
    char err[512];
    st *s = st_open(path, flags, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    return s;
}

static void put_n(st *s, int from, int n)
{
    for (int i = from; i < from + n; i++) {
        st_match *m = make(i);
        assert_null(st_put(s, &m, 1));
        assert_true(m->id > 0);
        st_match_free(m);
        free(m);
    }
}

static void assert_same(const st_match *a, const st_match *b, bool full)
{
    assert_string_equal(a->mode, b->mode);
    assert_string_equal(a->game_id, b->game_id);
    assert_true(a->desc_hash == b->desc_hash);
    assert_string_equal(a->kind, b->kind);
    assert_int_equal(a->width, b->width);
    assert_int_equal(a->height, b->height);
    assert_string_equal(a->difficulty, b->difficulty);
    assert_true(a->start_utc_ms == b->start_utc_ms);
    assert_int_equal(a->winner, b->winner);
    assert_int_equal(a->ending, b->ending);
    assert_int_equal(a->game_no, b->game_no);
    assert_int_equal(a->series_len, b->series_len);
    for (int i = 0; i < 2; i++) {
        assert_string_equal(a->p[i].name, b->p[i].name);
        assert_true(a->p[i].time_ms == b->p[i].time_ms);
        assert_int_equal(a->p[i].moves, b->p[i].moves);
        assert_int_equal(a->p[i].solved, b->p[i].solved);
        assert_int_equal(a->p[i].result, b->p[i].result);
    }
    if (!full)
        return;
    assert_string_equal(a->desc_id, b->desc_id);
    assert_int_equal(a->nmoves, b->nmoves);
    for (size_t i = 0; i < a->nmoves; i++) {
        const st_move *x = &a->moves[i], *y = &b->moves[i];
        assert_true(x->ms == y->ms && x->player == y->player && x->type == y->type && x->dir == y->dir &&
                    x->x == y->x && x->y == y->y);
    }
}

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

static void test_put_get(void **state)
{
    (void)state;
    st *s = open_ok(ST_OPEN_CREATE);
    st_match *a = make(4), *b = make(5);
    st_match *both[2] = {a, b};
    assert_null(st_put(s, both, 2));
    assert_true(a->id > 0 && b->id == a->id + 1);
    st_match got;
    bool found = false;
    assert_null(st_get(s, b->id, &got, &found));
    assert_true(found);
    assert_true(got.id == b->id);
    assert_same(&got, b, true);
    st_match_free(&got);
    assert_null(st_get(s, b->id + 100, &got, &found));
    assert_false(found);
    assert_null(got.game_id);
    /* A bad record is refused before anything is stored. */
    b->winner = 5;
    assert_non_null(st_put(s, both, 2));
    st_match *r = NULL;
    int n = -1;
    assert_null(st_recent(s, 0, 10, &r, &n));
    assert_int_equal(n, 2);
    st_matches_free(r, n);
    st_match_free(a);
    st_match_free(b);
    free(a);
    free(b);
    st_close(s);
}

static void test_recent_pages(void **state)
{
    (void)state;
    st *s = open_ok(ST_OPEN_CREATE);
    put_n(s, 0, 250);
    int64_t before = 0;
    int total = 0, pages = 0;
    int64_t last = INT64_MAX;
    for (;;) {
        st_match *r = NULL;
        int n = 0;
        assert_null(st_recent(s, before, 1000, &r, &n)); /* clamped to ST_PAGE_MAX */
        assert_true(n <= ST_PAGE_MAX);
        if (n == 0) {
            assert_null(r);
            break;
        }
        for (int i = 0; i < n; i++) {
            assert_true(r[i].id < last); /* newest first, no repeats */
            last = r[i].id;
            assert_null(r[i].desc_id);
            assert_int_equal(r[i].nmoves, 0);
            st_match *want = make((int)r[i].id - 1);
            assert_same(&r[i], want, false);
            st_match_free(want);
            free(want);
        }
        total += n;
        pages++;
        before = r[n - 1].id;
        st_matches_free(r, n);
    }
    assert_int_equal(total, 250);
    assert_int_equal(pages, 3);
    st_match *r = NULL;
    int n = 0;
    assert_null(st_recent(s, 0, 0, &r, &n)); /* at least one */
    assert_int_equal(n, 1);
    assert_true(r[0].id == 250);
    st_matches_free(r, n);
    st_close(s);
}

static void test_best_times(void **state)
{
    (void)state;
    st *s = open_ok(ST_OPEN_CREATE);
    put_n(s, 0, 70); /* game #3: matches 3, 10, ..., 66: ann solves in 1000 + i ms */
    st_match *m = make(3);
    m->p[1].solved = true; /* bob solves the same game in 1001 ms: the fastest */
    m->p[1].time_ms = 1001;
    m->p[1].moves = 9;
    assert_null(st_put(s, &m, 1));
    st_best *b = NULL;
    int n = 0;
    assert_null(st_best_times(s, "maze:5x5:easy#3", 0, 5, &b, &n));
    assert_int_equal(n, 5);
    assert_string_equal(b[0].name, "bob");
    assert_true(b[0].time_ms == 1001 && b[0].moves == 9 && b[0].match_id == m->id);
    assert_true(b[1].time_ms == 1003 && b[1].match_id == 4); /* match i has id i + 1 */
    for (int i = 1; i < n; i++)
        assert_true(b[i - 1].time_ms <= b[i].time_ms);
    free(b);
    /* By description hash: the same rows. */
    assert_null(st_best_times(s, NULL, 0xF000000000000003ull, 100, &b, &n));
    assert_int_equal(n, 12); /* 11 solved by ann (10 + the extra match), 1 by bob */
    free(b);
    assert_null(st_best_times(s, "maze:5x5:easy#99", 0, 5, &b, &n));
    assert_int_equal(n, 0);
    assert_null(b);
    st_match_free(m);
    free(m);
    st_close(s);
}

static void test_personal_best(void **state)
{
    (void)state;
    st *s = open_ok(ST_OPEN_CREATE);
    put_n(s, 10, 20); /* ann0 plays even i (5x5), ann1 odd i (5x6) */
    st_best b;
    bool found = false;
    assert_null(st_personal_best(s, "ann0", "maze", 5, 5, &b, &found));
    assert_true(found);
    assert_true(b.time_ms == 1010 && b.match_id == 1);
    assert_null(st_personal_best(s, "ann1", "maze", 5, 6, &b, &found));
    assert_true(found);
    assert_true(b.time_ms == 1011);
    assert_null(st_personal_best(s, "ann1", "maze", 5, 5, &b, &found));
    assert_false(found);
    assert_null(st_personal_best(s, "bob", "maze", 5, 5, &b, &found)); /* never solved */
    assert_false(found);
    assert_null(st_personal_best(s, "ann0", "ice", 5, 5, &b, &found));
    assert_false(found);
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
        st_match m;
        bool found = false;
        assert_null(st_get(s, 7, &m, &found));
        assert_true(found);
        assert_string_equal(m.mode, "server"); /* the v2 default for rows from servers */
        assert_string_equal(m.p[1].name, "old1");
        assert_int_equal(m.winner, 1);
        assert_int_equal(m.ending, ST_END_FORFEIT);
        assert_true(m.desc_hash == (uint64_t)-5);
        assert_int_equal(m.nmoves, 2);
        assert_int_equal(m.moves[0].player, 1);
        assert_int_equal(m.moves[1].ms, 150);
        st_match_free(&m);
        st_best b;
        assert_null(st_personal_best(s, "old1", "ice", 8, 8, &b, &found));
        assert_true(found && b.match_id == 7);
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

static void expect_refused(int flags, const char *want)
{
    char err[512] = "";
    st *s = st_open(path, flags, err, sizeof err);
    if (s)
        fail_msg("opened %s, wanted refusal '%s'", path, want);
    if (!strstr(err, want))
        fail_msg("error '%s' does not say '%s'", err, want);
    assert_non_null(strstr(err, path)); /* and names the file */
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

#define CONC_RECORDS 600

typedef struct reader_run {
    volatile int done; /* set by the writing side when it has finished (read after a join) */
    pthread_mutex_t mu;
    int reads, distinct;
    const char *failure;
} reader_run;

/* A reader on its own connection while the writer thread stores: every
 * match it sees is complete (its moves all there) and ids only grow. */
static void *reader(void *arg)
{
    reader_run *rr = arg;
    st *r = open_ok(ST_OPEN_READONLY);
    int64_t seen = 0;
    for (int k = 0; k < 1000000; k++) {
        pthread_mutex_lock(&rr->mu);
        int done = rr->done;
        pthread_mutex_unlock(&rr->mu);
        if (done)
            break;
        st_match *rows = NULL;
        int n = 0;
        if (st_recent(r, 0, 1, &rows, &n)) {
            rr->failure = "st_recent failed while writing";
            break;
        }
        if (n == 1) {
            if (rows[0].id < seen)
                rr->failure = "newest id went back";
            if (rows[0].id > seen)
                rr->distinct++;
            seen = rows[0].id;
            st_match m;
            bool found = false;
            if (st_get(r, seen, &m, &found) || !found || m.nmoves != m.p[0].moves + m.p[1].moves)
                rr->failure = "a match read while writing was incomplete";
            st_match_free(&m);
            rr->reads++;
        }
        st_matches_free(rows, n);
        if (rr->failure)
            break;
    }
    st_close(r);
    return NULL;
}

static void test_reader_while_writing(void **state)
{
    (void)state;
    st_writer *w = st_writer_create(open_ok(ST_OPEN_CREATE), CONC_RECORDS + 1, 0);
    assert_non_null(w);
    reader_run rr = {0};
    pthread_mutex_init(&rr.mu, NULL);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, reader, &rr), 0);
    for (int i = 0; i < CONC_RECORDS; i++) {
        assert_true(st_writer_put(w, make(i)));
        if (i % 10 == 9)
            st_writer_sync(w); /* many small transactions for the reader to run into */
    }
    st_writer_sync(w);
    pthread_mutex_lock(&rr.mu);
    rr.done = 1;
    pthread_mutex_unlock(&rr.mu);
    pthread_join(t, NULL);
    pthread_mutex_destroy(&rr.mu);
    if (rr.failure)
        fail_msg("%s", rr.failure);
    st_writer_stats ws;
    st_writer_stats_get(w, &ws);
    assert_int_equal(ws.written, CONC_RECORDS);
    assert_int_equal(ws.dropped, 0);
    assert_true(ws.transactions >= CONC_RECORDS / 10);
    assert_true(ws.last_id == CONC_RECORDS);
    print_message("reader: %d reads, %d distinct newest ids while %llu transactions committed\n", rr.reads,
                  rr.distinct, (unsigned long long)ws.transactions);
    assert_true(rr.distinct >= 2); /* it really read between commits */
    st_writer_destroy(w);
    st *r = open_ok(ST_OPEN_READONLY);
    st_match *rows = NULL;
    int n = 0;
    assert_null(st_recent(r, 0, 1, &rows, &n));
    assert_int_equal(n, 1);
    assert_true(rows[0].id == CONC_RECORDS);
    st_matches_free(rows, n);
    st_close(r);
}

/* Waits for one answer, polling (bounded: 10 s). */
static void wait_answer(st_writer *w, st_answer *a)
{
    for (int i = 0; i < 10000; i++) {
        if (st_writer_poll(w, a))
            return;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    fail_msg("no answer from the store thread in 10 s");
}

static void test_writer_queries(void **state)
{
    (void)state;
    st_writer *w = st_writer_create(open_ok(ST_OPEN_CREATE), 0, 0);
    for (int i = 0; i < 30; i++)
        assert_true(st_writer_put(w, make(i)));
    st_match *bad = make(1);
    bad->ending = 9;
    assert_false(st_writer_put(w, bad)); /* refused, freed */
    /* Questions are answered after the records put before them. */
    st_query q = {.type = ST_Q_RECENT, .tag = 11, .limit = 5};
    assert_true(st_writer_ask(w, &q));
    q = (st_query){.type = ST_Q_GET, .tag = 12, .id = 30};
    assert_true(st_writer_ask(w, &q));
    q = (st_query){.type = ST_Q_BEST, .tag = 13, .limit = 3, .game_id = mr_strdup("maze:5x5:easy#0")};
    assert_true(st_writer_ask(w, &q));
    assert_null(q.game_id); /* taken over */
    q = (st_query){.type = ST_Q_PB, .tag = 14, .name = "ann1", .kind = "maze", .width = 5, .height = 6};
    assert_true(st_writer_ask(w, &q));
    st_answer a;
    wait_answer(w, &a);
    assert_int_equal(a.tag, 11);
    assert_null(a.error);
    assert_int_equal(a.n, 5);
    assert_true(a.matches[0].id == 30);
    st_answer_free(&a);
    wait_answer(w, &a);
    assert_int_equal(a.tag, 12);
    assert_true(a.found);
    assert_int_equal(a.match.nmoves, a.match.p[0].moves + a.match.p[1].moves);
    st_answer_free(&a);
    wait_answer(w, &a);
    assert_int_equal(a.tag, 13);
    assert_int_equal(a.n, 3);
    assert_true(a.best[0].time_ms == 1000);
    st_answer_free(&a);
    wait_answer(w, &a);
    assert_int_equal(a.tag, 14);
    assert_true(a.found);
    assert_true(a.best[0].time_ms == 1001);
    st_answer_free(&a);
    assert_false(st_writer_poll(w, &a));
    st_writer_stats s;
    st_writer_stats_get(w, &s);
    assert_int_equal(s.failed, 1);
    assert_non_null(strstr(s.last_error, "ending"));
    st_writer_destroy(w);
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
    assert_true(accepted >= 2 && accepted <= 3); /* 2 waiting, maybe 1 taken by the thread */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fresh_store, setup, teardown),
        cmocka_unit_test_setup_teardown(test_put_get, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recent_pages, setup, teardown),
        cmocka_unit_test_setup_teardown(test_best_times, setup, teardown),
        cmocka_unit_test_setup_teardown(test_personal_best, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migrations, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reader_while_writing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_writer_queries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_writer_queue_full, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
