/* svc_accept.c: the metrics port's listener thread: epoll over the listening socket and the pending
 * connections, header blocks peeked until complete, bounds, evictions and deadlines, then MHD_add_connection.
 */
#define _GNU_SOURCE
#include "svc_accept.h"

#include <errno.h>
#include <microhttpd.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util.h"

typedef struct pending {
    int fd; /* -1: free */
    uint32_t ip;
    uint64_t since_ms;
    struct sockaddr_in addr;
} pending;

struct svc_accept {
    int lfd, ep, stop_fd;
    unsigned port;
    struct MHD_Daemon *d;
    pthread_t thread;
    pending p[SVC_PENDING_MAX];
};

/* epoll data: the listener, the stop event, or a pending slot's index. */
enum { TAG_LISTEN = SVC_PENDING_MAX, TAG_STOP };

static uint64_t now_ms(void)
{
    return mr_now_us() / 1000u;
}

static void drop(pending *p)
{
    close(p->fd); /* also leaves the epoll set */
    p->fd = -1;
}

/* A request with a body is not one of ours (GET /metrics, GET /healthz),
 * and a body could trickle in as slowly as headers: answered here. */
static bool declares_body(const char *h, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && h[i - 1] != '\n')
            continue;
        if (n - i > 18 && strncasecmp(h + i, "transfer-encoding:", 18) == 0)
            return true;
        if (n - i > 15 && strncasecmp(h + i, "content-length:", 15) == 0) {
            size_t k = i + 15;
            while (k < n && (h[k] == ' ' || h[k] == '\t' || h[k] == '0'))
                k++;
            if (k < n && h[k] >= '1' && h[k] <= '9')
                return true;
        }
    }
    return false;
}

/* Looks at what fd has sent so far: hands it over once the header block
 * is complete, closes it if it never can be; true while it must wait. */
static bool incomplete(svc_accept *a, int fd, const struct sockaddr_in *addr)
{
    char buf[SVC_HEADER_MAX];
    ssize_t n = recv(fd, buf, sizeof buf, MSG_PEEK | MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return true;
    size_t len = n > 0 ? (size_t)n : 0;
    bool done = memmem(buf, len, "\r\n\r\n", 4) || memmem(buf, len, "\n\n", 2);
    if (!done && n > 0 && len < sizeof buf)
        return true;
    if (done && declares_body(buf, len)) {
        static const char no[] = "HTTP/1.1 405 Method Not Allowed\r\nContent-Type: text/plain\r\n"
                                 "Content-Length: 9\r\nConnection: close\r\n\r\nonly GET\n";
        ssize_t w = send(fd, no, sizeof no - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
        (void)w; /* best effort: the connection closes either way */
        done = false;
    }
    if (!done) { /* closed by the client, an error, or more than we take */
        close(fd);
        return false;
    }
    epoll_ctl(a->ep, EPOLL_CTL_DEL, fd, NULL);
    /* libmicrohttpd owns the socket from here, even when it refuses it
     * (its own bounds: it closes the socket then). */
    MHD_add_connection(a->d, fd, (const struct sockaddr *)addr, sizeof *addr);
    return false;
}

static void check(svc_accept *a, pending *p)
{
    if (!incomplete(a, p->fd, &p->addr))
        p->fd = -1;
}

/* The slot a newcomer from ip takes: a free one, else that of the oldest
 * pending connection of its address (at SVC_PENDING_PER_IP) or of all. */
static pending *place_for(svc_accept *a, uint32_t ip)
{
    pending *free_slot = NULL, *oldest = NULL, *oldest_mine = NULL;
    int mine = 0;
    for (int i = 0; i < SVC_PENDING_MAX; i++) {
        pending *p = &a->p[i];
        if (p->fd < 0) {
            free_slot = free_slot ? free_slot : p;
            continue;
        }
        if (!oldest || p->since_ms < oldest->since_ms)
            oldest = p;
        if (p->ip == ip) {
            mine++;
            if (!oldest_mine || p->since_ms < oldest_mine->since_ms)
                oldest_mine = p;
        }
    }
    pending *evict = mine >= SVC_PENDING_PER_IP ? oldest_mine : free_slot ? NULL : oldest;
    if (!evict)
        return free_slot;
    drop(evict);
    return evict;
}

static void accept_all(svc_accept *a)
{
    for (int k = 0; k < 4 * SVC_PENDING_MAX; k++) {
        struct sockaddr_in addr;
        socklen_t alen = sizeof addr;
        int fd = accept4(a->lfd, (struct sockaddr *)&addr, &alen, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return; /* EAGAIN, or a connection that died in the backlog */
        if (alen != sizeof addr || addr.sin_family != AF_INET) {
            close(fd);
            continue;
        }
        /* A request that is in already (TCP_DEFER_ACCEPT: the kernel
         * wakes us when the first data has come) needs no place here. */
        if (!incomplete(a, fd, &addr))
            continue;
        pending *p = place_for(a, addr.sin_addr.s_addr);
        *p = (pending){.fd = fd, .ip = addr.sin_addr.s_addr, .since_ms = now_ms(), .addr = addr};
        struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | EPOLLET, .data.u32 = (uint32_t)(p - a->p)};
        if (epoll_ctl(a->ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
            drop(p);
            continue;
        }
    }
}

/* Closes connections past their deadline; returns ms to the next one. */
static int expire(svc_accept *a)
{
    uint64_t now = now_ms(), next = now + SVC_HEADER_MS;
    for (int i = 0; i < SVC_PENDING_MAX; i++) {
        pending *p = &a->p[i];
        if (p->fd < 0)
            continue;
        uint64_t end = p->since_ms + SVC_HEADER_MS;
        if (end <= now)
            drop(p);
        else if (end < next)
            next = end;
    }
    return (int)(next - now) + 1;
}

static void *run(void *arg)
{
    svc_accept *a = arg;
    for (;;) {
        struct epoll_event ev[32];
        int n = epoll_wait(a->ep, ev, 32, expire(a));
        for (int i = 0; i < n; i++) {
            uint32_t tag = ev[i].data.u32;
            if (tag == TAG_STOP)
                return NULL;
            if (tag == TAG_LISTEN)
                accept_all(a);
            else if (tag < SVC_PENDING_MAX && a->p[tag].fd >= 0)
                check(a, &a->p[tag]);
        }
    }
}

static bool watch(int ep, int fd, uint32_t tag)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = tag};
    return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0;
}

svc_accept *svc_accept_start(const struct sockaddr_in *sin, struct MHD_Daemon *d, const char **err)
{
    svc_accept *a = mr_alloc(1, sizeof *a);
    a->d = d;
    for (int i = 0; i < SVC_PENDING_MAX; i++)
        a->p[i].fd = -1;
    a->lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    a->ep = epoll_create1(EPOLL_CLOEXEC);
    a->stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    int one = 1, defer_s = SVC_HEADER_MS / 1000;
    struct sockaddr_in bound;
    socklen_t blen = sizeof bound;
    if (a->lfd < 0 || a->ep < 0 || a->stop_fd < 0 ||
        setsockopt(a->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        setsockopt(a->lfd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer_s, sizeof defer_s) != 0 ||
        bind(a->lfd, (const struct sockaddr *)sin, sizeof *sin) != 0 || listen(a->lfd, SOMAXCONN) != 0 ||
        getsockname(a->lfd, (struct sockaddr *)&bound, &blen) != 0 || !watch(a->ep, a->lfd, TAG_LISTEN) ||
        !watch(a->ep, a->stop_fd, TAG_STOP) || pthread_create(&a->thread, NULL, run, a) != 0) {
        *err = "cannot serve metrics there (address in use or not on this host)";
        if (a->lfd >= 0)
            close(a->lfd);
        if (a->ep >= 0)
            close(a->ep);
        if (a->stop_fd >= 0)
            close(a->stop_fd);
        free(a);
        return NULL;
    }
    a->port = ntohs(bound.sin_port);
    return a;
}

unsigned svc_accept_port(const svc_accept *a)
{
    return a->port;
}

void svc_accept_stop(svc_accept *a)
{
    if (!a)
        return;
    uint64_t one = 1;
    ssize_t w = write(a->stop_fd, &one, sizeof one);
    (void)w; /* an eventfd write of 1 cannot fail short of overflow */
    pthread_join(a->thread, NULL);
    for (int i = 0; i < SVC_PENDING_MAX; i++)
        if (a->p[i].fd >= 0)
            close(a->p[i].fd);
    close(a->lfd);
    close(a->ep);
    close(a->stop_fd);
    free(a);
}
