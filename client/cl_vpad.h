/* cl_vpad.h: one virtual gamepad (SDL's virtual joystick) for scripts, so
 * headless tests drive the real hot-plug and button path of a pad. */
#ifndef CL_VPAD_H
#define CL_VPAD_H

#include <stdbool.h>

/* Attaches the pad (SDL then reports SDL_CONTROLLERDEVICEADDED); false if
 * SDL's game controller subsystem is not up or refuses. Once only. */
bool cl_vpad_plug(void);
/* Detaches it (SDL_CONTROLLERDEVICEREMOVED); nothing if not plugged. */
void cl_vpad_unplug(void);
/* Presses button (SDL_GameControllerButton); cl_vpad_frame releases it on
 * the next frame, so SDL sees a press and a release. False if unplugged. */
bool cl_vpad_press(int button);
/* Once per frame, before events are read. */
void cl_vpad_frame(void);

#endif
