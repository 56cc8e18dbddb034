/* history_replay.c: a race from the history opened as a replay. */
#include "cl_app.h"

void cl_history_open_replay(cl_app *a, const cl_hist_race *r)
{
    (void)r;
    cl_app_say(a, true, "Replays are not in this build yet");
}
