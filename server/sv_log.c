/* sv_log.c: timestamped, levelled log lines for the server. */
#include "sv_log.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "sv.h"

static const char *const level_names[] = {"off", "error", "warn", "info", "debug"};

void sv_log_init(sv_log *lg, int level, FILE *out)
{
    lg->level = level;
    lg->out = out ? out : stderr;
}

const char *sv_log_level_name(int level)
{
    return (level >= 0 && level <= SV_LOG_DEBUG) ? level_names[level] : "?";
}

int sv_log_level_by_name(const char *name)
{
    for (int i = 0; i <= SV_LOG_DEBUG; i++)
        if (strcmp(level_names[i], name) == 0)
            return i;
    if (strcmp(name, "warning") == 0)
        return SV_LOG_WARN;
    return -1;
}

void sv_logf(const sv_log *lg, int level, const char *fmt, ...)
{
    if (!lg || level > lg->level || level <= SV_LOG_OFF)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    time_t secs = ts.tv_sec;
    gmtime_r(&secs, &tm);
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* Control characters (from player names, say) would let one client forge
     * log lines; they are shown as '?'. */
    for (char *p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    fprintf(lg->out, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ %-5s %s\n", tm.tm_year + 1900, tm.tm_mon + 1,
            tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000L, level_names[level], msg);
    fflush(lg->out);
}
