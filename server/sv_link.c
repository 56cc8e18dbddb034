/* sv_link.c: how the game loop reaches a client: an ENet peer of the game host, or a connection of the
 * spectator host (sv_spechost.c) through its queues; and the spectator port's setting. */
#include <string.h>

#include "sv_hosts.h"
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

void sv_link_send(sv_t *sv, sv_client *c, const void *data, size_t len)
{
    sv_sph_send(sv->sph, sph_slot(sv, c), c->sph_gen, data, len);
}

void sv_link_close_later(sv_t *sv, sv_client *c)
{
    if (c->peer) {
        enet_peer_disconnect_later(c->peer, 0);
        sv_hosts_queued(sv, (int)(c - sv->clients));
    } else if (c->sph_gen)
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

/* sv.h: the bound spectator port; here, beside sv->sph, so that WATCH_AT
 * (sv_game.c) needs no call up into sv_server.c. */
uint16_t sv_spectator_port(const sv_t *sv)
{
    return sv_sph_port(sv->sph);
}
