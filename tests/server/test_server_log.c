/* test_server_log.c: JSON log lines about a client carry its number, address and the reason as fields of
 * their own; a request refused while the server drains is logged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sv_fixture.h"
#include "util.h"

/* The first line of path containing every needle, into line; false if none. */
static bool find_line(const char *path, const char *const needles[], char *line, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool found = false;
    while (!found && fgets(line, (int)cap, f)) {
        found = true;
        for (int i = 0; needles[i] && found; i++)
            found = strstr(line, needles[i]) != NULL;
    }
    fclose(f);
    return found;
}

static void test_drain_refusal_logged_with_fields(void **ctx)
{
    (void)ctx;
    char log[64];
    snprintf(log, sizeof log, "/tmp/mr-svlog-%d.log", (int)getpid());
    fflush(stderr);
    int saved = dup(2);
    assert_non_null(freopen(log, "w", stderr)); /* the server logs to stderr */
    sv_config cfg;
    base_config(&cfg);
    cfg.log_level = SV_LOG_INFO;
    cfg.log_format = SV_LOGFMT_JSON;
    fixture *f = start(&cfg);
    raw_client *a = join_server(f, "alice"), *b = join_server(f, "bob"), *x = join_server(f, "xavier");
    pz_move plan[64];
    start_pair_race(a, b, plan, (int)MR_ARRAY_LEN(plan)); /* a race runs: the drain waits for it */
    sv_request_drain(f->sv);
    raw_pump(x, 20, false);
    send_create(x, 1, 9, 9, 0);
    wire_msg m;
    assert_true(raw_wait(x, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_DRAINING);
    raw_close(a);
    raw_close(b);
    raw_close(x);
    stop(f);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);

    char line[1024];
    const char *drain[] = {"\"event\":\"drain_refused\"",
                           "\"level\":\"info\"",
                           "\"client\":\"3\"",
                           "\"addr\":\"127.0.0.1:",
                           "\"player\":\"xavier\"",
                           "\"reason\":\"draining\"",
                           NULL};
    if (!find_line(log, drain, line, sizeof line))
        fail_msg("no drain_refused line with client, addr, player and reason fields in %s", log);
    const char *hello[] = {"\"event\":\"hello\"", "\"client\":\"1\"", "\"addr\":\"127.0.0.1:", NULL};
    assert_true(find_line(log, hello, line, sizeof line));
    const char *conn[] = {"\"event\":\"connected\"", "\"client\":\"2\"", "\"addr\":\"127.0.0.1:", NULL};
    assert_true(find_line(log, conn, line, sizeof line));
    unlink(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drain_refusal_logged_with_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
