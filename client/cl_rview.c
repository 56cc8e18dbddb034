/* cl_rview.c: the replay player's model: boards at any point of a replay, kept
 * seekable with snapshots of both states every few moves. */
#include "cl_rview.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* A seek replays at most `every` moves from the snapshot before it: at
 * least 32, and at most 512 snapshots however long the replay. */
enum { SNAP_MIN_EVERY = 32, SNAP_MAX = 512 };

/* Both states after the first i * every moves. */
struct snap {
    pz_state *st[MATCH_SLOTS];
    uint32_t moves[MATCH_SLOTS];
};

struct cl_rview {
    replay *r;
    pz_puzzle *pz;
    const pz_kind *k;
    match_result res;
    pz_state *st[MATCH_SLOTS];
    uint32_t moves[MATCH_SLOTS];
    size_t pos, n;
    uint64_t clock_us;
    uint32_t len_ms;
    struct snap *snaps;
    size_t nsnap, every, cost;
    bool playing;
    int speed;
};

static const int speed_quarters[CL_RVIEW_SPEEDS] = {1, 2, 4, 8, 16, 32};

static void apply(cl_rview *v, size_t i)
{
    const replay_move *m = replay_move_at(v->r, i);
    /* Legal: replay_check played the same moves on the same rules. */
    v->k->execute_move(v->pz, v->st[m->slot], m->mv, v->st[m->slot]);
    v->moves[m->slot]++;
    v->cost++;
}

void cl_rview_destroy(cl_rview *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->nsnap; i++)
        for (int s = 0; s < MATCH_SLOTS; s++)
            v->k->free_state(v->snaps[i].st[s]);
    free(v->snaps);
    for (int s = 0; s < MATCH_SLOTS; s++)
        if (v->st[s])
            v->k->free_state(v->st[s]);
    if (v->pz)
        v->k->free_puzzle(v->pz);
    replay_destroy(v->r);
    free(v);
}

cl_rview *cl_rview_create(replay *r, pz_error *e)
{
    match_result res;
    if (!r || replay_check(r, &res, e)) {
        replay_destroy(r);
        return NULL;
    }
    char err[160];
    pz_puzzle *pz = pz_from_id(replay_game_id(r), err, sizeof err);
    if (!pz) { /* cannot happen after replay_check; fail closed all the same */
        pz_error_set(e, 0, 0, "%s", err);
        replay_destroy(r);
        return NULL;
    }
    cl_rview *v = mr_alloc(1, sizeof *v);
    v->r = r;
    v->pz = pz;
    v->k = pz_kind_of(pz);
    v->res = res;
    v->n = replay_move_count(r);
    v->len_ms = replay_get_end(r).end_ms;
    v->speed = CL_RVIEW_SPEED_1X;
    v->every = (v->n + SNAP_MAX - 1) / SNAP_MAX;
    if (v->every < SNAP_MIN_EVERY)
        v->every = SNAP_MIN_EVERY;
    v->nsnap = v->n / v->every + 1;
    v->snaps = mr_alloc(v->nsnap, sizeof *v->snaps);
    for (int s = 0; s < MATCH_SLOTS; s++)
        v->st[s] = v->k->new_state(pz);
    for (size_t i = 0;; i++) {
        if (i % v->every == 0) {
            struct snap *sn = &v->snaps[i / v->every];
            for (int s = 0; s < MATCH_SLOTS; s++) {
                sn->st[s] = v->k->new_state(pz);
                v->k->copy_state(sn->st[s], v->st[s]);
                sn->moves[s] = v->moves[s];
            }
        }
        if (i == v->n)
            break;
        apply(v, i);
    }
    v->pos = v->n;
    /* Back to the start. */
    cl_rview_seek_move(v, 0);
    return v;
}

/* Exactly the first n moves made; the clock is the caller's business. */
static void goto_move(cl_rview *v, size_t n)
{
    if (n > v->n)
        n = v->n;
    v->cost = 0;
    if (n < v->pos || n - v->pos > v->every) {
        const struct snap *sn = &v->snaps[n / v->every];
        for (int s = 0; s < MATCH_SLOTS; s++) {
            v->k->copy_state(v->st[s], sn->st[s]);
            v->moves[s] = sn->moves[s];
        }
        v->pos = n / v->every * v->every;
    }
    while (v->pos < n)
        apply(v, v->pos++);
}

/* Moves at or before t: the first index whose time is after t. */
static size_t moves_by(const cl_rview *v, uint32_t t)
{
    size_t lo = 0, hi = v->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (replay_move_at(v->r, mid)->t_ms <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void cl_rview_seek(cl_rview *v, uint32_t t_ms)
{
    if (t_ms > v->len_ms)
        t_ms = v->len_ms;
    goto_move(v, moves_by(v, t_ms));
    v->clock_us = (uint64_t)t_ms * 1000;
}

void cl_rview_seek_move(cl_rview *v, size_t n)
{
    goto_move(v, n);
    v->clock_us = v->pos ? (uint64_t)replay_move_at(v->r, v->pos - 1)->t_ms * 1000 : 0;
}

void cl_rview_step(cl_rview *v, int dir)
{
    v->playing = false;
    if (dir > 0 && v->pos == v->n) {
        cl_rview_seek(v, v->len_ms);
        v->cost = 0;
    } else if (dir > 0) {
        cl_rview_seek_move(v, v->pos + 1);
    } else if (v->pos > 0) {
        cl_rview_seek_move(v, v->pos - 1);
    } else {
        v->clock_us = 0;
    }
}

void cl_rview_play(cl_rview *v, bool on)
{
    if (on && cl_rview_at_end(v))
        cl_rview_seek(v, 0);
    v->playing = on;
}

void cl_rview_tick(cl_rview *v, uint32_t real_ms)
{
    if (!v->playing)
        return;
    v->clock_us += (uint64_t)real_ms * 250 * (uint64_t)speed_quarters[v->speed];
    if (v->clock_us >= (uint64_t)v->len_ms * 1000) {
        v->clock_us = (uint64_t)v->len_ms * 1000;
        v->playing = false;
    }
    goto_move(v, moves_by(v, (uint32_t)(v->clock_us / 1000)));
}

void cl_rview_set_speed(cl_rview *v, int index)
{
    v->speed = index < 0 ? 0 : index >= CL_RVIEW_SPEEDS ? CL_RVIEW_SPEEDS - 1 : index;
}

const char *cl_rview_speed_text(int index)
{
    static const char *const text[CL_RVIEW_SPEEDS] = {"0.25x", "0.5x", "1x", "2x", "4x", "8x"};
    return index >= 0 && index < CL_RVIEW_SPEEDS ? text[index] : "?";
}

const replay *cl_rview_replay(const cl_rview *v)
{
    return v->r;
}
const pz_puzzle *cl_rview_puzzle(const cl_rview *v)
{
    return v->pz;
}
const match_result *cl_rview_result(const cl_rview *v)
{
    return &v->res;
}
const pz_state *cl_rview_state(const cl_rview *v, int slot)
{
    return slot >= 0 && slot < MATCH_SLOTS ? v->st[slot] : NULL;
}
uint32_t cl_rview_moves(const cl_rview *v, int slot)
{
    return slot >= 0 && slot < MATCH_SLOTS ? v->moves[slot] : 0;
}
bool cl_rview_solved(const cl_rview *v, int slot)
{
    return slot >= 0 && slot < MATCH_SLOTS && v->k->is_solved(v->pz, v->st[slot]);
}
size_t cl_rview_pos(const cl_rview *v)
{
    return v->pos;
}
uint32_t cl_rview_time(const cl_rview *v)
{
    return (uint32_t)(v->clock_us / 1000);
}
uint32_t cl_rview_length(const cl_rview *v)
{
    return v->len_ms;
}
bool cl_rview_at_end(const cl_rview *v)
{
    return v->pos == v->n && v->clock_us >= (uint64_t)v->len_ms * 1000;
}
bool cl_rview_playing(const cl_rview *v)
{
    return v->playing;
}
int cl_rview_speed(const cl_rview *v)
{
    return v->speed;
}
size_t cl_rview_last_cost(const cl_rview *v)
{
    return v->cost;
}
size_t cl_rview_snapshot_every(const cl_rview *v)
{
    return v->every;
}
size_t cl_rview_snapshots(const cl_rview *v)
{
    return v->nsnap;
}
