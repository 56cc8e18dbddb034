/* sv_shake.c: the pre-handshake filter: CONNECTs over the half-open budgets are dropped unanswered (ENet
 * intercept), stuck handshakes reset. */
#include <enet/enet.h>
#include <stdlib.h>

#include "sv_conn.h"
#include "sv_cookie.h"
#include "sv_hosts.h"
#include "sv_internal.h"
#include "sv_log.h"
#include "sv_shake.h"
#include "util.h"

/* ENet has no handshake cookie: a forged CONNECT from any address takes a
 * peer slot and is answered (VERIFY_CONNECT, resent) until ENet's own
 * time-out, up to 30 s. Here a CONNECT is looked at before ENet sees it
 * and dropped, unanswered, while the peers that have not finished their
 * handshake (ENet's or our HELLO) are too many in total or from its
 * address; and a peer stuck in ENet's handshake is reset after
 * SV_SHAKE_MS, so forged ones free their slots quickly. */
#define SV_SHAKE_SCAN_MS 250

/* ENetHost has no user pointer: the game hosts of the servers alive in this process. */
#define SV_SHAKE_HOSTS 64
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

/* A connected peer that has not said HELLO yet. */
static bool hello_pending(const ENetPeer *p)
{
    const sv_client *c = p->data;
    return c && c->state == SV_CL_HELLO;
}

/* A peer that has not finished connecting, or (hello_pending) has not said HELLO. */
static bool half_open(const ENetPeer *p, bool (*hello_pending_fn)(const ENetPeer *))
{
    switch (p->state) {
    case ENET_PEER_STATE_CONNECTING:
    case ENET_PEER_STATE_ACKNOWLEDGING_CONNECT:
    case ENET_PEER_STATE_CONNECTION_PENDING:
    case ENET_PEER_STATE_CONNECTION_SUCCEEDED:
        return true;
    case ENET_PEER_STATE_CONNECTED:
        return hello_pending_fn(p);
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

bool sv_shake_for_peer(const ENetHost *host)
{
    if (host->receivedDataLength < 2)
        return false;
    const uint8_t *d = host->receivedData;
    unsigned id = ((unsigned)d[0] << 8 | d[1]) & ENET_PROTOCOL_MAXIMUM_PEER_ID;
    return id < host->peerCount && host->peers[id].state != ENET_PEER_STATE_DISCONNECTED;
}

bool sv_shake_refuse(ENetHost *host, int max_total, bool (*hello_pending_fn)(const ENetPeer *))
{
    if (!is_connect(host->receivedData, host->receivedDataLength))
        return false;
    /* A scan of the peer table per CONNECT: cheap next to what ENet
     * does for one, and a flood of them is dropped here. */
    int total = 0, mine = 0;
    for (size_t i = 0; i < host->peerCount; i++) {
        const ENetPeer *p = &host->peers[i];
        if (!half_open(p, hello_pending_fn))
            continue;
        total++;
        if (p->address.host == host->receivedAddress.host) {
            if (p->address.port == host->receivedAddress.port)
                return false; /* its own resend: ENet ignores it */
            mine++;
        }
    }
    return total >= max_total || mine >= SV_SHAKE_PER_ADDR;
}

/* Every datagram of the game host, before ENet reads it: the
 * acknowledgement of a cookie VERIFY_CONNECT makes its peer (and the
 * client is connected as on ENET_EVENT_TYPE_CONNECT); a CONNECT over the
 * half-open budgets is answered with a cookie (sv_cookie.c), or dropped
 * if it does not qualify. */
static int ENET_CALLBACK intercept(ENetHost *host, ENetEvent *ev)
{
    (void)ev;
    sv_t *sv = sv_of(host);
    if (!sv)
        return 0;
    if (sv->raw_fn && sv->raw_fn(sv->raw_ctx, ENET_NET_TO_HOST_32(host->receivedAddress.host),
                                 host->receivedAddress.port, host->receivedData, host->receivedDataLength))
        return 1;
    if (sv_shake_for_peer(host))
        return 0;
    uint64_t now = mr_now_us() / 1000u;
    bool empty = false;
    ENetPeer *made = sv_cookie_accept(host, now, &empty);
    if (made) {
        sv->st.cookie_peers++;
        sv_conn_made(sv, made);
        return empty ? 1 : 0;
    }
    if (!sv_shake_refuse(host, sv->shake.max, hello_pending))
        return 0;
    if (sv_cookie_answer(host, now))
        sv->st.handshakes_cookies++;
    else
        sv->st.handshakes_dropped++;
    return 1;
}

void sv_set_raw_tap(sv_t *sv, sv_raw_fn fn, void *ctx)
{
    sv->raw_fn = fn;
    sv->raw_ctx = ctx;
}

void sv_shake_attach(sv_t *sv)
{
    sv_cookie_init();
    /* The budget of half-open peers is per host (each scans its own). */
    int n = sv->cfg.max_clients / 8 / sv->nhosts;
    sv->shake.max = n < SV_SHAKE_MIN ? SV_SHAKE_MIN : n;
    sv->shake.since = mr_alloc((size_t)sv->ngame, sizeof *sv->shake.since);
    for (int h = 0, i = 0; h < sv->nhosts; h++) {
        while (i < SV_SHAKE_HOSTS && hosts[i].host)
            i++;
        if (i == SV_SHAKE_HOSTS) {
            sv_logf(&sv->log, SV_LOG_WARN, "too many servers in one process: no handshake filter for host %d",
                    h);
            continue;
        }
        hosts[i].host = sv->hosts[h];
        hosts[i].sv = sv;
        sv->hosts[h]->intercept = intercept;
    }
}

void sv_shake_detach(sv_t *sv)
{
    for (int i = 0; i < SV_SHAKE_HOSTS; i++)
        if (hosts[i].sv == sv) {
            hosts[i].host = NULL;
            hosts[i].sv = NULL;
        }
    free(sv->shake.since);
    sv->shake.since = NULL;
}

void sv_shake_expire(sv_t *sv)
{
    if (!sv->shake.since || sv->now_ms < sv->shake.next_ms)
        return;
    sv->shake.next_ms = sv->now_ms + SV_SHAKE_SCAN_MS;
    for (int h = 0; h < sv->nhosts; h++)
        sv->st.handshakes_expired +=
            (uint64_t)sv_shake_reset_stuck(sv->hosts[h], sv->shake.since + sv->host_base[h], sv->now_ms);
}

int sv_shake_reset_stuck(ENetHost *host, uint64_t *since, uint64_t now_ms)
{
    int n = 0;
    for (size_t i = 0; i < host->peerCount; i++) {
        ENetPeer *p = &host->peers[i];
        if (p->state != ENET_PEER_STATE_ACKNOWLEDGING_CONNECT) {
            since[i] = 0;
        } else if (!since[i]) {
            since[i] = now_ms;
        } else if (now_ms - since[i] > SV_SHAKE_MS) {
            /* Never acknowledged our VERIFY_CONNECT: a forged source, or a
             * client that will retry. Nothing of ours is attached yet. */
            enet_peer_reset(p);
            since[i] = 0;
            n++;
        }
    }
    return n;
}
