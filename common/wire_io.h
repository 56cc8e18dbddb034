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

/* str8 into out (max bytes + NUL), checked with wire_text_ok; min is the
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

static inline bool get_game_id(reader *r, const char **out, uint16_t *outlen)
{
    uint16_t n;
    if (!get_u16(r, &n) || n == 0 || r->len - r->pos < n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!game_id_char_ok(r->p[r->pos + i]))
            return false;
    *out = (const char *)r->p + r->pos;
    *outlen = n;
    r->pos += n;
    return true;
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

/* wire_rec.c: the records messages (REPLAY_REQUEST .. BEST_LIST). Write:
 * false if m is not one of them. Read: -1 if not one of them, else whether
 * the body was good. */
bool wire_rec_write(writer *w, const wire_msg *m);
int wire_rec_read(reader *r, wire_msg *m);

#endif
