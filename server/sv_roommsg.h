/* sv_roommsg.h: a room's messages filled from its match (ROOM_STATE, MATCH_START, MATCH_END, MOVE_LOG) and
 * sent to its players; ROOM_STATE to its spectators too. */
#ifndef MR_SV_ROOMMSG_H
#define MR_SV_ROOMMSG_H

#include "match.h"
#include "sv_rooms.h"
#include "wire.h"

typedef struct sv sv_t;
typedef struct sv_client sv_client;

/* Fills m with the ROOM_STATE of room as slot (0, 1 or WIRE_SLOT_WATCHER) sees it. */
void sv_roommsg_fill_room_state(sv_t *sv, sv_room *room, int slot, wire_msg *m);
/* ROOM_STATE to both players and every spectator. */
void sv_roommsg_state_all(sv_t *sv, sv_room *room);
/* MATCH_START of the room's current game to the player in slot (if any). */
void sv_roommsg_match_start(sv_t *sv, sv_room *room, int slot);
/* Fills m with the MATCH_END of res. */
void sv_roommsg_fill_match_end(wire_msg *m, const match_result *res);
/* MATCH_END of res to the player in slot (if any). */
void sv_roommsg_match_end(sv_t *sv, sv_room *room, int slot, const match_result *res);
/* The move logs of both slots, first_slot's first, as MOVE_LOG messages
 * to c through send (sv_send, or sv_specq_send for a spectator). */
void sv_roommsg_move_logs(sv_t *sv, sv_room *room, int first_slot, sv_client *c,
                          void (*send)(sv_t *, sv_client *, const wire_msg *));

#endif
