/* puzzle.c: the kind registry, parameter checks and game ID parsing. */
#include "puzzle.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const pz_kind *const kinds[PZ_KIND_COUNT] = {
    [PZ_SUM] = &pz_kind_sum,
    [PZ_MAZE] = &pz_kind_maze,
    [PZ_ICE] = &pz_kind_ice,
    [PZ_PIPES] = &pz_kind_pipes,
};

static const char *const diff_names[PZ_DIFF_COUNT] = {"easy", "medium", "hard"};

const pz_kind *pz_kind_by_id(int id)
{
    return (id >= 0 && id < PZ_KIND_COUNT) ? kinds[id] : NULL;
}

const pz_kind *pz_kind_by_name(const char *name)
{
    for (int i = 0; i < PZ_KIND_COUNT; i++)
        if (strcmp(kinds[i]->name, name) == 0)
            return kinds[i];
    return NULL;
}

const char *pz_difficulty_name(int diff)
{
    return MR_NAME_OF(diff_names, diff, "?");
}

int pz_difficulty_by_name(const char *name)
{
    for (int i = 0; i < PZ_DIFF_COUNT; i++)
        if (strcmp(diff_names[i], name) == 0)
            return i;
    return -1;
}

const char *pz_dir_letters(void)
{
    return "UDLR";
}

const pz_params *pz_params_of(const pz_puzzle *pz)
{
    return (const pz_params *)(const void *)pz;
}

void pz_set_difficulty(pz_puzzle *pz, int diff)
{
    if (pz && diff >= 0 && diff < PZ_DIFF_COUNT)
        ((pz_params *)(void *)pz)->diff = diff;
}

int pz_grade_band(const pz_puzzle *pz)
{
    const pz_kind *k = pz_kind_of(pz);
    if (!k || !k->grade)
        return PZ_EASY;
    pz_grade g;
    memset(&g, 0, sizeof g);
    k->grade(pz, &g);
    return g.band >= 0 && g.band < PZ_DIFF_COUNT ? g.band : PZ_EASY;
}

const pz_kind *pz_kind_of(const pz_puzzle *pz)
{
    return pz_kind_by_id(pz_params_of(pz)->kind);
}

int pz_max_solution(const pz_puzzle *pz)
{
    const pz_params *p = pz_params_of(pz);
    return 3 * p->w * p->h + 1;
}

const char *pz_validate_params(const pz_params *p)
{
    const pz_kind *k = pz_kind_by_id(p->kind);
    if (!k)
        return "unknown puzzle kind";
    if (p->diff < 0 || p->diff >= PZ_DIFF_COUNT)
        return "difficulty must be easy, medium or hard";
    if (p->w < k->min_w || p->h < k->min_h)
        return "board too small for this kind (see docs/puzzles.md)";
    if (p->w > k->max_w || p->h > k->max_h)
        return "board too large for this kind (see docs/puzzles.md)";
    return k->validate_params ? k->validate_params(p) : NULL;
}

/* ---- game IDs ---- */

static const char *fail(char *err, size_t errlen, const char *fmt, const char *arg)
{
    if (err && errlen)
        snprintf(err, errlen, fmt, arg);
    return err ? err : "bad game ID";
}

/* Parses a decimal int of at most 9 digits from [s, end); -1 if not one. */
static int parse_small(const char *s, const char *end)
{
    if (s >= end || end - s > 9)
        return -1;
    int v = 0;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

static bool parse_u64(const char *s, const char *end, uint64_t *out)
{
    if (s >= end || end - s > 20)
        return false;
    uint64_t v = 0;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9')
            return false;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* [s, end) into buf as a string: false when empty or cap bytes or longer. */
static bool copy_word(const char *s, const char *end, char *buf, size_t cap)
{
    size_t n = (size_t)(end - s);
    if (n == 0 || n >= cap)
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return true;
}

static bool desc_char_ok(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
}

const char *pz_id_parse(const char *text, pz_id *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!text || !*text)
        return fail(err, errlen, "empty game ID%s", "");
    size_t n = strlen(text);
    if (n > 8u * 1024 * 1024)
        return fail(err, errlen, "game ID too long%s", "");
    const char *end = text + n;
    const char *hash = memchr(text, '#', n);
    const char *head_end = hash ? hash : end;

    /* kind */
    const char *c1 = memchr(text, ':', (size_t)(head_end - text));
    const char *kend = c1 ? c1 : head_end;
    char kname[16];
    if (!copy_word(text, kend, kname, sizeof kname))
        return fail(err, errlen, "game ID must start with a kind: sum, maze, ice or pipes%s", "");
    const pz_kind *k = pz_kind_by_name(kname);
    if (!k)
        return fail(err, errlen, "unknown puzzle kind '%s' (sum, maze, ice or pipes)", kname);
    out->params.kind = k->id;
    out->params.w = k->default_w;
    out->params.h = k->default_h;
    out->params.diff = PZ_MEDIUM;

    /* optional :WxH */
    const char *p = kend;
    if (p < head_end) {
        p++; /* past ':' */
        const char *c2 = memchr(p, ':', (size_t)(head_end - p));
        const char *send = c2 ? c2 : head_end;
        const char *x = memchr(p, 'x', (size_t)(send - p));
        int w = x ? parse_small(p, x) : -1;
        int h = x ? parse_small(x + 1, send) : -1;
        if (w < 1 || h < 1)
            return fail(err, errlen, "size must be WxH (columns x rows), e.g. %s",
                        k->id == PZ_ICE ? "25x20" : "6x4");
        out->params.w = w;
        out->params.h = h;
        p = send;
        if (p < head_end) {
            p++; /* past second ':' */
            if (hash) {
                char dname[16];
                if (!copy_word(p, head_end, dname, sizeof dname))
                    return fail(err, errlen, "difficulty must be easy, medium or hard%s", "");
                int d = pz_difficulty_by_name(dname);
                if (d < 0)
                    return fail(err, errlen, "unknown difficulty '%s' (easy, medium or hard)", dname);
                out->params.diff = d;
            } else if (pz_difficulty_by_name(p) >= 0) {
                /* kind:WxH:difficulty with no seed: the caller picks one */
                out->params.diff = pz_difficulty_by_name(p);
            } else {
                if (p == end)
                    return fail(err, errlen, "empty puzzle description%s", "");
                for (const char *q = p; q < end; q++)
                    if (!desc_char_ok(*q))
                        return fail(err, errlen, "bad character in description%s", "");
                out->desc = p;
                out->desc_len = (size_t)(end - p);
            }
        }
    }
    if (hash) {
        if (!parse_u64(hash + 1, end, &out->seed))
            return fail(err, errlen, "seed after '#' must be a number from 0 to 18446744073709551615%s", "");
        out->has_seed = true;
    }
    const char *why = pz_validate_params(&out->params);
    if (why)
        return fail(err, errlen, "%s", why);
    return NULL;
}

int pz_id_format_seeded(const pz_params *p, uint64_t seed, char *buf, size_t len)
{
    const pz_kind *k = pz_kind_by_id(p->kind);
    return snprintf(buf, len, "%s:%dx%d:%s#%" PRIu64, k ? k->name : "?", p->w, p->h,
                    pz_difficulty_name(p->diff), seed);
}

char *pz_id_format_desc(const pz_puzzle *pz)
{
    const pz_params *p = pz_params_of(pz);
    const pz_kind *k = pz_kind_of(pz);
    char *desc = k->encode_desc(pz);
    size_t n = strlen(desc) + 64;
    char *out = mr_alloc(n, 1);
    snprintf(out, n, "%s:%dx%d:%s", k->name, p->w, p->h, desc);
    free(desc);
    return out;
}

pz_puzzle *pz_from_id(const char *text, char *err, size_t errlen)
{
    pz_id id;
    if (pz_id_parse(text, &id, err, errlen))
        return NULL;
    const pz_kind *k = pz_kind_by_id(id.params.kind);
    const char *why = NULL;
    pz_puzzle *pz = NULL;
    if (id.desc) {
        char *d = mr_strndup(id.desc, id.desc_len);
        pz = k->decode_desc(&id.params, d, &why);
        free(d);
    } else if (id.has_seed) {
        pz = k->generate(&id.params, id.seed, &why);
    } else {
        why = "game ID needs a seed (#number) or a description";
    }
    if (!pz)
        fail(err, errlen, "%s", why ? why : "could not build the puzzle");
    return pz;
}
