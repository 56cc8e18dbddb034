/* sv_gen.h: puzzle generation on worker threads, off the game loop, with a bounded queue. */
#ifndef MR_SV_GEN_H
#define MR_SV_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "match.h"
#include "puzzle.h"
#include "wire.h"

/* Two lanes, one thread each: small jobs (estimated under SV_GEN_BIG_MS of
 * CPU) and big ones, so that a queue of 1000x1000 mazes never holds up a
 * player's 21x15 room. Both threads run at a lower priority (nice) than the
 * game loop. The game loop submits jobs and polls finished ones; a job is
 * owned by the queue from submit until poll returns it. */
#define SV_GEN_BIG_MS 20

enum sv_gen_what {
    SV_GEN_ROOM, /* a match for a new room (CREATE_ROOM, QUICK_MATCH) */
    SV_GEN_NEXT, /* a puzzle for a room's next game (rematch, new series) */
};

typedef struct sv_gen_job {
    /* in */
    int what;        /* enum sv_gen_what */
    int client;      /* SV_GEN_ROOM: index in sv->clients */
    uint32_t owner;  /* SV_GEN_ROOM: that client's id when it asked */
    uint32_t ip;     /* the address charged for it (network order) */
    int room;        /* SV_GEN_NEXT: room index */
    uint32_t serial; /* SV_GEN_NEXT: that room's serial when it asked */
    bool quick;
    /* quick match, the game loop's only (the workers never read them): the
     * entry naming it in the quick-match queue while its owner waits alone
     * (0 = none), and the opponent paired with it (client index + 1, 0 =
     * none; partner_id: that client's id). */
    int quick_at;
    int partner;
    uint32_t partner_id;
    struct sv_gen_job *defer_next;        /* quick match: next job waiting for room in the queue */
    char reserve[WIRE_ROOM_CODE_LEN + 1]; /* SV_GEN_ROOM for sv_reserve_room: the code; "" otherwise */
    int reserve_ms;                       /* ...and how long it waits for its players */
    char *game_id;                        /* SV_GEN_ROOM by ID: malloc'd, freed with the job */
    pz_params params;
    uint64_t seed;
    uint64_t rng_init;
    match_config mc;
    uint64_t est_us;  /* estimated CPU (charged up front) */
    size_t est_bytes; /* estimated puzzle memory (reserved up front) */
    /* out */
    match *m;        /* SV_GEN_ROOM */
    pz_puzzle *pz;   /* SV_GEN_NEXT */
    uint64_t cpu_us; /* CPU the worker spent */
    bool displaced;  /* never made: gave its place to another address's job (err says BUSY) */
    char err[200];   /* when m / pz is NULL */
    struct sv_gen_job *next;
} sv_gen_job;

typedef struct sv_gen sv_gen;

/* Starts the two threads; NULL if they cannot be started. queue_max bounds
 * the jobs queued or running. */
sv_gen *sv_gen_create(int queue_max);
/* Stops the threads (after the jobs they are running) and frees every job. Accepts NULL. */
void sv_gen_destroy(sv_gen *g);
/* A zeroed job (mr_alloc); sv_gen_job_free frees it and whatever it holds. */
sv_gen_job *sv_gen_job_new(void);
void sv_gen_job_free(sv_gen_job *j);
/* Queues j (taken over) and returns true, or false if queue_max jobs are
 * already queued or running (j stays the caller's). Big jobs take at most
 * three quarters of queue_max (the rest is the small lane's share). When
 * the queue (or the big lane's part) is full, a room request (SV_GEN_ROOM,
 * not quick, not reserved) takes the place of the newest queued room
 * request of the address with the most jobs, if that address has more
 * than j's: that job comes out of sv_gen_poll unmade, displaced set. */
bool sv_gen_submit(sv_gen *g, sv_gen_job *j);
/* A finished job (the caller's now), or NULL. Never blocks. */
sv_gen_job *sv_gen_poll(sv_gen *g);
/* Jobs queued or running. */
int sv_gen_pending(sv_gen *g);
/* Estimated CPU microseconds to generate p (from cells; see docs/reliability.md). */
uint64_t sv_gen_estimate_us(const pz_params *p);
/* Estimated bytes a puzzle of p and its two states hold. */
size_t sv_gen_estimate_bytes(const pz_params *p);

#endif
