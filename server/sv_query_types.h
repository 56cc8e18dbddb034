/* sv_query_types.h: record questions' state (sv->query, c->query; sv_query.h). Data only. */
#ifndef MR_SV_QUERY_TYPES_H
#define MR_SV_QUERY_TYPES_H

#include <stdint.h>

struct sv_replay_cache;

#define SV_QUERIES_PER_CLIENT 4 /* in flight; one more is answered BUSY */

/* sv->query. */
typedef struct sv_queries {
    struct sv_replay_cache *replays; /* replay texts being fetched, or NULL */
    int in_flight;                   /* questions handed to the store, not yet answered */
} sv_queries;

/* c->query. */
typedef struct sv_query_client {
    uint8_t in_flight; /* its questions to the match store not yet answered */
} sv_query_client;

#endif
