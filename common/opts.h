/* opts.h: the value side of a settings table (whole numbers, seconds, yes/no into a struct's fields, flag
 * names, quoting) shared by mazerace-server's table (server/sv_opts.c) and mazerace-coordinator's. */
#ifndef MR_OPTS_H
#define MR_OPTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum mr_opt_type {
    MR_OPT_INT,     /* int field, whole number lo..hi, stored times scale */
    MR_OPT_SECONDS, /* int field in ms, written as seconds with up to 3 decimals, 0..hi s */
    MR_OPT_BOOL,    /* bool field: yes/no (true/false, on/off, 1/0) */
    MR_OPT_CUSTOM,  /* the table's own reader and writer */
};

/* Sets the field at `field` (an int or a bool, as type says) from text:
 * NULL, or a message saying what the value should be (static, or written
 * into buf). Not for MR_OPT_CUSTOM. */
const char *mr_opt_set_field(int type, long lo, long hi, long scale, void *field, const char *val, char *buf,
                             size_t n);
/* The field as the config file writes it ("3", "0.5", "yes"). */
void mr_opt_get_field(int type, long scale, const void *field, char *buf, size_t n);
/* "--max-clients" for the key max_clients. */
void mr_opt_key_flag(const char *key, char *buf, size_t n);
/* A value as a "key = value" line ends: quoted when empty or with blanks at an end, so it reads back. */
void mr_opt_put_value(FILE *f, const char *v);
#endif
