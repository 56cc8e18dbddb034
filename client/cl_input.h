/* cl_input.h: key bindings (two players, rebindable, conflicts refused) and
 * the mapping from keys and gamepads to race actions. */
#ifndef CL_INPUT_H
#define CL_INPUT_H

#include <SDL.h>
#include <stdbool.h>

/* CL_ACT_RESTART is ice's restart move (back to the start out of a trap). */
enum cl_act {
    CL_ACT_UP,
    CL_ACT_DOWN,
    CL_ACT_LEFT,
    CL_ACT_RIGHT,
    CL_ACT_CW,
    CL_ACT_CCW,
    CL_ACT_RESTART,
    CL_ACT_COUNT
};

typedef struct cl_bindings {
    SDL_Keycode key[2][CL_ACT_COUNT]; /* [player slot][action] */
    int pad[CL_ACT_COUNT];            /* SDL_GameControllerButton per action, every pad */
} cl_bindings;

/* Player 1 on the left hand (W A S D, Q and E rotate, R restart), player 2
 * on the arrows with Return, Right Shift and Backspace beside them: two
 * separate regions of the key matrix that ordinary keyboards register
 * together. */
void cl_bindings_default(cl_bindings *b);
/* Slot (0/1) bound to k, with *act set; -1 if k is unbound. */
int cl_bindings_lookup(const cl_bindings *b, SDL_Keycode k, int *act);
/* Binds k to (slot, act). NULL on success, else why it was refused (k is
 * reserved, or already bound to another action: conflicts are refused and
 * nothing changes). */
const char *cl_bindings_set(cl_bindings *b, int slot, int act, SDL_Keycode k);
/* NULL if every binding is set and no key is used twice, else a message. */
const char *cl_bindings_check(const cl_bindings *b);
const char *cl_act_name(int act);  /* "up", "down", ... "rotate-cw", "rotate-ccw", "restart" */
int cl_act_by_name(const char *s); /* -1 if unknown */
/* Keys the client keeps for itself (Escape, F11, ...). */
bool cl_key_reserved(SDL_Keycode k);

/* Gamepads: opened on hot-plug, closed on removal; pad n drives slot n % 2
 * in hotseat. */
typedef struct cl_pads {
    SDL_GameController *pad[4];
    SDL_JoystickID id[4];
} cl_pads;
void cl_pads_open_all(cl_pads *p);
/* Adds the pad mappings of dir/gamecontrollerdb.txt (the community
 * database's format) to SDL's own, for pads SDL does not know; how many
 * were added, 0 when there is no such file. */
int cl_pads_add_mappings(const char *dir);
void cl_pads_close_all(cl_pads *p);
/* Handles SDL_CONTROLLERDEVICEADDED/REMOVED: 1 if a pad was opened or
 * closed, 0 if the event changed nothing (a pad already open, all four
 * slots taken, one we never opened), -1 if it was no such event. */
int cl_pads_event(cl_pads *p, const SDL_Event *e);
/* Index of the pad that sent instance id, or -1. */
int cl_pads_index(const cl_pads *p, SDL_JoystickID id);
/* Race action bound to a pad button, or -1. Pads start on the d-pad for
 * the directions, A rotate clockwise, X counter-clockwise, Y restart. */
int cl_pad_button_act(const cl_bindings *b, int button);
/* Binds a pad button to act. B, Back, Start and Guide are kept for the
 * menus (back, leave, choose) and refused; a button bound to another
 * action swaps places with this one's (a pad has few buttons to spare).
 * NULL on success, else why not. */
const char *cl_pad_bind(cl_bindings *b, int act, int button);
/* A pad button for players: "A", "D-pad up", "LB"; "?" if unknown. */
const char *cl_pad_button_name(int button);
/* The button named as SDL does ("a", "dpup", "leftshoulder"), or -1. */
int cl_pad_button_by_name(const char *s);

#endif
