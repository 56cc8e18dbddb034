/* cl_dial.c: an invite code looked up at the coordinator, the host's candidates tried at once; see cl_dial.h.
 */
#include "cl_dial.h"

#include <enet/enet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_coord.h"
#include "cl_stun.h"
#include "util.h"
#include "wire.h"

/* When to look the code up again for a relayed candidate (ms after the
 * first LOOKUP_OK), while no path has connected. */
static const int relook_ms[] = {250, 700, 1500, 2500};
/* A relay that connects while the other paths still try waits this long for
 * them (a punched or mapped path is shorter and spares the relay). */
#define RELAY_PREFER_MS 300
#define RELOOKS ((int)MR_ARRAY_LEN(relook_ms))

struct cl_dial {
    cl_dial_cfg cfg;
    char code[COORD_CODE_LEN + 2];
    char name[WIRE_NAME_MAX + 1];
    char host_name[COORD_NAME_MAX + 1];
    cl_hub_t *hub;
    cl_coord_t *co;
    cl_path_t *path, *relay; /* the first candidates; a relayed one learnt later */
    cl_path_t *won;
    int state, relooks;
    bool taken, tapped, relay_offered;
    uint64_t t0, ok_ms, done_ms, relay_up_ms;
    uint32_t rtt_ms;
    char text[CL_PATH_MAX * 128 * 2 + 256];
};

static bool tap(void *ctx, stun_addr from, const uint8_t *data, size_t len)
{
    cl_dial_t *d = ctx;
    return cl_coord_input(d->co, (coord_addr){from.ip, from.port}, data, len, mr_now_us() / 1000u);
}

static void co_text(const cl_dial_t *d, char *buf, size_t cap)
{
    stun_addr_text((stun_addr){d->cfg.coordinator.ip, d->cfg.coordinator.port, false}, buf, cap);
}

cl_dial_t *cl_dial_create(const cl_dial_cfg *cfg, uint64_t now_ms, const char **err)
{
    char code[COORD_CODE_LEN + 2];
    size_t nl = cfg->name ? strlen(cfg->name) : 0;
    if (!cfg->code || coord_code_parse(cfg->code, code)) {
        *err = "an invite code is + and 8 letters or digits, as the host's lobby shows it";
        return NULL;
    }
    if (!nl || nl > WIRE_NAME_MAX || !cfg->coordinator.ip || !cfg->coordinator.port ||
        (cfg->timeout_ms && (cfg->timeout_ms < 1000 || cfg->timeout_ms > 60000))) {
        *err = "joining by code needs a coordinator and a name";
        return NULL;
    }
    cl_hub_t *hub = cl_hub_create(2 * CL_PATH_MAX, 0, err);
    if (!hub)
        return NULL;
    cl_dial_t *d = mr_alloc(1, sizeof *d);
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    memcpy(d->code, code, sizeof code);
    memcpy(d->name, cfg->name, nl + 1);
    d->cfg.code = d->code;
    d->cfg.name = d->name;
    if (!d->cfg.timeout_ms)
        d->cfg.timeout_ms = 6000;
    d->hub = hub;
    ENetHost *host = cl_hub_enet_host(hub);
    d->co = cl_coord_create(cfg->coordinator, cl_coord_enet_send, &host->socket);
    d->tapped = cl_tap_add(host, tap, d);
    d->t0 = now_ms;
    cl_coord_lookup(d->co, d->code, NULL, 0, now_ms);
    return d;
}

void cl_dial_destroy(cl_dial_t *d)
{
    if (!d)
        return;
    cl_path_destroy(d->path);
    cl_path_destroy(d->relay);
    if (d->tapped)
        cl_tap_remove(cl_hub_enet_host(d->hub), tap, d);
    cl_coord_destroy(d->co);
    if (!d->taken)
        cl_hub_destroy(d->hub);
    free(d);
}

/* The host's candidates as path tries: its public address as the
 * coordinator saw it is a hole-punching one unless another kind names the
 * same address already (a mapped port usually does). */
static int to_path(const coord_msg *m, bool relay_only, cl_path_cfg *pc)
{
    static const int kinds[] = {CL_PATH_DIRECT, CL_PATH_MAPPED, CL_PATH_PUNCHED, CL_PATH_RELAYED};
    pc->n = 0;
    for (int i = 0; i < m->ncand && pc->n < CL_PATH_MAX; i++) {
        const coord_cand *c = &m->cand[i];
        if ((c->kind == COORD_CAND_RELAYED) != relay_only || !c->addr.ip || !c->addr.port)
            continue;
        pc->cand[pc->n++] = (cl_path_cand){kinds[c->kind], {c->addr.ip, c->addr.port, false}};
    }
    bool seen_known = false;
    for (int i = 0; i < pc->n; i++)
        seen_known |= pc->cand[i].addr.ip == m->seen.ip && pc->cand[i].addr.port == m->seen.port;
    if (!relay_only && !seen_known && m->seen.ip && m->seen.port && pc->n < CL_PATH_MAX)
        pc->cand[pc->n++] = (cl_path_cand){CL_PATH_PUNCHED, {m->seen.ip, m->seen.port, false}};
    return pc->n;
}

static void fail(cl_dial_t *d, const char *why)
{
    d->state = CL_DIAL_FAILED;
    snprintf(d->text, sizeof d->text, "%s", why);
}

static void start_path(cl_dial_t *d, const coord_msg *m, bool relay_only, uint64_t now)
{
    cl_path_cfg pc = {.name = d->name, .timeout_ms = d->cfg.timeout_ms};
    if (!to_path(m, relay_only, &pc))
        return;
    const char *why = NULL;
    cl_path_t *p = cl_path_create(d->hub, &pc, now, &why);
    if (!p)
        return;
    if (relay_only)
        d->relay = p;
    else
        d->path = p;
}

static void on_answer(cl_dial_t *d, const coord_msg *m, uint64_t now)
{
    char co[32];
    co_text(d, co, sizeof co);
    if (m->type == COORD_LOOKUP_OK) {
        bool relayed = false;
        for (int i = 0; i < m->ncand; i++)
            relayed |= m->cand[i].kind == COORD_CAND_RELAYED;
        if (!d->ok_ms) {
            d->ok_ms = now;
            snprintf(d->host_name, sizeof d->host_name, "%s", m->name);
            start_path(d, m, false, now);
            d->state = CL_DIAL_TRYING;
        }
        if (relayed && !d->relay_offered) {
            d->relay_offered = true;
            start_path(d, m, true, now);
        }
        if (!d->path && !d->relay)
            fail(d, "the host offered no address to connect to");
        return;
    }
    if (m->type != COORD_ERROR || d->ok_ms)
        return; /* a later lookup's error: the paths under way decide */
    char why[256];
    if (m->error == COORD_E_NO_CODE)
        snprintf(why, sizeof why,
                 "No game has the invite code %s: check it with your friend (a code ends when its game "
                 "closes).",
                 d->code);
    else if (m->error == COORD_E_RATE)
        snprintf(why, sizeof why, "Too many code lookups from your address: try again in %u s.",
                 (unsigned)(m->seconds ? m->seconds : 2));
    else if (m->error == 0)
        snprintf(why, sizeof why,
                 "Cannot reach the coordinator at %s (UDP): it did not answer. LAN games and typed "
                 "addresses still work.",
                 co);
    else
        snprintf(why, sizeof why, "The coordinator at %s refused the lookup: %s.", co,
                 m->text[0] ? m->text : coord_error_name(m->error));
    fail(d, why);
}

static int path_state(cl_path_t *p, uint64_t now)
{
    return p ? cl_path_update(p, now) : CL_PATH_FAILED;
}

int cl_dial_update(cl_dial_t *d, uint64_t now_ms)
{
    if (d->state == CL_DIAL_CONNECTED || d->state == CL_DIAL_FAILED)
        return d->state;
    cl_hub_service(d->hub, now_ms, 0);
    cl_coord_update(d->co, now_ms);
    coord_msg m;
    while (d->state != CL_DIAL_FAILED && cl_coord_poll(d->co, &m))
        on_answer(d, &m, now_ms);
    if (d->state != CL_DIAL_TRYING)
        return d->state;
    int a = path_state(d->path, now_ms), b = path_state(d->relay, now_ms);
    if (b == CL_PATH_CONNECTED && !d->relay_up_ms)
        d->relay_up_ms = now_ms;
    bool relay_now =
        b == CL_PATH_CONNECTED && (a == CL_PATH_FAILED || now_ms >= d->relay_up_ms + RELAY_PREFER_MS);
    if (a == CL_PATH_CONNECTED || relay_now) {
        d->won = a == CL_PATH_CONNECTED ? d->path : d->relay;
        d->state = CL_DIAL_CONNECTED;
        d->done_ms = now_ms;
        d->rtt_ms = cl_path_rtt_ms(d->won);
        /* The other set of tries stops now. */
        if (d->won == d->path) {
            cl_path_destroy(d->relay);
            d->relay = NULL;
        } else {
            cl_path_destroy(d->path);
            d->path = NULL;
        }
        return d->state;
    }
    /* No relay offered yet: ask again, the host may have one by now. */
    if (!d->relay_offered && d->relooks < RELOOKS && now_ms >= d->ok_ms + (uint64_t)relook_ms[d->relooks]) {
        cl_coord_lookup(d->co, d->code, NULL, 0, now_ms);
        d->relooks++;
    }
    bool relook_due = !d->relay_offered && d->relooks < RELOOKS;
    if (a == CL_PATH_FAILED && b == CL_PATH_FAILED && !relook_due) {
        size_t n = (size_t)snprintf(d->text, sizeof d->text, "Could not reach the game %s. Tried: ", d->code);
        if (d->path && n < sizeof d->text)
            n += (size_t)snprintf(d->text + n, sizeof d->text - n, "%s; ", cl_path_report(d->path));
        if (n < sizeof d->text)
            snprintf(d->text + n, sizeof d->text - n, "%s",
                     d->relay ? cl_path_report(d->relay) : "no TURN relay (the host offered none)");
        d->state = CL_DIAL_FAILED;
    }
    return d->state;
}

cl_net_t *cl_dial_take(cl_dial_t *d, cl_hub_t **hub)
{
    if (d->state != CL_DIAL_CONNECTED || d->taken)
        return NULL;
    cl_net_t *n = cl_path_take(d->won);
    if (!n)
        return NULL;
    d->taken = true;
    *hub = d->hub;
    return n;
}

const char *cl_dial_text(cl_dial_t *d)
{
    char co[32], a[32];
    co_text(d, co, sizeof co);
    if (d->state == CL_DIAL_LOOKUP) {
        snprintf(d->text, sizeof d->text, "Looking up %s at the coordinator %s...", d->code, co);
    } else if (d->state == CL_DIAL_TRYING) {
        snprintf(d->text, sizeof d->text,
                 "Found \"%s\": trying every way in (direct, port mapping, hole punching%s)...", d->host_name,
                 d->relay ? ", TURN relay" : "");
    } else if (d->state == CL_DIAL_CONNECTED) {
        stun_addr_text(cl_path_addr(d->won), a, sizeof a);
        snprintf(d->text, sizeof d->text, "%s to %s, connected in %u ms", cl_path_kind_name(cl_dial_kind(d)),
                 a, (unsigned)cl_dial_connect_ms(d));
    }
    return d->text;
}

/* An IPv4 address and port starting at s ("11.0.0.11:27910"): its length, or 0. */
static size_t addr_len(const char *s)
{
    size_t n = 0;
    int dots = 0, colons = 0;
    while ((s[n] >= '0' && s[n] <= '9') || s[n] == '.' ||
           (s[n] == ':' && s[n + 1] >= '0' && s[n + 1] <= '9')) {
        dots += s[n] == '.';
        colons += s[n] == ':';
        n++;
    }
    return dots == 3 && colons == 1 ? n : 0;
}

void cl_dial_brief(const char *text, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; text[i] && o + 1 < cap; i++) {
        size_t n = text[i] == ' ' ? addr_len(text + i + 1) : 0;
        if (n && text[i + 1 + n] == ':') {
            i += n; /* the space and the address go; the ':' stays */
            continue;
        }
        out[o++] = text[i];
    }
    out[o] = '\0';
}

int cl_dial_kind(const cl_dial_t *d)
{
    return d->won ? cl_path_kind(d->won) : -1;
}
uint32_t cl_dial_connect_ms(const cl_dial_t *d)
{
    return d->done_ms ? (uint32_t)(d->done_ms - d->t0) : 0;
}
uint32_t cl_dial_rtt_ms(const cl_dial_t *d)
{
    return d->rtt_ms;
}
const char *cl_dial_host_name(const cl_dial_t *d)
{
    return d->host_name;
}
