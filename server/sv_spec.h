/* sv_spec.h: spectators (docs/protocol.md, "Spectators"): watching a room, batched sends, the rooms list. */
#ifndef MR_SV_SPEC_H
#define MR_SV_SPEC_H

#include <enet/enet.h>
#include <stdbool.h>
#include <stdint.h>

#include "sv_spec_types.h"
#include "wire.h"

typedef struct sv sv_t;
typedef struct sv_client sv_client;
struct sv_room;

/* When a spectator limit is reached: c gets ERROR WATCH_FULL (counted, logged), true. */
bool sv_spec_refuse_full(sv_t *sv, sv_client *c, const struct sv_room *room);
/* Makes c (in no room) a spectator of room, or tells it why not. */
void sv_spec_watch(sv_t *sv, sv_client *c, struct sv_room *room);
/* LIST_ROOMS. */
void sv_spec_list(sv_t *sv, sv_client *c);
/* Stops c watching (leave, disconnect); the room's count changes. */
void sv_spec_leave(sv_t *sv, sv_client *c);
/* WATCH_START of the room's current game to every spectator. */
void sv_spec_match_start(sv_t *sv, struct sv_room *room);
/* The room is closing: its spectators get WATCH_END and watch nothing. */
void sv_spec_room_closed(sv_t *sv, struct sv_room *room);
/* Frees the queue (and drops what is in it) and the rooms list. */
void sv_spec_free(sv_t *sv);
/* Rooms in countdown or racing (cached up to a second), for discovery. */
int sv_spec_races(sv_t *sv);

#endif
