/* cl_settings.h: the player's settings (name, key bindings, last server,
 * window size, sound, UI scale, default opponent level) kept as a small text file in SDL_GetPrefPath. The
 * format is documented in docs/client.md: "key = value" lines, '#' comments. */
#ifndef CL_SETTINGS_H
#define CL_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "cl_input.h"
#include "wire.h"

enum { CL_SETUP_REMEMBERED = 5 };
typedef struct cl_settings {
    char name[WIRE_NAME_MAX + 1];
    char last_server[128]; /* "host:port" or "" */
    char
        coordinator[128]; /* "HOST[:PORT]" of the coordinator for invite codes and the Internet list, or "" */
    int win_w, win_h;     /* window size in screen coordinates */
    bool fullscreen;
    cl_bindings keys;
    unsigned howto_seen; /* bit per puzzle kind: its "How to play" card was shown */
    int volume;          /* sound effects, 0..100 percent */
    bool muted;
    int ui_scale;  /* text and controls, CL_UI_SCALE_MIN..MAX percent of the size the window gives */
    int bot_level; /* the computer's level the setup screen starts on (enum bot_level) */
    /* The setup screen's last choices, by index: kind, size, difficulty,
     * computer level, series; -1 where none was made. */
    int setup[CL_SETUP_REMEMBERED];
} cl_settings;

enum { CL_UI_SCALE_MIN = 75, CL_UI_SCALE_MAX = 150 };

void cl_settings_default(cl_settings *s);
/* Reads a settings text of len bytes over the values already in s. A bad
 * line keeps that setting's current value; returns how many lines were bad
 * and describes the first in msg (line number and why). Never fails harder. */
int cl_settings_parse(cl_settings *s, const char *text, size_t len, char *msg, size_t msglen);
/* The text form; malloc'd, the caller frees. */
char *cl_settings_format(const cl_settings *s);
/* Loads path over defaults. Returns NULL if the file was read cleanly or
 * does not exist (then s holds defaults), else a message for the player
 * (written into msg): the file was unreadable or had bad lines, and the
 * defaults stand in for what was bad. */
const char *cl_settings_load(cl_settings *s, const char *path, char *msg, size_t msglen);
/* Writes atomically (temp file + rename). NULL or a static message. */
const char *cl_settings_save(const cl_settings *s, const char *path);
/* NULL if name is a valid player name, else why not: the protocol's rule
 * (txt_name_problem, docs/protocol.md "Names"), checked before sending. */
const char *cl_name_problem(const char *name);

#endif
