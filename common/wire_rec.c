/* wire_rec.c: the match-record messages: replay chunks, recent matches, best times (docs/protocol.md). */
#include "wire_io.h"

static bool status_ok(unsigned s)
{
    return s <= WIRE_ERR_MAX;
}

static bool replay_byte_ok(uint8_t c)
{
    return c == '\n' || (c >= 0x20 && c != 0x7F);
}

static void put_params(writer *w, const pz_params *p)
{
    assert(p->kind >= 0 && p->kind < PZ_KIND_COUNT && p->diff >= 0 && p->diff < PZ_DIFF_COUNT);
    assert(p->w >= 0 && p->w <= 0xFFFF && p->h >= 0 && p->h <= 0xFFFF);
    put_u8(w, (unsigned)p->kind);
    put_u16(w, (unsigned)p->w);
    put_u16(w, (unsigned)p->h);
    put_u8(w, (unsigned)p->diff);
}

static void put_name(writer *w, const char *name)
{
    assert(txt_name_ok(name, strlen(name)));
    put_str8(w, name, WIRE_NAME_MAX);
}

static void put_recent_entry(writer *w, const wire_recent_entry *e)
{
    assert(e->match_id >= 1 && e->match_id <= INT64_MAX);
    assert(e->winner < 2 || e->winner == WIRE_SLOT_NONE);
    assert(e->ending <= MATCH_END_ABORTED && e->game_no >= 1);
    assert(e->series_len >= 1 && e->series_len <= WIRE_MAX_SERIES);
    put_u64(w, e->match_id);
    put_u64(w, e->start_utc_ms);
    put_params(w, &e->params);
    put_u8(w, e->winner);
    put_u8(w, e->ending);
    put_u16(w, e->game_no);
    put_u8(w, e->series_len);
    for (int i = 0; i < 2; i++) {
        const wire_rec_player *p = &e->player[i];
        put_name(w, p->name);
        put_u32(w, p->time_ms);
        put_u32(w, p->moves);
        put_bool(w, p->solved);
    }
    size_t n = strlen(e->game_id);
    assert(n <= WIRE_LIST_ID_MAX);
    put_u8(w, (unsigned)n);
    for (size_t i = 0; i < n; i++)
        assert(game_id_char_ok((uint8_t)e->game_id[i]));
    put_bytes(w, e->game_id, n);
}

bool wire_rec_write(writer *w, const wire_msg *m)
{
    switch (m->type) {
    case WIRE_REPLAY_REQUEST:
        assert(m->replay_req.match_id >= 1 && m->replay_req.match_id <= INT64_MAX);
        put_u32(w, m->replay_req.req);
        put_u64(w, m->replay_req.match_id);
        put_u32(w, m->replay_req.offset);
        return true;
    case WIRE_REPLAY_CHUNK: {
        const wire_replay_chunk *c = &m->replay;
        assert(status_ok(c->status) && c->total <= WIRE_REPLAY_MAX && c->count <= WIRE_REPLAY_CHUNK_MAX);
        assert((uint64_t)c->offset + c->count <= c->total && (c->count == 0 || c->bytes));
        assert(c->status == 0 || (c->total == 0 && c->offset == 0));
        put_u32(w, c->req);
        put_u8(w, c->status);
        put_u64(w, c->match_id);
        put_u32(w, c->total);
        put_u32(w, c->offset);
        put_u16(w, c->count);
        for (unsigned i = 0; i < c->count; i++)
            assert(replay_byte_ok((uint8_t)c->bytes[i]));
        put_bytes(w, c->bytes, c->count);
        return true;
    }
    case WIRE_RECENT_REQUEST:
        assert(m->recent_req.before_id <= INT64_MAX);
        assert(m->recent_req.limit >= 1 && m->recent_req.limit <= WIRE_RECENT_MAX);
        put_u32(w, m->recent_req.req);
        put_u64(w, m->recent_req.before_id);
        put_u8(w, m->recent_req.limit);
        return true;
    case WIRE_RECENT_LIST: {
        const wire_recent_list *l = &m->recent;
        assert(status_ok(l->status) && l->count <= WIRE_RECENT_MAX && (l->status == 0 || l->count == 0));
        assert(l->next_before <= INT64_MAX);
        put_u32(w, l->req);
        put_u8(w, l->status);
        put_u64(w, l->next_before);
        put_u8(w, l->count);
        for (unsigned i = 0; i < l->count; i++)
            put_recent_entry(w, &l->e[i]);
        return true;
    }
    case WIRE_BEST_REQUEST: {
        const wire_best_req *b = &m->best_req;
        assert(b->limit >= 1 && b->limit <= WIRE_BEST_MAX);
        put_u32(w, b->req);
        put_u64(w, b->desc_hash);
        put_u8(w, b->limit);
        put_u16(w, b->game_id_len);
        for (unsigned i = 0; i < b->game_id_len; i++)
            assert(game_id_char_ok((uint8_t)b->game_id[i]));
        put_bytes(w, b->game_id, b->game_id_len);
        return true;
    }
    case WIRE_BEST_LIST: {
        const wire_best_list *l = &m->best;
        assert(status_ok(l->status) && l->count <= WIRE_BEST_MAX && (l->status == 0 || l->count == 0));
        put_u32(w, l->req);
        put_u8(w, l->status);
        put_u8(w, l->count);
        for (unsigned i = 0; i < l->count; i++) {
            const wire_best_entry *e = &l->e[i];
            assert(e->match_id >= 1 && e->match_id <= INT64_MAX);
            put_u64(w, e->match_id);
            put_name(w, e->name);
            put_u32(w, e->time_ms);
            put_u32(w, e->moves);
            put_u64(w, e->start_utc_ms);
        }
        return true;
    }
    default:
        return false;
    }
}

static bool get_id(reader *r, uint64_t *id, uint64_t min)
{
    return get_u64(r, id) && *id >= min && *id <= INT64_MAX;
}

static bool get_status(reader *r, uint8_t *s)
{
    return get_u8(r, s) && status_ok(*s);
}

static bool read_replay_chunk(reader *r, wire_replay_chunk *c)
{
    if (!(get_u32(r, &c->req) && get_status(r, &c->status) && get_id(r, &c->match_id, 0) &&
          get_u32(r, &c->total) && c->total <= WIRE_REPLAY_MAX && get_u32(r, &c->offset) &&
          get_u16(r, &c->count) && c->count <= WIRE_REPLAY_CHUNK_MAX &&
          (uint64_t)c->offset + c->count <= c->total && r->len - r->pos >= c->count))
        return false;
    if (c->status != 0 && (c->total != 0 || c->offset != 0))
        return false;
    for (size_t i = 0; i < c->count; i++)
        if (!replay_byte_ok(r->p[r->pos + i]))
            return false;
    c->bytes = (const char *)r->p + r->pos;
    r->pos += c->count;
    return true;
}

static bool read_recent_entry(reader *r, wire_recent_entry *e)
{
    uint8_t n;
    if (!(get_id(r, &e->match_id, 1) && get_u64(r, &e->start_utc_ms) && get_params(r, &e->params) &&
          get_u8(r, &e->winner) && (e->winner < 2 || e->winner == WIRE_SLOT_NONE) &&
          get_below(r, &e->ending, MATCH_END_ABORTED + 1) && get_u16(r, &e->game_no) && e->game_no >= 1 &&
          get_series(r, &e->series_len)))
        return false;
    for (int i = 0; i < 2; i++) {
        wire_rec_player *p = &e->player[i];
        if (!(get_name(r, p->name) && get_u32(r, &p->time_ms) && get_u32(r, &p->moves) &&
              get_bool(r, &p->solved)))
            return false;
    }
    if (!get_u8(r, &n) || n > WIRE_LIST_ID_MAX || r->len - r->pos < n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!game_id_char_ok(r->p[r->pos + i]))
            return false;
    memcpy(e->game_id, r->p + r->pos, n);
    e->game_id[n] = '\0';
    r->pos += n;
    return true;
}

int wire_rec_read(reader *r, wire_msg *m)
{
    switch (m->type) {
    case WIRE_REPLAY_REQUEST:
        return get_u32(r, &m->replay_req.req) && get_id(r, &m->replay_req.match_id, 1) &&
               get_u32(r, &m->replay_req.offset);
    case WIRE_REPLAY_CHUNK:
        return read_replay_chunk(r, &m->replay);
    case WIRE_RECENT_REQUEST: {
        wire_recent_req *q = &m->recent_req;
        return get_u32(r, &q->req) && get_id(r, &q->before_id, 0) && get_u8(r, &q->limit) && q->limit >= 1 &&
               q->limit <= WIRE_RECENT_MAX;
    }
    case WIRE_RECENT_LIST: {
        wire_recent_list *l = &m->recent;
        if (!(get_u32(r, &l->req) && get_status(r, &l->status) && get_id(r, &l->next_before, 0) &&
              get_u8(r, &l->count) && l->count <= WIRE_RECENT_MAX && (l->status == 0 || l->count == 0)))
            return 0;
        for (unsigned i = 0; i < l->count; i++)
            if (!read_recent_entry(r, &l->e[i]))
                return 0;
        return 1;
    }
    case WIRE_BEST_REQUEST: {
        wire_best_req *b = &m->best_req;
        if (!(get_u32(r, &b->req) && get_u64(r, &b->desc_hash) && get_u8(r, &b->limit) && b->limit >= 1 &&
              b->limit <= WIRE_BEST_MAX && get_u16(r, &b->game_id_len) && r->len - r->pos >= b->game_id_len))
            return 0;
        for (size_t i = 0; i < b->game_id_len; i++)
            if (!game_id_char_ok(r->p[r->pos + i]))
                return 0;
        b->game_id = b->game_id_len ? (const char *)r->p + r->pos : NULL;
        r->pos += b->game_id_len;
        return 1;
    }
    case WIRE_BEST_LIST: {
        wire_best_list *l = &m->best;
        if (!(get_u32(r, &l->req) && get_status(r, &l->status) && get_u8(r, &l->count) &&
              l->count <= WIRE_BEST_MAX && (l->status == 0 || l->count == 0)))
            return 0;
        for (unsigned i = 0; i < l->count; i++) {
            wire_best_entry *e = &l->e[i];
            if (!(get_id(r, &e->match_id, 1) && get_name(r, e->name) && get_u32(r, &e->time_ms) &&
                  get_u32(r, &e->moves) && get_u64(r, &e->start_utc_ms)))
                return 0;
        }
        return 1;
    }
    default:
        return -1;
    }
}
