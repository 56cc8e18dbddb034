/* st_writer.h: the store's own thread: records and questions queued by a game loop that never waits on disk.
 */
#ifndef MR_ST_WRITER_H
#define MR_ST_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "st.h"

/* A writer owns a store handle and one thread: the server's match records
 * and the game's own history (client/cl_history.c) both go through one. The
 * game loop hands it
 * finished matches (st_writer_put) and questions (st_writer_ask), each in
 * O(1) under a mutex that the thread holds only to move list links; the
 * thread stores everything that is waiting in one transaction (a batch of
 * up to ST_WRITER_BATCH records), answers questions in the order asked,
 * and leaves the answers for st_writer_poll.
 *
 * Bounded: at most max_records records wait. A record put while that many
 * wait is dropped at once (freed, counted in st_writer_stats.dropped, and
 * st_writer_put returns false so the host can log it): the race is over
 * and its players already have the result, so losing its record is the
 * smaller harm than a game loop waiting for a slow disk, or memory growing
 * without bound. Likewise at most max_queries questions wait; one more is
 * refused (the host answers "busy").
 *
 * A database that cannot be reached (st_unavailable: a network database
 * down or restarting) does not lose records when the writer has a spool
 * (st_writer_spool): the thread appends what the database could not take
 * to that local file and sends it later, oldest first, retrying with
 * backoff (RETRY_MIN_MS doubling to RETRY_MAX_MS in st_writer.c); while
 * records wait there, new ones join them, so the database receives matches
 * in order. The queue itself stays short (the thread keeps emptying it
 * into the spool), so records are dropped only when even the local disk
 * stalls. Questions asked meanwhile are answered with the database's
 * error at once. docs/storage.md says more. */

typedef struct st_writer st_writer;

#define ST_WRITER_RECORDS 4096 /* default max_records */
#define ST_WRITER_QUERIES 256  /* default max_queries */
#define ST_WRITER_BATCH 256    /* records per transaction at most */

enum st_query_type {
    ST_Q_RECENT = 1, /* st_recent(before_id, limit) */
    ST_Q_GET,        /* st_get(id) */
    ST_Q_BEST,       /* st_best_times(game_id or desc_hash, limit) */
    ST_Q_PB,         /* st_personal_best(name, kind, width, height) */
    ST_Q_CALL,       /* call(store, data): a question the four above do not ask, run on the thread */
    ST_Q_OPEN,       /* answers only: st_writer_open's open is done (error: why it failed) */
};

/* GET only, optional: called on the store's thread with the match found;
 * returns malloc'd bytes (and their length) that the answer carries
 * instead of the match, e.g. its replay text, so that the host's loop
 * does not do that work either. NULL: a->error says it could not. */
typedef char *(*st_render_fn)(const st_match *m, size_t *len);
/* CALL: runs on the store's thread with the store and the query (its
 * fields are the caller's to use); may leave malloc'd results in *out,
 * which the answer carries (data). Returns NULL, or what failed (copied
 * into the answer at once). Not called when the writer has no store. */
struct st_query;
typedef const char *(*st_call_fn)(st *s, const struct st_query *q, void **out);

typedef struct st_query {
    int type;      /* enum st_query_type */
    uint64_t tag;  /* the host's, returned in the answer (e.g. which client asked) */
    uint64_t tag2; /* the same, a second word (e.g. what exactly it asked) */
    st_render_fn render;
    int64_t id;    /* GET: the match; RECENT: before_id (0 = newest) */
    int limit;     /* RECENT, BEST */
    char *game_id; /* BEST: malloc'd, taken over by st_writer_ask (even when refused); NULL = by desc_hash */
    uint64_t desc_hash;
    char name[ST_NAME_MAX + 1]; /* PB */
    char kind[ST_WORD_MAX + 1]; /* PB */
    int width, height;          /* PB */
    st_call_fn call;            /* CALL */
} st_query;

typedef struct st_answer {
    int type; /* the query's */
    uint64_t tag, tag2;
    int64_t id;        /* the query's (GET: the match asked for) */
    const char *error; /* NULL, or what failed (owned by the answer) */
    st_match *matches; /* RECENT: n rows (no desc_id, no moves) */
    int n;             /* RECENT, BEST: rows */
    st_match match;    /* GET, when found (and no render) */
    char *text;        /* GET with render, when found: its bytes */
    size_t text_len;
    bool found;    /* GET, PB */
    st_best *best; /* BEST: n rows; PB: 1 row when found */
    void *data;    /* CALL: what the call left in *out; OPEN: the open's data (free()d) */
} st_answer;
void st_answer_free(st_answer *a); /* what the answer owns; accepts NULL */

typedef struct st_writer_stats {
    uint64_t written;      /* records committed */
    uint64_t dropped;      /* records refused because max_records were waiting */
    uint64_t spooled;      /* records kept in the spool because the database was out of reach */
    int spool_waiting;     /* records in the spool now (sent and removed when the database is back) */
    uint64_t failed;       /* records the store refused (error below) */
    uint64_t transactions; /* committed */
    uint64_t refused;      /* questions refused because max_queries were waiting */
    int waiting;           /* records waiting now */
    int64_t last_id;       /* id of the last record committed */
    char last_error[256];  /* the store's last error, "" if none */
} st_writer_stats;

/* Starts the thread on s (taken over, closed by st_writer_destroy; also on
 * failure). 0 for a bound means its default. NULL if the thread cannot start. */
st_writer *st_writer_create(st *s, int max_records, int max_queries);
/* Opens the store on the thread: the first thing the thread does is
 * open(data, err, errlen), so a caller whose loop must not wait on the
 * disk (the game) does not wait for the open either. data (malloc'd, taken
 * over; may be NULL) comes back in an ST_Q_OPEN answer, the first answer
 * polled, whose error is NULL when the store opened, else why not ("" when
 * open has nothing to say). Without a store the writer goes on: records are
 * counted failed, questions answered with that error. NULL if the thread
 * cannot start (data is freed). */
typedef st *(*st_open_fn)(void *data, char *err, size_t errlen);
st_writer *st_writer_open(st_open_fn open, void *data, int max_records, int max_queries);
/* Stores every record still waiting (into the spool if the database is
 * out of reach; the next run sends them), answers nothing more, stops the
 * thread and closes the store. Accepts NULL. */
void st_writer_destroy(st_writer *w);

/* Queues m (a malloc'd record, taken over in every case) for storing.
 * false if it was dropped: max_records were waiting, or it fails
 * st_match_check (counted as failed). */
bool st_writer_put(st_writer *w, st_match *m);
/* Queues a question (copied; q->game_id taken over). false if refused. */
bool st_writer_ask(st_writer *w, st_query *q);
/* Takes the oldest answer: true and *a filled (st_answer_free it). Cheap
 * when there is none (one atomic load). */
bool st_writer_poll(st_writer *w, st_answer *a);
/* Opens (creating) the spool at path and keeps it (closed by
 * st_writer_destroy); records an earlier run left in it are sent first.
 * Call once, before records flow (not from a game loop: it opens a file).
 * false with a message if the file cannot be used (st_spool.h). */
bool st_writer_spool(st_writer *w, const char *path, char *err, size_t errlen);
/* Waits until every record queued so far is committed, failed or spooled,
 * and every question asked so far (and st_writer_open's open) is answered
 * (tests, the game's headless runs on a virtual clock, and the operator's
 * "flush before exit"; never from a game loop). */
void st_writer_sync(st_writer *w);
void st_writer_stats_get(st_writer *w, st_writer_stats *out);

#endif
