/* test_textrule.c: the name and text rules on their own (mr_base only: no protocol, no match engine). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "textrule.h"

static void test_names(void **ctx)
{
    (void)ctx;
    assert_null(txt_name_problem("Zo\xc3\xab", 4));
    assert_null(txt_name_problem("123456789012345678901234", TXT_NAME_MAX));
    assert_non_null(txt_name_problem("1234567890123456789012345", TXT_NAME_MAX + 1));
    assert_non_null(txt_name_problem(NULL, 0));
    assert_non_null(txt_name_problem("   ", 3)); /* nothing visible */
    assert_non_null(txt_name_problem("a\xe2\x80\xae"
                                     "b",
                                     5)); /* right-to-left override */
    assert_non_null(txt_name_problem("a\tb", 3));
    assert_true(txt_name_ok("ann", 3));
    assert_false(txt_name_ok("\xef\xbb\xbf", 3)); /* BOM alone */
}

static void test_text(void **ctx)
{
    (void)ctx;
    char max[TXT_TEXT_MAX + 2];
    memset(max, 'x', sizeof max);
    assert_true(txt_text_ok(max, TXT_TEXT_MAX));
    assert_false(txt_text_ok(max, TXT_TEXT_MAX + 1));
    assert_true(txt_text_ok(NULL, 0));
    assert_false(txt_text_ok("a\nb", 3));

    char out[6];
    txt_clean(out, sizeof out, NULL);
    assert_string_equal(out, "");
    txt_clean(out, sizeof out, "a\x01\xc3\xab\xc3\xab");
    assert_string_equal(out, "a?\xc3\xab"); /* the second e-diaeresis does not fit whole */
    assert_true(txt_text_ok(out, strlen(out)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
