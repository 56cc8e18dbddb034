/* st_pg_impl.h: inside the PostgreSQL backend: the connection handle shared by st_pg.c and st_pg_conn.c. */
#ifndef MR_ST_PG_IMPL_H
#define MR_ST_PG_IMPL_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The prepared statements (st_pg.c), prepared on every new connection. */
enum st_pg_stmt { S_PUT, S_RECENT, S_GET, S_MOVES, S_BEST_ID, S_BEST_HASH, S_PB, ST_PG_STMTS };
extern const char *const st_pg_stmt_sql[ST_PG_STMTS];
extern const char *const st_pg_stmt_name[ST_PG_STMTS];

/* The backend's handle: one connection, or none while the database is out
 * of reach. Used by one thread at a time (st.h). */
typedef struct st_pg_conn {
    PGconn *c;       /* NULL while disconnected */
    char *uri;       /* as given (it may hold the password): never printed */
    char where[256]; /* the URI redacted, for messages */
    bool ro;
    bool down;            /* the last failure was the database being out of reach */
    uint64_t retry_at_us; /* no connection attempt before this (mr_now_us) */
    int backoff_ms;       /* 0 after a success */
    char last_down[256];  /* why the last attempt failed */
    int version;
} st_pg_conn;

/* The backend table's open, close and unavailable (st_backend.h). */
void *st_pg_open(const char *location, int flags, int *version, char *err, size_t errlen);
void st_pg_close(void *b);
bool st_pg_unavailable(void *b);

/* A live connection, or false at once while the reconnection backoff runs,
 * or after one attempt that failed (the next one waits longer). */
bool st_pg_ensure(st_pg_conn *g, char *err, size_t errlen);
/* Records a failed call (takes r, may be NULL): err gets "where: what: the
 * database's words"; a failure that is the database being away drops the
 * connection (the next call reconnects) and marks the handle down.
 * Returns false. */
bool st_pg_failed(st_pg_conn *g, PGresult *r, const char *what, char *err, size_t errlen);
/* Runs a statement without values or rows (BEGIN, COMMIT); false via st_pg_failed. */
bool st_pg_command(st_pg_conn *g, const char *sql, const char *what, char *err, size_t errlen);
/* Ends a failed transaction, if the connection is still there. */
void st_pg_rollback(st_pg_conn *g);

#endif
