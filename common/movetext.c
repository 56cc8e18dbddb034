/* movetext.c: the written notation of one move (U D L R, X, x,y+ / x,y-), shared by replays and mazerace-gen.
 */
#include <stdio.h>

#include "puzzle.h"

int pz_move_format(pz_move m, char *buf, size_t len)
{
    if (m.type == PZ_MOVE_STEP && m.dir < PZ_DIR_COUNT)
        return snprintf(buf, len, "%c", pz_dir_letters()[m.dir]);
    if (m.type == PZ_MOVE_RESTART)
        return snprintf(buf, len, "X");
    if (m.type == PZ_MOVE_ROTATE_CW || m.type == PZ_MOVE_ROTATE_CCW)
        return snprintf(buf, len, "%u,%u%c", m.x, m.y, m.type == PZ_MOVE_ROTATE_CW ? '+' : '-');
    return snprintf(buf, len, "?");
}

/* A decimal 0..65535 without sign or leading zeros; the count of digits, or 0. */
static size_t read_u16(const char *s, size_t len, uint16_t *out)
{
    size_t i = 0;
    unsigned v = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9') {
        v = v * 10 + (unsigned)(s[i] - '0');
        if (v > 65535 || (i == 1 && s[0] == '0'))
            return 0;
        i++;
    }
    *out = (uint16_t)v;
    return i;
}

const char *pz_move_parse(const char *s, size_t len, pz_move *out)
{
    pz_move m = {0, 0, 0, 0};
    if (len == 1) {
        const char *letters = pz_dir_letters();
        for (int d = 0; d < PZ_DIR_COUNT; d++)
            if (s[0] == letters[d]) {
                m.type = PZ_MOVE_STEP;
                m.dir = (uint8_t)d;
                *out = m;
                return NULL;
            }
        if (s[0] == 'X') {
            m.type = PZ_MOVE_RESTART;
            *out = m;
            return NULL;
        }
        return "a move is U, D, L, R, X or x,y+ / x,y-";
    }
    size_t a = read_u16(s, len, &m.x);
    if (!a || a >= len || s[a] != ',')
        return "a move is U, D, L, R, X or x,y+ / x,y-";
    size_t b = read_u16(s + a + 1, len - a - 1, &m.y);
    if (!b || a + 1 + b + 1 != len || (s[len - 1] != '+' && s[len - 1] != '-'))
        return "a move is U, D, L, R, X or x,y+ / x,y-";
    m.type = s[len - 1] == '+' ? PZ_MOVE_ROTATE_CW : PZ_MOVE_ROTATE_CCW;
    *out = m;
    return NULL;
}
