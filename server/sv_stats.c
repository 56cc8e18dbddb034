/* sv_stats.c: the statistics block (moves validated, CPU per move, memory per match) for operators and
 * benches. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>

#include "st_writer.h"
#include "sv_hosts.h"
#include "sv_internal.h"
#include "sv_play.h"
#include "sv_quick.h"
#include "sv_rooms.h"
#include "sv_spechost.h"
#include "util.h"

double sv_cpu_seconds(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec * 1e-6;
}

/* The statistics block's lines, in order: "stats NAME VALUE". */
enum { STAT_U64, STAT_INT, STAT_SIZE };
/* clang-format off */
#define STAT(type, field) {#field, offsetof(sv_stats, field), STAT_##type}
/* clang-format on */
static const struct {
    const char *name;
    size_t off;
    int type;
} stat_lines[] = {
    STAT(U64, packets_in),
    STAT(U64, bytes_in),
    STAT(U64, packets_out),
    STAT(U64, moves_validated),
    STAT(U64, moves_accepted),
    STAT(U64, moves_rejected),
    STAT(U64, bad_msgs),
    STAT(U64, rate_limited),
    STAT(U64, kicked),
    STAT(U64, connects),
    STAT(U64, disconnects),
    STAT(U64, rooms_created),
    STAT(U64, matches_started),
    STAT(U64, matches_finished),
    STAT(U64, records_queued),
    STAT(U64, records_stored),
    STAT(U64, records_dropped),
    STAT(U64, records_failed),
    STAT(U64, records_spooled),
    STAT(INT, records_spool_waiting),
    STAT(U64, queries),
    STAT(U64, watches),
    STAT(U64, watch_refused),
    STAT(U64, watch_redirects),
    STAT(U64, spectator_udp_in),
    STAT(U64, spectator_udp_out),
    STAT(U64, spectator_bundles),
    STAT(INT, spectators_now),
    STAT(U64, discovery_replies),
    STAT(U64, discovery_dropped),
    STAT(U64, steps),
    STAT(U64, max_step_us),
    STAT(U64, udp_in),
    STAT(U64, udp_out),
    STAT(U64, socket_errors),
    STAT(U64, handshakes_dropped),
    STAT(U64, handshakes_expired),
    STAT(U64, handshakes_cookies),
    STAT(U64, cookie_peers),
    STAT(U64, joins_backed_off),
    STAT(U64, gen_jobs),
    STAT(U64, gen_cpu_us),
    STAT(U64, gen_refused),
    STAT(INT, gen_pending),
    STAT(SIZE, puzzle_bytes),
    STAT(INT, peers_now),
    STAT(INT, rooms_now),
    STAT(INT, matches_running),
    STAT(INT, sockbuf_rcv),
    STAT(INT, sockbuf_snd),
    {"bytes_per_match", offsetof(sv_stats, room_bytes), STAT_SIZE},
};
#undef STAT

/* sv.h: the counters with the figures read at the time; here, beside
 * the statistics block that prints them, not in sv_server.c. */
void sv_get_stats(const sv_t *sv, sv_stats *out)
{
    *out = sv->st;
    out->quick_waiting = sv->quick.q ? sv_quick_count(sv->quick.q) : 0;
    out->max_clients = sv->cfg.max_clients;
    out->max_rooms = sv->cfg.max_rooms;
    out->puzzle_mem_budget = (size_t)sv->cfg.puzzle_mem_mb << 20;
    out->records_on = sv->store != NULL;
    if (sv->host)
        sv_hosts_counts(sv, &out->udp_in, &out->udp_out);
    if (sv->sph) {
        sv_sph_counts k;
        sv_sph_get_counts(sv->sph, &k);
        out->spectator_udp_in = k.udp_in;
        out->spectator_udp_out = k.udp_out;
        out->handshakes_dropped += k.shakes_dropped;
        out->handshakes_expired += k.shakes_expired;
        out->handshakes_cookies += k.shakes_cookies;
        out->cookie_peers += k.cookie_peers;
        out->socket_errors += k.socket_errors;
        out->bad_msgs += k.inbox_dropped;
    }
    out->rooms_now = sv_rooms_count(sv->rooms);
    int running = 0;
    for (int i = 0; i < sv_rooms_capacity(sv->rooms); i++) {
        sv_room *r = sv_rooms_at(sv->rooms, i);
        if (r->m && (match_phase(r->m) == MATCH_COUNTDOWN || match_phase(r->m) == MATCH_RACING))
            running++;
    }
    out->matches_running = running;
    out->room_bytes = sv_play_room_memory(sv);
    if (sv->store) {
        st_writer_stats ws;
        st_writer_stats_get(sv->store, &ws);
        out->records_stored = ws.written;
        out->records_failed = ws.failed;
        out->records_spooled = ws.spooled;
        out->records_spool_waiting = ws.spool_waiting;
    }
}

void sv_print_stats(const sv_t *sv, FILE *f)
{
    sv_stats s;
    sv_get_stats(sv, &s);
    double cpu = sv_cpu_seconds();
    /* One "stats key value" per line so that scripts can grep a key; the
     * last line repeats the headline figures in the RESULT shape of
     * ../shared/baselines. */
    const char *base = (const char *)&s;
    for (size_t i = 0; i < MR_ARRAY_LEN(stat_lines); i++) {
        const void *v = base + stat_lines[i].off;
        fprintf(f, "stats %s ", stat_lines[i].name);
        if (stat_lines[i].type == STAT_U64)
            fprintf(f, "%llu\n", (unsigned long long)*(const uint64_t *)v);
        else if (stat_lines[i].type == STAT_INT)
            fprintf(f, "%d\n", *(const int *)v);
        else
            fprintf(f, "%zu\n", *(const size_t *)v);
    }
    fprintf(f, "stats cpu_s %.3f\n", cpu);
    fprintf(f, "stats cpu_us_per_move %.2f\n",
            s.moves_validated ? cpu * 1e6 / (double)s.moves_validated : 0.0);
    fprintf(f,
            "RESULT server moves=%llu cpu_s=%.3f us_per_move=%.2f bad=%llu kicked=%llu bytes_per_match=%zu\n",
            (unsigned long long)s.moves_validated, cpu,
            s.moves_validated ? cpu * 1e6 / (double)s.moves_validated : 0.0, (unsigned long long)s.bad_msgs,
            (unsigned long long)s.kicked, s.room_bytes);
}

const uint32_t sv_lag_hist_bounds_us[SV_LAG_HIST_BUCKETS - 1] = {100,   250,   500,   1000,   2500,  5000,
                                                                 10000, 25000, 50000, 100000, 250000};
const char *const sv_gen_refusal_names[SV_GEN_REFUSALS] = {
    "memory", "address_memory", "budget", "address_budget", "queue_full", "addresses_full", "displaced"};
