/* st_pg.c: the PostgreSQL store backend (libpq): the statements, storing and reading matches. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "st_backend.h"
#include "st_pg.h"
#include "st_pg_impl.h"
#include "util.h"

#define BEST_ORDER " AND p.solved ORDER BY p.time_ms, p.moves, m.id LIMIT "

/* A match in one statement (one round trip): the match row, both players
 * from plain parameters and the moves from six arrays, all values bound. */
const char *const st_pg_stmt_sql[ST_PG_STMTS] = {
    [S_PUT] = "WITH m AS (INSERT INTO matches (mode, game_id, desc_id, desc_hash, kind, width, height,"
              " difficulty, started_ms, winner, ending, game_no, series_len, rec_key)"
              " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, NULLIF($30::text, ''))"
              " ON CONFLICT (rec_key) DO NOTHING RETURNING id),"
              " p AS (INSERT INTO players (match_id, slot, name, time_ms, moves, solved, result)"
              " SELECT m.id, v.slot, v.name, v.time_ms, v.moves, v.solved, v.result FROM m,"
              " (VALUES (0, $14::text, $15::bigint, $16::bigint, $17::boolean, $18::text),"
              " (1, $19::text, $20::bigint, $21::bigint, $22::boolean, $23::text))"
              " AS v (slot, name, time_ms, moves, solved, result)),"
              " mv AS (INSERT INTO moves (match_id, seq, slot, ms, type, dir, x, y)"
              " SELECT m.id, u.ord - 1, u.slot, u.ms, u.type, u.dir, u.x, u.y FROM m,"
              " unnest($24::smallint[], $25::bigint[], $26::smallint[], $27::smallint[], $28::integer[],"
              " $29::integer[]) WITH ORDINALITY AS u (slot, ms, type, dir, x, y, ord))"
              " SELECT id FROM m UNION ALL SELECT id FROM matches WHERE rec_key = NULLIF($30::text, '')"
              " AND NOT EXISTS (SELECT 1 FROM m)",
    [S_RECENT] = "SELECT " ST_MATCH_COLS ST_MATCH_FROM " WHERE m.id < $1 ORDER BY m.id DESC LIMIT $2",
    [S_GET] = "SELECT " ST_MATCH_COLS ", m.desc_id" ST_MATCH_FROM " WHERE m.id = $1",
    [S_MOVES] = "SELECT slot, ms, type, dir, x, y FROM moves WHERE match_id = $1 ORDER BY seq",
    [S_BEST_ID] = "SELECT " ST_BEST_COLS " WHERE m.game_id = $1" BEST_ORDER "$2",
    [S_BEST_HASH] = "SELECT " ST_BEST_COLS " WHERE m.desc_hash = $1" BEST_ORDER "$2",
    [S_PB] = "SELECT " ST_BEST_COLS
             " WHERE p.name = $1 AND m.kind = $2 AND m.width = $3 AND m.height = $4" BEST_ORDER "1",
};
const char *const st_pg_stmt_name[ST_PG_STMTS] = {"mr_put",  "mr_recent",    "mr_get", "mr_moves",
                                                  "mr_best", "mr_best_hash", "mr_pb"};

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

static bool put_one(st_pg_conn *g, st_match *m, char *err, size_t errlen)
{
    char num[23][24];
    char names[2][ST_NAME_MAX * 2 + 1];
    const char *v[30];
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
    v[29] = m->key;
    PGresult *r = PQexecPrepared(g->c, st_pg_stmt_name[S_PUT], 30, v, NULL, NULL, 0);
    for (int k = 0; k < 6; k++)
        free(a[k].p);
    /* No row: its key was stored by a transaction this statement could not
     * see yet (delivered twice at once); it is stored, once. */
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) > 1)
        return st_pg_failed(g, r, "storing a match", err, errlen);
    m->id = PQntuples(r) == 1 ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : 0;
    PQclear(r);
    return true;
}

static bool pg_put(void *b, st_match *const *ms, int n, char *err, size_t errlen)
{
    st_pg_conn *g = b;
    if (!st_pg_ensure(g, err, errlen))
        return false;
    /* One match is one statement, a transaction by itself: one round trip
     * to the database instead of three (BEGIN, the match, COMMIT). */
    if (n == 1) {
        if (put_one(g, ms[0], err, errlen))
            return true;
        ms[0]->id = 0;
        return false;
    }
    if (!st_pg_command(g, "BEGIN", "storing matches", err, errlen))
        return false;
    for (int i = 0; i < n; i++)
        if (!put_one(g, ms[i], err, errlen))
            goto bad;
    if (st_pg_command(g, "COMMIT", "committing matches", err, errlen))
        return true;
bad:
    st_pg_rollback(g);
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

static void read_player(const PGresult *r, int row, int col, st_player *p)
{
    copy_word(p->name, sizeof p->name, r, row, col);
    p->time_ms = strtoull(PQgetvalue(r, row, col + 1), NULL, 10);
    p->moves = (uint32_t)col_ll(r, row, col + 2);
    p->solved = PQgetvalue(r, row, col + 3)[0] == 't';
    p->result = st_word_index(PQgetvalue(r, row, col + 4), st_result_text, 3, ST_NO_RESULT);
}

/* A row of ST_MATCH_COLS into m (game_id allocated). */
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
    m->ending = st_word_index(PQgetvalue(r, row, 10), st_ending_text, 4, ST_END_ABORTED);
    m->game_no = (int)col_ll(r, row, 11);
    m->series_len = (int)col_ll(r, row, 12);
    read_player(r, row, 13, &m->p[0]);
    read_player(r, row, 18, &m->p[1]);
}

/* Runs a prepared query; its rows, or NULL with err filled. */
static PGresult *query(st_pg_conn *g, int id, int n, const char *const *vals, const char *what, char *err,
                       size_t errlen)
{
    if (!st_pg_ensure(g, err, errlen))
        return NULL;
    PGresult *r = PQexecPrepared(g->c, st_pg_stmt_name[id], n, vals, NULL, NULL, 0);
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
        return r;
    st_pg_failed(g, r, what, err, errlen);
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

/* Rows of ST_BEST_COLS into a new array (NULL when none). */
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

static bool pg_personal_best(void *b, const char *name, const char *kind, int width, int height,
                             st_best **out, int *n, char *err, size_t errlen)
{
    char w[16], h[16], clean[ST_NAME_MAX * 2 + 1];
    snprintf(w, sizeof w, "%d", width);
    snprintf(h, sizeof h, "%d", height);
    utf8_clean(clean, sizeof clean, name);
    const char *v[4] = {clean, kind, w, h};
    PGresult *r = query(b, S_PB, 4, v, "reading a personal best", err, errlen);
    if (!r)
        return false;
    read_bests(r, 1, out, n);
    return true;
}

const st_backend st_backend_pg = {
    .name = "postgresql",
    .claims = st_pg_claims,
    .open = st_pg_open,
    .close = st_pg_close,
    .put = pg_put,
    .recent = pg_recent,
    .get = pg_get,
    .best_times = pg_best_times,
    .personal_best = pg_personal_best,
    .unavailable = st_pg_unavailable,
    .redact = st_pg_redact,
};
