/* util.h: allocation wrappers that check sizes, and small shared helpers. */
#ifndef MR_UTIL_H
#define MR_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Return convention (see docs/architecture.md):
 * - functions that can fail for reasons of input return `const char *`:
 *   NULL on success, else a static, human-readable message;
 * - constructors return a pointer (NULL on failure) and, where failure can be
 *   the input's fault, report why through a `const char **err` out-parameter;
 * - counts return an int >= 0, or -1 on failure;
 * - predicates return bool.
 * Allocation failure aborts the process with a message (mr_alloc): a game
 * that cannot allocate a few KiB has nothing sensible left to do. */

/* Zeroed array of n elements of size bytes; aborts on overflow or OOM.
 * The caller frees with free(). */
void *mr_alloc(size_t n, size_t size);
/* realloc to n * size bytes with the same overflow check; aborts on OOM. */
void *mr_realloc(void *p, size_t n, size_t size);
/* malloc'd copy of s (n bytes, NUL added). */
char *mr_strndup(const char *s, size_t n);
char *mr_strdup(const char *s);

/* Strict number parsing for command lines and config files: the whole
 * string must be the number, in range; no sign for the unsigned one. */
bool mr_parse_long(const char *s, long lo, long hi, long *out);
bool mr_parse_u64(const char *s, uint64_t *out);
/* mr_parse_long into an int. */
bool mr_parse_int(const char *s, int lo, int hi, int *out);
/* "WxH" (a board's columns x rows, a window's size): two whole numbers,
 * each under 16 characters, around one 'x'. The caller checks the ranges. */
bool mr_parse_size(const char *s, int *w, int *h);

/* Reading "key = value" files and scripts line by line: the next line of
 * text[0..len) from *pos, copied into buf (NUL-terminated, without its
 * '\n') and *pos moved past it; its length in *n, which is >= cap when it
 * did not fit (buf is then ""). false at the end of the text. */
bool mr_next_line(const char *text, size_t len, size_t *pos, char *buf, size_t cap, size_t *n);
/* s without blanks (space, tab) at the start and blanks, '\r' and '\n' at
 * the end: cut in place, the first kept byte returned. */
char *mr_trim(char *s);

/* The whole file at path, NUL-terminated (its length in *len if len is
 * not NULL); malloc'd, the caller frees. NULL if it cannot be read. For
 * tools and tests. */
char *mr_read_file(const char *path, size_t *len);

/* A text that grows as it is written (a scrape, a replay file):
 * mr_text t = mr_text_new(4096); mr_text_add(&t, "...", ...); t.p (NUL-
 * terminated, t.len bytes) is the caller's to free. */
typedef struct mr_text {
    char *p;
    size_t len, cap;
} mr_text;
mr_text mr_text_new(size_t cap);
void mr_text_add(mr_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A first-in first-out ring of *cap items of size bytes, *len of them from
 * *head, that is full (*len == *cap): a new one with room for twice as many
 * (16 at first) holding the same items in the same order from index 0 (*head
 * set to 0, *cap to the new room); the old one is freed. The next item goes
 * at (*head + *len) % *cap, the first leaves at *head. */
void *mr_ring_grow(void *ring, size_t size, size_t *head, size_t len, size_t *cap);

/* 64-bit FNV-1a of n bytes: used for description hashes. */
uint64_t mr_hash64(const void *data, size_t n);

/* Monotonic clock in microseconds, for tools and hosts only: logic in
 * common/ never reads the clock, it is handed the time. */
uint64_t mr_now_us(void);

/* ms since 1970 as ISO 8601 UTC, "2026-11-25T09:30:01.250Z"; "?" when
 * negative or out of range. For tools' listings. */
void mr_utc_text(int64_t ms, char *buf, size_t n);

#define MR_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* An enum's word: names[i] when 0 <= i < n and it is set, else other. */
const char *mr_name_of(const char *const *names, size_t n, int i, const char *other);
#define MR_NAME_OF(names, i, other) mr_name_of(names, MR_ARRAY_LEN(names), i, other)
#define MR_VERSION "0.1.0"

#endif
