/* sv_hold.h: the progress hold: an opponent's PROGRESS held back for a fast player's next packet. */
#ifndef MR_SV_HOLD_H
#define MR_SV_HOLD_H

#include <enet/enet.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct sv sv_t;
typedef struct sv_client sv_client;

/* Held-back packets per client before they go out anyway. */
#define SV_HOLD_MAX 8

/* A held-back packet (sv_send_late), in a pool of SV_HOLD_MAX per client;
 * free entries are chained through next as well. */
typedef struct sv_late {
    int next; /* the same client's next held-back packet (or the next free entry): index + 1, 0 = none */
    ENetPacket *p;
} sv_late;

/* When a client's held-back packets are due: a ring in due order. Every
 * hold lasts the same time, so a hold goes to the back; packets due at the
 * end of this step go to the front. An entry is stale (skipped) once its
 * client's packets went out with another packet. */
typedef struct sv_due {
    int client;  /* index in sv->clients */
    uint32_t id; /* its id then: the slot may be reused */
    uint64_t due_ms;
} sv_due;
#define SV_DUE_PER_CLIENT 4 /* ring entries per client; a full ring releases its oldest early */

/* The server's half (sv->hold). */
typedef struct sv_hold {
    sv_late *late; /* held-back packets: SV_HOLD_MAX per client */
    int late_free; /* first free entry: index + 1, 0 = none */
    int cap_late;
    sv_due *due; /* ring of SV_DUE_PER_CLIENT per client */
    int due_head, due_n, cap_due;
} sv_hold;

/* A client's half (c->hold): its held-back packets and its pace. */
typedef struct sv_hold_client {
    int head; /* its first and last held-back packet: index + 1 in sv->hold.late, 0 = none */
    int tail;
    int n;                 /* held-back packets */
    uint64_t due_ms;       /* when they go out at the latest: the first one's time, plus the hold if held */
    uint64_t last_move_ms; /* when its last MOVE came, valid once moved */
    uint32_t move_gap_ms;  /* time between its last two MOVEs; UINT32_MAX until it has made two */
    bool moved;
} sv_hold_client;

/* The hold is a store: it sends nothing. sv_send.c decides what is held
 * (sv_send_late), takes the packets out when they go and asks which holds
 * ran out. */

/* Pool and ring for nclients clients; sv_hold_free frees them and drops
 * the packets still held. */
void sv_hold_init(sv_hold *h, int nclients);
void sv_hold_free(sv_hold *h);
/* Notes the time of a MOVE from c (its pace decides sv_hold_for). */
void sv_hold_note_move(sv_t *sv, sv_client *c);
/* Whether a PROGRESS for c should wait for c's next packet: c is moving
 * fast (cfg.progress_hold_ms > 0). */
bool sv_hold_for(const sv_t *sv, const sv_client *c);
/* Holds p (owned by the hold from now on) after c's other held packets;
 * the first one starts a hold of cfg.progress_hold_ms. *early: a client
 * whose hold had to end now to make room (the caller sends its packets),
 * or NULL. False when c already holds SV_HOLD_MAX (p stays the caller's). */
bool sv_hold_put(sv_t *sv, sv_client *c, ENetPacket *p, sv_client **early);
/* Takes c's oldest held packet out (the caller's from now on), NULL when none. */
ENetPacket *sv_hold_take(sv_t *sv, sv_client *c);
/* c is gone: its held-back packets are freed unsent. */
void sv_hold_discard(sv_t *sv, sv_client *c);
/* The next client whose hold ran out by now (its packets are due: take
 * them all), or NULL. */
sv_client *sv_hold_expired(sv_t *sv);
/* When the next hold runs out (UINT64_MAX: none held). */
uint64_t sv_hold_next_due(const sv_t *sv);

#endif
