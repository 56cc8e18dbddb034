/* clt_history.c: finished races as the game's history keeps them, for the client tests (clt_history.h). */
#include "clt_history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

st_match *clt_record(const char *mode, const char *game_id, int64_t started_s, const char *name0,
                     const char *name1, int winner, uint64_t ms, uint64_t other_ms)
{
    char err[160];
    pz_puzzle *pz = pz_from_id(game_id, err, sizeof err);
    if (!pz)
        return NULL;
    const pz_kind *k = pz_kind_of(pz);
    const pz_params *p = pz_params_of(pz);
    st_match *r = mr_alloc(1, sizeof *r);
    memset(r, 0, sizeof *r);
    char *desc = k->encode_desc(pz);
    r->desc_hash = mr_hash64(desc, strlen(desc));
    free(desc);
    r->desc_id = pz_id_format_desc(pz);
    r->game_id = mr_strdup(game_id);
    snprintf(r->mode, sizeof r->mode, "%s", mode);
    snprintf(r->kind, sizeof r->kind, "%s", k->name);
    r->width = p->w;
    r->height = p->h;
    snprintf(r->difficulty, sizeof r->difficulty, "%s", pz_difficulty_name(p->diff));
    k->free_puzzle(pz);
    r->start_utc_ms = started_s * 1000;
    r->winner = winner;
    r->ending = winner < 0 ? ST_END_ABORTED : ST_END_SOLVED;
    r->game_no = r->series_len = 1;
    const char *names[2] = {name0, name1};
    for (int s = 0; s < 2; s++) {
        snprintf(r->p[s].name, sizeof r->p[s].name, "%s", names[s]);
        r->p[s].solved = s == winner;
        r->p[s].time_ms = winner < 0 || s == winner ? ms : other_ms;
        r->p[s].result = winner < 0 ? ST_NO_RESULT : s == winner ? ST_WON : ST_LOST;
    }
    return r;
}

void clt_record_move(st_match *r, int slot, uint32_t ms, pz_move mv)
{
    r->moves = mr_realloc(r->moves, r->nmoves + 1, sizeof *r->moves);
    r->moves[r->nmoves++] = (st_move){ms, (uint8_t)slot, mv.type, mv.dir, mv.x, mv.y};
    r->p[slot].moves++;
}
