/* sv_query.c: clients' questions about stored matches (a replay, recent matches, best times), asked of the
 * store's thread and answered when it is done; the game loop never waits for the disk. */
#include <stdlib.h>
#include <string.h>

#include "st_engine.h"
#include "st_writer.h"
#include "sv_internal.h"
#include "sv_query.h"
#include "sv_send.h"
#include "util.h"

/* Replays asked for are kept, formatted, for the next chunks: a client
 * fetches one in REPLAY_CHUNK pieces and each piece would otherwise cost
 * the store a whole query. A few recent ones, each up to CACHE_ENTRY_MAX
 * bytes (a longer replay is queried again for each chunk). */
#define CACHE_SLOTS 4
#define CACHE_ENTRY_MAX (8u << 20)

typedef struct sv_replay_cache {
    int64_t id; /* 0 = empty */
    char *text;
    size_t len;
    uint64_t used; /* sv->st.steps when last used */
} sv_replay_cache;

/* The replay text of a record, made on the store's thread. NULL if the
 * record does not make a replay or its text would not travel (a byte a
 * REPLAY_CHUNK may not carry: the file was edited by hand). */
static char *render_replay(const st_match *m, size_t *len)
{
    const char *err = NULL;
    replay *rp = st_to_replay(m, &err);
    char *text = rp ? replay_format(rp) : NULL;
    replay_destroy(rp);
    if (!text)
        return NULL;
    size_t n = strlen(text);
    for (size_t i = 0; i < n; i++) {
        uint8_t c = (uint8_t)text[i];
        if (!(c == '\n' || (c >= 0x20 && c != 0x7F))) {
            free(text);
            return NULL;
        }
    }
    if (n > WIRE_REPLAY_MAX) {
        free(text);
        return NULL;
    }
    *len = n;
    return text;
}

static uint64_t tag_of(const sv_t *sv, const sv_client *c)
{
    return (uint64_t)(c - sv->clients) << 32 | c->id;
}

/* The client a tag names, if it is still the same connection. */
static sv_client *client_of(sv_t *sv, uint64_t tag)
{
    uint32_t idx = (uint32_t)(tag >> 32);
    if (idx >= (uint32_t)sv->nclients)
        return NULL;
    sv_client *c = &sv->clients[idx];
    if (c->id != (uint32_t)tag || c->state != SV_CL_ACTIVE)
        return NULL;
    return c;
}

static void send_chunk(sv_t *sv, sv_client *c, uint32_t req, int status, uint64_t id, const char *text,
                       size_t len, uint32_t offset)
{
    wire_msg *m = sv->msg;
    memset(m, 0, sizeof *m);
    m->type = WIRE_REPLAY_CHUNK;
    wire_replay_chunk *ch = &m->replay;
    ch->req = req;
    ch->status = (uint8_t)status;
    ch->match_id = id;
    if (status == 0) {
        ch->total = (uint32_t)len;
        ch->offset = offset < len ? offset : (uint32_t)len;
        size_t left = len - ch->offset;
        ch->count = (uint16_t)(left < WIRE_REPLAY_CHUNK_MAX ? left : WIRE_REPLAY_CHUNK_MAX);
        ch->bytes = text + ch->offset;
    }
    sv_send(sv, c, m);
}

/* sv->msg, cleared, as the RECENT_LIST or BEST_LIST (type) that answers req. */
static wire_msg *list_msg(sv_t *sv, int type, uint32_t req, int status)
{
    wire_msg *m = sv->msg;
    memset(m, 0, sizeof *m);
    m->type = (uint8_t)type;
    if (type == WIRE_RECENT_LIST) {
        m->recent.req = req;
        m->recent.status = (uint8_t)status;
    } else {
        m->best.req = req;
        m->best.status = (uint8_t)status;
    }
    return m;
}

static sv_replay_cache *cache_find(sv_t *sv, int64_t id)
{
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (sv->query.replays[i].id == id) {
            sv->query.replays[i].used = sv->st.steps;
            return &sv->query.replays[i];
        }
    return NULL;
}

/* Keeps text (taken over) for id, in place of the least recently used entry. */
static sv_replay_cache *cache_put(sv_t *sv, int64_t id, char *text, size_t len)
{
    sv_replay_cache *e = cache_find(sv, id);
    if (e) {
        free(text);
        return e;
    }
    if (len > CACHE_ENTRY_MAX)
        return NULL;
    e = &sv->query.replays[0];
    for (int i = 1; i < CACHE_SLOTS; i++)
        if (sv->query.replays[i].used < e->used)
            e = &sv->query.replays[i];
    free(e->text);
    *e = (sv_replay_cache){id, text, len, sv->st.steps};
    return e;
}

void sv_query_free(sv_t *sv)
{
    for (int i = 0; i < CACHE_SLOTS && sv->query.replays; i++)
        free(sv->query.replays[i].text);
    free(sv->query.replays);
    sv->query.replays = NULL;
}

/* Whether c may ask the store now; if not, the answer's status. */
static int admit(sv_t *sv, sv_client *c)
{
    if (!sv->store)
        return WIRE_ERR_NO_RECORDS;
    if (c->query.in_flight >= SV_QUERIES_PER_CLIENT)
        return WIRE_ERR_BUSY;
    return 0;
}

static int ask(sv_t *sv, sv_client *c, st_query *q)
{
    q->tag = tag_of(sv, c);
    if (!st_writer_ask(sv->store, q))
        return WIRE_ERR_BUSY; /* the store's question queue is full */
    c->query.in_flight++;
    sv->query.in_flight++;
    sv->st.queries++;
    return 0;
}

void sv_query_receive(sv_t *sv, sv_client *c, const wire_msg *in)
{
    int status;
    switch (in->type) {
    case WIRE_REPLAY_REQUEST: {
        const wire_replay_req *r = &in->replay_req;
        if (!sv->query.replays) {
            sv->query.replays = mr_alloc(CACHE_SLOTS, sizeof *sv->query.replays);
            memset(sv->query.replays, 0, CACHE_SLOTS * sizeof *sv->query.replays);
        }
        sv_replay_cache *e = sv->store ? cache_find(sv, (int64_t)r->match_id) : NULL;
        if (e) {
            send_chunk(sv, c, r->req, 0, r->match_id, e->text, e->len, r->offset);
            return;
        }
        status = admit(sv, c);
        if (!status) {
            st_query q = {.type = ST_Q_GET,
                          .tag2 = (uint64_t)r->req << 32 | r->offset,
                          .id = (int64_t)r->match_id,
                          .render = render_replay};
            status = ask(sv, c, &q);
        }
        if (status)
            send_chunk(sv, c, r->req, status, r->match_id, NULL, 0, 0);
        return;
    }
    case WIRE_RECENT_REQUEST: {
        const wire_recent_req *r = &in->recent_req;
        status = admit(sv, c);
        if (!status) {
            st_query q = {.type = ST_Q_RECENT,
                          .tag2 = (uint64_t)r->limit << 32 | r->req,
                          .id = (int64_t)r->before_id,
                          .limit = r->limit};
            status = ask(sv, c, &q);
        }
        if (status)
            sv_send(sv, c, list_msg(sv, WIRE_RECENT_LIST, r->req, status));
        return;
    }
    case WIRE_BEST_REQUEST: {
        const wire_best_req *r = &in->best_req;
        status = admit(sv, c);
        if (!status) {
            st_query q = {.type = ST_Q_BEST, .tag2 = r->req, .limit = r->limit, .desc_hash = r->desc_hash};
            if (r->game_id_len)
                q.game_id = mr_strndup(r->game_id, r->game_id_len);
            status = ask(sv, c, &q);
        }
        if (status)
            sv_send(sv, c, list_msg(sv, WIRE_BEST_LIST, r->req, status));
        return;
    }
    default:
        return;
    }
}

static uint32_t clamp32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* A name from the database as the wire allows it ("?" if it does not). */
static void copy_name(char dst[WIRE_NAME_MAX + 1], const char *src)
{
    if (txt_name_ok(src, strlen(src)))
        snprintf(dst, WIRE_NAME_MAX + 1, "%s", src);
    else
        snprintf(dst, WIRE_NAME_MAX + 1, "?");
}

/* A stored match as a RECENT_LIST entry; false if the row cannot be one
 * (a kind or difficulty this server does not know). */
static bool to_entry(const st_match *r, wire_recent_entry *e)
{
    const pz_kind *k = pz_kind_by_name(r->kind);
    int diff = pz_difficulty_by_name(r->difficulty);
    if (!k || diff < 0 || r->width < 0 || r->width > 0xFFFF || r->height < 0 || r->height > 0xFFFF ||
        r->id < 1)
        return false;
    memset(e, 0, sizeof *e);
    e->match_id = (uint64_t)r->id;
    e->start_utc_ms = r->start_utc_ms > 0 ? (uint64_t)r->start_utc_ms : 0;
    e->params = (pz_params){k->id, r->width, r->height, diff};
    e->winner = r->winner == 0 || r->winner == 1 ? (uint8_t)r->winner : WIRE_SLOT_NONE;
    e->ending = (uint8_t)r->ending;
    e->game_no = (uint16_t)(r->game_no < 1 ? 1 : r->game_no > 0xFFFF ? 0xFFFF : r->game_no);
    e->series_len = (uint8_t)(r->series_len < 1                 ? 1
                              : r->series_len > WIRE_MAX_SERIES ? WIRE_MAX_SERIES
                                                                : r->series_len);
    for (int s = 0; s < 2; s++) {
        copy_name(e->player[s].name, r->p[s].name);
        e->player[s].time_ms = clamp32(r->p[s].time_ms);
        e->player[s].moves = r->p[s].moves;
        e->player[s].solved = r->p[s].solved;
    }
    size_t n = strlen(r->game_id);
    bool ok = n <= WIRE_LIST_ID_MAX;
    for (size_t i = 0; ok && i < n; i++)
        ok = r->game_id[i] > 0x20 && r->game_id[i] < 0x7F;
    if (ok)
        memcpy(e->game_id, r->game_id, n + 1);
    return true;
}

static void answer_recent(sv_t *sv, sv_client *c, const st_answer *a)
{
    wire_msg *m = list_msg(sv, WIRE_RECENT_LIST, (uint32_t)a->tag2, a->error ? WIRE_ERR_NO_RECORDS : 0);
    wire_recent_list *l = &m->recent;
    for (int i = 0; !a->error && i < a->n && l->count < WIRE_RECENT_MAX; i++)
        if (to_entry(&a->matches[i], &l->e[l->count]))
            l->count++;
    /* A full page may have more behind it: the next one starts below its last row. */
    if (!a->error && a->n > 0 && a->n == (int)(a->tag2 >> 32))
        l->next_before = (uint64_t)a->matches[a->n - 1].id;
    sv_send(sv, c, m);
}

static void answer_best(sv_t *sv, sv_client *c, const st_answer *a)
{
    wire_msg *m = list_msg(sv, WIRE_BEST_LIST, (uint32_t)a->tag2, a->error ? WIRE_ERR_NO_RECORDS : 0);
    wire_best_list *l = &m->best;
    for (int i = 0; !a->error && i < a->n && l->count < WIRE_BEST_MAX; i++) {
        const st_best *b = &a->best[i];
        if (b->match_id < 1)
            continue;
        wire_best_entry *e = &l->e[l->count++];
        e->match_id = (uint64_t)b->match_id;
        copy_name(e->name, b->name);
        e->time_ms = clamp32(b->time_ms);
        e->moves = b->moves;
        e->start_utc_ms = b->start_utc_ms > 0 ? (uint64_t)b->start_utc_ms : 0;
    }
    sv_send(sv, c, m);
}

static void answer_replay(sv_t *sv, sv_client *c, st_answer *a)
{
    uint32_t req = (uint32_t)(a->tag2 >> 32), offset = (uint32_t)a->tag2;
    uint64_t id = (uint64_t)a->id;
    int status = a->error ? WIRE_ERR_NO_RECORDS : !a->found ? WIRE_ERR_NO_MATCH : 0;
    if (status) {
        if (c)
            send_chunk(sv, c, req, status, id, NULL, 0, 0);
        return;
    }
    /* Kept for the next chunks (this client's, or anyone's). */
    char *text = a->text;
    size_t len = a->text_len;
    a->text = NULL;
    sv_replay_cache *e = cache_put(sv, a->id, text, len);
    if (c)
        send_chunk(sv, c, req, 0, id, e ? e->text : text, len, offset);
    if (!e)
        free(text);
}

void sv_query_poll(sv_t *sv)
{
    if (!sv->store)
        return;
    st_answer a;
    for (int i = 0; i < 64 && st_writer_poll(sv->store, &a); i++) {
        sv_client *c = client_of(sv, a.tag);
        if (sv->query.in_flight > 0)
            sv->query.in_flight--;
        if (c && c->query.in_flight > 0)
            c->query.in_flight--;
        switch (a.type) {
        case ST_Q_GET:
            answer_replay(sv, c, &a);
            break;
        case ST_Q_RECENT:
            if (c)
                answer_recent(sv, c, &a);
            break;
        case ST_Q_BEST:
            if (c)
                answer_best(sv, c, &a);
            break;
        default:
            break;
        }
        st_answer_free(&a);
    }
}
