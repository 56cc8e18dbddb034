/* bt_player.h: one headless player over cl_net: races with the bot brain, records results and acks. */
#ifndef MR_BT_PLAYER_H
#define MR_BT_PLAYER_H

#include <stdbool.h>
#include <stdint.h>

#include "cl_net.h"

/* How a player finds its race. */
enum bt_mode {
    BT_QUICK,  /* quick match */
    BT_JOIN,   /* join room `room` */
    BT_CREATE, /* create a room from params (or game_id) */
    BT_WAIT,   /* join the room handed over later with bt_player_join (pairs in one process) */
    BT_WATCH,  /* a spectator of `room`, or of the room handed over with bt_player_join */
};

/* How it plays. */
enum bt_play {
    BT_SOLVE,   /* the bot brain: solve at pace with the mistake rate */
    BT_SHUTTLE, /* benches: walk the solution forward to one move before the
                   end and back again, forever, at pace: every move legal,
                   the race never ends */
};

typedef struct bt_player_cfg {
    const char *name;
    int mode;         /* enum bt_mode */
    const char *room; /* BT_JOIN */
    pz_params params; /* BT_CREATE */
    bool has_seed;
    uint64_t seed;
    const char *game_id; /* BT_CREATE: overrides params when not NULL */
    int series;          /* BT_CREATE: best of N (default 1) */
    int play;            /* enum bt_play */
    uint32_t pace_ms;    /* ms per move */
    double mistakes;     /* BT_SOLVE mistake rate */
    bool by_level;       /* BT_SOLVE: play like a person of level (pace_ms and mistakes unused) */
    int level;           /* enum bot_level, with by_level */
    uint64_t bot_seed;   /* the brain's rng */
    int matches;         /* games to finish before done (BT_SOLVE; BT_WATCH: games to see end) */
    bool no_rematch;     /* do not ask for rematches (a test drives them) */
    bool pair_only;      /* done once its room has an opponent: no READY, no race (matchmaking loads) */
} bt_player_cfg;

/* One finished game as this player saw it. */
typedef struct bt_result {
    wire_match_end end;
    int slot; /* this player's; -1 for a spectator */
    char names[2][WIRE_NAME_MAX + 1];
    char game_id[96];
} bt_result;

typedef struct bt_player bt_player;

/* Starts connecting to host:port through hub (shared; must outlive the
 * player), or with a connection of its own when hub is NULL. NULL with *err
 * on failure. cfg's strings are copied. */
bt_player *bt_player_create(cl_hub_t *hub, const bt_player_cfg *cfg, const char *host, int port,
                            uint64_t now_us, const char **err);
/* A player on a connection already through its handshake (cl_path_take:
 * docs/nat.md); the player owns it from then on. */
bt_player *bt_player_adopt(cl_net_t *net, const bt_player_cfg *cfg, uint64_t now_us);
void bt_player_destroy(bt_player *p); /* accepts NULL */

/* Handles the connection's events and plays whatever move is due at now_us.
 * Call after each cl_hub_service. */
void bt_player_step(bt_player *p, uint64_t now_us);
/* BT_WAIT: the room to join (a partner's code). */
void bt_player_join(bt_player *p, const char *code);
/* Stops making moves (benches: end of the window); answers still count. */
void bt_player_pause(bt_player *p);

/* ---- state ---- */
bool bt_player_done(const bt_player *p); /* played its matches (or left) */
/* Why the player failed (lost connection without resume, refused, protocol
 * error, ...), or NULL. */
const char *bt_player_failed(const bt_player *p);
bool bt_player_racing(const bt_player *p, uint64_t now_us); /* race on and started */
const char *bt_player_room(const bt_player *p);             /* code once in a room, else NULL */
const char *bt_player_name(const bt_player *p);
cl_net_t *bt_player_net(bt_player *p);

typedef struct bt_counts {
    uint64_t sent, acked, rejected; /* moves */
    uint64_t progress;              /* opponent progress events */
    uint64_t resumed, drops;
    uint64_t errors;    /* ERROR events (requests refused) */
    uint64_t shutdowns; /* SHUTDOWN notices */
    int last_reject;    /* enum match_reject of the last REJECT */
    int last_error;     /* enum wire_error of the last ERROR */
} bt_counts;
const bt_counts *bt_player_counts(const bt_player *p);
/* Microseconds from asking for a race (after the handshake) to first being
 * in a room with an opponent; 0 = not yet. */
uint64_t bt_player_pair_us(const bt_player *p);
/* When it asked for a race (the clock of bt_player_step), 0 = not yet. */
uint64_t bt_player_asked_us(const bt_player *p);

int bt_player_results(const bt_player *p, const bt_result **out);

/* Ack times: every answered move (ACK or REJECT) adds send-to-answer
 * microseconds to the player's samples while recording is on. */
void bt_player_record(bt_player *p, bool on);
/* The samples so far (not sorted); *n gets how many. */
const uint32_t *bt_player_samples(const bt_player *p, size_t *n);
/* Ghost delay, for benches where both players of a match are in this
 * process: while recording, each opponent PROGRESS adds the microseconds
 * since opp sent that move (known once opp has its ACK; otherwise no
 * sample). */
void bt_player_set_opponent(bt_player *p, const bt_player *opp);
const uint32_t *bt_player_ghost_samples(const bt_player *p, size_t *n);
/* Spectator lag, for a BT_WATCH player whose two players are in this
 * process: while recording, each PROGRESS adds the microseconds since that
 * seat's player sent the move (its ghost samples). */
void bt_player_set_seats(bt_player *p, const bt_player *seat0, const bt_player *seat1);
/* The moves of the current game this player learnt of, per seat: its own
 * as ACKed, the other seat's (or, watching, both) from PROGRESS, each with
 * its number in that player's game (1, 2, ...). A spectator that came
 * mid-race starts after the moves it caught up from the move logs. */
typedef struct bt_move_rec {
    uint32_t n;
    pz_move mv;
} bt_move_rec;
const bt_move_rec *bt_player_moves(const bt_player *p, int slot, size_t *n);
/* Moves sent and not answered yet. */
uint32_t bt_player_outstanding(const bt_player *p);
/* When the player next has a move to make (microseconds, the clock of
 * bt_player_step), or UINT64_MAX when none is scheduled. */
uint64_t bt_player_next_due_us(const bt_player *p);

#endif
