/* st.h: the match store: finished races and their move logs, behind one interface of backends. */
#ifndef MR_ST_H
#define MR_ST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "st_match.h"

/* A store keeps finished matches (docs/server.md, "Database"): who played
 * which puzzle when, how it ended, and both players' full move logs, so a
 * race can be listed, replayed and ranked later. The game code sees only
 * this header: st_open picks the backend from the location (today SQLite,
 * a file path; st_backend.h is what another backend implements). No ENet,
 * no SDL, no engine types: a move is four small numbers here.
 *
 * A handle (st) belongs to one thread at a time. Every call is synchronous
 * and may wait on disk: a game loop never calls these itself, it hands
 * records and questions to an st_writer (st_writer.h), whose thread does.
 *
 * Errors: calls that can fail return const char *: NULL on success, else a
 * message that stays valid until the next call on the same handle (it may
 * quote the database's own words). st_open reports through err/errlen. */

typedef struct st st;

enum st_open_flags {
    ST_OPEN_CREATE = 0,   /* create the store if missing, apply migrations */
    ST_OPEN_READONLY = 1, /* never create or change it (operator tools) */
};

/* Opens the store at location: a file path for SQLite, a postgresql:// or
 * postgres:// URI for PostgreSQL (st_pg.c: a read-write open of a server
 * that cannot be reached succeeds, down, and connects later; the password
 * is never put in a message). NULL with a message
 * in err (errlen bytes) if it cannot be opened or is not a mazerace store
 * (a foreign or corrupt file, a newer schema): the message says which. */
st *st_open(const char *location, int flags, char *err, size_t errlen);
void st_close(st *s); /* accepts NULL */
/* location as logs and messages may show it: a URI's password replaced by
 * "***" (st_open's own messages already are). Never print a location raw. */
void st_location_text(const char *location, char *out, size_t outlen);
/* The backend's name ("sqlite", "postgresql"). */
const char *st_backend_name(const st *s);
/* The schema version the store is at, after migrations (0 for a network
 * database that could not be reached at open: see st_unavailable). */
int st_schema_version(const st *s);
/* Whether the last call that failed did so because the database could not
 * be reached (a network database that is down or restarting): the same
 * call may work later, so records are kept (st_writer's spool) rather than
 * given up. false for a refusal (a bad record, a full disk under SQLite). */
bool st_unavailable(const st *s);

/* Stores n records in one transaction (all or none) and writes each one's
 * new id into ms[i]->id. */
const char *st_put(st *s, st_match *const *ms, int n);
/* Newest first (highest id first), at most limit (clamped to 1..ST_PAGE_MAX)
 * rows with id < before_id (0: from the newest): the next page starts
 * before the last row's id. *out is a new array (st_matches_free) of *n
 * records without desc_id and moves; *out is NULL when *n is 0. */
const char *st_recent(st *s, int64_t before_id, int limit, st_match **out, int *n);
/* One match with everything. *found false (and *out zeroed) if there is no such id. */
const char *st_get(st *s, int64_t id, st_match *out, bool *found);
/* Best solved times on one puzzle: rows whose game_id is game_id, or whose
 * desc_hash is desc_hash when game_id is NULL; fastest first (then fewer
 * moves, then older). At most limit rows (1..ST_PAGE_MAX); *out as for
 * st_recent (free()). */
const char *st_best_times(st *s, const char *game_id, uint64_t desc_hash, int limit, st_best **out, int *n);
/* name's fastest solved game of that kind and size (any difficulty). *found false if none. */
const char *st_personal_best(st *s, const char *name, const char *kind, int width, int height, st_best *out,
                             bool *found);

#endif
