/* cl_audio.h: sound effects through SDL2's own audio: made by the program at
 * start-up, mixed in SDL's callback; silent without a device. */
#ifndef CL_AUDIO_H
#define CL_AUDIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cl_sfx {
    CL_SFX_MOVE,      /* a move the rules took */
    CL_SFX_BLOCKED,   /* a move the rules refused */
    CL_SFX_TICK,      /* each second of the countdown */
    CL_SFX_GO,        /* the race starts */
    CL_SFX_MILESTONE, /* the opponent is a quarter, half, three quarters of the way */
    CL_SFX_WIN,
    CL_SFX_LOSE,
    CL_SFX_COUNT
};

enum { CL_AUDIO_RATE = 22050, CL_AUDIO_VOICES = 8 };

typedef struct cl_audio cl_audio;

/* Makes every sound (deterministic: the same samples on every run). With
 * open_device, opens the default output through SDL (initialising SDL's
 * audio subsystem); when there is none (no driver, SDL_AUDIODRIVER=none,
 * a busy device) the game stays silent without an error. Never NULL;
 * cl_audio_destroy frees it (accepts NULL). */
cl_audio *cl_audio_create(bool open_device);
void cl_audio_destroy(cl_audio *au);
/* True when a device is open (sound can be heard). */
bool cl_audio_has_device(const cl_audio *au);
/* volume 0..100; muted (or volume 0): play does nothing. */
void cl_audio_set_volume(cl_audio *au, int volume, bool muted);
/* Starts sfx on a free voice (the oldest is replaced when all are busy). */
void cl_audio_play(cl_audio *au, int sfx);
/* What SDL's callback runs: mixes the voices into n mono samples. Tests
 * call it directly with no device open. */
void cl_audio_mix(cl_audio *au, int16_t *out, size_t n);
/* The samples of sfx (at CL_AUDIO_RATE, mono), and how many plays of sfx
 * were started since create (tests). */
const int16_t *cl_audio_samples(const cl_audio *au, int sfx, size_t *n);
unsigned cl_audio_played(const cl_audio *au, int sfx);
const char *cl_sfx_name(int sfx); /* "move", "blocked", ... */

#endif
