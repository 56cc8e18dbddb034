/* test_server_senderr.c: a failing send (a firewall's EPERM) to one peer never stops the server; a broken
 * socket (EBADF) does, with a non-zero exit status. sendmsg is interposed in this test binary. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "puzzle.h"
#include "sv_fixture.h"
#include "util.h"

/* ---- the failing socket ----
 * ENet (libenet.so) sends with sendmsg through the PLT, so this binary's
 * own sendmsg takes its calls and the raw clients' alike: it fails the
 * datagrams addressed to one port (or to every port but one) with the
 * errno a firewall or a broken socket gives, and passes the rest on. */
enum { BLOCK_NONE, BLOCK_TO_PORT, BLOCK_ALL_BUT_PORT };
static int block_mode;
static uint16_t block_port;
static int block_errno;
static unsigned blocked_sends;

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
    static ssize_t (*real)(int, const struct msghdr *, int);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "sendmsg");
    if (block_mode != BLOCK_NONE && msg && msg->msg_name && msg->msg_namelen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *to = msg->msg_name;
        bool hit = ntohs(to->sin_port) == block_port;
        if (hit == (block_mode == BLOCK_TO_PORT)) {
            blocked_sends++;
            errno = block_errno;
            return -1;
        }
    }
    return real(fd, msg, flags);
}

static bool has_socket_error(const sv_stats *s)
{
    return s->socket_errors > 0;
}

/* A race between two players runs to its end while every datagram to a
 * third client fails with EPERM (and that client keeps making the server
 * answer it). On the old server sv_service returned -1 and mazerace-server
 * stopped every race and exited 0. */
static void test_send_error_one_peer(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    raw_client *a = join_server(f, "alice"), *b = join_server(f, "bob"), *v = join_server(f, "victim");
    pz_move plan[512];
    int n = start_pair_race(a, b, plan, (int)MR_ARRAY_LEN(plan));
    wire_msg m;

    block_port = raw_local_port(v);
    block_errno = EPERM;
    blocked_sends = 0;
    block_mode = BLOCK_TO_PORT;
    for (int i = 0; i < n; i++) {
        memset(&m, 0, sizeof m);
        m.type = WIRE_JOIN_ROOM;
        strcpy(m.join.code, "AAAAA"); /* answered with an ERROR the firewall drops */
        raw_send_msg(v, &m);
        raw_pump(v, 1, false);
        send_move(a, (uint32_t)i, plan[i]);
        assert_true(raw_wait(a, WIRE_ACK, &m, WAIT_MS));
    }
    assert_true(raw_wait(a, WIRE_MATCH_END, &m, WAIT_MS));
    assert_int_equal(m.end.winner, 0);
    assert_true(raw_wait(b, WIRE_MATCH_END, &m, WAIT_MS));
    sv_stats st = wait_stats(f, a, has_socket_error);
    block_mode = BLOCK_NONE;
    assert_int_equal(f->service_failures, 0);
    assert_true(blocked_sends > 0);
    assert_true(st.socket_errors > 0);
    /* Still serving: a newcomer gets in and makes a room. */
    raw_client *c = join_server(f, "carol");
    char code[WIRE_ROOM_CODE_LEN + 1];
    create_room(c, code);
    raw_close(a);
    raw_close(b);
    raw_close(c);
    raw_close(v);
    stop(f);
}

static void *stop_later(void *arg)
{
    /* Only a safety net so that a broken fix cannot hang the test: a
     * stop here makes sv_run return 0, which the test refuses. */
    sv_t *sv = arg;
    for (int i = 0; i < 500 && !sv_done(sv); i++) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    sv_request_stop(sv);
    return NULL;
}

/* EBADF: the socket itself is broken. sv_service says so (-1) and sv_run
 * returns 1, so mazerace-server exits non-zero and systemd restarts it. */
static void test_fatal_socket_error(void **ctx)
{
    (void)ctx;
    sv_config cfg;
    base_config(&cfg);
    fixture *f = start(&cfg);
    raw_client *a = join_server(f, "alice");
    block_port = sv_port(f->sv);
    block_errno = EBADF;
    block_mode = BLOCK_ALL_BUT_PORT; /* every send of the server's */
    send_simple(a, WIRE_QUICK_MATCH);
    for (int i = 0; i < 100 && f->service_failures == 0; i++)
        raw_pump(a, 10, false);
    assert_true(f->service_failures > 0);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, stop_later, f->sv), 0);
    int rc = sv_run(f->sv);
    pthread_join(t, NULL);
    block_mode = BLOCK_NONE;
    assert_int_equal(rc, 1);
    raw_close(a);
    stop(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_send_error_one_peer),
        cmocka_unit_test(test_fatal_socket_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
