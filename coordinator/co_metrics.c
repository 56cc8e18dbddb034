/* co_metrics.c: the coordinator's counters and gauges in Prometheus' text format, served as the server's are
 * (svc_http). */
#include "co_metrics.h"

#include "svc_http.h"
#include "util.h"

static void render(const void *snap, bool draining, void *ctx, mr_text *out)
{
    (void)draining, (void)ctx;
    const co_stats s = *(const co_stats *)snap;
    mr_text_add(
        out,
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
}

svc_http *co_metrics_start(const char *addr, const char **err)
{
    return svc_http_start(addr, sizeof(co_stats), render, NULL, err);
}
