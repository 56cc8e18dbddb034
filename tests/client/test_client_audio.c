/* test_client_audio.c: the sound effects headless: synthesised buffers are
 * audible, bounded and the same every run; the mixer plays what was asked,
 * mute and volume 0 give silence; the race cues (countdown, start,
 * opponent's milestones, win, loss); SDL's dummy driver opens a device and
 * a missing driver leaves the game silent without an error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <SDL.h>

#include "cl_audio.h"
#include "cl_sfx.h"

static void test_buffers_audible_bounded_deterministic(void **ctx)
{
    (void)ctx;
    cl_audio *a = cl_audio_create(false), *b = cl_audio_create(false);
    for (int s = 0; s < CL_SFX_COUNT; s++) {
        size_t n, m;
        const int16_t *x = cl_audio_samples(a, s, &n), *y = cl_audio_samples(b, s, &m);
        assert_true(n > CL_AUDIO_RATE / 50);     /* at least 20 ms */
        assert_true(n <= CL_AUDIO_RATE * 3 / 2); /* at most 1.5 s */
        assert_int_equal(n, m);
        assert_memory_equal(x, y, n * sizeof *x);
        double energy = 0;
        int peak = 0;
        for (size_t i = 0; i < n; i++) {
            energy += (double)x[i] * x[i];
            peak = abs(x[i]) > peak ? abs(x[i]) : peak;
        }
        double rms = SDL_sqrt(energy / (double)n);
        print_message("%-10s %5zu samples  peak %5d  rms %6.0f\n", cl_sfx_name(s), n, peak, rms);
        assert_true(rms > 1000);            /* audible */
        assert_true(peak <= 32767 * 2 / 5); /* headroom for several at once */
        /* No click: it starts and ends near silence. */
        assert_true(abs(x[0]) < 200);
        assert_true(abs(x[n - 1]) < 200);
    }
    cl_audio_destroy(a);
    cl_audio_destroy(b);
}

static double mix_energy(cl_audio *au, size_t n)
{
    int16_t *out = calloc(n, sizeof *out);
    cl_audio_mix(au, out, n);
    double e = 0;
    for (size_t i = 0; i < n; i++)
        e += (double)out[i] * out[i];
    free(out);
    return e;
}

static void test_mixer_plays_and_mutes(void **ctx)
{
    (void)ctx;
    cl_audio *au = cl_audio_create(false);
    size_t n;
    const int16_t *win = cl_audio_samples(au, CL_SFX_WIN, &n);
    cl_audio_set_volume(au, 100, false);
    cl_audio_play(au, CL_SFX_WIN);
    assert_int_equal(cl_audio_played(au, CL_SFX_WIN), 1);
    /* At full volume alone, the mix is the effect's own samples. */
    int16_t *out = calloc(n + 100, sizeof *out);
    cl_audio_mix(au, out, n + 100);
    assert_memory_equal(out, win, n * sizeof *out);
    for (size_t i = n; i < n + 100; i++)
        assert_int_equal(out[i], 0); /* and then it is over */
    /* Half volume: about a quarter of the energy. */
    cl_audio_set_volume(au, 50, false);
    cl_audio_play(au, CL_SFX_WIN);
    double half = mix_energy(au, n);
    cl_audio_set_volume(au, 100, false);
    cl_audio_play(au, CL_SFX_WIN);
    double full = mix_energy(au, n);
    assert_true(half > full * 0.2 && half < full * 0.3);
    /* Muted: nothing starts and the mix is silence. */
    cl_audio_set_volume(au, 100, true);
    cl_audio_play(au, CL_SFX_MOVE);
    assert_int_equal(cl_audio_played(au, CL_SFX_MOVE), 0);
    assert_true(mix_energy(au, 4096) == 0);
    /* Volume 0 likewise; a sound playing when mute comes goes silent. */
    cl_audio_set_volume(au, 100, false);
    cl_audio_play(au, CL_SFX_LOSE);
    cl_audio_set_volume(au, 100, true);
    assert_true(mix_energy(au, 4096) == 0);
    cl_audio_set_volume(au, 0, false);
    cl_audio_play(au, CL_SFX_TICK);
    assert_int_equal(cl_audio_played(au, CL_SFX_TICK), 0);
    /* More effects than voices: the oldest gives way, nothing breaks. */
    cl_audio_set_volume(au, 100, false);
    for (int i = 0; i < CL_AUDIO_VOICES * 3; i++)
        cl_audio_play(au, CL_SFX_MOVE);
    assert_int_equal(cl_audio_played(au, CL_SFX_MOVE), CL_AUDIO_VOICES * 3);
    assert_true(mix_energy(au, 256) > 0);
    free(out);
    cl_audio_destroy(au);
}

static unsigned total(const cl_audio *au, int sfx)
{
    return cl_audio_played(au, sfx);
}

static void test_race_cues(void **ctx)
{
    (void)ctx;
    cl_audio *au = cl_audio_create(false);
    cl_audio_set_volume(au, 100, false);
    cl_race r;
    memset(&r, 0, sizeof r);
    int fake_pz;
    r.pz = (const pz_puzzle *)(void *)&fake_pz;
    r.start_ms = 10000;
    r.p[0].remaining = r.p[1].remaining = -1;
    cl_sfx_cues c;
    memset(&c, 0, sizeof c);
    /* Countdown from 5 s: ticks at 3, 2, 1 only, once each, at 60 frames a second. */
    for (uint64_t t = 5000; t < 10000; t += 16)
        cl_sfx_watch(au, &c, &r, 0, false, t);
    assert_int_equal(total(au, CL_SFX_TICK), 3);
    assert_int_equal(total(au, CL_SFX_GO), 0);
    r.racing = true;
    cl_sfx_watch(au, &c, &r, 0, false, 10010);
    cl_sfx_watch(au, &c, &r, 0, false, 10030);
    assert_int_equal(total(au, CL_SFX_GO), 1);
    /* The opponent (slot 1) from 20 cells away: milestones at 15, 10 and 5. */
    int walk[] = {20, 19, 16, 15, 15, 14, 12, 10, 11, 9, 6, 5, 3, 1};
    unsigned seen[sizeof walk / sizeof walk[0]];
    for (size_t i = 0; i < sizeof walk / sizeof walk[0]; i++) {
        r.p[1].remaining = walk[i];
        cl_sfx_watch(au, &c, &r, 0, false, 11000 + i);
        seen[i] = total(au, CL_SFX_MILESTONE);
    }
    assert_int_equal(seen[2], 0);
    assert_int_equal(seen[3], 1);  /* 15: a quarter */
    assert_int_equal(seen[7], 2);  /* 10: half */
    assert_int_equal(seen[8], 2);  /* going back and forth sounds nothing new */
    assert_int_equal(seen[11], 3); /* 5: three quarters */
    assert_int_equal(seen[13], 3);
    /* My own progress never sounds a milestone. */
    r.p[0].remaining = 1;
    cl_sfx_watch(au, &c, &r, 1, false, 12000);
    /* The end: slot 1 won, so slot 0 hears the loss, once. */
    r.finished = true;
    r.racing = false;
    r.result.winner = 1;
    cl_sfx_watch(au, &c, &r, 0, false, 13000);
    cl_sfx_watch(au, &c, &r, 0, false, 13016);
    assert_int_equal(total(au, CL_SFX_LOSE), 1);
    assert_int_equal(total(au, CL_SFX_WIN), 0);
    /* A rematch (new start) that slot 0 wins; hotseat only ever hears a win. */
    r.start_ms = 20000;
    r.finished = false;
    r.racing = true;
    cl_sfx_watch(au, &c, &r, 0, false, 20100);
    r.finished = true;
    r.result.winner = 0;
    cl_sfx_watch(au, &c, &r, 0, false, 21000);
    assert_int_equal(total(au, CL_SFX_WIN), 1);
    assert_int_equal(total(au, CL_SFX_GO), 2);
    r.start_ms = 30000;
    r.finished = false;
    r.result.winner = 1;
    cl_sfx_watch(au, &c, &r, 0, true, 30100);
    r.finished = true;
    cl_sfx_watch(au, &c, &r, 0, true, 31000);
    assert_int_equal(total(au, CL_SFX_WIN), 2);
    assert_int_equal(total(au, CL_SFX_LOSE), 1);
    assert_int_equal(total(au, CL_SFX_GO), 3);
    /* Arriving late in a race (a spectator, a resume): no start sound. */
    r.start_ms = 40000;
    r.finished = false;
    cl_sfx_watch(au, &c, &r, 0, true, 45000);
    assert_int_equal(total(au, CL_SFX_GO), 3);
    cl_audio_destroy(au);
}

static void test_device_dummy_and_none(void **ctx)
{
    (void)ctx;
    /* SDL's dummy driver: a device opens, and the callback may run while we play. */
    setenv("SDL_AUDIODRIVER", "dummy", 1);
    cl_audio *au = cl_audio_create(true);
    assert_true(cl_audio_has_device(au));
    cl_audio_play(au, CL_SFX_GO);
    assert_int_equal(cl_audio_played(au, CL_SFX_GO), 1);
    cl_audio_destroy(au);
    assert_false(SDL_WasInit(SDL_INIT_AUDIO)); /* it shut down what it started */
    /* No such driver (a machine with no sound): silent, everything still works. */
    setenv("SDL_AUDIODRIVER", "no-such-driver", 1);
    au = cl_audio_create(true);
    assert_false(cl_audio_has_device(au));
    cl_audio_set_volume(au, 80, false);
    cl_audio_play(au, CL_SFX_WIN);
    assert_int_equal(cl_audio_played(au, CL_SFX_WIN), 1);
    cl_audio_destroy(au);
    setenv("SDL_AUDIODRIVER", "dummy", 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buffers_audible_bounded_deterministic),
        cmocka_unit_test(test_mixer_plays_and_mutes),
        cmocka_unit_test(test_race_cues),
        cmocka_unit_test(test_device_dummy_and_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
