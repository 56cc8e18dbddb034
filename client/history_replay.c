/* history_replay.c: a race from the history as a replay (common/replay.h),
 * opened in the replay screen. */
#include <stdio.h>
#include <stdlib.h>

#include "cl_app.h"
#include "replay.h"
#include "util.h"

replay *cl_hist_race_replay(const cl_hist_race *r, const char **err)
{
    replay *rp =
        replay_create(r->game_id, r->name[0][0] ? r->name[0] : "?", r->name[1][0] ? r->name[1] : "?", err);
    if (!rp)
        return NULL;
    pz_move *mv[2] = {NULL, NULL};
    uint32_t *at[2] = {NULL, NULL};
    size_t n[2] = {r->nlog[0], r->nlog[1]};
    uint32_t end = 0;
    for (int s = 0; s < 2; s++) {
        mv[s] = mr_alloc(n[s] + 1, sizeof *mv[s]);
        at[s] = mr_alloc(n[s] + 1, sizeof *at[s]);
        for (size_t i = 0; i < n[s]; i++) {
            mv[s][i] = r->log[s][i].mv;
            at[s][i] = r->log[s][i].at_ms;
            if (at[s][i] > end)
                end = at[s][i];
        }
        if (r->time_ms[s] > end)
            end = r->time_ms[s] > UINT32_MAX ? UINT32_MAX : (uint32_t)r->time_ms[s];
    }
    /* A solved game ends at the solving move (as the engine that checks the
     * replay will see it), whatever clock the result's times came from. */
    if (r->reason == MATCH_END_SOLVED && (r->winner == 0 || r->winner == 1) && n[r->winner])
        end = at[r->winner][n[r->winner] - 1];
    const pz_move *const cm[2] = {mv[0], mv[1]};
    const uint32_t *const ct[2] = {at[0], at[1]};
    bool won = r->reason == MATCH_END_SOLVED || r->reason == MATCH_END_FORFEIT;
    int winner = won && (r->winner == 0 || r->winner == 1) ? r->winner : MATCH_NONE;
    const char *why = replay_add_logs(rp, cm, ct, n, winner);
    if (!why)
        why = replay_set_end(rp, r->reason, winner, end);
    if (!why && r->started > 0)
        why = replay_set_date(rp, r->started);
    for (int s = 0; s < 2; s++) {
        free(mv[s]);
        free(at[s]);
    }
    if (why) {
        *err = why;
        replay_destroy(rp);
        return NULL;
    }
    return rp;
}

void cl_history_open_replay(cl_app *a, const cl_hist_race *r)
{
    const char *why = NULL;
    replay *rp = cl_hist_race_replay(r, &why);
    if (!rp) {
        cl_app_say(a, true, "This race cannot be replayed: %s", why ? why : "unknown problem");
        return;
    }
    cl_replay_open(a, rp, "history");
}
