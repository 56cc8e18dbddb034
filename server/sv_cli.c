/* sv_cli.c: mazerace-server's command line, parsed onto an sv_config. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "puzzle.h"
#include "sv.h"
#include "sv_log.h"
#include "wire.h"

static const char usage[] =
    "usage: mazerace-server [options]\n"
    "Authoritative mazerace game server: hosts many two-player rooms at once.\n"
    "\n"
    "Network:\n"
    "  --bind ADDR          address to listen on (default 0.0.0.0, all interfaces)\n"
    "  --port N             game port, UDP (default %d; 0 = any free port)\n"
    "  --discovery N        LAN discovery port, UDP (default %d; 0 = any)\n"
    "  --no-discovery       do not answer LAN discovery probes\n"
    "  --sockbuf KIB        game socket SO_RCVBUF/SO_SNDBUF in KiB (default 4096; 0 = ENet's 256)\n"
    "  --name NAME          server name shown to LAN clients (default mazerace)\n"
    "  --max-clients N      connected players, 1..4000 (default 1024)\n"
    "  --max-rooms N        concurrent rooms, 1..65536 (default 1024)\n"
    "  --max-per-ip N       connections from one address (default 0: no limit; LAN parties share one)\n"
    "  --progress-hold MS   for a player moving fast, let the opponent's progress wait up to MS ms to\n"
    "                       share a datagram with their next packet (default %d; 0 = send it at once)\n"
    "\n"
    "Rooms (kind, size, difficulty and series: what quick match plays):\n"
    "  --kind KIND          sum, maze, ice or pipes (default maze)\n"
    "  --size WxH           columns x rows (default: the kind's default size)\n"
    "  --difficulty D       easy, medium or hard (default medium)\n"
    "  --countdown SEC      countdown before the race (default 3)\n"
    "  --grace SEC          time a dropped player has to resume (default 30)\n"
    "  --series N           best of N games, 1..99 (default 1)\n"
    "\n"
    "Limits per connected peer:\n"
    "  --rate N             sustained messages per second (default 100)\n"
    "  --burst N            messages allowed in a burst (default 200)\n"
    "  --max-bad N          bad or over-rate messages before disconnect (default 20)\n"
    "\n"
    "Puzzle generation (on worker threads; see docs/reliability.md):\n"
    "  --gen-rate MS        generation CPU per client, ms per second (default 250; its address: 4x)\n"
    "  --gen-burst MS       generation CPU a client may save up, ms (default 4000; its address: 4x)\n"
    "  --gen-queue N        generation jobs queued or running, 1..4096 (default 64)\n"
    "  --puzzle-mem MIB     puzzle memory of all rooms, MiB (default 1024); one address may hold 1/8\n"
    "\n"
    "Output:\n"
    "  --log-level L        off, error, warn, info or debug (default info); log goes to stderr\n"
    "  --log-moves          log every move at debug level\n"
    "  --stats              print statistics (moves validated, CPU time) on stdout at exit\n"
    "  --help               this text\n"
    "  --version            version and protocol version\n"
    "\n"
    "Prints \"listening on ADDR:PORT\" on stdout once ready. SIGINT or SIGTERM tells every\n"
    "client the server is shutting down and exits 0. Exit status 2: bad command line;\n"
    "1: could not start (e.g. port in use).\n";

void sv_cli_print_usage(FILE *f)
{
    fprintf(f, usage, SV_DEFAULT_PORT, SV_DEFAULT_DISCOVERY_PORT, SV_DEFAULT_PROGRESS_HOLD_MS);
}

static int fail(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
    if (err && errlen)
        snprintf(err, errlen, fmt, a, b);
    return SV_CLI_ERROR;
}

/* Seconds with up to 3 decimals ("3", "0.5", "2.25") to milliseconds. */
static bool parse_seconds(const char *s, long max_s, int *out_ms)
{
    if (!s || !*s)
        return false;
    long whole = 0, frac = 0;
    int digits = 0, fdigits = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++, digits++) {
        whole = whole * 10 + (*p - '0');
        if (whole > max_s)
            return false;
    }
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9'; p++, fdigits++) {
            if (fdigits >= 3)
                return false;
            frac = frac * 10 + (*p - '0');
        }
        if (fdigits == 0)
            return false;
    }
    if (*p || digits == 0)
        return false;
    for (int i = fdigits; i < 3; i++)
        frac *= 10;
    long ms = whole * 1000 + frac;
    if (ms > max_s * 1000)
        return false;
    *out_ms = (int)ms;
    return true;
}

static bool parse_size(const char *s, int *w, int *h)
{
    char buf[32];
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, s, n + 1);
    char *x = strchr(buf, 'x');
    if (!x)
        return false;
    *x = '\0';
    long lw, lh;
    if (!mr_parse_long(buf, 1, 100000, &lw) || !mr_parse_long(x + 1, 1, 100000, &lh))
        return false;
    *w = (int)lw;
    *h = (int)lh;
    return true;
}

int sv_cli_parse(sv_config *cfg, int argc, char **argv, char *err, size_t errlen)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0)
            return fail(err, errlen, "unexpected argument '%s'%s (see --help)", arg, "");
        /* "--flag=value" and "--flag value" are both accepted. */
        char flag[32];
        const char *val = NULL;
        const char *eq = strchr(arg, '=');
        size_t flen = eq ? (size_t)(eq - arg) : strlen(arg);
        if (flen >= sizeof flag)
            return fail(err, errlen, "unknown option '%s'%s (see --help)", arg, "");
        memcpy(flag, arg, flen);
        flag[flen] = '\0';
        if (eq)
            val = eq + 1;

        /* Options without a value. */
        int noval = -1;
        if (strcmp(flag, "--help") == 0)
            noval = SV_CLI_HELP;
        else if (strcmp(flag, "--version") == 0)
            noval = SV_CLI_VERSION;
        else if (strcmp(flag, "--no-discovery") == 0)
            cfg->discovery_port = -1, noval = SV_CLI_RUN;
        else if (strcmp(flag, "--stats") == 0)
            cfg->stats = true, noval = SV_CLI_RUN;
        else if (strcmp(flag, "--log-moves") == 0)
            cfg->log_moves = true, noval = SV_CLI_RUN;
        if (noval >= 0) {
            if (val)
                return fail(err, errlen, "option %s takes no value%s", flag, "");
            if (noval != SV_CLI_RUN)
                return noval;
            continue;
        }

        static const char *const with_value[] = {
            "--bind",          "--port",       "--discovery", "--sockbuf",   "--name",       "--max-clients",
            "--max-rooms",     "--max-per-ip", "--kind",      "--size",      "--difficulty", "--countdown",
            "--grace",         "--series",     "--rate",      "--burst",     "--max-bad",    "--log-level",
            "--progress-hold", "--gen-rate",   "--gen-burst", "--gen-queue", "--puzzle-mem"};
        bool known = false;
        for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
            known = known || strcmp(flag, with_value[k]) == 0;
        if (!known)
            return fail(err, errlen, "unknown option '%s'%s (see --help)", flag, "");
        if (!val) {
            if (i + 1 >= argc)
                return fail(err, errlen, "option %s needs a value%s (see --help)", flag, "");
            val = argv[++i];
        }
        long v;
        if (strcmp(flag, "--bind") == 0) {
            if (!*val || strlen(val) >= sizeof cfg->bind_addr)
                return fail(err, errlen, "--bind: bad address '%s'%s", val, "");
            strcpy(cfg->bind_addr, val);
        } else if (strcmp(flag, "--port") == 0) {
            if (!mr_parse_long(val, 0, 65535, &v))
                return fail(err, errlen, "--port: '%s' is not a port number 0..65535%s", val, "");
            cfg->port = (int)v;
        } else if (strcmp(flag, "--discovery") == 0) {
            if (!mr_parse_long(val, 0, 65535, &v))
                return fail(err, errlen, "--discovery: '%s' is not a port number 0..65535%s", val, "");
            cfg->discovery_port = (int)v;
        } else if (strcmp(flag, "--sockbuf") == 0) {
            if (!mr_parse_long(val, 0, 262144, &v))
                return fail(err, errlen, "--sockbuf: '%s' is not a size in KiB, 0..262144%s", val, "");
            cfg->sockbuf_bytes = (int)v * 1024;
        } else if (strcmp(flag, "--progress-hold") == 0) {
            if (!mr_parse_long(val, 0, 1000, &v))
                return fail(err, errlen, "--progress-hold: '%s' is not a number of milliseconds 0..1000%s",
                            val, "");
            cfg->progress_hold_ms = (int)v;
        } else if (strcmp(flag, "--name") == 0) {
            size_t n = strlen(val);
            if (n == 0 || n > SV_NAME_MAX || !wire_name_ok(val, n))
                return fail(err, errlen,
                            "--name: must be 1..24 bytes of UTF-8 without control characters%s%s", "", "");
            memcpy(cfg->name, val, n + 1);
        } else if (strcmp(flag, "--max-clients") == 0) {
            if (!mr_parse_long(val, 1, SV_MAX_CLIENTS, &v))
                return fail(err, errlen, "--max-clients: '%s' is not a number 1..4000%s", val, "");
            cfg->max_clients = (int)v;
        } else if (strcmp(flag, "--max-rooms") == 0) {
            if (!mr_parse_long(val, 1, SV_MAX_ROOMS, &v))
                return fail(err, errlen, "--max-rooms: '%s' is not a number 1..65536%s", val, "");
            cfg->max_rooms = (int)v;
        } else if (strcmp(flag, "--max-per-ip") == 0) {
            if (!mr_parse_long(val, 0, SV_MAX_CLIENTS, &v))
                return fail(err, errlen, "--max-per-ip: '%s' is not a number 0..4000%s", val, "");
            cfg->max_per_ip = (int)v;
        } else if (strcmp(flag, "--kind") == 0) {
            const pz_kind *k = pz_kind_by_name(val);
            if (!k)
                return fail(err, errlen, "--kind: unknown kind '%s'%s (sum, maze, ice, pipes)", val, "");
            cfg->kind = k->id;
        } else if (strcmp(flag, "--size") == 0) {
            if (!parse_size(val, &cfg->w, &cfg->h))
                return fail(err, errlen, "--size: '%s' is not WxH (columns x rows, e.g. 25x20)%s", val, "");
        } else if (strcmp(flag, "--difficulty") == 0) {
            int d = pz_difficulty_by_name(val);
            if (d < 0)
                return fail(err, errlen, "--difficulty: '%s' is not easy, medium or hard%s", val, "");
            cfg->diff = d;
        } else if (strcmp(flag, "--countdown") == 0) {
            if (!parse_seconds(val, 60, &cfg->countdown_ms))
                return fail(err, errlen, "--countdown: '%s' is not a number of seconds 0..60%s", val, "");
        } else if (strcmp(flag, "--grace") == 0) {
            if (!parse_seconds(val, 3600, &cfg->grace_ms))
                return fail(err, errlen, "--grace: '%s' is not a number of seconds 0..3600%s", val, "");
        } else if (strcmp(flag, "--series") == 0) {
            if (!mr_parse_long(val, 1, 99, &v))
                return fail(err, errlen, "--series: '%s' is not a number 1..99%s", val, "");
            cfg->series = (int)v;
        } else if (strcmp(flag, "--rate") == 0) {
            if (!mr_parse_long(val, 1, 100000, &v))
                return fail(err, errlen, "--rate: '%s' is not a number 1..100000%s", val, "");
            cfg->msg_rate = (int)v;
        } else if (strcmp(flag, "--burst") == 0) {
            if (!mr_parse_long(val, 1, 100000, &v))
                return fail(err, errlen, "--burst: '%s' is not a number 1..100000%s", val, "");
            cfg->msg_burst = (int)v;
        } else if (strcmp(flag, "--max-bad") == 0) {
            if (!mr_parse_long(val, 1, 1000000, &v))
                return fail(err, errlen, "--max-bad: '%s' is not a number 1..1000000%s", val, "");
            cfg->max_bad = (int)v;
        } else if (strcmp(flag, "--gen-rate") == 0) {
            if (!mr_parse_long(val, 1, 1000, &v))
                return fail(err, errlen, "--gen-rate: '%s' is not a number of ms per second 1..1000%s", val,
                            "");
            cfg->gen_rate_ms = (int)v;
        } else if (strcmp(flag, "--gen-burst") == 0) {
            if (!mr_parse_long(val, 1, 600000, &v))
                return fail(err, errlen, "--gen-burst: '%s' is not a number of ms 1..600000%s", val, "");
            cfg->gen_burst_ms = (int)v;
        } else if (strcmp(flag, "--gen-queue") == 0) {
            if (!mr_parse_long(val, 1, 4096, &v))
                return fail(err, errlen, "--gen-queue: '%s' is not a number 1..4096%s", val, "");
            cfg->gen_queue = (int)v;
        } else if (strcmp(flag, "--puzzle-mem") == 0) {
            if (!mr_parse_long(val, 1, 65536, &v))
                return fail(err, errlen, "--puzzle-mem: '%s' is not a size in MiB 1..65536%s", val, "");
            cfg->puzzle_mem_mb = (int)v;
        } else if (strcmp(flag, "--log-level") == 0) {
            int l = sv_log_level_by_name(val);
            if (l < 0)
                return fail(err, errlen, "--log-level: '%s' is not off, error, warn, info or debug%s", val,
                            "");
            cfg->log_level = l;
        } else {
            return fail(err, errlen, "unknown option '%s'%s (see --help)", flag, "");
        }
    }
    const char *why = sv_config_check(cfg);
    if (why)
        return fail(err, errlen, "%s%s", why, "");
    return SV_CLI_RUN;
}
