/* test_server_units.c: the server's parts without a network: room table, token bucket, command line, the
 * settings table's defaults, memory per match. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "rng.h"
#include "sv.h"
#include "sv_hosts.h"
#include "sv_internal.h"
#include "sv_limit.h"
#include "sv_loglimit.h"
#include "sv_opts.h"
#include "sv_quick.h"
#include "sv_rooms.h"
#include "util.h"
#include "wire.h"

static match *small_match(void)
{
    char err[160];
    match *m = match_create_from_id("pipes:6x4:easy#1", NULL, 1, err, sizeof err);
    if (!m)
        fail_msg("match_create_from_id: %s", err);
    return m;
}

/* Codes are unique, found in O(1), and a removed room's code is gone while
 * every other one still resolves (backward-shift deletion). */
static void test_rooms_codes(void **ctx)
{
    (void)ctx;
    enum { N = 64 };
    sv_rooms *t = sv_rooms_create(N);
    sv_room *rooms[N];
    for (int i = 0; i < N; i++) {
        rooms[i] = sv_rooms_add(t, small_match(), 0);
        assert_non_null(rooms[i]);
        assert_true(wire_room_code_ok(rooms[i]->code));
        for (int j = 0; j < i; j++)
            assert_string_not_equal(rooms[i]->code, rooms[j]->code);
    }
    assert_int_equal(sv_rooms_count(t), N);
    assert_null(sv_rooms_add(t, NULL, 0)); /* full */
    for (int i = 0; i < N; i += 2) {
        char code[WIRE_ROOM_CODE_LEN + 1];
        memcpy(code, rooms[i]->code, sizeof code);
        sv_rooms_remove(t, rooms[i]);
        assert_null(sv_rooms_find(t, code));
    }
    for (int i = 1; i < N; i += 2)
        assert_ptr_equal(sv_rooms_find(t, rooms[i]->code), rooms[i]);
    assert_int_equal(sv_rooms_count(t), N / 2);
    assert_null(sv_rooms_find(t, "AAAA"));
    assert_null(sv_rooms_find(t, "aaaaa"));
    assert_null(sv_rooms_find(t, "AAAAAA"));
    /* Free slots are reused. */
    for (int i = 0; i < N / 2; i++)
        assert_non_null(sv_rooms_add(t, small_match(), 0));
    assert_int_equal(sv_rooms_count(t), N);
    sv_rooms_destroy(t);
}

/* A reserved room's code is the one asked for; one in use, or not a code,
 * or a full table is refused without taking the match. */
static void test_rooms_add_code(void **ctx)
{
    (void)ctx;
    sv_rooms *t = sv_rooms_create(2);
    sv_room *r = sv_rooms_add_code(t, small_match(), 5, "Q7KM4");
    assert_non_null(r);
    assert_string_equal(r->code, "Q7KM4");
    assert_int_equal(r->reserved_until, 0);
    assert_ptr_equal(sv_rooms_find(t, "Q7KM4"), r);
    match *m = small_match();
    assert_null(sv_rooms_add_code(t, m, 5, "Q7KM4")); /* in use */
    assert_null(sv_rooms_add_code(t, m, 5, "q7km4"));
    assert_null(sv_rooms_add_code(t, m, 5, "Q7KM0")); /* 0 is not in the alphabet */
    assert_null(sv_rooms_add_code(t, m, 5, "Q7KM"));
    assert_int_equal(sv_rooms_count(t), 1);
    assert_non_null(sv_rooms_add_code(t, m, 5, "HJK23"));
    assert_null(sv_rooms_add_code(t, NULL, 5, "ABCDE")); /* full */
    sv_rooms_remove(t, r);
    assert_null(sv_rooms_find(t, "Q7KM4"));
    sv_rooms_destroy(t);
}

/* The timer heap always yields the earliest deadline, and only when due. */
static void test_rooms_deadlines(void **ctx)
{
    (void)ctx;
    enum { N = 40 };
    sv_rooms *t = sv_rooms_create(N);
    rng_t r;
    rng_seed(&r, 9);
    sv_room *rooms[N];
    for (int i = 0; i < N; i++) {
        rooms[i] = sv_rooms_add(t, small_match(), 0);
        sv_rooms_set_deadline(t, rooms[i], 1000 + (uint64_t)rng_below(&r, 5000));
    }
    /* Move some, clear some. */
    for (int i = 0; i < N; i += 3)
        sv_rooms_set_deadline(t, rooms[i], 500 + (uint64_t)rng_below(&r, 9000));
    for (int i = 1; i < N; i += 5)
        sv_rooms_set_deadline(t, rooms[i], UINT64_MAX);
    assert_null(sv_rooms_due(t, 499));
    uint64_t last = 0;
    int popped = 0;
    sv_room *room;
    while ((room = sv_rooms_due(t, UINT64_MAX - 1))) {
        assert_true(room->deadline >= last);
        last = room->deadline;
        sv_rooms_set_deadline(t, room, UINT64_MAX);
        popped++;
    }
    assert_int_equal(popped, N - (N + 4) / 5);
    assert_int_equal(sv_rooms_next_deadline(t), UINT64_MAX);
    /* Removing a room that is in the heap takes it out. */
    sv_rooms_set_deadline(t, rooms[2], 10);
    sv_rooms_remove(t, rooms[2]);
    assert_null(sv_rooms_due(t, 100));
    sv_rooms_destroy(t);
}

static void test_bucket(void **ctx)
{
    (void)ctx;
    sv_bucket b;
    sv_bucket_init(&b, 1000, 5);
    int passed = 0;
    for (int i = 0; i < 20; i++)
        passed += sv_bucket_take(&b, 1000, 10, 5);
    assert_int_equal(passed, 5); /* the burst */
    /* 10 per second: 100 ms buys exactly one. */
    assert_false(sv_bucket_take(&b, 1099, 10, 5));
    assert_true(sv_bucket_take(&b, 1100, 10, 5));
    assert_false(sv_bucket_take(&b, 1100, 10, 5));
    /* A long idle refills to the burst, no more, and never overflows. */
    passed = 0;
    for (int i = 0; i < 20; i++)
        passed += sv_bucket_take(&b, UINT64_MAX / 2, 100000, 5);
    assert_int_equal(passed, 5);
    /* Time going backwards takes nothing extra. */
    assert_false(sv_bucket_take(&b, 0, 10, 5));
}

static int parse(sv_config *cfg, char *err, size_t errlen, const char *const *args)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = "mazerace-server";
    for (; args[argc - 1]; argc++) {
        assert_true(argc < 63);
        argv[argc] = (char *)args[argc - 1];
    }
    argv[argc] = NULL;
    sv_config_defaults(cfg);
    return sv_cli_parse(cfg, argc, argv, err, errlen);
}

static void test_cli(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    char err[256];
    const char *none[] = {NULL};
    assert_int_equal(parse(&cfg, err, sizeof err, none), SV_CLI_RUN);
    assert_int_equal(cfg.port, WIRE_DEFAULT_PORT);
    assert_int_equal(cfg.discovery_port, WIRE_DISCOVERY_PORT);
    assert_string_equal(cfg.bind_addr, "0.0.0.0");
    assert_null(sv_config_check(&cfg));

    const char *good[] = {"--bind",
                          "127.0.0.1",
                          "--port=0",
                          "--name",
                          "my server",
                          "--max-clients",
                          "10",
                          "--max-rooms",
                          "5",
                          "--kind",
                          "ice",
                          "--size",
                          "25x20",
                          "--difficulty",
                          "hard",
                          "--countdown",
                          "0.5",
                          "--grace=2.25",
                          "--series",
                          "3",
                          "--no-discovery",
                          "--sockbuf",
                          "1024",
                          "--rate",
                          "50",
                          "--burst",
                          "60",
                          "--max-bad",
                          "7",
                          "--log-level",
                          "debug",
                          "--stats",
                          "--max-per-ip",
                          "4",
                          "--progress-hold",
                          "20",
                          NULL};
    assert_int_equal(parse(&cfg, err, sizeof err, good), SV_CLI_RUN);
    assert_string_equal(cfg.bind_addr, "127.0.0.1");
    assert_int_equal(cfg.port, 0);
    assert_string_equal(cfg.name, "my server");
    assert_int_equal(cfg.max_clients, 10);
    assert_int_equal(cfg.max_rooms, 5);
    assert_int_equal(cfg.kind, PZ_ICE);
    assert_int_equal(cfg.w, 25);
    assert_int_equal(cfg.h, 20);
    assert_int_equal(cfg.diff, PZ_HARD);
    assert_int_equal(cfg.countdown_ms, 500);
    assert_int_equal(cfg.grace_ms, 2250);
    assert_int_equal(cfg.series, 3);
    assert_int_equal(cfg.discovery_port, -1);
    assert_int_equal(cfg.sockbuf_bytes, 1024 * 1024);
    assert_int_equal(cfg.msg_rate, 50);
    assert_int_equal(cfg.msg_burst, 60);
    assert_int_equal(cfg.max_bad, 7);
    assert_int_equal(cfg.log_level, SV_LOG_DEBUG);
    assert_true(cfg.stats);
    assert_int_equal(cfg.max_per_ip, 4);
    assert_int_equal(cfg.progress_hold_ms, 20);

    const char *help[] = {"--port", "1", "--help", NULL};
    assert_int_equal(parse(&cfg, err, sizeof err, help), SV_CLI_HELP);
    const char *version[] = {"--version", NULL};
    assert_int_equal(parse(&cfg, err, sizeof err, version), SV_CLI_VERSION);

    const char *bad[][3] = {
        {"--port", "65536", NULL},        {"--port", "-1", NULL},
        {"--port", "12x", NULL},          {"--port", NULL, NULL},
        {"--bogus", NULL, NULL},          {"--kind", "chess", NULL},
        {"--size", "x5", NULL},           {"--size", "5x", NULL},
        {"--size", "3x3x3", NULL},        {"--difficulty", "insane", NULL},
        {"--countdown", "1.2345", NULL},  {"--countdown", "61", NULL},
        {"--grace", ".", NULL},           {"--max-clients", "64001", NULL},
        {"--max-rooms", "0", NULL},       {"--log-level", "loud", NULL},
        {"--stats=1", NULL, NULL},        {"--name", "", NULL},
        {"--name", "\x01x", NULL},        {"stray", NULL, NULL},
        {"--series", "100", NULL},        {"--sockbuf", "-4", NULL},
        {"--discovery", "70000", NULL},   {"--rate", "0", NULL},
        {"--max-per-ip", "-1", NULL},     {"--progress-hold", "1001", NULL},
        {"--progress-hold", "5ms", NULL}, {"--progress-hold", NULL, NULL},
        {"--hosts", "17", NULL},          {"--hosts", "-1", NULL},
        {"--hosts", "two", NULL},         {"--hosts", NULL, NULL},
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        err[0] = '\0';
        assert_int_equal(parse(&cfg, err, sizeof err, bad[i]), SV_CLI_ERROR);
        assert_true(strlen(err) > 5);
    }
    /* A size the kind refuses is caught by the config check. */
    const char *big[] = {"--kind", "pipes", "--size", "1000x1000", NULL};
    assert_int_equal(parse(&cfg, err, sizeof err, big), SV_CLI_ERROR);
    /* Past 4000 players a host: too few hosts for max clients. */
    const char *few[] = {"--hosts", "2", "--max-clients", "8001", NULL};
    assert_int_equal(parse(&cfg, err, sizeof err, few), SV_CLI_ERROR);
    const char *fit[] = {"--hosts", "3", "--max-clients", "10000", NULL};
    assert_int_equal(parse(&cfg, err, sizeof err, fit), SV_CLI_RUN);
    assert_int_equal(cfg.hosts, 3);
    const char *auto_[] = {"--max-clients", "10000", NULL};
    assert_int_equal(parse(&cfg, err, sizeof err, auto_), SV_CLI_RUN);
    assert_int_equal(sv_hosts_wanted(&cfg), 16);
    /* Auto: one host up to 4000 players, then one per 625, at most 16. */
    const char *one[] = {"--max-clients", "4000", NULL};
    assert_int_equal(parse(&cfg, err, sizeof err, one), SV_CLI_RUN);
    assert_int_equal(sv_hosts_wanted(&cfg), 1);
    const char *seven[] = {"--max-clients", "4001", NULL};
    assert_int_equal(parse(&cfg, err, sizeof err, seven), SV_CLI_RUN);
    assert_int_equal(sv_hosts_wanted(&cfg), 7);
    const char *most[] = {"--max-clients", "64000", NULL};
    assert_int_equal(parse(&cfg, err, sizeof err, most), SV_CLI_RUN);
    assert_int_equal(sv_hosts_wanted(&cfg), 16);
}

/* Defaults docs/server.md (and docs/racing.md) state in their prose, each an int field of sv_config. */
static const struct {
    const char *docs; /* the words that say it */
    size_t off;
    int want;
} stated_defaults[] = {
    {"UDP 27910", offsetof(sv_config, port), 27910},
    {"discovery on 27911", offsetof(sv_config, discovery_port), 27911},
    {"spectators on 27912 (auto: the game port + 2)", offsetof(sv_config, spectator_port),
     SV_SPECTATOR_PORT_AUTO},
    {"max 1024 clients", offsetof(sv_config, max_clients), 1024},
    {"1024 rooms", offsetof(sv_config, max_rooms), 1024},
    {"the default (0, auto) is one host", offsetof(sv_config, hosts), 0},
    {"--room-spectators per room (default 16", offsetof(sv_config, room_spectators), 16},
    {"--max-spectators on the server (default 512)", offsetof(sv_config, max_spectators), 512},
    {"--spectator-batch ms (default 250)", offsetof(sv_config, spectator_batch_ms), 250},
    {"--progress-hold ms (default 50", offsetof(sv_config, progress_hold_ms), 50},
    {"No HELLO within 5 s (no setting of its own)", offsetof(sv_config, hello_timeout_ms), 5000},
    {"the grace period (30 s)", offsetof(sv_config, grace_ms), 30000},
    {"puzzle_mem defaults to 1024 MiB", offsetof(sv_config, puzzle_mem_mb), 1024},
    {"drain_timeout (default 60 s)", offsetof(sv_config, drain_timeout_ms), 60000},
    {"agones_health (default 2 s)", offsetof(sv_config, agones_health_ms), 2000},
    {"agones_idle_ready (default 60 s", offsetof(sv_config, agones_idle_ready_ms), 60000},
};

/* Each row's default is the text its own reader gives back, sv_config_defaults
 * applies them, and they are the values the docs state. */
static void test_opts_defaults(void **ctx)
{
    (void)ctx;
    sv_config d, c;
    sv_config_defaults(&d);
    char v[128], why[96];
    for (size_t i = 0; i < sv_opts_count; i++) {
        const sv_opt *o = &sv_opts[i];
        assert_non_null(o->def);
        memset(&c, 0, sizeof c);
        assert_null(sv_opt_set(o, &c, o->def, why, sizeof why));
        sv_opt_get(o, &c, v, sizeof v);
        assert_string_equal(v, o->def);
        sv_opt_get(o, &d, v, sizeof v);
        assert_string_equal(v, o->def);
    }
    assert_null(sv_config_check(&d));
    for (size_t i = 0; i < MR_ARRAY_LEN(stated_defaults); i++) {
        int got;
        memcpy(&got, (const char *)&d + stated_defaults[i].off, sizeof got);
        if (got != stated_defaults[i].want)
            fail_msg("default %d, docs: %s", got, stated_defaults[i].docs);
    }
    assert_string_equal(d.bind_addr, "0.0.0.0");             /* "all interfaces" */
    assert_string_equal(d.metrics, "");                      /* "off by default" */
    assert_true(!d.quick_rooms && !d.lan_host && !d.agones); /* not settings, or off by default */
}

/* The budget: server memory per running match beyond the puzzle and its two
 * states stays under 16 KiB. Measured on a race in progress with a few
 * hundred moves logged, as the server holds it. */
static void test_memory_per_match(void **ctx)
{
    (void)ctx;
    sv_rooms *t = sv_rooms_create(1024);
    char err[160];
    match *m = match_create_from_id("maze#5", NULL, 1, err, sizeof err);
    if (!m)
        m = small_match();
    sv_room *room = sv_rooms_add(t, m, 0);
    assert_non_null(room);
    assert_null(match_join(m, -1, "a", 0, NULL));
    assert_null(match_join(m, -1, "b", 0, NULL));
    assert_null(match_ready(m, 0, true, 0));
    assert_null(match_ready(m, 1, true, 0));
    uint64_t t0 = match_start_ms(m);
    match_update(m, t0);
    pz_move plan[2048];
    int n = pz_kind_of(match_puzzle(m))->solve(match_puzzle(m), NULL, plan, (int)MR_ARRAY_LEN(plan));
    assert_true(n > 1);
    match_event ev;
    for (int i = 0; i + 1 < n; i++) {
        assert_null(match_move(m, 0, (uint32_t)i, plan[i], t0 + (uint64_t)i, NULL));
        while (match_poll_event(m, &ev))
            ;
    }
    size_t bytes = sv_rooms_bytes_per_room(t) + MATCH_SLOTS * SV_CLIENT_BYTES + match_memory(m);
    printf(
        "# server bytes per running match: %zu (room table %zu, clients %zu, match %zu, %d moves logged)\n",
        bytes, sv_rooms_bytes_per_room(t), MATCH_SLOTS * SV_CLIENT_BYTES, match_memory(m), n - 1);
    assert_true(bytes < 16 * 1024);
    sv_rooms_destroy(t);
}

static int count_lines(FILE *f, const char *needle)
{
    char line[600];
    int n = 0;
    rewind(f);
    while (fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    return n;
}

/* A line a client can trigger at will is written at most
 * SV_LOGLIMIT_BURST times per window; the next window's first line says
 * how many were left out (issue 14: 59 380 refused-join lines in 30 s). */
static void test_log_limit(void **ctx)
{
    (void)ctx;
    FILE *f = tmpfile();
    assert_non_null(f);
    sv_log lg;
    sv_log_init(&lg, SV_LOG_INFO, SV_LOGFMT_TEXT, f);
    sv_loglimit lim = {0};
    for (int i = 0; i < 1000; i++)
        sv_logf_limited(&lg, &lim, 5000 + (uint64_t)i, SV_LOG_INFO, "join_refused", "join refused %d", i);
    assert_int_equal(count_lines(f, "join refused"), SV_LOGLIMIT_BURST);
    sv_logf_limited(&lg, &lim, 5000 + SV_LOGLIMIT_WINDOW_MS, SV_LOG_INFO, "join_refused",
                    "join refused again");
    assert_int_equal(count_lines(f, "and 990 similar lines left out"), 1);
    assert_int_equal(lim.dropped_total, 990);
    sv_logf_limited(&lg, &lim, 5001 + SV_LOGLIMIT_WINDOW_MS, SV_LOG_INFO, "join_refused",
                    "join refused once more");
    assert_int_equal(count_lines(f, "left out"), 1);
    lg.level = SV_LOG_WARN; /* filtered lines cost nothing and count nothing */
    sv_logf_limited(&lg, &lim, 5002 + SV_LOGLIMIT_WINDOW_MS, SV_LOG_INFO, "join_refused", "filtered");
    assert_int_equal(count_lines(f, "filtered"), 0);
    fclose(f);
}

/* The quick-match queue: oldest first, removal from anywhere, handles
 * reused after removal, and its bound. */
static void test_quick_queue(void **ctx)
{
    (void)ctx;
    enum { N = 6 };
    sv_room rooms[N];
    sv_quick *q = sv_quick_create(N);
    sv_quick_item it;
    assert_false(sv_quick_pop(q, &it));
    int h[N];
    for (int i = 0; i < N; i++)
        h[i] = sv_quick_push(q, (sv_quick_item){.room = &rooms[i]});
    assert_int_equal(sv_quick_count(q), N);
    sv_quick_remove(q, h[0]); /* the head */
    sv_quick_remove(q, h[3]); /* the middle */
    sv_quick_remove(q, h[5]); /* the tail */
    assert_int_equal(sv_quick_count(q), 3);
    int peeked = 0;
    assert_true(sv_quick_peek(q, &it, &peeked));
    assert_ptr_equal(it.room, &rooms[1]);
    assert_int_equal(peeked, h[1]);
    /* Two more after removals: they go to the back. */
    int h6 = sv_quick_push(q, (sv_quick_item){.room = &rooms[0]});
    sv_quick_push(q, (sv_quick_item){.room = &rooms[3]});
    static const int order[] = {1, 2, 4, 0, 3};
    for (size_t i = 0; i < MR_ARRAY_LEN(order); i++) {
        assert_true(sv_quick_pop(q, &it));
        assert_ptr_equal(it.room, &rooms[order[i]]);
        assert_null(it.job);
    }
    assert_false(sv_quick_pop(q, &it));
    assert_int_equal(sv_quick_count(q), 0);
    assert_true(h6 > 0 && h6 <= N);
    /* Full again and emptied from the back. */
    for (int i = 0; i < N; i++)
        h[i] = sv_quick_push(q, (sv_quick_item){.room = &rooms[i]});
    for (int i = N - 1; i >= 0; i--)
        sv_quick_remove(q, h[i]);
    assert_false(sv_quick_peek(q, &it, NULL));
    sv_quick_destroy(q);
    sv_quick_destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rooms_codes),
        cmocka_unit_test(test_rooms_add_code),
        cmocka_unit_test(test_rooms_deadlines),
        cmocka_unit_test(test_bucket),
        cmocka_unit_test(test_cli),
        cmocka_unit_test(test_opts_defaults),
        cmocka_unit_test(test_memory_per_match),
        cmocka_unit_test(test_log_limit),
        cmocka_unit_test(test_quick_queue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
