/* test_journey_back_after_forfeit.c: a player frozen (SIGSTOP) past the grace period loses by forfeit;
 * when they come back (SIGCONT) they see the result ("The race ended while you were away."), not a
 * race that carries on, and the loss is in their history. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "cl_app.h"
#include "cl_draw.h"
#include "cl_test_util.h"
#include "jr_race.h"
#include "match.h"

static void test_back_after_forfeit(void **ctx)
{
    (void)ctx;
    char addr[64], slog[512], stay_log[512], late_log[512], hist[512], script[1024], rest[256];
    snprintf(slog, sizeof slog, "%s", clt_path("server.log"));
    snprintf(stay_log, sizeof stay_log, "%s", clt_path("stayer.log"));
    snprintf(late_log, sizeof late_log, "%s", clt_path("late.log"));
    snprintf(hist, sizeof hist, "%s", clt_path("late.sqlite"));
    pid_t sv = jr_server(2, NULL, slog, addr, sizeof addr);
    assert_true(sv > 0);
    /* The one who stays waits on the results (the room stays open). */
    assert_true(clt_write(clt_path("stay.txt"), "0 wait race\n+0 wait results\n+30000 quit\n"));
    const char *stay_args[] = {"--headless",    "--join", addr,       "--quick",
                               "--name",        "Stayer", "--script", clt_path("stay.txt"),
                               "--max-seconds", "90",     NULL};
    pid_t stay = jr_client(stay_args, stay_log);
    assert_true(stay > 0);
    assert_true(clt_wait_for(stay_log, "room code ", rest, sizeof rest, 20000));
    snprintf(script, sizeof script, "0 wait race\n+0 wait results\n+500 screenshot %s\n+100 quit\n",
             clt_path("late-results.bmp"));
    assert_true(clt_write(clt_path("late.txt"), script));
    const char *late_args[] = {
        "--headless",    "--size",  "1280x720",  "--join", addr,       "--quick",
        "--name",        "Sleeper", "--history", hist,     "--script", clt_path("late.txt"),
        "--max-seconds", "90",      NULL};
    pid_t late = jr_client(late_args, late_log);
    assert_true(late > 0);
    assert_true(clt_wait_for(late_log, "race started", rest, sizeof rest, 20000));
    /* Frozen until the server has given the race away (its ENet timeout,
     * then the 2 s grace), then back. */
    assert_int_equal(kill(late, SIGSTOP), 0);
    bool forfeit = clt_wait_for(slog, "finished: winner Stayer (forfeit)", rest, sizeof rest, 60000);
    kill(late, SIGCONT);
    int status = 0;
    bool done = clt_wait_exit(late, 40000, &status);
    if (!done)
        clt_stop(late);
    clt_stop(stay);
    clt_stop(sv);
    assert_true(forfeit);
    assert_true(done && WIFEXITED(status) && WEXITSTATUS(status) == 0);

    char *out = jr_slurp(late_log);
    assert_non_null(out);
    puts(out);
    assert_non_null(strstr(out, "RESULT winner=0 winner_name=Stayer reason=forfeit"));
    assert_non_null(strstr(out, "The race ended while you were away."));
    assert_null(strstr(out, "carry on"));
    free(out);
    char *sl = jr_slurp(slog);
    assert_non_null(sl);
    assert_non_null(strstr(sl, "came back after the grace period: told the result"));
    free(sl);
    assert_true(jr_history_says(hist, 0, MATCH_END_FORFEIT, 1, "Sleeper"));
    /* The results panel on screen, the winner's title in the Stayer's colour. */
    assert_true(jr_results_shown(clt_path("late-results.bmp"), 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_back_after_forfeit),
    };
    return clt_finish(cmocka_run_group_tests(tests, NULL, NULL));
}
