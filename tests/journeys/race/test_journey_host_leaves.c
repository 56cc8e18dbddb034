/* test_journey_host_leaves.c: the host of a LAN game (the client's embedded server) presses Esc and
 * confirms mid-race: the joiner hears "The host left the race.", wins by forfeit (docs/racing.md),
 * stays on the results (no rematch offered), and the race is in its history. */
#include <setjmp.h>
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

static char out[1 << 16];

static void test_host_leaves_mid_race(void **ctx)
{
    (void)ctx;
    char hlog[512], hist[512], script[1024], code[64], addr[64];
    snprintf(hlog, sizeof hlog, "%s", clt_path("host.log"));
    snprintf(hist, sizeof hist, "%s", clt_path("joiner.sqlite"));
    /* The host leaves once the race has run a second: Esc, then Y. */
    assert_true(clt_write(clt_path("host.txt"), "0 wait lobby\n+0 wait race\n+1000 key Escape\n+100 key Y\n"
                                                "+0 wait menu\n+100 quit\n"));
    int port = 0;
    pid_t host =
        clt_start_host("maze:21x15:medium#5", "Host", clt_path("host.txt"), hlog, &port, code, sizeof code);
    assert_true(host > 0);
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    snprintf(script, sizeof script, "0 wait race\n+0 wait results\n+500 screenshot %s\n+100 quit\n",
             clt_path("joiner-results.bmp"));
    assert_true(clt_write(clt_path("joiner.txt"), script));
    const char *args[] = {"--headless",
                          "--size",
                          "1280x720",
                          "--join",
                          addr,
                          "--room",
                          code,
                          "--name",
                          "Joiner",
                          "--history",
                          hist,
                          "--script",
                          clt_path("joiner.txt"),
                          "--max-seconds",
                          "40",
                          NULL};
    int rc = clt_run(args, out, sizeof out, 60000);
    int status = 0;
    bool host_done = clt_wait_exit(host, 15000, &status);
    if (!host_done)
        clt_stop(host);
    puts(out);
    assert_int_equal(rc, 0);
    assert_true(host_done && WIFEXITED(status) && WEXITSTATUS(status) == 0);

    /* The joiner (slot 1) won by forfeit and was told why, not sent away. */
    assert_non_null(strstr(out, "RESULT winner=1 winner_name=Joiner reason=forfeit"));
    assert_non_null(strstr(out, "The host left the race."));
    assert_null(strstr(out, "The server shut down."));
    assert_true(jr_history_says(hist, 1, MATCH_END_FORFEIT, 1, "Joiner"));
    /* On screen: the results panel over the boards, the winner's title in
     * the joiner's colour. */
    assert_true(jr_results_shown(clt_path("joiner-results.bmp"), 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_leaves_mid_race),
    };
    return clt_finish(cmocka_run_group_tests(tests, NULL, NULL));
}
