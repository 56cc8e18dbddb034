/* cl_rview.h: the replay player's model: a replay's two boards at any point
 * of its timeline, the playback clock, speed and seeking. No SDL, no drawing. */
#ifndef CL_RVIEW_H
#define CL_RVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h"
#include "replay.h"

typedef struct cl_rview cl_rview;

enum { CL_RVIEW_SPEEDS = 6 }; /* 0.25x 0.5x 1x 2x 4x 8x */
#define CL_RVIEW_SPEED_1X 2

/* Checks r through the match engine (replay_check) and builds the view at
 * the race start, paused, at 1x. Takes r over, even on failure; NULL with
 * e filled (the replay's line and column) if the replay does not check.
 * Caller frees with cl_rview_destroy. */
cl_rview *cl_rview_create(replay *r, pz_error *e);
void cl_rview_destroy(cl_rview *v); /* accepts NULL */

const replay *cl_rview_replay(const cl_rview *v);
const pz_puzzle *cl_rview_puzzle(const cl_rview *v);
const match_result *cl_rview_result(const cl_rview *v); /* the engine's, of the whole replay */
const pz_state *cl_rview_state(const cl_rview *v, int slot);
uint32_t cl_rview_moves(const cl_rview *v, int slot); /* slot's moves made by now */
bool cl_rview_solved(const cl_rview *v, int slot);    /* slot's board is solved by now */
size_t cl_rview_pos(const cl_rview *v);               /* moves (both players) made by now */
uint32_t cl_rview_time(const cl_rview *v);            /* the clock: ms from the race start */
uint32_t cl_rview_length(const cl_rview *v);          /* the end line's time */
bool cl_rview_at_end(const cl_rview *v);

/* The clock to t (clamped to the length): every move at or before t is made. */
void cl_rview_seek(cl_rview *v, uint32_t t_ms);
/* Exactly the first n moves made (clamped); the clock at the n-th's time. */
void cl_rview_seek_move(cl_rview *v, size_t n);
/* One move forwards / backwards from the current point. */
void cl_rview_step(cl_rview *v, int dir);

/* Playback: tick advances the clock by real_ms times the speed while
 * playing, and pauses at the end. Play at the end starts from the start. */
void cl_rview_play(cl_rview *v, bool on);
bool cl_rview_playing(const cl_rview *v);
void cl_rview_tick(cl_rview *v, uint32_t real_ms);
void cl_rview_set_speed(cl_rview *v, int index); /* clamped to 0 .. CL_RVIEW_SPEEDS-1 */
int cl_rview_speed(const cl_rview *v);
const char *cl_rview_speed_text(int index); /* "0.25x" ... "8x" */

/* Moves the engine's rules were asked to apply by the last seek or step:
 * at most the snapshot interval, however long the replay (tests). */
size_t cl_rview_last_cost(const cl_rview *v);
size_t cl_rview_snapshot_every(const cl_rview *v);
/* Snapshots held (each: both states and their move counts). */
size_t cl_rview_snapshots(const cl_rview *v);

#endif
