/* test_util.c: checked allocation, strict number parsing, line reading, growing text, hashing, enum words and
 * the growing ring.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util.h"

static void test_parse_long(void **ctx)
{
    (void)ctx;
    long v = 0;
    assert_true(mr_parse_long("42", 0, 100, &v));
    assert_int_equal(v, 42);
    assert_true(mr_parse_long("-9", -9, 9, &v));
    assert_int_equal(v, -9);
    const char *bad[] = {"", "x", "4x", " 4", "4 ", "101", "-10", "99999999999999999999999", "0x10"};
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        v = 7;
        assert_false(mr_parse_long(bad[i], -9, 100, &v));
        assert_int_equal(v, 7); /* untouched on failure */
    }
    assert_false(mr_parse_long(NULL, 0, 1, &v));
}

static void test_parse_u64(void **ctx)
{
    (void)ctx;
    uint64_t v = 0;
    assert_true(mr_parse_u64("18446744073709551615", &v));
    assert_true(v == UINT64_MAX);
    assert_true(mr_parse_u64("0", &v));
    assert_true(v == 0);
    const char *bad[] = {"", "-1", "+1", " 1", "1a", "18446744073709551616"};
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++)
        assert_false(mr_parse_u64(bad[i], &v));
}

static void test_lines_and_trim(void **ctx)
{
    (void)ctx;
    int v = 0;
    assert_true(mr_parse_int("-7", -10, 10, &v));
    assert_int_equal(v, -7);
    assert_false(mr_parse_int("11", -10, 10, &v));
    assert_false(mr_parse_int(" 1", 0, 10, &v));
    const char text[] = "  a = 1 \r\nlong line\n\nlast";
    size_t pos = 0, n = 0;
    char buf[8];
    assert_true(mr_next_line(text, strlen(text), &pos, buf, sizeof buf, &n));
    assert_int_equal(n, 9); /* "  a = 1 \r" does not fit in 8 */
    assert_string_equal(buf, "");
    assert_true(mr_next_line(text, strlen(text), &pos, buf, sizeof buf, &n));
    assert_true(n >= sizeof buf);
    assert_true(mr_next_line(text, strlen(text), &pos, buf, sizeof buf, &n));
    assert_int_equal(n, 0);
    assert_string_equal(buf, "");
    assert_true(mr_next_line(text, strlen(text), &pos, buf, sizeof buf, &n));
    assert_string_equal(buf, "last");
    assert_false(mr_next_line(text, strlen(text), &pos, buf, sizeof buf, &n));
    int w = 0, h = 0;
    assert_true(mr_parse_size("25x20", &w, &h));
    assert_int_equal(w, 25);
    assert_int_equal(h, 20);
    assert_true(mr_parse_size("-1x0", &w, &h)); /* the shape only: ranges are the caller's */
    assert_int_equal(w, -1);
    const char *bad[] = {"", "25", "x20", "25x", "25X20", "25x20x", " 25x20", "1234567890123456x1"};
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++)
        assert_false(mr_parse_size(bad[i], &w, &h));
    char t[] = " \t key = v \t\r\n";
    assert_string_equal(mr_trim(t), "key = v");
    char e[] = " \t ";
    assert_string_equal(mr_trim(e), "");
}

static void test_text_grows(void **ctx)
{
    (void)ctx;
    mr_text t = mr_text_new(4);
    for (int i = 0; i < 100; i++)
        mr_text_add(&t, "%d,", i);
    assert_int_equal(t.len, strlen(t.p));
    assert_true(t.cap > t.len);
    assert_memory_equal(t.p, "0,1,2,", 6);
    assert_string_equal(t.p + t.len - 6, "98,99,");
    free(t.p);
}

static void test_alloc_and_hash(void **ctx)
{
    (void)ctx;
    unsigned char *p = mr_alloc(64, 4);
    for (int i = 0; i < 256; i++)
        assert_int_equal(p[i], 0); /* zeroed */
    p = mr_realloc(p, 128, 4);
    p[511] = 1;
    free(p);
    char *d = mr_strndup("abcdef", 3);
    assert_string_equal(d, "abc");
    free(d);
    /* FNV-1a reference values. */
    assert_true(mr_hash64("", 0) == 0xcbf29ce484222325ull);
    assert_true(mr_hash64("a", 1) == 0xaf63dc4c8601ec8cull);
    assert_true(mr_hash64("abc", 3) != mr_hash64("acb", 3));
}

static void test_name_of(void **ctx)
{
    (void)ctx;
    static const char *const t[] = {"zero", NULL, "two"};
    assert_string_equal(MR_NAME_OF(t, 0, "?"), "zero");
    assert_string_equal(MR_NAME_OF(t, 2, "?"), "two");
    assert_string_equal(MR_NAME_OF(t, 1, "?"), "?"); /* a gap in the table */
    assert_string_equal(MR_NAME_OF(t, 3, "?"), "?");
    assert_string_equal(MR_NAME_OF(t, -1, "?"), "?");
    assert_null(MR_NAME_OF(t, 9, NULL));
}

/* A queue of ints through mr_ring_grow: pushes and pops interleaved so the
 * ring is full while wrapped round, and every item leaves in order. */
static void test_ring_grow(void **ctx)
{
    (void)ctx;
    int *q = NULL;
    size_t head = 0, len = 0, cap = 0;
    int next_in = 0, next_out = 0;
    for (int round = 0; round < 200; round++) {
        for (int k = 0; k < 3; k++) {
            if (len == cap) {
                size_t was = cap;
                q = mr_ring_grow(q, sizeof *q, &head, len, &cap);
                assert_int_equal(cap, was ? was * 2 : 16);
                assert_int_equal(head, 0);
            }
            q[(head + len++) % cap] = next_in++;
        }
        for (int k = 0; k < 2; k++) {
            assert_int_equal(q[head], next_out++);
            head = (head + 1) % cap;
            len--;
        }
    }
    while (len) {
        assert_int_equal(q[head], next_out++);
        head = (head + 1) % cap;
        len--;
    }
    assert_int_equal(next_out, next_in);
    free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_long),     cmocka_unit_test(test_parse_u64),
        cmocka_unit_test(test_lines_and_trim), cmocka_unit_test(test_text_grows),
        cmocka_unit_test(test_alloc_and_hash), cmocka_unit_test(test_name_of),
        cmocka_unit_test(test_ring_grow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
