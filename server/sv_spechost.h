/* sv_spechost.h: the spectator host: a second ENet host on a port of its own, serviced by a thread of its
 * own; the game loop and that thread exchange bytes through two queues. */
#ifndef MR_SV_SPECHOST_H
#define MR_SV_SPECHOST_H

#include <enet/enet.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Spectators' peers live here, never in the players' host: every
 * enet_host_service of a host walks all its peers (pings, acknowledgements,
 * resends), so spectators there cost the players time (docs/architecture.md,
 * "Threads"). The thread owns this host and every ENet object of it; the
 * game loop hands it bytes and gets bytes back, and never waits for it
 * beyond the mutex held to swap a queue. A connection is named by its peer
 * slot and a generation, so that a command for a connection that has gone
 * (and whose slot was taken again) is ignored. */

typedef struct sv_sph sv_sph;

typedef struct sv_sph_opts {
    ENetAddress addr;   /* where to bind; port 0 = any free port */
    size_t peers;       /* peer slots */
    size_t packet_max;  /* ENet's maximumPacketSize */
    size_t waiting_max; /* ENet's maximumWaitingData */
    size_t dup_peers;   /* connections from one address; 0 = ENet's default */
    int sockbuf;        /* SO_RCVBUF / SO_SNDBUF; 0 = the kernel's */
    size_t channels;    /* ENet channels a peer may open */
    uint8_t channel;    /* the one messages are sent on */
    size_t msg_max;     /* a received message longer than this is passed on as oversized, without its bytes */
} sv_sph_opts;

enum sv_sph_event_type { SV_SPH_CONNECT = 1, SV_SPH_RECEIVE, SV_SPH_DISCONNECT };

typedef struct sv_sph_event {
    int type; /* enum sv_sph_event_type */
    int slot;
    uint32_t gen;
    uint32_t host;       /* CONNECT: the peer's IPv4 address, network order */
    uint16_t port;       /* CONNECT: its port */
    bool oversized;      /* RECEIVE: longer than msg_max (data is NULL) */
    size_t len;          /* RECEIVE */
    const uint8_t *data; /* RECEIVE: valid during the callback only */
} sv_sph_event;

typedef struct sv_sph_counts {
    uint64_t udp_in, udp_out; /* datagrams the host received and sent */
    uint64_t shakes_dropped;  /* CONNECTs dropped unanswered: too many half-open peers */
    uint64_t shakes_expired;  /* peers reset: no handshake acknowledgement in time */
    uint64_t shakes_cookies;  /* CONNECTs over the budgets answered with a cookie (sv_cookie.c) */
    uint64_t cookie_peers;    /* peers made from a cookie's acknowledgement */
    uint64_t inbox_dropped;   /* messages dropped: the game loop had too many unread */
    uint64_t socket_errors;   /* failed sends or receives the thread carried on after */
} sv_sph_counts;

/* Binds (in the caller's thread, so a failure is known at once) and starts
 * the thread. NULL with *err (static) on failure. */
sv_sph *sv_sph_create(const sv_sph_opts *o, const char **err);
/* Sends what was committed, stops the thread and frees everything. Accepts NULL. */
void sv_sph_destroy(sv_sph *h);
uint16_t sv_sph_port(const sv_sph *h);
size_t sv_sph_peer_slots(const sv_sph *h);
/* Any thread. */
void sv_sph_get_counts(sv_sph *h, sv_sph_counts *out);

/* ---- the game loop's side (one thread) ---- */
/* Calls fn for every event the thread has received since the last call, in
 * order; returns how many. */
int sv_sph_poll(sv_sph *h, void (*fn)(void *ctx, const sv_sph_event *ev), void *ctx);
/* Queues a reliable message for (slot, gen). */
void sv_sph_send(sv_sph *h, int slot, uint32_t gen, const void *data, size_t len);
/* Disconnects once what is queued has been delivered (ENet's disconnect_later). */
void sv_sph_close_later(sv_sph *h, int slot, uint32_t gen);
/* One unreliable disconnect and the slot is free; no DISCONNECT event follows. */
void sv_sph_drop(sv_sph *h, int slot, uint32_t gen);
/* The connection said HELLO: it no longer counts as half-open. */
void sv_sph_welcomed(sv_sph *h, int slot, uint32_t gen);
/* Hands the commands queued since the last commit to the thread. */
void sv_sph_commit(sv_sph *h);
/* The loop is about to wait on its own (sv_idle.c): the fd to add to its
 * poll, which the thread makes readable when it publishes an event, or -1
 * when events are waiting already (do not sleep). sv_sph_woke after the
 * wait, whichever it returned; rung: the poll found the fd readable (its
 * bytes are read then). */
int sv_sph_sleep_fd(sv_sph *h);
void sv_sph_woke(sv_sph *h, bool rung);

#endif
