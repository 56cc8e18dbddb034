/* sv_genq.c: the generation queue, game side: requests against the budgets, deferred and finished jobs. */
#include <stdio.h>
#include <string.h>

#include "secrand.h"
#include "sv_addrs.h"
#include "sv_game.h"
#include "sv_gen.h"
#include "sv_genq.h"
#include "sv_internal.h"
#include "sv_lan.h"
#include "sv_limit.h"
#include "sv_log.h"
#include "sv_loglimit.h"
#include "sv_quickmatch.h"
#include "sv_rooms.h"
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
    return sv_addrs_get(sv->addrs, c->ip, sv->now_ms, 4 * sv->cfg.gen_burst_ms);
}

static void refuse_gen(sv_t *sv, sv_client *c, int reason, int code, const char *why)
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
        refuse_gen(sv, c, SV_GEN_REFUSED_ADDRS, WIRE_ERR_BUSY, "server busy: try again later");
        return false;
    }
    if (sv->genq.puzzle_bytes + j->est_bytes > cap) {
        refuse_gen(sv, c, SV_GEN_REFUSED_MEMORY, WIRE_ERR_MEMORY,
                   "the server's puzzle memory is full: try a smaller board later");
        return false;
    }
    if (a->puzzle_bytes + j->est_bytes > cap / 8) {
        refuse_gen(sv, c, SV_GEN_REFUSED_ADDR_MEMORY, WIRE_ERR_MEMORY,
                   "your rooms hold too much puzzle memory: try a smaller board");
        return false;
    }
    bool mine =
        sv_budget_covers(&c->gen.budget, sv->now_ms, sv->cfg.gen_rate_ms, sv->cfg.gen_burst_ms, j->est_us);
    bool addr =
        sv_budget_covers(&a->gen, sv->now_ms, 4 * sv->cfg.gen_rate_ms, 4 * sv->cfg.gen_burst_ms, j->est_us);
    if (!mine || !addr) {
        char why[120];
        snprintf(why, sizeof why, "puzzle generation budget used up%s: try again in a few seconds",
                 mine ? " for your address" : "");
        refuse_gen(sv, c, mine ? SV_GEN_REFUSED_ADDR_BUDGET : SV_GEN_REFUSED_BUDGET, WIRE_ERR_BUSY, why);
        return false;
    }
    /* Quick match never turns a player away for a full queue: its puzzle
     * waits for room there (sv->genq.defer_head), the player paired meanwhile. */
    bool queued = sv_gen_submit(sv->genq.gen, j);
    if (!queued && !j->quick) {
        refuse_gen(sv, c, SV_GEN_REFUSED_QUEUE, WIRE_ERR_BUSY,
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
        refuse_gen(sv, c, SV_GEN_REFUSED_BUDGET, WIRE_ERR_BUSY,
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

/* A finished room job: the room opens for its owner, or (quick match, the
 * owner gone) for the player waiting for it; else it is dropped. */
/* A matchmaker's reserved room is made (sv_reserve_room): opened empty
 * under its code, closed by sv_game_flush_room if nobody joins in time. */
static void reserved_job_done(sv_t *sv, sv_gen_job *j)
{
    sv_room *room = NULL;
    if (j->m) {
        room = sv_rooms_add_code(sv->rooms, j->m, sv->now_ms, j->reserve);
        if (room)
            j->m = NULL;
    }
    if (!room) {
        sv_genq_release_bytes(sv, j->ip, j->est_bytes, true);
        sv_loge(&sv->log, SV_LOG_WARN, "room_reserve_failed", j->reserve, NULL, NULL,
                "reserved room %s not opened: %s", j->reserve,
                j->err[0] ? j->err : "its code is in use or every room is taken");
        return;
    }
    room->ip = j->ip;
    room->puzzle_bytes = j->est_bytes;
    room->reserved_until = sv->now_ms + (uint64_t)j->reserve_ms;
    sv->st.rooms_created++;
    char id[128];
    match_game_id(room->m, id, sizeof id);
    sv_loge(&sv->log, SV_LOG_INFO, "room_reserved", room->code, NULL, NULL,
            "room %s reserved by the matchmaker: %s, waits %d ms for its players (%d rooms)", room->code, id,
            j->reserve_ms, sv_rooms_count(sv->rooms));
    sv_lan_rooms_changed(sv);
    sv_game_flush_room(sv, room);
}

const char *sv_reserve_room(sv_t *sv, const char *code, const char *game_id, int wait_ms)
{
    static char err[200];
    pz_id id;
    if (!wire_room_code_ok(code))
        return "not a room code";
    if (wait_ms < 1)
        return "the wait must be at least 1 ms";
    if (sv_rooms_find(sv->rooms, code))
        return "a room with that code exists";
    if (pz_id_parse(game_id, &id, err, sizeof err))
        return err;
    if (sv_draining(sv))
        return "the server is draining";
    if (sv_rooms_count(sv->rooms) >= sv_rooms_capacity(sv->rooms))
        return "the server has no free room";
    sv_gen_job *j = sv_gen_job_new();
    j->what = SV_GEN_ROOM;
    sv_game_match_cfg(sv, 0, &j->mc);
    memcpy(j->reserve, code, sizeof j->reserve);
    j->reserve_ms = wait_ms;
    j->game_id = mr_strdup(game_id);
    j->params = id.params;
    j->rng_init = secrand_u64();
    j->est_bytes = 2 * sv_gen_estimate_bytes(&j->params);
    j->est_us = sv_gen_estimate_us(&j->params);
    if (sv->genq.puzzle_bytes + j->est_bytes > (size_t)sv->cfg.puzzle_mem_mb << 20) {
        sv_gen_job_free(j);
        return "the server's puzzle memory is full";
    }
    if (!sv_gen_submit(sv->genq.gen, j)) {
        sv_gen_job_free(j);
        return "the server is busy making puzzles";
    }
    sv->genq.puzzle_bytes += j->est_bytes;
    return NULL;
}

static void room_job_done(sv_t *sv, sv_gen_job *j)
{
    if (j->reserve[0]) {
        reserved_job_done(sv, j);
        return;
    }
    sv_client *c = sv_quickmatch_job_owner(sv, j);
    if (c)
        c->gen.job = NULL;
    sv_quickmatch_unlist_job(sv, j);
    sv_client *w = sv_quickmatch_partner(sv, j); /* quick match: its opponent, already paired */
    if (!c) {
        c = w;
        w = NULL;
    }
    if (!c || !j->m) {
        sv_genq_release_bytes(sv, j->ip, j->est_bytes, true);
        if (c && j->displaced)
            refuse_gen(sv, c, SV_GEN_REFUSED_DISPLACED, WIRE_ERR_BUSY, j->err);
        else if (c)
            sv_send_error(sv, c, WIRE_ERROR, j->quick ? WIRE_ERR_INTERNAL : WIRE_ERR_BAD_PARAMS,
                          j->err[0] ? j->err : "cannot make that puzzle");
        if (w)
            sv_send_error(sv, w, WIRE_ERROR, WIRE_ERR_INTERNAL, j->err[0] ? j->err : "cannot make a puzzle");
        return;
    }
    match *m = j->m;
    j->m = NULL;
    sv_room *room = sv_game_open_room(sv, c, m, j->quick, j);
    if (!room || !room->m) {
        if (w)
            sv_send_error(sv, w, WIRE_ERROR, WIRE_ERR_TOO_MANY_ROOMS, "the server has no free room");
        return;
    }
    if (w)
        sv_game_seat(sv, w, room);
    /* Quick match may fill it from now on (its owner alone in it), and so
     * may it a LAN host's room (sv_config.quick_rooms). */
    room->quick = j->quick || sv->cfg.quick_rooms;
    room->made_by_quick = j->quick;
    if (room->quick && room->m)
        sv_quickmatch_offer(sv, room);
}

/* Hands the deferred quick-match jobs to the workers while the queue has
 * room; a job nobody waits for any more is dropped, its charges given back. */
static void submit_deferred(sv_t *sv)
{
    sv_gen_job *j;
    while ((j = sv->genq.defer_head)) {
        bool wanted = sv_quickmatch_job_owner(sv, j) || j->partner;
        if (wanted && !sv_gen_submit(sv->genq.gen, j))
            return;
        sv->genq.defer_head = j->defer_next;
        if (!sv->genq.defer_head)
            sv->genq.defer_tail = NULL;
        sv->genq.defer_n--;
        j->defer_next = NULL;
        if (wanted)
            continue;
        sv_quickmatch_unlist_job(sv, j);
        sv_genq_release_bytes(sv, j->ip, j->est_bytes, true);
        sv_addr *a = sv_addrs_find(sv->addrs, j->ip);
        if (a) {
            sv_budget_charge(&a->gen, -(int64_t)j->est_us);
            if (a->gen_pending > 0)
                a->gen_pending--;
        }
        sv_gen_job_free(j);
    }
}

void sv_genq_poll(sv_t *sv)
{
    sv_gen_job *j;
    if (!sv->genq.gen)
        return;
    /* Bounded by the jobs in flight (cfg.gen_queue). */
    while ((j = sv_gen_poll(sv->genq.gen))) {
        sv->st.gen_jobs += !j->displaced;
        sv->st.gen_cpu_us += j->cpu_us;
        int64_t diff = (int64_t)j->cpu_us - (int64_t)j->est_us; /* charge what it really cost */
        sv_client *c = &sv->clients[j->client];
        if (c->id == j->owner && j->owner != 0)
            sv_budget_charge(&c->gen.budget, diff);
        sv_addr *a = sv_addrs_find(sv->addrs, j->ip);
        if (j->what == SV_GEN_ROOM) {
            if (a) {
                sv_budget_charge(&a->gen, diff);
                if (a->gen_pending > 0)
                    a->gen_pending--;
            }
            room_job_done(sv, j);
        } else {
            sv_room *room = sv_rooms_at(sv->rooms, j->room);
            if (room && room->m && room->serial == j->serial && match_wants_puzzle(room->m)) {
                pz_puzzle *pz = j->pz;
                j->pz = NULL;
                match_give_puzzle(room->m, pz, j->seed, sv->now_ms);
                if (!pz)
                    for (int s = 0; s < MATCH_SLOTS; s++)
                        sv_send_error(sv, room->player[s], WIRE_ERROR, WIRE_ERR_INTERNAL, j->err);
                sv_game_flush_room(sv, room);
            }
        }
        sv_gen_job_free(j);
    }
    submit_deferred(sv);
    sv->st.gen_pending = sv_gen_pending(sv->genq.gen) + sv->genq.defer_n;
    sv->st.puzzle_bytes = sv->genq.puzzle_bytes;
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
