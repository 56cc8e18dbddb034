/* sv_log.c: levelled log lines for the server, as text, journal or JSON. */
#include "sv_log.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sv.h"
#include "util.h"

static const char *const level_names[] = {"off", "error", "warn", "info", "debug"};
/* syslog priorities: err, warning, info, debug */
static const int syslog_level[] = {0, 3, 4, 6, 7};

void sv_log_init(sv_log *lg, int level, int format, FILE *out)
{
    lg->level = level;
    lg->out = out ? out : stderr;
    if (format == SV_LOGFMT_AUTO) {
        const char *js = getenv("JOURNAL_STREAM"), *inv = getenv("INVOCATION_ID");
        format = (js && *js) || (inv && *inv) ? SV_LOGFMT_JOURNAL : SV_LOGFMT_TEXT;
    }
    lg->format = format;
}

const char *sv_log_level_name(int level)
{
    return MR_NAME_OF(level_names, level, "?");
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

/* Control characters (from player names, say) would let one client forge
 * log lines; they are shown as '?'. */
static void clean(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
}

/* ,"key":"value" with JSON escapes, appended to buf at *len. */
static void json_field(char *buf, size_t cap, size_t *len, const char *key, const char *v)
{
    if (!v)
        return;
    int n = snprintf(buf + *len, cap - *len, "%s\"%s\":\"", *len > 1 ? "," : "", key);
    if (n < 0 || (size_t)n >= cap - *len)
        return;
    *len += (size_t)n;
    for (; *v && *len + 8 < cap; v++) {
        unsigned char ch = (unsigned char)*v;
        if (ch == '"' || ch == '\\') {
            buf[(*len)++] = '\\';
            buf[(*len)++] = (char)ch;
        } else if (ch < 0x20 || ch == 0x7f) {
            buf[(*len)++] = '?';
        } else {
            buf[(*len)++] = (char)ch;
        }
    }
    if (*len + 1 < cap)
        buf[(*len)++] = '"';
    buf[*len] = '\0';
}

static void emit(const sv_log *lg, int level, const char *event, const sv_log_fields *f, const char *fmt,
                 va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    clean(msg);
    if (lg->format == SV_LOGFMT_JOURNAL) {
        /* journald adds the time; <N> is the syslog priority (sd-daemon(3)). */
        fprintf(lg->out, "<%d>%s\n", syslog_level[level], msg);
        fflush(lg->out);
        return;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    time_t secs = ts.tv_sec;
    gmtime_r(&secs, &tm);
    char when[64];
    snprintf(when, sizeof when, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000L);
    if (lg->format == SV_LOGFMT_JSON) {
        char line[1536];
        size_t len = 0;
        line[0] = '{';
        line[1] = '\0';
        len = 1;
        json_field(line, sizeof line, &len, "time", when);
        json_field(line, sizeof line, &len, "level", level_names[level]);
        json_field(line, sizeof line, &len, "event", event ? event : "message");
        if (f->client) {
            char id[16];
            snprintf(id, sizeof id, "%u", f->client);
            json_field(line, sizeof line, &len, "client", id);
        }
        json_field(line, sizeof line, &len, "addr", f->addr);
        json_field(line, sizeof line, &len, "room", f->room);
        json_field(line, sizeof line, &len, "player", f->player);
        json_field(line, sizeof line, &len, "reason", f->reason);
        json_field(line, sizeof line, &len, "msg", msg);
        fprintf(lg->out, "%s}\n", line);
    } else {
        fprintf(lg->out, "%s %-5s %s\n", when, level_names[level], msg);
    }
    fflush(lg->out);
}

void sv_logf(const sv_log *lg, int level, const char *fmt, ...)
{
    if (!lg || level > lg->level || level <= SV_LOG_OFF)
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(lg, level, NULL, &(sv_log_fields){0}, fmt, ap);
    va_end(ap);
}

void sv_loge(const sv_log *lg, int level, const char *event, const char *room, const char *player,
             const char *reason, const char *fmt, ...)
{
    if (!lg || level > lg->level || level <= SV_LOG_OFF)
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(lg, level, event, &(sv_log_fields){.room = room, .player = player, .reason = reason}, fmt, ap);
    va_end(ap);
}

void sv_logx(const sv_log *lg, int level, const char *event, const sv_log_fields *f, const char *fmt, ...)
{
    if (!lg || level > lg->level || level <= SV_LOG_OFF)
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(lg, level, event, f ? f : &(sv_log_fields){0}, fmt, ap);
    va_end(ap);
}
