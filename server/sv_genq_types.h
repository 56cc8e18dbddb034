/* sv_genq_types.h: the generation queue's state (sv->genq, c->gen; sv_genq.h). Data only. */
#ifndef MR_SV_GENQ_TYPES_H
#define MR_SV_GENQ_TYPES_H

#include <stddef.h>

#include "sv_limit_types.h"

struct sv_gen;
struct sv_gen_job;

/* sv->genq. */
typedef struct sv_genq {
    struct sv_gen *gen; /* the worker threads and their queue */
    /* Quick-match jobs admitted while the queue was full, oldest first:
     * submitted as it frees up (sv_gendone_poll). */
    struct sv_gen_job *defer_head, *defer_tail;
    int defer_n;
    size_t puzzle_bytes; /* estimated: rooms and jobs in flight */
} sv_genq;

/* c->gen. */
typedef struct sv_genq_client {
    sv_budget budget;       /* generation CPU budget */
    struct sv_gen_job *job; /* its CREATE_ROOM / QUICK_MATCH being generated, or NULL */
} sv_genq_client;

#endif
