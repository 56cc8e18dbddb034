/* genvec.h: the generator test vectors of docs/generation.md, made by one function so the doc and the engine
 * can be compared. */
#ifndef MR_GENVEC_H
#define MR_GENVEC_H

#include <stddef.h>
#include <stdint.h>

#include "puzzle.h"

/* The seed of the stream a kind's generator draws from for a seeded ID
 * (docs/generation.md, "Streams"). */
uint64_t pz_stream_seed(const pz_params *p, uint64_t seed);

/* One RNG vector line for seed: the first outputs of rng_u64, rng_u32,
 * rng_below, rng_range and rng_shuffle_int, each from a fresh rng_seed.
 * Writes at most len bytes (NUL included); returns the length. */
int genvec_rng_line(uint64_t seed, char *out, size_t len);

/* One puzzle vector line for a seeded game ID: the ID, its stream seed, the
 * stream's first three rng_u64 outputs, the description's length and
 * FNV-1a-64, for ice the work units and for sum the draws the generator
 * used, and the description itself when it is at most
 * GENVEC_DESC_SHOWN bytes. malloc'd; NULL with a message in err if the ID
 * does not parse or generate. */
#define GENVEC_DESC_SHOWN 64
char *genvec_puzzle_line(const char *seeded_id, char *err, size_t errlen);

/* The game IDs `mazerace-gen vectors` lists: every kind and difficulty,
 * several seeds. NULL-terminated. */
extern const char *const genvec_ids[];

#endif
