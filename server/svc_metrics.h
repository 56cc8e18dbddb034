/* svc_metrics.h: the Prometheus /metrics and /healthz endpoint of mazerace-server, served by libmicrohttpd on
 * its own thread from a snapshot the game loop publishes. */
#ifndef MR_SVC_METRICS_H
#define MR_SVC_METRICS_H

#include <stdbool.h>

#include "sv.h"

typedef struct svc_metrics svc_metrics;

/* Starts serving on addr ("IPV4:PORT", port 0 = any free one); sock_fd is
 * the game socket (its kernel drop counter is read at each scrape; it must
 * stay open until svc_metrics_stop). NULL with *err (static) on failure. */
svc_metrics *svc_metrics_start(const char *addr, int sock_fd, const char **err);
/* The bound port. */
unsigned svc_metrics_port(const svc_metrics *m);
/* Called by the game loop: copies the counters under a lock held only for
 * the copy (a scrape copies them out under the same lock, then formats).
 * With wait false it never blocks: if a scrape holds the lock right now it
 * copies nothing and returns false (the loop tries again on its next step);
 * with wait true (at shutdown) it takes the lock. True once published. */
bool svc_metrics_publish(svc_metrics *m, const sv_stats *st, bool draining, bool wait);
/* Stops the thread and frees. Accepts NULL. */
void svc_metrics_stop(svc_metrics *m);

#endif
