/* cl_sfx.h: which sound a race calls for, from the race's own state each
 * frame: countdown seconds, the start, the opponent's milestones, the end. */
#ifndef CL_SFX_H
#define CL_SFX_H

#include <stdint.h>

#include "cl_audio.h"
#include "cl_race.h"

/* What was already played for the race under way. Zeroed: nothing yet. */
typedef struct cl_sfx_cues {
    const void *pz;
    uint64_t start_ms;
    int count;     /* countdown second last ticked, 0 none */
    bool go;       /* the start was sounded (or passed) */
    int first_rem; /* the opponent's measure when first known, -1 unknown */
    int milestone; /* quarters of it the opponent has covered, as sounded */
    bool finished;
} cl_sfx_cues;

/* Plays what changed since the last call. my_slot is the local player's
 * (ignored with hotseat or watching, where no one is "you": the end is a
 * win sound and no milestones sound, both boards being in view). The
 * opponent's milestones are a quarter, a half and three quarters of the
 * way by the measure players see (cl_measure.h), never the solver's. */
void cl_sfx_watch(cl_audio *au, cl_sfx_cues *c, const cl_race *r, int my_slot, bool shared, uint64_t now);

#endif
