/* st_pg_conn.c: the PostgreSQL backend's connection: connect, schema check and migrations under the
 * advisory lock, reconnection with backoff, errors, the URI without its password. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "st.h"
#include "st_pg.h"
#include "st_pg_impl.h"
#include "util.h"

/* Reconnection: after a failed attempt the next one waits RETRY_MIN_MS,
 * doubling to RETRY_MAX_MS; calls in between fail at once (the writer's
 * thread is never held by a database that is down, only by one attempt). */
#define RETRY_MIN_MS 250
#define RETRY_MAX_MS 4000

bool st_pg_claims(const char *location)
{
    return strncmp(location, "postgresql://", 13) == 0 || strncmp(location, "postgres://", 11) == 0;
}

void st_pg_redact(const char *location, char *out, size_t outlen)
{
    if (!outlen)
        return;
    size_t o = 0;
    const char *p = location;
    /* scheme://user:PASSWORD@host...: the password ends at the last '@' of the authority. */
    const char *auth = strstr(location, "://");
    const char *pass = NULL, *at = NULL;
    if (auth) {
        auth += 3;
        const char *end = auth + strcspn(auth, "/?#");
        for (const char *q = auth; q < end; q++)
            if (*q == '@')
                at = q;
        pass = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
    }
    while (*p && o + 1 < outlen) {
        const char *repl = NULL;
        if (pass && p == pass + 1) {
            repl = "***";
            p = at;
        } else if ((p[0] == '?' || p[0] == '&') && strncmp(p + 1, "password=", 9) == 0) {
            repl = p[0] == '?' ? "?password=***" : "&password=***";
            p += 10;
            p += strcspn(p, "&#");
        }
        if (repl) {
            for (; *repl && o + 1 < outlen; repl++)
                out[o++] = *repl;
            continue;
        }
        out[o++] = *p++;
    }
    out[o] = '\0';
}

/* Server notices (e.g. "relation already exists, skipping") are not ours to print. */
static void no_notices(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;
}

/* A message on one line: libpq's newlines and tabs become spaces, the trailing ones go. */
static void one_line(char *m)
{
    for (char *e = m; *e; e++)
        if (*e == '\n' || *e == '\t')
            *e = ' ';
    for (char *e = m + strlen(m); e > m && e[-1] == ' '; e--)
        e[-1] = '\0';
}

/* The connection's error message on one line. */
static const char *conn_msg(PGconn *c, char *buf, size_t n)
{
    snprintf(buf, n, "%s", c ? PQerrorMessage(c) : "out of memory");
    one_line(buf);
    return buf;
}

/* Whether a failed result means "try again later" (the server went away,
 * is starting or stopping, is out of resources, or the transaction lost a
 * conflict) rather than "this record is refused". */
static bool retryable(PGconn *c, const PGresult *r)
{
    if (!c || PQstatus(c) != CONNECTION_OK)
        return true;
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    if (!state)
        return r == NULL || PQresultStatus(r) == PGRES_FATAL_ERROR;
    return strncmp(state, "08", 2) == 0 || strncmp(state, "40", 2) == 0 || strncmp(state, "53", 2) == 0 ||
           strncmp(state, "57", 2) == 0 || strncmp(state, "58", 2) == 0;
}

bool st_pg_failed(st_pg_conn *g, PGresult *r, const char *what, char *err, size_t errlen)
{
    char m[256];
    const char *msg = r && PQresultErrorMessage(r)[0] ? PQresultErrorMessage(r) : PQerrorMessage(g->c);
    snprintf(m, sizeof m, "%s", msg);
    one_line(m);
    g->down = retryable(g->c, r);
    snprintf(err, errlen, "%s: %s: %s%s", g->where, what, m, g->down ? " (will retry)" : "");
    PQclear(r);
    if (g->down && PQstatus(g->c) != CONNECTION_OK) {
        PQfinish(g->c);
        g->c = NULL;
    }
    return false;
}

bool st_pg_command(st_pg_conn *g, const char *sql, const char *what, char *err, size_t errlen)
{
    PGresult *r = PQexecParams(g->c, sql, 0, NULL, NULL, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        return st_pg_failed(g, r, what, err, errlen);
    PQclear(r);
    return true;
}

void st_pg_rollback(st_pg_conn *g)
{
    if (g->c && PQstatus(g->c) == CONNECTION_OK)
        PQclear(PQexec(g->c, "ROLLBACK"));
}

/* Checks that the database is ours (or empty) and at a version we know,
 * and (read-write) migrates it to target in one transaction under the
 * advisory lock: a second server starting at the same moment waits, then
 * finds the work done. */
static bool check_schema(st_pg_conn *g, int target, char *err, size_t errlen)
{
    if (!g->ro) {
        if (!st_pg_command(g, "BEGIN", "starting the schema check", err, errlen))
            return false;
        char key[24];
        snprintf(key, sizeof key, "%d", ST_PG_LOCK_KEY);
        const char *v[1] = {key};
        PGresult *r =
            PQexecParams(g->c, "SELECT pg_advisory_xact_lock($1::bigint)", 1, NULL, v, NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_TUPLES_OK) {
            st_pg_failed(g, r, "taking the schema lock", err, errlen);
            goto bad;
        }
        PQclear(r);
    }
    PGresult *r =
        PQexecParams(g->c,
                     "SELECT to_regclass('mazerace_schema') IS NOT NULL, coalesce(current_schema(), ''),"
                     " (SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema())",
                     0, NULL, NULL, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
        st_pg_failed(g, r, "reading the schema", err, errlen);
        goto bad;
    }
    bool ours = PQgetvalue(r, 0, 0)[0] == 't';
    char schema[64];
    snprintf(schema, sizeof schema, "%s", PQgetvalue(r, 0, 1));
    long long tables = strtoll(PQgetvalue(r, 0, 2), NULL, 10);
    PQclear(r);
    if (!schema[0]) {
        snprintf(err, errlen, "%s: no schema to create tables in (search_path is empty)", g->where);
        goto bad;
    }
    if (!ours && tables > 0) {
        snprintf(err, errlen,
                 "%s: schema \"%s\" holds %lld tables of another program (no mazerace_schema table), "
                 "not a mazerace database: refusing to use it",
                 g->where, schema, tables);
        goto bad;
    }
    int version = 0;
    if (ours) {
        r = PQexecParams(g->c, "SELECT coalesce(max(version), 0) FROM mazerace_schema", 0, NULL, NULL, NULL,
                         NULL, 0);
        if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
            st_pg_failed(g, r, "reading the schema version", err, errlen);
            goto bad;
        }
        version = atoi(PQgetvalue(r, 0, 0));
        PQclear(r);
    }
    if (version > ST_PG_VERSION) {
        snprintf(err, errlen,
                 "%s: schema version %d is newer than this program's %d (written by a newer mazerace): "
                 "refusing to use it",
                 g->where, version, ST_PG_VERSION);
        goto bad;
    }
    if (g->ro) {
        if (version < target) {
            snprintf(err, errlen,
                     "%s: %s (schema version %d, this program's is %d); start the server on it once to "
                     "create or migrate it",
                     g->where, ours ? "an older mazerace database" : "an empty database", version, target);
            return false;
        }
        g->version = version;
        return true;
    }
    if (!ours && !st_pg_command(g,
                                "CREATE TABLE mazerace_schema (version integer PRIMARY KEY,"
                                " applied timestamptz NOT NULL DEFAULT now())",
                                "creating mazerace_schema", err, errlen))
        goto bad;
    for (; version < target; version++) {
        char what[64], next[16];
        snprintf(what, sizeof what, "migrating the schema from version %d to %d", version, version + 1);
        snprintf(next, sizeof next, "%d", version + 1);
        const char *v[1] = {next};
        /* A constant script of several statements: no values in it. */
        PGresult *m = PQexec(g->c, st_pg_migration[version]);
        if (PQresultStatus(m) != PGRES_COMMAND_OK) {
            st_pg_failed(g, m, what, err, errlen);
            goto bad;
        }
        PQclear(m);
        m = PQexecParams(g->c, "INSERT INTO mazerace_schema (version) VALUES ($1::integer)", 1, NULL, v, NULL,
                         NULL, 0);
        if (PQresultStatus(m) != PGRES_COMMAND_OK) {
            st_pg_failed(g, m, what, err, errlen);
            goto bad;
        }
        PQclear(m);
    }
    if (!st_pg_command(g, "COMMIT", "committing the schema", err, errlen))
        goto bad;
    g->version = version;
    return true;
bad:
    st_pg_rollback(g);
    return false;
}

/* Connects, checks or migrates the schema and prepares the statements.
 * Bounded: a host that does not answer gives up after connect_timeout
 * (5 s unless the URI says otherwise). */
static bool connect_db(st_pg_conn *g, int target, bool prepare, char *err, size_t errlen)
{
    /* Defaults first: the URI's own parameters (expanded from dbname) win. */
    const char *const keys[] = {"connect_timeout",
                                "application_name",
                                "keepalives_idle",
                                "keepalives_interval",
                                "keepalives_count",
                                "dbname",
                                NULL};
    const char *const vals[] = {"5", "mazerace-server", "30", "10", "3", g->uri, NULL};
    g->c = PQconnectdbParams(keys, vals, 1);
    if (!g->c || PQstatus(g->c) != CONNECTION_OK) {
        char m[256];
        snprintf(err, errlen, "%s: cannot connect: %s", g->where, conn_msg(g->c, m, sizeof m));
        g->down = true;
        PQfinish(g->c);
        g->c = NULL;
        return false;
    }
    PQsetNoticeProcessor(g->c, no_notices, NULL);
    if (!st_pg_command(g, "SET client_min_messages = warning", "setting up the session", err, errlen) ||
        !check_schema(g, target, err, errlen)) {
        if (g->c && !g->down) { /* a refusal, not an absence */
            PQfinish(g->c);
            g->c = NULL;
        }
        return false;
    }
    for (int i = 0; prepare && i < ST_PG_STMTS; i++) {
        PGresult *r = PQprepare(g->c, st_pg_stmt_name[i], st_pg_stmt_sql[i], 0, NULL);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) {
            char what[64];
            snprintf(what, sizeof what, "preparing statement %s", st_pg_stmt_name[i]);
            st_pg_failed(g, r, what, err, errlen);
            PQfinish(g->c);
            g->c = NULL;
            return false;
        }
        PQclear(r);
    }
    g->down = false;
    g->backoff_ms = 0;
    return true;
}

bool st_pg_ensure(st_pg_conn *g, char *err, size_t errlen)
{
    if (g->c)
        return true;
    uint64_t now = mr_now_us();
    if (now < g->retry_at_us) {
        snprintf(err, errlen, "%s (next attempt in %llu ms)", g->last_down,
                 (unsigned long long)((g->retry_at_us - now) / 1000));
        g->down = true;
        return false;
    }
    if (connect_db(g, ST_PG_VERSION, true, err, errlen))
        return true;
    g->down = true; /* a schema refusal too: the operator may fix it while we keep the records */
    g->backoff_ms = g->backoff_ms ? g->backoff_ms * 2 : RETRY_MIN_MS;
    if (g->backoff_ms > RETRY_MAX_MS)
        g->backoff_ms = RETRY_MAX_MS;
    g->retry_at_us = mr_now_us() + (uint64_t)g->backoff_ms * 1000;
    snprintf(g->last_down, sizeof g->last_down, "%s", err);
    return false;
}

void st_pg_close(void *b)
{
    st_pg_conn *g = b;
    if (!g)
        return;
    PQfinish(g->c);
    free(g->uri);
    free(g);
}

static st_pg_conn *pg_new(const char *location, int flags)
{
    st_pg_conn *g = mr_alloc(1, sizeof *g);
    memset(g, 0, sizeof *g);
    g->uri = mr_strdup(location);
    g->ro = flags & ST_OPEN_READONLY;
    st_pg_redact(location, g->where, sizeof g->where);
    return g;
}

/* Read-only openers (operator tools) need the database now. The server
 * (read-write) starts even when the database cannot be reached at all: the
 * handle is down, calls fail "will retry", the writer keeps records in its
 * spool, and the first call after the database appears connects and
 * migrates. A database that answers and refuses (authentication, no such
 * database, someone else's tables, a newer schema) stops the open. */
void *st_pg_open(const char *location, int flags, int *version, char *err, size_t errlen)
{
    st_pg_conn *g = pg_new(location, flags);
    if (connect_db(g, ST_PG_VERSION, true, err, errlen)) {
        *version = g->version;
        return g;
    }
    if (!g->ro && !g->c) {
        const char *const keys[] = {"connect_timeout", "dbname", NULL};
        const char *const vals[] = {"5", g->uri, NULL};
        PGPing p = PQpingParams(keys, vals, 1);
        if (p == PQPING_NO_RESPONSE || p == PQPING_REJECT) {
            snprintf(g->last_down, sizeof g->last_down, "%s", err);
            g->backoff_ms = RETRY_MIN_MS;
            g->retry_at_us = mr_now_us() + RETRY_MIN_MS * 1000;
            g->down = true;
            *version = 0;
            return g;
        }
    }
    st_pg_close(g);
    return NULL;
}

const char *st_pg_create_at(const char *uri, int version, char *err, size_t errlen)
{
    if (version < 1 || version > ST_PG_VERSION)
        return "st_pg_create_at: no such version";
    st_pg_conn *g = pg_new(uri, ST_OPEN_CREATE);
    bool ok = connect_db(g, version, false, err, errlen);
    st_pg_close(g);
    return ok ? NULL : err;
}

bool st_pg_unavailable(void *b)
{
    return ((st_pg_conn *)b)->down;
}
