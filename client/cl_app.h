/* cl_app.h: the client application: window, renderer, clock, the current
 * scene and what scenes share (settings, backend, race, series, online
 * play, the recorder, messages); each scene's own state is its own
 * (cl_scene.h). */
#ifndef CL_APP_H
#define CL_APP_H

#include <SDL.h>
#include <stdbool.h>
#include <stdint.h>

#include "cl_args.h"
#include "cl_backend.h"
#include "cl_history.h"
#include "cl_input.h"
#include "cl_race.h"
#include "cl_render.h"
#include "cl_app_scene.h"
#include "cl_script.h"
#include "cl_settings.h"
#include "cl_sfx.h"
#include "cl_text.h"
#include "rng.h"

/* What the setup screen starts. */
enum cl_mode { CL_MODE_COMPUTER, CL_MODE_HOTSEAT, CL_MODE_HOST, CL_MODE_JOIN, CL_MODE_WATCH, CL_MODE_CREATE };

typedef struct cl_app cl_app;

/* The race screen's layout: the pure part, shared with the render tests. */
typedef struct cl_layout {
    SDL_Rect hud;
    SDL_Rect board[2]; /* by slot; in single play the opponent's is the ghost */
    bool ghost[2];
    SDL_Rect ghost_info; /* opponent's figures, under the ghost board */
    SDL_Rect msg;        /* messages' own strip, under the boards, above the footer */
} cl_layout;
/* Draws msg (cut to fit) in r, never outside it (cl_app_message.c). */
void cl_message_draw(SDL_Renderer *ren, cl_text *t, SDL_Rect r, const char *msg, bool bad);
void cl_layout_race(int out_w, int out_h, bool hotseat, int my_slot, cl_layout *L);
/* Watching: both boards side by side at equal size, drawn as ghosts. */
void cl_layout_watch(int out_w, int out_h, cl_layout *L);
/* The replay player: both boards at equal size over a control bar of
 * buttons and the timeline. */
enum cl_replay_button {
    CL_RB_START,
    CL_RB_BACK,
    CL_RB_PLAY,
    CL_RB_STEP,
    CL_RB_SLOWER,
    CL_RB_SPEED,
    CL_RB_FASTER,
    CL_RB_COUNT
};
typedef struct cl_replay_layout {
    cl_layout race;               /* HUD and the two boards */
    SDL_Rect bar;                 /* the control bar under the boards */
    SDL_Rect button[CL_RB_COUNT]; /* CL_RB_SPEED is the speed's label */
    SDL_Rect timeline;            /* the track; seeking takes the bar's full height */
} cl_replay_layout;
void cl_layout_replay(int out_w, int out_h, cl_replay_layout *L);
/* Where the watch screen shows the result (pure, for the render tests). */
SDL_Rect cl_watch_result_rect(int out_w, int out_h);
/* Where the race and watch screens show "Connection lost" while the server
 * is silent (pure, for the tests that read it back from the pixels). */
SDL_Rect cl_race_banner_rect(int out_w, int out_h);
SDL_Color cl_race_banner_color(void);
/* The banner is up: a race or watch whose server fell silent before the end. */
bool cl_race_lost_shown(const cl_app *a);
/* The layout of the race screen for the app's backend (race, watch). */
void cl_layout_for(const cl_app *a, cl_layout *L);
/* The view of slot's board for a race on pz, cameras as in r. */
void cl_layout_view(const cl_layout *L, const cl_race *r, int slot, cl_view *v);

typedef struct cl_netui cl_netui;   /* join/lobby networking, cl_netui.c */
typedef struct cl_inetui cl_inetui; /* the Join screen's Internet list, cl_netui_inet.c */

/* Online play (cl_netui.c, cl_netui_inet.c; the lobby shows it): the server
 * joined or hosted, and the Join screen's LAN and Internet lists. */
typedef struct cl_online {
    char join_host[256]; /* the server joined (cl_app_join), for the lobby's join link; "" = none */
    int join_port;
    uint16_t server_port; /* hosting: the in-process server's game port */
    int port_taken;       /* hosting: the game port asked for was taken (0: it was not) */
    uint16_t disc_port;   /* hosting: the LAN discovery port answering (0: none) */
    cl_netui *lan;        /* LAN discovery (cl_app_discover); NULL when closed */
    cl_inetui *inet;      /* the Internet list; NULL when closed */
} cl_online;

/* The series under way (cl_app_pump.c; lobby, race, results and watch show
 * it): its score and where its current race stands. */
typedef struct cl_series {
    int score[2]; /* after the last finished game */
    bool over;
    bool rematch_asked;   /* this player pressed Rematch / Next race since the last start */
    uint64_t finished_at; /* when the current race finished (0: not yet) */
    bool result_printed;  /* its RESULT line is out */
} cl_series;

/* The race being recorded for the history and the best times the results
 * screen shows (cl_record.h). */
typedef struct cl_recorder {
    struct st_match *m; /* NULL before the first race */
    int me;             /* this machine's player in m: its slot, or -1 in hotseat (both) */
    uint32_t bests_ticket;
    bool bests_in;
    cl_hist_bests bests;
    /* The server's best on the puzzle just raced (online): 0 not asked, 1
     * asked, 2 answered (ms 0: none yet), 3 the server keeps no records. */
    int server_best;
    uint64_t server_best_ms;
    char server_best_name[32];
} cl_recorder;

struct cl_app {
    cl_args args;
    SDL_Window *win;
    SDL_Renderer *ren;
    cl_text *text;
    int out_w, out_h;  /* renderer output pixels */
    float mouse_scale; /* output pixels per window coordinate */
    uint64_t now_ms, start_ms;
    uint32_t dt_ms;
    bool virtual_clock; /* headless local play: 1/60 s per frame, no sleeping */
    uint64_t frames;
    bool quit;
    int exit_code;

    cl_settings settings;
    char settings_path[1024];
    cl_pads pads;
    cl_audio *audio;   /* sound effects (cl_audio.c); silent without a device */
    cl_sfx_cues cues;  /* what the race under way has sounded (cl_sfx.c) */
    int ui_scale_laid; /* the settings' ui_scale the text was last laid out at */
    cl_script *script;
    bool screenshot_due;
    rng_t fx_rng; /* cosmetic randomness and fresh seeds; never shapes a puzzle directly */

    const cl_scene *const *scenes; /* the screens, by enum cl_scene_id (cl_app_open) */
    /* What a file dropped on the window opens (cl_run.c: the replay player;
     * NULL: nothing). */
    void (*open_dropped)(cl_app *a, const char *path);
    int scene;
    void *scene_state[CL_SCENE_COUNT]; /* each scene's own (cl_scene.state_size) */
    struct cl_msg {                    /* the passing message at the bottom (cl_app_say) */
        char text[256];
        uint64_t until;
        bool bad;
    } msg;

    /* The game under way, shared by the screens (each group says its file). */
    int mode; /* what setup started (enum cl_mode) */
    cl_backend *backend;
    cl_race race;
    cl_series series;
    cl_online online;
    cl_recorder rec;
    cl_history *history; /* the game's own history (cl_history.c; NULL: none this run) */
};

/* Opens the window, settings, history, audio and script for args, with the
 * screens of scenes (CL_SCENE_COUNT of them); NULL and *err if it cannot
 * (nothing is left open). */
cl_app *cl_app_open(const cl_args *args, const cl_scene *const *scenes, const char **err);
/* Ends the game under way and closes everything cl_app_open opened. */
void cl_app_close(cl_app *a);
/* One frame: script, events, backend, scene update, draw, present. */
void cl_app_frame(cl_app *a);
void cl_app_set_scene(cl_app *a, int scene);
const char *cl_app_state_name(const cl_app *a); /* what "wait" matches */
/* A message for the player at the bottom of the screen for a few seconds. */
void cl_app_say(cl_app *a, bool bad, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Starts racing on backend b (taken over; the previous one is destroyed);
 * cl_app_end_backend (cl_netui.h) ends it. */
void cl_app_start_backend(cl_app *a, cl_backend *b);
/* Saves settings unless --no-save; a failure is said on screen. */
void cl_app_save_settings(cl_app *a);
void cl_app_toggle_fullscreen(cl_app *a);
/* Draws the title and a subtitle at the top of a menu screen; returns the
 * rect left for content. */
SDL_Rect cl_app_title(cl_app *a, const char *title, const char *sub);
/* Draws a yes/no question over the dimmed screen: a centred panel em_wide
 * body lines wide (at most the screen less a margin) with the title and the
 * keys' hint (the menu's "Quit mazerace?", the race's "Leave the race?"). */
void cl_app_confirm(cl_app *a, int em_wide, const char *title, const char *hint);
#endif
