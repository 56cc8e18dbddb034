/* cl_input.c: key bindings and gamepad hot-plug. */
#include "cl_input.h"

#include <stdio.h>
#include <string.h>

static const char *const act_names[CL_ACT_COUNT] = {"up",        "down",       "left",   "right",
                                                    "rotate-cw", "rotate-ccw", "restart"};

void cl_bindings_default(cl_bindings *b)
{
    static const SDL_Keycode p1[CL_ACT_COUNT] = {SDLK_w, SDLK_s, SDLK_a, SDLK_d, SDLK_e, SDLK_q, SDLK_r};
    static const SDL_Keycode p2[CL_ACT_COUNT] = {SDLK_UP,     SDLK_DOWN,   SDLK_LEFT,     SDLK_RIGHT,
                                                 SDLK_RETURN, SDLK_RSHIFT, SDLK_BACKSPACE};
    static const int pad[CL_ACT_COUNT] = {SDL_CONTROLLER_BUTTON_DPAD_UP,   SDL_CONTROLLER_BUTTON_DPAD_DOWN,
                                          SDL_CONTROLLER_BUTTON_DPAD_LEFT, SDL_CONTROLLER_BUTTON_DPAD_RIGHT,
                                          SDL_CONTROLLER_BUTTON_A,         SDL_CONTROLLER_BUTTON_X,
                                          SDL_CONTROLLER_BUTTON_Y};
    memcpy(b->key[0], p1, sizeof p1);
    memcpy(b->key[1], p2, sizeof p2);
    memcpy(b->pad, pad, sizeof pad);
}

int cl_bindings_lookup(const cl_bindings *b, SDL_Keycode k, int *act)
{
    if (k == SDLK_UNKNOWN)
        return -1;
    for (int s = 0; s < 2; s++)
        for (int a = 0; a < CL_ACT_COUNT; a++)
            if (b->key[s][a] == k) {
                *act = a;
                return s;
            }
    return -1;
}

bool cl_key_reserved(SDL_Keycode k)
{
    return k == SDLK_ESCAPE || k == SDLK_F11 || k == SDLK_UNKNOWN || k == SDLK_LALT || k == SDLK_RALT ||
           k == SDLK_TAB || k == SDLK_F1;
}

const char *cl_bindings_set(cl_bindings *b, int slot, int act, SDL_Keycode k)
{
    if (slot < 0 || slot > 1 || act < 0 || act >= CL_ACT_COUNT)
        return "no such action";
    if (cl_key_reserved(k))
        return "that key is reserved (Esc, F11, Alt, Tab, F1)";
    int other_act;
    int other = cl_bindings_lookup(b, k, &other_act);
    if (other >= 0 && (other != slot || other_act != act))
        return "that key is already used; pick another";
    b->key[slot][act] = k;
    return NULL;
}

const char *cl_bindings_check(const cl_bindings *b)
{
    for (int s = 0; s < 2; s++)
        for (int a = 0; a < CL_ACT_COUNT; a++) {
            SDL_Keycode k = b->key[s][a];
            if (cl_key_reserved(k))
                return "a binding is missing or uses a reserved key";
            for (int s2 = 0; s2 < 2; s2++)
                for (int a2 = 0; a2 < CL_ACT_COUNT; a2++)
                    if ((s2 != s || a2 != a) && b->key[s2][a2] == k)
                        return "a key is bound twice";
        }
    return NULL;
}

const char *cl_act_name(int act)
{
    return (act >= 0 && act < CL_ACT_COUNT) ? act_names[act] : "?";
}

int cl_act_by_name(const char *s)
{
    for (int a = 0; a < CL_ACT_COUNT; a++)
        if (strcmp(s, act_names[a]) == 0)
            return a;
    return -1;
}

static bool pad_add(cl_pads *p, int device)
{
    if (!SDL_IsGameController(device))
        return false;
    SDL_JoystickID jid = SDL_JoystickGetDeviceInstanceID(device);
    for (int i = 0; i < 4; i++)
        if (p->pad[i] && p->id[i] == jid)
            return false;
    for (int i = 0; i < 4; i++)
        if (!p->pad[i]) {
            p->pad[i] = SDL_GameControllerOpen(device);
            p->id[i] = jid;
            return p->pad[i] != NULL;
        }
    return false;
}

void cl_pads_open_all(cl_pads *p)
{
    for (int d = 0; d < SDL_NumJoysticks(); d++)
        pad_add(p, d);
}

int cl_pads_add_mappings(const char *dir)
{
    char path[1100];
    if (!dir[0] || snprintf(path, sizeof path, "%sgamecontrollerdb.txt", dir) >= (int)sizeof path)
        return 0;
    int n = SDL_GameControllerAddMappingsFromFile(path);
    return n > 0 ? n : 0;
}

void cl_pads_close_all(cl_pads *p)
{
    for (int i = 0; i < 4; i++) {
        if (p->pad[i])
            SDL_GameControllerClose(p->pad[i]);
        p->pad[i] = NULL;
    }
}

int cl_pads_event(cl_pads *p, const SDL_Event *e)
{
    if (e->type == SDL_CONTROLLERDEVICEADDED)
        return pad_add(p, e->cdevice.which) ? 1 : 0;
    if (e->type == SDL_CONTROLLERDEVICEREMOVED) {
        int i = cl_pads_index(p, e->cdevice.which);
        if (i < 0)
            return 0;
        SDL_GameControllerClose(p->pad[i]);
        p->pad[i] = NULL;
        return 1;
    }
    return -1;
}

int cl_pads_index(const cl_pads *p, SDL_JoystickID id)
{
    for (int i = 0; i < 4; i++)
        if (p->pad[i] && p->id[i] == id)
            return i;
    return -1;
}

int cl_pad_button_act(const cl_bindings *b, int button)
{
    for (int a = 0; a < CL_ACT_COUNT; a++)
        if (b->pad[a] == button)
            return a;
    return -1;
}

static bool pad_reserved(int button)
{
    return button == SDL_CONTROLLER_BUTTON_B || button == SDL_CONTROLLER_BUTTON_BACK ||
           button == SDL_CONTROLLER_BUTTON_START || button == SDL_CONTROLLER_BUTTON_GUIDE;
}

const char *cl_pad_bind(cl_bindings *b, int act, int button)
{
    if (act < 0 || act >= CL_ACT_COUNT)
        return "no such action";
    if (button < 0 || button >= SDL_CONTROLLER_BUTTON_MAX)
        return "no such pad button";
    if (pad_reserved(button))
        return "that button is kept for the menus (B, Back, Start, Guide)";
    int other = cl_pad_button_act(b, button);
    if (other >= 0)
        b->pad[other] = b->pad[act];
    b->pad[act] = button;
    return NULL;
}

const char *cl_pad_button_name(int button)
{
    static const char *const names[SDL_CONTROLLER_BUTTON_MAX] = {
        [SDL_CONTROLLER_BUTTON_A] = "A",
        [SDL_CONTROLLER_BUTTON_B] = "B",
        [SDL_CONTROLLER_BUTTON_X] = "X",
        [SDL_CONTROLLER_BUTTON_Y] = "Y",
        [SDL_CONTROLLER_BUTTON_BACK] = "Back",
        [SDL_CONTROLLER_BUTTON_GUIDE] = "Guide",
        [SDL_CONTROLLER_BUTTON_START] = "Start",
        [SDL_CONTROLLER_BUTTON_LEFTSTICK] = "Left stick",
        [SDL_CONTROLLER_BUTTON_RIGHTSTICK] = "Right stick",
        [SDL_CONTROLLER_BUTTON_LEFTSHOULDER] = "LB",
        [SDL_CONTROLLER_BUTTON_RIGHTSHOULDER] = "RB",
        [SDL_CONTROLLER_BUTTON_DPAD_UP] = "D-pad up",
        [SDL_CONTROLLER_BUTTON_DPAD_DOWN] = "D-pad down",
        [SDL_CONTROLLER_BUTTON_DPAD_LEFT] = "D-pad left",
        [SDL_CONTROLLER_BUTTON_DPAD_RIGHT] = "D-pad right",
        [SDL_CONTROLLER_BUTTON_MISC1] = "Share",
        [SDL_CONTROLLER_BUTTON_PADDLE1] = "Paddle 1",
        [SDL_CONTROLLER_BUTTON_PADDLE2] = "Paddle 2",
        [SDL_CONTROLLER_BUTTON_PADDLE3] = "Paddle 3",
        [SDL_CONTROLLER_BUTTON_PADDLE4] = "Paddle 4",
        [SDL_CONTROLLER_BUTTON_TOUCHPAD] = "Touchpad",
    };
    return button >= 0 && button < SDL_CONTROLLER_BUTTON_MAX && names[button] ? names[button] : "?";
}

int cl_pad_button_by_name(const char *s)
{
    SDL_GameControllerButton b = SDL_GameControllerGetButtonFromString(s);
    return b == SDL_CONTROLLER_BUTTON_INVALID ? -1 : (int)b;
}
