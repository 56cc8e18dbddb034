/* match.h: the race between two players on one puzzle, with no I/O and no clock. */
#ifndef MR_MATCH_H
#define MR_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puzzle.h"

/* A match is the whole life of one room's race: two player slots, the
 * puzzle, each player's own pz_state, the countdown, the result, rematches
 * and the series score. It never reads the clock: every call that depends
 * on time takes now_ms from the host (any monotonic millisecond clock, the
 * same one for every call on a match). Whatever happens is reported as
 * events that the host drains with match_poll_event and turns into network
 * messages (server) or screen updates (hotseat, vs computer).
 *
 * Every entry point is safe on input from the network: bad slots, unknown
 * tokens, moves with any bit pattern, calls in the wrong phase all return a
 * static message and change nothing. Rules in docs/racing.md. */

typedef struct match match;

#define MATCH_SLOTS 2
#define MATCH_NAME_MAX 24 /* bytes, without the NUL */
#define MATCH_DEFAULT_COUNTDOWN_MS 3000u
#define MATCH_DEFAULT_GRACE_MS 30000u
#define MATCH_MAX_SERIES 99 /* best of N, 1 <= N <= 99 */
#define MATCH_TO_BOTH (-2)  /* event.to: both players */
#define MATCH_NONE (-1)     /* no slot (e.g. no winner) */

/* A resume token: 128 bits from the kernel's CSPRNG (secrand), so that
 * neither the opponent nor anyone watching other rooms can compute it. All
 * zero means "no token". */
#define MATCH_TOKEN_BYTES 16
typedef struct match_token_t {
    uint8_t b[MATCH_TOKEN_BYTES];
} match_token_t;

/* Whether t is a token (not all zero). */
bool match_token_set(const match_token_t *t);
/* Whether a and b are the same token, in time independent of where they differ. */
bool match_token_equal(const match_token_t *a, const match_token_t *b);

enum match_phase {
    MATCH_WAITING,   /* players join and get ready */
    MATCH_COUNTDOWN, /* both were ready; the race starts at start_ms */
    MATCH_RACING,
    MATCH_FINISHED, /* a result exists; rematch or leave */
};

/* Why a move (or a request) was refused. Values are on the wire (REJECT). */
enum match_reject {
    MATCH_OK = 0,
    MATCH_REJ_ILLEGAL = 1,      /* the kind's execute_move said no */
    MATCH_REJ_NOT_STARTED = 2,  /* before the race start */
    MATCH_REJ_FINISHED = 3,     /* after the race ended */
    MATCH_REJ_NO_PLAYER = 4,    /* slot out of range or empty */
    MATCH_REJ_DISCONNECTED = 5, /* slot is in its grace period */
    MATCH_REJ_TOO_MANY = 6,     /* over match_move_limit() moves in this game */
    MATCH_REJ_COUNT
};

enum match_end_reason {
    MATCH_END_SOLVED = 0,    /* winner solved first */
    MATCH_END_FORFEIT = 1,   /* loser left, or did not come back in time */
    MATCH_END_BOTH_LEFT = 2, /* nobody is left: no winner */
    MATCH_END_ABORTED = 3,   /* the host stopped it (e.g. server shutdown) */
};

enum match_ev_type {
    MATCH_EV_JOINED = 1,      /* slot joined with name */
    MATCH_EV_LEFT,            /* slot is empty again */
    MATCH_EV_READY,           /* slot's ready flag is now `ready` */
    MATCH_EV_COUNTDOWN,       /* puzzle fixed; race starts at start_ms (game_no) */
    MATCH_EV_START,           /* race is on (at start_ms) */
    MATCH_EV_ACK,             /* to the mover: seq accepted; moves, progress */
    MATCH_EV_REJECT,          /* to the mover: seq refused; code, reason */
    MATCH_EV_PROGRESS,        /* to the opponent: slot played move; moves, progress */
    MATCH_EV_DISCONNECTED,    /* slot dropped; may resume until deadline_ms */
    MATCH_EV_RESUMED,         /* slot is back */
    MATCH_EV_REMATCH_REQUEST, /* slot asked for a rematch */
    MATCH_EV_FINISHED,        /* result */
    MATCH_EV_NEED_PUZZLE,     /* host_puzzles: make a puzzle with the current params and seed, then
                                 match_give_puzzle */
};

/* The result of one game of the series. Times are from the race start
 * (start_ms) to the solving move for a player who solved, else to the end
 * of the game. */
typedef struct match_result {
    int winner; /* slot or MATCH_NONE */
    int reason; /* enum match_end_reason */
    uint64_t time_ms[MATCH_SLOTS];
    bool solved[MATCH_SLOTS];
    uint32_t moves[MATCH_SLOTS];
    /* Series after this game. */
    int game_no;    /* 1 for the first game of the series */
    int series_len; /* best of series_len */
    int score[MATCH_SLOTS];
    bool series_over; /* someone has a majority, or the series cannot go on */
} match_result;

/* One thing that happened. `to` is the slot it is addressed to, or
 * MATCH_TO_BOTH; `slot` is the player it is about. Fields not listed for a
 * type are zero. `reason` and `name` stay valid until the next call on the
 * match (copy them if you keep them). */
typedef struct match_event {
    int type;             /* enum match_ev_type */
    int to;               /* slot or MATCH_TO_BOTH */
    int slot;             /* subject slot, or MATCH_NONE */
    uint32_t seq;         /* ACK, REJECT: the mover's sequence number */
    pz_move move;         /* PROGRESS: the move played (ACK: the move accepted) */
    uint32_t moves;       /* ACK, PROGRESS: accepted moves of `slot` so far */
    pz_progress progress; /* ACK, PROGRESS: view of `slot`'s state after the move */
    int code;             /* REJECT: enum match_reject */
    const char *reason;   /* REJECT: static text */
    bool ready;           /* READY */
    uint64_t start_ms;    /* COUNTDOWN, START: host time of the race start */
    uint64_t deadline_ms; /* DISCONNECTED: grace ends (host time) */
    int game_no;          /* COUNTDOWN, START, FINISHED */
    const char *name;     /* JOINED */
    match_result result;  /* FINISHED */
    uint64_t seed;        /* NEED_PUZZLE */
} match_event;

typedef struct match_config {
    uint32_t countdown_ms; /* default MATCH_DEFAULT_COUNTDOWN_MS */
    uint32_t grace_ms;     /* default MATCH_DEFAULT_GRACE_MS */
    int series_len;        /* best of N; default 1 */
    /* The host makes every new puzzle (rematches, new series) itself, e.g.
     * on a worker thread: where the match would generate one it queues
     * MATCH_EV_NEED_PUZZLE and waits, the players' ready or rematch flags
     * set, until match_give_puzzle. Default false: generated in the call. */
    bool host_puzzles;
} match_config;

void match_config_default(match_config *c);
/* NULL if c is acceptable, else a static message. */
const char *match_config_check(const match_config *c);

/* ---- lifetime ----
 * rng_init seeds the match's own rng (rematch seeds, a seedless game ID's
 * seed): a server draws it from secrand, a local game may use its own
 * rng_t. Resume tokens never come from it: each is drawn from secrand. cfg may be NULL for the
 * defaults. The match owns its puzzle and states; match_destroy frees
 * everything (accepts NULL). */

/* A match on a puzzle generated from params and seed. NULL with *err
 * (static) if the params or config are bad or generation fails. */
match *match_create(const pz_params *p, uint64_t seed, const match_config *cfg, uint64_t rng_init,
                    const char **err);
/* A match on the puzzle a game ID names (seeded or description; a
 * "kind:WxH:difficulty" ID without a seed gets one drawn from rng_init).
 * NULL with a message written to err (errlen bytes) on any failure. */
match *match_create_from_id(const char *game_id, const match_config *cfg, uint64_t rng_init, char *err,
                            size_t errlen);
/* A match on a puzzle the caller built with kind k (which may be a kind
 * outside the registry, e.g. a test's). Takes ownership of pz, even on
 * failure (freed with k->free_puzzle). seeded/seed say whether pz is
 * k->generate(params, seed) (then the game ID is the seeded form). NULL
 * with *err (static) if cfg is bad. */
match *match_create_puzzle(const pz_kind *k, pz_puzzle *pz, bool seeded, uint64_t seed,
                           const match_config *cfg, uint64_t rng_init, const char **err);
void match_destroy(match *m);

/* ---- players ----
 * All return NULL on success or a static message (and change nothing). */

/* Joins slot (0 or 1; -1 picks the first free one) with name (1 to
 * MATCH_NAME_MAX bytes; longer names are cut at a UTF-8 boundary). Allowed
 * while waiting, or when finished with a free slot (a new series then
 * begins). *slot_out (may be NULL) gets the slot. */
const char *match_join(match *m, int slot, const char *name, uint64_t now_ms, int *slot_out);
/* Leaves on purpose: while waiting the slot is freed; during a countdown or
 * race the leaver forfeits at once; when finished the slot is freed. */
const char *match_leave(match *m, int slot, uint64_t now_ms);
/* Sets the ready flag while waiting; when both players are present and
 * ready the countdown starts. */
const char *match_ready(match *m, int slot, bool ready, uint64_t now_ms);
/* The connection dropped: the player keeps the slot for grace_ms and may
 * match_resume. While waiting, the slot is freed at once (nothing to keep). */
const char *match_disconnect(match *m, int slot, uint64_t now_ms);
/* Back within the grace period with the slot's token: carries on with the
 * same state and moves. A wrong token or an expired grace is refused. */
const char *match_resume(match *m, int slot, const match_token_t *token, uint64_t now_ms);
/* Asks for a rematch once finished. When both present players ask, a new
 * puzzle (same params, new seed from the match's rng) is made and the
 * countdown starts. After a finished series, the rematch begins a new one. */
const char *match_rematch(match *m, int slot, uint64_t now_ms);

/* The puzzle a MATCH_EV_NEED_PUZZLE asked for (taken over; generated from
 * the current params and that event's seed), or NULL if it could not be
 * made: then the players' ready and rematch flags are cleared (READY
 * events) so they may ask again. If both players still want to start, the
 * countdown starts now; otherwise the puzzle waits for the next start.
 * Returns NULL, or a static message if no puzzle was asked for or it is
 * of another kind (pz is freed). */
const char *match_give_puzzle(match *m, pz_puzzle *pz, uint64_t seed, uint64_t now_ms);
/* Whether a MATCH_EV_NEED_PUZZLE is waiting for match_give_puzzle. */
bool match_wants_puzzle(const match *m);

/* ---- the race ---- */

/* Plays mv for slot. Always queues exactly one event for the mover: ACK, or
 * REJECT with seq and the reason; an accepted move also queues PROGRESS for
 * the opponent, and a solving move FINISHED. Returns NULL if accepted, else
 * the reason (same text as the REJECT event). *code (may be NULL) gets the
 * enum match_reject. */
const char *match_move(match *m, int slot, uint32_t seq, pz_move mv, uint64_t now_ms, int *code);
/* Accepted moves one player may make in one game: pz_max_solution + 1024,
 * far more than any real play, so that the move log (kept for resuming) is
 * bounded by the puzzle's size however a client behaves. */
uint32_t match_move_limit(const match *m);
/* Advances time: countdown -> race, grace expiry -> forfeit. Every other
 * call also does this first, so a host may call it only at
 * match_next_deadline. */
void match_update(match *m, uint64_t now_ms);
/* The earliest host time at which match_update has something to do, or
 * UINT64_MAX. */
uint64_t match_next_deadline(const match *m);
/* Ends the current countdown or race with no winner (MATCH_END_ABORTED) and
 * ends the series. Does nothing in other phases. */
void match_abort(match *m, uint64_t now_ms);

/* Takes the oldest queued event: true and *ev filled, false when empty. */
bool match_poll_event(match *m, match_event *ev);

/* ---- queries ---- */
int match_phase(const match *m); /* enum match_phase */
const pz_puzzle *match_puzzle(const match *m);
/* Slot's state (NULL for a bad or empty slot). */
const pz_state *match_state(const match *m, int slot);
bool match_present(const match *m, int slot);   /* joined (even if dropped) */
bool match_connected(const match *m, int slot); /* present and not in grace */
bool match_is_ready(const match *m, int slot);
bool match_wants_rematch(const match *m, int slot);
const char *match_name(const match *m, int slot);    /* "" for a bad or empty slot */
match_token_t match_token(const match *m, int slot); /* all zero for a bad or empty slot */
/* True when token was slot's before its grace ran out and the seat emptied
 * (the game ended by forfeit, or had ended): a player back too late is told
 * how it ended (match_last_result). Forgotten when the next game starts or
 * someone takes the seat. */
bool match_was_seat(const match *m, int slot, const match_token_t *token);
uint32_t match_moves(const match *m, int slot);
/* Copies the first max accepted moves of slot in this game, in order, into
 * out (so a resuming client can rebuild its state) and returns how many the
 * log holds (max 0 or out NULL just counts); 0 for a bad slot. The log is
 * kept packed with each move's time: a step is 1 byte, a rotation 3, plus
 * 1 to 5 bytes of time (2 for gaps under 16 s). */
size_t match_move_log(const match *m, int slot, pz_move *out, size_t max);
/* The same log's times: for each of the first max accepted moves, the ms
 * from the race start (match_start_ms) to the call that accepted it;
 * non-decreasing, saturating at UINT32_MAX (49 days). Returns the count as
 * match_move_log. Replays, spectators and history read moves and times. */
size_t match_move_times(const match *m, int slot, uint32_t *out, size_t max);
/* Both at once (one pass over the log): moves and times_ms may each be
 * NULL; writes the first max entries to each non-NULL array. */
size_t match_move_log_timed(const match *m, int slot, pz_move *moves, uint32_t *times_ms, size_t max);
uint64_t match_start_ms(const match *m); /* race start of the current game (0 while waiting) */
int match_game_no(const match *m);       /* games started in this series */
int match_series_len(const match *m);
int match_score(const match *m, int slot);
/* The last result (valid once a game finished; zeroed before). */
const match_result *match_last_result(const match *m);
/* The seed of the current puzzle and whether the puzzle is seeded (false
 * when it came from a description ID and has not been rematched yet). */
bool match_seeded(const match *m, uint64_t *seed);
/* The game ID of the current puzzle: the seeded form when seeded, else the
 * description form. Written to buf (snprintf rules: returns the full length). */
int match_game_id(const match *m, char *buf, size_t len);
/* mr_hash64 of the puzzle's encode_desc, computed once per puzzle. */
uint64_t match_desc_hash(const match *m);

/* Bytes the match has allocated beyond the puzzle and the two states:
 * struct, event queue, move logs, cached strings. For the memory budget. */
size_t match_memory(const match *m);

/* Static text for an enum match_reject / match_end_reason / match_phase. */
const char *match_reject_text(int code);
const char *match_end_text(int reason);
const char *match_phase_text(int phase);

#endif
