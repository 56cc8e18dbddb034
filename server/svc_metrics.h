/* svc_metrics.h: the Prometheus /metrics and /healthz endpoint of mazerace-server, served by libmicrohttpd on
 * its own thread from a snapshot the game loop publishes. */
#ifndef MR_SVC_METRICS_H
#define MR_SVC_METRICS_H

#include "sv.h"
#include "svc_http.h"

/* Starts serving on addr ("IPV4:PORT", port 0 = any free one); sock_fd is
 * the game socket (its kernel drop counter is read at each scrape; it must
 * stay open until svc_http_stop). NULL with *err (static) on failure.
 * The game loop publishes an sv_stats with svc_http_publish: with wait
 * false it never blocks (a scrape holding the lock: nothing copied, false,
 * the loop tries again on its next step); with wait true (at shutdown) it
 * takes the lock. Port and stop: svc_http_port, svc_http_stop. */
svc_http *svc_metrics_start(const char *addr, int sock_fd, const char **err);

#endif
