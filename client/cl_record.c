/* cl_record.c: writes each finished race (with both move logs and their times)
 * into the game's history, and asks for the best times the results screen
 * shows. Fed every backend event by cl_pump. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cl_record.h"
#include "st.h"
#include "util.h"

static uint32_t since_start(const cl_app *a, uint64_t at)
{
    uint64_t s = a->race.start_ms;
    return at > s ? (uint32_t)(at - s > UINT32_MAX ? UINT32_MAX : at - s) : 0;
}

/* Whose personal best the results show: this machine's player; in hotseat
 * the winner (else player 1). */
static int best_slot(const cl_app *a)
{
    if (a->rec.me == 0 || a->rec.me == 1)
        return a->rec.me;
    return a->rec.m->winner == 1 ? 1 : 0;
}

/* Appends one accepted move, kept in time order: the two players' moves
 * come from two sources (acks of our own, news of the opponent's). */
static void log_move(st_match *r, int slot, uint32_t ms, pz_move mv)
{
    size_t n = r->nmoves, i = n;
    if ((n & (n - 1)) == 0) /* grow at powers of two */
        r->moves = mr_realloc(r->moves, n ? n * 2 : 16, sizeof *r->moves);
    for (; i > 0 && r->moves[i - 1].ms > ms; i--)
        r->moves[i] = r->moves[i - 1];
    r->moves[i] = (st_move){ms, (uint8_t)slot, mv.type, mv.dir, mv.x, mv.y};
    r->nmoves = n + 1;
}

/* The puzzle's description game ID and hash (the record keeps both, so a
 * replay never depends on the generator). */
static void describe(st_match *r, const pz_puzzle *pz)
{
    const pz_params *p = pz_params_of(pz);
    const pz_kind *k = pz_kind_of(pz);
    char *desc = k->encode_desc(pz);
    size_t n = strlen(desc);
    r->desc_hash = mr_hash64(desc, n);
    free(r->desc_id);
    r->desc_id = mr_alloc(n + 64, 1);
    snprintf(r->desc_id, n + 64, "%s:%dx%d:%s", k->name, p->w, p->h, desc);
    free(desc);
    snprintf(r->kind, sizeof r->kind, "%s", k->name);
    r->width = p->w;
    r->height = p->h;
    snprintf(r->difficulty, sizeof r->difficulty, "%s", pz_difficulty_name(p->diff));
}

static void finish(cl_app *a, const match_result *res)
{
    st_match *r = a->rec.m;
    cl_backend *b = a->backend;
    const pz_puzzle *pz = b ? b->ops->puzzle(b) : NULL;
    if (!pz || !r || !r->start_utc_ms)
        return;
    snprintf(r->mode, sizeof r->mode, "%s",
             a->mode == CL_MODE_HOTSEAT    ? CL_HIST_HOTSEAT
             : a->mode == CL_MODE_COMPUTER ? CL_HIST_COMPUTER
                                           : CL_HIST_ONLINE);
    a->rec.me = b->hotseat ? -1 : b->my_slot;
    free(r->game_id);
    r->game_id = mr_strdup(b->game_id);
    describe(r, pz);
    r->winner = res->winner;
    r->ending = res->reason;
    for (int s = 0; s < 2; s++) {
        st_player *p = &r->p[s];
        snprintf(p->name, sizeof p->name, "%.*s", ST_NAME_MAX, a->race.name[s]);
        p->time_ms = res->time_ms[s];
        p->moves = res->moves[s];
        p->solved = res->solved[s];
        p->result = r->winner < 0 ? ST_NO_RESULT : r->winner == s ? ST_WON : ST_LOST;
    }
    /* The opponent's moves are logged when their news arrives, which can be
     * after the winner's solve as the winner's machine saw it; the engine
     * took them before it, so they are not logged later than the solve
     * (a replay plays them in the same order as the race). The moves stay
     * in time order: those clamped all came after the solve. */
    int w = r->winner;
    if ((w == 0 || w == 1) && r->p[w].solved) {
        size_t last = r->nmoves;
        for (size_t i = 0; i < r->nmoves; i++)
            if (r->moves[i].player == w)
                last = i;
        for (size_t i = last + 1; last < r->nmoves && i < r->nmoves; i++)
            r->moves[i].ms = r->moves[last].ms;
    }
    r->game_no = res->game_no;
    r->series_len = res->series_len;
    memset(&a->rec.bests, 0, sizeof a->rec.bests);
    a->rec.bests_in = false;
    a->rec.bests_ticket = 0;
    a->rec.server_best = 0;
    if (!a->history)
        return;
    if (!a->args.no_save) {
        /* The history takes the moves; the results screen keeps the rest. */
        st_match *m = mr_alloc(1, sizeof *m);
        *m = *r;
        m->game_id = mr_strdup(r->game_id);
        r->desc_id = NULL;
        r->moves = NULL;
        r->nmoves = 0;
        cl_history_add(a->history, m);
    }
    /* Asked after the add: the store's thread runs requests in order, so
     * the answer already counts this race. */
    a->rec.bests_ticket =
        cl_history_ask_bests(a->history, r->game_id, r->kind, r->width, r->height, r->p[best_slot(a)].name);
}

void cl_record_event(cl_app *a, const cl_event *ev)
{
    if (a->backend && a->backend->watching)
        return; /* a race watched is not one of the player's own */
    if (!a->rec.m)
        a->rec.m = mr_alloc(1, sizeof *a->rec.m); /* zeroed */
    st_match *r = a->rec.m;
    int s = ev->slot;
    switch (ev->type) {
    case CL_BE_COUNTDOWN:
        st_match_free(r);
        break;
    case CL_BE_START:
        r->start_utc_ms = (int64_t)time(NULL) * 1000;
        break;
    case CL_BE_ACK:
        /* The move the authority accepted, at the time it was played here. */
        if (s >= 0 && s < 2 && a->race.p[s].local)
            for (int i = 0; i < a->race.p[s].npending; i++)
                if (a->race.p[s].pending_seq[i] == ev->seq)
                    log_move(r, s, since_start(a, a->race.p[s].pending_at[i]), a->race.p[s].pending[i]);
        break;
    case CL_BE_PROGRESS:
        if (s >= 0 && s < 2 && !a->race.p[s].local)
            log_move(r, s, since_start(a, a->now_ms), ev->move);
        break;
    case CL_BE_FINISHED:
        finish(a, &ev->result);
        break;
    case CL_BE_BEST:
        a->rec.server_best = ev->moves == UINT32_MAX ? 3 : 2;
        a->rec.server_best_ms = ev->best_ms;
        snprintf(a->rec.server_best_name, sizeof a->rec.server_best_name, "%.31s", ev->text);
        printf("SERVER_BEST %s ms=%llu name=%s\n", a->rec.server_best == 3 ? "no-records" : "answered",
               (unsigned long long)a->rec.server_best_ms,
               a->rec.server_best_name[0] ? a->rec.server_best_name : "-");
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
    if (a->rec.server_best == 0 && a->scene == CL_SCENE_RESULTS && a->rec.m && a->rec.m->game_id && b &&
        b->ops->ask_best && !b->watching && !b->closed) {
        b->ops->ask_best(b, a->rec.m->game_id);
        a->rec.server_best = 1;
    }
    if (a->rec.bests_ticket && !a->rec.bests_in &&
        cl_history_bests(a->history, a->rec.bests_ticket, &a->rec.bests))
        a->rec.bests_in = true;
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
    const st_match *r = a->rec.m;
    const cl_hist_bests *b = &a->rec.bests;
    if (a->history && a->rec.bests_ticket && !a->rec.bests_in)
        snprintf(lines[n++], 160, "Best times: reading...");
    if (a->history && a->rec.bests_in && b->ok && r) {
        /* A new best is news when one of this machine's players set it. */
        uint64_t mine = a->rec.me < 0 || r->winner == a->rec.me ? cl_hist_best_ms(r) : 0;
        if (b->have_puzzle) {
            secs(t, sizeof t, b->puzzle_ms);
            snprintf(lines[n++], 160, "Best on this puzzle: %s (%.24s)%s", t, b->puzzle_name,
                     mine && mine == b->puzzle_ms ? "  -  new best!" : "");
        } else {
            snprintf(lines[n++], 160, "Best on this puzzle: nobody solved it yet");
        }
        char who[48] = "Your";
        if (a->rec.me < 0)
            snprintf(who, sizeof who, "%.24s's", r->p[best_slot(a)].name);
        if (b->have_personal) {
            secs(t, sizeof t, b->personal_ms);
            snprintf(lines[n++], 160, "%s best on %s %dx%d: %s", who, r->kind, r->width, r->height, t);
        } else {
            snprintf(lines[n++], 160, "%s best on %s %dx%d: none yet", who, r->kind, r->width, r->height);
        }
    }
    if (a->rec.server_best == 1) {
        snprintf(lines[n++], 160, "Server best: asking...");
    } else if (a->rec.server_best == 2 && a->rec.server_best_ms) {
        secs(t, sizeof t, a->rec.server_best_ms);
        snprintf(lines[n++], 160, "Server best: %s (%.24s)", t, a->rec.server_best_name);
    } else if (a->rec.server_best == 2) {
        snprintf(lines[n++], 160, "Server best: nobody solved it there yet");
    }
    return n;
}
