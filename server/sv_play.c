/* sv_play.c: rooms in play: seating players, a match's events turned into messages, closing a room; and the
 * quick-match queue's rooms (a quick room's free seat offered to the player waiting longest). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sv_genq.h"
#include "sv_internal.h"
#include "sv_lan.h"
#include "sv_log.h"
#include "sv_loglimit.h"
#include "sv_play.h"
#include "sv_quick.h"
#include "sv_record.h"
#include "sv_roommsg.h"
#include "sv_rooms.h"
#include "sv_send.h"
#include "sv_spec.h"
#include "sv_specq.h"
#include "util.h"

/* ---- room <-> client ---- */

void sv_play_attach(sv_room *room, int slot, sv_client *c)
{
    room->player[slot] = c;
    c->room = room;
    c->slot = slot;
}

void sv_play_detach(sv_client *c)
{
    if (c->room && c->slot >= 0 && c->slot < MATCH_SLOTS && c->room->player[c->slot] == c)
        c->room->player[c->slot] = NULL;
    c->room = NULL;
    c->slot = -1;
}

/* ---- match events ---- */

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

static int room_kind(const sv_room *room)
{
    const pz_kind *k = pz_kind_of(match_puzzle(room->m));
    return k && k->id >= 0 && k->id < SV_KINDS ? k->id : 0;
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
        sv_specq_send_room(sv, room, m); /* both players' moves, at the end of the step */
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
        sv_roommsg_state_all(sv, room);
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
            sv_roommsg_match_start(sv, room, s);
        sv_record_countdown(sv, room);
        sv_spec_match_start(sv, room);
        break;
    }
    case MATCH_EV_FINISHED:
        sv->st.matches_finished++;
        log_result(sv, room, &ev->result);
        for (int s = 0; s < MATCH_SLOTS; s++)
            sv_roommsg_match_end(sv, room, s, &ev->result);
        sv_record_finished(sv, room);
        if (room->spec_head) {
            sv_roommsg_fill_match_end(sv->msg, &ev->result);
            sv_specq_send_room(sv, room, sv->msg);
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
    sv_play_quick_unlist(sv, room);
    sv_spec_room_closed(sv, room);
    for (int s = 0; s < MATCH_SLOTS; s++)
        if (room->player[s])
            sv_play_detach(room->player[s]);
    sv_rooms_remove(sv->rooms, room);
    sv_lan_rooms_changed(sv);
    sv->spec.races_valid = false;
}

void sv_play_flush_room(sv_t *sv, sv_room *room)
{
    if (!room->m)
        return;
    match_event ev;
    bool dirty = false;
    /* Bounded: the engine queues a handful of events per call. */
    for (int i = 0; i < 1024 && match_poll_event(room->m, &ev); i++)
        deliver(sv, room, &ev, &dirty);
    if (dirty) {
        sv_roommsg_state_all(sv, room);
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
        sv_play_quick_offer(sv, room); /* last: it may seat a player, which flushes the room again */
}

int sv_play_running(sv_t *sv, bool tell)
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

void sv_play_abort_all(sv_t *sv)
{
    for (int i = 0; i < sv_rooms_capacity(sv->rooms); i++) {
        sv_room *room = sv_rooms_at(sv->rooms, i);
        if (!room->m)
            continue;
        match_abort(room->m, sv->now_ms);
        sv_play_flush_room(sv, room);
    }
}

size_t sv_play_room_memory(const sv_t *sv)
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

/* ---- seats and new rooms ---- */

bool sv_play_not_in_room(sv_t *sv, sv_client *c)
{
    if (!c->room && !c->spec.watch)
        return true;
    sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_STATE, "already in a room: leave it first");
    return false;
}

void sv_play_match_cfg(const sv_t *sv, int series, match_config *mc)
{
    match_config_default(mc);
    mc->countdown_ms = (uint32_t)sv->cfg.countdown_ms;
    mc->grace_ms = (uint32_t)sv->cfg.grace_ms;
    mc->series_len = series > 0 ? series : sv->cfg.series;
    mc->host_puzzles = true; /* rematch puzzles come from the workers too */
}

void sv_play_default_params(const sv_t *sv, pz_params *p)
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
sv_room *sv_play_open_room(sv_t *sv, sv_client *c, match *m, bool quick, const sv_gen_job *j)
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
    sv_play_attach(room, slot, c);
    sv->st.rooms_created++;
    char id[128];
    match_game_id(m, id, sizeof id);
    sv_loge(&sv->log, SV_LOG_INFO, "room_created", room->code, c->name, NULL,
            "room %s created by #%u \"%s\"%s: %s, best of %d (%d rooms)", room->code, c->id, c->name,
            quick ? " (quick match)" : "", id, match_series_len(m), sv_rooms_count(sv->rooms));
    sv_play_flush_room(sv, room);
    return room;
}

bool sv_play_pending(sv_t *sv, sv_client *c)
{
    if (!c->gen.job && !c->quick.waiting)
        return false;
    sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_STATE, "your room is being prepared: wait or leave first");
    return true;
}

/* Seats c in room; on failure returns the engine's reason and changes
 * nothing for c. */
const char *sv_play_try_seat(sv_t *sv, sv_client *c, sv_room *room)
{
    int slot = -1;
    const char *err = match_join(room->m, -1, c->name, sv->now_ms, &slot);
    if (err || slot < 0 || slot >= MATCH_SLOTS)
        return err ? err : "cannot join now";
    sv_play_attach(room, slot, c);
    room->reserved_until = 0; /* a player came: an ordinary room from now on */
    sv_loge(&sv->log, SV_LOG_INFO, "joined", room->code, c->name, NULL,
            "room %s: #%u \"%s\" joined as player %d", room->code, c->id, c->name, slot + 1);
    sv_play_flush_room(sv, room);
    return NULL;
}

void sv_play_seat(sv_t *sv, sv_client *c, sv_room *room)
{
    const char *err = sv_play_try_seat(sv, c, room);
    if (!err)
        return;
    bool full = match_present(room->m, 0) && match_present(room->m, 1);
    sv_logx_limited(&sv->log, &sv->lim_refused, sv->now_ms, SV_LOG_INFO, "join_refused",
                    SV_CLIENT_FIELDS(c, room->code, full ? "room is full" : err),
                    "client #%u %s: join of room %s refused: %s", c->id, c->addr, room->code,
                    full ? "room is full" : err);
    sv_send_error(sv, c, WIRE_ERROR, full ? WIRE_ERR_ROOM_FULL : WIRE_ERR_STATE, full ? "room is full" : err);
}

/* ---- quick match's rooms (docs/racing.md, "Quick match"; the players' side is sv_quickmatch.c) ---- */

/* A room quick match may seat the next player in: waiting for its game,
 * one seat held by a connected player, the other free. */
bool sv_play_quick_open(const sv_room *room)
{
    if (!room->quick || !room->m || match_phase(room->m) != MATCH_WAITING)
        return false;
    int present = 0, live = 0;
    for (int s = 0; s < MATCH_SLOTS; s++)
        if (match_present(room->m, s)) {
            present++;
            live += room->player[s] != NULL;
        }
    return present == 1 && live == 1;
}

void sv_play_quick_unlist(sv_t *sv, sv_room *room)
{
    if (room->quick_at) {
        sv_quick_remove(sv->quick.q, room->quick_at);
        room->quick_at = 0;
    }
}

/* Queues a room quick match may fill, or takes it out of the queue when
 * it no longer can be. A player waiting alone for a puzzle being made
 * takes its free seat at once. */
void sv_play_quick_offer(sv_t *sv, sv_room *room)
{
    if (!sv_play_quick_open(room)) {
        sv_play_quick_unlist(sv, room);
        return;
    }
    if (room->quick_at)
        return;
    sv_quick_item it;
    int h = 0;
    sv_client *o = NULL;
    while (!o && sv_quick_peek(sv->quick.q, &it, &h) && it.job) {
        o = sv_genq_job_owner(sv, it.job); /* never NULL: a job leaves the queue with its owner */
        sv_quick_remove(sv->quick.q, h);
        it.job->quick_at = 0;
    }
    if (o) {
        o->gen.job = NULL;
        if (!sv_play_try_seat(sv, o, room))
            return;
        o->gen.job = it.job;
        it.job->quick_at = sv_quick_push(sv->quick.q, it);
    }
    room->quick_at = sv_quick_push(sv->quick.q, (sv_quick_item){.room = room});
}
