/* cl_bench.h: --bench: frame-time figures on the largest board of each kind
 * (software renderer, 1280x720) and the time from launch to the menu. */
#ifndef CL_BENCH_H
#define CL_BENCH_H

#include <stdint.h>

struct cl_app;
/* Runs the bench on an app whose window and renderer are up; prints
 * RESULT lines; returns the exit code. launch_ms: wall clock at main(). */
int cl_bench_run(struct cl_app *a, uint64_t launch_ms);

#endif
