/* secrand.c: getrandom(2) with a /dev/urandom fallback; unbiased bounded draws. */
#include "secrand.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>
#include <fcntl.h>

static bool from_urandom(uint8_t *p, size_t n)
{
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            close(fd);
            return false;
        }
        p += r;
        n -= (size_t)r;
    }
    close(fd);
    return true;
}

bool secrand_fill(void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n > 0) {
        ssize_t r = getrandom(p, n, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno == ENOSYS && from_urandom(p, n);
        p += r;
        n -= (size_t)r;
    }
    return true;
}

bool secrand_ok(void)
{
    uint8_t b[16];
    return secrand_fill(b, sizeof b);
}

uint64_t secrand_u64(void)
{
    uint64_t v;
    if (!secrand_fill(&v, sizeof v)) {
        fputs("mazerace: the kernel gives no random bytes (getrandom failed)\n", stderr);
        abort();
    }
    return v;
}

uint32_t secrand_below(uint32_t n)
{
    /* Reject the top partial range so every value is equally likely. */
    uint64_t limit = UINT64_MAX - (UINT64_MAX % n + 1) % n;
    uint64_t v;
    do {
        v = secrand_u64();
    } while (v > limit);
    return (uint32_t)(v % n);
}
