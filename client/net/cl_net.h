/* cl_net.h: client side of the protocol over ENet (rooms, moves, events, resume), LAN discovery; no SDL. */
#ifndef MR_CL_NET_H
#define MR_CL_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puzzle.h"
#include "wire.h"

/* How to use it: create a connection, connect, then call cl_net_poll once
 * per frame (or loop until it returns false) and react to the events. No
 * call blocks. Time is handed in as now_ms (any monotonic millisecond clock,
 * the same one for every call on a connection); cl_net never reads the
 * clock itself.
 *
 * Requests (create/join/quick match/ready/move/rematch/leave) are queued and
 * go out at the next poll or cl_net_flush. Their answers come back as events.
 *
 * The connection keeps what the client needs to show a race: the puzzle
 * (built from the game ID in MATCH_START and checked against the server's
 * hash), the player's own state as the server confirmed it (every ACKed
 * move applied), the opponent's state (every PROGRESS move applied), and
 * the moves sent but not yet answered. A client that predicts its own moves
 * rolls back to cl_net_state plus cl_net_pending after a REJECT.
 *
 * If the connection drops during a countdown or race, or after a game while
 * the server still holds the seat (rematch, series), cl_net reconnects by
 * itself and resumes the seat with the token from MATCH_START: events
 * DISCONNECTED with resuming = true, then RESUMED once both boards are
 * rebuilt from the server's move logs (read them again: cl_net_state,
 * cl_net_opponent_state; moves that were pending are gone), or DISCONNECTED
 * with resuming = false when it gives up after the resume window. The
 * current game's MATCH_START and MATCH_END are not reported again; a
 * MATCH_END that happened while away is.
 *
 * Watching (spectators, docs/protocol.md): cl_net_watch instead of a
 * join. The events are the same, with slot -1 (ROOM_JOINED, LOBBY,
 * MATCH_START) and a PROGRESS for each move of either player; the two
 * boards are cl_net_board(n, 0) and (n, 1), rebuilt from the server's move
 * logs when watching starts mid-race (CAUGHT_UP then). cl_net_leave stops watching;
 * WATCH_END says the room closed.
 *
 * A server with a spectator port answers WATCH with WATCH_AT: cl_net then
 * leaves the game port, connects to that port at the same host, says HELLO
 * and WATCHes the room there, without a second CONNECTED (the events that
 * follow are as above). A spectator port that does not answer within 5 s
 * gives ERROR then DISCONNECTED, both saying "cannot reach the server's
 * spectator port N (UDP): ...". A WATCH_AT that answers no WATCH of ours
 * is ignored; one naming another room, or a second one (a loop), is not
 * followed: ERROR says so. After a drop, a watcher reconnects to the port
 * it watched on and watches again, as a player resumes (DISCONNECTED with
 * resuming, then RESUMED; WATCH_END if the room closed meanwhile).
 *
 * Many connections may share one ENet host (one UDP socket), which is how
 * mazerace-bot runs a thousand players in one process: make a hub, create
 * the connections in it, and call cl_hub_service once per loop. */

typedef struct cl_net cl_net_t;
typedef struct cl_hub cl_hub_t;

enum cl_net_ev_type {
    CL_EV_NONE = 0,
    CL_EV_CONNECTED,     /* handshake accepted: player_id, text = server name */
    CL_EV_REFUSED,       /* handshake refused: code (enum wire_error), text; closed */
    CL_EV_ROOM_JOINED,   /* now in room room.code as slot (room filled in) */
    CL_EV_LOBBY,         /* room state changed (names, ready flags, phase, score): room */
    CL_EV_MATCH_START,   /* puzzle ready (cl_net_puzzle): slot, game_no, start_ms, text = game ID */
    CL_EV_ACK,           /* own move seq accepted: seq, moves, solved */
    CL_EV_REJECT,        /* own move seq refused: seq, code (enum match_reject), text */
    CL_EV_PROGRESS,      /* opponent moved: progress (their state: cl_net_opponent_state) */
    CL_EV_MATCH_END,     /* result: end; room as it was then (names) */
    CL_EV_REMATCH_OFFER, /* slot asked for a rematch */
    CL_EV_DISCONNECTED,  /* connection lost: resuming says whether cl_net is trying to resume */
    CL_EV_RESUMED,       /* back in the race; states rebuilt from the server's move log */
    CL_EV_SHUTDOWN,      /* the server is going down: text */
    CL_EV_ERROR,         /* code (enum wire_error, or 0 for a local problem), text */
    CL_EV_ROOM_LIST,     /* the answer to cl_net_list_rooms: read cl_net_room_list */
    CL_EV_WATCH_END,     /* no longer watching (the room closed): text */
    CL_EV_CAUGHT_UP,     /* watching a started game: both boards rebuilt from the move logs */
    CL_EV_REPLAY,        /* cl_net_fetch_replay answered: req, match_id, code; replay (text) when code 0 */
    CL_EV_RECENT,        /* cl_net_request_recent answered: req, code; recent when code 0 */
    CL_EV_BEST,          /* cl_net_request_best answered: req, code; best when code 0 */
};

typedef struct cl_net_event {
    int type;               /* enum cl_net_ev_type */
    int code;               /* REFUSED, ERROR: enum wire_error; REJECT: enum match_reject */
    int slot;               /* ROOM_JOINED, MATCH_START: yours (-1 when watching); REMATCH_OFFER: who asked;
                               PROGRESS: whose move */
    uint32_t seq;           /* ACK, REJECT */
    uint32_t moves;         /* ACK: your accepted moves so far */
    bool solved;            /* ACK: that move solved the puzzle */
    bool resuming;          /* DISCONNECTED */
    uint32_t player_id;     /* CONNECTED */
    int game_no;            /* MATCH_START */
    uint64_t start_ms;      /* MATCH_START: race start on the caller's clock */
    wire_room_state room;   /* ROOM_JOINED, LOBBY, MATCH_END */
    wire_progress progress; /* PROGRESS */
    wire_match_end end;     /* MATCH_END */
    char text[WIRE_TEXT_MAX + 1];
    /* REPLAY, RECENT, BEST: the request's number and the server's status
     * (code: 0, or WIRE_ERR_BUSY, NO_RECORDS, NO_MATCH, INTERNAL). The data
     * belongs to the connection and stays valid until the next cl_net_poll
     * on it (or cl_net_destroy); copy what you keep. */
    uint32_t req;
    uint64_t match_id;              /* REPLAY */
    const char *replay;             /* REPLAY: the replay text (docs/replay.md), NUL-terminated */
    size_t replay_len;              /* its bytes */
    const wire_recent_list *recent; /* RECENT */
    const wire_best_list *best;     /* BEST */
    void *owned;                    /* cl_net's: what replay/recent/best point into */
} cl_net_event;

/* Connection phase, for menus. */
enum cl_net_phase {
    CL_NET_IDLE,       /* not connected */
    CL_NET_CONNECTING, /* ENet connect or handshake under way */
    CL_NET_ONLINE,     /* handshake done, not in a room */
    CL_NET_IN_ROOM,    /* in a room (see cl_net_room for the match phase) */
    CL_NET_RESUMING,   /* dropped during a race, reconnecting */
    CL_NET_CLOSED,     /* refused, failed or shut down; create a new one */
};

/* ---- hubs: one ENet host shared by connections ---- */

/* A hub for up to max_conns connections. sockbuf_kib > 0 sets the socket
 * send and receive buffers (the kernel caps it at net.core.[rw]mem_max);
 * 0 keeps ENet's default. NULL with *err (static) on failure. */
cl_hub_t *cl_hub_create(int max_conns, int sockbuf_kib, const char **err);
/* The same with the number of ENet peers given (max_conns..4095):
 * cl_hub_create takes two per connection, so that a spectator following
 * WATCH_AT connects before its old peer has said goodbye. Every peer slot
 * costs the host a look on each service and flush, so a hub whose
 * connections never follow (players) can take one each; a follow that
 * finds no free peer lets the old one go at once instead. */
cl_hub_t *cl_hub_create_peers(int max_conns, int peers, int sockbuf_kib, const char **err);
/* Destroys the hub; its connections must be destroyed first (asserted).
 * Accepts NULL. */
void cl_hub_destroy(cl_hub_t *h);
/* Sends what is queued and handles what arrived, waiting up to timeout_ms
 * (0: not at all) for the first packet. Events go to each connection's
 * queue (read with cl_net_poll). Handles at most a bounded number of
 * packets per call. Returns how many ENet events it handled (0 for none
 * or a NULL hub). */
int cl_hub_service(cl_hub_t *h, uint64_t now_ms, int timeout_ms);
/* Sends what is queued now. */
void cl_hub_flush(cl_hub_t *h);
/* True when packets were queued since the hub's last service or flush. */
bool cl_hub_queued(const cl_hub_t *h);
/* Next connection of the hub that got events since it was last returned
 * here (each once), or NULL: a loop over a thousand connections then polls
 * only those with something to say. */
cl_net_t *cl_hub_ready(cl_hub_t *h);
/* The hub's ENet peers not fully disconnected (connected, or connecting
 * or saying goodbye). */
int cl_hub_peers(const cl_hub_t *h);
/* The hub's local UDP port (for kernel drop counters), or 0. */
int cl_hub_port(const cl_hub_t *h);
/* The hub's ENet host, whose socket the NAT paths (cl_stun.h, cl_turn.h)
 * send from; the hub keeps it. */
struct _ENetHost *cl_hub_enet_host(cl_hub_t *h);

/* ---- connections ---- */

/* A connection with its own hub (name: 1..WIRE_NAME_MAX bytes of UTF-8, no
 * control characters). NULL with *err (static) on failure. */
cl_net_t *cl_net_create(const char *name, const char **err);
/* A connection in hub h (which must outlive it). */
cl_net_t *cl_net_create_in(cl_hub_t *h, const char *name, const char **err);
/* Drops the connection (the server sees a disconnect: during a race that
 * is a drop with a grace period, not a leave) and frees everything. After
 * cl_net_leave, a connection with its own hub first waits (up to 300 ms)
 * for the server to acknowledge the leave, so that it counts as one.
 * Accepts NULL. */
void cl_net_destroy(cl_net_t *n);

/* Starts connecting to host:port (a name or an address). NULL if under way
 * (CONNECTED or REFUSED/ERROR/DISCONNECTED follow), else a static message. */
const char *cl_net_connect(cl_net_t *n, const char *host, int port, uint64_t now_ms);
/* Parses "HOST:PORT" or "HOST" (default port WIRE_DEFAULT_PORT) into host
 * (cap bytes) and *port; NULL or a static message. The same as
 * joinlink_parse_addr (common/joinlink.h): an IPv4 address or a name. */
const char *cl_net_parse_addr(const char *text, char *host, size_t cap, int *port);

/* Requests; each returns NULL when queued, else a static message (not
 * connected, not in a room, ...). Answers arrive as events. */
const char *cl_net_create_room(cl_net_t *n, const pz_params *p, bool has_seed, uint64_t seed, int series_len);
const char *cl_net_create_room_id(cl_net_t *n, const char *game_id, int series_len);
/* Typed code, normalised. A code the server does not know yet ("no room
 * with code") is asked for again after CL_NET_JOIN_RETRY_MS, then twice as
 * long each time, for up to CL_NET_JOIN_WAIT_MS before the error event: a
 * room a matchmaker just reserved may open a moment after its join link
 * arrives. At most 5 tries in all: the server lets an address miss 5 codes
 * in a row before it makes it wait (docs/reliability.md). */
const char *cl_net_join_room(cl_net_t *n, const char *code);
#define CL_NET_JOIN_WAIT_MS 3000
#define CL_NET_JOIN_RETRY_MS 100
const char *cl_net_quick_match(cl_net_t *n);
const char *cl_net_ready(cl_net_t *n, bool ready);
const char *cl_net_rematch(cl_net_t *n);
const char *cl_net_leave(cl_net_t *n); /* during a race: forfeit; watching: stop */
/* Watches the room with this typed code as a spectator. */
const char *cl_net_watch(cl_net_t *n, const char *code);
/* Asks which rooms are racing (CL_EV_ROOM_LIST answers). */
const char *cl_net_list_rooms(cl_net_t *n);
/* Sends a move; returns its sequence number (>= 1), or 0 if no race is
 * joined or the connection is down (nothing sent). The move is remembered
 * until its ACK or REJECT. */
uint32_t cl_net_send_move(cl_net_t *n, pz_move mv);
/* Sends raw bytes as one message (tests: malformed input). NULL or a
 * static message. */
const char *cl_net_send_raw(cl_net_t *n, const void *data, size_t len);
/* Sends what is queued now (a connection with a shared hub flushes the hub). */
void cl_net_flush(cl_net_t *n);
/* A pointer of the caller's, kept with the connection (NULL at first). */
void cl_net_set_user(cl_net_t *n, void *user);
void *cl_net_user(const cl_net_t *n);

/* Next event: true and *ev filled, false when there is none. A connection
 * with its own hub services it first (without waiting). Also runs the
 * resume timers, so call it regularly. */
bool cl_net_poll(cl_net_t *n, uint64_t now_ms, cl_net_event *ev);

/* Handles len bytes as if the server had sent them as one packet (tests
 * of hostile input, replays): one message or a BUNDLE of them. Never
 * crashes on any bytes: a bad message (or bad BUNDLE) is an ERROR event. */
void cl_net_inject(cl_net_t *n, const void *data, size_t len, uint64_t now_ms);

/* Drops the connection as if the network failed (tests and "reconnect"
 * buttons): the server sees a disconnect. With resume, cl_net reconnects and
 * resumes as after a real drop. */
void cl_net_drop(cl_net_t *n, uint64_t now_ms, bool resume);
/* As cl_net_drop with resume, but nothing reaches the server (a pulled
 * cable): the server still holds the old connection when the new one asks
 * to resume, and the token decides. */
void cl_net_drop_silently(cl_net_t *n, uint64_t now_ms);
/* How long cl_net keeps trying to resume after a drop (default 30000 ms,
 * the server's default grace). */
void cl_net_set_resume_window(cl_net_t *n, uint32_t ms);
/* A server silent for ms (nothing acknowledged, not even ENet's pings,
 * which a live server answers every half second) is taken for gone: the
 * connection is dropped as by cl_net_drop_silently and, in a race, resumed
 * on a new one. 0 (the default) leaves it to ENet's own timeout (5 to 30 s
 * of unanswered resends). Checked by cl_net_poll. */
void cl_net_set_silence_limit(cl_net_t *n, uint32_t ms);

/* ---- queries ---- */
int cl_net_phase(const cl_net_t *n);       /* enum cl_net_phase */
uint32_t cl_net_rtt_ms(const cl_net_t *n); /* ENet's smoothed round trip, 0 if not connected */
/* How long the server has been silent, in ms, as of the last service:
 * the time since it last acknowledged anything (a live one answers ENet's
 * pings every half second). 0 when not connected or nothing came yet. */
uint32_t cl_net_silence_ms(const cl_net_t *n);
/* While resuming: ms left before cl_net gives up (at now_ms); else 0. */
uint32_t cl_net_resume_left_ms(const cl_net_t *n, uint64_t now_ms);
/* The last MATCH_END seen for the current game (NULL before one, or once
 * the next MATCH_START came). */
const wire_match_end *cl_net_match_end(const cl_net_t *n);
/* The last room state, or NULL when not in a room. */
const wire_room_state *cl_net_room(const cl_net_t *n);
int cl_net_slot(const cl_net_t *n); /* own slot, or -1 */
/* The current puzzle and game ID (NULL before the first MATCH_START). Valid
 * until the next MATCH_START event is returned, or destroy. */
const pz_puzzle *cl_net_puzzle(const cl_net_t *n);
const char *cl_net_game_id(const cl_net_t *n);
/* Own state with every ACKed move applied; opponent's with every PROGRESS
 * move applied (NULL before the first MATCH_START). */
const pz_state *cl_net_state(const cl_net_t *n);
const pz_state *cl_net_opponent_state(const cl_net_t *n);
/* Moves sent and not yet answered, oldest first: copies up to max of them
 * to out and returns how many there are in all. */
int cl_net_pending(const cl_net_t *n, pz_move *out, int max);
/* Own resume token for this match (all zero before MATCH_START). */
match_token_t cl_net_token(const cl_net_t *n);
/* Watching a room as a spectator. */
bool cl_net_watching(const cl_net_t *n);
/* The server port this connection uses (after a WATCH_AT: the spectator
 * port), 0 before cl_net_connect. */
int cl_net_port(const cl_net_t *n);
/* Seat slot's board (0 or 1) with every move the server reported applied:
 * for a player its own confirmed state or the opponent's, for a watcher
 * either player's; NULL before the first MATCH_START or for a bad slot. */
const pz_state *cl_net_board(const cl_net_t *n, int slot);
/* Moves applied to that board in this game. */
uint32_t cl_net_board_moves(const cl_net_t *n, int slot);
/* The last ROOM_LIST (NULL before one came); valid until the next
 * CL_EV_ROOM_LIST is returned, or destroy. */
const wire_room_list *cl_net_room_list(const cl_net_t *n);

/* ---- match records (docs/protocol.md, "Match records") ----
 * Questions about the matches the server has stored; any time after
 * CONNECTED, in a room or not. Each returns the request's number (never 0)
 * that its answer event carries, or 0 if it was not sent (not connected,
 * or a replay fetch is already running). */

/* Fetches the whole replay text of match_id, chunk by chunk (at most
 * WIRE_REPLAY_MAX bytes); one fetch at a time. Event CL_EV_REPLAY. */
uint32_t cl_net_fetch_replay(cl_net_t *n, uint64_t match_id);
/* The running fetch's bytes so far and its size (0 until the first chunk
 * came); false when no fetch runs. */
bool cl_net_fetch_progress(const cl_net_t *n, size_t *got, size_t *total);
/* The newest stored matches with an id below before_id (0: the newest),
 * limit 1..WIRE_RECENT_MAX (clamped). Event CL_EV_RECENT (next_before:
 * the next page). */
uint32_t cl_net_request_recent(cl_net_t *n, uint64_t before_id, int limit);
/* The fastest solved games on one puzzle: by game_id as played (a seeded
 * or description ID; at most WIRE_GAME_ID_MAX bytes), or, with game_id
 * NULL, by the description hash (MATCH_START's, e.g. the race just run).
 * limit 1..WIRE_BEST_MAX (clamped). Event CL_EV_BEST. */
uint32_t cl_net_request_best(cl_net_t *n, const char *game_id, uint64_t desc_hash, int limit);

/* ---- LAN discovery: plain UDP probes to the servers' discovery port ---- */

typedef struct cl_disc cl_disc_t;

typedef struct cl_server_info {
    char addr[64]; /* where the reply came from (an IPv4 address) */
    int game_port; /* connect here */
    int players_waiting, rooms, players, max_players;
    int races; /* rooms in a countdown or race: worth a "Watch" */
    char name[WIRE_NAME_MAX + 1];
    uint32_t rtt_ms; /* probe to reply */
    /* From the details datagram (MZRX) that follows a new server's reply:
     * when details is true only addr, game_port, rtt_ms and these are set. */
    bool details;
    uint64_t server_id; /* 0: not known (an older server) */
    bool host_game;     /* a player's own game */
    bool has_room;      /* room, params, series, host_name name its waiting room */
    char room[WIRE_ROOM_CODE_LEN + 1];
    pz_params params;
    int series;
    char host_name[WIRE_NAME_MAX + 1];
} cl_server_info;

/* The LAN list: what discovery heard, merged per address (a reply and its
 * details), shown once per server (the details' server id: a LAN address
 * is shown rather than 127.0.0.1), games waiting for a player first, then
 * by name and address. A plain value: zero it to start. */
enum { CL_LANLIST_MAX = 12 };
typedef struct cl_lanlist {
    cl_server_info found[CL_LANLIST_MAX];
    uint64_t seen[CL_LANLIST_MAX]; /* last heard, ms */
    bool have_reply[CL_LANLIST_MAX];
    int n;
} cl_lanlist;
/* Merges one datagram's info (cl_disc_poll); true when it is the first
 * reply from that address and port (a server newly found). A full list
 * drops newcomers. */
bool cl_lanlist_add(cl_lanlist *l, const cl_server_info *info, uint64_t now_ms);
/* Forgets addresses not heard from for more than max_age_ms. */
void cl_lanlist_expire(cl_lanlist *l, uint64_t now_ms, uint64_t max_age_ms);
/* The entries to show, as indexes into l->found, in order; returns how many. */
int cl_lanlist_view(const cl_lanlist *l, int out[CL_LANLIST_MAX]);

/* A discovery socket probing port .. port + WIRE_DISCOVERY_SPAN - 1
 * (WIRE_DISCOVERY_PORT on a real LAN). NULL with *err (static) on failure. */
cl_disc_t *cl_disc_create(int port, const char **err);
void cl_disc_destroy(cl_disc_t *d); /* accepts NULL */
/* Sends one probe to each port of the span at addr (e.g. "255.255.255.255" to ask the whole LAN,
 * "127.0.0.1" for this machine). NULL or a static message. */
const char *cl_disc_probe(cl_disc_t *d, const char *addr, uint64_t now_ms);
/* Next valid reply to one of our probes, without waiting: true and *info
 * filled. Anything else that arrives is dropped. */
bool cl_disc_poll(cl_disc_t *d, uint64_t now_ms, cl_server_info *info);

#endif
