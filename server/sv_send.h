/* sv_send.h: sending to a client: encode, queue on its link, the progress hold's rule, errors (closing a
 * client is sv_game.c's: it leaves its room first). */
#ifndef MR_SV_SEND_H
#define MR_SV_SEND_H

#include <enet/enet.h>
#include <stdbool.h>

#include "wire.h"

typedef struct sv sv_t;
typedef struct sv_client sv_client;

void sv_send(sv_t *sv, sv_client *c, const wire_msg *m);
void sv_send_error(sv_t *sv, sv_client *c, int type, int code, const char *text);

/* Like sv_send, but for the opponent's PROGRESS: for a client that is
 * moving fast (sv_hold_for) the packet is held back (sv_hold.h) until the
 * next packet sv_send queues for that client, or for cfg.progress_hold_ms
 * (sent at the end of the first step after that), whichever comes first;
 * for any other client it goes at once, as with sv_send. A client's
 * packets still arrive in the order they were queued. */
void sv_send_late(sv_t *sv, sv_client *c, const wire_msg *m);
/* End of a step: the held-back packets whose hold ran out leave. */
void sv_send_held_due(sv_t *sv);

#endif
