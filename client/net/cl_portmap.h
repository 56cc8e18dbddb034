/* cl_portmap.h: a UPnP-IGD or NAT-PMP mapping of ENet's UDP port on the home router, on a thread of its own.
 */
#ifndef MR_CL_PORTMAP_H
#define MR_CL_PORTMAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stun.h"

/* cl_portmap_create starts a thread that asks the router to forward UDP
 * port `port` (outside) to this machine's `port` (ENet's, inside): first
 * UPnP-IGD (SSDP discovery for up to discover_ms, then AddPortMapping on
 * the IGD found, lease 3600 s, or a permanent one where the router only
 * takes those), then NAT-PMP to the default gateway (lifetime 3600 s).
 * The game loop never waits: it reads cl_portmap_state. The thread renews
 * a NAT-PMP mapping at half its lifetime and an UPnP lease likewise.
 * cl_portmap_destroy removes the mapping (the only call that waits: for the
 * thread's current step, at most the discovery or NAT-PMP wait, then the
 * delete). */
typedef struct cl_portmap cl_portmap_t;

enum cl_portmap_state { CL_PORTMAP_PENDING, CL_PORTMAP_MAPPED, CL_PORTMAP_FAILED };
enum cl_portmap_how { CL_PORTMAP_NONE, CL_PORTMAP_UPNP, CL_PORTMAP_NATPMP };

typedef struct cl_portmap_cfg {
    uint16_t port;    /* ENet's local port; the external port asked for is the same */
    int discover_ms;  /* UPnP discovery wait (100..10000; 0: 2000) */
    int natpmp_ms;    /* NAT-PMP wait (100..10000; 0: 2000) */
    bool no_upnp;     /* skip UPnP-IGD */
    bool no_natpmp;   /* skip NAT-PMP */
    const char *desc; /* mapping description (NULL: "mazerace") */
} cl_portmap_cfg;

/* NULL with *err (static) on bad input or when no thread can start.
 * Caller destroys. */
cl_portmap_t *cl_portmap_create(const cl_portmap_cfg *cfg, const char **err);
void cl_portmap_destroy(cl_portmap_t *pm); /* removes the mapping; accepts NULL */

/* enum cl_portmap_state; when MAPPED, *external is the router's public
 * address and mapped port and *how names the protocol. */
int cl_portmap_state(cl_portmap_t *pm, stun_addr *external, int *how);
/* FAILED: what was tried and why, e.g. "UPnP-IGD: no IGD answered in 2000 ms;
 * NAT-PMP: no answer from 10.0.3.1". Copied into buf. */
void cl_portmap_error(cl_portmap_t *pm, char *buf, size_t cap);
const char *cl_portmap_how_name(int how); /* "UPnP-IGD", "NAT-PMP", "none" */
#endif
