/* cl_net_recv.c: what a connection does with each message from the server (docs/protocol.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_net_impl.h"
#include "match.h"
#include "util.h"

void cl_net_clear_match(cl_net_t *n)
{
    if (n->pz) {
        const pz_kind *k = pz_kind_of(n->pz);
        k->free_state(n->own);
        k->free_state(n->opp);
        k->free_puzzle(n->pz);
    }
    free(n->game_id);
    n->pz = NULL;
    n->own = n->opp = NULL;
    n->game_id = NULL;
    n->desc_hash = 0;
    n->own_applied = n->opp_applied = 0;
    n->pend_len = 0;
}

void cl_net_on_connect(cl_net_t *n)
{
    wire_msg m = {.type = WIRE_HELLO};
    m.hello.magic = WIRE_MAGIC;
    m.hello.version = WIRE_VERSION;
    snprintf(m.hello.name, sizeof m.hello.name, "%s", n->name);
    cl_net_send_msg(n, &m);
}

/* A protocol failure on our side of the line (a puzzle we cannot build, a
 * log that does not fit): report it, keep the connection. */
static void local_error(cl_net_t *n, const char *what)
{
    cl_net_push_text(n, CL_EV_ERROR, 0, "%s", what);
}

static void on_welcome(cl_net_t *n, const wire_msg *m)
{
    n->player_id = m->welcome.player_id;
    if (cl_net_watch_welcome(n))
        return; /* at the spectator port, or watching again after a drop */
    if (n->phase == CL_NET_RESUMING) {
        wire_msg r = {.type = WIRE_RESUME};
        memcpy(r.resume.code, n->room.code, sizeof r.resume.code);
        r.resume.slot = (uint8_t)n->slot;
        r.resume.token = n->token;
        n->resume_sent = cl_net_send_msg(n, &r);
        return;
    }
    if (n->phase != CL_NET_CONNECTING)
        return;
    n->phase = CL_NET_ONLINE;
    cl_net_event ev = {.type = CL_EV_CONNECTED, .player_id = m->welcome.player_id, .slot = -1};
    snprintf(ev.text, sizeof ev.text, "%s", m->welcome.server_name);
    cl_net_push(n, &ev);
}

static void on_refused(cl_net_t *n, const wire_msg *m)
{
    n->closing = true;
    if (n->peer) {
        enet_peer_disconnect(n->peer, 0);
        n->hub->dirty = true;
    }
    n->phase = CL_NET_CLOSED;
    n->in_room = false;
    n->live = false;
    cl_net_push_text(n, CL_EV_REFUSED, m->error.code, "%s", m->error.text);
}

static void on_room_state(cl_net_t *n, const wire_msg *m)
{
    if (!n->in_room && strcmp(m->room.code, n->left_code) == 0)
        return; /* about the room we left, sent before the server knew */
    n->left_code[0] = '\0';
    n->join_code[0] = '\0';
    n->join_retry_at = 0;
    bool fresh = !n->in_room || strcmp(n->room.code, m->room.code) != 0;
    n->room = m->room;
    n->watching = m->room.your_slot == WIRE_SLOT_WATCHER;
    n->slot = n->watching ? -1 : m->room.your_slot;
    n->in_room = true;
    if (n->phase == CL_NET_ONLINE)
        n->phase = CL_NET_IN_ROOM;
    cl_net_watch_room_state(n);
    cl_net_event ev = {.type = CL_EV_ROOM_JOINED, .slot = n->slot, .room = m->room};
    if (fresh) {
        snprintf(ev.text, sizeof ev.text, "%s", m->room.code);
        cl_net_push(n, &ev);
    }
    ev.type = CL_EV_LOBBY;
    cl_net_push(n, &ev);
}

/* Builds (or keeps, when it is the same one) the puzzle a MATCH_START names
 * and checks it against the server's hash. */
static bool load_puzzle(cl_net_t *n, const wire_match_start *s)
{
    if (n->pz && n->game_id && strlen(n->game_id) == s->game_id_len &&
        memcmp(n->game_id, s->game_id, s->game_id_len) == 0 && n->desc_hash == s->desc_hash) {
        const pz_kind *k = pz_kind_of(n->pz);
        k->free_state(n->own);
        k->free_state(n->opp);
        n->own = k->new_state(n->pz);
        n->opp = k->new_state(n->pz);
        n->own_applied = n->opp_applied = 0;
        n->pend_len = 0;
        return true;
    }
    cl_net_clear_match(n);
    char *id = mr_strndup(s->game_id, s->game_id_len);
    char err[160];
    pz_puzzle *pz = pz_from_id(id, err, sizeof err);
    if (!pz) {
        cl_net_push_text(n, CL_EV_ERROR, 0, "cannot build the puzzle %.60s: %s", id, err);
        free(id);
        return false;
    }
    const pz_kind *k = pz_kind_of(pz);
    char *desc = k->encode_desc(pz);
    uint64_t hash = desc ? mr_hash64(desc, strlen(desc)) : 0;
    free(desc);
    if (hash != s->desc_hash) {
        cl_net_push_text(n, CL_EV_ERROR, 0, "puzzle %.60s differs from the server's (another version?)", id);
        k->free_puzzle(pz);
        free(id);
        return false;
    }
    n->pz = pz;
    n->game_id = id;
    n->desc_hash = hash;
    n->own = k->new_state(pz);
    n->opp = k->new_state(pz);
    return true;
}

static void on_match_start(cl_net_t *n, const wire_msg *m)
{
    const wire_match_start *s = &m->start;
    /* A resume replays the current game's start: the client already has
     * it, so only the states are rebuilt (RESUMED follows the move logs). */
    bool replay = n->phase == CL_NET_RESUMING && n->pz && n->game_id && s->game_no == n->game_no &&
                  strlen(n->game_id) == s->game_id_len && memcmp(n->game_id, s->game_id, s->game_id_len) == 0;
    if (!n->watching) {
        n->slot = s->slot;
        n->token = s->token;
    }
    if (!load_puzzle(n, s)) {
        n->live = false;
        return;
    }
    n->own_seat = n->watching ? 0 : n->slot;
    n->live = !n->watching; /* a watcher has no seat to resume */
    if (replay)
        return;
    n->game_no = s->game_no;
    n->end_seen = false;
    if (n->phase == CL_NET_ONLINE)
        n->phase = CL_NET_IN_ROOM;
    uint64_t now = n->hub->now_ms;
    int64_t start = (int64_t)now + s->start_in_ms;
    cl_net_event ev = {.type = CL_EV_MATCH_START, .slot = n->slot, .game_no = s->game_no};
    ev.start_ms = start > 0 ? (uint64_t)start : 0;
    snprintf(ev.text, sizeof ev.text, "%s", n->game_id);
    cl_net_push(n, &ev);
}

/* A player's game start (a spectator's comes as WATCH_START). */
static void on_seat_start(cl_net_t *n, const wire_msg *m)
{
    if (!n->watching)
        on_match_start(n, m);
}

/* A spectator's WATCH_START is a MATCH_START without a seat. */
static void on_watch_start(cl_net_t *n, const wire_msg *m)
{
    if (!n->watching)
        return;
    wire_msg *s = mr_alloc(1, sizeof *s);
    s->type = WIRE_MATCH_START;
    s->start.slot = WIRE_SLOT_WATCHER;
    s->start.game_no = m->wstart.game_no;
    s->start.start_in_ms = m->wstart.start_in_ms;
    s->start.desc_hash = m->wstart.desc_hash;
    s->start.series_len = m->wstart.series_len;
    memcpy(s->start.score, m->wstart.score, sizeof s->start.score);
    s->start.game_id = m->wstart.game_id;
    s->start.game_id_len = m->wstart.game_id_len;
    on_match_start(n, s);
    free(s);
}

static void on_move_log(cl_net_t *n, const wire_msg *m)
{
    if (!n->pz) {
        local_error(n, "move log before the match start");
        return;
    }
    bool own = m->log.slot == n->own_seat;
    pz_state *st = own ? n->own : n->opp;
    uint32_t *applied = own ? &n->own_applied : &n->opp_applied;
    const pz_kind *k = pz_kind_of(n->pz);
    if (m->log.first != *applied) {
        local_error(n, "move log out of order");
    } else {
        for (int i = 0; i < m->log.count; i++) {
            if (k->execute_move(n->pz, st, m->log.moves[i], st)) {
                local_error(n, "the server's move log does not replay");
                break;
            }
            (*applied)++;
        }
    }
    if (m->log.last && n->watching)
        cl_net_push_text(n, CL_EV_CAUGHT_UP, 0, "caught up: %u and %u moves", (unsigned)n->own_applied,
                         (unsigned)n->opp_applied);
    if (m->log.last && n->phase == CL_NET_RESUMING) {
        n->phase = CL_NET_IN_ROOM;
        n->retry_at = 0;
        cl_net_push_text(n, CL_EV_RESUMED, 0, "resumed after %u moves", (unsigned)n->own_applied);
    }
}

/* Finds the pending move with seq (normally the oldest: the channel keeps
 * order); drops it and anything older, which the server cannot answer any
 * more. False if seq is not pending. */
static bool pend_take(cl_net_t *n, uint32_t seq, pz_move *mv)
{
    for (size_t i = 0; i < n->pend_len; i++) {
        cl_pending *p = &n->pend[(n->pend_head + i) % n->pend_cap];
        if (p->seq != seq)
            continue;
        *mv = p->move;
        n->pend_head = (n->pend_head + i + 1) % n->pend_cap;
        n->pend_len -= i + 1;
        return true;
    }
    return false;
}

static void on_ack(cl_net_t *n, const wire_msg *m)
{
    pz_move mv;
    if (!pend_take(n, m->ack.seq, &mv))
        return; /* an answer to a move sent before a resume: the log covered it */
    if (n->pz) {
        if (pz_kind_of(n->pz)->execute_move(n->pz, n->own, mv, n->own) == NULL)
            n->own_applied++;
        else
            local_error(n, "the server accepted a move our rules refuse");
    }
    cl_net_event ev = {.type = CL_EV_ACK,
                       .slot = n->slot,
                       .seq = m->ack.seq,
                       .moves = m->ack.moves,
                       .solved = m->ack.solved};
    cl_net_push(n, &ev);
}

static void on_reject(cl_net_t *n, const wire_msg *m)
{
    pz_move mv;
    if (!pend_take(n, m->error.seq, &mv))
        return;
    cl_net_event ev = {.type = CL_EV_REJECT, .slot = n->slot, .seq = m->error.seq, .code = m->error.code};
    snprintf(ev.text, sizeof ev.text, "%s", m->error.text);
    cl_net_push(n, &ev);
}

static void on_progress(cl_net_t *n, const wire_msg *m)
{
    /* A player's PROGRESS is the opponent's move; a watcher's either seat's. */
    bool own = n->watching && m->progress.slot == n->own_seat;
    if (n->pz && (own || m->progress.slot != n->own_seat)) {
        pz_state *st = own ? n->own : n->opp;
        if (pz_kind_of(n->pz)->execute_move(n->pz, st, m->progress.move, st) == NULL)
            (*(own ? &n->own_applied : &n->opp_applied))++;
    }
    cl_net_event ev = {.type = CL_EV_PROGRESS, .slot = m->progress.slot, .progress = m->progress};
    cl_net_push(n, &ev);
}

static void on_match_end(cl_net_t *n, const wire_msg *m)
{
    n->live = false;
    n->pend_len = 0;
    if (n->end_seen && m->end.game_no == n->game_no)
        return; /* the result again, after a resume */
    n->end_seen = true;
    n->end = m->end;
    cl_net_event ev = {.type = CL_EV_MATCH_END, .slot = n->slot, .end = m->end, .room = n->room};
    snprintf(ev.text, sizeof ev.text, "%s", match_end_text(m->end.reason));
    cl_net_push(n, &ev);
}

static void on_error(cl_net_t *n, const wire_msg *m)
{
    if (cl_net_watch_error(n, m))
        return;
    if (m->error.code == WIRE_ERR_RESUME && n->phase == CL_NET_RESUMING) {
        /* The slot is gone (grace over, or taken back elsewhere): we are
         * still connected, just no longer in that room. */
        n->phase = CL_NET_ONLINE;
        n->in_room = false;
        n->live = false;
        n->retry_at = 0;
        cl_net_push_text(n, CL_EV_ERROR, m->error.code, "%s", m->error.text);
        cl_net_push_text(n, CL_EV_DISCONNECTED, 0, "could not resume: %s", m->error.text);
        return;
    }
    if (m->error.code == WIRE_ERR_NO_ROOM && n->join_code[0] && !n->in_room &&
        n->hub->now_ms + n->join_delay_ms <= n->join_until) {
        n->join_retry_at = n->hub->now_ms + n->join_delay_ms; /* not open yet? (cl_net_join_room) */
        n->join_delay_ms *= 2;
        return;
    }
    n->join_code[0] = '\0';
    cl_net_push_text(n, CL_EV_ERROR, m->error.code, "%s", m->error.text);
}

static void on_watch_end(cl_net_t *n, const wire_msg *m)
{
    n->in_room = n->watching = false;
    n->slot = -1;
    n->phase = n->phase == CL_NET_IN_ROOM ? CL_NET_ONLINE : n->phase;
    cl_net_push_text(n, CL_EV_WATCH_END, 0, "%s", m->error.text);
}

static void on_room_list(cl_net_t *n, const wire_msg *m)
{
    if (!n->rooms)
        n->rooms = mr_alloc(1, sizeof *n->rooms);
    *n->rooms = m->list;
    cl_net_push_text(n, CL_EV_ROOM_LIST, 0, "%u rooms racing", (unsigned)m->list.total);
}

static void on_rematch_offer(cl_net_t *n, const wire_msg *m)
{
    cl_net_event ev = {.type = CL_EV_REMATCH_OFFER, .slot = m->rematch_offer.slot};
    cl_net_push(n, &ev);
}

static void on_shutdown(cl_net_t *n, const wire_msg *m)
{
    n->closing = true;
    n->live = false;
    cl_net_push_text(n, CL_EV_SHUTDOWN, 0, "%s", m->error.text);
}

/* What the client does with each server-to-client message; about_game:
 * meaningless once we left the room (dropped then). */
typedef struct handler {
    void (*on)(cl_net_t *n, const wire_msg *m);
    bool about_game;
} handler;
static const handler handlers[WIRE_BUNDLE + 1] = {
    [WIRE_WELCOME] = {on_welcome, false},
    [WIRE_REFUSED] = {on_refused, false},
    [WIRE_ROOM_STATE] = {on_room_state, false},
    [WIRE_MATCH_START] = {on_seat_start, true},
    [WIRE_WATCH_START] = {on_watch_start, true},
    [WIRE_WATCH_END] = {on_watch_end, true},
    [WIRE_WATCH_AT] = {cl_net_on_watch_at, false},
    [WIRE_ROOM_LIST] = {on_room_list, false},
    [WIRE_MOVE_LOG] = {on_move_log, true},
    [WIRE_ACK] = {on_ack, false},
    [WIRE_REJECT] = {on_reject, false},
    [WIRE_PROGRESS] = {on_progress, true},
    [WIRE_MATCH_END] = {on_match_end, true},
    [WIRE_REMATCH_OFFER] = {on_rematch_offer, true},
    [WIRE_SHUTDOWN] = {on_shutdown, false},
    [WIRE_ERROR] = {on_error, false},
    [WIRE_REPLAY_CHUNK] = {cl_net_on_records, false},
    [WIRE_RECENT_LIST] = {cl_net_on_records, false},
    [WIRE_BEST_LIST] = {cl_net_on_records, false},
};

void cl_net_on_receive(cl_net_t *n, const uint8_t *data, size_t len)
{
    wire_msg *m = n->hub->msg;
    if (!wire_read(data, len, m)) {
        cl_net_push_text(n, CL_EV_ERROR, WIRE_ERR_BAD_MESSAGE,
                         "bad message from the server (type %d, %zu bytes)", len ? data[0] : -1, len);
        return;
    }
    const handler *h = m->type < MR_ARRAY_LEN(handlers) ? &handlers[m->type] : NULL;
    if (!h || !h->on) { /* a client-to-server type: the server would not send it */
        cl_net_push_text(n, CL_EV_ERROR, WIRE_ERR_BAD_MESSAGE, "unexpected %s from the server",
                         wire_type_name(m->type));
        return;
    }
    /* Messages about a room's game mean nothing once we left the room. */
    if (h->about_game && !n->in_room)
        return;
    h->on(n, m);
}

void cl_net_on_packet(cl_net_t *n, const uint8_t *data, size_t len)
{
    wire_bundle_it it;
    if (len == 0 || data[0] != WIRE_BUNDLE || !wire_bundle_open(&it, data, len)) {
        cl_net_on_receive(n, data, len); /* a bad BUNDLE too: reported whole */
        return;
    }
    const ENetPeer *peer = n->peer;
    const uint8_t *m;
    size_t k;
    while (n->peer == peer && wire_bundle_next(&it, &m, &k))
        cl_net_on_receive(n, m, k);
}
