/* sum.c: the sum puzzle kind (Number path): rules, generator, grading, descriptions and text forms. */
#include "sum.h"
#include "sum_board.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "util.h"

/* Paths and cell sets hold SUM_BOARD_CELLS cells; the size limit
 * (docs/kinds/sum.md) is SUM_MAX_CELLS. */
enum { MAX_CELLS = SUM_BOARD_CELLS, VMIN = -9, VMAX = 9 };

/* Search nodes the detour measure of a big board may take (about 20 ns
 * each); docs/kinds/sum.md "Boards above 25 cells". */
#define BIG_BUDGET 2000000L

/* Generation effort bounds (docs/kinds/sum.md): whole draws per puzzle and
 * walk restarts per draw. Both are counts, so generation always ends. */
enum { MAX_DRAWS = 2000, WALK_TRIES = 64 };

/* Value draws per walk: the walk's paths are listed once (sum_paths, the
 * costly part) and scanned again while only the values are drawn again, up
 * to this many times before a new walk, so a walk whose ends rarely give
 * the band is left (hard on 5x4 needs 4 value draws at the median, 35 at
 * p99). */
enum { VALUE_DRAWS = 64 };

/* Difficulty bands over the measured number of valid paths (see band_for()). */
enum { EASY_MIN_PATHS = 15, HARD_MAX_PATHS = 4 };

struct pz_puzzle {
    pz_params params;
    sum_board b;
    /* Measured once when the puzzle is built (generate, decode, parse). */
    sum_count info;
    int detour;              /* boards above SUM_EXACT_CELLS: the shortest valid path's detour; else -1 */
    long tries;              /* and the routes tried before it (sum_big_tries) */
    uint8_t best[MAX_CELLS]; /* a shortest valid path, info.min_cells cells */
};

struct pz_state {
    int w; /* board width, so sum_path_cell needs no puzzle */
    int len, sum;
    sum_mask on; /* cells on the path */
    uint8_t path[MAX_CELLS];
};

static bool big_board(const sum_board *b)
{
    return b->n > SUM_EXACT_CELLS;
}

/* Counts every valid path, keeping a shortest one; on a big board, the
 * detour of a shortest one instead. NULL or why the board is refused. */
static const char *measure(pz_puzzle *pz)
{
    pz->detour = -1;
    if (!big_board(&pz->b)) {
        uint8_t start = (uint8_t)pz->b.start;
        pz->info = sum_board_count(&pz->b, &start, 1, 0, pz->best);
        return pz->info.paths == 0 ? "no path from Start to End sums to the target" : NULL;
    }
    int cells = 0, e = sum_big_measure(&pz->b, BIG_BUDGET, pz->best, &cells, &pz->tries);
    if (e == -1)
        return "no path from Start to End with a detour of at most 12 sums to the target";
    if (e < 0)
        return "no path from Start to End that sums to the target was found within the search budget";
    pz->detour = e;
    pz->info = (sum_count){1, cells, 0};
    return NULL;
}

/* ---- params and grading ---- */

/* Medium needs 5..14 valid paths and no staircase route: on fewer than 12
 * cells that is too rare to draw within MAX_DRAWS. */
enum { MEDIUM_MIN_CELLS = 12 };

static const char *validate_params(const pz_params *p)
{
    if (p->w * p->h > SUM_MAX_CELLS)
        return "sum boards have at most " SUM_MAX_CELLS_TEXT " cells (see docs/puzzles.md)";
    if (p->diff == PZ_MEDIUM && p->w * p->h < MEDIUM_MIN_CELLS)
        return "medium sum puzzles need a board of at least 12 cells";
    return NULL;
}

static bool size_ok(int w, int h);

/* The checks of pz_validate_params and ours: this library does not link
 * the registry. */
static const char *check_params(const pz_params *p)
{
    if (p->kind != PZ_SUM)
        return "not a sum puzzle";
    if (p->diff < 0 || p->diff >= PZ_DIFF_COUNT)
        return "difficulty must be easy, medium or hard";
    if (!size_ok(p->w, p->h))
        return "sum boards are 3x3 to 10x10";
    return validate_params(p);
}

/* Path length range of the generated walk, in cells: 5..9 on the original
 * 20 cells, scaled in proportion to the number of cells. */
static void walk_range(int n, int *lo, int *hi)
{
    *lo = (5 * n + 10) / 20;
    *hi = (9 * n + 10) / 20;
    if (*lo < 3)
        *lo = 3;
    if (*hi < *lo)
        *hi = *lo;
    if (*hi > n)
        *hi = n;
}

/* Difficulty (docs/kinds/sum.md), from the exact count of valid paths and
 * whether a shortest Start-End route (a staircase of Manhattan length)
 * already hits the target:
 *   easy:   a shortest route hits it, or at least EASY_MIN_PATHS paths do;
 *   medium: no shortest route does, HARD_MAX_PATHS+1 .. EASY_MIN_PATHS-1 paths;
 *   hard:   no shortest route does, 1 .. HARD_MAX_PATHS paths. */
static int band_for(long paths, bool direct)
{
    if (paths <= 0)
        return -1;
    if (direct || paths >= EASY_MIN_PATHS)
        return PZ_EASY;
    return paths <= HARD_MAX_PATHS ? PZ_HARD : PZ_MEDIUM;
}

/* Boards above SUM_EXACT_CELLS (docs/kinds/sum.md), from the routes a
 * shortest-first player tries (sum_big_tries) and the detour of the
 * shortest valid path: hard if the detour is 3 or more or the tries are at
 * least BIG_HARD_TRIES, easy below BIG_MEDIUM_TRIES, medium between. */
enum { BIG_MEDIUM_TRIES = 50, BIG_HARD_TRIES = 1000 };

static int band_for_big(int detour, long tries)
{
    if (detour < 0)
        return -1;
    if (detour > SUM_BIG_EXACT || tries >= BIG_HARD_TRIES)
        return PZ_HARD;
    return tries < BIG_MEDIUM_TRIES ? PZ_EASY : PZ_MEDIUM;
}

static int band_of(const pz_puzzle *pz)
{
    if (big_board(&pz->b))
        return band_for_big(pz->detour, pz->tries);
    bool direct = pz->info.min_cells == sum_board_distance(&pz->b) + 1;
    return band_for(pz->info.paths, direct);
}

static void grade(const pz_puzzle *pz, pz_grade *out)
{
    memset(out, 0, sizeof *out);
    out->band = band_of(pz);
    int dist = sum_board_distance(&pz->b);
    if (big_board(&pz->b)) {
        out->measure = pz->tries;
        out->solutions = -1;
        out->par = pz->info.min_cells - 1;
        snprintf(out->summary, sizeof out->summary,
                 "%ld routes tried first; shortest %d steps (distance %d, detour %d)", pz->tries, out->par,
                 dist, pz->detour);
        return;
    }
    out->measure = pz->info.paths;
    out->solutions = pz->info.paths;
    out->par = pz->info.min_cells > 0 ? pz->info.min_cells - 1 : -1;
    snprintf(out->summary, sizeof out->summary, "%ld valid paths, shortest %d steps (Start-End distance %d)",
             pz->info.paths, out->par, dist);
}

/* ---- generation ---- */

uint64_t sum_stream_seed(const pz_params *p, uint64_t seed)
{
    unsigned char b[20];
    uint32_t f[3] = {(uint32_t)p->w, (uint32_t)p->h, (uint32_t)p->diff};
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(seed >> (8 * i));
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 4; i++)
            b[8 + 4 * k + i] = (unsigned char)(f[k] >> (8 * i));
    return mr_hash64(b, sizeof b);
}

/* A random self-avoiding walk of len cells from a random start; each step
 * picks uniformly among the free neighbours (the same distribution as the
 * original's "draw a direction again until it fits"), restarting when boxed
 * in. false if WALK_TRIES walks all boxed themselves in. */
static bool random_walk(const pz_puzzle *pz, rng_t *r, int len, uint8_t *walk)
{
    for (int t = 0; t < WALK_TRIES; t++) {
        static const int order[4] = {1, 2, 0, 3}; /* up, left, right, down: increasing index */
        int cur = (int)rng_below(r, (uint32_t)pz->b.n);
        sum_mask on = {{0}};
        sum_mask_set(&on, cur);
        walk[0] = (uint8_t)cur;
        int k = 1;
        for (; k < len; k++) {
            int free[4], nf = 0;
            for (int a = 0; a < 4; a++) {
                int nb = sum_board_neighbour(&pz->b, cur, order[a]);
                if (nb >= 0 && !sum_mask_has(&on, nb))
                    free[nf++] = nb;
            }
            if (nf == 0)
                break;
            cur = free[rng_below(r, (uint32_t)nf)];
            sum_mask_set(&on, cur);
            walk[k] = (uint8_t)cur;
        }
        if (k == len)
            return true;
    }
    return false;
}

/* Decides whether the drawn board falls in band want, and if so leaves it
 * graded: the count is a scan of the walk's list of paths (exact, every
 * path counted), the staircase test goes first as it rejects many medium
 * and hard draws for less, and a shortest valid path is rebuilt from its
 * cell set for solve. */
static bool draw_fits(pz_puzzle *pz, const sum_paths *ps, int want)
{
    if (want != PZ_EASY && sum_board_direct(&pz->b))
        return false;
    uint32_t set;
    long cap = want == PZ_HARD ? HARD_MAX_PATHS + 1 : want == PZ_MEDIUM ? EASY_MIN_PATHS : 0;
    sum_count c = sum_paths_count(ps, pz->b.val, pz->b.target, cap, &set);
    bool direct = c.min_cells == sum_board_distance(&pz->b) + 1;
    if (band_for(c.paths, direct) != want)
        return false;
    if (sum_board_path_through(&pz->b, set, pz->best) != c.min_cells)
        return false;
    pz->info = c;
    pz->detour = -1;
    return true;
}

/* The band of a board above SUM_EXACT_CELLS whose End is walk[len - 1] and
 * target the walk's sum up to there, from the sets of path sums from Start
 * (f, detours 0..SUM_BIG_EXACT, exact) and the route counts from Start
 * (routes, SUM_BIG_EXACT + 1 per cell); -1 for a cut no band takes. *detour
 * and *tries get the measure where the sets settle it, else the walk's own
 * detour (at least the shortest's) and BIG_HARD_TRIES. */
static int cut_band(const sum_board *b, const sum_sets *f, const double *routes, const uint8_t *walk, int len,
                    int target, int *detour, long *tries)
{
    int end = walk[len - 1];
    for (int e = 0; e <= SUM_BIG_EXACT; e++)
        if (sum_sets_has(f, end, e, target)) {
            *detour = e;
            *tries = sum_big_tries(routes + end * (SUM_BIG_EXACT + 1), e);
            return band_for_big(e, *tries);
        }
    int dist = abs(b->start % b->w - end % b->w) + abs(b->start / b->w - end / b->w);
    *detour = (len - 1 - dist) / 2;
    *tries = BIG_HARD_TRIES;
    /* the walk itself is a valid path: the measure's search reaches it */
    return *detour <= SUM_BIG_SEARCH ? PZ_HARD : -1;
}

/* Boards above SUM_EXACT_CELLS (docs/generation.md): one walk of hi cells
 * and one value draw, then End is steered along the walk: every cut
 * walk[0 .. len) with lo <= len <= hi is a puzzle whose band the sets from
 * Start give at once, and one of the cuts in the requested band is drawn.
 * Only a draw with no such cut is redrawn. */
static bool generate_big(pz_puzzle *pz, rng_t *r, int want, int *draws)
{
    int lo, hi;
    walk_range(pz->b.n, &lo, &hi);
    uint8_t walk[MAX_CELLS];
    double routes[MAX_CELLS * (SUM_BIG_EXACT + 1)];
    for (int d = 0; d < MAX_DRAWS; d++) {
        *draws = d + 1;
        if (!random_walk(pz, r, hi, walk))
            continue;
        for (int i = 0; i < pz->b.n; i++)
            pz->b.val[i] = (int8_t)rng_range(r, VMIN, VMAX);
        pz->b.start = walk[0];
        sum_sets f;
        sum_sets_build(&pz->b, pz->b.start, SUM_BIG_EXACT, &f, routes);
        int cands[MAX_CELLS], targets[MAX_CELLS], detours[MAX_CELLS], nc = 0, sum = 0;
        long tries[MAX_CELLS];
        for (int len = 1; len <= hi; len++) {
            sum += pz->b.val[walk[len - 1]];
            if (len >= lo && cut_band(&pz->b, &f, routes, walk, len, sum, &detours[nc], &tries[nc]) == want) {
                cands[nc] = len;
                targets[nc++] = sum;
            }
        }
        sum_sets_free(&f);
        if (nc == 0)
            continue;
        int k = (int)rng_below(r, (uint32_t)nc), len = cands[k];
        pz->b.end = walk[len - 1];
        pz->b.target = targets[k];
        if (!measure(pz))
            return true;
        /* Out of search budget (never seen, docs/kinds/sum.md): the band
         * stands, and the walk, a valid path, is the solution. */
        memcpy(pz->best, walk, (size_t)len);
        pz->info = (sum_count){1, len, 0};
        pz->detour = detours[k];
        pz->tries = tries[k];
        return true;
    }
    return false;
}

static const char *const no_board =
    "could not generate a sum puzzle of this difficulty at this size (try a larger board)";

pz_puzzle *sum_generate_counted(const pz_params *p, uint64_t seed, const char **err, int *draws)
{
    int unused;
    if (!draws)
        draws = &unused;
    *draws = 0;
    const char *why = check_params(p);
    if (why) {
        *err = why;
        return NULL;
    }
    rng_t r;
    rng_seed(&r, sum_stream_seed(p, seed));
    pz_puzzle *pz = mr_alloc(1, sizeof *pz);
    pz->params = *p;
    sum_board_init(&pz->b, p->w, p->h);
    if (big_board(&pz->b))
        return pz_decoded(pz, generate_big(pz, &r, p->diff, draws) ? NULL : no_board, err);
    int lo, hi;
    walk_range(pz->b.n, &lo, &hi);
    uint8_t walk[MAX_CELLS];
    int len = 0, redraws = VALUE_DRAWS;
    sum_paths ps;
    memset(&ps, 0, sizeof ps);
    for (int d = 0; d < MAX_DRAWS; d++) {
        *draws = d + 1; /* a draw that only drops its walk counts too */
        if (redraws == VALUE_DRAWS) {
            len = rng_range(&r, lo, hi);
            if (!random_walk(pz, &r, len, walk))
                continue;
            pz->b.start = walk[0];
            pz->b.end = walk[len - 1];
            /* A staircase walk is a shortest route that hits its target
             * whatever the values: always easy. */
            if (p->diff != PZ_EASY && len == sum_board_distance(&pz->b) + 1)
                continue;
            if (!sum_paths_enumerate(&pz->b, &ps))
                break;
            redraws = 0;
        }
        redraws++;
        int target = 0;
        for (int i = 0; i < pz->b.n; i++)
            pz->b.val[i] = (int8_t)rng_range(&r, VMIN, VMAX);
        for (int i = 0; i < len; i++)
            target += pz->b.val[walk[i]];
        pz->b.target = target;
        if (draw_fits(pz, &ps, p->diff)) {
            sum_paths_free(&ps);
            return pz;
        }
    }
    sum_paths_free(&ps);
    return pz_decoded(pz, no_board, err);
}

static pz_puzzle *generate(const pz_params *p, uint64_t seed, const char **err)
{
    return sum_generate_counted(p, seed, err, NULL);
}

static void free_puzzle(pz_puzzle *pz)
{
    free(pz);
}

/* ---- descriptions: "<start>.<end>.<target>.<cells>", cells row by row, one
 * character each: '0'..'9' for 0..9, 'a'..'i' for -1..-9. ---- */

static char value_char(int v)
{
    return v >= 0 ? (char)('0' + v) : (char)('a' - 1 - v);
}

static bool char_value(char c, int *v)
{
    if (c >= '0' && c <= '9')
        *v = c - '0';
    else if (c >= 'a' && c <= 'i')
        *v = -(c - 'a' + 1);
    else
        return false;
    return true;
}

static char *encode_desc(const pz_puzzle *pz)
{
    size_t cap = (size_t)pz->b.n + 40;
    char *d = mr_alloc(cap, 1);
    int k = snprintf(d, cap, "%d.%d.%d.", pz->b.start, pz->b.end, pz->b.target);
    for (int i = 0; i < pz->b.n; i++)
        d[k++] = value_char(pz->b.val[i]);
    d[k] = '\0';
    return d;
}

/* Reads an optionally negative decimal of at most 4 digits up to '.', moving
 * *s past the dot. */
static bool read_field(const char **s, int *out)
{
    const char *p = *s;
    bool neg = *p == '-';
    if (neg)
        p++;
    int v = 0, digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 5) {
        v = v * 10 + (*p - '0');
        p++;
        digits++;
    }
    if (digits == 0 || digits > 4 || *p != '.')
        return false;
    *out = neg ? -v : v;
    *s = p + 1;
    return true;
}

static bool size_ok(int w, int h)
{
    return w >= pz_kind_sum.min_w && h >= pz_kind_sum.min_h && w <= pz_kind_sum.max_w &&
           h <= pz_kind_sum.max_h && w * h <= SUM_MAX_CELLS;
}

/* Checks start, end and target of a filled puzzle and measures it. */
static const char *finish(pz_puzzle *pz)
{
    if (pz->b.start < 0 || pz->b.start >= pz->b.n || pz->b.end < 0 || pz->b.end >= pz->b.n)
        return "Start or End outside the board";
    if (pz->b.start == pz->b.end)
        return "Start and End must be different cells";
    if (pz->b.target < VMIN * pz->b.n || pz->b.target > VMAX * pz->b.n)
        return "target out of range";
    return measure(pz);
}

static pz_puzzle *decode_desc(const pz_params *p, const char *desc, const char **err)
{
    if (!p || !desc || p->kind != PZ_SUM || !size_ok(p->w, p->h)) {
        *err = "bad size for a sum puzzle";
        return NULL;
    }
    pz_puzzle *pz = mr_alloc(1, sizeof *pz);
    pz->params = *p;
    if (pz->params.diff < 0 || pz->params.diff >= PZ_DIFF_COUNT)
        pz->params.diff = PZ_MEDIUM;
    sum_board_init(&pz->b, p->w, p->h);
    const char *s = desc;
    const char *why = NULL;
    if (!read_field(&s, &pz->b.start) || !read_field(&s, &pz->b.end) || !read_field(&s, &pz->b.target))
        why = "sum description must be start.end.target.cells";
    else if (strlen(s) != (size_t)pz->b.n)
        why = "sum description must have one value per cell";
    for (int i = 0; !why && i < pz->b.n; i++) {
        int v;
        if (!char_value(s[i], &v))
            why = "bad value in sum description (0-9 or a-i for -1..-9)";
        else
            pz->b.val[i] = (int8_t)v;
    }
    if (!why)
        why = finish(pz);
    return pz_decoded(pz, why, err);
}

/* ---- text form ----
 *   target <integer>
 *   one line per row: the cells' values (-9..9) separated by spaces, Start's
 *   value prefixed with S and End's with E.
 * Example (sum:5x4:easy#1):
 *   target 13
 *    -8   8  -8   4 E-8
 *    -3   5   4   6  S5
 *    -3  -6   7   3   8
 *     7  -5  -5   5  -1 */

static char *format_text(const pz_puzzle *pz)
{
    size_t cap = 32 + (size_t)pz->b.n * 5 + (size_t)pz->b.h;
    char *t = mr_alloc(cap, 1);
    size_t k = (size_t)snprintf(t, cap, "target %d\n", pz->b.target);
    for (int y = 0; y < pz->b.h; y++) {
        for (int x = 0; x < pz->b.w; x++) {
            int i = y * pz->b.w + x;
            char tok[8];
            snprintf(tok, sizeof tok, "%s%d",
                     i == pz->b.start ? "S"
                     : i == pz->b.end ? "E"
                                      : "",
                     pz->b.val[i]);
            k += (size_t)snprintf(t + k, cap - k, x ? " %3s" : "%3s", tok);
        }
        t[k++] = '\n';
    }
    t[k] = '\0';
    return t;
}

typedef struct reader {
    const char *p, *end;
    int line, col;
    pz_error *err;
} reader;

static bool at_eol(const reader *r)
{
    return r->p == r->end || *r->p == '\n';
}

static void skip_spaces(reader *r)
{
    while (r->p < r->end && *r->p == ' ') {
        r->p++;
        r->col++;
    }
}

static void next_line(reader *r)
{
    if (r->p < r->end && *r->p == '\n')
        r->p++;
    r->line++;
    r->col = 1;
}

/* An optionally signed integer of at most 4 digits; false with an error. */
static bool read_int(reader *r, int *out, const char *what)
{
    int col0 = r->col;
    bool neg = false;
    if (r->p < r->end && (*r->p == '-' || *r->p == '+')) {
        neg = *r->p == '-';
        r->p++;
        r->col++;
    }
    int v = 0, digits = 0;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
        if (++digits > 4) {
            pz_error_set(r->err, r->line, col0, "%s has too many digits", what);
            return false;
        }
        v = v * 10 + (*r->p - '0');
        r->p++;
        r->col++;
    }
    if (digits == 0) {
        pz_error_set(r->err, r->line, r->col, "expected %s (a number)", what);
        return false;
    }
    if (!at_eol(r) && *r->p != ' ') {
        pz_error_set(r->err, r->line, r->col, "unexpected character '%c' after %s", *r->p, what);
        return false;
    }
    *out = neg ? -v : v;
    return true;
}

/* Rejects control characters, tabs and CR up front so every later message
 * can name the character it stopped at. */
static bool check_chars(reader *r)
{
    int line = 1, col = 1;
    for (const char *q = r->p; q < r->end; q++) {
        unsigned char c = (unsigned char)*q;
        if (c == '\n') {
            line++;
            col = 1;
            continue;
        }
        if (c < 32 || c > 126) {
            pz_error_set(r->err, line, col, "unexpected byte 0x%02x (only spaces, digits, -, S, E)", c);
            return false;
        }
        col++;
    }
    return true;
}

/* The rest of the line is blank: on to the next one; else why, at the text. */
static bool blank_rest(reader *r, const char *why)
{
    skip_spaces(r);
    if (!at_eol(r)) {
        pz_error_set(r->err, r->line, r->col, "%s", why);
        return false;
    }
    next_line(r);
    return true;
}

static bool read_header(reader *r, pz_puzzle *pz)
{
    skip_spaces(r);
    if ((size_t)(r->end - r->p) < 6 || memcmp(r->p, "target", 6) != 0) {
        pz_error_set(r->err, r->line, r->col, "expected 'target <number>' on the first line");
        return false;
    }
    r->p += 6;
    r->col += 6;
    if (at_eol(r) || *r->p != ' ') {
        pz_error_set(r->err, r->line, r->col, "expected a space and the target after 'target'");
        return false;
    }
    skip_spaces(r);
    if (!read_int(r, &pz->b.target, "the target"))
        return false;
    return blank_rest(r, "unexpected text after the target");
}

/* One row of cells. Cells are numbered in reading order, which is row-major
 * once every row has the first row's width (checked at the row's end). */
static bool read_row(reader *r, pz_puzzle *pz, int *n, int *w)
{
    int x = 0;
    skip_spaces(r);
    while (!at_eol(r)) {
        int col0 = r->col;
        char mark = 0;
        if (*r->p == 'S' || *r->p == 'E') {
            mark = *r->p;
            r->p++;
            r->col++;
        }
        int v;
        if (!read_int(r, &v, "a cell value"))
            return false;
        if (v < VMIN || v > VMAX) {
            pz_error_set(r->err, r->line, col0, "cell value %d out of range -9..9", v);
            return false;
        }
        if (x >= pz_kind_sum.max_w || (*w > 0 && x >= *w) || *n >= SUM_MAX_CELLS) {
            pz_error_set(r->err, r->line, col0, "too many cells in this row (at most %d, and %d in all)",
                         *w > 0 ? *w : pz_kind_sum.max_w, SUM_MAX_CELLS);
            return false;
        }
        if (mark) {
            int *slot = mark == 'S' ? &pz->b.start : &pz->b.end;
            if (*slot >= 0) {
                pz_error_set(r->err, r->line, col0, "second %s cell", mark == 'S' ? "Start" : "End");
                return false;
            }
            *slot = *n;
        }
        pz->b.val[(*n)++] = (int8_t)v;
        x++;
        skip_spaces(r);
    }
    if (*w == 0)
        *w = x;
    else if (x != *w) {
        pz_error_set(r->err, r->line, r->col, "row has %d cells, the first row has %d", x, *w);
        return false;
    }
    next_line(r);
    return true;
}

/* Only blank lines may follow the last row. */
static bool read_tail(reader *r)
{
    while (r->p < r->end)
        if (!blank_rest(r, "text after a blank line"))
            return false;
    return true;
}

static pz_puzzle *parse_text(const char *text, size_t len, pz_error *err)
{
    pz_error_set(err, 0, 0, "ok");
    if (!text) {
        pz_error_set(err, 1, 1, "no text");
        return NULL;
    }
    reader r = {text, text + len, 1, 1, err};
    if (!check_chars(&r))
        return NULL;
    pz_puzzle *pz = mr_alloc(1, sizeof *pz);
    pz->b.start = pz->b.end = -1;
    int w = 0, h = 0, n = 0;
    bool ok = read_header(&r, pz);
    while (ok && r.p < r.end) {
        reader look = r;
        skip_spaces(&look);
        if (at_eol(&look)) {
            ok = read_tail(&r);
            break;
        }
        if (h >= pz_kind_sum.max_h) {
            pz_error_set(err, r.line, 1, "too many rows (at most %d)", pz_kind_sum.max_h);
            ok = false;
            break;
        }
        ok = read_row(&r, pz, &n, &w);
        h++;
    }
    if (ok && h == 0) {
        pz_error_set(err, r.line, 1, "expected rows of cell values after the target");
        ok = false;
    }
    if (ok && !size_ok(w, h)) {
        pz_error_set(err, 2, 1, "board is %dx%d; sum boards are %dx%d to %dx%d, at most %d cells", w, h,
                     pz_kind_sum.min_w, pz_kind_sum.min_h, pz_kind_sum.max_w, pz_kind_sum.max_h,
                     SUM_MAX_CELLS);
        ok = false;
    }
    if (ok && (pz->b.start < 0 || pz->b.end < 0)) {
        pz_error_set(err, 2, 1, "the board needs one Start (S) and one End (E) cell");
        ok = false;
    }
    if (ok) {
        pz->params.kind = PZ_SUM;
        pz->params.w = w;
        pz->params.h = h;
        sum_board_init(&pz->b, w, h);
        const char *why = finish(pz);
        if (why) {
            pz_error_set(err, 1, 1, "%s", why);
            ok = false;
        }
    }
    if (!ok) {
        free(pz);
        return NULL;
    }
    int band = band_of(pz);
    pz->params.diff = band >= 0 ? band : PZ_MEDIUM;
    return pz;
}

/* ---- play ---- */

static pz_state *new_state(const pz_puzzle *pz)
{
    pz_state *st = mr_alloc(1, sizeof *st);
    st->w = pz->b.w;
    st->len = 1;
    st->path[0] = (uint8_t)pz->b.start;
    sum_mask_set(&st->on, pz->b.start);
    st->sum = pz->b.val[pz->b.start];
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
    return st->path[st->len - 1] == pz->b.end && st->sum == pz->b.target;
}

static const char *execute_move(const pz_puzzle *pz, const pz_state *from, pz_move mv, pz_state *to)
{
    if (is_solved(pz, from))
        return "the puzzle is already solved";
    if (mv.type != PZ_MOVE_STEP)
        return "sum moves are steps (U, D, L or R)";
    if (mv.dir >= PZ_DIR_COUNT)
        return "bad direction";
    if (mv.x != 0 || mv.y != 0)
        return "a step has no coordinates (x and y must be 0)";
    int head = from->path[from->len - 1];
    int x = head % pz->b.w + pz_dir_dx(mv.dir), y = head / pz->b.w + pz_dir_dy(mv.dir);
    if (x < 0 || y < 0 || x >= pz->b.w || y >= pz->b.h)
        return "off the board";
    int next = y * pz->b.w + x;
    if (from->len >= 2 && next == from->path[from->len - 2]) {
        if (to != from)
            *to = *from;
        sum_mask_clear(&to->on, head);
        to->sum -= pz->b.val[head];
        to->len--;
        return NULL;
    }
    if (head == pz->b.end)
        return "the path is finished at End with the wrong sum: step back to undo";
    if (sum_mask_has(&from->on, next))
        return "already on the path";
    if (to != from)
        *to = *from;
    to->path[to->len++] = (uint8_t)next;
    sum_mask_set(&to->on, next);
    to->sum += pz->b.val[next];
    return NULL;
}

static int dir_between(const pz_puzzle *pz, int a, int b)
{
    if (b == a - pz->b.w)
        return PZ_UP;
    if (b == a + pz->b.w)
        return PZ_DOWN;
    return b == a - 1 ? PZ_LEFT : PZ_RIGHT;
}

static void emit(pz_move *out, int max, int k, int dir)
{
    if (k < max)
        out[k] = (pz_move){.type = PZ_MOVE_STEP, .dir = (uint8_t)dir};
}

/* From the start: the stored shortest path. From elsewhere: undo as few
 * steps as possible, then the shortest completion of what is left. */
static int solve(const pz_puzzle *pz, const pz_state *st, pz_move *out, int max)
{
    if (st && is_solved(pz, st))
        return 0;
    uint8_t path[MAX_CELLS];
    int keep = 0, cells = 0;
    if (!st || st->len == 1 || big_board(&pz->b)) {
        /* Big boards: back to where the path leaves the stored one. */
        memcpy(path, pz->best, (size_t)pz->info.min_cells);
        keep = 1;
        cells = pz->info.min_cells;
        while (st && keep < st->len && keep < cells && st->path[keep] == path[keep])
            keep++;
    } else {
        keep = st->len;
        if (st->path[keep - 1] == pz->b.end)
            keep--;
        for (; keep >= 1; keep--) {
            sum_count c = sum_board_count(&pz->b, st->path, keep, 0, path);
            if (c.paths > 0) {
                cells = c.min_cells;
                break;
            }
        }
        if (keep < 1)
            return -1;
    }
    int k = 0;
    if (st)
        for (int i = st->len - 1; i >= keep; i--, k++)
            emit(out, max, k, dir_between(pz, st->path[i], st->path[i - 1]));
    for (int i = keep; i < cells; i++, k++)
        emit(out, max, k, dir_between(pz, path[i - 1], path[i]));
    return k;
}

static void progress(const pz_puzzle *pz, const pz_state *st, pz_progress *out)
{
    int head = st->path[st->len - 1];
    out->x = head % pz->b.w;
    out->y = head / pz->b.w;
    out->path_len = st->len;
    out->value = st->sum;
    out->solved = is_solved(pz, st);
}

/* ---- accessors (sum.h) ---- */

int sum_value(const pz_puzzle *pz, int x, int y)
{
    if (x < 0 || y < 0 || x >= pz->b.w || y >= pz->b.h)
        return 0;
    return pz->b.val[y * pz->b.w + x];
}

void sum_start(const pz_puzzle *pz, int *x, int *y)
{
    *x = pz->b.start % pz->b.w;
    *y = pz->b.start / pz->b.w;
}

void sum_end(const pz_puzzle *pz, int *x, int *y)
{
    *x = pz->b.end % pz->b.w;
    *y = pz->b.end / pz->b.w;
}

int sum_target(const pz_puzzle *pz)
{
    return pz->b.target;
}

int sum_path_len(const pz_state *st)
{
    return st->len;
}

void sum_path_cell(const pz_state *st, int i, int *x, int *y)
{
    int c = (i >= 0 && i < st->len) ? st->path[i] : st->path[st->len - 1];
    *x = c % st->w;
    *y = c / st->w;
}

int sum_running(const pz_state *st)
{
    return st->sum;
}

const pz_kind pz_kind_sum = {
    .name = "sum",
    .title = "Number path",
    .id = PZ_SUM,
    .default_w = 5,
    .default_h = 4,
    .min_w = 3,
    .min_h = 3,
    .max_w = 10,
    .max_h = 10,
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
