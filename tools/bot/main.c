/* main.c: mazerace-bot, headless players for matches, load tests and the network bench: command line. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot_model.h"
#include "bt_fleet.h"
#include "bt_records.h"
#include "util.h"

static const char usage[] =
    "usage: mazerace-bot [options]\n"
    "Headless players: connect to a mazerace-server, race, print each match's result and a summary.\n"
    "\n"
    "  --server HOST:PORT  server to play on (default 127.0.0.1:27910)\n"
    "  --room CODE         join this room (default: quick match)\n"
    "  --watch CODE        watch this room as spectators (each bot one) until --matches games end;\n"
    "                      each checks it saw every move of both players against the result\n"
    "  --spectators N      with bots creating rooms (or --bench): N spectators watch each match\n"
    "  --spectator-thread  bench: the spectators on a thread and socket of their own\n"
    "  --kind K            create a room: sum, maze, ice or pipes\n"
    "  --size WxH          create a room of this size (columns x rows)\n"
    "  --difficulty D      create a room: easy, medium or hard\n"
    "  --id GAMEID         create a room on this game ID (e.g. ice:25x20:hard#12345)\n"
    "  --seed N            create a room with this seed\n"
    "  --series N          create a room playing best of N (1..99, default 1)\n"
    "                      With --kind/--size/--difficulty/--id/--seed the bots create rooms: with\n"
    "                      several bots, bot 1 creates and bot 2 joins it, bot 3 and 4 likewise...\n"
    "  --level LEVEL       play like a person: beginner, casual, strong or expert (docs/bot.md);\n"
    "                      without it the bots play at a fixed pace (load tests)\n"
    "  --pace MS           milliseconds per move (default 200; bench: 50, i.e. 20 moves/s)\n"
    "  --mistakes RATE     probability 0..1 of a wrong (legal) move (default 0)\n"
    "  --matches N         games each bot finishes before it is done (default 1)\n"
    "  --bots K            players in this process, 1..20000 (default 1); up to 4000 share one UDP socket\n"
    "  --per-socket N      players per UDP socket (ENet host), 1..4000 (default: all on one up to 4000,\n"
    "                      else equal shares): a server with several hosts (--hosts) steers each\n"
    "                      socket by its source port\n"
    "  --local-port N      bind the first socket to local port N, the next to N+1, ... (default: any);\n"
    "                      with a server of H hosts, consecutive ports land on hosts in turn\n"
    "  --name NAME         player name (default \"bot\"; with several bots NAME-1, NAME-2, ...)\n"
    "  --bot-seed N        seed of the bots' own choices (default 1)\n"
    "  --timeout S         give up after S seconds (default 120)\n"
    "  --sockbuf KIB       socket buffer size in KiB (default 4096; 0 = ENet's 256)\n"
    "  --bench S           bench mode: pairs of bots race on reversible puzzles (default maze 64x64),\n"
    "                      walking the solution back and forth so the race never ends; measures the\n"
    "                      move acknowledgement round trip for S seconds once every bot is racing\n"
    "  --server-pid PID    bench: read the server's CPU time (its CPU-time clock)\n"
    "  --recent N          play nothing: print the newest N (1..1000) matches the server stored, one a\n"
    "                      line (tab-separated: id, start, game ID, players, winner, times, moves, ending)\n"
    "  --fetch-replay ID   play nothing: write the replay of stored match ID to stdout (docs/replay.md)\n"
    "  --pair-only         quick match: each bot is done once it is in a room with an opponent (no\n"
    "                      race; it stays there until the run ends): loads of matchmaking alone\n"
    "  --quiet             print only the summary and failures\n"
    "  --help, --version\n"
    "\n"
    "Exit status: 0 success, 1 failure (refused, connection lost without resume, protocol error,\n"
    "timeout), 2 bad flags.\n";

static bool parse_double(const char *s, double lo, double hi, double *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

static int bad(const char *fmt, const char *a)
{
    fprintf(stderr, "mazerace-bot: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n(see mazerace-bot --help)\n");
    return 2;
}

static void on_signal(int sig)
{
    (void)sig;
    bt_fleet_stop();
}

int main(int argc, char **argv)
{
    bt_opts o;
    memset(&o, 0, sizeof o);
    snprintf(o.host, sizeof o.host, "127.0.0.1");
    o.port = WIRE_DEFAULT_PORT;
    o.bots = 1;
    o.timeout_s = 120;
    o.sockbuf_kib = 4096;
    o.player.name = "bot";
    o.player.mode = BT_QUICK;
    o.player.matches = 1;
    o.player.series = 1;
    o.player.bot_seed = 1;
    o.player.params.kind = -1;
    bool creating = false, pace_set = false, size_set = false, diff_set = false;
    const char *kind = NULL;
    int w = 0, h = 0, diff = PZ_MEDIUM;
    int recent = 0;
    uint64_t replay_id = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        if (strcmp(a, "--version") == 0) {
            printf("mazerace-bot %s (protocol %d)\n", MR_VERSION, WIRE_VERSION);
            return 0;
        }
        if (strcmp(a, "--quiet") == 0) {
            o.quiet = true;
            continue;
        }
        if (strcmp(a, "--spectator-thread") == 0) {
            o.spectator_thread = true;
            continue;
        }
        if (strcmp(a, "--pair-only") == 0) {
            o.player.pair_only = true;
            continue;
        }
        static const char *const with_value[] = {
            "--server",  "--room",         "--kind",       "--size",       "--difficulty",
            "--id",      "--seed",         "--series",     "--pace",       "--mistakes",
            "--matches", "--bots",         "--name",       "--bot-seed",   "--timeout",
            "--sockbuf", "--bench",        "--server-pid", "--watch",      "--spectators",
            "--recent",  "--fetch-replay", "--level",      "--per-socket", "--local-port"};
        bool known = false;
        for (size_t k = 0; k < MR_ARRAY_LEN(with_value); k++)
            known = known || strcmp(a, with_value[k]) == 0;
        if (!known)
            return bad(strncmp(a, "--", 2) == 0 ? "unknown flag '%s'" : "unexpected argument '%s'", a);
        if (i + 1 >= argc)
            return bad("%s needs a value", a);
        const char *v = argv[++i];
        long n;
        if (strcmp(a, "--server") == 0) {
            const char *err = cl_net_parse_addr(v, o.host, sizeof o.host, &o.port);
            if (err)
                return bad("--server: %s", err);
        } else if (strcmp(a, "--room") == 0 || strcmp(a, "--watch") == 0) {
            char code[WIRE_ROOM_CODE_LEN + 1];
            bool join = strcmp(a, "--room") == 0;
            if (!wire_room_code_parse(v, code))
                return bad(join ? "--room: '%s' is not a room code (5 letters or digits)"
                                : "--watch: '%s' is not a room code (5 letters or digits)",
                           v);
            o.player.room = v;
            o.player.mode = join ? BT_JOIN : BT_WATCH;
        } else if (strcmp(a, "--spectators") == 0) {
            if (!mr_parse_long(v, 0, 64, &n))
                return bad("--spectators: '%s' is not a number 0..64", v);
            o.spectators = (int)n;
        } else if (strcmp(a, "--kind") == 0) {
            if (!pz_kind_by_name(v))
                return bad("--kind: unknown kind '%s' (sum, maze, ice, pipes)", v);
            kind = v;
            creating = true;
        } else if (strcmp(a, "--size") == 0) {
            char x;
            int used = 0;
            if (sscanf(v, "%d%c%d%n", &w, &x, &h, &used) != 3 || (x != 'x' && x != 'X') ||
                used != (int)strlen(v) || w < 1 || h < 1 || w > 100000 || h > 100000)
                return bad("--size: '%s' is not WxH (columns x rows, e.g. 25x20)", v);
            creating = size_set = true;
        } else if (strcmp(a, "--difficulty") == 0) {
            diff = pz_difficulty_by_name(v);
            if (diff < 0)
                return bad("--difficulty: '%s' is not easy, medium or hard", v);
            creating = diff_set = true;
        } else if (strcmp(a, "--id") == 0) {
            pz_id id;
            char err[160];
            if (pz_id_parse(v, &id, err, sizeof err))
                return bad("--id: %s", err);
            o.player.game_id = v;
            creating = true;
        } else if (strcmp(a, "--seed") == 0) {
            if (!mr_parse_u64(v, &o.player.seed))
                return bad("--seed: '%s' is not a number", v);
            o.player.has_seed = true;
            creating = true;
        } else if (strcmp(a, "--series") == 0) {
            if (!mr_parse_long(v, 1, WIRE_MAX_SERIES, &n))
                return bad("--series: '%s' is not a number 1..99", v);
            o.player.series = (int)n;
        } else if (strcmp(a, "--pace") == 0) {
            if (!mr_parse_long(v, 1, 3600000, &n))
                return bad("--pace: '%s' is not a number of milliseconds 1..3600000", v);
            o.player.pace_ms = (uint32_t)n;
            pace_set = true;
        } else if (strcmp(a, "--level") == 0) {
            o.player.level = bot_level_by_name(v);
            if (o.player.level < 0)
                return bad("--level: '%s' is not beginner, casual, strong or expert", v);
            o.player.by_level = true;
        } else if (strcmp(a, "--mistakes") == 0) {
            if (!parse_double(v, 0, 1, &o.player.mistakes))
                return bad("--mistakes: '%s' is not a rate 0..1", v);
        } else if (strcmp(a, "--matches") == 0) {
            if (!mr_parse_long(v, 1, 100000, &n))
                return bad("--matches: '%s' is not a number 1..100000", v);
            o.player.matches = (int)n;
        } else if (strcmp(a, "--bots") == 0) {
            if (!mr_parse_long(v, 1, BT_MAX_BOTS, &n))
                return bad("--bots: '%s' is not a number 1..20000", v);
            o.bots = (int)n;
        } else if (strcmp(a, "--per-socket") == 0) {
            if (!mr_parse_long(v, 1, BT_SOCKET_MAX, &n))
                return bad("--per-socket: '%s' is not a number 1..4000", v);
            o.per_socket = (int)n;
        } else if (strcmp(a, "--local-port") == 0) {
            if (!mr_parse_long(v, 1, 65535, &n))
                return bad("--local-port: '%s' is not a port 1..65535", v);
            o.local_port = (int)n;
        } else if (strcmp(a, "--name") == 0) {
            const char *why = txt_name_problem(v, strlen(v));
            if (why)
                return bad("--name: %s", why);
            o.player.name = v;
        } else if (strcmp(a, "--bot-seed") == 0) {
            if (!mr_parse_u64(v, &o.player.bot_seed))
                return bad("--bot-seed: '%s' is not a number", v);
        } else if (strcmp(a, "--timeout") == 0) {
            if (!parse_double(v, 0.1, 86400, &o.timeout_s))
                return bad("--timeout: '%s' is not a number of seconds 0.1..86400", v);
        } else if (strcmp(a, "--sockbuf") == 0) {
            if (!mr_parse_long(v, 0, 1024 * 1024, &n))
                return bad("--sockbuf: '%s' is not a size in KiB 0..1048576", v);
            o.sockbuf_kib = (int)n;
        } else if (strcmp(a, "--bench") == 0) {
            if (!parse_double(v, 0.1, 600, &o.bench_s))
                return bad("--bench: '%s' is not a number of seconds 0.1..600", v);
        } else if (strcmp(a, "--recent") == 0) {
            if (!mr_parse_long(v, 1, 1000, &n))
                return bad("--recent: '%s' is not a number 1..1000", v);
            recent = (int)n;
        } else if (strcmp(a, "--fetch-replay") == 0) {
            if (!mr_parse_u64(v, &replay_id) || replay_id < 1 || replay_id > INT64_MAX)
                return bad("--fetch-replay: '%s' is not a match id (a number from 1)", v);
        } else if (strcmp(a, "--server-pid") == 0) {
            if (!mr_parse_long(v, 1, 1L << 30, &n))
                return bad("--server-pid: '%s' is not a process id", v);
            o.server_pid = (int)n;
        } else {
            return bad("unknown flag '%s'", a);
        }
    }

    if (recent || replay_id) {
        if (recent && replay_id)
            return bad("--recent and --fetch-replay: one at a time%s", "");
        return bt_records_run(o.host, o.port, recent, replay_id, o.timeout_s);
    }
    if (o.player.mode == BT_JOIN && creating)
        return bad("--room joins a room; --kind/--size/--difficulty/--id/--seed create one%s", "");
    if (o.player.mode == BT_WATCH && (creating || o.bench_s > 0 || o.spectators))
        return bad("--watch only watches: no --kind/--size/--difficulty/--id/--seed/--bench/--spectators%s",
                   "");
    if (o.player.by_level && (pace_set || o.bench_s > 0))
        return bad("--level plays at a person's pace: no --pace or --bench with it%s", "");
    if (o.player.pair_only && (o.player.mode != BT_QUICK || creating || o.bench_s > 0))
        return bad("--pair-only is for quick match: no --room/--watch/--kind/--size/--difficulty/--id/--seed/"
                   "--bench%s",
                   "");
    if (o.bench_s > 0) {
        if (o.player.mode == BT_JOIN || o.bots % 2)
            return bad("--bench pairs its own bots: give an even --bots and no --room%s", "");
        o.player.play = BT_SHUTTLE;
        creating = true;
        if (!kind)
            kind = "maze";
        if (!size_set)
            w = h = 64;
        if (!pace_set)
            o.player.pace_ms = 50;
    }
    if (!pace_set && !o.player.pace_ms)
        o.player.pace_ms = 200;
    if (creating) {
        o.player.mode = BT_CREATE;
        if (!o.player.game_id) {
            const pz_kind *k = pz_kind_by_name(kind ? kind : "maze");
            o.player.params.kind = k->id;
            o.player.params.w = size_set || o.bench_s > 0 ? w : 0;
            o.player.params.h = size_set || o.bench_s > 0 ? h : 0;
            o.player.params.diff = diff;
            if (o.player.params.w == 0) {
                o.player.params.w = k->default_w;
                o.player.params.h = k->default_h;
            }
            const char *err = pz_validate_params(&o.player.params);
            if (err)
                return bad("bad puzzle settings: %s", err);
        } else if (kind || size_set || diff_set || o.player.has_seed) {
            return bad("--id names the whole puzzle: no --kind/--size/--difficulty/--seed with it%s", "");
        }
    }
    if (o.spectators && o.player.mode != BT_CREATE)
        return bad("--spectators watch the bots' own matches: use it with --bench or a room to create%s", "");
    if (o.spectators && o.bots + o.bots / 2 * o.spectators > 4000)
        return bad("--bots and --spectators: at most 4000 connections in all%s", "");
    if (o.spectators && o.bots > BT_SOCKET_MAX)
        return bad("--spectators: at most 4000 bots (one socket)%s", "");
    if (o.bench_s > 0 && o.player.game_id)
        return bad("--bench makes its own puzzles: no --id%s", "");

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    return bt_fleet_run(&o);
}
