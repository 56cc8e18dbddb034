/* wire_io.h: the byte writer (asserts) and fail-closed reader that every message codec uses; private to
 * common/wire*.c. */
#ifndef MR_WIRE_IO_H
#define MR_WIRE_IO_H

#include <assert.h>
#include <string.h>

#include "wire.h"

/* ---- writer: asserts, because a bad write is our bug ----
 * With p == NULL it only counts, which is how wire_size works. */
typedef struct writer {
    uint8_t *p;
    size_t cap, len;
} writer;

static inline void put_u8(writer *w, unsigned v)
{
    assert(v <= 0xFF);
    if (w->p) {
        assert(w->len < w->cap);
        w->p[w->len] = (uint8_t)v;
    }
    w->len++;
}

static inline void put_u16(writer *w, unsigned v)
{
    assert(v <= 0xFFFF);
    put_u8(w, (v >> 8) & 0xFF);
    put_u8(w, v & 0xFF);
}

static inline void put_u32(writer *w, uint32_t v)
{
    put_u16(w, (v >> 16) & 0xFFFF);
    put_u16(w, v & 0xFFFF);
}

static inline void put_u64(writer *w, uint64_t v)
{
    put_u32(w, (uint32_t)(v >> 32));
    put_u32(w, (uint32_t)v);
}

static inline void put_bool(writer *w, bool b)
{
    put_u8(w, b ? 1 : 0);
}

static inline void put_bytes(writer *w, const void *src, size_t n)
{
    const uint8_t *s = src;
    for (size_t i = 0; i < n; i++)
        put_u8(w, s[i]);
}

/* str8: u8 length, bytes (no NUL). */
static inline void put_str8(writer *w, const char *s, size_t max)
{
    size_t n = strlen(s);
    assert(n <= max && n <= 0xFF && txt_text_ok(s, n));
    (void)max; /* only checked */
    put_u8(w, (unsigned)n);
    put_bytes(w, s, n);
}

static inline bool game_id_char_ok(uint8_t c)
{
    return c > 0x20 && c < 0x7F;
}

static inline void put_game_id(writer *w, const char *s, size_t n)
{
    assert(s && n >= 1 && n <= WIRE_GAME_ID_MAX);
    for (size_t i = 0; i < n; i++)
        assert(game_id_char_ok((uint8_t)s[i]));
    put_u16(w, (unsigned)n);
    put_bytes(w, s, n);
}

static inline void put_code(writer *w, const char *code)
{
    assert(wire_room_code_ok(code));
    put_bytes(w, code, WIRE_ROOM_CODE_LEN);
}

static inline void put_move(writer *w, pz_move mv)
{
    assert(mv.type >= PZ_MOVE_STEP && mv.type <= PZ_MOVE_TYPE_MAX && mv.dir < PZ_DIR_COUNT);
    put_u8(w, mv.type);
    put_u8(w, mv.dir);
    put_u16(w, mv.x);
    put_u16(w, mv.y);
}

/* ---- reader: every get checks the length first and fails closed ---- */
typedef struct reader {
    const uint8_t *p;
    size_t len, pos;
} reader;

static inline bool get_u8(reader *r, uint8_t *v)
{
    if (r->pos >= r->len)
        return false;
    *v = r->p[r->pos++];
    return true;
}

static inline bool get_u16(reader *r, uint16_t *v)
{
    if (r->len - r->pos < 2)
        return false;
    *v = (uint16_t)((unsigned)r->p[r->pos] << 8 | r->p[r->pos + 1]);
    r->pos += 2;
    return true;
}

static inline bool get_u32(reader *r, uint32_t *v)
{
    uint16_t hi, lo;
    if (!(get_u16(r, &hi) && get_u16(r, &lo)))
        return false;
    *v = (uint32_t)hi << 16 | lo;
    return true;
}

static inline bool get_u64(reader *r, uint64_t *v)
{
    uint32_t hi, lo;
    if (!(get_u32(r, &hi) && get_u32(r, &lo)))
        return false;
    *v = (uint64_t)hi << 32 | lo;
    return true;
}

static inline bool get_token(reader *r, match_token_t *t)
{
    if (r->len - r->pos < MATCH_TOKEN_BYTES)
        return false;
    memcpy(t->b, r->p + r->pos, MATCH_TOKEN_BYTES);
    r->pos += MATCH_TOKEN_BYTES;
    return true;
}

static inline bool get_i16(reader *r, int16_t *v)
{
    uint16_t u;
    if (!get_u16(r, &u))
        return false;
    *v = (int16_t)(u >= 0x8000u ? (int)u - 0x10000 : (int)u);
    return true;
}

static inline bool get_i32(reader *r, int32_t *v)
{
    uint32_t u;
    if (!get_u32(r, &u))
        return false;
    *v = u >= 0x80000000u ? (int32_t)(u - 0x80000000u) - INT32_MAX - 1 : (int32_t)u;
    return true;
}

static inline bool get_bool(reader *r, bool *b)
{
    uint8_t v;
    if (!get_u8(r, &v) || v > 1)
        return false;
    *b = v == 1;
    return true;
}

/* A u8 that must be below limit. */
static inline bool get_below(reader *r, uint8_t *v, unsigned limit)
{
    return get_u8(r, v) && *v < limit;
}

/* str8 into out (max bytes + NUL), checked with txt_text_ok; min is the
 * shortest allowed length. */
static inline bool get_str8(reader *r, char *out, size_t min, size_t max)
{
    uint8_t n;
    if (!get_u8(r, &n) || n < min || n > max || r->len - r->pos < n)
        return false;
    const char *s = (const char *)r->p + r->pos;
    if (!txt_text_ok(s, n))
        return false;
    memcpy(out, s, n);
    out[n] = '\0';
    r->pos += n;
    return true;
}

/* A name the server sent (WELCOME, ROOM_STATE, discovery): the name rule,
 * as the server only ever sends names that follow it. */
static inline bool get_name(reader *r, char out[WIRE_NAME_MAX + 1])
{
    return get_str8(r, out, 1, WIRE_NAME_MAX) && txt_name_ok(out, strlen(out));
}

/* n bytes, each passing ok(); *out points at them in the buffer. */
static inline bool get_span(reader *r, size_t n, bool (*ok)(uint8_t), const char **out)
{
    if (r->len - r->pos < n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!ok(r->p[r->pos + i]))
            return false;
    *out = (const char *)r->p + r->pos;
    r->pos += n;
    return true;
}

static inline bool get_game_id(reader *r, const char **out, uint16_t *outlen)
{
    return get_u16(r, outlen) && *outlen != 0 && get_span(r, *outlen, game_id_char_ok, out);
}

static inline bool get_code(reader *r, char out[WIRE_ROOM_CODE_LEN + 1])
{
    if (r->len - r->pos < WIRE_ROOM_CODE_LEN)
        return false;
    memcpy(out, r->p + r->pos, WIRE_ROOM_CODE_LEN);
    out[WIRE_ROOM_CODE_LEN] = '\0';
    r->pos += WIRE_ROOM_CODE_LEN;
    return wire_room_code_ok(out);
}

static inline bool get_move(reader *r, pz_move *mv)
{
    return get_u8(r, &mv->type) && mv->type >= PZ_MOVE_STEP && mv->type <= PZ_MOVE_TYPE_MAX &&
           get_below(r, &mv->dir, PZ_DIR_COUNT) && get_u16(r, &mv->x) && get_u16(r, &mv->y);
}

static inline bool get_slot(reader *r, uint8_t *slot)
{
    return get_below(r, slot, 2);
}

static inline bool get_series(reader *r, uint8_t *n)
{
    return get_u8(r, n) && *n >= 1 && *n <= WIRE_MAX_SERIES;
}

static inline bool get_params(reader *r, pz_params *p)
{
    uint8_t kind, diff;
    uint16_t w, h;
    if (!(get_below(r, &kind, PZ_KIND_COUNT) && get_u16(r, &w) && get_u16(r, &h) &&
          get_below(r, &diff, PZ_DIFF_COUNT)))
        return false;
    p->kind = kind;
    p->w = w;
    p->h = h;
    p->diff = diff;
    return true;
}

static inline bool at_end(const reader *r)
{
    return r->pos == r->len;
}

/* The head every discovery datagram opens with (wire.c, wire_disc.c): its
 * magic, the sender's protocol version, the probe's nonce. */
static inline void put_disc_head(writer *w, uint32_t magic, uint16_t version, uint32_t nonce)
{
    put_u32(w, magic);
    put_u16(w, version);
    put_u32(w, nonce);
}

static inline bool get_disc_head(reader *r, uint32_t magic, uint16_t *version, uint32_t *nonce)
{
    uint32_t m;
    return get_u32(r, &m) && m == magic && get_u16(r, version) && get_u32(r, nonce);
}

/* Every discovery reader's start: r over buf, out (size bytes) zeroed, then
 * the head. False when buf or out is NULL or the head is not magic's. */
static inline bool get_disc_start(reader *r, const uint8_t *buf, size_t len, void *out, size_t size,
                                  uint32_t magic, uint16_t *version, uint32_t *nonce)
{
    if (!buf || !out)
        return false;
    *r = (reader){buf, len, 0};
    memset(out, 0, size);
    return get_disc_head(r, magic, version, nonce);
}

/* ---- field kinds of wire_msgs.h: w_KIND(writer, const field *, args) asserts,
 * r_KIND(reader, field *, args) checks ---- */

/* Plain numbers: the value as it is. */
#define WIRE_PLAIN_KIND(K, T, put, get)                                                                      \
    static inline void w_##K(writer *w, const T *v)                                                          \
    {                                                                                                        \
        put(w, *v);                                                                                          \
    }                                                                                                        \
    static inline bool r_##K(reader *r, T *v)                                                                \
    {                                                                                                        \
        return get(r, v);                                                                                    \
    }
static inline void put_i16(writer *w, int16_t v)
{
    put_u16(w, (uint16_t)v);
}
static inline void put_i32(writer *w, int32_t v)
{
    put_u32(w, (uint32_t)v);
}
WIRE_PLAIN_KIND(U8, uint8_t, put_u8, get_u8)
WIRE_PLAIN_KIND(U16, uint16_t, put_u16, get_u16)
WIRE_PLAIN_KIND(U32, uint32_t, put_u32, get_u32)
WIRE_PLAIN_KIND(U64, uint64_t, put_u64, get_u64)
WIRE_PLAIN_KIND(I16, int16_t, put_i16, get_i16)
WIRE_PLAIN_KIND(I32, int32_t, put_i32, get_i32)
WIRE_PLAIN_KIND(BOOL, bool, put_bool, get_bool)
#undef WIRE_PLAIN_KIND

static inline void w_RANGE8(writer *w, const uint8_t *v, unsigned lo, unsigned hi)
{
    assert(*v >= lo && *v <= hi);
    (void)lo, (void)hi; /* only checked */
    put_u8(w, *v);
}
static inline bool r_RANGE8(reader *r, uint8_t *v, unsigned lo, unsigned hi)
{
    return get_u8(r, v) && *v >= lo && *v <= hi;
}
/* A slot, or 0xFF: WIRE_SLOT_NONE (no winner), WIRE_SLOT_WATCHER. */
static inline void w_SLOT_OR_NONE(writer *w, const uint8_t *v)
{
    assert(*v < 2 || *v == 0xFF);
    put_u8(w, *v);
}
static inline bool r_SLOT_OR_NONE(reader *r, uint8_t *v)
{
    return get_u8(r, v) && (*v < 2 || *v == 0xFF);
}
static inline void w_PORT(writer *w, const uint16_t *v)
{
    assert(*v != 0);
    put_u16(w, *v);
}
static inline bool r_PORT(reader *r, uint16_t *v)
{
    return get_u16(r, v) && *v != 0;
}
/* A match id: lo..INT64_MAX (0 where it means "none"). */
static inline void w_ID(writer *w, const uint64_t *v, uint64_t lo)
{
    assert(*v >= lo && *v <= INT64_MAX);
    (void)lo; /* only checked */
    put_u64(w, *v);
}
static inline bool r_ID(reader *r, uint64_t *v, uint64_t lo)
{
    return get_u64(r, v) && *v >= lo && *v <= INT64_MAX;
}
static inline void w_CODE(writer *w, const char (*code)[WIRE_ROOM_CODE_LEN + 1])
{
    put_code(w, *code);
}
static inline bool r_CODE(reader *r, char (*code)[WIRE_ROOM_CODE_LEN + 1])
{
    return get_code(r, *code);
}
static inline void w_TEXT(writer *w, const char (*text)[WIRE_TEXT_MAX + 1])
{
    put_str8(w, *text, WIRE_TEXT_MAX);
}
static inline bool r_TEXT(reader *r, char (*text)[WIRE_TEXT_MAX + 1])
{
    return get_str8(r, *text, 0, WIRE_TEXT_MAX);
}
static inline void w_NAME(writer *w, const char (*name)[WIRE_NAME_MAX + 1])
{
    assert(txt_name_ok(*name, strlen(*name)));
    put_str8(w, *name, WIRE_NAME_MAX);
}
static inline bool r_NAME(reader *r, char (*name)[WIRE_NAME_MAX + 1])
{
    return get_name(r, *name);
}
static inline void w_MOVE(writer *w, const pz_move *mv)
{
    put_move(w, *mv);
}
static inline bool r_MOVE(reader *r, pz_move *mv)
{
    return get_move(r, mv);
}
static inline void w_TOKEN(writer *w, const match_token_t *t)
{
    put_bytes(w, t->b, MATCH_TOKEN_BYTES);
}
static inline bool r_TOKEN(reader *r, match_token_t *t)
{
    return get_token(r, t);
}
static inline void w_PARAMS(writer *w, const pz_params *p)
{
    assert(p->kind >= 0 && p->kind < PZ_KIND_COUNT && p->diff >= 0 && p->diff < PZ_DIFF_COUNT);
    assert(p->w >= 0 && p->h >= 0 && p->w <= 0xFFFF && p->h <= 0xFFFF);
    put_u8(w, (unsigned)p->kind);
    put_u16(w, (unsigned)p->w);
    put_u16(w, (unsigned)p->h);
    put_u8(w, (unsigned)p->diff);
}
static inline bool r_PARAMS(reader *r, pz_params *p)
{
    return get_params(r, p);
}
/* Any struct with game_id and game_id_len. */
#define w_GAME_ID(w, s) put_game_id(w, (s)->game_id, (s)->game_id_len)
#define r_GAME_ID(r, s) get_game_id(r, &(s)->game_id, &(s)->game_id_len)

/* The parts with a layout of their own (wire.c, wire_rec.c): the writer
 * and the reader of each declared together. */
#define WIRE_OWN_KIND(K, T)                                                                                  \
    void w_##K(writer *w, const T *v);                                                                       \
    bool r_##K(reader *r, T *v);
WIRE_OWN_KIND(HELLO, struct wire_hello)
WIRE_OWN_KIND(CREATE, wire_create)
WIRE_OWN_KIND(PLAYER, wire_player)
WIRE_OWN_KIND(DESC_BYTES, wire_desc_chunk)
WIRE_OWN_KIND(ROOMS, wire_room_list)
WIRE_OWN_KIND(LOG_MOVES, struct wire_move_log)
WIRE_OWN_KIND(REPLAY_BYTES, wire_replay_chunk)
WIRE_OWN_KIND(RECENT_ENTRIES, wire_recent_list)
WIRE_OWN_KIND(BEST_GAME_ID, wire_best_req)
WIRE_OWN_KIND(BEST_ENTRIES, wire_best_list)
#undef WIRE_OWN_KIND

#endif
