/* fuzz_replay.c: libFuzzer target: the replay reader and checker (odd first byte: the input follows a valid
 * header, so the fuzzer reaches the move and end lines), with a format/parse round trip. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char head[] = "mazerace-replay 1\n"
                           "game maze:8x6:2hz41oeEHz5NPGFE\n"
                           "player 0 ann\n"
                           "player 1 bob\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 8192)
        return 0;
    size_t hl = data[0] & 1 ? sizeof head - 1 : 0;
    char *text = malloc(hl + size - 1 + 1);
    memcpy(text, head, hl);
    memcpy(text + hl, data + 1, size - 1);
    pz_error e;
    replay *r = replay_parse(text, hl + size - 1, &e);
    free(text);
    if (!r)
        return 0;
    /* What it accepts must print and read back to the same text. */
    char *t1 = replay_format(r);
    replay *back = replay_parse(t1, strlen(t1), &e);
    if (!back)
        abort();
    char *t2 = replay_format(back);
    if (strcmp(t1, t2) != 0)
        abort();
    match_result res;
    replay_check(back, &res, &e);
    free(t1);
    free(t2);
    replay_destroy(back);
    replay_destroy(r);
    return 0;
}
