/* util.c: checked allocation, hashing and the monotonic clock. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void die_oom(size_t n, size_t size)
{
    fprintf(stderr, "mazerace: out of memory (%zu x %zu bytes)\n", n, size);
    abort();
}

void *mr_alloc(size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size)
        die_oom(n, size);
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        die_oom(n, size);
    return p;
}

void *mr_realloc(void *p, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size)
        die_oom(n, size);
    size_t bytes = n * size;
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q)
        die_oom(n, size);
    return q;
}

char *mr_strndup(const char *s, size_t n)
{
    char *d = mr_alloc(n + 1, 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *mr_strdup(const char *s)
{
    return mr_strndup(s, strlen(s));
}

uint64_t mr_hash64(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t mr_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

bool mr_parse_long(const char *s, long lo, long hi, long *out)
{
    if (!s || !((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')))
        return false; /* no leading space or '+', as strtol would take */
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool mr_parse_u64(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

bool mr_parse_int(const char *s, int lo, int hi, int *out)
{
    long v;
    if (!mr_parse_long(s, lo, hi, &v))
        return false;
    *out = (int)v;
    return true;
}

bool mr_parse_size(const char *s, int *w, int *h)
{
    const char *x = s ? strchr(s, 'x') : NULL;
    char a[16];
    if (!x || (size_t)(x - s) >= sizeof a || strlen(x + 1) >= sizeof a)
        return false;
    memcpy(a, s, (size_t)(x - s));
    a[x - s] = '\0';
    return mr_parse_int(a, INT_MIN, INT_MAX, w) && mr_parse_int(x + 1, INT_MIN, INT_MAX, h);
}

bool mr_next_line(const char *text, size_t len, size_t *pos, char *buf, size_t cap, size_t *n)
{
    size_t i = *pos, j = i;
    if (i >= len)
        return false;
    while (j < len && text[j] != '\n')
        j++;
    *n = j - i;
    *pos = j + 1;
    if (j - i >= cap) {
        buf[0] = '\0';
        return true;
    }
    memcpy(buf, text + i, j - i);
    buf[j - i] = '\0';
    return true;
}

char *mr_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

mr_text mr_text_new(size_t cap)
{
    mr_text t = {mr_alloc(cap ? cap : 1, 1), 0, cap ? cap : 1};
    return t;
}

void mr_text_add(mr_text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = t->cap * 2 + (size_t)n;
        t->p = mr_realloc(t->p, t->cap, 1);
    }
}

char *mr_read_file(const char *path, size_t *lenp)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0, n;
    char *text = mr_alloc(cap, 1);
    while ((n = fread(text + len, 1, cap - len - 1, f)) > 0)
        if ((len += n) + 1 == cap)
            text = mr_realloc(text, cap *= 2, 1);
    bool ok = !ferror(f);
    fclose(f);
    if (!ok) {
        free(text);
        return NULL;
    }
    text[len] = '\0';
    if (lenp)
        *lenp = len;
    return text;
}

void mr_utc_text(int64_t ms, char *buf, size_t n)
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    if (ms < 0 || !gmtime_r(&t, &tm)) {
        snprintf(buf, n, "?");
        return;
    }
    char day[32];
    strftime(day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, n, "%s.%03dZ", day, (int)(ms % 1000));
}

const char *mr_name_of(const char *const *names, size_t n, int i, const char *other)
{
    return i >= 0 && (size_t)i < n && names[i] ? names[i] : other;
}

void *mr_ring_grow(void *ring, size_t size, size_t *head, size_t len, size_t *cap)
{
    size_t room = *cap ? *cap * 2 : 16;
    unsigned char *q = mr_alloc(room, size);
    size_t first = len < *cap - *head ? len : *cap - *head; /* from head to the end, then from 0 */
    if (len) {
        memcpy(q, (unsigned char *)ring + *head * size, first * size);
        memcpy(q + first * size, ring, (len - first) * size);
    }
    free(ring);
    *head = 0;
    *cap = room;
    return q;
}
