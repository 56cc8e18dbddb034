/* sv_log.h: the server's one-line-per-event log: text (UTC timestamp, level), journal (<N> prefix) or JSON.
 */
#ifndef MR_SV_LOG_H
#define MR_SV_LOG_H

#include <stdio.h>

/* Lines go to one stream (stderr by default) so stdout stays free for the
 * machine-readable "listening on" and stats lines. A line is written with a
 * single fprintf and flushed, so lines from an embedding process do not
 * interleave mid-line. */
typedef struct sv_log {
    int level;  /* enum sv_log_level: lines above it are dropped */
    int format; /* enum sv_log_format, never SV_LOGFMT_AUTO once initialised */
    FILE *out;
} sv_log;

/* format SV_LOGFMT_AUTO picks journal when JOURNAL_STREAM or INVOCATION_ID
 * is set (started by systemd), else text. */
void sv_log_init(sv_log *lg, int level, int format, FILE *out);
const char *sv_log_level_name(int level);
int sv_log_level_by_name(const char *name); /* -1 if unknown */

/* printf-style; cheap when the level is filtered out (one compare). */
void sv_logf(const sv_log *lg, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same with the stable keys of the JSON format: event (a fixed
 * snake_case name, e.g. "room_created"), and room code, player name and
 * reason where they apply (NULL: left out). Text formats print only the
 * message. */
void sv_loge(const sv_log *lg, int level, const char *event, const char *room, const char *player,
             const char *reason, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* The JSON fields of a line about one client (NULL or 0: left out):
 * "client" (its number, #N in the text), "addr" (IP:port), "room",
 * "player" (its name) and "reason". Text formats print only the message. */
typedef struct sv_log_fields {
    unsigned client;
    const char *addr, *room, *player, *reason;
} sv_log_fields;
void sv_logx(const sv_log *lg, int level, const char *event, const sv_log_fields *f, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#define SV_LOG_ON(lg, lvl) ((lg)->level >= (lvl))

#endif
