/* bt_watchers.h: the bench's spectators on a thread of their own (own hub and socket), away from the players'
 * loop. */
#ifndef MR_BT_WATCHERS_H
#define MR_BT_WATCHERS_H

#include <stddef.h>

typedef struct bt_watchers bt_watchers;

/* Starts per_room spectators of each of the ncodes rooms (codes are
 * copied), connecting to host:port on a new thread with its own ENet host.
 * NULL with *err (static) on failure. Stop with bt_watchers_stop. */
bt_watchers *bt_watchers_start(const char *host, int port, const char *const *codes, int ncodes, int per_room,
                               int sockbuf_kib, const char **err);
/* Spectators watching a started game now (safe from any thread). */
int bt_watchers_watching(const bt_watchers *w);
/* The server port they watch on (the first spectator's: the spectator port
 * after a WATCH_AT), 0 before it connected (safe from any thread). */
int bt_watchers_port(const bt_watchers *w);
/* Stops the thread and frees everything (accepts NULL); returns how many
 * spectators failed, with the first reason in why. */
int bt_watchers_stop(bt_watchers *w, char *why, size_t whylen);

#endif
