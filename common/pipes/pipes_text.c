/* pipes_text.c: the rotating-pipes description and text forms (writers, strict readers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipes_impl.h"
#include "util.h"

/* The text letter of each of pipes_tile_masks, in order. */
static const char tile_letters[] = "|-LF7J";

static int tile_index(int mask)
{
    for (int i = 0; i < 6; i++)
        if (pipes_tile_masks[i] == mask)
            return i;
    return -1;
}

/* ---- description: "<start row>.<end row>.<tiles>" ----
 * Tiles row by row, two per character: 6 * first + second as a base-36 digit
 * (0-9 a-z); an odd last tile stands alone as 6 * tile. */

static const char digits36[] = "0123456789abcdefghijklmnopqrstuvwxyz";

char *pipes_encode_desc(const pz_puzzle *pz)
{
    size_t cap = 32 + (size_t)pz->n / 2 + 1;
    char *s = mr_alloc(cap, 1);
    int k = snprintf(s, cap, "%d.%d.", pz->start_row, pz->end_row);
    for (int i = 0; i < pz->n; i += 2) {
        int a = tile_index(pz->mask[i]);
        int b = i + 1 < pz->n ? tile_index(pz->mask[i + 1]) : 0;
        s[k++] = digits36[a * 6 + b];
    }
    s[k] = '\0';
    return s;
}

/* Reads a row number with no leading zeros ending at `stop`; -1 if bad. */
static int read_row(const char **p, char stop)
{
    const char *s = *p;
    int v = 0, nd = 0;
    while (*s >= '0' && *s <= '9' && nd < 4) {
        v = v * 10 + (*s - '0');
        s++;
        nd++;
    }
    if (nd == 0 || *s != stop || (nd > 1 && **p == '0'))
        return -1;
    *p = s + 1;
    return v;
}

/* Refuses boards whose par cannot be worked out exactly (see SOLVE_BUDGET)
 * or that have no chain at all: a race on them would be meaningless. */
static const char *check_solvable(const pz_puzzle *pz)
{
    pz_state *st = pipes_new_state(pz);
    bool solved = st->solved;
    pipes_free_state(st);
    if (solved)
        return NULL;
    pipes_solver *sv = pipes_solve_board(pz, NULL);
    const char *why = NULL;
    if (sv->best_len < 0 && sv->exact)
        why = "no rotation of these tiles joins Start to End";
    else if (!sv->exact)
        why = "board too intricate to check within the solver's budget";
    free(sv);
    return why;
}

/* Reads the tile characters of a description into pz->mask. */
static const char *decode_tiles(pz_puzzle *pz, const char *s)
{
    if (strlen(s) != (size_t)(pz->n + 1) / 2)
        return "description has the wrong number of tile characters for this size";
    for (int k = 0; s[k]; k++) {
        const char *d = memchr(digits36, s[k], 36);
        int v = d ? (int)(d - digits36) : -1;
        if (v < 0)
            return "description tiles must be digits 0-9 and lower-case letters";
        if (2 * k + 1 == pz->n && v % 6 != 0)
            return "description's last tile character is not canonical";
        pz->mask[2 * k] = pipes_tile_masks[v / 6];
        if (2 * k + 1 < pz->n)
            pz->mask[2 * k + 1] = pipes_tile_masks[v % 6];
    }
    return NULL;
}

pz_puzzle *pipes_decode_desc(const pz_params *p, const char *desc, const char **err)
{
    if (!p || !desc) {
        if (err)
            *err = "no description";
        return NULL;
    }
    const char *why = pipes_check_size(p->w, p->h);
    if (why) {
        if (err)
            *err = why;
        return NULL;
    }
    const char *s = desc;
    pz_puzzle *pz = pipes_alloc(p);
    pz->start_row = read_row(&s, '.');
    pz->end_row = pz->start_row < 0 ? -1 : read_row(&s, '.');
    if (pz->start_row < 0 || pz->start_row >= p->h)
        why = "description must start with the Start row (0..h-1) and a '.'";
    else if (pz->end_row < 0 || pz->end_row >= p->h)
        why = "description needs the End row (0..h-1) and a '.' after the Start row";
    else
        why = decode_tiles(pz, s);
    if (!why)
        why = check_solvable(pz);
    return pz_decoded(pz, why, err);
}

/* ---- text form ----
 * One line per row: a cap column, w tiles, a cap column. Caps: 'S' (Start,
 * left column, once), 'E' (End, right column, once), '.' elsewhere. Tiles:
 * | - L F 7 J (openings N+S, E+W, N+E, E+S, S+W, W+N). */

char *pipes_format_text(const pz_puzzle *pz)
{
    int w = pz->params.w, h = pz->params.h;
    size_t line = (size_t)w + 3;
    char *s = mr_alloc(line * (size_t)h + 1, 1);
    char *o = s;
    for (int y = 0; y < h; y++) {
        *o++ = y == pz->start_row ? 'S' : '.';
        for (int x = 0; x < w; x++)
            *o++ = tile_letters[tile_index(pz->mask[y * w + x])];
        *o++ = y == pz->end_row ? 'E' : '.';
        *o++ = '\n';
    }
    *o = '\0';
    return s;
}

pz_puzzle *pipes_parse_text(const char *text, size_t len, pz_error *err)
{
    if (!text) {
        pz_error_set(err, 1, 1, "no text");
        return NULL;
    }
    /* First pass: line lengths, so the board size is known. */
    int rows = 0, width = -1;
    size_t pos = 0;
    while (pos < len) {
        size_t eol = pos;
        while (eol < len && text[eol] != '\n')
            eol++;
        size_t n = eol;
        if (n > pos && text[n - 1] == '\r')
            n--;
        int lw = (int)(n - pos > 1000 ? 1000 : n - pos);
        if (lw == 0) {
            /* only trailing blank lines may follow the board */
            size_t q = eol;
            while (q < len && (text[q] == '\n' || text[q] == '\r'))
                q++;
            if (q < len || rows == 0) {
                pz_error_set(err, rows + 1, 1,
                             rows == 0 ? "empty line: expected a row of tiles"
                                       : "blank line inside the board");
                return NULL;
            }
            break;
        }
        if (width < 0)
            width = lw;
        else if (lw != width) {
            pz_error_set(err, rows + 1, lw < width ? lw + 1 : width + 1,
                         "every row must be %d characters long (cap, %d tiles, cap)", width, width - 2);
            return NULL;
        }
        rows++;
        if (rows > PIPES_MAX_H) {
            pz_error_set(err, rows, 1, "too many rows: pipes boards are at most %d rows", PIPES_MAX_H);
            return NULL;
        }
        pos = eol + 1;
    }
    if (rows == 0) {
        pz_error_set(err, 1, 1, "empty text: expected rows of tiles");
        return NULL;
    }
    int w = width - 2, h = rows;
    if (w < PIPES_MIN_W || w > PIPES_MAX_W) {
        /* point at the cap that came too early, or the first tile too many */
        pz_error_set(err, 1, w < PIPES_MIN_W ? width : PIPES_MAX_W + 2,
                     "rows must hold %d to %d tiles between the cap columns", PIPES_MIN_W, PIPES_MAX_W);
        return NULL;
    }
    if (h < PIPES_MIN_H) {
        pz_error_set(err, h + 1, 1, "pipes boards have at least %d rows", PIPES_MIN_H);
        return NULL;
    }
    pz_params p = {.kind = PZ_PIPES, .w = w, .h = h, .diff = PZ_MEDIUM};
    pz_puzzle *pz = pipes_alloc(&p);
    pz->start_row = pz->end_row = -1;
    pos = 0;
    for (int y = 0; y < h; y++) {
        const char *row = text + pos;
        for (int c = 0; c < width; c++) {
            char ch = row[c];
            const char *why = NULL;
            if (c == 0 || c == width - 1) {
                char cap = c == 0 ? 'S' : 'E';
                int *slot = c == 0 ? &pz->start_row : &pz->end_row;
                if (ch == cap) {
                    if (*slot >= 0)
                        why = c == 0 ? "a second Start cap 'S': there must be exactly one"
                                     : "a second End cap 'E': there must be exactly one";
                    else
                        *slot = y;
                } else if (ch != '.')
                    why = c == 0 ? "left cap column holds 'S' (Start) or '.'"
                                 : "right cap column holds 'E' (End) or '.'";
            } else {
                const char *t = memchr(tile_letters, ch, 6);
                if (!t || ch == '\0')
                    why = "expected a tile: one of | - L F 7 J";
                else
                    pz->mask[y * w + c - 1] = pipes_tile_masks[t - tile_letters];
            }
            if (why) {
                pz_error_set(err, y + 1, c + 1, "%s", why);
                free(pz);
                return NULL;
            }
        }
        while (pos < len && text[pos] != '\n')
            pos++;
        pos++;
    }
    if (pz->start_row < 0 || pz->end_row < 0) {
        bool no_start = pz->start_row < 0;
        pz_error_set(err, 1, no_start ? 1 : width,
                     no_start ? "no Start cap: put 'S' in the left column of one row"
                              : "no End cap: put 'E' in the right column of one row");
        free(pz);
        return NULL;
    }
    const char *why = check_solvable(pz);
    if (why) {
        pz_error_set(err, pz->start_row + 1, 1, "%s", why);
        free(pz);
        return NULL;
    }
    return pz;
}
