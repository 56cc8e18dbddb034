/* sv_hold.c: the progress hold's store: held-back packets per client and when their holds run out. */
#include <stdlib.h>

#include "sv_hold.h"
#include "sv_internal.h"
#include "util.h"

void sv_hold_init(sv_hold *h, int nclients)
{
    size_t nlate = (size_t)nclients * SV_HOLD_MAX;
    h->late = mr_alloc(nlate, sizeof *h->late);
    for (size_t i = 0; i < nlate; i++)
        h->late[i].next = i + 1 < nlate ? (int)(i + 2) : 0;
    h->late_free = 1;
    h->cap_late = (int)nlate;
    h->cap_due = nclients * SV_DUE_PER_CLIENT;
    h->due = mr_alloc((size_t)h->cap_due, sizeof *h->due);
}

void sv_hold_free(sv_hold *h)
{
    for (int i = 0; h->late && i < h->cap_late; i++)
        if (h->late[i].p)
            enet_packet_destroy(h->late[i].p);
    free(h->late);
    free(h->due);
    h->late = NULL;
    h->due = NULL;
    h->due_n = 0;
}

ENetPacket *sv_hold_take(sv_t *sv, sv_client *c)
{
    sv_hold *h = &sv->hold;
    int i = c->hold.head;
    if (!i)
        return NULL;
    sv_late *l = &h->late[i - 1];
    ENetPacket *p = l->p;
    c->hold.head = l->next;
    if (!c->hold.head)
        c->hold.tail = 0;
    c->hold.n--;
    l->p = NULL;
    l->next = h->late_free;
    h->late_free = i;
    return p;
}

void sv_hold_discard(sv_t *sv, sv_client *c)
{
    ENetPacket *p;
    while ((p = sv_hold_take(sv, c)))
        enet_packet_destroy(p);
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

/* Takes the ring's oldest entry out; returns its client unless stale. */
static sv_client *pop_due(sv_t *sv)
{
    sv_hold *h = &sv->hold;
    sv_client *c = due_client(sv, due_at(h, 0));
    h->due_head = (h->due_head + 1) % h->cap_due;
    h->due_n--;
    return c;
}

sv_client *sv_hold_expired(sv_t *sv)
{
    sv_hold *h = &sv->hold;
    while (h->due_n > 0 && due_at(h, 0)->due_ms <= sv->now_ms) {
        sv_client *c = pop_due(sv);
        if (c)
            return c;
    }
    return NULL;
}

uint64_t sv_hold_next_due(const sv_t *sv)
{
    const sv_hold *h = &sv->hold;
    return h->due_n > 0 ? h->due[h->due_head].due_ms : UINT64_MAX;
}

void sv_hold_note_move(sv_t *sv, sv_client *c)
{
    uint64_t gap = sv->now_ms - c->hold.last_move_ms;
    c->hold.move_gap_ms = !c->hold.moved ? UINT32_MAX : gap > UINT32_MAX ? UINT32_MAX : (uint32_t)gap;
    c->hold.last_move_ms = sv->now_ms;
    c->hold.moved = true;
}

/* Only when c itself is moving fast enough (its last two moves at most
 * 1.5 holds apart, the last one at most two holds ago) that its next ACK
 * is likely to come within the hold. A player thinking between moves gets
 * it at once. */
bool sv_hold_for(const sv_t *sv, const sv_client *c)
{
    uint64_t h = (uint64_t)sv->cfg.progress_hold_ms;
    return h > 0 && c->hold.moved && c->hold.move_gap_ms <= h * 3 / 2 &&
           sv->now_ms - c->hold.last_move_ms <= 2 * h;
}

bool sv_hold_put(sv_t *sv, sv_client *c, ENetPacket *p, sv_client **early)
{
    sv_hold *h = &sv->hold;
    *early = NULL;
    int e = h->late_free;
    if (!e || c->hold.n >= SV_HOLD_MAX)
        return false; /* cannot happen: the caller releases a full hold first */
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
        return true;
    c->hold.due_ms = sv->now_ms + (uint64_t)sv->cfg.progress_hold_ms;
    if (h->due_n == h->cap_due)
        *early = pop_due(sv); /* full: the oldest hold ends early */
    /* Every hold is as long: a new one goes to the back, and the ring
     * stays in due order. */
    *due_at(h, h->due_n) = (sv_due){.client = (int)(c - sv->clients), .id = c->id, .due_ms = c->hold.due_ms};
    h->due_n++;
    return true;
}
