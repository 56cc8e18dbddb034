/* svc_metrics.h: the Prometheus /metrics and /healthz endpoint of mazerace-server, served by libmicrohttpd on
 * its own thread from a snapshot the game loop publishes. */
#ifndef MR_SVC_METRICS_H
#define MR_SVC_METRICS_H

#include "sv.h"
#include "svc_http.h"

/* The game port's sockets, one per ENet host (sv_socket_fds): their kernel
 * drop counters are read and summed at each scrape. */
typedef struct svc_metrics_sockets {
    int fd[SV_MAX_HOSTS];
    int n;
} svc_metrics_sockets;

/* Starts serving on addr ("IPV4:PORT", port 0 = any free one); socks and
 * its sockets must stay valid until svc_http_stop. NULL with *err (static)
 * on failure.
 * The game loop publishes an sv_stats with svc_http_publish: with wait
 * false it never blocks (a scrape holding the lock: nothing copied, false,
 * the loop tries again on its next step); with wait true (at shutdown) it
 * takes the lock. Port and stop: svc_http_port, svc_http_stop. */
svc_http *svc_metrics_start(const char *addr, const svc_metrics_sockets *socks, const char **err);

#endif
