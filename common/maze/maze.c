/* maze.c: the maze puzzle kind (perfect maze by randomized traversal); rules in docs/kinds/maze.md. */
#include "maze.h"
#include "maze_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "util.h"

/* The generator keeps drawing mazes, each steered towards the band
 * (maze_steer.c), until the measured band matches; steering nearly always
 * succeeds on the first draw above about 10x10, and each band has
 * probability >= 0.11 per unsteered draw at every allowed size (measured,
 * docs/kinds/maze.md), so 128 draws all miss with probability below 1e-6:
 * such an ID gets a clear error, the same on every machine. */
#define MAX_DRAWS 128
#define MAX_ASPECT 4 /* longer side at most 4 x the shorter */

#define MIN_SIDE 3
#define MAX_SIDE 1000 /* the floor; docs/kinds/maze.md has the timings */

/* Text form: "+" corners, "-" and "|" walls, " " passages, "S" start, "E"
 * exit; 2h+1 lines of 2w+1 characters. */
#define MAX_TEXT_COLS (2 * MAX_SIDE + 1)

struct pz_puzzle {
    pz_params params;
    uint8_t *cells; /* w * h bytes, row-major */
    int route_len;  /* moves from start to exit */
    long wasted;    /* dead-end cells the heading player walks into */
    long dead;      /* cells off the route */
};

struct pz_state {
    int x, y;
};

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* ---- structure: parents, route, measure ---- */

/* next_dir[mask][k]: the lowest direction >= k whose bit is set in mask, or
 * PZ_DIR_COUNT. Replaces a data-dependent scan in the tree walks. */
static const uint8_t next_dir[16][PZ_DIR_COUNT + 1] = {
    {4, 4, 4, 4, 4}, {0, 4, 4, 4, 4}, {1, 1, 4, 4, 4}, {0, 1, 4, 4, 4}, {2, 2, 2, 4, 4}, {0, 2, 2, 4, 4},
    {1, 1, 2, 4, 4}, {0, 1, 2, 4, 4}, {3, 3, 3, 3, 4}, {0, 3, 3, 3, 4}, {1, 1, 3, 3, 4}, {0, 1, 3, 3, 4},
    {2, 2, 2, 3, 4}, {0, 2, 2, 3, 4}, {1, 1, 2, 3, 4}, {0, 1, 2, 3, 4},
};

/* Walks the tree from the start without a stack, each edge twice, setting
 * every cell's parent direction. Requires open bits consistent between
 * neighbours and closed at the border. Returns -1 if all cells are reached
 * with no loop, else the index of the first bad cell, with *loop_dir >= 0
 * (the passage from that cell that closes a loop) or -1 (unreachable). */
static long link_tree(uint8_t *c, int w, int h, int *loop_dir)
{
    size_t n = (size_t)w * (size_t)h;
    long off[PZ_DIR_COUNT];
    maze_offsets(w, off);
    long start = (long)(h - 1) * w;
    long cur = start;
    size_t seen = 1;
    int k = 0;
    c[cur] = (uint8_t)((c[cur] & MAZE_OPEN_MASK) | MAZE_SEEN_BIT);
    for (;;) {
        uint8_t cc = c[cur];
        unsigned par_bit = cur == start ? 0u : 1u << maze_parent_of(cc);
        int d = next_dir[cc & MAZE_OPEN_MASK & ~par_bit][k];
        if (d < PZ_DIR_COUNT) {
            long nb = cur + off[d];
            if (c[nb] & MAZE_SEEN_BIT) {
                *loop_dir = d;
                for (size_t i = 0; i < n; i++)
                    c[i] &= (uint8_t)~MAZE_SEEN_BIT;
                return cur;
            }
            c[nb] = (uint8_t)((c[nb] & MAZE_OPEN_MASK) | MAZE_SEEN_BIT | ((d ^ 1) << MAZE_PARENT_SHIFT));
            seen++;
            cur = nb;
            k = 0;
        } else {
            if (cur == start)
                break;
            int up = maze_parent_of(cc);
            cur += off[up];
            k = (up ^ 1) + 1;
        }
    }
    long bad = -1;
    for (size_t i = 0; i < n; i++) {
        if (!(c[i] & MAZE_SEEN_BIT) && bad < 0)
            bad = (long)i;
        c[i] &= (uint8_t)~MAZE_SEEN_BIT;
    }
    *loop_dir = -1;
    return seen == n ? -1 : bad;
}

/* Marks the route (ancestors of the exit), then measures the dead ends a
 * player walks into who, at every junction on the route, tries passages in
 * heading_order and explores each wrong branch to its end. */
static void measure(pz_puzzle *pz, uint32_t *stack)
{
    int w = pz->params.w, h = pz->params.h;
    uint8_t *c = pz->cells;
    long off[PZ_DIR_COUNT];
    maze_offsets(w, off);
    long start = (long)(h - 1) * w, exit = w - 1;
    int len = 0;
    for (long cur = exit;; len++) {
        c[cur] |= MAZE_ROUTE_BIT;
        if (cur == start)
            break;
        cur += off[maze_parent_of(c[cur])];
    }
    pz->route_len = len;
    pz->dead = (long)w * h - (len + 1);
    maze_walker wk;
    maze_walker_init(&wk, w);
    long wasted = 0;
    int x = 0, y = h - 1;
    for (long cur = start; cur != exit;) {
        int par = cur == start ? -1 : maze_parent_of(c[cur]);
        int ord[PZ_DIR_COUNT];
        maze_heading_order(w, x, y, ord);
        for (int i = 0; i < PZ_DIR_COUNT; i++) {
            int d = ord[i];
            if (!(c[cur] & (1u << d)) || d == par)
                continue;
            long nb = cur + off[d];
            if (c[nb] & MAZE_ROUTE_BIT) {
                cur = nb;
                x += pz_dir_dx(d);
                y += pz_dir_dy(d);
                break;
            }
            wasted += maze_subtree(&wk, c, nb, stack);
        }
    }
    pz->wasted = wasted;
}

static long permille(const pz_puzzle *pz)
{
    return pz->dead > 0 ? pz->wasted * 1000 / pz->dead : 0;
}

static int band_of(const pz_puzzle *pz)
{
    return maze_band(pz->wasted, pz->dead);
}

/* ---- params, creation ---- */

static const char *validate_params(const pz_params *p)
{
    if (p->kind != PZ_MAZE)
        return "not a maze";
    if (p->w < pz_kind_maze.min_w || p->h < pz_kind_maze.min_h)
        return "maze too small: at least 3x3";
    if (p->w > pz_kind_maze.max_w || p->h > pz_kind_maze.max_h)
        return "maze too large: at most 1000x1000";
    /* On long thin boards the measure averages over many independent
     * stretches and concentrates in one band (docs/kinds/maze.md). */
    if (p->w > MAX_ASPECT * p->h || p->h > MAX_ASPECT * p->w)
        return "maze too long and thin: the longer side may be at most 4 times the shorter";
    if (p->diff < 0 || p->diff >= PZ_DIFF_COUNT)
        return "difficulty must be easy, medium or hard";
    return NULL;
}

static pz_puzzle *alloc_puzzle(int w, int h, int diff)
{
    pz_puzzle *pz = mr_alloc(1, sizeof *pz);
    pz->params = (pz_params){.kind = PZ_MAZE, .w = w, .h = h, .diff = diff};
    pz->cells = mr_alloc((size_t)w * (size_t)h, 1);
    return pz;
}

static void free_puzzle(pz_puzzle *pz)
{
    if (!pz)
        return;
    free(pz->cells);
    free(pz);
}

/* Draws mazes from the seed's stream until one falls in band `want` (any
 * band if want < 0), at most MAX_DRAWS. */
static pz_puzzle *draw(const pz_params *p, uint64_t seed, int want, const char **err)
{
    const char *why = validate_params(p);
    if (why) {
        if (err)
            *err = why;
        return NULL;
    }
    pz_puzzle *pz = alloc_puzzle(p->w, p->h, p->diff);
    rng_t r;
    rng_seed(&r, seed);
    maze_scratch *scratch = maze_scratch_create(p->w, p->h);
    /* Not zeroed (mr_realloc of NULL): every slot is written before it is
     * read, and zeroing 4 MB at 1000x1000 on every generation costs more
     * than the measure's walks. */
    uint32_t *stack = mr_realloc(NULL, (size_t)p->w * (size_t)p->h + 4, sizeof *stack);
    bool found = false;
    for (int i = 0; i < MAX_DRAWS && !found; i++) {
        maze_carve(pz->cells, scratch, p->w, p->h, &r);
        measure(pz, stack);
        found = want < 0 || maze_steer(pz->cells, p->w, p->h, pz->dead, &pz->wasted, want, stack);
    }
    maze_scratch_destroy(scratch);
    free(stack);

    if (!found) {
        free_puzzle(pz);
        if (err)
            *err = "no maze of that difficulty found within the draw limit (try another seed or size)";
        return NULL;
    }
    if (want < 0)
        pz->params.diff = band_of(pz);
    return pz;
}

static pz_puzzle *generate(const pz_params *p, uint64_t seed, const char **err)
{
    return draw(p, seed, p->diff, err);
}

pz_puzzle *maze_generate_once(const pz_params *p, uint64_t seed, const char **err)
{
    return draw(p, seed, -1, err);
}

/* Checks the border, links the tree and measures; NULL or why not. On a
 * loop or an unreachable cell, *bad is the cell and *bad_dir the passage
 * (-1 for unreachable). */
static const char *finish(pz_puzzle *pz, long *bad, int *bad_dir)
{
    int w = pz->params.w, h = pz->params.h;
    *bad = link_tree(pz->cells, w, h, bad_dir);
    if (*bad >= 0)
        return *bad_dir >= 0 ? "passages make a loop: a perfect maze has exactly one route between cells"
                             : "some cells cannot be reached from the start";
    uint32_t *stack = mr_alloc((size_t)w * (size_t)h + 4, sizeof *stack);
    measure(pz, stack);
    free(stack);
    return NULL;
}

/* ---- description: 2 bits per cell (right, down passages), 3 cells per char ---- */

static char *encode_desc(const pz_puzzle *pz)
{
    size_t n = (size_t)pz->params.w * (size_t)pz->params.h;
    size_t len = (n + 2) / 3;
    char *s = mr_alloc(len + 1, 1);
    for (size_t i = 0; i < len; i++) {
        unsigned v = 0;
        for (size_t k = 0; k < 3 && 3 * i + k < n; k++) {
            uint8_t c = pz->cells[3 * i + k];
            unsigned bits = ((c >> PZ_RIGHT) & 1u) | (((c >> PZ_DOWN) & 1u) << 1);
            v |= bits << (2 * k);
        }
        s[i] = b64[v];
    }
    s[len] = '\0';
    return s;
}

static pz_puzzle *decode_desc(const pz_params *p, const char *desc, const char **err)
{
    const char *why = NULL;
    pz_params q = *p;
    q.kind = PZ_MAZE;
    if (q.diff < 0 || q.diff >= PZ_DIFF_COUNT)
        q.diff = PZ_MEDIUM;
    why = desc ? validate_params(&q) : "missing description";
    if (why) {
        if (err)
            *err = why;
        return NULL;
    }
    int w = q.w, h = q.h;
    size_t n = (size_t)w * (size_t)h;
    size_t len = (n + 2) / 3;
    if (strnlen(desc, len + 1) != len) {
        if (err)
            *err = "maze description has the wrong length for its size";
        return NULL;
    }
    pz_puzzle *pz = alloc_puzzle(w, h, q.diff);
    uint8_t *c = pz->cells;
    /* Branch-free per cell: the characters and bits are random, so tests
     * on them would mispredict on every other cell. */
    int8_t value[256];
    memset(value, -1, sizeof value);
    for (int i = 0; i < 64; i++)
        value[(unsigned char)b64[i]] = (int8_t)i;
    unsigned bad_char = 0, through_wall = 0;
    int x = 0, y = 0; /* of the next cell, kept incrementally: no division per cell */
    for (size_t i = 0; i < len; i++) {
        int v = value[(unsigned char)desc[i]];
        bad_char |= v < 0;
        unsigned bits6 = (unsigned)v & 63u;
        if (3 * i + 3 > n) { /* the last character may cover fewer than 3 cells */
            if (bits6 >> (2 * (n - 3 * i)))
                why = "maze description has stray bits after the last cell";
        }
        for (size_t k = 0; k < 3 && 3 * i + k < n; k++) {
            size_t cell = 3 * i + k;
            unsigned rt = (bits6 >> (2 * k)) & 1u, dn = (bits6 >> (2 * k + 1)) & 1u;
            unsigned at_right = x == w - 1, at_bottom = y == h - 1;
            through_wall |= (rt & at_right) | (dn & at_bottom);
            rt &= !at_right;
            dn &= !at_bottom;
            c[cell] |= (uint8_t)((rt << PZ_RIGHT) | (dn << PZ_DOWN));
            c[cell + rt] |= (uint8_t)(rt << PZ_LEFT);
            c[cell + dn * (size_t)w] |= (uint8_t)(dn << PZ_UP);
            if (++x == w) {
                x = 0;
                y++;
            }
        }
    }
    if (bad_char)
        why = "bad character in maze description";
    else if (through_wall)
        why = "maze description opens a passage through the outer wall";
    long bad;
    int bad_dir;
    if (!why)
        why = finish(pz, &bad, &bad_dir);
    if (why) {
        free_puzzle(pz);
        if (err)
            *err = why;
        return NULL;
    }
    return pz;
}

/* ---- text form ---- */

static char *format_text(const pz_puzzle *pz)
{
    int w = pz->params.w, h = pz->params.h;
    size_t cols = 2 * (size_t)w + 2; /* with '\n' */
    size_t rows = 2 * (size_t)h + 1;
    char *s = mr_alloc(cols * rows + 1, 1);
    for (size_t r = 0; r < rows; r++) {
        char *line = s + r * cols;
        memset(line, ' ', cols - 1);
        line[cols - 1] = '\n';
        for (int x = 0; x <= w; x++)
            line[2 * x] = (r % 2 == 0) ? '+' : '|';
        if (r % 2 == 0) {
            int y = (int)(r / 2); /* wall line above row y */
            for (int x = 0; x < w; x++) {
                bool open = y > 0 && y < h && (pz->cells[(size_t)y * (size_t)w + (size_t)x] & (1u << PZ_UP));
                line[2 * x + 1] = open ? ' ' : '-';
            }
        } else {
            int y = (int)(r / 2);
            for (int x = 0; x < w; x++) {
                uint8_t c = pz->cells[(size_t)y * (size_t)w + (size_t)x];
                if (x + 1 < w && (c & (1u << PZ_RIGHT)))
                    line[2 * x + 2] = ' ';
            }
        }
    }
    s[(size_t)(2 * h - 1) * cols + 1] = 'S';
    s[1 * cols + 2 * (size_t)w - 1] = 'E';
    s[cols * rows] = '\0';
    return s;
}

static pz_puzzle *text_fail(pz_error *err, int line, int col, const char *msg)
{
    pz_error_set(err, line, col, "%s", msg);
    return NULL;
}

/* Wall character expected at line index r, column index k (0-based) of a
 * text form, or 0 for a cell. */
static char frame_char(size_t r, size_t k)
{
    if (r % 2 == 0)
        return k % 2 == 0 ? '+' : '-';
    return k % 2 == 0 ? '|' : 0;
}

static pz_puzzle *parse_text(const char *text, size_t len, pz_error *err)
{
    if (!text)
        return text_fail(err, 1, 1, "no text");
    /* Pass 1: shape. Every line has the first line's width (CR LF is
     * accepted as a line end); at most one final newline. */
    size_t width = 0, rows = 0, pos = 0;
    while (pos < len) {
        size_t k = 0;
        while (pos + k < len && text[pos + k] != '\n') {
            if (k >= MAX_TEXT_COLS + 1)
                return text_fail(err, (int)rows + 1, (int)k + 1,
                                 "line too long: a maze is at most 1000 cells wide");
            k++;
        }
        size_t lw = k;
        if (lw > 0 && text[pos + lw - 1] == '\r')
            lw--;
        if (rows == 0) {
            if (lw < 2 * (size_t)pz_kind_maze.min_w + 1 || lw % 2 == 0)
                return text_fail(err, 1, (int)lw + 1,
                                 "first line must be a wall line of 2w+1 characters with w from 3 to 1000");
            width = lw;
        } else if (lw != width) {
            return text_fail(err, (int)rows + 1, (int)(lw < width ? lw : width) + 1,
                             lw < width ? "line too short: all lines must be as long as the first"
                                        : "line too long: all lines must be as long as the first");
        }
        rows++;
        if (rows > 2 * (size_t)pz_kind_maze.max_h + 1)
            return text_fail(err, (int)rows, 1, "too many lines: a maze is at most 1000 cells tall");
        pos += k + 1;
    }
    if (rows < 2 * (size_t)pz_kind_maze.min_h + 1 || rows % 2 == 0)
        return text_fail(err, (int)rows + 1, 1, "a maze needs 2h+1 lines with h from 3 to 1000");
    int w = (int)(width - 1) / 2, h = (int)(rows - 1) / 2;
    pz_params q = {.kind = PZ_MAZE, .w = w, .h = h, .diff = PZ_MEDIUM};
    const char *bad_size = validate_params(&q);
    if (bad_size)
        return text_fail(err, 1, 1, bad_size);
    pz_puzzle *pz = alloc_puzzle(w, h, PZ_MEDIUM);
    uint8_t *c = pz->cells;
    /* Pass 2: characters. */
    pos = 0;
    for (size_t r = 0; r < rows; r++) {
        const char *line = text + pos;
        for (size_t k = 0; k < width; k++) {
            char ch = line[k], want = frame_char(r, k);
            int ln = (int)r + 1, col = (int)k + 1;
            bool outer = r == 0 || r == rows - 1 || k == 0 || k == width - 1;
            int x = (int)(k / 2), y = (int)(r / 2); /* cell right of / below this char */
            if (want == '+') {
                if (ch != '+') {
                    free_puzzle(pz);
                    return text_fail(err, ln, col, "expected '+' at a wall corner");
                }
            } else if (want) {
                if (ch == want)
                    continue;
                if (ch != ' ' || outer) {
                    free_puzzle(pz);
                    return text_fail(err, ln, col,
                                     outer ? (want == '-' ? "expected '-': the outer wall is closed"
                                                          : "expected '|': the outer wall is closed")
                                           : (want == '-' ? "expected '-' (wall) or ' ' (passage)"
                                                          : "expected '|' (wall) or ' ' (passage)"));
                }
                if (want == '-') { /* passage between (x, y-1) and (x, y) */
                    c[(size_t)y * (size_t)w + (size_t)x] |= 1u << PZ_UP;
                    c[(size_t)(y - 1) * (size_t)w + (size_t)x] |= 1u << PZ_DOWN;
                } else { /* passage between (x-1, y) and (x, y) */
                    c[(size_t)y * (size_t)w + (size_t)x] |= 1u << PZ_LEFT;
                    c[(size_t)y * (size_t)w + (size_t)x - 1] |= 1u << PZ_RIGHT;
                }
            } else {
                bool is_start = x == 0 && y == h - 1, is_exit = x == w - 1 && y == 0;
                char need = is_start ? 'S' : is_exit ? 'E' : ' ';
                if (ch == need)
                    continue;
                free_puzzle(pz);
                if (ch == 'S')
                    return text_fail(err, ln, col, "'S' must be the bottom-left cell, and only there");
                if (ch == 'E')
                    return text_fail(err, ln, col, "'E' must be the top-right cell, and only there");
                if (is_start)
                    return text_fail(err, ln, col, "expected 'S': the start is the bottom-left cell");
                if (is_exit)
                    return text_fail(err, ln, col, "expected 'E': the exit is the top-right cell");
                return text_fail(err, ln, col, "expected ' ' inside a cell");
            }
        }
        while (pos < len && text[pos] != '\n')
            pos++;
        pos++;
    }
    long bad;
    int bad_dir;
    const char *why = finish(pz, &bad, &bad_dir);
    if (why) {
        int x = (int)(bad % w), y = (int)(bad / w);
        int ln = 2 * y + 2, col = 2 * x + 2; /* 1-based position of the cell */
        if (bad_dir >= 0) {                  /* the passage character */
            ln += pz_dir_dy(bad_dir);
            col += pz_dir_dx(bad_dir);
        }
        free_puzzle(pz);
        return text_fail(err, ln, col, why);
    }
    pz->params.diff = band_of(pz);
    return pz;
}

/* ---- play ---- */

static pz_state *new_state(const pz_puzzle *pz)
{
    pz_state *st = mr_alloc(1, sizeof *st);
    st->x = 0;
    st->y = pz->params.h - 1;
    return st;
}

static void copy_state(pz_state *dst, const pz_state *src)
{
    *dst = *src;
}

static void free_state(pz_state *st)
{
    free(st);
}

static bool is_solved(const pz_puzzle *pz, const pz_state *st)
{
    return st->x == pz->params.w - 1 && st->y == 0;
}

static const char *execute_move(const pz_puzzle *pz, const pz_state *from, pz_move mv, pz_state *to)
{
    if (mv.type != PZ_MOVE_STEP)
        return "a maze move must be a step";
    if (mv.dir >= PZ_DIR_COUNT)
        return "bad direction";
    if (mv.x != 0 || mv.y != 0)
        return "a maze step carries no coordinates (x and y must be 0)";
    if (is_solved(pz, from))
        return "the maze is already solved";
    if (!maze_open(pz, from->x, from->y, mv.dir))
        return "a wall is in the way";
    to->x = from->x + pz_dir_dx(mv.dir);
    to->y = from->y + pz_dir_dy(mv.dir);
    return NULL;
}

/* From the position, up the start-rooted tree to the route, then along the
 * route (the child marked as route) to the exit: the tree path, so the
 * shortest, and from the start exactly the route. */
static int solve(const pz_puzzle *pz, const pz_state *st, pz_move *out, int max)
{
    int w = pz->params.w, h = pz->params.h;
    long off[PZ_DIR_COUNT];
    maze_offsets(w, off);
    long start = (long)(h - 1) * w, exit = w - 1;
    long cur = st ? (long)st->y * w + st->x : start;
    int n = 0;
    while (!(pz->cells[cur] & MAZE_ROUTE_BIT)) {
        int d = maze_parent_of(pz->cells[cur]);
        if (n < max && out)
            out[n] = (pz_move){.type = PZ_MOVE_STEP, .dir = (uint8_t)d};
        n++;
        cur += off[d];
    }
    while (cur != exit) {
        uint8_t cc = pz->cells[cur];
        int par = cur == start ? -1 : maze_parent_of(cc);
        int d = 0;
        while (d < PZ_DIR_COUNT &&
               (!(cc & (1u << d)) || d == par || !(pz->cells[cur + off[d]] & MAZE_ROUTE_BIT)))
            d++;
        if (d == PZ_DIR_COUNT)
            return -1; /* unreachable: finish() proved the route */
        if (n < max && out)
            out[n] = (pz_move){.type = PZ_MOVE_STEP, .dir = (uint8_t)d};
        n++;
        cur += off[d];
    }
    return n;
}

static void grade(const pz_puzzle *pz, pz_grade *out)
{
    memset(out, 0, sizeof *out);
    long m = permille(pz);
    out->band = band_of(pz);
    out->measure = m;
    out->par = pz->route_len;
    out->solutions = 1;
    snprintf(out->summary, sizeof out->summary, "dead ends walked into %ld.%ld%%, route %d moves", m / 10,
             m % 10, pz->route_len);
}

static void progress(const pz_puzzle *pz, const pz_state *st, pz_progress *out)
{
    memset(out, 0, sizeof *out);
    out->x = st->x;
    out->y = st->y;
    out->solved = is_solved(pz, st);
}

/* ---- accessors (maze.h) ---- */

bool maze_open(const pz_puzzle *pz, int x, int y, int dir)
{
    if (!pz || x < 0 || y < 0 || x >= pz->params.w || y >= pz->params.h || dir < 0 || dir >= PZ_DIR_COUNT)
        return false;
    return (pz->cells[(size_t)y * (size_t)pz->params.w + (size_t)x] >> dir) & 1u;
}

void maze_pos(const pz_state *st, int *x, int *y)
{
    *x = st->x;
    *y = st->y;
}

size_t maze_storage_bytes(const pz_puzzle *pz)
{
    return sizeof *pz + (size_t)pz->params.w * (size_t)pz->params.h;
}

const pz_kind pz_kind_maze = {
    .name = "maze",
    .title = "Perfect maze",
    .id = PZ_MAZE,
    .default_w = 21,
    .default_h = 15,
    .min_w = MIN_SIDE,
    .min_h = MIN_SIDE,
    .max_w = MAX_SIDE,
    .max_h = MAX_SIDE,
    .validate_params = validate_params,
    .generate = generate,
    .free_puzzle = free_puzzle,
    .encode_desc = encode_desc,
    .decode_desc = decode_desc,
    .format_text = format_text,
    .parse_text = parse_text,
    .new_state = new_state,
    .copy_state = copy_state,
    .free_state = free_state,
    .execute_move = execute_move,
    .is_solved = is_solved,
    .solve = solve,
    .grade = grade,
    .progress = progress,
};
