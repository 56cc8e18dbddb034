/* test_client_histbest.c: the History screen's best-times view: a history
 * file filled with races (a win and a loss against the computer, hotseat,
 * an unfinished online race) gives one row per kind and size with your
 * best, a person's best and the computer's best kept apart, both from the
 * history itself and as the real client shows it (keys, pad, screenshot). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cl_draw.h"
#include "cl_history.h"
#include "cl_test_util.h"
#include "clt_history.h"
#include "match.h"

static char out[1 << 16];

/* Menu -> History: the fifth entry. */
#define TO_HISTORY "+100 wait menu\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Return\n"

/* One race: slot 0 name0 against slot 1 name1 on game_id; winner w (or -1)
 * solving in ms. */
static void add(cl_history *h, const char *mode, const char *game_id, const char *name0, const char *name1,
                int w, uint64_t ms, int64_t started)
{
    st_match *r = clt_record(mode, game_id, started, name0, name1, w, ms, ms + 700);
    assert_non_null(r);
    r->p[0].moves = r->p[1].moves = 4;
    cl_history_add(h, r);
}

/* The races every test here reads, in the file at path. */
static void fill(const char *path)
{
    cl_history *h = cl_history_create(path, false);
    int64_t t = 1795598277;
    /* The computer is fastest on maze 9x7: never a person's best. */
    add(h, CL_HIST_COMPUTER, "maze:9x7:easy#1", "Ada", "Computer", 1, 4000, t++);
    add(h, CL_HIST_COMPUTER, "maze:9x7:easy#2", "Ada", "Computer", 0, 9000, t++);
    /* Bob (hotseat) beats Ada's time: the person's best, not Ada's. */
    add(h, CL_HIST_HOTSEAT, "maze:9x7:easy#3", "Ada", "Bob", 1, 7000, t++);
    add(h, CL_HIST_HOTSEAT, "maze:21x15:medium#4", "Ada", "Bob", 0, 20000, t++);
    /* Left before its end: counted, no time. */
    add(h, CL_HIST_ONLINE, "sum:5x4:medium#5", "Ada", "Cy", -1, 3000, t++);
    cl_history_destroy(h);
}

static void test_table_rows(void **ctx)
{
    (void)ctx;
    char path[512];
    snprintf(path, sizeof path, "%s", clt_path("table.sqlite"));
    fill(path);
    cl_history *h = cl_history_create(path, true);
    uint32_t t = cl_history_ask_table(h, "Ada");
    assert_true(t != 0);
    cl_history_flush(h);
    static cl_hist_table tb;
    assert_true(cl_history_table(h, t, &tb));
    cl_history_destroy(h);
    assert_true(tb.ok);
    assert_false(tb.more);
    assert_int_equal(tb.n, 3);
    /* By kind (sum before maze), then size. */
    const cl_hist_best_row *sum = &tb.e[0], *small = &tb.e[1], *big = &tb.e[2];
    assert_int_equal(sum->kind, PZ_SUM);
    assert_int_equal(sum->races, 1);
    assert_int_equal(sum->unsolved, 1);
    assert_true(sum->you_ms == 0 && sum->person_ms == 0 && sum->bot_ms == 0);
    assert_int_equal(small->kind, PZ_MAZE);
    assert_int_equal(small->w, 9);
    assert_int_equal(small->races, 3);
    assert_int_equal(small->unsolved, 0);
    assert_int_equal(small->you_ms, 9000);
    assert_int_equal(small->person_ms, 7000);
    assert_string_equal(small->person, "Bob");
    assert_int_equal(small->bot_ms, 4000);
    assert_int_equal(big->w, 21);
    assert_int_equal(big->races, 1);
    assert_int_equal(big->you_ms, 20000);
    assert_int_equal(big->person_ms, 20000);
    assert_string_equal(big->person, "Ada");
    assert_int_equal(big->bot_ms, 0);

    /* Someone else's view of the same file: Bob's best is his own. */
    h = cl_history_create(path, true);
    t = cl_history_ask_table(h, "Bob");
    cl_history_flush(h);
    assert_true(cl_history_table(h, t, &tb));
    cl_history_destroy(h);
    assert_int_equal(tb.e[1].you_ms, 7000);
    assert_int_equal(tb.e[2].you_ms, 0);
}

/* The client shows those rows: B opens the view, pad Y goes back to the
 * races and again to the best times, the "Races" button too. */
static void test_view_in_client(void **ctx)
{
    (void)ctx;
    char hist[512], shot[512], script[2048];
    snprintf(hist, sizeof hist, "%s", clt_path("view.sqlite"));
    snprintf(shot, sizeof shot, "%s", clt_path("bests.bmp"));
    fill(hist);
    snprintf(script, sizeof script,
             "0 wait menu\n" TO_HISTORY
             "+100 wait history\n+300 key b\n+300 screenshot %s\n+100 pad y\n+300 pad y\n"
             "+300 key Return\n+300 quit\n",
             shot);
    assert_true(clt_write(clt_path("view.txt"), script));
    const char *args[] = {"--headless", "--size",   "1280x720",           "--name",        "Ada", "--history",
                          hist,         "--script", clt_path("view.txt"), "--max-seconds", "30",  NULL};
    assert_int_equal(clt_run(args, out, sizeof out, 60000), 0);
    const char *b1 = strstr(out, "HISTORY_BESTS ok=1 rows=3");
    assert_non_null(b1);
    assert_non_null(strstr(b1, "HISTORY_BEST sum 5x4 races=1 unsolved=1 you=0 person=0(-) computer=0\n"));
    assert_non_null(
        strstr(b1, "HISTORY_BEST maze 9x7 races=3 unsolved=0 you=9000 person=7000(Bob) computer=4000\n"));
    assert_non_null(
        strstr(b1, "HISTORY_BEST maze 21x15 races=1 unsolved=0 you=20000 person=20000(Ada) computer=0\n"));
    /* Pad Y twice: read again; Return on the selected "Races" button goes back (no replay opens). */
    assert_non_null(strstr(b1 + 1, "HISTORY_BESTS ok=1 rows=3"));
    assert_null(strstr(out, "REPLAY open"));
    /* Two of the rows show your best in green, in the "your best" column. */
    SDL_Surface *s = clt_load(shot);
    assert_non_null(s);
    int green = clt_count(s, (SDL_Rect){1280 * 30 / 100, 90, 1280 * 30 / 100, 200}, cl_col_good, 24);
    fprintf(stderr, "best-times view: %d green pixels\n", green);
    assert_true(green > 40);
    SDL_FreeSurface(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_rows),
        cmocka_unit_test(test_view_in_client),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (rc == 0)
        clt_cleanup();
    return rc;
}
