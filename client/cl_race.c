/* cl_race.c: client-side race state: prediction, rollback and the ghost. */
#include "cl_race.h"

#include <stdio.h>
#include <string.h>

#include "cl_measure.h"
#include "ice.h"
#include "maze.h"
#include "pipes.h"
#include "sum.h"

enum { HINT_MS = 2500 };

static void hint(cl_player *p, const char *text, uint64_t now)
{
    snprintf(p->hint, sizeof p->hint, "%.150s", text);
    p->hint_until = now + HINT_MS;
}

/* What players see of how far st is from done: from the board only, never
 * the solver's distance (cl_measure.h; docs/racing.md). */
static int remaining(const cl_race *r, const pz_state *st)
{
    return cl_measure_remaining(r->pz, st);
}

static void refresh(cl_race *r, int slot)
{
    cl_player *p = &r->p[slot];
    if (p->shown && !p->ghost_lost)
        p->remaining = r->k->is_solved(r->pz, p->shown) ? 0 : remaining(r, p->shown);
    else
        p->remaining = -1;
}

void cl_race_free(cl_race *r)
{
    for (int s = 0; s < 2; s++) {
        if (r->k) {
            r->k->free_state(r->p[s].shown);
            r->k->free_state(r->p[s].confirmed);
        }
    }
    memset(r, 0, sizeof *r);
}

void cl_race_reset(cl_race *r, const pz_puzzle *pz, bool local0, bool local1)
{
    cl_race_free(r);
    r->pz = pz;
    r->k = pz_kind_of(pz);
    const pz_params *pp = pz_params_of(pz);
    for (int s = 0; s < 2; s++) {
        cl_player *p = &r->p[s];
        p->local = s == 0 ? local0 : local1;
        p->shown = r->k->new_state(pz);
        p->confirmed = r->k->new_state(pz);
        p->cur_x = 0;
        p->cur_y = pp->kind == PZ_PIPES ? pipes_start_row(pz) : 0;
        p->remaining = -1;
        p->prog.x = p->prog.y = -1;
        refresh(r, s);
    }
}

const char *cl_race_play(cl_race *r, cl_backend *b, int slot, pz_move mv, uint64_t now)
{
    if (slot < 0 || slot > 1 || !r->pz)
        return "no race";
    cl_player *p = &r->p[slot];
    if (!p->local)
        return "not your board";
    if (!r->racing || r->finished)
        return r->finished ? "the race is over" : "wait for the start";
    if (p->npending == CL_MAX_PENDING)
        return "waiting for the server";
    const char *why = r->k->execute_move(r->pz, p->shown, mv, p->shown);
    if (why) {
        hint(p, why, now);
        return why;
    }
    uint32_t seq = ++p->next_seq;
    p->pending[p->npending] = mv;
    p->pending_seq[p->npending] = seq;
    p->pending_at[p->npending] = now;
    p->npending++;
    p->moves++;
    refresh(r, slot);
    b->ops->move(b, slot, seq, mv, now);
    return NULL;
}

/* The authority refused a move we showed: rebuild the shown state from the
 * confirmed one plus the moves still in flight after the refused one. */
static void rollback(cl_race *r, cl_player *p, uint32_t seq, const char *reason, uint64_t now)
{
    int keep = 0;
    for (int i = 0; i < p->npending; i++) {
        if (p->pending_seq[i] == seq)
            continue;
        p->pending[keep] = p->pending[i];
        p->pending_seq[keep] = p->pending_seq[i];
        p->pending_at[keep] = p->pending_at[i];
        keep++;
    }
    p->npending = keep;
    r->k->copy_state(p->shown, p->confirmed);
    for (int i = 0; i < p->npending; i++)
        r->k->execute_move(r->pz, p->shown, p->pending[i], p->shown);
    if (p->moves)
        p->moves--;
    char msg[200];
    snprintf(msg, sizeof msg, "Move undone: %.120s", reason);
    hint(p, msg, now);
}

static void ack(cl_race *r, cl_player *p, const cl_event *ev)
{
    for (int i = 0; i < p->npending; i++) {
        if (p->pending_seq[i] != ev->seq)
            continue;
        r->k->execute_move(r->pz, p->confirmed, p->pending[i], p->confirmed);
        memmove(&p->pending[i], &p->pending[i + 1], (size_t)(p->npending - i - 1) * sizeof p->pending[0]);
        memmove(&p->pending_seq[i], &p->pending_seq[i + 1],
                (size_t)(p->npending - i - 1) * sizeof p->pending_seq[0]);
        memmove(&p->pending_at[i], &p->pending_at[i + 1],
                (size_t)(p->npending - i - 1) * sizeof p->pending_at[0]);
        p->npending--;
        return;
    }
}

void cl_race_event(cl_race *r, const cl_event *ev, uint64_t now)
{
    if (!r->pz)
        return;
    int s = ev->slot;
    switch (ev->type) {
    case CL_BE_START:
        r->racing = true;
        r->start_ms = ev->start_ms;
        break;
    case CL_BE_COUNTDOWN:
        r->start_ms = ev->start_ms;
        break;
    case CL_BE_ACK:
        if (s >= 0 && s < 2 && r->p[s].local)
            ack(r, &r->p[s], ev);
        break;
    case CL_BE_REJECT:
        if (s >= 0 && s < 2 && r->p[s].local) {
            rollback(r, &r->p[s], ev->seq, ev->text, now);
            refresh(r, s);
        }
        break;
    case CL_BE_PROGRESS:
        if (s >= 0 && s < 2 && !r->p[s].local) {
            cl_player *p = &r->p[s];
            /* Already in the state a resync took (a spectator's catch-up, a
             * resume): the event only arrived after it. */
            if (ev->moves <= p->moves && p->resynced)
                break;
            p->prog = ev->progress;
            /* The ghost replays the opponent's moves with the shared rules; if
             * one does not fit (we missed some), it falls back to the reported
             * position. */
            if (!p->ghost_lost &&
                (ev->moves != p->moves + 1 || r->k->execute_move(r->pz, p->shown, ev->move, p->shown)))
                p->ghost_lost = true;
            p->moves = ev->moves;
            refresh(r, s);
        }
        break;
    case CL_BE_OPP_DROPPED:
    case CL_BE_OPP_BACK:
        if (s >= 0 && s < 2 && !r->p[s].local)
            r->p[s].away = ev->type == CL_BE_OPP_DROPPED;
        break;
    case CL_BE_FINISHED:
        r->finished = true;
        r->racing = false;
        r->result = ev->result;
        break;
    default:
        break;
    }
}

void cl_race_resync(cl_race *r, cl_backend *b)
{
    if (!r->pz)
        return;
    for (int s = 0; s < 2; s++) {
        const pz_state *st = b->ops->state(b, s);
        if (!st)
            continue;
        cl_player *p = &r->p[s];
        r->k->copy_state(p->shown, st);
        r->k->copy_state(p->confirmed, st);
        p->npending = 0;
        p->moves = b->moves[s];
        p->ghost_lost = false;
        p->resynced = true;
        refresh(r, s);
    }
}

void cl_race_focus(const cl_race *r, int slot, int *x, int *y)
{
    const cl_player *p = &r->p[slot];
    *x = *y = 0;
    if (!r->pz)
        return;
    switch (pz_params_of(r->pz)->kind) {
    case PZ_SUM:
        sum_path_cell(p->shown, sum_path_len(p->shown) - 1, x, y);
        break;
    case PZ_MAZE:
        maze_pos(p->shown, x, y);
        break;
    case PZ_ICE:
        ice_pos(p->shown, x, y);
        break;
    default:
        *x = p->cur_x;
        *y = p->cur_y;
        break;
    }
    if (p->ghost_lost && p->prog.x >= 0) {
        *x = p->prog.x;
        *y = p->prog.y;
    }
}

int cl_race_leader(const cl_race *r)
{
    int a = r->p[0].remaining, b = r->p[1].remaining;
    if (a < 0 || b < 0 || a == b)
        return -1;
    return a < b ? 0 : 1;
}

void cl_race_cursor(cl_race *r, int slot, int dx, int dy)
{
    if (!r->pz)
        return;
    const pz_params *pp = pz_params_of(r->pz);
    cl_player *p = &r->p[slot];
    p->cur_x += dx;
    p->cur_y += dy;
    if (p->cur_x < 0)
        p->cur_x = 0;
    if (p->cur_y < 0)
        p->cur_y = 0;
    if (p->cur_x >= pp->w)
        p->cur_x = pp->w - 1;
    if (p->cur_y >= pp->h)
        p->cur_y = pp->h - 1;
}

void cl_race_tick(cl_race *r, uint32_t dt_ms)
{
    if (!r->pz)
        return;
    for (int s = 0; s < 2; s++) {
        cl_player *p = &r->p[s];
        int fx, fy;
        cl_race_focus(r, s, &fx, &fy);
        if (!p->cam_set || dt_ms == 0) {
            p->cam_x = (float)fx;
            p->cam_y = (float)fy;
            p->cam_set = true;
            continue;
        }
        /* Exponential follow: quick enough to keep a sliding player in view,
         * smooth enough not to jerk on every step. */
        float k = (float)dt_ms / 90.0f;
        if (k > 1)
            k = 1;
        p->cam_x += ((float)fx - p->cam_x) * k;
        p->cam_y += ((float)fy - p->cam_y) * k;
    }
}
