/* enet_echo_hosts.c: the raw ENet echo (baselines/enet_echo.c) spread over several ENet hosts, the floor for
 * mazerace-server --hosts N: a server thread with N hosts on one port (SO_REUSEPORT, socket = source port
 * mod N, one poll over all and only the hosts with work walked, as the server's loop) echoes every reliable
 * packet; a client thread with M hosts on consecutive local ports holds K peers sending 16-byte reliable
 * packets at R per second each.
 *
 * Usage: enet_echo_hosts -k K -r R -d SECONDS [-H N] [-c PER_SOCKET] [-b KIB] [-w WARMUP_SECONDS]
 * The window opens after WARMUP seconds (default 2) of the same traffic once every peer is connected, as
 * mazerace-bot --bench opens its window once every player races (connected, paired, counted down): right
 * after 10,000 connects, round trips in the first second take up to about 0.4 s (docs/performance-net.md).
 * Prints RTT p50/p90/p99/max, the server thread's CPU per echo and kernel drops, and a line
 * "RESULT enet rateR_kK_hostsN ..." in the shape of enet_echo's. Only 127.0.0.1; every loop is
 * bounded and the process ends itself (alarm at 150 s). */
#define _GNU_SOURCE
#include <enet/enet.h>
#include <errno.h>
#include <linux/filter.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define EH_MAX_HOSTS 64
#define EH_PER_HOST 4000
#define EH_PAYLOAD 16

static atomic_int eh_stop;
static atomic_long eh_echoed;

static uint64_t eh_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double eh_cpu_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Kernel drops of every socket bound to one of the ports [lo, hi] (/proc/net/udp). */
static long eh_drops(unsigned lo, unsigned hi)
{
    FILE *f = fopen("/proc/net/udp", "r");
    if (!f)
        return -1;
    char line[512];
    long total = 0, d;
    unsigned port, n = 0;
    while (fgets(line, sizeof line, f))
        if (n++ && sscanf(line, " %*d: %*x:%x %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %ld", &port, &d) == 2 &&
            port >= lo && port <= hi)
            total += d;
    fclose(f);
    return total;
}

/* A host with peers slots bound to 127.0.0.1:port (0: any), in port's
 * SO_REUSEPORT group when reuse. */
static ENetHost *eh_host(int port, size_t peers, bool reuse, int buf_kib)
{
    ENetHost *h = enet_host_create(NULL, peers, 1, 0, 0);
    if (!h)
        return NULL;
    ENetAddress a = {.port = (enet_uint16)port};
    enet_address_set_host_ip(&a, "127.0.0.1");
    int one = 1;
    if ((reuse && setsockopt(h->socket, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) != 0) ||
        enet_socket_bind(h->socket, &a) != 0) {
        enet_host_destroy(h);
        return NULL;
    }
    enet_socket_get_address(h->socket, &h->address);
    if (buf_kib > 0) {
        /* Past net.core.[rw]mem_max where allowed (CAP_NET_ADMIN), as mazerace-server does. */
        int v = buf_kib * 1024;
        enet_socket_set_option(h->socket, ENET_SOCKOPT_RCVBUF, v);
        enet_socket_set_option(h->socket, ENET_SOCKOPT_SNDBUF, v);
        setsockopt(h->socket, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof v);
        setsockopt(h->socket, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof v);
    }
    return h;
}

typedef struct eh_set {
    ENetHost *h[EH_MAX_HOSTS];
    struct pollfd fd[EH_MAX_HOSTS];
    int n;
    uint64_t dirty;                   /* bit i: packets queued on host i since its last walk */
    uint64_t walked_ns[EH_MAX_HOSTS]; /* when host i was last serviced */
} eh_set;

/* A host is serviced at least this often (ENet's resends, pings, time-outs). */
#define EH_SWEEP_NS 10000000ull

/* Walks only the hosts of s with work, as mazerace-server --hosts and
 * mazerace-bot do (docs/server.md, "Several ENet hosts"): flushes the hosts
 * with packets queued (a host with a datagram waiting sends in its
 * service), waits up to wait_ms (and no later than the next
 * sweep) in one poll over all sockets, and services the hosts with a
 * datagram, and any host not walked for EH_SWEEP_NS (with every host not
 * walked for half of it). fn gets each event; what it sends goes out on
 * the event's host (marked to be flushed). */
static int eh_service(eh_set *s, int wait_ms, void (*fn)(ENetEvent *ev))
{
    int handled = 0;
    ENetEvent ev;
    int got = s->dirty ? poll(s->fd, (nfds_t)s->n, 0) : 0;
    for (int i = 0; i < s->n && s->dirty; i++)
        if ((s->dirty >> i & 1) && (got <= 0 || !s->fd[i].revents))
            enet_host_flush(s->h[i]); /* a host with a datagram sends in its service */
    s->dirty = 0;
    uint64_t now = eh_now_ns();
    for (int i = 0; i < s->n && wait_ms > 0 && got <= 0; i++) {
        uint64_t due = s->walked_ns[i] + EH_SWEEP_NS;
        int left = due <= now ? 0 : (int)((due - now) / 1000000u);
        if (left < wait_ms)
            wait_ms = left;
    }
    if (got <= 0)
        got = poll(s->fd, (nfds_t)s->n, wait_ms > 0 ? wait_ms : 0);
    now = eh_now_ns();
    bool sweep = false;
    for (int i = 0; i < s->n && !sweep; i++)
        sweep = now - s->walked_ns[i] >= EH_SWEEP_NS;
    for (int i = 0; i < s->n; i++) {
        if (!((got > 0 && s->fd[i].revents) || (sweep && now - s->walked_ns[i] >= EH_SWEEP_NS / 2)))
            continue;
        s->walked_ns[i] = now;
        int before = handled;
        for (int r = enet_host_service(s->h[i], &ev, 0); r > 0; r = enet_host_check_events(s->h[i], &ev)) {
            fn(&ev);
            handled++;
        }
        if (handled > before)
            s->dirty |= 1ull << i;
    }
    return handled;
}

static void eh_echo(ENetEvent *ev)
{
    if (ev->type != ENET_EVENT_TYPE_RECEIVE)
        return;
    enet_peer_send(ev->peer, 0,
                   enet_packet_create(ev->packet->data, ev->packet->dataLength, ENET_PACKET_FLAG_RELIABLE));
    enet_packet_destroy(ev->packet);
    atomic_fetch_add(&eh_echoed, 1);
}

static void *eh_server(void *arg)
{
    eh_set *s = arg;
    while (!atomic_load(&eh_stop))
        eh_service(s, 5, eh_echo);
    for (int i = 0; i < s->n; i++)
        enet_host_flush(s->h[i]);
    return NULL;
}

typedef struct eh_client {
    ENetPeer *peer;
    uint64_t next_send;
    uint32_t sent, recvd;
    bool connected;
} eh_client;

static uint64_t *eh_rtt;
static size_t eh_nrtt, eh_caprtt;
static int eh_nconn;
static bool eh_window;

static void eh_on_client(ENetEvent *ev)
{
    eh_client *c = ev->peer->data;
    if (ev->type == ENET_EVENT_TYPE_CONNECT) {
        c->connected = true;
        eh_nconn++;
    } else if (ev->type == ENET_EVENT_TYPE_RECEIVE) {
        uint64_t t;
        memcpy(&t, ev->packet->data, 8);
        c->recvd++;
        if (eh_window && eh_nrtt < eh_caprtt)
            eh_rtt[eh_nrtt++] = eh_now_ns() - t;
        enet_packet_destroy(ev->packet);
    }
}

static int eh_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static double eh_pct(double p)
{
    return eh_nrtt ? (double)eh_rtt[(size_t)(p * (double)(eh_nrtt - 1) + 0.5)] / 1e3 : 0;
}

int main(int argc, char **argv)
{
    int k = 1000, hosts = 1, per = 0, buf = 4096, opt;
    double rate = 2, dur = 10, warm = 2;
    /* Each flag's number: a whole one (i) or not (d); the whole text must be the number. */
    const struct {
        char flag;
        int *i;
        double *d;
    } flags[] = {{'k', &k, NULL},   {'r', NULL, &rate}, {'d', NULL, &dur}, {'H', &hosts, NULL},
                 {'c', &per, NULL}, {'b', &buf, NULL},  {'w', NULL, &warm}};
    const size_t nflags = sizeof flags / sizeof flags[0];
    while ((opt = getopt(argc, argv, "k:r:d:H:c:b:w:")) != -1) {
        size_t f = 0;
        while (f < nflags && flags[f].flag != opt)
            f++;
        char *end = optarg;
        if (f < nflags && flags[f].i)
            *flags[f].i = (int)strtol(optarg, &end, 10);
        else if (f < nflags)
            *flags[f].d = strtod(optarg, &end);
        if (f == nflags || end == optarg || *end)
            return fprintf(stderr, "usage: %s -k K -r R -d S [-H N] [-c PER_SOCKET] [-b KIB] [-w S]\n",
                           argv[0]),
                   2;
    }
    if (per <= 0)
        per = (k + (k + EH_PER_HOST - 1) / EH_PER_HOST - 1) / ((k + EH_PER_HOST - 1) / EH_PER_HOST);
    int nclient = (k + per - 1) / per;
    if (k < 1 || k > 64000 || rate <= 0 || dur <= 0 || dur > 60 || hosts < 1 || hosts > EH_MAX_HOSTS ||
        per > EH_PER_HOST || nclient > EH_MAX_HOSTS || (k + hosts - 1) / hosts > EH_PER_HOST || buf < 0 ||
        !(warm >= 0) || warm > 30) {
        fprintf(stderr,
                "bad arguments: 1 <= K <= 64000, 0 < d <= 60, 0 <= w <= 30, K/N and PER_SOCKET <= 4000, "
                "<= 64 hosts\n");
        return 2;
    }
    alarm(150);
    if (enet_initialize() != 0)
        return 1;
    /* The server: N hosts in one group, socket = source port mod N. */
    eh_set srv = {.n = 0}, cli = {.n = 0};
    size_t srv_peers = (size_t)((k + hosts - 1) / hosts) + (size_t)((k + hosts - 1) / hosts) / 4 + 8;
    if (srv_peers > 4095)
        srv_peers = 4095;
    int port = 0;
    for (int i = 0; i < hosts; i++) {
        ENetHost *h = eh_host(port, srv_peers, hosts > 1, buf);
        if (!h)
            return fprintf(stderr, "cannot bind server host %d: %s\n", i, strerror(errno)), 1;
        port = h->address.port;
        srv.h[srv.n] = h;
        srv.fd[srv.n++] = (struct pollfd){.fd = h->socket, .events = POLLIN};
    }
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_H | BPF_ABS, (uint32_t)(SKF_NET_OFF + 20)),
        BPF_STMT(BPF_ALU | BPF_MOD | BPF_K, (uint32_t)hosts),
        BPF_STMT(BPF_RET | BPF_A, 0),
    };
    struct sock_fprog prog = {.len = 3, .filter = code};
    if (hosts > 1 &&
        setsockopt(srv.h[0]->socket, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &prog, sizeof prog) != 0)
        fprintf(stderr, "steering refused (%s): the kernel's hash spreads\n", strerror(errno));
    /* The clients: M hosts on consecutive ports, so they spread evenly. */
    int base = 0;
    for (int tries = 0; tries < 50 && cli.n < nclient; tries++) {
        while (cli.n > 0)
            enet_host_destroy(cli.h[--cli.n]);
        base = 20000 + (int)(eh_now_ns() / 1000 % 30000);
        for (int i = 0; i < nclient; i++) {
            ENetHost *h = eh_host(base + i, (size_t)per, false, buf);
            if (!h)
                break;
            cli.h[cli.n] = h;
            cli.fd[cli.n++] = (struct pollfd){.fd = h->socket, .events = POLLIN};
        }
    }
    if (cli.n < nclient)
        return fprintf(stderr, "cannot bind %d consecutive client ports\n", nclient), 1;
    pthread_t th;
    clockid_t srv_clock;
    pthread_create(&th, NULL, eh_server, &srv);
    pthread_getcpuclockid(th, &srv_clock);

    eh_client *cl = calloc((size_t)k, sizeof *cl);
    ENetAddress to = {.port = (enet_uint16)port};
    enet_address_set_host_ip(&to, "127.0.0.1");
    for (int i = 0; i < k; i++) {
        cl[i].peer = enet_host_connect(cli.h[i / per], &to, 1, 0);
        if (!cl[i].peer)
            return fprintf(stderr, "connect %d failed\n", i), 1;
        cl[i].peer->data = &cl[i];
    }
    cli.dirty = ~0ull; /* the CONNECTs */
    uint64_t t_launch = eh_now_ns();
    while (eh_nconn < k && eh_now_ns() - t_launch < 40000000000ull)
        eh_service(&cli, 1, eh_on_client);
    if (eh_nconn < k)
        return fprintf(stderr, "only %d of %d connected\n", eh_nconn, k), 1;
    double connect_s = (double)(eh_now_ns() - t_launch) / 1e9;

    uint64_t period = (uint64_t)(1e9 / rate), tw = eh_now_ns(), t0 = tw + (uint64_t)(warm * 1e9),
             t_end = t0 + (uint64_t)(dur * 1e9);
    eh_caprtt = (size_t)((double)k * rate * dur * 1.2) + 1024;
    eh_rtt = malloc(eh_caprtt * sizeof *eh_rtt);
    for (int i = 0; i < k; i++)
        cl[i].next_send = tw + (uint64_t)rand() % period;
    long sd0 = 0, cd0 = 0, e0 = 0;
    double s0 = 0, c0 = 0;
    uint64_t now;
    while ((now = eh_now_ns()) < t_end) {
        if (!eh_window && now >= t0) { /* the warm-up is over: the window opens */
            sd0 = eh_drops((unsigned)port, (unsigned)port);
            cd0 = eh_drops((unsigned)base, (unsigned)(base + nclient - 1));
            s0 = eh_cpu_s(srv_clock);
            c0 = eh_cpu_s(CLOCK_THREAD_CPUTIME_ID);
            e0 = atomic_load(&eh_echoed);
            eh_window = true;
            t0 = now;
        }
        for (int i = 0; i < k; i++)
            for (; cl[i].next_send <= now; cl[i].next_send += period) {
                uint8_t b[EH_PAYLOAD] = {0};
                memcpy(b, &now, 8);
                memcpy(b + 8, &i, 4);
                enet_peer_send(cl[i].peer, 0, enet_packet_create(b, sizeof b, ENET_PACKET_FLAG_RELIABLE));
                cl[i].sent++;
                cli.dirty |= 1ull << (i / per);
            }
        eh_service(&cli, 1, eh_on_client);
    }
    double s1 = eh_cpu_s(srv_clock), c1 = eh_cpu_s(CLOCK_THREAD_CPUTIME_ID),
           win = (double)(eh_now_ns() - t0) / 1e9;
    long echoed = atomic_load(&eh_echoed) - e0;
    /* Answers in flight are awaited up to 2 s (their round trips count). */
    long sent = 0, recvd = 0;
    for (uint64_t drain = eh_now_ns() + 2000000000ull; eh_now_ns() < drain;) {
        sent = recvd = 0;
        for (int i = 0; i < k; i++)
            sent += cl[i].sent, recvd += cl[i].recvd;
        if (sent == recvd)
            break;
        eh_service(&cli, 1, eh_on_client);
    }
    long sd = eh_drops((unsigned)port, (unsigned)port) - sd0,
         cd = eh_drops((unsigned)base, (unsigned)(base + nclient - 1)) - cd0;
    atomic_store(&eh_stop, 1);
    pthread_join(th, NULL);
    qsort(eh_rtt, eh_nrtt, sizeof *eh_rtt, eh_cmp);
    double srv_us = echoed > 0 ? (s1 - s0) * 1e6 / (double)echoed : -1;
    printf(
        "enet_echo_hosts k=%d on %d server hosts (%zu peers each), %d client sockets: connect %.2f s, window "
        "%.2f s, %ld echoed, %ld sent, %ld answered\n",
        k, hosts, srv_peers, nclient, connect_s, win, echoed, sent, recvd);
    printf("  RTT us: p50 %.1f  p90 %.1f  p99 %.1f  max %.1f  (%zu samples)\n", eh_pct(.5), eh_pct(.9),
           eh_pct(.99), eh_nrtt ? (double)eh_rtt[eh_nrtt - 1] / 1e3 : 0, eh_nrtt);
    printf("  server thread %.1f%% of a core, %.2f us/echo; client thread %.1f%%; kernel drops server %ld "
           "client %ld\n",
           100 * (s1 - s0) / win, srv_us, 100 * (c1 - c0) / win, sd, cd);
    printf("RESULT enet rate%g_k%d_hosts%d rt=%zu rt_per_s=%.0f msgs_per_s=%.0f p50_us=%.1f p90_us=%.1f "
           "p99_us=%.1f "
           "max_us=%.1f srv_cpu_pct=%.1f srv_us_per_echo=%.2f cli_cpu_pct=%.1f srv_drops=%ld cli_drops=%ld "
           "sent=%ld answered=%ld\n",
           rate, k, hosts, eh_nrtt, (double)eh_nrtt / win, 2 * (double)eh_nrtt / win, eh_pct(.5), eh_pct(.9),
           eh_pct(.99), eh_nrtt ? (double)eh_rtt[eh_nrtt - 1] / 1e3 : 0, 100 * (s1 - s0) / win, srv_us,
           100 * (c1 - c0) / win, sd, cd, sent, recvd);
    return sent == recvd ? 0 : 1;
}
