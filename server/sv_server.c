/* sv_server.c: the server's lifetime, ENet host and socket setup, the service loop and peer bookkeeping. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "secrand.h"
#include "st_writer.h"
#include "sv_addrs.h"
#include "sv_conn.h"
#include "sv_drain.h"
#include "sv_game.h"
#include "sv_gen.h"
#include "sv_gendone.h"
#include "sv_genq.h"
#include "sv_hold.h"
#include "sv_hosts.h"
#include "sv_idle.h"
#include "sv_internal.h"
#include "sv_lan.h"
#include "sv_limit.h"
#include "sv_link.h"
#include "sv_log.h"
#include "sv_loglimit.h"
#include "sv_opts.h"
#include "sv_play.h"
#include "sv_query.h"
#include "sv_quick.h"
#include "sv_quickmatch.h"
#include "sv_record.h"
#include "sv_rooms.h"
#include "sv_send.h"
#include "sv_shake.h"
#include "sv_spec.h"
#include "sv_spechost.h"
#include "sv_specq.h"
#include "util.h"

#define SV_HOUSEKEEPING_MS 1000
#define SV_SHUTDOWN_MS 1000
#define SV_CLOSING_MS 3000

static int enet_users; /* enet_initialize is process-wide */

static uint64_t now_ms_clock(void)
{
    return mr_now_us() / 1000u;
}

/* ---- ENet events ---- */

static void client_gone(sv_t *sv, sv_client *c)
{
    if (c->state == SV_CL_FREE)
        return;
    sv_game_disconnected(sv, c);
    sv->st.disconnects++;
    sv->st.peers_now--;
    if (c->welcomed)
        sv->active--;
    sv_conn_release(sv, c);
    sv_logx(&sv->log, SV_LOG_INFO, "disconnected", SV_CLIENT_FIELDS(c, NULL, NULL),
            "client #%u %s (%s) disconnected (%d peers)", c->id, c->addr, c->name[0] ? c->name : "-",
            sv->st.peers_now);
    sv_hold_discard(sv, c);
    sv_specq_discard(sv, c);
    c->state = SV_CL_FREE;
    if (c->peer)
        c->peer->data = NULL;
    c->peer = NULL;
    c->sph_gen = 0;
}

static void on_disconnect(sv_t *sv, ENetPeer *peer)
{
    sv_client *c = peer->data;
    if (c)
        client_gone(sv, c);
}

static void client_data(sv_t *sv, sv_client *c, const uint8_t *data, size_t len)
{
    sv->st.packets_in++;
    sv->st.bytes_in += len;
    if (!c || c->state == SV_CL_FREE || c->state == SV_CL_CLOSING)
        return;
    if (!sv_bucket_take(&c->bucket, sv->now_ms, sv->cfg.msg_rate, sv->cfg.msg_burst)) {
        sv_game_bad_message(sv, c, WIRE_ERR_RATE, "too many messages: slow down");
        return;
    }
    if (!data || len > WIRE_MSG_MAX) {
        sv_game_bad_message(sv, c, WIRE_ERR_BAD_MESSAGE, "oversized message");
        return;
    }
    sv_game_receive(sv, c, data, len);
}

static void dispatch(sv_t *sv, int h, ENetEvent *ev)
{
    switch (ev->type) {
    case ENET_EVENT_TYPE_CONNECT:
        sv_conn_peer(sv, h, ev->peer);
        break;
    case ENET_EVENT_TYPE_DISCONNECT:
        on_disconnect(sv, ev->peer);
        break;
    case ENET_EVENT_TYPE_RECEIVE:
        client_data(sv, ev->peer->data, ev->packet->data, ev->packet->dataLength);
        enet_packet_destroy(ev->packet);
        break;
    default:
        break;
    }
}

/* The spectator host's events (sv_spechost.c, through sv_link.c's
 * queues), for the clients of its range: what dispatch does for a game
 * host's. */
static void on_sph_event(void *ctx, const sv_sph_event *ev)
{
    sv_t *sv = ctx;
    if (ev->slot < 0 || ev->slot >= sv->nclients - sv->ngame)
        return;
    sv_client *c = &sv->clients[sv->ngame + ev->slot];
    switch (ev->type) {
    case SV_SPH_CONNECT:
        if (c->state != SV_CL_FREE) /* cannot happen: its disconnect came first */
            client_gone(sv, c);
        if (sv->shutting) {
            sv_sph_drop(sv->sph, ev->slot, ev->gen);
            return;
        }
        c->peer = NULL;
        c->sph_gen = ev->gen;
        sv_conn_open(sv, c, ev->host, ev->port);
        break;
    case SV_SPH_RECEIVE:
        if (c->state == SV_CL_FREE || c->sph_gen != ev->gen)
            return; /* dropped by us since */
        client_data(sv, c, ev->oversized ? NULL : ev->data, ev->len);
        break;
    case SV_SPH_DISCONNECT:
        if (c->state == SV_CL_FREE || c->sph_gen != ev->gen)
            return;
        client_gone(sv, c);
        break;
    default:
        break;
    }
}

/* ---- housekeeping ---- */

static void run_timers(sv_t *sv)
{
    /* Bounded by the number of rooms: a room whose deadline does not move
     * after match_update is not revisited in this call. */
    int n = sv_rooms_count(sv->rooms);
    sv_room *room;
    /* A deadline fires once now has passed it (now > deadline): the clock
     * is in whole milliseconds, so "now == deadline" may still be up to a
     * millisecond short of it, and a grace period must never end early. */
    for (int i = 0; i <= n && sv->now_ms > 0 && (room = sv_rooms_due(sv->rooms, sv->now_ms - 1)); i++) {
        match_update(room->m, sv->now_ms);
        sv_play_flush_room(sv, room);
        if (room->m && room->deadline < sv->now_ms)
            sv_rooms_set_deadline(sv->rooms, room, sv->now_ms);
    }
}

/* Sends one unreliable disconnect and forgets the peer at once (ENet
 * reports no DISCONNECT event for it). */
static void drop_now(sv_t *sv, sv_client *c)
{
    if (c->state == SV_CL_FREE || !sv_link_up(c))
        return;
    sv_game_disconnected(sv, c);
    sv_hold_discard(sv, c);
    sv_specq_discard(sv, c);
    sv_link_drop_now(sv, c);
    c->state = SV_CL_FREE;
    sv->st.peers_now--;
    sv->st.disconnects++;
    if (c->welcomed)
        sv->active--;
    sv_conn_release(sv, c);
}

static void housekeeping(sv_t *sv)
{
    if (sv->now_ms < sv->next_housekeeping_ms)
        return;
    /* One pass over the clients per period, never per packet. */
    int period =
        sv->cfg.hello_timeout_ms / 2 < SV_HOUSEKEEPING_MS ? sv->cfg.hello_timeout_ms / 2 : SV_HOUSEKEEPING_MS;
    sv->next_housekeeping_ms = sv->now_ms + (uint64_t)(period > 0 ? period : 1);
    sv_record_poll(sv); /* database trouble is logged within a second, not at the next game's end */
    for (int i = 0; i < sv->nclients; i++) {
        sv_client *c = &sv->clients[i];
        /* A closing peer that keeps its connection open (a flooder that
         * ignores the disconnect) is dropped without waiting any longer. */
        if (c->state == SV_CL_CLOSING && sv->now_ms - c->closing_ms > SV_CLOSING_MS) {
            sv_loge(&sv->log, SV_LOG_INFO, "closing_timeout", NULL, c->name, NULL,
                    "client #%u %s: did not close in time, dropped", c->id, c->addr);
            drop_now(sv, c);
            continue;
        }
        if (c->state == SV_CL_HELLO && sv->now_ms - c->connected_ms > (uint64_t)sv->cfg.hello_timeout_ms) {
            sv_send_error(sv, c, WIRE_REFUSED, WIRE_ERR_HANDSHAKE, "no HELLO in time");
            sv_game_close_client(sv, c, "no HELLO in time");
        }
    }
}

/* ---- socket errors ---- */

/* enet_host_service returned -1: a send or a receive on the game socket
 * failed (ENet stops its walk over the peers at the first failed send).
 * False when the socket itself is gone (the server must stop), true when
 * it was one peer's send (or a passing error) and the server goes on. */
static bool socket_error(sv_t *sv, ENetHost *host, int err)
{
    if (err == EBADF || err == ENOTSOCK || err == EFAULT) {
        sv_loge(&sv->log, SV_LOG_ERROR, "socket_error", NULL, NULL, strerror(err),
                "game socket failed: %s: stopping", strerror(err));
        return false;
    }
    sv->st.socket_errors++;
    sv_logf_limited(&sv->log, &sv->lim_socket, sv->now_ms, SV_LOG_WARN, "send_failed",
                    "send or receive failed on the game socket: %s (%llu so far); carrying on", strerror(err),
                    (unsigned long long)sv->st.socket_errors);
    /* The peers after the failing one in ENet's walk still have packets
     * queued: send them now rather than a step later. The failed peer's
     * reliable packets wait for their resend time, so this walk gets past
     * it (and a failure here is only counted by ENet). */
    enet_host_flush(host);
    return true;
}

/* The clock moves on while the loop waits: the time since t0_us is added
 * to now before the events that came are handled (a drop is stamped with
 * the time it was seen, so its grace never ends early). Whole ticks of our
 * clock, not a rounded duration: with sv_run's clock (the same one) the
 * result is exact, so no deadline fires a millisecond early. The wait is
 * also counted in the step's waited_us (sv_idle.c: is traffic sparse?),
 * which leaves out the handling of what came. */
static void clock_waited(sv_t *sv, uint64_t t0_us)
{
    uint64_t t1 = mr_now_us();
    sv->now_ms += t1 / 1000u - t0_us / 1000u;
    sv->waited_us += t1 - t0_us;
}

/* Datagrams the game hosts read since the last call. */
static int datagrams_read(sv_t *sv)
{
    uint64_t in = 0, out;
    sv_hosts_counts(sv, &in, &out);
    uint64_t d = in - sv->dgrams_seen;
    sv->dgrams_seen = in;
    return d > INT32_MAX ? INT32_MAX : (int)d;
}

/* One enet_host_service of game host h (waiting up to timeout_ms on its
 * socket) and its events; -1 when its socket is gone. */
static int service_host(sv_t *sv, int h, int timeout_ms)
{
    ENetHost *host = sv->hosts[h];
    ENetEvent ev;
    sv->host_walks[h]++;
    uint64_t t0 = mr_now_us();
    errno = 0;
    int r = enet_host_service(host, &ev, (enet_uint32)timeout_ms);
    int service_errno = errno;
    if (timeout_ms > 0)
        clock_waited(sv, t0);
    if (r < 0) {
        if (!socket_error(sv, host, service_errno))
            return -1;
        r = enet_host_check_events(host, &ev); /* what was received before the failure */
    }
    int handled = 0;
    for (; r > 0; r = enet_host_check_events(host, &ev)) {
        dispatch(sv, h, &ev);
        handled++;
    }
    return handled;
}

/* Several hosts: only the hosts that need it are walked (ENet walks every
 * peer slot of a host on each service and flush, so a busy step costs the
 * slots of the hosts its traffic is on, not every slot of the port;
 * docs/server.md, "Several ENet hosts"). The hosts the last step queued
 * packets on are flushed, but for those with a datagram waiting, whose
 * service sends first anyway; one poll over every socket then waits (up
 * to timeout_ms, and no later than the next sweep); the hosts with a
 * datagram are serviced, and once a host has gone SV_HOST_SWEEP_MS
 * without a walk (ENet's resends, pings and time-outs run in its walk),
 * so is every host not walked for half that: quiet hosts share one wake. */
static int service_hosts(sv_t *sv, int timeout_ms)
{
    bool ready[SV_MAX_HOSTS];
    bool waiting = sv->hosts_dirty && sv_hosts_wait(sv, 0, ready) > 0;
    sv_hosts_flush_queued(sv, waiting ? ready : NULL);
    uint64_t oldest = UINT64_MAX;
    for (int h = 0; h < sv->nhosts; h++)
        if (sv->host_walked_ms[h] < oldest)
            oldest = sv->host_walked_ms[h];
    if (!waiting) {
        uint64_t due = oldest + SV_HOST_SWEEP_MS;
        int wait = due <= sv->now_ms ? 0 : timeout_ms;
        if (wait > 0 && due - sv->now_ms < (uint64_t)wait)
            wait = (int)(due - sv->now_ms);
        uint64_t t0 = mr_now_us();
        sv_hosts_wait(sv, wait, ready);
        if (wait > 0)
            clock_waited(sv, t0);
    }
    bool sweep = sv->now_ms - oldest >= SV_HOST_SWEEP_MS;
    int handled = 0;
    for (int h = 0; h < sv->nhosts; h++) {
        if (!ready[h] && !(sweep && sv->now_ms - sv->host_walked_ms[h] >= SV_HOST_SWEEP_MS / 2))
            continue;
        sv->host_walked_ms[h] = sv->now_ms;
        int r = service_host(sv, h, 0);
        if (r < 0)
            return -1;
        handled += r;
    }
    return handled;
}

/* ---- public API ---- */

static void shutdown_step(sv_t *sv);

static void print_stat_line(sv_t *sv)
{
    sv_print_stats(sv, stdout);
    fflush(stdout);
    sv->st.max_step_us = 0; /* each print covers the time since the last */
}

int sv_service(sv_t *sv, uint64_t now_ms, int timeout_ms)
{
    if (sv->done)
        return 0;
    /* The embedder's clock may have any origin (SDL ticks start at 0): the
     * first call adopts it, later calls only move it forward. */
    if (!sv->clock_known) {
        sv->clock_known = true;
        sv->now_ms = now_ms;
        sv->next_housekeeping_ms = now_ms;
    } else if (now_ms > sv->now_ms) {
        sv->now_ms = now_ms;
    }
    if (timeout_ms < 0)
        timeout_ms = 0;
    if (sv_stop_requested(sv) && timeout_ms > 5)
        timeout_ms = 5; /* shutting down: wait for acknowledgements, do not spin */
    /* Up to the next deadline; ENet's short wait while anything may come
     * from another thread or a big host is busy, else the loop's own
     * wait over every socket it reads (sv_idle.c). */
    bool own_wait = false;
    timeout_ms = sv_idle_wait(sv, timeout_ms, &own_wait);
    bool no_wait = timeout_ms == 0; /* the caller polls (or a deadline is due) */
    sv->waited_us = 0;
    if (own_wait) {
        uint64_t t0 = mr_now_us();
        sv_idle_sleep(sv, timeout_ms);
        clock_waited(sv, t0);
        timeout_ms = 0;
    }
    /* One enet_host_service per step, as a plain ENet server does: every
     * call walks all peer slots, so extra calls would cost CPU at load.
     * ENet waits on its own socket only; discovery probes are read once
     * per step, which is soon enough for a LAN scan. The clock moves on
     * while ENet waits (clock_waited). */
    int handled = sv->nhosts == 1 ? service_host(sv, 0, timeout_ms) : service_hosts(sv, timeout_ms);
    if (handled < 0)
        return -1;
    uint64_t work0 = mr_now_us();
    /* With several hosts an acknowledgement counts as traffic too: a step
     * of acknowledgements alone would otherwise take the sparse path
     * (sv_idle.c), whose walk of every slot of every host costs more than
     * the step (10,000 players on 16 hosts: 6% of the CPU). One host keeps
     * the rule by events: its walk is ENet's own, and a lone race then
     * sleeps until ENet's next need instead of waking every 10 ms. */
    int read = sv->nhosts > 1 ? datagrams_read(sv) : 0;
    handled += sv->sph ? sv_sph_poll(sv->sph, on_sph_event, sv) : 0;
    sv_gendone_poll(sv);
    sv_query_poll(sv);
    sv_shake_expire(sv);
    handled += sv_lan_poll(sv);
    if (!sv_stop_requested(sv) && sv_draining(sv) && sv_drain_step(sv))
        sv_request_stop(sv);
    if (sv_stop_requested(sv)) {
        if (!sv->done)
            shutdown_step(sv);
    } else {
        run_timers(sv);
        housekeeping(sv);
    }
    sv_send_held_due(sv);
    sv_specq_flush(sv, false);
    sv->step_max_slot = -1; /* whatever is queued now leaves before the next step's packets */
    /* ENet walks every peer slot on each flush. A caller that waits (sv_run)
     * comes straight back into enet_host_service, which sends everything
     * queued before it reads or waits (with several hosts, service_hosts
     * flushes the hosts with packets queued first), so the flush would be a
     * second walk for nothing; a caller that polls once a frame needs it,
     * or replies would wait for its next frame. */
    if (no_wait || sv_stop_requested(sv))
        sv_hosts_flush_queued(sv, NULL);
    sv_link_commit(sv);
    /* How long the longest step kept the socket unread: the figure to
     * compare with how long the socket buffer lasts at full load. */
    uint64_t work = mr_now_us() - work0;
    int b = 0;
    while (b < SV_LAG_HIST_BUCKETS - 1 && work > sv_lag_hist_bounds_us[b])
        b++;
    sv->st.lag_hist[b]++;
    sv->st.lag_us_sum += work;
    sv->st.steps++;
    if (work > sv->st.max_step_us)
        sv->st.max_step_us = work;
    if (atomic_exchange(&sv->want_stats, 0))
        print_stat_line(sv);
    sv->last_handled = handled + read;
    return handled;
}

int sv_run(sv_t *sv)
{
    int rc = 0;
    while (!sv_done(sv)) {
        if (sv_service(sv, now_ms_clock(), SV_WAIT_MAX_MS) < 0) {
            rc = 1;
            break;
        }
    }
    sv_shutdown(sv, SV_SHUTDOWN_MS);
    if (sv->cfg.stats)
        print_stat_line(sv);
    return rc;
}

void sv_request_stop(sv_t *sv)
{
    atomic_store(&sv->stop, 1);
}
bool sv_stop_requested(const sv_t *sv)
{
    return atomic_load(&((sv_t *)sv)->stop) != 0;
}
void sv_request_stats(sv_t *sv)
{
    atomic_store(&sv->want_stats, 1);
}
bool sv_done(const sv_t *sv)
{
    return sv->done;
}

/* Shutdown runs inside sv_service so that an embedding program keeps its
 * own loop (and its window) alive: the first step tells everyone, later
 * steps wait for the disconnects to be acknowledged, up to a deadline. */
static void shutdown_begin(sv_t *sv)
{
    sv->shutting = true;
    sv->shutdown_deadline_ms = sv->now_ms + SV_SHUTDOWN_MS;
    sv_loge(&sv->log, SV_LOG_INFO, "stopping", NULL, NULL, NULL, "stopping: telling %d clients",
            sv->st.peers_now);
    sv_play_abort_all(sv);
    sv_specq_flush(sv, true); /* spectators see the aborted game's MATCH_END before SHUTDOWN */
    for (int i = 0; i < sv->nclients; i++) {
        sv_client *c = &sv->clients[i];
        if (c->state == SV_CL_FREE || c->state == SV_CL_CLOSING)
            continue;
        sv_send_error(sv, c, WIRE_SHUTDOWN, 0, sv->stop_text[0] ? sv->stop_text : "server shutting down");
        c->state = SV_CL_CLOSING;
        c->closing_ms = sv->now_ms;
        sv_link_close_later(sv, c);
    }
}

static void shutdown_finish(sv_t *sv)
{
    /* Whoever did not acknowledge in time gets one unreliable disconnect. */
    for (int i = 0; i < sv->nclients; i++)
        drop_now(sv, &sv->clients[i]);
    sv_hosts_flush(sv);
    sv_link_commit(sv);
    sv->done = true;
    sv_loge(&sv->log, SV_LOG_INFO, "stopped", NULL, NULL, NULL, "shut down");
}

static void shutdown_step(sv_t *sv)
{
    if (!sv->shutting)
        shutdown_begin(sv);
    if (sv->st.peers_now <= 0 || sv->now_ms >= sv->shutdown_deadline_ms)
        shutdown_finish(sv);
}

void sv_shutdown(sv_t *sv, int timeout_ms)
{
    sv_request_stop(sv);
    /* Carry on in the embedder's timeline: its clock plus the time spent
     * here. */
    uint64_t t0 = now_ms_clock(), base = sv->now_ms;
    uint64_t end = t0 + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0);
    while (!sv->done && now_ms_clock() < end)
        if (sv_service(sv, base + (now_ms_clock() - t0), 5) < 0)
            break;
    if (!sv->done) {
        if (!sv->shutting)
            shutdown_begin(sv);
        shutdown_finish(sv);
    }
}

void sv_set_shutdown_text(sv_t *sv, const char *text)
{
    txt_clean(sv->stop_text, sizeof sv->stop_text, text ? text : "");
}

sv_t *sv_create(const sv_config *cfg, const char **err)
{
    const char *why = sv_config_check(cfg);
    if (why) {
        *err = why;
        return NULL;
    }
    if (enet_users == 0 && enet_initialize() != 0) {
        *err = "cannot initialise ENet";
        return NULL;
    }
    enet_users++;
    sv_t *sv = mr_alloc(1, sizeof *sv);
    sv->cfg = *cfg;
    /* An embedder may hand us a name cut mid-character ("%.15s's game"):
     * clean it rather than refuse to host. The command line is strict. */
    txt_clean(sv->cfg.name, sizeof sv->cfg.name, cfg->name);
    if (!txt_name_ok(sv->cfg.name, strlen(sv->cfg.name)))
        strcpy(sv->cfg.name, "mazerace");
    sv_log_init(&sv->log, cfg->log_level, cfg->log_format, stderr);
    sv->now_ms = 0; /* the first sv_service sets the clock */
    sv->next_housekeeping_ms = 0;
    /* Room codes, resume tokens and the seeds the server draws come from
     * the kernel's CSPRNG (secrand), one draw each: nothing a player sees
     * tells anything about another room. No randomness, no server. */
    if (!secrand_ok()) {
        *err = "the kernel gives no random bytes (getrandom failed)";
        sv_destroy(sv);
        return NULL;
    }

    ENetAddress addr;
    memset(&addr, 0, sizeof addr);
    if (strcmp(cfg->bind_addr, "0.0.0.0") == 0 || strcmp(cfg->bind_addr, "*") == 0)
        addr.host = ENET_HOST_ANY;
    else if (enet_address_set_host_ip(&addr, cfg->bind_addr) != 0 &&
             enet_address_set_host(&addr, cfg->bind_addr) != 0) {
        *err = "cannot resolve the bind address";
        sv_destroy(sv);
        return NULL;
    }
    addr.port = (enet_uint16)cfg->port;
    if (!sv_hosts_open(sv, &addr, err)) {
        sv_hosts_close(sv);
        sv_destroy(sv);
        return NULL;
    }

    char ip[INET_ADDRSTRLEN] = "0.0.0.0";
    struct in_addr a = {.s_addr = sv->host->address.host};
    inet_ntop(AF_INET, &a, ip, sizeof ip);
    snprintf(sv->bind_text, sizeof sv->bind_text, "%s", ip);

    sv_lan_open(sv, ip);

    sv->addrs = sv_addrs_create(4 * cfg->max_clients);
    if (!sv_link_open(sv, err)) {
        sv_hosts_close(sv); /* nothing to tell anyone yet */
        sv_destroy(sv);
        return NULL;
    }
    sv->nclients = sv->ngame + (int)sv_sph_peer_slots(sv->sph);
    sv->clients = mr_alloc((size_t)sv->nclients, sizeof *sv->clients);
    sv->rooms = sv_rooms_create(cfg->max_rooms);
    /* At most one entry per client (a job it waits on) and per room. */
    sv->quick.q = sv_quick_create(sv->nclients + cfg->max_rooms);
    sv->out = mr_alloc(WIRE_MSG_MAX, 1);
    sv->idbuf = mr_alloc(WIRE_GAME_ID_MAX + 1, 1);
    sv->in = mr_alloc(1, sizeof *sv->in);
    sv->msg = mr_alloc(1, sizeof *sv->msg);
    sv->step_max_slot = -1;
    sv_hold_init(&sv->hold, sv->nclients);
    sv_shake_attach(sv);
    sv->genq.gen = sv_gen_create(cfg->gen_queue);
    if (!sv->genq.gen) {
        *err = "cannot start the puzzle generation threads";
        sv_destroy(sv);
        return NULL;
    }

    char disc_text[16] = "off";
    if (sv->lan.disc)
        snprintf(disc_text, sizeof disc_text, "%u", (unsigned)sv_discovery_port(sv));
    if (sv->st.sockbuf_rcv >= 0 && cfg->sockbuf_bytes > 0 && sv->st.sockbuf_rcv / 2 < cfg->sockbuf_bytes)
        sv_loge(
            &sv->log, SV_LOG_WARN, "sockbuf_capped", NULL, NULL, NULL,
            "socket receive buffer is %d bytes, asked for %d: raise net.core.rmem_max (see docs/server.md)",
            sv->st.sockbuf_rcv, cfg->sockbuf_bytes);
    sv_loge(&sv->log, SV_LOG_INFO, "started", NULL, NULL, NULL,
            "mazerace-server %s (protocol %d) \"%s\" on %s:%u, spectators on %s:%u, discovery %s, max %d "
            "clients, %d rooms, %d ENet host%s (%d peers each), socket buffers %d/%d bytes",
            MR_VERSION, WIRE_VERSION, sv->cfg.name, sv->bind_text, (unsigned)sv_port(sv), sv->bind_text,
            (unsigned)(sv->sph ? sv_spectator_port(sv) : sv_port(sv)), disc_text, cfg->max_clients,
            cfg->max_rooms, sv->nhosts, sv->nhosts == 1 ? "" : "s on the port", (int)sv->host->peerCount,
            sv->st.sockbuf_rcv, sv->st.sockbuf_snd);
    return sv;
}

void sv_destroy(sv_t *sv)
{
    if (!sv)
        return;
    if (sv->host) {
        sv_shutdown(sv, SV_SHUTDOWN_MS);
        sv_hold_free(&sv->hold);
        sv_spec_free(sv);
        sv_shake_detach(sv);
        sv_link_close(sv);
        sv_hosts_close(sv);
    }
    sv_lan_close(sv);
    sv_gen_destroy(sv->genq.gen);
    sv_genq_free(sv);
    sv_quick_destroy(sv->quick.q);
    sv_addrs_destroy(sv->addrs);
    sv_rooms_destroy(sv->rooms);
    free(sv->clients);
    free(sv->out);
    free(sv->idbuf);
    free(sv->in);
    free(sv->msg);
    sv_query_free(sv);
    free(sv);
    if (--enet_users == 0)
        enet_deinitialize();
}

void sv_reconfigure(sv_t *sv, const sv_config *cfg)
{
    sv_opts_apply_reloadable(&sv->cfg, cfg);
    sv->log.level = sv->cfg.log_level;
}

const sv_config *sv_config_in_use(const sv_t *sv)
{
    return &sv->cfg;
}

const struct sv_log *sv_logger(const sv_t *sv)
{
    return &sv->log;
}

int sv_socket_fd(const sv_t *sv)
{
    return sv->host ? (int)sv->host->socket : -1;
}

int sv_socket_fds(const sv_t *sv, int *fds, int max)
{
    for (int h = 0; h < sv->nhosts && h < max; h++)
        fds[h] = (int)sv->hosts[h]->socket;
    return sv->nhosts;
}

const char *sv_bind_text(const sv_t *sv)
{
    return sv->bind_text;
}

void sv_set_spectator_public_port(sv_t *sv, uint16_t port)
{
    sv->spec.public_port = port;
}
