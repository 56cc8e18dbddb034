/* st_engine.h: between the match engine and the store: a finished match as a record, a record as a replay. */
#ifndef MR_ST_ENGINE_H
#define MR_ST_ENGINE_H

#include <stdint.h>

#include "match.h"
#include "replay.h"
#include "st.h"

/* The last finished game of m as a record (malloc'd; st_match_free then
 * free, or hand it to st_writer_put). names are the players' names as they
 * were when the race started (a player who left is no longer in m); mode
 * as st_match.mode ("server", "hotseat", ...); start_utc_ms the wall-clock
 * race start. Moves come in the order the engine accepted them, with their
 * ms from the race start (replay_from_match). NULL with *err (static) if m
 * has no finished game or a name is empty. */
st_match *st_from_match(const match *m, const char *const names[MATCH_SLOTS], const char *mode,
                        int64_t start_utc_ms, const char **err);

/* The record as a replay (docs/replay.md): its description ID, names,
 * moves (each player's in order, merged by time with the winner's last at
 * equal times), ending (a solved game at the solving move, any other at
 * the later of the two players' times) and date: the one way from a
 * record to a replay, for the server's and the game's own records. NULL with *err (static) if the record
 * cannot make one (no description, a move out of order). Caller replay_destroys it. */
replay *st_to_replay(const st_match *r, const char **err);

#endif
