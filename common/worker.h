/* worker.h: telling a worker thread that waits on a condition to stop, shared by the threads of
 * store/st_writer.c, server/sv_gen.c and client/net/cl_portmap.c. Header only: common's libraries do
 * not link pthread, the modules that start threads do. */
#ifndef MR_WORKER_H
#define MR_WORKER_H
#include <pthread.h>
#include <stdbool.h>

/* Sets *stop under mu and wakes every thread waiting on cv, which sees it
 * when it next holds mu; the caller then joins the threads. */
static inline void mr_worker_tell_stop(pthread_mutex_t *mu, pthread_cond_t *cv, bool *stop)
{
    pthread_mutex_lock(mu);
    *stop = true;
    pthread_cond_broadcast(cv);
    pthread_mutex_unlock(mu);
}
#endif
