/* test_cgroup.c: the cgroup v2 memory limit along our cgroup's path (server/sv_cgroup.c) and the default
 * puzzle-memory budget that follows from it; every path is a scratch directory the test makes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sv_cgroup.h"

static char dir[64];

static void put(const char *rel, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void mk(const char *rel)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    assert_int_equal(mkdir(p, 0700), 0);
}

static unsigned long long limit(void)
{
    char root[128], self[128];
    snprintf(root, sizeof root, "%s/cg", dir);
    snprintf(self, sizeof self, "%s/self", dir);
    return sv_cgroup_memory_max(root, self);
}

static int setup(void **ctx)
{
    (void)ctx;
    snprintf(dir, sizeof dir, "/tmp/mr-cgroup-XXXXXX");
    assert_non_null(mkdtemp(dir));
    mk("cg");
    mk("cg/kubepods");
    mk("cg/kubepods/pod1");
    mk("cg/kubepods/pod1/c1");
    return 0;
}

static int teardown(void **ctx)
{
    (void)ctx;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd);
}

static void test_limit_along_the_path(void **ctx)
{
    (void)ctx;
    /* No memory.max anywhere, no self file: no limit. */
    assert_int_equal(limit(), 0);
    /* A container's cgroup namespace: "0::/" and the limit at the root of what it sees. */
    put("self", "0::/\n");
    put("cg/memory.max", "268435456\n");
    assert_int_equal(limit(), 268435456ULL);
    put("cg/memory.max", "max\n");
    assert_int_equal(limit(), 0);
    /* Our own cgroup deep down: the lowest limit on the way up counts. */
    put("self", "12:memory:/ignored\n1:name=systemd:/x\n0::/kubepods/pod1/c1\n");
    put("cg/kubepods/pod1/c1/memory.max", "max\n");
    put("cg/kubepods/pod1/memory.max", "536870912\n");
    put("cg/kubepods/memory.max", "8589934592\n");
    assert_int_equal(limit(), 536870912ULL);
    put("cg/kubepods/pod1/c1/memory.max", "268435456\n");
    assert_int_equal(limit(), 268435456ULL);
    /* Not a number, or a number with more after it: no limit from that file. */
    put("cg/kubepods/pod1/c1/memory.max", "12abc\n");
    put("cg/kubepods/pod1/memory.max", "-5\n");
    assert_int_equal(limit(), 8589934592ULL);
    /* A path that does not exist here (another hierarchy): the root's limit. */
    put("self", "0::/system.slice/mazerace-server.service\n");
    put("cg/memory.max", "1073741824\n");
    assert_int_equal(limit(), 1073741824ULL);
    /* A path with ".." is not followed. */
    put("self", "0::/../../etc\n");
    assert_int_equal(limit(), 1073741824ULL);
}

static void test_budget(void **ctx)
{
    (void)ctx;
    assert_int_equal(sv_cgroup_puzzle_mem_mb(0, 1024), 1024);           /* no limit: the default */
    assert_int_equal(sv_cgroup_puzzle_mem_mb(256ULL << 20, 1024), 128); /* the Fleet's pod */
    assert_int_equal(sv_cgroup_puzzle_mem_mb(4ULL << 30, 1024), 1024);  /* never above the default */
    assert_int_equal(sv_cgroup_puzzle_mem_mb(1ULL << 20, 1024), 1);     /* at least 1 MiB */
    assert_int_equal(sv_cgroup_puzzle_mem_mb((300ULL << 20) + 12345, 1024), 150); /* rounded down */
}

static void test_default_follows_env(void **ctx)
{
    (void)ctx;
    char root[128];
    snprintf(root, sizeof root, "%s/envroot", dir);
    mk("envroot");
    put("envroot/memory.max", "268435456\n");
    assert_int_equal(setenv(SV_CGROUP_ENV, root, 1), 0);
    sv_config cfg;
    sv_config_defaults(&cfg);
    assert_int_equal(cfg.puzzle_mem_mb, 1024);
    sv_cgroup_default_puzzle_mem(&cfg);
    assert_int_equal(cfg.puzzle_mem_mb, 128);
    put("envroot/memory.max", "max\n");
    sv_config_defaults(&cfg);
    sv_cgroup_default_puzzle_mem(&cfg);
    assert_int_equal(cfg.puzzle_mem_mb, 1024);
    unsetenv(SV_CGROUP_ENV);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_limit_along_the_path),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_default_follows_env),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
