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

/* Whose personal best the results show: this machine's player; in hotseat
 * the winner (else player 1). */
static int best_slot(const cl_hist_race *r)
{
    if (r->me == 0 || r->me == 1)
        return r->me;
    return r->winner == 1 ? 1 : 0;
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
    a->server_best = 0;
    if (!a->history)
        return;
    if (!a->args.no_save)
        cl_history_add(a->history, r);
    /* Asked after the add: the worker runs requests in order, so the answer
     * already counts this race. */
    a->bests_ticket = cl_history_ask_bests(a->history, r->game_id, &r->params, r->name[best_slot(r)]);
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
    case CL_BE_BEST:
        a->server_best = ev->moves == UINT32_MAX ? 3 : 2;
        a->server_best_ms = ev->best_ms;
        snprintf(a->server_best_name, sizeof a->server_best_name, "%.31s", ev->text);
        printf("SERVER_BEST %s ms=%llu name=%s\n", a->server_best == 3 ? "no-records" : "answered",
               (unsigned long long)a->server_best_ms, a->server_best_name[0] ? a->server_best_name : "-");
        fflush(stdout);
        break;
    default:
        break;
    }
}

void cl_record_unfinished(cl_app *a)
{
    const cl_backend *b = a->backend;
    const cl_race *race = &a->race;
    if (!b || b->watching || !race->pz || !race->racing || race->finished)
        return;
    uint64_t end = b->lost_at ? b->lost_at : a->now_ms;
    match_result res;
    memset(&res, 0, sizeof res);
    res.winner = MATCH_NONE;
    res.reason = MATCH_END_ABORTED;
    for (int s = 0; s < 2; s++) {
        res.time_ms[s] = since_start(a, end);
        /* A local player's moves the server took; a remote one's as reported. */
        res.moves[s] = race->p[s].local ? race->p[s].moves - (uint32_t)race->p[s].npending : race->p[s].moves;
    }
    res.game_no = 1;
    res.series_len = b->series_len;
    finish(a, &res);
    printf("mazerace: race kept in the history as unfinished (%llu ms, moves %u-%u)\n",
           (unsigned long long)res.time_ms[0], res.moves[0], res.moves[1]);
    fflush(stdout);
}

/* Picks up the best times once the history answers; online, asks the
 * server for its best once the results show (by then the server has
 * usually stored this race too). */
void cl_record_update(cl_app *a)
{
    cl_backend *b = a->backend;
    if (a->server_best == 0 && a->scene == CL_SCENE_RESULTS && a->rec.game_id[0] && b && b->ops->ask_best &&
        !b->watching && !b->closed) {
        b->ops->ask_best(b, a->rec.game_id);
        a->server_best = 1;
    }
    if (a->bests_ticket && !a->bests_in && cl_history_bests(a->history, a->bests_ticket, &a->bests))
        a->bests_in = true;
}

static void secs(char *buf, size_t len, uint64_t ms)
{
    snprintf(buf, len, "%llu.%02llu s", (unsigned long long)(ms / 1000),
             (unsigned long long)(ms % 1000 / 10));
}

int cl_record_bests_text(const cl_app *a, char lines[][160])
{
    int n = 0;
    char t[32];
    const cl_hist_race *r = &a->rec;
    const cl_hist_bests *b = &a->bests;
    if (a->history && a->bests_ticket && !a->bests_in)
        snprintf(lines[n++], 160, "Best times: reading...");
    if (a->history && a->bests_in && b->ok) {
        /* A new best is news when one of this machine's players set it. */
        uint64_t mine = r->me < 0 || r->winner == r->me ? cl_hist_race_best_ms(r) : 0;
        if (b->have_puzzle) {
            secs(t, sizeof t, b->puzzle_ms);
            snprintf(lines[n++], 160, "Best on this puzzle: %s (%.24s)%s", t, b->puzzle_name,
                     mine && mine == b->puzzle_ms ? "  -  new best!" : "");
        } else {
            snprintf(lines[n++], 160, "Best on this puzzle: nobody solved it yet");
        }
        const pz_kind *k = pz_kind_by_id(r->params.kind);
        char who[48] = "Your";
        if (r->me < 0)
            snprintf(who, sizeof who, "%.24s's", r->name[best_slot(r)]);
        if (b->have_personal) {
            secs(t, sizeof t, b->personal_ms);
            snprintf(lines[n++], 160, "%s best on %s %dx%d: %s", who, k ? k->name : "?", r->params.w,
                     r->params.h, t);
        } else {
            snprintf(lines[n++], 160, "%s best on %s %dx%d: none yet", who, k ? k->name : "?", r->params.w,
                     r->params.h);
        }
    }
    if (a->server_best == 1) {
        snprintf(lines[n++], 160, "Server best: asking...");
    } else if (a->server_best == 2 && a->server_best_ms) {
        secs(t, sizeof t, a->server_best_ms);
        snprintf(lines[n++], 160, "Server best: %s (%.24s)", t, a->server_best_name);
    } else if (a->server_best == 2) {
        snprintf(lines[n++], 160, "Server best: nobody solved it there yet");
    }
    return n;
}
