/* replay.h: one finished race as a value: game ID, names, every move with its time, the ending; text form in
 * docs/replay.md. */
#ifndef MR_REPLAY_H
#define MR_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h"
#include "puzzle.h"

/* A replay holds what docs/replay.md's file holds: the puzzle (always as a
 * description game ID, so it does not depend on the generator's version),
 * both players' names, every accepted move in the order the server took
 * them with its time in ms from the race start and its player, and how the
 * game ended. It is built from a match, from parts (a recorder's lists), or
 * read from text; replay_check runs it through the match engine.
 *
 * Builders return NULL or a static message (and change nothing);
 * constructors return NULL with a static message in *err. Everything that
 * reads external text fails closed with line and column. */

typedef struct replay replay;

#define REPLAY_VERSION 1
#define REPLAY_MAX_BYTES (32u * 1024 * 1024) /* a replay file is refused beyond this */
#define REPLAY_MAX_MOVES 2000000u            /* both players; match_move_limit bounds real ones far lower */

typedef struct replay_move {
    uint32_t t_ms; /* from the race start; non-decreasing along the replay */
    int slot;      /* 0 or 1 */
    pz_move mv;
    int line, col; /* where the move was read (1-based), or 0 for a built replay */
} replay_move;

typedef struct replay_end {
    int reason;      /* enum match_end_reason */
    int winner;      /* slot or MATCH_NONE */
    uint32_t end_ms; /* when the game ended, from the race start */
} replay_end;

/* ---- building ---- */

/* An empty replay of the puzzle game_id names: a description ID is kept as
 * it is; a seeded ID is generated once to find its description (and kept
 * as the informational `seeded` line). Names: spaces around them dropped,
 * then 1 to MATCH_NAME_MAX bytes of UTF-8 without control characters (as
 * match_join keeps them). No ending yet. Caller frees with replay_destroy. */
replay *replay_create(const char *game_id, const char *name0, const char *name1, const char **err);
void replay_destroy(replay *r); /* accepts NULL */

/* Appends one move; t_ms must not be before the previous move's. */
const char *replay_add_move(replay *r, int slot, uint32_t t_ms, pz_move mv);
/* Appends both players' logs (as match_move_log_timed gives them, each
 * non-decreasing), merged by time; at equal times the winner's moves go
 * last, since its solving move was the last the engine took. */
const char *replay_add_logs(replay *r, const pz_move *const moves[MATCH_SLOTS],
                            const uint32_t *const times[MATCH_SLOTS], const size_t counts[MATCH_SLOTS],
                            int winner);
/* The ending: reason, winner (MATCH_NONE unless solved or forfeit), and
 * end_ms (not before the last move). */
const char *replay_set_end(replay *r, int reason, int winner, uint32_t end_ms);
/* The wall-clock start of the race, seconds since 1970 UTC (optional). */
const char *replay_set_date(replay *r, int64_t unix_s);

/* The finished game of m (its last result, names and timed move logs). A
 * slot whose player has left has no name any more: names[slot] (either
 * may be NULL, as names may) replaces match_name; an empty name becomes
 * "?". NULL with *err unless m is finished. */
replay *replay_from_match(const match *m, const char *const names[MATCH_SLOTS], const char **err);

/* ---- text ---- */

/* The text form (docs/replay.md), malloc'd; caller frees. Needs an ending. */
char *replay_format(const replay *r);
/* Reads len bytes; NULL with e filled (1-based line and column) on any
 * fault of form. The moves' legality is replay_check's job. */
replay *replay_parse(const char *text, size_t len, pz_error *e);
/* replay_parse of a file; a file that cannot be read is line 0. */
replay *replay_read_file(const char *path, pz_error *e);

/* ---- reading a replay ---- */
const char *replay_game_id(const replay *r);   /* description form */
const char *replay_seeded_id(const replay *r); /* "" if not known */
/* Sets the informational seeded ID (a stored record's game ID as played),
 * kept only when it is a seeded ID (kind:WxH:difficulty#seed) of the
 * replay's kind and size; never used to build the puzzle. */
void replay_set_seeded(replay *r, const char *seeded_id);
const char *replay_name(const replay *r, int slot); /* "" for a bad slot */
size_t replay_move_count(const replay *r);
const replay_move *replay_move_at(const replay *r, size_t i); /* NULL out of range */
bool replay_has_end(const replay *r);
replay_end replay_get_end(const replay *r);
bool replay_date(const replay *r, int64_t *unix_s); /* false if none */
/* "YYYY-MM-DDTHH:MM:SSZ" (21 bytes with the NUL) for 1970..9999; false if out of range. */
bool replay_date_format(int64_t unix_s, char buf[21]);

/* ---- checking ---- */

/* Builds a match from the game ID, joins both names, starts the race at
 * 0 ms, plays every move at its time and ends the game as the ending says;
 * *out (may be NULL) gets the engine's result. NULL on success, else
 * e (may be NULL) says what is wrong and where: a move the engine refuses,
 * a move after the race was over, an ending that does not match, a game ID
 * that does not build. Returns e->msg or a static text. */
const char *replay_check(const replay *r, match_result *out, pz_error *e);

/* A match that has raced the replay's first n moves (clamped), for
 * players and viewers: countdown 0, race started at host time 0; the
 * caller plays on with match_move at host time t_ms. NULL with e filled
 * if the ID does not build or a move is refused. Caller destroys it. */
match *replay_match_at(const replay *r, size_t n, pz_error *e);

#endif
