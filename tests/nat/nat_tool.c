/* nat_tool.c: the NAT journeys' programs (tests/nat): a host embedding mr_server with the NAT paths, a
 * joiner, a STUN query. */
#include <enet/enet.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bt_player.h"
#include "cl_net.h"
#include "cl_path.h"
#include "cl_portmap.h"
#include "cl_stun.h"
#include "cl_turn.h"
#include "stun.h"
#include "sv.h"
#include "util.h"

static const char usage[] =
    "usage: nat_tool stun SERVER:PORT [--fd]\n"
    "       nat_tool host [--stun S:P] [--upnp] [--natpmp] [--punch-file FILE] [--turn S:P --turn-user U\n"
    "                     --turn-pass P [--turn-peer IP]] [--play] [--game ID] [--grace-ms N] [--seconds N]\n"
    "       nat_tool join [ADDR:PORT] [--cand KIND=ADDR:PORT]... [--stun S:P] [--punch] [--path-ms N]\n"
    "                     [--connect-only [--pings N]] [--resume-ms N] [--seconds N]\n"
    "       (KIND: direct, mapped, punched, relayed; tried at once, the best that connects kept)\n"
    "Prints key=value lines (docs/nat.md, \"Tests\").\n";

static volatile sig_atomic_t stop;
static void on_signal(int sig)
{
    (void)sig, stop = 1;
}

static uint64_t now_us(void)
{
    return mr_now_us();
}
static uint64_t now_ms(void)
{
    return mr_now_us() / 1000u;
}

static void out(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s=", key);
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    va_end(ap);
}

static int die(const char *what)
{
    out("error", "%s", what);
    return 1;
}

static bool addr_arg(const char *text, stun_addr *a)
{
    if (!stun_addr_parse(text, a)) {
        fprintf(stderr, "nat_tool: '%s' is not IPv4:PORT\n", text ? text : "");
        return false;
    }
    return true;
}

static const char *arg_after(int argc, char **argv, const char *name)
{
    for (int i = 2; i < argc - 1; i++)
        if (strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return NULL;
}

static bool flag(int argc, char **argv, const char *name)
{
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return true;
    return false;
}

static void print_results(const char *who, const bt_player *p)
{
    const bt_result *r;
    int n = bt_player_results(p, &r);
    for (int i = 0; i < n; i++)
        printf("%s_result=slot %d winner %d reason %d times %u,%u moves %u,%u\n", who, r[i].slot,
               r[i].end.winner, r[i].end.reason, r[i].end.time_ms[0], r[i].end.time_ms[1], r[i].end.moves[0],
               r[i].end.moves[1]);
    const bt_counts *c = bt_player_counts(p);
    printf("%s_drops=%llu\n%s_resumed=%llu\n", who, (unsigned long long)c->drops, who,
           (unsigned long long)c->resumed);
    fflush(stdout);
}

static bt_player_cfg player_cfg(const char *name, int mode, const char *game)
{
    bt_player_cfg c;
    memset(&c, 0, sizeof c);
    c.name = name;
    c.mode = mode;
    c.game_id = game;
    c.series = 1;
    c.play = BT_SOLVE;
    c.pace_ms = 60;
    c.bot_seed = 7;
    c.matches = 1;
    c.no_rematch = true;
    return c;
}

/* ---- stun ---- */

struct stun_tap {
    cl_stun_t *s;
};
static bool stun_tap(void *ctx, stun_addr from, const uint8_t *data, size_t len)
{
    return cl_stun_feed(((struct stun_tap *)ctx)->s, from, data, len, now_ms());
}

/* A binding request from the hub's ENet socket through the intercept tap;
 * the hub is serviced meanwhile, as a game loop would. */
static const char *stun_on_hub(cl_hub_t *hub, stun_addr server, stun_addr *mapped, uint32_t *rtt)
{
    ENetHost *host = cl_hub_enet_host(hub);
    const char *err = NULL;
    static char why[200];
    struct stun_tap tap = {cl_stun_create(host->socket, server, now_ms(), 3000, &err)};
    if (!tap.s)
        return err;
    if (!cl_tap_add(host, stun_tap, &tap)) {
        cl_stun_destroy(tap.s);
        return "the ENet host has an intercept of its own";
    }
    int st;
    while ((st = cl_stun_update(tap.s, now_ms())) == CL_STUN_PENDING)
        cl_hub_service(hub, now_ms(), 5);
    cl_tap_remove(host, stun_tap, &tap);
    if (st == CL_STUN_DONE) {
        *mapped = cl_stun_mapped(tap.s);
        *rtt = cl_stun_rtt_ms(tap.s);
        err = NULL;
    } else {
        snprintf(why, sizeof why, "%s", cl_stun_error(tap.s));
        err = why;
    }
    cl_stun_destroy(tap.s);
    return err;
}

static int cmd_stun(int argc, char **argv)
{
    stun_addr server, mapped;
    if (argc < 3 || !addr_arg(argv[2], &server))
        return 2;
    const char *err = NULL;
    cl_hub_t *hub = cl_hub_create(1, 0, &err);
    if (!hub)
        return die(err);
    out("local", "%d", cl_hub_port(hub));
    uint32_t rtt = 0;
    if (flag(argc, argv, "--fd"))
        err = cl_stun_query_fd(cl_hub_enet_host(hub)->socket, server, 3000, &mapped);
    else
        err = stun_on_hub(hub, server, &mapped, &rtt);
    int rc = 0;
    /* ENet binds its socket on the first send when made without an address. */
    out("local_after", "%d", cl_hub_port(hub));
    if (err) {
        rc = die(err);
    } else {
        char a[32];
        stun_addr_text(mapped, a, sizeof a);
        out("mapped", "%s", a);
        out("rtt_ms", "%u", rtt);
    }
    cl_hub_destroy(hub);
    return rc;
}

/* ---- host ---- */

struct host_tap {
    cl_stun_t *stun;
    cl_punch_t *punch;
};

/* The embedded server's tap (sv_set_raw_tap): STUN answers and the
 * joiner's probes; any other STUN-looking datagram is not ENet's either. */
static bool host_tap(void *ctx, uint32_t ip, uint16_t port, const uint8_t *data, size_t len)
{
    struct host_tap *t = ctx;
    stun_addr from = {ip, port, false};
    if (!stun_looks_like(data, len))
        return false;
    if (t->stun && cl_stun_feed(t->stun, from, data, len, now_ms()))
        return true;
    if (t->punch)
        cl_punch_feed(t->punch, from, data, len);
    return true;
}

static int cmd_host(int argc, char **argv)
{
    sv_config cfg;
    sv_config_defaults(&cfg);
    cfg.port = 0;
    cfg.discovery_port = -1;
    cfg.quick_rooms = true;
    cfg.log_level = SV_LOG_WARN;
    cfg.max_clients = 16;
    cfg.countdown_ms = 1000;
    /* The round-trip bench asks LIST_ROOMS back to back. */
    cfg.msg_rate = 100000;
    cfg.msg_burst = 100000;
    const char *grace = arg_after(argc, argv, "--grace-ms");
    if (grace)
        cfg.grace_ms = atoi(grace);
    const char *err = NULL;
    sv_t *sv = sv_create(&cfg, &err);
    if (!sv)
        return die(err);
    int fd = sv_socket_fd(sv);
    uint16_t port = sv_port(sv);
    out("local", "%u", port);
    char a[32];
    const char *opt;
    int rc = 0;
    /* STUN in the loop: the server's tap hands this side's datagrams over. */
    struct host_tap tap = {NULL, NULL};
    sv_set_raw_tap(sv, host_tap, &tap);
    if ((opt = arg_after(argc, argv, "--stun"))) {
        stun_addr server;
        if (!addr_arg(opt, &server))
            return 2;
        if (!(tap.stun = cl_stun_create(fd, server, now_ms(), 3000, &err)))
            return die(err);
    }
    cl_portmap_t *pm = NULL;
    if (flag(argc, argv, "--upnp") || flag(argc, argv, "--natpmp")) {
        cl_portmap_cfg pc = {.port = port, .discover_ms = 1000, .natpmp_ms = 1000};
        pc.no_upnp = !flag(argc, argv, "--upnp");
        pc.no_natpmp = !flag(argc, argv, "--natpmp");
        if (!(pm = cl_portmap_create(&pc, &err)))
            return die(err);
    }
    cl_turn_t *turn = NULL;
    if ((opt = arg_after(argc, argv, "--turn"))) {
        cl_turn_cfg tc = {.username = arg_after(argc, argv, "--turn-user"),
                          .password = arg_after(argc, argv, "--turn-pass"),
                          .local_port = port};
        if (!addr_arg(opt, &tc.server))
            return 2;
        if (!(turn = cl_turn_create(&tc, &err)))
            return die(err);
        stun_addr peer;
        const char *p = arg_after(argc, argv, "--turn-peer");
        if (p) {
            char withport[40];
            snprintf(withport, sizeof withport, "%s:1", p);
            if (!addr_arg(withport, &peer))
                return 2;
            cl_turn_permit(turn, peer.ip);
        }
    }
    const char *punch_file = arg_after(argc, argv, "--punch-file");
    cl_punch_t *punch = NULL;
    bt_player *me = NULL;
    bool pm_told = !pm, turn_told = !turn, stun_told = !tap.stun, heard_told = false, ready = false;
    opt = arg_after(argc, argv, "--seconds");
    uint64_t end = now_ms() + (uint64_t)(opt ? atoi(opt) : 60) * 1000u;
    while (!stop && now_ms() < end) {
        uint64_t now = now_ms();
        sv_service(sv, now, 2);
        if (!pm_told) {
            stun_addr ext;
            int how;
            int st = cl_portmap_state(pm, &ext, &how);
            if (st == CL_PORTMAP_MAPPED) {
                stun_addr_text(ext, a, sizeof a);
                out("upnp", "%s", a);
                out("upnp_via", "%s", cl_portmap_how_name(how));
            } else if (st == CL_PORTMAP_FAILED) {
                char why[256];
                cl_portmap_error(pm, why, sizeof why);
                out("upnp_error", "%s", why);
            }
            pm_told = st != CL_PORTMAP_PENDING;
        }
        if (!turn_told) {
            stun_addr rel;
            int st = cl_turn_state(turn, &rel);
            if (st == CL_TURN_READY) {
                stun_addr_text(rel, a, sizeof a);
                out("relay", "%s", a);
            } else if (st == CL_TURN_FAILED) {
                char why[256];
                cl_turn_error(turn, why, sizeof why);
                out("turn_error", "%s", why);
            }
            turn_told = st != CL_TURN_PENDING;
        }
        if (!stun_told) {
            int st = cl_stun_update(tap.stun, now);
            if (st == CL_STUN_DONE) {
                stun_addr_text(cl_stun_mapped(tap.stun), a, sizeof a);
                out("stun", "%s", a);
            } else if (st == CL_STUN_FAILED) {
                out("stun_error", "%s", cl_stun_error(tap.stun));
            }
            stun_told = st != CL_STUN_PENDING;
        }
        if (!ready && pm_told && turn_told && stun_told) {
            ready = true;
            out("ready", "1");
            if (flag(argc, argv, "--play")) {
                const char *g = arg_after(argc, argv, "--game");
                bt_player_cfg c = player_cfg("host", BT_CREATE, g ? g : "maze:12x12:easy#42");
                char self[32];
                snprintf(self, sizeof self, "127.0.0.1");
                if (!(me = bt_player_create(NULL, &c, self, port, now_us(), &err)))
                    return die(err);
            }
        }
        /* The coordinator's stand-in hands the joiner's public address over in a file. */
        if (punch_file && !punch && access(punch_file, R_OK) == 0) {
            FILE *f = fopen(punch_file, "r");
            char line[64] = "";
            stun_addr peer;
            if (f && fgets(line, sizeof line, f) &&
                (line[strcspn(line, "\n")] = 0, stun_addr_parse(line, &peer))) {
                punch = cl_punch_create(fd, peer, now);
                out("punching", "%s", line);
            }
            if (f)
                fclose(f);
        }
        if (punch)
            cl_punch_update(punch, now);
        if (punch && !heard_told && cl_punch_heard(punch)) {
            heard_told = true;
            out("punch_heard", "1");
        }
        if (me) {
            cl_net_t *n = bt_player_net(me);
            /* The player's own connection: serviced by its poll. */
            (void)n;
            bt_player_step(me, now_us());
            if (bt_player_done(me) || bt_player_failed(me))
                break;
        }
    }
    if (me) {
        if (bt_player_failed(me)) {
            out("host_failed", "%s", bt_player_failed(me));
            rc = 1;
        }
        print_results("host", me);
        /* Let the last messages go out before the server stops. */
        for (uint64_t t = now_ms() + 300; now_ms() < t;) {
            sv_service(sv, now_ms(), 5);
            bt_player_step(me, now_us());
        }
    }
    if (turn) {
        cl_turn_stats ts;
        cl_turn_get_stats(turn, &ts);
        out("relay_stats", "to_peers %llu from_peers %llu peers %d channels %d cpu_us %llu",
            (unsigned long long)ts.to_peers, (unsigned long long)ts.from_peers, ts.peers, ts.channels,
            (unsigned long long)ts.cpu_us);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    out("cpu_us", "%llu",
        (unsigned long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000ull +
            (unsigned long long)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec));
    bt_player_destroy(me);
    sv_set_raw_tap(sv, NULL, NULL);
    cl_stun_destroy(tap.stun);
    cl_punch_destroy(punch);
    cl_turn_destroy(turn);
    cl_portmap_destroy(pm);
    sv_shutdown(sv, 200);
    sv_destroy(sv);
    return rc;
}

/* ---- join ---- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Round trips of LIST_ROOMS requests, one at a time: the application's
 * own round trip over the path (ENet's smoothed one is in whole ms). */
static int pings(cl_hub_t *hub, cl_net_t *n, int count)
{
    uint64_t *us = mr_alloc((size_t)count, sizeof *us);
    int got = 0;
    for (int i = 0; i < count && !stop; i++) {
        uint64_t t0 = now_us(), deadline = t0 + 2000000u;
        if (cl_net_list_rooms(n))
            break;
        cl_net_flush(n);
        bool answered = false;
        while (!answered && now_us() < deadline) {
            cl_hub_service(hub, now_ms(), 1);
            cl_net_event ev;
            while (cl_net_poll(n, now_ms(), &ev))
                answered |= ev.type == CL_EV_ROOM_LIST;
        }
        if (!answered)
            break;
        us[got++] = now_us() - t0;
    }
    if (got) {
        qsort(us, (size_t)got, sizeof *us, cmp_u64);
        out("pings", "%d", got);
        out("rtt_med_us", "%llu", (unsigned long long)us[got / 2]);
        out("rtt_p99_us", "%llu", (unsigned long long)us[(got * 99) / 100]);
    }
    free(us);
    return got == count ? 0 : 1;
}

/* The candidates: --cand KIND=IP:PORT (direct, mapped, punched, relayed),
 * or the one address given (punched with --punch, else direct). */
static bool read_cands(int argc, char **argv, cl_path_cfg *pc)
{
    static const char *const kinds[] = {"direct", "mapped", "punched", "relayed"};
    for (int i = 2; i < argc; i++) {
        const char *c = NULL;
        if (strcmp(argv[i], "--cand") == 0 && i + 1 < argc)
            c = argv[++i];
        else if (i == 2 && argv[i][0] != '-')
            c = argv[i];
        if (!c)
            continue;
        if (pc->n == CL_PATH_MAX)
            return false;
        cl_path_cand *k = &pc->cand[pc->n++];
        k->kind = flag(argc, argv, "--punch") ? CL_PATH_PUNCHED : CL_PATH_DIRECT;
        const char *eq = strchr(c, '=');
        if (eq) {
            k->kind = -1;
            for (int j = 0; j < CL_PATH_KINDS; j++)
                if (strlen(kinds[j]) == (size_t)(eq - c) && strncmp(c, kinds[j], (size_t)(eq - c)) == 0)
                    k->kind = j;
            c = eq + 1;
        }
        if (k->kind < 0 || !addr_arg(c, &k->addr))
            return false;
    }
    return pc->n > 0;
}

static int cmd_join(int argc, char **argv)
{
    cl_path_cfg pc = {.name = "joiner"};
    if (!read_cands(argc, argv, &pc)) {
        fputs(usage, stderr);
        return 2;
    }
    const char *opt = arg_after(argc, argv, "--path-ms");
    pc.timeout_ms = opt ? atoi(opt) : 5000;
    const char *err = NULL;
    cl_hub_t *hub = cl_hub_create(pc.n, 0, &err);
    if (!hub)
        return die(err);
    char a[32];
    if ((opt = arg_after(argc, argv, "--stun"))) {
        stun_addr server, mapped;
        uint32_t rtt;
        if (!addr_arg(opt, &server))
            return 2;
        const char *why = stun_on_hub(hub, server, &mapped, &rtt);
        if (why)
            return die(why);
        stun_addr_text(mapped, a, sizeof a);
        out("mapped", "%s", a);
    }
    out("local", "%d", cl_hub_port(hub));
    /* The path's clock starts when this side has its candidate: from here
     * on a coordinator would pass it over and both sides try. */
    uint64_t t0 = now_us();
    cl_path_t *path = cl_path_create(hub, &pc, t0 / 1000u, &err);
    if (!path)
        return die(err);
    int st;
    while ((st = cl_path_update(path, now_ms())) == CL_PATH_PENDING && !stop)
        cl_hub_service(hub, now_ms(), 1);
    uint64_t took = now_us() - t0;
    if (st != CL_PATH_CONNECTED) {
        out("path_error", "%s", cl_path_report(path));
        cl_path_destroy(path);
        cl_hub_destroy(hub);
        return 1;
    }
    stun_addr_text(cl_path_addr(path), a, sizeof a);
    out("path", "%s", cl_path_kind_name(cl_path_kind(path)));
    out("path_addr", "%s", a);
    out("connect_ms", "%.2f", (double)took / 1000.0);
    out("path_report", "%s", cl_path_report(path));
    cl_net_t *net = cl_path_take(path);
    cl_path_destroy(path);
    int rc = 1;
    if (flag(argc, argv, "--connect-only")) {
        opt = arg_after(argc, argv, "--pings");
        rc = pings(hub, net, opt ? atoi(opt) : 20);
        cl_net_destroy(net);
    } else {
        bt_player_cfg c = player_cfg("joiner", BT_QUICK, NULL);
        c.bot_seed = 11;
        if ((opt = arg_after(argc, argv, "--resume-ms")))
            cl_net_set_resume_window(net, (uint32_t)atoi(opt));
        bt_player *p = bt_player_adopt(net, &c, now_us());
        opt = arg_after(argc, argv, "--seconds");
        uint64_t end = now_ms() + (uint64_t)(opt ? atoi(opt) : 60) * 1000u;
        bool told_race = false, told_moving = false;
        while (now_ms() < end && !stop && !bt_player_done(p) && !bt_player_failed(p)) {
            cl_hub_service(hub, now_ms(), 2);
            bt_player_step(p, now_us());
            if (!told_race && bt_player_racing(p, now_us())) {
                told_race = true;
                out("racing", "1");
            }
            /* Well into the race: the server has taken ten of our moves. */
            if (!told_moving && bt_player_counts(p)->acked >= 10) {
                told_moving = true;
                out("moving", "1");
            }
        }
        if (bt_player_failed(p))
            out("join_failed", "%s", bt_player_failed(p));
        rc = bt_player_done(p) ? 0 : 1;
        out("rtt_ms", "%u", cl_net_rtt_ms(bt_player_net(p)));
        print_results("join", p);
        bt_player_destroy(p);
    }
    cl_hub_flush(hub);
    cl_hub_destroy(hub);
    return rc;
}

int main(int argc, char **argv)
{
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);
    if (argc >= 2 && strcmp(argv[1], "stun") == 0)
        return cmd_stun(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "host") == 0)
        return cmd_host(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "join") == 0)
        return cmd_join(argc, argv);
    fputs(usage, stderr);
    return 2;
}
