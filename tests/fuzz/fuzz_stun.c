/* fuzz_stun.c: libFuzzer target: the STUN/TURN decoder and the ChannelData reader (common/stun.c) on any
 * bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "stun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    stun_msg m;
    if (stun_decode(data, size, &m)) {
        /* What it accepts is well formed: DATA and integrity inside the message. */
        if (m.data && (m.data < data || m.data + m.data_len > data + size))
            abort();
        if (m.integrity_at && m.integrity_at + 24 > size)
            abort();
        if (!stun_looks_like(data, size))
            abort();
    }
    uint16_t ch;
    const uint8_t *d;
    size_t dl;
    if (stun_channel_decode(data, size, &ch, &d, &dl) && (ch < 0x4000 || ch > 0x7FFF || d + dl > data + size))
        abort();
    return 0;
}
