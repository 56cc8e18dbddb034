/* cl_coord.h: the host's and the joiner's side of the coordinator (docs/coordinator.md): requests, retries,
 * refreshes; the datagrams go out through the caller's socket (ENet's, so the coordinator sees ENet's
 * mapping). */
#ifndef MR_CL_COORD_H
#define MR_CL_COORD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coord_wire.h"

/* How it fits (docs/nat.md): the caller owns the UDP socket, usually its
 * ENet host's (`host->socket`, sent with cl_coord_enet_send), and hands
 * every datagram from the coordinator's address to cl_coord_input (from
 * ENet's intercept or cl_stun's tap, before ENet sees it). No call blocks.
 *
 * Host: cl_coord_host(name, candidates) -> an event HOST_OK with the code;
 * the registration is refreshed by cl_coord_update every lifetime/4 (with
 * the candidates last given: call cl_coord_host again to change them);
 * every joiner arrives as an INTRODUCE event; cl_coord_leave on exit.
 * Joiner: cl_coord_lookup(code, candidates) -> LOOKUP_OK (the host's
 * candidates, pair) or ERROR. Either side of a pair: cl_coord_turn ->
 * TURN_OK. Anyone: cl_coord_list(start) -> SERVER_LIST.
 * A request unanswered after retries at 0.5, 1 and 2 s gives an ERROR event
 * with error 0 and the text "the coordinator at ADDR did not answer". */
typedef struct cl_coord cl_coord_t;

/* Sends one datagram to `to`; false if it could not. */
typedef bool (*cl_coord_send_fn)(void *ctx, coord_addr to, const uint8_t *buf, size_t len);

/* Caller destroys. Never fails (memory aborts). */
cl_coord_t *cl_coord_create(coord_addr coordinator, cl_coord_send_fn send, void *ctx);
void cl_coord_destroy(cl_coord_t *c); /* accepts NULL; does not send HOST_LEAVE */

/* Requests; each replaces a pending one of its kind. Return false only on
 * bad arguments (name not 1..24 bytes by the name rule, n > COORD_CAND_MAX). */
bool cl_coord_host(cl_coord_t *c, const char *name, const coord_cand *cand, int n, uint64_t now_ms);
void cl_coord_leave(cl_coord_t *c); /* HOST_LEAVE once; refreshes stop */
bool cl_coord_lookup(cl_coord_t *c, const char code[COORD_CODE_LEN + 2], const coord_cand *cand, int n,
                     uint64_t now_ms);
/* Relay credentials for the pair of the last LOOKUP_OK or INTRODUCE (pair 0: that one). */
bool cl_coord_turn(cl_coord_t *c, uint32_t pair, uint64_t now_ms);
void cl_coord_list(cl_coord_t *c, uint16_t start, uint64_t now_ms);

/* A datagram that arrived from `from`: true if it was the coordinator's
 * (then it is consumed, maybe queued as an event), false if not (pass it on). */
bool cl_coord_input(cl_coord_t *c, coord_addr from, const uint8_t *buf, size_t len, uint64_t now_ms);
/* Retries, refreshes, timeouts. Call every frame or step. */
void cl_coord_update(cl_coord_t *c, uint64_t now_ms);
/* The next event (a decoded answer: HOST_OK, LOOKUP_OK, INTRODUCE, TURN_OK,
 * SERVER_LIST, SERVER_OK or ERROR) into *ev; false when none. Up to 8 queue. */
bool cl_coord_poll(cl_coord_t *c, coord_msg *ev);
/* The live invite code ("" before HOST_OK or after a loss). */
const char *cl_coord_code(const cl_coord_t *c);

/* The coordinator's usual port (docs/coordinator.md). */
#define CL_COORD_PORT 27920
/* "HOST[:PORT]" (PORT default CL_COORD_PORT; HOST an IPv4 address or a
 * name, resolved here: may wait for DNS) into *out. NULL or a static
 * message for the player. */
const char *cl_coord_resolve(const char *text, coord_addr *out);

/* A cl_coord_send_fn for an ENet socket: ctx is an ENetSocket* (e.g. &host->socket). */
bool cl_coord_enet_send(void *ctx, coord_addr to, const uint8_t *buf, size_t len);
#endif
