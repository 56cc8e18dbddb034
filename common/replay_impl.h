/* replay_impl.h: the replay struct and helpers shared by replay.c, replay_read.c and replay_check.c. */
#ifndef MR_REPLAY_IMPL_H
#define MR_REPLAY_IMPL_H

#include "replay.h"

struct replay {
    char *game_id; /* description form */
    char *seeded;  /* seeded form, or "" */
    char name[MATCH_SLOTS][MATCH_NAME_MAX + 1];
    replay_move *moves;
    size_t n, cap;
    bool has_end;
    replay_end end;
    bool has_date;
    int64_t date;
    int game_line, end_line; /* where they were read, or 0 */
};

/* An empty replay (no validation: the callers have checked). */
replay *replay_new(const char *desc_id, const char *seeded_id);
/* Appends without checks. */
void replay_push(replay *r, const replay_move *m);
/* NULL if the len bytes of s are a player name as match_join keeps it. */
const char *replay_name_check(const char *s, size_t len);
/* The inverse, for exactly 20 bytes; NULL or a static message. */
const char *replay_date_parse(const char *s, size_t len, int64_t *unix_s);
/* Text of an enum match_end_reason in the file ("solved", ...), NULL if bad. */
const char *replay_end_word(int reason);

#endif
