/* test_client_edges.c: layout at the edges: the smallest window allowed (640x360) and the longest name
 * allowed (24 characters): the strings the real client draws (its text dump beside each screenshot) stay on
 * the screen and do not overlap on the race HUD, the results table and the menu (its hint clear of Quit). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cl_test_util.h"

enum { W = 640, H = 360, MAXT = 512 };

static const char *const long_name = "WWWWWWWWWWWWWWWWWWWWWWWW"; /* 24: the widest letters */

typedef struct drawn {
    int font;
    SDL_Rect r;
    char s[40];
} drawn;

static char out[1 << 16];

/* Reads PATH.txt: "font x y w h text" a line. */
static int load(const char *shot, drawn *d, int max)
{
    char path[600];
    snprintf(path, sizeof path, "%s.txt", shot);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int n = 0;
    char line[256];
    while (n < max && fgets(line, sizeof line, f)) {
        int used = 0;
        if (sscanf(line, "%d %d %d %d %d %n", &d[n].font, &d[n].r.x, &d[n].r.y, &d[n].r.w, &d[n].r.h, &used) <
            5)
            continue;
        snprintf(d[n].s, sizeof d[n].s, "%s", line + used);
        d[n].s[strcspn(d[n].s, "\n")] = 0;
        n++;
    }
    fclose(f);
    return n;
}

static int find_from(const drawn *d, int from, int n, const char *prefix)
{
    for (int i = from; i < n; i++)
        if (strncmp(d[i].s, prefix, strlen(prefix)) == 0)
            return i;
    return -1;
}

static int find(const drawn *d, int n, const char *prefix)
{
    return find_from(d, 0, n, prefix);
}

/* Strings from..to-1 that lie in band (y within it) are on screen and
 * pairwise apart. */
static void check_apart(const drawn *d, int from, int to, int y0, int y1)
{
    for (int i = from; i < to; i++) {
        if (d[i].r.y < y0 || d[i].r.y >= y1 || !d[i].s[0])
            continue;
        if (d[i].r.x < 0 || d[i].r.x + d[i].r.w > W)
            fail_msg("'%s' leaves the %dx%d screen (x %d, w %d)", d[i].s, W, H, d[i].r.x, d[i].r.w);
        for (int j = i + 1; j < to; j++) {
            if (d[j].r.y < y0 || d[j].r.y >= y1 || !d[j].s[0])
                continue;
            if (SDL_HasIntersection(&d[i].r, &d[j].r))
                fail_msg("'%s' (%d,%d %dx%d) overlaps '%s' (%d,%d %dx%d)", d[i].s, d[i].r.x, d[i].r.y,
                         d[i].r.w, d[i].r.h, d[j].s, d[j].r.x, d[j].r.y, d[j].r.w, d[j].r.h);
        }
    }
}

static void run(const char *script, const char *game, const char *level)
{
    assert_true(clt_write(clt_path("edges.txt"), script));
    const char *args[] = {"--headless",
                          "--no-save",
                          "--size",
                          "640x360",
                          "--name",
                          long_name,
                          "--vs-computer",
                          game,
                          "--bot-level",
                          level,
                          "--series",
                          "3",
                          "--script",
                          clt_path("edges.txt"),
                          "--max-seconds",
                          "40",
                          NULL};
    assert_int_equal(clt_run(args, out, sizeof out, 60000), 0);
}

static void test_race_hud_and_menu(void **ctx)
{
    (void)ctx;
    char script[512];
    snprintf(
        script, sizeof script,
        "0 wait race\n+300 screenshot %s\n+100 key Escape\n+100 key Y\n0 wait menu\n+200 screenshot %s\n",
        clt_path("race.bmp"), clt_path("menu.bmp"));
    run(script, "maze:21x21:easy#3", "beginner");
    static drawn d[MAXT];
    int n = load(clt_path("race.bmp"), d, MAXT);
    int me = find(d, n, "WWW"), clock = find(d, n, "0:0");
    assert_true(me >= 0 && clock >= 0);
    assert_non_null(strstr(d[me].s, "(you)")); /* the name is cut, " (you)" kept */
    /* The HUD: the top ninth of the window, at least 48 px. */
    check_apart(d, 0, n, 0, 48);
    n = load(clt_path("menu.bmp"), d, MAXT);
    int quit = find(d, n, "Quit"), hint = find(d, n, "Arrows");
    assert_true(quit >= 0 && hint >= 0);
    /* The hint sits below Quit's row (rows are at least 5/4 of the text high). */
    assert_true(d[hint].r.y >= d[quit].r.y + d[quit].r.h * 5 / 4 - (d[quit].r.h / 8));
    check_apart(d, 0, n, 0, H);
}

static void test_results_columns(void **ctx)
{
    (void)ctx;
    char script[256];
    snprintf(script, sizeof script, "0 wait results\n+300 screenshot %s\n", clt_path("res.bmp"));
    run(script, "maze:5x5:easy#1", "expert");
    static drawn d[MAXT];
    int n = load(clt_path("res.bmp"), d, MAXT);
    int title = find(d, n, "Computer wins");
    assert_true(title >= 0);
    /* The player who did not reach the goal has no time, and the series
     * goes on with Next race. */
    assert_true(find_from(d, title, n, "did not finish") > title);
    assert_true(find_from(d, title, n, "Next race") > title);
    assert_true(find_from(d, title, n, "WWW") > title);
    /* Everything the results panel draws (after its title) stays apart. */
    check_apart(d, title, n, 0, H);
}

int main(void)
{
    setenv("MAZERACE_TEXT_DUMP", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_race_hud_and_menu),
        cmocka_unit_test(test_results_columns),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (rc == 0)
        clt_cleanup();
    return rc;
}
