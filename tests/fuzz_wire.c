/* fuzz_wire.c: libFuzzer target for the wire decoders (clang only; not part of ctest).
 *
 * Build and run (docs/reliability.md; tools/test does this for 5 s):
 *   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DMR_FUZZ=ON -DMR_TESTS=OFF -DMR_CLIENT=OFF \
 *       "-DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link,address,undefined"
 *   cmake --build build-fuzz --target fuzz_wire
 *   build-fuzz/tests/fuzz/fuzz_wire -dict=build-fuzz/tests/fuzz/fuzz_wire.dict -max_total_time=60
 * -max_len=1024 The dictionary (every type byte, a valid value of every field kind) is made from
 * common/wire_msgs.h by tests/fuzz/wire_dict.c.
 *
 * Every input goes through every decoder. Whatever decodes must encode
 * again to exactly the same bytes (the format has one encoding per
 * message), which also proves the writer's asserts accept everything the
 * reader lets through. A BUNDLE's framing is checked the same way. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t out[WIRE_MSG_MAX];
static wire_msg msg;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (wire_read(data, size, &msg)) {
        size_t n = wire_size(&msg);
        if (n > sizeof out || wire_write(&msg, out, sizeof out) != n)
            abort();
        /* Another version's HELLO keeps only its fixed header. */
        bool other_hello = msg.type == WIRE_HELLO && msg.hello.version != WIRE_VERSION;
        /* A HELLO name is raw bytes; a NUL in it ends the name on writing. */
        other_hello = other_hello || (msg.type == WIRE_HELLO && strlen(msg.hello.name) != msg.hello.name_len);
        if (!other_hello && (n != size || memcmp(out, data, n) != 0))
            abort();
    }
    /* A bundle either is refused whole or gives entries that lie inside it
     * and add up to it exactly; each goes through wire_read as well. */
    wire_bundle_it it;
    if (wire_bundle_open(&it, data, size)) {
        const uint8_t *e;
        size_t n, total = 1;
        while (wire_bundle_next(&it, &e, &n)) {
            if (n == 0 || e < data || e + n > data + size || e[0] == WIRE_BUNDLE)
                abort();
            total += 2 + n;
            (void)wire_read(e, n, &msg);
        }
        if (total != size)
            abort();
    }
    wire_probe p;
    if (wire_read_probe(data, size, &p)) {
        uint8_t b[WIRE_PROBE_LEN];
        if (wire_write_probe(&p, b, sizeof b) != WIRE_PROBE_LEN)
            abort();
    }
    wire_probe_reply r;
    if (wire_read_probe_reply(data, size, &r) && r.version == WIRE_VERSION) {
        uint8_t b[WIRE_PROBE_REPLY_MAX];
        size_t n = wire_write_probe_reply(&r, b, sizeof b);
        if (n != size || memcmp(b, data, n) != 0)
            abort();
    }
    return 0;
}
