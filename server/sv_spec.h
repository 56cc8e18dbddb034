/* sv_spec.h: spectators (docs/protocol.md, "Spectators"): watching a room, batched sends, the rooms list. */
#ifndef MR_SV_SPEC_H
#define MR_SV_SPEC_H

#include <enet/enet.h>
#include <stdbool.h>
#include <stdint.h>

#include "wire.h"

typedef struct sv sv_t;
typedef struct sv_client sv_client;
struct sv_room;

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

/* Every send to a spectator is deferred to the end of the step
 * (sv_spec_flush), after the players' packets have been handed to the
 * socket. */
/* When a spectator limit is reached: c gets ERROR WATCH_FULL (counted, logged), true. */
bool sv_spec_refuse_full(sv_t *sv, sv_client *c, const struct sv_room *room);
/* Makes c (in no room) a spectator of room, or tells it why not. */
void sv_spec_watch(sv_t *sv, sv_client *c, struct sv_room *room);
/* A message from a spectator: true when handled here (c->spec.watch set). */
bool sv_spec_receive(sv_t *sv, sv_client *c, const wire_msg *in);
/* LIST_ROOMS. */
void sv_spec_list(sv_t *sv, sv_client *c);
/* Stops c watching (leave, disconnect); the room's count changes. */
void sv_spec_leave(sv_t *sv, sv_client *c);
/* m to every spectator of room (nothing is encoded when there are none). */
void sv_spec_send_room(sv_t *sv, struct sv_room *room, const wire_msg *m);
/* m to one spectator, deferred like the rest. */
void sv_spec_send(sv_t *sv, sv_client *c, const wire_msg *m);
/* WATCH_START of the room's current game to every spectator. */
void sv_spec_match_start(sv_t *sv, struct sv_room *room);
/* The room is closing: its spectators get WATCH_END and watch nothing. */
void sv_spec_room_closed(sv_t *sv, struct sv_room *room);
/* End of a step: the spectators whose batch is due (all with now) get
 * it, after a flush of what the players were sent; at most once per
 * SV_SPEC_TICK_MS unless now. */
void sv_spec_flush(sv_t *sv, bool now);
/* When sv_spec_flush has batches to send next (UINT64_MAX: none queued). */
uint64_t sv_spec_next_due(const sv_t *sv);
/* c is gone: its queued items are dropped. */
void sv_spec_discard(sv_t *sv, sv_client *c);
/* Frees the queue (and drops what is in it). */
void sv_spec_free(sv_t *sv);
/* Rooms in countdown or racing (cached up to a second), for discovery. */
int sv_spec_races(sv_t *sv);

#endif
