/* test_wire_golden.c: every message type encodes to the bytes it had before the wire tables (golden hex). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util.h"
#include "wire.h"
#include "wire_samples.h"

/* wire_samples.h's sample of each type as encoded by wire.c at ac49145,
 * before the message tables: the bytes on the wire must never change. */
static const struct {
    int type;
    const char *hex;
} golden[] = {
    {WIRE_HELLO, "014d5a52430005045a6fc3ab"},
    {WIRE_WELCOME, "02a1b2c3d4076c616e20626f78"},
    {WIRE_REFUSED, "03012476657273696f6e206d69736d617463683a2073657276657220312c20636c69656e742032"},
    {WIRE_CREATE_ROOM, "0a0005020019001402010102030405060708"},
    {WIRE_JOIN_ROOM, "0b4142335859"},
    {WIRE_QUICK_MATCH, "0c"},
    {WIRE_LEAVE_ROOM, "0d"},
    {WIRE_READY, "0e01"},
    {WIRE_REMATCH, "0f"},
    {WIRE_RESUME, "105a5a39393901f0efeeedecebeae9e8e7e6e5e4e3e2e1"},
    {WIRE_MOVE, "110000004d0300020103e8"},
    {WIRE_ROOM_STATE, "1e484a4b4d4e01010300060004010301020703616e6e0903626f620203"},
    {WIRE_MATCH_START,
     "1f01012c112233445566778899aabbccddeeff10fffffb2e887766554433221107030100246d617a653a33307832303a"
     "68617264233138343436373434303733373039353531363135"},
    {WIRE_ACK, "200000004e0000000c01"},
    {WIRE_REJECT, "2101020304010f77616c6c20696e2074686520776179"},
    {WIRE_PROGRESS, "220101020000000000000063ffff03e700000007ffffffd300"},
    {WIRE_MATCH_END, "23ff020000fde80001117100010000002800000029000203010101"},
    {WIRE_REMATCH_OFFER, "2401"},
    {WIRE_MOVE_LOG, "250000000100000301010000000000020000050003010300000000"},
    {WIRE_SHUTDOWN, "2614736572766572207368757474696e6720646f776e"},
    {WIRE_ERROR, "27012476657273696f6e206d69736d617463683a2073657276657220312c20636c69656e742032"},
    {WIRE_DESC_REQUEST, "120000ea60"},
    {WIRE_DESC_CHUNK, "2800021122334455667788000111700000ea60000973756d3a3578343a39"},
    {WIRE_WATCH, "165152533233"},
    {WIRE_LIST_ROOMS, "17"},
    {WIRE_WATCH_START,
     "2c484a4b4d4e0002ffffef1f010203040506070803010000246d617a653a33307832303a686172642331383434363734"
     "34303733373039353531363135"},
    {WIRE_ROOM_LIST,
     "2d02bc02414243444502000005000402000303616e6e03626f6258595a3233010200190014000000016300"},
    {WIRE_WATCH_END, "2e1374686520726f6f6d2068617320636c6f736564"},
    {WIRE_REPLAY_REQUEST, "1300000007000000123456789a0000ea60"},
    {WIRE_REPLAY_CHUNK, "290000000800000000000000002a000000640000003c000c6d6f7665203230203120520a"},
    {WIRE_RECENT_REQUEST, "140000000900000000000003e80a"},
    {WIRE_RECENT_LIST,
     "2a0000000a0000000000000003e60200000000000003e80000019aba59363b01001e001402010000020303616e6e0000"
     "13880000002800045a6fc3ab00000fa00000002601246d617a653a33307832303a686172642331383434363734343037"
     "3337303935353136313500000000000003e70000019aba59363c01001e001402ff0300020303616e6e00001388000000"
     "2800045a6fc3ab00000fa0000000260100"},
    {WIRE_BEST_REQUEST,
     "150000000b88776655443322110500246d617a653a33307832303a686172642331383434363734343037333730393535"
     "31363135"},
    {WIRE_BEST_LIST,
     "2b0000000c0002000000000000000103626f62000005dc000000140000019aba5935c0000000000000004d03616e6e00"
     "000640000000120000019aba5939a7"},
    {WIRE_WATCH_AT, "2f51525332330100"},
};

static size_t unhex(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = strlen(hex) / 2;
    assert_true(n <= cap);
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (uint8_t)v;
    }
    return n;
}

/* Encoding gives the golden bytes; decoding them and encoding again too. */
static void test_golden_bytes(void **ctx)
{
    (void)ctx;
    assert_int_equal(MR_ARRAY_LEN(golden), MR_ARRAY_LEN(types));
    for (size_t i = 0; i < MR_ARRAY_LEN(golden); i++) {
        uint8_t want[512], got[512];
        wire_msg m, back;
        size_t n = unhex(golden[i].hex, want, sizeof want);
        sample(golden[i].type, &m);
        assert_int_equal(wire_size(&m), n);
        assert_int_equal(wire_write(&m, got, sizeof got), n);
        if (memcmp(got, want, n) != 0)
            fail_msg("%s: bytes differ from the golden ones", wire_type_name(golden[i].type));
        assert_true(wire_read(want, n, &back));
        assert_int_equal(wire_write(&back, got, sizeof got), n);
        assert_memory_equal(got, want, n);
    }
}

/* Every type has a golden sample (the list is the samples' list). */
static void test_every_type_golden(void **ctx)
{
    (void)ctx;
    for (size_t i = 0; i < MR_ARRAY_LEN(types); i++) {
        bool found = false;
        for (size_t k = 0; k < MR_ARRAY_LEN(golden); k++)
            found = found || golden[k].type == types[i];
        assert_true(found);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_bytes),
        cmocka_unit_test(test_every_type_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
