/* cl_script.h: scripted input for tests and demos (--script FILE). A
 * script is a text file of timed lines, documented in docs/client.md:
 *   # comment
 *   <ms> <command> [args]     ms from the start of the script
 *   +<ms> <command> [args]    ms after the previous line ran
 * commands: key NAME | down NAME | up NAME (SDL key names: Left, W, Return)
 *           text STRING | click X Y | rclick X Y | drag X0 Y0 X1 Y1
 *           tap X Y | swipe X0 Y0 X1 Y1 (touch, in window pixels)
 *           pad BUTTON (SDL names: a, b, dpup, start ...)
 *           drop PATH (a file dropped on the window)
 *           clip TEXT (puts TEXT on the clipboard, as another program's copy)
 *           key names may carry modifiers: key Ctrl+V, key Shift+Tab
 *           wait SCENE (menu, setup, join, lobby, countdown, race, results,
 *                       replay, replay-end ...; join-listed: the Join
 *                       screen with a game in its LAN list)
 *           screenshot PATH | quit
 * Inputs become ordinary SDL events, so they take the real input path. */
#ifndef CL_SCRIPT_H
#define CL_SCRIPT_H

#include <SDL.h>
#include <stdbool.h>
#include <stdint.h>

enum cl_script_op {
    CL_SOP_KEY,
    CL_SOP_DOWN,
    CL_SOP_UP,
    CL_SOP_TEXT,
    CL_SOP_CLICK,
    CL_SOP_RCLICK,
    CL_SOP_DRAG,
    CL_SOP_PAD,
    CL_SOP_TAP,
    CL_SOP_SWIPE,
    CL_SOP_WAIT,
    CL_SOP_SCREENSHOT,
    CL_SOP_QUIT,
    CL_SOP_DROP,
    CL_SOP_CLIP,
    CL_SOP_PADPLUG,   /* attach the virtual gamepad (cl_vpad.h) */
    CL_SOP_PADUNPLUG, /* detach it */
    CL_SOP_VPAD       /* press a button on it */
};

typedef struct cl_script_line {
    int op;
    bool relative;
    uint32_t ms;
    SDL_Keycode key;
    int button;
    int x0, y0, x1, y1;
    char arg[256]; /* text, scene name or path */
} cl_script_line;

typedef struct cl_script cl_script;

/* Parses a script text; NULL with a message (line number and why) in err. */
cl_script *cl_script_parse(const char *text, size_t len, char *err, size_t errlen);
cl_script *cl_script_load(const char *path, char *err, size_t errlen);
void cl_script_destroy(cl_script *s); /* accepts NULL */
int cl_script_count(const cl_script *s);
const cl_script_line *cl_script_line_at(const cl_script *s, int i);

/* The next line due at now_ms (app clock), or NULL if none is due yet or
 * the script is blocked on a wait. Call cl_script_advance once it ran. A
 * wait line is returned every frame until the caller reports it met. */
const cl_script_line *cl_script_due(cl_script *s, uint64_t now_ms);
void cl_script_advance(cl_script *s, uint64_t now_ms);
bool cl_script_finished(const cl_script *s);
/* Turns an input line into SDL events pushed onto the queue; w and h are
 * the window size, for touch coordinates (SDL's are 0..1). */
void cl_script_push_events(const cl_script_line *l, int w, int h);

#endif
