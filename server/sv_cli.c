/* sv_cli.c: mazerace-server's command line and config file, both read through the settings table (sv_opts.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sv.h"
#include "sv_cgroup.h"
#include "sv_opts.h"
#include "util.h"

/* Flags that are not settings: they pick the file or what to print. */
static const struct {
    const char *flag, *arg;
    int result; /* enum sv_cli_result; SV_CLI_RUN for --config and --no-discovery */
    const char *help;
} commands[] = {
    {"--config", "PATH", SV_CLI_RUN,
     "read settings from PATH; none = no file (default: $MAZERACE_CONFIG if set, else " SV_CONFIG_DEFAULT
     " if it exists)"},
    {"--no-discovery", NULL, SV_CLI_RUN, "same as --discovery off"},
    {"--check-config", NULL, SV_CLI_CHECK, "check the config file and flags, print nothing, exit 0 (or 2)"},
    {"--print-config", NULL, SV_CLI_PRINT_CONFIG, "print the effective settings in the config file's format"},
    {"--print-config-doc", NULL, SV_CLI_PRINT_DOC, "print the settings reference (Markdown, docs/server.md)"},
    {"--print-config-template", NULL, SV_CLI_PRINT_TEMPLATE, "print the commented default config file"},
    {"--list-matches", "[N]", SV_CLI_LIST_MATCHES,
     "print the newest N (default 20, at most 100) matches of the database, one line each, and exit; works "
     "while a server runs on the same file"},
    {"--dump-replay", "MATCH_ID", SV_CLI_DUMP_REPLAY,
     "write that match's replay (docs/replay.md) to stdout and exit (exit 1 if there is no such match)"},
    {"--help", NULL, SV_CLI_HELP, "this text"},
    {"--version", NULL, SV_CLI_VERSION, "version and protocol version"},
};

/* "  FLAG ARG   text", the text wrapped at 79 columns under its column. */
static void usage_item(FILE *f, const char *flag, const char *text)
{
    enum { COL = 26, WIDTH = 79 };
    fprintf(f, "  %-*s", COL - 3, flag);
    if (strlen(flag) > COL - 4) /* at least two blanks before the text */
        fprintf(f, "\n%*s", COL - 1, "");
    fputc(' ', f);
    int col = COL;
    const char *p = text;
    while (*p) {
        const char *sp = strchr(p, ' ');
        int len = sp ? (int)(sp - p) : (int)strlen(p);
        if (col > COL && col + 1 + len > WIDTH) {
            fprintf(f, "\n%*s", COL, "");
            col = COL;
        } else if (col > COL) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", len, p);
        col += len;
        p += len;
        while (*p == ' ')
            p++;
    }
    fputc('\n', f);
}

void sv_cli_print_usage(FILE *f)
{
    sv_config d;
    sv_config_defaults(&d);
    fprintf(f, "usage: mazerace-server [options]\n"
               "Authoritative mazerace game server: hosts many two-player rooms at once.\n"
               "Every option is also a key of the config file (--max-clients N is\n"
               "max_clients = N); options override the file.\n");
    char flag[64], v[128], text[512];
    for (int s = 0; s < SV_SEC_COUNT; s++) {
        fprintf(f, "\n%s:\n", sv_opt_section_names[s]);
        size_t i = 0;
        for (const sv_opt *o; (o = sv_opts_next_in(s, &i));) {
            sv_opt_flag(o, flag, sizeof flag);
            if (o->arg) {
                size_t n = strlen(flag);
                snprintf(flag + n, sizeof flag - n, " %s", o->arg);
            }
            sv_opt_get(o, &d, v, sizeof v);
            snprintf(text, sizeof text, "%s (default %s)", o->help, o->type == SV_OPT_BOOL ? "off" : v);
            usage_item(f, flag, text);
        }
    }
    fprintf(f, "\nCommands:\n");
    for (size_t i = 0; i < MR_ARRAY_LEN(commands); i++) {
        snprintf(flag, sizeof flag, "%s%s%s", commands[i].flag, commands[i].arg ? " " : "",
                 commands[i].arg ? commands[i].arg : "");
        usage_item(f, flag, commands[i].help);
    }
    fprintf(f, "\nPrints \"listening on ADDR:PORT\" on stdout once ready. SIGTERM drains (no new\n"
               "rooms, running races finish, up to drain_timeout); a second SIGTERM or SIGINT\n"
               "stops at once; SIGHUP reloads the config file. Exit status 2: bad command\n"
               "line or config file; 1: could not start (e.g. port in use).\n");
}

sv_cli_args sv_cli = {.list_n = 20};

static int fail(char *err, size_t errlen, const char *fmt, const char *a, const char *b, const char *c)
{
    if (err && errlen)
        snprintf(err, errlen, fmt, a, b, c);
    return SV_CLI_ERROR;
}

int sv_cli_parse(sv_config *cfg, int argc, char **argv, char *err, size_t errlen)
{
    int result = SV_CLI_RUN;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0)
            return fail(err, errlen, "unexpected argument '%s'%s%s (see --help)", arg, "", "");
        /* "--flag=value" and "--flag value" are both accepted. */
        char flag[40];
        const char *val = NULL;
        const char *eq = strchr(arg, '=');
        size_t flen = eq ? (size_t)(eq - arg) : strlen(arg);
        if (flen >= sizeof flag)
            return fail(err, errlen, "unknown option '%s'%s%s (see --help)", arg, "", "");
        memcpy(flag, arg, flen);
        flag[flen] = '\0';
        if (eq)
            val = eq + 1;

        const sv_opt *o = sv_opt_by_flag(flag);
        bool needs_value = o ? o->type != SV_OPT_BOOL : false;
        int cmd = -1;
        if (!o) {
            for (size_t k = 0; k < MR_ARRAY_LEN(commands); k++)
                if (strcmp(flag, commands[k].flag) == 0)
                    cmd = (int)k;
            if (cmd < 0)
                return fail(err, errlen, "unknown option '%s'%s%s (see --help)", flag, "", "");
            needs_value = commands[cmd].arg != NULL;
            /* --list-matches takes an optional count: the next word if it is not a flag. */
            if (commands[cmd].result == SV_CLI_LIST_MATCHES && !val &&
                (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0))
                needs_value = false;
        }
        if (!needs_value && val)
            return fail(err, errlen, "option %s takes no value%s%s", flag, "", "");
        if (needs_value && !val) {
            if (i + 1 >= argc)
                return fail(err, errlen, "option %s needs a value%s%s (see --help)", flag, "", "");
            val = argv[++i];
        }
        if (cmd >= 0) {
            long n = 0;
            uint64_t id = 0;
            if (commands[cmd].result == SV_CLI_LIST_MATCHES && val) {
                if (!mr_parse_long(val, 1, 100, &n))
                    return fail(err, errlen, "%s: '%s' is not a count 1..100%s", flag, val, "");
                sv_cli.list_n = (int)n;
            }
            if (commands[cmd].result == SV_CLI_DUMP_REPLAY) {
                if (!mr_parse_u64(val, &id) || id < 1 || id > INT64_MAX)
                    return fail(err, errlen, "%s: '%s' is not a match id (a number from 1)%s", flag, val, "");
                sv_cli.match_id = (int64_t)id;
            }
            if (strcmp(flag, "--no-discovery") == 0)
                cfg->discovery_port = -1;
            else if (commands[cmd].result == SV_CLI_HELP || commands[cmd].result == SV_CLI_VERSION)
                return commands[cmd].result;
            else if (commands[cmd].result != SV_CLI_RUN)
                result = commands[cmd].result;
            continue; /* --config: read by sv_cli_load */
        }
        char buf[96];
        const char *why = sv_opt_set(o, cfg, needs_value ? val : "yes", buf, sizeof buf);
        if (why)
            return fail(err, errlen, "%s: '%s' %s", flag, val, why);
        if ((size_t)(o - sv_opts) < MR_ARRAY_LEN(sv_cli.from_flag))
            sv_cli.from_flag[o - sv_opts] = true;
    }
    const char *why = sv_config_check(cfg);
    if (why)
        return fail(err, errlen, "%s%s%s", why, "", "");
    return result;
}

int sv_config_read_file(sv_config *cfg, const char *path, bool must_exist, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT && !must_exist)
            return 0;
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    int seen[64] = {0}; /* line of each key, to refuse a key set twice */
    char line[1024];
    int lineno = 0, rc = 1;
    while (rc > 0 && fgets(line, sizeof line, f)) {
        lineno++;
        size_t n = strlen(line);
        if (n == sizeof line - 1 && line[n - 1] != '\n') {
            snprintf(err, errlen, "%s:%d: line longer than %zu bytes", path, lineno, sizeof line - 2);
            rc = -1;
            break;
        }
        char *s = mr_trim(line);
        if (!*s || *s == '#' || *s == ';')
            continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            snprintf(err, errlen, "%s:%d: expected \"key = value\", got '%.60s'", path, lineno, s);
            rc = -1;
            break;
        }
        *eq = '\0';
        char *key = mr_trim(s), *val = mr_trim(eq + 1);
        size_t vn = strlen(val);
        if (vn >= 2 && val[0] == '"' && val[vn - 1] == '"') {
            val[vn - 1] = '\0';
            val++;
        }
        const sv_opt *o = sv_opt_by_key(key);
        if (!o) {
            snprintf(err, errlen, "%s:%d: unknown key '%.60s' (see mazerace-server --print-config)", path,
                     lineno, key);
            rc = -1;
            break;
        }
        size_t idx = (size_t)(o - sv_opts);
        if (idx < MR_ARRAY_LEN(seen) && seen[idx]) {
            snprintf(err, errlen, "%s:%d: key '%s' is already set on line %d", path, lineno, key, seen[idx]);
            rc = -1;
            break;
        }
        if (idx < MR_ARRAY_LEN(seen)) {
            seen[idx] = lineno;
            sv_cli.from_line[idx] = lineno;
        }
        char buf[96];
        const char *why = sv_opt_set(o, cfg, val, buf, sizeof buf);
        if (why) {
            snprintf(err, errlen, "%s:%d: key '%s': '%.60s' %s", path, lineno, key, val, why);
            rc = -1;
        }
    }
    if (rc > 0 && ferror(f)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        rc = -1;
    }
    fclose(f);
    if (rc > 0) {
        const char *why = sv_config_check(cfg);
        if (why) {
            snprintf(err, errlen, "%s: %s", path, why);
            rc = -1;
        }
    }
    return rc;
}

int sv_cli_load(sv_config *cfg, int argc, char **argv, char *path, size_t pathlen, char *err, size_t errlen)
{
    /* The file first (flags override it): find --config without acting on
     * anything else yet. */
    const char *explicit = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "--version") == 0)
            return sv_cli_parse(cfg, argc, argv, err, errlen);
        if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
            explicit = argv[++i];
        else if (strncmp(argv[i], "--config=", 9) == 0)
            explicit = argv[i] + 9;
    }
    const char *env = getenv("MAZERACE_CONFIG");
    if (!explicit && env && *env)
        explicit = env;
    const char *file = explicit ? explicit : SV_CONFIG_DEFAULT;
    memset(sv_cli.from_flag, 0, sizeof sv_cli.from_flag);
    memset(sv_cli.from_line, 0, sizeof sv_cli.from_line);
    sv_cli.config_path[0] = '\0';
    sv_cgroup_default_puzzle_mem(cfg); /* a container's or unit's memory limit lowers the default */
    int r = strcmp(file, "none") == 0 ? 0 : sv_config_read_file(cfg, file, explicit != NULL, err, errlen);
    if (r < 0)
        return SV_CLI_ERROR;
    if (r > 0)
        snprintf(sv_cli.config_path, sizeof sv_cli.config_path, "%s", file);
    if (path && pathlen)
        snprintf(path, pathlen, "%s", sv_cli.config_path);
    return sv_cli_parse(cfg, argc, argv, err, errlen);
}

void sv_cli_origin(const char *key, char *buf, size_t n)
{
    const sv_opt *o = sv_opt_by_key(key);
    size_t i = o ? (size_t)(o - sv_opts) : MR_ARRAY_LEN(sv_cli.from_flag);
    if (i < MR_ARRAY_LEN(sv_cli.from_flag) && sv_cli.from_flag[i])
        sv_opt_flag(o, buf, n);
    else if (i < MR_ARRAY_LEN(sv_cli.from_line) && sv_cli.from_line[i])
        snprintf(buf, n, "%s:%d", sv_cli.config_path, sv_cli.from_line[i]);
    else
        snprintf(buf, n, "default");
}
