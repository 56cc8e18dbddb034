/* cl_turn.c: the TURN relay proxy thread: allocation, permissions, channels, Send/Data, ChannelData; see
 * cl_turn.h. */
#include "cl_turn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cl_stun.h"
#include "secrand.h"
#include "util.h"

#define PEERS 64
#define PEER_EVICT_MS 5000 /* when all are taken, one silent this long makes room */
#define PERMITS 8
#define TXNS 16
#define RTX_MS 250    /* first retransmission; doubled up to 2 s */
#define RTX_TRIES 7   /* sends per transaction */
#define PERMIT_S 240  /* permissions last 300 s: refreshed after 240 */
#define CHANNEL_S 480 /* channels last 600 s */
#define FIRST_CHANNEL 0x4000
#define LAST_CHANNEL 0x7FFF
#define PEER_IDLE_MS 60000 /* a remote address silent this long is gone (ENet gives up after 30 s) */

enum txn_kind { TX_ALLOCATE, TX_REFRESH, TX_PERMIT, TX_BIND };

struct txn {
    bool used;
    int kind, peer;   /* peer: PERMIT (permit index), BIND (peer index) */
    uint16_t channel; /* BIND: the number asked for (the slot may have been reused since) */
    uint8_t tid[STUN_TID_LEN];
    uint8_t buf[512];
    size_t len;
    uint64_t next_ms;
    int tries;
    uint32_t rto;
};

struct peer {
    bool used;
    stun_addr addr; /* the remote player's public address */
    int fd;         /* local socket talking to 127.0.0.1:local_port */
    uint16_t channel;
    bool bound;
    uint64_t bind_due_ms, last_ms;
};

struct cl_turn {
    cl_turn_cfg cfg;
    char user[256], pass[256];
    char realm[STUN_TEXT_MAX + 1], nonce[STUN_TEXT_MAX + 1];
    uint8_t key[16];
    bool have_key;
    int fd; /* to the TURN server */
    struct sockaddr_in local;
    pthread_t thread;
    atomic_bool stop;
    pthread_mutex_t mu;
    int state;
    stun_addr relayed;
    char err[256];
    uint32_t permit_ip[PERMITS];
    uint64_t permit_due_ms[PERMITS];
    int permits;
    uint16_t next_channel; /* a fresh number per remote address: a binding outlives its local socket */
    uint64_t refresh_due_ms, deadline_ms;
    struct txn tx[TXNS];
    struct peer peers[PEERS];
    cl_turn_stats st;
};

static uint64_t now_ms(void)
{
    return mr_now_us() / 1000u;
}

void cl_turn_key(const char *username, const char *realm, const char *password, uint8_t key[16])
{
    char s[800];
    int n = snprintf(s, sizeof s, "%s:%s:%s", username, realm, password);
    if (n < 0 || (size_t)n >= sizeof s)
        n = (int)sizeof s - 1;
    unsigned int len = 16;
    EVP_Digest(s, (size_t)n, key, &len, EVP_md5(), NULL);
}

void cl_turn_sign(uint8_t *buf, size_t slot, const uint8_t *key, size_t key_len)
{
    unsigned int len = 20;
    HMAC(EVP_sha1(), key, (int)key_len, buf, slot - 4, buf + slot, &len);
}

bool cl_turn_verify(const uint8_t *buf, size_t len, const stun_msg *m, const uint8_t *key, size_t key_len)
{
    if (!m->integrity_at || m->integrity_at + 24 > len || m->integrity_at > 1024)
        return false;
    uint8_t copy[1024 + 24];
    memcpy(copy, buf, m->integrity_at);
    size_t body = m->integrity_at + 24 - STUN_HEADER; /* the length as if MESSAGE-INTEGRITY were last */
    copy[2] = (uint8_t)(body >> 8);
    copy[3] = (uint8_t)body;
    uint8_t mac[20];
    unsigned int ml = 20;
    HMAC(EVP_sha1(), key, (int)key_len, copy, m->integrity_at, mac, &ml);
    return memcmp(mac, buf + m->integrity_at + 4, 20) == 0;
}

static void fail(cl_turn_t *t, const char *why)
{
    char a[32];
    stun_addr_text(t->cfg.server, a, sizeof a);
    pthread_mutex_lock(&t->mu);
    snprintf(t->err, sizeof t->err, "TURN %s: %s", a, why);
    t->state = CL_TURN_FAILED;
    pthread_mutex_unlock(&t->mu);
}

static void send_server(cl_turn_t *t, const void *buf, size_t len)
{
    cl_udp_send(t->fd, t->cfg.server, buf, len);
}

/* Starts a request of kind; the attributes after the method's own are the
 * credentials (once a realm and nonce are known) and the integrity. */
static void start(cl_turn_t *t, int kind, int peer, uint64_t now)
{
    struct txn *x = NULL;
    for (int i = 0; i < TXNS && !x; i++)
        if (!t->tx[i].used)
            x = &t->tx[i];
    if (!x)
        return; /* all busy: the timers ask again */
    memset(x, 0, sizeof *x);
    x->used = true;
    x->kind = kind;
    x->peer = peer;
    secrand_fill(x->tid, sizeof x->tid);
    static const uint16_t method[] = {STUN_ALLOCATE, STUN_REFRESH, STUN_CREATE_PERMISSION, STUN_CHANNEL_BIND};
    stun_writer w;
    stun_begin(&w, x->buf, sizeof x->buf, method[kind], STUN_REQUEST, x->tid);
    if (kind == TX_ALLOCATE)
        stun_put_u32(&w, STUN_A_REQUESTED_TRANSPORT, 17u << 24); /* UDP */
    if (kind == TX_REFRESH)
        stun_put_u32(&w, STUN_A_LIFETIME, t->stop ? 0 : 600);
    if (kind == TX_PERMIT)
        stun_put_xor_addr(&w, STUN_A_XOR_PEER_ADDRESS, (stun_addr){t->permit_ip[peer], 0, false});
    if (kind == TX_BIND) {
        x->channel = t->peers[peer].channel;
        stun_put_u32(&w, STUN_A_CHANNEL_NUMBER, (uint32_t)t->peers[peer].channel << 16);
        stun_put_xor_addr(&w, STUN_A_XOR_PEER_ADDRESS, t->peers[peer].addr);
    }
    if (t->have_key) {
        stun_put_text(&w, STUN_A_USERNAME, t->user);
        stun_put_text(&w, STUN_A_REALM, t->realm);
        stun_put_text(&w, STUN_A_NONCE, t->nonce);
        cl_turn_sign(x->buf, stun_integrity_slot(&w), t->key, sizeof t->key);
    }
    x->len = stun_end(&w);
    x->rto = RTX_MS;
    x->next_ms = now + x->rto;
    x->tries = 1;
    send_server(t, x->buf, x->len);
}

static void on_allocated(cl_turn_t *t, const stun_msg *m, uint64_t now)
{
    if (!m->has_relayed || m->relayed.v6) {
        fail(t, "the allocation has no IPv4 relayed address");
        return;
    }
    uint32_t life = m->has_lifetime && m->lifetime >= 60 ? m->lifetime : 600;
    t->refresh_due_ms = now + life * 1000u / 2;
    pthread_mutex_lock(&t->mu);
    t->relayed = m->relayed;
    t->state = CL_TURN_READY;
    pthread_mutex_unlock(&t->mu);
}

static void on_answer(cl_turn_t *t, const uint8_t *buf, size_t len, const stun_msg *m, uint64_t now)
{
    struct txn *x = NULL;
    for (int i = 0; i < TXNS && !x; i++)
        if (t->tx[i].used && memcmp(t->tx[i].tid, m->tid, STUN_TID_LEN) == 0)
            x = &t->tx[i];
    /* A success to a signed request must be signed with the same key (a
     * forged answer is dropped and the request retransmitted). */
    if (!x || (m->cls == STUN_SUCCESS && t->have_key && !cl_turn_verify(buf, len, m, t->key, sizeof t->key)))
        return;
    struct txn done = *x;
    x->used = false;
    if (m->cls == STUN_ERROR) {
        /* 401 with a realm and nonce: the first, unauthenticated try (or
         * credentials now known); 438: the nonce went stale. Ask again. */
        if ((m->error_code == 401 && !t->have_key) || m->error_code == 438) {
            if (m->realm[0]) {
                snprintf(t->realm, sizeof t->realm, "%s", m->realm);
                cl_turn_key(t->user, t->realm, t->pass, t->key);
            }
            if (m->nonce[0] && t->realm[0]) {
                snprintf(t->nonce, sizeof t->nonce, "%s", m->nonce);
                t->have_key = true;
                start(t, done.kind, done.peer, now);
                return;
            }
        }
        char why[200];
        snprintf(why, sizeof why, "error %d %s%s", m->error_code, m->reason,
                 m->error_code == 401 ? " (the credentials were refused)" : "");
        if (done.kind == TX_ALLOCATE || done.kind == TX_REFRESH)
            fail(t, why);
        return;
    }
    switch (done.kind) {
    case TX_ALLOCATE:
        on_allocated(t, m, now);
        break;
    case TX_REFRESH:
        t->refresh_due_ms = now + (m->has_lifetime && m->lifetime >= 60 ? m->lifetime : 600) * 1000u / 2;
        break;
    case TX_PERMIT:
        t->permit_due_ms[done.peer] = now + PERMIT_S * 1000u;
        break;
    case TX_BIND:
        if (t->peers[done.peer].used && t->peers[done.peer].channel == done.channel) {
            t->peers[done.peer].bound = true;
            t->peers[done.peer].bind_due_ms = now + CHANNEL_S * 1000u;
        }
        break;
    }
}

/* The local socket of a remote address, made on its first datagram. */
static int peer_of(cl_turn_t *t, stun_addr a, uint64_t now)
{
    int free_slot = -1;
    for (int i = 0; i < PEERS; i++) {
        if (t->peers[i].used && t->peers[i].addr.ip == a.ip && t->peers[i].addr.port == a.port)
            return i;
        if (!t->peers[i].used && free_slot < 0)
            free_slot = i;
    }
    if (free_slot < 0) {
        for (int i = 0; i < PEERS; i++)
            if (now - t->peers[i].last_ms >= PEER_EVICT_MS &&
                (free_slot < 0 || t->peers[i].last_ms < t->peers[free_slot].last_ms))
                free_slot = i;
        if (free_slot < 0)
            return -1;
        close(t->peers[free_slot].fd);
        t->peers[free_slot].used = false;
    }
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
        connect(fd, (struct sockaddr *)&t->local, sizeof t->local) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    struct peer *p = &t->peers[free_slot];
    /* Channel numbers are not reused: an old binding stays on the server for 10 minutes. */
    if (t->next_channel < FIRST_CHANNEL || t->next_channel > LAST_CHANNEL)
        t->next_channel = FIRST_CHANNEL;
    *p = (struct peer){.used = true, .addr = a, .fd = fd, .channel = t->next_channel++, .last_ms = now};
    pthread_mutex_lock(&t->mu);
    t->st.peers++;
    pthread_mutex_unlock(&t->mu);
    start(t, TX_BIND, free_slot, now);
    return free_slot;
}

static void to_host(cl_turn_t *t, stun_addr from, const uint8_t *data, size_t len, uint64_t now)
{
    int i = peer_of(t, from, now);
    if (i < 0)
        return;
    t->peers[i].last_ms = now;
    if (send(t->peers[i].fd, data, len, MSG_NOSIGNAL) == (ssize_t)len) {
        pthread_mutex_lock(&t->mu);
        t->st.from_peers++;
        t->st.bytes_from_peers += len;
        pthread_mutex_unlock(&t->mu);
    }
}

static void from_server(cl_turn_t *t, const uint8_t *buf, size_t len, uint64_t now)
{
    uint16_t ch;
    const uint8_t *data;
    size_t dlen;
    if (stun_channel_decode(buf, len, &ch, &data, &dlen)) {
        for (int i = 0; i < PEERS; i++)
            if (t->peers[i].used && t->peers[i].bound && t->peers[i].channel == ch)
                to_host(t, t->peers[i].addr, data, dlen, now);
        return;
    }
    stun_msg m;
    if (!stun_decode(buf, len, &m))
        return;
    if (m.method == STUN_DATA && m.cls == STUN_INDICATION && m.has_peer && !m.peer.v6 && m.data)
        to_host(t, m.peer, m.data, m.data_len, now);
    else if (m.cls == STUN_SUCCESS || m.cls == STUN_ERROR)
        on_answer(t, buf, len, &m, now);
}

static void to_peer(cl_turn_t *t, int i, uint64_t now)
{
    uint8_t in[STUN_MAX], out[STUN_MAX + 64];
    ssize_t n = recv(t->peers[i].fd, in, sizeof in - 64, 0);
    if (n <= 0)
        return;
    t->peers[i].last_ms = now;
    size_t len;
    if (t->peers[i].bound) {
        len = stun_channel_encode(out, sizeof out, t->peers[i].channel, in, (size_t)n);
    } else {
        uint8_t tid[STUN_TID_LEN];
        secrand_fill(tid, sizeof tid);
        stun_writer w;
        stun_begin(&w, out, sizeof out, STUN_SEND, STUN_INDICATION, tid);
        stun_put_xor_addr(&w, STUN_A_XOR_PEER_ADDRESS, t->peers[i].addr);
        stun_put(&w, STUN_A_DATA, in, (size_t)n);
        len = stun_end(&w);
    }
    send_server(t, out, len);
    pthread_mutex_lock(&t->mu);
    t->st.to_peers++;
    t->st.bytes_to_peers += (uint64_t)n;
    pthread_mutex_unlock(&t->mu);
}

/* Retransmissions, refreshes and new permissions; returns the ms until the next timer. */
static int timers(cl_turn_t *t, uint64_t now)
{
    uint64_t next = now + 1000;
    for (int i = 0; i < TXNS; i++) {
        struct txn *x = &t->tx[i];
        if (!x->used)
            continue;
        if (now >= x->next_ms) {
            if (x->tries >= RTX_TRIES) {
                x->used = false;
                if (x->kind == TX_ALLOCATE)
                    fail(t, "no answer to the allocation");
                continue;
            }
            send_server(t, x->buf, x->len);
            x->tries++;
            x->rto = x->rto < 2000 ? x->rto * 2 : 2000;
            x->next_ms = now + x->rto;
        }
        if (x->next_ms < next)
            next = x->next_ms;
    }
    pthread_mutex_lock(&t->mu);
    int state = t->state, permits = t->permits;
    pthread_mutex_unlock(&t->mu);
    if (state == CL_TURN_PENDING && now >= t->deadline_ms) {
        char why[80];
        snprintf(why, sizeof why, "no relayed address within %d ms", t->cfg.timeout_ms);
        fail(t, why);
    }
    if (state != CL_TURN_READY)
        return (int)(next - now);
    if (now >= t->refresh_due_ms) {
        start(t, TX_REFRESH, 0, now);
        t->refresh_due_ms = now + 30000; /* until the answer sets the real one */
    }
    for (int i = 0; i < permits; i++)
        if (now >= t->permit_due_ms[i]) {
            start(t, TX_PERMIT, i, now);
            t->permit_due_ms[i] = now + 30000;
        }
    for (int i = 0; i < PEERS; i++) {
        struct peer *p = &t->peers[i];
        if (p->used && now - p->last_ms >= PEER_IDLE_MS) {
            close(p->fd);
            p->used = false;
            continue;
        }
        if (p->used && p->bound && now >= p->bind_due_ms) {
            start(t, TX_BIND, i, now);
            p->bind_due_ms = now + 30000;
        }
    }
    return (int)(next - now);
}

static void *run(void *arg)
{
    cl_turn_t *t = arg;
    start(t, TX_ALLOCATE, 0, now_ms());
    while (!t->stop) {
        struct pollfd pf[1 + PEERS];
        int map[1 + PEERS], n = 0;
        pf[n] = (struct pollfd){t->fd, POLLIN, 0};
        map[n++] = -1;
        for (int i = 0; i < PEERS; i++)
            if (t->peers[i].used) {
                pf[n] = (struct pollfd){t->peers[i].fd, POLLIN, 0};
                map[n++] = i;
            }
        int wait = timers(t, now_ms());
        if (poll(pf, (nfds_t)n, wait < 1 ? 1 : wait > 100 ? 100 : wait) <= 0)
            continue;
        uint64_t now = now_ms();
        for (int k = 0; k < n; k++) {
            if (!(pf[k].revents & POLLIN))
                continue;
            if (map[k] >= 0) {
                to_peer(t, map[k], now);
                continue;
            }
            uint8_t buf[STUN_MAX + 64];
            struct sockaddr_in sa;
            socklen_t sl = sizeof sa;
            ssize_t got = recvfrom(t->fd, buf, sizeof buf, 0, (struct sockaddr *)&sa, &sl);
            /* Only the server's datagrams; anything else on this socket is noise. */
            if (got > 0 && sa.sin_family == AF_INET && ntohl(sa.sin_addr.s_addr) == t->cfg.server.ip &&
                ntohs(sa.sin_port) == t->cfg.server.port)
                from_server(t, buf, (size_t)got, now);
        }
        struct timespec cpu;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
        pthread_mutex_lock(&t->mu);
        t->st.cpu_us = (uint64_t)cpu.tv_sec * 1000000u + (uint64_t)cpu.tv_nsec / 1000u;
        pthread_mutex_unlock(&t->mu);
    }
    return NULL;
}

cl_turn_t *cl_turn_create(const cl_turn_cfg *cfg, const char **err)
{
    if (!cfg->server.ip || !cfg->server.port || !cfg->local_port || !cfg->username || !cfg->password ||
        strlen(cfg->username) >= 256 || strlen(cfg->password) >= 256 || !cfg->username[0]) {
        *err = "TURN needs a server address, a username and password (under 256 bytes) and the host's port";
        return NULL;
    }
    if (cfg->timeout_ms && (cfg->timeout_ms < 500 || cfg->timeout_ms > 30000)) {
        *err = "TURN allocation wait must be 500..30000 ms";
        return NULL;
    }
    cl_turn_t *t = mr_alloc(1, sizeof *t);
    t->cfg = *cfg;
    if (!t->cfg.timeout_ms)
        t->cfg.timeout_ms = 5000;
    snprintf(t->user, sizeof t->user, "%s", cfg->username);
    snprintf(t->pass, sizeof t->pass, "%s", cfg->password);
    t->cfg.username = t->user;
    t->cfg.password = t->pass;
    t->local = (struct sockaddr_in){
        .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK), .sin_port = htons(cfg->local_port)};
    t->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (t->fd < 0) {
        free(t);
        *err = "cannot open a UDP socket for TURN";
        return NULL;
    }
    t->deadline_ms = now_ms() + (uint64_t)t->cfg.timeout_ms;
    pthread_mutex_init(&t->mu, NULL);
    if (pthread_create(&t->thread, NULL, run, t) != 0) {
        close(t->fd);
        pthread_mutex_destroy(&t->mu);
        free(t);
        *err = "cannot start the TURN thread";
        return NULL;
    }
    return t;
}

void cl_turn_destroy(cl_turn_t *t)
{
    if (!t)
        return;
    t->stop = true;
    pthread_join(t->thread, NULL);
    /* Give the allocation back at once rather than let it time out
     * (best effort: one Refresh with lifetime 0, not waited for). */
    if (t->state == CL_TURN_READY)
        start(t, TX_REFRESH, 0, now_ms());
    for (int i = 0; i < PEERS; i++)
        if (t->peers[i].used)
            close(t->peers[i].fd);
    close(t->fd);
    pthread_mutex_destroy(&t->mu);
    free(t);
}

int cl_turn_state(cl_turn_t *t, stun_addr *relayed)
{
    pthread_mutex_lock(&t->mu);
    int st = t->state;
    if (st == CL_TURN_READY)
        *relayed = t->relayed;
    pthread_mutex_unlock(&t->mu);
    return st;
}

void cl_turn_error(cl_turn_t *t, char *buf, size_t cap)
{
    pthread_mutex_lock(&t->mu);
    snprintf(buf, cap, "%s", t->state == CL_TURN_FAILED ? t->err : "");
    pthread_mutex_unlock(&t->mu);
}

bool cl_turn_permit(cl_turn_t *t, uint32_t peer_ip)
{
    pthread_mutex_lock(&t->mu);
    bool ok = t->permits < PERMITS;
    if (ok) {
        /* permit_due_ms 0: the thread's next timer pass sends it. */
        t->permit_due_ms[t->permits] = 0;
        t->permit_ip[t->permits++] = peer_ip;
    }
    pthread_mutex_unlock(&t->mu);
    return ok;
}

void cl_turn_get_stats(cl_turn_t *t, cl_turn_stats *out)
{
    pthread_mutex_lock(&t->mu);
    *out = t->st;
    int ch = 0;
    for (int i = 0; i < PEERS; i++)
        ch += t->peers[i].used && t->peers[i].bound;
    out->channels = ch;
    pthread_mutex_unlock(&t->mu);
}
