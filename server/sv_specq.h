/* sv_specq.h: the spectators' send queue: batched, shared packets, sent after the players' (sv->spec's
 * queue fields, sv_spec_types.h). */
#ifndef MR_SV_SPECQ_H
#define MR_SV_SPECQ_H

#include <stdbool.h>
#include <stdint.h>

#include "wire.h"

typedef struct sv sv_t;
typedef struct sv_client sv_client;
struct sv_room;

/* Every send to a spectator is deferred to the end of the step
 * (sv_specq_flush), after the players' packets have been handed to the
 * socket. */
/* m to every spectator of room (nothing is encoded when there are none). */
void sv_specq_send_room(sv_t *sv, struct sv_room *room, const wire_msg *m);
/* m to one spectator, deferred like the rest. */
void sv_specq_send(sv_t *sv, sv_client *c, const wire_msg *m);
/* End of a step: the spectators whose batch is due (all with now) get
 * it, after a flush of what the players were sent; at most once per
 * SV_SPEC_TICK_MS unless now. */
void sv_specq_flush(sv_t *sv, bool now);
/* When sv_specq_flush has batches to send next (UINT64_MAX: none queued). */
uint64_t sv_specq_next_due(const sv_t *sv);
/* c is gone: its queued items are dropped. */
void sv_specq_discard(sv_t *sv, sv_client *c);
/* Frees the queue (and drops what is in it). */
void sv_specq_free(sv_t *sv);

#endif
