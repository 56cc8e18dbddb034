/* sv_game.c: the server's protocol, top: each client message to the subsystem that handles it (rooms and
 * seats in sv_play.c, quick match, spectators, record questions), closing a client and its disconnect. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "secrand.h"
#include "sv_addrs.h"
#include "sv_conn.h"
#include "sv_game.h"
#include "sv_gen.h"
#include "sv_genq.h"
#include "sv_hold.h"
#include "sv_internal.h"
#include "sv_link.h"
#include "sv_log.h"
#include "sv_loglimit.h"
#include "sv_play.h"
#include "sv_query.h"
#include "sv_quickmatch.h"
#include "sv_roommsg.h"
#include "sv_rooms.h"
#include "sv_send.h"
#include "sv_spec.h"
#include "sv_spechost.h"
#include "util.h"

/* ---- how long a MOVE takes (the statistics' histogram, sv.h) ---- */

const uint32_t sv_move_hist_bounds_us[SV_MOVE_HIST_BUCKETS - 1] = {5,   10,   25,   50,   100,  250,
                                                                   500, 1000, 2500, 5000, 10000};
_Static_assert(SV_KINDS == PZ_KIND_COUNT, "SV_KINDS is the number of puzzle kinds");

static void count_move_time(sv_t *sv, uint64_t ns)
{
    int b = 0;
    while (b < SV_MOVE_HIST_BUCKETS - 1 && ns > (uint64_t)sv_move_hist_bounds_us[b] * 1000u)
        b++;
    sv->st.move_hist[b]++;
    sv->st.move_ns_sum += ns;
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

/* After the engine took c's READY or REMATCH: its refusal (NULL, or why)
 * to c alone, then whatever the room now has to say to everyone. */
static void room_answer(sv_t *sv, sv_client *c, const char *err)
{
    if (err)
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_STATE, err);
    sv_play_flush_room(sv, c->room);
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
    if (!sv_conn_admit(sv, c)) {
        snprintf(why, sizeof why,
                 "Too many players from your address on this server (at most %d). Try again later.",
                 sv->cfg.max_per_ip);
        refuse(sv, c, WIRE_ERR_FULL, why);
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

static void on_create(sv_t *sv, sv_client *c, const wire_create *cr)
{
    if (!sv_play_not_in_room(sv, c) || sv_play_pending(sv, c))
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
    sv_play_match_cfg(sv, cr->series_len, &j->mc);
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

/* JOIN_ROOM's and WATCH's start: false when c may not ask now (in a room,
 * a request pending, its address backing off: each says why itself);
 * else true with the code's room in *room (NULL: none), counted as a hit
 * or a miss for the backoff. */
static bool room_of_code(sv_t *sv, sv_client *c, const char *code, sv_room **room)
{
    if (!sv_play_not_in_room(sv, c) || sv_play_pending(sv, c) || join_backoff(sv, c))
        return false;
    *room = sv_rooms_find(sv->rooms, code);
    join_result(sv, c, *room != NULL);
    return true;
}

static void on_join(sv_t *sv, sv_client *c, const char *code)
{
    sv_room *room;
    if (!room_of_code(sv, c, code, &room))
        return;
    if (!room) {
        char why[64];
        snprintf(why, sizeof why, "no room with code %s", code);
        sv_logx_limited(&sv->log, &sv->lim_refused, sv->now_ms, SV_LOG_INFO, "join_refused",
                        SV_CLIENT_FIELDS(c, NULL, why), "client #%u %s: join refused: %s", c->id, c->addr,
                        why);
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_NO_ROOM, why);
        return;
    }
    sv_play_seat(sv, c, room);
}

/* WATCH: the same checks and failed-code backoff as JOIN_ROOM (a code
 * is a room's only secret), then sv_spec.c. */
static void on_watch(sv_t *sv, sv_client *c, const char *code)
{
    sv_room *room;
    if (!room_of_code(sv, c, code, &room))
        return;
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
    sv_play_detach(c);
    match_leave(room->m, slot, sv->now_ms);
    sv_play_flush_room(sv, room);
}

static void on_resume(sv_t *sv, sv_client *c, const wire_msg *in)
{
    if (!sv_play_not_in_room(sv, c) || sv_play_pending(sv, c) || join_backoff(sv, c))
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
        sv_roommsg_fill_match_end(sv->msg, match_last_result(room->m));
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
        sv_play_detach(old);
        sv_send_error(sv, old, WIRE_ERROR, WIRE_ERR_RESUME, "resumed from another connection");
        sv_game_close_client(sv, old, "resumed from another connection");
        match_disconnect(room->m, slot, sv->now_ms);
    }
    const char *err = match_resume(room->m, slot, &in->resume.token, sv->now_ms);
    if (err) {
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_RESUME, err);
        sv_play_flush_room(sv, room);
        return;
    }
    sv_play_attach(room, slot, c);
    sv_play_flush_room(sv, room);
    if (!room->m || c->room != room)
        return;
    int phase = match_phase(room->m);
    if (phase == MATCH_COUNTDOWN || phase == MATCH_RACING || phase == MATCH_FINISHED) {
        sv_roommsg_match_start(sv, room, slot);
        sv_roommsg_move_logs(sv, room, slot, c, sv_send);
        if (phase == MATCH_FINISHED)
            sv_roommsg_match_end(sv, room, slot, match_last_result(room->m));
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
        sv_play_flush_room(sv, room);
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
        if (in_room(sv, c))
            room_answer(sv, c, match_ready(room->m, c->slot, in->ready.ready, sv->now_ms));
        break;
    case WIRE_REMATCH:
        if (in_room(sv, c))
            room_answer(sv, c, match_rematch(room->m, c->slot, sv->now_ms));
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
    sv_play_detach(c);
    if (!room->m)
        return;
    match_disconnect(room->m, slot, sv->now_ms);
    sv_play_flush_room(sv, room);
}
