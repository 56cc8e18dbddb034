/* cl_backend_local.c: the in-process backend: the match engine on this
 * machine, for hotseat (both slots local) and vs computer (slot 1 a bot). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "cl_backend.h"
#include "util.h"

typedef struct local {
    cl_backend base; /* first: the table functions cast back */
    match *m;
    bot *bot;      /* NULL in hotseat */
    int bot_level; /* enum bot_level, or -1: the fixed pace below */
    uint32_t bot_ms;
    double bot_mistakes;
    uint64_t seed;
    uint32_t bot_seq;
    cl_event_queue evq; /* translated events waiting for poll */
} local;

static bool is_local_slot(const local *l, int slot)
{
    return l->base.hotseat ? (slot == 0 || slot == 1) : slot == 0;
}

static void refresh_lobby(local *l)
{
    for (int s = 0; s < 2; s++) {
        snprintf(l->base.name[s], sizeof l->base.name[s], "%s", match_name(l->m, s));
        l->base.ready[s] = match_is_ready(l->m, s);
    }
    match_game_id(l->m, l->base.game_id, sizeof l->base.game_id);
}

static void bot_play(local *l, uint64_t now)
{
    if (!l->bot || match_phase(l->m) != MATCH_RACING)
        return;
    pz_move mv;
    /* Bounded: a late frame gets at most a few catch-up moves. */
    for (int i = 0; i < 8 && bot_next_move(l->bot, now, &mv); i++)
        match_move(l->m, 1, ++l->bot_seq, mv, now, NULL);
}

static void drain(local *l, uint64_t now)
{
    match_event e;
    while (match_poll_event(l->m, &e)) {
        cl_event ev;
        memset(&ev, 0, sizeof ev);
        ev.slot = e.slot;
        switch (e.type) {
        case MATCH_EV_JOINED:
        case MATCH_EV_LEFT:
        case MATCH_EV_READY:
            refresh_lobby(l);
            ev.type = CL_BE_LOBBY;
            break;
        case MATCH_EV_COUNTDOWN:
            refresh_lobby(l);
            if (!l->base.hotseat) {
                const char *err = NULL;
                uint64_t seed = l->seed ^ (uint64_t)e.game_no * 0x9E3779B97F4A7C15ull;
                bot_destroy(l->bot);
                l->bot = l->bot_level >= 0
                             ? bot_create_level(match_puzzle(l->m), l->bot_level, seed, &err)
                             : bot_create(match_puzzle(l->m), l->bot_ms, l->bot_mistakes, seed, &err);
            }
            ev.type = CL_BE_COUNTDOWN;
            ev.start_ms = e.start_ms;
            break;
        case MATCH_EV_START:
            if (l->bot)
                bot_start(l->bot, e.start_ms);
            ev.type = CL_BE_START;
            ev.start_ms = e.start_ms;
            break;
        case MATCH_EV_ACK:
            if (!is_local_slot(l, e.slot))
                continue;
            ev.type = CL_BE_ACK;
            ev.seq = e.seq;
            ev.moves = e.moves;
            ev.progress = e.progress;
            break;
        case MATCH_EV_REJECT:
            if (!is_local_slot(l, e.slot)) {
                if (l->bot)
                    bot_sync(l->bot, match_state(l->m, 1));
                continue;
            }
            ev.type = CL_BE_REJECT;
            ev.seq = e.seq;
            snprintf(ev.text, sizeof ev.text, "%s", e.reason ? e.reason : "move refused");
            break;
        case MATCH_EV_PROGRESS:
            if (is_local_slot(l, e.slot))
                continue;
            ev.type = CL_BE_PROGRESS;
            ev.move = e.move;
            ev.moves = e.moves;
            ev.progress = e.progress;
            break;
        case MATCH_EV_REMATCH_REQUEST:
            ev.type = CL_BE_REMATCH_ASKED;
            break;
        case MATCH_EV_FINISHED:
            ev.type = CL_BE_FINISHED;
            ev.result = e.result;
            break;
        default:
            continue;
        }
        cl_event_queue_push(&l->evq, &ev);
    }
    (void)now;
}

static void update(cl_backend *b, uint64_t now)
{
    local *l = (local *)b;
    match_update(l->m, now);
    drain(l, now);
    bot_play(l, now);
    drain(l, now);
}

static bool poll(cl_backend *b, cl_event *ev)
{
    return cl_event_queue_pop(&((local *)b)->evq, ev);
}

static void move(cl_backend *b, int slot, uint32_t seq, pz_move mv, uint64_t now)
{
    local *l = (local *)b;
    if (!is_local_slot(l, slot))
        return;
    match_move(l->m, slot, seq, mv, now, NULL);
    drain(l, now);
}

static void ready(cl_backend *b, uint64_t now)
{
    local *l = (local *)b;
    match_ready(l->m, 0, true, now);
    match_ready(l->m, 1, true, now);
    drain(l, now);
}

static void rematch(cl_backend *b, uint64_t now)
{
    local *l = (local *)b;
    match_rematch(l->m, 0, now);
    match_rematch(l->m, 1, now);
    drain(l, now);
}

static const pz_puzzle *puzzle(cl_backend *b)
{
    local *l = (local *)b;
    return match_phase(l->m) == MATCH_WAITING ? NULL : match_puzzle(l->m);
}

static const pz_state *state(cl_backend *b, int slot)
{
    local *l = (local *)b;
    return match_state(l->m, slot);
}

static void destroy(cl_backend *b)
{
    local *l = (local *)b;
    bot_destroy(l->bot);
    match_destroy(l->m);
    free(l);
}

static const cl_backend_ops local_ops = {update, poll, move, ready, rematch, puzzle, state, destroy, NULL};

void cl_backend_destroy(cl_backend *b)
{
    if (b)
        b->ops->destroy(b);
}

cl_backend *cl_backend_local(const char *game_id, const char *name0, const char *name1, int bot_level,
                             uint32_t bot_ms_per_move, double bot_mistakes, int series_len, uint64_t seed,
                             uint64_t now_ms, char *err, size_t errlen)
{
    match_config cfg;
    match_config_default(&cfg);
    cfg.series_len = series_len >= 1 && series_len <= MATCH_MAX_SERIES ? series_len : 1;
    match *m = match_create_from_id(game_id, &cfg, seed, err, errlen);
    if (!m)
        return NULL;
    local *l = mr_alloc(1, sizeof *l);
    l->base.ops = &local_ops;
    l->base.hotseat = bot_level < 0 && bot_ms_per_move == 0;
    l->base.ping_ms = -1;
    l->base.series_len = cfg.series_len;
    l->m = m;
    l->bot_level = bot_level;
    l->bot_ms = bot_ms_per_move;
    l->bot_mistakes = bot_mistakes;
    l->seed = seed;
    const char *why = match_join(m, 0, name0, now_ms, NULL);
    if (!why)
        why = match_join(m, 1, name1, now_ms, NULL);
    if (why) {
        snprintf(err, errlen, "%s", why);
        destroy(&l->base);
        return NULL;
    }
    drain(l, now_ms);
    return &l->base;
}
