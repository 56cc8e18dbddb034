/* test_agones_ports.c: the strict reader of a GameServer's status.ports (server/svc_agones_ports.c): the
 * SDK's shapes read, every flawed or cut text refused whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svc_agones_ports.h"

static const char *read_text(const char *json, svc_agones_ports *out)
{
    return svc_agones_read_ports(json, strlen(json), out);
}

/* GET /gameserver as the REST SDK answers it (sdk.swagger.json: object_meta, spec, status with state,
 * address and ports [{name, port}]), with what the mock sidecar adds. */
static const char sdk_reply[] =
    "{\"object_meta\":{\"name\":\"mazerace-x7k2p-abcde\",\"namespace\":\"default\",\"uid\":\"1-2\","
    "\"resource_version\":\"123\",\"generation\":\"4\",\"creation_timestamp\":\"1700000000\","
    "\"annotations\":{\"mazerace.io/room-ABCDE\":\"maze:15x11:easy\",\"x\":\"{\\\"ports\\\":[1]}\"},"
    "\"labels\":{\"agones.dev/sdk-protocol\":\"4\"}},"
    "\"spec\":{\"health\":{\"disabled\":false,\"period_seconds\":5,\"failure_threshold\":3,"
    "\"initial_delay_seconds\":5}},"
    "\"status\":{\"state\":\"Allocated\",\"address\":\"10.0.0.7\",\"ports\":["
    "{\"name\":\"game\",\"port\":7012},{\"name\":\"spectate\",\"port\":7013},{\"name\":\"metrics\",\"port\":"
    "9100}],"
    "\"counters\":{\"rooms\":{\"count\":\"1\",\"capacity\":\"500\"}},\"players\":null}}";

static void test_sdk_shape(void **state)
{
    (void)state;
    svc_agones_ports p;
    assert_null(read_text(sdk_reply, &p));
    assert_int_equal(p.n, 3);
    assert_int_equal(svc_agones_port_named(&p, SVC_AGONES_PORT_GAME), 7012);
    assert_int_equal(svc_agones_port_named(&p, SVC_AGONES_PORT_SPECTATE), 7013);
    assert_int_equal(svc_agones_port_named(&p, "metrics"), 9100);
    assert_int_equal(svc_agones_port_named(&p, "spec"), 0);
    /* White space anywhere JSON allows it, keys in any order, extra keys in an entry. */
    assert_null(read_text(" \r\n{ \"status\" :\t{ \"ports\" : [ { \"port\" : 1 , \"name\" : \"spectate\" , "
                          "\"protocol\" : \"UDP\" } , {\"name\":\"game\",\"port\":65535} ] } }\n",
                          &p));
    assert_int_equal(svc_agones_port_named(&p, SVC_AGONES_PORT_SPECTATE), 1);
    assert_int_equal(svc_agones_port_named(&p, SVC_AGONES_PORT_GAME), 65535);
}

static void test_no_ports(void **state)
{
    (void)state;
    svc_agones_ports p;
    const char *ok[] = {"{}", "{\"status\":{}}", "{\"status\":{\"ports\":null}}",
                        "{\"status\":{\"ports\":[]}}",
                        "{\"object_meta\":{\"ports\":[{\"name\":\"spectate\",\"port\":5}]},\"status\":{}}",
                        /* a key spelled with an escape is not ours */
                        "{\"st\\u0061tus\":{\"ports\":[{\"name\":\"spectate\",\"port\":5}]}}"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        const char *why = read_text(ok[i], &p);
        if (why)
            fail_msg("%s: %s", ok[i], why);
        assert_int_equal(p.n, 0);
        assert_int_equal(svc_agones_port_named(&p, SVC_AGONES_PORT_SPECTATE), 0);
    }
}

static void test_refused(void **state)
{
    (void)state;
    const char *bad[] = {
        "",
        "[]",
        "null",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]}} x",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013},]}}",
        "{\"status\":[]}",
        "{\"status\":{\"ports\":{}}}",
        "{\"status\":{\"ports\":\"7013\"}}",
        "{\"status\":{\"ports\":[7013]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\"}]}}",
        "{\"status\":{\"ports\":[{\"port\":7013}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":\"7013\"}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":0}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":65536}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":-7013}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013.0}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7e3}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":07013}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":99999999999999999999}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":true}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"\",\"port\":7013}]}}",
        "{\"status\":{\"ports\":[{\"name\":7,\"port\":7013}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spec\\u0074ate\",\"port\":7013}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"name\":\"game\",\"port\":7013}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013,\"port\":7014}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013},{\"name\":\"spectate\",\"port\":7014}]"
        "}}",
        "{\"status\":{\"ports\":[]},\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]}}",
        "{\"status\":{\"ports\":[],\"ports\":[{\"name\":\"spectate\",\"port\":7013}]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":tru}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":\"a\\qb\"}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":\"\\u12G4\"}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":\"tab\there\"}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":1.}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":-}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":1e}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},'x':1}",
        "{\"status\" {\"ports\":[]}}",
        "{\"status\":{\"ports\":[{\"name\":\"spectate\" \"port\":7013}]}}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        svc_agones_ports p;
        memset(&p, 0x5A, sizeof p);
        const char *why = read_text(bad[i], &p);
        if (!why)
            fail_msg("accepted: %s", bad[i]);
        assert_int_equal(p.n, 0); /* nothing of a refused text is kept */
    }
}

/* A NUL inside the given length is a flaw, not an end. */
static void test_nul_inside(void **state)
{
    (void)state;
    static const char t[] = "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]}}\0 ";
    svc_agones_ports p;
    assert_null(svc_agones_read_ports(t, sizeof t - 3, &p));
    assert_non_null(svc_agones_read_ports(t, sizeof t - 1, &p));
    static const char u[] = "{\"x\":\"a\0b\",\"status\":{}}";
    assert_non_null(svc_agones_read_ports(u, sizeof u - 1, &p));
}

/* Every prefix of a good reply (a reply cut short) is refused, and reading
 * looks at no byte past the length given (ASan: each prefix is a copy of
 * exactly that length on the heap). */
static void test_every_cut(void **state)
{
    (void)state;
    size_t n = strlen(sdk_reply);
    for (size_t len = 0; len < n; len++) {
        char *copy = malloc(len ? len : 1);
        memcpy(copy, sdk_reply, len);
        svc_agones_ports p;
        const char *why = svc_agones_read_ports(copy, len, &p);
        free(copy);
        if (!why)
            fail_msg("a cut at %zu of %zu accepted", len, n);
        assert_int_equal(p.n, 0);
    }
}

/* Bounded: 16 entries at most, names of 63 bytes at most, 32 levels of
 * nesting at most (a deep text is refused, not a deep recursion). */
static void test_bounds(void **state)
{
    (void)state;
    char buf[4096];
    svc_agones_ports p;
    for (int count = 16; count <= 17; count++) {
        int n = snprintf(buf, sizeof buf, "{\"status\":{\"ports\":[");
        for (int i = 0; i < count; i++)
            n += snprintf(buf + n, sizeof buf - (size_t)n, "%s{\"name\":\"p%d\",\"port\":%d}", i ? "," : "",
                          i, 7000 + i);
        snprintf(buf + n, sizeof buf - (size_t)n, "]}}");
        const char *why = read_text(buf, &p);
        if (count == 16) {
            assert_null(why);
            assert_int_equal(p.n, 16);
            assert_int_equal(svc_agones_port_named(&p, "p15"), 7015);
        } else {
            assert_non_null(why);
        }
    }
    for (int len = 63; len <= 64; len++) {
        snprintf(buf, sizeof buf, "{\"status\":{\"ports\":[{\"name\":\"%.*s\",\"port\":5}]}}", len,
                 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
        assert_true((read_text(buf, &p) == NULL) == (len == 63));
    }
    /* Nesting: 31 arrays inside the top object read, 33 do not, and a
     * million do not either (without a deep recursion). */
    for (int depth = 31; depth <= 33; depth += 2) {
        int n = snprintf(buf, sizeof buf, "{\"x\":");
        for (int i = 0; i < depth; i++)
            buf[n++] = '[';
        for (int i = 0; i < depth; i++)
            buf[n++] = ']';
        snprintf(buf + n, sizeof buf - (size_t)n, "}");
        assert_true((read_text(buf, &p) == NULL) == (depth == 31));
    }
    size_t big = 1000000;
    char *deep = malloc(big + 8);
    memcpy(deep, "{\"x\":", 5);
    memset(deep + 5, '[', big);
    assert_non_null(svc_agones_read_ports(deep, big + 5, &p));
    free(deep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sdk_shape),  cmocka_unit_test(test_no_ports),  cmocka_unit_test(test_refused),
        cmocka_unit_test(test_nul_inside), cmocka_unit_test(test_every_cut), cmocka_unit_test(test_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
