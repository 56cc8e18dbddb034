/* st_match.h: one finished game as the store keeps it (st_match), its checks and words; st.h and
 * st_backend.h both build on it, so a backend never needs the store interface (st.h). */
#ifndef MR_ST_MATCH_H
#define MR_ST_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ST_NAME_MAX 24          /* bytes of a player name, without the NUL (= MATCH_NAME_MAX) */
#define ST_WORD_MAX 15          /* mode, kind and difficulty words */
#define ST_PAGE_MAX 100         /* rows one query returns at most */
#define ST_MOVES_MAX (1u << 20) /* moves one record may hold (both players) */

enum st_ending {
    ST_END_SOLVED = 0,    /* the winner solved first */
    ST_END_FORFEIT = 1,   /* the loser left or did not come back in time */
    ST_END_BOTH_LEFT = 2, /* nobody was left: no winner */
    ST_END_ABORTED = 3,   /* the host stopped it (e.g. server shutdown) */
};

enum st_result {
    ST_LOST = 0,
    ST_WON = 1,
    ST_NO_RESULT = 2, /* no winner (both left, aborted) */
};

/* One accepted move: ms from the race start, which player, and the move
 * (pz_move's fields: type, dir, x, y). */
typedef struct st_move {
    uint32_t ms;
    uint8_t player; /* 0 or 1 */
    uint8_t type, dir;
    uint16_t x, y;
} st_move;

typedef struct st_player {
    char name[ST_NAME_MAX + 1];
    uint64_t time_ms; /* race start to the solving move, else to the end of the game */
    uint32_t moves;   /* accepted moves */
    bool solved;
    int result; /* enum st_result */
} st_player;

/* One finished game. Strings and moves are owned by the record: st_match_free. */
/* A record's key: 128 random bits as 32 lowercase hex digits, made when
 * the record is built. The stores keep it UNIQUE and ignore a record whose
 * key they already hold, so a record delivered twice (the spool sends at
 * least once) is stored once. */
#define ST_KEY_LEN 32

typedef struct st_match {
    int64_t id;               /* given by the store (st_put); > 0 */
    char key[ST_KEY_LEN + 1]; /* the record's own key (st_match_new_key), or "" (none, never deduplicated) */
    char mode[ST_WORD_MAX + 1]; /* "server", or the game's "hotseat", "computer", "online" */
    char *game_id;              /* as played: the seeded form when seeded, else the description form */
    char *desc_id;              /* the full description form ("kind:WxH:desc"); NULL in st_recent rows */
    uint64_t desc_hash;         /* mr_hash64 of the description (match_desc_hash) */
    char kind[ST_WORD_MAX + 1]; /* "sum", "maze", "ice", "pipes" */
    int width, height;
    char difficulty[ST_WORD_MAX + 1];
    int64_t start_utc_ms; /* race start, wall clock: ms since 1970-01-01 UTC */
    int winner;           /* 0, 1, or -1 for none */
    int ending;           /* enum st_ending */
    int game_no;          /* game of the series, from 1 */
    int series_len;       /* best of series_len */
    st_player p[2];
    st_move *moves; /* both players' moves, in the order the host accepted them; NULL in st_recent rows */
    size_t nmoves;
} st_match;

/* One row of a ranking: a player's solved game. */
typedef struct st_best {
    int64_t match_id;
    char name[ST_NAME_MAX + 1];
    uint64_t time_ms;
    uint32_t moves;
    int64_t start_utc_ms;
} st_best;

/* Fills key (ST_KEY_LEN + 1 bytes) with a fresh random key. */
void st_match_new_key(char *key);
/* Frees what the record owns (not m itself) and zeroes it. Accepts NULL. */
void st_match_free(st_match *m);
/* Frees an array of n records from st_recent (each one's contents, then the array). */
void st_matches_free(st_match *ms, int n);
/* NULL if m may be stored, else a static message (names, words, counts, moves in range). */
const char *st_match_check(const st_match *m);
/* Static words for the enums ("solved", "won", ...), "?" when out of range. */
const char *st_ending_text(int ending);
const char *st_result_text(int result);

/* The enum value whose text (st_ending_text, st_result_text) is w; dflt if none of the n is. */
int st_word_index(const char *w, const char *(*text)(int), int n, int dflt);

#endif
