/* sv_hosts.c: the game port's ENet hosts: binding one, or several in one SO_REUSEPORT group steered by
 * source port; their sockets' buffers, the wait over all of them, flushes and counters. */
#define _GNU_SOURCE /* SO_REUSEPORT, SO_ATTACH_REUSEPORT_CBPF */
#include "sv_hosts.h"

#include <errno.h>
#include <linux/filter.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sv_internal.h"
#include "sv_log.h"
#include "util.h"

int sv_hosts_wanted(const sv_config *cfg)
{
    if (cfg->hosts > 0)
        return cfg->hosts;
    if (cfg->max_clients <= SV_HOST_MAX_CLIENTS)
        return 1;
    /* Past one host, many small ones: the loop walks only the hosts with
     * traffic (sv_server.c), so a datagram costs a walk over its host's
     * slots, not the port's (10,000 players: 29.5 us of CPU a move on 16
     * hosts, 49 on 3; docs/performance-net.md). */
    int n = (cfg->max_clients + SV_HOST_AUTO_PLAYERS - 1) / SV_HOST_AUTO_PLAYERS;
    return n < SV_MAX_HOSTS ? n : SV_MAX_HOSTS;
}

static int sockbuf_get(ENetSocket s, int opt)
{
    int v = 0;
    socklen_t len = sizeof v;
    if (getsockopt(s, SOL_SOCKET, opt, &v, &len) < 0)
        return -1;
    return v;
}

/* cfg's socket buffers and ENet limits on one host. */
static void tune(sv_t *sv, ENetHost *h)
{
    const sv_config *cfg = &sv->cfg;
    h->maximumPacketSize = SV_ENET_PACKET_MAX;
    h->maximumWaitingData = SV_ENET_WAITING_MAX;
    /* ENet ignores connection requests from an address that already has
     * this many peers on the host (the client then times out). */
    if (cfg->max_per_ip > 0)
        h->duplicatePeers = (size_t)cfg->max_per_ip;
    if (cfg->sockbuf_bytes > 0) {
        enet_socket_set_option(h->socket, ENET_SOCKOPT_RCVBUF, cfg->sockbuf_bytes);
        enet_socket_set_option(h->socket, ENET_SOCKOPT_SNDBUF, cfg->sockbuf_bytes);
    }
    /* Linux reports twice the size it was asked for (bookkeeping included)
     * and caps the request at net.core.rmem_max / wmem_max, unless the
     * process may override the cap (CAP_NET_ADMIN: the *BUFFORCE options). */
    int rcv = sockbuf_get(h->socket, SO_RCVBUF);
#if defined(SO_RCVBUFFORCE) && defined(SO_SNDBUFFORCE)
    if (cfg->sockbuf_bytes > 0 && rcv >= 0 && rcv < cfg->sockbuf_bytes) {
        int v = cfg->sockbuf_bytes;
        if (setsockopt(h->socket, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof v) == 0)
            setsockopt(h->socket, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof v);
        rcv = sockbuf_get(h->socket, SO_RCVBUF);
    }
#endif
    if (h == sv->hosts[0]) {
        sv->st.sockbuf_rcv = rcv;
        sv->st.sockbuf_snd = sockbuf_get(h->socket, SO_SNDBUF);
    }
}

/* The port must be free: a socket of the SO_REUSEPORT group would share it
 * with any other program of this user that bound it with SO_REUSEPORT too.
 * A plain bind tells (port 0 needs no check: the kernel picks a free one). */
static bool port_free(const ENetAddress *addr)
{
    if (addr->port == 0)
        return true;
    ENetSocket s = enet_socket_create(ENET_SOCKET_TYPE_DATAGRAM);
    if (s == ENET_SOCKET_NULL)
        return false;
    int r = enet_socket_bind(s, addr);
    int e = errno;
    enet_socket_destroy(s);
    errno = e;
    return r == 0;
}

/* One host of the group, bound to addr with SO_REUSEPORT. */
static ENetHost *group_host(const ENetAddress *addr, size_t peers)
{
    /* No address: ENet leaves the socket unbound, and it is bound here
     * once it is in the group. */
    ENetHost *h = enet_host_create(NULL, peers, WIRE_CHANNELS, 0, 0);
    if (!h)
        return NULL;
    int one = 1;
    if (setsockopt(h->socket, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) != 0 ||
        enet_socket_bind(h->socket, addr) != 0) {
        int e = errno;
        enet_host_destroy(h);
        errno = e;
        return NULL;
    }
    h->address = *addr;
    return h;
}

/* Socket i of the group gets the datagrams whose source port is i mod n.
 * The BPF program sees the datagram from its UDP payload on; the source
 * port is read through the network header (an IPv4 header without
 * options: with options, some other bytes of the header, the same for the
 * whole flow). False if the kernel refuses it: then its own hash of the
 * addresses and ports steers, which also keeps a flow on one socket. */
static bool steer(ENetSocket s, int n)
{
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_H | BPF_ABS, (uint32_t)(SKF_NET_OFF + 20)),
        BPF_STMT(BPF_ALU | BPF_MOD | BPF_K, (uint32_t)n),
        BPF_STMT(BPF_RET | BPF_A, 0),
    };
    struct sock_fprog prog = {.len = sizeof code / sizeof code[0], .filter = code};
    return setsockopt(s, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &prog, sizeof prog) == 0;
}

static const char *bind_failed(const sv_config *cfg, int e)
{
    /* The address, the port and the system's reason (errno of bind). */
    static _Thread_local char why[160];
    snprintf(why, sizeof why, "cannot bind the game port %s:%d: %s", cfg->bind_addr, cfg->port,
             e ? strerror(e) : "ENet could not create the host");
    return why;
}

bool sv_hosts_open(sv_t *sv, const ENetAddress *addr, const char **err)
{
    const sv_config *cfg = &sv->cfg;
    int n = sv_hosts_wanted(cfg);
    /* Each host's share of the players, and room for a source-port spread
     * that is not even (a quarter more), within ENet's limit. */
    int share = (cfg->max_clients + n - 1) / n;
    int peers = share + share / 4 + SV_SPARE_PEERS;
    if (n == 1 || peers > ENET_PROTOCOL_MAXIMUM_PEER_ID)
        peers = n == 1 ? cfg->max_clients + SV_SPARE_PEERS : ENET_PROTOCOL_MAXIMUM_PEER_ID;
    sv->hosts = mr_alloc((size_t)n, sizeof *sv->hosts);
    sv->host_base = mr_alloc((size_t)n, sizeof *sv->host_base);
    errno = 0;
    if (n == 1) {
        sv->hosts[0] = enet_host_create(addr, (size_t)peers, WIRE_CHANNELS, 0, 0);
        if (!sv->hosts[0]) {
            *err = bind_failed(cfg, errno);
            return false;
        }
        sv->nhosts = 1;
    } else {
        if (!port_free(addr)) {
            *err = bind_failed(cfg, errno);
            return false;
        }
        ENetAddress at = *addr;
        for (int i = 0; i < n; i++) {
            ENetHost *h = group_host(&at, (size_t)peers);
            if (!h) {
                *err = bind_failed(cfg, errno);
                return false;
            }
            sv->hosts[sv->nhosts++] = h;
            ENetAddress bound;
            if (i == 0 && enet_socket_get_address(h->socket, &bound) == 0)
                at.port = bound.port; /* port 0: the others join the one the kernel picked */
        }
        if (!steer(sv->hosts[0]->socket, n))
            sv_loge(&sv->log, SV_LOG_WARN, "steering_off", NULL, NULL, strerror(errno),
                    "%d hosts: the kernel refused the source-port steering (%s): its own hash spreads the "
                    "clients",
                    n, strerror(errno));
    }
    sv->host = sv->hosts[0];
    int base = 0;
    for (int i = 0; i < n; i++) {
        tune(sv, sv->hosts[i]);
        sv->host_base[i] = base;
        base += (int)sv->hosts[i]->peerCount;
    }
    sv->ngame = base;
    ENetAddress bound;
    if (enet_socket_get_address(sv->host->socket, &bound) == 0)
        for (int i = 0; i < n; i++)
            sv->hosts[i]->address.port = bound.port;
    return true;
}

void sv_hosts_close(sv_t *sv)
{
    for (int i = 0; i < sv->nhosts; i++)
        enet_host_destroy(sv->hosts[i]);
    free(sv->hosts);
    free(sv->host_base);
    sv->hosts = NULL;
    sv->host_base = NULL;
    sv->host = NULL;
    sv->nhosts = 0;
}

int sv_hosts_wait(sv_t *sv, int timeout_ms, bool *ready)
{
    struct pollfd fds[SV_MAX_HOSTS];
    for (int i = 0; i < sv->nhosts; i++) {
        fds[i].fd = sv->hosts[i]->socket;
        fds[i].events = POLLIN;
        fds[i].revents = 0;
    }
    int r = poll(fds, (nfds_t)sv->nhosts, timeout_ms);
    int n = 0;
    for (int i = 0; i < sv->nhosts; i++) {
        ready[i] = r > 0 && fds[i].revents != 0;
        n += ready[i];
    }
    return n;
}

void sv_hosts_flush(sv_t *sv)
{
    for (int i = 0; i < sv->nhosts; i++) {
        enet_host_flush(sv->hosts[i]);
        sv->host_walks[i]++;
    }
    sv->hosts_dirty = 0;
}

void sv_hosts_flush_queued(sv_t *sv, const bool *skip)
{
    if (sv->nhosts == 1) {
        sv_hosts_flush(sv);
        return;
    }
    for (int i = 0; i < sv->nhosts && sv->hosts_dirty; i++) /* most steps: none */
        if ((sv->hosts_dirty & (1u << i)) && !(skip && skip[i])) {
            enet_host_flush(sv->hosts[i]);
            sv->host_walks[i]++;
        }
    sv->hosts_dirty = 0;
}

void sv_hosts_queued(sv_t *sv, int slot)
{
    if (sv->nhosts == 1)
        return;
    /* The group's hosts have the same number of peers (sv_hosts_open). */
    int h = slot / (int)sv->hosts[0]->peerCount;
    if (h >= 0 && h < sv->nhosts)
        sv->hosts_dirty |= 1u << h;
}

int sv_hosts_index(const sv_t *sv, const ENetHost *host)
{
    for (int i = 0; i < sv->nhosts; i++)
        if (sv->hosts[i] == host)
            return i;
    return -1;
}

void sv_hosts_counts(const sv_t *sv, uint64_t *in, uint64_t *out)
{
    *in = *out = 0;
    for (int i = 0; i < sv->nhosts; i++) {
        *in += sv->hosts[i]->totalReceivedPackets;
        *out += sv->hosts[i]->totalSentPackets;
    }
}

/* sv.h: the game port, which every host shares (hosts[0]'s address). Here, below
 * the subsystems that advertise it (sv_lan.c), not in sv_server.c. */
uint16_t sv_port(const sv_t *sv)
{
    return sv->host ? sv->host->address.port : 0;
}
