/* test_spool.c: the writer's spool file (st_spool): round trips, reopening, torn and damaged records,
 * locking. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "st.h"
#include "st_spool.h"
#include "util.h"

#include "store_records.h"

static char dir[256];
static char path[320];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "%s/mr_spool_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/spool", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    rmdir(dir);
    return 0;
}

static st_spool *open_ok(void)
{
    char err[512];
    st_spool *sp = st_spool_open(path, err, sizeof err);
    if (!sp)
        fail_msg("%s", err);
    return sp;
}

static void append(st_spool *sp, int from, int n)
{
    char err[512];
    for (int i = from; i < from + n; i++) {
        st_match *m = make(i);
        if (i % 4 == 3) { /* a record without moves */
            free(m->moves);
            m->moves = NULL;
            m->nmoves = 0;
        }
        snprintf(m->key, sizeof m->key, "%032x", (unsigned)i + 1); /* the key travels with the record */
        if (!st_spool_append(sp, &m, 1, err, sizeof err))
            fail_msg("%s", err);
        st_match_free(m);
        free(m);
    }
}

/* Peeks up to max records and checks they are make(from), make(from + 1), ... */
static int peek_check(st_spool *sp, int from, int max)
{
    st_match *got[ST_SPOOL_READ_MAX];
    char err[512];
    int k = st_spool_peek(sp, got, max, err, sizeof err);
    if (k < 0)
        fail_msg("%s", err);
    for (int i = 0; i < k; i++) {
        st_match *want = make(from + i);
        if ((from + i) % 4 == 3)
            want->nmoves = 0;
        assert_same(got[i], want, true);
        char key[ST_KEY_LEN + 1];
        snprintf(key, sizeof key, "%032x", (unsigned)(from + i) + 1);
        assert_string_equal(got[i]->key, key);
        st_match_free(want);
        free(want);
        st_match_free(got[i]);
        free(got[i]);
    }
    return k;
}

static off_t file_size(void)
{
    struct stat s;
    assert_int_equal(stat(path, &s), 0);
    return s.st_size;
}

static void test_round_trip(void **state)
{
    (void)state;
    st_spool *sp = open_ok();
    assert_int_equal(st_spool_pending(sp), 0);
    append(sp, 0, 10);
    assert_int_equal(st_spool_pending(sp), 10);
    assert_int_equal(peek_check(sp, 0, 4), 4);
    assert_int_equal(peek_check(sp, 0, 4), 4); /* a peek removes nothing */
    char err[512];
    assert_true(st_spool_consume(sp, 3, err, sizeof err));
    assert_int_equal(st_spool_pending(sp), 7);
    st_spool_close(sp);
    /* The consumed offset survives a restart. */
    sp = open_ok();
    assert_int_equal(st_spool_pending(sp), 7);
    assert_int_equal(peek_check(sp, 3, 100), 7);
    assert_false(st_spool_consume(sp, 8, err, sizeof err)); /* more than were read */
    assert_true(st_spool_consume(sp, 7, err, sizeof err));
    assert_int_equal(st_spool_pending(sp), 0);
    assert_int_equal(file_size(), 16); /* emptied: cut back to its header */
    st_match *none[1];
    assert_int_equal(st_spool_peek(sp, none, 1, err, sizeof err), 0);
    append(sp, 20, 2);
    st_spool_close(sp);
    sp = open_ok();
    assert_int_equal(peek_check(sp, 20, 100), 2);
    st_spool_close(sp);
}

static void test_torn_and_damaged(void **state)
{
    (void)state;
    st_spool *sp = open_ok();
    append(sp, 0, 3);
    st_spool_close(sp);
    off_t whole = file_size();
    /* A crash while appending: half a frame header at the end. */
    FILE *f = fopen(path, "ab");
    assert_non_null(f);
    fwrite("\x40\x00\x00\x00\x01", 1, 5, f);
    fclose(f);
    sp = open_ok();
    assert_int_equal(st_spool_pending(sp), 3);
    assert_int_equal(file_size(), whole); /* cut off */
    st_spool_close(sp);
    /* A flipped byte in the first record's payload: that record is skipped,
     * counted, and the others still come. */
    f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 16 + 12 + 5, SEEK_SET), 0);
    int c = fgetc(f);
    assert_int_equal(fseek(f, 16 + 12 + 5, SEEK_SET), 0);
    fputc(c ^ 0x20, f);
    fclose(f);
    sp = open_ok();
    assert_int_equal(peek_check(sp, 1, 100), 2);
    assert_int_equal(st_spool_bad(sp), 1);
    assert_int_equal(st_spool_pending(sp), 2);
    st_spool_close(sp);
}

static void test_refused(void **state)
{
    (void)state;
    st_spool *sp = open_ok();
    char err[512] = "";
    assert_null(st_spool_open(path, err, sizeof err)); /* one process (one opener) at a time */
    assert_non_null(strstr(err, "in use"));
    st_spool_close(sp);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("hello, not a spool\n", f);
    fclose(f);
    assert_null(st_spool_open(path, err, sizeof err));
    assert_non_null(strstr(err, "not a mazerace spool"));
    unlink(path);
    snprintf(path + strlen(path), sizeof path - strlen(path), "/no/such/dir");
    assert_null(st_spool_open(path, err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
    snprintf(path, sizeof path, "%s/spool", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_torn_and_damaged, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
