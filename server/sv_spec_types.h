/* sv_spec_types.h: spectators' state (sv->spec, c->spec; sv_spec.h). Data only. */
#ifndef MR_SV_SPEC_TYPES_H
#define MR_SV_SPEC_TYPES_H

#include <enet/enet.h>
#include <stdbool.h>
#include <stdint.h>

#include "wire.h"

struct sv_room;
struct sv_client;

/* A message queued for a spectator, in a pool: each spectator's queue is
 * a list through next, and it goes out cfg.spectator_batch_ms after the
 * first of them was queued. The packet is shared by the room's spectators. */
typedef struct sv_spec_item {
    int next; /* the same spectator's next item (or the next free one): index + 1, 0 = none */
    ENetPacket *p;
} sv_spec_item;
/* A spectator with queued items, in the order their batches are due. */
typedef struct sv_spec_due {
    int client;  /* index in sv->clients */
    uint32_t id; /* its id then: the slot may be reused */
} sv_spec_due;
#define SV_SPEC_TICK_MS 2 /* the batches due are sent together at most this often */
/* The same with a spectator port: the loop hands due batches to the
 * spectator thread at most this often, so that spectators do not wake the
 * players' loop every 2 ms (a batch is 250 ms by default anyway). */
#define SV_SPEC_TICK_SPH_MS 20

/* The server's half (sv->spec). */
typedef struct sv_spec_state {
    int count;       /* watching now, every room */
    sv_spec_item *q; /* the pool of messages queued for spectators */
    int q_n, q_cap, q_free;
    sv_spec_due *due; /* spectators with queued items, oldest batch first: a ring */
    int due_head, due_n, due_cap;
    uint64_t tick_ms;      /* the next batches go out at this tick at the earliest */
    wire_room_list *races; /* the LIST_ROOMS answer, rebuilt at most once a second */
    uint64_t races_ms;
    bool races_valid;     /* cleared when a room's phase changes */
    uint16_t public_port; /* advertised in WATCH_AT; 0 = the bound spectator port */
} sv_spec_state;

/* A client's half (c->spec). */
typedef struct sv_spec_client {
    struct sv_room *watch;         /* the room it watches (then c->room is NULL), or NULL */
    struct sv_client *next, *prev; /* the room's spectator list */
    int q_head, q_tail;            /* its queued items: index + 1, 0 = none */
    uint64_t due_ms;               /* when they go out */
} sv_spec_client;

#endif
