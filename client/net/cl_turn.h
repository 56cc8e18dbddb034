/* cl_turn.h: a TURN (RFC 5766) relay for a host behind any NAT: a proxy thread, so ENet stays unmodified. */
#ifndef MR_CL_TURN_H
#define MR_CL_TURN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stun.h"

/* The host side of the relay path (docs/nat.md). cl_turn_create starts a
 * thread that allocates a relayed address on the TURN server with
 * long-term credentials (the coordinator issues them through coturn's
 * shared-secret REST scheme: username "EXPIRY:ID", password
 * base64(HMAC-SHA1(secret, username))). The opponent's ENet connects to
 * that relayed address as to any server; each remote address the relay
 * reports (Data indications, then a ChannelBind so the rest travel as
 * 4-byte-header ChannelData) gets a local socket on 127.0.0.1 that talks to
 * the host's ENet port, so ENet sees one ordinary peer per remote player
 * and is not changed at all. The thread refreshes the allocation, the
 * permissions and the channels before they expire, and gives the
 * allocation back (Refresh, lifetime 0) on cl_turn_destroy.
 * Only addresses given to cl_turn_permit may send through the relay.
 * Up to 64 remote addresses at once; one silent for 60 s is forgotten (or
 * for 5 s when a new one needs its place). */
typedef struct cl_turn cl_turn_t;

enum cl_turn_state { CL_TURN_PENDING, CL_TURN_READY, CL_TURN_FAILED };

typedef struct cl_turn_cfg {
    stun_addr server;     /* the TURN server (UDP) */
    const char *username; /* long-term credentials, copied */
    const char *password;
    uint16_t local_port; /* the host's ENet port: relayed datagrams go to 127.0.0.1:local_port */
    int timeout_ms;      /* allocation wait (500..30000; 0: 5000) */
} cl_turn_cfg;

typedef struct cl_turn_stats {
    uint64_t to_peers, from_peers;             /* datagrams relayed each way */
    uint64_t bytes_to_peers, bytes_from_peers; /* their payload bytes */
    int peers, channels;                       /* remote addresses seen; those with a channel */
    uint64_t cpu_us;                           /* the proxy thread's CPU time */
} cl_turn_stats;

/* NULL with *err (static) on bad input or when no socket or thread can be
 * had. Caller destroys. */
cl_turn_t *cl_turn_create(const cl_turn_cfg *cfg, const char **err);
void cl_turn_destroy(cl_turn_t *t); /* accepts NULL */
/* enum cl_turn_state; READY: *relayed is the address to give the opponent. */
int cl_turn_state(cl_turn_t *t, stun_addr *relayed);
/* FAILED (or a later loss): why, e.g. "TURN 203.0.113.1:3478: error 401
 * Unauthorized (the credentials were refused)". Copied into buf. */
void cl_turn_error(cl_turn_t *t, char *buf, size_t cap);
/* Lets peer_ip (host order) send through the relay (CreatePermission,
 * refreshed until destroy). Up to 8 addresses; false when full. */
bool cl_turn_permit(cl_turn_t *t, uint32_t peer_ip);
void cl_turn_get_stats(cl_turn_t *t, cl_turn_stats *out);

/* The long-term credential key, MD5(username:realm:password) (RFC 5389 15.4),
 * and the MESSAGE-INTEGRITY of a message being written: HMAC-SHA1 over
 * buf[0 .. slot - 4] into buf[slot .. slot + 20). Exposed for the tests. */
void cl_turn_key(const char *username, const char *realm, const char *password, uint8_t key[16]);
void cl_turn_sign(uint8_t *buf, size_t slot, const uint8_t *key, size_t key_len);
/* Whether a decoded message's MESSAGE-INTEGRITY matches key. */
bool cl_turn_verify(const uint8_t *buf, size_t len, const stun_msg *m, const uint8_t *key, size_t key_len);
#endif
