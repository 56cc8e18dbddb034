/* cl_race.h: what the race screen knows: the puzzle, each slot's shown
 * state (predicted for local players, a replayed ghost for a remote one),
 * pending moves for rollback, cursors and cameras. No drawing, no SDL. */
#ifndef CL_RACE_H
#define CL_RACE_H

#include <stdbool.h>
#include <stdint.h>

#include "cl_backend.h"
#include "puzzle.h"

enum { CL_MAX_PENDING = 256 };

typedef struct cl_player {
    bool local;
    pz_state *shown;     /* what the screen draws */
    pz_state *confirmed; /* local: after the moves the authority accepted */
    pz_move pending[CL_MAX_PENDING];
    uint32_t pending_seq[CL_MAX_PENDING];
    uint64_t pending_at[CL_MAX_PENDING]; /* app ms each was played, for the history */
    int npending;
    uint32_t next_seq;
    uint32_t moves;     /* moves shown (local: predicted count) */
    bool ghost_lost;    /* remote: a progress event did not replay; show progress only */
    bool resynced;      /* shown was taken from the backend: older progress events are in it */
    bool away;          /* remote: their connection dropped; they may come back */
    pz_progress prog;   /* remote: the last reported progress */
    int cur_x, cur_y;   /* pipes cursor */
    float cam_x, cam_y; /* camera centre in cells (smoothed) */
    bool cam_set;
    int zoom_cell;       /* own board's cell size chosen by zoom (px); 0: fit (cl_zoom.h) */
    uint64_t hint_until; /* app ms: show hint until then */
    char hint[160];
    int remaining; /* how far from done as the board shows it (cl_measure.h), -1 unknown */
} cl_player;

typedef struct cl_race {
    const pz_puzzle *pz; /* owned by the backend */
    const pz_kind *k;
    cl_player p[2];
    bool racing, finished;
    uint64_t start_ms;
    match_result result;
    char name[2][32]; /* the players of this race, kept after they leave */
} cl_race;

/* Sets up both players on pz (which must outlive the race or the next
 * reset). local0/local1 say which slots this machine plays. */
void cl_race_reset(cl_race *r, const pz_puzzle *pz, bool local0, bool local1);
void cl_race_free(cl_race *r); /* frees the states; keeps nothing */
/* A local player's move: applied at once when the shared rules allow it and
 * passed to the backend with a sequence number; refused locally with a hint
 * otherwise. Returns NULL if sent, else the reason. */
const char *cl_race_play(cl_race *r, cl_backend *b, int slot, pz_move mv, uint64_t now_ms);
/* Applies a backend event (ACK, REJECT, PROGRESS, START, FINISHED). */
void cl_race_event(cl_race *r, const cl_event *ev, uint64_t now_ms);
/* After a resume: every state taken from the backend's authority, pending
 * moves dropped. */
void cl_race_resync(cl_race *r, cl_backend *b);
/* Cell the camera follows for slot (position, path head or pipes cursor). */
void cl_race_focus(const cl_race *r, int slot, int *x, int *y);
/* Slot that is ahead by cl_measure_remaining, or -1 for level/unknown. */
int cl_race_leader(const cl_race *r);
/* Moves the pipes cursor by (dx, dy), clamped to the board. */
void cl_race_cursor(cl_race *r, int slot, int dx, int dy);
/* Smooths the cameras towards their focus; dt in ms. */
void cl_race_tick(cl_race *r, uint32_t dt_ms);

#endif
