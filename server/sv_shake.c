/* sv_shake.c: the pre-handshake filter: CONNECTs over the half-open budgets are dropped unanswered (ENet
 * intercept), stuck handshakes reset. */
#include <enet/enet.h>
#include <stdlib.h>

#include "sv_internal.h"
#include "util.h"

/* ENet has no handshake cookie: a forged CONNECT from any address takes a
 * peer slot and is answered (VERIFY_CONNECT, resent) until ENet's own
 * time-out, up to 30 s. Here a CONNECT is looked at before ENet sees it
 * and dropped, unanswered, while the peers that have not finished their
 * handshake (ENet's or our HELLO) are too many in total or from its
 * address; and a peer stuck in ENet's handshake is reset after
 * SV_SHAKE_MS, so forged ones free their slots quickly. */
#define SV_SHAKE_SCAN_MS 250

/* ENetHost has no user pointer: the servers alive in this process. */
#define SV_SHAKE_HOSTS 16
static struct {
    ENetHost *host;
    sv_t *sv;
} hosts[SV_SHAKE_HOSTS];

static sv_t *sv_of(ENetHost *host)
{
    for (int i = 0; i < SV_SHAKE_HOSTS; i++)
        if (hosts[i].host == host)
            return hosts[i].sv;
    return NULL;
}

/* A peer that has not finished connecting, or has not said HELLO. */
static bool half_open(const ENetPeer *p)
{
    switch (p->state) {
    case ENET_PEER_STATE_CONNECTING:
    case ENET_PEER_STATE_ACKNOWLEDGING_CONNECT:
    case ENET_PEER_STATE_CONNECTION_PENDING:
    case ENET_PEER_STATE_CONNECTION_SUCCEEDED:
        return true;
    case ENET_PEER_STATE_CONNECTED: {
        const sv_client *c = p->data;
        return c && c->state == SV_CL_HELLO;
    }
    default:
        return false;
    }
}

/* Whether the datagram is an ENet CONNECT: addressed to no peer (peer ID
 * 0xFFF), first command CONNECT. */
static bool is_connect(const uint8_t *d, size_t n)
{
    if (n < 4)
        return false;
    unsigned peer = (unsigned)d[0] << 8 | d[1];
    if ((peer & ENET_PROTOCOL_MAXIMUM_PEER_ID) != ENET_PROTOCOL_MAXIMUM_PEER_ID)
        return false;
    size_t off = peer & ENET_PROTOCOL_HEADER_FLAG_SENT_TIME ? 4 : 2;
    return off < n && (d[off] & ENET_PROTOCOL_COMMAND_MASK) == ENET_PROTOCOL_COMMAND_CONNECT;
}

static int ENET_CALLBACK intercept(ENetHost *host, ENetEvent *ev)
{
    (void)ev;
    if (!is_connect(host->receivedData, host->receivedDataLength))
        return 0;
    sv_t *sv = sv_of(host);
    if (!sv)
        return 0;
    /* A scan of the peer table per CONNECT: cheap next to what ENet
     * does for one, and a flood of them is dropped here. */
    int total = 0, mine = 0;
    for (size_t i = 0; i < host->peerCount; i++) {
        const ENetPeer *p = &host->peers[i];
        if (!half_open(p))
            continue;
        total++;
        if (p->address.host == host->receivedAddress.host) {
            if (p->address.port == host->receivedAddress.port)
                return 0; /* its own resend: ENet ignores it */
            mine++;
        }
    }
    if (total < sv->shake_max && mine < SV_SHAKE_PER_ADDR)
        return 0;
    sv->st.handshakes_dropped++;
    return 1;
}

void sv_shake_attach(sv_t *sv)
{
    int n = sv->cfg.max_clients / 8;
    sv->shake_max = n < SV_SHAKE_MIN ? SV_SHAKE_MIN : n;
    sv->shake_since = mr_alloc(sv->host->peerCount, sizeof *sv->shake_since);
    for (int i = 0; i < SV_SHAKE_HOSTS; i++)
        if (!hosts[i].host) {
            hosts[i].host = sv->host;
            hosts[i].sv = sv;
            sv->host->intercept = intercept;
            return;
        }
    sv_logf(&sv->log, SV_LOG_WARN, "too many servers in one process: no handshake filter for this one");
}

void sv_shake_detach(sv_t *sv)
{
    for (int i = 0; i < SV_SHAKE_HOSTS; i++)
        if (hosts[i].sv == sv) {
            hosts[i].host = NULL;
            hosts[i].sv = NULL;
        }
    free(sv->shake_since);
    sv->shake_since = NULL;
}

void sv_shake_expire(sv_t *sv)
{
    if (!sv->shake_since || sv->now_ms < sv->next_shake_ms)
        return;
    sv->next_shake_ms = sv->now_ms + SV_SHAKE_SCAN_MS;
    for (size_t i = 0; i < sv->host->peerCount; i++) {
        ENetPeer *p = &sv->host->peers[i];
        if (p->state != ENET_PEER_STATE_ACKNOWLEDGING_CONNECT) {
            sv->shake_since[i] = 0;
        } else if (!sv->shake_since[i]) {
            sv->shake_since[i] = sv->now_ms;
        } else if (sv->now_ms - sv->shake_since[i] > SV_SHAKE_MS) {
            /* Never acknowledged our VERIFY_CONNECT: a forged source, or a
             * client that will retry. Nothing of ours is attached yet. */
            enet_peer_reset(p);
            sv->shake_since[i] = 0;
            sv->st.handshakes_expired++;
        }
    }
}
