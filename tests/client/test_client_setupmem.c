/* test_client_setupmem.c: the setup screen remembers the kind and the computer level between visits and runs
 * (kept in the settings file as "setup = ..."); a bad setup line is refused with a reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cl_settings.h"
#include "cl_test_util.h"

static char out[1 << 16];

static void test_parse_and_format(void **ctx)
{
    (void)ctx;
    cl_settings s;
    cl_settings_default(&s);
    for (int i = 0; i < CL_SETUP_REMEMBERED; i++)
        assert_int_equal(s.setup[i], -1);
    char msg[160];
    const char *text = "setup = 2 1 0 3 1\n";
    assert_int_equal(cl_settings_parse(&s, text, strlen(text), msg, sizeof msg), 0);
    assert_int_equal(s.setup[0], 2);
    assert_int_equal(s.setup[3], 3);
    char *f = cl_settings_format(&s);
    assert_non_null(strstr(f, "setup = 2 1 0 3 1\n"));
    free(f);
    const char *bad = "setup = 2 x\n";
    assert_int_equal(cl_settings_parse(&s, bad, strlen(bad), msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "setup"));
    assert_int_equal(s.setup[0], 2); /* kept */
}

/* Menu > Play vs computer, Puzzle one to the right, Computer one to the
 * right, Back; then (a second run on the same settings file) the setup
 * screen opens on those choices. */
static void test_remembered_between_runs(void **ctx)
{
    (void)ctx;
    char settings[400], shot[400]; /* clt_path's buffers rotate: keep copies */
    snprintf(settings, sizeof settings, "%s", clt_path("settings.txt"));
    snprintf(shot, sizeof shot, "%s", clt_path("setup.bmp"));
    assert_true(clt_write(settings, "name = Ann\n"));
    assert_true(clt_write(clt_path("a.txt"), "0 wait menu\n+50 key Return\n+50 wait setup\n+50 key Right\n"
                                             "+50 key Down\n+50 key Down\n+50 key Down\n+50 key Down\n"
                                             "+50 key Right\n+50 key Escape\n+50 wait menu\n+50 quit\n"));
    const char *a1[] = {"--headless",      "--settings",    settings, "--script",
                        clt_path("a.txt"), "--max-seconds", "30",     NULL};
    assert_int_equal(clt_run(a1, out, sizeof out, 60000), 0);
    FILE *f = fopen(settings, "r");
    assert_non_null(f);
    char line[256];
    int got[CL_SETUP_REMEMBERED] = {-9, -9, -9, -9, -9};
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "setup = %d %d %d %d %d", &got[0], &got[1], &got[2], &got[3], &got[4]) == 5)
            break;
    fclose(f);
    printf("remembered setup: %d %d %d %d %d\n", got[0], got[1], got[2], got[3], got[4]);
    assert_int_equal(got[0], 2); /* the kind after maze (1) */
    assert_true(got[3] >= 0);
    int level = got[3];
    /* Second run: the screen shows the kind remembered. */
    char b[700];
    snprintf(b, sizeof b, "0 wait menu\n+50 key Return\n+50 wait setup\n+200 screenshot %s\n", shot);
    assert_true(clt_write(clt_path("b.txt"), b));
    setenv("MAZERACE_TEXT_DUMP", "1", 1);
    const char *a2[] = {"--headless",   "--settings", settings,        "--script", clt_path("b.txt"),
                        "--screenshot", shot,         "--max-seconds", "30",       NULL};
    assert_int_equal(clt_run(a2, out, sizeof out, 60000), 0);
    unsetenv("MAZERACE_TEXT_DUMP");
    char path[700];
    snprintf(path, sizeof path, "%s.txt", shot);
    f = fopen(path, "r");
    assert_non_null(f);
    bool ice = false, lvl = false;
    char want[64];
    snprintf(want, sizeof want, "<  %s  >",
             level == 0   ? "beginner"
             : level == 1 ? "casual"
             : level == 2 ? "strong"
                          : "expert");
    while (fgets(line, sizeof line, f)) {
        ice |= strstr(line, "(ice)") != NULL;
        lvl |= strstr(line, want) != NULL;
    }
    fclose(f);
    assert_true(ice);
    assert_true(lvl);
    clt_cleanup();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_and_format),
        cmocka_unit_test(test_remembered_between_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
