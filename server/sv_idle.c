/* sv_idle.c: how long the game loop may wait for its next datagram. ENet's own wait watches the game
 * socket only and the loop was woken every SV_BUSY_WAIT_MS to look at everything else; a server with
 * nothing due sleeps until its next deadline instead (at most the caller's bound), in one poll over
 * every socket it reads and the spectator thread's doorbell. */
#include "sv_idle.h"

#include <enet/enet.h>
#include <enet/time.h>
#include <poll.h>

#include "sv_drain.h"
#include "sv_gen.h"
#include "sv_hold.h"
#include "sv_hosts.h"
#include "sv_internal.h"
#include "sv_lan.h"
#include "sv_rooms.h"
#include "sv_spechost.h"
#include "sv_specq.h"

static bool stopping(sv_t *sv)
{
    return atomic_load(&sv->stop) != 0; /* sv_stop_requested's flag (sv_server.c is above this module) */
}

/* Something another thread may hand the loop, or a phase that must be
 * looked at often. */
static bool busy(sv_t *sv)
{
    if (stopping(sv) || sv_draining(sv))
        return true;
    if (sv->genq.defer_n > 0 || (sv->genq.gen && sv_gen_pending(sv->genq.gen) > 0))
        return true;
    return sv->query.in_flight > 0;
}

/* Milliseconds until ENet needs host serviced for a peer that waits on a
 * time (a resend, a ping), after a flush; 0 when it needs it now or soon
 * (events to hand out, a peer connecting or disconnecting, data the flush
 * could not send): the caller then takes ENet's own short wait. */
static uint32_t enet_due_ms(ENetHost *host, uint32_t now, uint32_t limit)
{
    if (!enet_list_empty(&host->dispatchQueue))
        return 0;
    uint32_t due = limit;
    for (size_t i = 0; i < host->peerCount; i++) {
        const ENetPeer *p = &host->peers[i];
        if (p->state == ENET_PEER_STATE_DISCONNECTED)
            continue;
        if (p->state != ENET_PEER_STATE_CONNECTED || !enet_list_empty(&p->outgoingCommands) ||
            !enet_list_empty(&p->acknowledgements))
            return 0;
        /* ENet resends at nextTimeout while a reliable packet is not
         * acknowledged, and pings once nothing has come for pingInterval. */
        uint32_t at =
            enet_list_empty(&p->sentReliableCommands) ? p->lastReceiveTime + p->pingInterval : p->nextTimeout;
        if (ENET_TIME_LESS_EQUAL(at, now))
            return 0;
        uint32_t d = ENET_TIME_DIFFERENCE(at, now);
        if (d < due)
            due = d;
    }
    return due;
}

int sv_idle_wait(sv_t *sv, int max_ms, bool *own_wait)
{
    *own_wait = false;
    int wait = max_ms > 0 ? max_ms : 0;
    uint64_t due = sv_rooms_next_deadline(sv->rooms);
    uint64_t d = sv_hold_next_due(sv);
    due = d < due ? d : due;
    d = sv_specq_next_due(sv);
    due = d < due ? d : due;
    /* Housekeeping (a HELLO not sent in time, the store's health) keeps
     * its period, whatever the wait; a server shutting down runs none. */
    if (!stopping(sv) && sv->next_housekeeping_ms < due)
        due = sv->next_housekeeping_ms;
    if (due != UINT64_MAX && wait > 0) {
        /* A deadline fires once now has passed it (run_timers): one more. */
        uint64_t left = due >= sv->now_ms ? due - sv->now_ms + 1 : 0;
        if (left < (uint64_t)wait)
            wait = (int)left;
    }
    if (wait <= SV_BUSY_WAIT_MS)
        return wait;
    if (busy(sv))
        return SV_BUSY_WAIT_MS;
    /* Datagrams coming fast bring the loop straight back anyway: walking
     * the slots each step would cost as much as ENet's own walks. */
    if (sv->last_handled > 0 && sv->waited_us < SV_SPARSE_WAIT_US)
        return SV_BUSY_WAIT_MS;
    sv_hosts_flush_queued(sv, NULL);
    uint32_t now = enet_time_get();
    for (int h = 0; h < sv->nhosts && wait > SV_BUSY_WAIT_MS; h++) {
        uint32_t e = enet_due_ms(sv->hosts[h], now, (uint32_t)wait);
        if (e < (uint32_t)wait)
            wait = (int)e;
    }
    if (wait <= SV_BUSY_WAIT_MS)
        return wait > 0 ? wait : SV_BUSY_WAIT_MS;
    *own_wait = true;
    return wait;
}

void sv_idle_sleep(sv_t *sv, int ms)
{
    struct pollfd fds[SV_MAX_HOSTS + 2];
    nfds_t n = 0;
    for (int h = 0; h < sv->nhosts; h++)
        fds[n++] = (struct pollfd){.fd = sv->hosts[h]->socket, .events = POLLIN};
    int lan = sv_lan_fd(sv);
    if (lan >= 0)
        fds[n++] = (struct pollfd){.fd = lan, .events = POLLIN};
    /* The spectator port's thread rings this when it hands the loop an
     * event (a connection, a message) while the loop sleeps here. */
    int bell = sv->sph ? sv_sph_sleep_fd(sv->sph) : -2;
    if (bell == -1) { /* its events are waiting already */
        sv_sph_woke(sv->sph, false);
        return;
    }
    nfds_t at_bell = n;
    if (bell >= 0)
        fds[n++] = (struct pollfd){.fd = bell, .events = POLLIN};
    int r = poll(fds, n, ms); /* EINTR (a signal): the step runs now, which is what the signal wants */
    if (sv->sph)
        sv_sph_woke(sv->sph, r > 0 && bell >= 0 && fds[at_bell].revents != 0);
}
