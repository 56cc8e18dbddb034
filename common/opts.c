/* opts.c: reading and writing a settings table's values (whole numbers, seconds, yes/no), flag names,
 * quoting. */
#include "opts.h"

#include <stdint.h>
#include <string.h>

#include "util.h"

/* Seconds with up to 3 decimals ("3", "0.5", "2.25") to milliseconds. */
static bool parse_seconds(const char *s, long max_s, int *out_ms)
{
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

const char *mr_opt_set_field(int type, long lo, long hi, long scale, void *field, const char *val, char *buf,
                             size_t n)
{
    long v;
    switch (type) {
    case MR_OPT_INT:
        if (!mr_parse_long(val, lo, hi, &v)) {
            snprintf(buf, n, "is not a whole number %ld..%ld", lo, hi);
            return buf;
        }
        *(int *)field = (int)(v * scale);
        return NULL;
    case MR_OPT_SECONDS:
        if (!parse_seconds(val, hi, (int *)field)) {
            snprintf(buf, n, "is not a number of seconds 0..%ld (up to 3 decimals)", hi);
            return buf;
        }
        return NULL;
    case MR_OPT_BOOL:
        if (strcmp(val, "yes") == 0 || strcmp(val, "true") == 0 || strcmp(val, "on") == 0 ||
            strcmp(val, "1") == 0)
            *(bool *)field = true;
        else if (strcmp(val, "no") == 0 || strcmp(val, "false") == 0 || strcmp(val, "off") == 0 ||
                 strcmp(val, "0") == 0)
            *(bool *)field = false;
        else
            return "is not yes or no";
        return NULL;
    default:
        return "has no reader";
    }
}

void mr_opt_get_field(int type, long scale, const void *field, char *buf, size_t n)
{
    switch (type) {
    case MR_OPT_INT:
        snprintf(buf, n, "%d", *(const int *)field / (int)scale);
        break;
    case MR_OPT_SECONDS: {
        int ms = *(const int *)field;
        if (ms % 1000 == 0)
            snprintf(buf, n, "%d", ms / 1000);
        else
            snprintf(buf, n, "%d.%03d", ms / 1000, ms % 1000);
        /* "0.500" -> "0.5" */
        size_t len = strlen(buf);
        if (strchr(buf, '.'))
            while (len > 0 && buf[len - 1] == '0')
                buf[--len] = '\0';
        break;
    }
    case MR_OPT_BOOL:
        snprintf(buf, n, "%s", *(const bool *)field ? "yes" : "no");
        break;
    default:
        snprintf(buf, n, "?");
    }
}

void mr_opt_key_flag(const char *key, char *buf, size_t n)
{
    snprintf(buf, n, "--%s", key);
    for (char *p = buf; *p; p++)
        if (*p == '_')
            *p = '-';
}

void mr_opt_put_value(FILE *f, const char *v)
{
    size_t n = strlen(v);
    bool quote = n == 0 || v[0] == ' ' || v[0] == '\t' || v[0] == '"' || v[n - 1] == ' ' || v[n - 1] == '\t';
    fprintf(f, quote ? "\"%s\"\n" : "%s\n", v);
}
