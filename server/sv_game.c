/* sv_game.c: the server's protocol: client messages to room and match calls, match events to messages. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "secrand.h"
#include "sv_addrs.h"
#include "sv_game.h"
#include "sv_gen.h"
#include "sv_genq.h"
#include "sv_hold.h"
#include "sv_internal.h"
#include "sv_lan.h"
#include "sv_link.h"
#include "sv_log.h"
#include "sv_loglimit.h"
#include "sv_query.h"
#include "sv_quickmatch.h"
#include "sv_record.h"
#include "sv_rooms.h"
#include "sv_send.h"
#include "sv_spec.h"
#include "util.h"

/* ---- room <-> client ---- */

static void attach(sv_room *room, int slot, sv_client *c)
{
    room->player[slot] = c;
    c->room = room;
    c->slot = slot;
}

static void detach(sv_client *c)
{
    if (c->room && c->slot >= 0 && c->slot < MATCH_SLOTS && c->room->player[c->slot] == c)
        c->room->player[c->slot] = NULL;
    c->room = NULL;
    c->slot = -1;
}

static uint8_t clamp_u8(int v)
{
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}
static uint32_t clamp_u32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* ---- messages out ---- */

void sv_game_fill_room_state(sv_t *sv, sv_room *room, int slot, wire_msg *m)
{
    memset(m, 0, sizeof *m);
    m->type = WIRE_ROOM_STATE;
    wire_room_state *rs = &m->room;
    memcpy(rs->code, room->code, sizeof rs->code);
    rs->your_slot = (uint8_t)slot;
    rs->phase = (uint8_t)match_phase(room->m);
    rs->params = *pz_params_of(match_puzzle(room->m));
    rs->series_len = clamp_u8(match_series_len(room->m));
    rs->spectators = (uint16_t)(room->nspec > 65535 ? 65535 : room->nspec);
    for (int s = 0; s < MATCH_SLOTS; s++) {
        rs->score[s] = clamp_u8(match_score(room->m, s));
        wire_player *p = &rs->player[s];
        p->present = match_present(room->m, s);
        if (!p->present)
            continue;
        p->connected = match_connected(room->m, s);
        p->ready = match_is_ready(room->m, s);
        p->rematch = match_wants_rematch(room->m, s);
        txt_clean(p->name, sizeof p->name, match_name(room->m, s));
        if (!p->name[0])
            strcpy(p->name, "?");
    }
    (void)sv;
}

static void send_room_state(sv_t *sv, sv_room *room, int slot)
{
    sv_client *c = room->player[slot];
    if (!c)
        return;
    sv_game_fill_room_state(sv, room, slot, sv->msg);
    sv_send(sv, c, sv->msg);
}

void sv_game_room_state_all(sv_t *sv, sv_room *room)
{
    for (int s = 0; s < MATCH_SLOTS; s++)
        send_room_state(sv, room, s);
    if (room->spec_head) {
        sv_game_fill_room_state(sv, room, WIRE_SLOT_WATCHER, sv->msg);
        sv_spec_send_room(sv, room, sv->msg);
    }
}

static void send_match_start(sv_t *sv, sv_room *room, int slot)
{
    sv_client *c = room->player[slot];
    if (!c)
        return;
    int len = match_game_id(room->m, sv->idbuf, WIRE_GAME_ID_MAX + 1);
    if (len <= 0 || len > WIRE_GAME_ID_MAX) {
        /* Refused at creation, so this is our bug: say so, do not crash. */
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_INTERNAL, "game ID too long to send");
        return;
    }
    wire_msg *m = sv->msg;
    memset(m, 0, sizeof *m);
    m->type = WIRE_MATCH_START;
    wire_match_start *s = &m->start;
    s->slot = (uint8_t)slot;
    s->game_no = (uint16_t)match_game_no(room->m);
    s->token = match_token(room->m, slot);
    int64_t in = (int64_t)match_start_ms(room->m) - (int64_t)sv->now_ms;
    s->start_in_ms = (int32_t)(in > INT32_MAX ? INT32_MAX : in < -INT32_MAX ? -INT32_MAX : in);
    s->desc_hash = match_desc_hash(room->m);
    s->series_len = clamp_u8(match_series_len(room->m));
    s->score[0] = clamp_u8(match_score(room->m, 0));
    s->score[1] = clamp_u8(match_score(room->m, 1));
    s->game_id = sv->idbuf;
    s->game_id_len = (uint16_t)len;
    sv_send(sv, c, m);
}

void sv_game_fill_match_end(wire_msg *m, const match_result *res)
{
    memset(m, 0, sizeof *m);
    m->type = WIRE_MATCH_END;
    wire_match_end *e = &m->end;
    e->winner = res->winner >= 0 && res->winner < MATCH_SLOTS ? (uint8_t)res->winner : WIRE_SLOT_NONE;
    e->reason = (uint8_t)res->reason;
    for (int s = 0; s < MATCH_SLOTS; s++) {
        e->time_ms[s] = clamp_u32(res->time_ms[s]);
        e->solved[s] = res->solved[s];
        e->moves[s] = res->moves[s];
        e->score[s] = clamp_u8(res->score[s]);
    }
    e->game_no = (uint16_t)res->game_no;
    e->series_len = clamp_u8(res->series_len);
    e->series_over = res->series_over;
}

static void send_match_end(sv_t *sv, sv_room *room, int slot, const match_result *res)
{
    sv_client *c = room->player[slot];
    if (!c)
        return;
    sv_game_fill_match_end(sv->msg, res);
    sv_send(sv, c, sv->msg);
}

/* The accepted moves of both slots (first_slot's first), so that a
 * resuming client rebuilds its board and the opponent's ghost, or a
 * spectator both boards. The last message has last = true. */
void sv_game_move_logs(sv_t *sv, sv_room *room, int first_slot, sv_client *c,
                       void (*send)(sv_t *, sv_client *, const wire_msg *))
{
    wire_msg *m = sv->msg;
    for (int k = 0; k < MATCH_SLOTS; k++) {
        int whose = k == 0 ? first_slot : 1 - first_slot;
        size_t n = match_move_log(room->m, whose, NULL, 0);
        pz_move *log = mr_alloc(n, sizeof *log);
        match_move_log(room->m, whose, log, n);
        size_t first = 0;
        do {
            size_t cnt = n - first > WIRE_MOVE_LOG_MAX ? WIRE_MOVE_LOG_MAX : n - first;
            memset(m, 0, sizeof *m);
            m->type = WIRE_MOVE_LOG;
            m->log.slot = (uint8_t)whose;
            m->log.first = (uint32_t)first;
            m->log.count = (uint16_t)cnt;
            if (cnt)
                memcpy(m->log.moves, log + first, cnt * sizeof *log);
            first += cnt;
            m->log.last = k == MATCH_SLOTS - 1 && first >= n;
            send(sv, c, m);
        } while (first < n);
        free(log);
    }
}

static void send_to(sv_t *sv, sv_room *room, int to, const wire_msg *m)
{
    for (int s = 0; s < MATCH_SLOTS; s++)
        if (to == MATCH_TO_BOTH || to == s)
            sv_send(sv, room->player[s], m);
}

static void send_to_late(sv_t *sv, sv_room *room, int to, const wire_msg *m)
{
    for (int s = 0; s < MATCH_SLOTS; s++)
        if (to == MATCH_TO_BOTH || to == s)
            sv_send_late(sv, room->player[s], m);
}

/* ---- match events ---- */

static void log_result(sv_t *sv, sv_room *room, const match_result *r)
{
    char who[WIRE_NAME_MAX + 16] = "no winner";
    if (r->winner >= 0 && r->winner < MATCH_SLOTS)
        snprintf(who, sizeof who, "winner %s", match_name(room->m, r->winner));
    sv_loge(&sv->log, SV_LOG_INFO, "match_finished", room->code, NULL, match_end_text(r->reason),
            "room %s game %d finished: %s (%s); times %llu/%llu ms, moves %u/%u; score %d-%d of best of %d",
            room->code, r->game_no, who, match_end_text(r->reason), (unsigned long long)r->time_ms[0],
            (unsigned long long)r->time_ms[1], r->moves[0], r->moves[1], r->score[0], r->score[1],
            r->series_len);
}

const uint32_t sv_move_hist_bounds_us[SV_MOVE_HIST_BUCKETS - 1] = {5,   10,   25,   50,   100,  250,
                                                                   500, 1000, 2500, 5000, 10000};
_Static_assert(SV_KINDS == PZ_KIND_COUNT, "SV_KINDS is the number of puzzle kinds");

static int room_kind(const sv_room *room)
{
    const pz_kind *k = pz_kind_of(match_puzzle(room->m));
    return k && k->id >= 0 && k->id < SV_KINDS ? k->id : 0;
}

static void count_move_time(sv_t *sv, uint64_t ns)
{
    int b = 0;
    while (b < SV_MOVE_HIST_BUCKETS - 1 && ns > (uint64_t)sv_move_hist_bounds_us[b] * 1000u)
        b++;
    sv->st.move_hist[b]++;
    sv->st.move_ns_sum += ns;
}

static void deliver(sv_t *sv, sv_room *room, const match_event *ev, bool *dirty)
{
    wire_msg *m = sv->msg;
    switch (ev->type) {
    case MATCH_EV_ACK:
        sv->st.moves_accepted++;
        sv->st.kind_accepted[room_kind(room)]++;
        /* Hot path: every field of ACK and PROGRESS is set below, so the
         * 2.4 KiB message union is not cleared first. */
        m->type = WIRE_ACK;
        m->ack.seq = ev->seq;
        m->ack.moves = ev->moves;
        m->ack.solved = ev->progress.solved;
        send_to(sv, room, ev->to, m);
        return;
    case MATCH_EV_PROGRESS:
        m->type = WIRE_PROGRESS;
        m->progress.slot = (uint8_t)ev->slot;
        m->progress.move = ev->move;
        m->progress.moves = ev->moves;
        m->progress.x = (int16_t)ev->progress.x;
        m->progress.y = (int16_t)ev->progress.y;
        m->progress.path_len = (uint32_t)(ev->progress.path_len < 0 ? 0 : ev->progress.path_len);
        m->progress.value = ev->progress.value;
        m->progress.solved = ev->progress.solved;
        /* After the mover's ACK, whatever the two players' slot order. */
        send_to_late(sv, room, ev->to, m);
        sv_spec_send_room(sv, room, m); /* both players' moves, at the end of the step */
        return;
    case MATCH_EV_REJECT:
        sv->st.moves_rejected++;
        sv->st.kind_rejected[room_kind(room)]++;
        if (sv->cfg.log_moves)
            sv_loge(&sv->log, SV_LOG_DEBUG, "move_rejected", room->code, match_name(room->m, ev->to),
                    ev->reason, "room %s slot %d move %u rejected: %s", room->code, ev->to, ev->seq,
                    ev->reason ? ev->reason : "");
        memset(m, 0, sizeof *m);
        m->type = WIRE_REJECT;
        m->error.code = (uint8_t)ev->code;
        m->error.seq = ev->seq;
        txt_clean(m->error.text, sizeof m->error.text, ev->reason ? ev->reason : "");
        send_to(sv, room, ev->to, m);
        return;
    default:
        break;
    }
    /* Everything below changes what ROOM_STATE shows. Before a message of
     * its own (MATCH_START, MATCH_END, REMATCH_OFFER) the pending
     * ROOM_STATE goes out first, so that messages arrive in the order
     * things happened; events with no message of their own only mark it
     * pending, so one ROOM_STATE covers them all (docs/protocol.md). */
    bool own_message = ev->type == MATCH_EV_COUNTDOWN || ev->type == MATCH_EV_FINISHED ||
                       ev->type == MATCH_EV_REMATCH_REQUEST;
    /* A countdown always shows its ROOM_STATE first, even when nothing was
     * pending (a rematch whose puzzle came from the worker). */
    if ((*dirty && own_message) || ev->type == MATCH_EV_COUNTDOWN) {
        sv_game_room_state_all(sv, room);
        *dirty = false;
    }
    switch (ev->type) {
    case MATCH_EV_COUNTDOWN: {
        sv->st.matches_started++;
        char id[128];
        match_game_id(room->m, id, sizeof id);
        sv_loge(&sv->log, SV_LOG_INFO, "countdown", room->code, NULL, NULL,
                "room %s game %d: countdown, %s vs %s on %s", room->code, ev->game_no, match_name(room->m, 0),
                match_name(room->m, 1), id);
        /* The ROOM_STATE of the countdown (phase 1, ready bits cleared)
         * went out just above; MATCH_START changes nothing in it, so no
         * second one follows (docs/protocol.md, "Message order"). */
        for (int s = 0; s < MATCH_SLOTS; s++)
            send_match_start(sv, room, s);
        sv_record_countdown(sv, room);
        sv_spec_match_start(sv, room);
        break;
    }
    case MATCH_EV_FINISHED:
        sv->st.matches_finished++;
        log_result(sv, room, &ev->result);
        for (int s = 0; s < MATCH_SLOTS; s++)
            send_match_end(sv, room, s, &ev->result);
        sv_record_finished(sv, room);
        if (room->spec_head) {
            sv_game_fill_match_end(sv->msg, &ev->result);
            sv_spec_send_room(sv, room, sv->msg);
        }
        *dirty = true;
        break;
    case MATCH_EV_REMATCH_REQUEST:
        memset(m, 0, sizeof *m);
        m->type = WIRE_REMATCH_OFFER;
        m->rematch_offer.slot = (uint8_t)ev->slot;
        send_to(sv, room, ev->to, m);
        *dirty = true;
        break;
    case MATCH_EV_DISCONNECTED:
        sv_loge(&sv->log, SV_LOG_INFO, "player_dropped", room->code, match_name(room->m, ev->slot), NULL,
                "room %s: %s dropped, %llu ms to resume", room->code, match_name(room->m, ev->slot),
                (unsigned long long)(ev->deadline_ms > sv->now_ms ? ev->deadline_ms - sv->now_ms : 0));
        *dirty = true;
        break;
    case MATCH_EV_RESUMED:
        sv_loge(&sv->log, SV_LOG_INFO, "player_resumed", room->code, match_name(room->m, ev->slot), NULL,
                "room %s: %s resumed", room->code, match_name(room->m, ev->slot));
        *dirty = true;
        break;
    case MATCH_EV_NEED_PUZZLE:
        sv_genq_next_puzzle(sv, room, ev->seed);
        break;
    default: /* JOINED, LEFT, READY, START */
        *dirty = true;
        break;
    }
}

static void remove_room(sv_t *sv, sv_room *room)
{
    sv_loge(&sv->log, SV_LOG_INFO, "room_closed", room->code, NULL, NULL, "room %s closed", room->code);
    sv_genq_release_bytes(sv, room->ip, room->puzzle_bytes, true);
    room->puzzle_bytes = 0;
    sv_quickmatch_unlist(sv, room);
    sv_spec_room_closed(sv, room);
    for (int s = 0; s < MATCH_SLOTS; s++)
        if (room->player[s])
            detach(room->player[s]);
    sv_rooms_remove(sv->rooms, room);
    sv_lan_rooms_changed(sv);
    sv->spec.races_valid = false;
}

void sv_game_flush_room(sv_t *sv, sv_room *room)
{
    if (!room->m)
        return;
    match_event ev;
    bool dirty = false;
    /* Bounded: the engine queues a handful of events per call. */
    for (int i = 0; i < 1024 && match_poll_event(room->m, &ev); i++)
        deliver(sv, room, &ev, &dirty);
    if (dirty) {
        sv_game_room_state_all(sv, room);
        sv_lan_rooms_changed(sv);
        sv->spec.races_valid = false;
    }
    int phase = match_phase(room->m);
    /* A seat in its grace period keeps the room open even when nobody is
     * connected: the player may come back to a finished game to learn how
     * it ended (its MATCH_END may have been lost with the link). The
     * grace deadline brings us back here to close it. */
    bool reserved = room->reserved_until && sv->now_ms < room->reserved_until;
    if (!reserved && !room->player[0] && !room->player[1] &&
        (phase == MATCH_WAITING || phase == MATCH_FINISHED)) {
        bool held = false;
        for (int s = 0; s < MATCH_SLOTS; s++)
            held = held || (match_present(room->m, s) && !match_connected(room->m, s));
        if (!held) {
            if (room->reserved_until)
                sv_loge(&sv->log, SV_LOG_INFO, "room_reserve_expired", room->code, NULL, NULL,
                        "reserved room %s: nobody joined in time", room->code);
            remove_room(sv, room);
            return;
        }
    }
    uint64_t next = match_next_deadline(room->m);
    if (reserved && room->reserved_until < next)
        next = room->reserved_until; /* comes back here to close it if nobody came */
    sv_rooms_set_deadline(sv->rooms, room, next);
    if (room->quick)
        sv_quickmatch_offer(sv, room); /* last: it may seat a player, which flushes the room again */
}

int sv_game_running(sv_t *sv, bool tell)
{
    int n = 0;
    for (int i = 0; i < sv_rooms_capacity(sv->rooms); i++) {
        sv_room *room = sv_rooms_at(sv->rooms, i);
        if (!room->m || (match_phase(room->m) != MATCH_COUNTDOWN && match_phase(room->m) != MATCH_RACING))
            continue;
        n++;
        for (int s = 0; tell && s < MATCH_SLOTS; s++)
            if (room->player[s])
                sv_send_error(sv, room->player[s], WIRE_ERROR, WIRE_ERR_DRAINING,
                              "server is restarting: the race is cut short");
        if (tell)
            sv_loge(&sv->log, SV_LOG_INFO, "race_cut", room->code, NULL, "drain time-out",
                    "room %s: race cut short by the drain time-out", room->code);
    }
    return n;
}

void sv_game_abort_all(sv_t *sv)
{
    for (int i = 0; i < sv_rooms_capacity(sv->rooms); i++) {
        sv_room *room = sv_rooms_at(sv->rooms, i);
        if (!room->m)
            continue;
        match_abort(room->m, sv->now_ms);
        sv_game_flush_room(sv, room);
    }
}

size_t sv_room_memory(const sv_t *sv)
{
    size_t sum = 0, n = 0;
    for (int i = 0; i < sv_rooms_capacity(sv->rooms); i++) {
        sv_room *room = sv_rooms_at(sv->rooms, i);
        if (room->m) {
            sum += match_memory(room->m);
            n++;
        }
    }
    return sv_rooms_bytes_per_room(sv->rooms) + MATCH_SLOTS * SV_CLIENT_BYTES + (n ? sum / n : 0);
}

/* ---- closing, bad messages ---- */

void sv_game_close_client(sv_t *sv, sv_client *c, const char *why)
{
    if (c->state == SV_CL_CLOSING || c->state == SV_CL_FREE)
        return;
    sv_logx(&sv->log, SV_LOG_INFO, "disconnecting", SV_CLIENT_FIELDS(c, NULL, why),
            "client #%u %s (%s): disconnecting: %s", c->id, c->addr, c->name[0] ? c->name : "-", why);
    /* Leave the room now: the slot goes into its grace period like any
     * other drop, and the opponent hears of it at once. */
    sv_game_disconnected(sv, c);
    c->state = SV_CL_CLOSING;
    c->closing_ms = sv->now_ms;
    sv_link_close_later(sv, c);
}

void sv_game_bad_message(sv_t *sv, sv_client *c, int code, const char *why)
{
    if (code == WIRE_ERR_RATE)
        sv->st.rate_limited++;
    else
        sv->st.bad_msgs++;
    c->bad++;
    /* Each is answered (at most max_bad answers before the kick); the first
     * is worth a warning, the rest are summed up by the kick line. */
    sv_logx(&sv->log, c->bad == 1 ? SV_LOG_WARN : SV_LOG_DEBUG, "bad_message", SV_CLIENT_FIELDS(c, NULL, why),
            "client #%u %s: bad message (%s), %u so far", c->id, c->addr, why, c->bad);
    if (c->bad >= (uint32_t)sv->cfg.max_bad) {
        sv->st.kicked++;
        sv_send_error(sv, c, WIRE_ERROR, code, "too many bad messages: disconnecting");
        sv_logx(&sv->log, SV_LOG_WARN, "kicked", SV_CLIENT_FIELDS(c, NULL, "too many bad messages"),
                "client #%u %s: %u bad messages, kicked", c->id, c->addr, c->bad);
        sv_game_close_client(sv, c, "too many bad messages");
    } else {
        sv_send_error(sv, c, WIRE_ERROR, code, why);
    }
}

/* ---- messages in ---- */

static bool in_room(sv_t *sv, sv_client *c)
{
    if (c->room)
        return true;
    sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_NOT_IN_ROOM, "you are not in a room");
    return false;
}

bool sv_game_not_in_room(sv_t *sv, sv_client *c)
{
    if (!c->room && !c->spec.watch)
        return true;
    sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_STATE, "already in a room: leave it first");
    return false;
}

static void refuse(sv_t *sv, sv_client *c, int code, const char *why)
{
    sv_send_error(sv, c, WIRE_REFUSED, code, why);
    sv_game_close_client(sv, c, why);
}

static void on_hello(sv_t *sv, sv_client *c, const wire_msg *in)
{
    if (c->state != SV_CL_HELLO) {
        sv_game_bad_message(sv, c, WIRE_ERR_HANDSHAKE, "HELLO sent twice");
        return;
    }
    char why[160];
    if (in->hello.version != WIRE_VERSION) {
        snprintf(why, sizeof why, "protocol version %u is not supported: this server (mazerace %s) speaks %d",
                 (unsigned)in->hello.version, MR_VERSION, WIRE_VERSION);
        refuse(sv, c, WIRE_ERR_VERSION, why);
        return;
    }
    size_t n = in->hello.name_len;
    const char *bad = txt_name_problem(in->hello.name, n);
    if (bad) {
        refuse(sv, c, WIRE_ERR_BAD_NAME, bad);
        return;
    }
    /* The ENet host has a few spare peer slots so that a client over the
     * limit hears "server full" instead of a silent connect timeout. */
    if (sv->active >= sv->cfg.max_clients) {
        refuse(sv, c, WIRE_ERR_FULL, "server full");
        return;
    }
    memcpy(c->name, in->hello.name, n + 1);
    c->state = SV_CL_ACTIVE;
    c->welcomed = true;
    sv->active++;
    sv_link_welcomed(sv, c);
    wire_msg *m = sv->msg;
    memset(m, 0, sizeof *m);
    m->type = WIRE_WELCOME;
    m->welcome.player_id = c->id;
    txt_clean(m->welcome.server_name, sizeof m->welcome.server_name, sv->cfg.name);
    sv_send(sv, c, m);
    sv_logx(&sv->log, SV_LOG_INFO, "hello", SV_CLIENT_FIELDS(c, NULL, NULL), "client #%u %s is \"%s\"", c->id,
            c->addr, c->name);
}

void sv_game_match_cfg(const sv_t *sv, int series, match_config *mc)
{
    match_config_default(mc);
    mc->countdown_ms = (uint32_t)sv->cfg.countdown_ms;
    mc->grace_ms = (uint32_t)sv->cfg.grace_ms;
    mc->series_len = series > 0 ? series : sv->cfg.series;
    mc->host_puzzles = true; /* rematch puzzles come from the workers too */
}

void sv_game_default_params(const sv_t *sv, pz_params *p)
{
    p->kind = sv->cfg.kind;
    p->diff = sv->cfg.diff;
    p->w = sv->cfg.w;
    p->h = sv->cfg.h;
    const pz_kind *k = pz_kind_by_id(p->kind);
    if (k && p->w == 0 && p->h == 0) {
        p->w = k->default_w;
        p->h = k->default_h;
    }
}

/* Makes a room around m (taken over) and seats c in it; NULL after telling
 * c why not. */
sv_room *sv_game_open_room(sv_t *sv, sv_client *c, match *m, bool quick, const sv_gen_job *j)
{
    int len = match_game_id(m, NULL, 0);
    if (len <= 0 || len > WIRE_GAME_ID_MAX) {
        match_destroy(m);
        sv_genq_release_bytes(sv, j->ip, j->est_bytes, true);
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_BAD_PARAMS, "puzzle too large to send");
        return NULL;
    }
    sv_room *room = sv_rooms_add(sv->rooms, m, sv->now_ms);
    if (!room) {
        match_destroy(m);
        sv_genq_release_bytes(sv, j->ip, j->est_bytes, true);
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_TOO_MANY_ROOMS, "the server has no free room");
        return NULL;
    }
    room->ip = j->ip;
    room->puzzle_bytes = j->est_bytes; /* the reservation becomes the room's */
    int slot = -1;
    const char *err = match_join(m, -1, c->name, sv->now_ms, &slot);
    if (err || slot < 0 || slot >= MATCH_SLOTS) {
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_INTERNAL, err ? err : "could not join the new room");
        remove_room(sv, room);
        return NULL;
    }
    attach(room, slot, c);
    sv->st.rooms_created++;
    char id[128];
    match_game_id(m, id, sizeof id);
    sv_loge(&sv->log, SV_LOG_INFO, "room_created", room->code, c->name, NULL,
            "room %s created by #%u \"%s\"%s: %s, best of %d (%d rooms)", room->code, c->id, c->name,
            quick ? " (quick match)" : "", id, match_series_len(m), sv_rooms_count(sv->rooms));
    sv_game_flush_room(sv, room);
    return room;
}

bool sv_game_pending(sv_t *sv, sv_client *c)
{
    if (!c->gen.job && !c->quick.waiting)
        return false;
    sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_STATE, "your room is being prepared: wait or leave first");
    return true;
}

static void on_create(sv_t *sv, sv_client *c, const wire_create *cr)
{
    if (!sv_game_not_in_room(sv, c) || sv_game_pending(sv, c))
        return;
    /* Precedence (docs/protocol.md): state, settings, capacity, then what
     * only making the puzzle can tell (on a worker: sv_genq.c). */
    const char *bad = wire_create_problem(cr);
    char err[200] = "";
    pz_id id;
    if (!bad && cr->by_id) {
        memcpy(sv->idbuf, cr->game_id, cr->game_id_len);
        sv->idbuf[cr->game_id_len] = '\0';
        bad = pz_id_parse(sv->idbuf, &id, err, sizeof err) ? err : NULL;
    }
    if (bad) {
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_BAD_PARAMS, bad);
        return;
    }
    if (sv_rooms_count(sv->rooms) >= sv_rooms_capacity(sv->rooms)) {
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_TOO_MANY_ROOMS, "the server has no free room");
        return;
    }
    sv_gen_job *j = sv_gen_job_new();
    sv_game_match_cfg(sv, cr->series_len, &j->mc);
    const char *why = match_config_check(&j->mc);
    if (why) {
        sv_gen_job_free(j);
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_BAD_PARAMS, why);
        return;
    }
    if (cr->by_id) {
        /* sv->idbuf holds the game ID checked above (gameid bytes are
         * printable ASCII, so it has no NUL inside). A "kind:WxH:difficulty"
         * ID without a seed gets a seed drawn from rng_init. The size
         * (parsed here, cheap) decides the cost; the puzzle is built there. */
        j->game_id = mr_alloc((size_t)cr->game_id_len + 1, 1);
        memcpy(j->game_id, sv->idbuf, (size_t)cr->game_id_len + 1);
        j->params = id.params;
    } else {
        j->params = cr->params;
        if (j->params.w == 0 && j->params.h == 0) {
            const pz_kind *k = pz_kind_by_id(j->params.kind);
            if (k) {
                j->params.w = k->default_w;
                j->params.h = k->default_h;
            }
        }
        /* A seed the player did not choose is the server's secret draw. */
        j->seed = cr->has_seed ? cr->seed : secrand_u64();
    }
    sv_genq_request_room(sv, c, j);
}

/* Seats c in room; on failure returns the engine's reason and changes
 * nothing for c. */
const char *sv_game_try_seat(sv_t *sv, sv_client *c, sv_room *room)
{
    int slot = -1;
    const char *err = match_join(room->m, -1, c->name, sv->now_ms, &slot);
    if (err || slot < 0 || slot >= MATCH_SLOTS)
        return err ? err : "cannot join now";
    attach(room, slot, c);
    room->reserved_until = 0; /* a player came: an ordinary room from now on */
    sv_loge(&sv->log, SV_LOG_INFO, "joined", room->code, c->name, NULL,
            "room %s: #%u \"%s\" joined as player %d", room->code, c->id, c->name, slot + 1);
    sv_game_flush_room(sv, room);
    return NULL;
}

void sv_game_seat(sv_t *sv, sv_client *c, sv_room *room)
{
    const char *err = sv_game_try_seat(sv, c, room);
    if (!err)
        return;
    bool full = match_present(room->m, 0) && match_present(room->m, 1);
    sv_logx_limited(&sv->log, &sv->lim_refused, sv->now_ms, SV_LOG_INFO, "join_refused",
                    SV_CLIENT_FIELDS(c, room->code, full ? "room is full" : err),
                    "client #%u %s: join of room %s refused: %s", c->id, c->addr, room->code,
                    full ? "room is full" : err);
    sv_send_error(sv, c, WIRE_ERROR, full ? WIRE_ERR_ROOM_FULL : WIRE_ERR_STATE, full ? "room is full" : err);
}

/* Failed-join backoff (docs/reliability.md, section 6): an address may
 * miss SV_JOIN_FREE_FAILS room codes or tokens for free; then each new try
 * must wait, twice as long after each miss (from 250 ms up to
 * SV_JOIN_MAX_WAIT_MS). Misses are forgotten one per SV_JOIN_FORGET_MS
 * (sv_addrs.h); a JOIN or RESUME that lands forgives nothing, since a
 * guesser can land one whenever it likes (on a room it holds itself).
 * True (and c told) when c must wait now, or when no record can be kept
 * for its address (every entry in its window is busy: refusing is the
 * only way not to hand out free guesses). */
#define SV_JOIN_FREE_FAILS 5
#define SV_JOIN_MAX_WAIT_MS 30000

static bool join_backoff(sv_t *sv, sv_client *c)
{
    sv_addr *a = sv_genq_addr(sv, c);
    if (a && sv->now_ms >= a->join_next_ms)
        return false;
    char why[96];
    if (a)
        snprintf(why, sizeof why, "too many unknown room codes or tokens: wait %llu ms",
                 (unsigned long long)(a->join_next_ms - sv->now_ms));
    else
        snprintf(why, sizeof why, "server busy: try again in a few seconds");
    sv->st.joins_backed_off++;
    sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_RATE, why);
    return true;
}

/* Counts a miss of c's address (join_backoff made its record). */
static void join_result(sv_t *sv, sv_client *c, bool ok)
{
    sv_addr *a = ok ? NULL : sv_addrs_find(sv->addrs, c->ip);
    if (!a)
        return;
    a->join_fails = sv_addr_join_fails(a, sv->now_ms) + 1;
    if (a->join_fails <= SV_JOIN_FREE_FAILS)
        return;
    uint32_t k = a->join_fails - SV_JOIN_FREE_FAILS - 1;
    uint64_t wait = k >= 7 ? SV_JOIN_MAX_WAIT_MS : 250u << k;
    a->join_next_ms = sv->now_ms + (wait < SV_JOIN_MAX_WAIT_MS ? wait : SV_JOIN_MAX_WAIT_MS);
}

static void on_join(sv_t *sv, sv_client *c, const char *code)
{
    if (!sv_game_not_in_room(sv, c) || sv_game_pending(sv, c) || join_backoff(sv, c))
        return;
    sv_room *room = sv_rooms_find(sv->rooms, code);
    join_result(sv, c, room != NULL);
    if (!room) {
        char why[64];
        snprintf(why, sizeof why, "no room with code %s", code);
        sv_logx_limited(&sv->log, &sv->lim_refused, sv->now_ms, SV_LOG_INFO, "join_refused",
                        SV_CLIENT_FIELDS(c, NULL, why), "client #%u %s: join refused: %s", c->id, c->addr,
                        why);
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_NO_ROOM, why);
        return;
    }
    sv_game_seat(sv, c, room);
}

/* WATCH: the same checks and failed-code backoff as JOIN_ROOM (a code
 * is a room's only secret), then sv_spec.c. */
static void on_watch(sv_t *sv, sv_client *c, const char *code)
{
    if (!sv_game_not_in_room(sv, c) || sv_game_pending(sv, c) || join_backoff(sv, c))
        return;
    sv_room *room = sv_rooms_find(sv->rooms, code);
    join_result(sv, c, room != NULL);
    if (!room) {
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_NO_ROOM, "no room with that code");
        return;
    }
    if (sv->sph && !c->sph_gen) {
        /* [WATCH-7]: watch there. The limits are checked here too, so that
         * a client is not sent to a port that will refuse it. */
        if (sv_spec_refuse_full(sv, c, room))
            return;
        wire_msg *m = sv->msg;
        memset(m, 0, sizeof *m);
        m->type = WIRE_WATCH_AT;
        memcpy(m->watch_at.code, room->code, sizeof m->watch_at.code);
        m->watch_at.port = sv->spec.public_port ? sv->spec.public_port : sv_spectator_port(sv);
        sv->st.watch_redirects++;
        sv_send(sv, c, m);
        return;
    }
    sv_spec_watch(sv, c, room);
}

static void on_leave(sv_t *sv, sv_client *c)
{
    if (!c->room && (c->gen.job || c->quick.waiting)) {
        sv_quickmatch_cancel(sv, c); /* the room was never opened: nothing to say */
        return;
    }
    if (!in_room(sv, c))
        return;
    sv_room *room = c->room;
    int slot = c->slot;
    sv_loge(&sv->log, SV_LOG_INFO, "left", room->code, c->name, NULL, "room %s: #%u \"%s\" left", room->code,
            c->id, c->name);
    detach(c);
    match_leave(room->m, slot, sv->now_ms);
    sv_game_flush_room(sv, room);
}

static void on_resume(sv_t *sv, sv_client *c, const wire_msg *in)
{
    if (!sv_game_not_in_room(sv, c) || sv_game_pending(sv, c) || join_backoff(sv, c))
        return;
    sv_room *room = sv_rooms_find(sv->rooms, in->resume.code);
    int slot = in->resume.slot;
    match_token_t want = room && slot < MATCH_SLOTS ? match_token(room->m, slot) : (match_token_t){{0}};
    bool ok = room && match_token_set(&want) && match_token_equal(&want, &in->resume.token);
    /* Back after the grace ran out: the seat is gone, but the player hears
     * how the game ended (MATCH_END) before the refusal. */
    bool late = !ok && room && match_was_seat(room->m, slot, &in->resume.token);
    join_result(sv, c, ok || late);
    if (late) {
        sv_loge(&sv->log, SV_LOG_INFO, "resume_late", room->code, c->name, NULL,
                "room %s: #%u \"%s\" came back after the grace period: told the result", room->code, c->id,
                c->name);
        sv_game_fill_match_end(sv->msg, match_last_result(room->m));
        sv_send(sv, c, sv->msg);
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_RESUME, "the race ended while you were away");
        return;
    }
    if (!ok) {
        sv_logx_limited(&sv->log, &sv->lim_refused, sv->now_ms, SV_LOG_INFO, "resume_refused",
                        SV_CLIENT_FIELDS(c, in->resume.code, room ? "bad resume token" : "no such room"),
                        "client #%u %s: resume of room %s refused", c->id, c->addr, in->resume.code);
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_RESUME, room ? "bad resume token" : "no such room");
        return;
    }
    sv_client *old = room->player[slot];
    if (old) {
        /* The same player on a new connection before the old one timed out
         * (a restarted client, a changed address): the token proves it. It
         * is worth a warning: if the token ever leaked, this is the line
         * that shows a seat taken over. */
        sv_loge(&sv->log, SV_LOG_WARN, "resume_displaced", room->code, match_name(room->m, slot), NULL,
                "room %s: player %d resumed by #%u %s, displacing live #%u %s", room->code, slot + 1, c->id,
                c->addr, old->id, old->addr);
        detach(old);
        sv_send_error(sv, old, WIRE_ERROR, WIRE_ERR_RESUME, "resumed from another connection");
        sv_game_close_client(sv, old, "resumed from another connection");
        match_disconnect(room->m, slot, sv->now_ms);
    }
    const char *err = match_resume(room->m, slot, &in->resume.token, sv->now_ms);
    if (err) {
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_RESUME, err);
        sv_game_flush_room(sv, room);
        return;
    }
    attach(room, slot, c);
    sv_game_flush_room(sv, room);
    if (!room->m || c->room != room)
        return;
    int phase = match_phase(room->m);
    if (phase == MATCH_COUNTDOWN || phase == MATCH_RACING || phase == MATCH_FINISHED) {
        send_match_start(sv, room, slot);
        sv_game_move_logs(sv, room, slot, c, sv_send);
        if (phase == MATCH_FINISHED)
            send_match_end(sv, room, slot, match_last_result(room->m));
    }
}

/* DESC_REQUEST: one chunk of the current puzzle's description game ID, for
 * a client that cannot generate it. The ID is made once per puzzle and
 * kept with the room; every request is one message under the rate limit. */
static void on_desc(sv_t *sv, sv_client *c, uint32_t offset)
{
    if (!c->spec.watch && !in_room(sv, c))
        return;
    sv_room *room = c->spec.watch ? c->spec.watch : c->room;
    if (match_phase(room->m) == MATCH_WAITING) {
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_STATE, "no game has started in this room yet");
        return;
    }
    uint64_t hash = match_desc_hash(room->m);
    if (!room->desc || room->desc_for != hash) {
        free(room->desc);
        room->desc = pz_id_format_desc(match_puzzle(room->m));
        room->desc_len = strlen(room->desc);
        room->desc_for = hash;
    }
    if (offset > room->desc_len) {
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_BAD_PARAMS, "offset beyond the end of the description");
        return;
    }
    size_t n = room->desc_len - offset;
    wire_msg *m = sv->msg;
    memset(m, 0, sizeof *m);
    m->type = WIRE_DESC_CHUNK;
    m->desc.game_no = (uint16_t)match_game_no(room->m);
    m->desc.desc_hash = hash;
    m->desc.total = (uint32_t)room->desc_len;
    m->desc.offset = offset;
    m->desc.count = (uint16_t)(n > WIRE_DESC_CHUNK_MAX ? WIRE_DESC_CHUNK_MAX : n);
    m->desc.bytes = room->desc + offset;
    sv_send(sv, c, m);
}

/* A message from a spectator: true when handled here (c->spec.watch
 * set); what a spectator may not send is refused here, before the
 * players' handlers below see it. */
static bool spectator_message(sv_t *sv, sv_client *c, const wire_msg *in)
{
    if (!c->spec.watch)
        return false;
    switch (in->type) {
    case WIRE_LEAVE_ROOM:
        sv_spec_leave(sv, c);
        return true;
    case WIRE_MOVE:
        /* A client that sends moves while watching is broken or probing. */
        sv_game_bad_message(sv, c, WIRE_ERR_SPECTATOR, "spectators cannot move");
        return true;
    case WIRE_READY:
    case WIRE_REMATCH:
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_SPECTATOR,
                      "spectators cannot ready up or ask for a rematch");
        return true;
    case WIRE_CREATE_ROOM:
    case WIRE_JOIN_ROOM:
    case WIRE_QUICK_MATCH:
    case WIRE_RESUME:
    case WIRE_WATCH:
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_STATE, "you are watching a room: leave it first");
        return true;
    default:
        return false; /* HELLO, DESC_REQUEST, LIST_ROOMS, anything else: as for anyone */
    }
}

void sv_game_receive(sv_t *sv, sv_client *c, const uint8_t *data, size_t len)
{
    wire_msg *in = sv->in;
    if (len == 0 || !wire_read(data, len, in)) {
        const char *name = len ? wire_type_name(data[0]) : "?";
        sv_game_bad_message(sv, c, WIRE_ERR_BAD_MESSAGE,
                            strcmp(name, "?") == 0 ? "unknown message type" : "malformed message");
        return;
    }
    if (c->state == SV_CL_HELLO && in->type != WIRE_HELLO) {
        sv_game_bad_message(sv, c, WIRE_ERR_HANDSHAKE, "the first message must be HELLO");
        return;
    }
    sv_room *room = c->room;
    int code = 0;
    const char *err;
    if (c->sph_gen && (in->type == WIRE_CREATE_ROOM || in->type == WIRE_JOIN_ROOM ||
                       in->type == WIRE_QUICK_MATCH || in->type == WIRE_RESUME)) {
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_STATE, "this is the spectator port"); /* [WATCH-8] */
        return;
    }
    if (sv->drain.on &&
        (in->type == WIRE_CREATE_ROOM || in->type == WIRE_JOIN_ROOM || in->type == WIRE_QUICK_MATCH ||
         in->type == WIRE_READY || in->type == WIRE_REMATCH)) {
        /* Draining: running races finish, nothing new starts. Logged (at
         * a bounded rate) so an operator sees who was turned away. */
        sv_logx_limited(&sv->log, &sv->lim_refused, sv->now_ms, SV_LOG_INFO, "drain_refused",
                        SV_CLIENT_FIELDS(c, NULL, "draining"),
                        "client #%u %s: %s refused: the server is draining", c->id, c->addr,
                        wire_type_name(in->type));
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_DRAINING, "server is restarting");
        return;
    }
    if (spectator_message(sv, c, in))
        return;
    sv->acting = c;
    switch (in->type) {
    case WIRE_HELLO:
        on_hello(sv, c, in);
        break;
    case WIRE_MOVE: {
        if (!in_room(sv, c))
            break;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        sv->st.moves_validated++;
        sv_hold_note_move(sv, c);
        match_move(room->m, c->slot, in->move.seq, in->move.move, sv->now_ms, &code);
        if (sv->cfg.log_moves)
            sv_loge(&sv->log, SV_LOG_DEBUG, "move", room->code, c->name, NULL, "room %s slot %d move %u: %s",
                    room->code, c->slot, in->move.seq, code == MATCH_OK ? "ok" : match_reject_text(code));
        sv_game_flush_room(sv, room);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        count_move_time(sv, (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec)));
        break;
    }
    case WIRE_CREATE_ROOM:
        on_create(sv, c, &in->create);
        break;
    case WIRE_JOIN_ROOM:
        on_join(sv, c, in->join.code);
        break;
    case WIRE_QUICK_MATCH:
        sv_quickmatch_receive(sv, c);
        break;
    case WIRE_LEAVE_ROOM:
        on_leave(sv, c);
        break;
    case WIRE_READY:
        if (!in_room(sv, c))
            break;
        err = match_ready(room->m, c->slot, in->ready.ready, sv->now_ms);
        if (err)
            sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_STATE, err);
        sv_game_flush_room(sv, room);
        break;
    case WIRE_REMATCH:
        if (!in_room(sv, c))
            break;
        err = match_rematch(room->m, c->slot, sv->now_ms);
        if (err)
            sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_STATE, err);
        sv_game_flush_room(sv, room);
        break;
    case WIRE_RESUME:
        on_resume(sv, c, in);
        break;
    case WIRE_DESC_REQUEST:
        on_desc(sv, c, in->desc_req.offset);
        break;
    case WIRE_REPLAY_REQUEST:
    case WIRE_RECENT_REQUEST:
    case WIRE_BEST_REQUEST:
        sv_query_receive(sv, c, in);
        break;
    case WIRE_WATCH:
        on_watch(sv, c, in->join.code);
        break;
    case WIRE_LIST_ROOMS:
        sv_spec_list(sv, c);
        break;
    default:
        sv_game_bad_message(sv, c, WIRE_ERR_BAD_MESSAGE, "not a client-to-server message");
        break;
    }
    sv->acting = NULL;
}

void sv_game_disconnected(sv_t *sv, sv_client *c)
{
    sv_spec_leave(sv, c);
    sv_quickmatch_cancel(sv, c);
    sv_room *room = c->room;
    if (!room)
        return;
    int slot = c->slot;
    detach(c);
    if (!room->m)
        return;
    match_disconnect(room->m, slot, sv->now_ms);
    sv_game_flush_room(sv, room);
}
