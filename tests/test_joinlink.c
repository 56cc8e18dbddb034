/* test_joinlink.c: join links (common/joinlink.c): every accepted form, the normalised room code, and a clear
 * message for each kind of bad link. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "joinlink.h"

static void good(const char *text, const char *host, int port, const char *room)
{
    joinlink l;
    const char *why = joinlink_parse(text, &l);
    if (why)
        fail_msg("'%s' refused: %s", text, why);
    assert_string_equal(l.host, host);
    assert_int_equal(l.port, port);
    assert_string_equal(l.room, room);
}

/* Refused, with a message that contains want. */
static void bad(const char *text, const char *want)
{
    joinlink l;
    const char *why = joinlink_parse(text, &l);
    if (!why)
        fail_msg("'%s' accepted", text);
    if (!strstr(why, want))
        fail_msg("'%s': message '%s' does not say '%s'", text, why, want);
}

static void test_forms(void **st)
{
    (void)st;
    good("mazerace://example.org:4000/ABCDE", "example.org", 4000, "ABCDE");
    good("MazeRace://10.0.0.7:27910/abcde", "10.0.0.7", 27910, "ABCDE");
    good("example.org:4000/ABCDE", "example.org", 4000, "ABCDE");
    good("  example.org:4000/ab-cde \n", "example.org", 4000, "ABCDE");
    good("mazerace://example.org/ABCDE", "example.org", WIRE_DEFAULT_PORT, "ABCDE");
    good("mazerace://example.org:4000", "example.org", 4000, "");
    good("mazerace://example.org:4000/", "example.org", 4000, "");
    good("mazerace://example.org:4000/ABCDE/", "example.org", 4000, "ABCDE");
    good("example.org:4000", "example.org", 4000, "");
    good("localhost", "localhost", WIRE_DEFAULT_PORT, "");
    good("my_host-1.lan:1", "my_host-1.lan", 1, "");
}

static void test_bad(void **st)
{
    (void)st;
    bad("", "empty");
    bad("   ", "empty");
    bad(NULL, "empty");
    bad("http://example.org:4000/ABCDE", "mazerace://");
    bad("mazerace:example.org:4000/ABCDE", "two slashes");
    bad("mazerace://", "no server address");
    bad("mazerace:///ABCDE", "no server address");
    bad("mazerace://:4000/ABCDE", "no host");
    bad("mazerace://example.org:/ABCDE", "missing port");
    bad("mazerace://example.org:0/ABCDE", "1..65535");
    bad("mazerace://example.org:65536/ABCDE", "1..65535");
    bad("mazerace://example.org:99999999999999999999/ABCDE", "1..65535");
    bad("mazerace://example.org:4x/ABCDE", "not a number");
    bad("mazerace://[::1]:4000/ABCDE", "IPv6");
    bad("::1", "IPv6");
    bad("mazerace://exa mple.org:4000/ABCDE", "bad server host");
    bad("mazerace://user@example.org:4000/ABCDE", "bad server host");
    bad("mazerace://example.org:4000/ABCD", "5 letters");
    bad("mazerace://example.org:4000/ABCDEF", "5 letters");
    bad("mazerace://example.org:4000/AB0DE", "5 letters");
    bad("mazerace://example.org:4000/ABCDE?x=1", "more than a room code");
    bad("mazerace://example.org:4000/rooms/ABCDE", "more than a room code");
    char longhost[400];
    memset(longhost, 'a', sizeof longhost - 1);
    longhost[sizeof longhost - 1] = '\0';
    bad(longhost, "too long");
    char huge[2000];
    memset(huge, 'a', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    bad(huge, "too long");
}

static void test_format_round_trip(void **st)
{
    (void)st;
    char buf[JOINLINK_TEXT_MAX];
    assert_string_equal(joinlink_format("example.org", 4000, "ABCDE", buf, sizeof buf),
                        "mazerace://example.org:4000/ABCDE");
    good(buf, "example.org", 4000, "ABCDE");
    assert_string_equal(joinlink_format("10.1.2.3", 27910, "", buf, sizeof buf), "mazerace://10.1.2.3:27910");
    good(buf, "10.1.2.3", 27910, "");
    assert_string_equal(joinlink_format("h", 1, NULL, buf, sizeof buf), "mazerace://h:1");
    char small[12];
    joinlink_format("example.org", 4000, "ABCDE", small, sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
}

/* Invite codes: "+CODE" and mazerace://+CODE, with or without @COORDINATOR;
 * the code as a person types it; anything else is not an invite. */
static void test_invite(void **st)
{
    (void)st;
    char code[12], coord[64];
    const char *why = NULL;
    assert_true(joinlink_invite(" +k7mp 9nxa ", code, coord, sizeof coord, &why));
    assert_null(why);
    assert_string_equal(code, "+K7MP9NXA");
    assert_string_equal(coord, "");
    assert_true(
        joinlink_invite("MAZERACE://+K7MP-9NXA@coord.example.org:27920/", code, coord, sizeof coord, &why));
    assert_null(why);
    assert_string_equal(code, "+K7MP9NXA");
    assert_string_equal(coord, "coord.example.org:27920");
    char link[80];
    joinlink_format_invite(code, coord, link, sizeof link);
    assert_string_equal(link, "mazerace://+K7MP9NXA@coord.example.org:27920");
    assert_true(joinlink_invite(link, code, coord, sizeof coord, &why) && !why);
    joinlink_format_invite(code, "", link, sizeof link);
    assert_string_equal(link, "mazerace://+K7MP9NXA");
    /* Not invites: addresses and room links go to joinlink_parse. */
    assert_false(joinlink_invite("192.168.1.20:27910/ABCDE", code, coord, sizeof coord, &why));
    assert_false(joinlink_invite("mazerace://host/ABCDE", code, coord, sizeof coord, &why));
    assert_false(joinlink_invite(NULL, code, coord, sizeof coord, &why));
    /* Invites that are wrong: a lookalike letter, too short, an empty coordinator. */
    assert_true(joinlink_invite("+K7MP9NXO", code, coord, sizeof coord, &why));
    assert_non_null(why);
    assert_true(joinlink_invite("+K7MP", code, coord, sizeof coord, &why));
    assert_non_null(why);
    assert_true(joinlink_invite("+K7MP9NXA@", code, coord, sizeof coord, &why));
    assert_non_null(why);
    assert_true(joinlink_invite("+K7MP9NXA@a/b", code, coord, sizeof coord, &why));
    assert_non_null(why);
}

static void test_addr(void **st)
{
    (void)st;
    char host[8];
    int port = 0;
    assert_null(joinlink_parse_addr("h:5", host, sizeof host, &port));
    assert_int_equal(port, 5);
    assert_string_equal(joinlink_parse_addr("averylonghost", host, sizeof host, &port),
                        "the server host name is too long");
    assert_non_null(joinlink_parse_addr("h/ABCDE", host, sizeof host, &port));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forms), cmocka_unit_test(test_bad),    cmocka_unit_test(test_format_round_trip),
        cmocka_unit_test(test_addr),  cmocka_unit_test(test_invite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
