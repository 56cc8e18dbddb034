/* st_engine.c: a finished match as a store record, and a record as a replay (the engine's types on one side,
 * the store's on the other). */
#include "st_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

st_match *st_from_match(const match *m, const char *const names[MATCH_SLOTS], const char *mode,
                        int64_t start_utc_ms, const char **err)
{
    if (match_phase(m) != MATCH_FINISHED) {
        *err = "the match has no finished game";
        return NULL;
    }
    replay *rp = replay_from_match(m, names, err);
    if (!rp)
        return NULL;
    const match_result *res = match_last_result(m);
    const pz_params *p = pz_params_of(match_puzzle(m));
    const pz_kind *k = pz_kind_by_id(p->kind);
    st_match *r = mr_alloc(1, sizeof *r);
    memset(r, 0, sizeof *r);
    snprintf(r->mode, sizeof r->mode, "%s", mode);
    st_match_new_key(r->key);
    /* The replay already holds both forms; formatting the description again
     * (match_game_id of an unseeded game) would do the game loop's most
     * expensive step here twice (megabytes for a 1000x1000 maze). */
    r->desc_id = mr_strdup(replay_game_id(rp));
    r->game_id = mr_strdup(replay_seeded_id(rp)[0] ? replay_seeded_id(rp) : r->desc_id);
    r->desc_hash = match_desc_hash(m);
    snprintf(r->kind, sizeof r->kind, "%s", k ? k->name : "?");
    r->width = p->w;
    r->height = p->h;
    snprintf(r->difficulty, sizeof r->difficulty, "%s", pz_difficulty_name(p->diff));
    r->start_utc_ms = start_utc_ms;
    r->winner = res->winner >= 0 && res->winner < MATCH_SLOTS ? res->winner : -1;
    r->ending = res->reason; /* enum st_ending has match_end_reason's values */
    r->game_no = res->game_no;
    r->series_len = res->series_len;
    for (int s = 0; s < MATCH_SLOTS; s++) {
        st_player *pl = &r->p[s];
        snprintf(pl->name, sizeof pl->name, "%s", replay_name(rp, s));
        pl->time_ms = res->time_ms[s];
        pl->moves = res->moves[s];
        pl->solved = res->solved[s];
        pl->result = r->winner < 0 ? ST_NO_RESULT : r->winner == s ? ST_WON : ST_LOST;
    }
    r->nmoves = replay_move_count(rp);
    r->moves = r->nmoves ? mr_alloc(r->nmoves, sizeof *r->moves) : NULL;
    for (size_t i = 0; i < r->nmoves; i++) {
        const replay_move *rm = replay_move_at(rp, i);
        r->moves[i] = (st_move){.ms = rm->t_ms,
                                .player = (uint8_t)rm->slot,
                                .type = rm->mv.type,
                                .dir = rm->mv.dir,
                                .x = rm->mv.x,
                                .y = rm->mv.y};
    }
    replay_destroy(rp);
    return r;
}

replay *st_to_replay(const st_match *r, const char **err)
{
    if (!r->desc_id || !r->desc_id[0]) {
        *err = "the record has no description game ID";
        return NULL;
    }
    replay *rp = replay_create(r->desc_id, r->p[0].name, r->p[1].name, err);
    if (!rp)
        return NULL;
    if (r->game_id && strcmp(r->game_id, r->desc_id) != 0)
        replay_set_seeded(rp, r->game_id); /* the optional `seeded` line (docs/replay.md) */
    /* Each player's moves apart, merged again by replay_add_logs: at equal
     * times the winner's go last (a game's own history logs the two players
     * on two clocks, so its rows may tie the other way). */
    pz_move *mv[2];
    uint32_t *at[2];
    size_t n[2] = {0, 0};
    uint64_t end = r->p[0].time_ms > r->p[1].time_ms ? r->p[0].time_ms : r->p[1].time_ms;
    for (int s = 0; s < 2; s++) {
        mv[s] = mr_alloc(r->nmoves + 1, sizeof *mv[s]);
        at[s] = mr_alloc(r->nmoves + 1, sizeof *at[s]);
    }
    for (size_t i = 0; i < r->nmoves; i++) {
        const st_move *m = &r->moves[i];
        int s = m->player & 1;
        mv[s][n[s]] = (pz_move){.type = m->type, .dir = m->dir, .x = m->x, .y = m->y};
        at[s][n[s]++] = m->ms;
        if (m->ms > end)
            end = m->ms;
    }
    bool won = r->ending == ST_END_SOLVED || r->ending == ST_END_FORFEIT;
    int winner = won && (r->winner == 0 || r->winner == 1) ? r->winner : MATCH_NONE;
    /* A solved game ends at the solving move (as the engine that checks the
     * replay sees it), whatever clock the players' times came from. */
    if (r->ending == ST_END_SOLVED && winner != MATCH_NONE && n[winner])
        end = at[winner][n[winner] - 1];
    const pz_move *const cm[2] = {mv[0], mv[1]};
    const uint32_t *const ct[2] = {at[0], at[1]};
    *err = replay_add_logs(rp, cm, ct, n, winner);
    if (!*err)
        *err = replay_set_end(rp, r->ending, winner, end > UINT32_MAX ? UINT32_MAX : (uint32_t)end);
    if (!*err && r->start_utc_ms > 0)
        *err = replay_set_date(rp, r->start_utc_ms / 1000);
    for (int s = 0; s < 2; s++) {
        free(mv[s]);
        free(at[s]);
    }
    if (*err) {
        replay_destroy(rp);
        return NULL;
    }
    return rp;
}
