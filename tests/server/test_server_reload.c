/* test_server_reload.c: SIGHUP's one path (sv_reconfigure): every key the settings table marks reload reaches
 * the running server, found by walking the table; the generation and memory budgets change what it admits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "puzzle.h"
#include "sv_fixture.h"
#include "sv_opts.h"
#include "util.h"

/* Values a custom setting might take; the first that reads, differs from
 * the current one and leaves the whole configuration valid is used. */
static const char *const custom_tries[] = {"sum",   "ice", "pipes", "maze", "hard", "easy", "medium",
                                           "13x11", "7x5", "error", "warn", "info", "debug"};

/* Sets o in cfg to some valid value other than its current one; false if
 * none was found (the test then fails: a reloadable key must be testable). */
static bool change(const sv_opt *o, sv_config *cfg)
{
    char tries[4][32], buf[96];
    size_t n = 0;
    const char *const *list = NULL;
    switch (o->type) {
    case SV_OPT_INT:
    case SV_OPT_SECONDS:
        snprintf(tries[n++], sizeof tries[0], "%ld", o->lo);
        snprintf(tries[n++], sizeof tries[0], "%ld", o->hi);
        snprintf(tries[n++], sizeof tries[0], "%ld", o->lo + 1);
        break;
    case SV_OPT_BOOL:
        snprintf(tries[n++], sizeof tries[0], "yes");
        snprintf(tries[n++], sizeof tries[0], "no");
        break;
    default:
        list = custom_tries;
        n = MR_ARRAY_LEN(custom_tries);
    }
    for (size_t i = 0; i < n; i++) {
        sv_config next = *cfg;
        const char *v = list ? list[i] : tries[i];
        if (sv_opt_set(o, &next, v, buf, sizeof buf) || sv_opt_equal(o, &next, cfg) || sv_config_check(&next))
            continue;
        *cfg = next;
        return true;
    }
    return false;
}

/* Every reloadable key changed at once, and one key that needs a restart:
 * after sv_reconfigure the server reads each new value, and not the other.
 * A key added to the table with reload set is covered without a change here. */
static void test_every_reloadable_key(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    sv_config fresh = *sv_config_in_use(f->sv);
    int n = 0;
    for (size_t i = 0; i < sv_opts_count; i++) {
        const sv_opt *o = &sv_opts[i];
        if (!o->reload)
            continue;
        if (!change(o, &fresh))
            fail_msg("reloadable key %s: no other valid value found to test it with", o->key);
        n++;
    }
    assert_true(n >= 10);
    const sv_opt *fixed = sv_opt_by_key("max_clients");
    assert_non_null(fixed);
    assert_false(fixed->reload);
    assert_true(change(fixed, &fresh));
    assert_null(sv_config_check(&fresh));

    sv_reconfigure(f->sv, &fresh);
    const sv_config *live = sv_config_in_use(f->sv);
    char want[128], got[128];
    for (size_t i = 0; i < sv_opts_count; i++) {
        const sv_opt *o = &sv_opts[i];
        if (!o->reload)
            continue;
        sv_opt_get(o, &fresh, want, sizeof want);
        sv_opt_get(o, live, got, sizeof got);
        if (strcmp(want, got) != 0)
            fail_msg("after reload %s = %s, want %s", o->key, got, want);
    }
    assert_true(sv_opt_equal(fixed, live, &cfg)); /* not applied: needs a restart */
    stop(f);
}

/* puzzle_mem reloaded: a board the default budget takes is refused with
 * MEMORY once the budget is 1 MiB (an address may hold an eighth). */
static void test_reload_puzzle_mem(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    raw_client *x = join_server(f, "mallory");
    wire_msg m;
    send_create(x, PZ_MAZE, 400, 400, PZ_EASY); /* about 0.4 MB with its next puzzle */
    assert_true(raw_wait(x, WIRE_ROOM_STATE, &m, 30000));
    send_simple(x, WIRE_LEAVE_ROOM);
    sv_config fresh = cfg;
    fresh.puzzle_mem_mb = 1;
    sv_reconfigure(f->sv, &fresh);
    send_create(x, PZ_MAZE, 400, 400, PZ_EASY);
    assert_true(raw_wait(x, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_MEMORY);
    sv_stats st; /* counted by reason (the metric mazerace_generation_refused_total) */
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.gen_refused_by[SV_GEN_REFUSED_ADDR_MEMORY], 1);
    assert_int_equal(st.gen_refused, 1);
    assert_int_equal(st.puzzle_mem_budget, (size_t)1 << 20);
    raw_close(x);
    stop(f);
}

/* gen_rate and gen_burst reloaded: a player who connects afterwards has a
 * 1 ms budget, so a big board is refused with BUSY at once (with the
 * defaults the same request is queued: test_server_gen). */
static void test_reload_gen_budget(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    sv_config fresh = cfg;
    fresh.gen_rate_ms = 1;
    fresh.gen_burst_ms = 1;
    sv_reconfigure(f->sv, &fresh);
    raw_client *x = join_server(f, "mallory");
    wire_msg m;
    send_create(x, PZ_MAZE, 1000, 1000, PZ_HARD);
    assert_true(raw_wait(x, WIRE_ERROR, &m, WAIT_MS));
    assert_int_equal(m.error.code, WIRE_ERR_BUSY);
    sv_stats st;
    sv_get_stats(f->sv, &st);
    assert_int_equal(st.gen_jobs, 0);
    assert_int_equal(st.gen_refused_by[SV_GEN_REFUSED_BUDGET], 1);
    raw_close(x);
    stop(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_reloadable_key),
        cmocka_unit_test(test_reload_puzzle_mem),
        cmocka_unit_test(test_reload_gen_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
