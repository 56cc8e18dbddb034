/* test_bt_measure.c: the bench's reading of another process's CPU time (tools/bot/bt_measure.c) is exact
 * to well under a clock tick: a child that burns a known amount of CPU reads as that amount, not as a
 * multiple of 10 ms; a process that does not exist reads as -1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bt_measure.h"

static double own_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A child that burns `burn` seconds of CPU, says so on `done`, then waits
 * (without CPU) until `go_on` closes. */
static pid_t burner(double burn, int *done_rd, int *go_wr)
{
    int done[2], go[2];
    assert_int_equal(pipe(done), 0);
    assert_int_equal(pipe(go), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(done[0]);
        close(go[1]);
        volatile unsigned long spin = 0;
        /* Bounded: a machine 1,000 times slower than needed still stops. */
        for (unsigned long i = 0; own_cpu_s() < burn && i < 4000000000ul; i++)
            spin++;
        char c = 1;
        if (write(done[1], &c, 1) != 1)
            _exit(1);
        (void)!read(go[0], &c, 1);
        _exit(0);
    }
    close(done[1]);
    close(go[0]);
    *done_rd = done[0];
    *go_wr = go[1];
    return pid;
}

static void test_cpu_to_the_millisecond(void **state)
{
    (void)state;
    /* 23.7 ms: with 10 ms ticks it would read 20 or 30 ms. */
    const double burn = 0.0237;
    int done, go;
    pid_t pid = burner(burn, &done, &go);
    char c;
    assert_int_equal(read(done, &c, 1), 1);
    double cpu = bt_proc_cpu_s((int)pid);
    close(go);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    close(done);
    /* At least what it burned; at most that and the child's start and its
     * write (well under a millisecond, 2 ms allowed for a loaded machine). */
    assert_true(cpu >= burn);
    assert_true(cpu < burn + 0.002);
}

static void test_no_such_process(void **state)
{
    (void)state;
    /* A child that has exited and been reaped: its pid names nothing. */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(0);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(bt_proc_cpu_s((int)pid) < 0 || kill(pid, 0) == 0); /* unless the pid was reused at once */
    assert_true(bt_proc_cpu_s(0) < 0);
    assert_true(bt_proc_cpu_s(-1) < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_to_the_millisecond),
        cmocka_unit_test(test_no_such_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
