/* co_core.c: the coordinator's answers: host codes, lookups and introductions, TURN credentials for
 * introduced pairs, the public server list, and the per-address limits (docs/coordinator.md). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "co.h"
#include "secrand.h"
#include "util.h"

typedef struct host {
    bool used;
    char code[COORD_CODE_LEN + 2];
    uint8_t token[COORD_TOKEN_LEN];
    char name[COORD_NAME_MAX + 1];
    coord_addr seen;
    coord_cand cand[COORD_CAND_MAX];
    uint8_t ncand;
    uint64_t expires;
} host;

typedef struct pair {
    bool used;
    uint32_t id;
    uint8_t token[COORD_TOKEN_LEN];
    uint32_t ip[2]; /* the host's and the joiner's addresses: only they may ask for TURN */
    uint64_t expires;
} pair;

typedef struct server {
    bool used;
    coord_server s;
    uint64_t expires;
} server;

/* One address's token buckets (ms of credit). */
typedef struct bucket {
    uint32_t ip;
    uint64_t at;       /* last refill */
    int64_t msgs_ms;   /* credit for datagrams, in ms of the sustained rate */
    int64_t lookup_ms; /* credit for LOOKUPs */
} bucket;

enum { BUCKETS = 4096 };

struct co {
    co_config cfg;
    host *hosts;
    server *servers;
    pair *pairs;
    int npairs;
    bucket buckets[BUCKETS];
    co_stats st;
};

void co_config_defaults(co_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->host_ttl_s = 60;
    cfg->server_ttl_s = 90;
    cfg->pair_ttl_s = 120;
    cfg->max_hosts = 4096;
    cfg->max_servers = 1024;
    cfg->per_addr = 4;
    cfg->rate = 20;
    cfg->burst = 40;
    cfg->lookup_rate_ms = 2000;
    cfg->lookup_burst = 10;
    cfg->turn_ttl_s = 3600;
    cfg->turn.port = 3478;
}

co_t *co_create(const co_config *cfg, const char **err)
{
    if (cfg->max_hosts < 1 || cfg->max_servers < 1 || cfg->per_addr < 1 || cfg->rate < 1 || cfg->burst < 1 ||
        cfg->lookup_rate_ms < 1 || cfg->lookup_burst < 1 || cfg->host_ttl_s < 1 || cfg->server_ttl_s < 1 ||
        cfg->pair_ttl_s < 1 || cfg->turn_ttl_s < 1) {
        *err = "a coordinator limit is out of range";
        return NULL;
    }
    if (!secrand_ok()) {
        *err = "no randomness from the kernel for codes and tokens";
        return NULL;
    }
    co_t *co = mr_alloc(1, sizeof *co); /* mr_alloc zeroes: every slot starts free */
    co->cfg = *cfg;
    co->hosts = mr_alloc((size_t)cfg->max_hosts, sizeof *co->hosts);
    co->servers = mr_alloc((size_t)cfg->max_servers, sizeof *co->servers);
    co->npairs = cfg->max_hosts * 2;
    co->pairs = mr_alloc((size_t)co->npairs, sizeof *co->pairs);
    return co;
}

void co_destroy(co_t *co)
{
    if (!co)
        return;
    free(co->hosts);
    free(co->servers);
    free(co->pairs);
    free(co);
}

/* The address's bucket: its own, a free or stale slot, or (table full of
 * live addresses) the slot it hashes to, shared: never more credit. */
static bucket *bucket_of(co_t *co, uint32_t ip, uint64_t now)
{
    uint32_t h = (ip * 2654435761u) % BUCKETS;
    bucket *pick = NULL;
    for (int i = 0; i < 8; i++) {
        bucket *b = &co->buckets[(h + (uint32_t)i) % BUCKETS];
        if (b->at && b->ip == ip)
            return b;
        if (!pick && (b->at == 0 || now - b->at > 60000))
            pick = b;
    }
    if (!pick)
        return &co->buckets[h];
    pick->ip = ip;
    pick->at = now ? now : 1;
    pick->msgs_ms = (int64_t)co->cfg.burst * 1000;
    pick->lookup_ms = (int64_t)co->cfg.lookup_burst * co->cfg.lookup_rate_ms;
    return pick;
}

/* Takes one datagram's (and a lookup's) credit; false when over. */
static bool take(co_t *co, uint32_t ip, bool lookup, uint64_t now, uint16_t *retry_s)
{
    bucket *b = bucket_of(co, ip, now);
    int64_t dt = (int64_t)(now - b->at);
    b->at = now ? now : 1;
    int64_t msg_cap = (int64_t)co->cfg.burst * 1000,
            look_cap = (int64_t)co->cfg.lookup_burst * co->cfg.lookup_rate_ms;
    b->msgs_ms += dt * co->cfg.rate;
    if (b->msgs_ms > msg_cap)
        b->msgs_ms = msg_cap;
    b->lookup_ms += dt;
    if (b->lookup_ms > look_cap)
        b->lookup_ms = look_cap;
    if (b->msgs_ms < 1000) {
        *retry_s = 1;
        return false;
    }
    if (lookup && b->lookup_ms < co->cfg.lookup_rate_ms) {
        *retry_s = (uint16_t)((co->cfg.lookup_rate_ms - b->lookup_ms + 999) / 1000);
        return false;
    }
    b->msgs_ms -= 1000;
    if (lookup)
        b->lookup_ms -= co->cfg.lookup_rate_ms;
    return true;
}

static void emit(co_out *out, coord_addr to, const coord_msg *m)
{
    assert(out->n < 2);
    out->to[out->n] = to;
    out->len[out->n] = coord_encode(m, out->buf[out->n], COORD_MAX);
    out->n++;
}

static void error(co_out *out, coord_addr to, uint32_t id, int code, uint16_t retry_s, const char *text)
{
    coord_msg e = {.type = COORD_ERROR, .id = id, .error = (uint8_t)code, .seconds = retry_s};
    snprintf(e.text, sizeof e.text, "%s", text);
    emit(out, to, &e);
}

static host *host_by_token(co_t *co, const uint8_t *token)
{
    for (int i = 0; i < co->cfg.max_hosts; i++)
        if (co->hosts[i].used && memcmp(co->hosts[i].token, token, COORD_TOKEN_LEN) == 0)
            return &co->hosts[i];
    return NULL;
}

static host *host_by_code(co_t *co, const char *code)
{
    for (int i = 0; i < co->cfg.max_hosts; i++)
        if (co->hosts[i].used && strcmp(co->hosts[i].code, code) == 0)
            return &co->hosts[i];
    return NULL;
}

static int count_hosts_of(const co_t *co, uint32_t ip)
{
    int n = 0;
    for (int i = 0; i < co->cfg.max_hosts; i++)
        n += co->hosts[i].used && co->hosts[i].seen.ip == ip;
    return n;
}

static void on_host_register(co_t *co, coord_addr from, const coord_msg *m, uint64_t now, co_out *out)
{
    static const uint8_t zero[COORD_TOKEN_LEN];
    host *h = NULL;
    if (memcmp(m->token, zero, sizeof zero) != 0) {
        h = host_by_token(co, m->token);
        if (!h || h->seen.ip != from.ip) {
            error(out, from, m->id, COORD_E_TOKEN, 0,
                  "no registration has this token (expired?): register anew");
            return;
        }
    } else {
        if (count_hosts_of(co, from.ip) >= co->cfg.per_addr) {
            error(out, from, m->id, COORD_E_FULL, (uint16_t)co->cfg.host_ttl_s,
                  "too many invite codes from this address");
            return;
        }
        for (int i = 0; i < co->cfg.max_hosts && !h; i++)
            if (!co->hosts[i].used)
                h = &co->hosts[i];
        if (!h) {
            error(out, from, m->id, COORD_E_FULL, (uint16_t)co->cfg.host_ttl_s, "the coordinator is full");
            return;
        }
        memset(h, 0, sizeof *h);
        do {
            uint8_t rnd[COORD_CODE_LEN];
            secrand_fill(rnd, sizeof rnd);
            coord_code_make(rnd, h->code);
        } while (host_by_code(co, h->code));
        do
            secrand_fill(h->token, sizeof h->token);
        while (memcmp(h->token, zero, sizeof zero) == 0 || host_by_token(co, h->token));
        h->used = true;
        co->st.hosts++;
    }
    h->seen = from;
    memcpy(h->name, m->name, sizeof h->name);
    memcpy(h->cand, m->cand, sizeof h->cand);
    h->ncand = m->ncand;
    h->expires = now + (uint64_t)co->cfg.host_ttl_s * 1000;
    coord_msg ok = {
        .type = COORD_HOST_OK, .id = m->id, .seen = from, .seconds = (uint16_t)co->cfg.host_ttl_s};
    memcpy(ok.code, h->code, sizeof ok.code);
    memcpy(ok.token, h->token, sizeof ok.token);
    emit(out, from, &ok);
}

static void on_host_leave(co_t *co, coord_addr from, const coord_msg *m)
{
    host *h = host_by_token(co, m->token);
    if (h && h->seen.ip == from.ip) {
        h->used = false;
        co->st.hosts--;
    }
}

static pair *new_pair(co_t *co, uint64_t now)
{
    pair *p = NULL;
    for (int i = 0; i < co->npairs; i++) {
        pair *c = &co->pairs[i];
        if (!c->used || c->expires <= now) {
            p = c;
            break;
        }
        if (!p || c->expires < p->expires)
            p = c; /* all live: the oldest goes */
    }
    if (!p->used)
        co->st.pairs++;
    memset(p, 0, sizeof *p);
    p->used = true;
    p->id = (uint32_t)secrand_u64();
    secrand_fill(p->token, sizeof p->token);
    p->expires = now + (uint64_t)co->cfg.pair_ttl_s * 1000;
    return p;
}

static void on_lookup(co_t *co, coord_addr from, const coord_msg *m, uint64_t now, co_out *out)
{
    co->st.lookups++;
    host *h = host_by_code(co, m->code);
    if (!h || h->expires <= now) {
        co->st.lookups_missed++;
        error(out, from, m->id, COORD_E_NO_CODE, 0,
              "no game has this invite code (mistyped, or the host left)");
        return;
    }
    pair *p = new_pair(co, now);
    p->ip[0] = h->seen.ip;
    p->ip[1] = from.ip;
    coord_msg a = {.type = COORD_LOOKUP_OK, .id = m->id, .pair = p->id, .seen = h->seen, .ncand = h->ncand};
    memcpy(a.token, p->token, sizeof a.token);
    memcpy(a.name, h->name, sizeof a.name);
    memcpy(a.cand, h->cand, sizeof a.cand);
    emit(out, from, &a);
    coord_msg in = {.type = COORD_INTRODUCE, .id = 0, .pair = p->id, .seen = from, .ncand = m->ncand};
    memcpy(in.token, p->token, sizeof in.token);
    memcpy(in.cand, m->cand, sizeof in.cand);
    emit(out, h->seen, &in);
}

static void on_turn(co_t *co, coord_addr from, const coord_msg *m, uint64_t now, uint64_t unix_s, co_out *out)
{
    if (!co->cfg.turn_secret[0]) {
        error(out, from, m->id, COORD_E_NO_TURN, 0, "this coordinator offers no relay");
        return;
    }
    for (int i = 0; i < co->npairs; i++) {
        pair *p = &co->pairs[i];
        if (!p->used || p->expires <= now || p->id != m->pair ||
            memcmp(p->token, m->token, COORD_TOKEN_LEN) != 0 || (p->ip[0] != from.ip && p->ip[1] != from.ip))
            continue;
        coord_msg ok = {.type = COORD_TURN_OK,
                        .id = m->id,
                        .turn = co->cfg.turn,
                        .seconds = (uint16_t)co->cfg.turn_ttl_s};
        snprintf(ok.user, sizeof ok.user, "%llu:mr%08x",
                 (unsigned long long)(unix_s + (uint64_t)co->cfg.turn_ttl_s), (unsigned)p->id);
        co_turn_password(co->cfg.turn_secret, ok.user, ok.pass);
        co->st.turn_issued++;
        emit(out, from, &ok);
        return;
    }
    co->st.turn_refused++;
    error(out, from, m->id, COORD_E_NO_PAIR, 0,
          "relay credentials are only for a pair this coordinator introduced");
}

static void on_server_register(co_t *co, coord_addr from, const coord_msg *m, uint64_t now, co_out *out)
{
    server *s = NULL, *free_slot = NULL;
    int mine = 0;
    for (int i = 0; i < co->cfg.max_servers; i++) {
        server *c = &co->servers[i];
        if (!c->used) {
            if (!free_slot)
                free_slot = c;
            continue;
        }
        if (c->s.addr.ip == from.ip) {
            mine++;
            if (c->s.addr.port == m->server.addr.port)
                s = c;
        }
    }
    if (!s) {
        if (mine >= co->cfg.per_addr || !free_slot) {
            error(out, from, m->id, COORD_E_FULL, (uint16_t)co->cfg.server_ttl_s,
                  mine >= co->cfg.per_addr ? "too many servers listed from this address"
                                           : "the server list is full");
            return;
        }
        s = free_slot;
        s->used = true;
        co->st.servers++;
    }
    s->s = m->server;
    s->s.addr.ip = from.ip;
    s->expires = now + (uint64_t)co->cfg.server_ttl_s * 1000;
    coord_msg ok = {.type = COORD_SERVER_OK, .id = m->id, .seconds = (uint16_t)(co->cfg.server_ttl_s / 3)};
    emit(out, from, &ok);
}

static void on_list(co_t *co, coord_addr from, const coord_msg *m, co_out *out)
{
    coord_msg a = {.type = COORD_SERVER_LIST, .id = m->id, .start = m->start};
    int k = 0;
    for (int i = 0; i < co->cfg.max_servers; i++) {
        if (!co->servers[i].used)
            continue;
        if (k >= m->start && a.nlist < COORD_LIST_MAX)
            a.list[a.nlist++] = co->servers[i].s;
        k++;
    }
    a.total = (uint16_t)(k > 0xFFFF ? 0xFFFF : k);
    emit(out, from, &a);
}

void co_handle(co_t *co, coord_addr from, const uint8_t *buf, size_t len, uint64_t now_ms, uint64_t unix_s,
               co_out *out)
{
    out->n = 0;
    co->st.datagrams++;
    coord_msg m;
    bool version_bad;
    uint16_t retry;
    if (!coord_decode(buf, len, &m, &version_bad)) {
        co->st.bad++;
        /* Not ours, or cut: an answer could be used to reflect traffic, so
         * only datagrams with our header get one. */
        if (len >= COORD_HEADER && memcmp(buf, "MRCO", 4) == 0 && take(co, from.ip, false, now_ms, &retry))
            error(out, from, m.id, COORD_E_BAD, 0, "the datagram does not follow docs/coordinator.md");
        return;
    }
    if (!take(co, from.ip, m.type == COORD_LOOKUP, now_ms, &retry)) {
        co->st.rate_limited++;
        error(out, from, m.id, COORD_E_RATE, retry, "too many requests from this address: wait");
        return;
    }
    if (version_bad) {
        error(out, from, m.id, COORD_E_VERSION, 0,
              "unknown coordinator protocol version (this one speaks 1)");
        return;
    }
    switch (m.type) {
    case COORD_HOST_REGISTER:
        on_host_register(co, from, &m, now_ms, out);
        break;
    case COORD_HOST_LEAVE:
        on_host_leave(co, from, &m);
        break;
    case COORD_LOOKUP:
        on_lookup(co, from, &m, now_ms, out);
        break;
    case COORD_TURN_REQUEST:
        on_turn(co, from, &m, now_ms, unix_s, out);
        break;
    case COORD_SERVER_REGISTER:
        on_server_register(co, from, &m, now_ms, out);
        break;
    case COORD_LIST:
        on_list(co, from, &m, out);
        break;
    default: /* an answer type sent to us */
        co->st.bad++;
        error(out, from, m.id, COORD_E_BAD, 0, "not a request");
    }
}

void co_expire(co_t *co, uint64_t now)
{
    for (int i = 0; i < co->cfg.max_hosts; i++)
        if (co->hosts[i].used && co->hosts[i].expires <= now) {
            co->hosts[i].used = false;
            co->st.hosts--;
        }
    for (int i = 0; i < co->cfg.max_servers; i++)
        if (co->servers[i].used && co->servers[i].expires <= now) {
            co->servers[i].used = false;
            co->st.servers--;
        }
    for (int i = 0; i < co->npairs; i++)
        if (co->pairs[i].used && co->pairs[i].expires <= now) {
            co->pairs[i].used = false;
            co->st.pairs--;
        }
}

void co_get_stats(const co_t *co, co_stats *st)
{
    *st = co->st;
}
