/* sv_cookie.h: a stateless cookie inside ENet's own handshake (nothing a client sends changes): a CONNECT the
 * half-open budget would drop is answered without a peer, and the client's acknowledgement makes its peer. */
#ifndef MR_SV_COOKIE_H
#define MR_SV_COOKIE_H

#include <enet/enet.h>
#include <stdbool.h>
#include <stdint.h>

/* ENet's handshake is CONNECT -> VERIFY_CONNECT -> the acknowledgement of
 * VERIFY_CONNECT, and the client echoes two 16-bit fields of the server's
 * datagram in that acknowledgement: the header's sent time and the
 * command's reliable sequence number. A cookie VERIFY_CONNECT puts 32 bits
 * there: a 22-bit MAC (SipHash-2-4 under a key drawn at start) of the
 * source address and port, the peer slot it offers, the session IDs, the
 * client's peer index and a 4 s epoch, plus the server's session ID (2
 * bits; the client's comes back in its header) and that index (8 bits).
 * The session IDs are picked as ENet picks them. No peer is allocated. An acknowledgement to a free slot that
 * carries a valid cookie (of this epoch or the one before) makes that slot's peer, connected, with the values
 * ENet's own handshake would have given it.
 *
 * Only CONNECTs with ENet's defaults are answered this way (what every
 * mazerace client sends): MTU at least the host's, the host's channel
 * count, no bandwidth limits, the default throttle, no data, a client
 * peer index under 256; and within --max-per-ip (ENet's duplicatePeers).
 * Others are dropped as before. Since the server
 * keeps nothing, a lost acknowledgement cannot be asked for again: that
 * client is left waiting until its ENet time-out (the cookie is used only
 * where the CONNECT would otherwise have been dropped). */

/* Draws the key (once per process; secrand). */
void sv_cookie_init(void);
/* From an intercept, for the CONNECT just received: answers it with a
 * cookie VERIFY_CONNECT (true), or false if it does not qualify (the
 * caller drops it). Allocates nothing. */
bool sv_cookie_answer(ENetHost *host, uint64_t now_ms);
/* From an intercept, for any datagram: if it acknowledges a cookie
 * VERIFY_CONNECT, makes its peer (state CONNECTED, counted as ENet counts
 * a connection), removes the acknowledgement from the datagram and returns
 * the peer; the caller runs what it does on ENET_EVENT_TYPE_CONNECT (ENet
 * sends no such event for it), then lets ENet read the rest of the
 * datagram (or consumes it if *empty). NULL: not one. */
ENetPeer *sv_cookie_accept(ENetHost *host, uint64_t now_ms, bool *empty);

#endif
