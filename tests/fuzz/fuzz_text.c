/* fuzz_text.c: libFuzzer target: every kind's text reader (first byte picks the kind), with a format/parse
 * round trip. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "puzzle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 8192)
        return 0;
    const pz_kind *k = pz_kind_by_id(data[0] % PZ_KIND_COUNT);
    if (!k || !k->parse_text)
        return 0;
    pz_error e;
    memset(&e, 0, sizeof e);
    pz_puzzle *pz = k->parse_text((const char *)data + 1, size - 1, &e);
    if (!pz)
        return 0;
    /* What it accepts must print and read back to the same puzzle. */
    char *t = k->format_text(pz);
    pz_error e2;
    memset(&e2, 0, sizeof e2);
    pz_puzzle *back = k->parse_text(t, strlen(t), &e2);
    if (!back)
        abort();
    char *d1 = k->encode_desc(pz), *d2 = k->encode_desc(back);
    if (strcmp(d1, d2) != 0)
        abort();
    free(d1);
    free(d2);
    free(t);
    k->free_puzzle(back);
    k->free_puzzle(pz);
    return 0;
}
