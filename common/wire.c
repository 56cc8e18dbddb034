/* wire.c: byte-by-byte encoding and fail-closed decoding of every network message. */
#include "wire.h"

#include <assert.h>
#include <string.h>

#include "match.h"
#include "secrand.h"
#include "wire_io.h"
#include "wire_msgs.h"

/* ---- the parts of wire_msgs.h with a layout of their own ---- */

void w_HELLO(writer *w, const struct wire_hello *h)
{
    put_u32(w, h->magic);
    put_u16(w, h->version);
    /* Any bytes: the server judges the name (REFUSED BAD_NAME with the
     * reason), so tests may send bad ones. Clients check with
     * txt_name_problem first. */
    size_t n = strlen(h->name);
    assert(n <= WIRE_HELLO_NAME_RAW);
    put_u8(w, (unsigned)n);
    put_bytes(w, h->name, n);
}

bool r_HELLO(reader *r, struct wire_hello *h)
{
    if (!(get_u32(r, &h->magic) && h->magic == WIRE_MAGIC && get_u16(r, &h->version)))
        return false;
    if (h->version != WIRE_VERSION) {
        /* Only magic and version are fixed across versions: the rest of
         * another version's HELLO is not ours to judge, and the server
         * answers with a readable REFUSED. */
        r->pos = r->len;
        return true;
    }
    /* The name is raw bytes here, judged by txt_name_problem, so that a
     * bad name gets BAD_NAME with a reason rather than BAD_MESSAGE. */
    uint8_t n;
    if (!get_u8(r, &n) || r->len - r->pos < n)
        return false;
    memcpy(h->name, r->p + r->pos, n);
    h->name[n] = '\0';
    h->name_len = n;
    r->pos += n;
    return true;
}

/* Only the layout is asserted and checked: the values (series, kind, size,
 * difficulty, seed) are the server's to judge (wire_create_problem,
 * BAD_PARAMS with a reason rather than BAD_MESSAGE), so a test can send
 * bad ones and whatever decodes writes back. */
void w_CREATE(writer *w, const wire_create *c)
{
    put_u8(w, c->by_id ? 1 : 0);
    put_u8(w, c->series_len);
    if (c->by_id) {
        put_game_id(w, c->game_id, c->game_id_len);
        return;
    }
    assert(c->params.kind >= 0 && c->params.kind <= 0xFF && c->params.diff >= 0 && c->params.diff <= 0xFF);
    assert(c->params.w >= 0 && c->params.h >= 0 && c->params.w <= 0xFFFF && c->params.h <= 0xFFFF);
    put_u8(w, (unsigned)c->params.kind);
    put_u16(w, (unsigned)c->params.w);
    put_u16(w, (unsigned)c->params.h);
    put_u8(w, (unsigned)c->params.diff);
    put_bool(w, c->has_seed);
    put_u64(w, c->seed);
}

bool r_CREATE(reader *r, wire_create *c)
{
    uint8_t mode, kind, diff;
    uint16_t w, h;
    if (!(get_below(r, &mode, 2) && get_u8(r, &c->series_len)))
        return false;
    c->by_id = mode == 1;
    if (c->by_id)
        return get_game_id(r, &c->game_id, &c->game_id_len);
    if (!(get_u8(r, &kind) && get_u16(r, &w) && get_u16(r, &h) && get_u8(r, &diff) &&
          get_bool(r, &c->has_seed) && get_u64(r, &c->seed)))
        return false;
    c->params = (pz_params){kind, w, h, diff};
    return true;
}

/* A ROOM_STATE seat: flags (present 1, connected 2, ready 4, rematch 8),
 * then the name (the name rule; empty for an empty seat). */
void w_PLAYER(writer *w, const wire_player *p)
{
    put_u8(w,
           (p->present ? 1u : 0u) | (p->connected ? 2u : 0u) | (p->ready ? 4u : 0u) | (p->rematch ? 8u : 0u));
    assert(p->present ? txt_name_ok(p->name, strlen(p->name)) : p->name[0] == '\0');
    put_str8(w, p->name, WIRE_NAME_MAX);
}

bool r_PLAYER(reader *r, wire_player *p)
{
    uint8_t f;
    if (!get_u8(r, &f) || (f & ~0x0Fu))
        return false;
    p->present = f & 1;
    p->connected = f & 2;
    p->ready = f & 4;
    p->rematch = f & 8;
    if (!p->present)
        return f == 0 && get_str8(r, p->name, 0, 0);
    return get_name(r, p->name);
}

/* DESC_CHUNK after offset: count, then count game ID bytes inside total. */
void w_DESC_BYTES(writer *w, const wire_desc_chunk *d)
{
    assert(d->count <= WIRE_DESC_CHUNK_MAX && (d->count == 0 || d->bytes));
    assert((uint64_t)d->offset + d->count <= d->total);
    put_u16(w, d->count);
    for (unsigned i = 0; i < d->count; i++)
        assert(game_id_char_ok((uint8_t)d->bytes[i]));
    put_bytes(w, d->bytes, d->count);
}

bool r_DESC_BYTES(reader *r, wire_desc_chunk *d)
{
    return get_u16(r, &d->count) && d->count <= WIRE_DESC_CHUNK_MAX &&
           (uint64_t)d->offset + d->count <= d->total && get_span(r, d->count, game_id_char_ok, &d->bytes);
}

/* A seat's name in ROOM_LIST: the name rule, or empty for no player. */
static void put_seat_name(writer *w, const char *name)
{
    assert(!name[0] || txt_name_ok(name, strlen(name)));
    put_str8(w, name, WIRE_NAME_MAX);
}

static bool get_seat_name(reader *r, char out[WIRE_NAME_MAX + 1])
{
    if (r->pos < r->len && r->p[r->pos] == 0) {
        r->pos++;
        out[0] = '\0';
        return true;
    }
    return get_name(r, out);
}

/* ROOM_LIST after total: count (<= total), then each room. */
void w_ROOMS(writer *w, const wire_room_list *l)
{
    assert(l->count <= WIRE_ROOM_LIST_MAX && l->count <= l->total);
    put_u8(w, l->count);
    for (unsigned i = 0; i < l->count; i++) {
        const wire_room_entry *e = &l->room[i];
        assert(e->phase == MATCH_COUNTDOWN || e->phase == MATCH_RACING);
        put_code(w, e->code);
        put_u8(w, e->phase);
        w_PARAMS(w, &e->params);
        put_u16(w, e->spectators);
        put_seat_name(w, e->name[0]);
        put_seat_name(w, e->name[1]);
    }
}

bool r_ROOMS(reader *r, wire_room_list *l)
{
    if (!(get_u8(r, &l->count) && l->count <= WIRE_ROOM_LIST_MAX && l->count <= l->total))
        return false;
    for (unsigned i = 0; i < l->count; i++) {
        wire_room_entry *e = &l->room[i];
        if (!(get_code(r, e->code) && get_u8(r, &e->phase) &&
              (e->phase == MATCH_COUNTDOWN || e->phase == MATCH_RACING) && get_params(r, &e->params) &&
              get_u16(r, &e->spectators) && get_seat_name(r, e->name[0]) && get_seat_name(r, e->name[1])))
            return false;
    }
    return true;
}

/* MOVE_LOG after first: count, last, count moves. */
void w_LOG_MOVES(writer *w, const struct wire_move_log *l)
{
    assert(l->count <= WIRE_MOVE_LOG_MAX);
    put_u16(w, l->count);
    put_bool(w, l->last);
    for (unsigned i = 0; i < l->count; i++)
        put_move(w, l->moves[i]);
}

bool r_LOG_MOVES(reader *r, struct wire_move_log *l)
{
    if (!(get_u16(r, &l->count) && l->count <= WIRE_MOVE_LOG_MAX && get_bool(r, &l->last)))
        return false;
    for (unsigned i = 0; i < l->count; i++)
        if (!get_move(r, &l->moves[i]))
            return false;
    return true;
}

/* ---- every message, from wire_msgs.h ---- */

#define WRITE_FIELD(kind, ...) w_##kind(w, &__VA_ARGS__);
#define READ_FIELD(kind, ...) &&r_##kind(r, &__VA_ARGS__)

static void write_body(writer *w, const wire_msg *m)
{
    put_u8(w, m->type);
    switch (m->type) {
#define WRITE_MSG(name, member, fields)                                                                      \
    case WIRE_##name:                                                                                        \
        fields(WRITE_FIELD, m->member) return;
        WIRE_MESSAGES(WRITE_MSG)
#undef WRITE_MSG
    default:
        assert(!"wire_write: unknown message type");
    }
}

/* Clears only the body of the message read (not the whole union: a MOVE
 * is 11 bytes, the union 2.4 KiB), then reads it field by field. */
static bool read_body(reader *r, wire_msg *m)
{
    switch (m->type) {
#define READ_MSG(name, member, fields)                                                                       \
    case WIRE_##name:                                                                                        \
        memset(&m->member, 0, sizeof m->member);                                                             \
        return true fields(READ_FIELD, m->member);
        WIRE_MESSAGES(READ_MSG)
#undef READ_MSG
    default:
        return false;
    }
}

size_t wire_size(const wire_msg *m)
{
    writer w = {NULL, 0, 0};
    write_body(&w, m);
    return w.len;
}

size_t wire_write(const wire_msg *m, uint8_t *buf, size_t cap)
{
    assert(buf);
    writer w = {buf, cap, 0};
    write_body(&w, m);
    return w.len;
}

const char *wire_create_problem(const wire_create *c)
{
    if (c->series_len < 1 || c->series_len > WIRE_MAX_SERIES)
        return "series must be best of 1 to 99";
    if (c->by_id)
        return NULL; /* the game ID is parsed by its own rules */
    if (c->params.kind < 0 || c->params.kind >= PZ_KIND_COUNT)
        return "unknown puzzle kind (0 sum, 1 maze, 2 ice, 3 pipes)";
    if ((c->params.w == 0) != (c->params.h == 0))
        return "size: width and height must both be 0 (the default size) or both at least 1";
    if (c->params.diff < 0 || c->params.diff >= PZ_DIFF_COUNT)
        return "unknown difficulty (0 easy, 1 medium, 2 hard)";
    if (!c->has_seed && c->seed != 0)
        return "seed must be 0 when has_seed is 0";
    if (c->params.w == 0)
        return NULL; /* the kind's default size */
    return pz_validate_params(&c->params);
}

/* *m is only partly cleared (read_body): on success every field of the
 * type's body is set or zero; the union's other bytes are not the
 * caller's to read. */
bool wire_read(const uint8_t *buf, size_t len, wire_msg *m)
{
    if (!buf || !m || len == 0 || len > WIRE_MSG_MAX)
        return false;
    reader r = {buf, len, 1};
    m->type = buf[0];
    return read_body(&r, m) && at_end(&r);
}

const char *wire_type_name(int type)
{
    switch (type) {
#define NAME_MSG(name, member, fields)                                                                       \
    case WIRE_##name:                                                                                        \
        return #name;
        WIRE_MESSAGES(NAME_MSG)
#undef NAME_MSG
    case WIRE_BUNDLE:
        return "BUNDLE";
    default:
        return "?";
    }
}

/* ---- BUNDLE ---- */

bool wire_bundle_add(uint8_t *buf, size_t cap, size_t *used, const void *msg, size_t len)
{
    assert(buf && used && msg && len >= 1 && cap <= WIRE_BUNDLE_MAX);
    assert(((const uint8_t *)msg)[0] != WIRE_BUNDLE);
    size_t at = *used ? *used : 1;
    if (at + 2 + len > cap)
        return false;
    buf[0] = WIRE_BUNDLE;
    buf[at] = (uint8_t)(len >> 8);
    buf[at + 1] = (uint8_t)len;
    memcpy(buf + at + 2, msg, len);
    *used = at + 2 + len;
    return true;
}

bool wire_bundle_open(wire_bundle_it *it, const uint8_t *buf, size_t len)
{
    if (!it || !buf || len < 1 + 2 + 1 || len > WIRE_BUNDLE_MAX || buf[0] != WIRE_BUNDLE)
        return false;
    for (size_t at = 1; at < len;) {
        if (len - at < 2)
            return false;
        size_t n = (size_t)buf[at] << 8 | buf[at + 1];
        at += 2;
        if (n == 0 || n > len - at || buf[at] == WIRE_BUNDLE)
            return false;
        at += n;
    }
    it->p = buf + 1;
    it->left = len - 1;
    return true;
}

bool wire_bundle_next(wire_bundle_it *it, const uint8_t **msg, size_t *len)
{
    if (it->left < 3)
        return false;
    size_t n = (size_t)it->p[0] << 8 | it->p[1];
    assert(n >= 1 && n <= it->left - 2); /* wire_bundle_open checked */
    *msg = it->p + 2;
    *len = n;
    it->p += 2 + n;
    it->left -= 2 + n;
    return true;
}

/* ---- LAN discovery ---- */

size_t wire_write_probe(const wire_probe *p, uint8_t *buf, size_t cap)
{
    writer w = {buf, cap, 0};
    put_disc_head(&w, WIRE_PROBE_MAGIC, p->version, p->nonce);
    return w.len;
}

bool wire_read_probe(const uint8_t *buf, size_t len, wire_probe *p)
{
    reader r;
    if (!get_disc_start(&r, buf, len, p, sizeof *p, WIRE_PROBE_MAGIC, &p->version, &p->nonce))
        return false;
    /* A later version's probe may carry more: still answer it. */
    return p->version != WIRE_VERSION || at_end(&r);
}

size_t wire_write_probe_reply(const wire_probe_reply *rp, uint8_t *buf, size_t cap)
{
    writer w = {buf, cap, 0};
    put_disc_head(&w, WIRE_REPLY_MAGIC, rp->version, rp->nonce);
    put_u16(&w, rp->game_port);
    put_u16(&w, rp->players_waiting);
    put_u16(&w, rp->rooms);
    put_u16(&w, rp->players);
    put_u16(&w, rp->max_players);
    put_u16(&w, rp->races);
    assert(txt_name_ok(rp->name, strlen(rp->name)));
    put_str8(&w, rp->name, WIRE_NAME_MAX);
    return w.len;
}

bool wire_read_probe_reply(const uint8_t *buf, size_t len, wire_probe_reply *rp)
{
    reader r;
    if (!(get_disc_start(&r, buf, len, rp, sizeof *rp, WIRE_REPLY_MAGIC, &rp->version, &rp->nonce) &&
          get_u16(&r, &rp->game_port)))
        return false;
    if (rp->version != WIRE_VERSION)
        return true; /* the fixed header says enough to list it as incompatible */
    return get_u16(&r, &rp->players_waiting) && get_u16(&r, &rp->rooms) && get_u16(&r, &rp->players) &&
           get_u16(&r, &rp->max_players) && get_u16(&r, &rp->races) && get_name(&r, rp->name) && at_end(&r);
}

/* ---- room codes ---- */

static bool code_char_ok(char c)
{
    return c != '\0' && strchr(WIRE_ROOM_ALPHABET, c) != NULL;
}

void wire_room_code_make(rng_t *r, char out[WIRE_ROOM_CODE_LEN + 1])
{
    const char *a = WIRE_ROOM_ALPHABET;
    uint32_t n = (uint32_t)strlen(a);
    for (int i = 0; i < WIRE_ROOM_CODE_LEN; i++)
        out[i] = a[rng_below(r, n)];
    out[WIRE_ROOM_CODE_LEN] = '\0';
}

void wire_room_code_secure(char out[WIRE_ROOM_CODE_LEN + 1])
{
    const char *a = WIRE_ROOM_ALPHABET;
    uint32_t n = (uint32_t)strlen(a);
    for (int i = 0; i < WIRE_ROOM_CODE_LEN; i++)
        out[i] = a[secrand_below(n)];
    out[WIRE_ROOM_CODE_LEN] = '\0';
}

bool wire_room_code_ok(const char *code)
{
    if (!code)
        return false;
    for (int i = 0; i < WIRE_ROOM_CODE_LEN; i++)
        if (!code_char_ok(code[i]))
            return false;
    return code[WIRE_ROOM_CODE_LEN] == '\0';
}

bool wire_room_code_parse(const char *text, char out[WIRE_ROOM_CODE_LEN + 1])
{
    if (!text)
        return false;
    int n = 0;
    for (const char *p = text; *p; p++) {
        char c = *p;
        if (c == ' ' || c == '-' || c == '\t')
            continue;
        if (c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        if (!code_char_ok(c) || n >= WIRE_ROOM_CODE_LEN)
            return false;
        out[n++] = c;
    }
    out[n] = '\0';
    return n == WIRE_ROOM_CODE_LEN;
}
