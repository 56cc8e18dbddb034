/* test_client_howto.c: the "How to play" cards and race hints name the keys actually bound (rebinding shows
 * the new key), and a kind's card comes before its first race only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cl_howto.h"
#include "cl_settings.h"
#include "cl_test_util.h"
#include "puzzle.h"

static char out[1 << 16];

static void test_hints_name_bound_keys(void **ctx)
{
    (void)ctx;
    cl_bindings b;
    cl_bindings_default(&b);
    char buf[400];
    cl_howto_hint(&b, 0, PZ_ICE, buf, sizeof buf);
    assert_non_null(strstr(buf, "W A S D slide"));
    assert_non_null(strstr(buf, "R restarts"));
    cl_howto_hint(&b, 1, PZ_MAZE, buf, sizeof buf);
    assert_non_null(strstr(buf, "the arrows walk"));
    cl_howto_hint(&b, 0, PZ_PIPES, buf, sizeof buf);
    assert_non_null(strstr(buf, "E turns clockwise"));
    assert_non_null(strstr(buf, "Q back"));
    /* Rebinding shows the new keys, in the hint and on the card. */
    assert_null(cl_bindings_set(&b, 0, CL_ACT_RESTART, SDLK_k));
    assert_null(cl_bindings_set(&b, 0, CL_ACT_UP, SDLK_i));
    cl_howto_hint(&b, 0, PZ_ICE, buf, sizeof buf);
    assert_non_null(strstr(buf, "K restarts"));
    assert_non_null(strstr(buf, "I A S D slide"));
    assert_null(strstr(buf, "R restarts"));
    char lines[10][CL_HOWTO_LINE];
    int n = cl_howto_lines(&b, 0, PZ_ICE, lines, 10);
    bool restart = false, keys = false;
    for (int i = 0; i < n; i++) {
        restart = restart || strstr(lines[i], "K puts you back") != NULL;
        keys = keys || strstr(lines[i], "Keys: I A S D") != NULL;
    }
    assert_true(restart && keys);
    /* Every kind has a card with a goal and a keys line. */
    cl_bindings_default(&b);
    for (int k = 0; k < PZ_KIND_COUNT; k++) {
        n = cl_howto_lines(&b, 0, k, lines, 10);
        assert_true(n >= 4);
        assert_non_null(strstr(lines[0], pz_kind_by_id(k)->title));
        assert_int_equal(strncmp(lines[1], "Goal:", 5), 0);
        bool has_keys = false;
        for (int i = 0; i < n; i++)
            has_keys = has_keys || strncmp(lines[i], "Keys:", 5) == 0;
        assert_true(has_keys);
    }
    cl_howto_hotseat_keys(&b, -1, buf, sizeof buf);
    assert_non_null(strstr(buf, "Player 1: W A S D, Q/E rotate"));
    assert_non_null(strstr(buf, "Player 2: the arrows"));
    cl_howto_hotseat_keys(&b, PZ_ICE, buf, sizeof buf);
    assert_non_null(strstr(buf, "Player 1: W A S D, R restart"));
    assert_null(strstr(buf, "rotate"));
}

static void test_seen_round_trip(void **ctx)
{
    (void)ctx;
    cl_settings s;
    cl_settings_default(&s);
    assert_int_equal(s.howto_seen, 0);
    s.howto_seen = (1u << PZ_ICE) | (1u << PZ_SUM);
    char *text = cl_settings_format(&s);
    assert_non_null(strstr(text, "howto_seen = sum ice"));
    cl_settings t;
    cl_settings_default(&t);
    char msg[200];
    assert_int_equal(cl_settings_parse(&t, text, strlen(text), msg, sizeof msg), 0);
    assert_int_equal(t.howto_seen, s.howto_seen);
    free(text);
    const char *bad = "howto_seen = sum chess\n";
    assert_int_equal(cl_settings_parse(&t, bad, strlen(bad), msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "howto_seen"));
    assert_int_equal(t.howto_seen, s.howto_seen); /* a bad line keeps the value */
}

/* Hotseat from the menu on a pasted ice ID: the first Start shows the card
 * (Enter starts the race and the settings remember it); the next time,
 * Start goes straight to the countdown. */
static void test_card_before_first_race_only(void **ctx)
{
    (void)ctx;
    char settings[1024]; /* clt_path's buffers are reused */
    snprintf(settings, sizeof settings, "%s", clt_path("howto_settings.txt"));
    const char *nav = "0 wait menu\n+50 key Down\n+50 key Return\n+50 wait setup\n"
                      "+50 key Down\n+50 key Down\n+50 key Down\n+50 text ice:9x9:easy#77\n"
                      "+50 key Down\n+50 key Down\n+50 key Return\n";
    char script[1024];
    /* The card stops the race: with no Enter the countdown never comes. */
    snprintf(script, sizeof script, "%s+300 wait setup\n+50 wait countdown\n", nav);
    assert_true(clt_write(clt_path("howto1.txt"), script));
    const char *a1[] = {"--headless",           "--settings",    settings, "--script",
                        clt_path("howto1.txt"), "--max-seconds", "4",      NULL};
    assert_int_equal(clt_run(a1, out, sizeof out, 60000), 3);
    /* Enter on the card starts it and the kind counts as read. */
    snprintf(script, sizeof script, "%s+200 key Return\n+50 wait countdown\n", nav);
    assert_true(clt_write(clt_path("howto2.txt"), script));
    const char *a2[] = {"--headless",           "--settings",    settings, "--script",
                        clt_path("howto2.txt"), "--max-seconds", "30",     NULL};
    assert_int_equal(clt_run(a2, out, sizeof out, 60000), 0);
    FILE *f = fopen(settings, "r");
    assert_non_null(f);
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    assert_non_null(strstr(text, "howto_seen = ice"));
    /* Read once: Start goes straight to the race. */
    snprintf(script, sizeof script, "%s+50 wait countdown\n", nav);
    assert_true(clt_write(clt_path("howto3.txt"), script));
    const char *a3[] = {"--headless",           "--settings",    settings, "--script",
                        clt_path("howto3.txt"), "--max-seconds", "30",     NULL};
    assert_int_equal(clt_run(a3, out, sizeof out, 60000), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hints_name_bound_keys),
        cmocka_unit_test(test_seen_round_trip),
        cmocka_unit_test(test_card_before_first_race_only),
    };
    return clt_finish(cmocka_run_group_tests(tests, NULL, NULL));
}
