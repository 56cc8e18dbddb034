/* co_metrics.h: mazerace-coordinator's Prometheus /metrics and /healthz (libmicrohttpd on its own thread,
 * behind the server's slowloris-proof listener server/svc_accept.c). */
#ifndef MR_CO_METRICS_H
#define MR_CO_METRICS_H
#include <stdbool.h>

#include "co.h"

typedef struct co_metrics co_metrics;
/* addr: "IPV4:PORT" (port 0: any free one). NULL with *err (static). */
co_metrics *co_metrics_start(const char *addr, const char **err);
unsigned co_metrics_port(const co_metrics *m);
/* Copies st for the next scrape; a busy lock skips (false), the loop tries again. */
bool co_metrics_publish(co_metrics *m, const co_stats *st);
void co_metrics_stop(co_metrics *m); /* accepts NULL */
#endif
