/* cl_net_lanlist.c: the LAN list: discovery replies and details merged per address, one entry per server,
 * sorted.
 */
#include <string.h>

#include "cl_net.h"

static void copy_details(cl_server_info *dst, const cl_server_info *src)
{
    dst->details = src->details;
    dst->server_id = src->server_id;
    dst->host_game = src->host_game;
    dst->has_room = src->has_room;
    memcpy(dst->room, src->room, sizeof dst->room);
    dst->params = src->params;
    dst->series = src->series;
    memcpy(dst->host_name, src->host_name, sizeof dst->host_name);
}

bool cl_lanlist_add(cl_lanlist *l, const cl_server_info *info, uint64_t now_ms)
{
    int k = 0;
    while (k < l->n &&
           !(strcmp(l->found[k].addr, info->addr) == 0 && l->found[k].game_port == info->game_port))
        k++;
    if (k == l->n) {
        if (l->n == CL_LANLIST_MAX)
            return false;
        memset(&l->found[k], 0, sizeof l->found[k]);
        l->have_reply[k] = false;
        l->n++;
    }
    cl_server_info *f = &l->found[k];
    bool first = false;
    if (info->details) {
        /* The reply's figures stay; the details come in. */
        copy_details(f, info);
        memcpy(f->addr, info->addr, sizeof f->addr);
        f->game_port = info->game_port;
    } else {
        cl_server_info keep = *f;
        *f = *info;
        copy_details(f, &keep);
        first = !l->have_reply[k];
        l->have_reply[k] = true;
    }
    l->seen[k] = now_ms;
    return first;
}

void cl_lanlist_expire(cl_lanlist *l, uint64_t now_ms, uint64_t max_age_ms)
{
    for (int k = 0; k < l->n;) {
        if (now_ms > l->seen[k] + max_age_ms) {
            l->n--;
            l->found[k] = l->found[l->n];
            l->seen[k] = l->seen[l->n];
            l->have_reply[k] = l->have_reply[l->n];
        } else {
            k++;
        }
    }
}

static bool loopback(const char *addr)
{
    return strncmp(addr, "127.", 4) == 0;
}

/* Which of two entries of one server (same id) is shown: a LAN address over
 * 127.0.0.1, as a link made from it reaches a friend too. */
static bool better(const cl_server_info *x, const cl_server_info *y)
{
    if (loopback(x->addr) != loopback(y->addr))
        return !loopback(x->addr);
    return strcmp(x->addr, y->addr) < 0;
}

/* List order: games waiting for a player first, then by name and address. */
static int order(const cl_server_info *x, const cl_server_info *y)
{
    if (x->has_room != y->has_room)
        return x->has_room ? -1 : 1;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    c = strcmp(x->addr, y->addr);
    return c ? c : x->game_port - y->game_port;
}

int cl_lanlist_view(const cl_lanlist *l, int out[CL_LANLIST_MAX])
{
    int m = 0;
    for (int k = 0; k < l->n; k++) {
        const cl_server_info *f = &l->found[k];
        if (!l->have_reply[k])
            continue; /* details alone: no name to show yet */
        bool shadowed = false;
        for (int j = 0; j < l->n && !shadowed; j++)
            shadowed = j != k && l->have_reply[j] && f->server_id && l->found[j].server_id == f->server_id &&
                       better(&l->found[j], f);
        if (shadowed)
            continue;
        int at = m++;
        while (at > 0 && order(&l->found[out[at - 1]], f) > 0) {
            out[at] = out[at - 1];
            at--;
        }
        out[at] = k;
    }
    return m;
}
