/* sv_spechost.c: the spectator host's thread: services the second ENet host, turns its events into bytes
 * for the game loop and the game loop's commands into ENet packets. */
#define _GNU_SOURCE /* syscall(SYS_gettid): a thread's own priority */
#include "sv_spechost.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sv_cookie.h"
#include "sv_shake.h"
#include "util.h"

/* The thread sleeps on its socket and on a doorbell the game loop rings
 * when it hands over commands (and the thread sleeps), so what the loop
 * sends leaves at once; with nothing to do it still services ENet this
 * often (its resends, pings and time-outs run on timers of 100s of ms),
 * and not at all while no peer slot is in use (an idle spectator port
 * costs no wake-ups).
 * Datagrams alone (spectators' acknowledgements and pings, a few for every
 * batch) wake it at most every SPH_GATHER_MS: they wait in the socket and
 * one service reads them all, rather than one service, each a walk over
 * every peer, per datagram. */
#define SPH_BUSY_MS 20            /* while peers are connected */
#define SPH_IDLE_MS 100           /* with none connected, some in a handshake or a disconnect */
#define SPH_GATHER_MS 10          /* least time between services woken by datagrams alone */
#define SPH_EVENTS_MAX 4096       /* events taken in one wake-up, at most */
#define SPH_NICE 10               /* the thread's nice value, at least (Linux: per thread) */
#define SPH_INBOX_MAX (16u << 20) /* bytes of events the game loop has not read yet */
#define SPH_SHAKE_SCAN_MS 250

/* A growable run of records: a header, then len bytes, padded to 8. */
typedef struct sph_buf {
    uint8_t *p;
    size_t n, cap;
} sph_buf;

enum { OP_SEND = 1, OP_CLOSE, OP_DROP, OP_WELCOMED };

typedef struct sph_rec {
    int kind; /* an event type or an OP_ */
    int slot;
    uint32_t gen;
    uint32_t host;
    uint16_t port;
    bool oversized;
    size_t len;
} sph_rec;

/* What peer->data says about a peer (the thread's only bookkeeping on it). */
#define PEER_OPEN ((void *)1)    /* CONNECT reported, no HELLO yet */
#define PEER_WELCOME ((void *)2) /* said HELLO */

struct sv_sph {
    ENetHost *host;
    size_t msg_max;
    uint8_t channel;
    uint32_t *gen;   /* per slot: the current connection's generation (thread only) */
    uint64_t *shake; /* per slot: when first seen in the handshake, 0 = not (thread only) */
    int shake_max;
    uint64_t next_shake_ms;
    uint64_t serviced_ms; /* when the thread last serviced its host */
    pthread_t thread;
    bool started;
    atomic_int stop;
    atomic_int sleeping; /* the thread is (about to be) asleep: ring the doorbell */
    int bell[2];         /* the doorbell: a non-blocking pipe, read end first */
    pthread_mutex_t mu;
    sph_buf in_shared, out_shared; /* under mu */
    sph_buf in_local;              /* the thread's, not yet published */
    sph_buf in_work;               /* the game loop's, being read */
    sph_buf out_local;             /* the game loop's, not yet committed */
    sph_buf out_work;              /* the thread's, being applied */
    atomic_size_t inbox_bytes;
    atomic_int loop_asleep; /* the game loop is (about to be) in its own wait: ring loop_bell */
    int loop_bell[2];       /* the loop's doorbell: a non-blocking pipe, read end first */
    _Atomic uint64_t udp_in, udp_out, dropped, expired, inbox_dropped, socket_errors, cookies, cookie_peers;
};

static _Thread_local sv_sph *current; /* the host this thread services (for the intercept) */

static void buf_put(sph_buf *b, const sph_rec *r, const void *data)
{
    size_t need = sizeof *r + ((r->len + 7) & ~(size_t)7);
    if (!data)
        need = sizeof *r;
    if (b->n + need > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + need)
            cap *= 2;
        b->p = mr_realloc(b->p, cap, 1);
        b->cap = cap;
    }
    memcpy(b->p + b->n, r, sizeof *r);
    if (data && r->len)
        memcpy(b->p + b->n + sizeof *r, data, r->len);
    b->n += need;
}

static bool event_has_data(const sph_rec *r)
{
    return r->kind == SV_SPH_RECEIVE && !r->oversized;
}
static bool op_has_data(const sph_rec *r)
{
    return r->kind == OP_SEND;
}

/* Reads the record at *off; data points into b (NULL when it has none). */
static bool buf_get(const sph_buf *b, size_t *off, sph_rec *r, const uint8_t **data,
                    bool (*has_data)(const sph_rec *))
{
    if (*off >= b->n)
        return false;
    memcpy(r, b->p + *off, sizeof *r);
    *off += sizeof *r;
    *data = NULL;
    if (has_data(r)) {
        *data = b->p + *off;
        *off += (r->len + 7) & ~(size_t)7;
    }
    return true;
}

/* Appends src to dst under the caller's lock (a swap when dst is empty). */
static void buf_move(sph_buf *dst, sph_buf *src)
{
    if (dst->n == 0) {
        sph_buf t = *dst;
        *dst = *src;
        *src = t;
        src->n = 0;
        return;
    }
    if (dst->n + src->n > dst->cap) {
        size_t cap = dst->cap;
        while (cap < dst->n + src->n)
            cap *= 2;
        dst->p = mr_realloc(dst->p, cap, 1);
        dst->cap = cap;
    }
    memcpy(dst->p + dst->n, src->p, src->n);
    dst->n += src->n;
    src->n = 0;
}

/* ---- the thread ---- */

static uint64_t now_ms(void)
{
    return mr_now_us() / 1000u;
}

static bool hello_pending(const ENetPeer *p)
{
    return p->data != PEER_WELCOME;
}

static void on_event(sv_sph *h, const ENetEvent *ev);

/* The same pre-handshake filter as the game host's (sv_shake.c): a CONNECT
 * over the half-open budgets is answered with a cookie (sv_cookie.c) or
 * dropped; a cookie's acknowledgement makes its peer, reported as ENet
 * reports a connection. */
static int ENET_CALLBACK intercept(ENetHost *host, ENetEvent *ev)
{
    (void)ev;
    sv_sph *h = current;
    if (!h || sv_shake_for_peer(host))
        return 0;
    uint64_t now = mr_now_us() / 1000u;
    bool empty = false;
    ENetPeer *made = sv_cookie_accept(host, now, &empty);
    if (made) {
        atomic_fetch_add(&h->cookie_peers, 1);
        on_event(h, &(ENetEvent){.type = ENET_EVENT_TYPE_CONNECT, .peer = made});
        return empty ? 1 : 0;
    }
    if (!sv_shake_refuse(host, h->shake_max, hello_pending))
        return 0;
    if (sv_cookie_answer(host, now))
        atomic_fetch_add(&h->cookies, 1);
    else
        atomic_fetch_add(&h->dropped, 1);
    return 1;
}

static void expire_shakes(sv_sph *h, uint64_t now)
{
    if (now < h->next_shake_ms)
        return;
    h->next_shake_ms = now + SPH_SHAKE_SCAN_MS;
    int n = sv_shake_reset_stuck(h->host, h->shake, now);
    if (n)
        atomic_fetch_add(&h->expired, (uint64_t)n);
}

static ENetPeer *peer_of(sv_sph *h, int slot, uint32_t gen)
{
    if (slot < 0 || (size_t)slot >= h->host->peerCount || h->gen[slot] != gen)
        return NULL;
    ENetPeer *p = &h->host->peers[slot];
    return p->data ? p : NULL;
}

/* The game loop's commands, in the order it queued them. */
static void apply_commands(sv_sph *h)
{
    pthread_mutex_lock(&h->mu);
    buf_move(&h->out_work, &h->out_shared);
    pthread_mutex_unlock(&h->mu);
    size_t off = 0;
    sph_rec r;
    const uint8_t *data;
    while (buf_get(&h->out_work, &off, &r, &data, op_has_data)) {
        ENetPeer *p = peer_of(h, r.slot, r.gen);
        if (!p)
            continue;
        switch (r.kind) {
        case OP_SEND: {
            ENetPacket *pk = enet_packet_create(data, r.len, ENET_PACKET_FLAG_RELIABLE);
            if (pk && enet_peer_send(p, h->channel, pk) < 0)
                enet_packet_destroy(pk);
            break;
        }
        case OP_CLOSE:
            enet_peer_disconnect_later(p, 0);
            break;
        case OP_DROP:
            enet_peer_disconnect_now(p, 0);
            p->data = NULL;
            h->gen[r.slot]++;
            break;
        case OP_WELCOMED:
            p->data = PEER_WELCOME;
            break;
        default:
            break;
        }
    }
    h->out_work.n = 0;
}

static void on_event(sv_sph *h, const ENetEvent *ev)
{
    size_t slot = (size_t)(ev->peer - h->host->peers);
    sph_rec r = {.slot = (int)slot};
    switch (ev->type) {
    case ENET_EVENT_TYPE_CONNECT:
        ev->peer->data = PEER_OPEN;
        if (++h->gen[slot] == 0)
            h->gen[slot] = 1;
        r.kind = SV_SPH_CONNECT;
        r.gen = h->gen[slot];
        r.host = ev->peer->address.host;
        r.port = ev->peer->address.port;
        buf_put(&h->in_local, &r, NULL);
        break;
    case ENET_EVENT_TYPE_DISCONNECT:
        if (!ev->peer->data)
            break; /* never reported connected */
        ev->peer->data = NULL;
        r.kind = SV_SPH_DISCONNECT;
        r.gen = h->gen[slot]++;
        buf_put(&h->in_local, &r, NULL);
        break;
    case ENET_EVENT_TYPE_RECEIVE:
        if (!ev->peer->data)
            break;
        if (atomic_load(&h->inbox_bytes) + h->in_local.n > SPH_INBOX_MAX) {
            atomic_fetch_add(&h->inbox_dropped, 1);
            break;
        }
        r.kind = SV_SPH_RECEIVE;
        r.gen = h->gen[slot];
        r.len = ev->packet->dataLength;
        r.oversized = r.len > h->msg_max;
        buf_put(&h->in_local, &r, r.oversized ? NULL : ev->packet->data);
        break;
    default:
        break;
    }
}

static void publish(sv_sph *h)
{
    atomic_store(&h->udp_in, h->host->totalReceivedPackets);
    atomic_store(&h->udp_out, h->host->totalSentPackets);
    if (h->in_local.n == 0)
        return;
    size_t n = h->in_local.n;
    pthread_mutex_lock(&h->mu);
    buf_move(&h->in_shared, &h->in_local);
    pthread_mutex_unlock(&h->mu);
    atomic_fetch_add(&h->inbox_bytes, n);
    /* After the bytes are counted: either the loop sees them before it
     * sleeps (sv_sph_sleep_fd) or this sees it asleep and wakes it. */
    if (atomic_load(&h->loop_asleep) && write(h->loop_bell[1], "", 1) < 0) {
        /* full (EAGAIN): the loop has a ring to read already */
    }
}

/* Whether no peer slot is in use, not even one in a handshake or a
 * disconnect: ENet then has no timer to run, and only a datagram (a
 * CONNECT) or the doorbell can give the thread work. ENet counts only the
 * connected peers, so the others are looked for (a walk over the slots,
 * made only when none is connected). */
static bool host_unused(const ENetHost *host)
{
    if (host->connectedPeers > 0)
        return false;
    for (size_t i = 0; i < host->peerCount; i++)
        if (host->peers[i].state != ENET_PEER_STATE_DISCONNECTED)
            return false;
    return true;
}

/* Sleeps until a datagram, the doorbell or the time-out (none when
 * wait_ms < 0: an unused host waits for a CONNECT or the doorbell, so an
 * idle spectator port wakes nobody). The flag is set before the look at
 * the queue and the loop reads it after its swap (both under the mutex),
 * so a commit is never missed. */
static void sleep_until_work(sv_sph *h, int wait_ms)
{
    atomic_store(&h->sleeping, 1);
    pthread_mutex_lock(&h->mu);
    bool pending = h->out_shared.n > 0;
    pthread_mutex_unlock(&h->mu);
    if (!pending && !atomic_load(&h->stop)) {
        struct pollfd pf[2] = {{.fd = h->bell[0], .events = POLLIN},
                               {.fd = (int)h->host->socket, .events = POLLIN}};
        /* Until SPH_GATHER_MS after the last service only the doorbell
         * wakes the thread; then a datagram does too. */
        uint64_t now = now_ms(), gather_end = h->serviced_ms + SPH_GATHER_MS;
        int rung = 0;
        if (wait_ms > 0 && now < gather_end) {
            int g = (int)(gather_end - now) < wait_ms ? (int)(gather_end - now) : wait_ms;
            rung = poll(pf, 1, g);
            wait_ms -= g;
        }
        if (rung <= 0 && wait_ms != 0)
            poll(pf, 2, wait_ms);
    }
    atomic_store(&h->sleeping, 0);
    char sink[64];
    while (read(h->bell[0], sink, sizeof sink) > 0) {
    }
}

static void *run(void *arg)
{
    sv_sph *h = arg;
    current = h;
    /* Spectators are never urgent (their messages wait for a batch of
     * 250 ms anyway): when this thread and the players' loop want the same
     * core, the loop goes first. Lowering a thread's own priority needs no
     * privilege; if it fails, nothing else changes. */
#ifdef __linux__
    errno = 0;
    int prio = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
    if (errno == 0 && prio < SPH_NICE)
        setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), SPH_NICE);
#endif
    while (!atomic_load(&h->stop)) {
        apply_commands(h);
        h->serviced_ms = now_ms();
        /* ENet's service stops reading the socket at the first datagram
         * that makes an event: service again until nothing is left, so that
         * one wake-up takes every datagram waiting (bounded). */
        ENetEvent ev;
        for (int i = 0; i < SPH_EVENTS_MAX; i++) {
            int r = enet_host_service(h->host, &ev, 0);
            if (r < 0) {
                /* One peer's failed send (a firewall, a forged port): count it
                 * and go on, as the game loop does; the rest is sent now. */
                atomic_fetch_add(&h->socket_errors, 1);
                enet_host_flush(h->host);
                r = enet_host_check_events(h->host, &ev);
            }
            if (r <= 0)
                break;
            on_event(h, &ev);
            if (ev.type == ENET_EVENT_TYPE_RECEIVE)
                enet_packet_destroy(ev.packet);
        }
        expire_shakes(h, now_ms());
        publish(h);
        sleep_until_work(h, h->host->connectedPeers > 0 ? SPH_BUSY_MS
                            : host_unused(h->host)      ? -1
                                                        : SPH_IDLE_MS);
    }
    /* The last commands (SHUTDOWN, the final drops) leave before the host goes. */
    apply_commands(h);
    enet_host_flush(h->host);
    return NULL;
}

/* ---- the game loop's side ---- */

/* A doorbell: a pipe, both ends non-blocking. */
static bool bell_open(int fds[2])
{
    if (pipe(fds) != 0)
        return false;
    return fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0 && fcntl(fds[1], F_SETFL, O_NONBLOCK) == 0;
}

sv_sph *sv_sph_create(const sv_sph_opts *o, const char **err)
{
    sv_cookie_init(); /* here, before the thread starts */
    errno = 0;
    ENetHost *host = enet_host_create(&o->addr, o->peers, o->channels, 0, 0);
    if (!host) {
        /* The address, the port and the system's reason (errno of bind). */
        static _Thread_local char why[160];
        int e = errno;
        char ip[INET_ADDRSTRLEN] = "?";
        struct in_addr a = {.s_addr = o->addr.host};
        inet_ntop(AF_INET, &a, ip, sizeof ip);
        snprintf(why, sizeof why, "cannot bind the spectator port %s:%u: %s", ip, (unsigned)o->addr.port,
                 e ? strerror(e) : "ENet could not create the host");
        *err = why;
        return NULL;
    }
    host->maximumPacketSize = o->packet_max;
    host->maximumWaitingData = o->waiting_max;
    if (o->dup_peers > 0)
        host->duplicatePeers = o->dup_peers;
    if (o->sockbuf > 0) {
        enet_socket_set_option(host->socket, ENET_SOCKOPT_RCVBUF, o->sockbuf);
        enet_socket_set_option(host->socket, ENET_SOCKOPT_SNDBUF, o->sockbuf);
    }
    ENetAddress bound;
    if (enet_socket_get_address(host->socket, &bound) == 0)
        host->address.port = bound.port;
    host->intercept = intercept;
    sv_sph *h = mr_alloc(1, sizeof *h);
    h->host = host;
    h->msg_max = o->msg_max;
    h->channel = o->channel;
    h->gen = mr_alloc(host->peerCount, sizeof *h->gen);
    h->shake = mr_alloc(host->peerCount, sizeof *h->shake);
    int n = (int)(host->peerCount / 8);
    h->shake_max = n < SV_SHAKE_MIN ? SV_SHAKE_MIN : n;
    pthread_mutex_init(&h->mu, NULL);
    h->bell[0] = h->bell[1] = h->loop_bell[0] = h->loop_bell[1] = -1;
    if (!bell_open(h->bell) || !bell_open(h->loop_bell)) {
        *err = "cannot make the spectator thread's doorbells (pipes)";
        sv_sph_destroy(h);
        return NULL;
    }
    if (pthread_create(&h->thread, NULL, run, h) != 0) {
        *err = "cannot start the spectator thread";
        sv_sph_destroy(h);
        return NULL;
    }
    h->started = true;
    return h;
}

static void ring(sv_sph *h)
{
    if (h->bell[1] >= 0 && write(h->bell[1], "", 1) < 0) {
        /* full (EAGAIN): the thread has a ring to read already */
    }
}

void sv_sph_destroy(sv_sph *h)
{
    if (!h)
        return;
    sv_sph_commit(h);
    atomic_store(&h->stop, 1);
    ring(h);
    if (h->started)
        pthread_join(h->thread, NULL);
    for (int i = 0; i < 2; i++) {
        if (h->bell[i] >= 0)
            close(h->bell[i]);
        if (h->loop_bell[i] >= 0)
            close(h->loop_bell[i]);
    }
    enet_host_destroy(h->host);
    pthread_mutex_destroy(&h->mu);
    sph_buf *bufs[] = {&h->in_shared, &h->out_shared, &h->in_local, &h->in_work, &h->out_local, &h->out_work};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        free(bufs[i]->p);
    free(h->gen);
    free(h->shake);
    free(h);
}

uint16_t sv_sph_port(const sv_sph *h)
{
    return h ? h->host->address.port : 0; /* set before the thread started, never written again */
}

size_t sv_sph_peer_slots(const sv_sph *h)
{
    return h ? h->host->peerCount : 0;
}

void sv_sph_get_counts(sv_sph *h, sv_sph_counts *out)
{
    memset(out, 0, sizeof *out);
    if (!h)
        return;
    out->udp_in = atomic_load(&h->udp_in);
    out->udp_out = atomic_load(&h->udp_out);
    out->shakes_dropped = atomic_load(&h->dropped);
    out->shakes_cookies = atomic_load(&h->cookies);
    out->cookie_peers = atomic_load(&h->cookie_peers);
    out->shakes_expired = atomic_load(&h->expired);
    out->inbox_dropped = atomic_load(&h->inbox_dropped);
    out->socket_errors = atomic_load(&h->socket_errors);
}

int sv_sph_poll(sv_sph *h, void (*fn)(void *ctx, const sv_sph_event *ev), void *ctx)
{
    /* Most steps find nothing: no lock then. What the thread publishes
     * just after this look is taken at the next step. */
    if (atomic_load(&h->inbox_bytes) == 0)
        return 0;
    pthread_mutex_lock(&h->mu);
    buf_move(&h->in_work, &h->in_shared);
    pthread_mutex_unlock(&h->mu);
    if (h->in_work.n == 0)
        return 0;
    atomic_fetch_sub(&h->inbox_bytes, h->in_work.n);
    int count = 0;
    size_t off = 0;
    sph_rec r;
    const uint8_t *data;
    while (buf_get(&h->in_work, &off, &r, &data, event_has_data)) {
        sv_sph_event ev = {.type = r.kind,
                           .slot = r.slot,
                           .gen = r.gen,
                           .host = r.host,
                           .port = r.port,
                           .oversized = r.oversized,
                           .len = r.len,
                           .data = data};
        fn(ctx, &ev);
        count++;
    }
    h->in_work.n = 0;
    return count;
}

int sv_sph_sleep_fd(sv_sph *h)
{
    atomic_store(&h->loop_asleep, 1);
    /* After the flag: the thread publishing now either sees it (and rings)
     * or published before this look. */
    if (atomic_load(&h->inbox_bytes) != 0) {
        atomic_store(&h->loop_asleep, 0);
        return -1;
    }
    return h->loop_bell[0];
}

void sv_sph_woke(sv_sph *h, bool rung)
{
    atomic_store(&h->loop_asleep, 0);
    char buf[64];
    while (rung && read(h->loop_bell[0], buf, sizeof buf) > 0) {
    }
}

static void command(sv_sph *h, int kind, int slot, uint32_t gen, const void *data, size_t len)
{
    sph_rec r = {.kind = kind, .slot = slot, .gen = gen, .len = len};
    buf_put(&h->out_local, &r, kind == OP_SEND ? (data ? data : "") : NULL);
}

void sv_sph_send(sv_sph *h, int slot, uint32_t gen, const void *data, size_t len)
{
    command(h, OP_SEND, slot, gen, data, len);
}
void sv_sph_close_later(sv_sph *h, int slot, uint32_t gen)
{
    command(h, OP_CLOSE, slot, gen, NULL, 0);
}
void sv_sph_drop(sv_sph *h, int slot, uint32_t gen)
{
    command(h, OP_DROP, slot, gen, NULL, 0);
}
void sv_sph_welcomed(sv_sph *h, int slot, uint32_t gen)
{
    command(h, OP_WELCOMED, slot, gen, NULL, 0);
}

void sv_sph_commit(sv_sph *h)
{
    if (!h || h->out_local.n == 0)
        return;
    pthread_mutex_lock(&h->mu);
    buf_move(&h->out_shared, &h->out_local);
    pthread_mutex_unlock(&h->mu);
    if (atomic_load(&h->sleeping))
        ring(h);
}
