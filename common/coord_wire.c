/* coord_wire.c: the coordinator's datagrams and invite codes (docs/coordinator.md). */
#include "coord_wire.h"

#include <ctype.h>

#include "util.h"
#include "wire_io.h"

static const char magic[4] = {'M', 'R', 'C', 'O'};

static void put_addr(writer *w, coord_addr a)
{
    put_u32(w, a.ip);
    put_u16(w, a.port);
}
static bool get_addr(reader *r, coord_addr *a)
{
    return get_u32(r, &a->ip) && get_u16(r, &a->port);
}

static void put_cands(writer *w, const coord_msg *m)
{
    assert(m->ncand <= COORD_CAND_MAX);
    put_u8(w, m->ncand);
    for (int i = 0; i < m->ncand; i++) {
        assert(m->cand[i].kind <= COORD_CAND_RELAYED);
        put_u8(w, m->cand[i].kind);
        put_addr(w, m->cand[i].addr);
    }
}
static bool get_cands(reader *r, coord_msg *m)
{
    if (!get_u8(r, &m->ncand) || m->ncand > COORD_CAND_MAX)
        return false;
    for (int i = 0; i < m->ncand; i++)
        if (!(get_below(r, &m->cand[i].kind, COORD_CAND_RELAYED + 1) && get_addr(r, &m->cand[i].addr)))
            return false;
    return true;
}

static bool get_bytes(reader *r, uint8_t *out, size_t n)
{
    if (r->len - r->pos < n)
        return false;
    memcpy(out, r->p + r->pos, n);
    r->pos += n;
    return true;
}

static void put_icode(writer *w, const char *code)
{
    assert(code[0] == '+' && strlen(code) == COORD_CODE_LEN + 1);
    put_bytes(w, code + 1, COORD_CODE_LEN);
}
/* Strict on the wire: exactly the canonical characters. */
static bool get_icode(reader *r, char out[COORD_CODE_LEN + 2])
{
    uint8_t b[COORD_CODE_LEN];
    if (!get_bytes(r, b, sizeof b))
        return false;
    out[0] = '+';
    for (int i = 0; i < COORD_CODE_LEN; i++) {
        if (b[i] == 0 || !strchr(COORD_CODE_ALPHABET, b[i]))
            return false;
        out[i + 1] = (char)b[i];
    }
    out[COORD_CODE_LEN + 1] = '\0';
    return true;
}

static void put_server(writer *w, const coord_server *s, bool with_ip)
{
    if (with_ip)
        put_u32(w, s->addr.ip);
    put_u16(w, s->addr.port);
    put_u16(w, s->players);
    put_u16(w, s->rooms);
    put_u16(w, s->capacity);
    put_str8(w, s->name, COORD_NAME_MAX);
    put_str8(w, s->version, COORD_VERSION_MAX);
}
static bool get_server(reader *r, coord_server *s, bool with_ip)
{
    s->addr.ip = 0;
    return (!with_ip || get_u32(r, &s->addr.ip)) && get_u16(r, &s->addr.port) && get_u16(r, &s->players) &&
           get_u16(r, &s->rooms) && get_u16(r, &s->capacity) && get_str8(r, s->name, 1, COORD_NAME_MAX) &&
           get_str8(r, s->version, 1, COORD_VERSION_MAX);
}

size_t coord_encode(const coord_msg *m, uint8_t *buf, size_t cap)
{
    writer w = {buf, cap, 0};
    put_bytes(&w, magic, sizeof magic);
    put_u8(&w, COORD_VERSION);
    put_u8(&w, m->type);
    put_u32(&w, m->id);
    switch (m->type) {
    case COORD_HOST_REGISTER:
        put_bytes(&w, m->token, COORD_TOKEN_LEN);
        put_str8(&w, m->name, COORD_NAME_MAX);
        put_cands(&w, m);
        break;
    case COORD_HOST_OK:
        put_icode(&w, m->code);
        put_bytes(&w, m->token, COORD_TOKEN_LEN);
        put_u16(&w, m->seconds);
        put_addr(&w, m->seen);
        break;
    case COORD_HOST_LEAVE:
        put_bytes(&w, m->token, COORD_TOKEN_LEN);
        break;
    case COORD_LOOKUP:
        put_icode(&w, m->code);
        put_cands(&w, m);
        break;
    case COORD_LOOKUP_OK:
    case COORD_INTRODUCE:
        put_u32(&w, m->pair);
        put_bytes(&w, m->token, COORD_TOKEN_LEN);
        put_addr(&w, m->seen);
        if (m->type == COORD_LOOKUP_OK)
            put_str8(&w, m->name, COORD_NAME_MAX);
        put_cands(&w, m);
        break;
    case COORD_TURN_REQUEST:
        put_u32(&w, m->pair);
        put_bytes(&w, m->token, COORD_TOKEN_LEN);
        break;
    case COORD_TURN_OK:
        put_addr(&w, m->turn);
        put_str8(&w, m->user, COORD_CRED_MAX);
        put_str8(&w, m->pass, COORD_CRED_MAX);
        put_u16(&w, m->seconds);
        break;
    case COORD_SERVER_REGISTER:
        put_server(&w, &m->server, false);
        break;
    case COORD_SERVER_OK:
        put_u16(&w, m->seconds);
        break;
    case COORD_LIST:
        put_u16(&w, m->start);
        break;
    case COORD_SERVER_LIST:
        assert(m->nlist <= COORD_LIST_MAX);
        put_u16(&w, m->total);
        put_u16(&w, m->start);
        put_u8(&w, m->nlist);
        for (int i = 0; i < m->nlist; i++)
            put_server(&w, &m->list[i], true);
        break;
    case COORD_ERROR:
        put_u8(&w, m->error);
        put_u16(&w, m->seconds);
        put_str8(&w, m->text, COORD_ERROR_MAX);
        break;
    default:
        assert(!"coord_encode: unknown type");
    }
    assert(w.len <= COORD_MAX);
    return w.len;
}

bool coord_decode(const uint8_t *buf, size_t len, coord_msg *m, bool *version_bad)
{
    reader r = {buf, len, 0};
    uint8_t mg[4], ver;
    *version_bad = false;
    if (len > COORD_MAX || !get_bytes(&r, mg, 4) || memcmp(mg, magic, 4) != 0 || !get_u8(&r, &ver) ||
        !get_u8(&r, &m->type) || !get_u32(&r, &m->id))
        return false;
    if (ver != COORD_VERSION) {
        *version_bad = true;
        return true;
    }
    bool ok;
    switch (m->type) {
    case COORD_HOST_REGISTER:
        ok = get_bytes(&r, m->token, COORD_TOKEN_LEN) && get_str8(&r, m->name, 1, COORD_NAME_MAX) &&
             txt_name_ok(m->name, strlen(m->name)) && get_cands(&r, m);
        break;
    case COORD_HOST_OK:
        ok = get_icode(&r, m->code) && get_bytes(&r, m->token, COORD_TOKEN_LEN) && get_u16(&r, &m->seconds) &&
             get_addr(&r, &m->seen);
        break;
    case COORD_HOST_LEAVE:
        ok = get_bytes(&r, m->token, COORD_TOKEN_LEN);
        break;
    case COORD_LOOKUP:
        ok = get_icode(&r, m->code) && get_cands(&r, m);
        break;
    case COORD_LOOKUP_OK:
    case COORD_INTRODUCE:
        ok = get_u32(&r, &m->pair) && get_bytes(&r, m->token, COORD_TOKEN_LEN) && get_addr(&r, &m->seen) &&
             (m->type != COORD_LOOKUP_OK || get_str8(&r, m->name, 1, COORD_NAME_MAX)) && get_cands(&r, m);
        break;
    case COORD_TURN_REQUEST:
        ok = get_u32(&r, &m->pair) && get_bytes(&r, m->token, COORD_TOKEN_LEN);
        break;
    case COORD_TURN_OK:
        ok = get_addr(&r, &m->turn) && get_str8(&r, m->user, 1, COORD_CRED_MAX) &&
             get_str8(&r, m->pass, 1, COORD_CRED_MAX) && get_u16(&r, &m->seconds);
        break;
    case COORD_SERVER_REGISTER:
        ok = get_server(&r, &m->server, false) && txt_name_ok(m->server.name, strlen(m->server.name));
        break;
    case COORD_SERVER_OK:
        ok = get_u16(&r, &m->seconds);
        break;
    case COORD_LIST:
        ok = get_u16(&r, &m->start);
        break;
    case COORD_SERVER_LIST:
        ok = get_u16(&r, &m->total) && get_u16(&r, &m->start) && get_u8(&r, &m->nlist) &&
             m->nlist <= COORD_LIST_MAX;
        for (int i = 0; ok && i < m->nlist; i++)
            ok = get_server(&r, &m->list[i], true);
        break;
    case COORD_ERROR:
        ok = get_u8(&r, &m->error) && get_u16(&r, &m->seconds) && get_str8(&r, m->text, 0, COORD_ERROR_MAX);
        break;
    default:
        ok = false;
    }
    return ok && at_end(&r);
}

void coord_code_make(const uint8_t rnd[COORD_CODE_LEN], char out[COORD_CODE_LEN + 2])
{
    /* 20 does not divide 256: the bytes are read as one 64-bit number and
     * written in base 20 (20^8 < 2^64, so the bias is below 2^-29). */
    uint64_t v = 0;
    for (int i = 0; i < COORD_CODE_LEN; i++)
        v = v << 8 | rnd[i];
    out[0] = '+';
    for (int i = 0; i < COORD_CODE_LEN; i++) {
        out[i + 1] = COORD_CODE_ALPHABET[v % COORD_CODE_BASE];
        v /= COORD_CODE_BASE;
    }
    out[COORD_CODE_LEN + 1] = '\0';
}

const char *coord_code_parse(const char *text, char out[COORD_CODE_LEN + 2])
{
    const char *bad = "is not an invite code: '+' and 8 of 3479ACDEFHJKMNPRTWXY";
    int n = 0;
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '+')
        p++;
    out[0] = '+';
    for (; *p; p++) {
        if (*p == ' ' || *p == '-' || *p == '\t')
            continue;
        char c = (char)toupper((unsigned char)*p);
        if (n >= COORD_CODE_LEN || !strchr(COORD_CODE_ALPHABET, c))
            return bad;
        out[++n] = c;
    }
    if (n != COORD_CODE_LEN)
        return bad;
    out[n + 1] = '\0';
    return NULL;
}

const char *coord_type_name(int type)
{
    static const char *const names[] = {
        "?",         "HOST_REGISTER", "HOST_OK",      "HOST_LEAVE", "LOOKUP",
        "LOOKUP_OK", "INTRODUCE",     "TURN_REQUEST", "TURN_OK",    "SERVER_REGISTER",
        "SERVER_OK", "LIST",          "SERVER_LIST",  "ERROR"};
    return MR_NAME_OF(names, type, "?");
}

const char *coord_error_name(int error)
{
    static const char *const names[] = {"?",    "BAD",     "VERSION", "RATE", "NO_CODE",
                                        "FULL", "NO_PAIR", "NO_TURN", "TOKEN"};
    return MR_NAME_OF(names, error, "?");
}
