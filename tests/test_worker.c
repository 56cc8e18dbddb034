/* test_worker.c: common/worker.h: a worker waiting on its condition is woken by mr_worker_tell_stop and
 * sees the stop (all of them, not one); one that has not waited yet sees it too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "worker.h"

typedef struct waiter {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;
    int waiting; /* workers in their wait loop (they release mu only inside the wait) */
    pthread_cond_t started;
    int rounds; /* times the worker woke before seeing stop */
} waiter;

static void *run(void *p)
{
    waiter *w = p;
    pthread_mutex_lock(&w->mu);
    w->waiting++;
    pthread_cond_signal(&w->started);
    while (!w->stop) {
        pthread_cond_wait(&w->cv, &w->mu);
        w->rounds++;
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Starts n workers and returns once all of them wait on cv. */
static void start(waiter *w, pthread_t *t, int n)
{
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    pthread_cond_init(&w->started, NULL);
    w->stop = false;
    w->waiting = w->rounds = 0;
    for (int i = 0; i < n; i++)
        assert_int_equal(pthread_create(&t[i], NULL, run, w), 0);
    pthread_mutex_lock(&w->mu);
    while (w->waiting < n)
        pthread_cond_wait(&w->started, &w->mu);
    pthread_mutex_unlock(&w->mu);
}

static void finish(waiter *w, pthread_t *t, int n)
{
    for (int i = 0; i < n; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_true(w->stop);
    pthread_cond_destroy(&w->started);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
}

/* Four workers told while they wait, then one started only after the stop:
 * each sees it, and the late one never waits. */
static void test_every_worker_sees_the_stop(void **ctx)
{
    (void)ctx;
    for (int late = 0; late < 2; late++) {
        waiter w;
        pthread_t t[4];
        int n = late ? 1 : 4;
        start(&w, t, late ? 0 : n);
        mr_worker_tell_stop(&w.mu, &w.cv, &w.stop);
        if (late)
            assert_int_equal(pthread_create(&t[0], NULL, run, &w), 0);
        finish(&w, t, n);
        if (late)
            assert_int_equal(w.rounds, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_worker_sees_the_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
