/* replay_check.c: runs a replay through the match engine: every move at its time, then the ending. */
#include <stdio.h>
#include <string.h>

#include "replay_impl.h"

/* Drops the events the engine queues for each call (nobody listens). */
static void drain(match *m)
{
    match_event ev;
    while (match_poll_event(m, &ev))
        ;
}

static bool error_at(pz_error *e, int line, int col, const char *fmt, const char *a, const char *b)
{
    pz_error_set(e, line, col, fmt, a, b);
    return false;
}

/* "move 12" for a built replay (no lines): where a message points. */
static void where(const replay_move *mv, size_t i, char *buf, size_t len)
{
    if (mv->line)
        snprintf(buf, len, "move");
    else
        snprintf(buf, len, "move %zu", i + 1);
}

/* A match with both players in and the race started at host time 0. */
static match *start(const replay *r, pz_error *e)
{
    match_config cfg;
    match_config_default(&cfg);
    cfg.countdown_ms = 0;
    char err[160];
    match *m = match_create_from_id(r->game_id, &cfg, 1, err, sizeof err);
    if (!m) {
        error_at(e, r->game_line, r->game_line ? 6 : 0, "%s%s", err, "");
        return NULL;
    }
    const char *why = NULL;
    for (int i = 0; i < MATCH_SLOTS && !why; i++)
        why = match_join(m, i, r->name[i], 0, NULL);
    for (int i = 0; i < MATCH_SLOTS && !why; i++)
        why = match_ready(m, i, true, 0);
    drain(m);
    if (!why && match_phase(m) != MATCH_RACING)
        why = "the race did not start";
    if (why) {
        error_at(e, 0, 0, "%s%s", why, "");
        match_destroy(m);
        return NULL;
    }
    return m;
}

/* Plays moves [0, n) on m; false with e filled at the first one refused. */
static bool play(const replay *r, match *m, size_t n, pz_error *e)
{
    for (size_t i = 0; i < n; i++) {
        const replay_move *mv = &r->moves[i];
        char w[32];
        where(mv, i, w, sizeof w);
        if (match_phase(m) != MATCH_RACING)
            return error_at(e, mv->line, mv->col, "%s after the race was over (%s)", w,
                            "a player had already solved the puzzle");
        const char *why = match_move(m, mv->slot, (uint32_t)i, mv->mv, mv->t_ms, NULL);
        drain(m);
        if (why)
            return error_at(e, mv->line, mv->col, "%s refused by the engine: %s", w, why);
    }
    return true;
}

/* The ending as the file says, checked against what the moves did. */
static bool finish(const replay *r, match *m, pz_error *e)
{
    const replay_end *end = &r->end;
    int line = r->end_line, col = line ? 5 : 0;
    if (!r->has_end)
        return error_at(e, 0, 0, "%s%s", "the replay has no ending", "");
    if (match_phase(m) == MATCH_FINISHED) {
        const match_result *res = match_last_result(m);
        char who[64];
        snprintf(who, sizeof who, "player %d solved the puzzle at %llu ms", res->winner,
                 (unsigned long long)res->time_ms[res->winner]);
        if (end->reason != MATCH_END_SOLVED || end->winner != res->winner)
            return error_at(e, line, col, "the ending does not match the moves: %s%s", who, "");
        if (end->end_ms != res->time_ms[res->winner])
            return error_at(e, line, col, "the end time does not match the moves: %s%s", who, "");
        return true;
    }
    if (end->reason == MATCH_END_SOLVED)
        return error_at(e, line, col, "the ending says solved, but %s%s",
                        "no player's moves solve the puzzle", "");
    if (end->reason == MATCH_END_FORFEIT)
        match_leave(m, 1 - end->winner, end->end_ms);
    else
        match_abort(m, end->end_ms);
    drain(m);
    return match_phase(m) == MATCH_FINISHED ||
           error_at(e, line, col, "%s%s", "the engine did not end the game", "");
}

static bool check(const replay *r, match_result *out, pz_error *e)
{
    memset(e, 0, sizeof *e);
    match *m = start(r, e);
    bool ok = m && play(r, m, r->n, e) && finish(r, m, e);
    if (ok && out) {
        *out = *match_last_result(m);
        /* The engine ends a both-left game only through grace periods;
         * the abort above ended it at the same time, so only the reason differs. */
        out->reason = r->end.reason;
    }
    match_destroy(m);
    return ok;
}

const char *replay_check(const replay *r, match_result *out, pz_error *e)
{
    if (e)
        return check(r, out, e) ? NULL : e->msg;
    pz_error local;
    return check(r, out, &local) ? NULL : "the replay does not check";
}

match *replay_match_at(const replay *r, size_t n, pz_error *e)
{
    match *m = start(r, e);
    if (m && !play(r, m, n < r->n ? n : r->n, e)) {
        match_destroy(m);
        return NULL;
    }
    return m;
}
