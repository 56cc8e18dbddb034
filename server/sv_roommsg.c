/* sv_roommsg.c: a room's messages, filled from its match: ROOM_STATE, MATCH_START, MATCH_END, MOVE_LOG, to
 * its players (and ROOM_STATE to its spectators too). */
#include <stdlib.h>
#include <string.h>

#include "sv_internal.h"
#include "sv_roommsg.h"
#include "sv_send.h"
#include "sv_specq.h"
#include "util.h"

static uint8_t clamp_u8(int v)
{
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

static uint32_t clamp_u32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

void sv_roommsg_fill_room_state(sv_t *sv, sv_room *room, int slot, wire_msg *m)
{
    memset(m, 0, sizeof *m);
    m->type = WIRE_ROOM_STATE;
    wire_room_state *rs = &m->room;
    memcpy(rs->code, room->code, sizeof rs->code);
    rs->your_slot = (uint8_t)slot;
    rs->phase = (uint8_t)match_phase(room->m);
    rs->params = *pz_params_of(match_puzzle(room->m));
    rs->series_len = clamp_u8(match_series_len(room->m));
    rs->spectators = (uint16_t)(room->nspec > 65535 ? 65535 : room->nspec);
    for (int s = 0; s < MATCH_SLOTS; s++) {
        rs->score[s] = clamp_u8(match_score(room->m, s));
        wire_player *p = &rs->player[s];
        p->present = match_present(room->m, s);
        if (!p->present)
            continue;
        p->connected = match_connected(room->m, s);
        p->ready = match_is_ready(room->m, s);
        p->rematch = match_wants_rematch(room->m, s);
        txt_clean(p->name, sizeof p->name, match_name(room->m, s));
        if (!p->name[0])
            strcpy(p->name, "?");
    }
    (void)sv;
}

static void send_room_state(sv_t *sv, sv_room *room, int slot)
{
    sv_client *c = room->player[slot];
    if (!c)
        return;
    sv_roommsg_fill_room_state(sv, room, slot, sv->msg);
    sv_send(sv, c, sv->msg);
}

void sv_roommsg_state_all(sv_t *sv, sv_room *room)
{
    for (int s = 0; s < MATCH_SLOTS; s++)
        send_room_state(sv, room, s);
    if (room->spec_head) {
        sv_roommsg_fill_room_state(sv, room, WIRE_SLOT_WATCHER, sv->msg);
        sv_specq_send_room(sv, room, sv->msg);
    }
}

void sv_roommsg_match_start(sv_t *sv, sv_room *room, int slot)
{
    sv_client *c = room->player[slot];
    if (!c)
        return;
    int len = match_game_id(room->m, sv->idbuf, WIRE_GAME_ID_MAX + 1);
    if (len <= 0 || len > WIRE_GAME_ID_MAX) {
        /* Refused at creation, so this is our bug: say so, do not crash. */
        sv_send_error(sv, c, WIRE_ERROR, WIRE_ERR_INTERNAL, "game ID too long to send");
        return;
    }
    wire_msg *m = sv->msg;
    memset(m, 0, sizeof *m);
    m->type = WIRE_MATCH_START;
    wire_match_start *s = &m->start;
    s->slot = (uint8_t)slot;
    s->game_no = (uint16_t)match_game_no(room->m);
    s->token = match_token(room->m, slot);
    int64_t in = (int64_t)match_start_ms(room->m) - (int64_t)sv->now_ms;
    s->start_in_ms = (int32_t)(in > INT32_MAX ? INT32_MAX : in < -INT32_MAX ? -INT32_MAX : in);
    s->desc_hash = match_desc_hash(room->m);
    s->series_len = clamp_u8(match_series_len(room->m));
    s->score[0] = clamp_u8(match_score(room->m, 0));
    s->score[1] = clamp_u8(match_score(room->m, 1));
    s->game_id = sv->idbuf;
    s->game_id_len = (uint16_t)len;
    sv_send(sv, c, m);
}

void sv_roommsg_fill_match_end(wire_msg *m, const match_result *res)
{
    memset(m, 0, sizeof *m);
    m->type = WIRE_MATCH_END;
    wire_match_end *e = &m->end;
    e->winner = res->winner >= 0 && res->winner < MATCH_SLOTS ? (uint8_t)res->winner : WIRE_SLOT_NONE;
    e->reason = (uint8_t)res->reason;
    for (int s = 0; s < MATCH_SLOTS; s++) {
        e->time_ms[s] = clamp_u32(res->time_ms[s]);
        e->solved[s] = res->solved[s];
        e->moves[s] = res->moves[s];
        e->score[s] = clamp_u8(res->score[s]);
    }
    e->game_no = (uint16_t)res->game_no;
    e->series_len = clamp_u8(res->series_len);
    e->series_over = res->series_over;
}

void sv_roommsg_match_end(sv_t *sv, sv_room *room, int slot, const match_result *res)
{
    sv_client *c = room->player[slot];
    if (!c)
        return;
    sv_roommsg_fill_match_end(sv->msg, res);
    sv_send(sv, c, sv->msg);
}

/* The accepted moves of both slots (first_slot's first), so that a
 * resuming client rebuilds its board and the opponent's ghost, or a
 * spectator both boards. The last message has last = true. */
void sv_roommsg_move_logs(sv_t *sv, sv_room *room, int first_slot, sv_client *c,
                          void (*send)(sv_t *, sv_client *, const wire_msg *))
{
    wire_msg *m = sv->msg;
    for (int k = 0; k < MATCH_SLOTS; k++) {
        int whose = k == 0 ? first_slot : 1 - first_slot;
        size_t n = match_move_log(room->m, whose, NULL, 0);
        pz_move *log = mr_alloc(n, sizeof *log);
        match_move_log(room->m, whose, log, n);
        size_t first = 0;
        do {
            size_t cnt = n - first > WIRE_MOVE_LOG_MAX ? WIRE_MOVE_LOG_MAX : n - first;
            memset(m, 0, sizeof *m);
            m->type = WIRE_MOVE_LOG;
            m->log.slot = (uint8_t)whose;
            m->log.first = (uint32_t)first;
            m->log.count = (uint16_t)cnt;
            if (cnt)
                memcpy(m->log.moves, log + first, cnt * sizeof *log);
            first += cnt;
            m->log.last = k == MATCH_SLOTS - 1 && first >= n;
            send(sv, c, m);
        } while (first < n);
        free(log);
    }
}
