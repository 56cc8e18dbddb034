/* cl_stun.c: STUN binding requests, hole-punch probes and the intercept tap on ENet's socket; see cl_stun.h.
 */
#include "cl_stun.h"

#include <arpa/inet.h>
#include <enet/enet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "secrand.h"
#include "util.h"

bool cl_udp_send(int fd, stun_addr a, const void *data, size_t len)
{
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(a.ip);
    sa.sin_port = htons(a.port);
    return sendto(fd, data, len, MSG_NOSIGNAL, (struct sockaddr *)&sa, sizeof sa) == (ssize_t)len;
}

/* ---- the tap ---- */

#define TAPS 8
static struct tap {
    ENetHost *host;
    cl_tap_fn fn;
    void *ctx;
} taps[TAPS];

static int ENET_CALLBACK intercept(ENetHost *host, ENetEvent *ev)
{
    (void)ev;
    const uint8_t *d = host->receivedData;
    size_t n = host->receivedDataLength;
    /* STUN, and the coordinator's datagrams (magic "MRCO", docs/coordinator.md)
     * answering requests sent from this socket. */
    bool coord = n >= 4 && memcmp(d, "MRCO", 4) == 0;
    if (!coord && !stun_looks_like(d, n))
        return 0;
    stun_addr from = {ntohl(host->receivedAddress.host), host->receivedAddress.port, false};
    for (int i = 0; i < TAPS; i++)
        if (taps[i].host == host && taps[i].fn(taps[i].ctx, from, d, n))
            return 1;
    /* STUN or a coordinator's datagram that nobody asked for (a late
     * answer, a stray probe): ENet would only count it as a bad packet. */
    return 1;
}

bool cl_tap_add(ENetHost *host, cl_tap_fn fn, void *ctx)
{
    if (host->intercept && host->intercept != intercept)
        return false;
    for (int i = 0; i < TAPS; i++)
        if (!taps[i].host) {
            taps[i] = (struct tap){host, fn, ctx};
            host->intercept = intercept;
            return true;
        }
    return false;
}

void cl_tap_remove(ENetHost *host, cl_tap_fn fn, void *ctx)
{
    bool left = false;
    for (int i = 0; i < TAPS; i++) {
        if (taps[i].host == host && taps[i].fn == fn && taps[i].ctx == ctx)
            taps[i] = (struct tap){0};
        else if (taps[i].host == host)
            left = true;
    }
    if (!left && host->intercept == intercept)
        host->intercept = NULL;
}

/* ---- binding requests ---- */

struct cl_stun {
    int fd;
    stun_addr server, mapped;
    uint8_t tid[STUN_TID_LEN];
    uint64_t first_ms, sent_ms, next_ms, deadline_ms;
    uint32_t rto_ms, rtt_ms;
    int state;
    char err[160];
};

static void send_request(cl_stun_t *s)
{
    uint8_t buf[64];
    stun_writer w;
    stun_begin(&w, buf, sizeof buf, STUN_BINDING, STUN_REQUEST, s->tid);
    cl_udp_send(s->fd, s->server, buf, stun_end(&w));
}

cl_stun_t *cl_stun_create(int fd, stun_addr server, uint64_t now_ms, int timeout_ms, const char **err)
{
    if (fd < 0 || server.ip == 0 || server.port == 0 || server.v6) {
        *err = "STUN server must be an IPv4 address and port";
        return NULL;
    }
    if (timeout_ms < 100 || timeout_ms > 60000) {
        *err = "STUN timeout must be 100..60000 ms";
        return NULL;
    }
    cl_stun_t *s = mr_alloc(1, sizeof *s);
    s->fd = fd;
    s->server = server;
    if (!secrand_fill(s->tid, sizeof s->tid)) {
        free(s);
        *err = "no random bytes for a STUN transaction";
        return NULL;
    }
    s->first_ms = now_ms;
    s->rto_ms = 100;
    s->next_ms = now_ms + s->rto_ms;
    s->deadline_ms = now_ms + (uint64_t)timeout_ms;
    s->state = CL_STUN_PENDING;
    s->sent_ms = now_ms;
    send_request(s);
    return s;
}

void cl_stun_destroy(cl_stun_t *s)
{
    free(s);
}

bool cl_stun_feed(cl_stun_t *s, stun_addr from, const uint8_t *data, size_t len, uint64_t now_ms)
{
    stun_msg m;
    if (s->state != CL_STUN_PENDING || from.ip != s->server.ip || from.port != s->server.port ||
        !stun_decode(data, len, &m) || m.method != STUN_BINDING || memcmp(m.tid, s->tid, STUN_TID_LEN) != 0)
        return false;
    if (m.cls == STUN_SUCCESS && m.has_mapped && !m.mapped.v6) {
        s->mapped = m.mapped;
        s->state = CL_STUN_DONE;
    } else if (m.cls == STUN_ERROR) {
        snprintf(s->err, sizeof s->err, "STUN error %d: %s", m.error_code, m.reason);
        s->state = CL_STUN_FAILED;
    } else if (m.cls == STUN_SUCCESS) {
        snprintf(s->err, sizeof s->err, "STUN answer without an IPv4 mapped address");
        s->state = CL_STUN_FAILED;
    } else {
        return false;
    }
    /* From the last (re)transmission: an answer to an earlier copy reads short. */
    s->rtt_ms = (uint32_t)(now_ms > s->sent_ms ? now_ms - s->sent_ms : 0);
    return true;
}

int cl_stun_update(cl_stun_t *s, uint64_t now_ms)
{
    if (s->state != CL_STUN_PENDING)
        return s->state;
    if (now_ms >= s->deadline_ms) {
        char a[32];
        stun_addr_text(s->server, a, sizeof a);
        snprintf(s->err, sizeof s->err, "no STUN answer from %s in %u ms", a,
                 (unsigned)(s->deadline_ms - s->first_ms));
        s->state = CL_STUN_FAILED;
        return s->state;
    }
    if (now_ms >= s->next_ms) {
        send_request(s);
        s->sent_ms = now_ms;
        if (s->rto_ms < 800)
            s->rto_ms *= 2;
        s->next_ms = now_ms + s->rto_ms;
    }
    return s->state;
}

stun_addr cl_stun_mapped(const cl_stun_t *s)
{
    return s->mapped;
}
uint32_t cl_stun_rtt_ms(const cl_stun_t *s)
{
    return s->rtt_ms;
}
const char *cl_stun_error(const cl_stun_t *s)
{
    return s->state == CL_STUN_FAILED ? s->err : NULL;
}

static uint64_t now_ms(void)
{
    return mr_now_us() / 1000u;
}

const char *cl_stun_query_fd(int fd, stun_addr server, int timeout_ms, stun_addr *mapped)
{
    static _Thread_local char why[160];
    const char *err = NULL;
    uint64_t t0 = now_ms();
    cl_stun_t *s = cl_stun_create(fd, server, t0, timeout_ms, &err);
    if (!s)
        return err;
    for (;;) {
        uint64_t now = now_ms();
        int st = cl_stun_update(s, now);
        if (st != CL_STUN_PENDING)
            break;
        /* Wake for the next retransmission at the latest. */
        uint64_t wake = s->next_ms < s->deadline_ms ? s->next_ms : s->deadline_ms;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, wake > now ? (int)(wake - now) : 0) <= 0)
            continue;
        uint8_t buf[STUN_MAX];
        struct sockaddr_in sa;
        socklen_t sl = sizeof sa;
        ssize_t n = recvfrom(fd, buf, sizeof buf, MSG_DONTWAIT, (struct sockaddr *)&sa, &sl);
        if (n <= 0 || sa.sin_family != AF_INET)
            continue;
        stun_addr from = {ntohl(sa.sin_addr.s_addr), ntohs(sa.sin_port), false};
        cl_stun_feed(s, from, buf, (size_t)n, now_ms());
    }
    const char *e = cl_stun_error(s);
    if (e) {
        snprintf(why, sizeof why, "%s", e);
        cl_stun_destroy(s);
        return why;
    }
    *mapped = cl_stun_mapped(s);
    cl_stun_destroy(s);
    return NULL;
}

/* ---- hole-punch probes ---- */

struct cl_punch {
    int fd;
    stun_addr peer;
    uint64_t start_ms, next_ms;
    uint32_t sent;
    bool heard;
    uint8_t tid[STUN_TID_LEN];
};

static void send_probe(cl_punch_t *p)
{
    uint8_t buf[64];
    stun_writer w;
    p->tid[0] = (uint8_t)p->sent; /* a fresh id per probe is not needed: probes carry nothing */
    stun_begin(&w, buf, sizeof buf, STUN_BINDING, STUN_INDICATION, p->tid);
    cl_udp_send(p->fd, p->peer, buf, stun_end(&w));
    p->sent++;
}

cl_punch_t *cl_punch_create(int fd, stun_addr peer, uint64_t now_ms)
{
    cl_punch_t *p = mr_alloc(1, sizeof *p);
    p->fd = fd;
    p->peer = peer;
    p->start_ms = now_ms;
    secrand_fill(p->tid, sizeof p->tid);
    send_probe(p);
    p->next_ms = now_ms + 20;
    return p;
}

void cl_punch_destroy(cl_punch_t *p)
{
    free(p);
}

void cl_punch_update(cl_punch_t *p, uint64_t now_ms)
{
    if (now_ms < p->next_ms)
        return;
    send_probe(p);
    p->next_ms = now_ms + (now_ms - p->start_ms < 1000 ? 20 : 200);
}

bool cl_punch_feed(cl_punch_t *p, stun_addr from, const uint8_t *data, size_t len)
{
    stun_msg m;
    if (from.ip != p->peer.ip || !stun_decode(data, len, &m) || m.method != STUN_BINDING ||
        m.cls != STUN_INDICATION)
        return false;
    /* A symmetric NAT on the peer's side shows another port: heard all
     * the same (the way in from that address is open). */
    p->heard = true;
    return true;
}

bool cl_punch_heard(const cl_punch_t *p)
{
    return p->heard;
}
uint32_t cl_punch_sent(const cl_punch_t *p)
{
    return p->sent;
}
