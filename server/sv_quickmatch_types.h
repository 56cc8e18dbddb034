/* sv_quickmatch_types.h: quick match's state (sv->quick, c->quick; sv_quickmatch.h). Data only. */
#ifndef MR_SV_QUICKMATCH_TYPES_H
#define MR_SV_QUICKMATCH_TYPES_H

#include <stdbool.h>

struct sv_quick;
struct sv_gen_job;

/* sv->quick. */
typedef struct sv_quickmatch {
    struct sv_quick *q; /* players waiting alone for a quick-match opponent */
} sv_quickmatch;

/* c->quick. */
typedef struct sv_quickmatch_client {
    bool waiting;           /* seated in the quick-match room being generated when it opens */
    struct sv_gen_job *job; /* with waiting: the job of that room (another client's gen.job) */
} sv_quickmatch_client;

#endif
