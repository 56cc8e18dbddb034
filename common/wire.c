/* wire.c: byte-by-byte encoding and fail-closed decoding of every network message. */
#include "wire.h"

#include <assert.h>
#include <string.h>

#include "match.h"
#include "secrand.h"
#include "wire_io.h"

/* ---- messages ---- */

static void put_params(writer *w, const pz_params *p)
{
    assert(p->kind >= 0 && p->kind < PZ_KIND_COUNT && p->diff >= 0 && p->diff < PZ_DIFF_COUNT);
    assert(p->w >= 0 && p->h >= 0 && p->w <= 0xFFFF && p->h <= 0xFFFF);
    put_u8(w, (unsigned)p->kind);
    put_u16(w, (unsigned)p->w);
    put_u16(w, (unsigned)p->h);
    put_u8(w, (unsigned)p->diff);
}

/* A seat's name in ROOM_LIST: the name rule, or empty for no player. */
static void put_seat_name(writer *w, const char *name)
{
    assert(!name[0] || txt_name_ok(name, strlen(name)));
    put_str8(w, name, WIRE_NAME_MAX);
}

/* MATCH_START and WATCH_START from start_in_ms on. */
static void put_start_tail(writer *w, int32_t start_in_ms, uint64_t hash, uint8_t series,
                           const uint8_t score[2], const char *game_id, uint16_t game_id_len)
{
    assert(series >= 1 && series <= WIRE_MAX_SERIES);
    put_u32(w, (uint32_t)start_in_ms);
    put_u64(w, hash);
    put_u8(w, series);
    put_u8(w, score[0]);
    put_u8(w, score[1]);
    put_game_id(w, game_id, game_id_len);
}

static void put_room_entry(writer *w, const wire_room_entry *e)
{
    assert(e->phase == MATCH_COUNTDOWN || e->phase == MATCH_RACING);
    put_code(w, e->code);
    put_u8(w, e->phase);
    put_params(w, &e->params);
    put_u16(w, e->spectators);
    put_seat_name(w, e->name[0]);
    put_seat_name(w, e->name[1]);
}

static void write_body(writer *w, const wire_msg *m)
{
    put_u8(w, m->type);
    switch (m->type) {
    case WIRE_HELLO:
        put_u32(w, m->hello.magic);
        put_u16(w, m->hello.version);
        /* Any bytes: the server judges the name (REFUSED BAD_NAME with the
         * reason), so tests may send bad ones. Clients check with
         * wire_name_problem first. */
        {
            size_t n = strlen(m->hello.name);
            assert(n <= WIRE_HELLO_NAME_RAW);
            put_u8(w, (unsigned)n);
            put_bytes(w, m->hello.name, n);
        }
        break;
    case WIRE_WELCOME:
        put_u32(w, m->welcome.player_id);
        assert(txt_name_ok(m->welcome.server_name, strlen(m->welcome.server_name)));
        put_str8(w, m->welcome.server_name, WIRE_NAME_MAX);
        break;
    case WIRE_REFUSED:
    case WIRE_ERROR:
        put_u8(w, m->error.code);
        put_str8(w, m->error.text, WIRE_TEXT_MAX);
        break;
    case WIRE_SHUTDOWN:
        put_str8(w, m->error.text, WIRE_TEXT_MAX);
        break;
    case WIRE_REJECT:
        put_u32(w, m->error.seq);
        assert(m->error.code < MATCH_REJ_COUNT);
        put_u8(w, m->error.code);
        put_str8(w, m->error.text, WIRE_TEXT_MAX);
        break;
    case WIRE_CREATE_ROOM: {
        /* Only the layout is asserted: the values (series, kind, size,
         * difficulty, seed) are the server's to judge (wire_create_problem,
         * BAD_PARAMS), so a test can send bad ones and whatever decodes
         * writes back. */
        const wire_create *c = &m->create;
        put_u8(w, c->by_id ? 1 : 0);
        put_u8(w, c->series_len);
        if (c->by_id) {
            put_game_id(w, c->game_id, c->game_id_len);
        } else {
            assert(c->params.kind >= 0 && c->params.kind <= 0xFF && c->params.diff >= 0 &&
                   c->params.diff <= 0xFF);
            assert(c->params.w >= 0 && c->params.h >= 0 && c->params.w <= 0xFFFF && c->params.h <= 0xFFFF);
            put_u8(w, (unsigned)c->params.kind);
            put_u16(w, (unsigned)c->params.w);
            put_u16(w, (unsigned)c->params.h);
            put_u8(w, (unsigned)c->params.diff);
            put_bool(w, c->has_seed);
            put_u64(w, c->seed);
        }
        break;
    }
    case WIRE_JOIN_ROOM:
        put_code(w, m->join.code);
        break;
    case WIRE_QUICK_MATCH:
    case WIRE_LEAVE_ROOM:
    case WIRE_REMATCH:
        break;
    case WIRE_READY:
        put_bool(w, m->ready.ready);
        break;
    case WIRE_RESUME:
        put_code(w, m->resume.code);
        assert(m->resume.slot < 2);
        put_u8(w, m->resume.slot);
        put_bytes(w, m->resume.token.b, MATCH_TOKEN_BYTES);
        break;
    case WIRE_MOVE:
        put_u32(w, m->move.seq);
        put_move(w, m->move.move);
        break;
    case WIRE_DESC_REQUEST:
        put_u32(w, m->desc_req.offset);
        break;
    case WIRE_DESC_CHUNK:
        assert(m->desc.count <= WIRE_DESC_CHUNK_MAX && (m->desc.count == 0 || m->desc.bytes));
        assert((uint64_t)m->desc.offset + m->desc.count <= m->desc.total);
        put_u16(w, m->desc.game_no);
        put_u64(w, m->desc.desc_hash);
        put_u32(w, m->desc.total);
        put_u32(w, m->desc.offset);
        put_u16(w, m->desc.count);
        for (unsigned i = 0; i < m->desc.count; i++)
            assert(game_id_char_ok((uint8_t)m->desc.bytes[i]));
        put_bytes(w, m->desc.bytes, m->desc.count);
        break;
    case WIRE_ACK:
        put_u32(w, m->ack.seq);
        put_u32(w, m->ack.moves);
        put_bool(w, m->ack.solved);
        break;
    case WIRE_ROOM_STATE: {
        const wire_room_state *s = &m->room;
        put_code(w, s->code);
        assert((s->your_slot < 2 || s->your_slot == WIRE_SLOT_WATCHER) && s->phase <= MATCH_FINISHED);
        put_u8(w, s->your_slot);
        put_u8(w, s->phase);
        put_params(w, &s->params);
        assert(s->series_len >= 1 && s->series_len <= WIRE_MAX_SERIES);
        put_u8(w, s->series_len);
        put_u8(w, s->score[0]);
        put_u8(w, s->score[1]);
        for (int i = 0; i < 2; i++) {
            const wire_player *p = &s->player[i];
            put_u8(w, (p->present ? 1u : 0u) | (p->connected ? 2u : 0u) | (p->ready ? 4u : 0u) |
                          (p->rematch ? 8u : 0u));
            assert(p->present ? txt_name_ok(p->name, strlen(p->name)) : p->name[0] == '\0');
            put_str8(w, p->name, WIRE_NAME_MAX);
        }
        put_u16(w, s->spectators);
        break;
    }
    case WIRE_WATCH:
        put_code(w, m->join.code);
        break;
    case WIRE_LIST_ROOMS:
        break;
    case WIRE_WATCH_END:
        put_str8(w, m->error.text, WIRE_TEXT_MAX);
        break;
    case WIRE_WATCH_AT:
        assert(m->watch_at.port != 0);
        put_code(w, m->watch_at.code);
        put_u16(w, m->watch_at.port);
        break;
    case WIRE_WATCH_START: {
        const wire_watch_start *s = &m->wstart;
        put_code(w, s->code);
        put_u16(w, s->game_no);
        put_start_tail(w, s->start_in_ms, s->desc_hash, s->series_len, s->score, s->game_id, s->game_id_len);
        break;
    }
    case WIRE_ROOM_LIST:
        assert(m->list.count <= WIRE_ROOM_LIST_MAX && m->list.count <= m->list.total);
        put_u16(w, m->list.total);
        put_u8(w, m->list.count);
        for (unsigned i = 0; i < m->list.count; i++)
            put_room_entry(w, &m->list.room[i]);
        break;
    case WIRE_MATCH_START: {
        const wire_match_start *s = &m->start;
        assert(s->slot < 2);
        put_u8(w, s->slot);
        put_u16(w, s->game_no);
        put_bytes(w, s->token.b, MATCH_TOKEN_BYTES);
        put_start_tail(w, s->start_in_ms, s->desc_hash, s->series_len, s->score, s->game_id, s->game_id_len);
        break;
    }
    case WIRE_PROGRESS: {
        const wire_progress *p = &m->progress;
        assert(p->slot < 2);
        put_u8(w, p->slot);
        put_move(w, p->move);
        put_u32(w, p->moves);
        put_u16(w, (uint16_t)p->x);
        put_u16(w, (uint16_t)p->y);
        put_u32(w, p->path_len);
        put_u32(w, (uint32_t)p->value);
        put_bool(w, p->solved);
        break;
    }
    case WIRE_MATCH_END: {
        const wire_match_end *e = &m->end;
        assert(e->winner < 2 || e->winner == WIRE_SLOT_NONE);
        assert(e->reason <= MATCH_END_ABORTED);
        assert(e->series_len >= 1 && e->series_len <= WIRE_MAX_SERIES);
        put_u8(w, e->winner);
        put_u8(w, e->reason);
        put_u32(w, e->time_ms[0]);
        put_u32(w, e->time_ms[1]);
        put_bool(w, e->solved[0]);
        put_bool(w, e->solved[1]);
        put_u32(w, e->moves[0]);
        put_u32(w, e->moves[1]);
        put_u16(w, e->game_no);
        put_u8(w, e->series_len);
        put_u8(w, e->score[0]);
        put_u8(w, e->score[1]);
        put_bool(w, e->series_over);
        break;
    }
    case WIRE_REMATCH_OFFER:
        assert(m->rematch_offer.slot < 2);
        put_u8(w, m->rematch_offer.slot);
        break;
    case WIRE_MOVE_LOG:
        assert(m->log.slot < 2 && m->log.count <= WIRE_MOVE_LOG_MAX);
        put_u8(w, m->log.slot);
        put_u32(w, m->log.first);
        put_u16(w, m->log.count);
        put_bool(w, m->log.last);
        for (unsigned i = 0; i < m->log.count; i++)
            put_move(w, m->log.moves[i]);
        break;
    default:
        if (!wire_rec_write(w, m))
            assert(!"wire_write: unknown message type");
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

/* Only the layout is checked here; the values of the settings (series,
 * kind, size, difficulty, seed) are judged by wire_create_problem, so that
 * the server answers BAD_PARAMS with a reason rather than BAD_MESSAGE. */
static bool read_create(reader *r, wire_create *c)
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
    c->params.kind = kind;
    c->params.w = w;
    c->params.h = h;
    c->params.diff = diff;
    return true;
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

static bool read_player(reader *r, wire_player *p)
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

/* MATCH_START and WATCH_START from start_in_ms on. */
static bool get_start_tail(reader *r, int32_t *start_in_ms, uint64_t *hash, uint8_t *series, uint8_t score[2],
                           const char **game_id, uint16_t *game_id_len)
{
    return get_i32(r, start_in_ms) && get_u64(r, hash) && get_series(r, series) && get_u8(r, &score[0]) &&
           get_u8(r, &score[1]) && get_game_id(r, game_id, game_id_len);
}

/* A seat's name in ROOM_LIST: empty, or the name rule. */
static bool get_seat_name(reader *r, char out[WIRE_NAME_MAX + 1])
{
    size_t save = r->pos;
    uint8_t n;
    if (!get_u8(r, &n))
        return false;
    if (n == 0) {
        out[0] = '\0';
        return true;
    }
    r->pos = save;
    return get_name(r, out);
}

static bool read_room_entry(reader *r, wire_room_entry *e)
{
    return get_code(r, e->code) && get_u8(r, &e->phase) &&
           (e->phase == MATCH_COUNTDOWN || e->phase == MATCH_RACING) && get_params(r, &e->params) &&
           get_u16(r, &e->spectators) && get_seat_name(r, e->name[0]) && get_seat_name(r, e->name[1]);
}

static bool read_body(reader *r, wire_msg *m)
{
    switch (m->type) {
    case WIRE_HELLO:
        if (!(get_u32(r, &m->hello.magic) && m->hello.magic == WIRE_MAGIC && get_u16(r, &m->hello.version)))
            return false;
        if (m->hello.version != WIRE_VERSION) {
            /* Only magic and version are fixed across versions: the rest of
             * another version's HELLO is not ours to judge, and the server
             * answers with a readable REFUSED. */
            m->hello.name[0] = '\0';
            m->hello.name_len = 0;
            r->pos = r->len;
            return true;
        }
        /* The name is raw bytes here, judged by wire_name_problem, so that
         * a bad name gets BAD_NAME with a reason rather than BAD_MESSAGE. */
        {
            uint8_t n;
            if (!get_u8(r, &n) || r->len - r->pos < n)
                return false;
            memcpy(m->hello.name, r->p + r->pos, n);
            m->hello.name[n] = '\0';
            m->hello.name_len = n;
            r->pos += n;
            return true;
        }
    case WIRE_WELCOME:
        return get_u32(r, &m->welcome.player_id) && get_name(r, m->welcome.server_name);
    case WIRE_REFUSED:
    case WIRE_ERROR:
        return get_u8(r, &m->error.code) && m->error.code >= 1 &&
               get_str8(r, m->error.text, 0, WIRE_TEXT_MAX);
    case WIRE_SHUTDOWN:
        return get_str8(r, m->error.text, 0, WIRE_TEXT_MAX);
    case WIRE_REJECT:
        return get_u32(r, &m->error.seq) && get_below(r, &m->error.code, MATCH_REJ_COUNT) &&
               m->error.code != MATCH_OK && get_str8(r, m->error.text, 0, WIRE_TEXT_MAX);
    case WIRE_CREATE_ROOM:
        return read_create(r, &m->create);
    case WIRE_JOIN_ROOM:
        return get_code(r, m->join.code);
    case WIRE_QUICK_MATCH:
    case WIRE_LEAVE_ROOM:
    case WIRE_REMATCH:
        return true;
    case WIRE_READY:
        return get_bool(r, &m->ready.ready);
    case WIRE_RESUME:
        return get_code(r, m->resume.code) && get_slot(r, &m->resume.slot) && get_token(r, &m->resume.token);
    case WIRE_MOVE:
        return get_u32(r, &m->move.seq) && get_move(r, &m->move.move);
    case WIRE_DESC_REQUEST:
        return get_u32(r, &m->desc_req.offset);
    case WIRE_DESC_CHUNK: {
        if (!(get_u16(r, &m->desc.game_no) && get_u64(r, &m->desc.desc_hash) && get_u32(r, &m->desc.total) &&
              get_u32(r, &m->desc.offset) && get_u16(r, &m->desc.count) &&
              m->desc.count <= WIRE_DESC_CHUNK_MAX &&
              (uint64_t)m->desc.offset + m->desc.count <= m->desc.total && r->len - r->pos >= m->desc.count))
            return false;
        for (size_t i = 0; i < m->desc.count; i++)
            if (!game_id_char_ok(r->p[r->pos + i]))
                return false;
        m->desc.bytes = (const char *)r->p + r->pos;
        r->pos += m->desc.count;
        return true;
    }
    case WIRE_ACK:
        return get_u32(r, &m->ack.seq) && get_u32(r, &m->ack.moves) && get_bool(r, &m->ack.solved);
    case WIRE_ROOM_STATE: {
        wire_room_state *s = &m->room;
        return get_code(r, s->code) && get_u8(r, &s->your_slot) &&
               (s->your_slot < 2 || s->your_slot == WIRE_SLOT_WATCHER) &&
               get_below(r, &s->phase, MATCH_FINISHED + 1) && get_params(r, &s->params) &&
               get_series(r, &s->series_len) && get_u8(r, &s->score[0]) && get_u8(r, &s->score[1]) &&
               read_player(r, &s->player[0]) && read_player(r, &s->player[1]) && get_u16(r, &s->spectators);
    }
    case WIRE_WATCH:
        return get_code(r, m->join.code);
    case WIRE_LIST_ROOMS:
        return true;
    case WIRE_WATCH_END:
        return get_str8(r, m->error.text, 0, WIRE_TEXT_MAX);
    case WIRE_WATCH_AT:
        return get_code(r, m->watch_at.code) && get_u16(r, &m->watch_at.port) && m->watch_at.port != 0;
    case WIRE_WATCH_START: {
        wire_watch_start *s = &m->wstart;
        return get_code(r, s->code) && get_u16(r, &s->game_no) &&
               get_start_tail(r, &s->start_in_ms, &s->desc_hash, &s->series_len, s->score, &s->game_id,
                              &s->game_id_len);
    }
    case WIRE_ROOM_LIST:
        if (!(get_u16(r, &m->list.total) && get_u8(r, &m->list.count) &&
              m->list.count <= WIRE_ROOM_LIST_MAX && m->list.count <= m->list.total))
            return false;
        for (unsigned i = 0; i < m->list.count; i++)
            if (!read_room_entry(r, &m->list.room[i]))
                return false;
        return true;
    case WIRE_MATCH_START: {
        wire_match_start *s = &m->start;
        return get_slot(r, &s->slot) && get_u16(r, &s->game_no) && get_token(r, &s->token) &&
               get_start_tail(r, &s->start_in_ms, &s->desc_hash, &s->series_len, s->score, &s->game_id,
                              &s->game_id_len);
    }
    case WIRE_PROGRESS: {
        wire_progress *p = &m->progress;
        return get_slot(r, &p->slot) && get_move(r, &p->move) && get_u32(r, &p->moves) && get_i16(r, &p->x) &&
               get_i16(r, &p->y) && get_u32(r, &p->path_len) && get_i32(r, &p->value) &&
               get_bool(r, &p->solved);
    }
    case WIRE_MATCH_END: {
        wire_match_end *e = &m->end;
        return get_u8(r, &e->winner) && (e->winner < 2 || e->winner == WIRE_SLOT_NONE) &&
               get_below(r, &e->reason, MATCH_END_ABORTED + 1) && get_u32(r, &e->time_ms[0]) &&
               get_u32(r, &e->time_ms[1]) && get_bool(r, &e->solved[0]) && get_bool(r, &e->solved[1]) &&
               get_u32(r, &e->moves[0]) && get_u32(r, &e->moves[1]) && get_u16(r, &e->game_no) &&
               get_series(r, &e->series_len) && get_u8(r, &e->score[0]) && get_u8(r, &e->score[1]) &&
               get_bool(r, &e->series_over);
    }
    case WIRE_REMATCH_OFFER:
        return get_slot(r, &m->rematch_offer.slot);
    case WIRE_MOVE_LOG:
        if (!(get_slot(r, &m->log.slot) && get_u32(r, &m->log.first) && get_u16(r, &m->log.count) &&
              m->log.count <= WIRE_MOVE_LOG_MAX && get_bool(r, &m->log.last)))
            return false;
        for (unsigned i = 0; i < m->log.count; i++)
            if (!get_move(r, &m->log.moves[i]))
                return false;
        return true;
    default:
        return wire_rec_read(r, m) == 1;
    }
}

bool wire_read(const uint8_t *buf, size_t len, wire_msg *m)
{
    if (!buf || !m || len == 0 || len > WIRE_MSG_MAX)
        return false;
    reader r = {buf, len, 0};
    memset(m, 0, sizeof *m);
    return get_u8(&r, &m->type) && read_body(&r, m) && at_end(&r);
}

const char *wire_type_name(int type)
{
    switch (type) {
    case WIRE_HELLO:
        return "HELLO";
    case WIRE_WELCOME:
        return "WELCOME";
    case WIRE_REFUSED:
        return "REFUSED";
    case WIRE_CREATE_ROOM:
        return "CREATE_ROOM";
    case WIRE_JOIN_ROOM:
        return "JOIN_ROOM";
    case WIRE_QUICK_MATCH:
        return "QUICK_MATCH";
    case WIRE_LEAVE_ROOM:
        return "LEAVE_ROOM";
    case WIRE_READY:
        return "READY";
    case WIRE_REMATCH:
        return "REMATCH";
    case WIRE_RESUME:
        return "RESUME";
    case WIRE_MOVE:
        return "MOVE";
    case WIRE_ROOM_STATE:
        return "ROOM_STATE";
    case WIRE_MATCH_START:
        return "MATCH_START";
    case WIRE_ACK:
        return "ACK";
    case WIRE_REJECT:
        return "REJECT";
    case WIRE_PROGRESS:
        return "PROGRESS";
    case WIRE_MATCH_END:
        return "MATCH_END";
    case WIRE_REMATCH_OFFER:
        return "REMATCH_OFFER";
    case WIRE_MOVE_LOG:
        return "MOVE_LOG";
    case WIRE_SHUTDOWN:
        return "SHUTDOWN";
    case WIRE_ERROR:
        return "ERROR";
    case WIRE_DESC_REQUEST:
        return "DESC_REQUEST";
    case WIRE_DESC_CHUNK:
        return "DESC_CHUNK";
    case WIRE_REPLAY_REQUEST:
        return "REPLAY_REQUEST";
    case WIRE_REPLAY_CHUNK:
        return "REPLAY_CHUNK";
    case WIRE_RECENT_REQUEST:
        return "RECENT_REQUEST";
    case WIRE_RECENT_LIST:
        return "RECENT_LIST";
    case WIRE_BEST_REQUEST:
        return "BEST_REQUEST";
    case WIRE_BEST_LIST:
        return "BEST_LIST";
    case WIRE_WATCH:
        return "WATCH";
    case WIRE_LIST_ROOMS:
        return "LIST_ROOMS";
    case WIRE_WATCH_START:
        return "WATCH_START";
    case WIRE_ROOM_LIST:
        return "ROOM_LIST";
    case WIRE_WATCH_END:
        return "WATCH_END";
    case WIRE_WATCH_AT:
        return "WATCH_AT";
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
    put_u32(&w, WIRE_PROBE_MAGIC);
    put_u16(&w, p->version);
    put_u32(&w, p->nonce);
    return w.len;
}

bool wire_read_probe(const uint8_t *buf, size_t len, wire_probe *p)
{
    if (!buf || !p)
        return false;
    reader r = {buf, len, 0};
    uint32_t magic;
    memset(p, 0, sizeof *p);
    if (!(get_u32(&r, &magic) && magic == WIRE_PROBE_MAGIC && get_u16(&r, &p->version) &&
          get_u32(&r, &p->nonce)))
        return false;
    /* A later version's probe may carry more: still answer it. */
    return p->version != WIRE_VERSION || at_end(&r);
}

size_t wire_write_probe_reply(const wire_probe_reply *rp, uint8_t *buf, size_t cap)
{
    writer w = {buf, cap, 0};
    put_u32(&w, WIRE_REPLY_MAGIC);
    put_u16(&w, rp->version);
    put_u32(&w, rp->nonce);
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
    if (!buf || !rp)
        return false;
    reader r = {buf, len, 0};
    uint32_t magic;
    memset(rp, 0, sizeof *rp);
    if (!(get_u32(&r, &magic) && magic == WIRE_REPLY_MAGIC && get_u16(&r, &rp->version) &&
          get_u32(&r, &rp->nonce) && get_u16(&r, &rp->game_port)))
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
