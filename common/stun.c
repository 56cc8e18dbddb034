/* stun.c: STUN/TURN message encoding and fail-closed decoding (RFC 5389, RFC 5766); see stun.h. */
#include "stun.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static void wr16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}
static void wr32(uint8_t *p, uint32_t v)
{
    wr16(p, (uint16_t)(v >> 16));
    wr16(p + 2, (uint16_t)v);
}

/* The message type interleaves the class bits C1 (bit 8) and C0 (bit 4)
 * with the 12 method bits (RFC 5389 6). */
static uint16_t type_of(uint16_t method, uint8_t cls)
{
    return (uint16_t)((method & 0x000F) | (method & 0x0070) << 1 | (method & 0x0F80) << 2 | (cls & 1) << 4 |
                      (cls & 2) << 7);
}

bool stun_looks_like(const uint8_t *buf, size_t len)
{
    return len >= STUN_HEADER && (buf[0] & 0xC0) == 0 && rd32(buf + 4) == STUN_MAGIC &&
           (size_t)rd16(buf + 2) + STUN_HEADER == len && (rd16(buf + 2) & 3) == 0;
}

static bool read_addr(const uint8_t *v, size_t len, bool xor, stun_addr *a)
{
    if (len < 4 || v[0] != 0)
        return false;
    memset(a, 0, sizeof *a);
    if (v[1] == 0x02) {
        if (len != 20)
            return false;
        a->v6 = true;
        return true;
    }
    if (v[1] != 0x01 || len != 8)
        return false;
    uint16_t port = rd16(v + 2);
    uint32_t ip = rd32(v + 4);
    if (xor) {
        port ^= (uint16_t)(STUN_MAGIC >> 16);
        ip ^= STUN_MAGIC;
    }
    a->port = port;
    a->ip = ip;
    return true;
}

static bool read_text(const uint8_t *v, size_t len, char *out)
{
    if (len > STUN_TEXT_MAX)
        return false;
    for (size_t i = 0; i < len; i++)
        if (v[i] == 0)
            return false;
    memcpy(out, v, len);
    out[len] = 0;
    return true;
}

static bool read_attr(stun_msg *m, uint16_t type, const uint8_t *v, size_t len)
{
    switch (type) {
    case STUN_A_XOR_MAPPED_ADDRESS:
        m->has_mapped = true;
        return read_addr(v, len, true, &m->mapped);
    case STUN_A_MAPPED_ADDRESS:
        if (m->has_mapped)
            return true; /* the XOR form wins */
        m->has_mapped = true;
        return read_addr(v, len, false, &m->mapped);
    case STUN_A_XOR_RELAYED_ADDRESS:
        m->has_relayed = true;
        return read_addr(v, len, true, &m->relayed);
    case STUN_A_XOR_PEER_ADDRESS:
        if (m->has_peer)
            return true;
        m->has_peer = true;
        return read_addr(v, len, true, &m->peer);
    case STUN_A_LIFETIME:
        if (len != 4)
            return false;
        m->has_lifetime = true;
        m->lifetime = rd32(v);
        return true;
    case STUN_A_CHANNEL_NUMBER:
        if (len != 4)
            return false;
        m->has_channel = true;
        m->channel = rd16(v);
        return true;
    case STUN_A_ERROR_CODE:
        if (len < 4 || v[2] < 3 || v[2] > 6 || v[3] > 99)
            return false;
        m->error_code = v[2] * 100 + v[3];
        /* The reason is UTF-8 of up to 763 bytes: keep what fits. */
        return read_text(v + 4, len - 4 > STUN_TEXT_MAX ? STUN_TEXT_MAX : len - 4, m->reason);
    case STUN_A_REALM:
        return read_text(v, len, m->realm);
    case STUN_A_NONCE:
        return read_text(v, len, m->nonce);
    case STUN_A_DATA:
        m->data = v;
        m->data_len = len;
        return true;
    default:
        return true;
    }
}

bool stun_decode(const uint8_t *buf, size_t len, stun_msg *m)
{
    memset(m, 0, sizeof *m);
    if (!buf || !stun_looks_like(buf, len))
        return false;
    uint16_t t = rd16(buf);
    m->method = (uint16_t)((t & 0x000F) | (t & 0x00E0) >> 1 | (t & 0x3E00) >> 2);
    m->cls = (uint8_t)((t >> 4 & 1) | (t >> 7 & 2));
    memcpy(m->tid, buf + 8, STUN_TID_LEN);
    size_t at = STUN_HEADER;
    while (at < len) {
        if (len - at < 4)
            return false;
        uint16_t type = rd16(buf + at), alen = rd16(buf + at + 2);
        size_t padded = ((size_t)alen + 3) & ~(size_t)3;
        if (padded > len - at - 4)
            return false;
        if (m->integrity_at && type != 0x8028) /* only FINGERPRINT may follow integrity */
            return false;
        if (type == STUN_A_MESSAGE_INTEGRITY) {
            if (alen != 20)
                return false;
            m->integrity_at = at;
        } else if (!read_attr(m, type, buf + at + 4, alen)) {
            return false;
        }
        at += 4 + padded;
    }
    return true;
}

void stun_begin(stun_writer *w, uint8_t *buf, size_t cap, uint16_t method, uint8_t cls,
                const uint8_t tid[STUN_TID_LEN])
{
    assert(cap >= STUN_HEADER && method < 0x1000 && cls < 4);
    w->buf = buf;
    w->cap = cap;
    w->len = STUN_HEADER;
    wr16(buf, type_of(method, cls));
    wr16(buf + 2, 0);
    wr32(buf + 4, STUN_MAGIC);
    memcpy(buf + 8, tid, STUN_TID_LEN);
}

void stun_put(stun_writer *w, uint16_t type, const void *data, size_t len)
{
    size_t padded = (len + 3) & ~(size_t)3;
    assert(len <= 0xFFFF && w->cap - w->len >= 4 + padded);
    uint8_t *p = w->buf + w->len;
    wr16(p, type);
    wr16(p + 2, (uint16_t)len);
    if (len)
        memcpy(p + 4, data, len);
    memset(p + 4 + len, 0, padded - len);
    w->len += 4 + padded;
    wr16(w->buf + 2, (uint16_t)(w->len - STUN_HEADER));
}

void stun_put_u32(stun_writer *w, uint16_t type, uint32_t v)
{
    uint8_t b[4];
    wr32(b, v);
    stun_put(w, type, b, 4);
}

void stun_put_text(stun_writer *w, uint16_t type, const char *text)
{
    stun_put(w, type, text, strlen(text));
}

void stun_put_xor_addr(stun_writer *w, uint16_t type, stun_addr a)
{
    uint8_t b[8] = {0, 0x01};
    wr16(b + 2, (uint16_t)(a.port ^ (STUN_MAGIC >> 16)));
    wr32(b + 4, a.ip ^ STUN_MAGIC);
    stun_put(w, type, b, 8);
}

size_t stun_integrity_slot(stun_writer *w)
{
    static const uint8_t zero[20];
    stun_put(w, STUN_A_MESSAGE_INTEGRITY, zero, sizeof zero);
    return w->len - 20;
}

size_t stun_end(const stun_writer *w)
{
    return w->len;
}

size_t stun_channel_encode(uint8_t *buf, size_t cap, uint16_t channel, const void *data, size_t len)
{
    size_t padded = (len + 3) & ~(size_t)3;
    (void)cap;
    assert(channel >= 0x4000 && channel <= 0x7FFF && len <= 0xFFFF && cap >= 4 + padded);
    wr16(buf, channel);
    wr16(buf + 2, (uint16_t)len);
    if (len)
        memcpy(buf + 4, data, len);
    memset(buf + 4 + len, 0, padded - len);
    return 4 + padded;
}

bool stun_channel_decode(const uint8_t *buf, size_t len, uint16_t *channel, const uint8_t **data,
                         size_t *data_len)
{
    if (!buf || len < 4)
        return false;
    uint16_t ch = rd16(buf), n = rd16(buf + 2);
    /* Over UDP the padding may be left off (RFC 5766 11.5). */
    if (ch < 0x4000 || ch > 0x7FFF || (size_t)n > len - 4)
        return false;
    *channel = ch;
    *data = buf + 4;
    *data_len = n;
    return true;
}

void stun_addr_text(stun_addr a, char *out, size_t cap)
{
    snprintf(out, cap, "%u.%u.%u.%u:%u", a.ip >> 24, a.ip >> 16 & 255, a.ip >> 8 & 255, a.ip & 255, a.port);
}

bool stun_addr_parse(const char *text, stun_addr *a)
{
    unsigned o[4], port;
    char tail;
    if (!text || sscanf(text, "%3u.%3u.%3u.%3u:%5u%c", &o[0], &o[1], &o[2], &o[3], &port, &tail) != 5)
        return false;
    for (int i = 0; i < 4; i++)
        if (o[i] > 255)
            return false;
    if (port < 1 || port > 65535 || strchr(text, ' ') || strchr(text, '+') || strchr(text, '-'))
        return false;
    memset(a, 0, sizeof *a);
    a->ip = o[0] << 24 | o[1] << 16 | o[2] << 8 | o[3];
    a->port = (uint16_t)port;
    return true;
}
