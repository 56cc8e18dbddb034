/* test_client_abandon.c: a race left mid-way (Esc, then Y) against the computer is kept in the history as
 * unfinished, and the History screen lists it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cl_test_util.h"

static char out[1 << 16];

static void test_left_race_is_in_history(void **ctx)
{
    (void)ctx;
    char hist[400], script[400], settings[400];
    snprintf(settings, sizeof settings, "%s", clt_path("settings.txt"));
    snprintf(hist, sizeof hist, "%s", clt_path("history.sqlite"));
    snprintf(script, sizeof script, "%s", clt_path("leave.txt"));
    assert_true(
        clt_write(script, "0 wait race\n+300 key D\n+100 key Escape\n+100 key Y\n+0 wait menu\n+50 quit\n"));
    const char *args[] = {"--headless",    "--settings",        settings,      "--history", hist,
                          "--vs-computer", "maze:21x21:easy#3", "--bot-level", "beginner",  "--script",
                          script,          "--max-seconds",     "30",          NULL};
    assert_int_equal(clt_run(args, out, sizeof out, 60000), 0);
    assert_non_null(strstr(out, "race kept in the history as unfinished"));
    /* A second run's History screen has the race. */
    assert_true(clt_write(script, "0 wait menu\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Down\n"
                                  "+50 key Return\n+300 wait history\n+300 quit\n"));
    const char *args2[] = {"--headless", "--settings", settings,        "--history", hist,
                           "--script",   script,       "--max-seconds", "30",        NULL};
    assert_int_equal(clt_run(args2, out, sizeof out, 60000), 0);
    assert_non_null(strstr(out, "HISTORY page=1 races=1 "));
    clt_cleanup();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_left_race_is_in_history),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
