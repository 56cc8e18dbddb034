/* cl_vpad.c: a scripted virtual gamepad through SDL_JoystickAttachVirtual. */
#include "cl_vpad.h"

#include <SDL.h>

static SDL_Joystick *joy; /* the attached pad, opened to set its buttons */
static int held = -1;     /* button pressed this frame, released on the next */
static bool held_seen;

bool cl_vpad_plug(void)
{
    if (joy)
        return true;
    if (!SDL_WasInit(SDL_INIT_GAMECONTROLLER))
        return false;
    int idx = SDL_JoystickAttachVirtual(SDL_JOYSTICK_TYPE_GAMECONTROLLER, SDL_CONTROLLER_AXIS_MAX,
                                        SDL_CONTROLLER_BUTTON_MAX, 0);
    if (idx < 0)
        return false;
    joy = SDL_JoystickOpen(idx);
    if (!joy) {
        SDL_JoystickDetachVirtual(idx);
        return false;
    }
    return true;
}

void cl_vpad_unplug(void)
{
    if (!joy)
        return;
    SDL_JoystickID id = SDL_JoystickInstanceID(joy);
    SDL_JoystickClose(joy);
    joy = NULL;
    held = -1;
    for (int i = 0; i < SDL_NumJoysticks(); i++)
        if (SDL_JoystickGetDeviceInstanceID(i) == id) {
            SDL_JoystickDetachVirtual(i);
            break;
        }
}

bool cl_vpad_press(int button)
{
    if (!joy || button < 0 || button >= SDL_CONTROLLER_BUTTON_MAX)
        return false;
    if (held >= 0)
        SDL_JoystickSetVirtualButton(joy, held, SDL_RELEASED);
    held = button;
    held_seen = false;
    return SDL_JoystickSetVirtualButton(joy, button, SDL_PRESSED) == 0;
}

void cl_vpad_frame(void)
{
    if (!joy || held < 0)
        return;
    /* The press was read with last frame's events: now the release. */
    if (held_seen) {
        SDL_JoystickSetVirtualButton(joy, held, SDL_RELEASED);
        held = -1;
    } else {
        held_seen = true;
    }
}
