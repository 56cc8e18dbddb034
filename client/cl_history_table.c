/* cl_history_table.c: the history's best times, asked on the store's thread: the results screen's
 * (this puzzle's best, the player's on its kind and size) and the History screen's table, built
 * race by race (the fastest solves on each kind and size: yours, a person's, the computer's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_history.h"
#include "puzzle.h"
#include "st_writer.h"
#include "util.h"

/* Whether slot s of r is the computer: in a race against it, slot 1
 * (cl_scene_setup.c). */
static bool is_bot(const st_match *r, int s)
{
    return cl_hist_mode_is(r, CL_HIST_COMPUTER) && s == 1;
}

/* Whether slot s of r is this player: their name, or the person's slot of a
 * race against the computer (as the History rows count it). */
static bool is_you(const st_match *r, int s, const char *name)
{
    if (is_bot(r, s))
        return false;
    return (name && strcmp(r->p[s].name, name) == 0) || (cl_hist_mode_is(r, CL_HIST_COMPUTER) && s == 0);
}

/* Orders rows by kind, then by board area, then width. */
static int cmp(const cl_hist_best_row *e, int kind, int w, int h)
{
    if (e->kind != kind)
        return e->kind < kind ? -1 : 1;
    long ea = (long)e->w * e->h, a = (long)w * h;
    if (ea != a)
        return ea < a ? -1 : 1;
    return e->w < w ? -1 : e->w > w ? 1 : 0;
}

/* The row for kind, w and h: found or made in place; NULL when the table is full. */
static cl_hist_best_row *row(cl_hist_table *t, int kind, int w, int h)
{
    int i = 0;
    while (i < t->n && cmp(&t->e[i], kind, w, h) < 0)
        i++;
    if (i < t->n && cmp(&t->e[i], kind, w, h) == 0)
        return &t->e[i];
    if (t->n >= CL_HIST_TABLE_MAX) {
        t->more = true;
        return NULL;
    }
    memmove(&t->e[i + 1], &t->e[i], (size_t)(t->n - i) * sizeof t->e[0]);
    t->n++;
    memset(&t->e[i], 0, sizeof t->e[i]);
    t->e[i].kind = kind;
    t->e[i].w = w;
    t->e[i].h = h;
    return &t->e[i];
}

static void keep(uint64_t *best, uint64_t ms)
{
    if (ms && (!*best || ms < *best))
        *best = ms;
}

void cl_hist_table_add(cl_hist_table *t, const st_match *r, const char *name)
{
    const pz_kind *k = pz_kind_by_name(r->kind);
    cl_hist_best_row *e = row(t, k ? k->id : -1, r->width, r->height);
    if (!e)
        return;
    e->races++;
    bool any = false;
    for (int s = 0; s < 2; s++) {
        if (!r->p[s].solved || !r->p[s].time_ms)
            continue;
        any = true;
        uint64_t ms = r->p[s].time_ms;
        if (is_bot(r, s)) {
            keep(&e->bot_ms, ms);
            continue;
        }
        if (is_you(r, s, name))
            keep(&e->you_ms, ms);
        if (!e->person_ms || ms <= e->person_ms) { /* ties: the older race (added later) */
            e->person_ms = ms;
            snprintf(e->person, sizeof e->person, "%s", r->p[s].name);
        }
    }
    if (!any)
        e->unsolved++;
}

/* Whether best time b was the computer's: in a race against the computer
 * the computer is slot 1, and the solver has its name. */
static bool by_computer(st *s, const st_best *b)
{
    st_match m;
    bool found = false;
    if (st_get(s, b->match_id, &m, &found) || !found)
        return false;
    bool bot = cl_hist_mode_is(&m, CL_HIST_COMPUTER) && strcmp(m.p[1].name, b->name) == 0;
    st_match_free(&m);
    return bot;
}

const char *cl_hist_bests_call(st *s, const st_query *q, void **out)
{
    cl_hist_bests *o = mr_alloc(1, sizeof *o);
    memset(o, 0, sizeof *o);
    *out = o;
    st_best *b = NULL;
    int n = 0;
    /* The puzzle's best is a person's: the computer's times are left out
     * (the fastest few are looked at for the first not by the computer). */
    const char *why = st_best_times(s, q->game_id, 0, 16, &b, &n);
    for (int i = 0; !why && i < n && !o->have_puzzle; i++) {
        if (by_computer(s, &b[i]))
            continue;
        o->have_puzzle = true;
        o->puzzle_ms = b[i].time_ms;
        snprintf(o->puzzle_name, sizeof o->puzzle_name, "%s", b[i].name);
    }
    free(b);
    if (!why && q->name[0]) {
        st_best pb;
        bool found = false;
        why = st_personal_best(s, q->name, q->kind, q->width, q->height, &pb, &found);
        if (!why && found) {
            o->have_personal = true;
            o->personal_ms = pb.time_ms;
        }
    }
    o->ok = !why;
    return why;
}

const char *cl_hist_table_call(st *s, const st_query *q, void **out)
{
    cl_hist_table *t = mr_alloc(1, sizeof *t);
    memset(t, 0, sizeof *t);
    *out = t;
    /* Every race, newest first, a page at a time (the store's thread's time, never a frame's). */
    int64_t before = 0;
    for (;;) {
        st_match *ms = NULL;
        int n = 0;
        const char *why = st_recent(s, before, ST_PAGE_MAX, &ms, &n);
        if (why)
            return why;
        for (int i = 0; i < n; i++)
            cl_hist_table_add(t, &ms[i], q->name);
        before = n ? ms[n - 1].id : 0;
        st_matches_free(ms, n);
        if (n < ST_PAGE_MAX) {
            t->ok = true;
            return NULL;
        }
    }
}
