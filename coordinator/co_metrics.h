/* co_metrics.h: mazerace-coordinator's Prometheus /metrics and /healthz, served as the server's are
 * (svc_http: libmicrohttpd on its own thread, behind the server's slowloris-proof listener
 * server/svc_accept.c). */
#ifndef MR_CO_METRICS_H
#define MR_CO_METRICS_H

#include "co.h"
#include "svc_http.h"

/* addr: "IPV4:PORT" (port 0: any free one). NULL with *err (static). The
 * loop publishes a co_stats with svc_http_publish(h, &st, false, false): a
 * busy lock skips (false), the loop tries again. Port and stop: svc_http. */
svc_http *co_metrics_start(const char *addr, const char **err);

#endif
