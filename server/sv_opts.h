/* sv_opts.h: the one table of server settings that the command line, the config file, --print-config and the
 * generated docs all use. */
#ifndef MR_SV_OPTS_H
#define MR_SV_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "opts.h"
#include "sv.h"

/* The value types of common/opts.h (its readers and writers serve every
 * settings table: this one and mazerace-coordinator's). */
enum sv_opt_type {
    SV_OPT_INT = MR_OPT_INT,         /* whole number lo..hi, stored times scale */
    SV_OPT_SECONDS = MR_OPT_SECONDS, /* seconds with up to 3 decimals, 0..hi, stored in ms */
    SV_OPT_BOOL = MR_OPT_BOOL,       /* yes/no in the file; a flag without a value on the command line */
    SV_OPT_CUSTOM = MR_OPT_CUSTOM,   /* set/get below */
};

enum sv_opt_section {
    SV_SEC_NETWORK,
    SV_SEC_ROOMS,
    SV_SEC_LIMITS,
    SV_SEC_SERVICE,
    SV_SEC_OUTPUT,
    SV_SEC_COUNT
};

/* One setting. The config key is `key`; the flag is "--" and the key with
 * '_' written '-'. */
typedef struct sv_opt {
    const char *key;
    const char *arg; /* value placeholder in --help and the docs */
    const char *def; /* the default, as the config file writes it (sv_config_defaults sets it) */
    int type;        /* enum sv_opt_type */
    size_t off;      /* the int field in sv_config (SV_OPT_INT, SECONDS, BOOL) */
    long lo, hi, scale;
    int section; /* enum sv_opt_section */
    bool reload; /* SIGHUP applies it to a running server */
    const char *help;
    /* SV_OPT_CUSTOM: NULL or a static message saying what the value should be. */
    const char *(*set)(sv_config *cfg, const char *val);
    void (*get)(const sv_config *cfg, char *buf, size_t n);
} sv_opt;

extern const sv_opt sv_opts[];
extern const size_t sv_opts_count;
extern const char *const sv_opt_section_names[SV_SEC_COUNT];

/* The settings of section s (enum sv_opt_section) in table order, for
 * --help and --print-config: start with *i = 0; NULL after the last. */
const sv_opt *sv_opts_next_in(int s, size_t *i);
/* The setting for a config key ("max_clients") or a flag ("--max-clients"); NULL if none. */
const sv_opt *sv_opt_by_key(const char *key);
const sv_opt *sv_opt_by_flag(const char *flag);
/* "--max-clients" for max_clients, into buf. */
void sv_opt_flag(const sv_opt *o, char *buf, size_t n);
/* Sets o from text: NULL, or a message saying what the value should be
 * (static, or written into buf). */
const char *sv_opt_set(const sv_opt *o, sv_config *cfg, const char *val, char *buf, size_t n);
/* "PORT", ":PORT" or "IPV4:PORT" (no address: 127.0.0.1): NULL, or a static message. */
const char *sv_opt_parse_hostport(const char *v, char ip[16], int *port);
/* A metrics address setting (the server's and the coordinator's): "off" or
 * empty -> "", else sv_opt_parse_hostport's address as "IP:PORT" in dst.
 * NULL, or a static message (dst untouched). */
const char *sv_opt_set_metrics(char *dst, size_t cap, const char *v);
/* A log level setting (the server's and the coordinator's): off, error,
 * warn, info or debug into *level; NULL, or a static message. */
const char *sv_opt_set_log_level(int *level, const char *v);
/* The value as the config file writes it. */
void sv_opt_get(const sv_opt *o, const sv_config *cfg, char *buf, size_t n);
bool sv_opt_equal(const sv_opt *o, const sv_config *a, const sv_config *b);
/* Copies every setting the table marks reload from src onto dst, through
 * its own writer and reader (so a new reloadable key needs nothing more):
 * the one path SIGHUP takes. Returns how many values changed. */
int sv_opts_apply_reloadable(sv_config *dst, const sv_config *src);

/* Writers for --print-config (the effective settings, in the file's format),
 * --print-config-doc (the Markdown reference in docs/server.md) and the
 * commented default file (packaging/server.conf). */
void sv_opts_print_config(const sv_config *cfg, FILE *f);
void sv_opts_print_doc(FILE *f);
void sv_opts_print_template(FILE *f);

#endif
