/* wire_rec.c: the match-record parts of wire_msgs.h: replay chunks, recent matches, best times
 * (docs/protocol.md). */
#include "wire_io.h"

static bool status_ok(unsigned s)
{
    return s <= WIRE_ERR_MAX;
}

static bool replay_byte_ok(uint8_t c)
{
    return c == '\n' || (c >= 0x20 && c != 0x7F);
}

static bool get_status(reader *r, uint8_t *s)
{
    return get_u8(r, s) && status_ok(*s);
}

/* REPLAY_CHUNK after req: status, match id, total, offset, count, bytes. */
void w_REPLAY_BYTES(writer *w, const wire_replay_chunk *c)
{
    assert(status_ok(c->status) && c->total <= WIRE_REPLAY_MAX && c->count <= WIRE_REPLAY_CHUNK_MAX);
    assert((uint64_t)c->offset + c->count <= c->total && (c->count == 0 || c->bytes));
    assert(c->status == 0 || (c->total == 0 && c->offset == 0));
    put_u8(w, c->status);
    w_ID(w, &c->match_id, 0);
    put_u32(w, c->total);
    put_u32(w, c->offset);
    put_u16(w, c->count);
    for (unsigned i = 0; i < c->count; i++)
        assert(replay_byte_ok((uint8_t)c->bytes[i]));
    put_bytes(w, c->bytes, c->count);
}

bool r_REPLAY_BYTES(reader *r, wire_replay_chunk *c)
{
    if (!(get_status(r, &c->status) && r_ID(r, &c->match_id, 0) && get_u32(r, &c->total) &&
          c->total <= WIRE_REPLAY_MAX && get_u32(r, &c->offset) && get_u16(r, &c->count) &&
          c->count <= WIRE_REPLAY_CHUNK_MAX && (uint64_t)c->offset + c->count <= c->total))
        return false;
    if (c->status != 0 && (c->total != 0 || c->offset != 0))
        return false;
    return get_span(r, c->count, replay_byte_ok, &c->bytes);
}

static void put_recent_entry(writer *w, const wire_recent_entry *e)
{
    assert(e->winner < 2 || e->winner == WIRE_SLOT_NONE);
    assert(e->ending <= MATCH_END_ABORTED && e->game_no >= 1);
    assert(e->series_len >= 1 && e->series_len <= WIRE_MAX_SERIES);
    w_ID(w, &e->match_id, 1);
    put_u64(w, e->start_utc_ms);
    w_PARAMS(w, &e->params);
    put_u8(w, e->winner);
    put_u8(w, e->ending);
    put_u16(w, e->game_no);
    put_u8(w, e->series_len);
    for (int i = 0; i < 2; i++) {
        const wire_rec_player *p = &e->player[i];
        w_NAME(w, &p->name);
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

static bool read_recent_entry(reader *r, wire_recent_entry *e)
{
    uint8_t n;
    if (!(r_ID(r, &e->match_id, 1) && get_u64(r, &e->start_utc_ms) && get_params(r, &e->params) &&
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
    const char *id;
    if (!(get_u8(r, &n) && n <= WIRE_LIST_ID_MAX && get_span(r, n, game_id_char_ok, &id)))
        return false;
    memcpy(e->game_id, id, n);
    e->game_id[n] = '\0';
    return true;
}

/* RECENT_LIST after req: status, next_before, count, entries. */
void w_RECENT_ENTRIES(writer *w, const wire_recent_list *l)
{
    assert(status_ok(l->status) && l->count <= WIRE_RECENT_MAX && (l->status == 0 || l->count == 0));
    put_u8(w, l->status);
    w_ID(w, &l->next_before, 0);
    put_u8(w, l->count);
    for (unsigned i = 0; i < l->count; i++)
        put_recent_entry(w, &l->e[i]);
}

bool r_RECENT_ENTRIES(reader *r, wire_recent_list *l)
{
    if (!(get_status(r, &l->status) && r_ID(r, &l->next_before, 0) && get_u8(r, &l->count) &&
          l->count <= WIRE_RECENT_MAX && (l->status == 0 || l->count == 0)))
        return false;
    for (unsigned i = 0; i < l->count; i++)
        if (!read_recent_entry(r, &l->e[i]))
            return false;
    return true;
}

/* BEST_REQUEST's game ID: u16 length, 0..WIRE_GAME_ID_MAX bytes (0: by desc_hash). */
void w_BEST_GAME_ID(writer *w, const wire_best_req *b)
{
    put_u16(w, b->game_id_len);
    for (unsigned i = 0; i < b->game_id_len; i++)
        assert(game_id_char_ok((uint8_t)b->game_id[i]));
    put_bytes(w, b->game_id, b->game_id_len);
}

bool r_BEST_GAME_ID(reader *r, wire_best_req *b)
{
    if (!(get_u16(r, &b->game_id_len) && get_span(r, b->game_id_len, game_id_char_ok, &b->game_id)))
        return false;
    if (b->game_id_len == 0)
        b->game_id = NULL;
    return true;
}

/* BEST_LIST after req: status, count, entries. */
void w_BEST_ENTRIES(writer *w, const wire_best_list *l)
{
    assert(status_ok(l->status) && l->count <= WIRE_BEST_MAX && (l->status == 0 || l->count == 0));
    put_u8(w, l->status);
    put_u8(w, l->count);
    for (unsigned i = 0; i < l->count; i++) {
        const wire_best_entry *e = &l->e[i];
        w_ID(w, &e->match_id, 1);
        w_NAME(w, &e->name);
        put_u32(w, e->time_ms);
        put_u32(w, e->moves);
        put_u64(w, e->start_utc_ms);
    }
}

bool r_BEST_ENTRIES(reader *r, wire_best_list *l)
{
    if (!(get_status(r, &l->status) && get_u8(r, &l->count) && l->count <= WIRE_BEST_MAX &&
          (l->status == 0 || l->count == 0)))
        return false;
    for (unsigned i = 0; i < l->count; i++) {
        wire_best_entry *e = &l->e[i];
        if (!(r_ID(r, &e->match_id, 1) && get_name(r, e->name) && get_u32(r, &e->time_ms) &&
              get_u32(r, &e->moves) && get_u64(r, &e->start_utc_ms)))
            return false;
    }
    return true;
}
