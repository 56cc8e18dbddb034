/* test_client_lanlist.c: the LAN list: a server heard on 127.0.0.1 and its LAN address is listed once (by the
 * details' server id), details before or after the reply, older servers without details, order, expiry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cl_net.h"

static cl_server_info reply(const char *addr, int port, const char *name)
{
    cl_server_info i;
    memset(&i, 0, sizeof i);
    snprintf(i.addr, sizeof i.addr, "%s", addr);
    i.game_port = port;
    snprintf(i.name, sizeof i.name, "%s", name);
    return i;
}

static cl_server_info details(const char *addr, int port, uint64_t id, const char *room)
{
    cl_server_info i = reply(addr, port, "");
    i.details = true;
    i.server_id = id;
    i.host_game = room != NULL;
    if (room) {
        i.has_room = true;
        snprintf(i.room, sizeof i.room, "%s", room);
        snprintf(i.host_name, sizeof i.host_name, "Ann");
    }
    return i;
}

static void test_one_entry_per_server(void **ctx)
{
    (void)ctx;
    static cl_lanlist l;
    memset(&l, 0, sizeof l);
    int v[CL_LANLIST_MAX];
    cl_server_info r = reply("127.0.0.1", 27910, "Ann's game"), d = details("127.0.0.1", 27910, 77, "ABCDE");
    /* Details first: nothing to show until the reply with its name. */
    assert_false(cl_lanlist_add(&l, &d, 100));
    assert_int_equal(cl_lanlist_view(&l, v), 0);
    assert_true(cl_lanlist_add(&l, &r, 101));
    assert_false(cl_lanlist_add(&l, &r, 102)); /* heard again: not new */
    assert_int_equal(cl_lanlist_view(&l, v), 1);
    assert_string_equal(l.found[v[0]].room, "ABCDE");
    assert_string_equal(l.found[v[0]].name, "Ann's game");
    /* The same server by its LAN address (the broadcast's answer): still one
     * entry, shown with the address a friend can reach. */
    cl_server_info r2 = reply("192.168.1.20", 27910, "Ann's game"),
                   d2 = details("192.168.1.20", 27910, 77, "ABCDE");
    assert_true(cl_lanlist_add(&l, &r2, 103));
    /* Until its details come (the next datagram) the id is unknown: two. */
    assert_int_equal(cl_lanlist_view(&l, v), 2);
    assert_false(cl_lanlist_add(&l, &d2, 104));
    assert_int_equal(cl_lanlist_view(&l, v), 1);
    assert_string_equal(l.found[v[0]].addr, "192.168.1.20");
    /* A reply after the details keeps them. */
    cl_lanlist_add(&l, &r2, 105);
    assert_int_equal(cl_lanlist_view(&l, v), 1);
    assert_true(l.found[v[0]].has_room);
    /* Another server, and an old one that sends no details: three entries,
     * the waiting game first, then by name. */
    cl_server_info s = reply("127.0.0.1", 27920, "den"), ds = details("127.0.0.1", 27920, 78, NULL);
    cl_server_info old = reply("192.168.1.9", 27910, "attic");
    cl_lanlist_add(&l, &s, 106);
    cl_lanlist_add(&l, &ds, 106);
    cl_lanlist_add(&l, &old, 107);
    assert_int_equal(cl_lanlist_view(&l, v), 3);
    assert_string_equal(l.found[v[0]].name, "Ann's game");
    assert_string_equal(l.found[v[1]].name, "attic");
    assert_string_equal(l.found[v[2]].name, "den");
    /* Ann's game stops waiting (her race started): it sorts by name now. */
    cl_server_info busy = details("192.168.1.20", 27910, 77, NULL),
                   busy1 = details("127.0.0.1", 27910, 77, NULL);
    cl_lanlist_add(&l, &busy, 108);
    cl_lanlist_add(&l, &busy1, 108);
    assert_int_equal(cl_lanlist_view(&l, v), 3);
    assert_string_equal(l.found[v[0]].name, "Ann's game");
    assert_false(l.found[v[0]].has_room);
    assert_string_equal(l.found[v[1]].name, "attic");
    /* Silence: the old server goes after max_age, the others stay. */
    cl_lanlist_add(&l, &r, 5000);
    cl_lanlist_add(&l, &r2, 5000);
    cl_lanlist_add(&l, &s, 5000);
    cl_lanlist_expire(&l, 6100, 6000);
    assert_int_equal(cl_lanlist_view(&l, v), 3);
    cl_lanlist_expire(&l, 6200, 6000);
    assert_int_equal(cl_lanlist_view(&l, v), 2);
    cl_lanlist_expire(&l, 20000, 6000);
    assert_int_equal(cl_lanlist_view(&l, v), 0);
    assert_int_equal(l.n, 0);
}

static void test_full_list(void **ctx)
{
    (void)ctx;
    static cl_lanlist l;
    memset(&l, 0, sizeof l);
    for (int i = 0; i < CL_LANLIST_MAX + 3; i++) {
        cl_server_info r = reply("10.0.0.1", 1000 + i, "s");
        assert_int_equal(cl_lanlist_add(&l, &r, 1), i < CL_LANLIST_MAX);
    }
    int v[CL_LANLIST_MAX];
    assert_int_equal(cl_lanlist_view(&l, v), CL_LANLIST_MAX);
    /* Sorted by port within one name and address. */
    for (int i = 1; i < CL_LANLIST_MAX; i++)
        assert_true(l.found[v[i - 1]].game_port < l.found[v[i]].game_port);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_entry_per_server),
        cmocka_unit_test(test_full_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
