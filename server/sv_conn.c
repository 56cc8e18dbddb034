/* sv_conn.c: a client slot taken by a new connection, whichever host it came in on (a game host's
 * CONNECT, a peer the cookie handshake made, the spectator host's connect), and its address's player
 * count let go when it ends. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "sv_addrs.h"
#include "sv_conn.h"
#include "sv_hosts.h"
#include "sv_internal.h"
#include "sv_limit.h"
#include "sv_log.h"

void sv_conn_open(sv_t *sv, sv_client *c, uint32_t host, uint16_t port)
{
    ENetPeer *peer = c->peer;
    uint32_t gen = c->sph_gen;
    memset(c, 0, sizeof *c);
    c->peer = peer;
    c->sph_gen = gen;
    c->state = SV_CL_HELLO;
    c->id = ++sv->next_id;
    c->slot = -1;
    c->connected_ms = sv->now_ms;
    c->ip = host;
    sv_bucket_init(&c->bucket, sv->now_ms, sv->cfg.msg_burst);
    sv_budget_init(&c->gen.budget, sv->now_ms, sv->cfg.gen_burst_ms);
    char ip[INET_ADDRSTRLEN] = "?";
    struct in_addr a = {.s_addr = host};
    inet_ntop(AF_INET, &a, ip, sizeof ip);
    snprintf(c->addr, sizeof c->addr, "%s:%u", ip, (unsigned)port);
    sv->st.connects++;
    sv->st.peers_now++;
    /* Which host, when there are several (docs/server.md, "Several ENet hosts"). */
    char where[32] = "";
    if (gen)
        snprintf(where, sizeof where, " to the spectator port");
    else if (sv->nhosts > 1 && peer)
        snprintf(where, sizeof where, " to host %d", sv_hosts_index(sv, peer->host));
    sv_logx(&sv->log, SV_LOG_INFO, "connected", SV_CLIENT_FIELDS(c, NULL, NULL),
            "client #%u %s connected%s (%d peers)", c->id, c->addr, where, sv->st.peers_now);
}

/* The client slot of a peer of game host h (sv_hosts.h: host h's peers
 * are sv->clients[sv->host_base[h]..]). */
static sv_client *slot_of(sv_t *sv, int h, const ENetPeer *peer)
{
    return &sv->clients[sv->host_base[h] + (int)(peer - sv->hosts[h]->peers)];
}

void sv_conn_peer(sv_t *sv, int h, ENetPeer *peer)
{
    if (h < 0 || sv->shutting) {
        enet_peer_reset(peer);
        return;
    }
    sv_client *c = slot_of(sv, h, peer);
    c->peer = peer;
    c->sph_gen = 0;
    sv_conn_open(sv, c, peer->address.host, peer->address.port);
    peer->data = c;
}

bool sv_conn_admit(sv_t *sv, sv_client *c)
{
    /* ENet counts each host's peers alone, and one address's source ports
     * spread over the hosts. An address the table has no room for is not
     * counted (each host's own limit still holds). The spectator port's
     * host keeps its own limit (a spectator sent there holds its game-port
     * connection a moment too). */
    if (sv->cfg.max_per_ip <= 0 || c->sph_gen)
        return true;
    sv_addr *a = sv_addrs_get(sv->addrs, c->ip, sv->now_ms, SV_ADDR_GEN_SHARE * sv->cfg.gen_burst_ms);
    if (!a)
        return true;
    if (a->players >= sv->cfg.max_per_ip)
        return false;
    a->players++;
    c->ip_player = true;
    return true;
}

void sv_conn_release(sv_t *sv, sv_client *c)
{
    sv_addr *a = c->ip_player ? sv_addrs_find(sv->addrs, c->ip) : NULL;
    if (a && a->players > 0)
        a->players--;
    c->ip_player = false;
}

void sv_conn_made(sv_t *sv, ENetPeer *peer)
{
    sv_conn_peer(sv, sv_hosts_index(sv, peer->host), peer);
}
