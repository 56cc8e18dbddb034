/* sv_idle.h: how long the game loop may wait for its next datagram, and the loop's own wait when it may
 * sleep past ENet's short one. */
#ifndef MR_SV_IDLE_H
#define MR_SV_IDLE_H

#include <stdbool.h>

typedef struct sv sv_t;

/* The wait while another thread may hand the loop work, and ENet's own
 * wait after a step that had work with datagrams coming fast. */
#define SV_BUSY_WAIT_MS 10
/* Traffic is sparse when the last step waited at least this long for
 * its datagram: the peers are walked for ENet's next need then (a walk
 * costs less than the wake-ups it saves), and after a step with nothing
 * to do; a busy loop comes straight back anyway and does not walk. */
#define SV_SPARSE_WAIT_US 2000

/* The wait of the step about to start, at most max_ms (the caller's
 * bound; a negative max_ms is 0). Cut to the loop's next deadline (a
 * room's timer, a held PROGRESS, a spectator batch, housekeeping) and to
 * SV_BUSY_WAIT_MS while the loop must look often: generation jobs or
 * record questions in flight (answered on other threads), draining or
 * stopping. Past that, when traffic is sparse or the last step had
 * nothing to do, it sends what the hosts have queued (enet_host_flush)
 * and reads ENet's own next need from the peers: a resend, a ping, a peer
 * mid-handshake or mid-disconnect (SV_BUSY_WAIT_MS). If that leaves a
 * wait longer than SV_BUSY_WAIT_MS, *own_wait is set: the caller waits in
 * sv_idle_sleep (every socket the loop reads) instead of ENet's wait (the
 * game socket only), then services the hosts without waiting. */
int sv_idle_wait(sv_t *sv, int max_ms, bool *own_wait);
/* Waits up to ms for a datagram on any game socket or the discovery
 * socket (a LAN probe is answered at once, not after the wait), or an
 * event from the spectator port's thread (sv_sph_sleep_fd). */
void sv_idle_sleep(sv_t *sv, int ms);

#endif
