/* test_filter.c: lets ctest run one case of a cmocka program. Linked (as an
 * object, so the constructor is always kept) into the programs that
 * mr_add_case_tests() registers as one ctest test per case: MR_TEST_FILTER
 * names the case (cmocka's own pattern: '*' and '?' wildcards). Unset or
 * empty, every case runs, as before. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

__attribute__((constructor)) static void mr_test_filter_from_env(void)
{
    const char *pattern = getenv("MR_TEST_FILTER");
    if (pattern && *pattern)
        cmocka_set_test_filter(pattern);
}
