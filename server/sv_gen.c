/* sv_gen.c: the generation lanes: a mutex, a condition variable, FIFO queues in and one queue out. */
#define _GNU_SOURCE
#include "sv_gen.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "worker.h"
#include "util.h"

#define SV_GEN_NICE 5 /* the game loop goes first */

enum { LANE_SMALL, LANE_BIG, LANES };

typedef struct lane {
    sv_gen_job *head, *tail;
    sv_gen_job *running; /* the job its worker is making, or NULL */
    int n;               /* jobs queued or running in it */
    pthread_t thread;
    bool started;
} lane;

typedef struct worker_arg {
    struct sv_gen *g;
    int lane;
} worker_arg;

struct sv_gen {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    lane lanes[LANES];
    sv_gen_job *done_head, *done_tail;
    /* Written under mu, read without it: the game loop looks at them every
     * step and takes the lock only when a job has finished. */
    atomic_int ndone, pending;
    int queue_max;
    bool stop;
    worker_arg args[LANES];
};

static void push(sv_gen_job **head, sv_gen_job **tail, sv_gen_job *j)
{
    j->next = NULL;
    if (*tail)
        (*tail)->next = j;
    else
        *head = j;
    *tail = j;
}

static sv_gen_job *pop(sv_gen_job **head, sv_gen_job **tail)
{
    sv_gen_job *j = *head;
    if (j) {
        *head = j->next;
        if (!*head)
            *tail = NULL;
        j->next = NULL;
    }
    return j;
}

static uint64_t thread_cpu_us(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The work itself: pure functions of the job's inputs (generators, the
 * game-ID parser and the match constructor share no state). */
static void run(sv_gen_job *j)
{
    uint64_t t0 = thread_cpu_us();
    if (j->what == SV_GEN_ROOM && j->game_id) {
        j->m = match_create_from_id(j->game_id, &j->mc, j->rng_init, j->err, sizeof j->err);
    } else if (j->what == SV_GEN_ROOM) {
        const char *e = NULL;
        j->m = match_create(&j->params, j->seed, &j->mc, j->rng_init, &e);
        if (!j->m)
            snprintf(j->err, sizeof j->err, "%s", e ? e : "cannot make that puzzle");
    } else {
        const pz_kind *k = pz_kind_by_id(j->params.kind);
        const char *e = NULL;
        j->pz = k && k->generate ? k->generate(&j->params, j->seed, &e) : NULL;
        if (!j->pz)
            snprintf(j->err, sizeof j->err, "%s", e ? e : "could not generate a new puzzle");
    }
    j->cpu_us = thread_cpu_us() - t0;
}

static void *worker(void *p)
{
    worker_arg *a = p;
    sv_gen *g = a->g;
    lane *l = &g->lanes[a->lane];
    setpriority(PRIO_PROCESS, (id_t)gettid(), SV_GEN_NICE);
    pthread_mutex_lock(&g->mu);
    for (;;) {
        while (!g->stop && !l->head)
            pthread_cond_wait(&g->cv, &g->mu);
        if (g->stop)
            break;
        sv_gen_job *j = pop(&l->head, &l->tail);
        l->running = j;
        pthread_mutex_unlock(&g->mu);
        run(j);
        pthread_mutex_lock(&g->mu);
        l->running = NULL;
        l->n--;
        push(&g->done_head, &g->done_tail, j);
        atomic_fetch_add(&g->ndone, 1);
    }
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

sv_gen *sv_gen_create(int queue_max)
{
    sv_gen *g = mr_alloc(1, sizeof *g);
    g->queue_max = queue_max > 0 ? queue_max : 1;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    for (int i = 0; i < LANES; i++) {
        worker_arg *a = &g->args[i];
        a->g = g;
        a->lane = i;
        if (pthread_create(&g->lanes[i].thread, NULL, worker, a) != 0) {
            sv_gen_destroy(g);
            return NULL;
        }
        g->lanes[i].started = true;
    }
    return g;
}

static void free_list(sv_gen_job *j)
{
    while (j) {
        sv_gen_job *next = j->next;
        sv_gen_job_free(j);
        j = next;
    }
}

void sv_gen_destroy(sv_gen *g)
{
    if (!g)
        return;
    mr_worker_tell_stop(&g->mu, &g->cv, &g->stop);
    for (int i = 0; i < LANES; i++)
        if (g->lanes[i].started)
            pthread_join(g->lanes[i].thread, NULL);
    for (int i = 0; i < LANES; i++)
        free_list(g->lanes[i].head);
    free_list(g->done_head);
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

sv_gen_job *sv_gen_job_new(void)
{
    return mr_alloc(1, sizeof(sv_gen_job));
}

void sv_gen_job_free(sv_gen_job *j)
{
    if (!j)
        return;
    free(j->game_id);
    match_destroy(j->m);
    if (j->pz)
        pz_kind_of(j->pz)->free_puzzle(j->pz);
    free(j);
}

static int lane_of(const sv_gen_job *j)
{
    return j->est_us >= SV_GEN_BIG_MS * 1000u ? LANE_BIG : LANE_SMALL;
}

/* The places the big lane may take: all but the small lane's share. */
static int big_max(const sv_gen *g)
{
    int share = g->queue_max / 4 > 0 ? g->queue_max / 4 : 1;
    return g->queue_max > share ? g->queue_max - share : 1;
}

static bool displaceable(const sv_gen_job *j)
{
    return j->what == SV_GEN_ROOM && !j->reserve[0] && !j->quick;
}

static int cmp_ip(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* How many of the n sorted ips are ip. */
static int count_ip(const uint32_t *ips, int n, uint32_t ip)
{
    int lo = 0, hi = n;
    while (lo < hi) { /* the first >= ip */
        int mid = lo + (hi - lo) / 2;
        if (ips[mid] < ip)
            lo = mid + 1;
        else
            hi = mid;
    }
    int k = lo;
    while (k < n && ips[k] == ip)
        k++;
    return k - lo;
}

/* The job to give way to j when the queue is full: the newest queued
 * (not running) room request of the address with the most jobs queued or
 * running, if that is more than j's address has (from lane only, or from
 * either when only is LANES). Unlinked from its lane; NULL if none. */
static sv_gen_job *displace(sv_gen *g, const sv_gen_job *j, int only)
{
    uint32_t *ips = mr_alloc((size_t)(g->lanes[LANE_SMALL].n + g->lanes[LANE_BIG].n) + LANES, sizeof *ips);
    int n = 0;
    for (int i = 0; i < LANES; i++) {
        const lane *l = &g->lanes[i];
        if (l->running)
            ips[n++] = l->running->ip;
        for (const sv_gen_job *q = l->head; q; q = q->next)
            ips[n++] = q->ip;
    }
    qsort(ips, (size_t)n, sizeof *ips, cmp_ip);
    int most = count_ip(ips, n, j->ip);
    sv_gen_job *victim = NULL;
    lane *from = NULL;
    for (int i = 0; i < LANES; i++) {
        if (only != LANES && i != only)
            continue;
        for (sv_gen_job *q = g->lanes[i].head; q; q = q->next) { /* oldest to newest */
            if (!displaceable(q))
                continue;
            if (victim && q->ip == victim->ip) {
                victim = q;
                from = &g->lanes[i];
                continue;
            }
            int c = count_ip(ips, n, q->ip);
            if (c > most) {
                most = c;
                victim = q;
                from = &g->lanes[i];
            }
        }
    }
    free(ips);
    if (!victim)
        return NULL;
    sv_gen_job **pp = &from->head, *prev = NULL;
    while (*pp != victim) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    *pp = victim->next;
    if (from->tail == victim)
        from->tail = prev;
    victim->next = NULL;
    from->n--;
    return victim;
}

bool sv_gen_submit(sv_gen *g, sv_gen_job *j)
{
    pthread_mutex_lock(&g->mu);
    int li = lane_of(j);
    lane *l = &g->lanes[li];
    /* Finished jobs waiting for sv_gen_poll hold no place. */
    int queued = g->lanes[LANE_SMALL].n + g->lanes[LANE_BIG].n;
    bool ok = queued < g->queue_max && (li == LANE_SMALL || l->n < big_max(g));
    if (!ok && displaceable(j)) {
        /* Full (or the big lane at its share): a newcomer takes the place
         * of the newest queued job of a heavier address, which finishes at
         * once, unmade, as "displaced" (docs/reliability.md, section 2). */
        sv_gen_job *v = displace(g, j, li == LANE_BIG && l->n >= big_max(g) ? LANE_BIG : LANES);
        if (v) {
            v->displaced = true;
            snprintf(v->err, sizeof v->err, "server busy making puzzles: try again in a few seconds");
            push(&g->done_head, &g->done_tail, v);
            atomic_fetch_add(&g->ndone, 1);
            ok = true;
        }
    }
    if (ok) {
        push(&l->head, &l->tail, j);
        l->n++;
        atomic_fetch_add(&g->pending, 1);
        pthread_cond_broadcast(&g->cv);
    }
    pthread_mutex_unlock(&g->mu);
    return ok;
}

sv_gen_job *sv_gen_poll(sv_gen *g)
{
    /* Most steps find nothing: no lock then. A job finished just after
     * this look is taken at the next step. */
    if (atomic_load(&g->ndone) == 0)
        return NULL;
    pthread_mutex_lock(&g->mu);
    sv_gen_job *j = pop(&g->done_head, &g->done_tail);
    if (j) {
        atomic_fetch_sub(&g->ndone, 1);
        atomic_fetch_sub(&g->pending, 1);
    }
    pthread_mutex_unlock(&g->mu);
    return j;
}

int sv_gen_pending(sv_gen *g)
{
    return atomic_load(&g->pending);
}

static uint64_t cells_of(const pz_params *p)
{
    const pz_kind *k = pz_kind_by_id(p->kind);
    int w = p->w, h = p->h;
    if (k && w == 0 && h == 0) {
        w = k->default_w;
        h = k->default_h;
    }
    return (uint64_t)(w > 0 ? w : 1) * (uint64_t)(h > 0 ? h : 1);
}

uint64_t sv_gen_estimate_us(const pz_params *p)
{
    /* Measured on the reference machine (docs/reliability.md): a
     * 1000x1000 maze takes about 0.2 s, i.e. 0.2 us a cell; other kinds are
     * far smaller and their searches cost more per cell. A floor of 1 ms
     * covers the fixed work (game ID, description hash). */
    uint64_t cells = cells_of(p);
    uint64_t per_cell_ns = p->kind == PZ_MAZE ? 250 : 2000;
    return 1000 + cells * per_cell_ns * (uint64_t)(p->diff + 1) / 1000;
}

size_t sv_gen_estimate_bytes(const pz_params *p)
{
    /* The puzzle, the two players' states and the description hash's
     * scratch, rounded up: a 1000x1000 maze holds about 1 MB. */
    uint64_t cells = cells_of(p);
    return (size_t)(4096 + cells * (p->kind == PZ_MAZE ? 2 : 16));
}
