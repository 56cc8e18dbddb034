/* puzzle.h: the one interface every puzzle kind implements, the kind
 * registry, and game IDs. No SDL, no ENet. */
#ifndef MR_PUZZLE_H
#define MR_PUZZLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pz_kind_id { PZ_SUM, PZ_MAZE, PZ_ICE, PZ_PIPES, PZ_KIND_COUNT };
enum pz_difficulty { PZ_EASY, PZ_MEDIUM, PZ_HARD, PZ_DIFF_COUNT };

/* What to generate. "WxH" is columns x rows everywhere. */
typedef struct pz_params {
    int kind; /* enum pz_kind_id */
    int w, h; /* columns, rows */
    int diff; /* enum pz_difficulty */
} pz_params;

/* Directions; UP is towards row 0. Letters U D L R in text. */
enum pz_dir { PZ_UP, PZ_DOWN, PZ_LEFT, PZ_RIGHT, PZ_DIR_COUNT };
static inline int pz_dir_dx(int d)
{
    return d == PZ_LEFT ? -1 : d == PZ_RIGHT ? 1 : 0;
}
static inline int pz_dir_dy(int d)
{
    return d == PZ_UP ? -1 : d == PZ_DOWN ? 1 : 0;
}
static inline int pz_dir_opposite(int d)
{
    return d ^ 1;
}

enum pz_move_type {
    PZ_MOVE_STEP = 1,       /* sum, maze, ice: dir */
    PZ_MOVE_ROTATE_CW = 2,  /* pipes: tile x, y, 90 degrees clockwise */
    PZ_MOVE_ROTATE_CCW = 3, /* pipes: tile x, y, 90 degrees counter-clockwise */
    PZ_MOVE_RESTART = 4,    /* ice: back to the start (a slide can trap a player);
                               counts as a move; x, y, dir 0 */
    PZ_MOVE_TYPE_MAX = PZ_MOVE_RESTART,
};

/* A move is a value. Any bit pattern may arrive from the network:
 * execute_move checks every field and never asserts. */
typedef struct pz_move {
    uint8_t type; /* enum pz_move_type */
    uint8_t dir;  /* enum pz_dir, for PZ_MOVE_STEP */
    uint16_t x, y;
} pz_move;

/* Where a text form failed: 1-based line and column, and why. */
typedef struct pz_error {
    int line, col;
    char msg[160];
} pz_error;

/* The measured difficulty of one puzzle (see docs/puzzles.md per kind). */
typedef struct pz_grade {
    int band;         /* enum pz_difficulty the measure falls in, or -1 */
    long measure;     /* the kind's difficulty quantity (ice: min moves, ...) */
    int par;          /* length of a shortest solution from the start */
    long solutions;   /* number of distinct solutions where the kind counts them, else -1 */
    char summary[96]; /* one line for humans, e.g. "min moves 11" */
} pz_grade;

/* What an opponent's view shows of one player's state. */
typedef struct pz_progress {
    int x, y;     /* position or path head; pipes: -1 */
    int path_len; /* sum: cells on the path; others 0 */
    int value;    /* sum: running sum; pipes: tiles connected to Start */
    bool solved;
} pz_progress;

/* Opaque per kind. Each kind file defines both structs; by convention the
 * first member of struct pz_puzzle is its pz_params, so pz_params_of() works
 * on any puzzle. States belong to the puzzle they were made from. */
typedef struct pz_puzzle pz_puzzle;
typedef struct pz_state pz_state;

typedef struct pz_kind {
    const char *name;  /* "sum", "maze", "ice", "pipes": used in game IDs */
    const char *title; /* "Number path" ... */
    int id;            /* enum pz_kind_id */
    int default_w, default_h;
    int min_w, min_h, max_w, max_h; /* documented in docs/puzzles.md */

    /* NULL if p is acceptable for this kind, else a static message. */
    const char *(*validate_params)(const pz_params *p);

    /* A new puzzle for params and seed; same inputs, same puzzle, byte for
     * byte. Always ends: NULL with *err (static message) when the request
     * cannot be met within the kind's bounded effort. Caller frees with
     * free_puzzle. Params must have passed validate_params. */
    pz_puzzle *(*generate)(const pz_params *p, uint64_t seed, const char **err);
    void (*free_puzzle)(pz_puzzle *pz); /* accepts NULL */

    /* Description: one line that names exactly this puzzle, characters from
     * [A-Za-z0-9._-] only (never ':' '#' or space). malloc'd; caller frees. */
    char *(*encode_desc)(const pz_puzzle *pz);
    /* Validates and builds; anything it accepts is safe for every later call.
     * w, h and diff come from the game ID (diff is only recorded). */
    pz_puzzle *(*decode_desc)(const pz_params *p, const char *desc, const char **err);

    /* Text form (multi-line, documented per kind). malloc'd; caller frees. */
    char *(*format_text)(const pz_puzzle *pz);
    /* Reads a text form of len bytes; on failure NULL and err filled with
     * 1-based line and column. */
    pz_puzzle *(*parse_text)(const char *text, size_t len, pz_error *err);

    /* Player state at the start. Caller frees with free_state. */
    pz_state *(*new_state)(const pz_puzzle *pz);
    void (*copy_state)(pz_state *dst, const pz_state *src); /* same puzzle */
    void (*free_state)(pz_state *st);                       /* accepts NULL */

    /* Applies mv to `from`, writing the result into `to` (which may be the
     * same object as from; both made from pz). Returns NULL if legal, else a
     * static reason and `to` is left unchanged. Moves after solved are
     * rejected. */
    const char *(*execute_move)(const pz_puzzle *pz, const pz_state *from, pz_move mv, pz_state *to);
    bool (*is_solved)(const pz_puzzle *pz, const pz_state *st);

    /* A solution from state st (NULL: the start). From the start it is a
     * shortest one. Writes at most max moves to out and returns the full
     * length, or -1 if st cannot be solved. max >= pz_max_solution(pz) is
     * always enough. */
    int (*solve)(const pz_puzzle *pz, const pz_state *st, pz_move *out, int max);

    /* The measured difficulty. */
    void (*grade)(const pz_puzzle *pz, pz_grade *out);

    /* What the opponent's view shows of st. */
    void (*progress)(const pz_puzzle *pz, const pz_state *st, pz_progress *out);
} pz_kind;

/* Fills e (if not NULL) with a 1-based line, column and printf-style message;
 * for text-form readers. In textform.c (part of the base library). */
void pz_error_set(pz_error *e, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The end of a decode_desc or a generate: pz when why is NULL; else frees pz
 * (a puzzle in one allocation), sets *err (if err is not NULL) to why and
 * returns NULL. */
pz_puzzle *pz_decoded(pz_puzzle *pz, const char *why, const char **err);

/* ---- registry ---- */
extern const pz_kind pz_kind_sum, pz_kind_maze, pz_kind_ice, pz_kind_pipes;
const pz_kind *pz_kind_by_id(int id);             /* NULL if out of range */
const pz_kind *pz_kind_by_name(const char *name); /* NULL if unknown */
const char *pz_difficulty_name(int diff);         /* "easy" ..., "?" if bad */
int pz_difficulty_by_name(const char *name);      /* -1 if unknown */
const char *pz_dir_letters(void);                 /* "UDLR", indexed by pz_dir */

/* ---- move notation (docs/puzzles.md; movetext.c, in mr_common) ----
 * U D L R a step or slide, X an ice restart, "x,y+" / "x,y-" a clockwise /
 * counter-clockwise turn of the pipe at column x, row y (0-based). */
/* Writes m (snprintf rules; "?" for a move with no notation). */
int pz_move_format(pz_move m, char *buf, size_t len);
/* Reads exactly len bytes of s as one move: NULL, or a static message. */
const char *pz_move_parse(const char *s, size_t len, pz_move *out);

const pz_params *pz_params_of(const pz_puzzle *pz);
/* Records diff (enum pz_difficulty) as the puzzle's difficulty: a puzzle made
 * from a description is labelled with its measured band (pz_grade_band). */
void pz_set_difficulty(pz_puzzle *pz, int diff);
/* The band of the puzzle's measured grade; a board in no band (e.g. an ice
 * board solved in one slide) counts as easy. */
int pz_grade_band(const pz_puzzle *pz);
const pz_kind *pz_kind_of(const pz_puzzle *pz);
/* Upper bound on any solution length: 3 * cells + 1. */
int pz_max_solution(const pz_puzzle *pz);
/* Checks kind, size against the kind's limits, difficulty. */
const char *pz_validate_params(const pz_params *p);

/* ---- game IDs (docs/puzzles.md) ----
 *   seeded:      kind:WxH:difficulty#seed    e.g. ice:25x20:hard#12345
 *   description: kind:WxH:desc               names one exact puzzle
 * ":WxH" and ":difficulty" may be left out of a seeded ID (defaults). */
typedef struct pz_id {
    pz_params params;
    bool has_seed;
    uint64_t seed;
    const char *desc; /* points into the parsed string, or NULL */
    size_t desc_len;
} pz_id;

/* NULL on success, else a message written to err (errlen bytes). */
const char *pz_id_parse(const char *text, pz_id *out, char *err, size_t errlen);
/* Writes "kind:WxH:difficulty#seed"; returns the length (snprintf rules). */
int pz_id_format_seeded(const pz_params *p, uint64_t seed, char *buf, size_t len);
/* malloc'd "kind:WxH:desc" for pz. */
char *pz_id_format_desc(const pz_puzzle *pz);
/* Builds the puzzle an ID names (generating or decoding). NULL with a message
 * in err on any failure. */
pz_puzzle *pz_from_id(const char *text, char *err, size_t errlen);

#endif
