/* cl_history.c: the game's history on the match store: the file opened on an
 * st_writer's thread, requests as its records and questions, answers kept
 * by kind until the screens take them. */
#include "cl_history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "st_writer.h"
#include "util.h"

/* Records waiting beyond this are dropped (with a problem): a disk that
 * stalls for minutes must not grow memory forever. */
enum { MAX_QUEUED = 256 };

/* The kinds of answer kept, the latest of each (the query's tag2 low byte;
 * a page's count above it). */
enum { A_PAGE, A_BESTS, A_TABLE, A_RACE, A_KINDS };

struct cl_history {
    st_writer *w;
    uint32_t next_ticket;
    bool read_only; /* asked for, or the file may not be written */
    bool off;       /* the file cannot be used: said once, nothing more is recorded */
    bool sync;
    bool put_any; /* a record was handed to the writer (its failures are worth a look) */
    char problem[512];
    bool problem_new;
    uint32_t ticket[A_KINDS];
    bool have[A_KINDS];
    st_answer ans[A_KINDS];
};

/* The open, on the store's thread (st_open_fn): what it asks and says. */
typedef struct open_req {
    bool want_ro;   /* in: never create or write */
    bool read_only; /* out: writes will fail */
    char path[1024];
} open_req;

static st *open_file(void *data, char *err, size_t errlen)
{
    open_req *o = data;
    const char *path = o->path;
    o->read_only = o->want_ro;
    err[0] = '\0';
    if (!path[0]) {
        snprintf(err, errlen, "no history file");
        return NULL;
    }
    /* Not writing (--no-save) and nothing there yet: quietly no history. */
    if (o->want_ro && access(path, F_OK) != 0)
        return NULL;
    /* A file there that we may not write is read as it is. */
    bool ro = o->want_ro || (access(path, F_OK) == 0 && access(path, W_OK) != 0);
    char why[512] = "";
    st *s = ro ? NULL : st_open(path, ST_OPEN_CREATE, why, sizeof why);
    if (!s) {
        /* A file we may read but not write still shows the races it has. */
        s = st_open(path, ST_OPEN_READONLY, err, errlen);
        if (!s && why[0])
            snprintf(err, errlen, "%s", why);
        o->read_only = s != NULL;
    }
    return s;
}

/* Says what (then why, if any) once; the first thing said stays until it is taken. */
static void say(cl_history *h, const char *what, const char *why)
{
    if (h->problem_new)
        return;
    snprintf(h->problem, sizeof h->problem, "%s%s", what, why ? why : "");
    h->problem_new = true;
}

/* The open's answer: off, read-only or in use. */
static void opened(cl_history *h, const st_answer *a)
{
    const open_req *o = a->data;
    if (a->error) {
        h->off = true;
        if (a->error[0])
            say(h, "History off: ", a->error);
    } else if (o && o->read_only && !o->want_ro) {
        h->read_only = true;
        snprintf(h->problem, sizeof h->problem,
                 "The history file is read-only: races are not recorded (%.120s)", o->path);
        h->problem_new = true;
    }
}

/* Picks up whatever the store's thread has answered. */
static void poll(cl_history *h)
{
    static const char *const what[A_KINDS] = {"cannot read the history", "cannot read best times",
                                              "cannot read best times", "cannot read the race"};
    st_answer a;
    while (st_writer_poll(h->w, &a)) {
        int k = (int)(a.tag2 & 0xff);
        if (a.type == ST_Q_OPEN || k >= A_KINDS) {
            if (a.type == ST_Q_OPEN)
                opened(h, &a);
            st_answer_free(&a);
            continue;
        }
        if (a.error && !h->off) {
            char why[400];
            snprintf(why, sizeof why, "%s: %s", what[k], a.error);
            say(h, "History off: ", why);
            h->off = true;
        }
        st_answer_free(&h->ans[k]);
        h->ans[k] = a;
        h->ticket[k] = (uint32_t)a.tag;
        h->have[k] = true;
    }
    if (!h->put_any || h->off || h->read_only)
        return;
    st_writer_stats ws;
    st_writer_stats_get(h->w, &ws);
    if (ws.failed) {
        char why[400];
        snprintf(why, sizeof why, "cannot record the race: %s", ws.last_error);
        say(h, "History off: ", why);
        h->off = true;
    }
}

cl_history *cl_history_create(const char *path, bool read_only)
{
    cl_history *h = mr_alloc(1, sizeof *h);
    h->read_only = read_only;
    open_req *o = mr_alloc(1, sizeof *o);
    o->want_ro = read_only;
    snprintf(o->path, sizeof o->path, "%s", path ? path : "");
    h->w = st_writer_open(open_file, o, MAX_QUEUED, 0);
    if (!h->w) {
        /* No thread: no history, said once; every ask answers nothing. */
        h->off = true;
        say(h, "History off: cannot start its thread", NULL);
    }
    return h;
}

void cl_history_destroy(cl_history *h)
{
    if (!h)
        return;
    st_writer_destroy(h->w);
    for (int k = 0; k < A_KINDS; k++)
        st_answer_free(&h->ans[k]);
    free(h);
}

bool cl_history_problem(cl_history *h, char *buf, size_t len)
{
    if (!h)
        return false;
    if (h->w)
        poll(h);
    bool news = h->problem_new;
    if (news)
        snprintf(buf, len, "%s", h->problem);
    h->problem_new = false;
    return news;
}

void cl_history_flush(cl_history *h)
{
    if (!h || !h->w)
        return;
    st_writer_sync(h->w);
    poll(h);
}

void cl_history_set_sync(cl_history *h, bool sync)
{
    if (h)
        h->sync = sync;
}

void cl_history_add(cl_history *h, st_match *r)
{
    if (!h || !h->w || h->off || h->read_only) {
        st_match_free(r);
        free(r);
        return;
    }
    const char *bad = st_match_check(r);
    if (bad) {
        /* Our bug or an odd race, not the file's: skip it, keep the history. */
        fprintf(stderr, "mazerace: history: race not recorded: %s\n", bad);
        st_match_free(r);
        free(r);
        return;
    }
    h->put_any = true;
    if (!st_writer_put(h->w, r))
        say(h, "History: the disk is too slow; a race was not recorded", NULL);
    if (h->sync)
        cl_history_flush(h);
}

/* Asks q as a request of kind k; its ticket, or 0 when none is taken. */
static uint32_t ask(cl_history *h, int k, st_query *q)
{
    if (!h || !h->w) {
        free(q->game_id);
        return 0;
    }
    uint32_t t = ++h->next_ticket;
    q->tag = t;
    q->tag2 |= (uint64_t)k;
    if (!st_writer_ask(h->w, q))
        return 0;
    if (h->sync)
        cl_history_flush(h);
    return t;
}

/* Takes the answer to ticket t of kind k into out (then the caller's). */
static bool take(cl_history *h, int k, uint32_t t, st_answer *out)
{
    if (!h || !h->w || !t)
        return false;
    poll(h);
    if (!h->have[k] || h->ticket[k] != t)
        return false;
    *out = h->ans[k];
    memset(&h->ans[k], 0, sizeof h->ans[k]);
    h->have[k] = false;
    if (h->off && !out->error) { /* an answer read before the history went off: none */
        st_answer none = {.type = out->type, .tag = out->tag, .tag2 = out->tag2};
        st_answer_free(out);
        *out = none;
        out->error = mr_strdup("the history is off");
    }
    return true;
}

uint32_t cl_history_ask_page(cl_history *h, int64_t before_id, int count)
{
    count = count < 1 ? 1 : count > CL_HIST_PAGE_MAX ? CL_HIST_PAGE_MAX : count;
    /* One more than asked tells whether there are older ones. */
    st_query q = {.type = ST_Q_RECENT, .id = before_id < 0 ? 0 : before_id, .limit = count + 1};
    q.tag2 = (uint64_t)count << 8;
    return ask(h, A_PAGE, &q);
}

bool cl_history_page(cl_history *h, uint32_t ticket, st_answer *out, bool *more)
{
    if (!take(h, A_PAGE, ticket, out))
        return false;
    int count = (int)(out->tag2 >> 8);
    *more = out->n > count;
    if (*more) {
        for (int i = count; i < out->n; i++)
            st_match_free(&out->matches[i]);
        out->n = count;
    }
    return true;
}

uint32_t cl_history_ask_bests(cl_history *h, const char *game_id, const char *kind, int w, int h_,
                              const char *name)
{
    st_query q = {.type = ST_Q_CALL, .call = cl_hist_bests_call, .width = w, .height = h_};
    q.game_id = mr_strdup(game_id ? game_id : "");
    snprintf(q.kind, sizeof q.kind, "%s", kind ? kind : "");
    snprintf(q.name, sizeof q.name, "%s", name ? name : "");
    return ask(h, A_BESTS, &q);
}

/* A CALL's answer: its result (size bytes, whose ok the call set) copied
 * into out, or zeroes (not ok) when it failed or the history is off. */
static bool take_call(cl_history *h, int k, uint32_t t, void *out, size_t size)
{
    st_answer a;
    if (!take(h, k, t, &a))
        return false;
    if (a.data && !a.error)
        memcpy(out, a.data, size);
    else
        memset(out, 0, size);
    st_answer_free(&a);
    return true;
}

bool cl_history_bests(cl_history *h, uint32_t ticket, cl_hist_bests *out)
{
    return take_call(h, A_BESTS, ticket, out, sizeof *out);
}

uint32_t cl_history_ask_table(cl_history *h, const char *name)
{
    st_query q = {.type = ST_Q_CALL, .call = cl_hist_table_call};
    snprintf(q.name, sizeof q.name, "%s", name ? name : "");
    return ask(h, A_TABLE, &q);
}

bool cl_history_table(cl_history *h, uint32_t ticket, cl_hist_table *out)
{
    return take_call(h, A_TABLE, ticket, out, sizeof *out);
}

uint32_t cl_history_ask_race(cl_history *h, int64_t id)
{
    st_query q = {.type = ST_Q_GET, .id = id};
    return ask(h, A_RACE, &q);
}

bool cl_history_race(cl_history *h, uint32_t ticket, st_answer *out)
{
    return take(h, A_RACE, ticket, out);
}

bool cl_hist_mode_is(const st_match *r, const char *mode)
{
    return strcmp(r->mode, mode) == 0;
}

uint64_t cl_hist_best_ms(const st_match *r)
{
    if (r->winner < 0 || r->winner > 1 || !r->p[r->winner].solved)
        return 0;
    return r->p[r->winner].time_ms;
}
