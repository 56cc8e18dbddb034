/* cl_coord.c: requests to the coordinator with retries and the host's refreshes; answers queued as events. */
#include "cl_coord.h"

#include <arpa/inet.h>
#include <enet/enet.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "util.h"
#include "wire.h"

enum { SLOT_HOST, SLOT_LOOKUP, SLOT_TURN, SLOT_LIST, SLOTS, QUEUE = 8, TRIES = 4 };
static const int retry_ms[TRIES] = {500, 1000, 2000, 2000}; /* after the 1st, 2nd, 3rd send; then give up */

typedef struct pending {
    bool live;
    coord_msg req;
    int sent;      /* times sent */
    uint64_t next; /* when to send again (or give up) */
} pending;

struct cl_coord {
    coord_addr co;
    cl_coord_send_fn send;
    void *ctx;
    uint32_t next_id;
    pending slot[SLOTS];
    coord_msg queue[QUEUE];
    int qhead, qlen;
    /* The host's registration. */
    bool hosting;
    coord_msg host_req; /* refreshes resend this with the token */
    char code[COORD_CODE_LEN + 2];
    uint64_t refresh_at;
    uint32_t pair;
    uint8_t pair_token[COORD_TOKEN_LEN];
};

cl_coord_t *cl_coord_create(coord_addr coordinator, cl_coord_send_fn send, void *ctx)
{
    cl_coord_t *c = mr_alloc(1, sizeof *c);
    memset(c, 0, sizeof *c);
    c->co = coordinator;
    c->send = send;
    c->ctx = ctx;
    c->next_id = 1;
    return c;
}

void cl_coord_destroy(cl_coord_t *c)
{
    free(c);
}

static void push(cl_coord_t *c, const coord_msg *m)
{
    if (c->qlen == QUEUE) { /* full: the oldest goes */
        c->qhead = (c->qhead + 1) % QUEUE;
        c->qlen--;
    }
    c->queue[(c->qhead + c->qlen) % QUEUE] = *m;
    c->qlen++;
}

static void transmit(cl_coord_t *c, const coord_msg *m)
{
    uint8_t buf[COORD_MAX];
    size_t n = coord_encode(m, buf, sizeof buf);
    c->send(c->ctx, c->co, buf, n);
}

static void start(cl_coord_t *c, int s, coord_msg *m, uint64_t now)
{
    m->id = c->next_id++;
    if (c->next_id == 0)
        c->next_id = 1;
    c->slot[s] = (pending){.live = true, .req = *m, .sent = 1, .next = now + (uint64_t)retry_ms[0]};
    transmit(c, m);
}

static bool cands_ok(const coord_cand *cand, int n)
{
    if (n < 0 || n > COORD_CAND_MAX || (n > 0 && !cand))
        return false;
    for (int i = 0; i < n; i++)
        if (cand[i].kind > COORD_CAND_RELAYED)
            return false;
    return true;
}

bool cl_coord_host(cl_coord_t *c, const char *name, const coord_cand *cand, int n, uint64_t now_ms)
{
    size_t len = strlen(name);
    if (len == 0 || len > COORD_NAME_MAX || !txt_name_ok(name, len) || !cands_ok(cand, n))
        return false;
    coord_msg m = {.type = COORD_HOST_REGISTER, .ncand = (uint8_t)n};
    if (c->hosting && c->code[0])
        memcpy(m.token, c->host_req.token, COORD_TOKEN_LEN);
    memcpy(m.name, name, len + 1);
    if (n)
        memcpy(m.cand, cand, (size_t)n * sizeof *cand);
    c->hosting = true;
    c->host_req = m;
    start(c, SLOT_HOST, &m, now_ms);
    return true;
}

void cl_coord_leave(cl_coord_t *c)
{
    if (c->hosting && c->code[0]) {
        coord_msg m = {.type = COORD_HOST_LEAVE, .id = c->next_id++};
        memcpy(m.token, c->host_req.token, COORD_TOKEN_LEN);
        transmit(c, &m);
    }
    c->hosting = false;
    c->code[0] = '\0';
    c->slot[SLOT_HOST].live = false;
}

bool cl_coord_lookup(cl_coord_t *c, const char code[COORD_CODE_LEN + 2], const coord_cand *cand, int n,
                     uint64_t now_ms)
{
    char canon[COORD_CODE_LEN + 2];
    if (coord_code_parse(code, canon) || !cands_ok(cand, n))
        return false;
    coord_msg m = {.type = COORD_LOOKUP, .ncand = (uint8_t)n};
    memcpy(m.code, canon, sizeof m.code);
    if (n)
        memcpy(m.cand, cand, (size_t)n * sizeof *cand);
    start(c, SLOT_LOOKUP, &m, now_ms);
    return true;
}

bool cl_coord_turn(cl_coord_t *c, uint32_t pair, uint64_t now_ms)
{
    if (!c->pair || (pair && pair != c->pair))
        return false;
    coord_msg m = {.type = COORD_TURN_REQUEST, .pair = c->pair};
    memcpy(m.token, c->pair_token, COORD_TOKEN_LEN);
    start(c, SLOT_TURN, &m, now_ms);
    return true;
}

void cl_coord_list(cl_coord_t *c, uint16_t start_at, uint64_t now_ms)
{
    coord_msg m = {.type = COORD_LIST, .start = start_at};
    start(c, SLOT_LIST, &m, now_ms);
}

bool cl_coord_input(cl_coord_t *c, coord_addr from, const uint8_t *buf, size_t len, uint64_t now_ms)
{
    if (from.ip != c->co.ip || from.port != c->co.port || len < 4 || memcmp(buf, "MRCO", 4) != 0)
        return false;
    coord_msg m;
    bool vbad;
    if (!coord_decode(buf, len, &m, &vbad) || vbad)
        return true; /* the coordinator's, unreadable: dropped (a retry follows) */
    if (m.type == COORD_INTRODUCE) {
        c->pair = m.pair;
        memcpy(c->pair_token, m.token, COORD_TOKEN_LEN);
        push(c, &m);
        return true;
    }
    for (int s = 0; s < SLOTS; s++) {
        pending *p = &c->slot[s];
        if (!p->live || p->req.id != m.id)
            continue;
        p->live = false;
        if (s == SLOT_HOST && m.type == COORD_HOST_OK) {
            memcpy(c->code, m.code, sizeof c->code);
            memcpy(c->host_req.token, m.token, COORD_TOKEN_LEN);
            c->refresh_at = now_ms + (uint64_t)(m.seconds ? m.seconds : 60) * 1000 / 4;
        } else if (s == SLOT_HOST && m.type == COORD_ERROR && m.error == COORD_E_TOKEN) {
            /* The coordinator forgot us (restart, expiry): register anew; the
             * code changes, which the HOST_OK event says. */
            memset(c->host_req.token, 0, COORD_TOKEN_LEN);
            c->code[0] = '\0';
            c->refresh_at = now_ms;
        }
        if (m.type == COORD_LOOKUP_OK) {
            c->pair = m.pair;
            memcpy(c->pair_token, m.token, COORD_TOKEN_LEN);
        }
        push(c, &m);
        return true;
    }
    return true; /* a late answer to a replaced request */
}

void cl_coord_update(cl_coord_t *c, uint64_t now_ms)
{
    for (int s = 0; s < SLOTS; s++) {
        pending *p = &c->slot[s];
        if (!p->live || now_ms < p->next)
            continue;
        if (p->sent >= TRIES) {
            p->live = false;
            coord_msg e = {.type = COORD_ERROR, .id = p->req.id, .error = 0};
            struct in_addr a = {htonl(c->co.ip)};
            char ip[16];
            snprintf(e.text, sizeof e.text, "the coordinator at %s:%u did not answer (%s)",
                     inet_ntop(AF_INET, &a, ip, sizeof ip) ? ip : "?", (unsigned)c->co.port,
                     coord_type_name(p->req.type));
            push(c, &e);
            continue;
        }
        transmit(c, &p->req);
        p->next = now_ms + (uint64_t)retry_ms[p->sent];
        p->sent++;
    }
    if (c->hosting && !c->slot[SLOT_HOST].live && c->refresh_at && now_ms >= c->refresh_at) {
        c->refresh_at = now_ms + 15000; /* until HOST_OK says better */
        coord_msg m = c->host_req;
        start(c, SLOT_HOST, &m, now_ms);
    }
}

bool cl_coord_poll(cl_coord_t *c, coord_msg *ev)
{
    if (!c->qlen)
        return false;
    *ev = c->queue[c->qhead];
    c->qhead = (c->qhead + 1) % QUEUE;
    c->qlen--;
    return true;
}

const char *cl_coord_code(const cl_coord_t *c)
{
    return c->code;
}

bool cl_coord_enet_send(void *ctx, coord_addr to, const uint8_t *buf, size_t len)
{
    ENetSocket *s = ctx;
    ENetAddress a = {.host = htonl(to.ip), .port = to.port};
    ENetBuffer b = {.data = (void *)buf, .dataLength = len};
    return enet_socket_send(*s, &a, &b, 1) == (int)len;
}

const char *cl_coord_resolve(const char *text, coord_addr *out)
{
    char host[256];
    long port = CL_COORD_PORT;
    while (text && (*text == ' ' || *text == '\t'))
        text++;
    size_t len = text ? strcspn(text, " \t\r\n") : 0;
    const char *colon = text ? memchr(text, ':', len) : NULL;
    size_t hl = colon ? (size_t)(colon - text) : len;
    if (!hl || hl >= sizeof host)
        return "the coordinator is HOST or HOST:PORT, e.g. coord.example.org:27920";
    if (colon) {
        char num[8];
        size_t pl = len - hl - 1;
        if (!pl || pl >= sizeof num)
            return "the coordinator's port must be 1..65535";
        memcpy(num, colon + 1, pl);
        num[pl] = '\0';
        if (!mr_parse_long(num, 1, 65535, &port))
            return "the coordinator's port must be 1..65535";
    }
    memcpy(host, text, hl);
    host[hl] = '\0';
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_DGRAM}, *res = NULL;
    if (getaddrinfo(host, NULL, &hints, &res) != 0 || !res)
        return "the coordinator's name does not resolve to an IPv4 address";
    const struct sockaddr_in *sa = (const struct sockaddr_in *)(const void *)res->ai_addr;
    out->ip = ntohl(sa->sin_addr.s_addr);
    out->port = (uint16_t)port;
    freeaddrinfo(res);
    return NULL;
}
