/* st_spool.h: a local file of records waiting for a database that is out of reach (the writer's spool). */
#ifndef MR_ST_SPOOL_H
#define MR_ST_SPOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "st.h"

/* A spool is an append-only file: a header ("MRSPOOL1" and the offset of
 * the first record not yet sent), then one frame per record (length, a
 * 64-bit hash of the payload, the record encoded byte by byte in little
 * endian; docs/storage.md has the layout). Records are appended (and the
 * file synced) when the database cannot take them, read back oldest first
 * and consumed (the header's offset moved, synced) once the database has
 * committed them; an emptied spool is truncated. A frame cut short by a
 * crash is cut off at open; a frame whose hash or contents do not check is
 * skipped and counted. One process at a time: the file is locked (flock).
 *
 * Delivery is at least once: a crash between the database's commit and
 * the offset's sync sends those records again at the next start.
 *
 * Used by one thread (the writer's); not thread-safe. */
typedef struct st_spool st_spool;

#define ST_SPOOL_READ_MAX 256 /* records one st_spool_peek returns at most */

/* Opens (creating) the spool at path. NULL with a message in err if it
 * cannot be opened or locked, or is not a spool. */
st_spool *st_spool_open(const char *path, char *err, size_t errlen);
void st_spool_close(st_spool *sp); /* accepts NULL */
/* Records waiting in the spool. */
int st_spool_pending(const st_spool *sp);
/* Frames skipped so far because they did not decode (since open). */
int st_spool_bad(const st_spool *sp);

/* Appends n records and syncs. false with a message (disk full, I/O). */
bool st_spool_append(st_spool *sp, st_match *const *ms, int n, char *err, size_t errlen);
/* Decodes up to max (<= ST_SPOOL_READ_MAX) of the oldest records into
 * out[] (each malloc'd: st_match_free + free), without removing them;
 * returns how many (0 when empty, -1 on a read error, message in err). */
int st_spool_peek(st_spool *sp, st_match **out, int max, char *err, size_t errlen);
/* Removes the first n records of the last peek (the database has them). */
bool st_spool_consume(st_spool *sp, int n, char *err, size_t errlen);

/* The record's encoded size in bytes (a frame adds 12); for sizing. */
size_t st_spool_encoded_size(const st_match *m);

#endif
