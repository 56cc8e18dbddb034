/* clt_history.h: finished races as the game's history keeps them (st_match), made for the client tests. */
#ifndef CLT_HISTORY_H
#define CLT_HISTORY_H

#include <stdint.h>

#include "puzzle.h"
#include "st.h"

/* A race on game_id (a seeded or description ID) started at started_s
 * (Unix seconds) in mode (CL_HIST_*): name0 (slot 0) against name1, won by
 * winner solving in ms (the other's time other_ms), or unfinished (winner
 * -1: no winner, aborted; both times ms). No moves yet. malloc'd: give it
 * to cl_history_add, or st_match_free and free it. NULL if game_id names
 * no puzzle. */
st_match *clt_record(const char *mode, const char *game_id, int64_t started_s, const char *name0,
                     const char *name1, int winner, uint64_t ms, uint64_t other_ms);
/* Appends a move of slot at ms (the caller keeps them in time order). */
void clt_record_move(st_match *r, int slot, uint32_t ms, pz_move mv);

#endif
