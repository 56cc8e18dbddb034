/* sv_quickmatch.c: quick match (docs/racing.md): players paired as they arrive, before any puzzle. */
#include "secrand.h"
#include "sv_gen.h"
#include "sv_genq.h"
#include "sv_internal.h"
#include "sv_play.h"
#include "sv_quick.h"
#include "sv_quickmatch.h"
#include "sv_rooms.h"
#include "sv_send.h"

/* ---- quick match (docs/racing.md, "Quick match") ----
 *
 * Players are paired as they arrive, before any puzzle exists: a player
 * who finds nobody waiting has a room made for it (its job) and waits
 * alone in sv->quick.q; the next one is paired with the oldest entry there
 * (it takes the job's other seat, or the open room's free one), so N
 * arrivals start ceil(N/2) puzzles and make floor(N/2) races. Whoever is
 * left alone by a LEAVE or a disconnect goes back to the queue, keeping
 * the puzzle being made for it. */

void sv_quickmatch_unlist_job(sv_t *sv, sv_gen_job *j)
{
    if (j->quick_at) {
        sv_quick_remove(sv->quick.q, j->quick_at);
        j->quick_at = 0;
    }
}

/* Unpairs j from the opponent waiting for its room; returns that client. */
sv_client *sv_quickmatch_partner(sv_t *sv, sv_gen_job *j)
{
    if (!j->partner)
        return NULL;
    sv_client *p = &sv->clients[j->partner - 1];
    j->partner = 0;
    if (p->id != j->partner_id || p->quick.job != j)
        return NULL;
    p->quick.job = NULL;
    p->quick.waiting = false;
    return p;
}

/* Pairs c with the oldest player waiting alone; false (nothing changed)
 * when nobody waits. */
static bool quick_pair(sv_t *sv, sv_client *c)
{
    sv_quick_item it;
    while (sv_quick_pop(sv->quick.q, &it)) {
        if (it.job) {
            it.job->quick_at = 0;
            if (!sv_genq_job_owner(sv, it.job))
                continue; /* never so (a job leaves the queue with its owner); harmless if it were */
            it.job->partner = (int)(c - sv->clients) + 1;
            it.job->partner_id = c->id;
            c->quick.job = it.job;
            c->quick.waiting = true;
            return true;
        }
        it.room->quick_at = 0;
        if (sv_play_quick_open(it.room) && !sv_play_try_seat(sv, c, it.room))
            return true;
        /* That room no longer takes anyone: try the next entry. */
    }
    return false;
}

/* o waits alone for j, its own room being made: it takes anyone already
 * waiting (j is then dropped when done), else it queues. */
static void quick_strand(sv_t *sv, sv_client *o, sv_gen_job *j)
{
    o->gen.job = NULL;
    if (quick_pair(sv, o))
        return;
    o->gen.job = j;
    j->quick_at = sv_quick_push(sv->quick.q, (sv_quick_item){.job = j});
}

void sv_quickmatch_receive(sv_t *sv, sv_client *c)
{
    if (!sv_play_not_in_room(sv, c) || sv_play_pending(sv, c))
        return;
    if (quick_pair(sv, c))
        return;
    if (sv_rooms_count(sv->rooms) >= sv_rooms_capacity(sv->rooms)) {
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_TOO_MANY_ROOMS, "the server has no free room");
        return;
    }
    sv_gen_job *j = sv_gen_job_new();
    sv_play_default_params(sv, &j->params);
    sv_play_match_cfg(sv, 0, &j->mc);
    j->seed = secrand_u64();
    j->quick = true;
    if (sv_genq_request_room(sv, c, j))
        j->quick_at = sv_quick_push(sv->quick.q, (sv_quick_item){.job = j});
}

/* Forgets c's room request (LEAVE, disconnect): the job's result, when it
 * comes, is dropped, or goes to the opponent paired with it, who waits
 * alone for it from now on. A player paired with c's job, or whose job c
 * was paired with, is left alone: back to the queue. */
void sv_quickmatch_cancel(sv_t *sv, sv_client *c)
{
    sv_gen_job *j = c->gen.job;
    c->gen.job = NULL;
    if (j) {
        sv_quickmatch_unlist_job(sv, j);
        sv_client *p = sv_quickmatch_partner(sv, j);
        if (p) {
            j->client = (int)(p - sv->clients);
            j->owner = p->id;
            quick_strand(sv, p, j);
        }
    }
    sv_gen_job *k = c->quick.waiting ? c->quick.job : NULL;
    c->quick.waiting = false;
    c->quick.job = NULL;
    if (k) {
        k->partner = 0;
        sv_client *o = sv_genq_job_owner(sv, k);
        if (o)
            quick_strand(sv, o, k);
    }
}
