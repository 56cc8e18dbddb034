/* st_spool.c: the writer's spool: records kept in a local append-only file until the database takes them. */
#include "st_spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#define MAGIC "MRSPOOL1"
#define HEADER 16               /* magic, then the u64 offset of the first unsent frame */
#define FRAME 12                /* u32 payload length, u64 mr_hash64 of the payload */
#define PAYLOAD_MAX (64u << 20) /* larger than any record (ST_MOVES_MAX moves of 11 bytes) */
#define FORMAT 2                /* the payload's first byte (1: before the record key) */

struct st_spool {
    int fd;
    char *path;
    uint64_t head, size; /* first unsent frame; end of file */
    int pending, bad;
    int peeked;
    uint64_t ends[ST_SPOOL_READ_MAX]; /* end offset of each record of the last peek */
};

static bool sys_fail(const st_spool *sp, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "spool %s: %s: %s", sp->path, what, strerror(errno));
    return false;
}

static bool pread_all(int fd, void *b, size_t n, uint64_t off)
{
    for (size_t got = 0; got < n;) {
        ssize_t r = pread(fd, (char *)b + got, n - got, (off_t)(off + got));
        if (r <= 0) {
            if (r < 0 && errno == EINTR)
                continue;
            if (r == 0)
                errno = EIO;
            return false;
        }
        got += (size_t)r;
    }
    return true;
}

static bool pwrite_all(int fd, const void *b, size_t n, uint64_t off)
{
    for (size_t put = 0; put < n;) {
        ssize_t r = pwrite(fd, (const char *)b + put, n - put, (off_t)(off + put));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        put += (size_t)r;
    }
    return true;
}

static uint64_t get_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* --- the record, byte by byte ------------------------------------------ */

typedef struct enc {
    unsigned char *p;
    size_t n, cap;
} enc;

static void e_int(enc *e, uint64_t v, int bytes)
{
    if (e->n + (size_t)bytes > e->cap) {
        e->cap = (e->n + (size_t)bytes) * 2;
        e->p = mr_realloc(e->p, e->cap, 1);
    }
    put_le(e->p + e->n, v, bytes);
    e->n += (size_t)bytes;
}

static void e_str(enc *e, const char *s, int lenbytes)
{
    size_t len = strlen(s);
    e_int(e, len, lenbytes);
    if (e->n + len > e->cap) {
        e->cap = (e->n + len) * 2;
        e->p = mr_realloc(e->p, e->cap, 1);
    }
    memcpy(e->p + e->n, s, len);
    e->n += len;
}

static void encode(enc *e, const st_match *m)
{
    e_int(e, FORMAT, 1);
    e_str(e, m->key, 1);
    e_str(e, m->mode, 1);
    e_str(e, m->game_id, 4);
    e_str(e, m->desc_id, 4);
    e_int(e, m->desc_hash, 8);
    e_str(e, m->kind, 1);
    e_int(e, (uint32_t)m->width, 4);
    e_int(e, (uint32_t)m->height, 4);
    e_str(e, m->difficulty, 1);
    e_int(e, (uint64_t)m->start_utc_ms, 8);
    e_int(e, (uint8_t)(m->winner + 1), 1);
    e_int(e, (uint8_t)m->ending, 1);
    e_int(e, (uint32_t)m->game_no, 4);
    e_int(e, (uint32_t)m->series_len, 4);
    for (int i = 0; i < 2; i++) {
        const st_player *p = &m->p[i];
        e_str(e, p->name, 1);
        e_int(e, p->time_ms, 8);
        e_int(e, p->moves, 4);
        e_int(e, p->solved, 1);
        e_int(e, (uint8_t)p->result, 1);
    }
    e_int(e, m->nmoves, 4);
    for (size_t i = 0; i < m->nmoves; i++) {
        const st_move *mv = &m->moves[i];
        e_int(e, mv->ms, 4);
        e_int(e, mv->player, 1);
        e_int(e, mv->type, 1);
        e_int(e, mv->dir, 1);
        e_int(e, mv->x, 2);
        e_int(e, mv->y, 2);
    }
}

size_t st_spool_encoded_size(const st_match *m)
{
    enc e = {0};
    encode(&e, m);
    free(e.p);
    return e.n;
}

/* Reads check: every field is bounds-checked, any short or bad field fails the record. */
typedef struct dec {
    const unsigned char *p;
    size_t n, at;
} dec;

static bool d_int(dec *d, uint64_t *v, int bytes)
{
    if (d->n - d->at < (size_t)bytes)
        return false;
    *v = get_le(d->p + d->at, bytes);
    d->at += (size_t)bytes;
    return true;
}

static bool d_word(dec *d, char *out, size_t size)
{
    uint64_t len;
    if (!d_int(d, &len, 1) || len >= size || d->n - d->at < len)
        return false;
    memcpy(out, d->p + d->at, len);
    out[len] = '\0';
    d->at += len;
    return true;
}

static bool d_text(dec *d, char **out)
{
    uint64_t len;
    if (!d_int(d, &len, 4) || d->n - d->at < len || memchr(d->p + d->at, 0, len))
        return false;
    *out = mr_alloc(len + 1, 1);
    memcpy(*out, d->p + d->at, len);
    (*out)[len] = '\0';
    d->at += len;
    return true;
}

static bool decode(const unsigned char *p, size_t n, st_match *m)
{
    dec d = {p, n, 0};
    uint64_t f, v[6];
    memset(m, 0, sizeof *m);
    bool ok = d_int(&d, &f, 1) && (f == 1 || f == FORMAT) && (f == 1 || d_word(&d, m->key, sizeof m->key)) &&
              d_word(&d, m->mode, sizeof m->mode) && d_text(&d, &m->game_id) && d_text(&d, &m->desc_id) &&
              d_int(&d, &m->desc_hash, 8) && d_word(&d, m->kind, sizeof m->kind) && d_int(&d, &v[0], 4) &&
              d_int(&d, &v[1], 4) && d_word(&d, m->difficulty, sizeof m->difficulty) && d_int(&d, &v[2], 8) &&
              d_int(&d, &v[3], 1) && d_int(&d, &v[4], 1) && d_int(&d, &v[5], 4) && d_int(&d, &f, 4);
    if (ok) {
        m->width = (int)(v[0] & 0x7fffffff);
        m->height = (int)(v[1] & 0x7fffffff);
        m->start_utc_ms = (int64_t)v[2];
        m->winner = (int)v[3] - 1;
        m->ending = (int)v[4];
        m->game_no = (int)(v[5] & 0x7fffffff);
        m->series_len = (int)(f & 0x7fffffff);
    }
    for (int i = 0; ok && i < 2; i++) {
        st_player *pl = &m->p[i];
        ok = d_word(&d, pl->name, sizeof pl->name) && d_int(&d, &pl->time_ms, 8) && d_int(&d, &v[0], 4) &&
             d_int(&d, &v[1], 1) && d_int(&d, &v[2], 1);
        pl->moves = (uint32_t)v[0];
        pl->solved = v[1] != 0;
        pl->result = (int)v[2];
    }
    ok = ok && d_int(&d, &f, 4) && f <= ST_MOVES_MAX && (d.n - d.at) == f * 11;
    if (ok && f) {
        m->nmoves = (size_t)f;
        m->moves = mr_alloc(m->nmoves, sizeof *m->moves);
        for (size_t i = 0; i < m->nmoves; i++) {
            st_move *mv = &m->moves[i];
            d_int(&d, &v[0], 4);
            d_int(&d, &v[1], 1);
            d_int(&d, &v[2], 1);
            d_int(&d, &v[3], 1);
            d_int(&d, &v[4], 2);
            d_int(&d, &v[5], 2);
            *mv = (st_move){.ms = (uint32_t)v[0],
                            .player = (uint8_t)v[1],
                            .type = (uint8_t)v[2],
                            .dir = (uint8_t)v[3],
                            .x = (uint16_t)v[4],
                            .y = (uint16_t)v[5]};
        }
    }
    if (!ok || st_match_check(m)) {
        st_match_free(m);
        return false;
    }
    return true;
}

/* --- the file ------------------------------------------------------------- */

static bool write_head(st_spool *sp, char *err, size_t errlen)
{
    unsigned char h[8];
    put_le(h, sp->head, 8);
    if (!pwrite_all(sp->fd, h, 8, 8) || fdatasync(sp->fd) != 0)
        return sys_fail(sp, "writing its header", err, errlen);
    return true;
}

void st_spool_close(st_spool *sp)
{
    if (!sp)
        return;
    close(sp->fd); /* drops the lock */
    free(sp->path);
    free(sp);
}

st_spool *st_spool_open(const char *path, char *err, size_t errlen)
{
    st_spool *sp = mr_alloc(1, sizeof *sp);
    memset(sp, 0, sizeof *sp);
    sp->path = mr_strdup(path);
    sp->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (sp->fd < 0) {
        sys_fail(sp, "cannot open", err, errlen);
        free(sp->path);
        free(sp);
        return NULL;
    }
    struct stat stt;
    unsigned char h[HEADER];
    if (flock(sp->fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            snprintf(err, errlen,
                     "spool %s: in use by another process (a second server with the same spool?)", path);
        else
            sys_fail(sp, "cannot lock", err, errlen);
        goto bad;
    }
    if (fstat(sp->fd, &stt) != 0) {
        sys_fail(sp, "cannot stat", err, errlen);
        goto bad;
    }
    sp->size = (uint64_t)stt.st_size;
    if (sp->size == 0) {
        memcpy(h, MAGIC, 8);
        put_le(h + 8, HEADER, 8);
        if (!pwrite_all(sp->fd, h, HEADER, 0) || fdatasync(sp->fd) != 0) {
            sys_fail(sp, "cannot write", err, errlen);
            goto bad;
        }
        sp->size = HEADER;
    } else if (sp->size < HEADER || !pread_all(sp->fd, h, HEADER, 0) || memcmp(h, MAGIC, 8) != 0) {
        snprintf(err, errlen, "spool %s: not a mazerace spool file: refusing to use it", path);
        goto bad;
    }
    sp->head = get_le(h + 8, 8);
    if (sp->head < HEADER || sp->head > sp->size) { /* emptied, cut before the header was moved */
        sp->head = HEADER;
        if (ftruncate(sp->fd, HEADER) != 0 || !write_head(sp, err, errlen)) {
            sys_fail(sp, "cannot reset", err, errlen);
            goto bad;
        }
        sp->size = HEADER;
    }
    /* Count the frames; a frame cut short (a crash while appending) is cut off. */
    for (uint64_t off = sp->head; off < sp->size;) {
        unsigned char fh[FRAME];
        uint64_t len = 0;
        if (sp->size - off >= FRAME && pread_all(sp->fd, fh, FRAME, off))
            len = get_le(fh, 4);
        if (sp->size - off < FRAME || len > PAYLOAD_MAX || sp->size - off - FRAME < len) {
            if (ftruncate(sp->fd, (off_t)off) != 0) {
                sys_fail(sp, "cannot cut a torn record", err, errlen);
                goto bad;
            }
            sp->size = off;
            break;
        }
        sp->pending++;
        off += FRAME + len;
    }
    return sp;
bad:
    st_spool_close(sp);
    return NULL;
}

int st_spool_pending(const st_spool *sp)
{
    return sp->pending;
}

int st_spool_bad(const st_spool *sp)
{
    return sp->bad;
}

bool st_spool_append(st_spool *sp, st_match *const *ms, int n, char *err, size_t errlen)
{
    enc e = {0};
    for (int i = 0; i < n; i++) {
        size_t at = e.n;
        e_int(&e, 0, 4);
        e_int(&e, 0, 8);
        encode(&e, ms[i]);
        size_t len = e.n - at - FRAME;
        put_le(e.p + at, len, 4);
        put_le(e.p + at + 4, mr_hash64(e.p + at + FRAME, len), 8);
    }
    bool ok = pwrite_all(sp->fd, e.p, e.n, sp->size) && fdatasync(sp->fd) == 0;
    free(e.p);
    if (!ok) {
        sys_fail(sp, "cannot append", err, errlen);
        if (ftruncate(sp->fd, (off_t)sp->size) != 0) { /* best effort: the next open cuts it anyway */
        }
        return false;
    }
    sp->size += e.n;
    sp->pending += n;
    sp->peeked = 0;
    return true;
}

int st_spool_peek(st_spool *sp, st_match **out, int max, char *err, size_t errlen)
{
    if (max > ST_SPOOL_READ_MAX)
        max = ST_SPOOL_READ_MAX;
    int k = 0;
    uint64_t off = sp->head;
    unsigned char *buf = NULL;
    while (k < max && off < sp->size) {
        unsigned char fh[FRAME];
        if (!pread_all(sp->fd, fh, FRAME, off))
            goto fail;
        uint64_t len = get_le(fh, 4);
        buf = mr_realloc(buf, len ? len : 1, 1);
        if (!pread_all(sp->fd, buf, len, off + FRAME))
            goto fail;
        st_match *m = mr_alloc(1, sizeof *m);
        if (mr_hash64(buf, len) != get_le(fh + 4, 8) || !decode(buf, len, m)) {
            free(m);
            if (k > 0)
                break; /* skipped at the start of the next peek, after these are consumed */
            sp->bad++;
            sp->pending--;
            sp->head = off + FRAME + len;
            if (!write_head(sp, err, errlen))
                goto fail_msg;
            off = sp->head;
            continue;
        }
        out[k] = m;
        sp->ends[k++] = off + FRAME + len;
        off += FRAME + len;
    }
    free(buf);
    sp->peeked = k;
    return k;
fail:
    sys_fail(sp, "cannot read", err, errlen);
fail_msg:
    free(buf);
    for (int i = 0; i < k; i++) {
        st_match_free(out[i]);
        free(out[i]);
    }
    sp->peeked = 0;
    return -1;
}

bool st_spool_consume(st_spool *sp, int n, char *err, size_t errlen)
{
    if (n <= 0)
        return true;
    if (n > sp->peeked) {
        snprintf(err, errlen, "spool %s: consuming %d records, %d were read", sp->path, n, sp->peeked);
        return false;
    }
    sp->head = sp->ends[n - 1];
    sp->pending -= n;
    sp->peeked = 0;
    if (sp->head == sp->size) {
        /* Empty: cut the file first; a crash before the header follows
         * leaves an offset past the end, which open reads as "emptied". */
        if (ftruncate(sp->fd, HEADER) != 0)
            return sys_fail(sp, "cannot truncate", err, errlen);
        sp->head = sp->size = HEADER;
    }
    return write_head(sp, err, errlen);
}
