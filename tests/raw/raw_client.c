/* raw_client.c: a bare ENet client for server tests (one host, one peer, a queue of received messages). */
#define _POSIX_C_SOURCE 200809L
#include "raw_client.h"

#include <enet/enet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define RAW_QUEUE 512

typedef struct raw_pkt {
    uint8_t *data;
    size_t len;
} raw_pkt;

struct raw_client {
    ENetHost *host;
    ENetPeer *peer;
    raw_pump_fn pump;
    void *ctx;
    bool connected, closed;
    raw_pkt q[RAW_QUEUE];
    int qlen;
    int undecodable;
    int bundles;   /* BUNDLEs received (their messages are queued one by one) */
    uint8_t *held; /* the packet backing the last message returned by raw_wait */
};

static uint64_t now_ms(void)
{
    return mr_now_us() / 1000u;
}

uint16_t raw_local_port(const raw_client *c)
{
    ENetAddress a;
    return enet_socket_get_address(c->host->socket, &a) == 0 ? a.port : 0;
}

static void enqueue(raw_client *c, const uint8_t *data, size_t len)
{
    if (c->qlen < RAW_QUEUE) {
        raw_pkt *p = &c->q[c->qlen++];
        p->len = len;
        p->data = mr_alloc(len ? len : 1, 1);
        memcpy(p->data, data, len);
    }
}

static void handle(raw_client *c, ENetEvent *ev)
{
    switch (ev->type) {
    case ENET_EVENT_TYPE_CONNECT:
        c->connected = true;
        break;
    case ENET_EVENT_TYPE_DISCONNECT:
        c->connected = false;
        c->closed = true;
        break;
    case ENET_EVENT_TYPE_RECEIVE: {
        /* A BUNDLE's messages are queued as if each had come on its own; a
         * bad one is queued whole (it then counts as undecodable). */
        const uint8_t *d = ev->packet->data;
        size_t len = ev->packet->dataLength;
        wire_bundle_it it;
        if (len > 0 && d[0] == WIRE_BUNDLE && wire_bundle_open(&it, d, len)) {
            c->bundles++;
            const uint8_t *m;
            size_t k;
            while (wire_bundle_next(&it, &m, &k))
                enqueue(c, m, k);
        } else {
            enqueue(c, d, len);
        }
        enet_packet_destroy(ev->packet);
        break;
    }
    default:
        break;
    }
}

void raw_pump(raw_client *c, int timeout_ms, bool stop_on_msg)
{
    uint64_t end = now_ms() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0);
    int start_len = c->qlen;
    do {
        if (c->pump)
            c->pump(c->ctx);
        ENetEvent ev;
        int r = enet_host_service(c->host, &ev, c->pump ? 0 : 1);
        for (; r > 0; r = enet_host_check_events(c->host, &ev))
            handle(c, &ev);
        if (c->pump) {
            /* Give the other side a moment without spinning hot. */
            r = enet_host_service(c->host, &ev, 1);
            for (; r > 0; r = enet_host_check_events(c->host, &ev))
                handle(c, &ev);
        }
        if (stop_on_msg && c->qlen > start_len)
            return;
    } while (now_ms() < end);
}

raw_client *raw_connect(uint16_t port, raw_pump_fn pump, void *ctx, int timeout_ms)
{
    return raw_connect_from(NULL, port, pump, ctx, timeout_ms);
}

raw_client *raw_connect_from(const char *src, uint16_t port, raw_pump_fn pump, void *ctx, int timeout_ms)
{
    static bool inited;
    if (!inited) {
        if (enet_initialize() != 0)
            return NULL;
        inited = true;
    }
    raw_client *c = mr_alloc(1, sizeof *c);
    c->pump = pump;
    c->ctx = ctx;
    ENetAddress from = {.host = ENET_HOST_ANY, .port = 0};
    if (src)
        enet_address_set_host_ip(&from, src);
    c->host = enet_host_create(src ? &from : NULL, 1, WIRE_CHANNELS, 0, 0);
    if (!c->host) {
        free(c);
        return NULL;
    }
    ENetAddress a;
    enet_address_set_host_ip(&a, "127.0.0.1");
    a.port = port;
    c->peer = enet_host_connect(c->host, &a, WIRE_CHANNELS, 0);
    uint64_t end = now_ms() + (uint64_t)timeout_ms;
    while (c->peer && !c->connected && !c->closed && now_ms() < end)
        raw_pump(c, 5, false);
    if (!c->connected) {
        raw_close(c);
        return NULL;
    }
    return c;
}

unsigned raw_resends(const raw_client *c)
{
    return c->peer ? c->peer->packetsLost : 0;
}

void raw_close(raw_client *c)
{
    if (!c)
        return;
    if (c->connected) {
        enet_peer_disconnect(c->peer, 0);
        uint64_t end = now_ms() + 500;
        while (c->connected && now_ms() < end)
            raw_pump(c, 5, false);
        if (c->connected)
            enet_peer_reset(c->peer);
    }
    for (int i = 0; i < c->qlen; i++)
        free(c->q[i].data);
    free(c->held);
    enet_host_destroy(c->host);
    free(c);
}

void raw_send(raw_client *c, const void *data, size_t len)
{
    ENetPacket *p = enet_packet_create(data, len, ENET_PACKET_FLAG_RELIABLE);
    if (p && enet_peer_send(c->peer, WIRE_CHANNEL, p) < 0)
        enet_packet_destroy(p);
    enet_host_flush(c->host);
}

void raw_send_msg(raw_client *c, const wire_msg *m)
{
    size_t n = wire_size(m);
    uint8_t *buf = mr_alloc(n, 1);
    wire_write(m, buf, n);
    raw_send(c, buf, n);
    free(buf);
}

void raw_send_hello(raw_client *c, const char *name)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_HELLO;
    m.hello.magic = WIRE_MAGIC;
    m.hello.version = WIRE_VERSION;
    snprintf(m.hello.name, sizeof m.hello.name, "%s", name);
    raw_send_msg(c, &m);
}

bool raw_hello(raw_client *c, const char *name, int timeout_ms)
{
    raw_send_hello(c, name);
    wire_msg out;
    return raw_wait(c, WIRE_WELCOME, &out, timeout_ms);
}

static int find(raw_client *c, int type)
{
    for (int i = 0; i < c->qlen; i++)
        if (c->q[i].len > 0 && c->q[i].data[0] == type)
            return i;
    return -1;
}

bool raw_has(raw_client *c, int type)
{
    return find(c, type) >= 0;
}

bool raw_wait(raw_client *c, int type, wire_msg *out, int timeout_ms)
{
    uint64_t end = now_ms() + (uint64_t)timeout_ms;
    int i;
    while ((i = find(c, type)) < 0 && now_ms() < end)
        raw_pump(c, 5, true);
    if (i < 0)
        return false;
    free(c->held);
    c->held = c->q[i].data;
    size_t len = c->q[i].len;
    memmove(&c->q[i], &c->q[i + 1], (size_t)(c->qlen - i - 1) * sizeof c->q[0]);
    c->qlen--;
    if (!wire_read(c->held, len, out)) {
        c->undecodable++;
        return false;
    }
    return true;
}

bool raw_next(raw_client *c, wire_msg *out, int timeout_ms)
{
    uint64_t end = now_ms() + (uint64_t)timeout_ms;
    while (c->qlen == 0 && now_ms() < end)
        raw_pump(c, 5, true);
    if (c->qlen == 0 || c->q[0].len == 0)
        return false;
    return raw_wait(c, c->q[0].data[0], out, 0);
}

int raw_queued_types(const raw_client *c, int *types, int max)
{
    for (int i = 0; i < c->qlen && i < max; i++)
        types[i] = c->q[i].len > 0 ? c->q[i].data[0] : -1;
    return c->qlen;
}

int raw_undecodable(const raw_client *c)
{
    return c->undecodable;
}

int raw_bundles(const raw_client *c)
{
    return c->bundles;
}

bool raw_wait_disconnect(raw_client *c, int timeout_ms)
{
    uint64_t end = now_ms() + (uint64_t)timeout_ms;
    while (c->connected && now_ms() < end)
        raw_pump(c, 5, false);
    return !c->connected;
}

bool raw_connected(const raw_client *c)
{
    return c->connected;
}
