/* cl_scene.h: the screens (cl_scene_*.c), each a cl_scene table
 * (cl_app_scene.h) that cl_run.c hands to the app, and what screens (and
 * the start from the command line) open of each other. */
#ifndef CL_SCENE_H
#define CL_SCENE_H

#include "cl_app.h"

extern const cl_scene cl_scene_menu, cl_scene_setup, cl_scene_join, cl_scene_lobby, cl_scene_race,
    cl_scene_results, cl_scene_settings, cl_scene_history, cl_scene_watch, cl_scene_replay, cl_scene_srvrep;

/* Starts a mode straight from a game ID: local modes race at once, host
 * starts the server and joins it. Returns NULL or the error for the player. */
const char *cl_app_start_mode(cl_app *a, int mode, const char *game_id, int series, int bot_level);
/* Opens the setup screen for "Create a room" on the server at address
 * ("HOST:PORT"), in CL_MODE_CREATE (cl_scene_setup.c). */
void cl_app_setup_create(cl_app *a, const char *address);
/* Opens the Join screen with text in its address field (cl_scene_join.c). */
void cl_app_join_show(cl_app *a, const char *text);

/* The Server replays screen (cl_scene_srvrep.c) for the server at address
 * ("HOST[:PORT]"): it connects, lists the stored matches and fetches any of
 * them into the replay player; match_id > 0 fetches that one at once.
 * NULL, or why not (a bad address). Script waits see "server-replays-list"
 * once a page shows and nothing is asked, else "server-replays". */
const char *cl_srvrep_open(cl_app *a, const char *address, uint64_t match_id);
/* Draws the race screen (boards, HUD, countdown, hints) for race and results. */
void cl_race_draw_screen(cl_app *a);

#endif
