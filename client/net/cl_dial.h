/* cl_dial.h: joining a friend's game by invite code: the coordinator's lookup, every path tried at once
 * (cl_path), the connection handed over. */
#ifndef MR_CL_DIAL_H
#define MR_CL_DIAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cl_net.h"
#include "cl_path.h"
#include "coord_wire.h"

/* The joining side of docs/nat.md with the coordinator (docs/coordinator.md):
 * cl_dial_create makes a hub (one ENet socket), sends LOOKUP from it, and
 * on LOOKUP_OK tries the host's candidates with cl_path (direct, mapped
 * port, hole punching to the host's public address). When the host has
 * offered no relay yet, the code is looked up again at 0.25, 0.7, 1.5 and
 * 2.5 s: the host allocates one when it is introduced and registers it, and
 * a relayed candidate that appears is tried beside the others. The first
 * connection wins, but a relay that connects first waits up to 300 ms for
 * the other paths (a direct, mapped or punched one is shorter). No call
 * blocks; call cl_dial_update every frame. */
typedef struct cl_dial cl_dial_t;

enum cl_dial_state { CL_DIAL_LOOKUP, CL_DIAL_TRYING, CL_DIAL_CONNECTED, CL_DIAL_FAILED };

typedef struct cl_dial_cfg {
    coord_addr coordinator;
    const char *code; /* as typed: "+k7mp 9nxa" */
    const char *name; /* the player's name, for the connection */
    int timeout_ms;   /* the paths' attempt (1000..60000; 0: 6000) */
} cl_dial_cfg;

/* NULL with *err (static) on a bad code, name or no socket. Caller destroys. */
cl_dial_t *cl_dial_create(const cl_dial_cfg *cfg, uint64_t now_ms, const char **err);
void cl_dial_destroy(cl_dial_t *d); /* closes what was not taken; accepts NULL */
/* Services the hub and the tries: enum cl_dial_state. */
int cl_dial_update(cl_dial_t *d, uint64_t now_ms);

/* CONNECTED: the connection (handshake done: its CONNECTED event was read
 * here) and the hub it lives in (service it with cl_hub_service); the
 * caller owns both from then on (cl_net_destroy, then cl_hub_destroy). Once. */
cl_net_t *cl_dial_take(cl_dial_t *d, cl_hub_t **hub);
/* What the player reads: while LOOKUP or TRYING, what is under way
 * ("Looking up +K7MP9NXA at 11.0.0.1:27920..."); CONNECTED, the path
 * ("hole punching to 11.0.0.12:27910, connected in 230 ms"); FAILED, why,
 * naming every path tried. Valid until the next call. */
const char *cl_dial_text(cl_dial_t *d);
/* text without the addresses (" 11.0.0.11:27910" after each path's name),
 * short enough for one line on screen; into out (cap bytes). */
void cl_dial_brief(const char *text, char *out, size_t cap);
int cl_dial_kind(const cl_dial_t *d);              /* enum cl_path_kind of the winner, or -1 */
uint32_t cl_dial_connect_ms(const cl_dial_t *d);   /* from cl_dial_create to the handshake */
uint32_t cl_dial_rtt_ms(const cl_dial_t *d);       /* ENet's round trip when it connected */
const char *cl_dial_host_name(const cl_dial_t *d); /* the game's name from LOOKUP_OK, "" before */
#endif
