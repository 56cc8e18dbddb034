/* wire_msgs.h: every message's layout, written once; wire.c makes the encoder, decoder and names from it. */
#ifndef MR_WIRE_MSGS_H
#define MR_WIRE_MSGS_H

/* WIRE_MESSAGES(X) lists each message as X(NAME, member, FIELDS): the type
 * is WIRE_NAME, m->member holds its body, and FIELDS(F, s) lists the body's
 * fields in wire order as F(KIND, field, args...). wire.c expands the list
 * into one writer (w_KIND per field: asserts), one reader (r_KIND chained
 * with &&: fails closed) and the type names; tests/test_wire*.c and the
 * fuzz dictionary (tests/fuzz/wire_dict.c) walk the same list, so a new
 * message is described here and nowhere else.
 *
 * Kinds (wire_io.h): U8 U16 U32 U64 I16 I32 BOOL (big endian); RANGE8 lo hi
 * (a u8 in [lo, hi]); SLOT_OR_NONE (0, 1 or 0xFF); PORT (u16, not 0);
 * ID lo (u64 in [lo, INT64_MAX]); CODE (5 letters of WIRE_ROOM_ALPHABET);
 * TEXT, NAME (str8: u8 length + bytes, the text or name rule); MOVE (type,
 * dir, x, y: 6 bytes); TOKEN (16 bytes); PARAMS (kind, w, h, diff: 6
 * bytes); GAME_ID (u16 length >= 1 + printable ASCII). The rest are parts
 * with a layout of their own, written out once in wire.c or wire_rec.c:
 * HELLO, CREATE, PLAYER, DESC_BYTES, ROOMS, LOG_MOVES, REPLAY_BYTES,
 * RECENT_ENTRIES, BEST_GAME_ID, BEST_ENTRIES. */

/* clang-format off: one field per line reads better than what it makes of macro lists */
#define WIRE_NO_FIELDS(F, s)
#define WIRE_HELLO_FIELDS(F, s) F(HELLO, s)
#define WIRE_WELCOME_FIELDS(F, s) F(U32, s.player_id) F(NAME, s.server_name)
#define WIRE_REFUSED_FIELDS(F, s) F(RANGE8, s.code, 1, 255) F(TEXT, s.text)
#define WIRE_TEXT_FIELDS(F, s) F(TEXT, s.text)
#define WIRE_REJECT_FIELDS(F, s)                                                                             \
    F(U32, s.seq)                                                                                            \
    F(RANGE8, s.code, MATCH_OK + 1, MATCH_REJ_COUNT - 1)                                                     \
    F(TEXT, s.text)
#define WIRE_CREATE_FIELDS(F, s) F(CREATE, s)
#define WIRE_CODE_FIELDS(F, s) F(CODE, s.code)
#define WIRE_READY_FIELDS(F, s) F(BOOL, s.ready)
#define WIRE_RESUME_FIELDS(F, s) F(CODE, s.code) F(RANGE8, s.slot, 0, 1) F(TOKEN, s.token)
#define WIRE_MOVE_FIELDS(F, s) F(U32, s.seq) F(MOVE, s.move)
#define WIRE_DESC_REQUEST_FIELDS(F, s) F(U32, s.offset)
#define WIRE_DESC_CHUNK_FIELDS(F, s)                                                                         \
    F(U16, s.game_no)                                                                                        \
    F(U64, s.desc_hash)                                                                                      \
    F(U32, s.total)                                                                                          \
    F(U32, s.offset)                                                                                         \
    F(DESC_BYTES, s)
#define WIRE_ACK_FIELDS(F, s) F(U32, s.seq) F(U32, s.moves) F(BOOL, s.solved)
/* A series' length and the score so far: the same three fields wherever a message tells the series. */
#define WIRE_SERIES_SCORE(F, s)                                                                              \
    F(RANGE8, s.series_len, 1, WIRE_MAX_SERIES)                                                              \
    F(U8, s.score[0])                                                                                        \
    F(U8, s.score[1])
#define WIRE_ROOM_STATE_FIELDS(F, s)                                                                         \
    F(CODE, s.code)                                                                                          \
    F(SLOT_OR_NONE, s.your_slot)                                                                             \
    F(RANGE8, s.phase, 0, MATCH_FINISHED)                                                                    \
    F(PARAMS, s.params)                                                                                      \
    WIRE_SERIES_SCORE(F, s)                                                                                  \
    F(PLAYER, s.player[0])                                                                                   \
    F(PLAYER, s.player[1])                                                                                   \
    F(U16, s.spectators)
#define WIRE_WATCH_AT_FIELDS(F, s) F(CODE, s.code) F(PORT, s.port)
#define WIRE_START_TAIL(F, s)                                                                                \
    F(I32, s.start_in_ms)                                                                                    \
    F(U64, s.desc_hash)                                                                                      \
    WIRE_SERIES_SCORE(F, s)                                                                                  \
    F(GAME_ID, s)
#define WIRE_WATCH_START_FIELDS(F, s) F(CODE, s.code) F(U16, s.game_no) WIRE_START_TAIL(F, s)
#define WIRE_ROOM_LIST_FIELDS(F, s) F(U16, s.total) F(ROOMS, s)
#define WIRE_MATCH_START_FIELDS(F, s)                                                                        \
    F(RANGE8, s.slot, 0, 1)                                                                                  \
    F(U16, s.game_no)                                                                                        \
    F(TOKEN, s.token)                                                                                        \
    WIRE_START_TAIL(F, s)
#define WIRE_PROGRESS_FIELDS(F, s)                                                                           \
    F(RANGE8, s.slot, 0, 1)                                                                                  \
    F(MOVE, s.move)                                                                                          \
    F(U32, s.moves)                                                                                          \
    F(I16, s.x)                                                                                              \
    F(I16, s.y)                                                                                              \
    F(U32, s.path_len)                                                                                       \
    F(I32, s.value)                                                                                          \
    F(BOOL, s.solved)
#define WIRE_MATCH_END_FIELDS(F, s)                                                                          \
    F(SLOT_OR_NONE, s.winner)                                                                                \
    F(RANGE8, s.reason, 0, MATCH_END_ABORTED)                                                                \
    F(U32, s.time_ms[0])                                                                                     \
    F(U32, s.time_ms[1])                                                                                     \
    F(BOOL, s.solved[0])                                                                                     \
    F(BOOL, s.solved[1])                                                                                     \
    F(U32, s.moves[0])                                                                                       \
    F(U32, s.moves[1])                                                                                       \
    F(U16, s.game_no)                                                                                        \
    WIRE_SERIES_SCORE(F, s)                                                                                  \
    F(BOOL, s.series_over)
#define WIRE_REMATCH_OFFER_FIELDS(F, s) F(RANGE8, s.slot, 0, 1)
#define WIRE_MOVE_LOG_FIELDS(F, s) F(RANGE8, s.slot, 0, 1) F(U32, s.first) F(LOG_MOVES, s)
#define WIRE_REPLAY_REQUEST_FIELDS(F, s) F(U32, s.req) F(ID, s.match_id, 1) F(U32, s.offset)
#define WIRE_REPLAY_CHUNK_FIELDS(F, s) F(U32, s.req) F(REPLAY_BYTES, s)
#define WIRE_RECENT_REQUEST_FIELDS(F, s)                                                                     \
    F(U32, s.req)                                                                                            \
    F(ID, s.before_id, 0)                                                                                    \
    F(RANGE8, s.limit, 1, WIRE_RECENT_MAX)
#define WIRE_RECENT_LIST_FIELDS(F, s) F(U32, s.req) F(RECENT_ENTRIES, s)
#define WIRE_BEST_REQUEST_FIELDS(F, s)                                                                       \
    F(U32, s.req)                                                                                            \
    F(U64, s.desc_hash)                                                                                      \
    F(RANGE8, s.limit, 1, WIRE_BEST_MAX)                                                                     \
    F(BEST_GAME_ID, s)
#define WIRE_BEST_LIST_FIELDS(F, s) F(U32, s.req) F(BEST_ENTRIES, s)
/* clang-format on */

/* Every message but BUNDLE (a frame of messages, not one: wire_bundle_*). */
#define WIRE_MESSAGES(X)                                                                                     \
    X(HELLO, hello, WIRE_HELLO_FIELDS)                                                                       \
    X(WELCOME, welcome, WIRE_WELCOME_FIELDS)                                                                 \
    X(REFUSED, error, WIRE_REFUSED_FIELDS)                                                                   \
    X(CREATE_ROOM, create, WIRE_CREATE_FIELDS)                                                               \
    X(JOIN_ROOM, join, WIRE_CODE_FIELDS)                                                                     \
    X(QUICK_MATCH, none, WIRE_NO_FIELDS)                                                                     \
    X(LEAVE_ROOM, none, WIRE_NO_FIELDS)                                                                      \
    X(READY, ready, WIRE_READY_FIELDS)                                                                       \
    X(REMATCH, none, WIRE_NO_FIELDS)                                                                         \
    X(RESUME, resume, WIRE_RESUME_FIELDS)                                                                    \
    X(MOVE, move, WIRE_MOVE_FIELDS)                                                                          \
    X(DESC_REQUEST, desc_req, WIRE_DESC_REQUEST_FIELDS)                                                      \
    X(REPLAY_REQUEST, replay_req, WIRE_REPLAY_REQUEST_FIELDS)                                                \
    X(RECENT_REQUEST, recent_req, WIRE_RECENT_REQUEST_FIELDS)                                                \
    X(BEST_REQUEST, best_req, WIRE_BEST_REQUEST_FIELDS)                                                      \
    X(WATCH, join, WIRE_CODE_FIELDS)                                                                         \
    X(LIST_ROOMS, none, WIRE_NO_FIELDS)                                                                      \
    X(ROOM_STATE, room, WIRE_ROOM_STATE_FIELDS)                                                              \
    X(MATCH_START, start, WIRE_MATCH_START_FIELDS)                                                           \
    X(ACK, ack, WIRE_ACK_FIELDS)                                                                             \
    X(REJECT, error, WIRE_REJECT_FIELDS)                                                                     \
    X(PROGRESS, progress, WIRE_PROGRESS_FIELDS)                                                              \
    X(MATCH_END, end, WIRE_MATCH_END_FIELDS)                                                                 \
    X(REMATCH_OFFER, rematch_offer, WIRE_REMATCH_OFFER_FIELDS)                                               \
    X(MOVE_LOG, log, WIRE_MOVE_LOG_FIELDS)                                                                   \
    X(SHUTDOWN, error, WIRE_TEXT_FIELDS)                                                                     \
    X(ERROR, error, WIRE_REFUSED_FIELDS)                                                                     \
    X(DESC_CHUNK, desc, WIRE_DESC_CHUNK_FIELDS)                                                              \
    X(REPLAY_CHUNK, replay, WIRE_REPLAY_CHUNK_FIELDS)                                                        \
    X(RECENT_LIST, recent, WIRE_RECENT_LIST_FIELDS)                                                          \
    X(BEST_LIST, best, WIRE_BEST_LIST_FIELDS)                                                                \
    X(WATCH_START, wstart, WIRE_WATCH_START_FIELDS)                                                          \
    X(ROOM_LIST, list, WIRE_ROOM_LIST_FIELDS)                                                                \
    X(WATCH_END, error, WIRE_TEXT_FIELDS)                                                                    \
    X(WATCH_AT, watch_at, WIRE_WATCH_AT_FIELDS)

#endif
