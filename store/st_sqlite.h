/* st_sqlite.h: the SQLite backend's schema constants and its test hook. */
#ifndef MR_ST_SQLITE_H
#define MR_ST_SQLITE_H

#include <stddef.h>

/* PRAGMA application_id of a mazerace store ("mzrc"); files with another
 * non-zero id, or with tables and no id, are someone else's. */
#define ST_SQLITE_APP_ID 0x6d7a7263
/* PRAGMA user_version of the current schema; the migrations in
 * st_sqlite_schema.c take any earlier version (from 0, an empty file) here. */
#define ST_SQLITE_VERSION 3

/* Migration steps: st_sqlite_migration[v] takes a store from version v to v + 1. */
extern const char *const st_sqlite_migration[ST_SQLITE_VERSION];

/* For tests of the migrations: creates a store at path (which must not
 * exist) at schema version `version` (1..ST_SQLITE_VERSION) and closes it.
 * NULL on success, else a message in err. */
const char *st_sqlite_create_at(const char *path, int version, char *err, size_t errlen);

#endif
