/* sv_shake.h: the pre-handshake filter's pieces that both ENet hosts use (the game host's and the spectator
 * host's). */
#ifndef MR_SV_SHAKE_H
#define MR_SV_SHAKE_H

#include <enet/enet.h>
#include <stdbool.h>
#include <stdint.h>

#define SV_SHAKE_PER_ADDR 4 /* half-open peers from one address */
#define SV_SHAKE_MIN 32     /* half-open peers in all, at least (else peers / 8) */
#define SV_SHAKE_MS 2000    /* ENet handshake not finished by then: the peer is reset */

/* From a host's intercept: true when the datagram just received is an ENet
 * CONNECT and the half-open peers (in ENet's handshake, or connected with
 * hello_pending true: no HELLO yet) are max_total or more, or
 * SV_SHAKE_PER_ADDR from its address: drop it unanswered. */
bool sv_shake_refuse(ENetHost *host, int max_total, bool (*hello_pending)(const ENetPeer *));
/* Resets the peers stuck in ENet's handshake for more than SV_SHAKE_MS;
 * since[] (one per peer slot) remembers when each was first seen there.
 * Returns how many were reset. */
int sv_shake_reset_stuck(ENetHost *host, uint64_t *since, uint64_t now_ms);

#endif
