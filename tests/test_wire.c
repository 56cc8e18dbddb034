/* test_wire.c: every message round-trips; truncated, extended, corrupted and random input fails closed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "match.h"
#include "rng.h"
#include "util.h"
#include "wire.h"
#include "wire_samples.h"

static size_t encode(const wire_msg *m, uint8_t *buf, size_t cap)
{
    size_t n = wire_size(m);
    assert_true(n <= cap);
    assert_int_equal(wire_write(m, buf, cap), n);
    return n;
}

/* Decoding and re-encoding gives the same bytes: every field survived. */
static void test_round_trip_every_type(void **ctx)
{
    (void)ctx;
    uint8_t a[512], b[512];
    for (size_t i = 0; i < MR_ARRAY_LEN(types); i++) {
        wire_msg m, back;
        sample(types[i], &m);
        size_t n = encode(&m, a, sizeof a);
        assert_int_equal(a[0], types[i]);
        assert_true(wire_read(a, n, &back));
        assert_int_equal(back.type, types[i]);
        assert_int_equal(encode(&back, b, sizeof b), n);
        assert_memory_equal(a, b, n);
        assert_string_not_equal(wire_type_name(types[i]), "?");
    }
    assert_string_equal(wire_type_name(200), "?");
}

/* Spot checks that decoding puts each value where it belongs. */
static void test_fields_land_in_place(void **ctx)
{
    (void)ctx;
    uint8_t buf[512];
    wire_msg m, r;
    sample(WIRE_MOVE, &m);
    size_t n = encode(&m, buf, sizeof buf);
    assert_int_equal(n, 11); /* type + seq + 6-byte move: within 16 bytes */
    /* Big endian, byte by byte. */
    const uint8_t want[] = {WIRE_MOVE, 0, 0, 0, 77, PZ_MOVE_ROTATE_CCW, 0, 0x02, 0x01, 0x03, 0xE8};
    assert_memory_equal(buf, want, sizeof want);
    assert_true(wire_read(buf, n, &r));
    assert_int_equal(r.move.move.x, 513);
    assert_int_equal(r.move.move.y, 1000);

    sample(WIRE_MATCH_START, &m);
    n = encode(&m, buf, sizeof buf);
    assert_true(wire_read(buf, n, &r));
    assert_int_equal(r.start.start_in_ms, -1234);
    assert_memory_equal(r.start.token.b, m.start.token.b, MATCH_TOKEN_BYTES);
    assert_int_equal(r.start.game_id_len, strlen(long_id));
    assert_memory_equal(r.start.game_id, long_id, strlen(long_id));

    sample(WIRE_PROGRESS, &m);
    n = encode(&m, buf, sizeof buf);
    assert_true(wire_read(buf, n, &r));
    assert_int_equal(r.progress.x, -1);
    assert_int_equal(r.progress.value, -45);
    assert_int_equal(r.progress.y, 999);

    sample(WIRE_ROOM_STATE, &m);
    n = encode(&m, buf, sizeof buf);
    assert_true(wire_read(buf, n, &r));
    assert_string_equal(r.room.player[1].name, "bob");
    assert_true(r.room.player[1].rematch);
    assert_false(r.room.player[1].connected);
    assert_int_equal(r.room.params.kind, PZ_PIPES);
    assert_string_equal(r.room.code, "HJKMN");

    sample(WIRE_HELLO, &m);
    n = encode(&m, buf, sizeof buf);
    assert_true(wire_read(buf, n, &r));
    assert_string_equal(r.hello.name, "Zo\xc3\xab");

    /* CREATE_ROOM by game ID. */
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.by_id = true;
    m.create.series_len = 1;
    m.create.game_id = "ice:25x20:hard#12345";
    m.create.game_id_len = 20;
    n = encode(&m, buf, sizeof buf);
    assert_true(wire_read(buf, n, &r));
    assert_true(r.create.by_id);
    assert_memory_equal(r.create.game_id, "ice:25x20:hard#12345", 20);
}

/* Every proper prefix fails, and so does every message with a byte added. */
static void test_truncated_and_extended_fail(void **ctx)
{
    (void)ctx;
    uint8_t buf[600];
    for (size_t i = 0; i < MR_ARRAY_LEN(types); i++) {
        wire_msg m, r;
        sample(types[i], &m);
        size_t n = encode(&m, buf, sizeof buf);
        for (size_t k = 0; k < n; k++)
            assert_false(wire_read(buf, k, &r));
        for (int extra = 0; extra < 256; extra += 51) {
            buf[n] = (uint8_t)extra;
            assert_false(wire_read(buf, n + 1, &r));
        }
    }
}

/* A longest MOVE_LOG and a longest game ID still round-trip; one more fails. */
static void test_limits(void **ctx)
{
    (void)ctx;
    wire_msg m, r;
    memset(&m, 0, sizeof m);
    m.type = WIRE_MOVE_LOG;
    m.log.count = WIRE_MOVE_LOG_MAX;
    for (int i = 0; i < WIRE_MOVE_LOG_MAX; i++)
        m.log.moves[i] = (pz_move){PZ_MOVE_STEP, (uint8_t)(i % 4), 0, 0};
    uint8_t *buf = mr_alloc(WIRE_MSG_MAX + 16, 1);
    size_t n = encode(&m, buf, WIRE_MSG_MAX + 16);
    assert_true(wire_read(buf, n, &r));
    assert_int_equal(r.log.moves[WIRE_MOVE_LOG_MAX - 1].dir, (WIRE_MOVE_LOG_MAX - 1) % 4);
    buf[6] = (WIRE_MOVE_LOG_MAX + 1) >> 8; /* count field */
    buf[7] = (WIRE_MOVE_LOG_MAX + 1) & 0xFF;
    assert_false(wire_read(buf, n, &r));

    char *id = mr_alloc(WIRE_GAME_ID_MAX + 1, 1);
    memset(id, 'a', WIRE_GAME_ID_MAX);
    sample(WIRE_MATCH_START, &m);
    m.start.game_id = id;
    m.start.game_id_len = WIRE_GAME_ID_MAX;
    n = encode(&m, buf, WIRE_MSG_MAX + 16);
    assert_true(n <= WIRE_MSG_MAX);
    assert_true(wire_read(buf, n, &r));
    assert_int_equal(r.start.game_id_len, WIRE_GAME_ID_MAX);
    assert_false(wire_read(buf, WIRE_MSG_MAX + 1, &r)); /* over the cap */
    free(id);
    free(buf);
}

/* Patches byte at offset of a sample and expects the read to fail. */
static void expect_bad(int type, size_t offset, uint8_t value)
{
    wire_msg m, r;
    uint8_t buf[512];
    sample(type, &m);
    size_t n = encode(&m, buf, sizeof buf);
    assert_true(offset < n);
    buf[offset] = value;
    if (wire_read(buf, n, &r))
        fail_msg("%s with byte %zu = 0x%02x decoded", wire_type_name(type), offset, value);
}

static void test_bad_fields_fail(void **ctx)
{
    (void)ctx;
    wire_msg r;
    /* Unknown types. */
    for (int t = 0; t < 256; t++) {
        if (strcmp(wire_type_name(t), "?") != 0)
            continue;
        uint8_t b[1] = {(uint8_t)t};
        assert_false(wire_read(b, 1, &r));
    }
    assert_false(wire_read(NULL, 0, &r));
    expect_bad(WIRE_HELLO, 1, 'X');     /* magic */
    expect_bad(WIRE_HELLO, 7, 25);      /* name length beyond the message */
    expect_bad(WIRE_READY, 1, 2);       /* bool */
    expect_bad(WIRE_JOIN_ROOM, 1, 'O'); /* not in the room alphabet */
    expect_bad(WIRE_JOIN_ROOM, 3, 'a'); /* lower case */
    expect_bad(WIRE_RESUME, 6, 2);      /* slot */
    expect_bad(WIRE_MOVE, 5, 0);        /* move type */
    expect_bad(WIRE_MOVE, 5, PZ_MOVE_TYPE_MAX + 1);
    expect_bad(WIRE_MOVE, 6, 4);        /* dir */
    expect_bad(WIRE_CREATE_ROOM, 1, 2); /* mode */
    expect_bad(WIRE_CREATE_ROOM, 9, 2); /* has_seed is a bool */
    expect_bad(WIRE_REJECT, 5, 0);      /* MATCH_OK is not a rejection */
    expect_bad(WIRE_REJECT, 5, MATCH_REJ_COUNT);
    expect_bad(WIRE_ROOM_STATE, 6, 2);     /* your_slot */
    expect_bad(WIRE_ROOM_STATE, 6, 0xFE);  /* your_slot: 0, 1 or 255 (watching) */
    expect_bad(WIRE_WATCH, 1, 'I');        /* not in the room alphabet */
    expect_bad(WIRE_WATCH_AT, 1, 'O');     /* room code */
    expect_bad(WIRE_WATCH_AT, 6, 0);       /* port 0 */
    expect_bad(WIRE_WATCH_START, 1, 'O');  /* room code */
    expect_bad(WIRE_WATCH_START, 20, 0);   /* series 0 */
    expect_bad(WIRE_WATCH_START, 30, ' '); /* space in the game ID */
    expect_bad(WIRE_ROOM_LIST, 3, 3);      /* a third entry that is not there */
    expect_bad(WIRE_ROOM_LIST, 9, 0);      /* entry phase waiting */
    expect_bad(WIRE_ROOM_LIST, 9, 3);      /* entry phase finished */
    expect_bad(WIRE_ROOM_LIST, 10, PZ_KIND_COUNT);
    expect_bad(WIRE_ROOM_LIST, 18, 25);                  /* name length 25 */
    expect_bad(WIRE_ROOM_LIST, 19, 1);                   /* a control character in a name */
    expect_bad(WIRE_ROOM_STATE, 7, 4);                   /* phase */
    expect_bad(WIRE_ROOM_STATE, 17, 0x10);               /* player flags */
    expect_bad(WIRE_MATCH_END, 1, 2);                    /* winner */
    expect_bad(WIRE_MATCH_END, 2, 4);                    /* reason */
    expect_bad(WIRE_MATCH_START, 1, 2);                  /* slot */
    expect_bad(WIRE_MATCH_START, 40, ' ');               /* space in the game ID */
    expect_bad(WIRE_REFUSED, 1, 0);                      /* code 0 */
    expect_bad(WIRE_MOVE_LOG, 8, 2);                     /* last */
    expect_bad(WIRE_DESC_CHUNK, 12, 0);                  /* total below offset + count */
    expect_bad(WIRE_DESC_CHUNK, 23, ' ');                /* a space in the bytes */
    expect_bad(WIRE_REPLAY_REQUEST, 5, 0x80);            /* match id above INT64_MAX */
    expect_bad(WIRE_REPLAY_CHUNK, 5, WIRE_ERR_MAX + 1);  /* status */
    expect_bad(WIRE_REPLAY_CHUNK, 5, WIRE_ERR_NO_MATCH); /* an error status with bytes */
    expect_bad(WIRE_REPLAY_CHUNK, 17, 0);                /* total below offset + count */
    expect_bad(WIRE_REPLAY_CHUNK, 24, 0x01);             /* a control character in the text */
    expect_bad(WIRE_REPLAY_CHUNK, 35, 0x7F);
    expect_bad(WIRE_RECENT_REQUEST, 13, 0); /* limit */
    expect_bad(WIRE_RECENT_REQUEST, 13, WIRE_RECENT_MAX + 1);
    expect_bad(WIRE_RECENT_LIST, 5, WIRE_ERR_BUSY); /* an error status with entries */
    expect_bad(WIRE_RECENT_LIST, 6, 0x80);          /* next_before above INT64_MAX */
    expect_bad(WIRE_RECENT_LIST, 14, WIRE_RECENT_MAX + 1);
    expect_bad(WIRE_RECENT_LIST, 15, 0x80); /* match id */
    expect_bad(WIRE_RECENT_LIST, 31, PZ_KIND_COUNT);
    expect_bad(WIRE_RECENT_LIST, 36, PZ_DIFF_COUNT);
    expect_bad(WIRE_RECENT_LIST, 37, 2); /* winner */
    expect_bad(WIRE_RECENT_LIST, 38, MATCH_END_ABORTED + 1);
    expect_bad(WIRE_RECENT_LIST, 41, 0);                    /* series */
    expect_bad(WIRE_RECENT_LIST, 42, 0);                    /* an empty name */
    expect_bad(WIRE_RECENT_LIST, 43, 0x07);                 /* a control character in the name */
    expect_bad(WIRE_RECENT_LIST, 54, 2);                    /* solved is a bool */
    expect_bad(WIRE_RECENT_LIST, 69, WIRE_LIST_ID_MAX + 1); /* game ID length */
    expect_bad(WIRE_RECENT_LIST, 71, ' ');                  /* space in the game ID */
    expect_bad(WIRE_BEST_REQUEST, 13, 0);                   /* limit */
    expect_bad(WIRE_BEST_REQUEST, 13, WIRE_BEST_MAX + 1);
    expect_bad(WIRE_BEST_REQUEST, 16, ' ');
    expect_bad(WIRE_BEST_LIST, 6, WIRE_BEST_MAX + 1);
    expect_bad(WIRE_BEST_LIST, 7, 0x80);
    expect_bad(WIRE_BEST_LIST, 15, WIRE_NAME_MAX + 1); /* name length */

    /* Issue 12 point 6: out-of-range settings decode (the layout is fine)
     * and wire_create_problem gives the BAD_PARAMS reason. */
    wire_msg m;
    uint8_t buf[64];
    sample(WIRE_CREATE_ROOM, &m);
    m.create.has_seed = false;
    m.create.seed = 0;
    size_t n = encode(&m, buf, sizeof buf);
    assert_true(wire_read(buf, n, &r));
    assert_null(wire_create_problem(&r.create));
    static const struct {
        int off, val;
        const char *word;
    } bad_settings[] = {
        {2, 0, "series"}, {2, 100, "series"}, {3, PZ_KIND_COUNT, "kind"},
        {3, 255, "kind"}, {5, 0, "size"},     {8, PZ_DIFF_COUNT, "difficulty"},
        {17, 1, "seed"}, /* has_seed 0, seed 1 */
    };
    for (size_t i = 0; i < sizeof bad_settings / sizeof bad_settings[0]; i++) {
        uint8_t b2[64];
        memcpy(b2, buf, n);
        if (bad_settings[i].off == 5)
            b2[4] = 0; /* w = 0 with h = 20 */
        b2[bad_settings[i].off] = (uint8_t)bad_settings[i].val;
        assert_true(wire_read(b2, n, &r));
        const char *why = wire_create_problem(&r.create);
        assert_non_null(why);
        assert_non_null(strstr(why, bad_settings[i].word));
    }
    /* 0x0 is "default size". */
    sample(WIRE_CREATE_ROOM, &m);
    m.create.params.w = m.create.params.h = 0;
    n = encode(&m, buf, sizeof buf);
    assert_true(wire_read(buf, n, &r));
    assert_int_equal(r.create.params.w, 0);
    /* An absent player has no flags and no name. */
    sample(WIRE_ROOM_STATE, &m);
    m.room.player[1] = (wire_player){false, false, false, false, ""};
    n = encode(&m, buf, sizeof buf);
    assert_true(wire_read(buf, n, &r));
    assert_false(r.room.player[1].present);
    buf[n - 4] = 2; /* flags: connected but absent (the spectator count follows) */
    assert_false(wire_read(buf, n, &r));
}

/* Spectators: a watcher's ROOM_STATE, the fullest ROOM_LIST and its
 * bounds, and WATCH_START's fields. */
static void test_spectator_messages(void **ctx)
{
    (void)ctx;
    wire_msg m, r;
    uint8_t *buf = mr_alloc(WIRE_MSG_MAX, 1);
    sample(WIRE_ROOM_STATE, &m);
    m.room.your_slot = WIRE_SLOT_WATCHER;
    size_t n = encode(&m, buf, WIRE_MSG_MAX);
    assert_true(wire_read(buf, n, &r));
    assert_int_equal(r.room.your_slot, WIRE_SLOT_WATCHER);
    assert_int_equal(r.room.spectators, 515);

    sample(WIRE_WATCH_START, &m);
    n = encode(&m, buf, WIRE_MSG_MAX);
    assert_true(wire_read(buf, n, &r));
    assert_string_equal(r.wstart.code, "HJKMN");
    assert_int_equal(r.wstart.start_in_ms, -4321);
    assert_true(r.wstart.desc_hash == 0x0102030405060708ull);
    assert_int_equal(r.wstart.game_id_len, strlen(long_id));
    assert_memory_equal(r.wstart.game_id, long_id, strlen(long_id));

    sample(WIRE_ROOM_LIST, &m);
    n = encode(&m, buf, WIRE_MSG_MAX);
    assert_true(wire_read(buf, n, &r));
    assert_int_equal(r.list.total, 700);
    assert_string_equal(r.list.room[0].name[1], "bob");
    assert_string_equal(r.list.room[1].name[1], "");
    assert_int_equal(r.list.room[1].params.w, 25);
    assert_int_equal(r.list.room[0].spectators, 3);
    /* The fullest list round-trips; a count above the limit does not decode. */
    m.list.count = WIRE_ROOM_LIST_MAX;
    for (int i = 0; i < WIRE_ROOM_LIST_MAX; i++) {
        m.list.room[i] = m.list.room[0];
        strcpy(m.list.room[i].name[0], "a name of twenty-four by");
    }
    n = encode(&m, buf, WIRE_MSG_MAX);
    assert_true(wire_read(buf, n, &r));
    assert_int_equal(r.list.count, WIRE_ROOM_LIST_MAX);
    assert_string_equal(r.list.room[WIRE_ROOM_LIST_MAX - 1].name[0], "a name of twenty-four by");
    buf[3] = WIRE_ROOM_LIST_MAX + 1;
    assert_false(wire_read(buf, n, &r));
    /* count must not exceed total */
    sample(WIRE_ROOM_LIST, &m);
    m.list.total = 2;
    n = encode(&m, buf, WIRE_MSG_MAX);
    assert_true(wire_read(buf, n, &r));
    buf[2] = 1;
    assert_false(wire_read(buf, n, &r));
    free(buf);
}

/* Another version's HELLO decodes as far as magic and version, so the
 * server can say "version mismatch" instead of dropping it. */
static void test_hello_other_version(void **ctx)
{
    (void)ctx;
    wire_msg m, r;
    uint8_t buf[64];
    sample(WIRE_HELLO, &m);
    m.hello.version = WIRE_VERSION + 1;
    size_t n = encode(&m, buf, sizeof buf);
    assert_true(wire_read(buf, n, &r));
    assert_int_equal(r.hello.version, WIRE_VERSION + 1);
    assert_string_equal(r.hello.name, "");
    assert_true(wire_read(buf, 7, &r)); /* its layout after the version is not ours */
    assert_false(wire_read(buf, 6, &r));
    buf[4] ^= 0x40; /* corrupted magic */
    assert_false(wire_read(buf, n, &r));
}

/* The details datagram: round trip with and without a room; every cut,
 * bad flags, a bad code, a reply or probe taken for it all fail. */
static void test_discovery_details(void **ctx)
{
    (void)ctx;
    uint8_t buf[WIRE_PROBE_DETAILS_MAX + 8];
    wire_probe_details d = {.version = WIRE_VERSION,
                            .nonce = 7,
                            .game_port = 27910,
                            .server_id = 0x0123456789ABCDEFull,
                            .flags = WIRE_DISC_HOST_GAME},
                       r;
    size_t n = wire_write_probe_details(&d, buf, sizeof buf);
    assert_int_equal(n, 21);
    assert_true(wire_read_probe_details(buf, n, &r));
    assert_true(r.server_id == d.server_id);
    assert_int_equal(r.flags, WIRE_DISC_HOST_GAME);
    d.flags |= WIRE_DISC_HAS_ROOM;
    memcpy(d.room, "ABCDE", 6);
    d.params = (pz_params){PZ_ICE, 25, 20, PZ_HARD};
    d.series = 3;
    strcpy(d.host_name, "Ann");
    n = wire_write_probe_details(&d, buf, sizeof buf);
    assert_true(n <= WIRE_PROBE_DETAILS_MAX);
    assert_true(wire_read_probe_details(buf, n, &r));
    assert_string_equal(r.room, "ABCDE");
    assert_int_equal(r.params.kind, PZ_ICE);
    assert_int_equal(r.params.w, 25);
    assert_int_equal(r.params.h, 20);
    assert_int_equal(r.params.diff, PZ_HARD);
    assert_int_equal(r.series, 3);
    assert_string_equal(r.host_name, "Ann");
    for (size_t k = 0; k < n; k++)
        assert_false(wire_read_probe_details(buf, k, &r));
    buf[n] = 0;
    assert_false(wire_read_probe_details(buf, n + 1, &r));
    buf[20] = 0x80; /* an unknown flag */
    assert_false(wire_read_probe_details(buf, n, &r));
    buf[20] = WIRE_DISC_HAS_ROOM;
    buf[21] = '1'; /* not a room code */
    assert_false(wire_read_probe_details(buf, n, &r));
    wire_probe_reply rp = {WIRE_VERSION, 42, WIRE_DEFAULT_PORT, 3, 7, 12, 1000, 5, "den"};
    n = wire_write_probe_reply(&rp, buf, sizeof buf);
    assert_false(wire_read_probe_details(buf, n, &r));
    wire_probe p = {WIRE_VERSION, 1};
    n = wire_write_probe(&p, buf, sizeof buf);
    assert_false(wire_read_probe_details(buf, n, &r));
    /* Another version's: the id is read, the rest left alone. */
    d.version = WIRE_VERSION + 1;
    n = wire_write_probe_details(&d, buf, sizeof buf);
    assert_true(wire_read_probe_details(buf, n, &r));
    assert_true(r.server_id == d.server_id);
}

static void test_discovery(void **ctx)
{
    (void)ctx;
    uint8_t buf[WIRE_PROBE_REPLY_MAX + 8];
    wire_probe p = {WIRE_VERSION, 0xDEADBEEFu}, pr;
    size_t n = wire_write_probe(&p, buf, sizeof buf);
    assert_int_equal(n, WIRE_PROBE_LEN);
    assert_true(wire_read_probe(buf, n, &pr));
    assert_int_equal(pr.nonce, 0xDEADBEEFu);
    for (size_t k = 0; k < n; k++)
        assert_false(wire_read_probe(buf, k, &pr));
    assert_false(wire_read_probe(buf, n + 1, &pr));
    buf[0] ^= 1;
    assert_false(wire_read_probe(buf, n, &pr));

    wire_probe_reply rp = {WIRE_VERSION, 42, WIRE_DEFAULT_PORT, 3, 7, 12, 1000, 5, "den"}, rr;
    n = wire_write_probe_reply(&rp, buf, sizeof buf);
    assert_true(n <= WIRE_PROBE_REPLY_MAX);
    assert_true(wire_read_probe_reply(buf, n, &rr));
    assert_int_equal(rr.game_port, WIRE_DEFAULT_PORT);
    assert_int_equal(rr.players_waiting, 3);
    assert_int_equal(rr.rooms, 7);
    assert_int_equal(rr.players, 12);
    assert_int_equal(rr.max_players, 1000);
    assert_int_equal(rr.races, 5);
    assert_string_equal(rr.name, "den");
    for (size_t k = 0; k < n; k++)
        assert_false(wire_read_probe_reply(buf, k, &rr));
    buf[n] = 0;
    assert_false(wire_read_probe_reply(buf, n + 1, &rr));
    /* The probe's magic is not a reply's. */
    n = wire_write_probe(&p, buf, sizeof buf);
    assert_false(wire_read_probe_reply(buf, n, &rr));
    /* Another version's reply: the fixed header only. */
    rp.version = WIRE_VERSION + 1;
    n = wire_write_probe_reply(&rp, buf, sizeof buf);
    assert_true(wire_read_probe_reply(buf, n, &rr));
    assert_int_equal(rr.version, WIRE_VERSION + 1);
    assert_int_equal(rr.game_port, WIRE_DEFAULT_PORT);
    assert_string_equal(rr.name, "");
}

/* Issue 12 point 3: the name rule, with its reason per case. */
static void test_name_rule(void **ctx)
{
    (void)ctx;
    static const struct {
        const char *name;
        size_t len;
        const char *reason; /* a word of the reason, or NULL: accepted */
    } cases[] = {
        {"Bob", 3, NULL},
        {"Zo\xc3\xab", 4, NULL},                       /* e-diaeresis */
        {"a b", 3, NULL},                              /* inner space */
        {"\xe2\x9d\xa4\xef\xb8\x8f", 6, NULL},         /* heart + VS16 */
        {"123456789012345678901234", 24, NULL},        /* 24 bytes */
        {"", 0, "empty"},                              /* empty */
        {"1234567890123456789012345", 25, "24 bytes"}, /* too long */
        {"a\tb", 3, "control"},                        /* tab */
        {"a\x7f", 2, "control"},                       /* DEL */
        {"a\xc2\x85", 3, "control"},                   /* U+0085 NEL (C1) */
        {"a\0b", 3, "control"},                        /* NUL */
        {"\xc0\xaf", 2, "UTF-8"},                      /* overlong '/' */
        {"\xed\xa0\x80", 3, "UTF-8"},                  /* surrogate */
        {"\xe2\x82", 2, "UTF-8"},                      /* cut short */
        {"\xf4\x90\x80\x80", 4, "UTF-8"},              /* above U+10FFFF */
        {"\xff", 1, "UTF-8"},                          /* not UTF-8 */
        {" ", 1, "visible"},                           /* a lone space */
        {"   ", 3, "visible"},                         /* spaces */
        {"\xe3\x80\x80", 3, "visible"},                /* ideographic space */
        {"\xe2\x80\x8b", 3, "invisible"},              /* U+200B zero-width space */
        {"a\xe2\x80\xae"
         "b",
         5, "invisible"}, /* U+202E right-to-left override */
        {"a\xe2\x81\xa6"
         "b",
         5, "invisible"}, /* U+2066 left-to-right isolate */
        {"a\xe2\x81\xa9"
         "b",
         5, "invisible"}, /* U+2069 pop directional isolate */
        {"\xef\xbb\xbf"
         "a",
         4, "invisible"},                     /* BOM */
        {"\xe3\x85\xa4", 3, "invisible"},     /* Hangul filler */
        {"a\xef\xbf\xbf", 4, "invisible"},    /* noncharacter U+FFFF */
        {"\xf3\xa0\x80\x81", 4, "invisible"}, /* tag U+E0001 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *why = txt_name_problem(cases[i].name, cases[i].len);
        if (!cases[i].reason) {
            assert_null(why);
            assert_true(txt_name_ok(cases[i].name, cases[i].len));
        } else {
            assert_non_null(why);
            assert_non_null(strstr(why, cases[i].reason));
            assert_false(txt_name_ok(cases[i].name, cases[i].len));
        }
    }
    /* HELLO carries any name bytes so that the server can say why: a bad
     * name decodes, with its raw length. */
    uint8_t buf[64] = {WIRE_HELLO, 0x4D, 0x5A, 0x52, 0x43, 0, WIRE_VERSION, 3, 'a', '\t', 'b'};
    wire_msg m;
    assert_true(wire_read(buf, 11, &m));
    assert_int_equal(m.hello.name_len, 3);
    assert_memory_equal(m.hello.name, "a\tb", 3);
    assert_false(wire_read(buf, 10, &m)); /* name cut short: malformed */
}

/* Issue 12 point 2: move types 1..4 (RESTART is 4) are valid, 0 and 5+
 * make the message malformed; dir 0..3. */
static void test_move_types(void **ctx)
{
    (void)ctx;
    uint8_t buf[11] = {WIRE_MOVE, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0};
    wire_msg m;
    for (int type = 0; type < 256; type++) {
        buf[5] = (uint8_t)type;
        bool ok = wire_read(buf, sizeof buf, &m);
        assert_int_equal(ok, type >= 1 && type <= 4);
        if (ok)
            assert_int_equal(m.move.move.type, type);
    }
    assert_int_equal(PZ_MOVE_RESTART, 4);
    buf[5] = PZ_MOVE_RESTART;
    buf[6] = 4; /* dir out of range */
    assert_false(wire_read(buf, sizeof buf, &m));
}

static void test_text_and_codes(void **ctx)
{
    (void)ctx;
    assert_true(txt_name_ok("a", 1));
    assert_false(txt_name_ok("", 0));
    assert_false(txt_name_ok("1234567890123456789012345", 25));
    assert_true(txt_name_ok("\xe2\x82\xac", 3));  /* euro sign */
    assert_false(txt_name_ok("\xc0\xaf", 2));     /* overlong '/' */
    assert_false(txt_name_ok("\xed\xa0\x80", 3)); /* surrogate */
    assert_false(txt_name_ok("\xc2\x85", 2));     /* C1 control */
    assert_false(txt_name_ok("a\x7f", 2));
    assert_false(txt_name_ok("\xe2\x82", 2)); /* cut short */
    char out[9];
    txt_clean(out, sizeof out, "ab\ncd\xff\xe2\x82\xac\xe2\x82\xac");
    assert_string_equal(out, "ab?cd\xe2\x82\xac"); /* the second euro does not fit */
    assert_true(txt_text_ok(out, strlen(out)));

    rng_t r;
    rng_seed(&r, 5);
    char code[WIRE_ROOM_CODE_LEN + 1], parsed[WIRE_ROOM_CODE_LEN + 1];
    for (int i = 0; i < 100; i++) {
        wire_room_code_make(&r, code);
        assert_true(wire_room_code_ok(code));
    }
    assert_true(wire_room_code_parse(" ab-3xy ", parsed));
    assert_string_equal(parsed, "AB3XY");
    assert_false(wire_room_code_parse("AB3X", parsed));
    assert_false(wire_room_code_parse("AB3XYZ", parsed));
    assert_false(wire_room_code_parse("AB0XY", parsed)); /* zero is not in the alphabet */
    assert_false(wire_room_code_ok("ABCDEF"));
    assert_false(wire_room_code_ok("abcde"));
}

/* Random bytes and random mutations of valid messages never crash the
 * decoder (run under ASan in CI). Bounded: about a second. */
static void test_random_input(void **ctx)
{
    (void)ctx;
    rng_t r;
    rng_seed(&r, 2026);
    uint8_t buf[256], valid[512];
    wire_msg m;
    wire_probe p;
    wire_probe_reply rp;
    int decoded = 0;
    for (int iter = 0; iter < 200000; iter++) {
        size_t n = rng_below(&r, sizeof buf);
        for (size_t i = 0; i < n; i++)
            buf[i] = (uint8_t)rng_below(&r, 256);
        if (n > 0 && iter % 2)
            buf[0] = (uint8_t)types[rng_below(&r, MR_ARRAY_LEN(types))];
        decoded += wire_read(buf, n, &m);
        wire_read_probe(buf, n, &p);
        wire_read_probe_reply(buf, n, &rp);
    }
    for (int iter = 0; iter < 50000; iter++) {
        wire_msg s;
        sample(types[rng_below(&r, MR_ARRAY_LEN(types))], &s);
        size_t n = encode(&s, valid, sizeof valid);
        int flips = 1 + (int)rng_below(&r, 3);
        for (int f = 0; f < flips; f++)
            valid[rng_below(&r, (uint32_t)n)] ^= (uint8_t)(1u << rng_below(&r, 8));
        if (wire_read(valid, n, &m)) {
            /* Whatever decodes must encode again without tripping an assert. */
            uint8_t again[512];
            size_t k = wire_size(&m);
            assert_true(k <= sizeof again);
            wire_write(&m, again, sizeof again);
            decoded++;
        }
    }
    printf("random input: %d buffers decoded as valid messages\n", decoded);
}

/* BUNDLE: entries come back whole and in order; any fault in the framing
 * refuses the whole bundle; adding past the cap writes nothing. */
static void test_bundle(void **ctx)
{
    (void)ctx;
    static uint8_t b[WIRE_BUNDLE_MAX + 8];
    uint8_t one[512];
    size_t lens[MR_ARRAY_LEN(types)], used = 0;
    for (size_t i = 0; i < MR_ARRAY_LEN(types); i++) {
        wire_msg m;
        sample(types[i], &m);
        lens[i] = encode(&m, one, sizeof one);
        assert_true(wire_bundle_add(b, WIRE_BUNDLE_MAX, &used, one, lens[i]));
    }
    assert_int_equal(b[0], WIRE_BUNDLE);
    assert_string_equal(wire_type_name(WIRE_BUNDLE), "BUNDLE");
    wire_msg r;
    assert_false(wire_read(b, used, &r)); /* not one message */
    wire_bundle_it it;
    assert_true(wire_bundle_open(&it, b, used));
    const uint8_t *e;
    size_t n, count = 0;
    while (wire_bundle_next(&it, &e, &n)) {
        assert_true(count < MR_ARRAY_LEN(types));
        assert_int_equal(n, lens[count]);
        assert_true(wire_read(e, n, &r));
        assert_int_equal(r.type, types[count]);
        count++;
    }
    assert_int_equal(count, MR_ARRAY_LEN(types));

    /* The cap: an entry that does not fit leaves the bundle as it was. */
    size_t small = 0;
    assert_true(wire_bundle_add(b, 10, &small, one, 7)); /* 1 + 2 + 7 */
    assert_int_equal(small, 10);
    assert_false(wire_bundle_add(b, 10, &small, one, 1));
    assert_int_equal(small, 10);
    small = 0;
    assert_false(wire_bundle_add(b, 10, &small, one, 8));
    assert_int_equal(small, 0);

    /* A bundle of one PROGRESS-sized entry, then each fault. */
    uint8_t ok[] = {WIRE_BUNDLE, 0, 2, WIRE_READY, 1};
    assert_true(wire_bundle_open(&it, ok, sizeof ok));
    assert_true(wire_bundle_next(&it, &e, &n) && n == 2 && e == ok + 3);
    assert_false(wire_bundle_next(&it, &e, &n));
    uint8_t only_type[] = {WIRE_BUNDLE};
    uint8_t empty_entry[] = {WIRE_BUNDLE, 0, 0, WIRE_READY, 1};
    uint8_t short_len[] = {WIRE_BUNDLE, 0, 2, WIRE_READY, 1, 0};
    uint8_t past_end[] = {WIRE_BUNDLE, 0, 3, WIRE_READY, 1};
    uint8_t nested[] = {WIRE_BUNDLE, 0, 5, WIRE_BUNDLE, 0, 2, WIRE_READY, 1};
    uint8_t trailing[] = {WIRE_BUNDLE, 0, 2, WIRE_READY, 1, 0, 0};
    uint8_t not_bundle[] = {WIRE_READY, 0, 2, WIRE_READY, 1};
    assert_false(wire_bundle_open(&it, only_type, sizeof only_type));
    assert_false(wire_bundle_open(&it, empty_entry, sizeof empty_entry));
    assert_false(wire_bundle_open(&it, short_len, sizeof short_len));
    assert_false(wire_bundle_open(&it, past_end, sizeof past_end));
    assert_false(wire_bundle_open(&it, nested, sizeof nested));
    assert_false(wire_bundle_open(&it, trailing, sizeof trailing));
    assert_false(wire_bundle_open(&it, not_bundle, sizeof not_bundle));
    assert_false(wire_bundle_open(&it, NULL, 0));
    /* Longer than WIRE_BUNDLE_MAX, though well framed. */
    used = 0;
    memset(one, 0, sizeof one);
    one[0] = WIRE_READY;
    while (wire_bundle_add(b, WIRE_BUNDLE_MAX, &used, one, 200)) {
    }
    assert_true(wire_bundle_open(&it, b, used));
    size_t fill = WIRE_BUNDLE_MAX + 3 - used; /* one more entry that ends exactly past the limit */
    assert_true(fill >= 4 && used + fill <= sizeof b);
    b[used] = (uint8_t)((fill - 2) >> 8);
    b[used + 1] = (uint8_t)(fill - 2);
    b[used + 2] = WIRE_READY;
    assert_false(wire_bundle_open(&it, b, used + fill));

    /* Mutated bundles: open either refuses them or every entry lies inside. */
    rng_t rg;
    rng_seed(&rg, 48);
    uint8_t v[64];
    for (int iter = 0; iter < 20000; iter++) {
        size_t len = 0;
        int k = 1 + (int)rng_below(&rg, 4);
        for (int j = 0; j < k; j++) {
            uint8_t msg[8] = {WIRE_READY, 1, 2, 3, 4, 5, 6, 7};
            wire_bundle_add(v, sizeof v, &len, msg, 1 + rng_below(&rg, 8));
        }
        v[rng_below(&rg, (uint32_t)len)] ^= (uint8_t)(1u << rng_below(&rg, 8));
        if (!wire_bundle_open(&it, v, len))
            continue;
        size_t total = 1;
        while (wire_bundle_next(&it, &e, &n)) {
            assert_true(n >= 1 && e >= v && e + n <= v + len && e[0] != WIRE_BUNDLE);
            total += 2 + n;
        }
        assert_int_equal(total, len);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_every_type),
        cmocka_unit_test(test_fields_land_in_place),
        cmocka_unit_test(test_truncated_and_extended_fail),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_bad_fields_fail),
        cmocka_unit_test(test_hello_other_version),
        cmocka_unit_test(test_discovery),
        cmocka_unit_test(test_discovery_details),
        cmocka_unit_test(test_spectator_messages),
        cmocka_unit_test(test_text_and_codes),
        cmocka_unit_test(test_name_rule),
        cmocka_unit_test(test_move_types),
        cmocka_unit_test(test_random_input),
        cmocka_unit_test(test_bundle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
