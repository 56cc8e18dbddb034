/* sv_gendone.c: the generation queue's finished jobs: rooms opened for their players or reserved for the
 * matchmaker, rematch puzzles handed to their games, deferred quick-match jobs submitted as the queue frees
 * up. */
#include <stdio.h>
#include <string.h>

#include "secrand.h"
#include "sv_addrs.h"
#include "sv_gen.h"
#include "sv_gendone.h"
#include "sv_genq.h"
#include "sv_internal.h"
#include "sv_lan.h"
#include "sv_limit.h"
#include "sv_log.h"
#include "sv_play.h"
#include "sv_quickmatch.h"
#include "sv_rooms.h"
#include "sv_send.h"
#include "util.h"

/* A matchmaker's reserved room is made (sv_reserve_room): opened empty
 * under its code, closed by sv_play_flush_room if nobody joins in time. */
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
    sv_play_flush_room(sv, room);
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
    sv_play_match_cfg(sv, 0, &j->mc);
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

/* A finished room job: the room opens for its owner, or (quick match, the
 * owner gone) for the player waiting for it; else it is dropped. */
static void room_job_done(sv_t *sv, sv_gen_job *j)
{
    if (j->reserve[0]) {
        reserved_job_done(sv, j);
        return;
    }
    sv_client *c = sv_genq_job_owner(sv, j);
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
            sv_genq_refuse(sv, c, SV_GEN_REFUSED_DISPLACED, WIRE_ERR_BUSY, j->err);
        else if (c)
            sv_send_error(sv, c, WIRE_ERROR, j->quick ? WIRE_ERR_INTERNAL : WIRE_ERR_BAD_PARAMS,
                          j->err[0] ? j->err : "cannot make that puzzle");
        if (w)
            sv_send_error(sv, w, WIRE_ERROR, WIRE_ERR_INTERNAL, j->err[0] ? j->err : "cannot make a puzzle");
        return;
    }
    match *m = j->m;
    j->m = NULL;
    sv_room *room = sv_play_open_room(sv, c, m, j->quick, j);
    if (!room || !room->m) {
        if (w)
            sv_send_error(sv, w, WIRE_ERROR, WIRE_ERR_TOO_MANY_ROOMS, "the server has no free room");
        return;
    }
    if (w)
        sv_play_seat(sv, w, room);
    /* Quick match may fill it from now on (its owner alone in it), and so
     * may it a LAN host's room (sv_config.quick_rooms). */
    room->quick = j->quick || sv->cfg.quick_rooms;
    room->made_by_quick = j->quick;
    if (room->quick && room->m)
        sv_play_quick_offer(sv, room);
}

/* Hands the deferred quick-match jobs to the workers while the queue has
 * room; a job nobody waits for any more is dropped, its charges given back. */
static void submit_deferred(sv_t *sv)
{
    sv_gen_job *j;
    while ((j = sv->genq.defer_head)) {
        bool wanted = sv_genq_job_owner(sv, j) || j->partner;
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

void sv_gendone_poll(sv_t *sv)
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
                sv_play_flush_room(sv, room);
            }
        }
        sv_gen_job_free(j);
    }
    submit_deferred(sv);
    sv->st.gen_pending = sv_gen_pending(sv->genq.gen) + sv->genq.defer_n;
    sv->st.puzzle_bytes = sv->genq.puzzle_bytes;
}
