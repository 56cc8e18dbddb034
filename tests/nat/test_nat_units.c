/* test_nat_units.c: the NAT paths' pieces without a network: TURN integrity (RFC 5769 vectors, long-term
 * key), the binding transaction's retransmissions, answers and failure text, hole-punch probes (client/net).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cl_stun.h"
#include "cl_turn.h"
#include "stun.h"
#include "stun_vectors.h"

static void test_integrity_vectors(void **st)
{
    (void)st;
    const uint8_t *msgs[] = {sample_request, sample_response};
    size_t lens[] = {sizeof sample_request, sizeof sample_response};
    for (int i = 0; i < 2; i++) {
        stun_msg m;
        uint8_t b[128];
        memcpy(b, msgs[i], lens[i]);
        assert_true(stun_decode(b, lens[i], &m));
        assert_true(
            cl_turn_verify(b, lens[i], &m, (const uint8_t *)sample_password, strlen(sample_password)));
        /* One bit anywhere before the integrity breaks it; so does another key. */
        for (size_t k = STUN_HEADER; k < m.integrity_at; k += 7) {
            b[k] ^= 0x10;
            stun_msg m2;
            if (stun_decode(b, lens[i], &m2))
                assert_false(cl_turn_verify(b, lens[i], &m2, (const uint8_t *)sample_password,
                                            strlen(sample_password)));
            b[k] ^= 0x10;
        }
        assert_false(cl_turn_verify(b, lens[i], &m, (const uint8_t *)"VOkJxbRl1RmTxUk/WvJxBs", 22));
    }
}

static void test_long_term_key(void **st)
{
    (void)st;
    /* MD5("1700000000:race:mazerace:pw"), from Python's hashlib. */
    static const uint8_t want[16] = {0xbb, 0x1e, 0x33, 0xc0, 0x9d, 0xf7, 0x7e, 0x30,
                                     0x45, 0x46, 0xf8, 0xf6, 0x33, 0xf2, 0x0c, 0x69};
    uint8_t key[16];
    cl_turn_key("1700000000:race", "mazerace", "pw", key);
    assert_memory_equal(key, want, 16);
    /* Signed by us, verified by us; any change refused. */
    uint8_t tid[STUN_TID_LEN] = {9};
    uint8_t buf[256];
    stun_writer w;
    stun_begin(&w, buf, sizeof buf, STUN_ALLOCATE, STUN_REQUEST, tid);
    stun_put_u32(&w, STUN_A_REQUESTED_TRANSPORT, 17u << 24);
    stun_put_text(&w, STUN_A_USERNAME, "1700000000:race");
    size_t slot = stun_integrity_slot(&w);
    cl_turn_sign(buf, slot, key, sizeof key);
    size_t len = stun_end(&w);
    stun_msg m;
    assert_true(stun_decode(buf, len, &m));
    assert_true(cl_turn_verify(buf, len, &m, key, sizeof key));
    buf[25] ^= 1;
    assert_true(stun_decode(buf, len, &m));
    assert_false(cl_turn_verify(buf, len, &m, key, sizeof key));
}

static int udp_socket(stun_addr *a)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    assert_true(fd >= 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    socklen_t sl = sizeof sa;
    assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &sl), 0);
    *a = (stun_addr){ntohl(sa.sin_addr.s_addr), ntohs(sa.sin_port), false};
    return fd;
}

/* Datagrams waiting on fd (the last one into buf). */
static int drain(int fd, uint8_t *buf, size_t *len)
{
    int n = 0;
    uint8_t tmp[STUN_MAX];
    ssize_t got;
    while ((got = recv(fd, tmp, sizeof tmp, MSG_DONTWAIT)) > 0) {
        n++;
        if (buf) {
            memcpy(buf, tmp, (size_t)got);
            *len = (size_t)got;
        }
    }
    return n;
}

static void test_binding_transaction(void **st)
{
    (void)st;
    stun_addr ca, sa;
    int cfd = udp_socket(&ca), sfd = udp_socket(&sa);
    const char *err = NULL;
    assert_null(cl_stun_create(cfd, (stun_addr){0, 3478, false}, 0, 1000, &err));
    assert_non_null(err);

    /* No answer: sends at 0, 100, 300, 700, 1500, then fails at the deadline, saying so. */
    cl_stun_t *s = cl_stun_create(cfd, sa, 1000, 2000, &err);
    assert_non_null(s);
    assert_int_equal(drain(sfd, NULL, NULL), 1);
    uint64_t steps[] = {1050, 1100, 1299, 1300, 1700, 2500, 2999};
    int want[] = {0, 1, 0, 1, 1, 1, 0};
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        assert_int_equal(cl_stun_update(s, steps[i]), CL_STUN_PENDING);
        assert_int_equal(drain(sfd, NULL, NULL), want[i]);
    }
    assert_int_equal(cl_stun_update(s, 3000), CL_STUN_FAILED);
    char expect[80];
    snprintf(expect, sizeof expect, "no STUN answer from 127.0.0.1:%u in 2000 ms", sa.port);
    assert_string_equal(cl_stun_error(s), expect);
    cl_stun_destroy(s);

    /* An answer: only from the server, only with our transaction id. */
    s = cl_stun_create(cfd, sa, 5000, 2000, &err);
    uint8_t req[STUN_MAX];
    size_t rlen = 0;
    assert_int_equal(drain(sfd, req, &rlen), 1);
    stun_msg m;
    assert_true(stun_decode(req, rlen, &m));
    assert_int_equal(m.method, STUN_BINDING);
    assert_int_equal(m.cls, STUN_REQUEST);
    uint8_t ans[128];
    stun_writer w;
    stun_begin(&w, ans, sizeof ans, STUN_BINDING, STUN_SUCCESS, m.tid);
    stun_put_xor_addr(&w, STUN_A_XOR_MAPPED_ADDRESS, (stun_addr){0x0B00000Bu, 40000, false});
    size_t alen = stun_end(&w);
    stun_addr other = sa;
    other.port++;
    assert_false(cl_stun_feed(s, other, ans, alen, 5010));
    ans[8] ^= 1;
    assert_false(cl_stun_feed(s, sa, ans, alen, 5010));
    ans[8] ^= 1;
    assert_true(cl_stun_feed(s, sa, ans, alen, 5012));
    assert_int_equal(cl_stun_update(s, 5013), CL_STUN_DONE);
    assert_int_equal(cl_stun_mapped(s).ip, 0x0B00000Bu);
    assert_int_equal(cl_stun_mapped(s).port, 40000);
    assert_int_equal(cl_stun_rtt_ms(s), 12);
    assert_null(cl_stun_error(s));
    /* A second copy of the answer is not taken again. */
    assert_false(cl_stun_feed(s, sa, ans, alen, 5020));
    cl_stun_destroy(s);

    /* An error answer fails the transaction with its code and reason. */
    s = cl_stun_create(cfd, sa, 9000, 2000, &err);
    assert_int_equal(drain(sfd, req, &rlen), 1);
    assert_true(stun_decode(req, rlen, &m));
    stun_begin(&w, ans, sizeof ans, STUN_BINDING, STUN_ERROR, m.tid);
    uint8_t ec[4 + 11] = {0, 0, 4, 0};
    memcpy(ec + 4, "Bad Request", 11);
    stun_put(&w, STUN_A_ERROR_CODE, ec, sizeof ec);
    assert_true(cl_stun_feed(s, sa, ans, stun_end(&w), 9001));
    assert_int_equal(cl_stun_update(s, 9002), CL_STUN_FAILED);
    assert_string_equal(cl_stun_error(s), "STUN error 400: Bad Request");
    cl_stun_destroy(s);
    close(cfd);
    close(sfd);
}

static void test_punch_probes(void **st)
{
    (void)st;
    stun_addr ca, pa;
    int cfd = udp_socket(&ca), pfd = udp_socket(&pa);
    cl_punch_t *p = cl_punch_create(cfd, pa, 0);
    uint8_t probe[STUN_MAX];
    size_t plen = 0;
    assert_int_equal(drain(pfd, probe, &plen), 1);
    stun_msg m;
    assert_true(stun_decode(probe, plen, &m));
    assert_int_equal(m.method, STUN_BINDING);
    assert_int_equal(m.cls, STUN_INDICATION);
    /* Every 20 ms for the first second, then every 200 ms. */
    cl_punch_update(p, 10);
    assert_int_equal(drain(pfd, NULL, NULL), 0);
    for (uint64_t t = 20; t < 1000; t += 20)
        cl_punch_update(p, t);
    assert_int_equal(drain(pfd, NULL, NULL), 49);
    cl_punch_update(p, 1100);
    cl_punch_update(p, 1200);
    assert_int_equal(drain(pfd, NULL, NULL), 1);
    assert_int_equal(cl_punch_sent(p), 51);
    /* Heard: a probe from the peer's address (any port: a symmetric NAT
     * shows another), nothing from elsewhere, and no other message. */
    assert_false(cl_punch_heard(p));
    assert_false(cl_punch_feed(p, (stun_addr){pa.ip + 1, pa.port, false}, probe, plen));
    assert_false(cl_punch_feed(p, pa, sample_response, sizeof sample_response));
    assert_false(cl_punch_heard(p));
    assert_true(cl_punch_feed(p, (stun_addr){pa.ip, (uint16_t)(pa.port + 9), false}, probe, plen));
    assert_true(cl_punch_heard(p));
    cl_punch_destroy(p);
    close(cfd);
    close(pfd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integrity_vectors),
        cmocka_unit_test(test_long_term_key),
        cmocka_unit_test(test_binding_transaction),
        cmocka_unit_test(test_punch_probes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
