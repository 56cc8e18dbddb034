/* history_db.h: the storage under cl_history, called only from its worker
 * thread: open the file, add a race, the queries. Each call may wait on the
 * disk (that is why only the worker calls it). */
#ifndef HISTORY_DB_H
#define HISTORY_DB_H

#include "cl_history.h"

typedef struct hdb hdb;

/* Opens (creating if missing, unless want_ro) the history at path. NULL
 * with a reason for the player in err ("" when there is nothing to say: a
 * read-only history that does not exist yet). *read_only tells whether
 * writes will fail (asked for, or a file the player may read but not
 * write). */
hdb *hdb_open(const char *path, bool want_ro, bool *read_only, char *err, size_t errlen);
void hdb_close(hdb *d); /* accepts NULL */
/* Each returns NULL on success, else a message for the player in err. */
const char *hdb_add(hdb *d, const cl_hist_race *r, char *err, size_t errlen);
const char *hdb_page(hdb *d, int64_t before_id, int count, cl_hist_page *out, char *err, size_t errlen);
const char *hdb_bests(hdb *d, const char *game_id, const pz_params *p, const char *name, cl_hist_bests *out,
                      char *err, size_t errlen);
/* The best-times table over every race in the history ("you" is name). */
const char *hdb_table(hdb *d, const char *name, cl_hist_table *out, char *err, size_t errlen);
/* out->id stays 0 when there is no such race. */
const char *hdb_race(hdb *d, int64_t id, cl_hist_race *out, char *err, size_t errlen);

#endif
