/* record.c: writes each finished race (with both move logs and their times)
 * into the game's history, and asks for the best times the results screen
 * shows. Fed every backend event by cl_app_pump. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cl_app.h"

static uint32_t since_start(const cl_app *a, uint64_t at)
{
    uint64_t s = a->race.start_ms;
    return at > s ? (uint32_t)(at - s > UINT32_MAX ? UINT32_MAX : at - s) : 0;
}

static void finish(cl_app *a, const match_result *res)
{
    cl_hist_race *r = &a->rec;
    cl_backend *b = a->backend;
    const pz_puzzle *pz = b ? b->ops->puzzle(b) : NULL;
    if (!pz || !r->started)
        return;
    r->mode = a->mode == CL_MODE_HOTSEAT    ? CL_HIST_HOTSEAT
              : a->mode == CL_MODE_COMPUTER ? CL_HIST_COMPUTER
                                            : CL_HIST_ONLINE;
    r->me = b->hotseat ? -1 : b->my_slot;
    snprintf(r->game_id, sizeof r->game_id, "%s", b->game_id);
    r->params = *pz_params_of(pz);
    for (int s = 0; s < 2; s++) {
        snprintf(r->name[s], sizeof r->name[s], "%s", a->race.name[s]);
        r->time_ms[s] = res->time_ms[s];
        r->moves[s] = res->moves[s];
        r->solved[s] = res->solved[s];
    }
    r->winner = res->winner;
    r->reason = res->reason;
    /* The opponent's moves are logged when their news arrives, which can be
     * after the winner's solve as the winner's machine saw it; the engine
     * took them before it, so they are not logged later than the solve
     * (a replay plays them in the same order as the race). */
    int w = r->winner;
    if ((w == 0 || w == 1) && r->solved[w] && r->nlog[w]) {
        uint32_t solve = r->log[w][r->nlog[w] - 1].at_ms;
        for (uint32_t i = 0; i < r->nlog[1 - w]; i++)
            if (r->log[1 - w][i].at_ms > solve)
                r->log[1 - w][i].at_ms = solve;
    }
    r->game_no = res->game_no;
    r->series_len = res->series_len;
    memset(&a->bests, 0, sizeof a->bests);
    a->bests_in = false;
    a->bests_ticket = 0;
    if (!a->history)
        return;
    if (!a->args.no_save)
        cl_history_add(a->history, r);
    /* Asked after the add: the worker runs requests in order, so the answer
     * already counts this race. */
    a->bests_ticket = cl_history_ask_bests(a->history, r->game_id, &r->params, a->settings.name);
}

void cl_record_event(cl_app *a, const cl_event *ev)
{
    if (a->backend && a->backend->watching)
        return; /* a race watched is not one of the player's own */
    cl_hist_race *r = &a->rec;
    int s = ev->slot;
    switch (ev->type) {
    case CL_BE_COUNTDOWN:
        cl_hist_race_free(r);
        memset(r, 0, sizeof *r);
        break;
    case CL_BE_START:
        r->started = (int64_t)time(NULL);
        break;
    case CL_BE_ACK:
        /* The move the authority accepted, at the time it was played here. */
        if (s >= 0 && s < 2 && a->race.p[s].local)
            for (int i = 0; i < a->race.p[s].npending; i++)
                if (a->race.p[s].pending_seq[i] == ev->seq)
                    cl_hist_race_log(r, s, since_start(a, a->race.p[s].pending_at[i]),
                                     a->race.p[s].pending[i]);
        break;
    case CL_BE_PROGRESS:
        if (s >= 0 && s < 2 && !a->race.p[s].local)
            cl_hist_race_log(r, s, since_start(a, a->now_ms), ev->move);
        break;
    case CL_BE_FINISHED:
        finish(a, &ev->result);
        break;
    default:
        break;
    }
}

/* Picks up the best times once the history answers. */
void cl_record_update(cl_app *a)
{
    if (a->bests_ticket && !a->bests_in && cl_history_bests(a->history, a->bests_ticket, &a->bests))
        a->bests_in = true;
}

static void secs(char *buf, size_t len, uint64_t ms)
{
    snprintf(buf, len, "%llu.%02llu s", (unsigned long long)(ms / 1000),
             (unsigned long long)(ms % 1000 / 10));
}

void cl_record_bests_text(const cl_app *a, char *puzzle, size_t plen, char *personal, size_t perlen)
{
    puzzle[0] = personal[0] = '\0';
    if (!a->history || !a->bests_ticket)
        return;
    if (!a->bests_in) {
        snprintf(puzzle, plen, "Best times: reading...");
        return;
    }
    const cl_hist_bests *b = &a->bests;
    if (!b->ok)
        return;
    char t[32];
    /* A new best is news when one of this machine's players set it. */
    const cl_hist_race *r = &a->rec;
    uint64_t mine = r->me < 0 || r->winner == r->me ? cl_hist_race_best_ms(r) : 0;
    if (b->have_puzzle) {
        secs(t, sizeof t, b->puzzle_ms);
        snprintf(puzzle, plen, "Best on this puzzle: %s (%.24s)%s", t, b->puzzle_name,
                 mine && mine == b->puzzle_ms ? "  -  new best!" : "");
    } else {
        snprintf(puzzle, plen, "Best on this puzzle: nobody solved it yet");
    }
    const pz_kind *k = pz_kind_by_id(a->rec.params.kind);
    if (b->have_personal) {
        secs(t, sizeof t, b->personal_ms);
        snprintf(personal, perlen, "Your best on %s %dx%d: %s", k ? k->name : "?", a->rec.params.w,
                 a->rec.params.h, t);
    } else {
        snprintf(personal, perlen, "Your best on %s %dx%d: none yet", k ? k->name : "?", a->rec.params.w,
                 a->rec.params.h);
    }
}
