/* ice_text.c: sliding-ice descriptions and the original's text form, written and strictly read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ice.h"
#include "ice_impl.h"
#include "util.h"

/* base64url: six interior cells per character. */
static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static int b64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '-')
        return 62;
    if (c == '_')
        return 63;
    return -1;
}

/* Description: "<sx>.<ex>.<cells>": start and exit columns in decimal, then
 * the interior cells row by row, 1 = boulder, six to a character, first cell
 * in the character's high bit, unused low bits 0. */
char *ice_encode_desc(const pz_puzzle *pz)
{
    int iw = pz->w - 2, ih = pz->h - 2;
    size_t nbits = (size_t)iw * ih, nchars = (nbits + 5) / 6;
    char *out = mr_alloc(nchars + 32, 1);
    int k = snprintf(out, 32, "%d.%d.", pz->sx, pz->ex);
    char *c = out + k;
    size_t bit = 0;
    unsigned acc = 0;
    for (int y = 1; y <= ih; y++)
        for (int x = 1; x <= iw; x++) {
            acc = (acc << 1) | (ice_boulder(pz, x, y) ? 1u : 0u);
            if (++bit % 6 == 0) {
                *c++ = b64[acc];
                acc = 0;
            }
        }
    if (bit % 6)
        *c++ = b64[acc << (6 - bit % 6)];
    *c = '\0';
    return out;
}

/* A column number 1..max with no sign, no leading zero; advances *s. */
static int read_column(const char **s, int max)
{
    const char *p = *s;
    if (*p < '1' || *p > '9')
        return -1;
    long v = 0;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + (*p - '0');
        if (v > max)
            return -1;
        p++;
    }
    *s = p;
    return (int)v;
}

/* The border, gaps and boulders are in place: the last check any accepted
 * board passes, so that every puzzle in play can be won. Records the
 * minimum moves that grade reports. */
static const char *check_reachable(pz_puzzle *pz)
{
    pz->moves = ice_min_moves(pz, pz->sx, pz->h - 1);
    return pz->moves < 0 ? "the exit cannot be reached from the start" : NULL;
}

static void close_border(pz_puzzle *pz)
{
    for (int x = 0; x < pz->w; x++) {
        ice_set_boulder(pz, x, 0, x != pz->ex);
        ice_set_boulder(pz, x, pz->h - 1, x != pz->sx);
    }
    for (int y = 1; y < pz->h - 1; y++) {
        ice_set_boulder(pz, 0, y, true);
        ice_set_boulder(pz, pz->w - 1, y, true);
    }
}

pz_puzzle *ice_decode_desc(const pz_params *p, const char *desc, const char **err)
{
    const char *why = NULL;
    if (!p || !desc)
        why = "missing params or description";
    else if (p->kind != PZ_ICE)
        why = "not an ice puzzle";
    else if (p->w < pz_kind_ice.min_w || p->h < pz_kind_ice.min_h || p->w > pz_kind_ice.max_w ||
             p->h > pz_kind_ice.max_h)
        why = "ice board size out of range (see docs/puzzles.md)";
    else if (p->diff < 0 || p->diff >= PZ_DIFF_COUNT)
        why = "difficulty must be easy, medium or hard";
    if (why) {
        if (err)
            *err = why;
        return NULL;
    }
    int w = p->w, h = p->h;
    const char *s = desc;
    int sx = read_column(&s, w - 2);
    int ex = sx > 0 && *s == '.' ? (s++, read_column(&s, w - 2)) : -1;
    if (sx < 0 || ex < 0 || *s++ != '.')
        why = "ice description must start with start and exit columns (1..W-2): \"sx.ex.\"";
    size_t nbits = (size_t)(w - 2) * (h - 2);
    if (!why && strlen(s) != (nbits + 5) / 6)
        why = "ice description has the wrong number of cells for the board size";
    pz_puzzle *pz = NULL;
    if (!why) {
        pz = ice_alloc(w, h);
        pz->params = *p;
        pz->sx = sx;
        pz->ex = ex;
        size_t bit = 0;
        for (const char *c = s; *c && !why; c++) {
            int v = b64_value(*c);
            if (v < 0) {
                why = "ice description has a character outside A-Z a-z 0-9 - _";
                break;
            }
            for (int b = 5; b >= 0; b--, bit++) {
                int on = (v >> b) & 1;
                if (bit >= nbits) {
                    if (on)
                        why = "ice description has stray bits after the last cell";
                    continue;
                }
                int x = 1 + (int)(bit % (size_t)(w - 2)), y = 1 + (int)(bit / (size_t)(w - 2));
                if (on)
                    ice_set_boulder(pz, x, y, true);
            }
        }
    }
    if (!why) {
        close_border(pz);
        why = check_reachable(pz);
    }
    return pz_decoded(pz, why, err);
}

char *ice_format_text(const pz_puzzle *pz)
{
    size_t line = (size_t)pz->w + 1;
    char *out = mr_alloc(line * pz->h + 1, 1);
    for (int y = 0; y < pz->h; y++) {
        for (int x = 0; x < pz->w; x++)
            out[y * line + x] = ice_cell(pz, x, y);
        out[y * line + pz->w] = '\n';
    }
    return out;
}

/* One line of the text: where it starts and how many cells it has. */
typedef struct text_line {
    const char *s;
    int len;
} text_line;

static void describe_char(char c, char *buf, size_t n)
{
    if (c >= 0x21 && c <= 0x7e)
        snprintf(buf, n, "'%c'", c);
    else
        snprintf(buf, n, "byte 0x%02x", (unsigned)(unsigned char)c);
}

/* Splits text into rows: LF or CRLF line ends, the last one optional. Checks
 * the characters and the shape; NULL on failure with err filled. */
static text_line *split_rows(const char *text, size_t len, int *w_out, int *h_out, pz_error *err)
{
    int maxw = pz_kind_ice.max_w, maxh = pz_kind_ice.max_h;
    text_line *rows = mr_alloc((size_t)maxh, sizeof *rows);
    int h = 0, w = -1;
    size_t i = 0;
    if (len == 0) {
        pz_error_set(err, 1, 1, "empty text: expected rows of O . s e");
        goto fail;
    }
    while (i < len) {
        int line = h + 1;
        if (h == maxh) {
            pz_error_set(err, line, 1, "too many rows: an ice board has at most %d", maxh);
            goto fail;
        }
        size_t start = i;
        while (i < len && text[i] != '\n') {
            char c = text[i];
            int col = (int)(i - start) + 1;
            bool crlf = c == '\r' && i + 1 < len && text[i + 1] == '\n';
            if (!crlf && c != 'O' && c != '.' && c != 's' && c != 'e') {
                char what[16];
                describe_char(c, what, sizeof what);
                pz_error_set(err, line, col,
                             "unexpected %s: cells are O (boulder), . (ice), s (start), e (exit)", what);
                goto fail;
            }
            if (!crlf && col > maxw) {
                pz_error_set(err, line, col, "row too long: an ice board has at most %d columns", maxw);
                goto fail;
            }
            i++;
        }
        int n = (int)(i - start);
        if (n > 0 && text[start + n - 1] == '\r')
            n--;
        if (n == 0) {
            pz_error_set(err, line, 1, "empty row");
            goto fail;
        }
        if (w < 0)
            w = n;
        else if (n != w) {
            pz_error_set(err, line, (n < w ? n : w) + 1, "row has %d cells, the first row has %d", n, w);
            goto fail;
        }
        rows[h].s = text + start;
        rows[h].len = n;
        h++;
        if (i < len)
            i++; /* past '\n' */
    }
    if (w < pz_kind_ice.min_w) {
        pz_error_set(err, 1, w + 1, "too few columns: an ice board has at least %d", pz_kind_ice.min_w);
        goto fail;
    }
    if (h < pz_kind_ice.min_h) {
        pz_error_set(err, h + 1, 1, "too few rows: an ice board has at least %d", pz_kind_ice.min_h);
        goto fail;
    }
    *w_out = w;
    *h_out = h;
    return rows;
fail:
    free(rows);
    return NULL;
}

/* The rules of a board (docs/kinds/ice.md): border all O but for one s in
 * the bottom row and one e in the top row, never in a corner; inside only O
 * and '.'; the exit reachable from the start. */
pz_puzzle *ice_parse_text(const char *text, size_t len, pz_error *err)
{
    int w = 0, h = 0;
    if (!text) {
        pz_error_set(err, 1, 1, "no text");
        return NULL;
    }
    text_line *rows = split_rows(text, len, &w, &h, err);
    if (!rows)
        return NULL;
    pz_puzzle *pz = ice_alloc(w, h);
    int sy = -1, ey = -1;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            char c = rows[y].s[x];
            bool border = x == 0 || y == 0 || x == w - 1 || y == h - 1;
            bool corner = (x == 0 || x == w - 1) && (y == 0 || y == h - 1);
            const char *why = NULL;
            if (c == 's') {
                if (y != h - 1 || corner)
                    why = "the start 's' must be a gap in the bottom border (not a corner)";
                else if (sy >= 0)
                    why = "more than one start 's'";
                sy = y;
                pz->sx = x;
            } else if (c == 'e') {
                if (y != 0 || corner)
                    why = "the exit 'e' must be a gap in the top border (not a corner)";
                else if (ey >= 0)
                    why = "more than one exit 'e'";
                ey = y;
                pz->ex = x;
            } else if (c == '.' && border) {
                why = "the border must be boulders 'O' (apart from s and e)";
            } else if (c == 'O') {
                ice_set_boulder(pz, x, y, true);
            }
            if (why) {
                pz_error_set(err, y + 1, x + 1, "%s", why);
                goto fail;
            }
        }
    }
    if (ey < 0) {
        pz_error_set(err, 1, 1, "no exit 'e' in the top row");
        goto fail;
    }
    if (sy < 0) {
        pz_error_set(err, h, 1, "no start 's' in the bottom row");
        goto fail;
    }
    const char *unreachable = check_reachable(pz);
    if (unreachable) {
        pz_error_set(err, 1, pz->ex + 1, "%s", unreachable);
        goto fail;
    }
    {
        pz_grade g;
        pz_kind_ice.grade(pz, &g);
        /* A text form has no difficulty: record the measured band, and the
         * nearest band for boards outside every band (one-move boards). */
        pz->params.diff = g.band >= 0 ? g.band : PZ_EASY;
    }
    free(rows);
    return pz;
fail:
    free(rows);
    free(pz);
    return NULL;
}
