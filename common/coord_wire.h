/* coord_wire.h: the coordinator's datagrams (docs/coordinator.md): encode (asserts), decode (fails closed),
 * invite codes; no sockets. */
#ifndef MR_COORD_WIRE_H
#define MR_COORD_WIRE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every datagram: "MRCO" (4 bytes), version (u8), type (u8), request id
 * (u32; an answer carries its request's id), then the body of the type.
 * Big-endian. One datagram is at most COORD_MAX bytes (fits any path's
 * MTU). Addresses are IPv4 in host order here, big-endian on the wire. */
#define COORD_VERSION 1
#define COORD_MAX 1200
#define COORD_HEADER 10
#define COORD_CAND_MAX 6     /* candidate addresses a side sends */
#define COORD_NAME_MAX 24    /* a host's or a server's name, bytes of UTF-8 */
#define COORD_VERSION_MAX 16 /* a server's version text */
#define COORD_TOKEN_LEN 8    /* a registration's secret, or a pair's */
#define COORD_CRED_MAX 64    /* a TURN username or password */
#define COORD_LIST_MAX 16    /* servers in one SERVER_LIST */
#define COORD_ERROR_MAX 80   /* an ERROR's text */

/* The invite code: '+' and COORD_CODE_LEN characters of COORD_CODE_ALPHABET
 * (no 0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V, G); readers fold lower case to upper. */
#define COORD_CODE_LEN 8
#define COORD_CODE_ALPHABET "3479ACDEFHJKMNPRTWXY"
#define COORD_CODE_BASE 20

enum coord_type {
    COORD_HOST_REGISTER = 1,   /* host -> coordinator: register or refresh (token of a registration, or 0s) */
    COORD_HOST_OK = 2,         /* -> host: code, token, lifetime, the address the host was seen from */
    COORD_HOST_LEAVE = 3,      /* host -> coordinator: token; the code ends (no answer) */
    COORD_LOOKUP = 4,          /* joiner -> coordinator: code and the joiner's candidates */
    COORD_LOOKUP_OK = 5,       /* -> joiner: pair id and token, the host's candidates, seen address */
    COORD_INTRODUCE = 6,       /* -> host: a joiner wants in: pair id and token, its candidates */
    COORD_TURN_REQUEST = 7,    /* either side of a pair -> coordinator: pair id and token */
    COORD_TURN_OK = 8,         /* -> that side: TURN server, username, password, lifetime */
    COORD_SERVER_REGISTER = 9, /* dedicated server -> coordinator: its public listing */
    COORD_SERVER_OK = 10,      /* -> server: refresh interval */
    COORD_LIST = 11,           /* anyone -> coordinator: servers from index start */
    COORD_SERVER_LIST = 12,    /* -> asker: total, start, entries */
    COORD_ERROR = 13,          /* -> asker: code, text */
};

enum coord_error {
    COORD_E_BAD = 1,     /* the datagram did not decode */
    COORD_E_VERSION = 2, /* unknown protocol version */
    COORD_E_RATE = 3,    /* over this address's rate limit; retry_s says when */
    COORD_E_NO_CODE = 4, /* no live registration has that code */
    COORD_E_FULL = 5,    /* registrations full: for this address or all */
    COORD_E_NO_PAIR = 6, /* TURN asked for a pair the coordinator did not introduce (or expired) */
    COORD_E_NO_TURN = 7, /* this coordinator has no TURN server */
    COORD_E_TOKEN = 8,   /* refresh or leave with a token that names nothing */
};

/* Candidate kinds (docs/nat.md): where the other side may reach this one. */
enum coord_cand_kind {
    COORD_CAND_LAN = 0,
    COORD_CAND_MAPPED = 1,
    COORD_CAND_STUN = 2,
    COORD_CAND_RELAYED = 3
};

typedef struct coord_addr {
    uint32_t ip; /* host order */
    uint16_t port;
} coord_addr;

typedef struct coord_cand {
    uint8_t kind; /* enum coord_cand_kind */
    coord_addr addr;
} coord_cand;

typedef struct coord_server {
    coord_addr addr; /* LIST answers: where the coordinator saw it (ip) and its game port */
    uint16_t players, rooms, capacity;
    char name[COORD_NAME_MAX + 1];
    char version[COORD_VERSION_MAX + 1];
} coord_server;

/* One decoded datagram: type, id, and the fields its type uses. */
typedef struct coord_msg {
    uint8_t type;
    uint32_t id;
    uint8_t token[COORD_TOKEN_LEN];  /* HOST_*: registration; LOOKUP_OK/INTRODUCE/TURN_REQUEST: pair */
    uint32_t pair;                   /* LOOKUP_OK, INTRODUCE, TURN_REQUEST */
    char code[COORD_CODE_LEN + 2];   /* '+' + code + NUL: HOST_OK, LOOKUP */
    char name[COORD_NAME_MAX + 1];   /* HOST_REGISTER, LOOKUP_OK: the host's name */
    coord_cand cand[COORD_CAND_MAX]; /* HOST_REGISTER, LOOKUP, LOOKUP_OK, INTRODUCE */
    uint8_t ncand;
    coord_addr seen;               /* HOST_OK, LOOKUP_OK, INTRODUCE: an address as the coordinator saw it */
    uint16_t seconds;              /* HOST_OK/TURN_OK: lifetime; SERVER_OK: refresh; ERROR: retry */
    coord_addr turn;               /* TURN_OK: the TURN server */
    char user[COORD_CRED_MAX + 1]; /* TURN_OK */
    char pass[COORD_CRED_MAX + 1]; /* TURN_OK */
    coord_server server;           /* SERVER_REGISTER (addr.ip unused: 0) */
    uint16_t start, total;         /* LIST: start; SERVER_LIST: start and total */
    coord_server list[COORD_LIST_MAX]; /* SERVER_LIST */
    uint8_t nlist;
    uint8_t error;                  /* ERROR: enum coord_error */
    char text[COORD_ERROR_MAX + 1]; /* ERROR */
} coord_msg;

/* Writes m into buf (cap >= COORD_MAX); returns the length. Asserts m is
 * well formed (our bug otherwise). */
size_t coord_encode(const coord_msg *m, uint8_t *buf, size_t cap);
/* Reads len bytes into *m: false on anything short, long, unknown or out
 * of range (then *m is unspecified). A wrong version decodes the header
 * only: true with *version_bad set, so the answer can say so. */
bool coord_decode(const uint8_t *buf, size_t len, coord_msg *m, bool *version_bad);

/* A fresh code ("+" and 8 characters) from 8 random bytes, into out[10]. */
void coord_code_make(const uint8_t rnd[COORD_CODE_LEN], char out[COORD_CODE_LEN + 2]);
/* The code a person typed ("+k7mp 9nxa", "K7MP9NXA"): blanks and '-' dropped,
 * lower case folded, '+' optional. NULL on success (canonical form in
 * out[10]), else a static message. */
const char *coord_code_parse(const char *text, char out[COORD_CODE_LEN + 2]);

const char *coord_type_name(int type);   /* "HOST_REGISTER", or "?" */
const char *coord_error_name(int error); /* "RATE", or "?" */
#endif
