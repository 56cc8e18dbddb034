/* cl_stun.h: STUN binding requests and hole-punch probes sent from ENet's own UDP socket; a tap on ENet's
 * intercept. */
#ifndef MR_CL_STUN_H
#define MR_CL_STUN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stun.h"

struct _ENetHost;

/* ---- the tap: datagrams on an ENet host's socket that are not ENet's ----
 * cl_tap_add installs an ENet intercept on host (which must have none of
 * its own) and hands every STUN-looking datagram, and every datagram that
 * starts with the coordinator's magic "MRCO" (cl_coord_input), to fn; fn returns true
 * when it took the datagram, and ENet never sees those. Datagrams no tap
 * takes go to ENet as before. Up to 8 taps on up to 8 hosts per process;
 * cl_tap_remove removes one (and the intercept with the host's last).
 * Taps run inside enet_host_service, on the thread that services the host;
 * add and remove them from one thread (the table is not locked). */
typedef bool (*cl_tap_fn)(void *ctx, stun_addr from, const uint8_t *data, size_t len);
bool cl_tap_add(struct _ENetHost *host, cl_tap_fn fn, void *ctx);
void cl_tap_remove(struct _ENetHost *host, cl_tap_fn fn, void *ctx);

/* ---- a binding request (RFC 5389) ----
 * Sent from socket fd (ENet's: host->socket, or sv_socket_fd), so the
 * mapping the server reports is the one ENet's traffic uses. Retransmits
 * at 100, 200, 400, 800 ms and gives up after timeout_ms. No call blocks:
 * feed it the datagrams (from a tap, or read yourself) and call update. */
typedef struct cl_stun cl_stun_t;
enum { CL_STUN_PENDING, CL_STUN_DONE, CL_STUN_FAILED };

/* server is an IPv4 address (numeric; names are the caller's to resolve).
 * NULL with *err on bad input. Caller destroys. */
cl_stun_t *cl_stun_create(int fd, stun_addr server, uint64_t now_ms, int timeout_ms, const char **err);
void cl_stun_destroy(cl_stun_t *s); /* accepts NULL */
/* True if the datagram was this transaction's answer (taken). */
bool cl_stun_feed(cl_stun_t *s, stun_addr from, const uint8_t *data, size_t len, uint64_t now_ms);
/* Retransmits when due; returns CL_STUN_PENDING, DONE or FAILED. */
int cl_stun_update(cl_stun_t *s, uint64_t now_ms);
/* DONE: the public address and port (XOR-MAPPED-ADDRESS) and the round trip. */
stun_addr cl_stun_mapped(const cl_stun_t *s);
uint32_t cl_stun_rtt_ms(const cl_stun_t *s);
/* FAILED: why ("no answer from 1.2.3.4:3478 in 3000 ms", "error 400: ..."). */
const char *cl_stun_error(const cl_stun_t *s);

/* Blocking helpers for a socket nobody else reads yet (a host before its
 * first service): send, wait and read on fd itself, at most timeout_ms.
 * NULL and *mapped on success, else the reason (static or kept in a
 * thread-local buffer until the next call). */
const char *cl_stun_query_fd(int fd, stun_addr server, int timeout_ms, stun_addr *mapped);

/* ---- hole-punch probes ----
 * A probe is a STUN Binding indication (as ICE's keepalives), sent from
 * fd to the peer's public address every 20 ms at first, then every 200 ms
 * until cl_punch_destroy: it opens this side's NAT towards the peer, and
 * the peer's probes (cl_punch_feed) show that the way in is open.
 * An ENet connect to the peer then goes through. */
typedef struct cl_punch cl_punch_t;
cl_punch_t *cl_punch_create(int fd, stun_addr peer, uint64_t now_ms);
void cl_punch_destroy(cl_punch_t *p); /* accepts NULL */
void cl_punch_update(cl_punch_t *p, uint64_t now_ms);
/* True if it was a probe from the peer's address (taken). */
bool cl_punch_feed(cl_punch_t *p, stun_addr from, const uint8_t *data, size_t len);
bool cl_punch_heard(const cl_punch_t *p);
uint32_t cl_punch_sent(const cl_punch_t *p);

/* Sends len bytes from fd to a; false if the socket refused them. */
bool cl_udp_send(int fd, stun_addr a, const void *data, size_t len);
#endif
