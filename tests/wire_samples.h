/* wire_samples.h: a well-formed sample of every message type, shared by test_wire.c and test_wire_golden.c.
 */
#ifndef MR_WIRE_SAMPLES_H
#define MR_WIRE_SAMPLES_H

#include <string.h>

#include "match.h"
#include "wire.h"
#include "wire_msgs.h"

static const char *const long_id = "maze:30x20:hard#18446744073709551615";

/* A well-formed sample of each message type, with fields that are not all
 * zero so a swapped or dropped field shows. */
static void sample(int type, wire_msg *m)
{
    memset(m, 0, sizeof *m);
    m->type = (uint8_t)type;
    switch (type) {
    case WIRE_HELLO:
        m->hello.magic = WIRE_MAGIC;
        m->hello.version = WIRE_VERSION;
        strcpy(m->hello.name, "Zo\xc3\xab"); /* UTF-8 e-diaeresis */
        break;
    case WIRE_WELCOME:
        m->welcome.player_id = 0xA1B2C3D4u;
        strcpy(m->welcome.server_name, "lan box");
        break;
    case WIRE_REFUSED:
    case WIRE_ERROR:
        m->error.code = WIRE_ERR_VERSION;
        strcpy(m->error.text, "version mismatch: server 1, client 2");
        break;
    case WIRE_SHUTDOWN:
        strcpy(m->error.text, "server shutting down");
        break;
    case WIRE_REJECT:
        m->error.seq = 0x01020304u;
        m->error.code = MATCH_REJ_ILLEGAL;
        strcpy(m->error.text, "wall in the way");
        break;
    case WIRE_CREATE_ROOM:
        m->create.by_id = false;
        m->create.params = (pz_params){PZ_ICE, 25, 20, PZ_HARD};
        m->create.has_seed = true;
        m->create.seed = 0x0102030405060708ull;
        m->create.series_len = 5;
        break;
    case WIRE_JOIN_ROOM:
        strcpy(m->join.code, "AB3XY");
        break;
    case WIRE_QUICK_MATCH:
    case WIRE_LEAVE_ROOM:
    case WIRE_REMATCH:
        break;
    case WIRE_READY:
        m->ready.ready = true;
        break;
    case WIRE_RESUME:
        strcpy(m->resume.code, "ZZ999");
        m->resume.slot = 1;
        for (int i = 0; i < MATCH_TOKEN_BYTES; i++)
            m->resume.token.b[i] = (uint8_t)(0xF0 - i);
        break;
    case WIRE_MOVE:
        m->move.seq = 77;
        m->move.move = (pz_move){PZ_MOVE_ROTATE_CCW, 0, 513, 1000};
        break;
    case WIRE_ACK:
        m->ack.seq = 78;
        m->ack.moves = 12;
        m->ack.solved = true;
        break;
    case WIRE_ROOM_STATE:
        strcpy(m->room.code, "HJKMN");
        m->room.your_slot = 1;
        m->room.phase = MATCH_COUNTDOWN;
        m->room.params = (pz_params){PZ_PIPES, 6, 4, PZ_MEDIUM};
        m->room.series_len = 3;
        m->room.score[0] = 1;
        m->room.score[1] = 2;
        m->room.player[0] = (wire_player){true, true, true, false, "ann"};
        m->room.player[1] = (wire_player){true, false, false, true, "bob"};
        m->room.spectators = 515;
        break;
    case WIRE_WATCH:
        strcpy(m->join.code, "QRS23");
        break;
    case WIRE_LIST_ROOMS:
        break;
    case WIRE_WATCH_END:
        strcpy(m->error.text, "the room has closed");
        break;
    case WIRE_WATCH_AT:
        strcpy(m->watch_at.code, "QRS23");
        m->watch_at.port = 256; /* one byte from 0: expect_bad makes it 0 */
        break;
    case WIRE_WATCH_START:
        strcpy(m->wstart.code, "HJKMN");
        m->wstart.game_no = 2;
        m->wstart.start_in_ms = -4321;
        m->wstart.desc_hash = 0x0102030405060708ull;
        m->wstart.series_len = 3;
        m->wstart.score[0] = 1;
        m->wstart.score[1] = 0;
        m->wstart.game_id = long_id;
        m->wstart.game_id_len = (uint16_t)strlen(long_id);
        break;
    case WIRE_ROOM_LIST:
        m->list.total = 700;
        m->list.count = 2;
        m->list.room[0] =
            (wire_room_entry){"ABCDE", MATCH_RACING, {PZ_SUM, 5, 4, PZ_HARD}, 3, {"ann", "bob"}};
        m->list.room[1] =
            (wire_room_entry){"XYZ23", MATCH_COUNTDOWN, {PZ_ICE, 25, 20, PZ_EASY}, 0, {"c", ""}};
        break;
    case WIRE_MATCH_START:
        m->start.slot = 1;
        m->start.game_no = 300;
        for (int i = 0; i < MATCH_TOKEN_BYTES; i++)
            m->start.token.b[i] = (uint8_t)(0x11 * (i + 1));
        m->start.start_in_ms = -1234;
        m->start.desc_hash = 0x8877665544332211ull;
        m->start.series_len = 7;
        m->start.score[0] = 3;
        m->start.score[1] = 1;
        m->start.game_id = long_id;
        m->start.game_id_len = (uint16_t)strlen(long_id);
        break;
    case WIRE_PROGRESS:
        m->progress.slot = 1;
        m->progress.move = (pz_move){PZ_MOVE_STEP, PZ_LEFT, 0, 0};
        m->progress.moves = 99;
        m->progress.x = -1;
        m->progress.y = 999;
        m->progress.path_len = 7;
        m->progress.value = -45;
        m->progress.solved = false;
        break;
    case WIRE_MATCH_END:
        m->end.winner = WIRE_SLOT_NONE;
        m->end.reason = MATCH_END_BOTH_LEFT;
        m->end.time_ms[0] = 65000;
        m->end.time_ms[1] = 70001;
        m->end.solved[1] = true;
        m->end.moves[0] = 40;
        m->end.moves[1] = 41;
        m->end.game_no = 2;
        m->end.series_len = 3;
        m->end.score[0] = 1;
        m->end.score[1] = 1;
        m->end.series_over = true;
        break;
    case WIRE_REMATCH_OFFER:
        m->rematch_offer.slot = 1;
        break;
    case WIRE_DESC_REQUEST:
        m->desc_req.offset = 60000;
        break;
    case WIRE_DESC_CHUNK:
        m->desc.game_no = 2;
        m->desc.desc_hash = 0x1122334455667788ull;
        m->desc.total = 70000;
        m->desc.offset = 60000;
        m->desc.count = 9;
        m->desc.bytes = "sum:5x4:9";
        break;
    case WIRE_MOVE_LOG:
        m->log.slot = 0;
        m->log.first = 256;
        m->log.count = 3;
        m->log.last = true;
        m->log.moves[0] = (pz_move){PZ_MOVE_STEP, PZ_UP, 0, 0};
        m->log.moves[1] = (pz_move){PZ_MOVE_ROTATE_CW, 0, 5, 3};
        m->log.moves[2] = (pz_move){PZ_MOVE_STEP, PZ_RIGHT, 0, 0};
        break;
    case WIRE_REPLAY_REQUEST:
        m->replay_req = (wire_replay_req){.req = 7, .match_id = 0x123456789Aull, .offset = 60000};
        break;
    case WIRE_REPLAY_CHUNK:
        m->replay = (wire_replay_chunk){
            .req = 8, .match_id = 42, .total = 100, .offset = 60, .count = 12, .bytes = "move 20 1 R\n"};
        break;
    case WIRE_RECENT_REQUEST:
        m->recent_req = (wire_recent_req){.req = 9, .before_id = 1000, .limit = WIRE_RECENT_MAX};
        break;
    case WIRE_RECENT_LIST: {
        wire_recent_list *l = &m->recent;
        l->req = 10;
        l->next_before = 998;
        l->count = 2;
        for (int i = 0; i < 2; i++) {
            wire_recent_entry *e = &l->e[i];
            e->match_id = 1000 - (uint64_t)i;
            e->start_utc_ms = 1764063000123ull + (uint64_t)i;
            e->params = (pz_params){PZ_MAZE, 30, 20, PZ_HARD};
            e->winner = i ? WIRE_SLOT_NONE : 1;
            e->ending = i ? MATCH_END_ABORTED : MATCH_END_SOLVED;
            e->game_no = 2;
            e->series_len = 3;
            e->player[0] = (wire_rec_player){"ann", 5000, 40, false};
            e->player[1] = (wire_rec_player){"Zo\xc3\xab", 4000, 38, true};
            strcpy(e->game_id, i ? "" : long_id);
        }
        break;
    }
    case WIRE_BEST_REQUEST:
        m->best_req = (wire_best_req){.req = 11,
                                      .desc_hash = 0x8877665544332211ull,
                                      .limit = 5,
                                      .game_id = long_id,
                                      .game_id_len = (uint16_t)strlen(long_id)};
        break;
    case WIRE_BEST_LIST:
        m->best.req = 12;
        m->best.count = 2;
        m->best.e[0] = (wire_best_entry){1, "bob", 1500, 20, 1764063000000ull};
        m->best.e[1] = (wire_best_entry){77, "ann", 1600, 18, 1764063000999ull};
        break;
    default:
        fail_msg("no sample for type %d", type);
    }
}

/* Every message type of common/wire_msgs.h: a type added there without a
 * sample here fails sample() in every test that walks this list. */
#define WIRE_SAMPLE_TYPE(name, member, fields) WIRE_##name,
static const int types[] = {WIRE_MESSAGES(WIRE_SAMPLE_TYPE)};
#undef WIRE_SAMPLE_TYPE

#endif
