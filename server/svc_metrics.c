/* svc_metrics.c: Prometheus text exposition of the server's counters at /metrics, and /healthz, over
 * libmicrohttpd on its own thread. */
#include "svc_metrics.h"

#include <dirent.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "puzzle.h"
#include "svc_http.h"
#include "util.h"

#ifndef SO_MEMINFO
#define SO_MEMINFO 55
#endif

/* A growing text buffer for one scrape (on the HTTP thread). */
static void metric(mr_text *b, const char *name, const char *type, const char *help, double v)
{
    mr_text_add(b, "# HELP %s %s\n# TYPE %s %s\n%s %.17g\n", name, help, name, type, name, v);
}

/* Datagrams the kernel dropped on the game port's sockets (receive buffer full), summed over its hosts. */
static double socket_drops(const svc_metrics_sockets *socks)
{
    double drops = 0;
    for (int i = 0; i < socks->n; i++) {
        uint32_t mem[SK_MEMINFO_VARS];
        socklen_t len = sizeof mem;
        if (socks->fd[i] >= 0 && getsockopt(socks->fd[i], SOL_SOCKET, SO_MEMINFO, mem, &len) == 0 &&
            len > SK_MEMINFO_DROPS * 4)
            drops += mem[SK_MEMINFO_DROPS];
    }
    return drops;
}

/* A histogram from per-bucket counts (not cumulative), bounds in us. */
static void histogram(mr_text *b, const char *name, const char *help, const uint64_t *counts,
                      const uint32_t *bounds_us, int n, double sum_s)
{
    mr_text_add(b, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
    uint64_t cum = 0;
    for (int i = 0; i < n; i++) {
        cum += counts[i];
        if (i < n - 1)
            mr_text_add(b, "%s_bucket{le=\"%g\"} %llu\n", name, bounds_us[i] * 1e-6, (unsigned long long)cum);
        else
            mr_text_add(b, "%s_bucket{le=\"+Inf\"} %llu\n", name, (unsigned long long)cum);
    }
    mr_text_add(b, "%s_sum %.9f\n%s_count %llu\n", name, sum_s, name, (unsigned long long)cum);
}

/* The process_* series every Prometheus client library exports, from
 * /proc/self (Linux): CPU, resident memory, open descriptors, start time. */
static void process_series(mr_text *b)
{
    metric(b, "process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.",
           sv_cpu_seconds());
    long page = sysconf(_SC_PAGESIZE), ticks = sysconf(_SC_CLK_TCK);
    unsigned long long size = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%llu %llu", &size, &resident) == 2) {
            metric(b, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
                   (double)resident * (double)page);
            metric(b, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.",
                   (double)size * (double)page);
        }
        fclose(f);
    }
    int fds = 0;
    DIR *d = opendir("/proc/self/fd");
    if (d) {
        for (struct dirent *e; (e = readdir(d));)
            fds += e->d_name[0] != '.';
        closedir(d);
        metric(b, "process_open_fds", "gauge", "Number of open file descriptors.",
               fds - 1); /* opendir's own */
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        metric(b, "process_max_fds", "gauge", "Maximum number of open file descriptors.",
               (double)rl.rlim_cur);
    /* Field 22 of /proc/self/stat: the start in clock ticks after boot;
     * field 2 (the name) may hold blanks, so read after its ')'. */
    char stat[1024];
    f = fopen("/proc/self/stat", "r");
    size_t n = f ? fread(stat, 1, sizeof stat - 1, f) : 0;
    if (f)
        fclose(f);
    stat[n] = '\0';
    const char *p = strrchr(stat, ')');
    unsigned long long start_ticks = 0;
    int field = 2;
    for (; p && *p && field < 22; p++)
        if (*p == ' ')
            field++;
    double btime = 0;
    f = fopen("/proc/stat", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "btime %lf", &btime) == 1)
            break;
    if (f)
        fclose(f);
    if (p && field == 22 && sscanf(p, "%llu", &start_ticks) == 1 && btime > 0 && ticks > 0)
        metric(b, "process_start_time_seconds", "gauge",
               "Start time of the process since unix epoch in seconds.",
               btime + (double)start_ticks / (double)ticks);
}

/* Capacity, generation refusals, records and the loop's lag: what an
 * alert needs beside the counters (docs/server.md, Metrics). */
static void alerting_series(mr_text *b, const sv_stats *s)
{
    metric(b, "mazerace_max_players", "gauge", "Connected players the server takes (max_clients).",
           s->max_clients);
    metric(b, "mazerace_max_rooms", "gauge", "Rooms the server keeps open at once (max_rooms).",
           s->max_rooms);
    metric(b, "mazerace_puzzle_memory_budget_bytes", "gauge",
           "Puzzle memory all rooms may hold (puzzle_mem; one address an eighth of it).",
           (double)s->puzzle_mem_budget);
    metric(b, "mazerace_puzzle_memory_bytes", "gauge",
           "Estimated puzzle memory held by rooms and pending generations now.", (double)s->puzzle_bytes);
    mr_text_add(b,
                "# HELP mazerace_generation_refused_total Puzzle generations refused, by reason (memory and "
                "address_memory: ERROR MEMORY; the others: ERROR BUSY).\n"
                "# TYPE mazerace_generation_refused_total counter\n");
    for (int r = 0; r < SV_GEN_REFUSALS; r++)
        mr_text_add(b, "mazerace_generation_refused_total{reason=\"%s\"} %llu\n", sv_gen_refusal_names[r],
                    (unsigned long long)s->gen_refused_by[r]);
    metric(b, "mazerace_generation_pending", "gauge", "Puzzle generations queued or running.",
           s->gen_pending);
    metric(b, "mazerace_records_enabled", "gauge",
           "1 when finished matches are recorded in a database, else 0.", s->records_on);
    histogram(b, "mazerace_loop_lag_seconds",
              "How long each game-loop step's work kept the game socket unread (after its wait).",
              s->lag_hist, sv_lag_hist_bounds_us, SV_LAG_HIST_BUCKETS, (double)s->lag_us_sum * 1e-6);
}

/* The plain series, in the order of the scrape: name, type, help, and
 * where the value comes from (a field of sv_stats, or one of V_*). */
enum { V_U64, V_INT, V_DRAINING, V_SOCKET_DROPS, V_CPU };
typedef struct series {
    const char *name, *type, *help;
    int from;
    size_t off;
} series;
#define U64(field) V_U64, offsetof(sv_stats, field)
#define INT(field) V_INT, offsetof(sv_stats, field)
#define SPECIAL(v) v, 0
static const series before_moves[] = {
    {"mazerace_players", "gauge", "Connected players (ENet peers).", INT(peers_now)},
    {"mazerace_rooms", "gauge", "Open rooms.", INT(rooms_now)},
    {"mazerace_matches_running", "gauge", "Matches in countdown or racing.", INT(matches_running)},
    {"mazerace_quick_waiting", "gauge", "Players waiting alone for a quick-match opponent.",
     INT(quick_waiting)},
    {"mazerace_draining", "gauge", "1 while draining after SIGTERM (no new rooms or races).",
     SPECIAL(V_DRAINING)},
    {"mazerace_connects_total", "counter", "Connections accepted.", U64(connects)},
    {"mazerace_disconnects_total", "counter", "Connections ended.", U64(disconnects)},
    {"mazerace_rooms_created_total", "counter", "Rooms created.", U64(rooms_created)},
    {"mazerace_matches_started_total", "counter", "Games started (countdown begun).", U64(matches_started)},
    {"mazerace_matches_finished_total", "counter", "Games ended (solved, forfeit or aborted).",
     U64(matches_finished)},
    {"mazerace_spectators", "gauge", "Spectators watching a room now.", INT(spectators_now)},
    {"mazerace_watches_total", "counter", "WATCH requests accepted (a spectator began watching a room).",
     U64(watches)},
    {"mazerace_watches_refused_total", "counter", "WATCH requests refused by a spectator limit (WATCH_FULL).",
     U64(watch_refused)},
    {"mazerace_watch_redirects_total", "counter",
     "WATCHes on the game port answered WATCH_AT (sent on to the spectator port).", U64(watch_redirects)},
    {"mazerace_spectator_bundles_total", "counter",
     "BUNDLE packets sent to spectators (each carries 2 or more messages of one batch).",
     U64(spectator_bundles)},
    {"mazerace_spectator_datagrams_received_total", "counter",
     "UDP datagrams the spectator port's ENet host received (its acknowledgements included).",
     U64(spectator_udp_in)},
    {"mazerace_spectator_datagrams_sent_total", "counter",
     "UDP datagrams the spectator port's ENet host sent (its acknowledgements included).",
     U64(spectator_udp_out)},
    {"mazerace_records_stored_total", "counter", "Match records committed to the match database.",
     U64(records_stored)},
    {"mazerace_records_dropped_total", "counter",
     "Match records lost before the database: its queue was full.", U64(records_dropped)},
    {"mazerace_records_failed_total", "counter", "Match records the database refused.", U64(records_failed)},
    {"mazerace_records_spooled_total", "counter",
     "Match records kept in the local spool because the database was out of reach.", U64(records_spooled)},
    {"mazerace_records_spool_waiting", "gauge",
     "Match records in the spool now, sent when the database is back.", INT(records_spool_waiting)},
    {"mazerace_moves_validated_total", "counter", "Moves handed to the match engine.", U64(moves_validated)},
};
static const series after_moves[] = {
    {"mazerace_bad_messages_total", "counter",
     "Malformed, oversized, unknown or out-of-order messages (over-rate ones included).", U64(bad_msgs)},
    {"mazerace_rate_limited_total", "counter", "Messages dropped by the per-player rate limit.",
     U64(rate_limited)},
    {"mazerace_kicks_total", "counter", "Players disconnected for misbehaving.", U64(kicked)},
    {"mazerace_messages_received_total", "counter", "Game messages received.", U64(packets_in)},
    {"mazerace_messages_sent_total", "counter", "Game messages sent.", U64(packets_out)},
    {"mazerace_enet_datagrams_received_total", "counter",
     "UDP datagrams ENet received on the game port (its acknowledgements included).", U64(udp_in)},
    {"mazerace_enet_datagrams_sent_total", "counter",
     "UDP datagrams ENet sent on the game port (its acknowledgements included).", U64(udp_out)},
    {"mazerace_socket_errors_total", "counter",
     "Failed sends or receives on the game socket that the server carried on after.", U64(socket_errors)},
    {"mazerace_socket_drops_total", "counter",
     "Datagrams the kernel dropped on the game port's sockets (receive buffer full).",
     SPECIAL(V_SOCKET_DROPS)},
    {"mazerace_discovery_replies_total", "counter", "LAN discovery probes answered.", U64(discovery_replies)},
    {"mazerace_discovery_dropped_total", "counter", "LAN discovery probes over the reply rate.",
     U64(discovery_dropped)},
    {"mazerace_loop_steps_total", "counter", "Server loop steps.", U64(steps)},
    {"mazerace_cpu_seconds_total", "counter", "Process CPU time, user and system.", SPECIAL(V_CPU)},
};
#undef U64
#undef INT
#undef SPECIAL

static void put_series(mr_text *b, const series *t, size_t n, const sv_stats *s, bool draining,
                       const svc_metrics_sockets *socks)
{
    for (size_t i = 0; i < n; i++) {
        const void *field = (const char *)s + t[i].off;
        double v = t[i].from == V_U64            ? (double)*(const uint64_t *)field
                   : t[i].from == V_INT          ? (double)*(const int *)field
                   : t[i].from == V_DRAINING     ? (double)draining
                   : t[i].from == V_SOCKET_DROPS ? socket_drops(socks)
                                                 : sv_cpu_seconds();
        metric(b, t[i].name, t[i].type, t[i].help, v);
    }
}

static void render(const void *snap, bool draining, void *ctx, mr_text *b)
{
    const svc_metrics_sockets *socks = ctx;
    sv_stats s = *(const sv_stats *)snap;

    mr_text_add(b,
                "# HELP mazerace_build_info Version and protocol version of this server.\n"
                "# TYPE mazerace_build_info gauge\nmazerace_build_info{version=\"%s\",protocol=\"%d\"} 1\n",
                MR_VERSION, WIRE_VERSION);
    put_series(b, before_moves, MR_ARRAY_LEN(before_moves), &s, draining, socks);
    mr_text_add(b,
                "# HELP mazerace_moves_total Moves checked by the match engine, by puzzle kind and result.\n"
                "# TYPE mazerace_moves_total counter\n");
    for (int k = 0; k < SV_KINDS; k++) {
        const pz_kind *pk = pz_kind_by_id(k);
        const char *name = pk ? pk->name : "?";
        mr_text_add(b, "mazerace_moves_total{kind=\"%s\",result=\"accepted\"} %llu\n", name,
                    (unsigned long long)s.kind_accepted[k]);
        mr_text_add(b, "mazerace_moves_total{kind=\"%s\",result=\"rejected\"} %llu\n", name,
                    (unsigned long long)s.kind_rejected[k]);
    }
    put_series(b, after_moves, MR_ARRAY_LEN(after_moves), &s, draining, socks);
    histogram(b, "mazerace_move_duration_seconds",
              "Time from a move's arrival in the server loop to its replies queued.", s.move_hist,
              sv_move_hist_bounds_us, SV_MOVE_HIST_BUCKETS, (double)s.move_ns_sum * 1e-9);
    alerting_series(b, &s);
    process_series(b);
}

svc_http *svc_metrics_start(const char *addr, const svc_metrics_sockets *socks, const char **err)
{
    return svc_http_start(addr, sizeof(sv_stats), render, (void *)socks, err);
}
