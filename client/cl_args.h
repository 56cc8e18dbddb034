/* cl_args.h: the client's command line. */
#ifndef CL_ARGS_H
#define CL_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cl_args {
    bool headless, software, no_vsync, no_save, bench, help, version, fullscreen;
    const char *script, *screenshot, *settings;
    const char *history; /* --history PATH, or "none"; NULL: the default */
    const char *hotseat_id, *computer_id, *join_addr, *host_id, *room;
    const char *watch;       /* with join_addr: watch this room code ("any": the first race listed) */
    const char *replay;      /* --replay FILE */
    const char *replay_from; /* --replay-from HOST:PORT [MATCHID]: the server */
    uint64_t replay_from_id; /* its MATCHID, 0: list the server's matches */
    bool quick;
    int series;           /* best of N for --hotseat / --vs-computer / --host, default 1 */
    int bot_ms;           /* --bot-pace (deprecated): ms per move of the computer, 0 unset */
    int bot_level;        /* --bot-level: enum bot_level, default BOT_LEVEL_DEFAULT */
    bool bot_level_given; /* --bot-level was on the command line (else the settings' level) */
    int width, height;
    const char *name;
    const char *coordinator; /* --coordinator HOST[:PORT] ("none": no coordinator); NULL: the setting */
    const char *host_bind;   /* --host-bind: address the hosted server listens on (default all) */
    int host_port;
    int lan_port;
    /* --lan-port: discovery port the join screen probes (default 27911) */ /* --host-port: its game port;
                                                                               0 any free one (then
                                                                               discovery too); -1 default
                                                                             */
    double max_seconds; /* --max-seconds: quit after this long (tests), 0 off */
    int bench_frames;
} cl_args;

/* Parses argv. Returns NULL when fine, else a message (the caller prints it
 * with the usage and exits 2). */
const char *cl_args_parse(cl_args *a, int argc, char **argv, char *err, size_t errlen);
void cl_args_usage(FILE *f);

#endif
