/* sv_hosts.h: the game port's ENet hosts: one, or several sharing the port (SO_REUSEPORT) in the one loop. */
#ifndef MR_SV_HOSTS_H
#define MR_SV_HOSTS_H

#include <enet/enet.h>
#include <stdbool.h>
#include <stdint.h>

#include "sv.h"

/* ENet numbers a host's peers in 12 bits: at most 4095 per host. Past
 * that, the server runs several hosts on the one game port, each with a
 * socket of its own in one SO_REUSEPORT group. The kernel hands a
 * datagram to one socket of the group by its source: a classic BPF
 * program picks socket (source port mod N), so a client (one address and
 * port) always reaches the same host, which is what ENet needs, and a
 * test or a bench can tell which. Every host is serviced by the one game
 * loop (sv_service): the match engine, the rooms and the clients stay
 * single-threaded, and a player on host A races one on host B like any
 * other (docs/server.md, "Several ENet hosts"; docs/architecture.md). */

/* Players a host when the server picks the number of hosts (cfg->hosts 0)
 * past SV_HOST_MAX_CLIENTS: 10,000 players get 16 hosts. */
#define SV_HOST_AUTO_PLAYERS 625

/* The hosts the configuration asks for: cfg->hosts, or with 0 one host up
 * to SV_HOST_MAX_CLIENTS players, beyond that one per SV_HOST_AUTO_PLAYERS,
 * at most SV_MAX_HOSTS. */
int sv_hosts_wanted(const sv_config *cfg);
/* Binds addr with sv_hosts_wanted hosts and sets sv->hosts, nhosts,
 * host_base, host (hosts[0]) and ngame; applies cfg's socket buffers and
 * ENet limits to each. False with *err (static) on failure. */
bool sv_hosts_open(sv_t *sv, const ENetAddress *addr, const char **err);
void sv_hosts_close(sv_t *sv);
/* Waits up to timeout_ms for a datagram on any host's socket; sets
 * ready[h] for the hosts with one. Returns how many, 0 on time-out. */
int sv_hosts_wait(sv_t *sv, int timeout_ms, bool *ready);
/* Sends what every host has queued. */
void sv_hosts_flush(sv_t *sv);
/* Sends what the loop queued since the last walk of each host: the one
 * host, or of several only those it queued packets on (sv_hosts_queued),
 * but for the hosts skip[h] says the caller services next (its service
 * sends them first; skip may be NULL). */
void sv_hosts_flush_queued(sv_t *sv, const bool *skip);
/* A packet was queued for the client in game slot (sv->clients index)
 * slot: its host has something to send (with several hosts, only those
 * are walked: sv_service). */
void sv_hosts_queued(sv_t *sv, int slot);
/* Which of sv's hosts this is, or -1. */
int sv_hosts_index(const sv_t *sv, const ENetHost *host);
/* Datagrams received and sent by all the hosts. */
void sv_hosts_counts(const sv_t *sv, uint64_t *in, uint64_t *out);

#endif
