/* sv_hold.c: the progress hold: an opponent's PROGRESS waits for a fast player's next packet (one datagram).
 */
#include <stdlib.h>

#include "sv_hold.h"
#include "sv_internal.h"
#include "sv_send.h"
#include "util.h"

void sv_hold_init(sv_hold *h, int nclients)
{
    size_t nlate = (size_t)nclients * SV_HOLD_MAX;
    h->late = mr_alloc(nlate, sizeof *h->late);
    for (size_t i = 0; i < nlate; i++)
        h->late[i].next = i + 1 < nlate ? (int)(i + 2) : 0;
    h->late_free = 1;
    h->cap_due = nclients * SV_DUE_PER_CLIENT;
    h->due = mr_alloc((size_t)h->cap_due, sizeof *h->due);
}

/* Queues one client's held-back packets, in order, ahead of anything newer
 * (or frees them if it can no longer be sent to), and returns their pool
 * entries. */
static void release_client_as(sv_t *sv, sv_client *c, bool send)
{
    sv_hold *h = &sv->hold;
    bool ok = send && sv_can_send(c);
    int i = c->hold.head;
    while (i) {
        sv_late *l = &h->late[i - 1];
        int next = l->next;
        if (ok)
            sv_queue_packet(sv, c, l->p);
        else
            enet_packet_destroy(l->p);
        l->p = NULL;
        l->next = h->late_free;
        h->late_free = i;
        i = next;
    }
    c->hold.head = c->hold.tail = 0;
    c->hold.n = 0;
}

void sv_hold_release(sv_t *sv, sv_client *c)
{
    release_client_as(sv, c, true);
}

void sv_hold_discard(sv_t *sv, sv_client *c)
{
    release_client_as(sv, c, false);
}

/* The due-ring entry at position k from its head. */
static sv_due *due_at(sv_hold *h, int k)
{
    return &h->due[(h->due_head + k) % h->cap_due];
}

/* The client a due entry still stands for, or NULL when it is stale (its
 * packets left with another packet, or the slot changed hands). */
static sv_client *due_client(sv_t *sv, const sv_due *d)
{
    sv_client *c = &sv->clients[d->client];
    if (c->id != d->id || !c->hold.head || c->hold.due_ms != d->due_ms)
        return NULL;
    return c;
}

static void pop_due(sv_t *sv)
{
    sv_hold *h = &sv->hold;
    sv_due *d = due_at(h, 0);
    sv_client *c = due_client(sv, d);
    h->due_head = (h->due_head + 1) % h->cap_due;
    h->due_n--;
    if (c)
        sv_hold_release(sv, c);
}

uint64_t sv_hold_next_due(const sv_t *sv)
{
    const sv_hold *h = &sv->hold;
    return h->due_n > 0 ? h->due[h->due_head].due_ms : UINT64_MAX;
}

/* End of a step: the held-back packets whose hold ran out leave (no
 * packet of their client's came to take them along). Every one was held
 * in an earlier step, so the ACKs of this step are not behind them. */
void sv_hold_flush(sv_t *sv)
{
    sv_hold *h = &sv->hold;
    while (h->due_n > 0 && due_at(h, 0)->due_ms <= sv->now_ms)
        pop_due(sv);
}

/* Frees every held-back packet (the server is going away) and the pool. */
void sv_hold_free(sv_t *sv)
{
    sv_hold *h = &sv->hold;
    if (h->late)
        for (int i = 0; i < sv->nclients; i++)
            sv_hold_discard(sv, &sv->clients[i]);
    h->due_n = 0;
    free(h->late);
    free(h->due);
    h->late = NULL;
    h->due = NULL;
}

void sv_hold_note_move(sv_t *sv, sv_client *c)
{
    uint64_t gap = sv->now_ms - c->hold.last_move_ms;
    c->hold.move_gap_ms = !c->hold.moved ? UINT32_MAX : gap > UINT32_MAX ? UINT32_MAX : (uint32_t)gap;
    c->hold.last_move_ms = sv->now_ms;
    c->hold.moved = true;
}

/* Whether a PROGRESS for c should wait for c's next packet: only when c
 * itself is moving fast enough (its last two moves at most 1.5 holds apart,
 * the last one at most two holds ago) that its next ACK is likely to come
 * within the hold. A player thinking between moves gets it at once. */
static bool holds_for(const sv_t *sv, const sv_client *c)
{
    uint64_t h = (uint64_t)sv->cfg.progress_hold_ms;
    return h > 0 && c->hold.moved && c->hold.move_gap_ms <= h * 3 / 2 &&
           sv->now_ms - c->hold.last_move_ms <= 2 * h;
}

void sv_send_late(sv_t *sv, sv_client *c, const wire_msg *m)
{
    /* Held only for a fast player; anyone else gets it at once, and so
     * does a client that gets a packet in this step anyway (it rides in
     * that datagram). docs/performance-net.md, 2026-11-28: a PROGRESS
     * kept for the end of the step so that the mover's ACK left first cost
     * a walk over every peer slot (enet_host_flush) every other move. */
    if (!sv_can_send(c))
        return;
    if (!holds_for(sv, c) || c->sph_gen || (c->sent_step == sv->st.steps + 1 && !c->hold.head)) {
        sv_send(sv, c, m);
        return;
    }
    sv_hold *h = &sv->hold;
    if (c->hold.n >= SV_HOLD_MAX)
        sv_hold_release(sv, c); /* enough waiting: they go now, this one starts a new hold */
    ENetPacket *p = sv_make_packet(sv, m);
    if (!p)
        return;
    int e = h->late_free;
    if (!e) { /* cannot happen: SV_HOLD_MAX entries per client */
        sv_queue_packet(sv, c, p);
        return;
    }
    sv_late *l = &h->late[e - 1];
    h->late_free = l->next;
    l->next = 0;
    l->p = p;
    if (c->hold.tail)
        h->late[c->hold.tail - 1].next = e;
    else
        c->hold.head = e;
    c->hold.tail = e;
    if (++c->hold.n > 1)
        return;
    c->hold.due_ms = sv->now_ms + (uint64_t)sv->cfg.progress_hold_ms;
    if (h->due_n == h->cap_due)
        pop_due(sv); /* full: the oldest hold ends early */
    /* Every hold is as long: a new one goes to the back, and the ring
     * stays in due order. */
    *due_at(h, h->due_n) = (sv_due){.client = (int)(c - sv->clients), .id = c->id, .due_ms = c->hold.due_ms};
    h->due_n++;
}
