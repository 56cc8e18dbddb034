/* cl_net_hub.c: one ENet host shared by client connections, and the dispatch of its events. */
#include <assert.h>
#include <stdlib.h>

#include "cl_net_impl.h"
#include "util.h"

/* Packets handled per service call at most: a flood cannot keep the caller
 * in here, and the rest waits in the socket for the next call. */
#define SERVICE_MAX_EVENTS 8192

bool cl_enet_init(void)
{
    static bool done, ok;
    if (!done) {
        done = true;
        ok = enet_initialize() == 0;
        if (ok)
            atexit(enet_deinitialize);
    }
    return ok;
}

cl_hub_t *cl_hub_create(int max_conns, int sockbuf_kib, const char **err)
{
    /* Two peers per connection where ENet allows: one that follows a
     * WATCH_AT to the spectator port while the game-port one says goodbye. */
    return cl_hub_create_peers(max_conns, max_conns > 4095 / 2 ? 4095 : max_conns * 2, sockbuf_kib, err);
}

cl_hub_t *cl_hub_create_peers(int max_conns, int peers, int sockbuf_kib, const char **err)
{
    if (max_conns < 1 || max_conns > 4095) {
        *err = "a hub holds 1 to 4095 connections";
        return NULL;
    }
    if (peers < max_conns || peers > 4095) {
        *err = "a hub has at least one ENet peer per connection and at most 4095";
        return NULL;
    }
    if (sockbuf_kib < 0 || sockbuf_kib > 1024 * 1024) {
        *err = "socket buffer out of range";
        return NULL;
    }
    if (!cl_enet_init()) {
        *err = "cannot initialise ENet";
        return NULL;
    }
    /* No bound address: the system picks a port and routes to any server. */
    ENetHost *host = enet_host_create(NULL, (size_t)peers, WIRE_CHANNELS, 0, 0);
    if (!host) {
        *err = "cannot create an ENet host (out of sockets?)";
        return NULL;
    }
    if (sockbuf_kib > 0) {
        enet_socket_set_option(host->socket, ENET_SOCKOPT_RCVBUF, sockbuf_kib * 1024);
        enet_socket_set_option(host->socket, ENET_SOCKOPT_SNDBUF, sockbuf_kib * 1024);
    }
    cl_hub_t *h = mr_alloc(1, sizeof *h);
    h->host = host;
    h->msg = mr_alloc(1, sizeof *h->msg);
    h->max_conns = max_conns;
    h->ready = mr_alloc((size_t)max_conns, sizeof *h->ready);
    return h;
}

void cl_hub_destroy(cl_hub_t *h)
{
    if (!h)
        return;
    assert(h->conns == 0);
    enet_host_destroy(h->host);
    free(h->msg);
    free(h->ready);
    free(h);
}

static void dispatch(cl_hub_t *h, ENetEvent *ev)
{
    cl_net_t *n = ev->peer ? ev->peer->data : NULL;
    /* A peer whose connection was dropped or destroyed has data NULL or
     * points at a connection that moved on to a new peer: ignore it. */
    bool mine = n && n->peer == ev->peer;
    switch (ev->type) {
    case ENET_EVENT_TYPE_CONNECT:
        if (mine)
            cl_net_on_connect(n);
        break;
    case ENET_EVENT_TYPE_RECEIVE:
        if (mine)
            cl_net_on_packet(n, ev->packet->data, ev->packet->dataLength);
        enet_packet_destroy(ev->packet);
        break;
    case ENET_EVENT_TYPE_DISCONNECT:
        ev->peer->data = NULL;
        if (mine)
            cl_net_on_disconnect(n, h->now_ms);
        break;
    default:
        break;
    }
}

int cl_hub_service(cl_hub_t *h, uint64_t now_ms, int timeout_ms)
{
    if (!h)
        return 0;
    h->now_ms = now_ms;
    h->dirty = false; /* the service sends what is queued first */
    ENetEvent ev;
    int r = enet_host_service(h->host, &ev, timeout_ms > 0 ? (enet_uint32)timeout_ms : 0);
    /* The rest of what the service read comes from enet_host_check_events,
     * which does not walk the peer slots as a service does (twice). ENet
     * stops reading the socket at a datagram that connects or disconnects
     * a peer, so after such an event the service runs again (without
     * waiting) to read on. Bounded either way. */
    int handled = 0;
    while (r > 0) {
        bool read_on = ev.type != ENET_EVENT_TYPE_RECEIVE;
        dispatch(h, &ev);
        if (++handled == SERVICE_MAX_EVENTS)
            break;
        r = read_on ? enet_host_service(h->host, &ev, 0) : enet_host_check_events(h->host, &ev);
    }
    /* Replies queued while dispatching go out now, not at the next call. */
    cl_hub_flush(h);
    return handled;
}

bool cl_hub_queued(const cl_hub_t *h)
{
    return h && h->dirty;
}

void cl_hub_flush(cl_hub_t *h)
{
    if (h && h->dirty) {
        h->dirty = false;
        enet_host_flush(h->host);
    }
}

int cl_hub_peers(const cl_hub_t *h)
{
    int on = 0;
    for (size_t i = 0; h && i < h->host->peerCount; i++)
        on += h->host->peers[i].state != ENET_PEER_STATE_DISCONNECTED;
    return on;
}

struct _ENetHost *cl_hub_enet_host(cl_hub_t *h)
{
    return h->host;
}

int cl_hub_port(const cl_hub_t *h)
{
    ENetAddress a;
    if (!h || enet_socket_get_address(h->host->socket, &a) < 0)
        return 0;
    return a.port;
}

cl_net_t *cl_hub_ready(cl_hub_t *h)
{
    if (!h || h->nready == 0)
        return NULL;
    cl_net_t *n = h->ready[--h->nready];
    n->in_ready = false;
    return n;
}

void cl_hub_mark_ready(cl_hub_t *h, cl_net_t *n)
{
    if (n->in_ready || h->nready >= h->max_conns)
        return;
    n->in_ready = true;
    h->ready[h->nready++] = n;
}

void cl_hub_forget(cl_hub_t *h, cl_net_t *n)
{
    for (int i = 0; i < h->nready; i++)
        if (h->ready[i] == n) {
            h->ready[i] = h->ready[--h->nready];
            break;
        }
    n->in_ready = false;
}
