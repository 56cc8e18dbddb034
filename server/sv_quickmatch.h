/* sv_quickmatch.h: quick match (docs/racing.md): pairing players as they arrive (sv_quick.h). */
#ifndef MR_SV_QUICKMATCH_H
#define MR_SV_QUICKMATCH_H

#include <stdbool.h>

#include "sv_quick.h"
#include "sv_quickmatch_types.h"

typedef struct sv sv_t;
typedef struct sv_client sv_client;
struct sv_gen_job;
struct sv_room;

/* QUICK_MATCH from c. */
void sv_quickmatch_receive(sv_t *sv, sv_client *c);
/* Queues a room quick match may fill, or takes it out of the queue when
 * it no longer can be. */
void sv_quickmatch_offer(sv_t *sv, struct sv_room *room);
/* The room is closing: out of the queue. */
void sv_quickmatch_unlist(sv_t *sv, struct sv_room *room);
/* A job is finished or dropped: out of the queue. */
void sv_quickmatch_unlist_job(sv_t *sv, struct sv_gen_job *j);
/* The client a room job is made for, if it is still waiting for it. */
sv_client *sv_quickmatch_job_owner(sv_t *sv, const struct sv_gen_job *j);
/* Unpairs j from the opponent waiting for its room; returns that client. */
sv_client *sv_quickmatch_partner(sv_t *sv, struct sv_gen_job *j);
/* Forgets c's room request (LEAVE, disconnect); a player left alone by it
 * goes back to the queue. */
void sv_quickmatch_cancel(sv_t *sv, sv_client *c);

#endif
