/* sv_drain.h: draining (SIGTERM): no new rooms or races, stop once the races end or at a deadline. */
#ifndef MR_SV_DRAIN_H
#define MR_SV_DRAIN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct sv sv_t;

/* sv->drain. */
typedef struct sv_drain {
    atomic_int want;        /* sv_request_drain, from any thread */
    bool on;                /* refusing new rooms and races (sv_game.c: ERROR DRAINING) */
    uint64_t deadline_ms;   /* when the races still running are cut */
    uint64_t next_check_ms; /* the next walk over the rooms */
} sv_drain;

/* One step of a drain (while sv_draining, sv.h): starts it; true when the
 * server should stop now, because no race runs or the deadline has come
 * (the races still running are cut and their players told). */
bool sv_drain_step(sv_t *sv);

#endif
