/* cl_path.c: every candidate path tried at once in one hub, the best connection kept; see cl_path.h. */
#include "cl_path.h"

#include <enet/enet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_stun.h"
#include "util.h"

#define PUNCH_WAIT_MS 1000

enum try_state { T_WAITING, T_CONNECTING, T_CONNECTED, T_FAILED, T_CLOSED };

struct
try {
    cl_path_cand cand;
    uint64_t start_ms, done_ms, started_ms, closed_ms;
    int state;
    cl_net_t *net;
    cl_punch_t *punch;
    bool heard; /* the host's probes came in */
    char why[96];
};

struct cl_path {
    cl_hub_t *hub;
    cl_path_cfg cfg;
    char name[WIRE_NAME_MAX + 1];
    struct try t[CL_PATH_MAX];
    uint64_t t0, first_ms;
    int state, winner;
    bool taken, tapped;
    uint32_t rtt_ms;
    char report[CL_PATH_MAX * 128];
};

const char *cl_path_kind_name(int kind)
{
    static const char *const names[] = {"direct", "port mapping", "hole punching", "TURN relay"};
    return kind >= 0 && kind < CL_PATH_KINDS ? names[kind] : "?";
}

static bool on_datagram(void *ctx, stun_addr from, const uint8_t *data, size_t len)
{
    cl_path_t *p = ctx;
    bool took = false;
    for (int i = 0; i < p->cfg.n; i++)
        if (p->t[i].punch)
            took |= cl_punch_feed(p->t[i].punch, from, data, len);
    return took;
}

cl_path_t *cl_path_create(cl_hub_t *hub, const cl_path_cfg *cfg, uint64_t now_ms, const char **err)
{
    if (!hub || !cfg->name || cfg->n < 1 || cfg->n > CL_PATH_MAX) {
        *err = "a path needs a hub, a name and 1..8 candidates";
        return NULL;
    }
    if ((cfg->timeout_ms && (cfg->timeout_ms < 1000 || cfg->timeout_ms > 60000)) || cfg->stagger_ms < 0 ||
        cfg->stagger_ms > 5000 || cfg->prefer_ms < 0 || cfg->prefer_ms > 5000) {
        *err = "path timings out of range";
        return NULL;
    }
    for (int i = 0; i < cfg->n; i++)
        if (cfg->cand[i].kind < 0 || cfg->cand[i].kind >= CL_PATH_KINDS || !cfg->cand[i].addr.ip ||
            !cfg->cand[i].addr.port || cfg->cand[i].addr.v6) {
            *err = "a path candidate needs a kind and an IPv4 address and port";
            return NULL;
        }
    cl_path_t *p = mr_alloc(1, sizeof *p);
    p->hub = hub;
    p->cfg = *cfg;
    snprintf(p->name, sizeof p->name, "%s", cfg->name);
    p->cfg.name = p->name;
    if (!p->cfg.timeout_ms)
        p->cfg.timeout_ms = 5000;
    if (!p->cfg.stagger_ms)
        p->cfg.stagger_ms = 100;
    if (!p->cfg.prefer_ms)
        p->cfg.prefer_ms = 100;
    p->t0 = now_ms;
    p->winner = -1;
    ENetHost *host = cl_hub_enet_host(hub);
    for (int i = 0; i < p->cfg.n; i++) {
        struct try *t = &p->t[i];
        t->cand = p->cfg.cand[i];
        /* Staggered by rank among the kinds given: a lone relay starts at once. */
        int rank = 0;
        for (int k = 0; k < t->cand.kind; k++)
            for (int j = 0; j < p->cfg.n; j++)
                if (p->cfg.cand[j].kind == k) {
                    rank++;
                    break;
                }
        t->start_ms = now_ms + (uint64_t)rank * (uint64_t)p->cfg.stagger_ms;
        /* Probes go out at once: they open our NAT towards the host. */
        if (t->cand.kind == CL_PATH_PUNCHED) {
            t->punch = cl_punch_create(host->socket, t->cand.addr, now_ms);
            if (!p->tapped)
                p->tapped = cl_tap_add(host, on_datagram, p);
        }
    }
    return p;
}

static void close_try(struct try *t, int state, uint64_t now)
{
    if (!t->closed_ms)
        t->closed_ms = now;
    cl_net_destroy(t->net);
    t->net = NULL;
    cl_punch_destroy(t->punch);
    t->punch = NULL;
    if (t->state == T_WAITING || t->state == T_CONNECTING || t->state == T_CONNECTED)
        t->state = state;
}

void cl_path_destroy(cl_path_t *p)
{
    if (!p)
        return;
    if (p->tapped)
        cl_tap_remove(cl_hub_enet_host(p->hub), on_datagram, p);
    for (int i = 0; i < p->cfg.n; i++) {
        if (i == p->winner && p->taken)
            p->t[i].net = NULL;
        close_try(&p->t[i], T_CLOSED, 0);
    }
    free(p);
}

static void start_try(cl_path_t *p, struct try *t, uint64_t now)
{
    const char *err = NULL;
    char ip[32];
    stun_addr_text(t->cand.addr, ip, sizeof ip);
    *strchr(ip, ':') = 0;
    t->net = cl_net_create_in(p->hub, p->name, &err);
    if (t->net)
        err = cl_net_connect(t->net, ip, t->cand.addr.port, now);
    if (err) {
        snprintf(t->why, sizeof t->why, "%s", err);
        t->state = T_FAILED;
        return;
    }
    t->state = T_CONNECTING;
    t->started_ms = now;
}

static void poll_try(struct try *t, uint64_t now)
{
    cl_net_event ev;
    while (t->state == T_CONNECTING && cl_net_poll(t->net, now, &ev)) {
        if (ev.type == CL_EV_CONNECTED) {
            t->state = T_CONNECTED;
            t->done_ms = now;
        } else if (ev.type == CL_EV_REFUSED || ev.type == CL_EV_ERROR ||
                   (ev.type == CL_EV_DISCONNECTED && !ev.resuming)) {
            snprintf(t->why, sizeof t->why, "%.95s", ev.text[0] ? ev.text : "connection failed");
            t->state = T_FAILED;
        }
    }
}

int cl_path_update(cl_path_t *p, uint64_t now)
{
    if (p->state != CL_PATH_PENDING)
        return p->state;
    int best_connected = -1, best_open = -1;
    for (int i = 0; i < p->cfg.n; i++) {
        struct try *t = &p->t[i];
        if (t->punch) {
            cl_punch_update(t->punch, now);
            t->heard |= cl_punch_heard(t->punch);
        }
        /* A punched try connects once the host's probes show its NAT open
         * (an ENet CONNECT dropped by that NAT would wait out ENet's first
         * retransmission, 500 ms), or a second after its turn all the same. */
        uint64_t due = t->start_ms + (t->punch ? PUNCH_WAIT_MS : 0);
        if (t->state == T_WAITING && (now >= due || (t->punch && cl_punch_heard(t->punch))))
            start_try(p, t, now);
        if (t->state == T_CONNECTING)
            poll_try(t, now);
        if (t->state == T_CONNECTED && !p->first_ms)
            p->first_ms = now;
        /* Rank: the kind first, then the order given. */
        bool open = t->state == T_WAITING || t->state == T_CONNECTING;
        if (t->state == T_CONNECTED && (best_connected < 0 || t->cand.kind < p->t[best_connected].cand.kind))
            best_connected = i;
        if (open && (best_open < 0 || t->cand.kind < p->t[best_open].cand.kind))
            best_open = i;
    }
    if (best_connected >= 0 &&
        (best_open < 0 || p->t[best_open].cand.kind >= p->t[best_connected].cand.kind ||
         now >= p->first_ms + (uint64_t)p->cfg.prefer_ms)) {
        p->winner = best_connected;
        p->state = CL_PATH_CONNECTED;
        p->rtt_ms = cl_net_rtt_ms(p->t[best_connected].net);
        for (int i = 0; i < p->cfg.n; i++)
            if (i != best_connected)
                close_try(&p->t[i], T_CLOSED, now);
        /* The winner's probes stop: ENet's own traffic keeps the NAT open now. */
        cl_punch_destroy(p->t[best_connected].punch);
        p->t[best_connected].punch = NULL;
    } else if (now >= p->t0 + (uint64_t)p->cfg.timeout_ms || best_open < 0) {
        p->state = CL_PATH_FAILED;
        for (int i = 0; i < p->cfg.n; i++)
            close_try(&p->t[i], T_FAILED, now);
    }
    return p->state;
}

cl_net_t *cl_path_take(cl_path_t *p)
{
    if (p->state != CL_PATH_CONNECTED || p->taken)
        return NULL;
    p->taken = true;
    return p->t[p->winner].net;
}

int cl_path_kind(const cl_path_t *p)
{
    return p->winner >= 0 ? p->t[p->winner].cand.kind : -1;
}
stun_addr cl_path_addr(const cl_path_t *p)
{
    return p->winner >= 0 ? p->t[p->winner].cand.addr : (stun_addr){0};
}
uint32_t cl_path_connect_ms(const cl_path_t *p)
{
    return p->winner >= 0 ? (uint32_t)(p->t[p->winner].done_ms - p->t0) : 0;
}
uint32_t cl_path_rtt_ms(const cl_path_t *p)
{
    return p->rtt_ms;
}

const char *cl_path_report(cl_path_t *p)
{
    size_t n = 0;
    p->report[0] = 0;
    for (int i = 0; i < p->cfg.n; i++) {
        struct try *t = &p->t[i];
        char a[32], how[128];
        stun_addr_text(t->cand.addr, a, sizeof a);
        if (i == p->winner)
            snprintf(how, sizeof how, "connected in %u ms", (unsigned)(t->done_ms - p->t0));
        else if (t->why[0])
            snprintf(how, sizeof how, "%s", t->why);
        else if (t->done_ms)
            snprintf(how, sizeof how, "connected in %u ms too, closed", (unsigned)(t->done_ms - p->t0));
        else if (!t->started_ms && t->cand.kind != CL_PATH_PUNCHED && p->state == CL_PATH_CONNECTED)
            snprintf(how, sizeof how, "not needed");
        else if (t->state == T_FAILED || t->state == T_CLOSED)
            snprintf(how, sizeof how, "no answer in %u ms%s",
                     (unsigned)(t->closed_ms - (t->started_ms ? t->started_ms : p->t0)),
                     t->cand.kind != CL_PATH_PUNCHED ? ""
                     : t->heard                      ? " (the host's probes came through)"
                                                     : " (none of the host's probes came through)");
        else
            snprintf(how, sizeof how, "trying");
        n += (size_t)snprintf(p->report + n, sizeof p->report - n, "%s%s %s: %s", n ? "; " : "",
                              cl_path_kind_name(t->cand.kind), a, how);
        if (n >= sizeof p->report)
            break;
    }
    return p->report;
}
