/* match.c: the race state machine: slots, countdown, moves, result, grace, rematch, series. */
#include "match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "secrand.h"
#include "util.h"
#include "textrule.h"

/* Largest countdown and grace a host may configure: long enough for any
 * sensible use, short enough that start_ms + value never overflows. */
#define MAX_COUNTDOWN_MS (10u * 60 * 1000)
#define MAX_GRACE_MS (60u * 60 * 1000)
/* Rematch seeds that fail to generate are redrawn this many times. */
#define SEED_TRIES 8

struct slot {
    bool present, connected, ready, rematch, solved;
    char name[MATCH_NAME_MAX + 1];
    match_token_t token;
    /* The token of a player whose grace ran out (the seat emptied after the
     * game ended): match_was_seat. Zero when none. */
    match_token_t gone;
    uint64_t grace_end;
    uint64_t solve_ms;
    uint32_t moves;
    pz_state *st;
    /* Accepted moves with their times, packed (see log_move): a step at a
     * human pace is 3 bytes, so a log at the move limit stays a few KiB. */
    uint8_t *log;
    size_t log_len, log_cap;
    uint32_t log_last_ms; /* time of the last logged move, from the race start */
};

struct match {
    pz_puzzle *pz;
    const pz_kind *kind;
    bool seeded;
    bool fresh;         /* the current puzzle has not been raced yet */
    bool wants_puzzle;  /* host_puzzles: a NEED_PUZZLE is outstanding */
    pz_puzzle *next_pz; /* host_puzzles: the puzzle for the next start, if given */
    uint64_t next_seed;
    uint64_t seed;
    uint64_t desc_hash;
    uint32_t move_limit;
    match_config cfg;
    rng_t rng;
    int phase;
    uint64_t start_ms;
    int game_no;
    int score[MATCH_SLOTS];
    match_result last;
    struct slot s[MATCH_SLOTS];
    /* Event queue: events[head..len) are pending. */
    match_event *events;
    size_t head, len, cap;
};

void match_config_default(match_config *c)
{
    c->countdown_ms = MATCH_DEFAULT_COUNTDOWN_MS;
    c->grace_ms = MATCH_DEFAULT_GRACE_MS;
    c->series_len = 1;
    c->host_puzzles = false;
}

const char *match_config_check(const match_config *c)
{
    if (c->countdown_ms > MAX_COUNTDOWN_MS)
        return "countdown too long (at most 10 minutes)";
    if (c->grace_ms > MAX_GRACE_MS)
        return "grace period too long (at most 1 hour)";
    if (c->series_len < 1 || c->series_len > MATCH_MAX_SERIES)
        return "series length must be from 1 to 99";
    return NULL;
}

/* ---- events ---- */

static match_event *push(match *m, int type, int to, int slot)
{
    if (m->head == m->len) {
        m->head = m->len = 0;
    } else if (m->len == m->cap && m->head > 0) {
        memmove(m->events, m->events + m->head, (m->len - m->head) * sizeof *m->events);
        m->len -= m->head;
        m->head = 0;
    }
    if (m->len == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 8;
        m->events = mr_realloc(m->events, m->cap, sizeof *m->events);
    }
    match_event *ev = &m->events[m->len++];
    memset(ev, 0, sizeof *ev);
    ev->type = type;
    ev->to = to;
    ev->slot = slot;
    ev->game_no = m->game_no;
    return ev;
}

bool match_poll_event(match *m, match_event *ev)
{
    if (!m || m->head == m->len)
        return false;
    *ev = m->events[m->head++];
    if (m->head == m->len)
        m->head = m->len = 0;
    return true;
}

/* ---- puzzle and states ---- */

static uint64_t hash_of(const pz_puzzle *pz, const pz_kind *k)
{
    if (!k->encode_desc)
        return 0;
    char *d = k->encode_desc(pz);
    uint64_t h = mr_hash64(d, strlen(d));
    free(d);
    return h;
}

static void free_states(match *m)
{
    for (int i = 0; i < MATCH_SLOTS; i++) {
        if (m->s[i].st)
            m->kind->free_state(m->s[i].st);
        m->s[i].st = NULL;
    }
}

static void clear_log(struct slot *s)
{
    s->moves = 0;
    s->log_len = 0;
    s->log_last_ms = 0;
}

/* Fresh start states, no moves: the beginning of every game. */
static void reset_states(match *m)
{
    free_states(m);
    for (int i = 0; i < MATCH_SLOTS; i++) {
        struct slot *s = &m->s[i];
        s->st = m->kind->new_state(m->pz);
        clear_log(s);
        s->solved = false;
        s->solve_ms = 0;
    }
}

static void set_puzzle(match *m, pz_puzzle *pz, bool seeded, uint64_t seed)
{
    free_states(m);
    if (m->pz)
        m->kind->free_puzzle(m->pz);
    m->pz = pz;
    m->seeded = seeded;
    m->seed = seed;
    m->fresh = true;
    m->desc_hash = hash_of(pz, m->kind);
    m->move_limit = (uint32_t)pz_max_solution(pz) + 1024;
    reset_states(m);
}

static bool playable(const pz_kind *k)
{
    return k && k->new_state && k->free_state && k->free_puzzle && k->execute_move && k->is_solved &&
           k->progress;
}

/* The same params with a seed from the match's rng: rematches and new
 * series. A kind may fail a rare seed within its bounded effort, so a few
 * are tried. */
static const char *new_puzzle(match *m)
{
    pz_params p = *pz_params_of(m->pz);
    const char *err = "could not generate a new puzzle";
    if (!m->kind->generate)
        return "this puzzle kind cannot generate new puzzles";
    for (int i = 0; i < SEED_TRIES; i++) {
        uint64_t seed = rng_u64(&m->rng);
        const char *why = NULL;
        pz_puzzle *pz = m->kind->generate(&p, seed, &why);
        if (pz) {
            set_puzzle(m, pz, true, seed);
            return NULL;
        }
        if (why)
            err = why;
    }
    return err;
}

static match *create_on(const pz_kind *k, pz_puzzle *pz, bool seeded, uint64_t seed, const match_config *cfg,
                        uint64_t rng_init)
{
    match *m = mr_alloc(1, sizeof *m);
    m->kind = k;
    if (cfg)
        m->cfg = *cfg;
    else
        match_config_default(&m->cfg);
    rng_seed(&m->rng, rng_init);
    m->phase = MATCH_WAITING;
    set_puzzle(m, pz, seeded, seed);
    return m;
}

match *match_create(const pz_params *p, uint64_t seed, const match_config *cfg, uint64_t rng_init,
                    const char **err)
{
    const char *why = cfg ? match_config_check(cfg) : NULL;
    if (!why)
        why = pz_validate_params(p);
    const pz_kind *k = pz_kind_by_id(p->kind);
    if (!why && (!k->generate || !playable(k)))
        why = "this puzzle kind is not available in this build";
    pz_puzzle *pz = NULL;
    if (!why) {
        pz = k->generate(p, seed, &why);
        if (!pz && !why)
            why = "could not generate the puzzle";
    }
    if (!pz) {
        if (err)
            *err = why;
        return NULL;
    }
    return create_on(k, pz, true, seed, cfg, rng_init);
}

match *match_create_from_id(const char *game_id, const match_config *cfg, uint64_t rng_init, char *err,
                            size_t errlen)
{
    const char *why = cfg ? match_config_check(cfg) : NULL;
    pz_id id;
    if (!why && !game_id)
        why = "no game ID";
    if (!why && pz_id_parse(game_id, &id, err, errlen))
        return NULL;
    if (!why) {
        const pz_kind *k = pz_kind_by_id(id.params.kind);
        if (!k->generate || !k->decode_desc || !playable(k))
            why = "this puzzle kind is not available in this build";
    }
    if (why) {
        if (err && errlen)
            snprintf(err, errlen, "%s", why);
        return NULL;
    }
    if (!id.desc && !id.has_seed) {
        /* "kind:WxH:difficulty": the seed is drawn from the host's stream
         * (a step apart from the one create_on seeds the match with). */
        rng_t r;
        rng_seed(&r, rng_init ^ 0x5eed5eed5eed5eedull);
        id.seed = rng_u64(&r);
        const char *e = NULL;
        match *m = match_create(&id.params, id.seed, cfg, rng_init, &e);
        if (!m && err && errlen)
            snprintf(err, errlen, "%s", e ? e : "cannot make that puzzle");
        return m;
    }
    pz_puzzle *pz = pz_from_id(game_id, err, errlen);
    if (!pz)
        return NULL;
    /* A description names a board, not a difficulty: the room shows the
     * board's measured band, and rematches generate at it
     * (docs/protocol.md, CREATE_ROOM). */
    if (id.desc)
        pz_set_difficulty(pz, pz_grade_band(pz));
    return create_on(pz_kind_of(pz), pz, id.desc == NULL, id.seed, cfg, rng_init);
}

match *match_create_puzzle(const pz_kind *k, pz_puzzle *pz, bool seeded, uint64_t seed,
                           const match_config *cfg, uint64_t rng_init, const char **err)
{
    const char *why = cfg ? match_config_check(cfg) : NULL;
    if (!why && (!pz || !playable(k)))
        why = "no puzzle to race on";
    if (why) {
        if (k && pz && k->free_puzzle)
            k->free_puzzle(pz);
        if (err)
            *err = why;
        return NULL;
    }
    return create_on(k, pz, seeded, seed, cfg, rng_init);
}

void match_destroy(match *m)
{
    if (!m)
        return;
    free_states(m);
    if (m->pz)
        m->kind->free_puzzle(m->pz);
    if (m->next_pz)
        m->kind->free_puzzle(m->next_pz);
    for (int i = 0; i < MATCH_SLOTS; i++)
        free(m->s[i].log);
    free(m->events);
    free(m);
}

/* ---- phases ---- */

static bool slot_ok(const match *m, int slot)
{
    return m && slot >= 0 && slot < MATCH_SLOTS;
}

static void vacate(match *m, int slot)
{
    struct slot *s = &m->s[slot];
    s->present = s->connected = s->ready = s->rematch = false;
    s->name[0] = '\0';
    memset(&s->token, 0, sizeof s->token);
    push(m, MATCH_EV_LEFT, MATCH_TO_BOTH, slot);
}

static void finish(match *m, int winner, int reason, uint64_t end_ms)
{
    match_result *r = &m->last;
    memset(r, 0, sizeof *r);
    r->winner = winner;
    r->reason = reason;
    for (int i = 0; i < MATCH_SLOTS; i++) {
        struct slot *s = &m->s[i];
        uint64_t t = s->solved ? s->solve_ms : end_ms;
        r->time_ms[i] = t > m->start_ms ? t - m->start_ms : 0;
        r->solved[i] = s->solved;
        r->moves[i] = s->moves;
        s->ready = s->rematch = false;
    }
    if (winner >= 0)
        m->score[winner]++;
    r->game_no = m->game_no;
    r->series_len = m->cfg.series_len;
    r->score[0] = m->score[0];
    r->score[1] = m->score[1];
    /* Only a solved game lets the series go on: after a forfeit or an abort
     * one player is gone. */
    r->series_over = reason != MATCH_END_SOLVED || (winner >= 0 && m->score[winner] > m->cfg.series_len / 2);
    m->phase = MATCH_FINISHED;
    match_event *ev = push(m, MATCH_EV_FINISHED, MATCH_TO_BOTH, winner);
    ev->result = *r;
}

/* Applies everything due by now: the race start, then expired grace
 * periods (both at once is "both left", one is a forfeit). */
static void tick(match *m, uint64_t now)
{
    if (m->phase == MATCH_COUNTDOWN && now >= m->start_ms) {
        m->phase = MATCH_RACING;
        match_event *ev = push(m, MATCH_EV_START, MATCH_TO_BOTH, MATCH_NONE);
        ev->start_ms = m->start_ms;
    }
    bool expired[MATCH_SLOTS] = {false, false};
    int n = 0;
    uint64_t end = 0;
    for (int i = 0; i < MATCH_SLOTS; i++) {
        struct slot *s = &m->s[i];
        if (s->present && !s->connected && now >= s->grace_end) {
            expired[i] = true;
            n++;
            if (s->grace_end > end)
                end = s->grace_end;
        }
    }
    if (n == 0)
        return;
    if (m->phase == MATCH_COUNTDOWN || m->phase == MATCH_RACING) {
        if (n == 2)
            finish(m, MATCH_NONE, MATCH_END_BOTH_LEFT, end);
        else
            finish(m, expired[0] ? 1 : 0, MATCH_END_FORFEIT, end);
    }
    for (int i = 0; i < MATCH_SLOTS; i++)
        if (expired[i]) {
            m->s[i].gone = m->s[i].token;
            vacate(m, i);
        }
    for (int i = 0; i < MATCH_SLOTS; i++)
        m->s[i].rematch = false;
}

static const char *start_countdown(match *m, uint64_t now)
{
    if (!m->fresh && m->next_pz) {
        set_puzzle(m, m->next_pz, true, m->next_seed);
        m->next_pz = NULL;
    } else if (!m->fresh && m->cfg.host_puzzles) {
        /* Both want to start: ask the host and wait with the flags set. */
        if (!m->wants_puzzle) {
            m->wants_puzzle = true;
            match_event *ev = push(m, MATCH_EV_NEED_PUZZLE, MATCH_TO_BOTH, MATCH_NONE);
            ev->seed = rng_u64(&m->rng);
        }
        return NULL;
    } else if (!m->fresh) {
        const char *err = new_puzzle(m);
        if (err)
            return err;
    } else {
        reset_states(m);
    }
    for (int i = 0; i < MATCH_SLOTS; i++) {
        m->s[i].ready = m->s[i].rematch = false;
        memset(&m->s[i].gone, 0, sizeof m->s[i].gone);
        clear_log(&m->s[i]);
    }
    m->fresh = false;
    m->game_no++;
    m->start_ms = now + m->cfg.countdown_ms;
    m->phase = MATCH_COUNTDOWN;
    match_event *ev = push(m, MATCH_EV_COUNTDOWN, MATCH_TO_BOTH, MATCH_NONE);
    ev->start_ms = m->start_ms;
    tick(m, now);
    return NULL;
}

static void new_series(match *m)
{
    m->score[0] = m->score[1] = 0;
    m->game_no = 0;
    memset(&m->last, 0, sizeof m->last);
}

/* ---- players ---- */

const char *match_join(match *m, int slot, const char *name, uint64_t now_ms, int *slot_out)
{
    if (!m)
        return "no match";
    tick(m, now_ms);
    if (m->phase != MATCH_WAITING && m->phase != MATCH_FINISHED)
        return "the race has already started";
    if (slot < 0) {
        for (int i = 0; i < MATCH_SLOTS && slot < 0; i++)
            if (!m->s[i].present)
                slot = i;
        if (slot < 0)
            return "the room is full";
    } else if (slot >= MATCH_SLOTS) {
        return "no such player slot";
    } else if (m->s[slot].present) {
        return "that player slot is taken";
    }
    char clean[MATCH_NAME_MAX + 1];
    txt_clean(clean, sizeof clean, name ? name : "");
    if (!clean[0])
        return "a player name must not be empty";
    /* Never from m->rng: its outputs (rematch seeds) are public. */
    match_token_t token;
    do {
        if (!secrand_fill(token.b, sizeof token.b))
            return "no random bytes for a resume token";
    } while (!match_token_set(&token));
    if (m->phase == MATCH_FINISHED) {
        /* A newcomer starts a new series from the lobby. */
        m->phase = MATCH_WAITING;
        new_series(m);
        for (int i = 0; i < MATCH_SLOTS; i++)
            m->s[i].ready = m->s[i].rematch = false;
    }
    struct slot *s = &m->s[slot];
    s->present = s->connected = true;
    memset(&s->gone, 0, sizeof s->gone);
    s->ready = s->rematch = false;
    memcpy(s->name, clean, sizeof s->name);
    s->token = token;
    clear_log(s);
    match_event *ev = push(m, MATCH_EV_JOINED, MATCH_TO_BOTH, slot);
    ev->name = s->name;
    if (slot_out)
        *slot_out = slot;
    return NULL;
}

const char *match_leave(match *m, int slot, uint64_t now_ms)
{
    if (!slot_ok(m, slot))
        return "no such player slot";
    tick(m, now_ms);
    if (!m->s[slot].present)
        return "no player in that slot";
    if (m->phase == MATCH_COUNTDOWN || m->phase == MATCH_RACING)
        finish(m, 1 - slot, MATCH_END_FORFEIT, now_ms);
    if (m->phase == MATCH_FINISHED)
        m->s[1 - slot].rematch = false;
    vacate(m, slot);
    return NULL;
}

const char *match_ready(match *m, int slot, bool ready, uint64_t now_ms)
{
    if (!slot_ok(m, slot))
        return "no such player slot";
    tick(m, now_ms);
    struct slot *s = &m->s[slot];
    if (!s->present || !s->connected)
        return "no player in that slot";
    if (m->phase != MATCH_WAITING)
        return "ready only counts before the race";
    s->ready = ready;
    match_event *ev = push(m, MATCH_EV_READY, MATCH_TO_BOTH, slot);
    ev->ready = ready;
    const struct slot *o = &m->s[1 - slot];
    if (s->ready && o->present && o->connected && o->ready)
        return start_countdown(m, now_ms);
    return NULL;
}

const char *match_disconnect(match *m, int slot, uint64_t now_ms)
{
    if (!slot_ok(m, slot))
        return "no such player slot";
    tick(m, now_ms);
    struct slot *s = &m->s[slot];
    if (!s->present)
        return "no player in that slot";
    if (!s->connected)
        return "that player is already disconnected";
    if (m->phase == MATCH_WAITING) {
        vacate(m, slot);
        return NULL;
    }
    s->connected = false;
    s->rematch = false;
    s->grace_end = now_ms + m->cfg.grace_ms;
    match_event *ev = push(m, MATCH_EV_DISCONNECTED, MATCH_TO_BOTH, slot);
    ev->deadline_ms = s->grace_end;
    tick(m, now_ms);
    return NULL;
}

const char *match_resume(match *m, int slot, const match_token_t *token, uint64_t now_ms)
{
    if (!slot_ok(m, slot))
        return "no such player slot";
    tick(m, now_ms);
    struct slot *s = &m->s[slot];
    if (!s->present || s->connected)
        return "nothing to resume in that slot (grace period over?)";
    if (!token || !match_token_equal(token, &s->token))
        return "wrong resume token";
    s->connected = true;
    push(m, MATCH_EV_RESUMED, MATCH_TO_BOTH, slot);
    return NULL;
}

/* Whether both players want the next game to start now. */
static bool start_wanted(const match *m)
{
    for (int i = 0; i < MATCH_SLOTS; i++) {
        const struct slot *s = &m->s[i];
        if (!s->present || !s->connected || !(m->phase == MATCH_WAITING ? s->ready : s->rematch))
            return false;
    }
    return m->phase == MATCH_WAITING || m->phase == MATCH_FINISHED;
}

const char *match_give_puzzle(match *m, pz_puzzle *pz, uint64_t seed, uint64_t now_ms)
{
    bool same = m && pz && pz_params_of(pz)->kind == m->kind->id;
    if (!m || !m->wants_puzzle || (pz && !same)) {
        if (pz)
            (same ? m->kind : pz_kind_of(pz))->free_puzzle(pz);
        return !m || !m->wants_puzzle ? "no puzzle was asked for" : "a puzzle of another kind";
    }
    tick(m, now_ms);
    m->wants_puzzle = false;
    if (!pz) {
        for (int i = 0; i < MATCH_SLOTS; i++) {
            struct slot *s = &m->s[i];
            if (s->ready || s->rematch) {
                s->ready = s->rematch = false;
                push(m, MATCH_EV_READY, MATCH_TO_BOTH, i)->ready = false;
            }
        }
        return NULL;
    }
    if (m->next_pz)
        m->kind->free_puzzle(m->next_pz);
    m->next_pz = pz;
    m->next_seed = seed;
    if (start_wanted(m))
        return start_countdown(m, now_ms);
    return NULL;
}

bool match_wants_puzzle(const match *m)
{
    return m && m->wants_puzzle;
}

const char *match_rematch(match *m, int slot, uint64_t now_ms)
{
    if (!slot_ok(m, slot))
        return "no such player slot";
    tick(m, now_ms);
    struct slot *s = &m->s[slot];
    const struct slot *o = &m->s[1 - slot];
    if (!s->present || !s->connected)
        return "no player in that slot";
    if (m->phase != MATCH_FINISHED)
        return "a rematch can only be asked for after a race";
    if (!o->present)
        return "there is no opponent for a rematch";
    if (!s->rematch) {
        s->rematch = true;
        push(m, MATCH_EV_REMATCH_REQUEST, MATCH_TO_BOTH, slot);
    }
    if (!(o->rematch && o->connected))
        return NULL;
    if (m->last.series_over)
        new_series(m);
    const char *err = start_countdown(m, now_ms);
    if (err) {
        s->rematch = false;
        return err;
    }
    return NULL;
}

/* ---- the race ---- */

static const char *reject(match *m, int slot, uint32_t seq, int c, const char *why, int *code)
{
    match_event *ev = push(m, MATCH_EV_REJECT, slot, slot);
    ev->seq = seq;
    ev->code = c;
    ev->reason = why;
    if (code)
        *code = c;
    return why;
}

/* Move log packing: byte 0 holds type (bits 0-2), dir (bits 3-4) and
 * whether x (bit 5) and y (bit 6) follow; x and y follow as LEB128 (1 to 3
 * bytes), then the time since the previous move (or the race start) in ms
 * as LEB128 (1 to 5 bytes). Only accepted moves are logged, so every field
 * is in range. */
enum { PACK_MAX = 1 + 3 + 3 + 5 };

static size_t pack_u32(uint8_t *out, uint32_t v)
{
    size_t n = 0;
    do {
        out[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v)
            out[n] |= 0x80;
        n++;
    } while (v);
    return n;
}

static size_t unpack_u32(const uint8_t *in, uint32_t *v)
{
    size_t n = 0;
    unsigned shift = 0;
    uint32_t acc = 0;
    do {
        acc |= (uint32_t)(in[n] & 0x7f) << shift;
        shift += 7;
    } while (in[n++] & 0x80);
    *v = acc;
    return n;
}

static void log_move(struct slot *s, pz_move mv, uint32_t t_ms)
{
    if (s->log_len + PACK_MAX > s->log_cap) {
        /* Doubling, then an eighth more at a time: a log at the move limit
         * wastes little (the memory budget counts the capacity). */
        s->log_cap = s->log_cap < 1024 ? (s->log_cap ? s->log_cap * 2 : 128) : s->log_cap + s->log_cap / 8;
        s->log = mr_realloc(s->log, s->log_cap, 1);
    }
    uint8_t *p = s->log + s->log_len;
    size_t n = 1;
    p[0] = (uint8_t)((mv.type & 7) | (mv.dir & 3) << 3 | (mv.x ? 0x20 : 0) | (mv.y ? 0x40 : 0));
    if (mv.x)
        n += pack_u32(p + n, mv.x);
    if (mv.y)
        n += pack_u32(p + n, mv.y);
    if (t_ms < s->log_last_ms) /* the host's clock must not go back; never log a negative gap */
        t_ms = s->log_last_ms;
    n += pack_u32(p + n, t_ms - s->log_last_ms);
    s->log_last_ms = t_ms;
    s->log_len += n;
    s->moves++;
}

const char *match_move(match *m, int slot, uint32_t seq, pz_move mv, uint64_t now_ms, int *code)
{
    if (!slot_ok(m, slot) || !m->s[slot].present) {
        if (code)
            *code = MATCH_REJ_NO_PLAYER;
        return match_reject_text(MATCH_REJ_NO_PLAYER);
    }
    tick(m, now_ms);
    struct slot *s = &m->s[slot];
    if (!s->present) {
        if (code)
            *code = MATCH_REJ_NO_PLAYER;
        return match_reject_text(MATCH_REJ_NO_PLAYER);
    }
    if (!s->connected)
        return reject(m, slot, seq, MATCH_REJ_DISCONNECTED, match_reject_text(MATCH_REJ_DISCONNECTED), code);
    if (m->phase == MATCH_WAITING || m->phase == MATCH_COUNTDOWN)
        return reject(m, slot, seq, MATCH_REJ_NOT_STARTED, match_reject_text(MATCH_REJ_NOT_STARTED), code);
    if (m->phase != MATCH_RACING)
        return reject(m, slot, seq, MATCH_REJ_FINISHED, match_reject_text(MATCH_REJ_FINISHED), code);
    if (s->moves >= m->move_limit)
        return reject(m, slot, seq, MATCH_REJ_TOO_MANY, match_reject_text(MATCH_REJ_TOO_MANY), code);
    const char *why = m->kind->execute_move(m->pz, s->st, mv, s->st);
    if (why)
        return reject(m, slot, seq, MATCH_REJ_ILLEGAL, why, code);
    uint64_t t = now_ms - m->start_ms; /* racing, so now_ms >= start_ms */
    log_move(s, mv, t > UINT32_MAX ? UINT32_MAX : (uint32_t)t);
    pz_progress pr;
    memset(&pr, 0, sizeof pr);
    m->kind->progress(m->pz, s->st, &pr);
    match_event *ev = push(m, MATCH_EV_ACK, slot, slot);
    ev->seq = seq;
    ev->move = mv;
    ev->moves = s->moves;
    ev->progress = pr;
    ev = push(m, MATCH_EV_PROGRESS, 1 - slot, slot);
    ev->move = mv;
    ev->moves = s->moves;
    ev->progress = pr;
    if (code)
        *code = MATCH_OK;
    if (m->kind->is_solved(m->pz, s->st)) {
        s->solved = true;
        s->solve_ms = now_ms;
        finish(m, slot, MATCH_END_SOLVED, now_ms);
    }
    return NULL;
}

void match_update(match *m, uint64_t now_ms)
{
    if (m)
        tick(m, now_ms);
}

uint64_t match_next_deadline(const match *m)
{
    uint64_t t = UINT64_MAX;
    if (!m)
        return t;
    if (m->phase == MATCH_COUNTDOWN)
        t = m->start_ms;
    for (int i = 0; i < MATCH_SLOTS; i++)
        if (m->s[i].present && !m->s[i].connected && m->s[i].grace_end < t)
            t = m->s[i].grace_end;
    return t;
}

void match_abort(match *m, uint64_t now_ms)
{
    if (!m)
        return;
    tick(m, now_ms);
    if (m->phase == MATCH_COUNTDOWN || m->phase == MATCH_RACING)
        finish(m, MATCH_NONE, MATCH_END_ABORTED, now_ms);
}

/* ---- queries ---- */

int match_phase(const match *m)
{
    return m ? m->phase : MATCH_WAITING;
}
const pz_puzzle *match_puzzle(const match *m)
{
    return m ? m->pz : NULL;
}

const pz_state *match_state(const match *m, int slot)
{
    return slot_ok(m, slot) && m->s[slot].present ? m->s[slot].st : NULL;
}

bool match_was_seat(const match *m, int slot, const match_token_t *token)
{
    return slot_ok(m, slot) && token && match_token_set(&m->s[slot].gone) &&
           match_token_equal(&m->s[slot].gone, token);
}

bool match_present(const match *m, int slot)
{
    return slot_ok(m, slot) && m->s[slot].present;
}

bool match_connected(const match *m, int slot)
{
    return slot_ok(m, slot) && m->s[slot].present && m->s[slot].connected;
}

bool match_is_ready(const match *m, int slot)
{
    return slot_ok(m, slot) && m->s[slot].ready;
}
bool match_wants_rematch(const match *m, int slot)
{
    return slot_ok(m, slot) && m->s[slot].rematch;
}
const char *match_name(const match *m, int slot)
{
    return slot_ok(m, slot) ? m->s[slot].name : "";
}
match_token_t match_token(const match *m, int slot)
{
    match_token_t none = {{0}};
    return slot_ok(m, slot) ? m->s[slot].token : none;
}

bool match_token_set(const match_token_t *t)
{
    uint8_t any = 0;
    for (int i = 0; i < MATCH_TOKEN_BYTES; i++)
        any |= t->b[i];
    return any != 0;
}

bool match_token_equal(const match_token_t *a, const match_token_t *b)
{
    uint8_t diff = 0;
    for (int i = 0; i < MATCH_TOKEN_BYTES; i++)
        diff |= (uint8_t)(a->b[i] ^ b->b[i]);
    return diff == 0;
}
uint32_t match_moves(const match *m, int slot)
{
    return slot_ok(m, slot) ? m->s[slot].moves : 0;
}

size_t match_move_log_timed(const match *m, int slot, pz_move *moves, uint32_t *times_ms, size_t max)
{
    if (!slot_ok(m, slot))
        return 0;
    const struct slot *s = &m->s[slot];
    size_t at = 0;
    uint32_t t = 0;
    for (size_t i = 0; at < s->log_len && i < max; i++) {
        const uint8_t *p = s->log + at;
        pz_move mv = {.type = (uint8_t)(p[0] & 7), .dir = (uint8_t)(p[0] >> 3 & 3)};
        uint32_t v = 0;
        size_t n = 1;
        if (p[0] & 0x20) {
            n += unpack_u32(p + n, &v);
            mv.x = (uint16_t)v;
        }
        if (p[0] & 0x40) {
            n += unpack_u32(p + n, &v);
            mv.y = (uint16_t)v;
        }
        n += unpack_u32(p + n, &v);
        t += v;
        if (moves)
            moves[i] = mv;
        if (times_ms)
            times_ms[i] = t;
        at += n;
    }
    return s->moves;
}

size_t match_move_log(const match *m, int slot, pz_move *out, size_t max)
{
    return match_move_log_timed(m, slot, out, NULL, out ? max : 0);
}

size_t match_move_times(const match *m, int slot, uint32_t *out, size_t max)
{
    return match_move_log_timed(m, slot, NULL, out, out ? max : 0);
}

uint64_t match_start_ms(const match *m)
{
    return m && m->game_no > 0 ? m->start_ms : 0;
}
int match_game_no(const match *m)
{
    return m ? m->game_no : 0;
}
int match_series_len(const match *m)
{
    return m ? m->cfg.series_len : 0;
}
int match_score(const match *m, int slot)
{
    return slot_ok(m, slot) ? m->score[slot] : 0;
}
const match_result *match_last_result(const match *m)
{
    return m ? &m->last : NULL;
}

bool match_seeded(const match *m, uint64_t *seed)
{
    if (seed)
        *seed = m->seed;
    return m->seeded;
}

int match_game_id(const match *m, char *buf, size_t len)
{
    if (m->seeded)
        return pz_id_format_seeded(pz_params_of(m->pz), m->seed, buf, len);
    char *id = pz_id_format_desc(m->pz);
    int n = snprintf(buf, len, "%s", id);
    free(id);
    return n;
}

uint64_t match_desc_hash(const match *m)
{
    return m->desc_hash;
}
uint32_t match_move_limit(const match *m)
{
    return m ? m->move_limit : 0;
}

size_t match_memory(const match *m)
{
    if (!m)
        return 0;
    size_t n = sizeof *m + m->cap * sizeof *m->events;
    for (int i = 0; i < MATCH_SLOTS; i++)
        n += m->s[i].log_cap;
    return n;
}

/* The words below are in enum order (match.h). */
const char *match_reject_text(int code)
{
    static const char *const t[MATCH_REJ_COUNT] = {"ok",
                                                   "illegal move",
                                                   "the race has not started yet",
                                                   "the race is over",
                                                   "no player in that slot",
                                                   "that player is disconnected",
                                                   "too many moves in this game"};
    return MR_NAME_OF(t, code, "unknown reason");
}

const char *match_end_text(int reason)
{
    static const char *const t[] = {"solved", "forfeit", "both players left", "aborted"};
    return MR_NAME_OF(t, reason, "unknown");
}

const char *match_phase_text(int phase)
{
    static const char *const t[] = {"waiting", "countdown", "racing", "finished"};
    return MR_NAME_OF(t, phase, "unknown");
}
