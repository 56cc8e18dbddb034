/* fuzz_coord.c: libFuzzer target: the coordinator's datagram decoder and the whole coordinator behind it. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "co.h"
#include "coord_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Any bytes: the decoder answers or refuses; what decodes re-encodes to the
 * same bytes (one encoding per message), and the coordinator handles it
 * (from two addresses, so lookups can meet registrations) without a crash. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static co_t *co;
    static uint64_t now = 1;
    if (!co) {
        co_config cfg;
        co_config_defaults(&cfg);
        strcpy(cfg.turn_secret, "fuzz");
        const char *err;
        co = co_create(&cfg, &err);
    }
    coord_msg m;
    bool vbad;
    if (coord_decode(data, size, &m, &vbad) && !vbad) {
        uint8_t buf[COORD_MAX];
        size_t n = coord_encode(&m, buf, sizeof buf);
        assert(n == size && memcmp(buf, data, n) == 0);
    }
    co_out out;
    coord_addr from = {0x0A000001u + (uint32_t)(size & 1), 1000};
    co_handle(co, from, data, size, now, 1700000000, &out);
    for (int i = 0; i < out.n; i++)
        assert(coord_decode(out.buf[i], out.len[i], &m, &vbad));
    now += 50;
    if (now % 10000 < 50)
        co_expire(co, now);
    return 0;
}
