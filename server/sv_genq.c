/* sv_genq.c: the generation queue, game side: requests against the budgets, the jobs deferred
 * for a full queue (the finished jobs are sv_gendone.c's). */
#include <stdio.h>
#include <string.h>

#include "secrand.h"
#include "sv_addrs.h"
#include "sv_gen.h"
#include "sv_genq.h"
#include "sv_internal.h"
#include "sv_limit.h"
#include "sv_log.h"
#include "sv_loglimit.h"
#include "sv_send.h"
#include "util.h"

/* Gives back a puzzle-memory charge (a room's, or a job's reservation). */
void sv_genq_release_bytes(sv_t *sv, uint32_t ip, size_t bytes, bool room)
{
    sv->genq.puzzle_bytes -= bytes < sv->genq.puzzle_bytes ? bytes : sv->genq.puzzle_bytes;
    sv_addr *a = sv_addrs_find(sv->addrs, ip);
    if (!a)
        return;
    a->puzzle_bytes -= bytes < a->puzzle_bytes ? bytes : a->puzzle_bytes;
    if (room && a->rooms > 0)
        a->rooms--;
}

/* ---- generation requests (docs/reliability.md, "Puzzle generation") ---- */

/* c's address record, created with a full generation budget; NULL when
 * the table has no room for it (docs: sv_addrs.h). */
sv_addr *sv_genq_addr(sv_t *sv, sv_client *c)
{
    return sv_addrs_get(sv->addrs, c->ip, sv->now_ms, SV_ADDR_GEN_SHARE * sv->cfg.gen_burst_ms);
}

void sv_genq_refuse(sv_t *sv, sv_client *c, int reason, int code, const char *why)
{
    sv->st.gen_refused++;
    sv->st.gen_refused_by[reason]++;
    sv_logx_limited(&sv->log, &sv->lim_refused, sv->now_ms, SV_LOG_INFO, "room_refused",
                    SV_CLIENT_FIELDS(c, NULL, why), "client #%u %s: room refused: %s", c->id, c->addr, why);
    sv_send_error(sv, c, WIRE_ERROR, code, why);
}

/* Admits j for c against the memory budget, the CPU budgets of c and of
 * its address, and the queue; on success the estimates are charged and j
 * is queued (true). Else c is told why and j stays the caller's. */
static bool admit(sv_t *sv, sv_client *c, sv_gen_job *j)
{
    size_t cap = (size_t)sv->cfg.puzzle_mem_mb << 20;
    /* A room may hold its next game's puzzle beside the current one. */
    j->est_bytes = 2 * sv_gen_estimate_bytes(&j->params);
    j->est_us = sv_gen_estimate_us(&j->params);
    j->ip = c->ip;
    sv_addr *a = sv_genq_addr(sv, c);
    if (!a) {
        sv_genq_refuse(sv, c, SV_GEN_REFUSED_ADDRS, WIRE_ERR_BUSY, "server busy: try again later");
        return false;
    }
    if (sv->genq.puzzle_bytes + j->est_bytes > cap) {
        sv_genq_refuse(sv, c, SV_GEN_REFUSED_MEMORY, WIRE_ERR_MEMORY,
                       "the server's puzzle memory is full: try a smaller board later");
        return false;
    }
    if (a->puzzle_bytes + j->est_bytes > cap / 8) {
        sv_genq_refuse(sv, c, SV_GEN_REFUSED_ADDR_MEMORY, WIRE_ERR_MEMORY,
                       "your rooms hold too much puzzle memory: try a smaller board");
        return false;
    }
    bool mine =
        sv_budget_covers(&c->gen.budget, sv->now_ms, sv->cfg.gen_rate_ms, sv->cfg.gen_burst_ms, j->est_us);
    bool addr = sv_budget_covers(&a->gen, sv->now_ms, SV_ADDR_GEN_SHARE * sv->cfg.gen_rate_ms,
                                 SV_ADDR_GEN_SHARE * sv->cfg.gen_burst_ms, j->est_us);
    if (!mine || !addr) {
        char why[120];
        snprintf(why, sizeof why, "puzzle generation budget used up%s: try again in a few seconds",
                 mine ? " for your address" : "");
        sv_genq_refuse(sv, c, mine ? SV_GEN_REFUSED_ADDR_BUDGET : SV_GEN_REFUSED_BUDGET, WIRE_ERR_BUSY, why);
        return false;
    }
    /* Quick match never turns a player away for a full queue: its puzzle
     * waits for room there (sv->genq.defer_head), the player paired meanwhile. */
    bool queued = sv_gen_submit(sv->genq.gen, j);
    if (!queued && !j->quick) {
        sv_genq_refuse(sv, c, SV_GEN_REFUSED_QUEUE, WIRE_ERR_BUSY,
                       "server busy making puzzles: try again in a few seconds");
        return false;
    }
    if (!queued) {
        j->defer_next = NULL;
        if (sv->genq.defer_tail)
            sv->genq.defer_tail->defer_next = j;
        else
            sv->genq.defer_head = j;
        sv->genq.defer_tail = j;
        sv->genq.defer_n++;
    }
    sv_budget_charge(&c->gen.budget, (int64_t)j->est_us);
    sv_budget_charge(&a->gen, (int64_t)j->est_us);
    a->gen_pending++;
    a->puzzle_bytes += j->est_bytes;
    a->rooms++;
    sv->genq.puzzle_bytes += j->est_bytes;
    return true;
}

/* A room for c, made on a worker: ROOM_STATE follows when it is ready. */
bool sv_genq_request_room(sv_t *sv, sv_client *c, sv_gen_job *j)
{
    j->what = SV_GEN_ROOM;
    j->client = (int)(c - sv->clients);
    j->owner = c->id;
    j->rng_init = secrand_u64();
    if (!admit(sv, c, j)) {
        sv_gen_job_free(j);
        return false;
    }
    c->gen.job = j;
    return true;
}

void sv_genq_next_puzzle(sv_t *sv, sv_room *room, uint64_t seed)
{
    sv_client *c = sv->acting;
    sv_gen_job *j = sv_gen_job_new();
    j->what = SV_GEN_NEXT;
    j->room = room->index;
    j->serial = room->serial;
    j->params = *pz_params_of(match_puzzle(room->m));
    j->seed = seed;
    j->est_us = sv_gen_estimate_us(&j->params);
    j->ip = room->ip;
    /* Charged to the player whose REMATCH or READY asked for it; memory
     * was reserved with the room. */
    if (c &&
        !sv_budget_covers(&c->gen.budget, sv->now_ms, sv->cfg.gen_rate_ms, sv->cfg.gen_burst_ms, j->est_us)) {
        sv_gen_job_free(j);
        sv_genq_refuse(sv, c, SV_GEN_REFUSED_BUDGET, WIRE_ERR_BUSY,
                       "puzzle generation budget used up: try again in a few seconds");
        match_give_puzzle(room->m, NULL, 0, sv->now_ms);
        return;
    }
    if (!sv_gen_submit(sv->genq.gen, j)) {
        sv_gen_job_free(j);
        sv->st.gen_refused++;
        sv->st.gen_refused_by[SV_GEN_REFUSED_QUEUE]++;
        for (int s = 0; s < MATCH_SLOTS; s++)
            sv_send_error(sv, room->player[s], WIRE_ERROR, WIRE_ERR_BUSY,
                          "server busy making puzzles: try again in a few seconds");
        match_give_puzzle(room->m, NULL, 0, sv->now_ms);
        return;
    }
    if (c) {
        sv_budget_charge(&c->gen.budget, (int64_t)j->est_us);
        j->client = (int)(c - sv->clients);
        j->owner = c->id;
    }
    sv_logf(&sv->log, SV_LOG_DEBUG, "room %s: next puzzle being made", room->code);
}

/* The client a room job is made for, if it is still waiting for it. */
sv_client *sv_genq_job_owner(sv_t *sv, const sv_gen_job *j)
{
    sv_client *o = &sv->clients[j->client];
    return o->gen.job == j && o->id == j->owner && o->state == SV_CL_ACTIVE ? o : NULL;
}

void sv_genq_free(sv_t *sv)
{
    while (sv->genq.defer_head) {
        sv_gen_job *j = sv->genq.defer_head;
        sv->genq.defer_head = j->defer_next;
        sv_gen_job_free(j);
    }
    sv->genq.defer_tail = NULL;
    sv->genq.defer_n = 0;
}
