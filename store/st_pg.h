/* st_pg.h: the PostgreSQL backend's schema constants and its test hooks. */
#ifndef MR_ST_PG_H
#define MR_ST_PG_H

#include <stdbool.h>
#include <stddef.h>

/* The version of the current schema, kept in the table mazerace_schema
 * (one row per step applied); st_pg_schema.c takes any earlier version
 * (from 0, an empty database) here. Same layout as SQLite's version 2. */
#define ST_PG_VERSION 3
/* The advisory lock held while the schema is checked and migrated, so two
 * servers starting at once against one database do not both migrate it
 * ("mzrc", as SQLite's application_id). */
#define ST_PG_LOCK_KEY 0x6d7a7263

/* Migration steps: st_pg_migration[v] takes a database from version v to v + 1. */
extern const char *const st_pg_migration[ST_PG_VERSION];

/* Whether location is a PostgreSQL URI (postgresql:// or postgres://). */
bool st_pg_claims(const char *location);
/* location with any password replaced by "***" (user:PASS@ and password=),
 * for logs and error messages: the password is never printed. */
void st_pg_redact(const char *location, char *out, size_t outlen);

/* For tests of the migrations: brings the (empty or older) database at uri
 * to schema version `version` (1..ST_PG_VERSION). NULL on success, else a
 * message in err. */
const char *st_pg_create_at(const char *uri, int version, char *err, size_t errlen);

#endif
