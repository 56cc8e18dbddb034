/* sv_loglimit_types.h: a log-line limiter's state (sv_loglimit.h). Data only. */
#ifndef MR_SV_LOGLIMIT_TYPES_H
#define MR_SV_LOGLIMIT_TYPES_H

#include <stdint.h>

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

#endif
