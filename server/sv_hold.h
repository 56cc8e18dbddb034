/* sv_hold.h: the progress hold: an opponent's PROGRESS held back for a fast player's next packet. */
#ifndef MR_SV_HOLD_H
#define MR_SV_HOLD_H

#include <enet/enet.h>
#include <stdbool.h>
#include <stdint.h>

#include "sv_hold_types.h"

typedef struct sv sv_t;
typedef struct sv_client sv_client;

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
