/* sv_lan.h: LAN discovery answers (the socket is sv_disc.h): probe replies, details, their rate. */
#ifndef MR_SV_LAN_H
#define MR_SV_LAN_H

#include <stdbool.h>
#include <stdint.h>

#include "sv_lan_types.h"

typedef struct sv sv_t;

/* Draws the server id and opens the responder on ip as cfg.discovery_port
 * says (logged when it cannot: the server runs without). */
void sv_lan_open(sv_t *sv, const char *ip);
void sv_lan_close(sv_t *sv);
/* Answers the probes waiting (at most 64); returns how many. Once per step. */
int sv_lan_poll(sv_t *sv);
/* The discovery socket, for the loop's own wait (sv_idle.c); -1 when discovery is off. */
int sv_lan_fd(const sv_t *sv);
/* A room opened, closed or changed phase: the players-waiting count is stale. */
void sv_lan_rooms_changed(sv_t *sv);

#endif
