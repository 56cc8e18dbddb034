/* cl_run.c: the game's run: the screens handed to the app, the start asked
 * on the command line (a mode, a replay, a server's replays, a link to join),
 * the main loop on the wall or virtual clock, and the benchmark. The app
 * (cl_app.c) names no screen; this file ties them together. */
#include "cl_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_bench.h"
#include "cl_netui.h"
#include "cl_replay.h"
#include "cl_scene.h"
#include "joinlink.h"
#include "util.h"

static const cl_scene *const scenes[CL_SCENE_COUNT] = {
    [CL_SCENE_MENU] = &cl_scene_menu,         [CL_SCENE_SETUP] = &cl_scene_setup,
    [CL_SCENE_JOIN] = &cl_scene_join,         [CL_SCENE_LOBBY] = &cl_scene_lobby,
    [CL_SCENE_RACE] = &cl_scene_race,         [CL_SCENE_RESULTS] = &cl_scene_results,
    [CL_SCENE_SETTINGS] = &cl_scene_settings, [CL_SCENE_HISTORY] = &cl_scene_history,
    [CL_SCENE_WATCH] = &cl_scene_watch,       [CL_SCENE_REPLAY] = &cl_scene_replay,
    [CL_SCENE_SRVREP] = &cl_scene_srvrep,
};

static uint64_t wall_ms(void)
{
    return mr_now_us() / 1000u;
}

/* A file dropped on the window is a replay to play. */
static void open_dropped(cl_app *a, const char *path)
{
    cl_replay_open_file(a, path);
}

/* --join +CODE or mazerace://+CODE: an invite code (cl_app_join takes it). */
static bool invite_arg(const char *text)
{
    char code[12], coord[128];
    const char *why;
    return joinlink_invite(text, code, coord, sizeof coord, &why);
}

/* Starts whatever mode the command line asked for. False: the link to
 * join did not parse (the Join screen shows it). */
static bool start_from_args(cl_app *a)
{
    const char *why = NULL;
    if (a->args.hotseat_id)
        why = cl_app_start_mode(a, CL_MODE_HOTSEAT, a->args.hotseat_id, a->args.series, 0);
    else if (a->args.computer_id)
        why = cl_app_start_mode(a, CL_MODE_COMPUTER, a->args.computer_id, a->args.series, a->args.bot_level);
    else if (a->args.host_id) {
        char fresh[64];
        snprintf(fresh, sizeof fresh, "maze:21x15:medium#%u", (unsigned)rng_below(&a->fx_rng, 1000000000u));
        why = cl_app_start_mode(a, CL_MODE_HOST, a->args.host_id[0] ? a->args.host_id : fresh, a->args.series,
                                0);
    } else if (a->args.replay) {
        if (cl_replay_open_file(a, a->args.replay)) {
            a->exit_code = 2; /* a bad file, said with its line:column */
            return true;
        }
    } else if (a->args.replay_from) {
        why = cl_srvrep_open(a, a->args.replay_from, a->args.replay_from_id);
    } else if (a->args.join_addr && a->args.watch) {
        why = cl_app_watch(a, a->args.join_addr, strcmp(a->args.watch, "any") == 0 ? NULL : a->args.watch);
    } else if (a->args.join_addr && !invite_arg(a->args.join_addr) &&
               (why = joinlink_parse(a->args.join_addr, &(joinlink){0}))) {
        /* A bad link (from a web page, a chat): the game opens on the Join
         * screen with the link in its field and what is wrong with it. */
        cl_app_join_show(a, a->args.join_addr);
        cl_app_say(a, true, "This link cannot be opened: %s", why);
        a->msg.until = a->now_ms + 20000;        /* the first thing seen: long enough to read and act on */
        a->exit_code = a->args.headless ? 1 : 0; /* a test sees the failure; a player plays on */
        return false;
    } else if (a->args.join_addr) {
        why = cl_app_join(a, a->args.join_addr, a->args.room, !a->args.room);
        if (!why)
            cl_app_set_scene(a, CL_SCENE_LOBBY);
    }
    if (why) {
        cl_app_say(a, true, "%s", why);
        a->exit_code = 1;
    }
    return true;
}

int cl_run(const cl_args *args)
{
    uint64_t launch = wall_ms();
    const char *err = NULL;
    cl_app *a = cl_app_open(args, scenes, &err);
    if (!a) {
        fprintf(stderr, "mazerace: cannot start: %s\n", err);
        return 1;
    }
    a->open_dropped = open_dropped;
    int code;
    if (a->args.bench) {
        code = cl_bench_run(a, launch);
    } else {
        a->virtual_clock = a->args.headless && !a->args.join_addr && !a->args.host_id && !a->args.replay_from;
        /* On the virtual clock a frame shows the same on any machine: the
         * history answers before the frame goes on. */
        cl_history_set_sync(a->history, a->virtual_clock);
        /* A day in, never 0 (0 means "unset" in places): a race a spectator
         * joins began before this program did, and its start is still a
         * time on this clock. */
        a->start_ms = a->now_ms = 86400000;
        uint64_t wall0 = wall_ms();
        if (a->msg.text[0]) {
            char first[sizeof a->msg.text];
            snprintf(first, sizeof first, "%s", a->msg.text);
            cl_app_say(a, true, "%s", first);
        }
        cl_app_set_scene(a, CL_SCENE_MENU);
        bool bad_link = !start_from_args(a);
        if (a->exit_code) /* headless: a test; with a script it may look at the screen first */
            a->quit = a->args.headless && !(bad_link && a->args.script);
        uint64_t frame_ms = 1000 / 60;
        bool was_virtual = a->virtual_clock;
        while (!a->quit) {
            uint64_t t0 = wall_ms();
            uint64_t prev = a->now_ms;
            if (was_virtual && !a->virtual_clock) /* real time from here on, without a jump */
                wall0 = t0 - (prev - a->start_ms);
            was_virtual = a->virtual_clock;
            a->now_ms = a->virtual_clock ? a->start_ms + a->frames * 1000 / 60 : a->start_ms + (t0 - wall0);
            a->dt_ms = (uint32_t)(a->now_ms - prev);
            cl_app_frame(a);
            if (a->frames == 1 && getenv("MAZERACE_REPORT_LAUNCH"))
                printf("mazerace: first frame after %llu ms\n", (unsigned long long)(wall_ms() - launch));
            if (a->args.max_seconds > 0 && a->now_ms - a->start_ms > (uint64_t)(a->args.max_seconds * 1000)) {
                fprintf(stderr, "mazerace: --max-seconds reached\n");
                a->exit_code = 3;
                break;
            }
            if (!a->virtual_clock) {
                /* Frame cap for when vsync is off or unavailable. */
                uint64_t spent = wall_ms() - t0;
                if (spent < frame_ms)
                    SDL_Delay((Uint32)(frame_ms - spent));
            }
        }
        code = a->exit_code;
        cl_app_save_settings(a);
    }
    cl_app_end_backend(a);
    cl_app_close(a);
    return code;
}
