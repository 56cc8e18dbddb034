/* sv_config.c: the check of a server configuration (its defaults: sv_config_defaults, sv_opts.c). */
#include <string.h>

#include "match.h"
#include "puzzle.h"
#include "sv.h"
#include "wire.h"

const char *sv_config_check(const sv_config *cfg)
{
    if (!memchr(cfg->bind_addr, '\0', sizeof cfg->bind_addr) || !memchr(cfg->name, '\0', sizeof cfg->name))
        return "bind address or server name not terminated";
    if (!memchr(cfg->db, '\0', sizeof cfg->db) || !memchr(cfg->db_spool, '\0', sizeof cfg->db_spool))
        return "database path not terminated";
    if (!cfg->bind_addr[0])
        return "bind address is empty";
    if (cfg->port < 0 || cfg->port > 65535)
        return "port must be 0..65535";
    if (cfg->discovery_port < -1 || cfg->discovery_port > 65535)
        return "discovery port must be 0..65535 (or off)";
    if (cfg->max_clients < 1 || cfg->max_clients > SV_MAX_CLIENTS)
        return "max clients must be 1..64000";
    if (cfg->hosts < 0 || cfg->hosts > SV_MAX_HOSTS)
        return "hosts must be 0 (auto)..16";
    if (cfg->hosts > 0 && (cfg->max_clients + cfg->hosts - 1) / cfg->hosts > SV_HOST_MAX_CLIENTS)
        return "too few hosts for max clients: at most 4000 players per host";
    if (cfg->max_rooms < 1 || cfg->max_rooms > SV_MAX_ROOMS)
        return "max rooms must be 1..65536";
    if (cfg->max_per_ip < 0 || cfg->max_per_ip > SV_HOST_MAX_CLIENTS)
        return "max connections per address must be 0 (no limit)..4000";
    if (cfg->room_spectators < 0 || cfg->room_spectators > 1024)
        return "spectators per room must be 0..1024";
    if (cfg->max_spectators < 0 || cfg->max_spectators > SV_HOST_MAX_CLIENTS)
        return "spectators on the server must be 0..4000";
    if (cfg->spectator_port < SV_SPECTATOR_PORT_AUTO || cfg->spectator_port > 65535)
        return "spectator port must be 0..65535, auto or off";
    if (cfg->spectator_batch_ms < 0 || cfg->spectator_batch_ms > 1000)
        return "spectator batch must be 0..1000 ms";
    if (cfg->countdown_ms < 0 || cfg->countdown_ms > 60000)
        return "countdown must be 0..60 s";
    if (cfg->grace_ms < 0 || cfg->grace_ms > 3600000)
        return "grace period must be 0..3600 s";
    match_config mc;
    match_config_default(&mc);
    mc.countdown_ms = (uint32_t)cfg->countdown_ms;
    mc.grace_ms = (uint32_t)cfg->grace_ms;
    mc.series_len = cfg->series;
    const char *why = match_config_check(&mc);
    if (why)
        return why;
    if (cfg->sockbuf_bytes < 0 || cfg->sockbuf_bytes > (256 << 20))
        return "socket buffer must be 0..262144 KiB";
    if (cfg->progress_hold_ms < 0 || cfg->progress_hold_ms > 1000)
        return "progress hold must be 0..1000 ms";
    if (cfg->msg_rate < 1 || cfg->msg_rate > 100000)
        return "message rate must be 1..100000 per second";
    if (cfg->msg_burst < 1 || cfg->msg_burst > 100000)
        return "message burst must be 1..100000";
    if (cfg->max_bad < 1 || cfg->max_bad > 1000000)
        return "max bad messages must be 1..1000000";
    if (cfg->hello_timeout_ms < 10 || cfg->hello_timeout_ms > 600000)
        return "HELLO time-out must be 10 ms..600 s";
    if (cfg->gen_rate_ms < 1 || cfg->gen_rate_ms > 1000)
        return "generation rate must be 1..1000 ms per second";
    if (cfg->gen_burst_ms < 1 || cfg->gen_burst_ms > 600000)
        return "generation burst must be 1..600000 ms";
    if (cfg->gen_queue < 1 || cfg->gen_queue > 4096)
        return "generation queue must be 1..4096 jobs";
    if (cfg->puzzle_mem_mb < 1 || cfg->puzzle_mem_mb > 65536)
        return "puzzle memory must be 1..65536 MiB";
    if (cfg->drain_timeout_ms < 0 || cfg->drain_timeout_ms > 3600000)
        return "drain timeout must be 0..3600 s";
    if (cfg->agones_health_ms < 100 || cfg->agones_health_ms > 60000)
        return "Agones health interval must be 0.1..60 s";
    if (cfg->agones_idle_ms < 0 || cfg->agones_idle_ms > 86400000)
        return "Agones idle shutdown must be 0..86400 s";
    if (cfg->agones_idle_ready_ms < 0 || cfg->agones_idle_ready_ms > 86400000)
        return "Agones idle ready must be 0..86400 s";
    if (cfg->agones_reserve_ms < 100 || cfg->agones_reserve_ms > 3600000)
        return "Agones reserve wait must be 0.1..3600 s";
    if (cfg->log_format < SV_LOGFMT_AUTO || cfg->log_format > SV_LOGFMT_JSON)
        return "unknown log format";
    if (!memchr(cfg->metrics, '\0', sizeof cfg->metrics))
        return "metrics address not terminated";
    if (cfg->public_list && !cfg->coordinator[0])
        return "public needs a coordinator (--coordinator HOST:PORT)";
    if (cfg->log_level < SV_LOG_OFF || cfg->log_level > SV_LOG_DEBUG)
        return "unknown log level";
    pz_params p = {cfg->kind, cfg->w, cfg->h, cfg->diff};
    const pz_kind *k = pz_kind_by_id(cfg->kind);
    if (!k)
        return "unknown puzzle kind";
    if (p.w == 0 && p.h == 0) {
        p.w = k->default_w;
        p.h = k->default_h;
    }
    return pz_validate_params(&p);
}
