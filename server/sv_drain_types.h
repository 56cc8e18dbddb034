/* sv_drain_types.h: draining's state (sv->drain, sv_drain.h). Data only. */
#ifndef MR_SV_DRAIN_TYPES_H
#define MR_SV_DRAIN_TYPES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* sv->drain. */
typedef struct sv_drain {
    atomic_int want;        /* sv_request_drain, from any thread */
    bool on;                /* refusing new rooms and races (sv_game.c: ERROR DRAINING) */
    uint64_t deadline_ms;   /* when the races still running are cut */
    uint64_t next_check_ms; /* the next walk over the rooms */
} sv_drain;

#endif
