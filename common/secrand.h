/* secrand.h: unpredictable random bytes from the kernel (getrandom), for secrets: resume tokens, room codes,
 * server seeds. */
#ifndef MR_SECRAND_H
#define MR_SECRAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Everything an attacker must not guess comes from here, never from an
 * rng_t: xoshiro256** is fast and reproducible, and for the same reason its
 * state can be solved from a few outputs. Each call reads the kernel's
 * CSPRNG (getrandom(2), /dev/urandom where that is missing), so two values
 * share nothing an observer could use. Thread-safe. */

/* Fills buf with n random bytes. False only if the kernel gives none
 * (a broken system): callers that hand out secrets check this once at
 * start-up with secrand_ok and refuse to run without it. */
bool secrand_fill(void *buf, size_t n);
/* Whether secrand_fill works here. */
bool secrand_ok(void);
/* A random 64-bit value; aborts if the kernel gives no randomness (after
 * secrand_ok said yes, that cannot happen on Linux). */
uint64_t secrand_u64(void);
/* Uniform in [0, n), n >= 1, without modulo bias. */
uint32_t secrand_below(uint32_t n);

#endif
