/* cl_invite.h: the Host's side of internet play: an invite code from the coordinator, the router's port
 * mapping, and answers to each joiner the coordinator introduces (hole-punch probes, a TURN relay). */
#ifndef MR_CL_INVITE_H
#define MR_CL_INVITE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coord_wire.h"
#include "stun.h"

/* How it fits (docs/nat.md, "Putting it together"): the client's Host runs
 * an embedded server; everything here leaves from that server's UDP socket
 * (sv_socket_fd), so the coordinator and the joiner see the mapping the
 * game's own traffic uses. The caller hands every datagram of that socket
 * to cl_invite_feed first (sv_set_raw_tap) and calls cl_invite_update once
 * a frame. No call blocks but cl_invite_destroy (the port mapping's delete).
 *
 * What it does, all at once from create:
 * - registers with the coordinator (HOST_REGISTER with the LAN candidates)
 *   and keeps the registration alive; the code is cl_invite_code;
 * - asks the router to forward the game port (UPnP-IGD, then NAT-PMP, on
 *   cl_portmap's thread) and re-registers with the mapped candidate;
 * - on each INTRODUCE: probes towards the joiner's public address (so an
 *   endpoint-independent NAT lets the joiner's ENet in), asks for relay
 *   credentials, allocates a TURN relay, permits the joiner's address and
 *   re-registers with the relayed candidate (the joiner looks the code up
 *   again to learn it: docs/coordinator.md, "Joining with a code");
 * - a coordinator that does not answer is asked again every 10 s.
 * cl_invite_destroy sends HOST_LEAVE (the code ends at once), removes the
 * port mapping and gives the relay back. */
typedef struct cl_invite cl_invite_t;

typedef struct cl_invite_cfg {
    coord_addr coordinator;
    const char *name;    /* the game's name for the coordinator (1..24 bytes, the name rule) */
    int fd;              /* the embedded server's socket (sv_socket_fd) */
    uint16_t port;       /* its port (sv_port) */
    const uint32_t *lan; /* this computer's IPv4 addresses (host order): LAN candidates */
    int n_lan;           /* 0..4 */
    bool no_portmap;     /* do not ask the router */
    int discover_ms;     /* UPnP discovery wait (0: 2000) */
} cl_invite_cfg;

/* NULL with *err (static) on bad input. Caller destroys. */
cl_invite_t *cl_invite_create(const cl_invite_cfg *cfg, uint64_t now_ms, const char **err);
void cl_invite_destroy(cl_invite_t *iv); /* accepts NULL */

/* A datagram from the server's socket: true if it was ours (the
 * coordinator's, or STUN: probes), which ENet must then not see. */
bool cl_invite_feed(cl_invite_t *iv, stun_addr from, const uint8_t *data, size_t len, uint64_t now_ms);
void cl_invite_update(cl_invite_t *iv, uint64_t now_ms);

/* What the host lobby shows; every text "" when there is nothing to say. */
typedef struct cl_invite_status {
    char code[COORD_CODE_LEN + 2]; /* "+K7MP9NXA", "" until the coordinator answers */
    bool failed;                   /* the coordinator refused or did not answer (coord says why) */
    char coord[200];               /* "Asking the coordinator at 11.0.0.1:27920 for a code..." */
    char router[200];              /* "Router: port 27910 forwarded by UPnP-IGD (11.0.0.12:27910)" */
    char seen[64];                 /* the public address as the coordinator saw it */
    char joiner[200];              /* the last joiner introduced and what was opened for them */
    int introduced;                /* joiners introduced so far */
} cl_invite_status;
void cl_invite_get_status(cl_invite_t *iv, cl_invite_status *out);
#endif
