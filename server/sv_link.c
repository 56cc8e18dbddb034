/* sv_link.c: how the game loop reaches a client: an ENet peer of the game host, or a connection of the
 * spectator host (sv_spechost.c) through its queues; and the spectator port's setting. */
#include <string.h>

#include "sv_conn.h"
#include "sv_internal.h"
#include "sv_link.h"
#include "sv_log.h"
#include "sv_spechost.h"

static int sph_slot(const sv_t *sv, const sv_client *c)
{
    return (int)(c - sv->clients) - sv->ngame;
}

bool sv_link_open(sv_t *sv, const char **err)
{
    const sv_config *cfg = &sv->cfg;
    if (cfg->spectator_port == SV_SPECTATOR_PORT_OFF)
        return true;
    bool must = cfg->spectator_port >= 0;
    int port = cfg->spectator_port;
    if (!must)
        port = cfg->port == 0 ? 0 : (int)sv->host->address.port + SV_SPECTATOR_PORT_OFFSET;
    const char *why = "the game port + 2 is beyond 65535";
    if (port <= 65535) {
        sv_sph_opts o = {
            .addr = {.host = sv->host->address.host, .port = (enet_uint16)port},
            .peers = (size_t)cfg->max_spectators + SV_SPARE_PEERS,
            .packet_max = SV_ENET_PACKET_MAX,
            .waiting_max = SV_ENET_WAITING_MAX,
            .dup_peers = cfg->max_per_ip > 0 ? (size_t)cfg->max_per_ip : 0,
            .sockbuf = cfg->sockbuf_bytes,
            .channels = WIRE_CHANNELS,
            .channel = WIRE_CHANNEL,
            .msg_max = WIRE_MSG_MAX,
        };
        sv->sph = sv_sph_create(&o, &why);
    }
    if (sv->sph)
        return true;
    if (must) {
        *err = why;
        return false;
    }
    sv_loge(&sv->log, SV_LOG_WARN, "spectator_port_off", NULL, NULL, why,
            "spectator port %d: %s: spectators are served on the game port", port, why);
    return true;
}

void sv_link_close(sv_t *sv)
{
    sv_sph_destroy(sv->sph);
    sv->sph = NULL;
}

static void on_event(void *ctx, const sv_sph_event *ev)
{
    sv_t *sv = ctx;
    if (ev->slot < 0 || ev->slot >= sv->nclients - sv->ngame)
        return;
    sv_client *c = &sv->clients[sv->ngame + ev->slot];
    switch (ev->type) {
    case SV_SPH_CONNECT:
        if (c->state != SV_CL_FREE) /* cannot happen: its disconnect came first */
            sv_client_gone(sv, c);
        if (sv->shutting) {
            sv_sph_drop(sv->sph, ev->slot, ev->gen);
            return;
        }
        c->peer = NULL;
        c->sph_gen = ev->gen;
        sv_client_open(sv, c, ev->host, ev->port);
        break;
    case SV_SPH_RECEIVE:
        if (c->state == SV_CL_FREE || c->sph_gen != ev->gen)
            return; /* dropped by us since */
        sv_client_data(sv, c, ev->oversized ? NULL : ev->data, ev->len);
        break;
    case SV_SPH_DISCONNECT:
        if (c->state == SV_CL_FREE || c->sph_gen != ev->gen)
            return;
        sv_client_gone(sv, c);
        break;
    default:
        break;
    }
}

int sv_link_poll(sv_t *sv)
{
    return sv->sph ? sv_sph_poll(sv->sph, on_event, sv) : 0;
}

void sv_link_send(sv_t *sv, sv_client *c, const void *data, size_t len)
{
    sv_sph_send(sv->sph, sph_slot(sv, c), c->sph_gen, data, len);
}

void sv_link_close_later(sv_t *sv, sv_client *c)
{
    if (c->peer)
        enet_peer_disconnect_later(c->peer, 0);
    else if (c->sph_gen)
        sv_sph_close_later(sv->sph, sph_slot(sv, c), c->sph_gen);
}

void sv_link_drop_now(sv_t *sv, sv_client *c)
{
    if (c->peer) {
        enet_peer_disconnect_now(c->peer, 0);
        c->peer->data = NULL;
        c->peer = NULL;
    } else if (c->sph_gen) {
        sv_sph_drop(sv->sph, sph_slot(sv, c), c->sph_gen);
        c->sph_gen = 0;
    }
}

void sv_link_welcomed(sv_t *sv, sv_client *c)
{
    if (c->sph_gen)
        sv_sph_welcomed(sv->sph, sph_slot(sv, c), c->sph_gen);
}

void sv_link_commit(sv_t *sv)
{
    sv_sph_commit(sv->sph);
}
