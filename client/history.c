/* history.c: the history's worker thread and request queue; the storage
 * itself is history_db.c. */
#include "cl_history.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history_db.h"
#include "util.h"

enum job_type { J_ADD, J_PAGE, J_BESTS, J_RACE, J_TABLE };

typedef struct job {
    int type;
    uint32_t ticket;
    cl_hist_race race; /* J_ADD: the race (owns its logs) */
    int64_t before;    /* J_PAGE */
    int count;
    char game_id[160]; /* J_BESTS */
    pz_params params;
    char name[32]; /* J_BESTS, J_TABLE */
    int64_t id;    /* J_RACE */
    struct job *next;
} job;

/* Queued but not yet started adds beyond this are dropped (with a
 * problem): a disk that stalls for minutes must not grow memory forever. */
enum { MAX_QUEUED = 256 };

struct cl_history {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake, idle;
    /* Under lock: */
    job *head, *tail;
    int queued;
    bool busy, stop;
    uint32_t next_ticket;
    char problem[512];
    bool problem_new;
    bool read_only;
    bool sync;
    /* The latest answer of each kind and its ticket. */
    uint32_t page_ticket, bests_ticket, race_ticket, table_ticket;
    cl_hist_page *page;
    cl_hist_table *table;
    cl_hist_bests bests;
    cl_hist_race race;
    /* Worker only: */
    char path[1024];
    hdb *db;
    bool failed; /* the file is unusable: answer empty from now on */
};

void cl_hist_race_free(cl_hist_race *r)
{
    for (int s = 0; s < 2; s++) {
        free(r->log[s]);
        r->log[s] = NULL;
        r->nlog[s] = 0;
    }
}

void cl_hist_race_log(cl_hist_race *r, int slot, uint32_t at_ms, pz_move mv)
{
    if (slot < 0 || slot > 1)
        return;
    uint32_t n = r->nlog[slot];
    /* Grow at powers of two. */
    if ((n & (n - 1)) == 0)
        r->log[slot] = mr_realloc(r->log[slot], n ? (size_t)n * 2 : 16, sizeof *r->log[slot]);
    r->log[slot][n].at_ms = at_ms;
    r->log[slot][n].mv = mv;
    r->nlog[slot] = n + 1;
}

uint64_t cl_hist_race_best_ms(const cl_hist_race *r)
{
    if (r->winner < 0 || r->winner > 1 || !r->solved[r->winner])
        return 0;
    return r->time_ms[r->winner];
}

static void copy_race(cl_hist_race *dst, const cl_hist_race *src)
{
    *dst = *src;
    for (int s = 0; s < 2; s++) {
        dst->log[s] = NULL;
        if (src->nlog[s]) {
            dst->log[s] = mr_alloc(src->nlog[s], sizeof *src->log[s]);
            memcpy(dst->log[s], src->log[s], src->nlog[s] * sizeof *src->log[s]);
        }
    }
}

/* Worker: the file failed; say why once and stop using it. */
static void fail(cl_history *h, const char *why)
{
    h->failed = true;
    hdb_close(h->db);
    h->db = NULL;
    if (!why[0])
        return;
    pthread_mutex_lock(&h->lock);
    snprintf(h->problem, sizeof h->problem, "History off: %s", why);
    h->problem_new = true;
    pthread_mutex_unlock(&h->lock);
}

static void run(cl_history *h, job *j)
{
    char err[512] = "";
    const char *why = NULL;
    switch (j->type) {
    case J_ADD:
        if (!h->failed)
            why = hdb_add(h->db, &j->race, err, sizeof err);
        cl_hist_race_free(&j->race);
        break;
    case J_PAGE: {
        cl_hist_page *p = mr_alloc(1, sizeof *p);
        if (!h->failed) {
            why = hdb_page(h->db, j->before, j->count, p, err, sizeof err);
            p->ok = !why;
        }
        p->before_id = j->before;
        pthread_mutex_lock(&h->lock);
        free(h->page);
        h->page = p;
        h->page_ticket = j->ticket;
        pthread_mutex_unlock(&h->lock);
        break;
    }
    case J_BESTS: {
        cl_hist_bests b;
        memset(&b, 0, sizeof b);
        if (!h->failed) {
            why = hdb_bests(h->db, j->game_id, &j->params, j->name, &b, err, sizeof err);
            b.ok = !why;
        }
        pthread_mutex_lock(&h->lock);
        h->bests = b;
        h->bests_ticket = j->ticket;
        pthread_mutex_unlock(&h->lock);
        break;
    }
    case J_RACE: {
        cl_hist_race r;
        memset(&r, 0, sizeof r);
        if (!h->failed)
            why = hdb_race(h->db, j->id, &r, err, sizeof err);
        pthread_mutex_lock(&h->lock);
        cl_hist_race_free(&h->race);
        h->race = r;
        h->race_ticket = j->ticket;
        pthread_mutex_unlock(&h->lock);
        break;
    }
    case J_TABLE: {
        cl_hist_table *t = mr_alloc(1, sizeof *t);
        if (!h->failed) {
            why = hdb_table(h->db, j->name, t, err, sizeof err);
            t->ok = !why;
        }
        pthread_mutex_lock(&h->lock);
        free(h->table);
        h->table = t;
        h->table_ticket = j->ticket;
        pthread_mutex_unlock(&h->lock);
        break;
    }
    default:
        break;
    }
    if (why)
        fail(h, why);
}

static void *worker(void *arg)
{
    cl_history *h = arg;
    char err[512] = "";
    bool ro = false;
    h->db = hdb_open(h->path, h->read_only, &ro, err, sizeof err);
    if (!h->db) {
        fail(h, err);
    } else if (ro && !h->read_only) {
        pthread_mutex_lock(&h->lock);
        h->read_only = true;
        snprintf(h->problem, sizeof h->problem,
                 "The history file is read-only: races are not recorded (%.120s)", h->path);
        h->problem_new = true;
        pthread_mutex_unlock(&h->lock);
    }
    pthread_mutex_lock(&h->lock);
    for (;;) {
        while (!h->head && !h->stop) {
            h->busy = false;
            pthread_cond_broadcast(&h->idle);
            pthread_cond_wait(&h->wake, &h->lock);
        }
        if (!h->head)
            break;
        job *j = h->head;
        h->head = j->next;
        if (!h->head)
            h->tail = NULL;
        h->queued--;
        h->busy = true;
        bool drop = j->type == J_ADD && h->read_only;
        pthread_mutex_unlock(&h->lock);
        if (drop)
            cl_hist_race_free(&j->race);
        else
            run(h, j);
        free(j);
        pthread_mutex_lock(&h->lock);
    }
    h->busy = false;
    pthread_cond_broadcast(&h->idle);
    pthread_mutex_unlock(&h->lock);
    hdb_close(h->db);
    h->db = NULL;
    return NULL;
}

cl_history *cl_history_create(const char *path, bool read_only)
{
    cl_history *h = mr_alloc(1, sizeof *h);
    snprintf(h->path, sizeof h->path, "%s", path ? path : "");
    h->read_only = read_only;
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->wake, NULL);
    pthread_cond_init(&h->idle, NULL);
    h->busy = true; /* opening */
    if (pthread_create(&h->thread, NULL, worker, h) != 0) {
        /* No thread: no history, said once; every ask answers empty. */
        h->failed = true;
        h->busy = false;
        h->stop = true;
        snprintf(h->problem, sizeof h->problem, "History off: cannot start its thread");
        h->problem_new = true;
    }
    return h;
}

void cl_history_destroy(cl_history *h)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->lock);
    bool started = !h->stop;
    h->stop = true;
    pthread_cond_signal(&h->wake);
    pthread_mutex_unlock(&h->lock);
    if (started)
        pthread_join(h->thread, NULL);
    for (job *j = h->head, *n; j; j = n) {
        n = j->next;
        cl_hist_race_free(&j->race);
        free(j);
    }
    free(h->page);
    free(h->table);
    cl_hist_race_free(&h->race);
    pthread_cond_destroy(&h->idle);
    pthread_cond_destroy(&h->wake);
    pthread_mutex_destroy(&h->lock);
    free(h);
}

bool cl_history_problem(cl_history *h, char *buf, size_t len)
{
    if (!h)
        return false;
    pthread_mutex_lock(&h->lock);
    bool news = h->problem_new;
    if (news)
        snprintf(buf, len, "%s", h->problem);
    h->problem_new = false;
    pthread_mutex_unlock(&h->lock);
    return news;
}

void cl_history_flush(cl_history *h)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->lock);
    while ((h->head || h->busy) && !h->stop)
        pthread_cond_wait(&h->idle, &h->lock);
    pthread_mutex_unlock(&h->lock);
}

void cl_history_set_sync(cl_history *h, bool sync)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->lock);
    h->sync = sync;
    pthread_mutex_unlock(&h->lock);
}

/* Queues j (taken over) and returns its ticket; 0 if the worker is gone. */
static uint32_t enqueue(cl_history *h, job *j)
{
    pthread_mutex_lock(&h->lock);
    if (h->stop || (j->type == J_ADD && h->queued >= MAX_QUEUED)) {
        if (!h->stop && !h->problem_new) {
            snprintf(h->problem, sizeof h->problem, "History: the disk is too slow; a race was not recorded");
            h->problem_new = true;
        }
        pthread_mutex_unlock(&h->lock);
        cl_hist_race_free(&j->race);
        free(j);
        return 0;
    }
    j->ticket = ++h->next_ticket;
    if (h->tail)
        h->tail->next = j;
    else
        h->head = j;
    h->tail = j;
    h->queued++;
    uint32_t t = j->ticket;
    pthread_cond_signal(&h->wake);
    while (h->sync && (h->head || h->busy) && !h->stop)
        pthread_cond_wait(&h->idle, &h->lock);
    pthread_mutex_unlock(&h->lock);
    return t;
}

void cl_history_add(cl_history *h, const cl_hist_race *r)
{
    if (!h)
        return;
    job *j = mr_alloc(1, sizeof *j);
    j->type = J_ADD;
    copy_race(&j->race, r);
    enqueue(h, j);
}

uint32_t cl_history_ask_page(cl_history *h, int64_t before_id, int count)
{
    if (!h)
        return 0;
    job *j = mr_alloc(1, sizeof *j);
    j->type = J_PAGE;
    j->before = before_id < 0 ? 0 : before_id;
    j->count = count < 1 ? 1 : count > CL_HIST_PAGE_MAX ? CL_HIST_PAGE_MAX : count;
    return enqueue(h, j);
}

bool cl_history_page(cl_history *h, uint32_t ticket, cl_hist_page *out)
{
    if (!h || !ticket)
        return false;
    pthread_mutex_lock(&h->lock);
    bool in = h->page_ticket == ticket && h->page;
    if (in)
        *out = *h->page;
    pthread_mutex_unlock(&h->lock);
    return in;
}

uint32_t cl_history_ask_bests(cl_history *h, const char *game_id, const pz_params *p, const char *name)
{
    if (!h)
        return 0;
    job *j = mr_alloc(1, sizeof *j);
    j->type = J_BESTS;
    snprintf(j->game_id, sizeof j->game_id, "%s", game_id ? game_id : "");
    if (p)
        j->params = *p;
    snprintf(j->name, sizeof j->name, "%s", name ? name : "");
    return enqueue(h, j);
}

bool cl_history_bests(cl_history *h, uint32_t ticket, cl_hist_bests *out)
{
    if (!h || !ticket)
        return false;
    pthread_mutex_lock(&h->lock);
    bool in = h->bests_ticket == ticket;
    if (in)
        *out = h->bests;
    pthread_mutex_unlock(&h->lock);
    return in;
}

uint32_t cl_history_ask_table(cl_history *h, const char *name)
{
    if (!h)
        return 0;
    job *j = mr_alloc(1, sizeof *j);
    j->type = J_TABLE;
    snprintf(j->name, sizeof j->name, "%s", name ? name : "");
    return enqueue(h, j);
}

bool cl_history_table(cl_history *h, uint32_t ticket, cl_hist_table *out)
{
    if (!h || !ticket)
        return false;
    pthread_mutex_lock(&h->lock);
    bool in = h->table_ticket == ticket && h->table;
    if (in)
        *out = *h->table;
    pthread_mutex_unlock(&h->lock);
    return in;
}

uint32_t cl_history_ask_race(cl_history *h, int64_t id)
{
    if (!h)
        return 0;
    job *j = mr_alloc(1, sizeof *j);
    j->type = J_RACE;
    j->id = id;
    return enqueue(h, j);
}

bool cl_history_race(cl_history *h, uint32_t ticket, cl_hist_race *out)
{
    if (!h || !ticket)
        return false;
    pthread_mutex_lock(&h->lock);
    bool in = h->race_ticket == ticket;
    if (in) {
        *out = h->race;
        memset(&h->race, 0, sizeof h->race); /* the logs go to the caller */
        h->race_ticket = 0;
    }
    pthread_mutex_unlock(&h->lock);
    return in;
}
