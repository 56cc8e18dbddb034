/* net.c: the app's network glue: joining, hosting a LAN game with the
 * in-process server, and LAN discovery for the join screen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_app.h"
#include "joinlink.h"
#include "util.h"

#if defined(MR_HAVE_CLNET)
#include "cl_net.h"
#endif
#if defined(MR_HAVE_SERVER)
#include "sv.h"
#endif

enum { MAX_FOUND = 12, PROBE_MS = 1500 };

struct cl_netui {
#if defined(MR_HAVE_CLNET)
    cl_disc_t *disc;
    cl_server_info found[MAX_FOUND];
    uint64_t seen[MAX_FOUND];
#endif
    int nfound;
    uint64_t last_probe;
};

const char *cl_app_join(cl_app *a, const char *address, const char *room, bool quick)
{
    static char err[256];
    if (!address || !address[0])
        return "type a server address, e.g. 192.168.1.20:27910";
    joinlink l;
    const char *why = joinlink_parse(address, &l);
    if (why) {
        snprintf(err, sizeof err, "%s", why);
        return err;
    }
    char typed[WIRE_ROOM_CODE_LEN + 1] = "";
    if (room && room[0] && !wire_room_code_parse(room, typed))
        return "a room code is 5 letters, as the lobby shows it";
    if (l.room[0] && typed[0] && strcmp(l.room, typed) != 0) {
        snprintf(err, sizeof err, "the link is for room %s but the room code says %s", l.room, typed);
        return err;
    }
    if (l.room[0]) {
        memcpy(typed, l.room, sizeof typed);
        quick = false;
    }
    char hostport[300];
    snprintf(hostport, sizeof hostport, "%s:%d", l.host, l.port);
    cl_backend *b = cl_backend_net(hostport, a->settings.name, NULL, 1, quick || !typed[0] ? NULL : typed,
                                   a->args.join_addr != NULL, NULL, a->now_ms, err, sizeof err);
    if (!b)
        return err;
    cl_app_start_backend(a, b);
    size_t hl = strlen(hostport);
    if (hl < sizeof a->settings.last_server) /* a longer one is not remembered */
        memcpy(a->settings.last_server, hostport, hl + 1);
    snprintf(a->join_host, sizeof a->join_host, "%s", l.host);
    a->join_port = l.port;
    a->mode = CL_MODE_JOIN;
    return NULL;
}

bool cl_app_join_link(const cl_app *a, char *buf, size_t cap)
{
    const char *host = a->join_host;
    int port = a->join_port;
    if (a->mode == CL_MODE_HOST) {
        /* Hosting: only an address given with --host-bind is known to others. */
        host = a->args.host_bind && strcmp(a->args.host_bind, "0.0.0.0") != 0 ? a->args.host_bind : "";
        port = a->server_port;
    }
    if (!a->backend || !a->backend->room[0] || !host[0] || port <= 0)
        return false;
    joinlink_format(host, port, a->backend->room, buf, cap);
    return true;
}

const char *cl_app_watch(cl_app *a, const char *address, const char *room)
{
    static char err[256];
    if (!address || !address[0])
        return "type a server address, e.g. 192.168.1.20:27910";
    cl_backend *b = cl_backend_watch(address, a->settings.name, room, a->now_ms, err, sizeof err);
    if (!b)
        return err;
    cl_app_start_backend(a, b);
    snprintf(a->settings.last_server, sizeof a->settings.last_server, "%s", address);
    a->mode = CL_MODE_WATCH;
    cl_app_set_scene(a, CL_SCENE_WATCH);
    return NULL;
}

const char *cl_app_host(cl_app *a, const char *game_id, int series)
{
#if defined(MR_HAVE_SERVER) && defined(MR_HAVE_CLNET)
    static char err[256];
    pz_id id;
    if (pz_id_parse(game_id, &id, err, sizeof err))
        return err;
    sv_config cfg;
    sv_config_defaults(&cfg);
    snprintf(cfg.name, sizeof cfg.name, "%.15s's game", a->settings.name);
    cfg.log_level = getenv("MAZERACE_HOST_DEBUG") ? SV_LOG_DEBUG : SV_LOG_WARN;
    cfg.log_moves = getenv("MAZERACE_HOST_DEBUG") != NULL;
    cfg.max_clients = 16;
    cfg.max_rooms = 8;
    cfg.series = series;
    /* The host waits for anyone: a friend's quick match at this address
     * takes the host's seat across (docs/racing.md, "Quick match"). */
    cfg.quick_rooms = true;
    if (a->args.host_bind)
        snprintf(cfg.bind_addr, sizeof cfg.bind_addr, "%s", a->args.host_bind);
    if (a->args.host_port >= 0) {
        cfg.port = a->args.host_port;
        if (a->args.host_port == 0)
            cfg.discovery_port = 0;
    }
    /* The default ports let friends find us; if something else holds them
     * (a dedicated server on this machine), any free port still works by
     * address. */
    const char *why = NULL;
    sv_t *sv = sv_create(&cfg, &why);
    if (!sv && a->args.host_port < 0) {
        cfg.port = 0;
        cfg.discovery_port = 0;
        sv = sv_create(&cfg, &why);
    }
    if (!sv) {
        snprintf(err, sizeof err, "cannot start the server: %s", why ? why : "unknown error");
        return err;
    }
    char addr[64];
    /* Connect to ourselves on loopback, unless bound to one other address. */
    const char *self =
        a->args.host_bind && strcmp(a->args.host_bind, "0.0.0.0") ? a->args.host_bind : "127.0.0.1";
    snprintf(addr, sizeof addr, "%.40s:%u", self, (unsigned)sv_port(sv));
    cl_backend *b = cl_backend_net(addr, a->settings.name, game_id, series, NULL, a->args.host_id != NULL, sv,
                                   a->now_ms, err, sizeof err);
    if (!b) {
        sv_destroy(sv);
        return err;
    }
    a->server_port = sv_port(sv);
    cl_app_start_backend(a, b);
    a->mode = CL_MODE_HOST;
    printf("mazerace: hosting on port %u (LAN discovery port %u)\n", (unsigned)sv_port(sv),
           (unsigned)sv_discovery_port(sv));
    fflush(stdout);
    return NULL;
#else
    (void)a, (void)game_id, (void)series;
    return "this build has no server";
#endif
}

void cl_app_net_stop(cl_app *a)
{
    if (!a->net)
        return;
#if defined(MR_HAVE_CLNET)
    cl_disc_destroy(a->net->disc);
#endif
    free(a->net);
    a->net = NULL;
}

void cl_app_discover(cl_app *a)
{
#if defined(MR_HAVE_CLNET)
    if (!a->net) {
        a->net = mr_alloc(1, sizeof *a->net);
        const char *why = NULL;
        a->net->disc = cl_disc_create(a->args.lan_port ? a->args.lan_port : WIRE_DISCOVERY_PORT, &why);
        if (!a->net->disc)
            cl_app_say(a, true, "LAN search unavailable: %s", why ? why : "no socket");
    }
    cl_netui *n = a->net;
    if (!n->disc)
        return;
    if (!n->last_probe || a->now_ms >= n->last_probe + PROBE_MS) {
        n->last_probe = a->now_ms;
        cl_disc_probe(n->disc, "127.0.0.1", a->now_ms);
        /* Headless runs are tests: they never broadcast beyond this machine. */
        if (!a->args.headless)
            cl_disc_probe(n->disc, "255.255.255.255", a->now_ms);
    }
    cl_server_info info;
    for (int i = 0; i < 32 && cl_disc_poll(n->disc, a->now_ms, &info); i++) {
        int k = 0;
        while (k < n->nfound &&
               !(strcmp(n->found[k].addr, info.addr) == 0 && n->found[k].game_port == info.game_port))
            k++;
        if (k == n->nfound) {
            if (n->nfound == MAX_FOUND)
                continue;
            n->nfound++;
            printf("mazerace: found \"%s\" at %s:%d\n", info.name, info.addr, info.game_port);
            fflush(stdout);
        }
        n->found[k] = info;
        n->seen[k] = a->now_ms;
    }
    /* Servers that stopped answering drop off the list. */
    for (int k = 0; k < n->nfound;) {
        if (a->now_ms > n->seen[k] + 4 * PROBE_MS) {
            n->found[k] = n->found[n->nfound - 1];
            n->seen[k] = n->seen[n->nfound - 1];
            n->nfound--;
        } else {
            k++;
        }
    }
#else
    (void)a;
#endif
}

int cl_app_found_races(cl_app *a, int i)
{
#if defined(MR_HAVE_CLNET)
    if (a->net && i >= 0 && i < a->net->nfound)
        return a->net->found[i].races;
#endif
    (void)a, (void)i;
    return 0;
}

int cl_app_found(cl_app *a, int i, char *label, size_t llen, char *address, size_t alen)
{
    if (!a->net || i < 0 || i >= a->net->nfound)
        return -1;
#if defined(MR_HAVE_CLNET)
    const cl_server_info *s = &a->net->found[i];
    if (s->races > 0)
        snprintf(label, llen, "%s  (%d waiting, %d racing, %u ms)", s->name, s->players_waiting, s->races,
                 (unsigned)s->rtt_ms);
    else
        snprintf(label, llen, "%s  (%d waiting, %u ms)", s->name, s->players_waiting, (unsigned)s->rtt_ms);
    snprintf(address, alen, "%s:%d", s->addr, s->game_port);
    return 0;
#else
    (void)label, (void)llen, (void)address, (void)alen;
    return -1;
#endif
}
