/* sv_internal.h: the server's private state, shared by the sv_*.c files (not for embedders). */
#ifndef MR_SV_INTERNAL_H
#define MR_SV_INTERNAL_H

#include <enet/enet.h>
#include <stdatomic.h>

#include "match.h"
#include "sv.h"
#include "sv_addrs.h"
#include "sv_disc.h"
#include "sv_gen.h"
#include "sv_limit.h"
#include "sv_quick.h"
#include "sv_log.h"
#include "sv_loglimit.h"
#include "sv_rooms.h"
#include "sv_shake.h"
#include "wire.h"

enum sv_client_state {
    SV_CL_FREE,    /* no peer in this slot */
    SV_CL_HELLO,   /* connected, HELLO not yet received */
    SV_CL_ACTIVE,  /* welcomed */
    SV_CL_CLOSING, /* being disconnected: everything it sends is dropped */
};

/* One per ENet peer slot: the game host's first, same index as host->peers,
 * then the spectator host's (sv_link.c); peer->data points here
 * so a packet finds its client, and the client its room, with no search. */
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
    uint32_t bad;  /* bad or over-rate messages so far */
    bool welcomed; /* counted in sv->active */
    uint64_t connected_ms;
    uint64_t closing_ms; /* when it entered SV_CL_CLOSING */
    uint64_t sent_step;  /* sv->st.steps + 1 of the last step that queued a packet for it, 0 = none */
    int late_head;       /* its first and last held-back packet: index + 1 in sv->late, 0 = none */
    int late_tail;
    int late_n;            /* held-back packets */
    uint64_t late_due_ms;  /* when they go out at the latest: the first one's time, plus the hold if held */
    uint64_t late_step;    /* sv->st.steps + 1 of the step that held the first one */
    uint64_t last_move_ms; /* when its last MOVE came, valid once moved */
    uint32_t move_gap_ms;  /* time between its last two MOVEs; UINT32_MAX until it has made two */
    bool moved;
    uint32_t ip;         /* network order, for the per-address records */
    sv_budget gen;       /* generation CPU budget */
    sv_gen_job *gen_job; /* its CREATE_ROOM / QUICK_MATCH being generated, or NULL */
    bool quick_waiting;  /* seated in the quick-match room being generated when it opens */
    uint8_t queries;     /* its questions to the match store not yet answered (sv_query.c) */
    sv_room *watch;      /* the room it watches as a spectator (then room is NULL), or NULL */
    /* With quick_waiting: the job of that room (another client's gen_job). */
    sv_gen_job *quick_job;
    struct sv_client *spec_next, *spec_prev; /* the room's spectator list */
    int specq_head, specq_tail;              /* its queued items (sv_spec.c): index + 1, 0 = none */
    uint64_t spec_due_ms;                    /* when they go out */
} sv_client;

/* A message queued for a spectator (sv_spec.c), in a pool: each
 * spectator's queue is a list through next, and it goes out
 * cfg.spectator_batch_ms after the first of them was queued. The packet
 * is shared by the room's spectators. */
typedef struct sv_spec_item {
    int next; /* the same spectator's next item (or the next free one): index + 1, 0 = none */
    ENetPacket *p;
} sv_spec_item;
/* A spectator with queued items, in the order their batches are due. */
typedef struct sv_spec_due {
    int client;  /* index in sv->clients */
    uint32_t id; /* its id then: the slot may be reused */
} sv_spec_due;
#define SV_SPEC_TICK_MS 2 /* the batches due are sent together at most this often */
/* The same with a spectator port: the loop hands due batches to the
 * spectator thread at most this often, so that spectators do not wake the
 * players' loop every 2 ms (a batch is 250 ms by default anyway). */
#define SV_SPEC_TICK_SPH_MS 20

/* ENet drops anything larger itself, so that no peer can make it buffer
 * megabytes; up to this size we see the packet and can count it as
 * oversized. The same for both hosts. */
#define SV_ENET_PACKET_MAX (2 * WIRE_MSG_MAX)
#define SV_ENET_WAITING_MAX (1 << 20)
#define SV_SPARE_PEERS 8 /* peer slots beyond the limits, so that one over them hears why */

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

/* Server memory per client slot: its record and its share of the hold pool and ring. */
#define SV_CLIENT_BYTES                                                                                      \
    (sizeof(sv_client) + SV_HOLD_MAX * sizeof(sv_late) + SV_DUE_PER_CLIENT * sizeof(sv_due))

struct sv {
    sv_config cfg;
    sv_log log;
    ENetHost *host;
    sv_disc *disc;
    sv_client *clients; /* host->peerCount entries, then the spectator host's slots */
    int nclients;
    int ngame;          /* the game host's slots: clients[ngame..] are the spectator host's */
    struct sv_sph *sph; /* the spectator host (sv_link.c), or NULL: spectators on the game port */
    int active;         /* welcomed clients, at most cfg.max_clients */
    sv_rooms *rooms;
    /* Quick-match jobs admitted while the generation queue was full, oldest
     * first: submitted as it frees up (sv_game_poll_gen). */
    sv_gen_job *defer_head, *defer_tail;
    int defer_n;
    atomic_int stop, want_stats, want_drain;
    bool shutting, done;
    bool draining;              /* refusing new rooms and races (sv_request_drain) */
    uint64_t drain_deadline_ms; /* when the races still running are cut */
    uint64_t next_drain_check_ms;
    uint64_t shutdown_deadline_ms;
    /* SHUTDOWN's words (sv_set_shutdown_text); "" = the default. */
    char stop_text[WIRE_TEXT_MAX + 1];
    uint64_t now_ms;  /* the embedder's clock, as of the current step */
    bool clock_known; /* set by the first sv_service */
    uint64_t next_housekeeping_ms;
    uint32_t next_id;
    sv_bucket disc_bucket; /* discovery replies */
    uint64_t server_id;    /* in discovery details: one entry per server in a LAN list */
    int waiting_cache;     /* players waiting for an opponent, for discovery */
    uint64_t waiting_cache_ms;
    bool waiting_cache_valid;
    sv_stats st;
    char bind_text[64];
    uint8_t *out;  /* WIRE_MSG_MAX bytes: encoding scratch */
    char *idbuf;   /* WIRE_GAME_ID_MAX + 1 bytes: a game ID as a C string */
    wire_msg *in;  /* decoding scratch */
    wire_msg *msg; /* encoding scratch */
    sv_late *late; /* held-back packets: SV_HOLD_MAX per client */
    int late_free; /* first free entry: index + 1, 0 = none */
    sv_due *due;   /* ring of SV_DUE_PER_CLIENT per client */
    int due_head, due_n, cap_due;
    int step_max_slot; /* highest peer slot sent to in this step, -1 = none */
    sv_gen *gen;
    sv_addrs *addrs;
    sv_client *acting;       /* the client whose message is being handled, or NULL */
    struct sv_quick *quickq; /* players waiting alone for a quick-match opponent (sv_quick.h) */
    size_t puzzle_bytes;     /* estimated: rooms and jobs in flight */
    int shake_max;           /* half-open peers allowed at once (sv_shake.c) */
    uint64_t *shake_since;   /* per peer slot: when it was first seen in ENet's handshake, 0 = not */
    sv_raw_fn raw_fn;        /* the embedder's tap on datagrams that are not ENet's (sv_set_raw_tap) */
    void *raw_ctx;
    uint64_t next_shake_ms;
    sv_loglimit lim_socket;          /* log lines of socket errors */
    sv_loglimit lim_refused;         /* refused JOIN / RESUME lines */
    struct st_writer *store;         /* match records (sv_record.c), or NULL */
    uint64_t store_failed_seen;      /* store failures already logged */
    uint64_t store_spooled_seen;     /* records spooled already logged */
    bool store_spool_logged;         /* "kept in the spool" said; "sent" not yet */
    struct sv_replay_cache *replays; /* sv_query.c: replay texts being fetched, or NULL */
    sv_loglimit lim_records;         /* lines about lost records */
    /* Spectators (sv_spec.c). */
    int spectators;      /* watching now, every room */
    sv_spec_item *specq; /* the pool of messages queued for spectators */
    int specq_n, specq_cap, specq_free;
    sv_spec_due *specdue; /* spectators with queued items, oldest batch first: a ring */
    int specdue_head, specdue_n, specdue_cap;
    uint64_t spec_tick_ms; /* the next batches go out at this tick at the earliest */
    wire_room_list *races; /* the LIST_ROOMS answer, rebuilt at most once a second */
    uint64_t races_ms;
    bool races_valid;
    uint16_t spec_public_port; /* advertised in WATCH_AT; 0 = the bound spectator port */
};

/* sv_game.c: protocol messages in, match events out. */
/* The JSON fields of a log line about client c (sv_log.h): its number,
 * address and name, with room and reason (NULL: none). */
#define SV_CLIENT_FIELDS(c, room_, reason_)                                                                  \
    (&(sv_log_fields){.client = (c)->id,                                                                     \
                      .addr = (c)->addr,                                                                     \
                      .player = (c)->name[0] ? (c)->name : NULL,                                             \
                      .room = (room_),                                                                       \
                      .reason = (reason_)})
void sv_game_receive(sv_t *sv, sv_client *c, const uint8_t *data, size_t len);
/* Takes the finished generation jobs: opens their rooms, starts the games
 * that waited for a puzzle. Once per step. */
void sv_game_poll_gen(sv_t *sv);
void sv_game_disconnected(sv_t *sv, sv_client *c);
/* Drains the room's match events into messages, refreshes its timer and
 * frees the room when nobody is left in it. */
void sv_game_flush_room(sv_t *sv, sv_room *room);
/* Matches in countdown or racing; with tell, their players get ERROR
 * DRAINING (the drain deadline cuts their race). */
int sv_game_running(sv_t *sv, bool tell);
/* Ends every match (aborted) and tells its players. */
void sv_game_abort_all(sv_t *sv);
/* Server bytes per running match beyond the puzzle and its two states:
 * room slot, code-table and heap share, the match's own allocations (mean
 * over rooms in use) and the two players' client records with their share
 * of the hold pool (SV_CLIENT_BYTES). */
size_t sv_room_memory(const sv_t *sv);

/* sv_record.c: match records for the store (docs/server.md, "Database"). */
/* At a countdown: keeps the names and the wall-clock start of the race. */
void sv_record_countdown(sv_t *sv, sv_room *room);
/* At the end of a game: hands its record to the store's thread. */
void sv_record_finished(sv_t *sv, sv_room *room);
/* Logs what the store's thread could not store (record_failed,
 * record_spooled, record_spool_sent); from the housekeeping tick. */
void sv_record_poll(sv_t *sv);

/* sv_query.c: clients' questions about stored matches (docs/protocol.md, "Match records"). */
#define SV_QUERIES_PER_CLIENT 4 /* in flight; one more is answered BUSY */
/* REPLAY_REQUEST, RECENT_REQUEST, BEST_REQUEST from a welcomed client. */
void sv_query_receive(sv_t *sv, sv_client *c, const wire_msg *in);
/* Sends the answers the store's thread has finished. Once per step. */
void sv_query_poll(sv_t *sv);
void sv_query_free(sv_t *sv);
/* Fills m with the ROOM_STATE of room as slot (0, 1 or WIRE_SLOT_WATCHER) sees it. */
void sv_game_fill_room_state(sv_t *sv, sv_room *room, int slot, wire_msg *m);
/* ROOM_STATE to both players and every spectator. */
void sv_game_room_state_all(sv_t *sv, sv_room *room);
/* Fills m with the MATCH_END of res. */
void sv_game_fill_match_end(wire_msg *m, const match_result *res);
/* The move logs of both slots, first_slot's first, as MOVE_LOG messages
 * to c through send (sv_send, or sv_spec_send for a spectator). */
void sv_game_move_logs(sv_t *sv, sv_room *room, int first_slot, sv_client *c,
                       void (*send)(sv_t *, sv_client *, const wire_msg *));

/* sv_spec.c: spectators (docs/protocol.md, "Spectators"). Every send to a
 * spectator is deferred to the end of the step (sv_spec_flush), after the
 * players' packets have been handed to the socket. */
/* When a spectator limit is reached: c gets ERROR WATCH_FULL (counted, logged), true. */
bool sv_spec_refuse_full(sv_t *sv, sv_client *c, const sv_room *room);
/* Makes c (in no room) a spectator of room, or tells it why not. */
void sv_spec_watch(sv_t *sv, sv_client *c, sv_room *room);
/* A message from a spectator: true when handled here (c->watch set). */
bool sv_spec_receive(sv_t *sv, sv_client *c, const wire_msg *in);
/* LIST_ROOMS. */
void sv_spec_list(sv_t *sv, sv_client *c);
/* Stops c watching (leave, disconnect); the room's count changes. */
void sv_spec_leave(sv_t *sv, sv_client *c);
/* m to every spectator of room (nothing is encoded when there are none). */
void sv_spec_send_room(sv_t *sv, sv_room *room, const wire_msg *m);
/* m to one spectator, deferred like the rest. */
void sv_spec_send(sv_t *sv, sv_client *c, const wire_msg *m);
/* WATCH_START of the room's current game to every spectator. */
void sv_spec_match_start(sv_t *sv, sv_room *room);
/* The room is closing: its spectators get WATCH_END and watch nothing. */
void sv_spec_room_closed(sv_t *sv, sv_room *room);
/* End of a step: the spectators whose batch is due (all with now) get
 * it, after a flush of what the players were sent; at most once per
 * SV_SPEC_TICK_MS unless now. */
void sv_spec_flush(sv_t *sv, bool now);
/* When sv_spec_flush has batches to send next (UINT64_MAX: none queued). */
uint64_t sv_spec_next_due(const sv_t *sv);
/* c is gone: its queued items are dropped. */
void sv_spec_discard(sv_t *sv, sv_client *c);
/* Frees the queue (and drops what is in it). */
void sv_spec_free(sv_t *sv);
/* Rooms in countdown or racing (cached up to a second), for discovery. */
int sv_spec_races(sv_t *sv);

/* sv_shake.c: the pre-handshake filter (docs/reliability.md, section 4). */
void sv_shake_attach(sv_t *sv);
void sv_shake_detach(sv_t *sv);
/* Resets the peers stuck in ENet's handshake; every few hundred ms. */
void sv_shake_expire(sv_t *sv);
/* sv_server.c: a peer sv_cookie.c made connected (what ENET_EVENT_TYPE_CONNECT does). */
void sv_peer_connected(sv_t *sv, ENetPeer *peer);

/* sv_link.c: how the game loop reaches a client, on the game host (an
 * ENet peer) or on the spectator host (sv_spechost.c, through its queues). */
static inline bool sv_link_up(const sv_client *c)
{
    return c->peer || c->sph_gen;
}
/* Binds the spectator port as cfg.spectator_port says; false (with *err)
 * only when an explicit port cannot be bound. Sets sv->sph. */
bool sv_link_open(sv_t *sv, const char **err);
/* Hands the spectator host's events (connects, messages, disconnects) to the
 * clients of its range. Once per step. */
int sv_link_poll(sv_t *sv);
/* Bytes to a client of the spectator host. */
void sv_link_send(sv_t *sv, sv_client *c, const void *data, size_t len);
/* Disconnect once its queued messages are out. */
void sv_link_close_later(sv_t *sv, sv_client *c);
/* One unreliable disconnect now; the link is gone (no event follows). */
void sv_link_drop_now(sv_t *sv, sv_client *c);
/* c said HELLO (the spectator host's half-open count). */
void sv_link_welcomed(sv_t *sv, sv_client *c);
/* End of a step: the spectator host's commands go to its thread. */
void sv_link_commit(sv_t *sv);
void sv_link_close(sv_t *sv);

/* sv_server.c: sending and peer management. */
/* A connection opened in slot c (free), from host:port (network order host). */
void sv_client_open(sv_t *sv, sv_client *c, uint32_t host, uint16_t port);
/* c's connection is gone. */
void sv_client_gone(sv_t *sv, sv_client *c);
/* A message from c. */
void sv_client_data(sv_t *sv, sv_client *c, const uint8_t *data, size_t len);
void sv_send(sv_t *sv, sv_client *c, const wire_msg *m);
/* Like sv_send, but the packet is held back (for the opponent's PROGRESS).
 * For a client that is moving fast (holds_for in sv_server.c) it leaves with the next
 * packet sv_send queues for that client, or after cfg.progress_hold_ms at
 * the end of a step, whichever comes first; for any other, at the end of
 * this step. Either way, in the step that held it, only after everything
 * sv_send queued has been flushed (the mover's ACK goes first). A client's
 * packets still arrive in the order they were queued. */
void sv_send_late(sv_t *sv, sv_client *c, const wire_msg *m);
void sv_send_error(sv_t *sv, sv_client *c, int type, int code, const char *text);
/* Notes the time of a MOVE from c (for the progress hold). */
void sv_note_move(sv_t *sv, sv_client *c);
/* Counts a bad message (code WIRE_ERR_RATE: an over-rate one), logs it,
 * answers the first one with an ERROR and disconnects the peer at max_bad. */
void sv_bad_message(sv_t *sv, sv_client *c, int code, const char *why);
/* Sends nothing more, disconnects once queued messages are out. */
void sv_close_client(sv_t *sv, sv_client *c, const char *why);

#endif
