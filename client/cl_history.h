/* cl_history.h: the game's own history of finished races (hotseat, vs
 * computer, online) and the best times drawn from it, kept in a match
 * store (store/, st.h: the server's schema, SQLite) beside the settings
 * (docs/client.md "History").
 *
 * A race is an st_match, the one record of a finished game. The game loop
 * never waits on the disk: an st_writer (store/st_writer.h, the server's
 * own store thread) opens the file on its thread and does every write and
 * query there. The screens queue requests and pick up answers on later
 * frames; each ask returns a ticket and the matching get answers true once
 * that ticket's answer is in (only the latest answer of each kind is
 * kept). A file that cannot be used (corrupt, read-only, locked, a foreign
 * database) never stops the game: the handle goes on answering with empty
 * results, and cl_history_problem hands the reason out once so the screen
 * can say it. */
#ifndef CL_HISTORY_H
#define CL_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The store's types (st.h, st_writer.h), by their tags: the screens that
 * include this through cl_app.h need not see the store. */
struct st;
struct st_match;
struct st_query;
struct st_answer;

/* st_match.mode of the game's races. */
#define CL_HIST_HOTSEAT "hotseat"
#define CL_HIST_COMPUTER "computer" /* the computer is slot 1 (cl_scene_setup.c) */
#define CL_HIST_ONLINE "online"

/* Whether race r was played in mode (one of the above). */
bool cl_hist_mode_is(const struct st_match *r, const char *mode);
/* The time r counts for best times: the winner's time when the winner
 * solved, else 0 (none). */
uint64_t cl_hist_best_ms(const struct st_match *r);

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

enum { CL_HIST_TABLE_MAX = 200, CL_HIST_PAGE_MAX = 64 };

typedef struct cl_hist_table {
    bool ok;
    int n;
    bool more; /* more kinds and sizes than CL_HIST_TABLE_MAX: the rest are left out */
    cl_hist_best_row e[CL_HIST_TABLE_MAX]; /* by kind, then size */
} cl_hist_table;

/* Adds race r to table t (the rows stay in order); name is "you". Races go
 * in newest first, so a tie goes to the older one. */
void cl_hist_table_add(cl_hist_table *t, const struct st_match *r, const char *name);
/* The queries behind cl_history_ask_bests and cl_history_ask_table, run
 * on the store's thread (st_call_fn, cl_history_table.c): the game ID, name,
 * kind and size come in the st_query; *out gets a malloc'd cl_hist_bests
 * or cl_hist_table. */
const char *cl_hist_bests_call(struct st *s, const struct st_query *q, void **out);
const char *cl_hist_table_call(struct st *s, const struct st_query *q, void **out);

typedef struct cl_history cl_history;

/* Starts the store's thread, which opens the file at path (created if
 * missing). Never NULL; a file that cannot be used shows up later as a
 * problem and empty answers. read_only: races are not recorded
 * (cl_history_add drops them) and no file is created. */
cl_history *cl_history_create(const char *path, bool read_only);
/* Lets queued writes finish, stops the thread, frees. Accepts NULL. */
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

/* Queues r (malloc'd, taken over in every case) to be stored. */
void cl_history_add(cl_history *h, struct st_match *r);
/* Asks for up to count (<= CL_HIST_PAGE_MAX) races older than before_id
 * (0: from the newest), newest first. The next page asks before the last
 * entry's id. The answer: out->matches, out->n of them (no move logs),
 * *more when older races exist; out->error set when the history could not
 * be read. The caller st_answer_frees it. */
uint32_t cl_history_ask_page(cl_history *h, int64_t before_id, int count);
bool cl_history_page(cl_history *h, uint32_t ticket, struct st_answer *out, bool *more);
/* Asks for the best times on game_id and for name on that kind and size. */
uint32_t cl_history_ask_bests(cl_history *h, const char *game_id, const char *kind, int w, int h_,
                              const char *name);
bool cl_history_bests(cl_history *h, uint32_t ticket, cl_hist_bests *out);
/* Asks for the best-times table over the whole history, "you" being name. */
uint32_t cl_history_ask_table(cl_history *h, const char *name);
bool cl_history_table(cl_history *h, uint32_t ticket, cl_hist_table *out);
/* Asks for one race with its moves: out->match when out->found (the
 * caller st_answer_frees it). */
uint32_t cl_history_ask_race(cl_history *h, int64_t id);
bool cl_history_race(cl_history *h, uint32_t ticket, struct st_answer *out);

#endif
