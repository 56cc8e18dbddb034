/* sv_lan.c: LAN discovery answers: a probe's reply (players waiting, rooms, races), the details. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "secrand.h"
#include "sv_disc.h"
#include "sv_internal.h"
#include "sv_lan.h"
#include "sv_limit.h"
#include "sv_log.h"
#include "sv_rooms.h"
#include "sv_spec.h"

static int players_waiting(sv_t *sv)
{
    /* A probe costs one scan of the room table at most once a second, so a
     * probe flood cannot make the server walk its rooms per datagram. */
    if (sv->lan.waiting_valid && sv->now_ms - sv->lan.waiting_ms < 1000)
        return sv->lan.waiting;
    int n = 0;
    for (int i = 0; i < sv_rooms_capacity(sv->rooms); i++) {
        sv_room *r = sv_rooms_at(sv->rooms, i);
        if (r->m && match_phase(r->m) == MATCH_WAITING && (!r->player[0]) != (!r->player[1]))
            n++;
    }
    sv->lan.waiting = n;
    sv->lan.waiting_ms = sv->now_ms;
    sv->lan.waiting_valid = true;
    return n;
}

/* The waiting room a LAN pick joins on a player's own game: the oldest
 * room made by a create request with one player in it; NULL if none. */
static const sv_room *announced_room(sv_t *sv)
{
    const sv_room *best = NULL;
    for (int i = 0; sv->cfg.lan_host && i < sv_rooms_capacity(sv->rooms); i++) {
        const sv_room *r = sv_rooms_at(sv->rooms, i);
        if (r->m && !r->made_by_quick && match_phase(r->m) == MATCH_WAITING &&
            (!r->player[0]) != (!r->player[1]) && match_puzzle(r->m) &&
            (!best || r->created_ms < best->created_ms))
            best = r;
    }
    return best;
}

static size_t answer_details(sv_t *sv, const wire_probe *p, uint8_t *out, size_t cap)
{
    wire_probe_details d;
    memset(&d, 0, sizeof d);
    d.version = WIRE_VERSION;
    d.nonce = p->nonce;
    d.game_port = sv_port(sv);
    d.server_id = sv->lan.server_id;
    d.flags = sv->cfg.lan_host ? WIRE_DISC_HOST_GAME : 0;
    const sv_room *r = announced_room(sv);
    const char *host = r ? match_name(r->m, r->player[0] ? 0 : 1) : "";
    if (r && txt_name_ok(host, strlen(host))) {
        d.flags |= WIRE_DISC_HAS_ROOM;
        memcpy(d.room, r->code, sizeof d.room);
        d.params = *pz_params_of(match_puzzle(r->m));
        int n = match_series_len(r->m);
        d.series = (uint8_t)(n < 1 ? 1 : n > WIRE_MAX_SERIES ? WIRE_MAX_SERIES : n);
        snprintf(d.host_name, sizeof d.host_name, "%s", host);
    }
    return wire_write_probe_details(&d, out, cap);
}

static size_t answer_probe(void *ctx, const uint8_t *in, size_t n, int part, uint8_t *out, size_t cap)
{
    sv_t *sv = ctx;
    wire_probe p;
    if (!wire_read_probe(in, n, &p))
        return 0;
    if (part == 1)
        return answer_details(sv, &p, out, cap); /* the reply went out: its details follow */
    if (part > 1)
        return 0;
    /* A reply is larger than a probe: on a public address a flood of
     * probes with forged sources would turn the server into an amplifier.
     * A LAN scan needs a handful a second. */
    if (!sv_bucket_take(&sv->lan.bucket, sv->now_ms, SV_DISC_RATE, SV_DISC_RATE)) {
        sv->st.discovery_dropped++;
        return 0;
    }
    wire_probe_reply r;
    memset(&r, 0, sizeof r);
    r.version = WIRE_VERSION;
    r.nonce = p.nonce;
    r.game_port = sv_port(sv);
    int w = players_waiting(sv);
    r.players_waiting = (uint16_t)(w > 65535 ? 65535 : w);
    r.rooms = (uint16_t)sv_rooms_count(sv->rooms);
    r.players = (uint16_t)sv->st.peers_now;
    r.max_players = (uint16_t)sv->cfg.max_clients;
    int races = sv_spec_races(sv);
    r.races = (uint16_t)(races > 65535 ? 65535 : races);
    txt_clean(r.name, sizeof r.name, sv->cfg.name);
    if (!r.name[0])
        strcpy(r.name, "mazerace");
    sv->st.discovery_replies++;
    sv_logf(&sv->log, SV_LOG_DEBUG, "discovery probe answered");
    return wire_write_probe_reply(&r, out, cap);
}

void sv_lan_open(sv_t *sv, const char *ip)
{
    sv_lan *l = &sv->lan;
    sv_bucket_init(&l->bucket, sv->now_ms, SV_DISC_RATE);
    l->server_id = secrand_u64();
    int port = sv->cfg.discovery_port;
    if (port < 0)
        return;
    const char *why = NULL;
    l->disc = sv_disc_open(ip, port, WIRE_DISCOVERY_SPAN, &why);
    if (!l->disc)
        sv_loge(&sv->log, SV_LOG_WARN, "discovery_off", NULL, NULL, why,
                "LAN discovery off: %s (ports %d..%d)", why, port, port + WIRE_DISCOVERY_SPAN - 1);
    else if (port > 0 && sv_disc_port(l->disc) != port)
        sv_logf(&sv->log, SV_LOG_INFO, "LAN discovery on port %u: %d is another server's",
                (unsigned)sv_disc_port(l->disc), port);
}

void sv_lan_close(sv_t *sv)
{
    sv_disc_close(sv->lan.disc);
    sv->lan.disc = NULL;
}

int sv_lan_poll(sv_t *sv)
{
    return sv->lan.disc ? sv_disc_poll(sv->lan.disc, answer_probe, sv, 64) : 0;
}

int sv_lan_fd(const sv_t *sv)
{
    return sv_disc_fd(sv->lan.disc);
}

void sv_lan_rooms_changed(sv_t *sv)
{
    sv->lan.waiting_valid = false;
}

uint16_t sv_discovery_port(const sv_t *sv)
{
    return sv->lan.disc ? sv_disc_port(sv->lan.disc) : 0;
}
