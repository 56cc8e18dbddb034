/* cl_invite.c: the Host's invite code, port mapping and answers to introductions; see cl_invite.h. */
#include "cl_invite.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_coord.h"
#include "cl_portmap.h"
#include "cl_stun.h"
#include "cl_turn.h"
#include "textrule.h"
#include "util.h"

/* A coordinator that did not answer is asked again this long after. */
enum { RETRY_MS = 10000, PUNCH_MS = 15000, JOINERS = 8 };

struct joiner {
    uint32_t ip;
    uint16_t port;
    cl_punch_t *punch;
    uint64_t until; /* probes stop then */
};

struct cl_invite {
    cl_invite_cfg cfg;
    char name[COORD_NAME_MAX + 1];
    uint32_t lan[4];
    cl_coord_t *co;
    cl_portmap_t *pm;
    cl_turn_t *turn;
    bool pm_done, turn_told, turn_asked, registering, dirty;
    coord_cand cand[COORD_CAND_MAX];
    int ncand;
    uint64_t retry_at;
    struct joiner j[JOINERS];
    cl_invite_status st;
};

/* One line on the host's console ("mazerace: ..."), flushed at once: a
 * script or a terminal reading the pipe sees each event as it happens. */
__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("mazerace: ", stdout);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

static void addr_text(uint32_t ip, uint16_t port, char *buf, size_t cap)
{
    stun_addr_text((stun_addr){ip, port, false}, buf, cap);
}

static bool send_fd(void *ctx, coord_addr to, const uint8_t *buf, size_t len)
{
    return cl_udp_send(*(int *)ctx, (stun_addr){to.ip, to.port, false}, buf, len);
}

static void add_cand(cl_invite_t *iv, int kind, stun_addr a)
{
    for (int i = 0; i < iv->ncand; i++)
        if (iv->cand[i].kind == kind) { /* one of each kind but LAN: the newest */
            iv->cand[i].addr = (coord_addr){a.ip, a.port};
            iv->dirty = true;
            return;
        }
    if (iv->ncand < COORD_CAND_MAX) {
        iv->cand[iv->ncand++] = (coord_cand){(uint8_t)kind, {a.ip, a.port}};
        iv->dirty = true;
    }
}

static void do_register(cl_invite_t *iv, uint64_t now)
{
    char co[32];
    addr_text(iv->cfg.coordinator.ip, iv->cfg.coordinator.port, co, sizeof co);
    if (!iv->st.code[0])
        snprintf(iv->st.coord, sizeof iv->st.coord, "Asking the coordinator at %s for an invite code...", co);
    cl_coord_host(iv->co, iv->name, iv->cand, iv->ncand, now);
    iv->registering = true;
    iv->dirty = false;
}

cl_invite_t *cl_invite_create(const cl_invite_cfg *cfg, uint64_t now_ms, const char **err)
{
    size_t nl = cfg->name ? strlen(cfg->name) : 0;
    if (!nl || nl > COORD_NAME_MAX || !txt_name_ok(cfg->name, nl) || cfg->fd < 0 || !cfg->port ||
        cfg->n_lan < 0 || cfg->n_lan > 4 || !cfg->coordinator.ip || !cfg->coordinator.port) {
        *err = "an invite needs a coordinator, a name, the server's socket and port";
        return NULL;
    }
    cl_invite_t *iv = mr_alloc(1, sizeof *iv);
    memset(iv, 0, sizeof *iv);
    iv->cfg = *cfg;
    memcpy(iv->name, cfg->name, nl + 1);
    iv->cfg.name = iv->name;
    for (int i = 0; i < cfg->n_lan; i++) {
        iv->lan[i] = cfg->lan[i];
        add_cand(iv, COORD_CAND_LAN, (stun_addr){cfg->lan[i], cfg->port, false});
    }
    iv->cfg.lan = iv->lan;
    iv->co = cl_coord_create(cfg->coordinator, send_fd, &iv->cfg.fd);
    if (!cfg->no_portmap) {
        cl_portmap_cfg pc = {.port = cfg->port, .discover_ms = cfg->discover_ms};
        const char *why = NULL;
        iv->pm = cl_portmap_create(&pc, &why);
        snprintf(iv->st.router, sizeof iv->st.router, "%s",
                 iv->pm ? "Router: asking it to forward the game port (UPnP-IGD, NAT-PMP)..." : why);
    }
    iv->pm_done = !iv->pm;
    if (cfg->no_portmap)
        snprintf(iv->st.router, sizeof iv->st.router, "Router: not asked to forward the game port");
    do_register(iv, now_ms);
    return iv;
}

void cl_invite_destroy(cl_invite_t *iv)
{
    if (!iv)
        return;
    cl_coord_leave(iv->co);
    cl_coord_destroy(iv->co);
    for (int i = 0; i < JOINERS; i++)
        cl_punch_destroy(iv->j[i].punch);
    cl_turn_destroy(iv->turn);
    cl_portmap_destroy(iv->pm);
    free(iv);
}

bool cl_invite_feed(cl_invite_t *iv, stun_addr from, const uint8_t *data, size_t len, uint64_t now_ms)
{
    if (cl_coord_input(iv->co, (coord_addr){from.ip, from.port}, data, len, now_ms))
        return true;
    if (!stun_looks_like(data, len))
        return false;
    for (int i = 0; i < JOINERS; i++)
        if (iv->j[i].punch && cl_punch_feed(iv->j[i].punch, from, data, len))
            break;
    return true; /* STUN is never ENet's */
}

/* A joiner introduced: probes towards its public address, the relay
 * opened to its IP. The same joiner looking the code up again (to learn the
 * relayed candidate) keeps its probes. */
static void introduce(cl_invite_t *iv, const coord_msg *m, uint64_t now)
{
    struct joiner *slot = NULL;
    for (int i = 0; i < JOINERS && !slot; i++)
        if (iv->j[i].ip == m->seen.ip && iv->j[i].port == m->seen.port)
            slot = &iv->j[i];
    bool fresh = !slot;
    for (int i = 0; i < JOINERS && !slot; i++)
        if (!iv->j[i].punch)
            slot = &iv->j[i];
    if (!slot) { /* all busy: the oldest goes */
        slot = &iv->j[0];
        for (int i = 1; i < JOINERS; i++)
            if (iv->j[i].until < slot->until)
                slot = &iv->j[i];
    }
    if (fresh) {
        cl_punch_destroy(slot->punch);
        *slot = (struct joiner){m->seen.ip, m->seen.port, NULL, 0};
        slot->punch = cl_punch_create(iv->cfg.fd, (stun_addr){m->seen.ip, m->seen.port, false}, now);
        iv->st.introduced++;
    }
    slot->until = now + PUNCH_MS;
    char a[32];
    addr_text(m->seen.ip, m->seen.port, a, sizeof a);
    say("a friend at %s is joining by the invite code", a);
    snprintf(iv->st.joiner, sizeof iv->st.joiner, "A friend at %s is joining: opening the way in", a);
    if (iv->turn)
        cl_turn_permit(iv->turn, m->seen.ip);
    else if (!iv->turn_asked)
        iv->turn_asked = cl_coord_turn(iv->co, m->pair, now);
}

static void relay_ready(cl_invite_t *iv, const coord_msg *m)
{
    cl_turn_destroy(iv->turn);
    cl_turn_cfg tc = {.server = {m->turn.ip, m->turn.port, false},
                      .username = m->user,
                      .password = m->pass,
                      .local_port = iv->cfg.port};
    const char *why = NULL;
    iv->turn = cl_turn_create(&tc, &why);
    iv->turn_told = false;
    if (!iv->turn) {
        snprintf(iv->st.joiner, sizeof iv->st.joiner, "No relay: %s", why);
        return;
    }
    for (int i = 0; i < JOINERS; i++)
        if (iv->j[i].ip)
            cl_turn_permit(iv->turn, iv->j[i].ip);
}

/* An ERROR answers the registration or the relay request: the relay's own
 * codes, or cl_coord's "did not answer (TURN_REQUEST)", are the relay's. */
static void on_error(cl_invite_t *iv, const coord_msg *m, uint64_t now)
{
    bool turn = m->error == COORD_E_NO_TURN || m->error == COORD_E_NO_PAIR || strstr(m->text, "TURN_REQUEST");
    if (turn) {
        iv->turn_asked = false;
        snprintf(iv->st.joiner, sizeof iv->st.joiner, "No relay for this friend: %s",
                 m->error == COORD_E_NO_TURN ? "the coordinator offers none" : m->text);
        return;
    }
    if (m->error == COORD_E_TOKEN)
        return; /* cl_coord registers anew; the new code comes as HOST_OK */
    iv->registering = false;
    iv->st.failed = true;
    iv->st.code[0] = '\0';
    uint64_t wait = m->error == COORD_E_RATE && m->seconds ? (uint64_t)m->seconds * 1000u : RETRY_MS;
    iv->retry_at = now + wait;
    snprintf(iv->st.coord, sizeof iv->st.coord, "No invite code: %s%s (asking again in %u s)",
             m->error ? "the coordinator says " : "", m->text[0] ? m->text : coord_error_name(m->error),
             (unsigned)(wait / 1000));
    say("no invite code: %s", m->text);
}

static void on_event(cl_invite_t *iv, const coord_msg *m, uint64_t now)
{
    char a[32];
    switch (m->type) {
    case COORD_HOST_OK:
        iv->registering = false;
        iv->st.failed = false;
        if (strcmp(iv->st.code, m->code) != 0) {
            say("invite code %s", m->code);
        }
        memcpy(iv->st.code, m->code, sizeof iv->st.code);
        addr_text(m->seen.ip, m->seen.port, iv->st.seen, sizeof iv->st.seen);
        addr_text(iv->cfg.coordinator.ip, iv->cfg.coordinator.port, a, sizeof a);
        snprintf(iv->st.coord, sizeof iv->st.coord, "Registered with the coordinator at %s; seen from %s", a,
                 iv->st.seen);
        break;
    case COORD_INTRODUCE:
        introduce(iv, m, now);
        break;
    case COORD_TURN_OK:
        iv->turn_asked = false;
        relay_ready(iv, m);
        break;
    case COORD_ERROR:
        on_error(iv, m, now);
        break;
    default:
        break;
    }
}

static void watch_router(cl_invite_t *iv)
{
    if (iv->pm_done)
        return;
    stun_addr ext;
    int how = 0;
    int st = cl_portmap_state(iv->pm, &ext, &how);
    if (st == CL_PORTMAP_PENDING)
        return;
    iv->pm_done = true;
    if (st == CL_PORTMAP_MAPPED) {
        char a[32];
        stun_addr_text(ext, a, sizeof a);
        snprintf(iv->st.router, sizeof iv->st.router, "Router: port %u forwarded by %s (%s)",
                 (unsigned)iv->cfg.port, cl_portmap_how_name(how), a);
        add_cand(iv, COORD_CAND_MAPPED, ext);
    } else {
        char why[160];
        cl_portmap_error(iv->pm, why, sizeof why);
        snprintf(iv->st.router, sizeof iv->st.router, "Router: no port forwarding (%s)", why);
    }
    say("%s", iv->st.router);
}

static void watch_relay(cl_invite_t *iv)
{
    if (!iv->turn || iv->turn_told)
        return;
    stun_addr rel;
    int st = cl_turn_state(iv->turn, &rel);
    if (st == CL_TURN_PENDING)
        return;
    iv->turn_told = true;
    char a[32];
    if (st == CL_TURN_READY) {
        stun_addr_text(rel, a, sizeof a);
        snprintf(iv->st.joiner, sizeof iv->st.joiner, "A friend is joining: relay ready at %s", a);
        add_cand(iv, COORD_CAND_RELAYED, rel);
    } else {
        char why[160];
        cl_turn_error(iv->turn, why, sizeof why);
        snprintf(iv->st.joiner, sizeof iv->st.joiner, "No relay: %s", why);
    }
    say("%s", iv->st.joiner);
}

void cl_invite_update(cl_invite_t *iv, uint64_t now_ms)
{
    cl_coord_update(iv->co, now_ms);
    coord_msg m;
    while (cl_coord_poll(iv->co, &m))
        on_event(iv, &m, now_ms);
    watch_router(iv);
    watch_relay(iv);
    for (int i = 0; i < JOINERS; i++) {
        struct joiner *j = &iv->j[i];
        if (j->punch && now_ms >= j->until) {
            cl_punch_destroy(j->punch);
            j->punch = NULL;
        }
        if (j->punch)
            cl_punch_update(j->punch, now_ms);
    }
    /* New candidates go out with the next refresh at once; a failed
     * registration is tried again. */
    if (!iv->registering && ((iv->dirty && iv->st.code[0]) || (iv->st.failed && now_ms >= iv->retry_at)))
        do_register(iv, now_ms);
}

void cl_invite_get_status(cl_invite_t *iv, cl_invite_status *out)
{
    *out = iv->st;
}
