/* cl_args.c: parsing the client's command line. */
#include "cl_args.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot_model.h"
#include "joinlink.h"
#include "util.h"

void cl_args_usage(FILE *f)
{
    fputs("usage: mazerace [options]\n"
          "  --hotseat ID        race a friend on this machine (split screen) on game ID\n"
          "  --vs-computer ID    race the computer on game ID\n"
          "  --host [ID]         host a LAN game (default: a fresh maze) and wait for a friend\n"
          "  --join LINK         join a server: HOST:PORT with --room CODE or --quick (the\n"
          "                      default), or a join link mazerace://HOST:PORT/CODE (or\n"
          "                      HOST:PORT/CODE) straight into that room\n"
          "  --join +CODE        join a friend's game by its invite code, through the\n"
          "                      coordinator (or mazerace://+CODE[@COORDINATOR], the\n"
          "                      link the host's lobby copies)\n"
          "  mazerace://...      a join link alone is the same as --join LINK (the URL\n"
          "                      handler starts the game this way)\n"
          "  --coordinator HOST[:PORT]\n"
          "                      the coordinator for invite codes and the Internet list\n"
          "                      (default port 27920; none: no coordinator; default: the\n"
          "                      settings' coordinator)\n"
          "  --host-bind ADDR    address the hosted server listens on (default: all)\n"
          "  --host-port N       its game port (default 27910; taken: any free port, said\n"
          "                      in the lobby; 0: any free port, and without --lan-port\n"
          "                      any free LAN discovery port)\n"
          "  --lan-port N        LAN discovery ports N..N+3: the join screen asks them all,\n"
          "                      a hosted game answers on the first free (default 27911)\n"
          "  --room CODE         room code to join\n"
          "  --watch CODE        with --join: watch that room as a spectator (any: the first race)\n"
          "  --replay FILE       play a replay file (docs/replay.md); dropping a file on\n"
          "                      the window opens it too\n"
          "  --replay-from HOST:PORT [MATCHID]\n"
          "                      play match MATCHID as stored on that server (its --db);\n"
          "                      without MATCHID list the server's stored matches\n"
          "  --quick             quick match: pair with the next waiting player\n"
          "  --series N          best of N (1..99, default 1)\n"
          "  --bot-level LEVEL   computer opponent: beginner (default), casual, strong\n"
          "                      or expert (docs/bot.md)\n"
          "  --bot-pace MS       deprecated: the computer at a fixed ms per move instead\n"
          "  --name NAME         player name (also kept in settings)\n"
          "  --size WxH          window size\n"
          "  --fullscreen        start fullscreen (F11 or Alt+Enter toggles)\n"
          "  --headless          no window (SDL dummy video driver, software renderer)\n"
          "  --software          software renderer\n"
          "  --no-vsync          frame cap only\n"
          "  --script FILE       timed input events (format in docs/client.md)\n"
          "  --screenshot PATH   save the window as BMP after the script (or the first\n"
          "                      full frame), then exit\n"
          "  --settings PATH     settings file (default: in SDL's pref path)\n"
          "  --no-save           never write the settings file or record races\n"
          "  --history PATH      race history file (default: in SDL's pref path;\n"
          "                      none: no history)\n"
          "  --max-seconds S     quit after S seconds (exit code 3)\n"
          "  --bench [FRAMES]    print frame-time figures on the largest boards and exit\n"
          "  --version, --help\n",
          f);
}

/* The flags that only set a field: a switch, a text, or a whole number
 * in lo..hi (else "FLAG must be lo..hi UNIT"). The others are in cl_args_parse. */
enum { ARG_SWITCH, ARG_TEXT, ARG_INT };
typedef struct arg_flag {
    const char *flag;
    int type;
    size_t off;
    int lo, hi;
    const char *unit;
} arg_flag;

#define F(field) offsetof(cl_args, field)
static const arg_flag flags[] = {
    {.flag = "--help", .type = ARG_SWITCH, .off = F(help)},
    {.flag = "-h", .type = ARG_SWITCH, .off = F(help)},
    {.flag = "--version", .type = ARG_SWITCH, .off = F(version)},
    {.flag = "--headless", .type = ARG_SWITCH, .off = F(headless)},
    {.flag = "--software", .type = ARG_SWITCH, .off = F(software)},
    {.flag = "--no-vsync", .type = ARG_SWITCH, .off = F(no_vsync)},
    {.flag = "--no-save", .type = ARG_SWITCH, .off = F(no_save)},
    {.flag = "--fullscreen", .type = ARG_SWITCH, .off = F(fullscreen)},
    {.flag = "--quick", .type = ARG_SWITCH, .off = F(quick)},
    {.flag = "--script", .type = ARG_TEXT, .off = F(script)},
    {.flag = "--screenshot", .type = ARG_TEXT, .off = F(screenshot)},
    {.flag = "--settings", .type = ARG_TEXT, .off = F(settings)},
    {.flag = "--history", .type = ARG_TEXT, .off = F(history)},
    {.flag = "--hotseat", .type = ARG_TEXT, .off = F(hotseat_id)},
    {.flag = "--vs-computer", .type = ARG_TEXT, .off = F(computer_id)},
    {.flag = "--join", .type = ARG_TEXT, .off = F(join_addr)},
    {.flag = "--replay", .type = ARG_TEXT, .off = F(replay)},
    {.flag = "--watch", .type = ARG_TEXT, .off = F(watch)},
    {.flag = "--room", .type = ARG_TEXT, .off = F(room)},
    {.flag = "--name", .type = ARG_TEXT, .off = F(name)},
    {.flag = "--host-bind", .type = ARG_TEXT, .off = F(host_bind)},
    {.flag = "--lan-port", .type = ARG_INT, .off = F(lan_port), .lo = 1, .hi = 65535, .unit = ""},
    {.flag = "--host-port", .type = ARG_INT, .off = F(host_port), .lo = 0, .hi = 65535, .unit = ""},
    {.flag = "--series", .type = ARG_INT, .off = F(series), .lo = 1, .hi = 99, .unit = ""},
    {.flag = "--bot-pace", .type = ARG_INT, .off = F(bot_ms), .lo = 20, .hi = 60000, .unit = " ms"},
};
#undef F

static const arg_flag *flag_of(const char *o)
{
    for (size_t i = 0; i < MR_ARRAY_LEN(flags); i++)
        if (strcmp(o, flags[i].flag) == 0)
            return &flags[i];
    return NULL;
}

const char *cl_args_parse(cl_args *a, int argc, char **argv, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    a->series = 1;
    a->bot_level = BOT_LEVEL_DEFAULT;
    a->bench_frames = 300;
    a->host_port = -1;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool has_v = v && v[0] != '-';
#define NEED()                                                                                               \
    do {                                                                                                     \
        if (!v) {                                                                                            \
            snprintf(err, errlen, "%s needs a value", o);                                                    \
            return err;                                                                                      \
        }                                                                                                    \
        i++;                                                                                                 \
    } while (0)
        const arg_flag *f = flag_of(o);
        if (f && f->type == ARG_SWITCH) {
            *(bool *)(void *)((char *)a + f->off) = true;
        } else if (f) {
            NEED();
            if (f->type == ARG_TEXT) {
                *(const char **)(void *)((char *)a + f->off) = v;
            } else if (!mr_parse_int(v, f->lo, f->hi, (int *)(void *)((char *)a + f->off))) {
                snprintf(err, errlen, "%s must be %d..%d%s", o, f->lo, f->hi, f->unit);
                return err;
            }
        } else if (!strcmp(o, "--replay-from")) {
            NEED();
            a->replay_from = v;
            const char *id = i + 1 < argc ? argv[i + 1] : NULL;
            if (id && id[0] >= '0' && id[0] <= '9') {
                char *end;
                unsigned long long n = strtoull(id, &end, 10);
                if (*end || n < 1 || n > INT64_MAX) {
                    snprintf(err, errlen, "--replay-from: '%s' is not a match id (a number from 1)", id);
                    return err;
                }
                a->replay_from_id = n;
                i++;
            }
        } else if (!strcmp(o, "--coordinator")) {
            NEED();
            if (!v[0] || strpbrk(v, " /@")) {
                snprintf(err, errlen, "--coordinator takes HOST or HOST:PORT (or none)");
                return err;
            }
            a->coordinator = v;
        } else if (!strcmp(o, "--host")) {
            a->host_id = "";
            if (has_v) {
                a->host_id = v;
                i++;
            }
        } else if (!strcmp(o, "--bot-level")) {
            NEED();
            a->bot_level = bot_level_by_name(v);
            a->bot_level_given = true;
            if (a->bot_level < 0) {
                snprintf(err, errlen, "--bot-level must be beginner, casual, strong or expert, not '%.40s'",
                         v);
                return err;
            }
        } else if (!strcmp(o, "--max-seconds")) {
            NEED();
            int s;
            if (!mr_parse_int(v, 1, 86400, &s)) {
                snprintf(err, errlen, "--max-seconds must be 1..86400");
                return err;
            }
            a->max_seconds = s;
        } else if (!strcmp(o, "--bench")) {
            a->bench = true;
            if (has_v) {
                i++;
                if (!mr_parse_int(v, 10, 100000, &a->bench_frames)) {
                    snprintf(err, errlen, "--bench FRAMES must be 10..100000");
                    return err;
                }
            }
        } else if (!strcmp(o, "--size")) {
            NEED();
            int w, h;
            if (!mr_parse_size(v, &w, &h)) {
                snprintf(err, errlen, "--size must be WxH, e.g. 1280x720");
                return err;
            }
            if (w < 320 || h < 240 || w > 16384 || h > 16384) {
                snprintf(err, errlen, "--size must be WxH between 320x240 and 16384x16384");
                return err;
            }
            a->width = w;
            a->height = h;
        } else if (strncmp(o, "mazerace:", 9) == 0 && !a->join_addr) {
            a->join_addr = o; /* the URL handler: mazerace %u */
        } else {
            snprintf(err, errlen, "unknown option '%s'", o);
            return err;
        }
#undef NEED
    }
    int modes =
        !!a->hotseat_id + !!a->computer_id + !!a->join_addr + !!a->host_id + !!a->replay + !!a->replay_from;
    if (modes > 1) {
        snprintf(err, errlen,
                 "choose one of --hotseat, --vs-computer, --host, --join, --replay, --replay-from");
        return err;
    }
    if (a->watch && (!a->join_addr || a->room)) {
        snprintf(err, errlen, "--watch needs --join HOST:PORT (and no --room)");
        return err;
    }
    if (a->replay_from) {
        char host[256];
        int port;
        const char *why = joinlink_parse_addr(a->replay_from, host, sizeof host, &port);
        if (why) {
            snprintf(err, errlen, "--replay-from %s: %s", a->replay_from, why);
            return err;
        }
    }
    if (a->room && !a->join_addr) {
        snprintf(err, errlen, "--room needs --join HOST:PORT");
        return err;
    }
    if (a->join_addr) {
        joinlink l;
        /* A link that does not parse still opens the game: the Join screen
         * shows it and what is wrong with it (cl_run). */
        bool link_ok = !joinlink_parse(a->join_addr, &l);
        char code[WIRE_ROOM_CODE_LEN + 1];
        if (a->room && !wire_room_code_parse(a->room, code)) {
            snprintf(err, errlen, "--room %s: a room code is 5 letters", a->room);
            return err;
        }
        if (link_ok && a->room && l.room[0] && strcmp(code, l.room) != 0) {
            snprintf(err, errlen, "--join names room %s but --room says %s", l.room, code);
            return err;
        }
    }
    return NULL;
}
