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
#include "match.h"
#include "util.h"

/* A race on maze:9x7:easy#seed: slot 0 (name0) against slot 1, winner w
 * solving in ms; a few logged moves each. */
static void race(cl_hist_race *r, int mode, uint64_t seed, const char *name0, const char *name1, int w,
                 uint64_t ms)
{
    memset(r, 0, sizeof *r);
    r->started = 1795598277 + (int64_t)seed;
    r->mode = mode;
    r->me = mode == CL_HIST_HOTSEAT ? -1 : 0;
    snprintf(r->game_id, sizeof r->game_id, "maze:9x7:easy#%llu", (unsigned long long)seed);
    r->params = (pz_params){PZ_MAZE, 9, 7, PZ_EASY};
    snprintf(r->name[0], sizeof r->name[0], "%s", name0);
    snprintf(r->name[1], sizeof r->name[1], "%s", name1);
    r->winner = w;
    r->reason = MATCH_END_SOLVED;
    for (int s = 0; s < 2; s++) {
        r->solved[s] = s == w;
        r->time_ms[s] = ms + (s == w ? 0 : 5);
        r->moves[s] = 3;
        for (uint32_t i = 0; i < 3; i++)
            cl_hist_race_log(r, s, i * 100 + (uint32_t)s * 10,
                             (pz_move){PZ_MOVE_STEP, (uint8_t)((i + (uint32_t)s) % 4), 0, 0});
    }
    r->game_no = 1;
    r->series_len = 1;
}

/* Queues such a race (with Ada as slot 0) into h. */
static void add(cl_history *h, int mode, uint64_t seed, const char *name1, int w, uint64_t ms)
{
    cl_hist_race r;
    race(&r, mode, seed, "Ada", name1, w, ms);
    cl_history_add(h, &r);
    cl_hist_race_free(&r);
}

static void page(cl_history *h, int64_t before, int n, cl_hist_page *p)
{
    uint32_t t = cl_history_ask_page(h, before, n);
    assert_true(t != 0);
    cl_history_flush(h);
    assert_true(cl_history_page(h, t, p));
}

static void test_races_in_and_out(void **ctx)
{
    (void)ctx;
    const char *path = clt_path("races.sqlite");
    cl_history *h = cl_history_create(path, false);
    add(h, CL_HIST_COMPUTER, 1, "Computer", 0, 9000);
    add(h, CL_HIST_HOTSEAT, 2, "Bob", 1, 7000);
    add(h, CL_HIST_ONLINE, 1, "Cy", 0, 8000);

    static cl_hist_page p;
    page(h, 0, 2, &p);
    assert_true(p.ok);
    assert_int_equal(p.n, 2);
    assert_true(p.more);
    /* Newest first. */
    assert_int_equal(p.e[0].mode, CL_HIST_ONLINE);
    assert_string_equal(p.e[0].name[1], "Cy");
    assert_int_equal(p.e[1].mode, CL_HIST_HOTSEAT);
    assert_int_equal(p.e[1].winner, 1);
    assert_int_equal(p.e[1].params.kind, PZ_MAZE);
    assert_int_equal(p.e[1].params.w, 9);
    assert_int_equal(p.e[1].time_ms[1], 7000);
    assert_true(p.e[1].solved[1]);
    assert_false(p.e[1].solved[0]);
    assert_string_equal(p.e[1].game_id, "maze:9x7:easy#2");
    assert_null(p.e[0].log[0]); /* pages carry no move logs */
    int64_t last = p.e[1].id, newest = p.e[0].id;
    page(h, last, 2, &p);
    assert_int_equal(p.n, 1);
    assert_false(p.more);
    assert_int_equal(p.e[0].mode, CL_HIST_COMPUTER);
    assert_int_equal(p.e[0].started, 1795598278);

    /* One race with both logs, times and players intact. */
    uint32_t t = cl_history_ask_race(h, newest);
    cl_history_flush(h);
    cl_hist_race got;
    assert_true(cl_history_race(h, t, &got));
    assert_int_equal(got.id, newest);
    for (int s = 0; s < 2; s++) {
        assert_int_equal(got.nlog[s], 3);
        for (uint32_t i = 0; i < 3; i++) {
            assert_int_equal(got.log[s][i].at_ms, i * 100 + (uint32_t)s * 10);
            assert_int_equal(got.log[s][i].mv.dir, (i + (uint32_t)s) % 4);
        }
    }
    cl_hist_race_free(&got);
    t = cl_history_ask_race(h, 999999);
    cl_history_flush(h);
    assert_true(cl_history_race(h, t, &got));
    assert_int_equal(got.id, 0);

    /* Best on maze:9x7:easy#1 is the faster of the two races on it; Ada's
     * personal best on maze 9x7 is her 8000 (Bob's 7000 is not hers). */
    t = cl_history_ask_bests(h, "maze:9x7:easy#1", &(pz_params){PZ_MAZE, 9, 7, PZ_EASY}, "Ada");
    cl_history_flush(h);
    cl_hist_bests b;
    assert_true(cl_history_bests(h, t, &b));
    assert_true(b.ok);
    assert_true(b.have_puzzle);
    assert_int_equal(b.puzzle_ms, 8000);
    assert_string_equal(b.puzzle_name, "Ada");
    assert_true(b.have_personal);
    assert_int_equal(b.personal_ms, 8000);
    t = cl_history_ask_bests(h, "maze:9x7:easy#3", &(pz_params){PZ_MAZE, 11, 7, PZ_EASY}, "Bob");
    cl_history_flush(h);
    assert_true(cl_history_bests(h, t, &b));
    assert_true(b.ok);
    assert_false(b.have_puzzle);
    assert_false(b.have_personal);
    char why[256];
    assert_false(cl_history_problem(h, why, sizeof why));
    cl_history_destroy(h);

    /* Everything is still there for the next run. */
    h = cl_history_create(path, false);
    page(h, 0, 10, &p);
    assert_int_equal(p.n, 3);
    cl_history_destroy(h);
}

/* A file the history cannot use: said once, then empty answers, and adds
 * neither crash nor hang. */
static void check_unusable(const char *path, const char *words)
{
    cl_history *h = cl_history_create(path, false);
    add(h, CL_HIST_COMPUTER, 4, "Computer", 0, 5000);
    static cl_hist_page p;
    page(h, 0, 5, &p);
    assert_false(p.ok);
    assert_int_equal(p.n, 0);
    char why[512];
    assert_true(cl_history_problem(h, why, sizeof why));
    fprintf(stderr, "%s: %s\n", path, why);
    assert_non_null(strstr(why, "History off"));
    if (words)
        assert_non_null(strstr(why, words));
    assert_false(cl_history_problem(h, why, sizeof why)); /* once */
    uint32_t t = cl_history_ask_bests(h, "maze:9x7:easy#4", &(pz_params){PZ_MAZE, 9, 7, PZ_EASY}, "Ada");
    cl_history_flush(h);
    cl_hist_bests b;
    assert_true(cl_history_bests(h, t, &b));
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
    static cl_hist_page p;
    page(h, 0, 1, &p); /* created and migrated */
    assert_true(p.ok);
    cl_history_destroy(h);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
    h = cl_history_create(path, false);
    cl_hist_race r;
    race(&r, CL_HIST_COMPUTER, 5, "Ada", "Computer", 0, 5000);
    uint64_t t0 = mr_now_us();
    cl_history_add(h, &r);
    uint32_t t = cl_history_ask_page(h, 0, 1);
    /* Queuing is immediate whatever the file does. */
    assert_true(mr_now_us() - t0 < 500000);
    cl_hist_race_free(&r);
    cl_history_flush(h);
    char why[512];
    assert_true(cl_history_problem(h, why, sizeof why));
    fprintf(stderr, "locked: %s\n", why);
    assert_true(cl_history_page(h, t, &p));
    assert_false(p.ok);
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
    static cl_hist_page p;
    uint32_t t = cl_history_ask_page(h, 0, 5);
    cl_history_flush(h);
    bad += !cl_history_page(h, t, &p) || !p.ok || p.n != 1;
    char why[512] = "";
    bad += !cl_history_problem(h, why, sizeof why) || !strstr(why, "read-only");
    fprintf(stderr, "read-only: %s (%d races listed)\n", why, p.n);
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
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    chmod(clt_tmpdir(), 0700);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
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
    uint32_t t = cl_history_ask_bests(h, "maze:9x7:easy#5", &(pz_params){PZ_MAZE, 9, 7, PZ_EASY}, "Ada");
    cl_history_flush(h);
    assert_true(cl_history_bests(h, t, &b));
    assert_true(b.ok && b.have_puzzle);
    assert_int_equal(b.puzzle_ms, 6000);
    assert_string_equal(b.puzzle_name, "Ada");
    t = cl_history_ask_bests(h, "maze:9x7:easy#6", &(pz_params){PZ_MAZE, 9, 7, PZ_EASY}, "Ada");
    cl_history_flush(h);
    assert_true(cl_history_bests(h, t, &b));
    assert_true(b.ok);
    assert_false(b.have_puzzle);
    cl_history_destroy(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_races_in_and_out), cmocka_unit_test(test_computer_times_not_the_best),
        cmocka_unit_test(test_corrupt_file),     cmocka_unit_test(test_foreign_database),
        cmocka_unit_test(test_missing_folder),   cmocka_unit_test(test_locked_file),
        cmocka_unit_test(test_read_only_file),   cmocka_unit_test(test_no_save_creates_nothing),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (rc == 0)
        clt_cleanup();
    return rc;
}
