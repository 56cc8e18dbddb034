/* st_sqlite.c: the SQLite store backend: WAL, busy timeout, migrations at open, prepared statements. */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "st.h" /* ST_OPEN_* */
#include "st_backend.h"
#include "st_sqlite.h"
#include "util.h"

/* How long a statement waits for another connection's lock (the server's
 * writer and an operator tool share a file) before it fails with "busy". */
#define BUSY_TIMEOUT_MS 5000

enum stmt_id {
    S_BEGIN,
    S_COMMIT,
    S_ROLLBACK,
    S_INS_MATCH,
    S_INS_PLAYER,
    S_INS_MOVE,
    S_BY_KEY,
    S_RECENT,
    S_GET,
    S_MOVES,
    S_BEST_ID,
    S_BEST_HASH,
    S_PB,
    S_COUNT
};

#define BEST_ORDER " AND p.solved = 1 ORDER BY p.time_ms, p.moves, m.id LIMIT ?"

static const char *const stmt_sql[S_COUNT] = {
    [S_BEGIN] = "BEGIN IMMEDIATE",
    [S_COMMIT] = "COMMIT",
    [S_ROLLBACK] = "ROLLBACK",
    [S_INS_MATCH] = "INSERT INTO matches (mode, game_id, desc_id, desc_hash, kind, width, height, difficulty,"
                    " started_ms, winner, ending, game_no, series_len, rec_key)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULLIF(?, ''))"
                    " ON CONFLICT (rec_key) DO NOTHING",
    [S_INS_PLAYER] = "INSERT INTO players (match_id, slot, name, time_ms, moves, solved, result)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?)",
    [S_INS_MOVE] =
        "INSERT INTO moves (match_id, seq, slot, ms, type, dir, x, y) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    [S_BY_KEY] = "SELECT id FROM matches WHERE rec_key = ?",
    [S_RECENT] = "SELECT " ST_MATCH_COLS ST_MATCH_FROM " WHERE m.id < ? ORDER BY m.id DESC LIMIT ?",
    [S_GET] = "SELECT " ST_MATCH_COLS ", m.desc_id" ST_MATCH_FROM " WHERE m.id = ?",
    [S_MOVES] = "SELECT slot, ms, type, dir, x, y FROM moves WHERE match_id = ? ORDER BY seq",
    [S_BEST_ID] = "SELECT " ST_BEST_COLS " WHERE m.game_id = ?" BEST_ORDER,
    [S_BEST_HASH] = "SELECT " ST_BEST_COLS " WHERE m.desc_hash = ?" BEST_ORDER,
    [S_PB] =
        "SELECT " ST_BEST_COLS " WHERE p.name = ? AND m.kind = ? AND m.width = ? AND m.height = ?" BEST_ORDER,
};

typedef struct sq {
    sqlite3 *db;
    sqlite3_stmt *st[S_COUNT];
} sq;

static bool fail(sqlite3 *db, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
    return false;
}

/* Runs every statement of a constant script (no values are ever spliced
 * into SQL text: values go through sqlite3_bind_*). */
static bool run_script(sqlite3 *db, const char *sql)
{
    while (sql && *sql) {
        sqlite3_stmt *s = NULL;
        const char *tail = NULL;
        if (sqlite3_prepare_v2(db, sql, -1, &s, &tail) != SQLITE_OK)
            return false;
        int rc = SQLITE_DONE;
        if (s)
            while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            }
        sqlite3_finalize(s);
        if (rc != SQLITE_DONE)
            return false;
        sql = tail;
    }
    return true;
}

/* One integer from a one-row statement (a PRAGMA or a count). */
static bool query_int(sqlite3 *db, const char *sql, int64_t *out)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        return false;
    int rc = sqlite3_step(s);
    *out = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE;
}

/* Brings the file from its version to `target` in one transaction. */
static bool migrate(sqlite3 *db, const char *path, int target, int *version, char *err, size_t errlen)
{
    if (!run_script(db, "BEGIN IMMEDIATE"))
        return fail(db, path, err, errlen);
    int64_t v = 0;
    if (!query_int(db, "PRAGMA user_version", &v)) /* another process may have migrated meanwhile */
        goto bad;
    for (; v < target; v++) {
        char set[64];
        snprintf(set, sizeof set, "PRAGMA user_version = %d", (int)v + 1);
        if (!run_script(db, st_sqlite_migration[v]) || !run_script(db, set)) {
            snprintf(err, errlen, "%s: migrating the schema from version %d to %d failed: %s", path, (int)v,
                     (int)v + 1, sqlite3_errmsg(db));
            run_script(db, "ROLLBACK");
            return false;
        }
    }
    if (!run_script(db, "COMMIT"))
        goto bad;
    *version = (int)v;
    return true;
bad:
    fail(db, path, err, errlen);
    run_script(db, "ROLLBACK");
    return false;
}

/* Opens path and checks that it is ours (or empty), sets WAL and the busy
 * timeout and migrates up to target (read-only: refuses an older schema). */
/* Why path cannot be opened before SQLite tries, in the operator's words:
 * a missing file (read-only) or a missing directory (read-write). */
static bool check_place(const char *path, bool ro, char *err, size_t errlen)
{
    struct stat sb;
    if (stat(path, &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) {
            snprintf(err, errlen, "%s: is a directory, not a database file", path);
            return false;
        }
        return true;
    }
    if (ro) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return false;
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return true; /* the working directory */
    slash[slash == dir ? 1 : 0] = '\0';
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        snprintf(err, errlen, "%s: the directory %s does not exist (create it, or choose another --db)", path,
                 dir);
        return false;
    }
    return true;
}

/* The first read failed: say why in words an operator can act on. */
static void open_failed(sqlite3 *db, const char *path, bool ro, char *err, size_t errlen)
{
    int code = sqlite3_extended_errcode(db) & 0xff;
    if (code == SQLITE_NOTADB)
        snprintf(err, errlen, "%s: not a mazerace database (not an SQLite file: %s)", path,
                 sqlite3_errmsg(db));
    else if (code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM || code == SQLITE_AUTH)
        snprintf(err, errlen,
                 "%s: no %s access to it or to %s-shm / %s-wal beside it (%s): a WAL database's readers "
                 "write its -shm file too; run as the server's user",
                 path, ro ? "read" : "write", path, path, sqlite3_errmsg(db));
    else
        snprintf(err, errlen, "%s: cannot read it: %s", path, sqlite3_errmsg(db));
}

static bool read_header(sqlite3 *db, int64_t *app, int64_t *uv, int64_t *objects)
{
    return query_int(db, "PRAGMA application_id", app) && query_int(db, "PRAGMA user_version", uv) &&
           query_int(db, "SELECT count(*) FROM sqlite_master", objects);
}

static sqlite3 *open_db(const char *path, int flags, int target, int *version, char *err, size_t errlen)
{
    bool ro = flags & ST_OPEN_READONLY;
    sqlite3 *db = NULL;
    if (!check_place(path, ro, err, errlen))
        return NULL;
    int of = (ro ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &db, of, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: cannot open: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
    int64_t app = 0, uv = 0, objects = 0;
    if (!read_header(db, &app, &uv, &objects)) {
        int code = sqlite3_extended_errcode(db) & 0xff;
        char wal[1040];
        snprintf(wal, sizeof wal, "%s-wal", path);
        /* A reader without write access to the directory cannot make the
         * -shm file of a WAL database. With no -wal file no server has it
         * open, so the file alone is the whole database: read it immutable. */
        bool retry = ro && (code == SQLITE_READONLY || code == SQLITE_CANTOPEN) && access(wal, F_OK) != 0;
        if (retry) {
            sqlite3_close(db);
            db = NULL;
            /* A path with URI syntax in it is not retried (it would need escaping). */
            char *u = sqlite3_mprintf("file:%s?immutable=1", path);
            int rc = u && !strpbrk(path, "?#%") ? sqlite3_open_v2(u, &db, of | SQLITE_OPEN_URI, NULL)
                                                : SQLITE_CANTOPEN;
            sqlite3_free(u);
            if (rc == SQLITE_OK) {
                sqlite3_extended_result_codes(db, 1);
                retry = read_header(db, &app, &uv, &objects);
            } else {
                retry = false;
            }
        }
        if (!retry) {
            if (db)
                open_failed(db, path, ro, err, errlen);
            else
                snprintf(err, errlen,
                         "%s: cannot read it (no access to the -shm file beside it): run as the "
                         "server's user",
                         path);
            goto out;
        }
    }
    if (app != ST_SQLITE_APP_ID && (app != 0 || objects > 0)) {
        snprintf(err, errlen,
                 "%s: an SQLite database of another program (application_id %lld, %lld schema objects), "
                 "not a mazerace database: refusing to use it",
                 path, (long long)app, (long long)objects);
        goto out;
    }
    if (uv > ST_SQLITE_VERSION) {
        snprintf(err, errlen,
                 "%s: schema version %lld is newer than this program's %d (written by a newer mazerace): "
                 "refusing to use it",
                 path, (long long)uv, ST_SQLITE_VERSION);
        goto out;
    }
    if (ro) {
        if (app != ST_SQLITE_APP_ID || uv < target) {
            snprintf(err, errlen,
                     "%s: %s (schema version %lld, this program's is %d); open it once read-write "
                     "(start the server on it) to create or migrate it",
                     path, app ? "an older mazerace database" : "an empty file", (long long)uv, target);
            goto out;
        }
        *version = (int)uv;
        return db;
    }
    /* WAL: readers (operator tools, queries) never wait for the writer and a
     * kill -9 at any moment leaves the file consistent; FULL syncs the WAL
     * at every commit, so a committed match survives a power cut too. */
    sqlite3_stmt *s = NULL;
    bool wal = sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &s, NULL) == SQLITE_OK &&
               sqlite3_step(s) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(s, 0), "wal") == 0;
    sqlite3_finalize(s);
    if (!wal) {
        snprintf(err, errlen, "%s: cannot switch to WAL mode: %s", path, sqlite3_errmsg(db));
        goto out;
    }
    if (!run_script(db, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")) {
        fail(db, path, err, errlen);
        goto out;
    }
    *version = (int)uv;
    if (uv < target && !migrate(db, path, target, version, err, errlen))
        goto out;
    return db;
out:
    sqlite3_close(db);
    return NULL;
}

const char *st_sqlite_create_at(const char *path, int version, char *err, size_t errlen)
{
    if (version < 1 || version > ST_SQLITE_VERSION)
        return "st_sqlite_create_at: no such version";
    int got = 0;
    sqlite3 *db = open_db(path, ST_OPEN_CREATE, version, &got, err, errlen);
    if (!db)
        return err;
    sqlite3_close(db);
    return NULL;
}

static void sq_close(void *b)
{
    sq *q = b;
    if (!q)
        return;
    for (int i = 0; i < S_COUNT; i++)
        sqlite3_finalize(q->st[i]);
    sqlite3_close(q->db);
    free(q);
}

static void *sq_open(const char *location, int flags, int *version, char *err, size_t errlen)
{
    sqlite3 *db = open_db(location, flags, ST_SQLITE_VERSION, version, err, errlen);
    if (!db)
        return NULL;
    sq *q = mr_alloc(1, sizeof *q);
    q->db = db;
    for (int i = 0; i < S_COUNT; i++)
        if (sqlite3_prepare_v3(db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &q->st[i], NULL) !=
            SQLITE_OK) {
            snprintf(err, errlen, "%s: preparing statement %d: %s", location, i, sqlite3_errmsg(db));
            sq_close(q);
            return NULL;
        }
    return q;
}

/* The statement, reset and unbound, ready for new values. */
static sqlite3_stmt *stmt(sq *q, int id)
{
    sqlite3_stmt *s = q->st[id];
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return s;
}

static bool exec_simple(sq *q, int id)
{
    int rc = sqlite3_step(stmt(q, id));
    sqlite3_reset(q->st[id]);
    return rc == SQLITE_DONE;
}

static bool put_one(sq *q, st_match *m)
{
    sqlite3_stmt *s = stmt(q, S_INS_MATCH);
    sqlite3_bind_text(s, 1, m->mode, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, m->game_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, m->desc_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 4, (sqlite3_int64)m->desc_hash);
    sqlite3_bind_text(s, 5, m->kind, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 6, m->width);
    sqlite3_bind_int(s, 7, m->height);
    sqlite3_bind_text(s, 8, m->difficulty, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 9, m->start_utc_ms);
    sqlite3_bind_int(s, 10, m->winner);
    sqlite3_bind_text(s, 11, st_ending_text(m->ending), -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 12, m->game_no);
    sqlite3_bind_int(s, 13, m->series_len);
    sqlite3_bind_text(s, 14, m->key, -1, SQLITE_STATIC);
    if (sqlite3_step(s) != SQLITE_DONE)
        return false;
    if (sqlite3_changes(q->db) == 0) { /* its key is stored already: delivered twice */
        s = stmt(q, S_BY_KEY);
        sqlite3_bind_text(s, 1, m->key, -1, SQLITE_STATIC);
        m->id = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
        return m->id > 0;
    }
    m->id = sqlite3_last_insert_rowid(q->db);
    for (int i = 0; i < 2; i++) {
        const st_player *p = &m->p[i];
        s = stmt(q, S_INS_PLAYER);
        sqlite3_bind_int64(s, 1, m->id);
        sqlite3_bind_int(s, 2, i);
        sqlite3_bind_text(s, 3, p->name, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 4, (sqlite3_int64)p->time_ms);
        sqlite3_bind_int64(s, 5, p->moves);
        sqlite3_bind_int(s, 6, p->solved);
        sqlite3_bind_text(s, 7, st_result_text(p->result), -1, SQLITE_STATIC);
        if (sqlite3_step(s) != SQLITE_DONE)
            return false;
    }
    for (size_t i = 0; i < m->nmoves; i++) {
        const st_move *mv = &m->moves[i];
        s = stmt(q, S_INS_MOVE);
        sqlite3_bind_int64(s, 1, m->id);
        sqlite3_bind_int64(s, 2, (sqlite3_int64)i);
        sqlite3_bind_int(s, 3, mv->player);
        sqlite3_bind_int64(s, 4, mv->ms);
        sqlite3_bind_int(s, 5, mv->type);
        sqlite3_bind_int(s, 6, mv->dir);
        sqlite3_bind_int(s, 7, mv->x);
        sqlite3_bind_int(s, 8, mv->y);
        if (sqlite3_step(s) != SQLITE_DONE)
            return false;
    }
    return true;
}

static bool sq_put(void *b, st_match *const *ms, int n, char *err, size_t errlen)
{
    sq *q = b;
    if (!exec_simple(q, S_BEGIN))
        return fail(q->db, "storing matches", err, errlen);
    for (int i = 0; i < n; i++)
        if (!put_one(q, ms[i])) {
            fail(q->db, "storing a match", err, errlen);
            exec_simple(q, S_ROLLBACK);
            for (int j = 0; j <= i; j++)
                ms[j]->id = 0;
            return false;
        }
    if (!exec_simple(q, S_COMMIT)) {
        fail(q->db, "committing matches", err, errlen);
        exec_simple(q, S_ROLLBACK);
        for (int j = 0; j < n; j++)
            ms[j]->id = 0;
        return false;
    }
    return true;
}

static void copy_word(char *dst, size_t size, sqlite3_stmt *s, int col)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    snprintf(dst, size, "%s", t ? (const char *)t : "");
}

static void read_player(sqlite3_stmt *s, int col, st_player *p)
{
    copy_word(p->name, sizeof p->name, s, col);
    p->time_ms = (uint64_t)sqlite3_column_int64(s, col + 1);
    p->moves = (uint32_t)sqlite3_column_int64(s, col + 2);
    p->solved = sqlite3_column_int(s, col + 3) != 0;
    char w[16];
    copy_word(w, sizeof w, s, col + 4);
    p->result = st_word_index(w, st_result_text, 3, ST_NO_RESULT);
}

/* A row of ST_MATCH_COLS into m (game_id allocated). */
static void read_match(sqlite3_stmt *s, st_match *m)
{
    m->id = sqlite3_column_int64(s, 0);
    copy_word(m->mode, sizeof m->mode, s, 1);
    const unsigned char *gid = sqlite3_column_text(s, 2);
    m->game_id = mr_strdup(gid ? (const char *)gid : "");
    m->desc_hash = (uint64_t)sqlite3_column_int64(s, 3);
    copy_word(m->kind, sizeof m->kind, s, 4);
    m->width = sqlite3_column_int(s, 5);
    m->height = sqlite3_column_int(s, 6);
    copy_word(m->difficulty, sizeof m->difficulty, s, 7);
    m->start_utc_ms = sqlite3_column_int64(s, 8);
    m->winner = sqlite3_column_int(s, 9);
    char w[16];
    copy_word(w, sizeof w, s, 10);
    m->ending = st_word_index(w, st_ending_text, 4, ST_END_ABORTED);
    m->game_no = sqlite3_column_int(s, 11);
    m->series_len = sqlite3_column_int(s, 12);
    read_player(s, 13, &m->p[0]);
    read_player(s, 18, &m->p[1]);
}

static bool sq_recent(void *b, int64_t before_id, int limit, st_match **out, int *n, char *err, size_t errlen)
{
    sq *q = b;
    sqlite3_stmt *s = stmt(q, S_RECENT);
    sqlite3_bind_int64(s, 1, before_id);
    sqlite3_bind_int(s, 2, limit);
    st_match *ms = mr_alloc((size_t)limit, sizeof *ms);
    memset(ms, 0, (size_t)limit * sizeof *ms);
    int k = 0, rc;
    while (k < limit && (rc = sqlite3_step(s)) == SQLITE_ROW)
        read_match(s, &ms[k++]);
    if (k < limit && rc != SQLITE_DONE) {
        fail(q->db, "listing matches", err, errlen);
        sqlite3_reset(s);
        st_matches_free(ms, k);
        return false;
    }
    sqlite3_reset(s);
    if (k == 0) {
        free(ms);
        ms = NULL;
    }
    *out = ms;
    *n = k;
    return true;
}

static bool sq_get(void *b, int64_t id, st_match *out, bool *found, char *err, size_t errlen)
{
    sq *q = b;
    sqlite3_stmt *s = stmt(q, S_GET);
    sqlite3_bind_int64(s, 1, id);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_DONE) {
        sqlite3_reset(s);
        return true;
    }
    if (rc != SQLITE_ROW) {
        sqlite3_reset(s);
        return fail(q->db, "reading a match", err, errlen);
    }
    read_match(s, out);
    const unsigned char *d = sqlite3_column_text(s, 23);
    out->desc_id = mr_strdup(d ? (const char *)d : "");
    sqlite3_reset(s);
    /* Read in the same snapshot as far as it matters: a match's rows are
     * written in one transaction and never changed afterwards. */
    s = stmt(q, S_MOVES);
    sqlite3_bind_int64(s, 1, id);
    size_t cap = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW && out->nmoves < ST_MOVES_MAX) {
        if (out->nmoves == cap) {
            cap = cap ? cap * 2 : 64;
            out->moves = mr_realloc(out->moves, cap, sizeof *out->moves);
        }
        st_move *mv = &out->moves[out->nmoves++];
        mv->player = (uint8_t)(sqlite3_column_int(s, 0) & 1);
        mv->ms = (uint32_t)sqlite3_column_int64(s, 1);
        mv->type = (uint8_t)sqlite3_column_int(s, 2);
        mv->dir = (uint8_t)sqlite3_column_int(s, 3);
        mv->x = (uint16_t)sqlite3_column_int(s, 4);
        mv->y = (uint16_t)sqlite3_column_int(s, 5);
    }
    sqlite3_reset(s);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        st_match_free(out);
        return fail(q->db, "reading a match's moves", err, errlen);
    }
    *found = true;
    return true;
}

static bool read_bests(sq *q, sqlite3_stmt *s, int limit, st_best **out, int *n, char *err, size_t errlen)
{
    st_best *r = mr_alloc((size_t)limit, sizeof *r);
    int k = 0, rc;
    while (k < limit && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        st_best *b = &r[k++];
        memset(b, 0, sizeof *b);
        b->match_id = sqlite3_column_int64(s, 0);
        copy_word(b->name, sizeof b->name, s, 1);
        b->time_ms = (uint64_t)sqlite3_column_int64(s, 2);
        b->moves = (uint32_t)sqlite3_column_int64(s, 3);
        b->start_utc_ms = sqlite3_column_int64(s, 4);
    }
    bool ok = k == limit || rc == SQLITE_DONE;
    sqlite3_reset(s);
    if (!ok) {
        free(r);
        return fail(q->db, "reading best times", err, errlen);
    }
    if (k == 0) {
        free(r);
        r = NULL;
    }
    *out = r;
    *n = k;
    return true;
}

static bool sq_best_times(void *b, const char *game_id, uint64_t desc_hash, int limit, st_best **out, int *n,
                          char *err, size_t errlen)
{
    sq *q = b;
    sqlite3_stmt *s;
    if (game_id) {
        s = stmt(q, S_BEST_ID);
        sqlite3_bind_text(s, 1, game_id, -1, SQLITE_STATIC);
    } else {
        s = stmt(q, S_BEST_HASH);
        sqlite3_bind_int64(s, 1, (sqlite3_int64)desc_hash);
    }
    sqlite3_bind_int(s, 2, limit);
    return read_bests(q, s, limit, out, n, err, errlen);
}

static bool sq_personal_best(void *b, const char *name, const char *kind, int width, int height,
                             st_best **out, int *n, char *err, size_t errlen)
{
    sq *q = b;
    sqlite3_stmt *s = stmt(q, S_PB);
    sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, kind, -1, SQLITE_STATIC);
    sqlite3_bind_int(s, 3, width);
    sqlite3_bind_int(s, 4, height);
    sqlite3_bind_int(s, 5, 1);
    return read_bests(q, s, 1, out, n, err, errlen);
}

static bool sq_claims(const char *location)
{
    (void)location;
    return true;
}

const st_backend st_backend_sqlite = {
    .name = "sqlite",
    .claims = sq_claims,
    .open = sq_open,
    .close = sq_close,
    .put = sq_put,
    .recent = sq_recent,
    .get = sq_get,
    .best_times = sq_best_times,
    .personal_best = sq_personal_best,
};
