/* sv_play.h: rooms in play: seats, a match's events to messages, closing rooms; quick match's rooms. */
#ifndef MR_SV_PLAY_H
#define MR_SV_PLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "match.h"
#include "sv_rooms.h"

typedef struct sv sv_t;
typedef struct sv_client sv_client;
struct sv_gen_job;

/* Below the protocol (sv_game.c), the finished generation jobs
 * (sv_gendone.c), quick match (sv_quickmatch.c) and draining (sv_drain.c),
 * which all seat players and flush rooms through these; above what a room
 * tells or asks for (sv_roommsg.c, sv_spec.c, sv_record.c, sv_lan.c, and
 * sv_genq.c for its next puzzle). The quick-match queue's rooms live here
 * because a flush may seat a waiting player, and seating flushes: that
 * recursion stays inside one module. */

/* c takes slot of room / leaves its seat (the room's side only: the match
 * is told by the caller). */
void sv_play_attach(sv_room *room, int slot, sv_client *c);
void sv_play_detach(sv_client *c);
/* Drains the room's match events into messages, refreshes its timer and
 * frees the room when nobody is left in it; a quick room is offered to
 * the player waiting longest (sv_play_quick_offer). */
void sv_play_flush_room(sv_t *sv, sv_room *room);
/* Matches in countdown or racing; with tell, their players get ERROR
 * DRAINING (the drain deadline cuts their race). */
int sv_play_running(sv_t *sv, bool tell);
/* Ends every match (aborted) and tells its players. */
void sv_play_abort_all(sv_t *sv);
/* Server bytes per running match beyond the puzzle and its two states:
 * room slot, code-table and heap share, the match's own allocations (mean
 * over rooms in use) and the two players' client records with their share
 * of the hold pool (SV_CLIENT_BYTES). */
size_t sv_play_room_memory(const sv_t *sv);

/* Seats c in room; on failure returns the engine's reason and changes
 * nothing for c. */
const char *sv_play_try_seat(sv_t *sv, sv_client *c, sv_room *room);
/* sv_play_try_seat, and c told why not. */
void sv_play_seat(sv_t *sv, sv_client *c, sv_room *room);
/* Makes a room around m (taken over) from job j and seats c in it; NULL
 * after telling c why not. */
sv_room *sv_play_open_room(sv_t *sv, sv_client *c, match *m, bool quick, const struct sv_gen_job *j);
/* The match settings of a new room (series 0: the server's). */
void sv_play_match_cfg(const sv_t *sv, int series, match_config *mc);
/* The server's default puzzle (quick match). */
void sv_play_default_params(const sv_t *sv, pz_params *p);
/* True when c is in no room and watches none; else c is told. */
bool sv_play_not_in_room(sv_t *sv, sv_client *c);
/* True (and c told) when c waits for a room being made. */
bool sv_play_pending(sv_t *sv, sv_client *c);

/* Quick match's rooms (its players are sv_quickmatch.h's): a room it may
 * seat the next player in (waiting for its game, one seat held by a
 * connected player, the other free). */
bool sv_play_quick_open(const sv_room *room);
/* Queues a room quick match may fill (a player waiting alone for a puzzle
 * being made takes its free seat at once), or takes it out of the queue
 * when it no longer can be. */
void sv_play_quick_offer(sv_t *sv, sv_room *room);
/* The room is closing: out of the queue. */
void sv_play_quick_unlist(sv_t *sv, sv_room *room);

#endif
