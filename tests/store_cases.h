/* store_cases.h: the match store's query cases, run against every backend (test_store.c: SQLite
 * files, test_store_pg.c: a real PostgreSQL server). */
#ifndef MR_STORE_CASES_H
#define MR_STORE_CASES_H

/* Included by one test file, after cmocka.h, st.h, st_writer.h and util.h,
 * which defines `path` (the store's location: a file or a URI) and gives a
 * fresh, empty store at it before every case. Every case holds for every
 * backend: ids from 1 in order of storing, pages, rankings, the writer. */

#include "store_records.h"

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
    /* A race nobody moved in (both left during the countdown). */
    a->nmoves = 0;
    a->p[0].moves = a->p[1].moves = 0;
    a->ending = ST_END_BOTH_LEFT;
    a->winner = -1;
    a->p[0].result = a->p[1].result = ST_NO_RESULT;
    a->p[0].solved = false;
    assert_null(st_put(s, &a, 1));
    assert_null(st_get(s, a->id, &got, &found));
    assert_true(found);
    assert_same(&got, a, true);
    assert_null(got.moves);
    st_match_free(&got);
    st_match_free(a);
    st_match_free(b);
    free(a);
    free(b);
    st_close(s);
}

/* A record delivered twice (the spool sends at least once: a crash between
 * the commit and the spool's header update) is stored once. */
static void test_put_twice(void **state)
{
    (void)state;
    st *s = open_ok(ST_OPEN_CREATE);
    st_match *a = make(1), *b = make(2);
    st_match_new_key(a->key);
    st_match_new_key(b->key);
    assert_int_equal(strlen(a->key), ST_KEY_LEN);
    assert_string_not_equal(a->key, b->key);
    assert_null(st_put(s, &a, 1));
    int64_t first = a->id;
    assert_true(first > 0);
    st_match *both[2] = {a, b}; /* again, in a batch with a new one */
    assert_null(st_put(s, both, 2));
    assert_true(b->id > first);
    assert_null(st_put(s, &b, 1));
    st_match *r = NULL;
    int n = -1;
    assert_null(st_recent(s, 0, 10, &r, &n));
    assert_int_equal(n, 2);
    st_matches_free(r, n);
    /* A bad key is refused. */
    snprintf(a->key, sizeof a->key, "%s", "not-hex");
    assert_non_null(st_put(s, &a, 1));
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

/* After a migration: the row the test wrote at version 1 (match 7 on
 * "ice:8x8:easy#1", old1 beat old0 by forfeit, two moves) reads back whole. */
static void check_v1_row(st *s)
{
    st_match m;
    bool found = false;
    assert_null(st_get(s, 7, &m, &found));
    assert_true(found);
    assert_string_equal(m.mode, "server"); /* the v2 default for rows from servers */
    assert_string_equal(m.p[1].name, "old1");
    assert_true(m.p[1].solved && !m.p[0].solved);
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
}

/* The cases, for the includer's list of tests. */
#define STORE_CASES(setup, teardown)                                                                         \
    cmocka_unit_test_setup_teardown(test_put_get, setup, teardown),                                          \
        cmocka_unit_test_setup_teardown(test_put_twice, setup, teardown),                                    \
        cmocka_unit_test_setup_teardown(test_recent_pages, setup, teardown),                                 \
        cmocka_unit_test_setup_teardown(test_best_times, setup, teardown),                                   \
        cmocka_unit_test_setup_teardown(test_personal_best, setup, teardown),                                \
        cmocka_unit_test_setup_teardown(test_reader_while_writing, setup, teardown),                         \
        cmocka_unit_test_setup_teardown(test_writer_queries, setup, teardown)

#endif
