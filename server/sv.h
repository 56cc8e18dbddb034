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

#define SV_NAME_MAX WIRE_NAME_MAX /* server name bytes, as in the discovery reply */
#define SV_MAX_CLIENTS 4000       /* ENet allows 4095 peers per host */
#define SV_MAX_ROOMS 65536
#define SV_DEFAULT_PORT WIRE_DEFAULT_PORT
#define SV_DEFAULT_DISCOVERY_PORT WIRE_DISCOVERY_PORT
#define SV_DEFAULT_PROGRESS_HOLD_MS 50

typedef struct sv_config {
    char bind_addr[64];         /* numeric IPv4 or host name; default "0.0.0.0" (all interfaces) */
    int port;                   /* game port; default SV_DEFAULT_PORT; 0 = ephemeral */
    char name[SV_NAME_MAX + 1]; /* shown in LAN discovery; default "mazerace" */
    int max_clients;            /* connected peers, 1..4000; default 1024 */
    int max_rooms;              /* concurrent rooms, 1..65536; default 1024 */
    int max_per_ip;             /* connections from one IPv4 address; default 0 = no limit */

    /* What quick match plays (a create request brings its own settings);
     * countdown and grace apply to every room. */
    int kind, w, h, diff; /* pz_params; w = h = 0: the kind's default size */
    int countdown_ms;     /* default 3000 */
    int grace_ms;         /* reconnect grace; default 30000 */
    int series;           /* best of N, 1..99; default 1 */

    int discovery_port; /* default SV_DEFAULT_DISCOVERY_PORT; 0 = ephemeral; -1 = off */
    int sockbuf_bytes;  /* SO_RCVBUF/SO_SNDBUF of the game socket; default 4 MiB; 0 = ENet's */
    /* How long an opponent's PROGRESS may wait, for a player who is moving
     * fast, to leave in one datagram with the next packet for that player
     * (docs/server.md); 0..1000 ms, default SV_DEFAULT_PROGRESS_HOLD_MS;
     * 0 = always at the end of the step. */
    int progress_hold_ms;

    /* Per-peer limits (token bucket on messages; see docs/server.md). */
    int msg_rate;         /* sustained messages per second; default 100 */
    int msg_burst;        /* bucket depth; default 200 */
    int max_bad;          /* malformed/oversized/unknown/over-rate messages before disconnect; default 20 */
    int hello_timeout_ms; /* a connection must send HELLO within this; default 10000 */

    int log_level;  /* enum sv_log_level; default SV_LOG_INFO */
    bool log_moves; /* per-move lines at debug level; default false */
    bool stats;     /* print a statistics block at exit (sv_run / mazerace-server) */
} sv_config;

typedef struct sv_stats {
    uint64_t packets_in, bytes_in, packets_out;
    uint64_t moves_validated; /* moves handed to the match engine */
    uint64_t moves_accepted, moves_rejected;
    uint64_t bad_msgs;     /* malformed, oversized, unknown, not a client message, before HELLO */
    uint64_t rate_limited; /* messages dropped by the token bucket */
    uint64_t kicked;       /* peers disconnected for misbehaving */
    uint64_t connects, disconnects;
    uint64_t rooms_created, matches_started, matches_finished;
    uint64_t discovery_replies;
    uint64_t discovery_dropped; /* probes over the reply rate (50 a second) */
    uint64_t steps;             /* sv_service calls */
    uint64_t max_step_us;       /* the longest step's work after its wait, since the last stats print */
    uint64_t udp_in, udp_out;   /* datagrams ENet received and sent (its own acknowledgements included) */
    uint64_t socket_errors;     /* failed sends/receives on the game socket the server carried on after */
    int peers_now, rooms_now, matches_running;
    int sockbuf_rcv, sockbuf_snd; /* effective sizes the kernel granted (bytes) */
    size_t room_bytes;            /* server memory per room, excluding puzzle states */
} sv_stats;

typedef struct sv sv_t;

/* Fills cfg with the documented defaults. */
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

/* One step: waits up to timeout_ms for traffic (0: poll), handles every
 * pending packet and discovery probe, and runs every room's timers at
 * now_ms (monotonic milliseconds, any origin, e.g. SDL_GetTicks64: the
 * first call adopts the caller's clock; a value that goes back is taken as
 * no time passing). With a wait, the time waited is added to now_ms.
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
bool sv_done(const sv_t *sv);
/* Safe from a signal handler: the next sv_service prints the statistics
 * block on stdout (mazerace-server does this on SIGUSR1). */
void sv_request_stats(sv_t *sv);

/* The same shutdown, blocking: runs sv_service until done, at most
 * timeout_ms, then drops whoever is left. Idempotent. */
void sv_shutdown(sv_t *sv, int timeout_ms);

/* The bound game port (useful with port 0), the bound address as text, and
 * the discovery port (0 when discovery is off). */
uint16_t sv_port(const sv_t *sv);
const char *sv_bind_text(const sv_t *sv);
uint16_t sv_discovery_port(const sv_t *sv);

void sv_get_stats(const sv_t *sv, sv_stats *out);
/* Writes the statistics block (one "key value" per line, prefixed "stats ")
 * plus the process CPU time, for tools and benches. */
void sv_print_stats(const sv_t *sv, FILE *f);

/* ---- command line (mazerace-server), in sv_cli.c ---- */
enum sv_cli_result { SV_CLI_RUN, SV_CLI_HELP, SV_CLI_VERSION, SV_CLI_ERROR };
/* Parses argv[1..] on top of cfg (which holds defaults). On SV_CLI_ERROR
 * writes a one-line message to err. */
int sv_cli_parse(sv_config *cfg, int argc, char **argv, char *err, size_t errlen);
/* Writes the --help text. */
void sv_cli_print_usage(FILE *f);

#endif
