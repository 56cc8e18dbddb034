/* test_coord.c: the coordinator (coordinator/co_core.c, common/coord_wire.c): invite code alphabet and
 * parsing, every message's round trip, bad input, limits per address, pairs and TURN credentials (RFC 2202
 * HMAC vector). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "co.h"
#include "coord_wire.h"

static void test_alphabet(void **s)
{
    (void)s;
    const char *a = COORD_CODE_ALPHABET;
    assert_int_equal(strlen(a), COORD_CODE_BASE);
    /* No lookalikes: none of these in the alphabet. */
    for (const char *p = "0O1IL2Z5S8BUVG6Q"; *p; p++)
        assert_null(strchr(a, *p));
    for (int i = 0; i < COORD_CODE_BASE; i++)
        assert_ptr_equal(strchr(a, a[i]), &a[i]); /* no repeats */
    /* Every character shows up across codes from varied bytes. */
    int seen[256] = {0};
    for (int k = 0; k < 400; k++) {
        uint8_t rnd[COORD_CODE_LEN];
        for (int i = 0; i < COORD_CODE_LEN; i++)
            rnd[i] = (uint8_t)(k * 37 + i * 101 + k * i);
        char code[COORD_CODE_LEN + 2];
        coord_code_make(rnd, code);
        assert_int_equal(code[0], '+');
        assert_int_equal(strlen(code), COORD_CODE_LEN + 1);
        for (int i = 1; i <= COORD_CODE_LEN; i++) {
            assert_non_null(strchr(a, code[i]));
            seen[(uint8_t)code[i]]++;
        }
        char back[COORD_CODE_LEN + 2];
        assert_null(coord_code_parse(code, back));
        assert_string_equal(back, code);
    }
    for (int i = 0; i < COORD_CODE_BASE; i++)
        assert_true(seen[(uint8_t)a[i]] > 0);
}

static void test_code_parse(void **s)
{
    (void)s;
    char out[COORD_CODE_LEN + 2];
    assert_null(coord_code_parse("+k7mp 9nxa", out));
    assert_string_equal(out, "+K7MP9NXA");
    assert_null(coord_code_parse("K7MP-9NXA", out));
    assert_string_equal(out, "+K7MP9NXA");
    assert_non_null(coord_code_parse("+K7MP9NX", out));   /* short */
    assert_non_null(coord_code_parse("+K7MP9NXAA", out)); /* long */
    assert_non_null(coord_code_parse("+K7MP9NX0", out));  /* 0: a lookalike */
    assert_non_null(coord_code_parse("", out));
    assert_non_null(coord_code_parse("++K7MP9NXA", out));
}

static coord_msg sample(int type)
{
    coord_msg m = {
        .type = (uint8_t)type, .id = 0xA1B2C3D4u, .pair = 77, .seconds = 60, .start = 3, .total = 9};
    memset(m.token, 0x5A, sizeof m.token);
    strcpy(m.code, "+K7MP9NXA");
    strcpy(m.name, "Ann's game");
    m.ncand = 2;
    m.cand[0] = (coord_cand){COORD_CAND_LAN, {0xC0A80102u, 27910}};
    m.cand[1] = (coord_cand){COORD_CAND_STUN, {0xCB007101u, 40000}};
    m.seen = (coord_addr){0xCB007101u, 40001};
    m.turn = (coord_addr){0xCB007102u, 3478};
    strcpy(m.user, "1700000000:mr0000004d");
    strcpy(m.pass, "L5IURMYChjwYiSmXb+6ioPkenH4=");
    m.server = (coord_server){{0, 27910}, 3, 1, 4000, "Big server", "0.9.0"};
    m.nlist = 2;
    m.list[0] = (coord_server){{0x0A000001u, 27910}, 1, 1, 10, "One", "0.9.0"};
    m.list[1] = (coord_server){{0x0A000002u, 27911}, 0, 0, 20, "Two", "0.9.1"};
    m.error = COORD_E_RATE;
    strcpy(m.text, "wait");
    return m;
}

static void test_round_trip(void **s)
{
    (void)s;
    for (int t = COORD_HOST_REGISTER; t <= COORD_ERROR; t++) {
        coord_msg m = sample(t), back;
        uint8_t buf[COORD_MAX];
        size_t n = coord_encode(&m, buf, sizeof buf);
        bool vbad;
        assert_true(coord_decode(buf, n, &back, &vbad));
        assert_false(vbad);
        assert_int_equal(back.type, t);
        assert_int_equal(back.id, m.id);
        uint8_t again[COORD_MAX];
        assert_int_equal(coord_encode(&back, again, sizeof again), n);
        assert_memory_equal(again, buf, n);
        /* Every cut and every extra byte fails. */
        for (size_t k = 0; k < n; k++)
            assert_false(coord_decode(buf, k, &back, &vbad));
        buf[n] = 0;
        assert_false(coord_decode(buf, n + 1, &back, &vbad));
    }
}

static void test_bad_fields(void **s)
{
    (void)s;
    coord_msg m = sample(COORD_LOOKUP), back;
    uint8_t buf[COORD_MAX];
    size_t n = coord_encode(&m, buf, sizeof buf);
    bool vbad;
    buf[COORD_HEADER] = '0'; /* a lookalike in the code */
    assert_false(coord_decode(buf, n, &back, &vbad));
    n = coord_encode(&m, buf, sizeof buf);
    buf[COORD_HEADER + COORD_CODE_LEN] = COORD_CAND_MAX + 1; /* too many candidates */
    assert_false(coord_decode(buf, n, &back, &vbad));
    n = coord_encode(&m, buf, sizeof buf);
    buf[COORD_HEADER + COORD_CODE_LEN + 1] = 9; /* unknown candidate kind */
    assert_false(coord_decode(buf, n, &back, &vbad));
    n = coord_encode(&m, buf, sizeof buf);
    buf[0] = 'X';
    assert_false(coord_decode(buf, n, &back, &vbad));
    n = coord_encode(&m, buf, sizeof buf);
    buf[4] = COORD_VERSION + 1; /* another version: header only */
    assert_true(coord_decode(buf, n, &back, &vbad));
    assert_true(vbad);
    n = coord_encode(&m, buf, sizeof buf);
    buf[5] = 99; /* unknown type */
    assert_false(coord_decode(buf, n, &back, &vbad));
}

static void test_turn_hmac(void **s)
{
    (void)s;
    char pass[29];
    /* RFC 2202, HMAC-SHA1 test case 2: effcdf6a...259a7c79, in base64. */
    co_turn_password("Jefe", "what do ya want for nothing?", pass);
    assert_string_equal(pass, "7/zfauXrL6LSdBbV8YTfnCWafHk=");
    /* python3: base64(hmac.new(b'north', b'1700000000:mr00000001', sha1)) */
    co_turn_password("north", "1700000000:mr00000001", pass);
    assert_string_equal(pass, "L5IURMYChjwYiSmXb+6ioPkenH4=");
}

/* One request through co_handle; the answer decoded into *a (first datagram). */
static int ask(co_t *co, coord_addr from, const coord_msg *req, uint64_t now, coord_msg *a, co_out *out)
{
    uint8_t buf[COORD_MAX];
    size_t n = coord_encode(req, buf, sizeof buf);
    co_handle(co, from, buf, n, now, 1700000000, out);
    if (out->n > 0) {
        bool vbad;
        assert_true(coord_decode(out->buf[0], out->len[0], a, &vbad));
    }
    return out->n;
}

static coord_msg reg(void)
{
    coord_msg m = {.type = COORD_HOST_REGISTER, .id = 1, .ncand = 1};
    strcpy(m.name, "host");
    m.cand[0] = (coord_cand){COORD_CAND_LAN, {0xC0A80102u, 27910}};
    return m;
}

static void test_pairs_and_turn(void **s)
{
    (void)s;
    co_config cfg;
    co_config_defaults(&cfg);
    strcpy(cfg.turn_secret, "north");
    const char *err;
    co_t *co = co_create(&cfg, &err);
    assert_non_null(co);
    coord_addr host = {0x0B000001u, 5000}, joiner = {0x0C000001u, 6000}, other = {0x0D000001u, 7000};
    coord_msg a, r = reg();
    co_out out;
    assert_int_equal(ask(co, host, &r, 1000, &a, &out), 1);
    assert_int_equal(a.type, COORD_HOST_OK);
    assert_int_equal(a.seen.port, 5000);
    char code[COORD_CODE_LEN + 2];
    strcpy(code, a.code);
    coord_msg look = {.type = COORD_LOOKUP, .id = 2, .ncand = 1};
    strcpy(look.code, code);
    look.cand[0] = (coord_cand){COORD_CAND_STUN, {0x0C000001u, 6001}};
    assert_int_equal(ask(co, joiner, &look, 1100, &a, &out), 2);
    assert_int_equal(a.type, COORD_LOOKUP_OK);
    assert_int_equal(a.cand[0].addr.port, 27910);
    assert_int_equal(out.to[1].ip, host.ip); /* INTRODUCE goes to the host */
    coord_msg intro;
    bool vbad;
    assert_true(coord_decode(out.buf[1], out.len[1], &intro, &vbad));
    assert_int_equal(intro.type, COORD_INTRODUCE);
    assert_int_equal(intro.pair, a.pair);
    assert_int_equal(intro.cand[0].addr.port, 6001);
    assert_int_equal(intro.seen.port, 6000);
    coord_msg turn = {.type = COORD_TURN_REQUEST, .id = 3, .pair = a.pair};
    memcpy(turn.token, a.token, COORD_TOKEN_LEN);
    assert_int_equal(ask(co, joiner, &turn, 1200, &a, &out), 1);
    assert_int_equal(a.type, COORD_TURN_OK);
    char pass[29];
    co_turn_password("north", a.user, pass);
    assert_string_equal(a.pass, pass);
    assert_non_null(strstr(a.user, "1700003600:"));
    assert_int_equal(ask(co, host, &turn, 1300, &a, &out), 1); /* the host too */
    assert_int_equal(a.type, COORD_TURN_OK);
    /* A third address, or a wrong token, gets none. */
    assert_int_equal(ask(co, other, &turn, 1400, &a, &out), 1);
    assert_int_equal(a.error, COORD_E_NO_PAIR);
    turn.token[0] ^= 1;
    assert_int_equal(ask(co, joiner, &turn, 1500, &a, &out), 1);
    assert_int_equal(a.error, COORD_E_NO_PAIR);
    /* After the pair's lifetime, none either. */
    turn.token[0] ^= 1;
    co_expire(co, 1100 + (uint64_t)cfg.pair_ttl_s * 1000);
    assert_int_equal(ask(co, joiner, &turn, 1100 + (uint64_t)cfg.pair_ttl_s * 1000, &a, &out), 1);
    assert_int_equal(a.error, COORD_E_NO_PAIR);
    co_destroy(co);
}

static void test_limits(void **s)
{
    (void)s;
    co_config cfg;
    co_config_defaults(&cfg);
    const char *err;
    co_t *co = co_create(&cfg, &err);
    coord_addr host = {0x0B000001u, 5000}, guesser = {0x0E000001u, 9000};
    coord_msg a, r = reg();
    co_out out;
    /* per_addr codes from one address, then FULL. */
    for (int i = 0; i < cfg.per_addr; i++) {
        ask(co, host, &r, 1000, &a, &out);
        assert_int_equal(a.type, COORD_HOST_OK);
    }
    ask(co, host, &r, 1000, &a, &out);
    assert_int_equal(a.error, COORD_E_FULL);
    /* Refresh keeps the code; leave ends it. */
    co_stats st;
    co_get_stats(co, &st);
    assert_int_equal(st.hosts, cfg.per_addr);
    /* Lookups: the burst, then RATE until lookup_rate_ms passes. */
    coord_msg look = {.type = COORD_LOOKUP, .id = 2};
    strcpy(look.code, "+33333333");
    uint64_t t = 5000;
    for (int i = 0; i < cfg.lookup_burst; i++) {
        ask(co, guesser, &look, t, &a, &out);
        assert_int_equal(a.error, COORD_E_NO_CODE);
    }
    ask(co, guesser, &look, t, &a, &out);
    assert_int_equal(a.error, COORD_E_RATE);
    assert_true(a.seconds >= 1);
    ask(co, guesser, &look, t + (uint64_t)cfg.lookup_rate_ms, &a, &out);
    assert_int_equal(a.error, COORD_E_NO_CODE);
    /* Sustained: one per lookup_rate_ms over a simulated hour. */
    int answered = 0;
    for (uint64_t now = t + 10000; now < t + 10000 + 3600000; now += 100) {
        ask(co, guesser, &look, now, &a, &out);
        answered += a.type == COORD_ERROR && a.error == COORD_E_NO_CODE;
    }
    assert_in_range(answered, 3600000 / cfg.lookup_rate_ms, 3600000 / cfg.lookup_rate_ms + cfg.lookup_burst);
    /* Datagrams: burst then RATE even for a cheap request. */
    coord_msg list = {.type = COORD_LIST, .id = 4};
    coord_addr lister = {0x0F000001u, 1};
    int ok = 0;
    for (int i = 0; i < cfg.burst + 10; i++) {
        ask(co, lister, &list, 9000000, &a, &out);
        ok += a.type == COORD_SERVER_LIST;
    }
    assert_int_equal(ok, cfg.burst);
    /* Garbage without our magic gets no answer (no reflection). */
    uint8_t junk[40] = {1, 2, 3};
    co_handle(co, guesser, junk, sizeof junk, 9000000, 0, &out);
    assert_int_equal(out.n, 0);
    co_destroy(co);
}

static void test_servers(void **s)
{
    (void)s;
    co_config cfg;
    co_config_defaults(&cfg);
    const char *err;
    co_t *co = co_create(&cfg, &err);
    coord_msg a, sr = {.type = COORD_SERVER_REGISTER, .id = 1};
    sr.server = (coord_server){{0, 27910}, 3, 1, 4000, "Big server", "0.9.0"};
    co_out out;
    coord_addr srv = {0x0A000001u, 27910}, asker = {0x0A000009u, 1};
    ask(co, srv, &sr, 1000, &a, &out);
    assert_int_equal(a.type, COORD_SERVER_OK);
    assert_true(a.seconds > 0 && a.seconds < cfg.server_ttl_s);
    sr.server.players = 5; /* refresh: same entry */
    ask(co, srv, &sr, 2000, &a, &out);
    coord_msg l = {.type = COORD_LIST, .id = 2};
    ask(co, asker, &l, 2000, &a, &out);
    assert_int_equal(a.total, 1);
    assert_int_equal(a.nlist, 1);
    assert_int_equal(a.list[0].addr.ip, srv.ip);
    assert_int_equal(a.list[0].players, 5);
    assert_string_equal(a.list[0].name, "Big server");
    co_expire(co, 2000 + (uint64_t)cfg.server_ttl_s * 1000);
    ask(co, asker, &l, 2000 + (uint64_t)cfg.server_ttl_s * 1000, &a, &out);
    assert_int_equal(a.total, 0);
    co_destroy(co);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alphabet),   cmocka_unit_test(test_code_parse),
        cmocka_unit_test(test_round_trip), cmocka_unit_test(test_bad_fields),
        cmocka_unit_test(test_turn_hmac),  cmocka_unit_test(test_pairs_and_turn),
        cmocka_unit_test(test_limits),     cmocka_unit_test(test_servers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
