/* bt_player.c: one headless player over cl_net (see bt_player.h). */
#include "bt_player.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "rng.h"
#include "util.h"

/* Moves played per step at most: a step that comes late catches up a few
 * moves, never an unbounded burst. */
#define MAX_MOVES_PER_STEP 8

#define GHOST_RING 64
/* BUSY answers to one race request before the player gives up (bt_player_step). */
#define BUSY_TRIES 10

typedef struct sent_move {
    uint32_t seq;
    uint64_t at_us;
    pz_move mv;
} sent_move;

/* An accepted move: its number in the game (the ACK's count) and when it
 * was sent (0 = unknown). */
typedef struct acked_move {
    uint32_t moves;
    uint64_t sent_us;
} acked_move;

struct bt_player {
    cl_net_t *net;
    bt_player_cfg cfg;
    char name[WIRE_NAME_MAX + 1];
    char room_arg[WIRE_ROOM_CODE_LEN + 1];
    char *game_id;
    char room[WIRE_ROOM_CODE_LEN + 1];
    bool connected, asked, wait_code_known;
    uint64_t asked_us, paired_us; /* when it asked for a race; when an opponent was first in its room */
    /* The server answered the request BUSY (its puzzle queue or budget is
     * full): asked again at retry_us (0 = not waiting), as a player would. */
    uint64_t retry_us;
    int busy_tries;

    bot *brain;
    bool racing, paused, done;
    uint64_t start_ms;
    rng_t rng;

    pz_move *sol; /* shuttle: the solution from the start */
    int sol_len, pos;
    bool backward;
    uint64_t next_us;

    const char *fail;
    char failbuf[WIRE_TEXT_MAX + 64];

    bt_counts counts;
    bt_result *results;
    int nresults;

    sent_move *sq; /* ring: moves sent, answers come back in order */
    size_t sq_head, sq_len, sq_cap;
    bool recording;
    uint32_t *samples;
    size_t ns, scap;

    /* Ghost delay: when each of the last GHOST_RING accepted moves was sent,
     * by accepted-move count, for the opponent
     * in this process to time its PROGRESS against. */
    acked_move accepted[GHOST_RING];
    const bt_player *opp;
    const bt_player *seat[2]; /* BT_WATCH: the players watched, when in this process */
    bt_move_rec *moves[2];    /* this game's moves per seat (bt_player_moves) */
    size_t nmoves[2], capmoves[2];
    uint32_t *ghost;
    size_t ng, gcap;
};

static void failf(bt_player *p, const char *fmt, const char *what)
{
    if (p->fail)
        return;
    snprintf(p->failbuf, sizeof p->failbuf, fmt, what ? what : "");
    p->fail = p->failbuf;
    p->racing = false;
}

static bt_player *make(cl_net_t *net, const bt_player_cfg *cfg);

bt_player *bt_player_create(cl_hub_t *hub, const bt_player_cfg *cfg, const char *host, int port,
                            uint64_t now_us, const char **err)
{
    const char *name = cfg->name ? cfg->name : "bot";
    cl_net_t *net = hub ? cl_net_create_in(hub, name, err) : cl_net_create(name, err);
    if (!net)
        return NULL;
    *err = cl_net_connect(net, host, port, now_us / 1000);
    if (*err) {
        cl_net_destroy(net);
        return NULL;
    }
    return make(net, cfg);
}

static bt_player *make(cl_net_t *net, const bt_player_cfg *cfg)
{
    bt_player *p = mr_alloc(1, sizeof *p);
    p->net = net;
    p->cfg = *cfg;
    snprintf(p->name, sizeof p->name, "%s", cfg->name ? cfg->name : "bot");
    p->cfg.name = p->name;
    if (cfg->room) {
        snprintf(p->room_arg, sizeof p->room_arg, "%s", cfg->room);
        p->cfg.room = p->room_arg;
    }
    if (cfg->game_id) {
        p->game_id = mr_strdup(cfg->game_id);
        p->cfg.game_id = p->game_id;
    }
    if (p->cfg.series < 1)
        p->cfg.series = 1;
    if (p->cfg.matches < 1)
        p->cfg.matches = 1;
    if (p->cfg.pace_ms < 1)
        p->cfg.pace_ms = 1;
    rng_seed(&p->rng, cfg->bot_seed);
    return p;
}

void bt_player_destroy(bt_player *p)
{
    if (!p)
        return;
    cl_net_destroy(p->net);
    bot_destroy(p->brain);
    free(p->game_id);
    free(p->sol);
    free(p->results);
    free(p->sq);
    free(p->samples);
    free(p->ghost);
    free(p->moves[0]);
    free(p->moves[1]);
    free(p);
}

/* ---- moves and their answers ---- */

static void send_move(bt_player *p, pz_move mv)
{
    /* The round trip starts just before the move is handed to ENet, as
     * enet_echo times its echoes, not at the start of the loop turn (which
     * may first handle other players' events). */
    uint64_t now_us = mr_now_us();
    uint32_t seq = cl_net_send_move(p->net, mv);
    if (!seq)
        return;
    p->counts.sent++;
    if (p->sq_len == p->sq_cap)
        p->sq = mr_ring_grow(p->sq, sizeof *p->sq, &p->sq_head, p->sq_len, &p->sq_cap);
    p->sq[(p->sq_head + p->sq_len) % p->sq_cap] = (sent_move){.seq = seq, .at_us = now_us, .mv = mv};
    p->sq_len++;
}

/* Appends a microsecond sample to a growing array. */
static void add_sample(uint32_t **a, size_t *n, size_t *cap, uint64_t d)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 1024;
        *a = mr_realloc(*a, *cap, sizeof **a);
    }
    (*a)[(*n)++] = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
}

static void note_move(bt_player *p, int slot, uint32_t n, pz_move mv)
{
    if (slot < 0 || slot > 1)
        return;
    if (p->nmoves[slot] == p->capmoves[slot]) {
        p->capmoves[slot] = p->capmoves[slot] ? 2 * p->capmoves[slot] : 64;
        p->moves[slot] = mr_realloc(p->moves[slot], p->capmoves[slot], sizeof *p->moves[slot]);
    }
    p->moves[slot][p->nmoves[slot]++] = (bt_move_rec){.n = n, .mv = mv};
}

/* Takes seq's entry off the ring of moves sent and records its round trip;
 * returns when it was sent, 0 if it was not found; *mv gets the move. */
static uint64_t answered(bt_player *p, uint32_t seq, uint64_t now_us, pz_move *mv)
{
    /* Answers come in sequence order. Older entries were lost to a drop;
     * a newer head means seq was sent by someone else on this connection
     * (a test injecting a move). */
    while (p->sq_len > 0 && p->sq[p->sq_head].seq <= seq) {
        sent_move s = p->sq[p->sq_head];
        p->sq_head = (p->sq_head + 1) % p->sq_cap;
        p->sq_len--;
        if (s.seq != seq)
            continue;
        if (mv)
            *mv = s.mv;
        if (p->recording)
            add_sample(&p->samples, &p->ns, &p->scap, now_us > s.at_us ? now_us - s.at_us : 0);
        return s.at_us;
    }
    return 0;
}

/* Move number n of the player in slot reached us (the opponent's, or
 * either seat's for a spectator): how long since it was sent. */
static void ghost_seen(bt_player *p, int slot, uint32_t n, uint64_t now_us)
{
    const bt_player *mover =
        p->cfg.mode == BT_WATCH ? (slot == 0 || slot == 1 ? p->seat[slot] : NULL) : p->opp;
    if (!p->recording || !mover || n == 0)
        return;
    const acked_move *a = &mover->accepted[n % GHOST_RING];
    if (a->moves == n && a->sent_us)
        add_sample(&p->ghost, &p->ng, &p->gcap, now_us > a->sent_us ? now_us - a->sent_us : 0);
}

static pz_move inverse(pz_move mv)
{
    if (mv.type == PZ_MOVE_STEP)
        mv.dir = (uint8_t)pz_dir_opposite(mv.dir);
    else if (mv.type == PZ_MOVE_ROTATE_CW)
        mv.type = PZ_MOVE_ROTATE_CCW;
    else if (mv.type == PZ_MOVE_ROTATE_CCW)
        mv.type = PZ_MOVE_ROTATE_CW;
    return mv;
}

static void shuttle_start(bt_player *p, const pz_puzzle *pz, uint64_t start_ms)
{
    const pz_kind *k = pz_kind_of(pz);
    if (k->id == PZ_ICE) {
        failf(p, "shuttle play needs reversible moves (sum, maze, pipes), not ice%s", NULL);
        return;
    }
    int max = pz_max_solution(pz);
    free(p->sol);
    p->sol = mr_alloc((size_t)max, sizeof *p->sol);
    p->sol_len = k->solve(pz, NULL, p->sol, max);
    if (p->sol_len < 2) {
        failf(p, "the puzzle is too short to shuttle on%s", NULL);
        return;
    }
    p->pos = 0;
    p->backward = false;
    /* A random phase, so a thousand players do not all move in the same
     * millisecond (as enet_echo -r does). */
    uint64_t pace_us = (uint64_t)p->cfg.pace_ms * 1000u;
    p->next_us = start_ms * 1000u + rng_below(&p->rng, (uint32_t)pace_us);
}

static void shuttle_moves(bt_player *p, uint64_t now_us)
{
    uint64_t pace_us = (uint64_t)p->cfg.pace_ms * 1000u;
    for (int i = 0; i < MAX_MOVES_PER_STEP && p->next_us <= now_us; i++) {
        if (!p->backward && p->pos == p->sol_len - 1)
            p->backward = true;
        else if (p->backward && p->pos == 0)
            p->backward = false;
        pz_move mv = p->backward ? inverse(p->sol[p->pos - 1]) : p->sol[p->pos];
        p->pos += p->backward ? -1 : 1;
        send_move(p, mv);
        p->next_us += pace_us;
    }
}

/* ---- events ---- */

static void request_race(bt_player *p)
{
    const char *err = NULL;
    switch (p->cfg.mode) {
    case BT_QUICK:
        err = cl_net_quick_match(p->net);
        break;
    case BT_JOIN:
        err = cl_net_join_room(p->net, p->cfg.room);
        break;
    case BT_CREATE:
        err = p->cfg.game_id
                  ? cl_net_create_room_id(p->net, p->cfg.game_id, p->cfg.series)
                  : cl_net_create_room(p->net, &p->cfg.params, p->cfg.has_seed, p->cfg.seed, p->cfg.series);
        break;
    case BT_WAIT:
        if (!p->wait_code_known)
            return;
        err = cl_net_join_room(p->net, p->room_arg);
        break;
    case BT_WATCH:
        if (!p->room_arg[0])
            return; /* bt_player_join hands the code over */
        err = cl_net_watch(p->net, p->room_arg);
        break;
    default:
        err = "bad mode";
        break;
    }
    p->asked = true;
    if (err)
        failf(p, "cannot ask for a race: %s", err);
}

static void on_match_start(bt_player *p, const cl_net_event *ev)
{
    const pz_puzzle *pz = cl_net_puzzle(p->net);
    bot_destroy(p->brain);
    p->brain = NULL;
    p->start_ms = ev->start_ms;
    p->nmoves[0] = p->nmoves[1] = 0;
    if (!pz) {
        failf(p, "no puzzle at match start%s", NULL);
        return;
    }
    if (p->cfg.mode == BT_WATCH) {
        p->racing = true; /* watching a race: bt_player_step never moves */
        return;
    }
    if (p->cfg.play == BT_SHUTTLE) {
        shuttle_start(p, pz, ev->start_ms);
    } else {
        const char *err = NULL;
        p->brain = p->cfg.by_level ? bot_create_level(pz, p->cfg.level, rng_u64(&p->rng), &err)
                                   : bot_create(pz, p->cfg.pace_ms, p->cfg.mistakes, rng_u64(&p->rng), &err);
        if (!p->brain) {
            failf(p, "bot cannot play this puzzle: %s", err);
            return;
        }
        bot_start(p->brain, ev->start_ms);
    }
    p->racing = !p->fail;
}

/* A spectator checks what it saw against the result: every move of both
 * players, no more, no less. */
static void watch_end(bt_player *p, const cl_net_event *ev)
{
    uint32_t seen[2] = {cl_net_board_moves(p->net, 0), cl_net_board_moves(p->net, 1)};
    if (seen[0] != ev->end.moves[0] || seen[1] != ev->end.moves[1]) {
        char what[96];
        snprintf(what, sizeof what, "%u/%u moves, the result says %u/%u", (unsigned)seen[0],
                 (unsigned)seen[1], (unsigned)ev->end.moves[0], (unsigned)ev->end.moves[1]);
        failf(p, "the spectator saw %s", what);
        return;
    }
    if (p->nresults >= p->cfg.matches) {
        p->done = true;
        cl_net_leave(p->net);
        cl_net_flush(p->net);
    }
}

static void on_match_end(bt_player *p, const cl_net_event *ev)
{
    p->racing = false;
    bot_destroy(p->brain);
    p->brain = NULL;
    p->results = mr_realloc(p->results, (size_t)p->nresults + 1, sizeof *p->results);
    bt_result *r = &p->results[p->nresults++];
    memset(r, 0, sizeof *r);
    r->end = ev->end;
    r->slot = cl_net_slot(p->net);
    for (int s = 0; s < 2; s++)
        snprintf(r->names[s], sizeof r->names[s], "%.*s", WIRE_NAME_MAX, ev->room.player[s].name);
    snprintf(r->game_id, sizeof r->game_id, "%s", cl_net_game_id(p->net) ? cl_net_game_id(p->net) : "?");
    if (p->cfg.mode == BT_WATCH) {
        watch_end(p, ev);
        return;
    }
    if (p->cfg.play == BT_SHUTTLE)
        return;
    if (p->nresults >= p->cfg.matches) {
        p->done = true;
        cl_net_leave(p->net);
        cl_net_flush(p->net);
    } else if (!p->cfg.no_rematch) {
        const char *err = cl_net_rematch(p->net);
        if (err)
            failf(p, "cannot ask for a rematch: %s", err);
    }
}

/* Puts the brain on the server's state plus the moves still in flight (the
 * server applies those next, in order, unless it rejects them too). */
static void resync(bt_player *p)
{
    const pz_puzzle *pz = cl_net_puzzle(p->net);
    const pz_state *confirmed = cl_net_state(p->net);
    if (!p->brain || !pz || !confirmed)
        return;
    const pz_kind *k = pz_kind_of(pz);
    pz_state *st = k->new_state(pz);
    k->copy_state(st, confirmed);
    pz_move pend[64];
    int n = cl_net_pending(p->net, pend, (int)MR_ARRAY_LEN(pend));
    for (int i = 0; i < n && i < (int)MR_ARRAY_LEN(pend); i++)
        k->execute_move(pz, st, pend[i], st); /* an illegal one stays unapplied, as on the server */
    bot_sync(p->brain, st);
    k->free_state(st);
}

static void on_event(bt_player *p, const cl_net_event *ev, uint64_t now_us)
{
    switch (ev->type) {
    case CL_EV_CONNECTED:
        p->connected = true;
        p->asked_us = now_us;
        request_race(p);
        break;
    case CL_EV_REFUSED:
        failf(p, "refused by the server: %s", ev->text);
        break;
    case CL_EV_ROOM_JOINED:
        snprintf(p->room, sizeof p->room, "%s", ev->room.code);
        if (p->cfg.mode == BT_WATCH || p->cfg.pair_only)
            break;
        if (cl_net_ready(p->net, true))
            failf(p, "cannot say ready%s", NULL);
        break;
    case CL_EV_LOBBY:
        if (!p->paired_us && p->cfg.mode != BT_WATCH && ev->room.player[0].present &&
            ev->room.player[1].present) {
            p->paired_us = now_us > p->asked_us ? now_us : p->asked_us + 1;
            /* Stays in the room (so that nobody else is seated with a
             * leaving player) until the whole run ends. */
            if (p->cfg.pair_only)
                p->done = true;
        }
        break;
    case CL_EV_MATCH_START:
        on_match_start(p, ev);
        break;
    case CL_EV_ACK: {
        p->counts.acked++;
        pz_move mv = {0, 0, 0, 0};
        uint64_t at = answered(p, ev->seq, now_us, &mv);
        p->accepted[ev->moves % GHOST_RING] = (acked_move){.moves = ev->moves, .sent_us = at};
        if (at)
            note_move(p, cl_net_slot(p->net), ev->moves, mv);
        break;
    }
    case CL_EV_REJECT:
        p->counts.rejected++;
        p->counts.last_reject = ev->code;
        answered(p, ev->seq, now_us, NULL);
        resync(p);
        break;
    case CL_EV_PROGRESS:
        p->counts.progress++;
        ghost_seen(p, ev->progress.slot, ev->progress.moves, now_us);
        note_move(p, ev->progress.slot, ev->progress.moves, ev->progress.move);
        break;
    case CL_EV_MATCH_END:
        on_match_end(p, ev);
        break;
    case CL_EV_DISCONNECTED:
        if (ev->resuming) {
            p->counts.drops++;
            p->sq_len = 0;
        } else if (!p->done) {
            failf(p, "connection lost: %s", ev->text);
        }
        break;
    case CL_EV_RESUMED:
        p->counts.resumed++;
        if (p->cfg.play == BT_SHUTTLE)
            failf(p, "a shuttling player cannot resume%s", NULL);
        else
            resync(p);
        break;
    case CL_EV_WATCH_END:
        /* The room closed: done if a game was seen to its end. */
        if (!p->done && p->nresults == 0)
            failf(p, "the watched room closed before a game ended: %s", ev->text);
        p->done = true;
        p->racing = false;
        break;
    case CL_EV_SHUTDOWN:
        p->counts.shutdowns++;
        if (!p->done)
            failf(p, "server shut down: %s", ev->text);
        break;
    case CL_EV_ERROR:
        p->counts.errors++;
        p->counts.last_error = ev->code;
        if (ev->code == WIRE_ERR_BUSY && !p->done && p->asked && cl_net_phase(p->net) != CL_NET_IN_ROOM &&
            p->busy_tries < BUSY_TRIES) {
            /* "try again in a few seconds": 1-3 s, spread so that the
             * players turned away together do not all come back at once. */
            p->busy_tries++;
            p->asked = false;
            p->retry_us = now_us + 1000000u + rng_below(&p->rng, 2000000u);
            break;
        }
        /* Once done, the room may already be gone when our LEAVE_ROOM
         * arrives: nothing is lost by that answer. */
        if (!p->done) /* code 0: our side's (e.g. a spectator port that does not answer) */
            failf(p, ev->code ? "error from the server: %s" : "%s", ev->text);
        break;
    default:
        break;
    }
}

void bt_player_step(bt_player *p, uint64_t now_us)
{
    uint64_t now_ms = now_us / 1000u;
    cl_net_event ev;
    /* Bounded: the queue only holds what the last service delivered. */
    for (int i = 0; i < 100000 && cl_net_poll(p->net, now_ms, &ev); i++)
        on_event(p, &ev, now_us);
    if (p->retry_us && now_us >= p->retry_us && !p->fail) {
        p->retry_us = 0;
        request_race(p);
    }
    if (!p->racing || p->paused || p->fail || cl_net_phase(p->net) != CL_NET_IN_ROOM ||
        p->cfg.mode == BT_WATCH)
        return;
    if (p->cfg.play == BT_SHUTTLE) {
        shuttle_moves(p, now_us);
        return;
    }
    pz_move mv;
    for (int i = 0; i < MAX_MOVES_PER_STEP && p->brain && bot_next_move(p->brain, now_ms, &mv); i++)
        send_move(p, mv);
}

void bt_player_set_seats(bt_player *p, const bt_player *seat0, const bt_player *seat1)
{
    p->seat[0] = seat0;
    p->seat[1] = seat1;
}

void bt_player_join(bt_player *p, const char *code)
{
    snprintf(p->room_arg, sizeof p->room_arg, "%s", code);
    p->wait_code_known = true;
    if (p->connected && !p->asked)
        request_race(p);
}

void bt_player_pause(bt_player *p)
{
    p->paused = true;
}

bool bt_player_done(const bt_player *p)
{
    return p->done;
}
const char *bt_player_failed(const bt_player *p)
{
    return p->fail;
}
bool bt_player_racing(const bt_player *p, uint64_t now_us)
{
    return p->racing && now_us / 1000u >= p->start_ms;
}
const char *bt_player_room(const bt_player *p)
{
    return p->room[0] ? p->room : NULL;
}
const char *bt_player_name(const bt_player *p)
{
    return p->name;
}
cl_net_t *bt_player_net(bt_player *p)
{
    return p->net;
}
const bt_counts *bt_player_counts(const bt_player *p)
{
    return &p->counts;
}

int bt_player_results(const bt_player *p, const bt_result **out)
{
    *out = p->results;
    return p->nresults;
}

void bt_player_record(bt_player *p, bool on)
{
    p->recording = on;
}

uint64_t bt_player_asked_us(const bt_player *p)
{
    return p->asked_us;
}

uint64_t bt_player_pair_us(const bt_player *p)
{
    return p->paired_us ? p->paired_us - p->asked_us : 0;
}

const uint32_t *bt_player_samples(const bt_player *p, size_t *n)
{
    *n = p->ns;
    return p->samples;
}

void bt_player_set_opponent(bt_player *p, const bt_player *opp)
{
    p->opp = opp;
}

const uint32_t *bt_player_ghost_samples(const bt_player *p, size_t *n)
{
    *n = p->ng;
    return p->ghost;
}

const bt_move_rec *bt_player_moves(const bt_player *p, int slot, size_t *n)
{
    *n = slot == 0 || slot == 1 ? p->nmoves[slot] : 0;
    return *n ? p->moves[slot] : NULL;
}

uint32_t bt_player_outstanding(const bt_player *p)
{
    return (uint32_t)p->sq_len;
}

uint64_t bt_player_next_due_us(const bt_player *p)
{
    if (!p->racing || p->paused || p->fail || cl_net_phase(p->net) != CL_NET_IN_ROOM ||
        p->cfg.mode == BT_WATCH)
        return UINT64_MAX;
    if (p->cfg.play == BT_SHUTTLE)
        return p->next_us;
    uint64_t due = p->brain ? bot_next_due(p->brain) : UINT64_MAX;
    return due == UINT64_MAX ? UINT64_MAX : due * 1000u;
}

bt_player *bt_player_adopt(cl_net_t *net, const bt_player_cfg *cfg, uint64_t now_us)
{
    bt_player *p = make(net, cfg);
    cl_net_event ev = {.type = CL_EV_CONNECTED};
    on_event(p, &ev, now_us);
    return p;
}
