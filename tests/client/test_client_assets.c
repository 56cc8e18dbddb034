/* test_client_assets.c: the game's asset lookup order (installed data dir,
 * build tree, next to the binary) and the message naming every path tried. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cl_assets.h"

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static void touch(const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("x", f);
    fclose(f);
}

static void test_default_order(void **ctx)
{
    (void)ctx;
    cl_asset_dirs d;
    cl_asset_dirs_default(&d, "/opt/mr/bin/");
    /* Installed data dir, this source tree (tests build with it on), then the binary's neighbours. */
    assert_int_equal(d.n, 4);
    assert_true(ends_with(d.dir[0], "/share/mazerace"));
    assert_true(d.dir[0][0] == '/');
    assert_true(ends_with(d.dir[1], "/assets"));
    assert_string_equal(d.dir[2], "/opt/mr/bin/assets");
    assert_string_equal(d.dir[3], "/opt/mr/bin/../share/mazerace");
    /* The build tree really holds the font. */
    char path[CL_ASSET_PATH_MAX + 64], msg[512];
    cl_asset_dirs only = {0};
    cl_asset_dirs_add(&only, d.dir[1]);
    assert_null(cl_asset_find(&only, "fonts/DejaVuSans.ttf", path, sizeof path, msg, sizeof msg));
    /* Without a trailing slash, or without a binary directory at all. */
    cl_asset_dirs_default(&d, "/opt/mr/bin");
    assert_string_equal(d.dir[2], "/opt/mr/bin/assets");
    cl_asset_dirs_default(&d, NULL);
    assert_int_equal(d.n, 2);
}

static void test_first_hit_wins_and_misses_are_listed(void **ctx)
{
    (void)ctx;
    char root[] = "/tmp/mr-assets-XXXXXX";
    assert_non_null(mkdtemp(root));
    char a[256], b[256], c[256], fa[300], fb[300];
    snprintf(a, sizeof a, "%s/a", root);
    snprintf(b, sizeof b, "%s/b", root);
    snprintf(c, sizeof c, "%s/c", root);
    assert_int_equal(mkdir(a, 0700), 0);
    assert_int_equal(mkdir(b, 0700), 0);
    assert_int_equal(mkdir(c, 0700), 0);
    snprintf(fb, sizeof fb, "%s/fonts", b);
    assert_int_equal(mkdir(fb, 0700), 0);
    snprintf(fb, sizeof fb, "%s/fonts/f.ttf", b);
    touch(fb);
    /* A directory with the file's name does not count. */
    snprintf(fa, sizeof fa, "%s/fonts", a);
    assert_int_equal(mkdir(fa, 0700), 0);
    snprintf(fa, sizeof fa, "%s/fonts/f.ttf", a);
    assert_int_equal(mkdir(fa, 0700), 0);

    cl_asset_dirs d = {0};
    cl_asset_dirs_add(&d, a);
    cl_asset_dirs_add(&d, b);
    cl_asset_dirs_add(&d, c);
    char path[CL_ASSET_PATH_MAX + 64], msg[2048];
    assert_null(cl_asset_find(&d, "fonts/f.ttf", path, sizeof path, msg, sizeof msg));
    assert_string_equal(path, fb);

    /* Missing everywhere: every path tried, in order. */
    const char *m = cl_asset_find(&d, "fonts/none.ttf", path, sizeof path, msg, sizeof msg);
    assert_non_null(m);
    assert_string_equal(path, "");
    char want[1200];
    snprintf(want, sizeof want,
             "cannot find fonts/none.ttf; tried: %s/fonts/none.ttf, %s/fonts/none.ttf, %s/fonts/none.ttf", a,
             b, c);
    assert_string_equal(m, want);

    /* A message buffer too small is cut, never overrun. */
    char tiny[24];
    m = cl_asset_find(&d, "fonts/none.ttf", path, sizeof path, tiny, sizeof tiny);
    assert_non_null(m);
    assert_int_equal(strlen(m), sizeof tiny - 1);

    /* No directories at all says so. */
    cl_asset_dirs none = {0};
    m = cl_asset_find(&none, "fonts/f.ttf", path, sizeof path, msg, sizeof msg);
    assert_non_null(strstr(m, "no data directory"));

    /* The list holds at most CL_ASSET_DIRS_MAX; empty names are skipped. */
    for (int i = 0; i < 10; i++)
        cl_asset_dirs_add(&d, "/x");
    cl_asset_dirs_add(&none, "");
    assert_int_equal(d.n, CL_ASSET_DIRS_MAX);
    assert_int_equal(none.n, 0);

    unlink(fb);
    rmdir(fa);
    snprintf(fa, sizeof fa, "%s/fonts", a);
    rmdir(fa);
    snprintf(fb, sizeof fb, "%s/fonts", b);
    rmdir(fb);
    rmdir(a);
    rmdir(b);
    rmdir(c);
    rmdir(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_order),
        cmocka_unit_test(test_first_hit_wins_and_misses_are_listed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
