/* sv_game.h: the server's protocol: client messages to room and match calls, match events to messages. */
#ifndef MR_SV_GAME_H
#define MR_SV_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h"
#include "sv_rooms.h"
#include "wire.h"

typedef struct sv sv_t;
typedef struct sv_client sv_client;
struct sv_gen_job;

void sv_game_receive(sv_t *sv, sv_client *c, const uint8_t *data, size_t len);
void sv_game_disconnected(sv_t *sv, sv_client *c);
/* Sends nothing more, disconnects once queued messages are out; c leaves
 * its room now (sv_game_disconnected). */
void sv_game_close_client(sv_t *sv, sv_client *c, const char *why);
/* Counts a bad message (code WIRE_ERR_RATE: an over-rate one), logs it,
 * answers the first one with an ERROR and disconnects the peer at max_bad. */
void sv_game_bad_message(sv_t *sv, sv_client *c, int code, const char *why);
/* Drains the room's match events into messages, refreshes its timer and
 * frees the room when nobody is left in it. */
void sv_game_flush_room(sv_t *sv, sv_room *room);
/* Matches in countdown or racing; with tell, their players get ERROR
 * DRAINING (the drain deadline cuts their race). */
int sv_game_running(sv_t *sv, bool tell);
/* Ends every match (aborted) and tells its players. */
void sv_game_abort_all(sv_t *sv);
/* Server bytes per running match beyond the puzzle and its two states:
 * room slot, code-table and heap share, the match's own allocations (mean
 * over rooms in use) and the two players' client records with their share
 * of the hold pool (SV_CLIENT_BYTES). */
size_t sv_room_memory(const sv_t *sv);
/* Fills m with the ROOM_STATE of room as slot (0, 1 or WIRE_SLOT_WATCHER) sees it. */
void sv_game_fill_room_state(sv_t *sv, sv_room *room, int slot, wire_msg *m);
/* ROOM_STATE to both players and every spectator. */
void sv_game_room_state_all(sv_t *sv, sv_room *room);
/* Fills m with the MATCH_END of res. */
void sv_game_fill_match_end(wire_msg *m, const match_result *res);
/* The move logs of both slots, first_slot's first, as MOVE_LOG messages
 * to c through send (sv_send, or sv_spec_send for a spectator). */
void sv_game_move_logs(sv_t *sv, sv_room *room, int first_slot, sv_client *c,
                       void (*send)(sv_t *, sv_client *, const wire_msg *));

/* Rooms and seats, for the generation queue (sv_genq.c) and quick match
 * (sv_quickmatch.c). */
/* Seats c in room; on failure returns the engine's reason and changes
 * nothing for c. */
const char *sv_game_try_seat(sv_t *sv, sv_client *c, sv_room *room);
/* sv_game_try_seat, and c told why not. */
void sv_game_seat(sv_t *sv, sv_client *c, sv_room *room);
/* Makes a room around m (taken over) from job j and seats c in it; NULL
 * after telling c why not. */
sv_room *sv_game_open_room(sv_t *sv, sv_client *c, match *m, bool quick, const struct sv_gen_job *j);
/* The match settings of a new room (series 0: the server's). */
void sv_game_match_cfg(const sv_t *sv, int series, match_config *mc);
/* The server's default puzzle (quick match). */
void sv_game_default_params(const sv_t *sv, pz_params *p);
/* True when c is in no room and watches none; else c is told. */
bool sv_game_not_in_room(sv_t *sv, sv_client *c);
/* True (and c told) when c waits for a room being made. */
bool sv_game_pending(sv_t *sv, sv_client *c);

#endif
