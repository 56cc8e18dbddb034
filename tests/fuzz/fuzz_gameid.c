/* fuzz_gameid.c: libFuzzer target: game IDs and every kind's description decoder (parse, build, re-encode).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "puzzle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Any bytes as a game ID: the parser answers or refuses; a description is
 * decoded, and whatever decodes encodes to a description that decodes to
 * the same description again (one encoding per puzzle). Seeded IDs are
 * generated only for small boards, so a run stays fast. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    char err[200];
    pz_id id;
    if (pz_id_parse(text, &id, err, sizeof err) == NULL &&
        (id.desc || (int64_t)id.params.w * id.params.h <= 64)) {
        pz_puzzle *pz = pz_from_id(text, err, sizeof err);
        if (pz) {
            const pz_kind *k = pz_kind_of(pz);
            char *d1 = k->encode_desc(pz);
            const char *why = NULL;
            pz_puzzle *back = k->decode_desc(pz_params_of(pz), d1, &why);
            if (!back)
                abort(); /* its own description must decode */
            char *d2 = k->encode_desc(back);
            if (strcmp(d1, d2) != 0)
                abort();
            free(d1);
            free(d2);
            k->free_puzzle(back);
            k->free_puzzle(pz);
        }
    }
    free(text);
    return 0;
}
