/* cl_netui_inet.c: the Join screen's Internet list: the coordinator's public servers (LIST), each pinged by a
 * discovery probe. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cl_netui.h"
#include "util.h"

#if defined(MR_HAVE_CLNET)
#include "cl_coord.h"
#include "cl_net.h"
#include "cl_stun.h"

/* Servers kept (the coordinator pages 16 at a time), and how often the
 * shown ones are pinged. */
enum { INET_MAX = 32, PING_MS = 3000, PINGS_PER_ROUND = 8 };

struct cl_inetui {
    int fd;
    cl_coord_t *co;
    char where[140]; /* the coordinator as configured */
    coord_server s[INET_MAX];
    uint32_t rtt[INET_MAX]; /* 0: no answer yet */
    int n, total;
    bool asking, answered;
    char state[240];
    cl_disc_t *ping;
    uint64_t ping_at;
    int ping_next;
};

/* Real time, not the app's clock (a headless run's may be virtual): the
 * pings are round trips. */
static uint64_t now_ms(void)
{
    return mr_now_us() / 1000u;
}

static bool send_fd(void *ctx, coord_addr to, const uint8_t *buf, size_t len)
{
    return cl_udp_send(*(int *)ctx, (stun_addr){to.ip, to.port, false}, buf, len);
}

void cl_app_inet_stop(cl_app *a)
{
    cl_inetui *in = a->online.inet;
    if (!in)
        return;
    cl_coord_destroy(in->co);
    if (in->fd >= 0)
        close(in->fd);
    cl_disc_destroy(in->ping);
    free(in);
    a->online.inet = NULL;
}

void cl_app_inet_refresh(cl_app *a)
{
    const char *where = cl_app_coordinator(a);
    if (a->online.inet && strcmp(a->online.inet->where, where) != 0)
        cl_app_inet_stop(a); /* the setting changed */
    if (!a->online.inet) {
        cl_inetui *in = mr_alloc(1, sizeof *in);
        memset(in, 0, sizeof *in);
        in->fd = -1;
        snprintf(in->where, sizeof in->where, "%s", where);
        a->online.inet = in;
        coord_addr co;
        const char *why = where[0] ? cl_coord_resolve(where, &co) : NULL;
        if (!where[0]) {
            snprintf(in->state, sizeof in->state, "no coordinator set (Settings: Coordinator)");
            return;
        }
        if (!why) {
            in->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            why = in->fd < 0 ? "no UDP socket" : NULL;
        }
        if (why) {
            snprintf(in->state, sizeof in->state, "Internet list unavailable: %s", why);
            return;
        }
        in->co = cl_coord_create(co, send_fd, &in->fd);
        const char *err = NULL;
        in->ping = cl_disc_create(a->args.lan_port ? a->args.lan_port : WIRE_DISCOVERY_PORT, &err);
    }
    cl_inetui *in = a->online.inet;
    if (!in->co)
        return;
    in->n = 0;
    in->asking = true;
    cl_coord_list(in->co, 0, now_ms());
    snprintf(in->state, sizeof in->state, "Asking the coordinator at %s...", in->where);
}

static void on_list(cl_app *a, const coord_msg *m)
{
    cl_inetui *in = a->online.inet;
    in->total = m->total;
    for (int i = 0; i < m->nlist && in->n < INET_MAX; i++) {
        in->rtt[in->n] = 0;
        in->s[in->n++] = m->list[i];
    }
    /* More pages: ask for the next one (up to what the list keeps). */
    if (m->start + m->nlist < m->total && in->n < INET_MAX && m->nlist > 0) {
        cl_coord_list(in->co, (uint16_t)(m->start + m->nlist), now_ms());
        return;
    }
    in->asking = false;
    in->answered = true;
    in->ping_at = 0;
    snprintf(in->state, sizeof in->state, "%d public server%s at %s", in->total, in->total == 1 ? "" : "s",
             in->where);
    printf("mazerace: internet list: %d server%s\n", in->n, in->n == 1 ? "" : "s");
    fflush(stdout);
}

static void pings(cl_app *a)
{
    cl_inetui *in = a->online.inet;
    if (!in->ping)
        return;
    if (in->n && now_ms() >= in->ping_at) {
        in->ping_at = now_ms() + PING_MS;
        for (int k = 0; k < PINGS_PER_ROUND && k < in->n; k++, in->ping_next++) {
            int i = in->ping_next % in->n;
            struct in_addr ip = {htonl(in->s[i].addr.ip)};
            char text[16];
            if (inet_ntop(AF_INET, &ip, text, sizeof text))
                cl_disc_probe(in->ping, text, now_ms());
        }
    }
    cl_server_info info;
    for (int r = 0; r < 64 && cl_disc_poll(in->ping, now_ms(), &info); r++)
        for (int i = 0; i < in->n; i++) {
            struct in_addr ip = {htonl(in->s[i].addr.ip)};
            char text[16];
            if (inet_ntop(AF_INET, &ip, text, sizeof text) && strcmp(text, info.addr) == 0 &&
                info.game_port == in->s[i].addr.port)
                in->rtt[i] = info.rtt_ms ? info.rtt_ms : 1;
        }
}

void cl_app_inet_update(cl_app *a)
{
    cl_inetui *in = a->online.inet;
    if (!in || !in->co)
        return;
    uint8_t buf[COORD_MAX];
    for (int r = 0; r < 64; r++) {
        struct sockaddr_in from;
        socklen_t fl = sizeof from;
        ssize_t got = recvfrom(in->fd, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
        if (got <= 0)
            break;
        cl_coord_input(in->co, (coord_addr){ntohl(from.sin_addr.s_addr), ntohs(from.sin_port)}, buf,
                       (size_t)got, now_ms());
    }
    cl_coord_update(in->co, now_ms());
    coord_msg m;
    while (cl_coord_poll(in->co, &m)) {
        if (m.type == COORD_SERVER_LIST) {
            on_list(a, &m);
        } else if (m.type == COORD_ERROR) {
            in->asking = false;
            snprintf(in->state, sizeof in->state, "Internet list: %s",
                     m.error ? m.text : "the coordinator did not answer");
            if (m.error == 0)
                snprintf(in->state, sizeof in->state,
                         "The coordinator at %s did not answer: no Internet list", in->where);
        }
    }
    pings(a);
}

const char *cl_app_inet_state(const cl_app *a)
{
    return a->online.inet ? a->online.inet->state : "";
}

bool cl_app_inet_found(const cl_app *a, int i, cl_found *out)
{
    const cl_inetui *in = a->online.inet;
    if (!in || i < 0 || i >= in->n)
        return false;
    const coord_server *s = &in->s[i];
    memset(out, 0, sizeof *out);
    struct in_addr ip = {htonl(s->addr.ip)};
    char text[16] = "?", ping[24];
    inet_ntop(AF_INET, &ip, text, sizeof text);
    snprintf(out->address, sizeof out->address, "%s:%u", text, (unsigned)s->addr.port);
    snprintf(out->label, sizeof out->label, "Server \"%s\"", s->name);
    if (in->rtt[i])
        snprintf(ping, sizeof ping, "ping %u ms", (unsigned)in->rtt[i]);
    else
        snprintf(ping, sizeof ping, "ping -");
    snprintf(out->sub, sizeof out->sub, "%u of %u players, %u room%s  -  %s  -  %s  -  %s",
             (unsigned)s->players, (unsigned)s->capacity, (unsigned)s->rooms, s->rooms == 1 ? "" : "s", ping,
             s->version[0] ? s->version : "?", out->address);
    return true;
}

#else

void cl_app_inet_refresh(cl_app *a)
{
    (void)a;
}
void cl_app_inet_update(cl_app *a)
{
    (void)a;
}
void cl_app_inet_stop(cl_app *a)
{
    (void)a;
}
const char *cl_app_inet_state(const cl_app *a)
{
    (void)a;
    return "this build has no network play";
}
bool cl_app_inet_found(const cl_app *a, int i, cl_found *out)
{
    (void)a, (void)i, (void)out;
    return false;
}

#endif
