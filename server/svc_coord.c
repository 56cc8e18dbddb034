/* svc_coord.c: the server's SERVER_REGISTER to the coordinator, sent and read without blocking the loop. */
#include "svc_coord.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "coord_wire.h"
#include "sv.h"
#include "util.h"

struct svc_coord {
    int fd;
    struct sockaddr_in to;
    char where[96];
    uint16_t game_port;
    char name[COORD_NAME_MAX + 1];
    const sv_log *lg;
    uint64_t next_send;
    uint32_t id;
    int refresh_s;  /* from SERVER_OK; 30 until then */
    int unanswered; /* sends since the last answer */
    bool listed;
};

svc_coord *svc_coord_start(const char *hostport, uint16_t game_port, const char *name, const sv_log *lg,
                           const char **err)
{
    char host[80];
    const char *colon = strrchr(hostport, ':');
    long port;
    if (!colon || colon == hostport || (size_t)(colon - hostport) >= sizeof host ||
        !mr_parse_long(colon + 1, 1, 65535, &port)) {
        *err = "coordinator is not HOST:PORT";
        return NULL;
    }
    memcpy(host, hostport, (size_t)(colon - hostport));
    host[colon - hostport] = '\0';
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_DGRAM}, *res = NULL;
    if (getaddrinfo(host, NULL, &hints, &res) != 0 || !res) {
        *err = "coordinator host name does not resolve to an IPv4 address";
        return NULL;
    }
    svc_coord *c = mr_alloc(1, sizeof *c);
    memset(c, 0, sizeof *c);
    memcpy(&c->to, res->ai_addr, sizeof c->to);
    freeaddrinfo(res);
    c->to.sin_port = htons((uint16_t)port);
    c->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0) {
        free(c);
        *err = "no UDP socket for the coordinator";
        return NULL;
    }
    char ip[16];
    inet_ntop(AF_INET, &c->to.sin_addr, ip, sizeof ip);
    snprintf(c->where, sizeof c->where, "%s:%ld", ip, port);
    c->game_port = game_port;
    snprintf(c->name, sizeof c->name, "%s", name);
    c->lg = lg;
    c->refresh_s = 30;
    return c;
}

void svc_coord_stop(svc_coord *c)
{
    if (!c)
        return;
    close(c->fd);
    free(c);
}

static void read_answers(svc_coord *c, uint64_t now)
{
    for (int i = 0; i < 8; i++) {
        uint8_t buf[COORD_MAX + 1];
        struct sockaddr_in from;
        socklen_t fl = sizeof from;
        ssize_t n = recvfrom(c->fd, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
        if (n < 0)
            return;
        coord_msg m;
        bool vbad;
        if (from.sin_addr.s_addr != c->to.sin_addr.s_addr || from.sin_port != c->to.sin_port ||
            !coord_decode(buf, (size_t)n, &m, &vbad) || vbad || m.id != c->id)
            continue;
        c->unanswered = 0;
        if (m.type == COORD_SERVER_OK) {
            if (!c->listed)
                sv_loge(c->lg, SV_LOG_INFO, "coordinator_listed", NULL, NULL, NULL,
                        "coordinator %s: listed as public (refresh every %u s)", c->where,
                        (unsigned)m.seconds);
            c->listed = true;
            c->refresh_s = m.seconds >= 5 ? m.seconds : 5;
            c->next_send = now + (uint64_t)c->refresh_s * 1000;
        } else if (m.type == COORD_ERROR) {
            sv_loge(c->lg, SV_LOG_WARN, "coordinator_refused", NULL, NULL, coord_error_name(m.error),
                    "coordinator %s refused the listing: %s", c->where, m.text);
            c->listed = false;
            c->next_send = now + (uint64_t)(m.seconds ? m.seconds : 30) * 1000;
        }
    }
}

void svc_coord_step(svc_coord *c, uint64_t now, int players, int rooms, int capacity)
{
    if (!c)
        return;
    read_answers(c, now);
    if (now < c->next_send)
        return;
    coord_msg m = {.type = COORD_SERVER_REGISTER, .id = ++c->id};
    m.server.addr.port = c->game_port;
    m.server.players = (uint16_t)(players < 0 ? 0 : players > 65535 ? 65535 : players);
    m.server.rooms = (uint16_t)(rooms < 0 ? 0 : rooms > 65535 ? 65535 : rooms);
    m.server.capacity = (uint16_t)(capacity > 65535 ? 65535 : capacity);
    snprintf(m.server.name, sizeof m.server.name, "%s", c->name);
    snprintf(m.server.version, sizeof m.server.version, "%s", MR_VERSION);
    uint8_t buf[COORD_MAX];
    size_t n = coord_encode(&m, buf, sizeof buf);
    if (sendto(c->fd, buf, n, 0, (struct sockaddr *)&c->to, sizeof c->to) < 0 && c->unanswered == 0)
        sv_loge(c->lg, SV_LOG_WARN, "coordinator_send", NULL, NULL, strerror(errno),
                "coordinator %s: cannot send: %s", c->where, strerror(errno));
    if (++c->unanswered == 3)
        sv_loge(c->lg, SV_LOG_WARN, "coordinator_silent", NULL, NULL, NULL,
                "coordinator %s: no answer to 3 listings; still trying every %d s", c->where, c->refresh_s);
    /* Unanswered: again in 2 s, then at the refresh interval. */
    c->next_send = now + (c->unanswered < 3 ? 2000 : (uint64_t)c->refresh_s * 1000);
}
