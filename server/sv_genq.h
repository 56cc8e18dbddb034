/* sv_genq.h: the generation queue, game side: requests against the budgets, the jobs deferred
 * for a full queue (the finished jobs are sv_gendone.c's). */
#ifndef MR_SV_GENQ_H
#define MR_SV_GENQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sv_addrs.h"
#include "sv_gen.h"
#include "sv_genq_types.h"

typedef struct sv sv_t;
typedef struct sv_client sv_client;
struct sv_room;

/* A room for c, made on a worker (j taken over): ROOM_STATE follows when
 * it is ready. False after telling c why not (j freed). */
bool sv_genq_request_room(sv_t *sv, sv_client *c, sv_gen_job *j);
/* The engine asks for the room's next puzzle (MATCH_EV_NEED_PUZZLE). */
void sv_genq_next_puzzle(sv_t *sv, struct sv_room *room, uint64_t seed);
/* Gives back a puzzle-memory charge (a room's, or a job's reservation). */
void sv_genq_release_bytes(sv_t *sv, uint32_t ip, size_t bytes, bool room);
/* c's address record, created with a full generation budget; NULL when
 * the table has no room for it (docs: sv_addrs.h). */
sv_addr *sv_genq_addr(sv_t *sv, sv_client *c);
/* The client a room job is made for, if it is still waiting for it. */
sv_client *sv_genq_job_owner(sv_t *sv, const struct sv_gen_job *j);
/* c is refused a room or a puzzle for reason (SV_GEN_REFUSED_*): counted,
 * logged at a bounded rate, and told why (ERROR code). */
void sv_genq_refuse(sv_t *sv, sv_client *c, int reason, int code, const char *why);
/* Frees the deferred jobs (the server is going away). */
void sv_genq_free(sv_t *sv);

#endif
