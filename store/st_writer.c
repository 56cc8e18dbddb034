/* st_writer.c: the store's thread: batched transactions for records, questions answered in order. */
#define _GNU_SOURCE /* pthread_setname_np: the thread shows as "st_writer" in top -H and /proc */
#include "st_writer.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "worker.h"
#include "st_spool.h"
#include "util.h"

/* While the database is out of reach the spool is retried after
 * RETRY_MIN_MS, doubling to RETRY_MAX_MS. */
#define RETRY_MIN_MS 100
#define RETRY_MAX_MS 2000

/* One queued job: a record to store or a question to answer. */
typedef struct job {
    struct job *next;
    st_match *rec; /* a record, or NULL for a question */
    st_query q;
    st_answer a; /* filled on the thread, then moved to the done list */
} job;

struct st_writer {
    st *s;           /* NULL: none (st_writer_open failed, or not yet on the thread) */
    st_open_fn open; /* st_writer_open: run first on the thread */
    void *open_data;
    char *open_error; /* why open failed: answers and records without a store say it */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t wake; /* jobs queued or stop */
    pthread_cond_t idle; /* a batch finished (st_writer_sync) */
    job *head, *tail;    /* waiting jobs, oldest first */
    job *done, *done_tail;
    atomic_int ndone;
    int max_records, max_queries;
    int records, queries;                 /* waiting */
    uint64_t queued_total, settled_total; /* records ever queued / committed or failed */
    uint64_t asked_total, answered_total; /* questions (and the open) ever asked / answered */
    bool stop;
    st_writer_stats st;
    /* The spool (st_writer_spool): records the database could not take,
     * oldest first. Only the thread touches it once set; spool_waiting in
     * st mirrors its count under the mutex. */
    st_spool *spool;
    uint64_t retry_at_us; /* no spool drain before this (mr_now_us) */
    int backoff_ms;
};

void st_answer_free(st_answer *a)
{
    if (!a)
        return;
    free((char *)a->error);
    st_matches_free(a->matches, a->n);
    st_match_free(&a->match);
    free(a->text);
    free(a->best);
    free(a->data);
    memset(a, 0, sizeof *a);
}

static void answer(st_writer *w, st_query *q, st_answer *a)
{
    st *s = w->s;
    const char *err = NULL;
    a->type = q->type;
    a->tag = q->tag;
    a->tag2 = q->tag2;
    a->id = q->id;
    if (!s) {
        a->error = mr_strdup(w->open_error && w->open_error[0] ? w->open_error : "the store is not open");
        return;
    }
    switch (q->type) {
    case ST_Q_RECENT:
        err = st_recent(s, q->id, q->limit, &a->matches, &a->n);
        break;
    case ST_Q_GET:
        err = st_get(s, q->id, &a->match, &a->found);
        if (!err && a->found && q->render) {
            a->text = q->render(&a->match, &a->text_len);
            st_match_free(&a->match);
            if (!a->text)
                err = "the match cannot be rendered";
        }
        break;
    case ST_Q_BEST:
        err = st_best_times(s, q->game_id, q->desc_hash, q->limit, &a->best, &a->n);
        break;
    case ST_Q_PB:
        a->best = mr_alloc(1, sizeof *a->best);
        err = st_personal_best(s, q->name, q->kind, q->width, q->height, a->best, &a->found);
        break;
    case ST_Q_CALL:
        err = q->call ? q->call(s, q, &a->data) : "no call";
        break;
    default:
        err = "unknown question";
    }
    if (err)
        a->error = mr_strdup(err);
}

/* What one turn of the thread came to, counted into the stats under the mutex. */
typedef struct outcome {
    int stored, failed, spooled, txns;
    char err[256];
} outcome;

/* The database is out of reach: the spool is tried again later, each time
 * later (a database that is down costs one failed attempt per interval). */
static void back_off(st_writer *w)
{
    w->backoff_ms = w->backoff_ms ? w->backoff_ms * 2 : RETRY_MIN_MS;
    if (w->backoff_ms > RETRY_MAX_MS)
        w->backoff_ms = RETRY_MAX_MS;
    w->retry_at_us = mr_now_us() + (uint64_t)w->backoff_ms * 1000;
}

/* Keeps records for later; without a spool (or when it cannot be
 * written: disk full) they are lost, counted as failed with the reason. */
static void to_spool(st_writer *w, st_match **recs, int n, outcome *o)
{
    if (n > 0 && w->spool && st_spool_append(w->spool, recs, n, o->err, sizeof o->err))
        o->spooled += n;
    else
        o->failed += n;
}

/* Stores records in one transaction; if the store refuses them, each one
 * on its own, so that one bad record does not lose the others. Returns
 * how many were settled (stored or refused) before the database turned
 * out to be out of reach (st_unavailable): the rest are still to store. */
static int try_put(st_writer *w, st_match **recs, int n, outcome *o)
{
    const char *e = st_put(w->s, recs, n);
    if (!e) {
        o->stored += n;
        o->txns++;
        w->backoff_ms = 0;
        return n;
    }
    snprintf(o->err, sizeof o->err, "%s", e);
    if (st_unavailable(w->s))
        return 0;
    if (n == 1) {
        o->failed++;
        return 1;
    }
    for (int i = 0; i < n; i++) {
        e = st_put(w->s, &recs[i], 1);
        if (!e) {
            o->stored++;
            o->txns++;
            continue;
        }
        snprintf(o->err, sizeof o->err, "%s", e);
        if (st_unavailable(w->s))
            return i;
        o->failed++;
    }
    return n;
}

/* A batch from the queue. While older records wait in the spool, new ones
 * join them there, so that the database receives matches in order. */
static void store_batch(st_writer *w, st_match **recs, int n, outcome *o)
{
    if (!w->s) {
        o->failed += n;
        snprintf(o->err, sizeof o->err, "%s", w->open_error ? w->open_error : "the store is not open");
        return;
    }
    if (w->spool && st_spool_pending(w->spool) > 0) {
        to_spool(w, recs, n, o);
        return;
    }
    int done = try_put(w, recs, n, o);
    if (done < n) {
        back_off(w);
        to_spool(w, recs + done, n - done, o);
    }
}

/* Sends the oldest spooled records in one transaction; those the database
 * took (or refused for good) leave the spool. */
static void drain(st_writer *w, outcome *o)
{
    st_match *recs[ST_WRITER_BATCH];
    int k = st_spool_peek(w->spool, recs, ST_WRITER_BATCH, o->err, sizeof o->err);
    if (k <= 0) { /* a read error (or nothing readable): try again later, never in a tight loop */
        back_off(w);
        return;
    }
    int done = try_put(w, recs, k, o);
    if (!st_spool_consume(w->spool, done, o->err, sizeof o->err) || done < k)
        back_off(w);
    for (int i = 0; i < k; i++) {
        st_match_free(recs[i]);
        free(recs[i]);
    }
}

/* Whether the spool holds records and its retry time has come (thread). */
static bool drain_due(const st_writer *w)
{
    return w->spool && st_spool_pending(w->spool) > 0 && mr_now_us() >= w->retry_at_us;
}

/* Waits for work (mutex held): jobs, stop, or the spool's retry time. */
static void wait_work(st_writer *w)
{
    while (!w->head && !w->stop && !drain_due(w)) {
        if (!w->spool || st_spool_pending(w->spool) == 0) {
            pthread_cond_wait(&w->wake, &w->mu);
            continue;
        }
        uint64_t wait_us = w->retry_at_us - mr_now_us();
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        t.tv_sec += (time_t)(wait_us / 1000000);
        t.tv_nsec += (long)(wait_us % 1000000) * 1000;
        if (t.tv_nsec >= 1000000000) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&w->wake, &w->mu, &t);
    }
}

/* Counts a turn's outcome (mutex held). */
static void account(st_writer *w, const outcome *o, int64_t last)
{
    w->st.written += (uint64_t)o->stored;
    w->st.failed += (uint64_t)o->failed;
    w->st.spooled += (uint64_t)o->spooled;
    w->st.transactions += (uint64_t)o->txns;
    if (last)
        w->st.last_id = last;
    if (o->err[0])
        snprintf(w->st.last_error, sizeof w->st.last_error, "%s", o->err);
    w->st.spool_waiting = w->spool ? st_spool_pending(w->spool) : 0;
}

/* Appends j to the list from *head to *tail (the waiting or the done list). */
static void append(job **head, job **tail, job *j)
{
    j->next = NULL;
    if (*tail)
        (*tail)->next = j;
    else
        *head = j;
    *tail = j;
}

/* Appends j, answered, to the done list (mutex held). */
static void done(st_writer *w, job *j)
{
    append(&w->done, &w->done_tail, j);
    atomic_fetch_add(&w->ndone, 1);
    w->answered_total++;
    pthread_cond_broadcast(&w->idle);
}

/* st_writer_open's open, on the thread; its answer is the first one. */
static void open_store(st_writer *w)
{
    char err[512] = "";
    job *j = mr_alloc(1, sizeof *j);
    memset(j, 0, sizeof *j);
    st *s = w->open(w->open_data, err, sizeof err);
    j->a.type = ST_Q_OPEN;
    j->a.data = w->open_data;
    w->open_data = NULL;
    if (!s) {
        j->a.error = mr_strdup(err);
        w->open_error = mr_strdup(err);
    }
    pthread_mutex_lock(&w->mu);
    w->s = s;
    done(w, j);
    pthread_mutex_unlock(&w->mu);
}

static void *run(void *arg)
{
    st_writer *w = arg;
    st_match *batch[ST_WRITER_BATCH];
    if (w->open)
        open_store(w);
    pthread_mutex_lock(&w->mu);
    for (;;) {
        wait_work(w);
        if (!w->head) {
            if (!drain_due(w)) /* stopping, and nothing left that can be sent now */
                break;
            pthread_mutex_unlock(&w->mu);
            outcome o = {0};
            drain(w, &o);
            pthread_mutex_lock(&w->mu);
            account(w, &o, 0);
            continue;
        }
        job *first = w->head;
        int n = 0;
        if (first->rec) { /* a run of records: one transaction */
            job *j = first;
            while (j && j->rec && n < ST_WRITER_BATCH) {
                batch[n++] = j->rec;
                job *next = j->next;
                free(j);
                j = next;
            }
            w->head = j;
            w->records -= n;
        } else {
            w->head = first->next;
            w->queries--;
        }
        if (!w->head)
            w->tail = NULL;
        pthread_mutex_unlock(&w->mu);

        outcome o = {0};
        if (n)
            store_batch(w, batch, n, &o);
        else
            answer(w, &first->q, &first->a);
        int64_t last = 0;
        for (int i = 0; i < n; i++) {
            if (batch[i]->id > last)
                last = batch[i]->id;
            st_match_free(batch[i]);
            free(batch[i]);
        }

        pthread_mutex_lock(&w->mu);
        if (n) {
            account(w, &o, last);
            w->settled_total += (uint64_t)n;
            pthread_cond_broadcast(&w->idle);
        } else {
            free(first->q.game_id);
            first->q.game_id = NULL;
            done(w, first);
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Starts the thread on s, or with open to run first (then s is NULL). */
static st_writer *start(st *s, st_open_fn open, void *data, int max_records, int max_queries)
{
    st_writer *w = mr_alloc(1, sizeof *w);
    memset(w, 0, sizeof *w);
    w->s = s;
    w->open = open;
    w->open_data = data;
    w->asked_total = open ? 1 : 0; /* the open is answered like a question */
    w->max_records = max_records > 0 ? max_records : ST_WRITER_RECORDS;
    w->max_queries = max_queries > 0 ? max_queries : ST_WRITER_QUERIES;
    atomic_init(&w->ndone, 0);
    pthread_mutex_init(&w->mu, NULL);
    pthread_condattr_t ca; /* the spool's retry waits on the monotonic clock */
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&w->wake, &ca);
    pthread_condattr_destroy(&ca);
    pthread_cond_init(&w->idle, NULL);
    if (pthread_create(&w->thread, NULL, run, w) != 0) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->wake);
        pthread_cond_destroy(&w->idle);
        st_close(s);
        free(data);
        free(w);
        return NULL;
    }
    pthread_setname_np(w->thread, "st_writer");
    return w;
}

st_writer *st_writer_create(st *s, int max_records, int max_queries)
{
    return start(s, NULL, NULL, max_records, max_queries);
}

st_writer *st_writer_open(st_open_fn open, void *data, int max_records, int max_queries)
{
    return start(NULL, open, data, max_records, max_queries);
}

void st_writer_destroy(st_writer *w)
{
    if (!w)
        return;
    mr_worker_tell_stop(&w->mu, &w->wake, &w->stop);
    pthread_join(w->thread, NULL);
    for (job *j = w->done, *next; j; j = next) {
        next = j->next;
        st_answer_free(&j->a);
        free(j);
    }
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->wake);
    pthread_cond_destroy(&w->idle);
    st_close(w->s);
    st_spool_close(w->spool);
    free(w->open_error);
    free(w);
}

bool st_writer_spool(st_writer *w, const char *path, char *err, size_t errlen)
{
    st_spool *sp = st_spool_open(path, err, errlen);
    if (!sp)
        return false;
    pthread_mutex_lock(&w->mu);
    bool ok = !w->spool;
    if (ok) {
        w->spool = sp;
        w->st.spool_waiting = st_spool_pending(sp);
        pthread_cond_signal(&w->wake); /* records left by an earlier run are sent now */
    }
    pthread_mutex_unlock(&w->mu);
    if (!ok) {
        snprintf(err, errlen, "spool %s: this writer has a spool already", path);
        st_spool_close(sp);
    }
    return ok;
}

/* Appends j to the waiting list (mutex held). */
static void enqueue(st_writer *w, job *j)
{
    append(&w->head, &w->tail, j);
    pthread_cond_signal(&w->wake);
}

bool st_writer_put(st_writer *w, st_match *m)
{
    const char *bad = st_match_check(m);
    job *j = bad ? NULL : mr_alloc(1, sizeof *j);
    pthread_mutex_lock(&w->mu);
    bool ok = false;
    if (bad) {
        w->st.failed++;
        snprintf(w->st.last_error, sizeof w->st.last_error, "%s", bad);
    } else if (w->records >= w->max_records || w->stop) {
        w->st.dropped++;
    } else {
        memset(j, 0, sizeof *j);
        j->rec = m;
        w->records++;
        w->queued_total++;
        enqueue(w, j);
        ok = true;
    }
    pthread_mutex_unlock(&w->mu);
    if (!ok) {
        free(j);
        st_match_free(m);
        free(m);
    }
    return ok;
}

bool st_writer_ask(st_writer *w, st_query *q)
{
    job *j = mr_alloc(1, sizeof *j);
    memset(j, 0, sizeof *j);
    j->q = *q;
    q->game_id = NULL;
    pthread_mutex_lock(&w->mu);
    bool ok = w->queries < w->max_queries && !w->stop;
    if (ok) {
        w->queries++;
        w->asked_total++;
        enqueue(w, j);
    } else {
        w->st.refused++;
    }
    pthread_mutex_unlock(&w->mu);
    if (!ok) {
        free(j->q.game_id);
        free(j);
    }
    return ok;
}

bool st_writer_poll(st_writer *w, st_answer *a)
{
    if (atomic_load(&w->ndone) == 0)
        return false;
    pthread_mutex_lock(&w->mu);
    job *j = w->done;
    if (j) {
        w->done = j->next;
        if (!w->done)
            w->done_tail = NULL;
        atomic_fetch_sub(&w->ndone, 1);
    }
    pthread_mutex_unlock(&w->mu);
    if (!j)
        return false;
    *a = j->a;
    free(j);
    return true;
}

void st_writer_sync(st_writer *w)
{
    pthread_mutex_lock(&w->mu);
    uint64_t target = w->queued_total, asked = w->asked_total;
    while (w->settled_total < target || w->answered_total < asked)
        pthread_cond_wait(&w->idle, &w->mu);
    pthread_mutex_unlock(&w->mu);
}

void st_writer_stats_get(st_writer *w, st_writer_stats *out)
{
    pthread_mutex_lock(&w->mu);
    *out = w->st;
    out->waiting = w->records;
    pthread_mutex_unlock(&w->mu);
}
