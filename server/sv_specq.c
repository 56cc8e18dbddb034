/* sv_specq.c: the spectators' send queue: a message encoded once per room, batched per spectator, the batches
 * due sent after the players' packets at the end of a step. */
#include <stdlib.h>
#include <string.h>

#include "sv_hosts.h"
#include "sv_internal.h"
#include "sv_link.h"
#include "sv_specq.h"
#include "util.h"

/* ---- the deferred sends ----
 * A message for spectators is encoded once into one ENet packet, shared
 * by every spectator of the room: each queued item holds one reference
 * (referenceCount, as ENet's own queue does), given back when it is
 * handed to ENet or dropped. A spectator's items wait for its batch:
 * cfg.spectator_batch_ms after the first of them was queued, then ENet
 * sends them in one datagram. Batches fall due at different times for
 * different spectators, and the due ones go out together every
 * SV_SPEC_TICK_MS at most: a few datagrams at a time, never a burst of
 * every spectator at once. */

static bool watching(const sv_client *c)
{
    return c && sv_link_up(c) && c->state == SV_CL_ACTIVE && c->spec.watch;
}

/* Gives back a queue reference; frees the packet if nobody else holds it. */
static void unref(ENetPacket *p)
{
    if (--p->referenceCount == 0)
        enet_packet_destroy(p);
}

static int take_item(sv_t *sv)
{
    if (!sv->spec.q_free) {
        /* Grows to the busiest moment's size and stays: no allocation per
         * move once the server has seen its load. */
        int old = sv->spec.q_cap;
        sv->spec.q_cap = old ? 2 * old : 256;
        sv->spec.q = mr_realloc(sv->spec.q, (size_t)sv->spec.q_cap, sizeof *sv->spec.q);
        for (int i = old; i < sv->spec.q_cap; i++)
            sv->spec.q[i] = (sv_spec_item){.next = i + 1 < sv->spec.q_cap ? i + 2 : 0, .p = NULL};
        sv->spec.q_free = old + 1;
    }
    int e = sv->spec.q_free;
    sv->spec.q_free = sv->spec.q[e - 1].next;
    return e;
}

static void put_due(sv_t *sv, sv_client *c)
{
    if (sv->spec.due_n == sv->spec.due_cap) {
        int cap = sv->spec.due_cap ? 2 * sv->spec.due_cap : 64;
        sv_spec_due *r = mr_alloc((size_t)cap, sizeof *r);
        for (int i = 0; i < sv->spec.due_n; i++)
            r[i] = sv->spec.due[(sv->spec.due_head + i) % sv->spec.due_cap];
        free(sv->spec.due);
        sv->spec.due = r;
        sv->spec.due_cap = cap;
        sv->spec.due_head = 0;
    }
    sv->spec.due[(sv->spec.due_head + sv->spec.due_n) % sv->spec.due_cap] =
        (sv_spec_due){.client = (int)(c - sv->clients), .id = c->id};
    sv->spec.due_n++;
}

static void push_item(sv_t *sv, sv_client *c, ENetPacket *p)
{
    int e = take_item(sv);
    sv->spec.q[e - 1] = (sv_spec_item){.next = 0, .p = p};
    p->referenceCount++;
    sv->spec.q_n++;
    if (c->spec.q_tail) {
        sv->spec.q[c->spec.q_tail - 1].next = e;
    } else {
        c->spec.q_head = e;
        c->spec.due_ms = sv->now_ms + (uint64_t)sv->cfg.spectator_batch_ms;
        put_due(sv, c);
    }
    c->spec.q_tail = e;
}

static ENetPacket *encode(sv_t *sv, const wire_msg *m)
{
    size_t n = wire_write(m, sv->out, WIRE_MSG_MAX);
    return enet_packet_create(sv->out, n, ENET_PACKET_FLAG_RELIABLE);
}

void sv_specq_send(sv_t *sv, sv_client *c, const wire_msg *m)
{
    if (!watching(c))
        return;
    ENetPacket *p = encode(sv, m);
    if (!p)
        return;
    push_item(sv, c, p);
}

void sv_specq_send_room(sv_t *sv, sv_room *room, const wire_msg *m)
{
    if (!room->spec_head)
        return;
    ENetPacket *p = encode(sv, m);
    if (!p)
        return;
    p->referenceCount++; /* held while it is pushed, so that no unref frees it early */
    for (sv_client *c = room->spec_head; c; c = c->spec.next)
        if (watching(c))
            push_item(sv, c, p);
    unref(p);
}

/* Frees queue entry i (1-based) and gives back its reference. */
static void free_item(sv_t *sv, int i)
{
    sv_spec_item *it = &sv->spec.q[i - 1];
    unref(it->p);
    *it = (sv_spec_item){.next = sv->spec.q_free, .p = NULL};
    sv->spec.q_free = i;
    sv->spec.q_n--;
}

/* One packet to c: a queued item's shared packet, or bytes of our own
 * (p NULL: a BUNDLE of msgs messages, which count as sent one by one). */
static void send_one(sv_t *sv, sv_client *c, ENetPacket *p, const uint8_t *data, size_t len, int msgs)
{
    if (c->sph_gen) {
        /* The spectator host's thread makes its own packet of these bytes. */
        sv_link_send(sv, c, p ? p->data : data, p ? p->dataLength : len);
        sv->st.packets_out += (uint64_t)msgs;
        return;
    }
    ENetPacket *own = p ? NULL : enet_packet_create(data, len, ENET_PACKET_FLAG_RELIABLE);
    ENetPacket *pk = p ? p : own;
    if (pk && enet_peer_send(c->peer, WIRE_CHANNEL, pk) == 0) {
        sv->st.packets_out += (uint64_t)msgs;
        sv_hosts_queued(sv, (int)(c - sv->clients));
    } else if (own)
        enet_packet_destroy(own);
}

/* Hands c's queued items to ENet (send) or drops them, in order. Sent to
 * whoever is still connected: what was queued before a LEAVE_ROOM (or the
 * room's WATCH_END) goes out too. Items go out as one BUNDLE packet per
 * run that fits in WIRE_BUNDLE_MAX bytes (a lone item, or one too big for
 * a bundle, as itself): ENet then sends, and the spectator acknowledges,
 * one reliable command per batch instead of one per message (server CPU
 * per move with spectators 1.17 of none's, was 1.28: docs/performance-net.md,
 * "Protocol 5"). */
/* Packs the items from i on into one BUNDLE in sv->out (*used bytes), as
 * many as fit; returns how many. Fewer than 2: item i goes as itself (a
 * last item is not even copied). sv->out is free here: nothing in a
 * release encodes a message. */
static int pack_run(sv_t *sv, int i, size_t *used)
{
    *used = 0;
    if (!sv->spec.q[i - 1].next)
        return 1;
    int n = 0;
    for (; i; i = sv->spec.q[i - 1].next, n++) {
        const ENetPacket *p = sv->spec.q[i - 1].p;
        if (!wire_bundle_add(sv->out, WIRE_BUNDLE_MAX, used, p->data, p->dataLength))
            break;
    }
    return n;
}

static void release(sv_t *sv, sv_client *c, bool send)
{
    bool ok = send && sv_link_up(c) && c->state == SV_CL_ACTIVE;
    for (int i = c->spec.q_head; i;) {
        size_t used = 0;
        int n = ok ? pack_run(sv, i, &used) : 0;
        if (n >= 2) {
            send_one(sv, c, NULL, sv->out, used, n);
            sv->st.spectator_bundles++;
        } else {
            if (ok)
                send_one(sv, c, sv->spec.q[i - 1].p, NULL, 0, 1);
            n = 1;
        }
        for (; n > 0; n--) {
            int next = sv->spec.q[i - 1].next;
            free_item(sv, i);
            i = next;
        }
    }
    c->spec.q_head = c->spec.q_tail = 0;
}

void sv_specq_discard(sv_t *sv, sv_client *c)
{
    release(sv, c, false);
}

void sv_specq_flush(sv_t *sv, bool now)
{
    if (sv->spec.q_n == 0 || (!now && sv->now_ms < sv->spec.tick_ms))
        return;
    sv->spec.tick_ms = sv->now_ms + (sv->sph ? SV_SPEC_TICK_SPH_MS : SV_SPEC_TICK_MS);
    bool flushed = false;
    /* Bounded by the spectators with queued items (one entry each). */
    while (sv->spec.due_n > 0) {
        sv_spec_due *d = &sv->spec.due[sv->spec.due_head];
        sv_client *c = &sv->clients[d->client];
        bool live = c->id == d->id && c->spec.q_head;
        if (live && !now && c->spec.due_ms > sv->now_ms)
            break; /* the oldest batch is not due: nor are the ones behind it */
        sv->spec.due_head = (sv->spec.due_head + 1) % sv->spec.due_cap;
        sv->spec.due_n--;
        if (!live)
            continue; /* its client went away (its items were dropped then) */
        /* The players' packets of this step leave first: ENet sends peer
         * by peer in slot order, so without this flush a spectator in a
         * lower slot would be sent to before a player. */
        if (!flushed && !c->sph_gen && sv->step_max_slot >= 0) {
            sv_hosts_flush_queued(sv, NULL);
            sv->step_max_slot = -1;
        }
        flushed = flushed || !c->sph_gen;
        release(sv, c, true);
    }
}

uint64_t sv_specq_next_due(const sv_t *sv)
{
    if (sv->spec.q_n == 0 || sv->spec.due_n == 0)
        return UINT64_MAX;
    const sv_spec_due *d = &sv->spec.due[sv->spec.due_head];
    const sv_client *c = &sv->clients[d->client];
    /* A stale head (its client gone) only makes the loop look a little early. */
    uint64_t due = c->id == d->id && c->spec.q_head ? c->spec.due_ms : sv->now_ms;
    return due > sv->spec.tick_ms ? due : sv->spec.tick_ms;
}

void sv_specq_free(sv_t *sv)
{
    for (int i = 0; i < sv->spec.q_cap; i++)
        if (sv->spec.q[i].p)
            unref(sv->spec.q[i].p);
    free(sv->spec.q);
    free(sv->spec.due);
    sv->spec.q = NULL;
    sv->spec.due = NULL;
    sv->spec.q_n = sv->spec.q_cap = sv->spec.q_free = 0;
    sv->spec.due_n = sv->spec.due_cap = sv->spec.due_head = 0;
}
