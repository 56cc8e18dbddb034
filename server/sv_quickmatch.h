/* sv_quickmatch.h: quick match (docs/racing.md): pairing players as they arrive (sv_quick.h); the rooms
 * in its queue are sv_play.h's. */
#ifndef MR_SV_QUICKMATCH_H
#define MR_SV_QUICKMATCH_H

#include <stdbool.h>

#include "sv_quickmatch_types.h"

typedef struct sv sv_t;
typedef struct sv_client sv_client;
struct sv_gen_job;
struct sv_room;

/* QUICK_MATCH from c. */
void sv_quickmatch_receive(sv_t *sv, sv_client *c);
/* A job is finished or dropped: out of the queue. */
void sv_quickmatch_unlist_job(sv_t *sv, struct sv_gen_job *j);
/* Unpairs j from the opponent waiting for its room; returns that client. */
sv_client *sv_quickmatch_partner(sv_t *sv, struct sv_gen_job *j);
/* Forgets c's room request (LEAVE, disconnect); a player left alone by it
 * goes back to the queue. */
void sv_quickmatch_cancel(sv_t *sv, sv_client *c);

#endif
