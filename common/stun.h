/* stun.h: STUN/TURN messages (RFC 5389, RFC 5766): encode (asserts) and decode (fails closed); no sockets. */
#ifndef MR_STUN_H
#define MR_STUN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Only what mazerace's NAT paths use (docs/nat.md): Binding; TURN's
 * Allocate, Refresh, CreatePermission, ChannelBind, Send and Data
 * indications; ChannelData framing. Integrity (HMAC-SHA1) is computed by
 * the caller over the bytes stun_integrity_slot names: common/ links no
 * crypto library. Addresses are IPv4 (the game's ENet is IPv4 only); an
 * IPv6 address attribute is read and marked, never used. */

#define STUN_MAGIC 0x2112A442u
#define STUN_HEADER 20
#define STUN_TID_LEN 12
#define STUN_MAX 1500

enum stun_method {
    STUN_BINDING = 0x001,
    STUN_ALLOCATE = 0x003,
    STUN_REFRESH = 0x004,
    STUN_SEND = 0x006,
    STUN_DATA = 0x007,
    STUN_CREATE_PERMISSION = 0x008,
    STUN_CHANNEL_BIND = 0x009,
};

enum stun_class {
    STUN_REQUEST = 0,
    STUN_INDICATION = 1,
    STUN_SUCCESS = 2,
    STUN_ERROR = 3,
};

enum stun_attr {
    STUN_A_MAPPED_ADDRESS = 0x0001,
    STUN_A_USERNAME = 0x0006,
    STUN_A_MESSAGE_INTEGRITY = 0x0008,
    STUN_A_ERROR_CODE = 0x0009,
    STUN_A_CHANNEL_NUMBER = 0x000C,
    STUN_A_LIFETIME = 0x000D,
    STUN_A_XOR_PEER_ADDRESS = 0x0012,
    STUN_A_DATA = 0x0013,
    STUN_A_REALM = 0x0014,
    STUN_A_NONCE = 0x0015,
    STUN_A_XOR_RELAYED_ADDRESS = 0x0016,
    STUN_A_REQUESTED_TRANSPORT = 0x0019,
    STUN_A_XOR_MAPPED_ADDRESS = 0x0020,
    STUN_A_SOFTWARE = 0x8022,
};

/* An IPv4 address and port, both in host byte order. v6 marks an IPv6
 * address that was read (and is not kept). */
typedef struct stun_addr {
    uint32_t ip;
    uint16_t port;
    bool v6;
} stun_addr;

#define STUN_TEXT_MAX 127

/* A decoded message. data points into the decoded buffer. */
typedef struct stun_msg {
    uint16_t method; /* enum stun_method */
    uint8_t cls;     /* enum stun_class */
    uint8_t tid[STUN_TID_LEN];
    bool has_mapped, has_relayed, has_peer, has_lifetime, has_channel;
    stun_addr mapped;  /* XOR-MAPPED-ADDRESS, else MAPPED-ADDRESS */
    stun_addr relayed; /* XOR-RELAYED-ADDRESS */
    stun_addr peer;    /* XOR-PEER-ADDRESS (the first) */
    uint32_t lifetime; /* seconds */
    uint16_t channel;
    int error_code; /* ERROR-CODE: 300..699, 0 if absent */
    char reason[STUN_TEXT_MAX + 1];
    char realm[STUN_TEXT_MAX + 1];
    char nonce[STUN_TEXT_MAX + 1];
    const uint8_t *data; /* DATA */
    size_t data_len;
    size_t integrity_at; /* offset of the MESSAGE-INTEGRITY attribute's header, 0 if none */
} stun_msg;

/* Whether a datagram looks like STUN (first two bits 0, the magic cookie,
 * a length that fits): the test that sorts STUN from ENet on one socket. */
bool stun_looks_like(const uint8_t *buf, size_t len);

/* Decodes buf (len bytes) into m. Fails (false) on any short, overlong or
 * malformed field; comprehension-required attributes it does not know
 * are skipped (a client ignores them, RFC 5389 7.3.3 lets responses pass). */
bool stun_decode(const uint8_t *buf, size_t len, stun_msg *m);

/* The writer. Every put asserts that the message fits in cap. */
typedef struct stun_writer {
    uint8_t *buf;
    size_t cap, len;
} stun_writer;

void stun_begin(stun_writer *w, uint8_t *buf, size_t cap, uint16_t method, uint8_t cls,
                const uint8_t tid[STUN_TID_LEN]);
void stun_put(stun_writer *w, uint16_t type, const void *data, size_t len);
void stun_put_u32(stun_writer *w, uint16_t type, uint32_t v);
void stun_put_text(stun_writer *w, uint16_t type, const char *text);
void stun_put_xor_addr(stun_writer *w, uint16_t type, stun_addr a);
/* Appends MESSAGE-INTEGRITY with 20 zero bytes and returns the offset of
 * those bytes: the caller puts HMAC-SHA1(key, buf[0 .. offset - 4]) there
 * (the header's length already counts the attribute, as RFC 5389 15.4 says). */
size_t stun_integrity_slot(stun_writer *w);
/* The message's length in bytes. */
size_t stun_end(const stun_writer *w);

/* ChannelData (RFC 5766 11.4): channel 0x4000..0x7FFF, then the length,
 * then the payload padded to 4 bytes. encode returns the bytes written
 * (asserts that they fit); decode fails closed. */
size_t stun_channel_encode(uint8_t *buf, size_t cap, uint16_t channel, const void *data, size_t len);
bool stun_channel_decode(const uint8_t *buf, size_t len, uint16_t *channel, const uint8_t **data,
                         size_t *data_len);

/* "a.b.c.d:port" of an address, into out (at least 22 bytes). */
void stun_addr_text(stun_addr a, char *out, size_t cap);
/* Parses "a.b.c.d:port" (port 1..65535); false if it is not exactly that. */
bool stun_addr_parse(const char *text, stun_addr *a);

#endif
