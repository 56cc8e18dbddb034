/* st_pg.c: the PostgreSQL store backend (libpq): migrations under an advisory lock, prepared statements,
 * reconnection with backoff. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "st_backend.h"
#include "st_pg.h"
#include "util.h"

/* Reconnection: after a failed attempt the next one waits RETRY_MIN_MS,
 * doubling to RETRY_MAX_MS; calls in between fail at once (the writer's
 * thread is never held by a database that is down, only by one attempt). */
#define RETRY_MIN_MS 250
#define RETRY_MAX_MS 4000

enum stmt_id { S_PUT, S_RECENT, S_GET, S_MOVES, S_BEST_ID, S_BEST_HASH, S_PB, S_COUNT };

/* The columns of a match with both players, as st_match (read_match). */
#define MATCH_COLS                                                                                           \
    "m.id, m.mode, m.game_id, m.desc_hash, m.kind, m.width, m.height, m.difficulty, m.started_ms,"           \
    " m.winner, m.ending, m.game_no, m.series_len,"                                                          \
    " a.name, a.time_ms, a.moves, a.solved, a.result, b.name, b.time_ms, b.moves, b.solved, b.result"
#define MATCH_FROM                                                                                           \
    " FROM matches m JOIN players a ON a.match_id = m.id AND a.slot = 0"                                     \
    " JOIN players b ON b.match_id = m.id AND b.slot = 1"
#define BEST_COLS                                                                                            \
    "m.id, p.name, p.time_ms, p.moves, m.started_ms FROM players p JOIN matches m ON m.id = p.match_id"
#define BEST_ORDER " AND p.solved ORDER BY p.time_ms, p.moves, m.id LIMIT "

/* A match in one statement (one round trip): the match row, both players
 * from plain parameters and the moves from six arrays, all values bound. */
static const char *const stmt_sql[S_COUNT] = {
    [S_PUT] = "WITH m AS (INSERT INTO matches (mode, game_id, desc_id, desc_hash, kind, width, height,"
              " difficulty, started_ms, winner, ending, game_no, series_len)"
              " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id),"
              " p AS (INSERT INTO players (match_id, slot, name, time_ms, moves, solved, result)"
              " SELECT m.id, v.slot, v.name, v.time_ms, v.moves, v.solved, v.result FROM m,"
              " (VALUES (0, $14::text, $15::bigint, $16::bigint, $17::boolean, $18::text),"
              " (1, $19::text, $20::bigint, $21::bigint, $22::boolean, $23::text))"
              " AS v (slot, name, time_ms, moves, solved, result)),"
              " mv AS (INSERT INTO moves (match_id, seq, slot, ms, type, dir, x, y)"
              " SELECT m.id, u.ord - 1, u.slot, u.ms, u.type, u.dir, u.x, u.y FROM m,"
              " unnest($24::smallint[], $25::bigint[], $26::smallint[], $27::smallint[], $28::integer[],"
              " $29::integer[]) WITH ORDINALITY AS u (slot, ms, type, dir, x, y, ord))"
              " SELECT id FROM m",
    [S_RECENT] = "SELECT " MATCH_COLS MATCH_FROM " WHERE m.id < $1 ORDER BY m.id DESC LIMIT $2",
    [S_GET] = "SELECT " MATCH_COLS ", m.desc_id" MATCH_FROM " WHERE m.id = $1",
    [S_MOVES] = "SELECT slot, ms, type, dir, x, y FROM moves WHERE match_id = $1 ORDER BY seq",
    [S_BEST_ID] = "SELECT " BEST_COLS " WHERE m.game_id = $1" BEST_ORDER "$2",
    [S_BEST_HASH] = "SELECT " BEST_COLS " WHERE m.desc_hash = $1" BEST_ORDER "$2",
    [S_PB] = "SELECT " BEST_COLS
             " WHERE p.name = $1 AND m.kind = $2 AND m.width = $3 AND m.height = $4" BEST_ORDER "1",
};
static const char *const stmt_name[S_COUNT] = {"mr_put",  "mr_recent",    "mr_get", "mr_moves",
                                               "mr_best", "mr_best_hash", "mr_pb"};

typedef struct pg {
    PGconn *c;       /* NULL while disconnected */
    char *uri;       /* as given (it may hold the password): never printed */
    char where[256]; /* the URI redacted, for messages */
    bool ro;
    bool down;            /* the last failure was the database being out of reach */
    uint64_t retry_at_us; /* no connection attempt before this (mr_now_us) */
    int backoff_ms;       /* 0 after a success */
    char last_down[256];  /* why the last attempt failed */
    int version;
} pg;

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

/* Records a failed call: err gets "what: the database's words"; a failure
 * that is the database's being away drops the connection (the next call
 * reconnects) and marks the handle down. Returns false. */
static bool failed(pg *g, PGresult *r, const char *what, char *err, size_t errlen)
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

static bool command(pg *g, const char *sql, const char *what, char *err, size_t errlen)
{
    PGresult *r = PQexecParams(g->c, sql, 0, NULL, NULL, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        return failed(g, r, what, err, errlen);
    PQclear(r);
    return true;
}

static void rollback(pg *g)
{
    if (g->c && PQstatus(g->c) == CONNECTION_OK)
        PQclear(PQexec(g->c, "ROLLBACK"));
}

/* Checks that the database is ours (or empty) and at a version we know,
 * and (read-write) migrates it to target in one transaction under the
 * advisory lock: a second server starting at the same moment waits, then
 * finds the work done. */
static bool check_schema(pg *g, int target, char *err, size_t errlen)
{
    if (!g->ro) {
        if (!command(g, "BEGIN", "starting the schema check", err, errlen))
            return false;
        char key[24];
        snprintf(key, sizeof key, "%d", ST_PG_LOCK_KEY);
        const char *v[1] = {key};
        PGresult *r =
            PQexecParams(g->c, "SELECT pg_advisory_xact_lock($1::bigint)", 1, NULL, v, NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_TUPLES_OK) {
            failed(g, r, "taking the schema lock", err, errlen);
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
        failed(g, r, "reading the schema", err, errlen);
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
            failed(g, r, "reading the schema version", err, errlen);
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
    if (!ours && !command(g,
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
            failed(g, m, what, err, errlen);
            goto bad;
        }
        PQclear(m);
        m = PQexecParams(g->c, "INSERT INTO mazerace_schema (version) VALUES ($1::integer)", 1, NULL, v, NULL,
                         NULL, 0);
        if (PQresultStatus(m) != PGRES_COMMAND_OK) {
            failed(g, m, what, err, errlen);
            goto bad;
        }
        PQclear(m);
    }
    if (!command(g, "COMMIT", "committing the schema", err, errlen))
        goto bad;
    g->version = version;
    return true;
bad:
    rollback(g);
    return false;
}

/* Connects, checks or migrates the schema and prepares the statements.
 * Bounded: a host that does not answer gives up after connect_timeout
 * (5 s unless the URI says otherwise). */
static bool connect_db(pg *g, int target, bool prepare, char *err, size_t errlen)
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
    if (!command(g, "SET client_min_messages = warning", "setting up the session", err, errlen) ||
        !check_schema(g, target, err, errlen)) {
        if (g->c && !g->down) { /* a refusal, not an absence */
            PQfinish(g->c);
            g->c = NULL;
        }
        return false;
    }
    for (int i = 0; prepare && i < S_COUNT; i++) {
        PGresult *r = PQprepare(g->c, stmt_name[i], stmt_sql[i], 0, NULL);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) {
            char what[64];
            snprintf(what, sizeof what, "preparing statement %s", stmt_name[i]);
            failed(g, r, what, err, errlen);
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

/* A live connection, or false at once while the backoff runs, or after one
 * attempt that failed (the next one waits longer). */
static bool ensure(pg *g, char *err, size_t errlen)
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

static void pg_close(void *b)
{
    pg *g = b;
    if (!g)
        return;
    PQfinish(g->c);
    free(g->uri);
    free(g);
}

static pg *pg_new(const char *location, int flags)
{
    pg *g = mr_alloc(1, sizeof *g);
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
static void *pg_open(const char *location, int flags, int *version, char *err, size_t errlen)
{
    pg *g = pg_new(location, flags);
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
    pg_close(g);
    return NULL;
}

const char *st_pg_create_at(const char *uri, int version, char *err, size_t errlen)
{
    if (version < 1 || version > ST_PG_VERSION)
        return "st_pg_create_at: no such version";
    pg *g = pg_new(uri, ST_OPEN_CREATE);
    bool ok = connect_db(g, version, false, err, errlen);
    pg_close(g);
    return ok ? NULL : err;
}

static bool pg_unavailable(void *b)
{
    return ((pg *)b)->down;
}

/* A growing text buffer for array parameters ("{1,2,3}"). */
typedef struct buf {
    char *p;
    size_t n, cap;
} buf;

static void buf_int(buf *b, long long v, bool first)
{
    if (b->n + 24 > b->cap) {
        b->cap = b->cap ? b->cap * 2 : 256;
        b->p = mr_realloc(b->p, b->cap, 1);
    }
    b->n += (size_t)snprintf(b->p + b->n, b->cap - b->n, "%s%lld", first ? "{" : ",", v);
}

static void buf_close(buf *b)
{
    if (b->n + 3 > b->cap) { /* "{}" and the NUL when empty */
        b->cap = b->n + 3;
        b->p = mr_realloc(b->p, b->cap, 1);
    }
    if (b->n == 0)
        b->p[b->n++] = '{';
    b->p[b->n++] = '}';
    b->p[b->n] = '\0';
}

/* Names come from players: bytes that are not UTF-8 (which PostgreSQL
 * refuses in text, SQLite stores as they are) become '?', so that the
 * record is kept rather than refused. */
static void utf8_clean(char *dst, size_t size, const char *src)
{
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)src;
    while (*s && o + 1 < size) {
        int len = *s < 0x80                           ? 1
                  : (*s & 0xE0) == 0xC0 && *s >= 0xC2 ? 2
                  : (*s & 0xF0) == 0xE0               ? 3
                  : (*s & 0xF8) == 0xF0 && *s <= 0xF4 ? 4
                                                      : 0;
        bool ok = len > 0;
        for (int k = 1; ok && k < len; k++)
            ok = (s[k] & 0xC0) == 0x80;
        if (!ok || o + (size_t)len >= size) {
            dst[o++] = '?';
            s++;
            continue;
        }
        memcpy(dst + o, s, (size_t)len);
        o += (size_t)len;
        s += len;
    }
    dst[o] = '\0';
}

static bool put_one(pg *g, st_match *m, char *err, size_t errlen)
{
    char num[23][24];
    char names[2][ST_NAME_MAX * 2 + 1];
    const char *v[29];
    v[0] = m->mode;
    v[1] = m->game_id;
    v[2] = m->desc_id;
    snprintf(num[3], 24, "%lld", (long long)(int64_t)m->desc_hash);
    v[3] = num[3];
    v[4] = m->kind;
    snprintf(num[5], 24, "%d", m->width);
    v[5] = num[5];
    snprintf(num[6], 24, "%d", m->height);
    v[6] = num[6];
    v[7] = m->difficulty;
    snprintf(num[8], 24, "%lld", (long long)m->start_utc_ms);
    v[8] = num[8];
    snprintf(num[9], 24, "%d", m->winner);
    v[9] = num[9];
    v[10] = st_ending_text(m->ending);
    snprintf(num[11], 24, "%d", m->game_no);
    v[11] = num[11];
    snprintf(num[12], 24, "%d", m->series_len);
    v[12] = num[12];
    for (int i = 0; i < 2; i++) {
        const st_player *p = &m->p[i];
        int c = 13 + 5 * i;
        utf8_clean(names[i], sizeof names[i], p->name);
        v[c] = names[i];
        snprintf(num[c + 1], 24, "%llu", (unsigned long long)p->time_ms);
        v[c + 1] = num[c + 1];
        snprintf(num[c + 2], 24, "%u", (unsigned)p->moves);
        v[c + 2] = num[c + 2];
        v[c + 3] = p->solved ? "true" : "false";
        v[c + 4] = st_result_text(p->result);
    }
    buf a[6] = {{0}};
    for (size_t i = 0; i < m->nmoves; i++) {
        const st_move *mv = &m->moves[i];
        buf_int(&a[0], mv->player, i == 0);
        buf_int(&a[1], mv->ms, i == 0);
        buf_int(&a[2], mv->type, i == 0);
        buf_int(&a[3], mv->dir, i == 0);
        buf_int(&a[4], mv->x, i == 0);
        buf_int(&a[5], mv->y, i == 0);
    }
    for (int k = 0; k < 6; k++) {
        buf_close(&a[k]);
        v[23 + k] = a[k].p;
    }
    PGresult *r = PQexecPrepared(g->c, stmt_name[S_PUT], 29, v, NULL, NULL, 0);
    for (int k = 0; k < 6; k++)
        free(a[k].p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
        return failed(g, r, "storing a match", err, errlen);
    m->id = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return true;
}

static bool pg_put(void *b, st_match *const *ms, int n, char *err, size_t errlen)
{
    pg *g = b;
    if (!ensure(g, err, errlen))
        return false;
    if (!command(g, "BEGIN", "storing matches", err, errlen))
        return false;
    for (int i = 0; i < n; i++)
        if (!put_one(g, ms[i], err, errlen))
            goto bad;
    if (command(g, "COMMIT", "committing matches", err, errlen))
        return true;
bad:
    rollback(g);
    for (int j = 0; j < n; j++)
        ms[j]->id = 0;
    return false;
}

static long long col_ll(const PGresult *r, int row, int col)
{
    return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

static void copy_word(char *dst, size_t size, const PGresult *r, int row, int col)
{
    snprintf(dst, size, "%s", PQgetvalue(r, row, col));
}

static int word_index(const char *w, const char *(*text)(int), int n, int dflt)
{
    for (int i = 0; i < n; i++)
        if (strcmp(w, text(i)) == 0)
            return i;
    return dflt;
}

static void read_player(const PGresult *r, int row, int col, st_player *p)
{
    copy_word(p->name, sizeof p->name, r, row, col);
    p->time_ms = strtoull(PQgetvalue(r, row, col + 1), NULL, 10);
    p->moves = (uint32_t)col_ll(r, row, col + 2);
    p->solved = PQgetvalue(r, row, col + 3)[0] == 't';
    p->result = word_index(PQgetvalue(r, row, col + 4), st_result_text, 3, ST_NO_RESULT);
}

/* A row of MATCH_COLS into m (game_id allocated). */
static void read_match(const PGresult *r, int row, st_match *m)
{
    m->id = col_ll(r, row, 0);
    copy_word(m->mode, sizeof m->mode, r, row, 1);
    m->game_id = mr_strdup(PQgetvalue(r, row, 2));
    m->desc_hash = (uint64_t)col_ll(r, row, 3);
    copy_word(m->kind, sizeof m->kind, r, row, 4);
    m->width = (int)col_ll(r, row, 5);
    m->height = (int)col_ll(r, row, 6);
    copy_word(m->difficulty, sizeof m->difficulty, r, row, 7);
    m->start_utc_ms = col_ll(r, row, 8);
    m->winner = (int)col_ll(r, row, 9);
    m->ending = word_index(PQgetvalue(r, row, 10), st_ending_text, 4, ST_END_ABORTED);
    m->game_no = (int)col_ll(r, row, 11);
    m->series_len = (int)col_ll(r, row, 12);
    read_player(r, row, 13, &m->p[0]);
    read_player(r, row, 18, &m->p[1]);
}

/* Runs a prepared query; its rows, or NULL with err filled. */
static PGresult *query(pg *g, int id, int n, const char *const *vals, const char *what, char *err,
                       size_t errlen)
{
    if (!ensure(g, err, errlen))
        return NULL;
    PGresult *r = PQexecPrepared(g->c, stmt_name[id], n, vals, NULL, NULL, 0);
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
        return r;
    failed(g, r, what, err, errlen);
    return NULL;
}

static bool pg_recent(void *b, int64_t before_id, int limit, st_match **out, int *n, char *err, size_t errlen)
{
    char a[24], l[16];
    snprintf(a, sizeof a, "%lld", (long long)before_id);
    snprintf(l, sizeof l, "%d", limit);
    const char *v[2] = {a, l};
    PGresult *r = query(b, S_RECENT, 2, v, "listing matches", err, errlen);
    if (!r)
        return false;
    int k = PQntuples(r) < limit ? PQntuples(r) : limit;
    st_match *ms = NULL;
    if (k > 0) {
        ms = mr_alloc((size_t)k, sizeof *ms);
        memset(ms, 0, (size_t)k * sizeof *ms);
        for (int i = 0; i < k; i++)
            read_match(r, i, &ms[i]);
    }
    PQclear(r);
    *out = ms;
    *n = k;
    return true;
}

static bool pg_get(void *b, int64_t id, st_match *out, bool *found, char *err, size_t errlen)
{
    char a[24];
    snprintf(a, sizeof a, "%lld", (long long)id);
    const char *v[1] = {a};
    PGresult *r = query(b, S_GET, 1, v, "reading a match", err, errlen);
    if (!r)
        return false;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return true;
    }
    read_match(r, 0, out);
    out->desc_id = mr_strdup(PQgetvalue(r, 0, 23));
    PQclear(r);
    /* A match's rows are written by one statement and never changed. */
    r = query(b, S_MOVES, 1, v, "reading a match's moves", err, errlen);
    if (!r) {
        st_match_free(out);
        return false;
    }
    size_t nm = (size_t)PQntuples(r);
    if (nm > ST_MOVES_MAX)
        nm = ST_MOVES_MAX;
    if (nm)
        out->moves = mr_alloc(nm, sizeof *out->moves);
    for (size_t i = 0; i < nm; i++) {
        st_move *mv = &out->moves[i];
        int row = (int)i;
        mv->player = (uint8_t)(col_ll(r, row, 0) & 1);
        mv->ms = (uint32_t)col_ll(r, row, 1);
        mv->type = (uint8_t)col_ll(r, row, 2);
        mv->dir = (uint8_t)col_ll(r, row, 3);
        mv->x = (uint16_t)col_ll(r, row, 4);
        mv->y = (uint16_t)col_ll(r, row, 5);
    }
    out->nmoves = nm;
    PQclear(r);
    *found = true;
    return true;
}

/* Rows of BEST_COLS into a new array (NULL when none). */
static void read_bests(PGresult *r, int limit, st_best **out, int *n)
{
    int k = PQntuples(r) < limit ? PQntuples(r) : limit;
    st_best *bs = k ? mr_alloc((size_t)k, sizeof *bs) : NULL;
    for (int i = 0; i < k; i++) {
        st_best *x = &bs[i];
        memset(x, 0, sizeof *x);
        x->match_id = col_ll(r, i, 0);
        copy_word(x->name, sizeof x->name, r, i, 1);
        x->time_ms = strtoull(PQgetvalue(r, i, 2), NULL, 10);
        x->moves = (uint32_t)col_ll(r, i, 3);
        x->start_utc_ms = col_ll(r, i, 4);
    }
    PQclear(r);
    *out = bs;
    *n = k;
}

static bool pg_best_times(void *b, const char *game_id, uint64_t desc_hash, int limit, st_best **out, int *n,
                          char *err, size_t errlen)
{
    char h[24], l[16];
    snprintf(h, sizeof h, "%lld", (long long)(int64_t)desc_hash);
    snprintf(l, sizeof l, "%d", limit);
    const char *v[2] = {game_id ? game_id : h, l};
    PGresult *r = query(b, game_id ? S_BEST_ID : S_BEST_HASH, 2, v, "reading best times", err, errlen);
    if (!r)
        return false;
    read_bests(r, limit, out, n);
    return true;
}

static bool pg_personal_best(void *b, const char *name, const char *kind, int width, int height, st_best *out,
                             bool *found, char *err, size_t errlen)
{
    char w[16], h[16], clean[ST_NAME_MAX * 2 + 1];
    snprintf(w, sizeof w, "%d", width);
    snprintf(h, sizeof h, "%d", height);
    utf8_clean(clean, sizeof clean, name);
    const char *v[4] = {clean, kind, w, h};
    PGresult *r = query(b, S_PB, 4, v, "reading a personal best", err, errlen);
    if (!r)
        return false;
    st_best *bs = NULL;
    int n = 0;
    read_bests(r, 1, &bs, &n);
    if (n == 1) {
        *out = bs[0];
        *found = true;
    }
    free(bs);
    return true;
}

const st_backend st_backend_pg = {
    .name = "postgresql",
    .claims = st_pg_claims,
    .open = pg_open,
    .close = pg_close,
    .put = pg_put,
    .recent = pg_recent,
    .get = pg_get,
    .best_times = pg_best_times,
    .personal_best = pg_personal_best,
    .unavailable = pg_unavailable,
    .redact = st_pg_redact,
};
