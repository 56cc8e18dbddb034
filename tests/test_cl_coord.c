/* test_cl_coord.c: the client side of the coordinator (client/net/cl_coord.c) against the coordinator's logic
 * (coordinator/co_core.c) in one process: host, lookup, introduction, relay credentials, refresh, retries,
 * silence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cl_coord.h"
#include "co.h"

/* The "network": datagrams to the coordinator are handled at once; its
 * answers go to the client whose address they name. drop > 0 loses that
 * many datagrams to the coordinator first. */
typedef struct net {
    co_t *co;
    cl_coord_t *cl[2];
    coord_addr addr[2];
    uint64_t now;
    int drop;
    int sent;
} net;
typedef struct side {
    net *n;
    int who;
} side;

static const coord_addr co_addr = {0x7F000001u, 27920};

static bool deliver(void *ctx, coord_addr to, const uint8_t *buf, size_t len)
{
    side *s = ctx;
    net *n = s->n;
    assert_int_equal(to.ip, co_addr.ip);
    n->sent++;
    if (n->drop > 0) {
        n->drop--;
        return true;
    }
    co_out out;
    co_handle(n->co, n->addr[s->who], buf, len, n->now, 1700000000, &out);
    for (int i = 0; i < out.n; i++)
        for (int k = 0; k < 2; k++)
            if (n->cl[k] && out.to[i].ip == n->addr[k].ip && out.to[i].port == n->addr[k].port)
                assert_true(cl_coord_input(n->cl[k], co_addr, out.buf[i], out.len[i], n->now));
    return true;
}

static bool next(cl_coord_t *c, int type, coord_msg *ev)
{
    if (!cl_coord_poll(c, ev))
        return false;
    if (ev->type != type)
        fail_msg("event %s (%s), wanted %s", coord_type_name(ev->type), ev->text, coord_type_name(type));
    return true;
}

static void test_host_join_turn(void **st)
{
    (void)st;
    co_config cfg;
    co_config_defaults(&cfg);
    strcpy(cfg.turn_secret, "north");
    const char *err;
    net n = {.co = co_create(&cfg, &err), .addr = {{0x0B000001u, 5000}, {0x0C000001u, 6000}}, .now = 1000};
    side sh = {&n, 0}, sj = {&n, 1};
    n.cl[0] = cl_coord_create(co_addr, deliver, &sh);
    n.cl[1] = cl_coord_create(co_addr, deliver, &sj);
    coord_cand lan = {COORD_CAND_LAN, {0xC0A80102u, 27910}};
    assert_false(cl_coord_host(n.cl[0], "", &lan, 1, n.now)); /* bad name */
    assert_true(cl_coord_host(n.cl[0], "Ann", &lan, 1, n.now));
    coord_msg ev;
    assert_true(next(n.cl[0], COORD_HOST_OK, &ev));
    char code[COORD_CODE_LEN + 2];
    strcpy(code, cl_coord_code(n.cl[0]));
    assert_string_equal(code, ev.code);
    /* A person types it in lower case with a blank. */
    char typed[16];
    snprintf(typed, sizeof typed, "%.5s %s", code, code + 5);
    for (char *p = typed; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    coord_cand stun = {COORD_CAND_STUN, {0x0C000001u, 6001}};
    assert_true(cl_coord_lookup(n.cl[1], typed, &stun, 1, n.now));
    assert_true(next(n.cl[1], COORD_LOOKUP_OK, &ev));
    assert_int_equal(ev.cand[0].addr.port, 27910);
    assert_string_equal(ev.name, "Ann");
    coord_msg in;
    assert_true(next(n.cl[0], COORD_INTRODUCE, &in));
    assert_int_equal(in.pair, ev.pair);
    assert_int_equal(in.cand[0].addr.port, 6001);
    /* Both sides get relay credentials for their pair. */
    assert_true(cl_coord_turn(n.cl[1], 0, n.now));
    assert_true(next(n.cl[1], COORD_TURN_OK, &ev));
    assert_true(cl_coord_turn(n.cl[0], in.pair, n.now));
    assert_true(next(n.cl[0], COORD_TURN_OK, &ev));
    /* Refreshes keep the code alive past its lifetime. */
    for (int i = 0; i < 40; i++) {
        n.now += 5000;
        cl_coord_update(n.cl[0], n.now);
        co_expire(n.co, n.now);
        while (cl_coord_poll(n.cl[0], &ev))
            assert_int_equal(ev.type, COORD_HOST_OK);
    }
    assert_string_equal(cl_coord_code(n.cl[0]), code);
    assert_true(cl_coord_lookup(n.cl[1], code, NULL, 0, n.now));
    assert_true(next(n.cl[1], COORD_LOOKUP_OK, &ev));
    /* Leave: the code is gone. */
    cl_coord_leave(n.cl[0]);
    assert_true(cl_coord_lookup(n.cl[1], code, NULL, 0, n.now));
    assert_true(next(n.cl[1], COORD_ERROR, &ev));
    assert_int_equal(ev.error, COORD_E_NO_CODE);
    cl_coord_destroy(n.cl[0]);
    cl_coord_destroy(n.cl[1]);
    co_destroy(n.co);
}

static void test_retry_and_silence(void **st)
{
    (void)st;
    co_config cfg;
    co_config_defaults(&cfg);
    const char *err;
    net n = {.co = co_create(&cfg, &err), .addr = {{0x0B000001u, 5000}}, .now = 1000, .drop = 2};
    side sh = {&n, 0};
    n.cl[0] = cl_coord_create(co_addr, deliver, &sh);
    cl_coord_list(n.cl[0], 0, n.now); /* lost, and its first retry too */
    coord_msg ev;
    assert_false(cl_coord_poll(n.cl[0], &ev));
    for (int i = 0; i < 40 && !cl_coord_poll(n.cl[0], &ev); i++) {
        n.now += 100;
        cl_coord_update(n.cl[0], n.now);
    }
    assert_int_equal(ev.type, COORD_SERVER_LIST);
    assert_int_equal(n.sent, 3);
    /* A coordinator that never answers: an ERROR naming it, after 4 sends. */
    n.drop = 1000;
    n.sent = 0;
    cl_coord_list(n.cl[0], 0, n.now);
    bool got = false;
    for (int i = 0; i < 100 && !got; i++) {
        n.now += 100;
        cl_coord_update(n.cl[0], n.now);
        got = cl_coord_poll(n.cl[0], &ev);
    }
    assert_true(got);
    assert_int_equal(ev.type, COORD_ERROR);
    assert_non_null(strstr(ev.text, "127.0.0.1:27920 did not answer"));
    assert_int_equal(n.sent, 4);
    /* Datagrams from elsewhere are not the coordinator's. */
    uint8_t junk[12] = "MRCO";
    assert_false(cl_coord_input(n.cl[0], (coord_addr){0x01020304u, 27920}, junk, sizeof junk, n.now));
    cl_coord_destroy(n.cl[0]);
    co_destroy(n.co);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_join_turn),
        cmocka_unit_test(test_retry_and_silence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
