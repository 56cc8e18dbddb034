/* it_race.c: a real server plus players in one loop, for integration tests (see it_race.h). */
#include "it_race.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

#ifndef MR_SERVER_PATH
#error "MR_SERVER_PATH must name the mazerace-server binary"
#endif

bool it_env_start(it_env *e, const char *const extra[])
{
    memset(e, 0, sizeof *e);
    e->port = it_server_start(&e->server, MR_SERVER_PATH, extra);
    if (e->port <= 0)
        return false;
    const char *err = NULL;
    e->hub = cl_hub_create(IT_MAX_PLAYERS, 0, &err);
    if (!e->hub) {
        fprintf(stderr, "hub: %s\n", err);
        return false;
    }
    return true;
}

int it_env_add(it_env *e, const bt_player_cfg *cfg, bool shared)
{
    if (e->n >= IT_MAX_PLAYERS)
        return -1;
    const char *err = NULL;
    bt_player *p = bt_player_create(shared ? e->hub : NULL, cfg, "127.0.0.1", e->port, mr_now_us(), &err);
    if (!p) {
        fprintf(stderr, "player %s: %s\n", cfg->name, err);
        return -1;
    }
    e->p[e->n] = p;
    return e->n++;
}

bool it_env_run(it_env *e, bool (*done)(it_env *e, void *arg), void *arg, int timeout_ms)
{
    uint64_t deadline = mr_now_us() + (uint64_t)timeout_ms * 1000u;
    bool ok = done(e, arg);
    while (!ok && mr_now_us() < deadline) {
        cl_hub_service(e->hub, mr_now_us() / 1000u, 1);
        uint64_t now = mr_now_us();
        for (int i = 0; i < e->n; i++) {
            if (!e->p[i])
                continue;
            bt_player_step(e->p[i], now);
            if (i > 0 && e->p[i - 1] && bt_player_room(e->p[i - 1]) && !bt_player_room(e->p[i]))
                bt_player_join(e->p[i], bt_player_room(e->p[i - 1]));
            cl_net_flush(bt_player_net(e->p[i]));
        }
        cl_hub_flush(e->hub);
        it_proc_drain(&e->server, "server", NULL, NULL);
        ok = done(e, arg);
    }
    return ok;
}

void it_env_stop(it_env *e)
{
    for (int i = 0; i < e->n; i++) {
        bt_player_destroy(e->p[i]);
        e->p[i] = NULL;
    }
    cl_hub_destroy(e->hub);
    e->hub = NULL;
    if (e->server.pid > 0 && !e->server.reaped) {
        it_proc_signal(&e->server, SIGINT);
        int code;
        if (!it_proc_wait(&e->server, 5000, &code, "server"))
            fprintf(stderr, "server did not stop within 5 s\n");
    }
    it_proc_cleanup(&e->server);
}

bool it_all_done(it_env *e, void *arg)
{
    (void)arg;
    for (int i = 0; i < e->n; i++)
        if (e->p[i] && !bt_player_done(e->p[i]) && !bt_player_failed(e->p[i]))
            return false;
    return true;
}

bool it_results_at_least(it_env *e, void *arg)
{
    int want = *(const int *)arg;
    for (int i = 0; i < e->n; i++) {
        const bt_result *r;
        if (e->p[i] && bt_player_results(e->p[i], &r) < want && !bt_player_failed(e->p[i]))
            return false;
    }
    return true;
}

bt_player_cfg it_cfg(const char *name, int mode, uint32_t pace_ms)
{
    bt_player_cfg c;
    memset(&c, 0, sizeof c);
    c.name = name;
    c.mode = mode;
    c.pace_ms = pace_ms;
    c.matches = 1;
    c.series = 1;
    c.play = BT_SOLVE;
    c.bot_seed = 7;
    c.params.kind = PZ_MAZE;
    return c;
}
