/* st_backend.h: what a store backend implements (SQLite, PostgreSQL; st.c dispatches to it). */
#ifndef MR_ST_BACKEND_H
#define MR_ST_BACKEND_H

#include "st_match.h"

/* The SQL both backends read a match with (the columns of a match with
 * both players, as their read_match takes them) and a best time with. */
#define ST_MATCH_COLS                                                                                        \
    "m.id, m.mode, m.game_id, m.desc_hash, m.kind, m.width, m.height, m.difficulty, m.started_ms,"           \
    " m.winner, m.ending, m.game_no, m.series_len,"                                                          \
    " a.name, a.time_ms, a.moves, a.solved, a.result, b.name, b.time_ms, b.moves, b.solved, b.result"
#define ST_MATCH_FROM                                                                                        \
    " FROM matches m JOIN players a ON a.match_id = m.id AND a.slot = 0"                                     \
    " JOIN players b ON b.match_id = m.id AND b.slot = 1"
#define ST_BEST_COLS                                                                                         \
    "m.id, p.name, p.time_ms, p.moves, m.started_ms FROM players p JOIN matches m ON m.id = p.match_id"

/* A backend is a const table of functions over its own handle. st.c owns
 * the st handle, checks arguments (limits clamped, records checked) and
 * keeps the error text; a backend writes its error into err (errlen bytes)
 * and returns false. Results follow st.h's ownership rules. */
typedef struct st_backend {
    const char *name;
    /* Whether this backend serves location (e.g. a URI scheme); the last
     * backend in st.c's list takes everything else (file paths). */
    bool (*claims)(const char *location);
    void *(*open)(const char *location, int flags, int *version, char *err, size_t errlen);
    void (*close)(void *b);
    bool (*put)(void *b, st_match *const *ms, int n, char *err, size_t errlen);
    bool (*recent)(void *b, int64_t before_id, int limit, st_match **out, int *n, char *err, size_t errlen);
    bool (*get)(void *b, int64_t id, st_match *out, bool *found, char *err, size_t errlen);
    bool (*best_times)(void *b, const char *game_id, uint64_t desc_hash, int limit, st_best **out, int *n,
                       char *err, size_t errlen);
    /* name's fastest solved game of that kind and size: *n is 0 or 1 (*out as for best_times). */
    bool (*personal_best)(void *b, const char *name, const char *kind, int width, int height, st_best **out,
                          int *n, char *err, size_t errlen);
    /* Optional (NULL: never): whether the last call failed because the
     * database could not be reached (down, restarting, out of resources),
     * so the same call may succeed later; false when it refused the call. */
    bool (*unavailable)(void *b);
    /* Optional (NULL: printed as it is): location as it may be printed,
     * without secrets (a URI's password). */
    void (*redact)(const char *location, char *out, size_t outlen);
} st_backend;

extern const st_backend st_backend_sqlite;
extern const st_backend st_backend_pg;

#endif
