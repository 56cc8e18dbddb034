/* cl_audio.c: the sound effects: synthesised at start-up, mixed in SDL's audio callback. */
#include "cl_audio.h"

#include <SDL.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum { WAVE_SINE, WAVE_TRIANGLE, WAVE_SQUARE };

/* One note of an effect: a tone gliding from f0 to f1 Hz. */
typedef struct note {
    float f0, f1;
    int ms;
    int wave;
    float amp;
} note;

typedef struct voice {
    int sfx; /* -1: free */
    size_t pos;
    uint64_t started; /* play counter when it began: the oldest is replaced */
} voice;

struct cl_audio {
    int16_t *buf[CL_SFX_COUNT];
    size_t len[CL_SFX_COUNT];
    unsigned played[CL_SFX_COUNT];
    voice v[CL_AUDIO_VOICES];
    uint64_t plays;
    int volume; /* 0..100, read by the callback under the device lock */
    bool muted;
    SDL_AudioDeviceID dev; /* 0: no device, silent */
    bool own_subsystem;
};

static const char *const sfx_names[CL_SFX_COUNT] = {"move",      "blocked", "tick", "go",
                                                    "milestone", "win",     "lose"};

const char *cl_sfx_name(int sfx)
{
    return sfx >= 0 && sfx < CL_SFX_COUNT ? sfx_names[sfx] : "?";
}

/* Notes per effect, played one after another; amp 0 ends the list. Pitches
 * are short, soft and in one key (C major), so frequent effects such as a
 * move stay quiet and the rare ones (win, loss) stand out. */
static const note score[CL_SFX_COUNT][5] = {
    [CL_SFX_MOVE] = {{900, 700, 45, WAVE_SINE, 0.22f}},
    [CL_SFX_BLOCKED] = {{150, 115, 120, WAVE_SQUARE, 0.16f}},
    [CL_SFX_TICK] = {{660, 660, 110, WAVE_SINE, 0.35f}},
    [CL_SFX_GO] = {{1320, 1320, 320, WAVE_TRIANGLE, 0.40f}},
    [CL_SFX_MILESTONE] = {{587, 587, 90, WAVE_TRIANGLE, 0.25f}, {784, 784, 130, WAVE_TRIANGLE, 0.25f}},
    [CL_SFX_WIN] = {{523, 523, 110, WAVE_TRIANGLE, 0.35f},
                    {659, 659, 110, WAVE_TRIANGLE, 0.35f},
                    {784, 784, 110, WAVE_TRIANGLE, 0.35f},
                    {1047, 1047, 380, WAVE_TRIANGLE, 0.38f}},
    [CL_SFX_LOSE] = {{392, 392, 170, WAVE_TRIANGLE, 0.30f},
                     {330, 330, 170, WAVE_TRIANGLE, 0.30f},
                     {262, 250, 420, WAVE_TRIANGLE, 0.30f}},
};

static float wave_at(int wave, float phase) /* phase in [0, 1) */
{
    switch (wave) {
    case WAVE_SQUARE:
        return phase < 0.5f ? 0.6f : -0.6f; /* a square is loud: taken down */
    case WAVE_TRIANGLE:
        return phase < 0.5f ? 4.0f * phase - 1.0f : 3.0f - 4.0f * phase;
    default:
        return sinf(6.2831853f * phase);
    }
}

/* Writes a note into out (n samples): a 4 ms attack, then a decay to 0 at
 * its end, so no effect clicks when it starts or stops. */
static void synth_note(const note *nt, int16_t *out, size_t n)
{
    float phase = 0;
    size_t attack = CL_AUDIO_RATE * 4 / 1000;
    for (size_t i = 0; i < n; i++) {
        float t = (float)i / (float)n;
        float f = nt->f0 + (nt->f1 - nt->f0) * t;
        float env = i < attack ? (float)i / (float)attack : (1.0f - t) * (1.0f - t);
        float s = wave_at(nt->wave, phase) * env * nt->amp;
        out[i] = (int16_t)lrintf(s * 32767.0f);
        phase += f / CL_AUDIO_RATE;
        phase -= floorf(phase);
    }
}

static void synth_all(cl_audio *au)
{
    for (int s = 0; s < CL_SFX_COUNT; s++) {
        size_t total = 0;
        for (int k = 0; k < 5 && score[s][k].amp > 0; k++)
            total += (size_t)CL_AUDIO_RATE * (size_t)score[s][k].ms / 1000;
        au->buf[s] = mr_alloc(total, sizeof(int16_t));
        au->len[s] = total;
        size_t at = 0;
        for (int k = 0; k < 5 && score[s][k].amp > 0; k++) {
            size_t n = (size_t)CL_AUDIO_RATE * (size_t)score[s][k].ms / 1000;
            synth_note(&score[s][k], au->buf[s] + at, n);
            at += n;
        }
    }
}

void cl_audio_mix(cl_audio *au, int16_t *out, size_t n)
{
    memset(out, 0, n * sizeof *out);
    int vol = au->muted ? 0 : au->volume;
    for (int i = 0; i < CL_AUDIO_VOICES; i++) {
        voice *v = &au->v[i];
        if (v->sfx < 0)
            continue;
        const int16_t *src = au->buf[v->sfx];
        size_t len = au->len[v->sfx];
        for (size_t k = 0; k < n && v->pos < len; k++, v->pos++) {
            int32_t s = out[k] + src[v->pos] * vol / 100;
            out[k] = (int16_t)(s > 32767 ? 32767 : s < -32768 ? -32768 : s);
        }
        if (v->pos >= len)
            v->sfx = -1;
    }
}

static void SDLCALL callback(void *user, Uint8 *stream, int bytes)
{
    cl_audio_mix(user, (int16_t *)(void *)stream, (size_t)bytes / sizeof(int16_t));
}

cl_audio *cl_audio_create(bool open_device)
{
    cl_audio *au = mr_alloc(1, sizeof *au);
    au->volume = 70;
    for (int i = 0; i < CL_AUDIO_VOICES; i++)
        au->v[i].sfx = -1;
    synth_all(au);
    if (!open_device)
        return au;
    if (!SDL_WasInit(SDL_INIT_AUDIO)) {
        if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0)
            return au; /* no driver: silent, as the player's machine allows */
        au->own_subsystem = true;
    }
    /* A driver that lists no output at all (ALSA on a machine without a
     * sound card) is not asked to open one: the library would print its
     * failure on the player's terminal. -1 (cannot list) still tries. */
    if (SDL_GetNumAudioDevices(0) == 0)
        return au;
    SDL_AudioSpec want = {.freq = CL_AUDIO_RATE,
                          .format = AUDIO_S16SYS,
                          .channels = 1,
                          .samples = 512,
                          .callback = callback,
                          .userdata = au};
    au->dev = SDL_OpenAudioDevice(NULL, 0, &want, NULL, 0);
    if (au->dev)
        SDL_PauseAudioDevice(au->dev, 0);
    return au;
}

void cl_audio_destroy(cl_audio *au)
{
    if (!au)
        return;
    if (au->dev)
        SDL_CloseAudioDevice(au->dev);
    if (au->own_subsystem)
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
    for (int s = 0; s < CL_SFX_COUNT; s++)
        free(au->buf[s]);
    free(au);
}

bool cl_audio_has_device(const cl_audio *au)
{
    return au && au->dev != 0;
}

void cl_audio_set_volume(cl_audio *au, int volume, bool muted)
{
    if (!au)
        return;
    if (au->dev)
        SDL_LockAudioDevice(au->dev);
    au->volume = volume < 0 ? 0 : volume > 100 ? 100 : volume;
    au->muted = muted;
    if (au->dev)
        SDL_UnlockAudioDevice(au->dev);
}

void cl_audio_play(cl_audio *au, int sfx)
{
    if (!au || sfx < 0 || sfx >= CL_SFX_COUNT || au->muted || au->volume == 0)
        return;
    if (au->dev)
        SDL_LockAudioDevice(au->dev);
    int pick = 0;
    for (int i = 0; i < CL_AUDIO_VOICES; i++) {
        if (au->v[i].sfx < 0) {
            pick = i;
            break;
        }
        if (au->v[i].started < au->v[pick].started)
            pick = i;
    }
    au->v[pick] = (voice){sfx, 0, ++au->plays};
    au->played[sfx]++;
    if (au->dev)
        SDL_UnlockAudioDevice(au->dev);
}

const int16_t *cl_audio_samples(const cl_audio *au, int sfx, size_t *n)
{
    if (sfx < 0 || sfx >= CL_SFX_COUNT) {
        *n = 0;
        return NULL;
    }
    *n = au->len[sfx];
    return au->buf[sfx];
}

unsigned cl_audio_played(const cl_audio *au, int sfx)
{
    return sfx >= 0 && sfx < CL_SFX_COUNT ? au->played[sfx] : 0;
}
