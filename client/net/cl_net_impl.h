/* cl_net_impl.h: the structures shared by the cl_net_*.c files (the implementation of cl_net.h,
 * which they and this header include; cl_net.h includes neither); not for users of cl_net.h. */
#ifndef MR_CL_NET_IMPL_H
#define MR_CL_NET_IMPL_H

#include <enet/enet.h>

#include "cl_net.h"

struct cl_hub {
    ENetHost *host;
    int conns;       /* connections created in this hub */
    bool private;    /* made by cl_net_create for one connection */
    bool dirty;      /* packets queued since the last flush: a flush walks every peer, so skip it when idle */
    uint64_t now_ms; /* the time handed to the current service call */
    wire_msg *msg;   /* decoding scratch: a wire_msg is too big for every stack */
    cl_net_t **ready; /* connections with new events (cl_hub_ready), max_conns slots */
    int nready, max_conns;
};

/* Moves sent and not yet answered: a ring, oldest at head. */
typedef struct cl_pending {
    uint32_t seq;
    pz_move move;
} cl_pending;

struct cl_net {
    cl_hub_t *hub;
    ENetPeer *peer; /* NULL when not connected */
    void *user;
    bool in_ready; /* listed in hub->ready */
    int phase;     /* enum cl_net_phase */
    char name[WIRE_NAME_MAX + 1];
    char host[256];
    int port;
    uint32_t player_id;

    cl_net_event *evq; /* ring of events for cl_net_poll */
    size_t ev_head, ev_len, ev_cap;

    bool in_room;
    wire_room_state room;
    char left_code[WIRE_ROOM_CODE_LEN + 1]; /* the room we last left ("" if none) */
    int slot;                               /* own seat, -1 when none (or watching) */
    bool watching;                          /* a spectator of room */
    wire_room_list *rooms;                  /* the last ROOM_LIST, or NULL */

    pz_puzzle *pz;
    char *game_id;
    uint64_t desc_hash;
    pz_state *own, *opp;
    uint32_t own_applied, opp_applied; /* moves applied to own / opp */
    int own_seat; /* the seat whose board own is (a watcher's: 0), fixed at MATCH_START so that
                     it outlives a leave or WATCH_END for events still queued */
    match_token_t token;
    bool live;     /* a countdown or race is on: a drop is worth resuming */
    int game_no;   /* of the last MATCH_START */
    bool end_seen; /* MATCH_END of game_no was reported */
    /* ... and what it said (cl_net_match_end). */
    wire_match_end end;

    cl_pending *pend;
    size_t pend_head, pend_len, pend_cap;
    uint32_t next_seq;

    uint64_t connect_deadline; /* CONNECTING: give up at this time */

    /* Match records (cl_net_records.c). */
    uint32_t next_req;
    void *ev_owned;     /* data of the event cl_net_poll returned last */
    uint32_t fetch_req; /* the replay being fetched, 0 = none */
    uint64_t fetch_id;
    char *fetch_buf; /* fetch_total + 1 bytes once the first chunk came */
    size_t fetch_len, fetch_total;

    /* Resume after a drop. */
    uint32_t resume_window_ms;
    uint64_t resume_deadline;
    uint64_t retry_at; /* next reconnect attempt, 0 = none planned */
    bool resume_sent;  /* RESUME went out on this connection */
    bool closing;      /* we asked to close: a disconnect is expected */
    /* A server silent this long is taken for gone (0: ENet decides). */
    uint32_t silence_limit_ms;
    /* A LEAVE_ROOM went out: cl_net_destroy lets it reach the server first. */
    bool leaving;

    /* Watching through the server's spectator port (cl_net_follow.c). */
    char watch_code[WIRE_ROOM_CODE_LEN + 1]; /* a WATCH went out for this room, no answer yet ("" none) */
    int game_port;                           /* the port cl_net_connect was given */
    int hops;                                /* WATCH_AT followed (at most one) */
    bool following; /* connecting to the spectator port: WELCOME there sends WATCH, not CONNECTED */

    /* JOIN_ROOM of a code not open yet, asked again (cl_net_join_room). */
    char join_code[WIRE_ROOM_CODE_LEN + 1]; /* the code asked for ("" none) */
    uint64_t join_until, join_retry_at;     /* retry until; the next try (0 none) */
    uint32_t join_delay_ms;                 /* the wait before the next try */
};

/* ENet is initialised once per process, on the first hub or discovery
 * socket; false if it cannot be. */
bool cl_enet_init(void);

/* cl_net_hub.c: the ready list (connections are never listed twice). */
void cl_hub_mark_ready(cl_hub_t *h, cl_net_t *n);
void cl_hub_forget(cl_hub_t *h, cl_net_t *n);

/* cl_net_conn.c */
void cl_net_push(cl_net_t *n, const cl_net_event *ev);
/* An event of type with text (may be NULL) formatted printf-style. */
void cl_net_push_text(cl_net_t *n, int type, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool cl_net_send_msg(cl_net_t *n, const wire_msg *m);

/* cl_net_req.c: starts an ENet connection to n->host:n->port; NULL or a
 * static message. */
const char *cl_net_start_connect(cl_net_t *n);

/* cl_net_records.c: REPLAY_CHUNK, RECENT_LIST, BEST_LIST from the server;
 * cl_net_records_free frees a fetch in progress. */
void cl_net_on_records(cl_net_t *n, const wire_msg *m);
void cl_net_records_free(cl_net_t *n);
/* The connection dropped: a fetch in progress ends (CL_EV_REPLAY, INTERNAL). */
void cl_net_records_disconnected(cl_net_t *n);

/* cl_net_follow.c: WATCH_AT (follow it, or say why not); a connection
 * attempt to the spectator port that failed (why: "no answer ...");
 * WELCOME, ROOM_STATE and ERROR while a watcher comes back after a drop
 * (true when handled there). */
void cl_net_on_watch_at(cl_net_t *n, const wire_msg *m);
void cl_net_follow_failed(cl_net_t *n, const char *why);
bool cl_net_watch_welcome(cl_net_t *n);
void cl_net_watch_room_state(cl_net_t *n);
bool cl_net_watch_error(cl_net_t *n, const wire_msg *m);
/* cl_net_conn.c: closes the connection for good with DISCONNECTED (why). */
void cl_net_give_up(cl_net_t *n, const char *why);

/* cl_net_recv.c: what the hub hands to a connection. */
void cl_net_on_connect(cl_net_t *n);
void cl_net_on_receive(cl_net_t *n, const uint8_t *data, size_t len);
/* A packet from the server: one message, or a BUNDLE (docs/protocol.md)
 * whose messages go to cl_net_on_receive one by one, in order, as if each
 * had come on its own. A bad BUNDLE is reported as one bad message and
 * none of it is acted on; the rest of a bundle is dropped if one of its
 * messages took n off that peer (a drop, a give-up, a WATCH_AT followed). */
void cl_net_on_packet(cl_net_t *n, const uint8_t *data, size_t len);
void cl_net_on_disconnect(cl_net_t *n, uint64_t now_ms);
/* Clears the match: puzzle, states, pending moves. */
void cl_net_clear_match(cl_net_t *n);

#endif
