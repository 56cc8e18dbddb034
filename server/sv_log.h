/* sv_log.h: the server's one-line-per-event log (level, UTC timestamp, message). */
#ifndef MR_SV_LOG_H
#define MR_SV_LOG_H

#include <stdio.h>

/* Lines go to one stream (stderr by default) so stdout stays free for the
 * machine-readable "listening on" and stats lines. A line is written with a
 * single fprintf and flushed, so lines from an embedding process do not
 * interleave mid-line. */
typedef struct sv_log {
    int level; /* enum sv_log_level: lines above it are dropped */
    FILE *out;
} sv_log;

void sv_log_init(sv_log *lg, int level, FILE *out);
const char *sv_log_level_name(int level);
int sv_log_level_by_name(const char *name); /* -1 if unknown */

/* printf-style; cheap when the level is filtered out (one compare). */
void sv_logf(const sv_log *lg, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define SV_LOG_ON(lg, lvl) ((lg)->level >= (lvl))

#endif
