/* sv_shake.h: the pre-handshake filter's pieces that both ENet hosts use (the game host's and the spectator
 * host's). */
#ifndef MR_SV_SHAKE_H
#define MR_SV_SHAKE_H

#include <enet/enet.h>
#include <stdbool.h>
#include <stdint.h>

#include "sv_shake_types.h"

#define SV_SHAKE_PER_ADDR 4 /* half-open peers from one address */
#define SV_SHAKE_MIN 32     /* half-open peers in all, at least (else peers / 8) */
#define SV_SHAKE_MS 2000    /* ENet handshake not finished by then: the peer is reset */

/* From a host's intercept: true when the datagram just received is for a
 * peer slot in use. Neither a CONNECT (addressed to no slot) nor a cookie's
 * acknowledgement (to a free one) is: ENet takes it as it is, with no look
 * at the clock or the peer table (most datagrams, checked first). */
bool sv_shake_for_peer(const ENetHost *host);
/* From a host's intercept: true when the datagram just received is an ENet
 * CONNECT and the half-open peers (in ENet's handshake, or connected with
 * hello_pending true: no HELLO yet) are max_total or more, or
 * SV_SHAKE_PER_ADDR from its address: drop it unanswered. */
bool sv_shake_refuse(ENetHost *host, int max_total, bool (*hello_pending)(const ENetPeer *));
/* Resets the peers stuck in ENet's handshake for more than SV_SHAKE_MS;
 * since[] (one per peer slot) remembers when each was first seen there.
 * Returns how many were reset. */
int sv_shake_reset_stuck(ENetHost *host, uint64_t *since, uint64_t now_ms);

typedef struct sv sv_t;
/* The filter on the game host (docs/reliability.md, section 4). */
void sv_shake_attach(sv_t *sv);
void sv_shake_detach(sv_t *sv);
/* Resets the peers stuck in ENet's handshake; every few hundred ms. */
void sv_shake_expire(sv_t *sv);

#endif
