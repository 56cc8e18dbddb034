/* sv_query.h: clients' questions about stored matches (docs/protocol.md, "Match records"). */
#ifndef MR_SV_QUERY_H
#define MR_SV_QUERY_H

#include <stdint.h>

#include "sv_query_types.h"
#include "wire.h"

typedef struct sv sv_t;
typedef struct sv_client sv_client;

/* REPLAY_REQUEST, RECENT_REQUEST, BEST_REQUEST from a welcomed client. */
void sv_query_receive(sv_t *sv, sv_client *c, const wire_msg *in);
/* Sends the answers the store's thread has finished. Once per step. */
void sv_query_poll(sv_t *sv);
void sv_query_free(sv_t *sv);

#endif
