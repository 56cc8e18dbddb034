/* cl_history.h: the game's own history of finished races (hotseat, vs
 * computer, online) and the best times drawn from it, kept in a SQLite file
 * beside the settings (docs/client.md "History").
 *
 * The game loop never waits on the disk: a worker thread owns the file and
 * does every open, write and query. The screens queue requests and pick up
 * answers on later frames; each ask returns a ticket and the matching get
 * answers true once that ticket's answer is in. A file that cannot be used
 * (corrupt, read-only, locked, a foreign database) never stops the game:
 * the handle goes on answering with empty results, and cl_history_problem
 * hands the reason out once so the screen can say it. */
#ifndef CL_HISTORY_H
#define CL_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puzzle.h"

enum cl_hist_mode { CL_HIST_HOTSEAT = 0, CL_HIST_COMPUTER = 1, CL_HIST_ONLINE = 2, CL_HIST_MODES };

/* One accepted move and when it was played, in ms from the race start. */
typedef struct cl_hist_move {
    uint32_t at_ms;
    pz_move mv;
} cl_hist_move;

/* One finished race as the history keeps it. */
typedef struct cl_hist_race {
    int64_t id;      /* given by the history; 0 before it is stored */
    int64_t started; /* race start, Unix seconds (UTC) */
    int mode;        /* enum cl_hist_mode */
    int me;          /* slot of this machine's player; -1 in hotseat (both) */
    char game_id[160];
    pz_params params;
    char name[2][32];
    int winner; /* slot or -1 */
    int reason; /* enum match_end_reason */
    uint64_t time_ms[2];
    uint32_t moves[2];
    bool solved[2];
    int game_no, series_len;
    /* Move logs by slot: owned by this struct (cl_hist_race_free); NULL in
     * page entries, which carry no logs. */
    cl_hist_move *log[2];
    uint32_t nlog[2];
} cl_hist_race;

void cl_hist_race_free(cl_hist_race *r); /* frees the logs; keeps the rest */
/* Appends one move to slot's log (grows it). */
void cl_hist_race_log(cl_hist_race *r, int slot, uint32_t at_ms, pz_move mv);
/* The time this race counts for best times: the winner's time when the
 * winner solved, else 0 (none). */
uint64_t cl_hist_race_best_ms(const cl_hist_race *r);

enum { CL_HIST_PAGE_MAX = 64 };

/* Newest first: up to n races older than before_id (0: the newest). */
typedef struct cl_hist_page {
    bool ok; /* false: the history is unavailable */
    int64_t before_id;
    int n;
    bool more; /* older races exist beyond these */
    cl_hist_race e[CL_HIST_PAGE_MAX];
} cl_hist_page;

/* Best solved times. */
typedef struct cl_hist_bests {
    bool ok;
    bool have_puzzle; /* fastest solve of this game ID by anyone in this history */
    uint64_t puzzle_ms;
    char puzzle_name[32];
    bool have_personal; /* this player's fastest solve of this kind and size */
    uint64_t personal_ms;
} cl_hist_bests;

/* The best-times view: one row per puzzle kind and size (the grouping of
 * the personal best, st_personal_best), each with the fastest solves by
 * you, by anyone who is a person, and by the computer, kept apart. A time
 * of 0 means none. */
typedef struct cl_hist_best_row {
    int kind, w, h;
    int races;    /* races on this kind and size, unfinished ones included */
    int unsolved; /* of them, races nobody solved (unfinished, forfeits) */
    uint64_t you_ms;
    uint64_t person_ms;
    char person[32]; /* who set person_ms */
    uint64_t bot_ms;
} cl_hist_best_row;

enum { CL_HIST_TABLE_MAX = 200 };

typedef struct cl_hist_table {
    bool ok;
    int n;
    bool more; /* more kinds and sizes than CL_HIST_TABLE_MAX: the rest are left out */
    cl_hist_best_row e[CL_HIST_TABLE_MAX]; /* by kind, then size */
} cl_hist_table;

/* Adds race r to table t (the rows stay in order); name is "you". Races go
 * in newest first, so a tie goes to the older one. */
void cl_hist_table_add(cl_hist_table *t, const cl_hist_race *r, const char *name);

typedef struct cl_history cl_history;

/* Starts the worker on the file at path (created if missing). Never NULL;
 * a file that cannot be used shows up later as a problem and empty
 * answers. read_only: races are not recorded (cl_history_add drops them). */
cl_history *cl_history_create(const char *path, bool read_only);
/* Lets queued writes finish, stops the worker, frees. Accepts NULL. */
void cl_history_destroy(cl_history *h);
/* True, with the reason in buf, the first time after the history became
 * unusable; false otherwise (and every later time). */
bool cl_history_problem(cl_history *h, char *buf, size_t len);
/* Waits until every queued request is done (tests and shutdown only). */
void cl_history_flush(cl_history *h);
/* In sync mode every request waits for its answer before returning: for
 * headless runs on a virtual clock, where frame N must show the same thing
 * on any machine. Never for play. */
void cl_history_set_sync(cl_history *h, bool sync);

/* Queues r to be stored (copied, logs included). */
void cl_history_add(cl_history *h, const cl_hist_race *r);
/* Asks for up to count (<= CL_HIST_PAGE_MAX) races older than before_id
 * (0: from the newest), newest first. The next page asks before the last
 * entry's id. */
uint32_t cl_history_ask_page(cl_history *h, int64_t before_id, int count);
bool cl_history_page(cl_history *h, uint32_t ticket, cl_hist_page *out);
/* Asks for the best times on game_id and for name on that kind and size. */
uint32_t cl_history_ask_bests(cl_history *h, const char *game_id, const pz_params *p, const char *name);
bool cl_history_bests(cl_history *h, uint32_t ticket, cl_hist_bests *out);
/* Asks for the best-times table over the whole history, "you" being name. */
uint32_t cl_history_ask_table(cl_history *h, const char *name);
bool cl_history_table(cl_history *h, uint32_t ticket, cl_hist_table *out);
/* Asks for one race with its move logs. The answer goes to out (the caller
 * then owns the logs); false until it is in. A race that is not there
 * answers true with out->id == 0. */
uint32_t cl_history_ask_race(cl_history *h, int64_t id);
bool cl_history_race(cl_history *h, uint32_t ticket, cl_hist_race *out);

#endif
