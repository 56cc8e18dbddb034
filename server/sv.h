/* sv.h: the authoritative mazerace server as a library (dedicated server and in-client LAN host). */
#ifndef MR_SV_H
#define MR_SV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wire.h"

/* The server owns one ENet host (the game port) and one plain UDP socket (LAN
 * discovery), hosts many rooms at once and runs each room's match engine. It
 * never reads the clock itself inside game logic: sv_service is handed the
 * time, so an embedding program (the SDL client) drives it from its own loop.
 * Nothing here is thread-safe except sv_request_stop and sv_request_stats,
 * which a signal handler or another thread may call. */

enum sv_log_level { SV_LOG_OFF, SV_LOG_ERROR, SV_LOG_WARN, SV_LOG_INFO, SV_LOG_DEBUG };
/* auto: journal when started by systemd (JOURNAL_STREAM or INVOCATION_ID set), else text. */
enum sv_log_format { SV_LOGFMT_AUTO, SV_LOGFMT_TEXT, SV_LOGFMT_JOURNAL, SV_LOGFMT_JSON };

#define SV_NAME_MAX WIRE_NAME_MAX /* server name bytes, as in the discovery reply */
#define SV_HOST_MAX_CLIENTS 4000  /* players on one ENet host: ENet allows 4095 peers per host */
#define SV_MAX_HOSTS 16           /* ENet hosts on the game port (cfg.hosts) */
#define SV_MAX_CLIENTS (SV_MAX_HOSTS * SV_HOST_MAX_CLIENTS)
#define SV_MAX_ROOMS 65536
#define SV_DEFAULT_PORT WIRE_DEFAULT_PORT
#define SV_DEFAULT_DISCOVERY_PORT WIRE_DISCOVERY_PORT
#define SV_DB_NONE "none" /* sv_config.db: keep no records */
#define SV_SPECTATOR_PORT_OFF (-1)
#define SV_SPECTATOR_PORT_AUTO (-2)
#define SV_SPECTATOR_PORT_OFFSET 2 /* auto: the game port + 2 (+ 1 is LAN discovery's) */

/* A server's settings. The default of each setting is in its row of the
 * settings table (sv_opts[], sv_opts.c), and sv_config_defaults applies those;
 * the comments here say what a field holds. */
typedef struct sv_config {
    char bind_addr[64];         /* numeric IPv4 or host name; "0.0.0.0" = all interfaces */
    int port;                   /* game port; 0 = ephemeral */
    char name[SV_NAME_MAX + 1]; /* shown in LAN discovery */
    int max_clients;            /* connected peers, 1..64000 (4000 per host) */
    int max_rooms;              /* concurrent rooms, 1..65536 */
    int max_per_ip;             /* players from one IPv4 address over every host; 0 = no limit */
    int room_spectators;        /* spectators per room, 0..1024 (0: no watching) */
    int max_spectators;         /* spectators on the server, 0..4000 (one host) */
    int spectator_batch_ms;     /* spectators' messages go out together every this many ms, 0..1000 */
    /* Where spectators are served (docs/server.md, "The spectator port"):
     * a port 0..65535 (0 = any free one) that must bind, SV_SPECTATOR_PORT_AUTO
     * (the game port + 2, any free port when the game port is 0; on the game
     * port with a warning if that cannot bind) or SV_SPECTATOR_PORT_OFF (on
     * the game port). */
    int spectator_port;

    /* What quick match plays (a create request brings its own settings);
     * countdown and grace apply to every room. */
    int kind, w, h, diff; /* pz_params; w = h = 0: the kind's default size */
    int countdown_ms;
    int grace_ms; /* reconnect grace */
    int series;   /* best of N, 1..99 */
    /* Quick match also seats players in rooms made by CREATE_ROOM that
     * wait for their second player (the client's "Host a LAN game", whose
     * host accepts any opponent); default false: on a dedicated server
     * such a room is for the friend who has its code. */
    bool quick_rooms;

    /* LAN discovery: 0 = ephemeral; -1 = off. Bound to
     * the first free port of it .. + WIRE_DISCOVERY_SPAN - 1 (sv_discovery_port). */
    int discovery_port;
    /* A player's own game (the game's "Host a LAN game"): discovery details
     * name its waiting room, so a LAN pick joins it. Default false. */
    bool lan_host;
    int sockbuf_bytes; /* SO_RCVBUF/SO_SNDBUF of the game socket; 0 = ENet's */
    /* ENet hosts on the game port, 0..SV_MAX_HOSTS; 0 = auto: one per
     * SV_HOST_MAX_CLIENTS players of max_clients. Several share the port
     * (SO_REUSEPORT) and one loop (docs/server.md, "Several ENet hosts"). */
    int hosts;
    /* How long an opponent's PROGRESS may wait, for a player who is moving
     * fast, to leave in one datagram with the next packet for that player
     * (docs/server.md); 0..1000 ms; 0 = always at the end of the step. */
    int progress_hold_ms;

    /* Per-peer limits (token bucket on messages; see docs/server.md). */
    int msg_rate;  /* sustained messages per second */
    int msg_burst; /* bucket depth */
    int max_bad;   /* malformed/oversized/unknown/over-rate messages before disconnect */
    /* A connection must send HELLO within this; no setting: 5000
     * (sv_config_defaults; docs/server.md, "No HELLO within 5 s"). */
    int hello_timeout_ms;

    /* Puzzle generation runs on worker threads (docs/reliability.md). Each
     * client has a budget of generation CPU: gen_rate_ms milliseconds per
     * second, up to gen_burst_ms saved up; its address four times as much. */
    int gen_rate_ms;  /* 1..1000 */
    int gen_burst_ms; /* 1..600000 */
    int gen_queue;    /* generation jobs queued or running, 1..4096 */
    /* Puzzle memory of every room together (estimated from the sizes);
     * one address may hold an eighth of it. MiB, 1..65536. */
    int puzzle_mem_mb;
    /* Draining (sv_request_drain): how long running races may go on before
     * the stop; 0..3600000; 0 = stop at once. */
    int drain_timeout_ms;
    char metrics[64]; /* "ADDR:PORT" of the Prometheus endpoint (mazerace-server); "" = off */
    /* The coordinator (docs/coordinator.md): "HOST:PORT" or ""; with
     * public_list, mazerace-server lists itself there (svc_coord.c). */
    char coordinator[96];
    bool public_list;
    /* Agones (mazerace-server, docs/scaling.md): on with --agones or when
     * AGONES_SDK_HTTP_PORT is set; a health ping every agones_health_ms
     * (100..60000); after an allocation, drain and shut down once no player
     * has been connected for agones_idle_ms (0 = never). */
    bool agones;
    int agones_health_ms;
    int agones_idle_ms;
    int agones_reserve_ms; /* a matchmaker's reserved room waits this long for a player */
    /* Allocated with no player and no room for this long: back to Ready
     * (0..86400000; 0 = never; agones_idle_ms wins). */
    int agones_idle_ready_ms;
    /* The match database (mazerace-server opens it; docs/server.md,
     * "Database"): a path, SV_DB_NONE, or "" for the default location. */
    char db[256];
    /* Where records wait while a network database is out of reach
     * (docs/storage.md): a path, or "" for matches.spool in the default
     * database's directory. */
    char db_spool[256];

    int log_level;  /* enum sv_log_level */
    int log_format; /* enum sv_log_format */
    bool log_moves; /* per-move lines at debug level */
    bool stats;     /* print a statistics block at exit (sv_run / mazerace-server) */
} sv_config;

#define SV_KINDS 4              /* PZ_KIND_COUNT, for the per-kind counters */
#define SV_MOVE_HIST_BUCKETS 12 /* the last one is +Inf */
/* Game-loop lag: how long each step's work kept the game socket unread
 * (after its wait), in these buckets; the last one is +Inf. */
#define SV_LAG_HIST_BUCKETS 12
extern const uint32_t sv_lag_hist_bounds_us[SV_LAG_HIST_BUCKETS - 1];
/* Why a puzzle generation was refused (sv_stats.gen_refused_by). */
enum sv_gen_refusal {
    SV_GEN_REFUSED_MEMORY,      /* the server's puzzle memory budget (MEMORY) */
    SV_GEN_REFUSED_ADDR_MEMORY, /* the address's eighth of it (MEMORY) */
    SV_GEN_REFUSED_BUDGET,      /* the player's generation CPU budget (BUSY) */
    SV_GEN_REFUSED_ADDR_BUDGET, /* the address's budget (BUSY) */
    SV_GEN_REFUSED_QUEUE,       /* the generation queue is full (BUSY) */
    SV_GEN_REFUSED_ADDRS,       /* the table of addresses is full (BUSY) */
    SV_GEN_REFUSED_DISPLACED,   /* queued, then given way to another address's request (BUSY) */
    SV_GEN_REFUSALS
};
/* "memory", "address_memory", "budget", ...: the metric's reason label. */
extern const char *const sv_gen_refusal_names[SV_GEN_REFUSALS];
/* Upper bounds of the move handling time histogram, in microseconds. */
extern const uint32_t sv_move_hist_bounds_us[SV_MOVE_HIST_BUCKETS - 1];

typedef struct sv_stats {
    uint64_t packets_in, bytes_in, packets_out;
    uint64_t moves_validated; /* moves handed to the match engine */
    uint64_t moves_accepted, moves_rejected;
    uint64_t kind_accepted[SV_KINDS], kind_rejected[SV_KINDS]; /* the same per puzzle kind (pz_kind_id) */
    /* Time from a MOVE's arrival in the server loop to its replies queued:
     * moves per bucket (not cumulative) and the sum in nanoseconds. */
    uint64_t move_hist[SV_MOVE_HIST_BUCKETS];
    uint64_t move_ns_sum;
    uint64_t bad_msgs;     /* malformed, oversized, unknown, not a client message, before HELLO */
    uint64_t rate_limited; /* messages dropped by the token bucket */
    uint64_t kicked;       /* peers disconnected for misbehaving */
    uint64_t connects, disconnects;
    uint64_t rooms_created, matches_started, matches_finished;
    uint64_t watches;         /* WATCHes accepted */
    uint64_t watch_refused;   /* WATCHes refused by a spectator limit (WATCH_FULL) */
    uint64_t watch_redirects; /* WATCHes on the game port answered WATCH_AT (the spectator port) */
    /* The spectator host (docs/server.md, "The spectator port"): datagrams it
     * received and sent, acknowledgements included (0 without one). */
    uint64_t spectator_udp_in, spectator_udp_out;
    uint64_t spectator_bundles; /* BUNDLEs sent to spectators (a batch of 2+ messages in one packet) */
    int spectators_now;
    uint64_t discovery_replies;
    /* Match records (sv_set_store): handed to the store's thread, committed
     * there, dropped because its queue was full, refused by the store. */
    uint64_t records_queued, records_stored, records_dropped, records_failed;
    uint64_t records_spooled;    /* kept in the spool: the network database was out of reach */
    int records_spool_waiting;   /* in the spool now (sent when the database is back) */
    uint64_t queries;            /* clients' questions handed to the store (REPLAY/RECENT/BEST_REQUEST) */
    uint64_t discovery_dropped;  /* probes over the reply rate (50 a second) */
    uint64_t steps;              /* sv_service calls */
    uint64_t max_step_us;        /* the longest step's work after its wait, since the last stats print */
    uint64_t udp_in, udp_out;    /* datagrams ENet received and sent (its own acknowledgements included) */
    uint64_t socket_errors;      /* failed sends/receives on the game socket the server carried on after */
    uint64_t handshakes_dropped; /* CONNECTs dropped unanswered: too many half-open peers */
    uint64_t handshakes_expired; /* half-open peers reset: no handshake acknowledgement in time */
    uint64_t handshakes_cookies; /* CONNECTs over the half-open budgets answered with a cookie (no peer) */
    uint64_t cookie_peers;       /* peers made from a cookie's acknowledgement (sv_cookie.c) */
    uint64_t joins_backed_off;   /* JOIN / RESUME refused: too many failed ones from the address */
    uint64_t gen_jobs;           /* puzzle generation jobs run on the workers */
    uint64_t gen_cpu_us;         /* their CPU time */
    uint64_t gen_refused;        /* requests refused: budget, queue full (BUSY) or memory (MEMORY) */
    uint64_t gen_refused_by[SV_GEN_REFUSALS]; /* the same by reason (enum sv_gen_refusal) */
    uint64_t lag_hist[SV_LAG_HIST_BUCKETS];   /* steps per lag bucket (not cumulative) */
    uint64_t lag_us_sum;                      /* the steps' work, summed */
    /* Capacity (the settings in use: SIGHUP may change puzzle_mem). */
    int max_clients, max_rooms;
    size_t puzzle_mem_budget; /* bytes */
    bool records_on;          /* a match store is attached (sv_set_store) */
    int gen_pending;          /* jobs queued or running now, and quick-match jobs waiting for a place */
    int quick_waiting;        /* players waiting alone for a quick-match opponent (docs/racing.md) */
    size_t puzzle_bytes;      /* estimated puzzle memory held by rooms and pending jobs */
    int peers_now, rooms_now, matches_running;
    int sockbuf_rcv, sockbuf_snd; /* effective sizes the kernel granted (bytes) */
    size_t room_bytes;            /* server memory per room, excluding puzzle states */
} sv_stats;

typedef struct sv sv_t;

/* Fills cfg with the documented defaults: each setting's from its row of
 * sv_opts[] through its own setter (sv_opts.c), the rest zero but
 * hello_timeout_ms. */
void sv_config_defaults(sv_config *cfg);
/* NULL if cfg is acceptable, else a static message. */
const char *sv_config_check(const sv_config *cfg);

/* Binds the sockets and allocates every table up front (no allocation of our
 * own per move). NULL with *err (static message) on failure. The caller
 * destroys with sv_destroy. */
sv_t *sv_create(const sv_config *cfg, const char **err);
/* Tells connected clients the server is going away if that was not done yet
 * (bounded by 1 s), then frees everything. Accepts NULL. */
void sv_destroy(sv_t *sv);

/* The longest wait sv_run asks of a step, and the bound on how late a
 * request from a signal handler or another thread (stop, drain, stats)
 * is taken up while the server has nothing to do. */
#define SV_WAIT_MAX_MS 100

/* One step: waits up to timeout_ms for traffic (0: poll), handles every
 * pending packet and discovery probe, and runs every room's timers at
 * now_ms (monotonic milliseconds, any origin, e.g. SDL_GetTicks64: the
 * first call adopts the caller's clock; a value that goes back is taken as
 * no time passing). With a wait, the time waited is added to now_ms.
 * The wait ends at the first datagram (or an event of the spectator
 * port's thread), and never runs past a room's timer or anything else the
 * server must do itself; while work may come from one of the server's
 * threads without waking it (a puzzle being made, a record question) it
 * is at most 10 ms, so a timeout_ms past that only matters to a server
 * with nothing due (sv_idle.h).
 * Returns the number of events handled, or -1 when the game socket itself
 * is broken (EBADF, ENOTSOCK, EFAULT: nothing more can be served). A send
 * that fails for one peer (a firewall's EPERM, an unreachable network, a
 * forged port 0) is logged, counted in socket_errors, and the step goes
 * on: one peer never stops the server. */
int sv_service(sv_t *sv, uint64_t now_ms, int timeout_ms);

/* Runs sv_service with the monotonic clock until the shutdown that
 * sv_request_stop starts has finished. Returns 0 then, or 1 after a fatal
 * socket failure (so that mazerace-server exits non-zero and a supervisor
 * such as systemd's Restart=on-failure starts it again). */
int sv_run(sv_t *sv);

/* Safe from a signal handler or another thread. The next sv_service calls
 * start the shutdown: every match ends (aborted), every client gets the
 * SHUTDOWN message and is disconnected; sv_done turns true once all have
 * acknowledged, or after 1 s. The caller keeps calling sv_service until
 * then, and then sv_destroy. */
void sv_request_stop(sv_t *sv);
bool sv_stop_requested(const sv_t *sv);
/* Safe from a signal handler or another thread. The next sv_service calls
 * drain: CREATE_ROOM, JOIN_ROOM, QUICK_MATCH, READY and REMATCH get ERROR
 * DRAINING, running races go on; the stop (as sv_request_stop) follows once
 * no race is running, or after cfg.drain_timeout_ms, when the players still
 * racing get ERROR DRAINING first. */
void sv_request_drain(sv_t *sv);
/* A matchmaker's reservation (docs/scaling.md, "Quick match across a
 * fleet"): a waiting room with exactly this code playing game_id (a
 * pz_id, "kind:WxH:difficulty[#seed]"), made on a worker, opened with no
 * player and closed if nobody joins within wait_ms. NULL when queued, else
 * why not (a code in use, a bad ID, no room, draining). Game loop only. */
const char *sv_reserve_room(sv_t *sv, const char *code, const char *game_id, int wait_ms);
bool sv_draining(const sv_t *sv);
bool sv_done(const sv_t *sv);
/* Safe from a signal handler: the next sv_service prints the statistics
 * block on stdout (mazerace-server does this on SIGUSR1). */
void sv_request_stats(sv_t *sv);

/* The same shutdown, blocking: runs sv_service until done, at most
 * timeout_ms, then drops whoever is left. Idempotent. */
void sv_shutdown(sv_t *sv, int timeout_ms);
/* The words SHUTDOWN carries from now on (default "server shutting down"):
 * an embedding game says why its server goes, e.g. "the host left the
 * race" (docs/protocol.md). Cut to WIRE_TEXT_MAX bytes. Game loop only. */
void sv_set_shutdown_text(sv_t *sv, const char *text);

/* The bound game port (useful with port 0), the bound address as text, and
 * the discovery port (0 when discovery is off). */
uint16_t sv_port(const sv_t *sv);
const char *sv_bind_text(const sv_t *sv);
uint16_t sv_discovery_port(const sv_t *sv);
/* The bound spectator port (docs/server.md, "The spectator port"), 0 when
 * spectators are served on the game port. */
uint16_t sv_spectator_port(const sv_t *sv);
/* The port WATCH_AT advertises (behind a NAT or a container's port
 * mapping, e.g. Agones): 0 = the bound one (the default). Game loop only:
 * call between sv_service steps. */
void sv_set_spectator_public_port(sv_t *sv, uint16_t port);

/* Applies the settings a running server can take (SIGHUP): every key the
 * settings table (sv_opts.c) marks reload, copied by one generic path;
 * new rooms get the new room settings. The rest of cfg is ignored. cfg
 * must pass sv_config_check. Not thread-safe: call between sv_service
 * steps. */
void sv_reconfigure(sv_t *sv, const sv_config *cfg);
/* The settings the game loop reads now (after any sv_reconfigure). */
const sv_config *sv_config_in_use(const sv_t *sv);
/* Records every finished game into w (st_writer.h: its thread does the
 * writing; the server never waits for it). The server does not own w: the
 * embedder destroys it after sv_destroy, which stores what is still
 * queued. NULL: no records (the default). Call before the first sv_service. */
struct st_writer;
void sv_set_store(sv_t *sv, struct st_writer *w);
/* After the last race (sv_shutdown): waits for the store's thread to take
 * every record queued and logs how many still wait in the spool (never
 * from a running game loop: it waits). */
void sv_record_stopping(sv_t *sv);
/* The server's log (sv_log.h), for an embedder's own lines in the same format. */
struct sv_log;
const struct sv_log *sv_logger(const sv_t *sv);
/* The game socket (host 0's), for the NAT paths' datagrams sent from it
 * (docs/nat.md). */
int sv_socket_fd(const sv_t *sv);
/* Every game host's socket (--hosts: one per host, all on the game port),
 * for reading their kernel counters (SO_MEMINFO drops): writes up to max
 * of them to fds and returns how many there are (0 before sv_create's
 * bind). They stay open until sv_destroy. */
int sv_socket_fds(const sv_t *sv, int *fds, int max);
/* A tap on the game socket for the NAT paths (STUN answers, hole-punch
 * probes; docs/nat.md): every datagram goes to fn first, inside
 * sv_service on the loop's thread, with its source (IPv4 and port in host
 * order); fn returns true when it took the datagram, which ENet then
 * never sees. fn NULL removes the tap. */
typedef bool (*sv_raw_fn)(void *ctx, uint32_t ip, uint16_t port, const uint8_t *data, size_t len);
void sv_set_raw_tap(sv_t *sv, sv_raw_fn fn, void *ctx);

void sv_get_stats(const sv_t *sv, sv_stats *out);
/* Writes the statistics block (one "key value" per line, prefixed "stats ")
 * plus the process CPU time, for tools and benches. */
void sv_print_stats(const sv_t *sv, FILE *f);
/* Process CPU time (user + system) in seconds. */
double sv_cpu_seconds(void);

/* ---- command line and config file (mazerace-server), in sv_cli.c ---- */
#ifndef SV_CONFIG_DEFAULT
#define SV_CONFIG_DEFAULT "/etc/mazerace/server.conf"
#endif
enum sv_cli_result {
    SV_CLI_RUN,
    SV_CLI_HELP,
    SV_CLI_VERSION,
    SV_CLI_ERROR,
    SV_CLI_PRINT_CONFIG,   /* --print-config */
    SV_CLI_PRINT_DOC,      /* --print-config-doc */
    SV_CLI_PRINT_TEMPLATE, /* --print-config-template */
    SV_CLI_CHECK,          /* --check-config */
    SV_CLI_LIST_MATCHES,   /* --list-matches [N]: cli.list_n */
    SV_CLI_DUMP_REPLAY,    /* --dump-replay MATCH_ID: cli.match_id */
};
/* The arguments of the commands that are not settings. */
typedef struct sv_cli_args {
    int list_n;       /* --list-matches: newest N (default 20) */
    int64_t match_id; /* --dump-replay */
    /* Where each setting (index in sv_opts) came from, for messages about
     * it: a flag, a line of the file read (config_path), or the default. */
    bool from_flag[64];
    int from_line[64];
    char config_path[256];
} sv_cli_args;
/* Where sv_cli_parse puts them (mazerace-server's only; not thread-safe). */
extern sv_cli_args sv_cli;
/* Parses the flags in argv[1..] on top of cfg (which holds defaults or a
 * file's settings), then checks the whole. On SV_CLI_ERROR writes a
 * one-line message to err. --config is accepted and skipped. */
int sv_cli_parse(sv_config *cfg, int argc, char **argv, char *err, size_t errlen);
/* Reads a "key = value" config file onto cfg: 1 read, 0 absent (only when
 * !must_exist), -1 error with "path:line: ..." in err. */
int sv_config_read_file(sv_config *cfg, const char *path, bool must_exist, char *err, size_t errlen);
/* The whole start-up reading: the file named by --config (which must
 * exist), else the one named by $MAZERACE_CONFIG (which must exist), else
 * SV_CONFIG_DEFAULT if it exists; "none" in either place reads no file
 * (what tests use: they never read the machine's settings). Then the flags
 * over it. path gets the file read ("" if none). Returns like
 * sv_cli_parse. */
int sv_cli_load(sv_config *cfg, int argc, char **argv, char *path, size_t pathlen, char *err, size_t errlen);
/* Where setting key got its value, for an error about it: "--metrics",
 * "/etc/mazerace/server.conf:3" or "default" (from the last sv_cli_load). */
void sv_cli_origin(const char *key, char *buf, size_t n);
/* Writes the --help text. */
void sv_cli_print_usage(FILE *f);

#endif
