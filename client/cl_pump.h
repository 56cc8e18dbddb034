/* cl_pump.h: the game under way driven by the backend's events, for the
 * screens that show it (lobby, race, results, watch). */
#ifndef CL_PUMP_H
#define CL_PUMP_H

#include "cl_app.h"

/* Drains the backend's events into the race, the series and the recorder,
 * and switches scenes on countdown and errors (cl_pump.c): called
 * every frame by lobby, race, results and watch. */
void cl_pump(cl_app *a);

#endif
