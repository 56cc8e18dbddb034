/* main.c: mazerace-gen, prints, solves and benchmarks puzzles and checks replays from the command line. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "genvec.h"
#include "puzzle.h"
#include "replay.h"
#include "util.h"

enum { EXIT_GEN_FAILED = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: mazerace-gen [options] [GAME-ID]\n"
    "       mazerace-gen solve KIND [FILE|-]\n"
    "       mazerace-gen bench [--quick] [--count N] [--kind KIND] [--effort]\n"
    "       mazerace-gen bench-bot [--count N] [--kind KIND] [--difficulty D]\n"
    "       mazerace-gen vectors [FILE]\n"
    "       mazerace-gen replay FILE|-\n"
    "\n"
    "Prints puzzles: a header (game ID, measured difficulty, a shortest\n"
    "solution and its length) and the puzzle's text form.\n"
    "\n"
    "  GAME-ID              kind[:WxH[:difficulty]][#seed] or kind:WxH:description\n"
    "                       e.g. ice:25x20:hard#12345, sum#7, maze:40x30:easy\n"
    "  -k, --kind KIND      sum, maze, ice or pipes (default sum)\n"
    "  -s, --size WxH       columns x rows (default: the kind's default)\n"
    "  -d, --difficulty D   easy, medium or hard (default medium)\n"
    "  -S, --seed N         seed (default: drawn from the clock, and printed)\n"
    "  -n, --count N        print N puzzles with consecutive seeds (1..10000)\n"
    "      --id-only        print only each puzzle's full game ID (kind:WxH:desc)\n"
    "      --no-text        print the header without the text form\n"
    "  -h, --help           this help\n"
    "  -V, --version        print the version\n"
    "\n"
    "solve KIND [FILE|-]    read KIND's text form (from FILE or standard input;\n"
    "                       leading '#' lines are skipped) and print the minimum\n"
    "                       number of moves and a solution\n"
    "bench                  microseconds per puzzle (median, p99) for every kind x\n"
    "                       size x difficulty, with RESULT lines; --effort (sum):\n"
    "                       only the difficulty measure against a human-like\n"
    "                       search's effort on the same boards\n"
    "bench-bot              each computer level's median solve time per kind and\n"
    "                       size band (default 200 seeds a cell, medium boards), on\n"
    "                       a simulated clock, as the table in docs/bot.md\n"
    "vectors [FILE]         the generator test vectors of docs/generation.md as a\n"
    "                       ```vectors block; with FILE, replaces that block in FILE\n"
    "replay FILE|-          check a replay (docs/replay.md) by running it through\n"
    "                       the match engine, and print the players, the result,\n"
    "                       each player's time and moves\n"
    "\n"
    "Moves are written U D L R (sum, maze, ice), X for an ice restart, and\n"
    "x,y+ / x,y- for a clockwise / counter-clockwise turn of the pipe at column x,\n"
    "row y (pipes; 0-based).\n"
    "Exit status: 0 success, 1 a puzzle could not be generated or solved,\n"
    "2 bad command line or bad input (messages name line:column).\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "mazerace-gen: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'mazerace-gen --help'.\n");
    return EXIT_USAGE;
}

/* Writes one move in the documented notation. */
static void print_move(FILE *f, pz_move m)
{
    char buf[32];
    pz_move_format(m, buf, sizeof buf);
    fputs(buf, f);
}

static void print_solution(FILE *f, const pz_move *moves, int n)
{
    for (int i = 0; i < n; i++) {
        if (i && moves[i].type != PZ_MOVE_STEP)
            fputc(' ', f);
        print_move(f, moves[i]);
    }
}

/* Solves pz from the start; prints "solution (N): ..." or returns false. */
static bool print_solve_line(const pz_puzzle *pz, const char *prefix)
{
    const pz_kind *k = pz_kind_of(pz);
    int max = pz_max_solution(pz);
    pz_move *moves = mr_alloc((size_t)max, sizeof *moves);
    int n = k->solve(pz, NULL, moves, max);
    if (n >= 0) {
        printf("%ssolution (%d moves): ", prefix, n);
        print_solution(stdout, moves, n < max ? n : max);
        printf("\n");
    }
    free(moves);
    return n >= 0;
}

typedef struct gen_opts {
    bool id_only, no_text;
} gen_opts;

static int print_one(const pz_params *p, uint64_t seed, const gen_opts *o)
{
    const pz_kind *k = pz_kind_by_id(p->kind);
    const char *err = NULL;
    char id[128];
    pz_id_format_seeded(p, seed, id, sizeof id);
    pz_puzzle *pz = k->generate(p, seed, &err);
    if (!pz) {
        fprintf(stderr, "mazerace-gen: %s: %s\n", id, err ? err : "generation failed");
        return EXIT_GEN_FAILED;
    }
    if (o->id_only) {
        char *full = pz_id_format_desc(pz);
        printf("%s\n", full);
        free(full);
        k->free_puzzle(pz);
        return 0;
    }
    pz_grade g;
    k->grade(pz, &g);
    printf("# id: %s\n", id);
    printf("# difficulty: %s (measured: %s%s)\n", pz_difficulty_name(p->diff),
           g.band >= 0 ? pz_difficulty_name(g.band) : "outside every band", "");
    printf("# measure: %s\n", g.summary);
    if (g.solutions >= 0)
        printf("# solutions: %ld\n", g.solutions);
    if (!print_solve_line(pz, "# "))
        printf("# no solution\n");
    if (!o->no_text) {
        char *text = k->format_text(pz);
        fputs(text, stdout);
        size_t n = strlen(text);
        if (n && text[n - 1] != '\n')
            fputc('\n', stdout);
        free(text);
    }
    k->free_puzzle(pz);
    return 0;
}

/* Reads a whole stream; NULL on error. *len receives the byte count. */
static char *read_all(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = mr_alloc(cap, 1);
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > (size_t)64 * 1024 * 1024) {
                free(buf);
                errno = EFBIG;
                return NULL;
            }
            cap *= 2;
            buf = mr_realloc(buf, cap, 1);
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static int cmd_solve(int argc, char **argv)
{
    if (argc < 2 || argc > 3)
        return usage_error("solve needs KIND and optionally FILE (or - for standard input)%s", "");
    const pz_kind *k = pz_kind_by_name(argv[1]);
    if (!k)
        return usage_error("unknown puzzle kind '%s' (sum, maze, ice or pipes)", argv[1]);
    const char *path = argc == 3 ? argv[2] : "-";
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "mazerace-gen: %s: %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    size_t len = 0;
    char *text = read_all(f, &len);
    if (f != stdin)
        fclose(f);
    if (!text) {
        fprintf(stderr, "mazerace-gen: %s: cannot read: %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    /* Skip the "# ..." header that printing a puzzle writes, so the output of
     * `mazerace-gen ID` can be piped straight into `solve`. */
    size_t skip = 0;
    int skipped_lines = 0;
    while (skip < len && text[skip] == '#') {
        const char *nl = memchr(text + skip, '\n', len - skip);
        if (!nl)
            break;
        skip = (size_t)(nl - text) + 1;
        skipped_lines++;
    }
    pz_error e = {0, 0, ""};
    pz_puzzle *pz = k->parse_text(text + skip, len - skip, &e);
    free(text);
    e.line += skipped_lines;
    if (!pz) {
        fprintf(stderr, "%s:%d:%d: %s\n", strcmp(path, "-") == 0 ? "<stdin>" : path, e.line, e.col, e.msg);
        return EXIT_USAGE;
    }
    int max = pz_max_solution(pz);
    pz_move *moves = mr_alloc((size_t)max, sizeof *moves);
    int n = k->solve(pz, NULL, moves, max);
    int rc = 0;
    if (n < 0) {
        printf("no solution\n");
        rc = EXIT_GEN_FAILED;
    } else {
        printf("moves: %d\n", n);
        print_solution(stdout, moves, n < max ? n : max);
        printf("\n");
    }
    free(moves);
    k->free_puzzle(pz);
    return rc;
}

static void (*const kind_bench[PZ_KIND_COUNT])(const bench_opts *) = {
    [PZ_SUM] = bench_sum, [PZ_MAZE] = bench_maze, [PZ_ICE] = bench_ice, [PZ_PIPES] = bench_pipes};

static int cmd_bench(int argc, char **argv)
{
    bench_opts o = {.count = 2000, .max_seconds = 5.0, .quick = false};
    int only = -1;
    for (int i = 1; i < argc; i++) {
        long v;
        if (strcmp(argv[i], "--quick") == 0) {
            o.quick = true;
        } else if (strcmp(argv[i], "--effort") == 0) {
            o.effort = true;
        } else if (strcmp(argv[i], "--count") == 0 && i + 1 < argc) {
            if (!mr_parse_long(argv[++i], 1, 1000000, &v))
                return usage_error("--count needs a number from 1 to 1000000, not '%s'", argv[i]);
            o.count = (int)v;
        } else if (strcmp(argv[i], "--kind") == 0 && i + 1 < argc) {
            const pz_kind *k = pz_kind_by_name(argv[++i]);
            if (!k)
                return usage_error("unknown puzzle kind '%s'", argv[i]);
            only = k->id;
        } else {
            return usage_error("bench: unknown option '%s'", argv[i]);
        }
    }
    printf("mazerace-gen %s bench: %d puzzles per configuration%s\n", MR_VERSION, o.count,
           o.quick ? " (quick)" : "");
    for (int id = 0; id < PZ_KIND_COUNT; id++) {
        if (only >= 0 && id != only)
            continue;
        const pz_kind *k = pz_kind_by_id(id);
        printf("\n== %s (%s)\n", k->name, k->title);
        kind_bench[id](&o);
    }
    return 0;
}

static int cmd_bench_bot(int argc, char **argv)
{
    int count = 200, only = -1, diff = PZ_MEDIUM;
    for (int i = 1; i < argc; i++) {
        long v;
        if (strcmp(argv[i], "--count") == 0 && i + 1 < argc) {
            if (!mr_parse_long(argv[++i], 1, 100000, &v))
                return usage_error("--count needs a number from 1 to 100000, not '%s'", argv[i]);
            count = (int)v;
        } else if (strcmp(argv[i], "--kind") == 0 && i + 1 < argc) {
            const pz_kind *k = pz_kind_by_name(argv[++i]);
            if (!k)
                return usage_error("unknown puzzle kind '%s'", argv[i]);
            only = k->id;
        } else if (strcmp(argv[i], "--difficulty") == 0 && i + 1 < argc) {
            diff = pz_difficulty_by_name(argv[++i]);
            if (diff < 0)
                return usage_error("unknown difficulty '%s' (easy, medium or hard)", argv[i]);
        } else {
            return usage_error("bench-bot: unknown option '%s'", argv[i]);
        }
    }
    return bench_bot(count, only, diff);
}

/* The ```vectors block (fences included), malloc'd; NULL after a message
 * if a vector cannot be made. */
static char *vectors_block(void)
{
    size_t cap = 1 << 16, len = 0;
    char *out = mr_alloc(cap, 1);
    len += (size_t)snprintf(out, cap, "```vectors\n");
    static const uint64_t rng_seeds[] = {0, 1, 12345, 18446744073709551615ull};
    for (size_t i = 0; i < MR_ARRAY_LEN(rng_seeds); i++) {
        char line[512];
        genvec_rng_line(rng_seeds[i], line, sizeof line);
        len += (size_t)snprintf(out + len, cap - len, "%s\n", line);
    }
    for (int i = 0; genvec_ids[i]; i++) {
        char err[200];
        char *line = genvec_puzzle_line(genvec_ids[i], err, sizeof err);
        if (!line) {
            fprintf(stderr, "mazerace-gen: vectors: %s: %s\n", genvec_ids[i], err);
            free(out);
            return NULL;
        }
        if (len + strlen(line) + 8 >= cap) {
            cap *= 2;
            out = mr_realloc(out, cap, 1);
        }
        len += (size_t)snprintf(out + len, cap - len, "%s\n", line);
        free(line);
    }
    snprintf(out + len, cap - len, "```\n");
    return out;
}

/* vectors [FILE]: prints the block, or replaces the one in FILE. */
static int cmd_vectors(int argc, char **argv)
{
    if (argc > 2)
        return usage_error("vectors: at most one FILE%s", "");
    char *block = vectors_block();
    if (!block)
        return EXIT_GEN_FAILED;
    if (argc < 2) {
        fputs(block, stdout);
        free(block);
        return 0;
    }
    char *text = mr_read_file(argv[1], NULL);
    if (!text) {
        free(block);
        fprintf(stderr, "mazerace-gen: vectors: cannot read %s\n", argv[1]);
        return EXIT_USAGE;
    }
    FILE *f;
    char *a = strstr(text, "```vectors\n");
    char *b = a ? strstr(a + 11, "```\n") : NULL;
    int rc = 0;
    if (!b) {
        fprintf(stderr, "mazerace-gen: vectors: %s has no ```vectors block\n", argv[1]);
        rc = EXIT_USAGE;
    } else if (!(f = fopen(argv[1], "wb"))) {
        fprintf(stderr, "mazerace-gen: vectors: cannot write %s\n", argv[1]);
        rc = EXIT_USAGE;
    } else {
        fwrite(text, 1, (size_t)(a - text), f);
        fputs(block, f);
        fputs(b + 4, f);
        rc = fclose(f) == 0 ? 0 : EXIT_USAGE;
    }
    free(text);
    free(block);
    return rc;
}

/* replay FILE: reads, runs through the engine, prints the result. */
static int cmd_replay(int argc, char **argv)
{
    if (argc != 2)
        return usage_error("replay needs one FILE (or - for standard input)%s", "");
    const char *path = argv[1];
    bool std_in = strcmp(path, "-") == 0;
    pz_error e = {0, 0, ""};
    replay *r = NULL;
    if (std_in) {
        size_t len = 0;
        char *text = read_all(stdin, &len);
        if (text)
            r = replay_parse(text, len, &e);
        else
            pz_error_set(&e, 0, 0, "cannot read: %s", strerror(errno));
        free(text);
    } else {
        r = replay_read_file(path, &e);
    }
    match_result res;
    if (r && replay_check(r, &res, &e)) {
        replay_destroy(r);
        r = NULL;
    }
    if (!r) {
        const char *name = std_in ? "<stdin>" : path;
        if (e.line > 0)
            fprintf(stderr, "%s:%d:%d: %s\n", name, e.line, e.col, e.msg);
        else
            fprintf(stderr, "mazerace-gen: %s: %s\n", name, e.msg);
        return EXIT_USAGE;
    }
    printf("game: %s\n", replay_game_id(r));
    if (replay_seeded_id(r)[0])
        printf("seeded: %s\n", replay_seeded_id(r));
    int64_t date;
    char dbuf[21];
    if (replay_date(r, &date) && replay_date_format(date, dbuf))
        printf("date: %s\n", dbuf);
    for (int i = 0; i < MATCH_SLOTS; i++)
        printf("player %d: %s: %u moves, %llu.%03llu s%s\n", i, replay_name(r, i), res.moves[i],
               (unsigned long long)(res.time_ms[i] / 1000), (unsigned long long)(res.time_ms[i] % 1000),
               res.solved[i] ? ", solved" : "");
    if (res.winner >= 0)
        printf("result: %s (player %d) won, %s\n", replay_name(r, res.winner), res.winner,
               match_end_text(res.reason));
    else
        printf("result: no winner, %s\n", match_end_text(res.reason));
    printf("replay: ok (%zu moves checked)\n", replay_move_count(r));
    replay_destroy(r);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "replay") == 0)
        return cmd_replay(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "vectors") == 0)
        return cmd_vectors(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "solve") == 0)
        return cmd_solve(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "bench") == 0)
        return cmd_bench(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "bench-bot") == 0)
        return cmd_bench_bot(argc - 1, argv + 1);

    static const struct option longopts[] = {
        {"kind", required_argument, NULL, 'k'},       {"size", required_argument, NULL, 's'},
        {"difficulty", required_argument, NULL, 'd'}, {"seed", required_argument, NULL, 'S'},
        {"count", required_argument, NULL, 'n'},      {"id-only", no_argument, NULL, 'I'},
        {"no-text", no_argument, NULL, 'T'},          {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},          {NULL, 0, NULL, 0},
    };
    const char *kind = NULL, *size = NULL, *diff = NULL;
    bool have_seed = false;
    uint64_t seed = 0;
    long count = 1;
    gen_opts go = {false, false};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":k:s:d:S:n:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'k':
            kind = optarg;
            break;
        case 's':
            size = optarg;
            break;
        case 'd':
            diff = optarg;
            break;
        case 'S':
            if (!mr_parse_u64(optarg, &seed))
                return usage_error("--seed needs a number from 0 to 18446744073709551615, not '%s'", optarg);
            have_seed = true;
            break;
        case 'n':
            if (!mr_parse_long(optarg, 1, 10000, &count))
                return usage_error("--count needs a number from 1 to 10000, not '%s'", optarg);
            break;
        case 'I':
            go.id_only = true;
            break;
        case 'T':
            go.no_text = true;
            break;
        case 'h':
            fputs(usage_text, stdout);
            return 0;
        case 'V':
            printf("mazerace-gen %s\n", MR_VERSION);
            return 0;
        case ':':
            return usage_error("option '%s' needs a value", argv[optind - 1]);
        default:
            return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind > 1)
        return usage_error("more than one game ID given ('%s')", argv[optind + 1]);

    pz_params p;
    char err[256];
    if (optind < argc) {
        if (kind || size || diff)
            return usage_error("give either a game ID or --kind/--size/--difficulty, not both%s", "");
        pz_id id;
        if (pz_id_parse(argv[optind], &id, err, sizeof err))
            return usage_error("bad game ID: %s", err);
        if (id.desc) {
            pz_puzzle *pz = pz_from_id(argv[optind], err, sizeof err);
            if (!pz) {
                fprintf(stderr, "mazerace-gen: %s\n", err);
                return EXIT_USAGE;
            }
            const pz_kind *k = pz_kind_of(pz);
            pz_grade g;
            k->grade(pz, &g);
            printf("# id: %s\n# difficulty: %s (%s)\n", argv[optind],
                   g.band >= 0 ? pz_difficulty_name(g.band) : "outside every band", g.summary);
            if (!print_solve_line(pz, "# "))
                printf("# no solution\n");
            if (!go.no_text) {
                char *text = k->format_text(pz);
                fputs(text, stdout);
                free(text);
            }
            k->free_puzzle(pz);
            return 0;
        }
        p = id.params;
        if (id.has_seed) {
            if (have_seed)
                return usage_error("the game ID already has a seed%s", "");
            seed = id.seed;
            have_seed = true;
        }
    } else {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", kind ? kind : "sum");
        const pz_kind *k = pz_kind_by_name(buf);
        if (!k)
            return usage_error("unknown puzzle kind '%s' (sum, maze, ice or pipes)", buf);
        p.kind = k->id;
        p.w = k->default_w;
        p.h = k->default_h;
        p.diff = PZ_MEDIUM;
        if (size) {
            int w, h;
            if (!mr_parse_size(size, &w, &h) || w < 1 || h < 1 || w > 100000 || h > 100000)
                return usage_error("--size must be WxH (columns x rows), not '%s'", size);
            p.w = w;
            p.h = h;
        }
        if (diff) {
            p.diff = pz_difficulty_by_name(diff);
            if (p.diff < 0)
                return usage_error("unknown difficulty '%s' (easy, medium or hard)", diff);
        }
        const char *why = pz_validate_params(&p);
        if (why) {
            fprintf(stderr, "mazerace-gen: %s %dx%d: %s\n", k->name, p.w, p.h, why);
            return EXIT_USAGE;
        }
    }
    if (!have_seed)
        seed = mr_now_us() % 1000000000u;
    int rc = 0;
    for (long i = 0; i < count; i++) {
        if (i && !go.id_only)
            printf("\n");
        int r = print_one(&p, seed + (uint64_t)i, &go);
        if (r)
            rc = r;
    }
    return rc;
}
