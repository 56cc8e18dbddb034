/* bt_watchers.c: the bench's spectators on a thread of their own (see bt_watchers.h). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "bt_watchers.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bt_player.h"
#include "util.h"
#include "wire.h"

struct bt_watchers {
    pthread_t thread;
    bool started;
    cl_hub_t *hub;
    bt_player **p;
    int n;
    atomic_int stop, watching, port;
};

/* The longest the thread sleeps on its socket: the quiet spectators' timers
 * (connect deadlines, reconnects) and the watching count (a race begins when
 * its start time passes) are looked at this often. */
#define WALK_MS 50
/* They stand in for clients on other machines, so they take as little of
 * this one as they can: the thread reads its socket at most every
 * GATHER_MS, and each service then takes every datagram that came
 * meanwhile (a few per batch of each spectator, and ENet's pings),
 * rather than one wake-up and one walk over every peer per datagram. */
#define GATHER_MS 10

/* The loop: wait for the network (up to WALK_MS), then the events of the
 * spectators that got some; every WALK_MS all of them. Nothing here is
 * shared with the players' thread but the two atomics. */
static void *run(void *arg)
{
    bt_watchers *w = arg;
    uint64_t walk_at = 0, served = 0;
    while (!atomic_load(&w->stop)) {
        uint64_t t = mr_now_us();
        if (t < served + GATHER_MS * 1000u) {
            uint64_t us = served + GATHER_MS * 1000u - t;
            struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)us * 1000};
            nanosleep(&ts, NULL);
        }
        served = mr_now_us();
        cl_hub_service(w->hub, served / 1000u, WALK_MS);
        uint64_t now = mr_now_us();
        bool changed = false;
        cl_net_t *net;
        while ((net = cl_hub_ready(w->hub))) {
            bt_player_step(w->p[(int)(intptr_t)cl_net_user(net)], now);
            changed = true;
        }
        bool walk = now >= walk_at;
        if (walk) {
            for (int i = 0; i < w->n; i++)
                bt_player_step(w->p[i], now);
            walk_at = now + WALK_MS * 1000u;
        }
        if (!changed && !walk)
            continue;
        int on = 0;
        for (int i = 0; i < w->n; i++)
            on += bt_player_racing(w->p[i], now);
        atomic_store(&w->watching, on);
        atomic_store(&w->port, w->n ? cl_net_port(bt_player_net(w->p[0])) : 0);
    }
    return NULL;
}

bt_watchers *bt_watchers_start(const char *host, int port, const char *const *codes, int ncodes, int per_room,
                               int sockbuf_kib, const char **err)
{
    bt_watchers *w = mr_alloc(1, sizeof *w);
    w->hub = cl_hub_create(ncodes * per_room, sockbuf_kib, err);
    if (!w->hub) {
        free(w);
        return NULL;
    }
    w->p = mr_alloc((size_t)(ncodes * per_room), sizeof *w->p);
    uint64_t now = mr_now_us();
    for (int i = 0; i < ncodes * per_room; i++) {
        char name[WIRE_NAME_MAX + 1];
        snprintf(name, sizeof name, "spectator-%d", i + 1);
        bt_player_cfg c;
        memset(&c, 0, sizeof c);
        c.name = name;
        c.mode = BT_WATCH;
        c.room = codes[i / per_room];
        c.matches = 1;
        c.pace_ms = 1000;
        w->p[i] = bt_player_create(w->hub, &c, host, port, now, err);
        if (!w->p[i])
            break;
        cl_net_set_user(bt_player_net(w->p[i]), (void *)(intptr_t)i);
        w->n++;
    }
    w->started = w->n == ncodes * per_room && pthread_create(&w->thread, NULL, run, w) == 0;
    if (!w->started) {
        if (w->n == ncodes * per_room)
            *err = "cannot start the spectators' thread";
        bt_watchers_stop(w, NULL, 0);
        return NULL;
    }
    return w;
}

int bt_watchers_watching(const bt_watchers *w)
{
    return atomic_load(&((bt_watchers *)w)->watching);
}

int bt_watchers_port(const bt_watchers *w)
{
    return atomic_load(&((bt_watchers *)w)->port);
}

int bt_watchers_stop(bt_watchers *w, char *why, size_t whylen)
{
    if (!w)
        return 0;
    if (w->started) {
        atomic_store(&w->stop, 1);
        pthread_join(w->thread, NULL);
    }
    int failed = 0;
    for (int i = 0; i < w->n; i++) {
        const char *f = bt_player_failed(w->p[i]);
        if (f && failed++ == 0 && why)
            snprintf(why, whylen, "%s: %s", bt_player_name(w->p[i]), f);
        cl_net_leave(bt_player_net(w->p[i]));
    }
    if (w->n)
        cl_hub_flush(w->hub);
    for (int i = 0; i < w->n; i++)
        bt_player_destroy(w->p[i]);
    cl_hub_destroy(w->hub);
    free(w->p);
    free(w);
    return failed;
}
