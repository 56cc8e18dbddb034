/* test_journey_join.c: joining journeys played end to end by real programs on 127.0.0.1: a LAN host
 * picked from the LAN list, rooms created and joined by code and by a pasted link on a dedicated
 * server, a host on a fallback port found by discovery. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "cl_test_util.h"

#if defined(MR_SERVER_BIN)

static char out[1 << 16];

/* The puzzle every journey races: small, so a scripted solution is short. */
#define GAME_ID "maze:9x7:easy#21"

/* A free UDP port on 127.0.0.1 for discovery: each run its own, so runs
 * in parallel never hear each other's servers. */
static int free_udp_port(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in sa = {.sin_family = AF_INET};
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    socklen_t len = sizeof sa;
    assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
    close(fd);
    return ntohs(sa.sin_port);
}

/* Script lines that solve GAME_ID from the start, gap ms apart. */
static void solve_lines(char *buf, size_t cap)
{
    pz_move mv[256];
    pz_puzzle *pz = NULL;
    int n = clt_solution(GAME_ID, mv, 256, &pz);
    assert_true(n > 0);
    pz_kind_of(pz)->free_puzzle(pz);
    int cx = 0, cy = 0;
    buf[0] = '\0';
    clt_script_moves(buf, cap, 0, mv, n, 60, &cx, &cy);
}

/* Prints a log file to stderr (for a failing run). */
static void dump(const char *who, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        fprintf(stderr, "%s: %s", who, line);
    if (f)
        fclose(f);
}

/* The game hosting GAME_ID on 127.0.0.1 as "Hoster": host_port ("0": any),
 * discovery on lan (a port string); it readies at once, waits for the
 * results and quits. */
static pid_t spawn_host(const char *host_port, const char *lan, const char *log)
{
    assert_true(clt_write(clt_path("host.txt"), "0 wait lobby\n+0 wait race\n+0 wait results\n+500 quit\n"));
    const char *argv[] = {MAZERACE_BIN,    "--headless",
                          "--host",        GAME_ID,
                          "--host-bind",   "127.0.0.1",
                          "--host-port",   host_port,
                          "--lan-port",    lan,
                          "--name",        "Hoster",
                          "--script",      clt_path("host.txt"),
                          "--max-seconds", "60",
                          "--no-save",     NULL};
    return clt_spawn(argv, log);
}

/* The joiner's script: Join from the menu, wait for the LAN list, go down
 * past the 8 fixed controls to the first game listed, pick it, ready, solve. */
static void lan_pick_script(const char *path)
{
    char moves[8192], script[10000];
    solve_lines(moves, sizeof moves);
    snprintf(script, sizeof script,
             "0 wait menu\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Return\n+0 wait join\n"
             "+0 wait join-listed\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Down\n"
             "+50 key Down\n+50 key Down\n+50 key Down\n+50 key Return\n+0 wait lobby\n+300 key Return\n"
             "+0 wait race\n%s+0 wait results\n+500 quit\n",
             moves);
    assert_true(clt_write(path, script));
}

/* Waits for the host to finish; true if it exited 0 (its log dumped if not). */
static bool host_done(pid_t host, const char *log)
{
    int status = 0;
    bool done = clt_wait_exit(host, 20000, &status);
    if (!done)
        clt_stop(host);
    bool ok = done && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok)
        dump("host", log);
    return ok;
}

/* (a) A LAN host; a second player opens Join, picks the host's game in the
 * LAN list (its label says what is raced) and lands in the host's room:
 * both race to the result. */
static void test_lan_pick_joins_the_hosts_room(void **ctx)
{
    (void)ctx;
    char lan[16];
    snprintf(lan, sizeof lan, "%d", free_udp_port());
    char hlog[256]; /* clt_path rotates 4 buffers */
    snprintf(hlog, sizeof hlog, "%s", clt_path("lanhost.log"));
    pid_t host = spawn_host("0", lan, hlog);
    char code[64], rest[256];
    if (!clt_wait_for(hlog, "room code ", code, sizeof code, 15000)) {
        clt_stop(host);
        dump("host", hlog);
        fail_msg("the host did not come up");
    }
    lan_pick_script(clt_path("lanpick.txt"));
    const char *args[] = {
        "--headless", "--lan-port",    lan,  "--name", "Joiner", "--script", clt_path("lanpick.txt"),
        "--no-save",  "--max-seconds", "50", NULL};
    int rc = clt_run(args, out, sizeof out, 70000);
    if (rc != 0)
        fprintf(stderr, "joiner:\n%s\n", out);
    bool ok = host_done(host, hlog);
    assert_int_equal(rc, 0);
    /* Listed once (127.0.0.1 only here), with what it races. */
    assert_non_null(strstr(out, "found \"Hoster's game\" at 127.0.0.1:"));
    /* The joiner is in the host's room, not one of its own. */
    char want[64];
    snprintf(want, sizeof want, "room code %.5s", code);
    assert_non_null(strstr(out, want));
    assert_non_null(strstr(out, "RESULT winner="));
    assert_non_null(strstr(out, "winner_name=Joiner"));
    assert_true(ok);
    assert_true(clt_wait_for(hlog, "RESULT winner=", rest, sizeof rest, 1000));
    assert_non_null(strstr(rest, "winner_name=Joiner"));
}

/* (c) A server already holds the host's game port and the discovery port:
 * the host moves to another game port (and says which), discovery answers
 * on the next port of the span, and a friend's LAN list still finds it. */
static void test_host_on_fallback_port_is_found(void **ctx)
{
    (void)ctx;
    int disc = free_udp_port();
    char lan[16], dflag[16];
    snprintf(lan, sizeof lan, "%d", disc);
    snprintf(dflag, sizeof dflag, "%d", disc);
    char slog[256]; /* clt_path rotates 4 buffers */
    snprintf(slog, sizeof slog, "%s", clt_path("holder.log"));
    const char *sargv[] = {MR_SERVER_BIN, "--bind",      "127.0.0.1", "--port", "0",    "--discovery",
                           dflag,         "--countdown", "1",         "--db",   "none", NULL};
    pid_t sv = clt_spawn(sargv, slog);
    char rest[256];
    assert_true(sv > 0);
    if (!clt_wait_for(slog, "listening on 127.0.0.1:", rest, sizeof rest, 10000) ||
        !clt_wait_for(slog, "discovery on 127.0.0.1:", lan, sizeof lan, 10000)) {
        clt_stop(sv);
        dump("server", slog);
        fail_msg("the server holding the ports did not come up");
    }
    char taken[16];
    snprintf(taken, sizeof taken, "%d", atoi(rest));
    assert_int_equal(atoi(lan), disc);
    snprintf(lan, sizeof lan, "%d", disc);
    char hlog[256]; /* clt_path rotates 4 buffers */
    snprintf(hlog, sizeof hlog, "%s", clt_path("fallback.log"));
    pid_t host = spawn_host(taken, lan, hlog);
    char moved[64], hdisc[64];
    bool up = clt_wait_for(hlog, "was taken: hosting on port ", moved, sizeof moved, 15000) &&
              clt_wait_for(hlog, "LAN discovery port ", hdisc, sizeof hdisc, 1000) &&
              clt_wait_for(hlog, "room code ", rest, sizeof rest, 15000);
    if (!up) {
        clt_stop(host);
        clt_stop(sv);
        dump("host", hlog);
        fail_msg("the host did not say it moved");
    }
    assert_int_not_equal(atoi(moved), atoi(taken));
    assert_true(atoi(hdisc) > disc && atoi(hdisc) < disc + 4);
    lan_pick_script(clt_path("fallpick.txt"));
    const char *args[] = {
        "--headless", "--lan-port",    lan,  "--name", "Joiner", "--script", clt_path("fallpick.txt"),
        "--no-save",  "--max-seconds", "50", NULL};
    int rc = clt_run(args, out, sizeof out, 70000);
    if (rc != 0)
        fprintf(stderr, "joiner:\n%s\n", out);
    bool ok = host_done(host, hlog);
    clt_stop(sv);
    assert_int_equal(rc, 0);
    char want[96];
    snprintf(want, sizeof want, "found \"Hoster's game\" at 127.0.0.1:%d", atoi(moved));
    assert_non_null(strstr(out, want));
    /* The dedicated server is listed too, after the game waiting. */
    assert_non_null(strstr(out, "found \"mazerace\" at 127.0.0.1:"));
    assert_non_null(strstr(out, "winner_name=Joiner"));
    assert_true(ok);
}

/* (b) A dedicated server: Ann opens Join, types the server's address,
 * picks Create a room, types a game ID, creates it (the lobby shows the
 * code and link); Bob joins by typing the code; then, in a second room,
 * Cid joins by pasting Dee's link (Ctrl+V on the Join screen). */
static pid_t spawn_creator(const char *addr, const char *name, const char *log)
{
    char script[1024];
    /* Join screen: the address field is selected with its text selected:
     * typing replaces it. Down x3: Create a room there. Setup: Down x3 to
     * the game ID, type it, Down x2 to Create the room; the maze's How to
     * play card comes first (fresh settings), Return closes it and goes on.
     * Lobby: ready. */
    snprintf(script, sizeof script,
             "0 wait menu\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Return\n+0 wait join\n"
             "+50 text %s\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Return\n+0 wait setup\n"
             "+50 key Down\n+50 key Down\n+50 key Down\n+50 text %s\n+50 key Down\n+50 key Down\n"
             "+50 key Return\n+200 key Return\n+0 wait lobby\n+300 key Return\n+0 wait race\n+0 wait "
             "results\n+500 quit\n",
             addr, GAME_ID);
    char path[64];
    snprintf(path, sizeof path, "%s.txt", name);
    assert_true(clt_write(clt_path(path), script));
    const char *argv[] = {MAZERACE_BIN, "--headless",    "--name",    name,
                          "--script",   clt_path(path),  "--no-save", "--lan-port",
                          "1",          "--max-seconds", "60",        NULL};
    return clt_spawn(argv, log);
}

static void joiner_run(const char *name, const char *input, const char *addr)
{
    char moves[8192], script[10000];
    solve_lines(moves, sizeof moves);
    snprintf(script, sizeof script,
             "0 wait menu\n+50 key Down\n+50 key Down\n+50 key Down\n+50 key Return\n+0 wait join\n"
             "%s+0 wait lobby\n+300 key Return\n+0 wait race\n%s+0 wait results\n+500 quit\n",
             input, moves);
    (void)addr;
    char path[64];
    snprintf(path, sizeof path, "%s.txt", name);
    assert_true(clt_write(clt_path(path), script));
    const char *args[] = {"--headless",    "--name",    name,         "--script",
                          clt_path(path),  "--no-save", "--lan-port", "1",
                          "--max-seconds", "50",        NULL};
    int rc = clt_run(args, out, sizeof out, 70000);
    if (rc != 0)
        fprintf(stderr, "%s:\n%s\n", name, out);
    assert_int_equal(rc, 0);
}

static void test_dedicated_create_then_join_by_code_and_by_link(void **ctx)
{
    (void)ctx;
    int port;
    char addr[64];
    char slog[256]; /* clt_path rotates 4 buffers */
    snprintf(slog, sizeof slog, "%s", clt_path("dedicated.log"));
    const char *sargv[] = {MR_SERVER_BIN, "--bind", "127.0.0.1", "--port", "0", "--no-discovery",
                           "--countdown", "1",      "--db",      "none",   NULL};
    pid_t sv = clt_spawn(sargv, slog);
    char rest[256];
    assert_true(sv > 0);
    if (!clt_wait_for(slog, "listening on 127.0.0.1:", rest, sizeof rest, 10000)) {
        clt_stop(sv);
        fail_msg("no server");
    }
    port = atoi(rest);
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);

    /* By code. */
    char alog[256]; /* clt_path rotates 4 buffers */
    snprintf(alog, sizeof alog, "%s", clt_path("ann.log"));
    pid_t ann = spawn_creator(addr, "Ann", alog);
    char code[64], link[160];
    if (!clt_wait_for(alog, "room code ", code, sizeof code, 20000) ||
        !clt_wait_for(alog, "join link mazerace://", link, sizeof link, 5000)) {
        clt_stop(ann);
        clt_stop(sv);
        dump("ann", alog);
        fail_msg("Ann's room was not created");
    }
    char want[96];
    snprintf(want, sizeof want, "127.0.0.1:%d/%.5s", port, code);
    /* The link names the server and the code (127.0.0.1 stays when this
     * machine has no LAN address; else its LAN address). */
    assert_non_null(strstr(link, want + strlen("127.0.0.1")));
    /* Bob first mistypes the port (nothing answers there): after the
     * connect timeout he is back on the Join screen with his code kept; he
     * retypes only the address (selected on arrival, so typing replaces
     * it) and goes straight to Join the room. */
    int nobody = free_udp_port();
    char input[512];
    snprintf(
        input, sizeof input,
        "+50 text 127.0.0.1:%d\n+50 key Down\n+50 text %.5s\n+50 key Down\n+50 key Return\n+0 wait lobby\n"
        "+0 wait join\n+50 text %s\n+50 key Down\n+50 key Down\n+50 key Return\n",
        nobody, code, addr);
    joiner_run("Bob", input, addr);
    snprintf(want, sizeof want, "Server not found at 127.0.0.1:%d", nobody);
    assert_non_null(strstr(out, want));
    assert_non_null(strstr(out, "winner_name=Bob"));
    bool ok = host_done(ann, alog);
    assert_true(ok);
    assert_true(clt_wait_for(alog, "RESULT winner=", rest, sizeof rest, 1000));
    assert_non_null(strstr(rest, "winner_name=Bob"));

    /* By a pasted link: the clipboard holds Dee's link (as a chat program
     * would put it there); Ctrl+V on the Join screen fills address and
     * code, Down from the code field is Join the room. */
    char dlog[256]; /* clt_path rotates 4 buffers */
    snprintf(dlog, sizeof dlog, "%s", clt_path("dee.log"));
    pid_t dee = spawn_creator(addr, "Dee", dlog);
    if (!clt_wait_for(dlog, "join link mazerace://", link, sizeof link, 20000) ||
        !clt_wait_for(dlog, "room code ", code, sizeof code, 5000)) {
        clt_stop(dee);
        clt_stop(sv);
        dump("dee", dlog);
        fail_msg("Dee's room was not created");
    }
    /* The pasted link is typed by hand here: the same server, loopback. */
    snprintf(input, sizeof input, "+50 clip mazerace://%s/%.5s\n+50 key Ctrl+V\n+50 key Return\n", addr,
             code);
    joiner_run("Cid", input, addr);
    snprintf(want, sizeof want, "Link pasted: room %.5s on %s", code, addr);
    assert_non_null(strstr(out, want));
    assert_non_null(strstr(out, "winner_name=Cid"));
    ok = host_done(dee, dlog);
    clt_stop(sv);
    assert_true(ok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lan_pick_joins_the_hosts_room),
        cmocka_unit_test(test_dedicated_create_then_join_by_code_and_by_link),
        cmocka_unit_test(test_host_on_fallback_port_is_found),
    };
    return clt_finish(cmocka_run_group_tests(tests, NULL, NULL));
}

#else

int main(void)
{
    puts("test_journey_join: server not built; nothing to test");
    return 0;
}

#endif
