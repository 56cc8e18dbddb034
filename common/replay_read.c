/* replay_read.c: the replay text reader (docs/replay.md): strict, fails closed with line and column. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_impl.h"
#include "util.h"

/* Where the reader is in the file: each line kind may only come where the
 * format puts it. */
enum stage { ST_VERSION, ST_GAME, ST_SEEDED_OR_P0, ST_P1, ST_DATE_OR_MOVES, ST_MOVES, ST_DONE };

typedef struct rd {
    pz_error *e;
    int line;
    const char *l; /* the current line, without its end */
    size_t len;
    replay *r;
    pz_params params; /* of the game line */
    int stage;
} rd;

static bool fail(rd *d, size_t at, const char *msg)
{
    pz_error_set(d->e, d->line, (int)at + 1, "%s", msg);
    return false;
}

/* The field starting at *pos (up to the next space or the end of the
 * line): its start and length; *pos moves past one separating space. */
static bool field(rd *d, size_t *pos, size_t *start, size_t *flen, const char *what)
{
    size_t a = *pos, b = a;
    while (b < d->len && d->l[b] != ' ')
        b++;
    if (b == a) {
        char msg[96];
        snprintf(msg, sizeof msg, a < d->len ? "one space between fields; %s expected" : "%s expected", what);
        return fail(d, a, msg);
    }
    *start = a;
    *flen = b - a;
    *pos = b < d->len ? b + 1 : b;
    if (b < d->len && b + 1 == d->len)
        return fail(d, b, "space at the end of the line");
    return true;
}

static bool at_end(rd *d, size_t pos)
{
    return pos >= d->len || fail(d, pos, "unexpected text at the end of the line");
}

/* A decimal 0..UINT32_MAX, no sign, no leading zero. */
static bool number(rd *d, size_t a, size_t n, uint32_t *out, const char *what)
{
    uint64_t v = 0;
    bool ok = n > 0 && n <= 10 && !(n > 1 && d->l[a] == '0');
    for (size_t i = 0; ok && i < n; i++) {
        ok = d->l[a + i] >= '0' && d->l[a + i] <= '9';
        v = v * 10 + (uint64_t)(d->l[a + i] - '0');
    }
    if (!ok || v > UINT32_MAX) {
        char msg[96];
        snprintf(msg, sizeof msg, "%s must be a number from 0 to 4294967295", what);
        return fail(d, a, msg);
    }
    *out = (uint32_t)v;
    return true;
}

static bool slot_field(rd *d, size_t a, size_t n, int *slot, bool dash_ok)
{
    if (n == 1 && (d->l[a] == '0' || d->l[a] == '1')) {
        *slot = d->l[a] - '0';
        return true;
    }
    if (dash_ok && n == 1 && d->l[a] == '-') {
        *slot = MATCH_NONE;
        return true;
    }
    return fail(d, a, dash_ok ? "the winner is 0, 1 or -" : "a player is 0 or 1");
}

/* The rest of the line from pos as a NUL-terminated copy; NULL if it holds a NUL. */
static char *rest(rd *d, size_t pos)
{
    if (memchr(d->l + pos, '\0', d->len - pos)) {
        fail(d, (size_t)((const char *)memchr(d->l + pos, '\0', d->len - pos) - d->l), "NUL byte");
        return NULL;
    }
    return mr_strndup(d->l + pos, d->len - pos);
}

/* The rest of the line as a game ID, parsed into *pid: the malloc'd text,
 * or NULL after a failure at pos. */
static char *id_field(rd *d, size_t pos, pz_id *pid)
{
    char *id = rest(d, pos);
    char msg[160];
    if (id && pz_id_parse(id, pid, msg, sizeof msg)) {
        fail(d, pos, msg);
        free(id);
        return NULL;
    }
    return id;
}

static bool game_line(rd *d, size_t pos)
{
    pz_id pid;
    char *id = id_field(d, pos, &pid);
    if (!id)
        return false;
    char msg[160];
    pz_puzzle *pz = NULL;
    if (!pid.desc)
        fail(d, pos, "the game ID must be in description form (kind:WxH:description)");
    else if (!(pz = pz_from_id(id, msg, sizeof msg)))
        fail(d, pos, msg);
    if (pz) {
        pz_kind_of(pz)->free_puzzle(pz);
        d->params = pid.params;
        d->r = replay_new(id, "");
        d->r->game_line = d->line;
    }
    free(id);
    return pz != NULL;
}

static bool seeded_line(rd *d, size_t pos)
{
    pz_id pid;
    char *id = id_field(d, pos, &pid);
    if (!id)
        return false;
    bool ok = false;
    if (pid.desc || !pid.has_seed)
        fail(d, pos, "the seeded line needs a seeded game ID (kind:WxH:difficulty#seed)");
    else if (pid.params.kind != d->params.kind || pid.params.w != d->params.w || pid.params.h != d->params.h)
        fail(d, pos, "the seeded ID names another kind or size than the game line");
    else
        ok = true;
    if (ok) {
        free(d->r->seeded);
        d->r->seeded = id;
    } else {
        free(id);
    }
    return ok;
}

static bool player_line(rd *d, size_t pos, int want)
{
    size_t a, n;
    int slot;
    if (!field(d, &pos, &a, &n, "the player (0 or 1)") || !slot_field(d, a, n, &slot, false))
        return false;
    if (slot != want)
        return fail(d, a, want == 0 ? "player 0 comes first" : "player 1 comes after player 0");
    if (pos >= d->len || d->l[pos - 1] != ' ')
        return fail(d, pos, "the player's name expected");
    const char *why = replay_name_check(d->l + pos, d->len - pos);
    if (why)
        return fail(d, pos, why);
    memcpy(d->r->name[slot], d->l + pos, d->len - pos);
    d->r->name[slot][d->len - pos] = '\0';
    return true;
}

static bool date_line(rd *d, size_t pos)
{
    int64_t t;
    const char *why = replay_date_parse(d->l + pos, d->len - pos, &t);
    if (why)
        return fail(d, pos, why);
    d->r->date = t;
    d->r->has_date = true;
    return true;
}

static bool move_line(rd *d, size_t pos)
{
    size_t a, n;
    replay_move m = {0, 0, {0, 0, 0, 0}, d->line, 0};
    if (!field(d, &pos, &a, &n, "the time in ms") || !number(d, a, n, &m.t_ms, "the time"))
        return false;
    if (d->r->n && m.t_ms < d->r->moves[d->r->n - 1].t_ms)
        return fail(d, a, "moves must be in time order (this one is earlier than the one before)");
    if (!field(d, &pos, &a, &n, "the player (0 or 1)") || !slot_field(d, a, n, &m.slot, false))
        return false;
    if (!field(d, &pos, &a, &n, "the move"))
        return false;
    const char *why = pz_move_parse(d->l + a, n, &m.mv);
    if (why)
        return fail(d, a, why);
    if (d->r->n >= REPLAY_MAX_MOVES)
        return fail(d, 0, "too many moves for a replay");
    m.col = (int)a + 1;
    if (!at_end(d, pos))
        return false;
    replay_push(d->r, &m);
    return true;
}

static bool end_line(rd *d, size_t pos)
{
    size_t a, n, wa;
    uint32_t t;
    int winner, reason = -1;
    if (!field(d, &pos, &a, &n, "the end time in ms") || !number(d, a, n, &t, "the end time"))
        return false;
    if (d->r->n && t < d->r->moves[d->r->n - 1].t_ms)
        return fail(d, a, "the game cannot end before its last move");
    if (!field(d, &pos, &a, &n, "how the game ended"))
        return false;
    for (int i = 0; i <= MATCH_END_ABORTED; i++)
        if (strlen(replay_end_word(i)) == n && memcmp(replay_end_word(i), d->l + a, n) == 0)
            reason = i;
    if (reason < 0)
        return fail(d, a, "the ending is solved, forfeit, both-left or aborted");
    if (!field(d, &pos, &wa, &n, "the winner (0, 1 or -)") || !slot_field(d, wa, n, &winner, true) ||
        !at_end(d, pos))
        return false;
    const char *why = replay_set_end(d->r, reason, winner, t);
    d->r->end_line = d->line;
    return why ? fail(d, wa, why) : true;
}

static bool keyword_is(const rd *d, size_t klen, const char *kw)
{
    return strlen(kw) == klen && memcmp(d->l, kw, klen) == 0;
}

/* One line that is neither blank nor a comment. */
static bool line(rd *d)
{
    size_t k = 0;
    while (k < d->len && d->l[k] != ' ')
        k++;
    size_t pos = k < d->len ? k + 1 : k;
    if (d->stage == ST_VERSION) {
        char want[32];
        snprintf(want, sizeof want, "mazerace-replay %d", REPLAY_VERSION);
        if (!keyword_is(d, k, "mazerace-replay"))
            return fail(d, 0, "not a mazerace replay (the first line is \"mazerace-replay 1\")");
        if (d->len != strlen(want) || memcmp(d->l, want, d->len) != 0)
            return fail(d, pos, "unsupported replay version (this build reads version 1)");
        d->stage = ST_GAME;
        return true;
    }
    if (k < d->len && k + 1 == d->len)
        return fail(d, k, "space at the end of the line");
    switch (d->stage) {
    case ST_GAME:
        if (!keyword_is(d, k, "game"))
            return fail(d, 0, "the game line (game kind:WxH:description) expected");
        d->stage = ST_SEEDED_OR_P0;
        return game_line(d, pos);
    case ST_SEEDED_OR_P0:
        if (keyword_is(d, k, "seeded") && !d->r->seeded[0])
            return seeded_line(d, pos);
        if (!keyword_is(d, k, "player"))
            return fail(d, 0, "the player 0 line expected");
        d->stage = ST_P1;
        return player_line(d, pos, 0);
    case ST_P1:
        if (!keyword_is(d, k, "player"))
            return fail(d, 0, "the player 1 line expected");
        d->stage = ST_DATE_OR_MOVES;
        return player_line(d, pos, 1);
    case ST_DATE_OR_MOVES:
    case ST_MOVES:
        if (d->stage == ST_DATE_OR_MOVES && keyword_is(d, k, "date")) {
            d->stage = ST_MOVES;
            return date_line(d, pos);
        }
        d->stage = ST_MOVES;
        if (keyword_is(d, k, "move"))
            return move_line(d, pos);
        if (keyword_is(d, k, "end")) {
            d->stage = ST_DONE;
            return end_line(d, pos);
        }
        return fail(d, 0, "a move or end line expected");
    default:
        return fail(d, 0, "nothing may follow the end line");
    }
}

replay *replay_parse(const char *text, size_t len, pz_error *e)
{
    rd d = {e, 0, NULL, 0, NULL, {0, 0, 0, 0}, ST_VERSION};
    if (!text || len > REPLAY_MAX_BYTES) {
        pz_error_set(e, 0, 0, "a replay is at most %u MiB", REPLAY_MAX_BYTES >> 20);
        return NULL;
    }
    size_t at = 0;
    bool ok = true;
    while (ok && at < len) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        d.line++;
        d.l = text + at;
        d.len = end - at;
        if (d.len && d.l[d.len - 1] == '\r') /* CRLF files read as LF */
            d.len--;
        if (d.len && d.l[0] != '#')
            ok = line(&d);
        at = end + 1;
    }
    if (ok && d.stage != ST_DONE) {
        d.line++;
        d.len = 0;
        ok = fail(&d, 0,
                  d.stage == ST_VERSION ? "empty file: not a mazerace replay" : "the replay has no end line");
    }
    if (!ok) {
        replay_destroy(d.r);
        return NULL;
    }
    return d.r;
}

replay *replay_read_file(const char *path, pz_error *e)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        pz_error_set(e, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    /* Bounded: a replay is at most REPLAY_MAX_BYTES, whatever the file is. */
    size_t cap = 1 << 16, len = 0, n;
    char *text = mr_alloc(cap, 1);
    while ((n = fread(text + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len > REPLAY_MAX_BYTES)
            break;
        if (len == cap)
            text = mr_realloc(text, cap *= 2, 1);
    }
    int err = ferror(f) ? errno : 0;
    fclose(f);
    replay *r = NULL;
    if (err)
        pz_error_set(e, 0, 0, "cannot read: %s", strerror(err));
    else
        r = replay_parse(text, len, e);
    free(text);
    return r;
}
