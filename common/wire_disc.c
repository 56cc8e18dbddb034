/* wire_disc.c: the discovery details datagram (MZRX): server id and the waiting room a LAN pick joins. */
#include <assert.h>
#include <string.h>

#include "wire.h"
#include "wire_io.h"

size_t wire_write_probe_details(const wire_probe_details *d, uint8_t *buf, size_t cap)
{
    writer w = {buf, cap, 0};
    put_disc_head(&w, WIRE_DETAILS_MAGIC, d->version, d->nonce);
    put_u16(&w, d->game_port);
    put_u64(&w, d->server_id);
    assert(!(d->flags & ~(WIRE_DISC_HOST_GAME | WIRE_DISC_HAS_ROOM)));
    put_u8(&w, d->flags);
    if (d->flags & WIRE_DISC_HAS_ROOM) {
        const pz_params *p = &d->params;
        assert(p->kind >= 0 && p->kind < PZ_KIND_COUNT && p->diff >= 0 && p->diff < PZ_DIFF_COUNT);
        assert(p->w >= 0 && p->h >= 0 && p->w <= 0xFFFF && p->h <= 0xFFFF);
        assert(d->series >= 1 && d->series <= WIRE_MAX_SERIES);
        assert(txt_name_ok(d->host_name, strlen(d->host_name)));
        put_code(&w, d->room);
        put_u8(&w, (unsigned)p->kind);
        put_u16(&w, (unsigned)p->w);
        put_u16(&w, (unsigned)p->h);
        put_u8(&w, (unsigned)p->diff);
        put_u8(&w, d->series);
        put_str8(&w, d->host_name, WIRE_NAME_MAX);
    }
    return w.len;
}

bool wire_read_probe_details(const uint8_t *buf, size_t len, wire_probe_details *d)
{
    reader r;
    if (!(get_disc_start(&r, buf, len, d, sizeof *d, WIRE_DETAILS_MAGIC, &d->version, &d->nonce) &&
          get_u16(&r, &d->game_port) && get_u64(&r, &d->server_id) && get_u8(&r, &d->flags)))
        return false;
    if (d->version != WIRE_VERSION)
        return true; /* a later version may say more: the id is enough to merge it */
    if (d->flags & ~(WIRE_DISC_HOST_GAME | WIRE_DISC_HAS_ROOM))
        return false;
    if (d->flags & WIRE_DISC_HAS_ROOM) {
        if (!(get_code(&r, d->room) && get_params(&r, &d->params) && get_series(&r, &d->series) &&
              get_name(&r, d->host_name)))
            return false;
    }
    return at_end(&r);
}
