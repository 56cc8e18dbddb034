/* sv_link.h: how the loop reaches a client: a game-host peer, or a spectator-host connection. */
#ifndef MR_SV_LINK_H
#define MR_SV_LINK_H

#include <stdbool.h>
#include <stddef.h>

#include "sv_internal.h"

static inline bool sv_link_up(const sv_client *c)
{
    return c->peer || c->sph_gen;
}
/* Binds the spectator port as cfg.spectator_port says; false (with *err)
 * only when an explicit port cannot be bound. Sets sv->sph. */
bool sv_link_open(sv_t *sv, const char **err);
/* Bytes to a client of the spectator host. */
void sv_link_send(sv_t *sv, sv_client *c, const void *data, size_t len);
/* Disconnect once its queued messages are out. */
void sv_link_close_later(sv_t *sv, sv_client *c);
/* One unreliable disconnect now; the link is gone (no event follows). */
void sv_link_drop_now(sv_t *sv, sv_client *c);
/* c said HELLO (the spectator host's half-open count). */
void sv_link_welcomed(sv_t *sv, sv_client *c);
/* End of a step: the spectator host's commands go to its thread. */
void sv_link_commit(sv_t *sv);
void sv_link_close(sv_t *sv);

#endif
