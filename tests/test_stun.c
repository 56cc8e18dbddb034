/* test_stun.c: the STUN/TURN codec (common/stun.c): RFC 5769's sample messages, write/read round trips, every
 * truncation and bad field refused, ChannelData framing, address text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "stun.h"
#include "stun_vectors.h"

static void test_rfc5769(void **st)
{
    (void)st;
    stun_msg m;
    assert_true(stun_decode(sample_response, sizeof sample_response, &m));
    assert_int_equal(m.method, STUN_BINDING);
    assert_int_equal(m.cls, STUN_SUCCESS);
    assert_true(m.has_mapped);
    assert_int_equal(m.mapped.ip, 0xC0000201u);
    assert_int_equal(m.mapped.port, 32853);
    assert_int_equal(m.integrity_at, 48);
    assert_memory_equal(m.tid, sample_response + 8, STUN_TID_LEN);

    assert_true(stun_decode(sample_request, sizeof sample_request, &m));
    assert_int_equal(m.method, STUN_BINDING);
    assert_int_equal(m.cls, STUN_REQUEST);
    assert_int_equal(m.integrity_at, 76);
    assert_false(m.has_mapped);
}

/* Every cut of a good message is refused, and nothing reads past its end. */
static void test_truncations(void **st)
{
    (void)st;
    stun_msg m;
    for (size_t n = 0; n < sizeof sample_response; n++) {
        uint8_t copy[sizeof sample_response];
        memcpy(copy, sample_response, n);
        assert_false(stun_decode(copy, n, &m));
        /* The header's length made to agree with the cut: still refused
         * unless the cut falls between attributes. */
        if (n >= STUN_HEADER && (n & 3) == 0) {
            copy[2] = (uint8_t)((n - STUN_HEADER) >> 8);
            copy[3] = (uint8_t)(n - STUN_HEADER);
            bool between = n == 20 || n == 36 || n == 48 || n == 72;
            assert_int_equal(stun_decode(copy, n, &m), between);
        }
    }
    assert_false(stun_decode(NULL, 0, &m));
}

static void test_bad_fields(void **st)
{
    (void)st;
    stun_msg m;
    uint8_t b[sizeof sample_response];
    /* Magic cookie, top bits, a length not a multiple of 4. */
    memcpy(b, sample_response, sizeof b);
    b[4] ^= 1;
    assert_false(stun_decode(b, sizeof b, &m));
    memcpy(b, sample_response, sizeof b);
    b[0] |= 0x40;
    assert_false(stun_decode(b, sizeof b, &m));
    memcpy(b, sample_response, sizeof b);
    b[3] = 0x3d;
    assert_false(stun_decode(b, sizeof b, &m));
    /* An attribute that runs past the end. */
    memcpy(b, sample_response, sizeof b);
    b[38] = 0x01;
    assert_false(stun_decode(b, sizeof b, &m));
    /* An address of a family that does not exist, or a short one. */
    memcpy(b, sample_response, sizeof b);
    b[41] = 0x03;
    assert_false(stun_decode(b, sizeof b, &m));
    memcpy(b, sample_response, sizeof b);
    b[39] = 0x04;
    assert_false(stun_decode(b, sizeof b, &m));
    /* Something other than FINGERPRINT after MESSAGE-INTEGRITY. */
    memcpy(b, sample_response, sizeof b);
    b[72] = 0x00, b[73] = 0x0D;
    assert_false(stun_decode(b, sizeof b, &m));
    /* An ENet datagram is not STUN. */
    static const uint8_t enet[] = {0x8f, 0xff, 0x12, 0x34, 0x82, 0xff, 0x01, 0x00, 0, 0, 0, 0,
                                   0,    0,    0,    0,    0,    0,    0,    0,    0, 0, 0, 0};
    assert_false(stun_looks_like(enet, sizeof enet));
}

static void test_round_trip(void **st)
{
    (void)st;
    uint8_t tid[STUN_TID_LEN] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    uint8_t buf[256];
    stun_writer w;
    stun_begin(&w, buf, sizeof buf, STUN_CHANNEL_BIND, STUN_REQUEST, tid);
    stun_put_u32(&w, STUN_A_CHANNEL_NUMBER, 0x4001u << 16);
    stun_put_xor_addr(&w, STUN_A_XOR_PEER_ADDRESS, (stun_addr){0x0B00000Cu, 54321, false});
    stun_put_text(&w, STUN_A_USERNAME, "1700000000:race");
    stun_put_text(&w, STUN_A_REALM, "mazerace");
    stun_put_text(&w, STUN_A_NONCE, "abcdef");
    size_t slot = stun_integrity_slot(&w);
    size_t len = stun_end(&w);
    assert_int_equal(slot + 20, len);
    stun_msg m;
    assert_true(stun_decode(buf, len, &m));
    assert_int_equal(m.method, STUN_CHANNEL_BIND);
    assert_int_equal(m.cls, STUN_REQUEST);
    assert_true(m.has_channel);
    assert_int_equal(m.channel, 0x4001);
    assert_true(m.has_peer);
    assert_int_equal(m.peer.ip, 0x0B00000Cu);
    assert_int_equal(m.peer.port, 54321);
    assert_string_equal(m.realm, "mazerace");
    assert_string_equal(m.nonce, "abcdef");
    assert_int_equal(m.integrity_at, slot - 4);
    assert_memory_equal(m.tid, tid, STUN_TID_LEN);

    /* Every class and method comes back as written. */
    static const uint16_t methods[] = {STUN_BINDING, STUN_ALLOCATE,          STUN_REFRESH,      STUN_SEND,
                                       STUN_DATA,    STUN_CREATE_PERMISSION, STUN_CHANNEL_BIND, 0xFFF};
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
        for (uint8_t c = 0; c < 4; c++) {
            stun_begin(&w, buf, sizeof buf, methods[i], c, tid);
            assert_true(stun_decode(buf, stun_end(&w), &m));
            assert_int_equal(m.method, methods[i]);
            assert_int_equal(m.cls, c);
        }

    /* An error answer: code, reason, realm and nonce. */
    stun_begin(&w, buf, sizeof buf, STUN_ALLOCATE, STUN_ERROR, tid);
    uint8_t ec[4 + 12] = {0, 0, 4, 1};
    memcpy(ec + 4, "Unauthorized", 12);
    stun_put(&w, STUN_A_ERROR_CODE, ec, sizeof ec);
    stun_put_text(&w, STUN_A_REALM, "r");
    assert_true(stun_decode(buf, stun_end(&w), &m));
    assert_int_equal(m.error_code, 401);
    assert_string_equal(m.reason, "Unauthorized");
    /* A code out of range is refused. */
    ec[2] = 7;
    stun_begin(&w, buf, sizeof buf, STUN_ALLOCATE, STUN_ERROR, tid);
    stun_put(&w, STUN_A_ERROR_CODE, ec, sizeof ec);
    assert_false(stun_decode(buf, stun_end(&w), &m));
}

static void test_channel_data(void **st)
{
    (void)st;
    uint8_t buf[64];
    for (size_t n = 0; n <= 9; n++) {
        const uint8_t payload[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        size_t len = stun_channel_encode(buf, sizeof buf, 0x4007, payload, n);
        assert_int_equal(len, 4 + ((n + 3) & ~(size_t)3));
        uint16_t ch;
        const uint8_t *d;
        size_t dl;
        assert_true(stun_channel_decode(buf, len, &ch, &d, &dl));
        assert_int_equal(ch, 0x4007);
        assert_int_equal(dl, n);
        assert_memory_equal(d, payload, n);
        /* Without its padding (allowed over UDP), and cut short (refused). */
        assert_true(stun_channel_decode(buf, 4 + n, &ch, &d, &dl));
        if (n)
            assert_false(stun_channel_decode(buf, 3 + n, &ch, &d, &dl));
    }
    uint16_t ch;
    const uint8_t *d;
    size_t dl;
    static const uint8_t low[] = {0x3f, 0xff, 0, 0}, high[] = {0x80, 0x00, 0, 0};
    assert_false(stun_channel_decode(low, sizeof low, &ch, &d, &dl));
    assert_false(stun_channel_decode(high, sizeof high, &ch, &d, &dl));
    /* A STUN message is never ChannelData. */
    assert_false(stun_channel_decode(sample_response, sizeof sample_response, &ch, &d, &dl));
}

static void test_addr_text(void **st)
{
    (void)st;
    stun_addr a;
    assert_true(stun_addr_parse("11.0.0.12:3478", &a));
    assert_int_equal(a.ip, 0x0B00000Cu);
    assert_int_equal(a.port, 3478);
    char t[32];
    stun_addr_text(a, t, sizeof t);
    assert_string_equal(t, "11.0.0.12:3478");
    const char *bad[] = {"",        "11.0.0.12",  "11.0.0.12:0", "11.0.0.12:65536", "256.0.0.1:1",
                         "1.2.3:4", "1.2.3.4:5x", "1.2.3.4: 5",  "-1.2.3.4:5",      "host:1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (stun_addr_parse(bad[i], &a))
            fail_msg("'%s' accepted", bad[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc5769),      cmocka_unit_test(test_truncations),
        cmocka_unit_test(test_bad_fields),   cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_channel_data), cmocka_unit_test(test_addr_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
