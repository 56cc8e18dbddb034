/* sv_stats.c: the statistics block (moves validated, CPU per move, memory per match) for operators and
 * benches. */
#include <sys/resource.h>

#include "sv_internal.h"

double sv_cpu_seconds(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec * 1e-6;
}

void sv_print_stats(const sv_t *sv, FILE *f)
{
    sv_stats s;
    sv_get_stats(sv, &s);
    double cpu = sv_cpu_seconds();
    /* One "stats key value" per line so that scripts can grep a key; the
     * last line repeats the headline figures in the RESULT shape of
     * ../shared/baselines. */
    fprintf(f, "stats packets_in %llu\n", (unsigned long long)s.packets_in);
    fprintf(f, "stats bytes_in %llu\n", (unsigned long long)s.bytes_in);
    fprintf(f, "stats packets_out %llu\n", (unsigned long long)s.packets_out);
    fprintf(f, "stats moves_validated %llu\n", (unsigned long long)s.moves_validated);
    fprintf(f, "stats moves_accepted %llu\n", (unsigned long long)s.moves_accepted);
    fprintf(f, "stats moves_rejected %llu\n", (unsigned long long)s.moves_rejected);
    fprintf(f, "stats bad_msgs %llu\n", (unsigned long long)s.bad_msgs);
    fprintf(f, "stats rate_limited %llu\n", (unsigned long long)s.rate_limited);
    fprintf(f, "stats kicked %llu\n", (unsigned long long)s.kicked);
    fprintf(f, "stats connects %llu\n", (unsigned long long)s.connects);
    fprintf(f, "stats disconnects %llu\n", (unsigned long long)s.disconnects);
    fprintf(f, "stats rooms_created %llu\n", (unsigned long long)s.rooms_created);
    fprintf(f, "stats matches_started %llu\n", (unsigned long long)s.matches_started);
    fprintf(f, "stats matches_finished %llu\n", (unsigned long long)s.matches_finished);
    fprintf(f, "stats records_queued %llu\n", (unsigned long long)s.records_queued);
    fprintf(f, "stats records_stored %llu\n", (unsigned long long)s.records_stored);
    fprintf(f, "stats records_dropped %llu\n", (unsigned long long)s.records_dropped);
    fprintf(f, "stats records_failed %llu\n", (unsigned long long)s.records_failed);
    fprintf(f, "stats records_spooled %llu\n", (unsigned long long)s.records_spooled);
    fprintf(f, "stats records_spool_waiting %d\n", s.records_spool_waiting);
    fprintf(f, "stats queries %llu\n", (unsigned long long)s.queries);
    fprintf(f, "stats watches %llu\n", (unsigned long long)s.watches);
    fprintf(f, "stats watch_refused %llu\n", (unsigned long long)s.watch_refused);
    fprintf(f, "stats watch_redirects %llu\n", (unsigned long long)s.watch_redirects);
    fprintf(f, "stats spectator_udp_in %llu\n", (unsigned long long)s.spectator_udp_in);
    fprintf(f, "stats spectator_udp_out %llu\n", (unsigned long long)s.spectator_udp_out);
    fprintf(f, "stats spectator_bundles %llu\n", (unsigned long long)s.spectator_bundles);
    fprintf(f, "stats spectators_now %d\n", s.spectators_now);
    fprintf(f, "stats discovery_replies %llu\n", (unsigned long long)s.discovery_replies);
    fprintf(f, "stats discovery_dropped %llu\n", (unsigned long long)s.discovery_dropped);
    fprintf(f, "stats steps %llu\n", (unsigned long long)s.steps);
    fprintf(f, "stats max_step_us %llu\n", (unsigned long long)s.max_step_us);
    fprintf(f, "stats udp_in %llu\n", (unsigned long long)s.udp_in);
    fprintf(f, "stats udp_out %llu\n", (unsigned long long)s.udp_out);
    fprintf(f, "stats socket_errors %llu\n", (unsigned long long)s.socket_errors);
    fprintf(f, "stats handshakes_dropped %llu\n", (unsigned long long)s.handshakes_dropped);
    fprintf(f, "stats handshakes_expired %llu\n", (unsigned long long)s.handshakes_expired);
    fprintf(f, "stats handshakes_cookies %llu\n", (unsigned long long)s.handshakes_cookies);
    fprintf(f, "stats cookie_peers %llu\n", (unsigned long long)s.cookie_peers);
    fprintf(f, "stats joins_backed_off %llu\n", (unsigned long long)s.joins_backed_off);
    fprintf(f, "stats gen_jobs %llu\n", (unsigned long long)s.gen_jobs);
    fprintf(f, "stats gen_cpu_us %llu\n", (unsigned long long)s.gen_cpu_us);
    fprintf(f, "stats gen_refused %llu\n", (unsigned long long)s.gen_refused);
    fprintf(f, "stats gen_pending %d\n", s.gen_pending);
    fprintf(f, "stats puzzle_bytes %zu\n", s.puzzle_bytes);
    fprintf(f, "stats peers_now %d\n", s.peers_now);
    fprintf(f, "stats rooms_now %d\n", s.rooms_now);
    fprintf(f, "stats matches_running %d\n", s.matches_running);
    fprintf(f, "stats sockbuf_rcv %d\n", s.sockbuf_rcv);
    fprintf(f, "stats sockbuf_snd %d\n", s.sockbuf_snd);
    fprintf(f, "stats bytes_per_match %zu\n", s.room_bytes);
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
