/* clt_peers.c: a UDP relay that can go silent, and a server of another
 * protocol version, each in a child process on 127.0.0.1 (see clt_peers.h). */
#include "clt_peers.h"

#include <arpa/inet.h>
#include <enet/enet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cl_test_util.h"
#include "util.h"
#include "wire.h"

static int udp_on_loopback(int port)
{
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    if (s < 0)
        return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(s, (struct sockaddr *)&a, sizeof a) != 0) {
        close(s);
        return -1;
    }
    return s;
}

static int local_port(int s)
{
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    if (getsockname(s, (struct sockaddr *)&a, &len) != 0)
        return 0;
    return ntohs(a.sin_port);
}

/* The relay's loop, in the child: the client side on cs, the server side
 * on us (connected to the server), commands on ctl. */
static void relay_loop(int cs, int us, int ctl, int max_s)
{
    uint8_t buf[2048];
    struct sockaddr_in client;
    socklen_t client_len = 0;
    bool forward = true;
    uint64_t end = mr_now_us() + (uint64_t)max_s * 1000000u;
    while (mr_now_us() < end) {
        struct pollfd p[3] = {
            {.fd = cs, .events = POLLIN}, {.fd = us, .events = POLLIN}, {.fd = ctl, .events = POLLIN}};
        if (poll(p, 3, 100) < 0)
            break;
        if (p[2].revents) {
            char c;
            if (read(ctl, &c, 1) != 1)
                break; /* the test closed the pipe: done */
            forward = c == 'f';
        }
        /* Bounded per wake: whatever is queued now. */
        for (int i = 0; i < 256 && (p[0].revents & POLLIN); i++) {
            struct sockaddr_in from;
            socklen_t flen = sizeof from;
            ssize_t n = recvfrom(cs, buf, sizeof buf, MSG_DONTWAIT, (struct sockaddr *)&from, &flen);
            if (n < 0)
                break;
            client = from;
            client_len = flen;
            if (forward)
                (void)send(us, buf, (size_t)n, MSG_DONTWAIT);
        }
        for (int i = 0; i < 256 && (p[1].revents & POLLIN); i++) {
            ssize_t n = recv(us, buf, sizeof buf, MSG_DONTWAIT);
            if (n < 0)
                break;
            if (forward && client_len)
                (void)sendto(cs, buf, (size_t)n, MSG_DONTWAIT, (struct sockaddr *)&client, client_len);
        }
    }
}

bool clt_relay_start(clt_relay *r, int to_port, int max_s)
{
    memset(r, 0, sizeof *r);
    r->pid = -1;
    r->ctl = -1;
    int cs = udp_on_loopback(0), us = udp_on_loopback(0), fd[2];
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)to_port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (cs < 0 || us < 0 || connect(us, (struct sockaddr *)&to, sizeof to) != 0 || pipe(fd) != 0) {
        if (cs >= 0)
            close(cs);
        if (us >= 0)
            close(us);
        return false;
    }
    r->port = local_port(cs);
    r->pid = fork();
    if (r->pid == 0) {
        close(fd[1]);
        relay_loop(cs, us, fd[0], max_s);
        _exit(0);
    }
    close(fd[0]);
    close(cs);
    close(us);
    r->ctl = fd[1];
    if (r->pid < 0) {
        close(fd[1]);
        r->ctl = -1;
        return false;
    }
    return r->port > 0;
}

bool clt_relay_set(clt_relay *r, bool forward)
{
    char c = forward ? 'f' : 'b';
    return r->ctl >= 0 && write(r->ctl, &c, 1) == 1;
}

void clt_relay_stop(clt_relay *r)
{
    if (r->ctl >= 0)
        close(r->ctl);
    r->ctl = -1;
    if (r->pid > 0) {
        /* The closed pipe ends the loop within one poll (100 ms). */
        for (int i = 0; i < 100 && waitpid(r->pid, NULL, WNOHANG) != r->pid; i++)
            clt_nap_ms(10);
        if (kill(r->pid, 0) == 0) {
            kill(r->pid, SIGKILL);
            waitpid(r->pid, NULL, 0);
        }
    }
    r->pid = -1;
}

/* The fake server's loop, in the child: to_port 0 refuses every HELLO
 * (another version); else a WELCOME, and WATCH_AT to_port for any WATCH. */
static void fake_loop(ENetHost *h, int max_s, int to_port)
{
    static uint8_t out[WIRE_MSG_MAX];
    static wire_msg in, m;
    uint64_t end = mr_now_us() + (uint64_t)max_s * 1000000u;
    while (mr_now_us() < end) {
        ENetEvent ev;
        if (enet_host_service(h, &ev, 50) <= 0)
            continue;
        if (ev.type != ENET_EVENT_TYPE_RECEIVE)
            continue;
        bool ok = wire_read(ev.packet->data, ev.packet->dataLength, &in);
        enet_packet_destroy(ev.packet);
        memset(&m, 0, sizeof m);
        if (ok && to_port > 0 && (in.type == WIRE_HELLO || in.type == WIRE_WATCH)) {
            if (in.type == WIRE_HELLO) {
                m.type = WIRE_WELCOME;
                m.welcome.player_id = 1;
                snprintf(m.welcome.server_name, sizeof m.welcome.server_name, "fake");
            } else {
                m.type = WIRE_WATCH_AT;
                memcpy(m.watch_at.code, in.join.code, sizeof m.watch_at.code);
                m.watch_at.port = (uint16_t)to_port;
            }
            size_t n = wire_write(&m, out, sizeof out);
            enet_peer_send(ev.peer, WIRE_CHANNEL, enet_packet_create(out, n, ENET_PACKET_FLAG_RELIABLE));
            continue;
        }
        if (!ok || in.type != WIRE_HELLO)
            continue;
        m.type = WIRE_REFUSED;
        m.error.code = WIRE_ERR_VERSION;
        snprintf(m.error.text, sizeof m.error.text,
                 "protocol version %u is not supported: this server speaks %d", (unsigned)in.hello.version,
                 WIRE_VERSION + 1);
        size_t n = wire_write(&m, out, sizeof out);
        enet_peer_send(ev.peer, WIRE_CHANNEL, enet_packet_create(out, n, ENET_PACKET_FLAG_RELIABLE));
        enet_peer_disconnect_later(ev.peer, 0);
    }
}

static pid_t fake_server(int *port, int max_s, int to_port)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        int p = 0;
        ENetHost *h = NULL;
        if (enet_initialize() == 0) {
            ENetAddress a = {.port = 0};
            enet_address_set_host_ip(&a, "127.0.0.1");
            h = enet_host_create(&a, 4, WIRE_CHANNELS, 0, 0);
            if (h && enet_socket_get_address(h->socket, &a) == 0)
                p = a.port;
        }
        ssize_t w = write(fd[1], &p, sizeof p);
        close(fd[1]);
        if (h && p && w == (ssize_t)sizeof p)
            fake_loop(h, max_s, to_port);
        _exit(0);
    }
    close(fd[1]);
    int p = 0;
    ssize_t got = pid > 0 ? read(fd[0], &p, sizeof p) : -1;
    close(fd[0]);
    if (pid < 0)
        return -1;
    if (got != (ssize_t)sizeof p || p <= 0) {
        waitpid(pid, NULL, 0);
        return -1;
    }
    *port = p;
    return pid;
}

pid_t clt_other_version_server(int *port, int max_s)
{
    return fake_server(port, max_s, 0);
}

pid_t clt_watch_at_server(int *port, int to_port, int max_s)
{
    return fake_server(port, max_s, to_port);
}
