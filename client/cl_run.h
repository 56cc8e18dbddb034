/* cl_run.h: the game's run from parsed arguments (main.c): the screens, the
 * start the command line asks for, the main loop or the benchmark. */
#ifndef CL_RUN_H
#define CL_RUN_H

#include "cl_args.h"

/* Runs the client with the parsed arguments; returns the exit code. */
int cl_run(const cl_args *args);

#endif
