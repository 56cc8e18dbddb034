/* raw_client.h: a bare ENet client for server tests: sends any bytes, collects decoded messages. */
#ifndef MR_RAW_CLIENT_H
#define MR_RAW_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire.h"

/* Every wait is bounded by its timeout and calls pump(ctx) on each turn, so
 * a test can run an in-process server (sv_service) in the same thread; pump
 * may be NULL when the server is another process. Only 127.0.0.1 is ever
 * addressed. */
typedef void (*raw_pump_fn)(void *ctx);

typedef struct raw_client raw_client;

/* Connects to 127.0.0.1:port; NULL if not connected within timeout_ms. */
raw_client *raw_connect(uint16_t port, raw_pump_fn pump, void *ctx, int timeout_ms);
/* The same from the local address src (e.g. "127.3.0.1": any 127/8 address
 * is this host's), so that a test can be several clients' addresses. */
raw_client *raw_connect_from(const char *src, uint16_t port, raw_pump_fn pump, void *ctx, int timeout_ms);
/* Reliable commands ENet timed out and sent again on this connection so far
 * (its CONNECT included): 0 right after raw_connect means the server
 * answered the first CONNECT. */
unsigned raw_resends(const raw_client *c);
/* Disconnects (politely, bounded) and frees. Accepts NULL. */
void raw_close(raw_client *c);
/* The client's own UDP port (host byte order). */
uint16_t raw_local_port(const raw_client *c);

/* Sends len raw bytes as one reliable packet on the wire channel. */
void raw_send(raw_client *c, const void *data, size_t len);
void raw_send_msg(raw_client *c, const wire_msg *m);
/* HELLO with this name (our magic and version), sent without waiting. */
void raw_send_hello(raw_client *c, const char *name);
/* HELLO with the current version and name, then waits for WELCOME. */
bool raw_hello(raw_client *c, const char *name, int timeout_ms);

/* Services for up to timeout_ms (or until the next message arrives when
 * stop_on_msg). */
void raw_pump(raw_client *c, int timeout_ms, bool stop_on_msg);
/* Waits for the next message of the given type (other messages are kept,
 * in order, for later waits): true and *out filled. Strings and game IDs in
 * *out point into storage that lives until the next call on c. */
bool raw_wait(raw_client *c, int type, wire_msg *out, int timeout_ms);
/* Waits for the next message, whatever its type: true and *out filled
 * (false on time-out or if it does not decode). */
bool raw_next(raw_client *c, wire_msg *out, int timeout_ms);
/* True if a message of this type is already queued (does not consume it). */
bool raw_has(raw_client *c, int type);
/* Copies the types of the queued messages, oldest first, into types (at
 * most max of them); returns how many messages are queued. */
int raw_queued_types(const raw_client *c, int *types, int max);
/* Number of queued messages that did not decode (should stay 0). */
int raw_undecodable(const raw_client *c);
/* Number of BUNDLE packets received so far. Their messages are queued one
 * by one, so raw_wait and raw_next see them as single messages. */
int raw_bundles(const raw_client *c);
/* Waits until the server disconnects this client. */
bool raw_wait_disconnect(raw_client *c, int timeout_ms);
bool raw_connected(const raw_client *c);

#endif
