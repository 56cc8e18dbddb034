/* history_db.c: cl_history's storage on the match store (store/, st.h):
 * the same schema and queries the server uses, in the game's own file. */
#include "history_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "match.h"
#include "st.h"
#include "util.h"

struct hdb {
    st *s;
};

static const char *const mode_words[CL_HIST_MODES] = {"hotseat", "computer", "online"};

hdb *hdb_open(const char *path, bool want_ro, bool *read_only, char *err, size_t errlen)
{
    *read_only = want_ro;
    err[0] = '\0';
    if (!path || !path[0]) {
        snprintf(err, errlen, "no history file");
        return NULL;
    }
    /* Not writing (--no-save) and nothing there yet: quietly no history. */
    if (want_ro && access(path, F_OK) != 0)
        return NULL;
    /* A file there that we may not write is read as it is. */
    if (access(path, F_OK) == 0 && access(path, W_OK) != 0)
        want_ro = true;
    char why[512] = "";
    st *s = want_ro ? NULL : st_open(path, ST_OPEN_CREATE, why, sizeof why);
    if (!s) {
        /* A file we may read but not write still shows the races it has. */
        s = st_open(path, ST_OPEN_READONLY, err, errlen);
        if (!s) {
            if (why[0])
                snprintf(err, errlen, "%s", why);
            return NULL;
        }
        *read_only = true;
    }
    hdb *d = mr_alloc(1, sizeof *d);
    d->s = s;
    return d;
}

void hdb_close(hdb *d)
{
    if (!d)
        return;
    st_close(d->s);
    free(d);
}

static const char *kind_word(int kind)
{
    const pz_kind *k = pz_kind_by_id(kind);
    return k ? k->name : "?";
}

/* The desc form and hash of the puzzle game_id names (NULL if it does not
 * name one: then the record is refused by st_match_check). */
static char *desc_of(const char *game_id, uint64_t *hash)
{
    char err[160];
    pz_puzzle *pz = pz_from_id(game_id, err, sizeof err);
    *hash = 0;
    if (!pz)
        return NULL;
    char *desc = pz_kind_of(pz)->encode_desc(pz);
    *hash = mr_hash64(desc, strlen(desc));
    free(desc);
    char *id = pz_id_format_desc(pz);
    pz_kind_of(pz)->free_puzzle(pz);
    return id;
}

static void to_st(const cl_hist_race *r, st_match *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->mode, sizeof m->mode, "%s",
             mode_words[r->mode >= 0 && r->mode < CL_HIST_MODES ? r->mode : 0]);
    m->game_id = mr_strdup(r->game_id);
    m->desc_id = desc_of(r->game_id, &m->desc_hash);
    snprintf(m->kind, sizeof m->kind, "%s", kind_word(r->params.kind));
    m->width = r->params.w;
    m->height = r->params.h;
    snprintf(m->difficulty, sizeof m->difficulty, "%s", pz_difficulty_name(r->params.diff));
    m->start_utc_ms = r->started * 1000;
    m->winner = r->winner;
    m->ending = r->reason;
    m->game_no = r->game_no;
    m->series_len = r->series_len;
    for (int s = 0; s < 2; s++) {
        st_player *p = &m->p[s];
        snprintf(p->name, sizeof p->name, "%.*s", ST_NAME_MAX, r->name[s]);
        p->time_ms = r->time_ms[s];
        p->moves = r->moves[s];
        p->solved = r->solved[s];
        p->result = r->winner < 0 ? ST_NO_RESULT : r->winner == s ? ST_WON : ST_LOST;
    }
    /* Both logs merged by time, as the host accepted them. */
    m->nmoves = (size_t)r->nlog[0] + r->nlog[1];
    m->moves = m->nmoves ? mr_alloc(m->nmoves, sizeof *m->moves) : NULL;
    uint32_t i0 = 0, i1 = 0;
    for (size_t k = 0; k < m->nmoves; k++) {
        int s = i1 >= r->nlog[1] || (i0 < r->nlog[0] && r->log[0][i0].at_ms <= r->log[1][i1].at_ms) ? 0 : 1;
        const cl_hist_move *mv = s == 0 ? &r->log[0][i0++] : &r->log[1][i1++];
        m->moves[k] = (st_move){mv->at_ms, (uint8_t)s, mv->mv.type, mv->mv.dir, mv->mv.x, mv->mv.y};
    }
}

static void from_st(const st_match *m, cl_hist_race *r)
{
    memset(r, 0, sizeof *r);
    r->id = m->id;
    r->started = m->start_utc_ms / 1000;
    r->mode = 0;
    for (int i = 0; i < CL_HIST_MODES; i++)
        if (strcmp(m->mode, mode_words[i]) == 0)
            r->mode = i;
    r->me = -1;
    snprintf(r->game_id, sizeof r->game_id, "%s", m->game_id ? m->game_id : "");
    const pz_kind *k = pz_kind_by_name(m->kind);
    r->params.kind = k ? k->id : -1;
    r->params.w = m->width;
    r->params.h = m->height;
    r->params.diff = pz_difficulty_by_name(m->difficulty);
    r->winner = m->winner;
    r->reason = m->ending;
    r->game_no = m->game_no;
    r->series_len = m->series_len;
    for (int s = 0; s < 2; s++) {
        snprintf(r->name[s], sizeof r->name[s], "%s", m->p[s].name);
        r->time_ms[s] = m->p[s].time_ms;
        r->moves[s] = m->p[s].moves;
        r->solved[s] = m->p[s].solved;
    }
    for (size_t i = 0; i < m->nmoves; i++) {
        const st_move *mv = &m->moves[i];
        cl_hist_race_log(r, mv->player & 1, mv->ms, (pz_move){mv->type, mv->dir, mv->x, mv->y});
    }
}

const char *hdb_add(hdb *d, const cl_hist_race *r, char *err, size_t errlen)
{
    st_match m;
    to_st(r, &m);
    const char *why = st_match_check(&m);
    if (why) {
        /* Our bug or an odd race, not the file's: skip it, keep the history. */
        fprintf(stderr, "mazerace: history: race not recorded: %s\n", why);
        st_match_free(&m);
        return NULL;
    }
    st_match *one = &m;
    why = st_put(d->s, &one, 1);
    if (why)
        snprintf(err, errlen, "cannot record the race: %s", why);
    st_match_free(&m);
    return why ? err : NULL;
}

const char *hdb_page(hdb *d, int64_t before_id, int count, cl_hist_page *out, char *err, size_t errlen)
{
    st_match *ms = NULL;
    int n = 0;
    /* One more than asked tells whether there are older ones. */
    const char *why = st_recent(d->s, before_id, count + 1, &ms, &n);
    if (why) {
        snprintf(err, errlen, "cannot read the history: %s", why);
        return err;
    }
    out->n = n > count ? count : n;
    out->more = n > count;
    for (int i = 0; i < out->n; i++)
        from_st(&ms[i], &out->e[i]);
    st_matches_free(ms, n);
    return NULL;
}

/* Whether best time b was the computer's: in a race against the computer
 * the computer is slot 1 (scene_setup.c), and the solver has its name. */
static bool by_computer(hdb *d, const st_best *b)
{
    st_match m;
    bool found = false;
    if (st_get(d->s, b->match_id, &m, &found) || !found)
        return false;
    cl_hist_race r;
    memset(&r, 0, sizeof r);
    from_st(&m, &r);
    st_match_free(&m);
    bool bot = r.mode == CL_HIST_COMPUTER && strcmp(r.name[1], b->name) == 0;
    cl_hist_race_free(&r);
    return bot;
}

const char *hdb_bests(hdb *d, const char *game_id, const pz_params *p, const char *name, cl_hist_bests *out,
                      char *err, size_t errlen)
{
    st_best *b = NULL;
    int n = 0;
    /* The puzzle's best is a person's: the computer's times are left out
     * (the fastest few are looked at for the first not by the computer). */
    const char *why = st_best_times(d->s, game_id, 0, 16, &b, &n);
    for (int i = 0; !why && i < n && !out->have_puzzle; i++) {
        if (by_computer(d, &b[i]))
            continue;
        out->have_puzzle = true;
        out->puzzle_ms = b[i].time_ms;
        snprintf(out->puzzle_name, sizeof out->puzzle_name, "%s", b[i].name);
    }
    free(b);
    if (!why && name && name[0]) {
        st_best pb;
        bool found = false;
        why = st_personal_best(d->s, name, kind_word(p->kind), p->w, p->h, &pb, &found);
        if (!why && found) {
            out->have_personal = true;
            out->personal_ms = pb.time_ms;
        }
    }
    if (why) {
        snprintf(err, errlen, "cannot read best times: %s", why);
        return err;
    }
    return NULL;
}

const char *hdb_table(hdb *d, const char *name, cl_hist_table *out, char *err, size_t errlen)
{
    /* Every race, newest first, a page at a time (the worker's time, never a frame's). */
    int64_t before = 0;
    for (;;) {
        st_match *ms = NULL;
        int n = 0;
        const char *why = st_recent(d->s, before, ST_PAGE_MAX, &ms, &n);
        if (why) {
            snprintf(err, errlen, "cannot read best times: %s", why);
            return err;
        }
        for (int i = 0; i < n; i++) {
            cl_hist_race r;
            from_st(&ms[i], &r);
            cl_hist_table_add(out, &r, name);
            cl_hist_race_free(&r);
        }
        before = n ? ms[n - 1].id : 0;
        st_matches_free(ms, n);
        if (n < ST_PAGE_MAX)
            return NULL;
    }
}

const char *hdb_race(hdb *d, int64_t id, cl_hist_race *out, char *err, size_t errlen)
{
    st_match m;
    bool found = false;
    const char *why = st_get(d->s, id, &m, &found);
    if (why) {
        snprintf(err, errlen, "cannot read the race: %s", why);
        return err;
    }
    if (found)
        from_st(&m, out);
    st_match_free(&m);
    return NULL;
}
