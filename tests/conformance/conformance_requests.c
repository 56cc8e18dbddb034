/* conformance_requests.c: one check per MUST of the handshake, names, malformed messages, requests made in no
 * room and CREATE_ROOM parameters (the IDs are docs/protocol.md's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

/* Handshake: names, versions, the first-message rule. */
void check_handshake(void)
{
    static const struct {
        const char *name;
        size_t len;
        const char *what;
    } bad[] = {
        {"", 0, "empty"},
        {"1234567890123456789012345", 25, "25 bytes"},
        {"a\tb", 3, "tab"},
        {"a\x7f", 2, "DEL"},
        {"a\xc2\x85", 3, "U+0085"},
        {"\xc0\xaf", 2, "overlong UTF-8"},
        {"\xed\xa0\x80", 3, "surrogate"},
        {" ", 1, "a lone space"},
        {"\xe2\x80\x8b", 3, "zero-width space"},
        {"a\xe2\x80\xae"
         "b",
         5, "right-to-left override"},
        {"a\xe2\x81\xa6"
         "b",
         5, "left-to-right isolate"},
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        raw_client *c = connect_raw();
        char text[WIRE_TEXT_MAX + 1] = "";
        bool ok = c != NULL;
        if (ok) {
            send_hello(c, bad[i].name, bad[i].len);
            ok = next_error(c, WIRE_REFUSED, WIRE_ERR_BAD_NAME, text, sizeof text) && text[0] &&
                 raw_wait_disconnect(c, WAIT_MS);
        }
        check("NAME-1", ok,
              "a HELLO name that is %s gets REFUSED 3 BAD_NAME with a reason (\"%s\") and a disconnect",
              bad[i].what, text);
        raw_close(c);
    }
    const char *good[] = {"alice", "Zo\xc3\xab", "a b", "\xe6\x97\xa5\xe6\x9c\xac"};
    for (size_t i = 0; i < MR_ARRAY_LEN(good); i++) {
        raw_client *c = hello_client(good[i]);
        check("NAME-2", c != NULL, "a HELLO name that follows the rule (\"%s\") gets WELCOME", good[i]);
        raw_close(c);
    }

    raw_client *c = connect_raw();
    uint8_t other[] = {WIRE_HELLO, 0x4D, 0x5A, 0x52, 0x43, 0x7F, 0xFF, 1, 2, 3};
    bool ok = c != NULL;
    if (ok) {
        raw_send(c, other, sizeof other);
        ok = next_error(c, WIRE_REFUSED, WIRE_ERR_VERSION, NULL, 0) && raw_wait_disconnect(c, WAIT_MS);
    }
    check("HS-1", ok,
          "a HELLO of another version (any bytes after it) gets REFUSED 1 VERSION and a disconnect");
    raw_close(c);

    c = connect_raw();
    ok = c != NULL;
    if (ok) {
        send_type(c, WIRE_READY);
        ok = next_error(c, WIRE_ERROR, WIRE_ERR_HANDSHAKE, NULL, 0) && raw_connected(c);
        ok = ok && raw_hello(c, "late", WAIT_MS);
    }
    check("HS-2", ok,
          "a well-formed message other than HELLO first gets ERROR 14 HANDSHAKE; the connection stays");
    raw_close(c);

    c = connect_raw();
    ok = c != NULL;
    if (ok) {
        uint8_t cut[] = {WIRE_HELLO, 0x4D, 0x5A};
        raw_send(c, cut, sizeof cut);
        ok = next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0) && raw_hello(c, "after", WAIT_MS);
    }
    check("HS-3", ok,
          "a malformed first message gets ERROR 4 (malformed wins over handshake); HELLO still works");
    raw_close(c);

    c = hello_client("twice");
    ok = c != NULL;
    if (ok) {
        send_hello(c, "twice", 5);
        ok = next_error(c, WIRE_ERROR, WIRE_ERR_HANDSHAKE, NULL, 0);
    }
    check("HS-4", ok, "a second HELLO gets ERROR 14 HANDSHAKE");
    raw_close(c);
}

/* Malformed messages and requests made in no room. */
void check_requests(void)
{
    raw_client *c = hello_client("carol");
    if (!c) {
        check("REQ", false, "cannot connect");
        return;
    }
    uint8_t unknown[] = {200};
    raw_send(c, unknown, 1);
    check("MSG-1", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0), "an unknown type gets ERROR 4");
    uint8_t trailing[] = {WIRE_READY, 1, 0};
    raw_send(c, trailing, sizeof trailing);
    check("MSG-2", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0), "a trailing byte gets ERROR 4");
    uint8_t badbool[] = {WIRE_READY, 2};
    raw_send(c, badbool, sizeof badbool);
    check("MSG-3", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0), "a bool of 2 gets ERROR 4");
    uint8_t *big = mr_alloc(WIRE_MSG_MAX + 1, 1);
    big[0] = WIRE_CREATE_ROOM;
    raw_send(c, big, WIRE_MSG_MAX + 1);
    free(big);
    check("MSG-4", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0),
          "a message longer than WIRE_MSG_MAX gets ERROR 4");
    uint8_t movebad[] = {WIRE_MOVE, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0};
    raw_send(c, movebad, sizeof movebad);
    check("MSG-5", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0), "a MOVE of type 5 gets ERROR 4");
    uint8_t bundle[] = {WIRE_BUNDLE, 0, 1, WIRE_LEAVE_ROOM, 0, 1, WIRE_LEAVE_ROOM}; /* well framed */
    raw_send(c, bundle, sizeof bundle);
    check("MSG-6", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0) && quiet(c),
          "a BUNDLE from a client gets ERROR 4, and none of its messages is acted on");

    const int no_room[] = {WIRE_LEAVE_ROOM, WIRE_READY, WIRE_REMATCH, WIRE_MOVE};
    for (size_t i = 0; i < MR_ARRAY_LEN(no_room); i++) {
        if (no_room[i] == WIRE_MOVE)
            send_move(c, 1, (pz_move){PZ_MOVE_STEP, PZ_UP, 0, 0});
        else
            send_type(c, no_room[i]);
        check("ROOM-1", next_error(c, WIRE_ERROR, WIRE_ERR_NOT_IN_ROOM, NULL, 0),
              "%s in no room gets ERROR 9 NOT_IN_ROOM", wire_type_name(no_room[i]));
    }
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_JOIN_ROOM;
    strcpy(m.join.code, "ZZZZZ");
    raw_send_msg(c, &m);
    check("ROOM-2", next_error(c, WIRE_ERROR, WIRE_ERR_NO_ROOM, NULL, 0),
          "JOIN_ROOM of an unknown code gets ERROR 5");
    memset(&m, 0, sizeof m);
    m.type = WIRE_RESUME;
    strcpy(m.resume.code, "ZZZZZ");
    m.resume.token.b[0] = 1;
    raw_send_msg(c, &m);
    check("ROOM-3", next_error(c, WIRE_ERROR, WIRE_ERR_RESUME, NULL, 0),
          "RESUME of an unknown room gets ERROR 11");

    /* CREATE_ROOM settings out of range: BAD_PARAMS with a reason. */
    static const struct {
        int off, val;
        const char *what;
    } bad[] = {
        {2, 0, "series 0"},         {2, 100, "series 100"}, {3, 7, "kind 7"},
        {5, 0, "w = 0 with h = 9"}, {8, 3, "difficulty 3"}, {17, 5, "has_seed 0 with seed 5"},
        {4, 0x10, "maze 4105x9"},
    };
    uint8_t good[18] = {WIRE_CREATE_ROOM, 0, 1, PZ_MAZE, 0, 9, 0, 9, PZ_EASY, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        uint8_t b[18];
        memcpy(b, good, sizeof b);
        if (bad[i].off == 5)
            b[7] = 9;
        b[bad[i].off] = (uint8_t)bad[i].val;
        raw_send(c, b, sizeof b);
        char text[WIRE_TEXT_MAX + 1] = "";
        bool ok = next_error(c, WIRE_ERROR, WIRE_ERR_BAD_PARAMS, text, sizeof text) && text[0];
        check("PARAM-1", ok, "CREATE_ROOM with %s gets ERROR 7 BAD_PARAMS (\"%s\")", bad[i].what, text);
    }
    send_create_id(c, "chess:8x8#1", 1);
    check("PARAM-2", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_PARAMS, NULL, 0),
          "CREATE_ROOM with a bad game ID gets ERROR 7");
    send_create_id(c, "ice:6x6:1.1.AAA", 0);
    check("PARAM-3", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_PARAMS, NULL, 0),
          "CREATE_ROOM by ID with series 0 gets ERROR 7");

    /* In a room: state wins over parameters. */
    raw_send(c, good, sizeof good);
    bool ok =
        raw_wait(c, WIRE_ROOM_STATE, &m, WAIT_MS) && m.room.params.w == 9 && m.room.params.diff == PZ_EASY;
    check("PARAM-4", ok, "CREATE_ROOM by settings gets ROOM_STATE with those settings");
    uint8_t b[18];
    memcpy(b, good, sizeof b);
    b[2] = 0;
    raw_send(c, b, sizeof b);
    check(
        "PREC-1", next_error(c, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0),
        "CREATE_ROOM with series 0 from a player already in a room gets ERROR 10 (state before parameters)");
    send_type(c, WIRE_REMATCH);
    check("STATE-1", next_error(c, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0),
          "REMATCH while waiting gets ERROR 10");
    send_move(c, 3, (pz_move){PZ_MOVE_STEP, PZ_UP, 0, 0});
    ok = raw_next(c, &m, WAIT_MS) && m.type == WIRE_REJECT && m.error.seq == 3 &&
         m.error.code == MATCH_REJ_NOT_STARTED;
    check("MOVE-1", ok, "a MOVE in a waiting room gets REJECT 2 (not started) with its seq");
    check("MOVE-2", quiet(c), "nothing else follows");
    raw_close(c);
}
