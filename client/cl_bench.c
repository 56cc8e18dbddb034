/* cl_bench.c: --bench: CPU time per frame on the largest boards, and launch to
 * menu. Frames are driven with a virtual clock and no frame cap, so the
 * figures are the work a frame costs, not the vsync wait. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cl_app.h"
#include "cl_bench.h"
#include "cl_netui.h"
#include "util.h"

static double thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

enum { PLAN_MAX = 8192 };

static void bench_kind(cl_app *a, const pz_kind *k, int frames)
{
    char id[96];
    cl_backend *b = NULL;
    char err[256] = "";
    /* The largest board the kind allows, easing the difficulty if the
     * generator cannot meet it at that size. */
    pz_params p = {k->id, k->max_w, k->max_h, PZ_MEDIUM};
    static const int diffs[] = {PZ_MEDIUM, PZ_HARD, PZ_EASY};
    for (int di = 0; di < 3 && !b; di++) {
        /* The largest size this kind accepts at this difficulty: shrink the
         * longer side until the kind's own checks agree. */
        p.diff = diffs[di];
        p.w = k->max_w;
        p.h = k->max_h;
        for (int guard = 0; guard < 200 && pz_validate_params(&p); guard++) {
            if (p.w >= p.h && p.w > k->min_w)
                p.w--;
            else if (p.h > k->min_h)
                p.h--;
        }
        if (pz_validate_params(&p))
            continue;
        pz_id_format_seeded(&p, 1, id, sizeof id);
        uint64_t t0 = mr_now_us();
        b = cl_backend_local(id, "Bench", "Computer", -1, 700, 0.0, 1, 7, a->now_ms, err, sizeof err);
        if (b)
            printf("bench: %s generated in %.0f ms\n", id, (double)(mr_now_us() - t0) / 1000.0);
    }
    if (!b) {
        printf("bench: %s: cannot generate the largest board: %s\n", k->name, err);
        return;
    }
    cl_app_start_backend(a, b);
    b->ops->ready(b, a->now_ms);
    cl_app_set_scene(a, CL_SCENE_RACE);
    /* Through the countdown without measuring. */
    for (int i = 0; i < 400 && !a->race.racing; i++) {
        a->now_ms += 16;
        a->dt_ms = 16;
        cl_app_frame(a);
    }
    pz_move *plan = mr_alloc(PLAN_MAX, sizeof *plan);
    int nplan = a->race.pz && k->solve ? k->solve(a->race.pz, NULL, plan, PLAN_MAX) : 0;
    if (nplan > PLAN_MAX)
        nplan = PLAN_MAX;
    /* Stop one move short: the figures are for a race in progress. */
    if (nplan > 0)
        nplan--;
    double *cpu = mr_alloc((size_t)frames, sizeof *cpu);
    int next = 0;
    uint64_t wall0 = mr_now_us();
    for (int f = 0; f < frames; f++) {
        a->now_ms += 16;
        a->dt_ms = 16;
        double t0 = thread_cpu_ms();
        /* A move every other frame keeps the camera moving over the board. */
        if ((f & 1) && next < nplan && a->race.racing)
            cl_race_play(&a->race, a->backend, a->backend->my_slot, plan[next++], a->now_ms);
        cl_app_frame(a);
        cpu[f] = thread_cpu_ms() - t0;
    }
    double wall = (double)(mr_now_us() - wall0) / 1000.0;
    double sum = 0;
    for (int f = 0; f < frames; f++)
        sum += cpu[f];
    qsort(cpu, (size_t)frames, sizeof *cpu, cmp_double);
    printf("RESULT client_frame %s_%dx%d %dx%d mean_ms=%.3f p50_ms=%.3f p99_ms=%.3f max_ms=%.3f "
           "wall_ms_per_frame=%.3f "
           "frames=%d moves=%d\n",
           k->name, p.w, p.h, a->out_w, a->out_h, sum / frames, cpu[frames / 2], cpu[frames * 99 / 100],
           cpu[frames - 1], wall / frames, frames, next);
    fflush(stdout);
    free(cpu);
    free(plan);
    cl_app_end_backend(a);
}

int cl_bench_run(cl_app *a, uint64_t launch_ms)
{
    a->virtual_clock = true;
    a->start_ms = a->now_ms = 1000;
    cl_app_set_scene(a, CL_SCENE_MENU);
    cl_app_frame(a);
    printf("RESULT client_launch_to_menu_ms=%.1f (window %dx%d, software renderer)\n",
           (double)(mr_now_us() / 1000u - launch_ms), a->out_w, a->out_h);
    fflush(stdout);
    for (int k = 0; k < PZ_KIND_COUNT; k++)
        bench_kind(a, pz_kind_by_id(k), a->args.bench_frames);
    return 0;
}
