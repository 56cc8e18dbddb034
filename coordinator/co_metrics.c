/* co_metrics.c: the coordinator's counters and gauges in Prometheus' text format, served by libmicrohttpd. */
#include "co_metrics.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svc_accept.h"
#include "util.h"

struct co_metrics {
    svc_http http;
    pthread_mutex_t lock;
    co_stats st;
};

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code, const char *type, const char *body)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
    MHD_add_response_header(r, "Content-Type", type);
    enum MHD_Result ok = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *data, size_t *data_size, void **state)
{
    (void)version, (void)data, (void)data_size, (void)state;
    co_metrics *m = cls;
    if (strcmp(method, "GET") != 0)
        return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", "GET only\n");
    if (strcmp(url, "/healthz") == 0)
        return reply(c, MHD_HTTP_OK, "text/plain", "ok\n");
    if (strcmp(url, "/metrics") != 0)
        return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", "not found: try /metrics or /healthz\n");
    pthread_mutex_lock(&m->lock);
    co_stats s = m->st;
    pthread_mutex_unlock(&m->lock);
    char body[3072];
    snprintf(
        body, sizeof body,
        "# HELP mazerace_coordinator_hosts Live invite codes.\n"
        "# TYPE mazerace_coordinator_hosts gauge\nmazerace_coordinator_hosts %d\n"
        "# HELP mazerace_coordinator_servers Listed public servers.\n"
        "# TYPE mazerace_coordinator_servers gauge\nmazerace_coordinator_servers %d\n"
        "# HELP mazerace_coordinator_pairs Introduced pairs that may still ask for relay credentials.\n"
        "# TYPE mazerace_coordinator_pairs gauge\nmazerace_coordinator_pairs %d\n"
        "# HELP mazerace_coordinator_datagrams_total Datagrams received.\n"
        "# TYPE mazerace_coordinator_datagrams_total counter\nmazerace_coordinator_datagrams_total %llu\n"
        "# HELP mazerace_coordinator_bad_total Datagrams that did not decode, or were not requests.\n"
        "# TYPE mazerace_coordinator_bad_total counter\nmazerace_coordinator_bad_total %llu\n"
        "# HELP mazerace_coordinator_rate_limited_total Requests refused by a per-address limit.\n"
        "# TYPE mazerace_coordinator_rate_limited_total counter\n"
        "mazerace_coordinator_rate_limited_total %llu\n"
        "# HELP mazerace_coordinator_lookups_total Invite code lookups answered.\n"
        "# TYPE mazerace_coordinator_lookups_total counter\nmazerace_coordinator_lookups_total %llu\n"
        "# HELP mazerace_coordinator_lookups_missed_total Lookups of a code nobody holds.\n"
        "# TYPE mazerace_coordinator_lookups_missed_total counter\n"
        "mazerace_coordinator_lookups_missed_total %llu\n"
        "# HELP mazerace_coordinator_turn_issued_total Relay credentials issued.\n"
        "# TYPE mazerace_coordinator_turn_issued_total counter\n"
        "mazerace_coordinator_turn_issued_total %llu\n"
        "# HELP mazerace_coordinator_turn_refused_total Relay credentials refused (no such pair).\n"
        "# TYPE mazerace_coordinator_turn_refused_total counter\n"
        "mazerace_coordinator_turn_refused_total %llu\n",
        s.hosts, s.servers, s.pairs, (unsigned long long)s.datagrams, (unsigned long long)s.bad,
        (unsigned long long)s.rate_limited, (unsigned long long)s.lookups,
        (unsigned long long)s.lookups_missed, (unsigned long long)s.turn_issued,
        (unsigned long long)s.turn_refused);
    return reply(c, MHD_HTTP_OK, "text/plain; version=0.0.4", body);
}

co_metrics *co_metrics_start(const char *addr, const char **err)
{
    co_metrics *m = mr_alloc(1, sizeof *m);
    pthread_mutex_init(&m->lock, NULL);
    /* The server's settings and listener (svc_http). */
    *err = svc_http_start(&m->http, addr, on_request, m);
    if (*err) {
        pthread_mutex_destroy(&m->lock);
        free(m);
        return NULL;
    }
    return m;
}

unsigned co_metrics_port(const co_metrics *m)
{
    return svc_http_port(&m->http);
}

bool co_metrics_publish(co_metrics *m, const co_stats *st)
{
    if (pthread_mutex_trylock(&m->lock) != 0)
        return false;
    m->st = *st;
    pthread_mutex_unlock(&m->lock);
    return true;
}

void co_metrics_stop(co_metrics *m)
{
    if (!m)
        return;
    svc_http_stop(&m->http);
    pthread_mutex_destroy(&m->lock);
    free(m);
}
