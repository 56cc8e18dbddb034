/* test_gameid.c: game ID parsing and formatting, and the kind registry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "puzzle.h"

static void test_registry(void **ctx)
{
    (void)ctx;
    const char *names[] = {"sum", "maze", "ice", "pipes"};
    for (int i = 0; i < PZ_KIND_COUNT; i++) {
        const pz_kind *k = pz_kind_by_id(i);
        assert_non_null(k);
        assert_int_equal(k->id, i);
        assert_string_equal(k->name, names[i]);
        assert_ptr_equal(pz_kind_by_name(names[i]), k);
    }
    assert_null(pz_kind_by_id(-1));
    assert_null(pz_kind_by_id(PZ_KIND_COUNT));
    assert_null(pz_kind_by_name("chess"));
    assert_int_equal(pz_difficulty_by_name("hard"), PZ_HARD);
    assert_int_equal(pz_difficulty_by_name("HARD"), -1);
    assert_string_equal(pz_difficulty_name(PZ_EASY), "easy");
    assert_string_equal(pz_difficulty_name(7), "?");
    assert_int_equal(pz_kind_sum.default_w, 5);
    assert_int_equal(pz_kind_sum.default_h, 4);
    assert_int_equal(pz_kind_ice.default_w, 25);
    assert_int_equal(pz_kind_ice.default_h, 20);
    assert_int_equal(pz_kind_pipes.default_w, 6);
    assert_int_equal(pz_kind_pipes.default_h, 4);
}

static void test_parse_seeded(void **ctx)
{
    (void)ctx;
    pz_id id;
    char err[128];
    assert_null(pz_id_parse("ice:25x20:hard#12345", &id, err, sizeof err));
    assert_int_equal(id.params.kind, PZ_ICE);
    assert_int_equal(id.params.w, 25);
    assert_int_equal(id.params.h, 20);
    assert_int_equal(id.params.diff, PZ_HARD);
    assert_true(id.has_seed);
    assert_int_equal(id.seed, 12345);
    assert_null(id.desc);

    /* Defaults for left-out parts. */
    assert_null(pz_id_parse("sum#7", &id, err, sizeof err));
    assert_int_equal(id.params.kind, PZ_SUM);
    assert_int_equal(id.params.w, 5);
    assert_int_equal(id.params.h, 4);
    assert_int_equal(id.params.diff, PZ_MEDIUM);
    assert_int_equal(id.seed, 7);

    assert_null(pz_id_parse("pipes:8x6#18446744073709551615", &id, err, sizeof err));
    assert_int_equal(id.params.w, 8);
    assert_true(id.seed == UINT64_MAX);

    /* No seed: the caller picks one. */
    assert_null(pz_id_parse("ice:25x20:easy", &id, err, sizeof err));
    assert_false(id.has_seed);
    assert_int_equal(id.params.diff, PZ_EASY);
    assert_null(id.desc);
}

static void test_parse_desc(void **ctx)
{
    (void)ctx;
    pz_id id;
    char err[128];
    assert_null(pz_id_parse("sum:5x4:abc.DEF-_09", &id, err, sizeof err));
    assert_non_null(id.desc);
    assert_int_equal(id.desc_len, strlen("abc.DEF-_09"));
    assert_memory_equal(id.desc, "abc.DEF-_09", id.desc_len);
    assert_false(id.has_seed);
}

static void expect_bad(const char *text, const char *fragment)
{
    pz_id id;
    char err[160];
    const char *why = pz_id_parse(text, &id, err, sizeof err);
    if (!why)
        fail_msg("'%s' was accepted", text);
    if (!strstr(err, fragment))
        fail_msg("'%s': message '%s' lacks '%s'", text, err, fragment);
}

static void test_parse_rejects(void **ctx)
{
    (void)ctx;
    expect_bad("", "empty");
    expect_bad("chess:8x8#1", "unknown puzzle kind");
    expect_bad(":5x4#1", "kind");
    expect_bad("sum:5by4#1", "WxH");
    expect_bad("sum:x4#1", "WxH");
    expect_bad("sum:5x#1", "WxH");
    expect_bad("sum:-5x4#1", "WxH");
    expect_bad("sum:0x4#1", "WxH");
    expect_bad("sum:99999999999x4#1", "WxH");
    expect_bad("sum:5x4:insane#1", "unknown difficulty");
    expect_bad("sum:5x4:hard#", "seed");
    expect_bad("sum:5x4:hard#-1", "seed");
    expect_bad("sum:5x4:hard#18446744073709551616", "seed");
    expect_bad("sum:5x4:hard#12a", "seed");
    expect_bad("sum:5x4:a b", "bad character");
    expect_bad("sum:5x4:a:b", "bad character");
    expect_bad("sum:100000x4#1", "too large");
    expect_bad("sum:1x1#1", "too small");
}

static void test_format_roundtrip(void **ctx)
{
    (void)ctx;
    pz_params p = {PZ_PIPES, 9, 7, PZ_EASY};
    char buf[128];
    int n = pz_id_format_seeded(&p, 42, buf, sizeof buf);
    assert_int_equal(n, (int)strlen(buf));
    assert_string_equal(buf, "pipes:9x7:easy#42");
    pz_id id;
    char err[128];
    assert_null(pz_id_parse(buf, &id, err, sizeof err));
    assert_memory_equal(&id.params, &p, sizeof p);
    assert_int_equal(id.seed, 42);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),         cmocka_unit_test(test_parse_seeded),
        cmocka_unit_test(test_parse_desc),       cmocka_unit_test(test_parse_rejects),
        cmocka_unit_test(test_format_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
