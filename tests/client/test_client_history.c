/* test_client_history.c: the game's history (cl_history) on a real SQLite
 * file in a temporary directory: races in and out with their move logs,
 * newest first in pages, best times, and files it cannot use (corrupt,
 * foreign, locked, read-only, missing folder) reported once without
 * stopping anything. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "cl_history.h"
#include "cl_test_util.h"
#include "clt_history.h"
#include "st_writer.h"
#include "match.h"
#include "st_sqlite.h"
#include "util.h"

/* A race on maze:9x7:easy#seed: slot 0 (name0) against slot 1, winner w
 * solving in ms; a few moves each. */
static st_match *race(const char *mode, uint64_t seed, const char *name0, const char *name1, int w,
                      uint64_t ms)
{
    char id[64];
    snprintf(id, sizeof id, "maze:9x7:easy#%llu", (unsigned long long)seed);
    st_match *r = clt_record(mode, id, 1795598277 + (int64_t)seed, name0, name1, w, ms, ms + 5);
    assert_non_null(r);
    for (uint32_t i = 0; i < 3; i++)
        for (int s = 0; s < 2; s++)
            clt_record_move(r, s, i * 100 + (uint32_t)s * 10,
                            (pz_move){PZ_MOVE_STEP, (uint8_t)((i + (uint32_t)s) % 4), 0, 0});
    return r;
}

/* Queues such a race (with Ada as slot 0) into h. */
static void add(cl_history *h, const char *mode, uint64_t seed, const char *name1, int w, uint64_t ms)
{
    cl_history_add(h, race(mode, seed, "Ada", name1, w, ms));
}

/* A page of n races before before (the answer replaces *p). */
static void page(cl_history *h, int64_t before, int n, st_answer *p, bool *more)
{
    uint32_t t = cl_history_ask_page(h, before, n);
    assert_true(t != 0);
    cl_history_flush(h);
    st_answer_free(p);
    assert_true(cl_history_page(h, t, p, more));
}

static bool bests(cl_history *h, const char *game_id, int w, const char *name, cl_hist_bests *b)
{
    uint32_t t = cl_history_ask_bests(h, game_id, "maze", w, 7, name);
    cl_history_flush(h);
    return cl_history_bests(h, t, b);
}

static void test_races_in_and_out(void **ctx)
{
    (void)ctx;
    const char *path = clt_path("races.sqlite");
    cl_history *h = cl_history_create(path, false);
    add(h, CL_HIST_COMPUTER, 1, "Computer", 0, 9000);
    add(h, CL_HIST_HOTSEAT, 2, "Bob", 1, 7000);
    add(h, CL_HIST_ONLINE, 1, "Cy", 0, 8000);

    static st_answer p;
    bool more = false;
    page(h, 0, 2, &p, &more);
    assert_null(p.error);
    assert_int_equal(p.n, 2);
    assert_true(more);
    /* Newest first. */
    assert_string_equal(p.matches[0].mode, CL_HIST_ONLINE);
    assert_string_equal(p.matches[0].p[1].name, "Cy");
    const st_match *m = &p.matches[1];
    assert_string_equal(m->mode, CL_HIST_HOTSEAT);
    assert_int_equal(m->winner, 1);
    assert_string_equal(m->kind, "maze");
    assert_int_equal(m->width, 9);
    assert_int_equal(m->p[1].time_ms, 7000);
    assert_true(m->p[1].solved);
    assert_false(m->p[0].solved);
    assert_string_equal(m->game_id, "maze:9x7:easy#2");
    assert_int_equal(cl_hist_best_ms(m), 7000);
    assert_null(p.matches[0].moves); /* pages carry no moves */
    int64_t last = p.matches[1].id, newest = p.matches[0].id;
    page(h, last, 2, &p, &more);
    assert_int_equal(p.n, 1);
    assert_false(more);
    assert_string_equal(p.matches[0].mode, CL_HIST_COMPUTER);
    assert_int_equal(p.matches[0].start_utc_ms, 1795598278000LL);

    /* One race with both players' moves, times and players intact. */
    uint32_t t = cl_history_ask_race(h, newest);
    cl_history_flush(h);
    st_answer got;
    assert_true(cl_history_race(h, t, &got));
    assert_true(got.found);
    assert_int_equal(got.match.id, newest);
    assert_int_equal(got.match.nmoves, 6);
    for (uint32_t i = 0; i < 6; i++) {
        const st_move *mv = &got.match.moves[i];
        assert_int_equal(mv->player, i % 2);
        assert_int_equal(mv->ms, i / 2 * 100 + i % 2 * 10);
        assert_int_equal(mv->dir, (i / 2 + i % 2) % 4);
    }
    st_answer_free(&got);
    t = cl_history_ask_race(h, 999999);
    cl_history_flush(h);
    assert_true(cl_history_race(h, t, &got));
    assert_null(got.error);
    assert_false(got.found);

    /* Best on maze:9x7:easy#1 is the faster of the two races on it; Ada's
     * personal best on maze 9x7 is her 8000 (Bob's 7000 is not hers). */
    cl_hist_bests b;
    assert_true(bests(h, "maze:9x7:easy#1", 9, "Ada", &b));
    assert_true(b.ok);
    assert_true(b.have_puzzle);
    assert_int_equal(b.puzzle_ms, 8000);
    assert_string_equal(b.puzzle_name, "Ada");
    assert_true(b.have_personal);
    assert_int_equal(b.personal_ms, 8000);
    assert_true(bests(h, "maze:9x7:easy#3", 11, "Bob", &b));
    assert_true(b.ok);
    assert_false(b.have_puzzle);
    assert_false(b.have_personal);
    char why[256];
    assert_false(cl_history_problem(h, why, sizeof why));
    cl_history_destroy(h);

    /* Everything is still there for the next run. */
    h = cl_history_create(path, false);
    page(h, 0, 10, &p, &more);
    assert_int_equal(p.n, 3);
    st_answer_free(&p);
    cl_history_destroy(h);
}

/* A file the history cannot use: said once, then empty answers, and adds
 * neither crash nor hang. */
static void check_unusable(const char *path, const char *words)
{
    cl_history *h = cl_history_create(path, false);
    add(h, CL_HIST_COMPUTER, 4, "Computer", 0, 5000);
    static st_answer p;
    bool more;
    page(h, 0, 5, &p, &more);
    assert_non_null(p.error);
    assert_int_equal(p.n, 0);
    st_answer_free(&p);
    char why[512];
    assert_true(cl_history_problem(h, why, sizeof why));
    fprintf(stderr, "%s: %s\n", path, why);
    assert_non_null(strstr(why, "History off"));
    if (words)
        assert_non_null(strstr(why, words));
    assert_false(cl_history_problem(h, why, sizeof why)); /* once */
    cl_hist_bests b;
    assert_true(bests(h, "maze:9x7:easy#4", 9, "Ada", &b));
    assert_false(b.ok);
    cl_history_destroy(h);
}

static void test_corrupt_file(void **ctx)
{
    (void)ctx;
    char junk[4096];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (char)('a' + i * 7 % 26);
    junk[sizeof junk - 1] = '\0';
    assert_true(clt_write(clt_path("junk.sqlite"), junk));
    check_unusable(clt_path("junk.sqlite"), "not a mazerace database");
    /* The file is left as it was: nobody's data is overwritten. */
    size_t n = 0;
    char *back = mr_read_file(clt_path("junk.sqlite"), &n);
    assert_non_null(back);
    assert_memory_equal(back, junk, strlen(junk));
    free(back);
}

static void test_foreign_database(void **ctx)
{
    (void)ctx;
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(clt_path("other.sqlite"), &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE recipes(name TEXT)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    check_unusable(clt_path("other.sqlite"), "another program");
}

static void test_missing_folder(void **ctx)
{
    (void)ctx;
    check_unusable("/nonexistent/mazerace/history.sqlite", NULL);
}

/* Another process holds the write lock: the add waits out the busy timeout
 * on the history's thread (the caller never waits), then history is off. */
static void test_locked_file(void **ctx)
{
    (void)ctx;
    const char *path = clt_path("locked.sqlite");
    cl_history *h = cl_history_create(path, false);
    static st_answer p;
    bool more;
    page(h, 0, 1, &p, &more); /* created and migrated */
    assert_null(p.error);
    st_answer_free(&p);
    cl_history_destroy(h);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
    h = cl_history_create(path, false);
    st_match *r = race(CL_HIST_COMPUTER, 5, "Ada", "Computer", 0, 5000);
    uint64_t t0 = mr_now_us();
    cl_history_add(h, r);
    uint32_t t = cl_history_ask_page(h, 0, 1);
    /* Queuing is immediate whatever the file does. */
    assert_true(mr_now_us() - t0 < 500000);
    cl_history_flush(h);
    char why[512];
    assert_true(cl_history_problem(h, why, sizeof why));
    fprintf(stderr, "locked: %s\n", why);
    assert_true(cl_history_page(h, t, &p, &more));
    assert_non_null(p.error);
    st_answer_free(&p);
    cl_history_destroy(h);
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(db);
}

/* A file the player may read but not write: the races in it still show;
 * new ones are not recorded, and that is said once. Run as root (who
 * writes through file modes), the check runs in a child that became
 * "nobody". Returns a failure count. */
static int read_only_check(const char *path)
{
    int bad = 0;
    cl_history *h = cl_history_create(path, false);
    add(h, CL_HIST_COMPUTER, 8, "Computer", 0, 5000);
    static st_answer p;
    bool more;
    uint32_t t = cl_history_ask_page(h, 0, 5);
    cl_history_flush(h);
    bad += !cl_history_page(h, t, &p, &more) || p.error || p.n != 1;
    char why[512] = "";
    bad += !cl_history_problem(h, why, sizeof why) || !strstr(why, "read-only");
    fprintf(stderr, "read-only: %s (%d races listed)\n", why, p.n);
    st_answer_free(&p);
    cl_history_destroy(h);
    return bad;
}

static void test_read_only_file(void **ctx)
{
    (void)ctx;
    char path[512];
    snprintf(path, sizeof path, "%s", clt_path("ro.sqlite"));
    cl_history *h = cl_history_create(path, false);
    add(h, CL_HIST_COMPUTER, 6, "Computer", 0, 5000);
    cl_history_destroy(h);
    assert_int_equal(chmod(path, 0444), 0);
    if (geteuid() != 0) {
        assert_int_equal(read_only_check(path), 0);
        return;
    }
    assert_int_equal(chmod(clt_tmpdir(), 01777), 0); /* like /tmp: SQLite may add its -shm file */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(99);
        _exit(read_only_check(path));
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    chmod(clt_tmpdir(), 0700);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* --no-save: nothing is created; an existing history is read. */
static void test_no_save_creates_nothing(void **ctx)
{
    (void)ctx;
    const char *path = clt_path("nosave.sqlite");
    cl_history *h = cl_history_create(path, true);
    add(h, CL_HIST_COMPUTER, 7, "Computer", 0, 5000);
    cl_history_flush(h);
    char why[512];
    assert_false(cl_history_problem(h, why, sizeof why));
    cl_history_destroy(h);
    assert_int_not_equal(access(path, F_OK), 0);
}

/* The computer's times are kept apart from the puzzle's best: its 3000 on
 * #5 is not the best, Ada's 6000 is; on #6 only the computer solved. */
static void test_computer_times_not_the_best(void **ctx)
{
    (void)ctx;
    cl_history *h = cl_history_create(clt_path("bot.sqlite"), false);
    add(h, CL_HIST_COMPUTER, 5, "Computer", 1, 3000);
    add(h, CL_HIST_ONLINE, 5, "Cy", 0, 6000);
    add(h, CL_HIST_COMPUTER, 6, "Computer", 1, 2000);
    cl_hist_bests b;
    assert_true(bests(h, "maze:9x7:easy#5", 9, "Ada", &b));
    assert_true(b.ok && b.have_puzzle);
    assert_int_equal(b.puzzle_ms, 6000);
    assert_string_equal(b.puzzle_name, "Ada");
    assert_true(bests(h, "maze:9x7:easy#6", 9, "Ada", &b));
    assert_true(b.ok);
    assert_false(b.have_puzzle);
    cl_history_destroy(h);
}

/* A history file as the game wrote it before records had keys (schema
 * version 2: the store's tables with the mode column, no rec_key), one
 * race against the computer in it. */
static void old_file(const char *path, const st_match *r)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char sql[4096];
    snprintf(
        sql, sizeof sql,
        "PRAGMA application_id = 1836741219;"
        "CREATE TABLE matches (id INTEGER PRIMARY KEY, game_id TEXT NOT NULL, desc_id TEXT NOT NULL,"
        " desc_hash INTEGER NOT NULL, kind TEXT NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL,"
        " difficulty TEXT NOT NULL, started_ms INTEGER NOT NULL,"
        " winner INTEGER NOT NULL CHECK (winner IN (-1, 0, 1)),"
        " ending TEXT NOT NULL CHECK (ending IN ('solved', 'forfeit', 'both_left', 'aborted')),"
        " game_no INTEGER NOT NULL, series_len INTEGER NOT NULL, mode TEXT NOT NULL DEFAULT 'server');"
        "CREATE TABLE players (match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,"
        " slot INTEGER NOT NULL CHECK (slot IN (0, 1)), name TEXT NOT NULL, time_ms INTEGER NOT NULL,"
        " moves INTEGER NOT NULL, solved INTEGER NOT NULL CHECK (solved IN (0, 1)),"
        " result TEXT NOT NULL CHECK (result IN ('lost', 'won', 'none')),"
        " PRIMARY KEY (match_id, slot)) WITHOUT ROWID;"
        "CREATE TABLE moves (match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,"
        " seq INTEGER NOT NULL, slot INTEGER NOT NULL CHECK (slot IN (0, 1)), ms INTEGER NOT NULL,"
        " type INTEGER NOT NULL, dir INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL,"
        " PRIMARY KEY (match_id, seq)) WITHOUT ROWID;"
        "CREATE INDEX matches_by_game_id ON matches (game_id);"
        "CREATE INDEX matches_by_desc_hash ON matches (desc_hash);"
        "CREATE INDEX players_by_name ON players (name, solved, time_ms);"
        "INSERT INTO matches VALUES (7, '%s', '%s', %lld, 'maze', 9, 7, 'easy', %lld, 0, 'solved', 1, 1,"
        " 'computer');"
        "INSERT INTO players VALUES (7, 0, 'Ada', %llu, 3, 1, 'won'), (7, 1, 'Computer', %llu, 3, 0, 'lost');"
        "PRAGMA user_version = 2;",
        r->game_id, r->desc_id, (long long)r->desc_hash, (long long)r->start_utc_ms,
        (unsigned long long)r->p[0].time_ms, (unsigned long long)r->p[1].time_ms);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    for (size_t i = 0; i < r->nmoves; i++) {
        const st_move *m = &r->moves[i];
        snprintf(sql, sizeof sql, "INSERT INTO moves VALUES (7, %zu, %d, %u, %d, %d, %d, %d)", i, m->player,
                 m->ms, m->type, m->dir, m->x, m->y);
        assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    }
    sqlite3_close(db);
}

static int user_version(const char *path)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    int v = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return v;
}

/* A history file an older game wrote is brought to the store's schema at
 * open: its race is still listed, with its moves and its replay, and new
 * races join it. */
static void test_old_file_migrated(void **ctx)
{
    (void)ctx;
    char path[512];
    snprintf(path, sizeof path, "%s", clt_path("old.sqlite"));
    st_match *r = race(CL_HIST_COMPUTER, 9, "Ada", "Computer", 0, 4000);
    old_file(path, r);
    assert_int_equal(user_version(path), 2);
    cl_history *h = cl_history_create(path, false);
    static st_answer p;
    bool more;
    page(h, 0, 5, &p, &more);
    assert_null(p.error);
    assert_int_equal(p.n, 1);
    assert_int_equal(p.matches[0].id, 7);
    assert_string_equal(p.matches[0].mode, CL_HIST_COMPUTER);
    assert_string_equal(p.matches[0].p[1].name, "Computer");
    assert_int_equal(cl_hist_best_ms(&p.matches[0]), 4000);
    uint32_t t = cl_history_ask_race(h, 7);
    cl_history_flush(h);
    st_answer got;
    assert_true(cl_history_race(h, t, &got));
    assert_true(got.found);
    assert_int_equal(got.match.nmoves, r->nmoves);
    for (size_t i = 0; i < r->nmoves; i++) {
        assert_int_equal(got.match.moves[i].ms, r->moves[i].ms);
        assert_int_equal(got.match.moves[i].player, r->moves[i].player);
        assert_int_equal(got.match.moves[i].dir, r->moves[i].dir);
    }
    st_answer_free(&got);
    add(h, CL_HIST_HOTSEAT, 10, "Bob", 1, 3000);
    page(h, 0, 5, &p, &more);
    assert_int_equal(p.n, 2);
    assert_string_equal(p.matches[0].game_id, "maze:9x7:easy#10");
    assert_int_equal(p.matches[1].id, 7);
    st_answer_free(&p);
    char why[512];
    assert_false(cl_history_problem(h, why, sizeof why));
    cl_history_destroy(h);
    assert_int_equal(user_version(path), ST_SQLITE_VERSION);
    st_match_free(r);
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_races_in_and_out),  cmocka_unit_test(test_computer_times_not_the_best),
        cmocka_unit_test(test_corrupt_file),      cmocka_unit_test(test_foreign_database),
        cmocka_unit_test(test_missing_folder),    cmocka_unit_test(test_locked_file),
        cmocka_unit_test(test_read_only_file),    cmocka_unit_test(test_no_save_creates_nothing),
        cmocka_unit_test(test_old_file_migrated),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (rc == 0)
        clt_cleanup();
    return rc;
}
