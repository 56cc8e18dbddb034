/* cl_path.h: reaching a host by every path at once on one ENet socket (direct, mapped port, punched,
 * relayed); the best that connects wins. */
#ifndef MR_CL_PATH_H
#define MR_CL_PATH_H
#include <stdbool.h>
#include <stdint.h>

#include "cl_net.h"
#include "stun.h"

/* The joining side of docs/nat.md. The coordinator hands over the host's
 * candidates (its LAN address, the port its router maps, its STUN address,
 * its relayed address); cl_path tries them all in one hub, so every try
 * leaves from the same UDP socket. Like ICE and Happy Eyeballs, the tries
 * overlap: each kind given starts stagger_ms after the better kinds given
 * (a punched one as soon as the host's probes come in), and the first connection
 * wins unless a better-ranked try is still running, which then has
 * prefer_ms to connect too. The losers are closed. No call blocks; call
 * cl_path_update after each cl_hub_service. */
typedef struct cl_path cl_path_t;

/* In the order of preference. */
enum cl_path_kind { CL_PATH_DIRECT, CL_PATH_MAPPED, CL_PATH_PUNCHED, CL_PATH_RELAYED, CL_PATH_KINDS };
enum cl_path_state { CL_PATH_PENDING, CL_PATH_CONNECTED, CL_PATH_FAILED };

#define CL_PATH_MAX 8

typedef struct cl_path_cand {
    int kind;       /* enum cl_path_kind */
    stun_addr addr; /* where to connect (for PUNCHED: the host's STUN address, probed first) */
} cl_path_cand;

typedef struct cl_path_cfg {
    const char *name; /* the player's name, for the connections */
    cl_path_cand cand[CL_PATH_MAX];
    int n;
    int timeout_ms; /* the whole attempt (1000..60000; 0: 5000) */
    int stagger_ms; /* between one kind's start and the next's (0..5000; 0: 100) */
    int prefer_ms;  /* a better try's time to catch up (0..5000; 0: 100) */
} cl_path_cfg;

/* NULL with *err (static) on bad input. The hub must have room for n
 * connections (cl_hub_create), no intercept but cl_stun's taps, and
 * outlive the path. */
cl_path_t *cl_path_create(cl_hub_t *hub, const cl_path_cfg *cfg, uint64_t now_ms, const char **err);
void cl_path_destroy(cl_path_t *p); /* closes every try not taken; accepts NULL */
/* enum cl_path_state. */
int cl_path_update(cl_path_t *p, uint64_t now_ms);

/* CONNECTED: the winning connection, handshake done (its CONNECTED event
 * was read here); the caller owns it from then on (cl_net_destroy). Once. */
cl_net_t *cl_path_take(cl_path_t *p);
int cl_path_kind(const cl_path_t *p); /* the winner's kind, or -1 */
stun_addr cl_path_addr(const cl_path_t *p);
uint32_t cl_path_connect_ms(const cl_path_t *p); /* from cl_path_create to the handshake */
uint32_t cl_path_rtt_ms(const cl_path_t *p);     /* ENet's round trip when it won */
/* What was tried and how each went, for the player (a failure names every
 * path): "direct 192.168.1.2:27910: no answer in 5000 ms; hole punching
 * 11.0.0.11:27910: connected in 31 ms". Valid until cl_path_destroy. */
const char *cl_path_report(cl_path_t *p);
const char *cl_path_kind_name(int kind); /* "direct", "port mapping", "hole punching", "TURN relay" */
#endif
