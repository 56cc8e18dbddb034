/* st_writer.c: the store's thread: batched transactions for records, questions answered in order. */
#include "st_writer.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* One queued job: a record to store or a question to answer. */
typedef struct job {
    struct job *next;
    st_match *rec; /* a record, or NULL for a question */
    st_query q;
    st_answer a; /* filled on the thread, then moved to the done list */
} job;

struct st_writer {
    st *s;
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
    bool stop;
    st_writer_stats st;
};

void st_answer_free(st_answer *a)
{
    if (!a)
        return;
    free((char *)a->error);
    st_matches_free(a->matches, a->n);
    st_match_free(&a->match);
    free(a->best);
    memset(a, 0, sizeof *a);
}

static void answer(st *s, const st_query *q, st_answer *a)
{
    const char *err = NULL;
    a->type = q->type;
    a->tag = q->tag;
    switch (q->type) {
    case ST_Q_RECENT:
        err = st_recent(s, q->id, q->limit, &a->matches, &a->n);
        break;
    case ST_Q_GET:
        err = st_get(s, q->id, &a->match, &a->found);
        break;
    case ST_Q_BEST:
        err = st_best_times(s, q->game_id, q->desc_hash, q->limit, &a->best, &a->n);
        break;
    case ST_Q_PB:
        a->best = mr_alloc(1, sizeof *a->best);
        err = st_personal_best(s, q->name, q->kind, q->width, q->height, a->best, &a->found);
        break;
    default:
        err = "unknown question";
    }
    if (err)
        a->error = mr_strdup(err);
}

/* Stores a batch in one transaction; if that fails, each record on its own,
 * so that one bad record does not lose the others. Returns records stored. */
static int store_batch(st_writer *w, st_match **recs, int n, char *err, size_t errlen, int *txns)
{
    const char *e = st_put(w->s, recs, n);
    if (!e) {
        *txns = 1;
        return n;
    }
    snprintf(err, errlen, "%s", e);
    int ok = 0;
    *txns = 0;
    for (int i = 0; i < n && n > 1; i++) {
        e = st_put(w->s, &recs[i], 1);
        if (e)
            snprintf(err, errlen, "%s", e);
        else {
            ok++;
            (*txns)++;
        }
    }
    return ok;
}

static void *run(void *arg)
{
    st_writer *w = arg;
    st_match *batch[ST_WRITER_BATCH];
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->head && !w->stop)
            pthread_cond_wait(&w->wake, &w->mu);
        if (!w->head)
            break;
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

        char err[256] = "";
        int stored = 0, txns = 0;
        if (n)
            stored = store_batch(w, batch, n, err, sizeof err, &txns);
        else
            answer(w->s, &first->q, &first->a);
        int64_t last = 0;
        for (int i = 0; i < n; i++) {
            if (batch[i]->id > last)
                last = batch[i]->id;
            st_match_free(batch[i]);
            free(batch[i]);
        }

        pthread_mutex_lock(&w->mu);
        if (n) {
            w->st.written += (uint64_t)stored;
            w->st.failed += (uint64_t)(n - stored);
            w->st.transactions += (uint64_t)txns;
            if (last)
                w->st.last_id = last;
            if (err[0])
                snprintf(w->st.last_error, sizeof w->st.last_error, "%s", err);
            w->settled_total += (uint64_t)n;
            pthread_cond_broadcast(&w->idle);
        } else {
            free(first->q.game_id);
            first->q.game_id = NULL;
            first->next = NULL;
            if (w->done_tail)
                w->done_tail->next = first;
            else
                w->done = first;
            w->done_tail = first;
            atomic_fetch_add(&w->ndone, 1);
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

st_writer *st_writer_create(st *s, int max_records, int max_queries)
{
    st_writer *w = mr_alloc(1, sizeof *w);
    memset(w, 0, sizeof *w);
    w->s = s;
    w->max_records = max_records > 0 ? max_records : ST_WRITER_RECORDS;
    w->max_queries = max_queries > 0 ? max_queries : ST_WRITER_QUERIES;
    atomic_init(&w->ndone, 0);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->wake, NULL);
    pthread_cond_init(&w->idle, NULL);
    if (pthread_create(&w->thread, NULL, run, w) != 0) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->wake);
        pthread_cond_destroy(&w->idle);
        st_close(s);
        free(w);
        return NULL;
    }
    return w;
}

void st_writer_destroy(st_writer *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    w->stop = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->mu);
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
    free(w);
}

/* Appends j to the waiting list (mutex held). */
static void enqueue(st_writer *w, job *j)
{
    j->next = NULL;
    if (w->tail)
        w->tail->next = j;
    else
        w->head = j;
    w->tail = j;
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
    uint64_t target = w->queued_total;
    while (w->settled_total < target)
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
