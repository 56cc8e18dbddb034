/* cl_record.h: recording each race for the game's history, and the best
 * times the results screen shows (cl_record.c; its state is cl_app's rec). */
#ifndef CL_RECORD_H
#define CL_RECORD_H

#include "cl_app.h"

/* Records the race for the history: every backend event goes
 * through cl_record_event before the race sees it; cl_record_update picks
 * up the best times for the results screen. */
void cl_record_event(cl_app *a, const cl_event *ev);
void cl_record_update(cl_app *a);
/* A race under way that ends without a result (the server lost, the
 * player left a silent server): what is known of it goes into the history
 * as unfinished (no winner, MATCH_END_ABORTED, both times at the moment it
 * was lost). Does nothing outside a player's running race. */
void cl_record_unfinished(cl_app *a);
/* The best-times lines of the results screen (at most 3, each < 160
 * bytes) into lines; returns how many. */
int cl_record_bests_text(const cl_app *a, char lines[][160]);

#endif
