/* sv_send.c: sending to a client: encode, queue on its link, the progress hold's rule, errors (closing a
 * client is sv_game.c's: it leaves its room first). */
#include <string.h>

#include "sv_hold.h"
#include "sv_hosts.h"
#include "sv_internal.h"
#include "sv_link.h"
#include "sv_log.h"
#include "sv_send.h"

static bool can_send(const sv_client *c)
{
    /* A closing peer has had its last word (REFUSED, the kick's ERROR or
     * SHUTDOWN): anything more would only delay its disconnect. */
    return c && sv_link_up(c) && c->state != SV_CL_FREE && c->state != SV_CL_CLOSING;
}

static ENetPacket *make_packet(sv_t *sv, const wire_msg *m)
{
    size_t n = wire_write(m, sv->out, WIRE_MSG_MAX);
    return enet_packet_create(sv->out, n, ENET_PACKET_FLAG_RELIABLE);
}

static void queue_packet(sv_t *sv, sv_client *c, ENetPacket *p)
{
    /* ENet owns the packet after a successful send; on failure we free it. */
    if (enet_peer_send(c->peer, WIRE_CHANNEL, p) < 0) {
        enet_packet_destroy(p);
        return;
    }
    c->sent_step = sv->st.steps + 1;
    int slot = (int)(c - sv->clients);
    sv_hosts_queued(sv, slot);
    if (slot > sv->step_max_slot)
        sv->step_max_slot = slot;
    sv->st.packets_out++;
}

/* Queues c's held-back packets, in order, ahead of anything newer (or
 * frees them if c can no longer be sent to). */
static void release_held(sv_t *sv, sv_client *c)
{
    bool ok = can_send(c);
    ENetPacket *p;
    while ((p = sv_hold_take(sv, c))) {
        if (ok)
            queue_packet(sv, c, p);
        else
            enet_packet_destroy(p);
    }
}

void sv_send(sv_t *sv, sv_client *c, const wire_msg *m)
{
    if (!can_send(c))
        return;
    if (c->sph_gen) {
        size_t n = wire_write(m, sv->out, WIRE_MSG_MAX);
        sv_link_send(sv, c, sv->out, n);
        sv->st.packets_out++;
        return;
    }
    if (c->hold.head)
        release_held(sv, c); /* its held-back PROGRESS first, in this datagram */
    ENetPacket *p = make_packet(sv, m);
    if (p)
        queue_packet(sv, c, p);
}

void sv_send_late(sv_t *sv, sv_client *c, const wire_msg *m)
{
    if (!can_send(c))
        return;
    /* Held only for a fast player; anyone else gets it at once, and so
     * does a client that gets a packet in this step anyway (it rides in
     * that datagram). docs/performance-net.md, 2026-11-28: a PROGRESS
     * kept for the end of the step so that the mover's ACK left first cost
     * a walk over every peer slot (enet_host_flush) every other move. */
    if (c->sph_gen || !sv_hold_for(sv, c) || (c->sent_step == sv->st.steps + 1 && !c->hold.head)) {
        sv_send(sv, c, m);
        return;
    }
    if (c->hold.n >= SV_HOLD_MAX)
        release_held(sv, c); /* enough waiting: they go now, this one starts a new hold */
    ENetPacket *p = make_packet(sv, m);
    if (!p)
        return;
    sv_client *early = NULL;
    if (!sv_hold_put(sv, c, p, &early))
        queue_packet(sv, c, p);
    if (early)
        release_held(sv, early);
}

void sv_send_held_due(sv_t *sv)
{
    sv_client *c;
    while ((c = sv_hold_expired(sv)))
        release_held(sv, c);
}

void sv_send_error(sv_t *sv, sv_client *c, int type, int code, const char *text)
{
    wire_msg *m = sv->msg;
    memset(m, 0, sizeof *m);
    m->type = (uint8_t)type;
    m->error.code = (uint8_t)code;
    txt_clean(m->error.text, sizeof m->error.text, text ? text : "");
    sv_send(sv, c, m);
}
