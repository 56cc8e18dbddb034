/* sv_loglimit.h: rate limit for log lines a client can trigger at will (refused joins, socket errors). */
#ifndef MR_SV_LOGLIMIT_H
#define MR_SV_LOGLIMIT_H

#include <stdint.h>

#include "sv_log.h"

/* One limiter per kind of line: at most SV_LOGLIMIT_BURST lines in each
 * SV_LOGLIMIT_WINDOW_MS window; the rest are counted, and the first line
 * written after a quiet stretch says how many were left out. So 20 clients
 * failing joins as fast as they may write a few lines every 10 s, not
 * thousands. Zero-initialised = ready. */
#define SV_LOGLIMIT_BURST 10
#define SV_LOGLIMIT_WINDOW_MS 10000

typedef struct sv_loglimit {
    uint64_t window_start_ms;
    uint32_t lines;   /* written in this window */
    uint32_t dropped; /* left out since the last line written */
    uint64_t dropped_total;
} sv_loglimit;

/* sv_loge (event: the JSON event name) through the limiter at the server's time now_ms. */
void sv_logf_limited(const sv_log *lg, sv_loglimit *lim, uint64_t now_ms, int level, const char *event,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* The same with a client's JSON fields (sv_log.h). */
void sv_logx_limited(const sv_log *lg, sv_loglimit *lim, uint64_t now_ms, int level, const char *event,
                     const sv_log_fields *f, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

#endif
