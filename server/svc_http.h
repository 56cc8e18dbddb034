/* svc_http.h: a metrics port (the server's and the coordinator's): libmicrohttpd behind an svc_accept
 * listener, serving the latest figures its owner published. */
#ifndef MR_SVC_HTTP_H
#define MR_SVC_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

typedef struct svc_http svc_http;

/* Writes the /metrics body (Prometheus' text format) for snap, a copy of
 * the last published figures (all zero before the first), on the HTTP
 * thread. draining: as last published. ctx: as given to svc_http_start. */
typedef void (*svc_http_render)(const void *snap, bool draining, void *ctx, mr_text *out);

/* Listens on addr ("PORT", ":PORT" or "IPV4:PORT", as sv_opt_parse_hostport
 * reads it): GET or HEAD /metrics answers render's text, /healthz "ok"
 * (503 "draining" once published so), anything else 404 or 405; one
 * request per connection. One polling thread with non-blocking sockets, at
 * most 32 connections (8 per address), a 10 s time-out, 32 KiB each.
 * snap_size: the bytes svc_http_publish copies. NULL with *err (static)
 * on failure. */
svc_http *svc_http_start(const char *addr, size_t snap_size, svc_http_render render, void *ctx,
                         const char **err);
/* The bound port. */
unsigned svc_http_port(const svc_http *h);
/* Copies snap (snap_size bytes) and draining for the next requests, under
 * a lock a request holds only for a copy. wait: block for it; else false
 * (nothing copied) while a request holds it, so a game loop never waits. */
bool svc_http_publish(svc_http *h, const void *snap, bool draining, bool wait);
/* Stops the listener, then the daemon. Accepts NULL. */
void svc_http_stop(svc_http *h);

#endif
