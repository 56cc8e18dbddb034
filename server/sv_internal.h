/* sv_internal.h: the server's state (struct sv, sv_client), made of its subsystems' parts. */
#ifndef MR_SV_INTERNAL_H
#define MR_SV_INTERNAL_H

#include <enet/enet.h>
#include <stdatomic.h>

#include "match.h"
#include "sv.h"
#include "sv_addrs.h"
#include "sv_drain_types.h"
#include "sv_genq_types.h"
#include "sv_hold_types.h"
#include "sv_lan_types.h"
#include "sv_limit_types.h"
#include "sv_log.h"
#include "sv_loglimit_types.h"
#include "sv_query_types.h"
#include "sv_quickmatch_types.h"
#include "sv_record_types.h"
#include "sv_rooms.h"
#include "sv_shake_types.h"
#include "sv_spec_types.h"
#include "wire.h"

/* Not for embedders: sv.h is their API. Each subsystem keeps its part of
 * the server in a sub-struct declared in its data header sv_NAME_types.h
 * (sv->hold in sv_hold_types.h, c->spec in sv_spec_types.h, ...), which
 * holds types only: this centre includes those, never a subsystem's
 * function header, so that a subsystem including it makes no loop
 * (tools/check-includes.py). A file includes the headers of the
 * subsystems it calls, not only this one. */

enum sv_client_state {
    SV_CL_FREE,    /* no peer in this slot */
    SV_CL_HELLO,   /* connected, HELLO not yet received */
    SV_CL_ACTIVE,  /* welcomed */
    SV_CL_CLOSING, /* being disconnected: everything it sends is dropped */
};

/* One per ENet peer slot: the game hosts' first (host h's peer i at
 * sv->host_base[h] + i; the peer's own peer->host says which host it lives
 * on, sv_hosts.h), then the spectator host's (sv_link.c); peer->data points
 * here so a packet finds its client, and the client its room, with no
 * search, whatever host it came in on. */
typedef struct sv_client {
    ENetPeer *peer;   /* on the game host, or NULL */
    uint32_t sph_gen; /* on the spectator host (sv_link.c): its connection's generation, or 0 */
    int state;        /* enum sv_client_state */
    uint32_t id;
    char name[WIRE_NAME_MAX + 1];
    char addr[24]; /* "a.b.c.d:port", for log lines */
    sv_room *room;
    int slot;
    sv_bucket bucket;
    uint32_t bad;   /* bad or over-rate messages so far */
    bool welcomed;  /* counted in sv->active */
    bool ip_player; /* counted in its address's players (sv_addrs.h) */
    uint64_t connected_ms;
    uint64_t closing_ms;        /* when it entered SV_CL_CLOSING */
    uint64_t sent_step;         /* sv->st.steps + 1 of the last step that queued a packet for it, 0 = none */
    uint32_t ip;                /* network order, for the per-address records */
    sv_hold_client hold;        /* sv_hold.h: its held-back PROGRESS, its pace */
    sv_genq_client gen;         /* sv_genq.h: generation budget, its room being made */
    sv_quickmatch_client quick; /* sv_quickmatch.h */
    sv_query_client query;      /* sv_query.h */
    sv_spec_client spec;        /* sv_spec.h: as a spectator */
} sv_client;

/* The JSON fields of a log line about client c (sv_log.h): its number,
 * address and name, with room and reason (NULL: none). */
#define SV_CLIENT_FIELDS(c, room_, reason_)                                                                  \
    (&(sv_log_fields){.client = (c)->id,                                                                     \
                      .addr = (c)->addr,                                                                     \
                      .player = (c)->name[0] ? (c)->name : NULL,                                             \
                      .room = (room_),                                                                       \
                      .reason = (reason_)})

/* ENet drops anything larger itself, so that no peer can make it buffer
 * megabytes; up to this size we see the packet and can count it as
 * oversized. The same for both hosts. */
#define SV_ENET_PACKET_MAX (2 * WIRE_MSG_MAX)
#define SV_ENET_WAITING_MAX (1 << 20)
/* With several game hosts, each is serviced at least this often (sv_server.c). */
#define SV_HOST_SWEEP_MS 10
#define SV_SPARE_PEERS 8 /* peer slots beyond the limits, so that one over them hears why */

/* Server memory per client slot: its record and its share of the hold pool and ring. */
#define SV_CLIENT_BYTES                                                                                      \
    (sizeof(sv_client) + SV_HOLD_MAX * sizeof(sv_late) + SV_DUE_PER_CLIENT * sizeof(sv_due))

struct sv {
    sv_config cfg;
    sv_log log;
    ENetHost *host;   /* the first game host, hosts[0] */
    ENetHost **hosts; /* the game port's hosts (sv_hosts.c), nhosts of them */
    int nhosts;
    int *host_base; /* host h's peers are clients[host_base[h]..] */
    /* Several hosts (sv_hosts.c): the hosts with packets queued since
     * their last walk (bit h), and when each was last serviced. */
    uint32_t hosts_dirty;
    uint64_t host_walked_ms[SV_MAX_HOSTS];
    uint64_t host_walks[SV_MAX_HOSTS]; /* services and flushes the loop made of each host (tests) */
    sv_client *clients; /* every game host's peerCount entries, then the spectator host's slots */
    int nclients;
    int ngame;          /* the game hosts' slots: clients[ngame..] are the spectator host's */
    struct sv_sph *sph; /* the spectator host (sv_link.c), or NULL: spectators on the game port */
    int active;         /* welcomed clients, at most cfg.max_clients */
    sv_rooms *rooms;
    atomic_int stop, want_stats;
    bool shutting, done;
    uint64_t shutdown_deadline_ms;
    /* SHUTDOWN's words (sv_set_shutdown_text); "" = the default. */
    char stop_text[WIRE_TEXT_MAX + 1];
    uint64_t now_ms;  /* the embedder's clock, as of the current step */
    bool clock_known; /* set by the first sv_service */
    uint64_t next_housekeeping_ms;
    /* Events the last step handled, plus (with several hosts) the
     * datagrams its hosts read (an acknowledgement is traffic without an
     * event): sv_idle.c. */
    int last_handled;
    uint64_t dgrams_seen; /* the game hosts' datagrams received, as of the last step */
    uint64_t waited_us;   /* how long the step (the last one, between steps) waited for traffic */
    uint32_t next_id;
    sv_stats st;
    char bind_text[64];
    uint8_t *out;      /* WIRE_MSG_MAX bytes: encoding scratch */
    char *idbuf;       /* WIRE_GAME_ID_MAX + 1 bytes: a game ID as a C string */
    wire_msg *in;      /* decoding scratch */
    wire_msg *msg;     /* encoding scratch */
    int step_max_slot; /* highest peer slot sent to in this step, -1 = none (sv_send.c) */
    sv_addrs *addrs;
    sv_client *acting;       /* the client whose message is being handled, or NULL */
    sv_loglimit lim_socket;  /* log lines of socket errors */
    sv_loglimit lim_refused; /* refused JOIN / RESUME lines */
    struct st_writer *store; /* match records (sv_record.c) and questions (sv_query.c), or NULL */
    sv_hold hold;            /* sv_hold.h: the progress hold */
    sv_genq genq;            /* sv_genq.h: puzzle generation requests */
    sv_quickmatch quick;     /* sv_quickmatch.h: quick match */
    sv_shake_state shake;    /* sv_shake.h: the pre-handshake filter */
    sv_drain drain;          /* sv_drain.h: draining */
    sv_records rec;          /* sv_record.h: match records */
    sv_queries query;        /* sv_query.h: record questions */
    sv_spec_state spec;      /* sv_spec.h: spectators */
    sv_lan lan;              /* sv_lan.h: LAN discovery's answers */
    sv_raw_fn raw_fn;        /* the embedder's tap on datagrams that are not ENet's (sv_set_raw_tap) */
    void *raw_ctx;
};

#endif
