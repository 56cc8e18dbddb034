/* cl_netui.c: the app's network glue: joining, hosting a LAN game with the
 * in-process server, and LAN discovery for the join screen. */
#define _DEFAULT_SOURCE /* getifaddrs, IFF_UP: this computer's LAN addresses */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_netui.h"
#include "coord_wire.h"
#include "joinlink.h"
#include "util.h"

#if defined(MR_HAVE_CLNET)
#include "cl_net.h"
#endif
#if defined(MR_HAVE_SERVER)
#include "sv.h"
#endif

enum { PROBE_MS = 1500 };

struct cl_netui {
#if defined(MR_HAVE_CLNET)
    cl_disc_t *disc;
    cl_lanlist list;
#endif
    uint64_t last_probe;
};

/* Connects to l's server and creates a room on create_id, joins room, or
 * (both NULL) asks for a quick match. */
static const char *connect_to(cl_app *a, const joinlink *l, const char *create_id, int series,
                              const char *room, bool auto_ready)
{
    static char err[256];
    char hostport[300];
    snprintf(hostport, sizeof hostport, "%s:%d", l->host, l->port);
    cl_backend *b = cl_backend_net(hostport, a->settings.name, create_id, series, room, auto_ready, NULL,
                                   a->now_ms, err, sizeof err);
    if (!b)
        return err;
    cl_app_start_backend(a, b);
    a->virtual_clock = false; /* a headless run joined from its screens: the network keeps real time */
    size_t hl = strlen(hostport);
    if (hl < sizeof a->settings.last_server) /* a longer one is not remembered */
        memcpy(a->settings.last_server, hostport, hl + 1);
    snprintf(a->online.join_host, sizeof a->online.join_host, "%s", l->host);
    a->online.join_port = l->port;
    a->mode = CL_MODE_JOIN;
    return NULL;
}

const char *cl_app_coordinator(const cl_app *a)
{
    const char *c = a->args.coordinator ? a->args.coordinator : a->settings.coordinator;
    return strcmp(c, "none") == 0 ? "" : c;
}

/* Joins a friend's game by invite code through the coordinator the link
 * names, else ours. */
static const char *join_code(cl_app *a, const char *code, const char *coord, const char *room)
{
    static char err[300];
    if (room && room[0])
        return "an invite code needs no room code: clear the room code field";
    cl_backend *b = cl_backend_net_code(code, coord[0] ? coord : cl_app_coordinator(a), a->settings.name,
                                        a->args.join_addr != NULL, a->now_ms, err, sizeof err);
    if (!b)
        return err;
    cl_app_start_backend(a, b);
    a->virtual_clock = false; /* the network keeps real time */
    a->online.join_host[0] = '\0';
    a->online.join_port = 0;
    a->mode = CL_MODE_JOIN;
    return NULL;
}

const char *cl_app_join(cl_app *a, const char *address, const char *room, bool quick)
{
    static char err[256];
    if (!address || !address[0])
        return "type a server address, e.g. 192.168.1.20:27910, or an invite code, e.g. +K7MP9NXA";
    char code[COORD_CODE_LEN + 2], coord[128];
    const char *bad = NULL;
    if (joinlink_invite(address, code, coord, sizeof coord, &bad))
        return bad ? bad : join_code(a, code, coord, room);
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
    return connect_to(a, &l, NULL, 1, quick || !typed[0] ? NULL : typed, a->args.join_addr != NULL);
}

const char *cl_app_create(cl_app *a, const char *address, const char *game_id, int series)
{
    static char err[256];
    joinlink l;
    const char *why = joinlink_parse(address ? address : "", &l);
    if (why) {
        snprintf(err, sizeof err, "%s", why);
        return err;
    }
    if (l.room[0])
        return "that is a room's link: Join it, or give just the server's address to create a room";
    return connect_to(a, &l, game_id, series, NULL, false);
}

static bool loopback(const char *host)
{
    return strncmp(host, "127.", 4) == 0 || strcmp(host, "localhost") == 0;
}

enum { LAN_ADDRS_MAX = 8, LAN_ADDRS_MS = 5000 };

int cl_lan_addresses(char out[][INET_ADDRSTRLEN], int max)
{
    /* The lobby asks every frame: the interfaces are read again at most
     * every few seconds (a laptop may change networks meanwhile). */
    static char cache[LAN_ADDRS_MAX][INET_ADDRSTRLEN];
    static int cached = -1;
    static uint64_t read_ms;
    uint64_t now = mr_now_us() / 1000;
    if (cached < 0 || now >= read_ms + LAN_ADDRS_MS) {
        struct ifaddrs *all = NULL;
        cached = 0;
        read_ms = now;
        if (getifaddrs(&all) == 0) {
            for (struct ifaddrs *i = all; i && cached < LAN_ADDRS_MAX; i = i->ifa_next) {
                if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP) ||
                    (i->ifa_flags & IFF_LOOPBACK))
                    continue;
                const struct sockaddr_in *sa = (const struct sockaddr_in *)(const void *)i->ifa_addr;
                if (inet_ntop(AF_INET, &sa->sin_addr, cache[cached], INET_ADDRSTRLEN) &&
                    !loopback(cache[cached]))
                    cached++;
            }
            freeifaddrs(all);
        }
    }
    int n = cached < max ? cached : max;
    memcpy(out, cache, (size_t)n * INET_ADDRSTRLEN);
    return n;
}

bool cl_app_join_link(const cl_app *a, char *buf, size_t cap)
{
    const char *host = a->online.join_host;
    int port = a->online.join_port;
    if (a->mode == CL_MODE_HOST) {
        host =
            a->args.host_bind && strcmp(a->args.host_bind, "0.0.0.0") != 0 ? a->args.host_bind : "127.0.0.1";
        port = a->online.server_port;
    }
    if (!a->backend || !a->backend->room[0] || !host[0] || port <= 0)
        return false;
    /* 127.0.0.1 reaches only this computer: a friend needs its LAN address
     * (the same server, when it listens on every interface). */
    char lan[1][INET_ADDRSTRLEN];
    bool all_interfaces =
        a->mode != CL_MODE_HOST || !a->args.host_bind || !strcmp(a->args.host_bind, "0.0.0.0");
    if (loopback(host) && all_interfaces && cl_lan_addresses(lan, 1) == 1)
        host = lan[0];
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
    a->virtual_clock = false; /* a headless run joined from its screens: the network keeps real time */
    snprintf(a->settings.last_server, sizeof a->settings.last_server, "%s", address);
    a->mode = CL_MODE_WATCH;
    cl_app_set_scene(a, CL_SCENE_WATCH);
    return NULL;
}

#if defined(MR_HAVE_SERVER) && defined(MR_HAVE_CLNET)
/* With a coordinator set, the hosted game gets an invite code (the lobby
 * shows it and why not, if not); without one the lobby says so. */
static void host_invite(cl_app *a, cl_backend *b)
{
    const char *coord = cl_app_coordinator(a);
    if (!coord[0])
        return;
    char lan[4][INET_ADDRSTRLEN];
    uint32_t ip[4];
    int n = 0;
    if (!a->args.host_bind || strcmp(a->args.host_bind, "0.0.0.0") == 0)
        n = cl_lan_addresses(lan, 4);
    else
        snprintf(lan[n++], sizeof lan[0], "%.15s", a->args.host_bind);
    for (int i = 0; i < n; i++) {
        struct in_addr in;
        ip[i] = inet_pton(AF_INET, lan[i], &in) == 1 ? ntohl(in.s_addr) : 0;
    }
    /* A game bound to this computer alone (--host-bind 127.x) cannot be
     * forwarded: the router is not asked (nor is anything sent beyond it). */
    bool local = a->args.host_bind && loopback(a->args.host_bind);
    const char *why = cl_backend_net_invite(b, coord, a->settings.name, ip, n, !local);
    if (why) {
        b->invite_failed = true;
        snprintf(b->invite_coord, sizeof b->invite_coord, "No invite code: %s", why);
        printf("mazerace: no invite code: %s\n", why);
        fflush(stdout);
    }
}
#endif

bool cl_app_invite_link(const cl_app *a, char *buf, size_t cap)
{
    if (a->mode != CL_MODE_HOST || !a->backend || !a->backend->invite[0])
        return false;
    joinlink_format_invite(a->backend->invite, cl_app_coordinator(a), buf, cap);
    return true;
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
    cfg.lan_host = true; /* discovery names our room: a LAN pick joins it */
    if (a->args.host_port >= 0)
        cfg.port = a->args.host_port;
    if (a->args.lan_port)
        cfg.discovery_port = a->args.lan_port;
    else if (a->args.host_port == 0)
        cfg.discovery_port = 0;
    /* The default port lets friends type just our address; if something
     * else holds it (a dedicated server on this machine), any free port
     * works, said on the lobby screen; discovery still finds us, on the
     * next free port of its span (docs/protocol.md, section 9). */
    const char *why = NULL;
    sv_t *sv = sv_create(&cfg, &why);
    a->online.port_taken = 0;
    if (!sv && cfg.port > 0) {
        a->online.port_taken = cfg.port;
        cfg.port = 0;
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
    a->online.server_port = sv_port(sv);
    host_invite(a, b);
    cl_app_start_backend(a, b);
    a->virtual_clock = false; /* a headless run joined from its screens: the network keeps real time */
    a->mode = CL_MODE_HOST;
    a->online.disc_port = sv_discovery_port(sv);
    printf("mazerace: hosting on port %u (LAN discovery port %u)\n", (unsigned)sv_port(sv),
           (unsigned)sv_discovery_port(sv));
    if (a->online.port_taken)
        printf("mazerace: port %d was taken: hosting on port %u instead\n", a->online.port_taken,
               (unsigned)sv_port(sv));
    fflush(stdout);
    return NULL;
#else
    (void)a, (void)game_id, (void)series;
    return "this build has no server";
#endif
}

void cl_app_end_backend(cl_app *a)
{
    cl_race_free(&a->race);
    cl_backend_destroy(a->backend);
    a->backend = NULL;
    cl_app_net_stop(a);
}

void cl_app_net_stop(cl_app *a)
{
    cl_app_inet_stop(a);
    if (!a->online.lan)
        return;
#if defined(MR_HAVE_CLNET)
    cl_disc_destroy(a->online.lan->disc);
#endif
    free(a->online.lan);
    a->online.lan = NULL;
}

void cl_app_discover(cl_app *a)
{
#if defined(MR_HAVE_CLNET)
    if (!a->online.lan) {
        a->online.lan = mr_alloc(1, sizeof *a->online.lan);
        const char *why = NULL;
        a->online.lan->disc = cl_disc_create(a->args.lan_port ? a->args.lan_port : WIRE_DISCOVERY_PORT, &why);
        if (!a->online.lan->disc)
            cl_app_say(a, true, "LAN search unavailable: %s", why ? why : "no socket");
    }
    cl_netui *n = a->online.lan;
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
    for (int i = 0; i < 32 && cl_disc_poll(n->disc, a->now_ms, &info); i++)
        if (cl_lanlist_add(&n->list, &info, a->now_ms)) {
            printf("mazerace: found \"%s\" at %s:%d\n", info.name, info.addr, info.game_port);
            fflush(stdout);
        }
    /* Servers that stopped answering drop off the list. */
    cl_lanlist_expire(&n->list, a->now_ms, 4 * PROBE_MS);
#else
    (void)a;
#endif
}

void cl_race_spec(const pz_params *p, int series, char *buf, size_t cap)
{
    const pz_kind *k = pz_kind_by_id(p->kind);
    if (!k) {
        snprintf(buf, cap, "?");
        return;
    }
    int w = p->w > 0 ? p->w : k->default_w, h = p->h > 0 ? p->h : k->default_h;
    size_t n = (size_t)snprintf(buf, cap, "%s %dx%d, %s", k->title, w, h, pz_difficulty_name(p->diff));
    if (series > 1 && n < cap)
        snprintf(buf + n, cap - n, ", best of %d", series);
}

bool cl_app_found(cl_app *a, int i, cl_found *out)
{
#if defined(MR_HAVE_CLNET)
    int idx[CL_LANLIST_MAX];
    if (!a->online.lan || i < 0 || i >= cl_lanlist_view(&a->online.lan->list, idx))
        return false;
    const cl_server_info *s = &a->online.lan->list.found[idx[i]];
    memset(out, 0, sizeof *out);
    snprintf(out->address, sizeof out->address, "%s:%d", s->addr, s->game_port);
    out->races = s->races;
    out->host_game = s->host_game;
    out->waiting = s->players_waiting;
    if (s->has_room) {
        memcpy(out->room, s->room, sizeof out->room);
        cl_race_spec(&s->params, s->series, out->spec, sizeof out->spec);
        snprintf(out->label, sizeof out->label, "%s's game", s->host_name);
        snprintf(out->sub, sizeof out->sub, "%.90s  -  %.90s", out->spec, out->address);
    } else if (s->host_game) {
        snprintf(out->label, sizeof out->label, "%s", s->name);
        snprintf(out->sub, sizeof out->sub, "not waiting for a player (%s)  -  %s",
                 s->races ? "racing" : "full", out->address);
    } else {
        snprintf(out->label, sizeof out->label, "Server \"%s\"", s->name);
        snprintf(out->sub, sizeof out->sub, "%d waiting, %d racing, %d of %d players  -  %s",
                 s->players_waiting, s->races, s->players, s->max_players, out->address);
    }
    return true;
#else
    (void)a, (void)i, (void)out;
    return false;
#endif
}
