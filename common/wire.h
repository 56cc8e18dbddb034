/* wire.h: the network messages, encoded and decoded byte by byte (docs/protocol.md). */
#ifndef MR_WIRE_H
#define MR_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h"
#include "puzzle.h"
#include "rng.h"
#include "textrule.h"

/* Transport: ENet, WIRE_CHANNELS channels, every message one reliable packet
 * on channel WIRE_CHANNEL. Round-trip time comes from ENet (peer RTT); there
 * is no ping message. LAN discovery is plain UDP on WIRE_DISCOVERY_PORT.
 *
 * Every message starts with its type byte. Integers are big endian. Reads
 * (wire_read*) check the length before each field, reject any bad field and
 * any trailing byte, and return false: the input is the world's. Writes
 * (wire_write*) assert on a bad message: that is our bug. */

#define WIRE_MAGIC 0x4D5A5243u       /* "MZRC": HELLO */
#define WIRE_PROBE_MAGIC 0x4D5A5250u /* "MZRP": discovery probe */
#define WIRE_REPLY_MAGIC 0x4D5A5241u /* "MZRA": discovery reply */
#define WIRE_VERSION 5
#define WIRE_DEFAULT_PORT 27910
#define WIRE_DISCOVERY_PORT 27911
#define WIRE_CHANNELS 1
#define WIRE_CHANNEL 0

#define WIRE_NAME_MAX TXT_NAME_MAX /* player and server names, bytes */
#define WIRE_TEXT_MAX TXT_TEXT_MAX /* reasons and error texts, bytes */
#define WIRE_HELLO_NAME_RAW 255    /* a HELLO name as decoded, before the name rules */
#define WIRE_GAME_ID_MAX 65535     /* game ID string in CREATE_ROOM / MATCH_START */
#define WIRE_ROOM_CODE_LEN 5
#define WIRE_ROOM_ALPHABET "ABCDEFGHJKMNPQRSTUVWXYZ23456789" /* no I L O 0 1 */
#define WIRE_MOVE_LOG_MAX 256                                /* moves per MOVE_LOG message */
#define WIRE_MAX_SERIES 99
#define WIRE_DESC_CHUNK_MAX 60000 /* description bytes per DESC_CHUNK */
/* Match records (docs/protocol.md, "Match records"). */
#define WIRE_REPLAY_CHUNK_MAX 60000         /* replay text bytes per REPLAY_CHUNK */
#define WIRE_REPLAY_MAX (32u * 1024 * 1024) /* a whole replay's text, bytes (= REPLAY_MAX_BYTES) */
#define WIRE_RECENT_MAX 10                  /* matches per RECENT_LIST */
#define WIRE_BEST_MAX 10                    /* rows per BEST_LIST */
#define WIRE_LIST_ID_MAX 100                /* game ID bytes in a RECENT_LIST entry (longer: sent empty) */
/* No message is longer than this (MATCH_START with the longest game ID). */
#define WIRE_MSG_MAX (WIRE_GAME_ID_MAX + 64)
#define WIRE_SLOT_NONE 0xFF
#define WIRE_SLOT_WATCHER 0xFF /* ROOM_STATE your_slot of a spectator */
#define WIRE_ROOM_LIST_MAX 32  /* rooms per ROOM_LIST */
#define WIRE_BUNDLE_MAX 16384  /* bytes of a whole BUNDLE (version 5) */

enum wire_type {
    /* client -> server */
    WIRE_HELLO = 1,
    WIRE_CREATE_ROOM = 10,
    WIRE_JOIN_ROOM = 11,
    WIRE_QUICK_MATCH = 12,
    WIRE_LEAVE_ROOM = 13,
    WIRE_READY = 14,
    WIRE_REMATCH = 15,
    WIRE_RESUME = 16,
    WIRE_MOVE = 17,
    WIRE_DESC_REQUEST = 18,   /* a chunk of the current puzzle's description game ID */
    WIRE_REPLAY_REQUEST = 19, /* a chunk of a stored match's replay text */
    WIRE_RECENT_REQUEST = 20, /* a page of the newest stored matches */
    WIRE_BEST_REQUEST = 21,   /* the best times on one puzzle */
    WIRE_WATCH = 22,          /* watch a room as a spectator (code) */
    WIRE_LIST_ROOMS = 23,     /* which rooms are racing (ROOM_LIST) */
    /* server -> client */
    WIRE_WELCOME = 2,
    WIRE_REFUSED = 3,
    WIRE_ROOM_STATE = 30,
    WIRE_MATCH_START = 31,
    WIRE_ACK = 32,
    WIRE_REJECT = 33,
    WIRE_PROGRESS = 34,
    WIRE_MATCH_END = 35,
    WIRE_REMATCH_OFFER = 36,
    WIRE_MOVE_LOG = 37,
    WIRE_SHUTDOWN = 38,
    WIRE_ERROR = 39,
    WIRE_DESC_CHUNK = 40,
    WIRE_REPLAY_CHUNK = 41,
    WIRE_RECENT_LIST = 42,
    WIRE_BEST_LIST = 43,
    WIRE_WATCH_START = 44, /* to a spectator: a game begins (or is on) */
    WIRE_ROOM_LIST = 45,   /* rooms in progress, for "Watch" */
    WIRE_WATCH_END = 46,   /* to a spectator: no longer watching (the room closed) */
    WIRE_WATCH_AT = 47,    /* answer to WATCH on the game port: watch on the spectator port instead */
    WIRE_BUNDLE = 48,      /* several messages in one packet (a spectator's batch); see wire_bundle_* */
};

/* Codes in REFUSED and ERROR. */
enum wire_error {
    WIRE_ERR_VERSION = 1, /* protocol version mismatch */
    WIRE_ERR_FULL = 2,    /* server has no room for another client */
    WIRE_ERR_BAD_NAME = 3,
    WIRE_ERR_BAD_MESSAGE = 4, /* malformed, unknown or oversized */
    WIRE_ERR_NO_ROOM = 5,     /* unknown room code */
    WIRE_ERR_ROOM_FULL = 6,
    WIRE_ERR_BAD_PARAMS = 7, /* puzzle or series settings refused */
    WIRE_ERR_TOO_MANY_ROOMS = 8,
    WIRE_ERR_NOT_IN_ROOM = 9,
    WIRE_ERR_STATE = 10,  /* not allowed now (e.g. ready while racing) */
    WIRE_ERR_RESUME = 11, /* bad token or grace period over */
    WIRE_ERR_RATE = 12,   /* too many messages */
    WIRE_ERR_INTERNAL = 13,
    WIRE_ERR_HANDSHAKE = 14,  /* first message was not HELLO, or HELLO twice */
    WIRE_ERR_BUSY = 15,       /* server too busy / generation budget used up: retry later */
    WIRE_ERR_MEMORY = 16,     /* server puzzle memory full, or too much for your address */
    WIRE_ERR_DRAINING = 17,   /* server is restarting: no new rooms, quick matches or races */
    WIRE_ERR_NO_RECORDS = 18, /* this server keeps no match records (or cannot read them now) */
    WIRE_ERR_NO_MATCH = 19,   /* no stored match with that id */
    WIRE_ERR_WATCH_FULL = 20, /* the room's (or the server's) spectator limit is reached */
    WIRE_ERR_SPECTATOR = 21,  /* not allowed to a spectator (MOVE: counted as bad) */
    WIRE_ERR_MAX = WIRE_ERR_SPECTATOR,
};

/* CREATE_ROOM. */
typedef struct wire_create {
    bool by_id;       /* true: game_id; false: params (+ seed if has_seed) */
    pz_params params; /* w = h = 0: the kind's default size */
    bool has_seed;
    uint64_t seed;
    uint8_t series_len;  /* best of N, 1..WIRE_MAX_SERIES */
    const char *game_id; /* by_id: not NUL-terminated, see game_id_len */
    uint16_t game_id_len;
} wire_create;

typedef struct wire_player {
    bool present, connected, ready, rematch;
    char name[WIRE_NAME_MAX + 1];
} wire_player;

typedef struct wire_room_state {
    char code[WIRE_ROOM_CODE_LEN + 1];
    uint8_t your_slot; /* 0 or 1; WIRE_SLOT_WATCHER for a spectator */
    uint8_t phase;     /* enum match_phase */
    pz_params params;  /* what the room races on */
    uint8_t series_len;
    uint8_t score[2];
    wire_player player[2];
    uint16_t spectators; /* watching the room now */
} wire_room_state;

/* WATCH_START: MATCH_START for a spectator (no seat, no token). */
typedef struct wire_watch_start {
    char code[WIRE_ROOM_CODE_LEN + 1];
    uint16_t game_no;
    int32_t start_in_ms; /* as MATCH_START */
    uint64_t desc_hash;
    uint8_t series_len;
    uint8_t score[2];
    const char *game_id; /* not NUL-terminated; see game_id_len (1..WIRE_GAME_ID_MAX) */
    uint16_t game_id_len;
} wire_watch_start;

/* One entry of ROOM_LIST: a room with a game in countdown or racing. */
typedef struct wire_room_entry {
    char code[WIRE_ROOM_CODE_LEN + 1];
    uint8_t phase; /* MATCH_COUNTDOWN or MATCH_RACING */
    pz_params params;
    uint16_t spectators;
    char name[2][WIRE_NAME_MAX + 1]; /* "" for an empty seat */
} wire_room_entry;

typedef struct wire_room_list {
    uint16_t total; /* rooms in progress on the server (may exceed count) */
    uint8_t count;  /* 0..WIRE_ROOM_LIST_MAX */
    wire_room_entry room[WIRE_ROOM_LIST_MAX];
} wire_room_list;

/* How the puzzle travels: the game ID, and mr_hash64 of the kind's
 * encode_desc. A seeded ID is short; the client regenerates the puzzle and
 * checks the hash. A description ID (a puzzle with no seed) is sent whole,
 * up to WIRE_GAME_ID_MAX bytes; the server refuses larger ones at room
 * creation. */
typedef struct wire_match_start {
    uint8_t slot;        /* the receiver's slot */
    uint16_t game_no;    /* 1 for the first game of the series */
    match_token_t token; /* the receiver's resume token (16 bytes) */
    int32_t start_in_ms; /* ms from sending to the race start; < 0: running for that long */
    uint64_t desc_hash;
    uint8_t series_len;
    uint8_t score[2];
    const char *game_id; /* not NUL-terminated; see game_id_len (1..WIRE_GAME_ID_MAX) */
    uint16_t game_id_len;
} wire_match_start;

typedef struct wire_progress {
    uint8_t slot;   /* whose progress */
    pz_move move;   /* the move they played */
    uint32_t moves; /* accepted moves so far */
    int16_t x, y;   /* pz_progress, -1 where the kind has none */
    uint32_t path_len;
    int32_t value;
    bool solved;
} wire_progress;

typedef struct wire_match_end {
    uint8_t winner; /* 0, 1 or WIRE_SLOT_NONE */
    uint8_t reason; /* enum match_end_reason */
    uint32_t time_ms[2];
    bool solved[2];
    uint32_t moves[2];
    uint16_t game_no;
    uint8_t series_len;
    uint8_t score[2];
    bool series_over;
} wire_match_end;

/* DESC_CHUNK: bytes [offset, offset + count) of the description game ID
 * "kind:WxH:desc" of the puzzle whose hash is desc_hash (total bytes in
 * all). */
typedef struct wire_desc_chunk {
    uint16_t game_no;
    uint64_t desc_hash;
    uint32_t total, offset;
    uint16_t count;    /* 0..WIRE_DESC_CHUNK_MAX */
    const char *bytes; /* not NUL-terminated; points into the buffer */
} wire_desc_chunk;

/* Match records. Every request carries a req number of the client's
 * choosing, echoed in its answer; an answer's status is 0 or the enum
 * wire_error code that says why there is nothing (BUSY, NO_RECORDS,
 * NO_MATCH, INTERNAL), and then its list is empty. */
typedef struct wire_replay_req {
    uint32_t req;
    uint64_t match_id; /* 1..INT64_MAX */
    uint32_t offset;   /* first byte wanted */
} wire_replay_req;

/* REPLAY_CHUNK: bytes [offset, offset + count) of the match's replay text
 * (docs/replay.md), total bytes in all. Text bytes: '\n' and 0x20..0xFF
 * except 0x7F. */
typedef struct wire_replay_chunk {
    uint32_t req;
    uint8_t status;
    uint64_t match_id;
    uint32_t total, offset; /* total <= WIRE_REPLAY_MAX */
    uint16_t count;         /* 0..WIRE_REPLAY_CHUNK_MAX */
    const char *bytes;      /* not NUL-terminated; points into the buffer */
} wire_replay_chunk;

typedef struct wire_recent_req {
    uint32_t req;
    uint64_t before_id; /* matches with a smaller id; 0 = from the newest */
    uint8_t limit;      /* 1..WIRE_RECENT_MAX */
} wire_recent_req;

typedef struct wire_rec_player {
    char name[WIRE_NAME_MAX + 1];
    uint32_t time_ms, moves;
    bool solved;
} wire_rec_player;

typedef struct wire_recent_entry {
    uint64_t match_id;
    uint64_t start_utc_ms; /* ms since 1970 UTC */
    pz_params params;
    uint8_t winner; /* 0, 1 or WIRE_SLOT_NONE */
    uint8_t ending; /* enum match_end_reason */
    uint16_t game_no;
    uint8_t series_len;
    wire_rec_player player[2];
    char game_id[WIRE_LIST_ID_MAX + 1]; /* "" when longer than WIRE_LIST_ID_MAX (fetch the replay) */
} wire_recent_entry;

typedef struct wire_recent_list {
    uint32_t req;
    uint8_t status;
    uint64_t next_before; /* before_id of the next page; 0 = this is the last */
    uint8_t count;        /* 0..WIRE_RECENT_MAX */
    wire_recent_entry e[WIRE_RECENT_MAX];
} wire_recent_list;

typedef struct wire_best_req {
    uint32_t req;
    uint64_t desc_hash;  /* the puzzle, when game_id_len is 0 (MATCH_START's desc_hash) */
    uint8_t limit;       /* 1..WIRE_BEST_MAX */
    const char *game_id; /* or the game ID as played (not NUL-terminated), 0..WIRE_GAME_ID_MAX bytes */
    uint16_t game_id_len;
} wire_best_req;

typedef struct wire_best_entry {
    uint64_t match_id;
    char name[WIRE_NAME_MAX + 1];
    uint32_t time_ms, moves;
    uint64_t start_utc_ms;
} wire_best_entry;

typedef struct wire_best_list {
    uint32_t req;
    uint8_t status;
    uint8_t count; /* 0..WIRE_BEST_MAX, fastest first */
    wire_best_entry e[WIRE_BEST_MAX];
} wire_best_list;

typedef struct wire_msg {
    uint8_t type; /* enum wire_type */
    union {
        uint8_t none; /* QUICK_MATCH, LEAVE_ROOM, REMATCH, LIST_ROOMS: no body */
        struct wire_hello {
            uint32_t magic; /* WIRE_MAGIC */
            uint16_t version;
            /* Raw bytes as received (any of 0..255 bytes, NUL-terminated
             * here), "" when version != WIRE_VERSION; the server checks
             * them with txt_name_problem. Writes send strlen(name) bytes. */
            char name[WIRE_HELLO_NAME_RAW + 1];
            uint8_t name_len;
        } hello;
        struct {
            uint32_t player_id;
            char server_name[WIRE_NAME_MAX + 1];
        } welcome;
        struct { /* REFUSED, ERROR, SHUTDOWN and WATCH_END (code 0), REJECT (code: enum match_reject) */
            uint8_t code;
            uint32_t seq; /* REJECT only */
            char text[WIRE_TEXT_MAX + 1];
        } error;
        wire_create create;
        struct {
            char code[WIRE_ROOM_CODE_LEN + 1];
        } join; /* JOIN_ROOM and WATCH */
        struct {
            bool ready;
        } ready;
        struct {
            char code[WIRE_ROOM_CODE_LEN + 1];
            uint8_t slot;
            match_token_t token;
        } resume;
        struct {
            uint32_t seq;
            pz_move move; /* on the wire: type, dir, x, y (6 bytes) */
        } move;
        struct {
            uint32_t seq;
            uint32_t moves;
            bool solved;
        } ack;
        wire_room_state room;
        wire_match_start start;
        wire_progress progress;
        wire_match_end end;
        struct {
            uint8_t slot; /* who asked */
        } rematch_offer;
        struct {
            uint32_t offset; /* first byte wanted */
        } desc_req;
        wire_desc_chunk desc;
        wire_watch_start wstart;
        struct {
            char code[WIRE_ROOM_CODE_LEN + 1]; /* the room asked for */
            uint16_t port;                     /* the spectator port, 1..65535 */
        } watch_at;
        wire_room_list list;
        struct wire_move_log {
            uint8_t slot;   /* whose moves */
            uint32_t first; /* index of moves[0] in the slot's move log */
            uint16_t count; /* 0..WIRE_MOVE_LOG_MAX */
            bool last;      /* no more MOVE_LOG follows for this resume */
            pz_move moves[WIRE_MOVE_LOG_MAX];
        } log;
        wire_replay_req replay_req;
        wire_replay_chunk replay;
        wire_recent_req recent_req;
        wire_recent_list recent;
        wire_best_req best_req;
        wire_best_list best;
    };
} wire_msg;

/* NULL if a decoded CREATE_ROOM's settings are acceptable (series 1..99,
 * kind, WxH both 0 or within the kind's limits, difficulty, seed 0 unless
 * has_seed), else a static reason for ERROR BAD_PARAMS. A game ID (by_id)
 * is judged later by pz_id_parse. */
const char *wire_create_problem(const wire_create *c);

/* Bytes wire_write will produce for m. */
size_t wire_size(const wire_msg *m);
/* Encodes m into buf (cap bytes, cap >= wire_size(m)); returns the length.
 * Asserts m is well formed. */
size_t wire_write(const wire_msg *m, uint8_t *buf, size_t cap);
/* Decodes len bytes. false on anything short, long, unknown or out of range;
 * *m is then unspecified. On success m->type and its body (the union
 * member wire_msgs.h names for it, cleared first) are set; the rest of the
 * union is left as it was (a MOVE is 11 bytes, the union 2.4 KiB). Pointers
 * in *m (game_id) point into buf. A BUNDLE is not one message: wire_read
 * refuses it (unpack it with wire_bundle_*). */
bool wire_read(const uint8_t *buf, size_t len, wire_msg *m);
/* Static name of a message type ("MOVE"), "?" if unknown. */
const char *wire_type_name(int type);

/* ---- BUNDLE (48): several messages in one ENet packet ----
 * The type byte, then one or more entries, each a u16 length (>= 1) and
 * that many bytes: one whole message, never a BUNDLE itself; nothing after
 * the last entry, WIRE_BUNDLE_MAX bytes at most in all. The receiver takes
 * the entries as if each had come as a packet of its own, in order. The
 * server sends a spectator's batch this way (docs/protocol.md, BUNDLE):
 * one reliable ENet command and acknowledgement for the batch, not one per
 * message. */

/* Appends one encoded message (len >= 1 bytes, not a BUNDLE) to the bundle
 * in buf, whose first *used bytes are filled (0: a new bundle, the type
 * byte goes first). false, with nothing written, if the bundle would pass
 * cap (at most WIRE_BUNDLE_MAX) bytes. Asserts the message is not empty
 * and not a BUNDLE. */
bool wire_bundle_add(uint8_t *buf, size_t cap, size_t *used, const void *msg, size_t len);

/* Walks a received BUNDLE: wire_bundle_open checks the whole framing first
 * (type, size, every entry's length, no empty or nested entry, no trailing
 * byte) and returns false on any fault, so that a bad bundle is refused
 * whole, before any of its messages is acted on. wire_bundle_next then
 * gives the entries in order (pointers into buf); false after the last.
 * Each entry is still to be decoded with wire_read. */
typedef struct wire_bundle_it {
    const uint8_t *p;
    size_t left;
} wire_bundle_it;
bool wire_bundle_open(wire_bundle_it *it, const uint8_t *buf, size_t len);
bool wire_bundle_next(wire_bundle_it *it, const uint8_t **msg, size_t *len);

/* ---- LAN discovery (plain UDP datagrams, not ENet) ---- */
typedef struct wire_probe {
    uint16_t version;
    uint32_t nonce; /* echoed in the reply */
} wire_probe;

typedef struct wire_probe_reply {
    uint16_t version;
    uint32_t nonce;
    uint16_t game_port;
    uint16_t players_waiting; /* clients in a room waiting for an opponent, plus quick match */
    uint16_t rooms;
    uint16_t players; /* connected clients */
    uint16_t max_players;
    uint16_t races; /* rooms in countdown or racing: "Watch" (version 3) */
    char name[WIRE_NAME_MAX + 1];
} wire_probe_reply;

#define WIRE_PROBE_LEN 10
#define WIRE_PROBE_REPLY_MAX (22 + 1 + WIRE_NAME_MAX)
size_t wire_write_probe(const wire_probe *p, uint8_t *buf, size_t cap);
bool wire_read_probe(const uint8_t *buf, size_t len, wire_probe *p);
size_t wire_write_probe_reply(const wire_probe_reply *r, uint8_t *buf, size_t cap);
bool wire_read_probe_reply(const uint8_t *buf, size_t len, wire_probe_reply *r);

/* The details a server sends right after each reply (docs/protocol.md,
 * section 9): its id, the same on every interface, so a client lists it
 * once; and for a player's own game, the room a LAN pick joins and what it
 * races. Old clients drop it (another magic); old servers never send it. */
#define WIRE_DETAILS_MAGIC 0x4D5A5258u /* "MZRX" */
enum { WIRE_DISC_HOST_GAME = 1, WIRE_DISC_HAS_ROOM = 2 };
/* Discovery answers on the first port of DISCOVERY_PORT .. + SPAN - 1 it
 * can bind alone; clients probe every one of them. */
#define WIRE_DISCOVERY_SPAN 4
typedef struct wire_probe_details {
    uint16_t version;
    uint32_t nonce;
    uint16_t game_port;
    uint64_t server_id; /* random per server run */
    uint8_t flags;      /* WIRE_DISC_* */
    /* With WIRE_DISC_HAS_ROOM: the waiting room a pick joins. */
    char room[WIRE_ROOM_CODE_LEN + 1];
    pz_params params; /* what it races */
    uint8_t series;   /* best of N, 1..WIRE_MAX_SERIES */
    char host_name[WIRE_NAME_MAX + 1];
} wire_probe_details;
#define WIRE_PROBE_DETAILS_MAX (21 + WIRE_ROOM_CODE_LEN + 6 + 1 + 1 + WIRE_NAME_MAX)
size_t wire_write_probe_details(const wire_probe_details *d, uint8_t *buf, size_t cap);
bool wire_read_probe_details(const uint8_t *buf, size_t len, wire_probe_details *d);

/* ---- helpers ---- */
/* The name and text rules are common/textrule.h's (txt_name_ok, txt_text_ok, txt_clean). */
/* A fresh room code (WIRE_ROOM_CODE_LEN letters of WIRE_ROOM_ALPHABET). */
void wire_room_code_make(rng_t *r, char out[WIRE_ROOM_CODE_LEN + 1]);
/* The same from secrand: what a server hands out (unguessable). */
void wire_room_code_secure(char out[WIRE_ROOM_CODE_LEN + 1]);
/* Normalises what a player typed (case, spaces, dashes) into out; false if
 * it is not a room code. */
bool wire_room_code_parse(const char *text, char out[WIRE_ROOM_CODE_LEN + 1]);
bool wire_room_code_ok(const char *code); /* exactly a code, upper case */

#endif
