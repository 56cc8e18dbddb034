/* sv_disc.c: a non-blocking UDP socket that answers LAN discovery probes. */
#include "sv_disc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util.h"

struct sv_disc {
    int fd;
    uint16_t port;
};

/* IPv4 only, like the game socket (ENet 1.3 is IPv4). */
static bool resolve(const char *addr, int port, struct sockaddr_in *out)
{
    memset(out, 0, sizeof *out);
    out->sin_family = AF_INET;
    out->sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, addr, &out->sin_addr) == 1)
        return true;
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_DGRAM;
    if (getaddrinfo(addr, NULL, &hints, &res) != 0 || !res)
        return false;
    out->sin_addr = ((struct sockaddr_in *)(void *)res->ai_addr)->sin_addr;
    freeaddrinfo(res);
    return true;
}

/* A non-blocking UDP socket bound to sa alone, or -1 (*err set, errno kept). */
static int bind_alone(const struct sockaddr_in *sa, const char **err)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) {
        *err = "discovery: cannot create a UDP socket";
        return -1;
    }
    int fl = fcntl(fd, F_GETFL, 0);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
        bind(fd, (const struct sockaddr *)sa, sizeof *sa) < 0) {
        int e = errno;
        *err = e == EADDRINUSE ? "discovery: port in use" : "discovery: cannot bind the UDP socket";
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

sv_disc *sv_disc_open(const char *addr, int port, int span, const char **err)
{
    struct sockaddr_in sa;
    if (!resolve(addr, port, &sa)) {
        *err = "discovery: cannot resolve the bind address";
        return NULL;
    }
    /* Each server takes a port of its own (no SO_REUSEADDR): a unicast
     * probe reaches one socket of those sharing a port, so sharing would
     * hide all but one server on a machine from 127.0.0.1 and typed
     * addresses. Clients probe the whole span. */
    int fd = -1;
    for (int k = 0; k < (port > 0 ? span : 1) && fd < 0; k++) {
        if (port > 0 && port + k > 65535)
            break;
        sa.sin_port = htons((uint16_t)(port > 0 ? port + k : 0));
        fd = bind_alone(&sa, err);
        if (fd < 0 && errno != EADDRINUSE)
            return NULL;
    }
    if (fd < 0)
        return NULL;
    socklen_t len = sizeof sa;
    if (getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
        *err = "discovery: cannot read the bound port";
        close(fd);
        return NULL;
    }
    sv_disc *d = mr_alloc(1, sizeof *d);
    d->fd = fd;
    d->port = ntohs(sa.sin_port);
    return d;
}

void sv_disc_close(sv_disc *d)
{
    if (!d)
        return;
    close(d->fd);
    free(d);
}

int sv_disc_fd(const sv_disc *d)
{
    return d ? d->fd : -1;
}

uint16_t sv_disc_port(const sv_disc *d)
{
    return d->port;
}

int sv_disc_poll(sv_disc *d, sv_disc_answer_fn answer, void *ctx, int max)
{
    int sent = 0;
    for (int i = 0; i < max; i++) {
        uint8_t in[512], out[512];
        struct sockaddr_in from;
        socklen_t flen = sizeof from;
        ssize_t n = recvfrom(d->fd, in, sizeof in, MSG_DONTWAIT | MSG_TRUNC, (struct sockaddr *)&from, &flen);
        if (n < 0)
            break; /* EAGAIN: nothing pending; anything else: try next time */
        if ((size_t)n > sizeof in)
            continue;
        for (int part = 0; part < SV_DISC_PARTS; part++) {
            size_t m = answer(ctx, in, (size_t)n, part, out, sizeof out);
            if (m == 0)
                break;
            if (m <= sizeof out &&
                sendto(d->fd, out, m, MSG_DONTWAIT, (struct sockaddr *)&from, flen) == (ssize_t)m)
                sent++;
        }
    }
    return sent;
}
