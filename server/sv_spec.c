/* sv_spec.c: spectators: watching a room, the list of rooms in progress (their sends are queued in
 * sv_specq.c). */
#include <stdlib.h>
#include <string.h>

#include "sv_internal.h"
#include "sv_log.h"
#include "sv_loglimit.h"
#include "sv_roommsg.h"
#include "sv_rooms.h"
#include "sv_send.h"
#include "sv_spec.h"
#include "sv_specq.h"
#include "util.h"

void sv_spec_free(sv_t *sv)
{
    sv_specq_free(sv);
    free(sv->spec.races);
    sv->spec.races = NULL;
}

/* ---- joining and leaving ---- */

static void unlink_spec(sv_t *sv, sv_client *c)
{
    sv_room *room = c->spec.watch;
    if (c->spec.prev)
        c->spec.prev->spec.next = c->spec.next;
    else
        room->spec_head = c->spec.next;
    if (c->spec.next)
        c->spec.next->spec.prev = c->spec.prev;
    c->spec.next = c->spec.prev = NULL;
    c->spec.watch = NULL;
    room->nspec--;
    sv->spec.count--;
    sv->st.spectators_now = sv->spec.count;
}

static void send_watch_start(sv_t *sv, sv_room *room, sv_client *to)
{
    int len = match_game_id(room->m, sv->idbuf, WIRE_GAME_ID_MAX + 1);
    if (len <= 0 || len > WIRE_GAME_ID_MAX)
        return; /* refused at creation: cannot happen */
    wire_msg *m = sv->msg;
    memset(m, 0, sizeof *m);
    m->type = WIRE_WATCH_START;
    wire_watch_start *s = &m->wstart;
    memcpy(s->code, room->code, sizeof s->code);
    s->game_no = (uint16_t)match_game_no(room->m);
    int64_t in = (int64_t)match_start_ms(room->m) - (int64_t)sv->now_ms;
    s->start_in_ms = (int32_t)(in > INT32_MAX ? INT32_MAX : in < -INT32_MAX ? -INT32_MAX : in);
    s->desc_hash = match_desc_hash(room->m);
    int series = match_series_len(room->m);
    s->series_len = (uint8_t)(series < 1 ? 1 : series > WIRE_MAX_SERIES ? WIRE_MAX_SERIES : series);
    for (int k = 0; k < MATCH_SLOTS; k++) {
        int sc = match_score(room->m, k);
        s->score[k] = (uint8_t)(sc < 0 ? 0 : sc > 255 ? 255 : sc);
    }
    s->game_id = sv->idbuf;
    s->game_id_len = (uint16_t)len;
    if (to)
        sv_specq_send(sv, to, m);
    else
        sv_specq_send_room(sv, room, m);
}

void sv_spec_match_start(sv_t *sv, sv_room *room)
{
    if (room->spec_head)
        send_watch_start(sv, room, NULL);
}

bool sv_spec_refuse_full(sv_t *sv, sv_client *c, const sv_room *room)
{
    const char *full = NULL;
    if (room->nspec >= sv->cfg.room_spectators)
        full = sv->cfg.room_spectators == 0 ? "this server does not allow watching"
                                            : "this room has as many spectators as it takes";
    else if (sv->spec.count >= sv->cfg.max_spectators)
        full = "the server has as many spectators as it takes";
    if (!full)
        return false;
    sv->st.watch_refused++;
    sv_logx_limited(&sv->log, &sv->lim_refused, sv->now_ms, SV_LOG_INFO, "watch_refused",
                    SV_CLIENT_FIELDS(c, room->code, full), "client #%u %s: watching room %s refused: %s",
                    c->id, c->addr, room->code, full);
    sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_WATCH_FULL, full);
    return true;
}

void sv_spec_watch(sv_t *sv, sv_client *c, sv_room *room)
{
    if (sv_spec_refuse_full(sv, c, room))
        return;
    c->spec.watch = room;
    c->spec.prev = NULL;
    c->spec.next = room->spec_head;
    if (room->spec_head)
        room->spec_head->spec.prev = c;
    room->spec_head = c;
    room->nspec++;
    sv->spec.count++;
    sv->st.spectators_now = sv->spec.count;
    sv->st.watches++;
    sv_loge(&sv->log, SV_LOG_INFO, "watching", room->code, c->name, NULL,
            "room %s: #%u \"%s\" watching (%d spectators)", room->code, c->id, c->name, room->nspec);
    /* Everyone sees the new count; the newcomer's copy is its first message. */
    sv_roommsg_state_all(sv, room);
    int phase = match_phase(room->m);
    if (phase == MATCH_WAITING)
        return;
    /* Catching up: the game as it stands, both players' moves so far, and
     * its end if it is over; the live PROGRESS follows in order. */
    send_watch_start(sv, room, c);
    sv_roommsg_move_logs(sv, room, 0, c, sv_specq_send);
    if (phase == MATCH_FINISHED) {
        sv_roommsg_fill_match_end(sv->msg, match_last_result(room->m));
        sv_specq_send(sv, c, sv->msg);
    }
}

void sv_spec_leave(sv_t *sv, sv_client *c)
{
    sv_room *room = c->spec.watch;
    if (!room)
        return;
    unlink_spec(sv, c);
    sv_loge(&sv->log, SV_LOG_INFO, "stopped_watching", room->code, c->name, NULL,
            "room %s: #%u \"%s\" stopped watching (%d spectators)", room->code, c->id, c->name, room->nspec);
    if (room->m)
        sv_roommsg_state_all(sv, room);
}

void sv_spec_room_closed(sv_t *sv, sv_room *room)
{
    if (!room->spec_head)
        return;
    wire_msg *m = sv->msg;
    memset(m, 0, sizeof *m);
    m->type = WIRE_WATCH_END;
    strcpy(m->error.text, "the room has closed");
    sv_specq_send_room(sv, room, m);
    /* Bounded by the room's spectators. */
    while (room->spec_head)
        unlink_spec(sv, room->spec_head);
}

/* ---- rooms in progress ---- */

static void build_races(sv_t *sv)
{
    /* A scan of the room table costs up to 65536 slots: however many ask,
     * it runs at most once a second, or every 20 ms while races start and
     * end (a room's phase change clears races_valid). */
    uint64_t age = sv->now_ms - sv->spec.races_ms;
    if (sv->spec.races && ((sv->spec.races_valid && age < 1000) || age < 20))
        return;
    if (!sv->spec.races)
        sv->spec.races = mr_alloc(1, sizeof *sv->spec.races);
    wire_room_list *l = sv->spec.races;
    memset(l, 0, sizeof *l);
    int total = 0;
    for (int i = 0; i < sv_rooms_capacity(sv->rooms); i++) {
        sv_room *r = sv_rooms_at(sv->rooms, i);
        int phase = r->m ? match_phase(r->m) : MATCH_WAITING;
        if (phase != MATCH_COUNTDOWN && phase != MATCH_RACING)
            continue;
        total++;
        if (l->count >= WIRE_ROOM_LIST_MAX)
            continue;
        wire_room_entry *e = &l->room[l->count++];
        memcpy(e->code, r->code, sizeof e->code);
        e->phase = (uint8_t)phase;
        e->params = *pz_params_of(match_puzzle(r->m));
        e->spectators = (uint16_t)(r->nspec > 65535 ? 65535 : r->nspec);
        for (int s = 0; s < MATCH_SLOTS; s++) {
            txt_clean(e->name[s], sizeof e->name[s], match_name(r->m, s));
            if (!txt_name_ok(e->name[s], strlen(e->name[s])))
                e->name[s][0] = '\0';
        }
    }
    l->total = (uint16_t)(total > 65535 ? 65535 : total);
    sv->spec.races_ms = sv->now_ms;
    sv->spec.races_valid = true;
}

int sv_spec_races(sv_t *sv)
{
    build_races(sv);
    return sv->spec.races->total;
}

void sv_spec_list(sv_t *sv, sv_client *c)
{
    build_races(sv);
    wire_msg *m = sv->msg;
    m->type = WIRE_ROOM_LIST;
    m->list = *sv->spec.races;
    sv_send(sv, c, m);
}
