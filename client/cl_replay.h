/* cl_replay.h: the replay player: opening a replay, and the scene's state
 * shared by cl_scene_replay.c (opening, input) and cl_replay.c (drawing). */
#ifndef CL_REPLAY_H
#define CL_REPLAY_H

#include "cl_app.h"
#include "cl_rview.h"
#include "replay.h"

struct cl_replay_ui {
    cl_rview *v;
    cl_race race; /* pz and cameras only; its states are the view's (never cl_race_free) */
    int back;     /* the scene to return to */
    bool seeking; /* the timeline is being dragged */
    bool was_playing;
    char label[64];
};

/* cl_replay_open takes r over and shows it, checked through the match
 * engine first; leaving returns to the scene it was opened from. label
 * names it (a file name, "history"). Both return NULL, or why not (also
 * said on screen; a file's faults name its line:column). Refused while a
 * race is on. */
const char *cl_replay_open(cl_app *a, replay *r, const char *label);
const char *cl_replay_open_file(cl_app *a, const char *path);
/* The replay scene's state (cl_scene_replay.c); v NULL while none is open. */
struct cl_replay_ui *cl_replay_ui_of(const cl_app *a);
/* Draws the scene. */
void cl_replay_draw(cl_app *a);
/* "m:ss.t" (the race screen's clock). */
void cl_replay_fmt_clock(char *buf, size_t len, uint64_t ms);

#endif
