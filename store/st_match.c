/* st_match.c: the finished-game record: freeing, keys, checks and the words of its enums. */
#include "st_match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "util.h"

const char *st_ending_text(int ending)
{
    static const char *const t[] = {"solved", "forfeit", "both_left", "aborted"};
    return MR_NAME_OF(t, ending, "?");
}

const char *st_result_text(int result)
{
    static const char *const t[] = {"lost", "won", "none"};
    return MR_NAME_OF(t, result, "?");
}

void st_match_free(st_match *m)
{
    if (!m)
        return;
    free(m->game_id);
    free(m->desc_id);
    free(m->moves);
    memset(m, 0, sizeof *m);
}

void st_matches_free(st_match *ms, int n)
{
    for (int i = 0; ms && i < n; i++)
        st_match_free(&ms[i]);
    free(ms);
}

static bool word_ok(const char *w, size_t max)
{
    size_t n = strnlen(w, max + 1);
    return n >= 1 && n <= max;
}

void st_match_new_key(char *key)
{
    unsigned char r[ST_KEY_LEN / 2];
    ssize_t got = getrandom(r, sizeof r, GRND_NONBLOCK);
    if (got != (ssize_t)sizeof r) {
        /* No entropy yet (early boot): the clock and a counter, mixed. */
        static _Atomic uint64_t n;
        uint64_t a = mr_hash64(&(uint64_t[2]){mr_now_us(), ++n}, 16), b = mr_hash64(&a, sizeof a);
        memcpy(r, &a, 8);
        memcpy(r + 8, &b, 8);
    }
    for (size_t i = 0; i < sizeof r; i++)
        snprintf(key + 2 * i, 3, "%02x", r[i]);
}

static bool key_ok(const char *k)
{
    size_t n = strlen(k);
    return n == 0 || (n == ST_KEY_LEN && strspn(k, "0123456789abcdef") == n);
}

const char *st_match_check(const st_match *m)
{
    if (!key_ok(m->key))
        return "record: bad key (32 lowercase hex digits or none)";
    if (!word_ok(m->mode, ST_WORD_MAX) || !word_ok(m->kind, ST_WORD_MAX) ||
        !word_ok(m->difficulty, ST_WORD_MAX))
        return "record: mode, kind and difficulty must be 1 to 15 bytes";
    if (!m->game_id || !m->game_id[0] || !m->desc_id || !m->desc_id[0])
        return "record: no game ID or description";
    if (m->width < 1 || m->height < 1)
        return "record: bad size";
    if (m->winner < -1 || m->winner > 1)
        return "record: bad winner";
    if (m->ending < ST_END_SOLVED || m->ending > ST_END_ABORTED)
        return "record: bad ending";
    if (m->game_no < 1 || m->series_len < 1)
        return "record: bad series numbers";
    for (int i = 0; i < 2; i++) {
        if (!word_ok(m->p[i].name, ST_NAME_MAX))
            return "record: player names must be 1 to 24 bytes";
        if (m->p[i].result < ST_LOST || m->p[i].result > ST_NO_RESULT)
            return "record: bad player result";
    }
    if (m->nmoves > ST_MOVES_MAX || (m->nmoves && !m->moves))
        return "record: too many moves";
    for (size_t i = 0; i < m->nmoves; i++)
        if (m->moves[i].player > 1)
            return "record: move of a third player";
    return NULL;
}

/* The backend that serves location: the first that claims it, else the last. */

int st_word_index(const char *w, const char *(*text)(int), int n, int dflt)
{
    for (int i = 0; i < n; i++)
        if (strcmp(w, text(i)) == 0)
            return i;
    return dflt;
}
