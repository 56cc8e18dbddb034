/* bt_fleet.c: many players over shared ENet hosts: play mode (results) and bench mode (acks, CPU, drops). */
#define _GNU_SOURCE /* SO_RCVBUFFORCE */
#include "bt_fleet.h"

#include <enet/enet.h>
#include <sys/socket.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bt_due.h"
#include "bt_measure.h"
#include "bt_watchers.h"
#include "match.h"
#include "util.h"

/* After the bench window, answers still in flight are awaited this long. */
#define DRAIN_US 2000000u

static volatile sig_atomic_t stop_flag;

void bt_fleet_stop(void)
{
    stop_flag = 1;
}

typedef struct fleet {
    const bt_opts *o;
    cl_hub_t **hubs; /* connection i lives in hubs[i / per_socket] */
    int nhubs;
    struct pollfd *fds;  /* the hubs' sockets */
    uint64_t *walked_us; /* when each hub was last serviced */
    bt_player **p;       /* the o->bots players, then the spectators */
    int n;
    int players;         /* o->bots */
    int per_socket;      /* connections per hub */
    int *printed;        /* results printed per player */
    bt_due *due;         /* when each player next moves */
    uint64_t next_sweep; /* every player is looked at now and then (timers, pairing) */
    uint64_t sweep_us;   /* how often: SWEEP_US, or SWEEP_RACE_US in a bench window */
    int sweep_at;        /* the next player the sweep looks at */
    bool failed;         /* a player has failed (set when a step or a join fails it) */
} fleet;

/* All players are looked at this often, for what has no event or due time
 * (resume timers, handing a room code to a partner). */
#define SWEEP_US 10000u
/* In a bench window every player races: moves come from the due heap and
 * answers from the ready list, so the sweep only serves the connections'
 * timers, which count in hundreds of milliseconds. Sweeping a thousand
 * players every 10 ms cost several per cent of the bots' CPU (perf). */
#define SWEEP_RACE_US 100000u
/* The sweep goes in this many slices over the period, one slice a turn
 * when due: ten thousand players looked at in one turn held that turn's
 * answers for a millisecond or two, ten times a second (the bench's p99). */
#define SWEEP_SLICES 64
/* With several hubs, each is serviced at least this often. */
#define HUB_SWEEP_US 10000u

static const char *end_reason(int r)
{
    return match_end_text(r);
}

static void print_result(const bt_player *p, const bt_result *r, int index)
{
    const wire_match_end *e = &r->end;
    const char *verdict = r->slot < 0                   ? "watched"
                          : e->winner == WIRE_SLOT_NONE ? "no winner"
                          : e->winner == r->slot        ? "won"
                                                        : "lost";
    printf("match %s #%d (%s): %s; winner %s (%s); times %u/%u ms; moves %u/%u; %s vs %s; score %u-%u\n",
           bt_player_name(p), index + 1, r->game_id, verdict,
           e->winner == WIRE_SLOT_NONE ? "none" : r->names[e->winner], end_reason(e->reason),
           (unsigned)e->time_ms[0], (unsigned)e->time_ms[1], (unsigned)e->moves[0], (unsigned)e->moves[1],
           r->names[0], r->names[1], e->score[0], e->score[1]);
}

static void print_new_results(fleet *f)
{
    for (int i = 0; i < f->n; i++) {
        const bt_result *r;
        int n = bt_player_results(f->p[i], &r);
        for (; f->printed[i] < n; f->printed[i]++)
            if (!f->o->quiet)
                print_result(f->p[i], &r[f->printed[i]], f->printed[i]);
    }
    fflush(stdout);
}

static bool make_fleet(fleet *f, const bt_opts *o)
{
    memset(f, 0, sizeof *f);
    f->o = o;
    const char *err = NULL;
    /* Spectators come after the players: S per pair, the pair of spectator
     * j being j / S (its creator is player 2 * (j / S)). */
    int watchers = o->player.mode == BT_CREATE && !o->spectator_thread ? o->bots / 2 * o->spectators : 0;
    int total = o->bots + watchers;
    f->players = o->bots;
    /* Auto: one host up to BT_SOCKET_MAX, else equal shares. */
    int per = o->per_socket;
    if (per <= 0) {
        int nh = (total + BT_SOCKET_MAX - 1) / BT_SOCKET_MAX;
        per = (total + nh - 1) / nh;
    }
    f->nhubs = (total + per - 1) / per;
    f->hubs = mr_alloc((size_t)f->nhubs, sizeof *f->hubs);
    f->fds = mr_alloc((size_t)f->nhubs, sizeof *f->fds);
    f->walked_us = mr_alloc((size_t)f->nhubs, sizeof *f->walked_us);
    for (int h = 0; h < f->nhubs; h++) {
        int conns = total - h * per < per ? total - h * per : per;
        /* One ENet peer per player and two per spectator (one to follow
         * WATCH_AT with): ENet looks at every peer slot on each service,
         * so spare slots for players would cost every turn (with 10,000
         * players, a p99 28% higher in one run). Spectators come after
         * players. */
        int first = h * per, watch = first + conns - (first > o->bots ? first : o->bots);
        int peers = conns + (watch > 0 ? watch : 0);
        f->hubs[h] = cl_hub_create_peers(conns, peers > 4095 ? 4095 : peers, o->sockbuf_kib, &err);
        if (!f->hubs[h]) {
            fprintf(stderr, "mazerace-bot: %s\n", err);
            return false;
        }
        ENetSocket s = cl_hub_enet_host(f->hubs[h])->socket;
        /* ENet binds a host made without an address at its first send:
         * bound here first, on the port asked for. */
        ENetAddress at = {.host = ENET_HOST_ANY, .port = (enet_uint16)(o->local_port + h)};
        if (o->local_port && (o->local_port + h > 65535 || enet_socket_bind(s, &at) != 0)) {
            fprintf(stderr, "mazerace-bot: cannot bind local port %d: %s\n", o->local_port + h,
                    o->local_port + h > 65535 ? "past 65535" : strerror(errno));
            return false;
        }
        /* Past net.core.[rw]mem_max where the process may (CAP_NET_ADMIN),
         * as the server does: 10,000 bots' answers come in bursts. */
        int v = o->sockbuf_kib * 1024;
        if (v > 0) {
            setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof v);
            setsockopt(s, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof v);
        }
        f->fds[h] = (struct pollfd){.fd = s, .events = POLLIN};
    }
    f->per_socket = per;
    f->p = mr_alloc((size_t)total, sizeof *f->p);
    f->printed = mr_alloc((size_t)total, sizeof *f->printed);
    f->due = bt_due_create(total);
    uint64_t now = mr_now_us();
    for (int i = 0; i < total; i++) {
        bt_player_cfg c = o->player;
        char name[WIRE_NAME_MAX + 1];
        if (o->bots > 1 || i >= o->bots) {
            /* Keep the suffix inside the name limit. */
            char suffix[16];
            int sl = i < o->bots ? snprintf(suffix, sizeof suffix, "-%d", i + 1)
                                 : snprintf(suffix, sizeof suffix, "-w%d", i - o->bots + 1);
            snprintf(name, sizeof name, "%.*s%s", WIRE_NAME_MAX - sl, o->player.name, suffix);
        } else {
            snprintf(name, sizeof name, "%s", o->player.name);
        }
        c.name = name;
        c.bot_seed = o->player.bot_seed + (uint64_t)i * 0x9E3779B97F4A7C15ull;
        /* Pairs inside the process: the even one creates, the odd one joins
         * the code it got. */
        if (o->player.mode == BT_CREATE && i % 2 == 1 && i < o->bots)
            c.mode = BT_WAIT;
        if (i >= o->bots) {
            c.mode = BT_WATCH;
            c.room = NULL;
        }
        f->p[i] = bt_player_create(f->hubs[i / per], &c, o->host, o->port, now, &err);
        if (!f->p[i]) {
            fprintf(stderr, "mazerace-bot: bot %d: %s\n", i + 1, err);
            return false;
        }
        if (o->player.mode == BT_CREATE && i % 2 == 1 && i < o->bots) { /* the pair is complete */
            bt_player_set_opponent(f->p[i], f->p[i - 1]);
            bt_player_set_opponent(f->p[i - 1], f->p[i]);
        }
        if (i >= o->bots) {
            int creator = 2 * ((i - o->bots) / o->spectators);
            bt_player_set_seats(f->p[i], f->p[creator], f->p[creator + 1]);
        }
        /* The fleet finds a player from its connection by index. */
        cl_net_set_user(bt_player_net(f->p[i]), (void *)(intptr_t)i);
        f->n++;
    }
    return true;
}

static void free_fleet(fleet *f)
{
    /* Leave on purpose, so the server frees the seats now instead of
     * holding them for a grace period. */
    for (int i = 0; i < f->n; i++)
        if (cl_net_room(bt_player_net(f->p[i])))
            cl_net_leave(bt_player_net(f->p[i]));
    for (int h = 0; h < f->nhubs; h++)
        cl_hub_flush(f->hubs[h]);
    for (int i = 0; i < f->n; i++)
        bt_player_destroy(f->p[i]);
    for (int h = 0; h < f->nhubs; h++)
        cl_hub_destroy(f->hubs[h]);
    free(f->hubs);
    free(f->fds);
    free(f->walked_us);
    bt_due_destroy(f->due);
    free(f->p);
    free(f->printed);
}

static void step(fleet *f, int i, uint64_t now)
{
    bt_player_step(f->p[i], now);
    if (bt_player_failed(f->p[i]))
        f->failed = true;
    uint64_t at = bt_player_next_due_us(f->p[i]);
    /* A move due now that the step did not make (at most a few per step)
     * is made next turn, not in a loop here. */
    bt_due_set(f->due, i, at <= now ? now + 1 : at);
}

/* One turn of the loop, shaped like enet_echo's client loop: the players
 * with events, the players with a move due (from the heap, so a thousand
 * idle players cost nothing), a slice of the players (all of them every SWEEP_US), then the host
 * service: send, receive, wait at most 1 ms for the network. */
static void turn(fleet *f)
{
    uint64_t now = mr_now_us();
    cl_net_t *net;
    for (int h = 0; h < f->nhubs; h++)
        while ((net = cl_hub_ready(f->hubs[h])))
            step(f, (int)(intptr_t)cl_net_user(net), now);
    uint64_t at;
    for (int i = bt_due_top(f->due, &at), k = 0; at <= now && k < f->n; i = bt_due_top(f->due, &at), k++)
        step(f, i, now);
    if (now >= f->next_sweep && f->n > 0) {
        f->next_sweep = now + (f->sweep_us ? f->sweep_us : SWEEP_US) / SWEEP_SLICES;
        for (int k = 0, slice = (f->n + SWEEP_SLICES - 1) / SWEEP_SLICES; k < slice; k++) {
            int i = f->sweep_at;
            f->sweep_at = (i + 1) % f->n;
            step(f, i, now);
            /* The joiner of a pair, and the pair's spectators, get the
             * creator's code once it has one. */
            int creator = i >= f->players ? 2 * ((i - f->players) / f->o->spectators)
                          : i % 2 == 1    ? i - 1
                                          : -1;
            if (f->o->player.mode == BT_CREATE && creator >= 0) {
                const char *code = bt_player_room(f->p[creator]);
                if (code && !bt_player_room(f->p[i])) {
                    bt_player_join(f->p[i], code);
                    f->failed = f->failed || bt_player_failed(f->p[i]);
                }
            }
        }
    }
    /* No flush first: the service sends what is queued before it waits,
     * and each flush or service walks every peer slot of the host. */
    if (f->nhubs == 1) {
        cl_hub_service(f->hubs[0], mr_now_us() / 1000u, 1);
        return;
    }
    /* Several hosts: only the hubs with work are walked, as the server
     * walks its hosts (docs/server.md, "Several ENet hosts"): the hubs with
     * packets queued are flushed (those with a datagram waiting send in
     * their service), one poll waits at most 1 ms, and the hubs with a
     * datagram are serviced; a hub not walked for HUB_SWEEP_US is serviced
     * anyway (ENet's resends, pings, time-outs), with every hub not walked
     * for half of that. enet_echo_hosts' client and server loops do the
     * same. */
    bool queued = false;
    for (int h = 0; h < f->nhubs && !queued; h++)
        queued = cl_hub_queued(f->hubs[h]);
    int got = queued ? poll(f->fds, (nfds_t)f->nhubs, 0) : 0;
    for (int h = 0; h < f->nhubs && queued; h++)
        if (got <= 0 || !f->fds[h].revents)
            cl_hub_flush(f->hubs[h]);
    if (got <= 0)
        got = poll(f->fds, (nfds_t)f->nhubs, 1);
    now = mr_now_us();
    bool sweep = false;
    for (int h = 0; h < f->nhubs && !sweep; h++)
        sweep = now - f->walked_us[h] >= HUB_SWEEP_US;
    for (int h = 0; h < f->nhubs; h++)
        if ((got > 0 && f->fds[h].revents) || (sweep && now - f->walked_us[h] >= HUB_SWEEP_US / 2)) {
            f->walked_us[h] = now;
            cl_hub_service(f->hubs[h], now / 1000u, 0);
        }
}

static int first_failure(const fleet *f)
{
    for (int i = 0; i < f->n; i++)
        if (bt_player_failed(f->p[i]))
            return i;
    return -1;
}

static void report_failure(const fleet *f, int i)
{
    fprintf(stderr, "mazerace-bot: %s: %s\n", bt_player_name(f->p[i]), bt_player_failed(f->p[i]));
}

/* Reports the failures not reported yet (each once); returns how many
 * players have failed in all. */
static int report_new_failures(const fleet *f, bool *reported)
{
    int n = 0;
    for (int i = 0; i < f->n; i++) {
        if (!bt_player_failed(f->p[i]))
            continue;
        n++;
        if (!reported[i]) {
            report_failure(f, i);
            reported[i] = true;
        }
    }
    return n;
}

/* Every player's samples of one kind in one array (the caller frees it),
 * from players [from, to). */
static uint32_t *gather(const fleet *f, int from, int to, const uint32_t *(*get)(const bt_player *, size_t *),
                        size_t *n)
{
    size_t total = 0, m;
    for (int i = from; i < to; i++) {
        get(f->p[i], &m);
        total += m;
    }
    uint32_t *all = mr_alloc(total ? total : 1, sizeof *all);
    size_t k = 0;
    for (int i = from; i < to; i++) {
        const uint32_t *s = get(f->p[i], &m);
        if (m)
            memcpy(all + k, s, m * sizeof *s);
        k += m;
    }
    *n = total;
    return all;
}

/* ---- play mode ---- */

/* How long the players waited for an opponent (docs/bot.md, "Output"). */
static void print_pairing(const fleet *f)
{
    uint32_t *ms10 = mr_alloc((size_t)f->players, sizeof *ms10);
    size_t n = 0;
    uint64_t first = UINT64_MAX, last = 0;
    for (int i = 0; i < f->players; i++) {
        uint64_t us = bt_player_pair_us(f->p[i]), at = bt_player_asked_us(f->p[i]);
        if (us)
            ms10[n++] = (uint32_t)(us / 100 < UINT32_MAX ? us / 100 : UINT32_MAX);
        if (at && at < first)
            first = at;
        if (at > last)
            last = at;
    }
    uint32_t p50 = bt_quantile(ms10, n, 0.5, 0), p99 = bt_quantile(ms10, n, 0.99, 1),
             mx = bt_quantile(ms10, n, 1.0, 1);
    printf("pairing: %zu of %d bots paired; time to an opponent p50 %.1f ms p99 %.1f ms max %.1f ms; asked "
           "within %.1f ms\n",
           n, f->players, p50 / 10.0, p99 / 10.0, mx / 10.0,
           last >= first ? (double)(last - first) / 1000.0 : 0.0);
    free(ms10);
}

static int play(fleet *f)
{
    const bt_opts *o = f->o;
    uint64_t t0 = mr_now_us(), deadline = t0 + (uint64_t)(o->timeout_s * 1e6);
    int done = 0, failed = 0;
    bool *reported = mr_alloc((size_t)f->n, sizeof *reported);
    for (int i = 0; i < f->n; i++)
        bt_player_record(f->p[i], true);
    /* One bot's failure is reported and the others play on: the run ends
     * when every bot has finished or failed (or at the time-out). */
    while (!stop_flag && mr_now_us() < deadline) {
        turn(f);
        print_new_results(f);
        failed = report_new_failures(f, reported);
        done = 0;
        for (int i = 0; i < f->n; i++)
            done += !bt_player_failed(f->p[i]) && bt_player_done(f->p[i]);
        if (done + failed == f->n)
            break;
    }
    free(reported);
    double wall = (double)(mr_now_us() - t0) / 1e6;
    uint64_t sent = 0, acked = 0, rejected = 0, progress = 0, resumed = 0, wins = 0, games = 0;
    for (int i = 0; i < f->players; i++) {
        const bt_counts *c = bt_player_counts(f->p[i]);
        sent += c->sent, acked += c->acked, rejected += c->rejected;
        progress += c->progress, resumed += c->resumed;
        const bt_result *r;
        int n = bt_player_results(f->p[i], &r);
        games += (uint64_t)n;
        for (int k = 0; k < n; k++)
            wins += r[k].end.winner == r[k].slot;
    }
    size_t ns;
    uint32_t *all = gather(f, 0, f->n, bt_player_samples, &ns);
    uint32_t p50 = bt_quantile(all, ns, 0.5, 0), p99 = bt_quantile(all, ns, 0.99, 1);
    free(all);
    uint64_t watched = 0;
    for (int i = f->players; i < f->n; i++) {
        const bt_result *r;
        watched += (uint64_t)bt_player_results(f->p[i], &r);
    }
    printf("summary: %d bots, %d done, %d failed, %llu games seen (%llu won), %.1f s; moves sent %llu, acked "
           "%llu, rejected %llu; opponent progress events %llu; resumed %llu; ack round trip p50 %.2f ms p99 "
           "%.2f ms\n",
           f->n, done, failed, (unsigned long long)games, (unsigned long long)wins, wall,
           (unsigned long long)sent, (unsigned long long)acked, (unsigned long long)rejected,
           (unsigned long long)progress, (unsigned long long)resumed, p50 / 1000.0, p99 / 1000.0);
    if (f->players > 0 && f->o->player.mode != BT_WATCH)
        print_pairing(f);
    if (f->n > f->players)
        printf(
            "spectators: %d (at server port %d), %llu games watched to the end, every move of both players "
            "seen (checked against each result)\n",
            f->n - f->players, cl_net_port(bt_player_net(f->p[f->players])), (unsigned long long)watched);
    if (failed > 0)
        return 1;
    if (done < f->n) {
        fprintf(stderr, "mazerace-bot: %s after %.1f s: %d of %d bots finished their matches\n",
                stop_flag ? "stopped" : "timed out", wall, done, f->n);
        return 1;
    }
    return 0;
}

/* ---- bench mode ---- */

typedef struct snap {
    uint64_t t_us;
    double srv_cpu, cli_cpu;
    long srv_drops, cli_drops;
    uint64_t answered, sent;
    bt_cpu_ticks machine;
    bool machine_ok;
} snap;

static void take_snap(const fleet *f, snap *s)
{
    s->t_us = mr_now_us();
    s->srv_cpu = f->o->server_pid > 0 ? bt_proc_cpu_s(f->o->server_pid) : -1;
    s->cli_cpu = bt_self_cpu_s();
    s->srv_drops = bt_udp_drops(f->o->port);
    s->cli_drops = 0;
    for (int h = 0; h < f->nhubs && s->cli_drops >= 0; h++) {
        long d = bt_udp_drops(cl_hub_port(f->hubs[h]));
        s->cli_drops = d < 0 ? -1 : s->cli_drops + d;
    }
    s->machine_ok = bt_machine_ticks(&s->machine);
    s->answered = s->sent = 0;
    for (int i = 0; i < f->n; i++) {
        const bt_counts *c = bt_player_counts(f->p[i]);
        s->answered += c->acked + c->rejected;
        s->sent += c->sent;
    }
}

static int bench(fleet *f)
{
    const bt_opts *o = f->o;
    uint64_t t_launch = mr_now_us(), deadline = t_launch + (uint64_t)(o->timeout_s * 1e6);
    /* Setup: connect, pair, count down; the window opens when every player
     * is racing. */
    int racing = 0;
    while (!stop_flag && mr_now_us() < deadline && racing < f->n) {
        turn(f);
        if (first_failure(f) >= 0)
            break;
        racing = 0;
        for (int i = 0; i < f->n; i++)
            racing += bt_player_racing(f->p[i], mr_now_us());
    }
    int failed = first_failure(f);
    if (failed >= 0 || racing < f->n) {
        if (failed >= 0)
            report_failure(f, failed);
        fprintf(stderr, "mazerace-bot: bench setup: %d of %d players racing after %.1f s\n", racing, f->n,
                (double)(mr_now_us() - t_launch) / 1e6);
        return 1;
    }
    /* Spectators apart: on their own thread and socket, watching each
     * pair's room (they come mid-race and catch up); the window opens once
     * they all watch. */
    bt_watchers *apart = NULL;
    int napart = 0;
    if (o->spectator_thread && o->spectators > 0) {
        int rooms = f->players / 2;
        const char **codes = mr_alloc((size_t)(rooms ? rooms : 1), sizeof *codes);
        for (int r = 0; r < rooms; r++)
            codes[r] = bt_player_room(f->p[2 * r]);
        const char *err = NULL;
        apart = bt_watchers_start(o->host, o->port, codes, rooms, o->spectators, o->sockbuf_kib, &err);
        free(codes);
        if (!apart) {
            fprintf(stderr, "mazerace-bot: spectators: %s\n", err ? err : "cannot start");
            return 1;
        }
        napart = rooms * o->spectators;
        while (!stop_flag && mr_now_us() < deadline && bt_watchers_watching(apart) < napart)
            turn(f);
        if (bt_watchers_watching(apart) < napart) {
            char why[256] = "";
            bt_watchers_stop(apart, why, sizeof why);
            fprintf(stderr, "mazerace-bot: bench setup: spectators not all watching %s\n", why);
            return 1;
        }
    }
    double setup_s = (double)(mr_now_us() - t_launch) / 1e6;
    for (int i = 0; i < f->n; i++)
        bt_player_record(f->p[i], true);
    f->sweep_us = SWEEP_RACE_US;
    snap a, b;
    take_snap(f, &a);
    uint64_t t_end = a.t_us + (uint64_t)(o->bench_s * 1e6);
    if (t_end > deadline)
        t_end = deadline;
    /* A failure is noted where it happens (step), not looked for: a scan
     * of every player each SWEEP_US held ten thousand players' turn. */
    while (!stop_flag && mr_now_us() < t_end && !f->failed)
        turn(f);
    take_snap(f, &b);
    int apart_watching = apart ? bt_watchers_watching(apart) : 0;
    int apart_port = apart ? bt_watchers_port(apart) : 0;
    for (int i = 0; i < f->n; i++)
        bt_player_pause(f->p[i]);
    f->sweep_us = SWEEP_US;
    uint64_t drain_end = mr_now_us() + DRAIN_US;
    uint64_t out = 1;
    while (out && mr_now_us() < drain_end && first_failure(f) < 0) {
        turn(f);
        out = 0;
        for (int i = 0; i < f->n; i++)
            out += bt_player_outstanding(f->p[i]);
    }
    failed = first_failure(f);
    char apart_why[256] = "";
    int apart_failed = bt_watchers_stop(apart, apart_why, sizeof apart_why);

    uint64_t sent = 0, answered = 0, rejected = 0;
    for (int i = 0; i < f->n; i++) {
        const bt_counts *c = bt_player_counts(f->p[i]);
        sent += c->sent, answered += c->acked + c->rejected, rejected += c->rejected;
    }
    /* Samples are in microseconds already. */
    size_t ns, ng;
    uint32_t *all = gather(f, 0, f->players, bt_player_samples, &ns);
    double p50 = bt_quantile(all, ns, 0.5, 0), p90 = bt_quantile(all, ns, 0.9, 1),
           p99 = bt_quantile(all, ns, 0.99, 1), mx = ns ? all[ns - 1] : 0;
    free(all);
    all = gather(f, 0, f->players, bt_player_ghost_samples, &ng);
    double g50 = bt_quantile(all, ng, 0.5, 0), g99 = bt_quantile(all, ng, 0.99, 1);
    free(all);
    size_t nw;
    all = gather(f, f->players, f->n, bt_player_ghost_samples, &nw);
    double w50 = bt_quantile(all, nw, 0.5, 0), w99 = bt_quantile(all, nw, 0.99, 1);
    free(all);

    double win = (double)(b.t_us - a.t_us) / 1e6;
    uint64_t rt = b.answered - a.answered;
    double srv_cpu = a.srv_cpu >= 0 && b.srv_cpu >= 0 ? b.srv_cpu - a.srv_cpu : -1;
    double cli_cpu = b.cli_cpu - a.cli_cpu;
    long sdrop = a.srv_drops >= 0 && b.srv_drops >= 0 ? b.srv_drops - a.srv_drops : -1;
    long cdrop = a.cli_drops >= 0 && b.cli_drops >= 0 ? b.cli_drops - a.cli_drops : -1;
    double steal = a.machine_ok && b.machine_ok ? bt_steal_pct(&a.machine, &b.machine) : -1;
    double rate = 1000.0 / o->player.pace_ms;
    printf("bench k=%d (%d matches, %d spectators) at %g moves/s each: setup %.2f s, window %.2f s, moves "
           "answered %llu in window (%llu sent, %llu answered, %llu rejected in all, %llu unanswered)\n",
           f->players, f->players / 2, f->n - f->players, rate, setup_s, win, (unsigned long long)rt,
           (unsigned long long)sent, (unsigned long long)answered, (unsigned long long)rejected,
           (unsigned long long)(sent - answered));
    printf("  %.0f moves/s validated = %.0f msgs/s (both directions)\n", rt / win, 2 * rt / win);
    printf("  ack round trip us: p50 %.1f  p90 %.1f  p99 %.1f  max %.1f  (%zu samples)\n", p50, p90, p99, mx,
           ns);
    printf("  ghost delay us (opponent sends a move -> its PROGRESS reaches us): p50 %.1f  p99 %.1f  (%zu "
           "samples)\n",
           g50, g99, ng);
    if (apart)
        printf("  spectators: %d on a thread and socket of their own (at server port %d), %d watching at the "
               "window's end, %d failed\n",
               napart, apart_port, apart_watching, apart_failed);
    if (f->n > f->players)
        printf(
            "  spectators: %d in the players' loop (at server port %d); spectator lag us (a player sends a "
            "move -> its PROGRESS reaches a spectator): p50 %.1f  p99 %.1f  (%zu samples)\n",
            f->n - f->players, cl_net_port(bt_player_net(f->p[f->players])), w50, w99, nw);
    if (srv_cpu >= 0)
        printf("  server process CPU %.3f s in window (%.1f%% of a core, %.2f us/move); bots %.1f%%\n",
               srv_cpu, 100 * srv_cpu / win, rt ? srv_cpu * 1e6 / (double)rt : 0, 100 * cli_cpu / win);
    else
        printf("  server CPU unknown (no --server-pid); bots %.1f%%\n", 100 * cli_cpu / win);
    printf("  kernel UDP drops (socket buffer full): server %ld, bots %ld\n", sdrop, cdrop);
    if (steal >= 0)
        printf("  CPU steal (hypervisor) in window: %.1f%% of the machine's CPU time\n", steal);
    printf("RESULT net rate%g_k%d rt=%llu rt_per_s=%.0f msgs_per_s=%.0f p50_us=%.1f p90_us=%.1f p99_us=%.1f "
           "max_us=%.1f srv_cpu_pct=%.1f srv_us_per_echo=%.2f cli_cpu_pct=%.1f srv_drops=%ld cli_drops=%ld "
           "sent=%llu answered=%llu rejected=%llu steal_pct=%.1f ghost_p50_us=%.1f ghost_p99_us=%.1f "
           "spectators=%d spec_p50_us=%.1f spec_p99_us=%.1f\n",
           rate, f->players, (unsigned long long)rt, rt / win, 2 * rt / win, p50, p90, p99, mx,
           srv_cpu >= 0 ? 100 * srv_cpu / win : -1, srv_cpu >= 0 && rt ? srv_cpu * 1e6 / (double)rt : -1,
           100 * cli_cpu / win, sdrop, cdrop, (unsigned long long)sent, (unsigned long long)answered,
           (unsigned long long)rejected, steal, g50, g99, f->n - f->players + napart, w50, w99);
    fflush(stdout);
    if (failed >= 0) {
        report_failure(f, failed);
        return 1;
    }
    if (apart_failed) {
        fprintf(stderr, "mazerace-bot: %d spectators failed: %s\n", apart_failed, apart_why);
        return 1;
    }
    if (sent != answered) {
        fprintf(stderr, "mazerace-bot: %llu moves were never answered\n",
                (unsigned long long)(sent - answered));
        return 1;
    }
    return 0;
}

int bt_fleet_run(const bt_opts *o)
{
    fleet f;
    if (!make_fleet(&f, o)) {
        free_fleet(&f);
        return 1;
    }
    int rc = o->bench_s > 0 ? bench(&f) : play(&f);
    free_fleet(&f);
    return rc;
}
