/* mazerace-wirebench: encode/decode cost of the hot messages (MOVE, ACK, PROGRESS); see
 * docs/performance-net.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wire.h"

static void hot_msg(int type, uint32_t i, wire_msg *m)
{
    m->type = (uint8_t)type;
    switch (type) {
    case WIRE_MOVE:
        m->move.seq = i;
        m->move.move = (pz_move){PZ_MOVE_STEP, (uint8_t)(i & 3), 0, 0};
        break;
    case WIRE_ACK:
        m->ack.seq = i;
        m->ack.moves = i / 2;
        m->ack.solved = false;
        break;
    default:
        m->progress.slot = (uint8_t)(i & 1);
        m->progress.move = (pz_move){PZ_MOVE_ROTATE_CW, 0, (uint16_t)(i % 30), (uint16_t)(i % 20)};
        m->progress.moves = i;
        m->progress.x = (int16_t)(i % 30);
        m->progress.y = -1;
        m->progress.path_len = i % 50;
        m->progress.value = -(int32_t)(i % 90);
        m->progress.solved = false;
        break;
    }
}

static int type_of(const char *s)
{
    if (!strcmp(s, "move"))
        return WIRE_MOVE;
    if (!strcmp(s, "ack"))
        return WIRE_ACK;
    if (!strcmp(s, "progress"))
        return WIRE_PROGRESS;
    return -1;
}

int main(int argc, char **argv)
{
    int type = argc == 4 ? type_of(argv[2]) : -1;
    bool enc = argc == 4 && !strcmp(argv[1], "encode");
    bool dec = argc == 4 && !strcmp(argv[1], "decode");
    long n = argc == 4 ? strtol(argv[3], NULL, 10) : -1;
    if (type < 0 || !(enc || dec) || n < 0) {
        fprintf(stderr, "usage: mazerace-wirebench encode|decode move|ack|progress COUNT\n"
                        "  (instructions per message: tools/wirebench/run.sh)\n");
        return 2;
    }
    static wire_msg m, in;
    static uint8_t buf[WIRE_MSG_MAX];
    uint8_t enc_buf[64];
    hot_msg(type, 1, &m);
    size_t len = wire_write(&m, enc_buf, sizeof enc_buf);
    unsigned long sum = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < n; i++) {
        if (enc) {
            hot_msg(type, (uint32_t)i, &m);
            sum += wire_write(&m, buf, sizeof buf) + buf[1];
        } else {
            if (!wire_read(enc_buf, len, &in))
                return 1;
            sum += in.type;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%s %s: %ld messages, %zu bytes each, %.1f ns/message (check %lu)\n", argv[1], argv[2], n, len,
           n ? ns / (double)n : 0.0, sum);
    return 0;
}
