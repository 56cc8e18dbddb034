/* cl_net_disc.c: LAN discovery: UDP probes to the servers' discovery port and their replies. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_net_impl.h"
#include "rng.h"
#include "util.h"

/* Replies are matched to the probes we sent by nonce; the last few are kept
 * so a reply to an earlier probe of the same scan still counts. */
#define DISC_KEEP 8
/* Datagrams read per poll at most, so a flood cannot hold the caller. */
#define DISC_MAX_READS 64

struct cl_disc {
    ENetSocket sock;
    int port;
    rng_t rng;
    struct {
        bool used;
        uint32_t nonce;
        uint64_t sent_ms;
    } sent[DISC_KEEP];
    int next;
};

cl_disc_t *cl_disc_create(int port, const char **err)
{
    if (port < 1 || port > 65535) {
        *err = "discovery port must be 1..65535";
        return NULL;
    }
    if (!cl_enet_init()) {
        *err = "cannot initialise ENet";
        return NULL;
    }
    ENetSocket s = enet_socket_create(ENET_SOCKET_TYPE_DATAGRAM);
    if (s == ENET_SOCKET_NULL) {
        *err = "cannot create a UDP socket";
        return NULL;
    }
    ENetAddress any = {.host = ENET_HOST_ANY, .port = 0};
    if (enet_socket_bind(s, &any) < 0 || enet_socket_set_option(s, ENET_SOCKOPT_NONBLOCK, 1) < 0) {
        enet_socket_destroy(s);
        *err = "cannot bind a UDP socket";
        return NULL;
    }
    /* Without it the kernel refuses to send to 255.255.255.255. */
    enet_socket_set_option(s, ENET_SOCKOPT_BROADCAST, 1);
    cl_disc_t *d = mr_alloc(1, sizeof *d);
    d->sock = s;
    d->port = port;
    /* Nonces only need to differ between runs, not to be secret. */
    rng_seed(&d->rng, mr_now_us() ^ (uint64_t)(uintptr_t)d);
    return d;
}

void cl_disc_destroy(cl_disc_t *d)
{
    if (!d)
        return;
    enet_socket_destroy(d->sock);
    free(d);
}

const char *cl_disc_probe(cl_disc_t *d, const char *addr, uint64_t now_ms)
{
    ENetAddress a;
    if (!addr || enet_address_set_host_ip(&a, addr) != 0)
        return "not an IPv4 address";
    wire_probe p = {.version = WIRE_VERSION, .nonce = rng_u32(&d->rng)};
    uint8_t buf[WIRE_PROBE_LEN];
    size_t len = wire_write_probe(&p, buf, sizeof buf);
    /* A server whose port was taken answers on the next of the span. */
    int sent = 0;
    for (int k = 0; k < WIRE_DISCOVERY_SPAN && d->port + k <= 65535; k++) {
        a.port = (enet_uint16)(d->port + k);
        ENetBuffer b = {.data = buf, .dataLength = len};
        sent += enet_socket_send(d->sock, &a, &b, 1) >= 0;
    }
    if (!sent)
        return "cannot send the probe";
    d->sent[d->next].used = true;
    d->sent[d->next].nonce = p.nonce;
    d->sent[d->next].sent_ms = now_ms;
    d->next = (d->next + 1) % DISC_KEEP;
    return NULL;
}

bool cl_disc_poll(cl_disc_t *d, uint64_t now_ms, cl_server_info *info)
{
    for (int i = 0; i < DISC_MAX_READS; i++) {
        uint8_t buf[WIRE_PROBE_REPLY_MAX + WIRE_PROBE_DETAILS_MAX];
        ENetAddress from;
        ENetBuffer b = {.data = buf, .dataLength = sizeof buf};
        int got = enet_socket_receive(d->sock, &from, &b, 1);
        if (got <= 0)
            return false;
        wire_probe_reply r;
        wire_probe_details dt;
        bool details = false;
        if (wire_read_probe_details(buf, (size_t)got, &dt)) {
            details = true;
            memset(&r, 0, sizeof r);
            r.nonce = dt.nonce;
            r.game_port = dt.game_port;
        } else if (!wire_read_probe_reply(buf, (size_t)got, &r)) {
            continue;
        }
        int k = 0;
        while (k < DISC_KEEP && !(d->sent[k].used && d->sent[k].nonce == r.nonce))
            k++;
        if (k == DISC_KEEP)
            continue;
        memset(info, 0, sizeof *info);
        if (enet_address_get_host_ip(&from, info->addr, sizeof info->addr) != 0)
            snprintf(info->addr, sizeof info->addr, "?");
        info->game_port = r.game_port;
        info->players_waiting = r.players_waiting;
        info->rooms = r.rooms;
        info->players = r.players;
        info->max_players = r.max_players;
        info->races = r.races;
        snprintf(info->name, sizeof info->name, "%s", r.name);
        if (details) {
            info->details = true;
            info->server_id = dt.server_id;
            info->host_game = (dt.flags & WIRE_DISC_HOST_GAME) != 0;
            info->has_room = (dt.flags & WIRE_DISC_HAS_ROOM) != 0;
            memcpy(info->room, dt.room, sizeof info->room);
            info->params = dt.params;
            info->series = dt.series;
            memcpy(info->host_name, dt.host_name, sizeof info->host_name);
        }
        info->rtt_ms = now_ms >= d->sent[k].sent_ms ? (uint32_t)(now_ms - d->sent[k].sent_ms) : 0;
        return true;
    }
    return false;
}
