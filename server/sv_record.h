/* sv_record.h: match records (docs/server.md, "Database"): finished games to the store's thread. */
#ifndef MR_SV_RECORD_H
#define MR_SV_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "sv_record_types.h"

typedef struct sv sv_t;
struct sv_room;

/* At a countdown: keeps the names and the wall-clock start of the race. */
void sv_record_countdown(sv_t *sv, struct sv_room *room);
/* At the end of a game: hands its record to the store's thread. */
void sv_record_finished(sv_t *sv, struct sv_room *room);
/* Logs what the store's thread could not store (record_failed,
 * record_spooled, record_spool_sent); from the housekeeping tick. */
void sv_record_poll(sv_t *sv);

#endif
