/* main.c: the mazerace client's entry point: parse flags, run the app. */
#include <stdio.h>

#include "cl_run.h"
#include "util.h"

int main(int argc, char **argv)
{
    cl_args args;
    char err[256];
    if (cl_args_parse(&args, argc, argv, err, sizeof err)) {
        fprintf(stderr, "mazerace: %s\n", err);
        cl_args_usage(stderr);
        return 2;
    }
    if (args.help) {
        cl_args_usage(stdout);
        return 0;
    }
    if (args.version) {
        printf("mazerace %s\n", MR_VERSION);
        return 0;
    }
    return cl_run(&args);
}
