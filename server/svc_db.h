/* svc_db.h: mazerace-server's match database: where it is, opening it, and the operator tools that read it.
 */
#ifndef MR_SVC_DB_H
#define MR_SVC_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sv.h"

struct st_writer;

#define SVC_DB_SERVICE_DIR "/var/lib/mazerace" /* the unit's StateDirectory=mazerace */

/* The database path cfg names: cfg->db, or the default location
 * ($STATE_DIRECTORY/matches.db, else $XDG_STATE_HOME/mazerace/matches.db,
 * else $HOME/.local/state/mazerace/matches.db). "" when cfg says none.
 * NULL, or a static message when no default can be found (no HOME). */
const char *svc_db_path(const sv_config *cfg, char *buf, size_t n);

/* Opens the server's store and starts its writer thread. *w is NULL when
 * there is to be no database (cfg->db is none). Returns 0, or 2 when the
 * database was named explicitly (flag or config file) and cannot be used;
 * a default database that cannot be used is logged as a warning (lg) and
 * the server runs without records (*w NULL). An SQLite file is locked
 * (FILE.lock, flock, held until svc_db_close or exit): one that another
 * server holds is such a database that cannot be used. Errors go to lg at
 * error level. */
/* path gets the location as the log may show it (no password). */
struct sv_log;
int svc_db_open(const sv_config *cfg, const struct sv_log *lg, struct st_writer **w, char *path,
                size_t pathlen);
/* Stores what is still queued and closes the database (accepts NULL). */
void svc_db_close(struct st_writer *w);

/* Where --list-matches and --dump-replay read: the database cfg names, or
 * for the default one, the service's (SVC_DB_SERVICE_DIR/matches.db, or
 * $MAZERACE_SERVICE_STATE_DIR/matches.db) when it exists and the caller is
 * root or has no default database of its own (*service true), else the
 * caller's default (svc_db_path). Run as the service ($STATE_DIRECTORY
 * set), its own. NULL or why none. */
const char *svc_db_read_path(const sv_config *cfg, char *buf, size_t n, bool *service);
/* systemd credentials: LoadCredential=pgpass:FILE gives the server a libpq
 * password file ($CREDENTIALS_DIRECTORY/pgpass) which becomes PGPASSFILE
 * unless that is set already (docs/server.md, "PostgreSQL password"). */
void svc_db_pgpass_credential(void);

/* --list-matches N and --dump-replay ID: read the database (read-only,
 * beside a running server) and print to out. Return the exit status (0;
 * 1 when the match does not exist or the database cannot be read), with
 * errors on stderr. */
int svc_db_list(const sv_config *cfg, int n, FILE *out);
int svc_db_dump_replay(const sv_config *cfg, int64_t id, FILE *out);

#endif
