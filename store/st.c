/* st.c: the store interface: picks a backend, checks arguments, keeps the last error. */
#include "st.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "st_backend.h"
#include "util.h"

/* Backends in the order they are asked; the last one takes file paths. */
static const st_backend *const backends[] = {&st_backend_pg, &st_backend_sqlite};

struct st {
    const st_backend *be;
    void *b;
    int version;
    char err[512];
};

static const st_backend *backend_for(const char *location)
{
    size_t nb = sizeof backends / sizeof backends[0];
    for (size_t i = 0; i + 1 < nb; i++)
        if (backends[i]->claims(location))
            return backends[i];
    return backends[nb - 1];
}

void st_location_text(const char *location, char *out, size_t outlen)
{
    const st_backend *be = backend_for(location);
    if (be->redact)
        be->redact(location, out, outlen);
    else
        snprintf(out, outlen, "%s", location);
}

st *st_open(const char *location, int flags, char *err, size_t errlen)
{
    if (!location || !location[0]) {
        snprintf(err, errlen, "no database location given");
        return NULL;
    }
    size_t len = strlen(location);
    if (isspace((unsigned char)location[0]) || isspace((unsigned char)location[len - 1])) {
        snprintf(err, errlen,
                 "the database location has white space at its start or end (a typo?): "
                 "refusing it");
        return NULL;
    }
    const st_backend *be = backend_for(location);
    const char *scheme = strstr(location, "://");
    size_t slen = scheme ? (size_t)(scheme - location) : 0;
    if (slen == 0 ||
        strspn(location, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-") < slen)
        scheme = NULL; /* a path with "://" in it, not a URI */
    if (scheme && be == &st_backend_sqlite) {
        snprintf(err, errlen,
                 "unknown database scheme '%.*s://': use postgresql://... for PostgreSQL or a file path for "
                 "SQLite",
                 (int)(scheme - location < 32 ? scheme - location : 32), location);
        return NULL;
    }
    int version = 0;
    void *b = be->open(location, flags, &version, err, errlen);
    if (!b)
        return NULL;
    st *s = mr_alloc(1, sizeof *s);
    s->be = be;
    s->b = b;
    s->version = version;
    return s;
}

void st_close(st *s)
{
    if (!s)
        return;
    s->be->close(s->b);
    free(s);
}

const char *st_backend_name(const st *s)
{
    return s->be->name;
}

int st_schema_version(const st *s)
{
    return s->version;
}

bool st_unavailable(const st *s)
{
    return s->be->unavailable && s->be->unavailable(s->b);
}

const char *st_put(st *s, st_match *const *ms, int n)
{
    for (int i = 0; i < n; i++) {
        const char *why = st_match_check(ms[i]);
        if (why)
            return why;
    }
    if (n <= 0)
        return NULL;
    return s->be->put(s->b, ms, n, s->err, sizeof s->err) ? NULL : s->err;
}

static int clamp_limit(int limit)
{
    return limit < 1 ? 1 : limit > ST_PAGE_MAX ? ST_PAGE_MAX : limit;
}

const char *st_recent(st *s, int64_t before_id, int limit, st_match **out, int *n)
{
    *out = NULL;
    *n = 0;
    if (before_id <= 0)
        before_id = INT64_MAX;
    return s->be->recent(s->b, before_id, clamp_limit(limit), out, n, s->err, sizeof s->err) ? NULL : s->err;
}

const char *st_get(st *s, int64_t id, st_match *out, bool *found)
{
    memset(out, 0, sizeof *out);
    *found = false;
    return s->be->get(s->b, id, out, found, s->err, sizeof s->err) ? NULL : s->err;
}

const char *st_best_times(st *s, const char *game_id, uint64_t desc_hash, int limit, st_best **out, int *n)
{
    *out = NULL;
    *n = 0;
    return s->be->best_times(s->b, game_id, desc_hash, clamp_limit(limit), out, n, s->err, sizeof s->err)
               ? NULL
               : s->err;
}

const char *st_personal_best(st *s, const char *name, const char *kind, int width, int height, st_best *out,
                             bool *found)
{
    memset(out, 0, sizeof *out);
    st_best *r = NULL;
    int n = 0;
    if (!s->be->personal_best(s->b, name, kind, width, height, &r, &n, s->err, sizeof s->err))
        return s->err;
    *found = n == 1;
    if (*found)
        *out = r[0];
    free(r);
    return NULL;
}
