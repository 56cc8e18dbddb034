/* cl_app_scene.h: the scene registration interface: a screen is a table of
 * callbacks and the size of its own state, which the app (cl_app.c) holds for
 * its whole run and drives through the table it is given (cl_run.c gives it
 * the screens of cl_scene.h). Part of the app: scenes build on it, the app
 * never names a scene. */
#ifndef CL_APP_SCENE_H
#define CL_APP_SCENE_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>

enum cl_scene_id {
    CL_SCENE_MENU,
    CL_SCENE_SETUP,
    CL_SCENE_JOIN,
    CL_SCENE_LOBBY,
    CL_SCENE_RACE,
    CL_SCENE_RESULTS,
    CL_SCENE_SETTINGS,
    CL_SCENE_HISTORY,
    CL_SCENE_WATCH,
    CL_SCENE_REPLAY,
    CL_SCENE_SRVREP,
    CL_SCENE_COUNT
};

typedef struct cl_app cl_app;

/* A screen: its callbacks and its own state. The app allocates state_size
 * zeroed bytes per scene for its whole run (cl_app_scene_state reaches
 * them; 0: none) and calls fini on them at exit to free what they hold.
 * wait_name says what script waits match while the scene shows (NULL:
 * name). Any callback may be NULL but draw. */
typedef struct cl_scene {
    const char *name; /* for script waits */
    void (*enter)(cl_app *a);
    void (*event)(cl_app *a, const SDL_Event *e);
    void (*update)(cl_app *a);
    void (*draw)(cl_app *a);
    size_t state_size;
    void (*fini)(void *state);
    const char *(*wait_name)(const cl_app *a);
    bool boards; /* it shows boards: messages go in the strip under them */
    /* Optional (NULL: none): whether the scene meets a script wait other
     * than its own name (the Join screen's "join-listed"). */
    bool (*waits_for)(cl_app *a, const char *wait);
} cl_scene;

/* Scene's own state (cl_scene.state_size bytes; NULL when it has none). */
void *cl_app_scene_state(const cl_app *a, int scene);

#endif
