/* svc_http.c: a metrics port: the libmicrohttpd daemon behind svc_accept, its request handler and the
 * published figures it serves. */
#include "svc_http.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sv_opts.h"
#include "svc_accept.h"

struct svc_http {
    struct MHD_Daemon *d;
    svc_accept *acc; /* the listener: only complete requests reach d */
    svc_http_render render;
    void *ctx;
    size_t size;
    pthread_mutex_t lock; /* guards snap and draining: held for a copy only */
    void *snap;
    bool draining;
};

/* Sends body (and frees it). */
static enum MHD_Result reply(struct MHD_Connection *conn, unsigned status, const char *type, mr_text *body)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(body->len, body->p, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(body->p);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    /* One request per connection: a kept-alive connection's next request
     * would reach libmicrohttpd without svc_accept's header deadline. */
    MHD_add_response_header(r, "Connection", "close");
    enum MHD_Result ret = MHD_queue_response(conn, status, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **req)
{
    (void)version;
    (void)upload;
    (void)req;
    svc_http *h = cls;
    if (*upload_size != 0) {
        *upload_size = 0; /* a body is ignored; the answer is the 405 below */
        return MHD_YES;
    }
    mr_text b = mr_text_new(4096);
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        mr_text_add(&b, "only GET\n");
        return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", &b);
    }
    bool metrics = strcmp(url, "/metrics") == 0;
    if (!metrics && strcmp(url, "/healthz") != 0) {
        mr_text_add(&b, "not found: try /metrics or /healthz\n");
        return reply(conn, MHD_HTTP_NOT_FOUND, "text/plain", &b);
    }
    void *snap = metrics ? mr_alloc(1, h->size) : NULL;
    pthread_mutex_lock(&h->lock);
    if (snap)
        memcpy(snap, h->snap, h->size);
    bool draining = h->draining;
    pthread_mutex_unlock(&h->lock);
    if (!metrics) {
        mr_text_add(&b, draining ? "draining\n" : "ok\n");
        return reply(conn, draining ? MHD_HTTP_SERVICE_UNAVAILABLE : MHD_HTTP_OK, "text/plain", &b);
    }
    h->render(snap, draining, h->ctx, &b);
    free(snap);
    return reply(conn, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8", &b);
}

svc_http *svc_http_start(const char *addr, size_t snap_size, svc_http_render render, void *ctx,
                         const char **err)
{
    char ip[16];
    int port;
    if (sv_opt_parse_hostport(addr, ip, &port)) {
        *err = "bad metrics address";
        return NULL;
    }
    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, ip, &sin.sin_addr);
    svc_http *h = mr_alloc(1, sizeof *h);
    h->render = render;
    h->ctx = ctx;
    h->size = snap_size;
    h->snap = mr_alloc(1, snap_size ? snap_size : 1);
    pthread_mutex_init(&h->lock, NULL);
    /* A client that never reads holds one of the 32 connections until the
     * time-out and never the owner's loop. The listening socket is
     * svc_accept's: a connection gets here only with its request headers
     * in, so one that trickles them (a slowloris) never takes one of the
     * 32 (issue 26). */
    h->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_NO_LISTEN_SOCKET |
                                MHD_USE_ITC,
                            0, NULL, NULL, on_request, h, MHD_OPTION_CONNECTION_LIMIT, (unsigned)32,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)10, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
                            (unsigned)8, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768, MHD_OPTION_END);
    h->acc = h->d ? svc_accept_start(&sin, h->d, err) : NULL;
    if (!h->acc) {
        if (!h->d)
            *err = "cannot start the metrics server";
        svc_http_stop(h);
        return NULL;
    }
    return h;
}

unsigned svc_http_port(const svc_http *h)
{
    return svc_accept_port(h->acc);
}

bool svc_http_publish(svc_http *h, const void *snap, bool draining, bool wait)
{
    if (wait)
        pthread_mutex_lock(&h->lock);
    else if (pthread_mutex_trylock(&h->lock) != 0)
        return false;
    memcpy(h->snap, snap, h->size);
    h->draining = draining;
    pthread_mutex_unlock(&h->lock);
    return true;
}

void svc_http_stop(svc_http *h)
{
    if (!h)
        return;
    svc_accept_stop(h->acc);
    if (h->d)
        MHD_stop_daemon(h->d);
    pthread_mutex_destroy(&h->lock);
    free(h->snap);
    free(h);
}
