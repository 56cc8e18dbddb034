/* sv_cookie.c: the stateless handshake cookie: SipHash-2-4 MACs, the cookie VERIFY_CONNECT, and the peer made
 * from its acknowledgement as ENet's enet_protocol_handle_connect would have made it. */
#include "sv_cookie.h"

#include <string.h>

#include "secrand.h"
#include "util.h"

#define EPOCH_MS 4000 /* a cookie is good for 4 to 8 s */

static uint64_t key[2];
static bool keyed;

void sv_cookie_init(void)
{
    if (keyed)
        return;
    keyed = secrand_fill(key, sizeof key);
}

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                                                             \
    do {                                                                                                     \
        v0 += v1;                                                                                            \
        v1 = ROTL(v1, 13);                                                                                   \
        v1 ^= v0;                                                                                            \
        v0 = ROTL(v0, 32);                                                                                   \
        v2 += v3;                                                                                            \
        v3 = ROTL(v3, 16);                                                                                   \
        v3 ^= v2;                                                                                            \
        v0 += v3;                                                                                            \
        v3 = ROTL(v3, 21);                                                                                   \
        v3 ^= v0;                                                                                            \
        v2 += v1;                                                                                            \
        v1 = ROTL(v1, 17);                                                                                   \
        v1 ^= v2;                                                                                            \
        v2 = ROTL(v2, 32);                                                                                   \
    } while (0)

/* SipHash-2-4 of two 64-bit words (16 bytes of message). */
static uint64_t siphash(uint64_t m0, uint64_t m1)
{
    uint64_t v0 = key[0] ^ 0x736f6d6570736575ull, v1 = key[1] ^ 0x646f72616e646f6dull;
    uint64_t v2 = key[0] ^ 0x6c7967656e657261ull, v3 = key[1] ^ 0x7465646279746573ull;
    uint64_t m[3] = {m0, m1, (uint64_t)16 << 56};
    for (int i = 0; i < 3; i++) {
        v3 ^= m[i];
        SIPROUND;
        SIPROUND;
        v0 ^= m[i];
    }
    v2 ^= 0xff;
    for (int i = 0; i < 4; i++)
        SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

/* The 32 bits a VERIFY_CONNECT carries: 22 of MAC, the session ID the
 * server will send with (the one the client sends with comes back in its
 * datagram header), the client's peer index. */
static uint32_t cookie(const ENetAddress *a, unsigned slot, unsigned client_peer, unsigned s_in,
                       unsigned s_out, uint64_t epoch)
{
    uint64_t m0 = (uint64_t)a->host << 32 | (uint64_t)a->port << 16 | slot;
    uint64_t m1 = epoch << 24 | (uint64_t)client_peer << 8 | s_in << 4 | s_out;
    return (uint32_t)(siphash(m0, m1) & 0x3FFFFF) << 10 | s_out << 8 | client_peer;
}

static unsigned get16(const uint8_t *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint8_t *put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
    return p + 2;
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
    p = put16(p, v >> 16);
    return put16(p, v & 0xFFFF);
}

/* A session ID as enet_protocol_handle_connect picks it: one past what the
 * client asked for (its last on this connection of its own, 0xFF: none)
 * or else past the slot's last, and never the slot's last, so that a stale
 * datagram of either earlier connection is not taken for the new one's. */
static unsigned next_session(uint8_t asked, uint8_t slot_last)
{
    unsigned mask = ENET_PROTOCOL_HEADER_SESSION_MASK >> ENET_PROTOCOL_HEADER_SESSION_SHIFT;
    unsigned s = (unsigned)((asked == 0xFF ? slot_last : asked) + 1) & mask;
    return s == slot_last ? (s + 1) & mask : s;
}

/* Peers from the address in the last datagram, as ENet counts them for
 * its duplicatePeers limit (--max-per-ip). */
static size_t same_address(const ENetHost *host)
{
    size_t n = 0;
    for (size_t i = 0; i < host->peerCount; i++) {
        const ENetPeer *p = &host->peers[i];
        n += p->state != ENET_PEER_STATE_DISCONNECTED && p->state != ENET_PEER_STATE_CONNECTING &&
             p->address.host == host->receivedAddress.host;
    }
    return n;
}

/* The datagram's first command, if its header is a plain one (no
 * compression, no checksum): its offset, else 0. */
static size_t first_command(const ENetHost *host, unsigned flags)
{
    if (host->checksum || (flags & ENET_PROTOCOL_HEADER_FLAG_COMPRESSED))
        return 0;
    return flags & ENET_PROTOCOL_HEADER_FLAG_SENT_TIME ? 4 : 2;
}

/* Where the next search for a slot to offer starts, one for each host: a
 * start shared by several hosts (--hosts) jumped with every host's offers
 * and came round to a slot offered a moment before and not acknowledged
 * yet, so two newcomers were offered the same slot and the second never
 * got a peer. Thread-local: the game loop's hosts and the spectator host's
 * thread each keep their own; past the table's size, the last entry is
 * shared (more hosts than --hosts allows). */
static size_t *offer_start(const ENetHost *host)
{
    static _Thread_local struct {
        const ENetHost *host;
        size_t start;
    } starts[24];
    size_t i = 0;
    while (i + 1 < MR_ARRAY_LEN(starts) && starts[i].host && starts[i].host != host)
        i++;
    starts[i].host = host;
    return &starts[i].start;
}

bool sv_cookie_answer(ENetHost *host, uint64_t now_ms)
{
    const uint8_t *d = host->receivedData;
    size_t n = host->receivedDataLength;
    if (!keyed || n < 2)
        return false;
    size_t off = first_command(host, get16(d) & ENET_PROTOCOL_HEADER_FLAG_MASK);
    if (!off || n < off + sizeof(ENetProtocolConnect))
        return false;
    const uint8_t *c = d + off;
    unsigned client_peer = get16(c + 4);
    uint32_t mtu = get32(c + 8), window = get32(c + 12), channels = get32(c + 16);
    if ((c[0] & ENET_PROTOCOL_COMMAND_MASK) != ENET_PROTOCOL_COMMAND_CONNECT || client_peer > 0xFF ||
        mtu < host->mtu || channels < host->channelLimit || channels > ENET_PROTOCOL_MAXIMUM_CHANNEL_COUNT ||
        get32(c + 20) != 0 || get32(c + 24) != 0 || get32(c + 28) != ENET_PEER_PACKET_THROTTLE_INTERVAL ||
        get32(c + 32) != ENET_PEER_PACKET_THROTTLE_ACCELERATION ||
        get32(c + 36) != ENET_PEER_PACKET_THROTTLE_DECELERATION || get32(c + 44) != 0)
        return false;
    /* A free slot to offer, looked for from a moving start so that two
     * newcomers at once are rarely offered the same one, and downwards
     * from the top of the table: ENet gives its own CONNECTs the lowest
     * free slot, which must not be one offered here and not acknowledged
     * yet (the acknowledgement would find it taken, and the client would
     * believe itself connected to nobody). */
    size_t *startp = offer_start(host), start = *startp;
    const ENetPeer *slot = NULL;
    size_t top = host->peerCount - 1, k;
    for (k = 0; k < host->peerCount && !slot; k++) {
        const ENetPeer *p = &host->peers[top - (start + k) % host->peerCount];
        if (p->state == ENET_PEER_STATE_DISCONNECTED)
            slot = p;
    }
    if (!slot || same_address(host) >= host->duplicatePeers)
        return false;
    *startp = (start + k) % host->peerCount;
    unsigned s_out = next_session(c[6], slot->outgoingSessionID),
             s_in = next_session(c[7], slot->incomingSessionID);
    uint32_t ck =
        cookie(&host->receivedAddress, slot->incomingPeerID, client_peer, s_in, s_out, now_ms / EPOCH_MS);
    uint32_t win = host->incomingBandwidth == 0 ? ENET_PROTOCOL_MAXIMUM_WINDOW_SIZE
                                                : host->incomingBandwidth / ENET_PEER_WINDOW_SIZE_SCALE *
                                                      ENET_PROTOCOL_MINIMUM_WINDOW_SIZE;
    if (win > window)
        win = window;
    if (win < ENET_PROTOCOL_MINIMUM_WINDOW_SIZE)
        win = ENET_PROTOCOL_MINIMUM_WINDOW_SIZE;
    if (win > ENET_PROTOCOL_MAXIMUM_WINDOW_SIZE)
        win = ENET_PROTOCOL_MAXIMUM_WINDOW_SIZE;
    uint8_t out[4 + sizeof(ENetProtocolVerifyConnect)], *p = out;
    p = put16(p, client_peer | s_out << ENET_PROTOCOL_HEADER_SESSION_SHIFT |
                     ENET_PROTOCOL_HEADER_FLAG_SENT_TIME);
    p = put16(p, ck >> 16); /* echoed as receivedSentTime */
    *p++ = ENET_PROTOCOL_COMMAND_VERIFY_CONNECT | ENET_PROTOCOL_COMMAND_FLAG_ACKNOWLEDGE;
    *p++ = 0xFF;
    p = put16(p, ck & 0xFFFF); /* echoed as receivedReliableSequenceNumber */
    p = put16(p, slot->incomingPeerID);
    *p++ = (uint8_t)s_out;
    *p++ = (uint8_t)s_in;
    p = put32(p, host->mtu);
    p = put32(p, win);
    p = put32(p, (uint32_t)host->channelLimit);
    p = put32(p, host->incomingBandwidth);
    p = put32(p, host->outgoingBandwidth);
    memcpy(p, c + 28, 16); /* throttle interval, acceleration, deceleration, connectID: as sent */
    p += 16;
    ENetBuffer b = {.data = out, .dataLength = (size_t)(p - out)};
    if (enet_socket_send(host->socket, &host->receivedAddress, &b, 1) < 0)
        return false;
    host->totalSentPackets++; /* counted as ENet counts its own */
    host->totalSentData += (enet_uint32)b.dataLength;
    return true;
}

/* slot made into the connected peer the cookie promised, as
 * enet_protocol_handle_connect and the acknowledgement would have. */
static bool make_peer(ENetHost *host, ENetPeer *p, unsigned client_peer, unsigned s_in, unsigned s_out)
{
    size_t channels = host->channelLimit;
    p->channels = enet_malloc(channels * sizeof(ENetChannel));
    if (!p->channels)
        return false;
    p->channelCount = channels;
    for (size_t i = 0; i < channels; i++) {
        ENetChannel *ch = &p->channels[i];
        memset(ch, 0, sizeof *ch);
        enet_list_clear(&ch->incomingReliableCommands);
        enet_list_clear(&ch->incomingUnreliableCommands);
    }
    p->connectID = 0;
    p->address = host->receivedAddress;
    p->mtu = host->mtu;
    p->outgoingPeerID = (enet_uint16)client_peer;
    p->incomingBandwidth = 0;
    p->outgoingBandwidth = 0;
    p->packetThrottleInterval = ENET_PEER_PACKET_THROTTLE_INTERVAL;
    p->packetThrottleAcceleration = ENET_PEER_PACKET_THROTTLE_ACCELERATION;
    p->packetThrottleDeceleration = ENET_PEER_PACKET_THROTTLE_DECELERATION;
    p->eventData = 0;
    p->outgoingSessionID = (enet_uint8)s_out;
    p->incomingSessionID = (enet_uint8)s_in;
    uint32_t win = host->outgoingBandwidth == 0 ? ENET_PROTOCOL_MAXIMUM_WINDOW_SIZE
                                                : host->outgoingBandwidth / ENET_PEER_WINDOW_SIZE_SCALE *
                                                      ENET_PROTOCOL_MINIMUM_WINDOW_SIZE;
    p->windowSize = win < ENET_PROTOCOL_MINIMUM_WINDOW_SIZE   ? ENET_PROTOCOL_MINIMUM_WINDOW_SIZE
                    : win > ENET_PROTOCOL_MAXIMUM_WINDOW_SIZE ? ENET_PROTOCOL_MAXIMUM_WINDOW_SIZE
                                                              : win;
    /* lastReceiveTime stays 0, as after ENet's handshake before its
     * acknowledgement: the first acknowledgement then sets the round trip
     * time outright instead of easing it down from ENet's default 500 ms
     * (which made this peer's time-out, 32 resend intervals, take 30 s). */
    enet_peer_on_connect(p); /* counts it in host->connectedPeers, as ENet's state change would */
    p->state = ENET_PEER_STATE_CONNECTED;
    host->recalculateBandwidthLimits = 1;
    return true;
}

ENetPeer *sv_cookie_accept(ENetHost *host, uint64_t now_ms, bool *empty)
{
    uint8_t *d = host->receivedData;
    size_t n = host->receivedDataLength;
    if (!keyed || n < 4 + sizeof(ENetProtocolAcknowledge))
        return NULL;
    unsigned h = get16(d), id = h & ENET_PROTOCOL_MAXIMUM_PEER_ID;
    unsigned session = (h & ENET_PROTOCOL_HEADER_SESSION_MASK) >> ENET_PROTOCOL_HEADER_SESSION_SHIFT;
    if (id >= host->peerCount || host->peers[id].state != ENET_PEER_STATE_DISCONNECTED ||
        !(h & ENET_PROTOCOL_HEADER_FLAG_SENT_TIME) ||
        first_command(host, h & ENET_PROTOCOL_HEADER_FLAG_MASK) != 4)
        return NULL;
    const uint8_t *a = d + 4;
    if ((a[0] & ENET_PROTOCOL_COMMAND_MASK) != ENET_PROTOCOL_COMMAND_ACKNOWLEDGE || a[1] != 0xFF)
        return NULL;
    ENetPeer *p = &host->peers[id];
    uint32_t ck = (uint32_t)get16(a + 6) << 16 | get16(a + 4);
    unsigned client_peer = ck & 0xFF, s_out = ck >> 8 & 3, s_in = session;
    uint64_t epoch = now_ms / EPOCH_MS;
    if ((ck != cookie(&host->receivedAddress, id, client_peer, s_in, s_out, epoch) &&
         ck != cookie(&host->receivedAddress, id, client_peer, s_in, s_out, epoch - 1)) ||
        same_address(host) >= host->duplicatePeers)
        return NULL;
    if (!make_peer(host, p, client_peer, s_in, s_out))
        return NULL;
    /* The acknowledgement was ours alone: ENet has no VERIFY_CONNECT of
     * this peer to match it with (and its sent time is not a time). */
    memmove(d + 4, d + 4 + sizeof(ENetProtocolAcknowledge), n - 4 - sizeof(ENetProtocolAcknowledge));
    host->receivedDataLength = n - sizeof(ENetProtocolAcknowledge);
    *empty = host->receivedDataLength == 4;
    return p;
}
