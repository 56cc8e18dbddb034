/* test_it_hosts.c: a server with several ENet hosts on one port (--hosts): players on different hosts race,
 * quick match and room codes pair them, and more players than one host holds are served. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "it_proc.h"
#include "util.h"

#define MAX_SEEN 128

/* What the server said: each connection's source port and host, and the
 * players of each game that started. */
typedef struct seen {
    int port[MAX_SEEN], host[MAX_SEEN], n;
    int peers_each; /* from the start line */
    int games;
    int refused_ip; /* HELLOs refused for --max-per-ip */
    char last_game[256];
} seen;

/* n consecutive free UDP ports on 127.0.0.1 (each bound once to check),
 * the first returned; -1 if none found in a bounded number of tries. */
static int free_ports(int n)
{
    for (int tries = 0; tries < 50; tries++) {
        int base = 20000 + (int)(mr_now_us() % 20000u) + tries * 97;
        bool ok = true;
        for (int i = 0; i < n && ok; i++) {
            int s = socket(AF_INET, SOCK_DGRAM, 0);
            struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)(base + i))};
            a.sin_addr.s_addr = htonl(INADDR_ANY);
            ok = s >= 0 && bind(s, (struct sockaddr *)&a, sizeof a) == 0;
            if (s >= 0)
                close(s);
        }
        if (ok)
            return base;
    }
    return -1;
}

/* The server on 127.0.0.1, an ephemeral port, with hosts hosts (and
 * --max-per-ip per_ip, "0": no limit); reads its start line (peers per
 * host) and its port. */
static int server_up(it_proc *sv, const char *hosts, const char *max_clients, const char *per_ip, seen *s)
{
    char *argv[] = {MR_SERVER_PATH,
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    "0",
                    "--config",
                    "/dev/null",
                    "--no-discovery",
                    "--db",
                    "none",
                    "--hosts",
                    (char *)hosts,
                    "--max-clients",
                    (char *)max_clients,
                    "--max-per-ip",
                    (char *)per_ip,
                    "--countdown",
                    "0.2",
                    "--size",
                    "8x8",
                    "--log-level",
                    "info",
                    NULL};
    assert_true(it_proc_spawn(sv, argv));
    char line[1024];
    assert_true(it_proc_expect(sv, "ENet hosts on the port", line, sizeof line, 10000, "server"));
    const char *p = strstr(line, "ENet hosts on the port (");
    assert_non_null(p);
    s->peers_each = atoi(p + strlen("ENet hosts on the port ("));
    assert_true(s->peers_each > 0);
    assert_true(it_proc_expect(sv, "listening on", line, sizeof line, 10000, "server"));
    const char *colon = strrchr(line, ':');
    return colon ? atoi(colon + 1) : -1;
}

/* Reads what the server logged so far (it is stopped first, so all of it). */
static void server_down(it_proc *sv, seen *s)
{
    it_proc_signal(sv, SIGINT);
    char line[1024];
    while (it_proc_line(sv, line, sizeof line, 5000, "server")) {
        const char *c = strstr(line, " connected to host ");
        const char *a = strstr(line, "127.0.0.1:");
        if (c && a && s->n < MAX_SEEN) {
            s->port[s->n] = atoi(a + strlen("127.0.0.1:"));
            s->host[s->n] = atoi(c + strlen(" connected to host "));
            s->n++;
        }
        s->refused_ip += strstr(line, "Too many players from your address") != NULL;
        const char *g = strstr(line, ": countdown, ");
        if (g) {
            s->games++;
            snprintf(s->last_game, sizeof s->last_game, "%s", g + strlen(": countdown, "));
        }
    }
    int code = -1;
    assert_true(it_proc_wait(sv, 5000, &code, "server"));
    assert_int_equal(code, 0);
    it_proc_cleanup(sv);
}

/* The host the connection from this source port came in on, or -1. */
static int host_of(const seen *s, int port)
{
    for (int i = 0; i < s->n; i++)
        if (s->port[i] == port)
            return s->host[i];
    return -1;
}

/* mazerace-bot with these players, one UDP socket each from local port
 * base on, giving up after timeout_s seconds; returns its exit status,
 * counting its "match" lines. */
static int run_bots(int port, int bots, int base, bool rooms, const char *timeout_s, int *matches)
{
    char addr[32], nb[16], lp[16];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    snprintf(nb, sizeof nb, "%d", bots);
    snprintf(lp, sizeof lp, "%d", base);
    char *argv[] = {MR_BOT_PATH,
                    "--server",
                    addr,
                    "--bots",
                    nb,
                    "--per-socket",
                    "1",
                    "--local-port",
                    lp,
                    "--pace",
                    "5",
                    "--timeout",
                    (char *)timeout_s,
                    rooms ? "--kind" : NULL,
                    "maze",
                    "--size",
                    "8x8",
                    NULL};
    it_proc bot;
    assert_true(it_proc_spawn(&bot, argv));
    char line[1024];
    uint64_t deadline = mr_now_us() + 90000000u;
    while (mr_now_us() < deadline && it_proc_line(&bot, line, sizeof line, 30000, "bot"))
        *matches += strncmp(line, "match bot-", 10) == 0;
    int code = -1;
    assert_true(it_proc_wait(&bot, 5000, &code, "bot"));
    it_proc_cleanup(&bot);
    return code;
}

/* Two players on quick match against a server of two hosts (and
 * --max-per-ip per_ip), each on its own socket, from ports of different
 * parity: the hosts get one each (source port mod 2), which is checked.
 * Returns the bot's exit status; *matches its finished matches. */
static int two_players_two_hosts(const char *per_ip, const char *timeout_s, seen *s, int *matches)
{
    it_proc sv;
    int port = server_up(&sv, "2", "8", per_ip, s);
    int base = free_ports(2);
    assert_true(base > 0);
    *matches = 0;
    int code = run_bots(port, 2, base, false, timeout_s, matches);
    server_down(&sv, s);
    int h0 = host_of(s, base), h1 = host_of(s, base + 1);
    assert_true(h0 >= 0 && h1 >= 0);
    assert_int_not_equal(h0, h1);
    return code;
}

/* Quick match pairs a player on each host into one race, which both finish. */
static void test_quick_match_across_hosts(void **ctx)
{
    (void)ctx;
    seen s = {0};
    int matches;
    assert_int_equal(two_players_two_hosts("0", "60", &s, &matches), 0);
    assert_int_equal(matches, 2);
    assert_int_equal(s.games, 1);
    assert_true(strstr(s.last_game, "bot-1") && strstr(s.last_game, "bot-2"));
}

/* 40 players on two hosts of fewer peer slots each: every pair (bot 2k
 * creates a room, bot 2k+1 joins it by its code) has one player on each
 * host, and every race ends. */
static void test_more_players_than_one_host_holds(void **ctx)
{
    (void)ctx;
    it_proc sv;
    seen s = {0};
    int port = server_up(&sv, "2", "40", "0", &s);
    assert_true(40 > s.peers_each);
    int base = free_ports(40);
    assert_true(base > 0);
    int matches = 0;
    assert_int_equal(run_bots(port, 40, base, true, "60", &matches), 0);
    assert_int_equal(matches, 40);
    server_down(&sv, &s);
    assert_int_equal(s.n, 40);
    int on[2] = {0, 0};
    for (int i = 0; i < s.n; i++) {
        assert_true(s.host[i] == 0 || s.host[i] == 1);
        on[s.host[i]]++;
    }
    assert_int_equal(on[0], 20);
    assert_int_equal(on[1], 20);
    for (int k = 0; k < 20; k++)
        assert_int_not_equal(host_of(&s, base + 2 * k), host_of(&s, base + 2 * k + 1));
    assert_int_equal(s.games, 20);
}

/* --max-per-ip 1 with two hosts: two players from 127.0.0.1, one on each
 * host (ENet counts each host's peers alone, so both connect), and the
 * second HELLO is refused FULL: the limit holds over every host. */
static void test_max_per_ip_over_hosts(void **ctx)
{
    (void)ctx;
    seen s = {0};
    int matches;
    /* bot-1 waits for an opponent that never comes: 3 s, then it gives up. */
    assert_int_not_equal(two_players_two_hosts("1", "3", &s, &matches), 0);
    assert_int_equal(matches, 0);
    assert_int_equal(s.refused_ip, 1);
    assert_int_equal(s.games, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_quick_match_across_hosts, it_teardown),
        cmocka_unit_test_teardown(test_more_players_than_one_host_holds, it_teardown),
        cmocka_unit_test_teardown(test_max_per_ip_over_hosts, it_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
