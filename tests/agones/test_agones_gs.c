/* test_agones_gs.c: the GameServer JSON reader (server/svc_agones_gs.c, json-c): the SDK's shape read
 * (state, room annotations, ports), flawed, cut, mutated and deep texts refused without harm. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svc_agones_gs.h"

/* Reads text (a heap copy of exactly its length, so ASan sees any byte read past it). */
static const char *read_n(const char *text, size_t len, svc_agones_gs *out)
{
    static char err[128];
    char *copy = malloc(len ? len : 1);
    memcpy(copy, text, len);
    const char *why = svc_agones_gs_read(copy, len, out, err, sizeof err);
    free(copy);
    return why;
}

static const char *read_text(const char *text, svc_agones_gs *out)
{
    return read_n(text, strlen(text), out);
}

/* Nothing kept from a refused text. */
static void assert_empty(const svc_agones_gs *gs)
{
    assert_string_equal(gs->state, "");
    assert_int_equal(gs->ports.n, 0);
    assert_null(gs->ports_why);
    assert_int_equal(gs->n_rooms, 0);
    assert_null(gs->rooms);
}

/* GET /gameserver as the REST SDK answers it (sdk.swagger.json: object_meta, spec, status with state,
 * address and ports [{name, port}]), with what the mock sidecar adds. */
static const char sdk_reply[] =
    "{\"object_meta\":{\"name\":\"mazerace-x7k2p-abcde\",\"namespace\":\"default\",\"uid\":\"1-2\","
    "\"resource_version\":\"123\",\"generation\":\"4\",\"creation_timestamp\":\"1700000000\","
    "\"annotations\":{\"mazerace.io/room-ABCDE\":\"maze:15x11:easy\",\"x\":\"{\\\"ports\\\":[1]}\","
    "\"mazerace.io/room-HJK23\":\"ice:8x8:easy\"},"
    "\"labels\":{\"agones.dev/sdk-protocol\":\"5\"}},"
    "\"spec\":{\"health\":{\"disabled\":false,\"period_seconds\":5,\"failure_threshold\":3,"
    "\"initial_delay_seconds\":5}},"
    "\"status\":{\"state\":\"Allocated\",\"address\":\"10.0.0.7\",\"ports\":["
    "{\"name\":\"game\",\"port\":7012},{\"name\":\"spectate\",\"port\":7013},{\"name\":\"metrics\",\"port\":"
    "9100}],"
    "\"counters\":{\"rooms\":{\"count\":\"1\",\"capacity\":\"500\"}},\"players\":null}}";

static void test_sdk_shape(void **state)
{
    (void)state;
    svc_agones_gs gs;
    assert_null(read_text(sdk_reply, &gs));
    assert_string_equal(gs.state, "Allocated");
    assert_null(gs.ports_why);
    assert_int_equal(gs.ports.n, 3);
    assert_int_equal(svc_agones_port_named(&gs.ports, SVC_AGONES_PORT_GAME), 7012);
    assert_int_equal(svc_agones_port_named(&gs.ports, SVC_AGONES_PORT_SPECTATE), 7013);
    assert_int_equal(svc_agones_port_named(&gs.ports, "metrics"), 9100);
    assert_int_equal(svc_agones_port_named(&gs.ports, "spec"), 0);
    assert_int_equal(gs.n_rooms, 2);
    assert_string_equal(gs.rooms[0].entry, "ABCDE=maze:15x11:easy");
    assert_null(gs.rooms[0].bad);
    assert_string_equal(gs.rooms[1].entry, "HJK23=ice:8x8:easy");
    svc_agones_gs_free(&gs);
    /* White space anywhere JSON allows it, keys in any order, extra keys in an entry. */
    assert_null(read_text(" \r\n{ \"status\" :\t{ \"ports\" : [ { \"port\" : 1 , \"name\" : \"spectate\" , "
                          "\"protocol\" : \"UDP\" } , {\"name\":\"game\",\"port\":65535} ] } }\n",
                          &gs));
    assert_int_equal(svc_agones_port_named(&gs.ports, SVC_AGONES_PORT_SPECTATE), 1);
    assert_int_equal(svc_agones_port_named(&gs.ports, SVC_AGONES_PORT_GAME), 65535);
    assert_string_equal(gs.state, "");
    svc_agones_gs_free(&gs);
}

static void test_no_ports(void **state)
{
    (void)state;
    svc_agones_gs gs;
    const char *ok[] = {"{}",
                        "{\"status\":{}}",
                        "{\"status\":{\"ports\":null}}",
                        "{\"status\":{\"ports\":[]}}",
                        "{\"object_meta\":{\"ports\":[{\"name\":\"spectate\",\"port\":5}]},\"status\":{}}",
                        "{\"spec\":{\"ports\":[{\"name\":\"spectate\",\"port\":5}]},\"status\":null}"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        const char *why = read_text(ok[i], &gs);
        if (why || gs.ports_why)
            fail_msg("%s: %s", ok[i], why ? why : gs.ports_why);
        assert_int_equal(gs.ports.n, 0);
        assert_int_equal(svc_agones_port_named(&gs.ports, SVC_AGONES_PORT_SPECTATE), 0);
        svc_agones_gs_free(&gs);
    }
}

enum { WHOLE, PORTS, READ };
/* The strict reader's 39 broken texts: json-c refuses the text (WHOLE), the port checks refuse the array
 * (PORTS), or json-c reads what RFC 8259 leaves to the reader or JSON allows after all (READ: the last of
 * a key given twice counts, escapes in keys and names are decoded) and spectate is then read as port. */
static const struct {
    const char *text;
    int outcome;
    uint16_t port;
} cases[] = {
    {"", WHOLE, 0},
    {"[]", WHOLE, 0},
    {"null", WHOLE, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]}} x", WHOLE, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},}", WHOLE, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013},]}}", WHOLE, 0},
    {"{\"status\":[]}", PORTS, 0},
    {"{\"status\":{\"ports\":{}}}", PORTS, 0},
    {"{\"status\":{\"ports\":\"7013\"}}", PORTS, 0},
    {"{\"status\":{\"ports\":[7013]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\"}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"port\":7013}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":\"7013\"}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":0}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":65536}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":-7013}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013.0}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7e3}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":07013}]}}", WHOLE, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":99999999999999999999}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":true}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"\",\"port\":7013}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":7,\"port\":7013}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spec\\u0074ate\",\"port\":7013}]}}", READ, 7013},
    {"{\"status\":{\"ports\":[{\"name\":\"game\",\"name\":\"spectate\",\"port\":7013}]}}", READ, 7013},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013,\"port\":7014}]}}", READ, 7014},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013},{\"name\":\"spectate\",\"port\":7014}]}}",
     PORTS, 0},
    {"{\"status\":{\"ports\":[]},\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]}}", READ,
     7013},
    {"{\"status\":{\"ports\":[],\"ports\":[{\"name\":\"spectate\",\"port\":7013}]}}", READ, 7013},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":tru}", WHOLE, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":\"a\\qb\"}", WHOLE, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":\"\\u12G4\"}", WHOLE, 0},
    /* json-c's leniencies in values we never read: a raw tab, "1.", single quotes */
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":\"tab\there\"}", READ, 7013},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":1.}", READ, 7013},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":-}", WHOLE, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":1e}", WHOLE, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},'x':1}", READ, 7013},
    {"{\"status\" {\"ports\":[]}}", WHOLE, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\" \"port\":7013}]}}", WHOLE, 0},
    /* beyond the strict reader's list */
    {"{\"st\\u0061tus\":{\"ports\":[{\"name\":\"spectate\",\"port\":5}]}}", READ, 5},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":NaN}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":Infinity}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spec\\ntate\",\"port\":7013}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spec\\u0000\",\"port\":7013}]}}", PORTS, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":\"\xff\"}", WHOLE, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]},\"x\":/**/1}", WHOLE, 0},
    {"{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]}", WHOLE, 0},
};

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        svc_agones_gs gs;
        memset(&gs, 0x5A, sizeof gs);
        const char *why = read_text(cases[i].text, &gs);
        int got = why ? WHOLE : gs.ports_why ? PORTS : READ;
        if (got != cases[i].outcome)
            fail_msg("case %zu %s: outcome %d, not %d (%s)", i, cases[i].text, got, cases[i].outcome,
                     why            ? why
                     : gs.ports_why ? gs.ports_why
                                    : "read");
        if (got == WHOLE)
            assert_empty(&gs);
        assert_int_equal(svc_agones_port_named(&gs.ports, SVC_AGONES_PORT_SPECTATE), cases[i].port);
        if (got == PORTS)
            assert_int_equal(gs.ports.n, 0); /* nothing of a refused array is kept */
        svc_agones_gs_free(&gs);
    }
    /* No buffer for the reason: still refused. */
    svc_agones_gs gs;
    assert_non_null(svc_agones_gs_read("{\"x\":1e}", 8, &gs, NULL, 0));
    assert_empty(&gs);
}

/* A NUL inside the given length is a flaw, not an end. */
static void test_nul_inside(void **state)
{
    (void)state;
    static const char t[] = "{\"status\":{\"ports\":[{\"name\":\"spectate\",\"port\":7013}]}}\0 ";
    svc_agones_gs gs;
    assert_null(read_n(t, sizeof t - 3, &gs));
    assert_int_equal(gs.ports.n, 1);
    svc_agones_gs_free(&gs);
    assert_non_null(read_n(t, sizeof t - 1, &gs));
    assert_empty(&gs);
    static const char u[] = "{\"x\":\"a\0b\",\"status\":{}}";
    assert_non_null(read_n(u, sizeof u - 1, &gs));
    static const char v[] = " \0{}";
    assert_non_null(read_n(v, sizeof v - 1, &gs));
}

/* status.state where it is, and only there: not in an annotation value, a label, another object's
 * "state", nor the first "state" after a key named "status". */
static void test_state(void **state)
{
    (void)state;
    const struct {
        const char *text, *want;
    } st[] = {
        {"{\"status\":{\"state\":\"Ready\"}}", "Ready"},
        {"{\"object_meta\":{\"annotations\":{\"x\":\"\\\"status\\\":{\\\"state\\\":\\\"Allocated\\\"}\"},"
         "\"labels\":{\"state\":\"Allocated\"}},\"status\":{\"state\":\"Ready\"}}",
         "Ready"},
        {"{\"object_meta\":{\"annotations\":{\"status\":\"x\",\"state\":\"Allocated\"}},\"status\":{"
         "\"state\":"
         "\"Ready\"}}",
         "Ready"},
        {"{\"object_meta\":{\"labels\":{\"status\":\"x\",\"state\":\"Allocated\"}},\"status\":{}}", ""},
        {"{\"status\":{\"counters\":{\"state\":\"Allocated\"},\"state\":\"Reserved\"}}", "Reserved"},
        {"{\"status\":{\"x\":{\"state\":\"Allocated\"}}}", ""},
        {"{\"status\":{\"state\":7}}", ""},
        {"{\"status\":{\"state\":null}}", ""},
        {"{\"status\":{\"state\":[\"Allocated\"]}}", ""},
        {"{\"status\":\"Allocated\",\"state\":\"Allocated\"}", ""},
        {"{\"status\":{\"state\":\"Alloc\\u0061ted\"}}", "Allocated"},
        {"{\"status\":{\"state\":\"Allocated\\n\"}}", ""},
        {"{\"status\":{\"state\":\"Allocated\\u0000\"}}", ""},
        {"{\"status\":{\"state\":\"0123456789012345678901234567890\"}}", "0123456789012345678901234567890"},
        {"{\"status\":{\"state\":\"01234567890123456789012345678901\"}}", ""},
    };
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) {
        svc_agones_gs gs;
        const char *why = read_text(st[i].text, &gs);
        if (why)
            fail_msg("%s: %s", st[i].text, why);
        if (strcmp(gs.state, st[i].want) != 0)
            fail_msg("%s: state \"%s\", not \"%s\"", st[i].text, gs.state, st[i].want);
        svc_agones_gs_free(&gs);
    }
}

/* Reads text's room annotations into gs, asserting the text reads. */
static void rooms_of(const char *text, svc_agones_gs *gs)
{
    const char *why = read_text(text, gs);
    if (why)
        fail_msg("%s: %s", text, why);
}

static void test_annotations(void **state)
{
    (void)state;
    svc_agones_gs gs;
    /* Escapes decoded (in the key too); order of the text kept. */
    rooms_of(
        "{\"object_meta\":{\"annotations\":{\"mazerace.io\\/room-ABCDE\":\"maze\\u003a15x11\\u003aeasy\","
        "\"mazerace.io/room-\\u0048JK23\":\"ice:8x8:easy\"}}}",
        &gs);
    assert_int_equal(gs.n_rooms, 2);
    assert_string_equal(gs.rooms[0].entry, "ABCDE=maze:15x11:easy");
    assert_null(gs.rooms[0].bad);
    assert_string_equal(gs.rooms[1].entry, "HJK23=ice:8x8:easy");
    svc_agones_gs_free(&gs);
    /* Values that are not strings: bad, named by the key. */
    rooms_of(
        "{\"object_meta\":{\"annotations\":{\"mazerace.io/room-AAAAA\":7,\"mazerace.io/room-BBBBB\":null,"
        "\"mazerace.io/room-CCCCC\":{\"a\":\"b\"},\"mazerace.io/room-DDDDD\":[\"x\"],"
        "\"mazerace.io/room-EEEEE\":true}}}",
        &gs);
    assert_int_equal(gs.n_rooms, 5);
    for (int i = 0; i < 5; i++) {
        assert_string_equal(gs.rooms[i].bad, "the value is not a string");
        assert_int_equal(strlen(gs.rooms[i].entry), 5);
        assert_int_equal(gs.rooms[i].entry[0], 'A' + i);
    }
    svc_agones_gs_free(&gs);
    /* Other prefixes, and the prefix anywhere but object_meta.annotations: none. */
    rooms_of("{\"object_meta\":{\"labels\":{\"mazerace.io/room-ABCDE\":\"maze:15x11:easy\"},"
             "\"annotations\":{\"mazerace.io/roomABCDE\":\"x\",\"Mazerace.io/room-ABCDE\":\"x\","
             "\"agones.dev/sdk-mazerace.io/room-ABCDE\":\"x\",\"mazerace.io/room\":\"x\",\"x\":"
             "\"\\\"mazerace.io/room-ABCDE\\\": \\\"maze:15x11:easy\\\"\"}},"
             "\"spec\":{\"mazerace.io/room-ABCDE\":\"maze:15x11:easy\"},"
             "\"status\":{\"annotations\":{\"mazerace.io/room-ABCDE\":\"maze:15x11:easy\"}}}",
             &gs);
    assert_int_equal(gs.n_rooms, 0);
    assert_null(gs.rooms);
    svc_agones_gs_free(&gs);
    /* annotations or object_meta of another type: no rooms, the rest read. */
    rooms_of(
        "{\"object_meta\":{\"annotations\":[\"mazerace.io/room-ABCDE\"]},\"status\":{\"state\":\"Ready\"}}",
        &gs);
    assert_int_equal(gs.n_rooms, 0);
    assert_string_equal(gs.state, "Ready");
    svc_agones_gs_free(&gs);
    rooms_of("{\"object_meta\":\"mazerace.io/room-ABCDE\"}", &gs);
    assert_int_equal(gs.n_rooms, 0);
    svc_agones_gs_free(&gs);
    /* 160 bytes of entry read, 161 not; controls and NULs bad (shown as '?'). */
    char text[512], value[200];
    for (int len = 160; len <= 161; len++) {
        memset(value, 'v', sizeof value);
        value[len - 6] = '\0'; /* "ABCDE=" + value */
        snprintf(text, sizeof text, "{\"object_meta\":{\"annotations\":{\"mazerace.io/room-ABCDE\":\"%s\"}}}",
                 value);
        rooms_of(text, &gs);
        assert_int_equal(gs.n_rooms, 1);
        if (len == 160) {
            assert_null(gs.rooms[0].bad);
            assert_int_equal(strlen(gs.rooms[0].entry), 160);
        } else {
            assert_string_equal(gs.rooms[0].bad, "longer than 160 bytes");
            assert_string_equal(gs.rooms[0].entry, "ABCDE");
        }
        svc_agones_gs_free(&gs);
    }
    memset(value, 'K', 159); /* 159 + "=x" */
    value[159] = '\0';
    snprintf(text, sizeof text, "{\"object_meta\":{\"annotations\":{\"mazerace.io/room-%s\":\"x\"}}}", value);
    rooms_of(text, &gs);
    assert_string_equal(gs.rooms[0].bad, "longer than 160 bytes");
    assert_int_equal(strlen(gs.rooms[0].entry), 32); /* a long key is shown cut */
    svc_agones_gs_free(&gs);
    rooms_of("{\"object_meta\":{\"annotations\":{\"mazerace.io/room-ABCDE\":\"maze:15x11:easy\\nforged\","
             "\"mazerace.io/room-AB\\u0007DE\":\"maze:15x11:easy\","
             "\"mazerace.io/room-FGHJK\":\"maze\\u0000:15x11:easy\"}}}",
             &gs);
    assert_int_equal(gs.n_rooms, 3);
    for (int i = 0; i < 3; i++)
        assert_string_equal(gs.rooms[i].bad, "a control character in the key or value");
    assert_string_equal(gs.rooms[0].entry, "ABCDE");
    assert_string_equal(gs.rooms[1].entry, "AB?DE");
    svc_agones_gs_free(&gs);
    /* The prefix alone, and an '=' in the key: read as entries, for svc_agones_parse_entry to refuse. */
    rooms_of(
        "{\"object_meta\":{\"annotations\":{\"mazerace.io/room-\":\"a\",\"mazerace.io/room-AB=CD\":\"b\"}}}",
        &gs);
    assert_int_equal(gs.n_rooms, 2);
    assert_string_equal(gs.rooms[0].entry, "=a");
    assert_string_equal(gs.rooms[1].entry, "AB=CD=b");
    svc_agones_gs_free(&gs);
}

/* Every prefix of a good reply (a reply cut short) is refused whole. */
static void test_every_cut(void **state)
{
    (void)state;
    size_t n = strlen(sdk_reply);
    for (size_t len = 0; len < n; len++) {
        svc_agones_gs gs;
        if (!read_n(sdk_reply, len, &gs))
            fail_msg("a cut at %zu of %zu accepted", len, n);
        assert_empty(&gs);
    }
}

/* Whatever a reply becomes, reading it ends with a bounded result or a refusal (ASan+UBSan in tools/test
 * watch the memory): every single-byte change of the SDK reply to one of a few bytes that matter to JSON,
 * each bit flipped, and each cut of the changed texts at a few places. */
static void test_mutations(void **state)
{
    (void)state;
    static const char swaps[] = {'\0', '"', '\\', '{', '}', '[', ']', ',', ':', '0', 'x', ' ', '\n', '\x7f'};
    size_t n = strlen(sdk_reply);
    char *text = malloc(n);
    long reads = 0, refused = 0;
    for (size_t at = 0; at < n; at++) {
        for (size_t k = 0; k < sizeof swaps + 8; k++) {
            memcpy(text, sdk_reply, n);
            text[at] = k < sizeof swaps ? swaps[k] : (char)(sdk_reply[at] ^ (1 << (k - sizeof swaps)));
            size_t lens[] = {n, n - 1, at + 1, n / 2};
            for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
                svc_agones_gs gs;
                const char *why = read_n(text, lens[l], &gs);
                reads++;
                if (why) {
                    refused++;
                    assert_empty(&gs);
                    continue;
                }
                assert_true(strlen(gs.state) <= SVC_AGONES_STATE_MAX);
                assert_true(gs.ports.n >= 0 && gs.ports.n <= SVC_AGONES_PORTS_MAX);
                for (int i = 0; i < gs.ports.n; i++)
                    assert_true(gs.ports.e[i].port >= 1 && strlen(gs.ports.e[i].name) >= 1);
                assert_true(gs.n_rooms <= 3);
                for (int i = 0; i < gs.n_rooms; i++)
                    assert_true(strlen(gs.rooms[i].entry) <= SVC_AGONES_ENTRY_MAX);
                svc_agones_gs_free(&gs);
            }
        }
    }
    free(text);
    print_message("mutations: %ld texts read, %ld refused whole\n", reads, refused);
    assert_true(refused > 0 && refused < reads);
}

/* Bounded: 16 entries at most, names of 63 bytes at most, 32 levels of
 * nesting at most (a deep text is refused, not a deep recursion). */
static void test_bounds(void **state)
{
    (void)state;
    char buf[4096];
    svc_agones_gs gs;
    for (int count = 16; count <= 17; count++) {
        int n = snprintf(buf, sizeof buf, "{\"status\":{\"ports\":[");
        for (int i = 0; i < count; i++)
            n += snprintf(buf + n, sizeof buf - (size_t)n, "%s{\"name\":\"p%d\",\"port\":%d}", i ? "," : "",
                          i, 7000 + i);
        snprintf(buf + n, sizeof buf - (size_t)n, "]}}");
        assert_null(read_text(buf, &gs));
        if (count == 16) {
            assert_null(gs.ports_why);
            assert_int_equal(gs.ports.n, 16);
            assert_int_equal(svc_agones_port_named(&gs.ports, "p15"), 7015);
        } else {
            assert_string_equal(gs.ports_why, "status.ports has more than 16 entries");
            assert_int_equal(gs.ports.n, 0);
        }
        svc_agones_gs_free(&gs);
    }
    for (int len = 63; len <= 64; len++) {
        snprintf(buf, sizeof buf, "{\"status\":{\"ports\":[{\"name\":\"%.*s\",\"port\":5}]}}", len,
                 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
        assert_null(read_text(buf, &gs));
        assert_true((gs.ports_why == NULL) == (len == 63));
        svc_agones_gs_free(&gs);
    }
    /* Nesting: 31 arrays inside the top object read, 32 do not, and a
     * million do not either (json-c keeps its own bounded stack). */
    for (int depth = 31; depth <= 32; depth++) {
        int n = snprintf(buf, sizeof buf, "{\"x\":");
        for (int i = 0; i < depth; i++)
            buf[n++] = '[';
        for (int i = 0; i < depth; i++)
            buf[n++] = ']';
        snprintf(buf + n, sizeof buf - (size_t)n, "}");
        const char *why = read_text(buf, &gs);
        if (depth == 31)
            assert_null(why);
        else
            assert_string_equal(why, "nested more than 32 deep");
        svc_agones_gs_free(&gs);
    }
    size_t big = 1000000;
    char *deep = malloc(big + 8);
    memcpy(deep, "{\"x\":", 5);
    memset(deep + 5, '[', big);
    assert_non_null(read_n(deep, big + 5, &gs));
    assert_empty(&gs);
    free(deep);
}

/* One line of GET /watch/gameserver: {"result": GameServer} is read like the GET answer; an error line, a
 * line without a "result" object, or a bare GameServer is refused with its reason and nothing kept. */
static void test_watch_line(void **state)
{
    (void)state;
    static char err[128];
    svc_agones_gs gs;
    char line[sizeof sdk_reply + 16];
    snprintf(line, sizeof line, "{\"result\":%s}", sdk_reply);
    assert_null(svc_agones_gs_read_watch(line, strlen(line), &gs, err, sizeof err));
    assert_string_equal(gs.state, "Allocated");
    assert_int_equal(gs.ports.n, 3);
    assert_int_equal(gs.n_rooms, 2);
    assert_string_equal(gs.rooms[0].entry, "ABCDE=maze:15x11:easy");
    svc_agones_gs_free(&gs);
    static const struct {
        const char *text, *why;
    } bad[] = {
        {"{\"error\":{\"code\":14,\"message\":\"transport is closing\"}}",
         "the watch stream sent an error: transport is closing"},
        {"{\"error\":{\"code\":2}}", "the watch stream sent an error"},
        {"{\"result\":[1]}", "\"result\" is not an object"},
        {"{\"status\":{\"state\":\"Allocated\"}}", "no \"result\" in the watch line"},
        {"{\"result\":{\"status\":{\"state\":\"Ready\"}}", "the text ends early (cut short?)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *why = svc_agones_gs_read_watch(bad[i].text, strlen(bad[i].text), &gs, err, sizeof err);
        assert_non_null(why);
        assert_string_equal(why, bad[i].why);
        assert_empty(&gs);
        svc_agones_gs_free(&gs);
    }
    /* The GET reader does not unwrap "result": the state is not where it looks. */
    snprintf(line, sizeof line, "{\"result\":{\"status\":{\"state\":\"Allocated\"}}}");
    assert_null(read_text(line, &gs));
    assert_string_equal(gs.state, "");
    svc_agones_gs_free(&gs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sdk_shape), cmocka_unit_test(test_no_ports),
        cmocka_unit_test(test_cases),     cmocka_unit_test(test_nul_inside),
        cmocka_unit_test(test_state),     cmocka_unit_test(test_annotations),
        cmocka_unit_test(test_every_cut), cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_bounds),    cmocka_unit_test(test_watch_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
