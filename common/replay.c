/* replay.c: building replays (from parts or a finished match), the accessors and the text writer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_impl.h"
#include "util.h"
#include "textrule.h"

replay *replay_new(const char *desc_id, const char *seeded_id)
{
    replay *r = mr_alloc(1, sizeof *r);
    r->game_id = mr_strdup(desc_id);
    r->seeded = mr_strdup(seeded_id ? seeded_id : "");
    r->end.winner = MATCH_NONE;
    return r;
}

void replay_destroy(replay *r)
{
    if (!r)
        return;
    free(r->game_id);
    free(r->seeded);
    free(r->moves);
    free(r);
}

void replay_push(replay *r, const replay_move *m)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 64;
        r->moves = mr_realloc(r->moves, r->cap, sizeof *r->moves);
    }
    r->moves[r->n++] = *m;
}

const char *replay_name_check(const char *s, size_t len)
{
    if (len == 0)
        return "a player name must not be empty";
    if (len > MATCH_NAME_MAX)
        return "a player name is at most 24 bytes";
    if (s[0] == ' ' || s[len - 1] == ' ')
        return "a player name must not start or end with a space";
    char raw[MATCH_NAME_MAX + 1], clean[MATCH_NAME_MAX + 1];
    memcpy(raw, s, len);
    raw[len] = '\0';
    if (memchr(s, '\0', len))
        return "a player name must not contain NUL";
    txt_clean(clean, sizeof clean, raw);
    if (strcmp(raw, clean) != 0)
        return "a player name must be UTF-8 without control characters";
    return NULL;
}

/* name without the spaces around it, into out; its length (0 for NULL, or too long to be a name). */
static size_t trim_name(const char *name, char out[MATCH_NAME_MAX + 1])
{
    out[0] = '\0';
    if (!name)
        return 0;
    size_t n = strlen(name);
    while (n && name[n - 1] == ' ')
        n--;
    while (n && name[0] == ' ') {
        name++;
        n--;
    }
    if (n > MATCH_NAME_MAX)
        return 0;
    memcpy(out, name, n);
    out[n] = '\0';
    return n;
}

replay *replay_create(const char *game_id, const char *name0, const char *name1, const char **err)
{
    const char *why = NULL;
    const char *names[MATCH_SLOTS] = {name0, name1};
    char nm[MATCH_SLOTS][MATCH_NAME_MAX + 1];
    for (int i = 0; i < MATCH_SLOTS && !why; i++)
        why = replay_name_check(nm[i], trim_name(names[i], nm[i]));
    pz_id id;
    char msg[160];
    if (!why && (!game_id || pz_id_parse(game_id, &id, msg, sizeof msg)))
        why = "not a valid game ID";
    if (!why && !id.desc && !id.has_seed)
        why = "the game ID names no exact puzzle (no seed, no description)";
    pz_puzzle *pz = why ? NULL : pz_from_id(game_id, msg, sizeof msg);
    if (!why && !pz)
        why = "the game ID does not build a puzzle";
    if (why) {
        if (err)
            *err = why;
        return NULL;
    }
    char *desc = pz_id_format_desc(pz);
    pz_kind_of(pz)->free_puzzle(pz);
    replay *r = replay_new(desc, id.desc ? "" : game_id);
    free(desc);
    memcpy(r->name, nm, sizeof r->name);
    return r;
}

const char *replay_add_move(replay *r, int slot, uint32_t t_ms, pz_move mv)
{
    if (slot < 0 || slot >= MATCH_SLOTS)
        return "no such player slot";
    if (r->has_end)
        return "the replay already has its ending";
    if (r->n && t_ms < r->moves[r->n - 1].t_ms)
        return "moves must be added in time order";
    if (r->n >= REPLAY_MAX_MOVES)
        return "too many moves for a replay";
    replay_move m = {t_ms, slot, mv, 0, 0};
    replay_push(r, &m);
    return NULL;
}

const char *replay_add_logs(replay *r, const pz_move *const moves[MATCH_SLOTS],
                            const uint32_t *const times[MATCH_SLOTS], const size_t counts[MATCH_SLOTS],
                            int winner)
{
    size_t at[MATCH_SLOTS] = {0, 0};
    /* At equal times the non-winner (slot 0 when there is none) goes first. */
    int first = winner == 0 ? 1 : 0;
    while (at[0] < counts[0] || at[1] < counts[1]) {
        int s;
        if (at[0] == counts[0])
            s = 1;
        else if (at[1] == counts[1])
            s = 0;
        else if (times[0][at[0]] != times[1][at[1]])
            s = times[0][at[0]] < times[1][at[1]] ? 0 : 1;
        else
            s = first;
        const char *why = replay_add_move(r, s, times[s][at[s]], moves[s][at[s]]);
        if (why)
            return why;
        at[s]++;
    }
    return NULL;
}

const char *replay_end_word(int reason)
{
    /* Indexed by enum match_end_reason; the file's words, not match_end_text's. */
    static const char *const words[] = {"solved", "forfeit", "both-left", "aborted"};
    return MR_NAME_OF(words, reason, NULL);
}

const char *replay_set_end(replay *r, int reason, int winner, uint32_t end_ms)
{
    if (!replay_end_word(reason))
        return "unknown ending";
    bool needs_winner = reason == MATCH_END_SOLVED || reason == MATCH_END_FORFEIT;
    if (needs_winner ? (winner < 0 || winner >= MATCH_SLOTS) : winner != MATCH_NONE)
        return needs_winner ? "a solved or forfeited game has a winner" : "this ending has no winner";
    if (r->n && end_ms < r->moves[r->n - 1].t_ms)
        return "the game cannot end before its last move";
    r->end.reason = reason;
    r->end.winner = winner;
    r->end.end_ms = end_ms;
    r->has_end = true;
    return NULL;
}

const char *replay_set_date(replay *r, int64_t unix_s)
{
    char buf[21];
    if (!replay_date_format(unix_s, buf))
        return "the date must be from 1970 to 9999";
    r->date = unix_s;
    r->has_date = true;
    return NULL;
}

replay *replay_from_match(const match *m, const char *const names[MATCH_SLOTS], const char **err)
{
    if (!m || match_phase(m) != MATCH_FINISHED || match_game_no(m) < 1) {
        if (err)
            *err = "the match has no finished game";
        return NULL;
    }
    const match_result *res = match_last_result(m);
    char *desc = pz_id_format_desc(match_puzzle(m));
    char seeded[128] = "";
    if (match_seeded(m, NULL))
        match_game_id(m, seeded, sizeof seeded);
    char nm[MATCH_SLOTS][MATCH_NAME_MAX + 1];
    const char *why = NULL;
    for (int i = 0; i < MATCH_SLOTS && !why; i++) {
        if (!trim_name(names && names[i] ? names[i] : match_name(m, i), nm[i]))
            memcpy(nm[i], "?", 2);
        why = replay_name_check(nm[i], strlen(nm[i]));
    }
    if (why) {
        free(desc);
        if (err)
            *err = why;
        return NULL;
    }
    replay *r = replay_new(desc, seeded);
    free(desc);
    memcpy(r->name, nm, sizeof r->name);
    pz_move *mv[MATCH_SLOTS];
    uint32_t *t[MATCH_SLOTS];
    size_t n[MATCH_SLOTS];
    for (int i = 0; i < MATCH_SLOTS; i++) {
        n[i] = match_move_log(m, i, NULL, 0);
        mv[i] = mr_alloc(n[i] ? n[i] : 1, sizeof *mv[i]);
        t[i] = mr_alloc(n[i] ? n[i] : 1, sizeof *t[i]);
        match_move_log_timed(m, i, mv[i], t[i], n[i]);
    }
    uint64_t end = res->time_ms[0] > res->time_ms[1] ? res->time_ms[0] : res->time_ms[1];
    why = replay_add_logs(r, (const pz_move *const *)mv, (const uint32_t *const *)t, n, res->winner);
    if (!why)
        why = replay_set_end(r, res->reason, res->winner, end > UINT32_MAX ? UINT32_MAX : (uint32_t)end);
    for (int i = 0; i < MATCH_SLOTS; i++) {
        free(mv[i]);
        free(t[i]);
    }
    if (why) {
        replay_destroy(r);
        if (err)
            *err = why;
        return NULL;
    }
    return r;
}

/* ---- the writer ---- */

char *replay_format(const replay *r)
{
    if (!r || !r->has_end)
        return NULL;
    mr_text b = mr_text_new(4096);
    mr_text_add(&b, "mazerace-replay %d\n", REPLAY_VERSION);
    mr_text_add(&b, "game %s\n", r->game_id);
    if (r->seeded[0])
        mr_text_add(&b, "seeded %s\n", r->seeded);
    for (int i = 0; i < MATCH_SLOTS; i++)
        mr_text_add(&b, "player %d %s\n", i, r->name[i]);
    char date[21];
    if (r->has_date && replay_date_format(r->date, date))
        mr_text_add(&b, "date %s\n", date);
    for (size_t i = 0; i < r->n; i++) {
        char mv[32];
        pz_move_format(r->moves[i].mv, mv, sizeof mv);
        mr_text_add(&b, "move %u %d %s\n", r->moves[i].t_ms, r->moves[i].slot, mv);
    }
    const char *win = r->end.winner == 0 ? "0" : r->end.winner == 1 ? "1" : "-";
    mr_text_add(&b, "end %u %s %s\n", r->end.end_ms, replay_end_word(r->end.reason), win);
    return b.p;
}

/* ---- accessors ---- */

const char *replay_game_id(const replay *r)
{
    return r->game_id;
}
void replay_set_seeded(replay *r, const char *seeded_id)
{
    pz_id s, d;
    char msg[160];
    if (!seeded_id || pz_id_parse(seeded_id, &s, msg, sizeof msg) || s.desc || !s.has_seed ||
        pz_id_parse(r->game_id, &d, msg, sizeof msg) || s.params.kind != d.params.kind ||
        s.params.w != d.params.w || s.params.h != d.params.h)
        return;
    free(r->seeded);
    r->seeded = mr_strdup(seeded_id);
}

const char *replay_seeded_id(const replay *r)
{
    return r->seeded;
}
const char *replay_name(const replay *r, int slot)
{
    return slot >= 0 && slot < MATCH_SLOTS ? r->name[slot] : "";
}
size_t replay_move_count(const replay *r)
{
    return r->n;
}
const replay_move *replay_move_at(const replay *r, size_t i)
{
    return i < r->n ? &r->moves[i] : NULL;
}
bool replay_has_end(const replay *r)
{
    return r->has_end;
}
replay_end replay_get_end(const replay *r)
{
    return r->end;
}
bool replay_date(const replay *r, int64_t *unix_s)
{
    if (r->has_date && unix_s)
        *unix_s = r->date;
    return r->has_date;
}

/* ---- dates: proleptic Gregorian, days from 1970-01-01 (H. Hinnant's algorithms) ---- */

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

#define DATE_MAX 253402300799ll /* 9999-12-31T23:59:59Z */

bool replay_date_format(int64_t unix_s, char buf[21])
{
    if (unix_s < 0 || unix_s > DATE_MAX)
        return false;
    int64_t y;
    unsigned mo, d;
    civil_from_days(unix_s / 86400, &y, &mo, &d);
    int64_t s = unix_s % 86400;
    unsigned hms = (unsigned)s;
    snprintf(buf, 21, "%04u-%02u-%02uT%02u:%02u:%02uZ", (unsigned)y % 10000, mo % 100, d % 100,
             hms / 3600 % 100, hms / 60 % 60, hms % 60);
    return true;
}

const char *replay_date_parse(const char *s, size_t len, int64_t *unix_s)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
    const char *bad = "a date is YYYY-MM-DDTHH:MM:SSZ (UTC)";
    if (len != sizeof shape - 1)
        return bad;
    int v[14], k = 0;
    for (size_t i = 0; i < len; i++) {
        if (shape[i] == 'd') {
            if (s[i] < '0' || s[i] > '9')
                return bad;
            v[k++] = s[i] - '0';
        } else if (s[i] != shape[i]) {
            return bad;
        }
    }
    int y = v[0] * 1000 + v[1] * 100 + v[2] * 10 + v[3];
    unsigned mo = (unsigned)(v[4] * 10 + v[5]), d = (unsigned)(v[6] * 10 + v[7]);
    int hh = v[8] * 10 + v[9], mm = v[10] * 10 + v[11], ss = v[12] * 10 + v[13];
    static const unsigned mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || (mo == 2 && d == 29 && !leap) ||
        hh > 23 || mm > 59 || ss > 59)
        return "no such date and time (1970 to 9999, UTC)";
    *unix_s = days_from_civil(y, mo, d) * 86400 + hh * 3600 + mm * 60 + ss;
    return NULL;
}
