/* history_table.c: the History screen's best-times table, built race by race
 * (the fastest solves on each kind and size: yours, a person's, the computer's). */
#include <stdio.h>
#include <string.h>

#include "cl_history.h"
#include "match.h"

/* Whether slot s of r is the computer: in a race against it, slot 1
 * (scene_setup.c). */
static bool is_bot(const cl_hist_race *r, int s)
{
    return r->mode == CL_HIST_COMPUTER && s == 1;
}

/* Whether slot s of r is this player: their name, or the person's slot of a
 * race against the computer (as the History rows count it). */
static bool is_you(const cl_hist_race *r, int s, const char *name)
{
    if (is_bot(r, s))
        return false;
    return (name && strcmp(r->name[s], name) == 0) || (r->mode == CL_HIST_COMPUTER && s == 0);
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

void cl_hist_table_add(cl_hist_table *t, const cl_hist_race *r, const char *name)
{
    cl_hist_best_row *e = row(t, r->params.kind, r->params.w, r->params.h);
    if (!e)
        return;
    e->races++;
    bool any = false;
    for (int s = 0; s < 2; s++) {
        if (!r->solved[s] || !r->time_ms[s])
            continue;
        any = true;
        uint64_t ms = r->time_ms[s];
        if (is_bot(r, s)) {
            keep(&e->bot_ms, ms);
            continue;
        }
        if (is_you(r, s, name))
            keep(&e->you_ms, ms);
        if (!e->person_ms || ms <= e->person_ms) { /* ties: the older race (added later) */
            e->person_ms = ms;
            snprintf(e->person, sizeof e->person, "%s", r->name[s]);
        }
    }
    if (!any)
        e->unsolved++;
}
