/* main.c: mazerace-server, the dedicated server: settings, signals (drain, reload), systemd notification,
 * metrics, Agones, and the service loop. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <systemd/sd-daemon.h>
#include <time.h>
#include <unistd.h>

#include "sv.h"
#include "sv_log.h"
#include "sv_opts.h"
#include "svc_agones.h"
#include "svc_coord.h"
#include "svc_db.h"
#include "svc_metrics.h"
#include "util.h"
#include "wire.h"

#define STATUS_EVERY_MS 2000 /* systemd STATUS= line */
#define PUBLISH_EVERY_MS 100 /* metrics and Agones snapshot */

/* The services beside the game loop; NULL when off. */
typedef struct services {
    svc_http *metrics;
    svc_metrics_sockets metrics_socks; /* what metrics reads the drops of */
    svc_agones *agones;
    svc_coord *coord; /* --public: the coordinator listing */
} services;

static sv_t *running;
static volatile sig_atomic_t term_seen, want_reload;

/* SIGTERM drains; a second SIGTERM, or SIGINT at any time, stops at once. */
static void on_term(int sig)
{
    if (!running)
        return;
    if (sig == SIGTERM && !term_seen) {
        term_seen = 1;
        sv_request_drain(running);
    } else {
        sv_request_stop(running);
    }
}

static void on_stats(int sig)
{
    (void)sig;
    if (running)
        sv_request_stats(running);
}

static void on_hup(int sig)
{
    (void)sig;
    want_reload = 1;
}

static void install(int sig, void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

static uint64_t clock_ms(void)
{
    return mr_now_us() / 1000u;
}

/* SIGHUP: the file and the same flags again; what may change on a running
 * server changes, the rest is reported as needing a restart. */
static void reload(sv_t *sv, sv_config *cur, int argc, char **argv)
{
    const sv_log *lg = sv_logger(sv);
    sd_notify(0, "RELOADING=1\nSTATUS=reloading the config file");
    sv_config fresh;
    sv_config_defaults(&fresh);
    char err[512], path[256];
    if (sv_cli_load(&fresh, argc, argv, path, sizeof path, err, sizeof err) != SV_CLI_RUN) {
        sv_loge(lg, SV_LOG_WARN, "reload_failed", NULL, NULL, err, "reload refused, settings unchanged: %s",
                err);
        sd_notify(0, "READY=1");
        return;
    }
    /* One generic path for every reloadable key (sv_opts.c): the game
     * loop's copy and ours (the Agones keys are read here). */
    sv_config was = *cur;
    sv_reconfigure(sv, &fresh);
    sv_opts_apply_reloadable(cur, &fresh);
    const sv_config *live = sv_config_in_use(sv);
    int changed = 0;
    char a[128], b[128];
    for (size_t i = 0; i < sv_opts_count; i++) {
        const sv_opt *o = &sv_opts[i];
        if (sv_opt_equal(o, &was, &fresh))
            continue;
        sv_opt_get(o, &was, a, sizeof a);
        if (o->reload) {
            /* The value the running server now reads, not the file's. */
            sv_opt_get(o, live, b, sizeof b);
            sv_loge(lg, SV_LOG_INFO, "reload_changed", NULL, NULL, o->key, "reload: %s = %s (was %s)", o->key,
                    b, a);
            changed++;
        } else {
            sv_opt_get(o, &fresh, b, sizeof b);
            sv_loge(lg, SV_LOG_WARN, "reload_needs_restart", NULL, NULL, o->key,
                    "reload: %s = %s needs a restart (still %s)", o->key, b, a);
        }
    }
    sv_loge(lg, SV_LOG_INFO, "reloaded", NULL, NULL, NULL, "reloaded %s: %d settings changed",
            path[0] ? path : "(no config file)", changed);
    sd_notify(0, "READY=1");
}

static void notify_status(sv_t *sv, const sv_stats *st)
{
    sd_notifyf(0, "STATUS=%d players, %d rooms, %d races running%s", st->peers_now, st->rooms_now,
               st->matches_running, sv_draining(sv) ? "; draining" : "");
}

/* The rooms the matchmaker reserved through the GameServer's annotation
 * (docs/scaling.md): each opened with its code, or logged why not. */
static void agones_reservations(sv_t *sv, const sv_config *cfg, svc_agones *ag)
{
    svc_agones_resv r;
    for (int i = 0; i < 64 && svc_agones_take_reservation(ag, &r); i++) {
        const char *why = sv_reserve_room(sv, r.code, r.game_id, cfg->agones_reserve_ms);
        if (why)
            sv_loge(sv_logger(sv), SV_LOG_WARN, "agones_bad_reservation", r.code, NULL, why,
                    "agones: reservation %s=%s refused: %s", r.code, r.game_id, why);
        else
            sv_loge(sv_logger(sv), SV_LOG_INFO, "agones_reservation", r.code, NULL, NULL,
                    "agones: reserving room %s for %s", r.code, r.game_id);
    }
}

/* Agones, once Allocated: no player for cfg->agones_idle_ms drains the
 * server (its Shutdown follows at the end). *idle_since is 0 while someone
 * is connected. */
static void agones_idle(sv_t *sv, const sv_config *cfg, svc_agones *ag, const sv_stats *st, uint64_t now,
                        uint64_t *idle_since)
{
    if (cfg->agones_idle_ms <= 0 || sv_draining(sv) || !svc_agones_allocated(ag))
        return;
    if (st->peers_now > 0 || st->rooms_now > 0) {
        *idle_since = 0;
        return;
    }
    if (!*idle_since)
        *idle_since = now;
    if (now - *idle_since >= (uint64_t)cfg->agones_idle_ms) {
        sv_loge(sv_logger(sv), SV_LOG_INFO, "agones_idle", NULL, NULL, NULL,
                "agones: allocated and no player for %d ms: draining, then Shutdown", cfg->agones_idle_ms);
        sv_request_drain(sv);
    }
}

/* Agones: the spectator port WATCH_AT tells is the host port the
 * GameServer maps to ours (its "spectate" entry of status.ports,
 * docs/scaling.md), the bound one while none is known. *told: the last
 * value handed over, -1 before the first GameServer answer. */
static void agones_spectate_port(sv_t *sv, svc_agones *ag, int *told)
{
    if (!svc_agones_ports_known(ag))
        return;
    uint16_t want = svc_agones_spectate_port(ag), bound = sv_spectator_port(sv);
    if (want == *told)
        return;
    *told = want;
    const sv_log *lg = sv_logger(sv);
    if (!bound) {
        if (want)
            sv_loge(lg, SV_LOG_INFO, "agones_spectate_port", NULL, NULL, NULL,
                    "agones: the GameServer maps a \"spectate\" port (%u), but spectators are served on the "
                    "game port (spectator_port off)",
                    (unsigned)want);
        return;
    }
    sv_set_spectator_public_port(sv, want);
    if (want)
        sv_loge(
            lg, SV_LOG_INFO, "agones_spectate_port", NULL, NULL, NULL,
            "agones: WATCH_AT tells spectators port %u (the GameServer's \"spectate\" host port; bound %u)",
            (unsigned)want, (unsigned)bound);
    else
        sv_loge(lg, SV_LOG_WARN, "agones_spectate_port", NULL, NULL, NULL,
                "agones: the GameServer maps no \"spectate\" port: WATCH_AT tells the bound port %u, which "
                "clients outside the pod may not reach (docs/scaling.md)",
                (unsigned)bound);
}

/* The longest wait of the next step: up to this loop's own next task (the
 * systemd status and watchdog, the snapshot for metrics, Agones and the
 * coordinator), at most SV_WAIT_MAX_MS (a signal's request waits no longer).
 * With Agones, a reservation arrives on the SDK's thread and must be open
 * before its players come: every 10 ms, as before the long waits. */
static int loop_wait(const services *svc, uint64_t now, uint64_t next_status, uint64_t next_publish,
                     uint64_t next_wd)
{
    if (svc->agones)
        return 10;
    uint64_t next = next_status;
    if ((svc->metrics || svc->coord) && next_publish < next)
        next = next_publish;
    if (next_wd && next_wd < next)
        next = next_wd;
    /* Due already (a snapshot the scrape's lock put off): 1 ms, not a spin. */
    uint64_t left = next > now ? next - now : 1;
    return left < SV_WAIT_MAX_MS ? (int)left : SV_WAIT_MAX_MS;
}

static int serve(sv_t *sv, sv_config *cfg, services *svc, int argc, char **argv)
{
    svc_http *metrics = svc->metrics;
    svc_agones *agones = svc->agones;
    uint64_t wd_usec = 0;
    bool watchdog = sd_watchdog_enabled(0, &wd_usec) > 0 && wd_usec > 0;
    uint64_t wd_every = watchdog ? wd_usec / 2000u : 0;
    uint64_t now = clock_ms(), next_status = now, next_publish = now, next_wd = now, next_health = now;
    uint64_t idle_since = 0;
    int spectate_told = -1;
    bool told_stopping = false;
    sv_stats st;
    int rc = 0;
    while (!sv_done(sv)) {
        if (sv_service(sv, clock_ms(),
                       loop_wait(svc, now, next_status, next_publish, watchdog ? next_wd : 0)) < 0) {
            rc = 1; /* the game socket broke: exit non-zero so that systemd restarts us */
            break;
        }
        now = clock_ms();
        if (want_reload) {
            want_reload = 0;
            reload(sv, cfg, argc, argv);
        }
        if (!told_stopping && (sv_draining(sv) || sv_stop_requested(sv))) {
            told_stopping = true;
            sd_notify(0, "STOPPING=1");
            next_status = next_publish = now; /* say "draining" at once */
        }
        if (watchdog && now >= next_wd) {
            sd_notify(0, "WATCHDOG=1");
            next_wd = now + (wd_every ? wd_every : 1);
        }
        if (agones) /* a reserved room opens as soon as the watch stream brings it */
            agones_reservations(sv, cfg, agones);
        /* Health from this loop only: if it stalls, the pings stop. */
        if (agones && now >= next_health) {
            svc_agones_health(agones);
            next_health = now + (uint64_t)cfg->agones_health_ms;
        }
        bool status = now >= next_status, publish = (metrics || agones || svc->coord) && now >= next_publish;
        if (status || publish)
            sv_get_stats(sv, &st);
        if (publish && !sv_draining(sv))
            svc_coord_step(svc->coord, now, st.peers_now, st.rooms_now, cfg->max_clients);
        if (status) {
            notify_status(sv, &st);
            next_status = now + STATUS_EVERY_MS;
        }
        if (publish) {
            bool done = true;
            /* Never waits for a scrape: a busy lock means try again next step. */
            if (metrics)
                done = svc_http_publish(metrics, &st, sv_draining(sv), false);
            if (agones) {
                svc_agones_publish(agones, st.peers_now, st.rooms_now, sv_draining(sv));
                agones_idle(sv, cfg, agones, &st, now, &idle_since);
                agones_spectate_port(sv, agones, &spectate_told);
            }
            if (done)
                next_publish = now + PUBLISH_EVERY_MS;
        }
    }
    sv_shutdown(sv, 1000);
    sv_record_stopping(sv);
    if (metrics || agones)
        sv_get_stats(sv, &st);
    if (metrics)
        svc_http_publish(metrics, &st, true, true);
    if (agones)
        svc_agones_publish(agones, st.peers_now, st.rooms_now, true);
    if (cfg->stats) {
        sv_print_stats(sv, stdout);
        fflush(stdout);
    }
    return rc;
}

/* The SDK sidecar's port: AGONES_SDK_HTTP_PORT (set by Agones, which turns
 * the integration on by itself), else the default with --agones; 0 = off;
 * -1 with *err for a bad variable. */
static int agones_sdk_port(const sv_config *cfg, const char **err)
{
    const char *env = getenv("AGONES_SDK_HTTP_PORT");
    long p;
    if (env && *env) {
        if (!mr_parse_long(env, 1, 65535, &p)) {
            *err = "AGONES_SDK_HTTP_PORT is not a port number 1..65535";
            return -1;
        }
        return (int)p;
    }
    return cfg->agones ? SVC_AGONES_DEFAULT_PORT : 0;
}

/* The log format a start-up error is written in: --log-format's, read
 * even when the command line or the file has an error elsewhere, else
 * what was read so far (auto when nothing). */
static int boot_log_format(const sv_config *cfg, int argc, char **argv)
{
    const sv_opt *o = sv_opt_by_key("log_format");
    sv_config probe = *cfg;
    char buf[96];
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (strcmp(argv[i], "--log-format") == 0 && i + 1 < argc)
            v = argv[i + 1];
        else if (strncmp(argv[i], "--log-format=", 13) == 0)
            v = argv[i] + 13;
        if (v && !sv_opt_set(o, &probe, v, buf, sizeof buf))
            return probe.log_format;
    }
    return cfg->log_format;
}

/* The last line of a start that failed (after the reason, at error level):
 * the log never ends as if the server had stopped cleanly. Returns rc. */
static int not_started(const sv_log *lg, int rc, const char *event)
{
    sv_log l = *lg;
    if (l.level < SV_LOG_ERROR) /* log_level = off still shows why it did not start */
        l.level = SV_LOG_ERROR;
    sv_loge(&l, SV_LOG_ERROR, "start_failed", NULL, NULL, event,
            "mazerace-server did not start (exit status %d)", rc);
    return rc;
}

/* A start-up failure: the reason at error level through the logger (its
 * event names the kind: config_error, bind_failed, ...), then not_started.
 * Returns rc, the exit status. */
static int start_failed(const sv_log *lg, int rc, const char *event, const char *reason, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int start_failed(const sv_log *lg, int rc, const char *event, const char *reason, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sv_log l = *lg;
    if (l.level < SV_LOG_ERROR) /* log_level = off still shows why it did not start */
        l.level = SV_LOG_ERROR;
    sv_loge(&l, SV_LOG_ERROR, event, NULL, NULL, reason ? reason : msg, "%s", msg);
    return not_started(lg, rc, event);
}

/* Why addr ("IP:PORT") cannot be bound for TCP, in the system's words
 * (libmicrohttpd does not say): "Address already in use". */
static const char *tcp_bind_error(const char *addr, char *buf, size_t n)
{
    char ip[16];
    int port;
    snprintf(buf, n, "cannot serve HTTP there");
    if (sv_opt_parse_hostport(addr, ip, &port))
        return buf;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return buf;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, ip, &sin.sin_addr);
    if (bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0)
        snprintf(buf, n, "%s", strerror(errno));
    close(fd);
    return buf;
}

int main(int argc, char **argv)
{
    sv_config cfg;
    sv_config_defaults(&cfg);
    char err[512], path[256] = "";
    int action = sv_cli_load(&cfg, argc, argv, path, sizeof path, err, sizeof err);
    switch (action) {
    case SV_CLI_HELP:
        sv_cli_print_usage(stdout);
        return 0;
    case SV_CLI_VERSION:
        printf("mazerace-server %s (protocol %d)\n", MR_VERSION, WIRE_VERSION);
        return 0;
    case SV_CLI_ERROR: {
        sv_log boot;
        sv_log_init(&boot, cfg.log_level, boot_log_format(&cfg, argc, argv), stderr);
        return start_failed(&boot, 2, "config_error", NULL, "%s", err);
    }
    case SV_CLI_PRINT_CONFIG:
        printf("# effective settings (config file: %s)\n", path[0] ? path : "none");
        sv_opts_print_config(&cfg, stdout);
        return 0;
    case SV_CLI_CHECK:
        return 0;
    case SV_CLI_PRINT_DOC:
        sv_opts_print_doc(stdout);
        return 0;
    case SV_CLI_PRINT_TEMPLATE:
        sv_opts_print_template(stdout);
        return 0;
    case SV_CLI_LIST_MATCHES:
        return svc_db_list(&cfg, sv_cli.list_n, stdout);
    case SV_CLI_DUMP_REPLAY:
        return svc_db_dump_replay(&cfg, sv_cli.match_id, stdout);
    default:
        break;
    }
    /* Until the server's own logger exists, start-up errors use this one. */
    sv_log boot;
    sv_log_init(&boot, cfg.log_level, cfg.log_format, stderr);
    /* The environment is configuration too: checked before anything starts. */
    const char *why = NULL;
    int agones_port = agones_sdk_port(&cfg, &why);
    if (agones_port < 0)
        return start_failed(&boot, 2, "config_error", NULL, "%s", why);
    struct st_writer *store = NULL;
    char db[512] = "";
    int dbrc = svc_db_open(&cfg, &boot, &store, db, sizeof db);
    if (dbrc)
        return not_started(&boot, dbrc, "db_failed"); /* svc_db logged why */
    sv_t *sv = sv_create(&cfg, &why);
    if (!sv) {
        svc_db_close(store);
        /* An explicit spectator port that cannot bind is a setting to fix (2). */
        bool spec = why && strstr(why, "spectator port");
        char from[300];
        sv_cli_origin(spec ? "spectator_port" : "port", from, sizeof from);
        return start_failed(
            &boot, spec ? 2 : 1, strstr(why ? why : "", "cannot bind") ? "bind_failed" : "start_error", why,
            "%s (%s from %s)", why ? why : "cannot start", spec ? "spectator_port" : "port", from);
    }
    sv_set_store(sv, store);
    const sv_log *lg = sv_logger(sv);
    sv_loge(lg, SV_LOG_INFO, "config", NULL, NULL, NULL, "settings: %s%s",
            path[0] ? "config file "
                    : "no config file (none asked for, or " SV_CONFIG_DEFAULT " absent), defaults",
            path[0] ? path : "");
    services svc = {0};
    sv_loge(lg, SV_LOG_INFO, "database", NULL, NULL, NULL, "match database: %s",
            store ? db : "none (no records)");
    if (cfg.metrics[0]) {
        svc.metrics_socks.n = sv_socket_fds(sv, svc.metrics_socks.fd, SV_MAX_HOSTS);
        svc.metrics = svc_metrics_start(cfg.metrics, &svc.metrics_socks, &why);
        if (!svc.metrics) {
            char from[300], sys[128];
            sv_cli_origin("metrics", from, sizeof from);
            tcp_bind_error(cfg.metrics, sys, sizeof sys);
            sv_destroy(sv);
            svc_db_close(store);
            return start_failed(&boot, 1, "bind_failed", sys, "metrics = %s (from %s): cannot bind %s: %s",
                                cfg.metrics, from, cfg.metrics, sys);
        }
        /* The first scrape already sees the capacity and the settings. */
        sv_stats first;
        sv_get_stats(sv, &first);
        svc_http_publish(svc.metrics, &first, false, true);
    }
    if (agones_port > 0) {
        /* The game socket is bound: the thread's first call is Ready. */
        svc.agones = svc_agones_start(agones_port, cfg.max_clients, cfg.max_rooms,
                                      cfg.agones_idle_ms > 0 ? 0 : cfg.agones_idle_ready_ms, lg, &why);
        if (!svc.agones) {
            svc_http_stop(svc.metrics);
            sv_destroy(sv);
            svc_db_close(store);
            return start_failed(&boot, 1, "agones_failed", why, "agones: %s", why);
        }
    }
    if (cfg.public_list) {
        svc.coord = svc_coord_start(cfg.coordinator, sv_port(sv), cfg.name, lg, &why);
        if (!svc.coord) /* the game runs without the listing */
            sv_loge(lg, SV_LOG_WARN, "coordinator_failed", NULL, NULL, why, "coordinator %s: %s: not listed",
                    cfg.coordinator, why);
    }
    running = sv;
    install(SIGINT, on_term);
    install(SIGTERM, on_term);
    install(SIGUSR1, on_stats);
    install(SIGHUP, on_hup);
    signal(SIGPIPE, SIG_IGN);
    /* Parseable by tests and scripts (the port matters with --port 0). */
    printf("listening on %s:%u\n", sv_bind_text(sv), (unsigned)sv_port(sv));
    /* Where WATCH leads (the game port when spectators are served there). */
    printf("spectators on %s:%u\n", sv_bind_text(sv),
           (unsigned)(sv_spectator_port(sv) ? sv_spectator_port(sv) : sv_port(sv)));
    if (sv_discovery_port(sv))
        printf("discovery on %s:%u\n", sv_bind_text(sv), (unsigned)sv_discovery_port(sv));
    if (svc.metrics) {
        char ip[16];
        int port;
        sv_opt_parse_hostport(cfg.metrics, ip, &port);
        printf("metrics on http://%s:%u/metrics\n", ip, svc_http_port(svc.metrics));
    }
    if (svc.agones)
        printf("agones sdk at http://127.0.0.1:%d\n", agones_port);
    fflush(stdout);
    /* The game socket is bound and the metrics served: systemd may start
     * whatever is ordered after us. */
    sd_notify(0, "READY=1\nSTATUS=0 players, 0 rooms, 0 races running");
    int rc = serve(sv, &cfg, &svc, argc, argv);
    running = NULL;
    svc_http_stop(svc.metrics);
    svc_agones_stop(svc.agones); /* Shutdown: the players are gone */
    svc_coord_stop(svc.coord);
    sv_destroy(sv);
    /* Stores the records still queued (the last races, the aborted ones). */
    svc_db_close(store);
    return rc;
}
