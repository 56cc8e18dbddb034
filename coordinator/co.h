/* co.h: the coordinator's state (registrations, pairs, listed servers, per-address limits), driven by
 * datagrams and the time passed in; no sockets (co_main.c owns the one UDP socket). */
#ifndef MR_CO_H
#define MR_CO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coord_wire.h"

typedef struct co_config {
    int host_ttl_s;        /* a host's code lives this long after its last refresh */
    int server_ttl_s;      /* a listed server disappears this long after its last refresh */
    int pair_ttl_s;        /* a pair may ask for TURN credentials this long after the introduction */
    int max_hosts;         /* live codes, all addresses */
    int max_servers;       /* listed servers, all addresses */
    int per_addr;          /* live codes (and, separately, listed servers) per IPv4 address */
    int rate, burst;       /* datagrams per second per address, sustained and burst */
    int lookup_rate_ms;    /* one LOOKUP per this many ms per address, sustained ... */
    int lookup_burst;      /* ... after a burst of this many */
    char turn_secret[129]; /* coturn's static-auth-secret; "" = no TURN */
    coord_addr turn;       /* the TURN server the credentials are for */
    int turn_ttl_s;        /* credentials' lifetime */
} co_config;

void co_config_defaults(co_config *cfg);

typedef struct co co_t;
/* Caller destroys. NULL with *err (static) when cfg is out of range. */
co_t *co_create(const co_config *cfg, const char **err);
void co_destroy(co_t *co); /* accepts NULL */

/* The datagrams an input produced (at most 2: an answer and, for a
 * LOOKUP, the host's INTRODUCE). */
typedef struct co_out {
    int n;
    coord_addr to[2];
    uint8_t buf[2][COORD_MAX];
    size_t len[2];
} co_out;

/* One datagram from `from`, at now_ms (monotonic) and unix_s (wall clock,
 * for TURN usernames). Never fails: bad input gets an ERROR or nothing. */
void co_handle(co_t *co, coord_addr from, const uint8_t *buf, size_t len, uint64_t now_ms, uint64_t unix_s,
               co_out *out);
/* Drops what expired. */
void co_expire(co_t *co, uint64_t now_ms);

typedef struct co_stats {
    int hosts, servers, pairs;
    uint64_t datagrams, bad, rate_limited, lookups, lookups_missed, turn_issued, turn_refused;
} co_stats;
void co_get_stats(const co_t *co, co_stats *st);

/* coturn's REST credentials (docs/coordinator.md): user "EXPIRY:ID",
 * pass = base64(HMAC-SHA1(secret, user)); pass needs 29 bytes. */
void co_turn_password(const char *secret, const char *user, char pass[29]);
#endif
