/* svc_coord.h: mazerace-server's public listing (--coordinator HOST:PORT --public): SERVER_REGISTER refreshed
 * from the game loop over its own non-blocking UDP socket (docs/coordinator.md). */
#ifndef MR_SVC_COORD_H
#define MR_SVC_COORD_H
#include <stdint.h>

#include "sv_log.h"

typedef struct svc_coord svc_coord;

/* Resolves HOST (once, here, before the loop) and opens the socket. NULL
 * with *err (static) on a bad address or no socket. Caller stops it. */
svc_coord *svc_coord_start(const char *hostport, uint16_t game_port, const char *name, const sv_log *lg,
                           const char **err);
void svc_coord_stop(svc_coord *c); /* accepts NULL */
/* From the game loop, every step: sends the listing when due (at once,
 * then every SERVER_OK interval, retried after 2 s while unanswered), reads
 * answers; never blocks. */
void svc_coord_step(svc_coord *c, uint64_t now_ms, int players, int rooms, int capacity);
#endif
