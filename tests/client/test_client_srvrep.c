/* test_client_srvrep.c: the headless client and a server's stored matches: two bots race on the real server
 * (--db on a temp file), the Server replays screen lists the match and opens its replay fetched by id
 * (--replay-from); a match the server lacks and a server keeping no records are said and exit 2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cl_app.h"
#include "cl_draw.h"
#include "cl_test_util.h"

#if defined(MR_SERVER_BIN) && defined(MR_BOT_BIN)

static char out[1 << 16];

static void test_list_and_fetch(void **ctx)
{
    (void)ctx;
    char db[512], slog[512], blog[512];
    snprintf(db, sizeof db, "%s", clt_path("server.db"));
    snprintf(slog, sizeof slog, "%s", clt_path("server.log"));
    snprintf(blog, sizeof blog, "%s", clt_path("bots.log"));
    char rest[256], addr[64];
    pid_t sv = clt_start_server_db(db, slog, addr, sizeof addr);
    assert_true(sv > 0);
    const char *bot_argv[] = {MR_BOT_BIN, "--server",   addr,     "--bots",    "2",      "--name", "Ada",
                              "--kind",   "maze",       "--size", "11x9",      "--seed", "7",      "--pace",
                              "30",       "--mistakes", "0.2",    "--timeout", "60",     NULL};
    pid_t bots = clt_spawn(bot_argv, blog);
    int status = 0;
    bool bots_done = clt_wait_exit(bots, 60000, &status);
    if (!bots_done)
        clt_stop(bots);
    assert_true(bots_done);
    assert_true(clt_wait_for(blog, "match Ada-1 #1 (", rest, sizeof rest, 1000));

    /* The list, a screenshot of it, Enter on the newest, the replay. */
    char script[768];
    snprintf(
        script, sizeof script,
        "0 wait server-replays-list\n+100 screenshot %s\n+0 key Return\n+0 wait replay\n+400 screenshot %s\n"
        "+100 key Escape\n+0 wait server-replays-list\n+100 quit\n",
        clt_path("list.bmp"), clt_path("replay.bmp"));
    assert_true(clt_write(clt_path("srvrep.txt"), script));
    const char *args[] = {"--headless",    "--size", "1280x720",  "--replay-from", addr,
                          "--name",        "Viewer", "--no-save", "--script",      clt_path("srvrep.txt"),
                          "--max-seconds", "60",     NULL};
    int rc = clt_run(args, out, sizeof out, 90000);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "SERVER_REPLAYS page=1 matches=1 more=0 newest=1"));
    const char *open = strstr(out, "REPLAY open match 1 game=maze:11x9");
    assert_non_null(open);
    assert_true(strstr(open, "players=Ada-1,Ada-2") || strstr(open, "players=Ada-2,Ada-1"));
    /* Back from the player the list shows again without asking twice. */
    assert_null(strstr(open, "SERVER_REPLAYS page="));
    SDL_Surface *list = clt_load(clt_path("list.bmp"));
    assert_non_null(list);
    /* The one row: a lit panel (selected) with the accent bar at its left. */
    assert_true(clt_count(list, (SDL_Rect){0, 0, 1280, 720}, cl_col_accent, 6) > 100);
    SDL_FreeSurface(list);
    SDL_Surface *rep = clt_load(clt_path("replay.bmp"));
    assert_non_null(rep);
    assert_true(clt_count(rep, (SDL_Rect){0, 0, 1280, 720}, cl_col_player[0], 8) > 40);
    SDL_FreeSurface(rep);

    /* Straight to a match id the server does not have: said, exit 2. */
    const char *missing[] = {"--headless", "--replay-from", addr, "999",
                             "--no-save",  "--max-seconds", "30", NULL};
    rc = clt_run(missing, out, sizeof out, 60000);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "SERVER_REPLAYS error no such match on this server"));
    /* And the one it has opens the replay straight away. */
    snprintf(script, sizeof script, "0 wait replay\n+100 quit\n");
    assert_true(clt_write(clt_path("direct.txt"), script));
    const char *direct[] = {"--headless",           "--replay-from", addr, "1", "--no-save", "--script",
                            clt_path("direct.txt"), "--max-seconds", "30", NULL};
    rc = clt_run(direct, out, sizeof out, 60000);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "REPLAY open match 1 game=maze:11x9"));

    /* From the menu: Join, the address typed, Server replays (the seventh row). */
    snprintf(script, sizeof script,
             "0 wait menu\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Return\n+50 wait join\n"
             "+50 text %s\n+100 screenshot %s\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Down\n"
             "+50 key Down\n+50 key Down\n+50 key Return\n+0 wait server-replays-list\n+100 quit\n",
             addr, clt_path("join.bmp"));
    assert_true(clt_write(clt_path("menu.txt"), script));
    char lan[16];
    snprintf(lan, sizeof lan, "%d", atoi(strchr(addr, ':') + 1)); /* no discovery answers there */
    const char *menu[] = {"--headless",
                          "--size",
                          "1280x720",
                          "--lan-port",
                          lan,
                          "--settings",
                          clt_path("set.ini"),
                          "--no-save",
                          "--script",
                          clt_path("menu.txt"),
                          "--max-seconds",
                          "30",
                          NULL};
    rc = clt_run(menu, out, sizeof out, 60000);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "SERVER_REPLAYS page=1 matches=1 more=0 newest=1"));

    /* Ten more matches: two pages of ten, the older one by PageDown, back by PageUp. */
    const char *more_argv[] = {MR_BOT_BIN, "--server", addr,  "--bots", "2",  "--matches", "10", "--kind",
                               "maze",     "--size",   "7x5", "--pace", "10", "--timeout", "60", NULL};
    bots = clt_spawn(more_argv, clt_path("more.log"));
    bots_done = clt_wait_exit(bots, 90000, &status);
    if (!bots_done)
        clt_stop(bots);
    assert_true(bots_done);
    snprintf(script, sizeof script,
             "0 wait server-replays-list\n+50 key PageDown\n+50 wait server-replays-list\n+50 key PageUp\n"
             "+50 wait server-replays-list\n+100 quit\n");
    assert_true(clt_write(clt_path("pages.txt"), script));
    const char *pages[] = {"--headless",          "--replay-from", addr, "--no-save", "--script",
                           clt_path("pages.txt"), "--max-seconds", "30", NULL};
    rc = clt_run(pages, out, sizeof out, 60000);
    assert_int_equal(rc, 0);
    const char *p1 = strstr(out, "SERVER_REPLAYS page=1 matches=10 more=1 newest=11");
    assert_non_null(p1);
    const char *p2 = strstr(p1, "SERVER_REPLAYS page=2 matches=1 more=0 newest=1");
    assert_non_null(p2);
    assert_non_null(strstr(p2, "SERVER_REPLAYS page=1 matches=10 more=1 newest=11"));
    clt_stop(sv);

    /* A server with --db none keeps no records. */
    snprintf(slog, sizeof slog, "%s", clt_path("plain.log"));
    pid_t plain = clt_start_server_db("none", slog, addr, sizeof addr);
    assert_true(plain > 0);
    const char *norec[] = {"--headless", "--replay-from", addr, "1",
                           "--no-save",  "--max-seconds", "30", NULL};
    rc = clt_run(norec, out, sizeof out, 60000);
    clt_stop(plain);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "SERVER_REPLAYS error this server keeps no match records"));
    /* Nobody there any more: said within the 10 s bound, exit 2. */
    rc = clt_run(norec, out, sizeof out, 60000);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "SERVER_REPLAYS error "));
    assert_null(strstr(out, "REPLAY open"));
}

static void test_bad_flags(void **ctx)
{
    (void)ctx;
    const char *bad_id[] = {"--headless", "--replay-from", "127.0.0.1:1", "12x", NULL};
    assert_int_equal(clt_run(bad_id, out, sizeof out, 30000), 2);
    assert_non_null(strstr(out, "not a match id"));
    const char *two[] = {"--headless", "--replay-from", "127.0.0.1:1", "--replay", "x.replay", NULL};
    assert_int_equal(clt_run(two, out, sizeof out, 30000), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_and_fetch),
        cmocka_unit_test(test_bad_flags),
    };
    return clt_finish(cmocka_run_group_tests(tests, NULL, NULL));
}

#else

int main(void)
{
    puts("test_client_srvrep: server or bot not built; nothing to test");
    return 0;
}

#endif
