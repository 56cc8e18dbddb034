/* conformance.c: drives a real mazerace-server over 127.0.0.1 from docs/protocol.md's point of view:
 * replays the sequence diagrams written in the doc, then one check per MUST; prints a PASS/FAIL list. */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "match.h"
#include "puzzle.h"
#include "raw_client.h"
#include "util.h"
#include "wire.h"

#define WAIT_MS 3000
#define QUIET_MS 150 /* how long "nothing more arrives" is watched for */
#define MAX_LINE 256

static int passes, fails;
static uint16_t port;
static uint16_t spec_port; /* the server's spectator port (the game port when it serves them there) */

static void check(const char *id, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void check(const char *id, bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %-10s ", ok ? "PASS" : "FAIL", id);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (ok)
        passes++;
    else
        fails++;
}

/* ---- the server process ---- */

static pid_t server_pid;
static char db_path[128];  /* the server's match database, in a temporary directory */
static char tmp_dir[64];   /* that directory, removed at exit */
static char log_path[160]; /* the server's stderr, shown when it does not start */

static void stop_server(void)
{
    if (server_pid > 0) {
        kill(server_pid, SIGKILL);
        waitpid(server_pid, NULL, 0);
        server_pid = 0;
    }
}

/* Starts bin on 127.0.0.1 with a short countdown and grace period, db as
 * its match database and spectators as --spectator-port; returns its game
 * port from the "listening on" line (spec_port from the "spectators on"
 * line), 0 on failure. */
static uint16_t start_server(const char *bin, const char *db, const char *spectators)
{
    int fds[2];
    if (pipe(fds) != 0)
        return 0;
    server_pid = fork();
    if (server_pid < 0)
        return 0;
    if (server_pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        dup2(fds[1], 1);
        if (!getenv("MR_TEST_SERVER_LOG")) {
            int log = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            dup2(log >= 0 ? log : open("/dev/null", O_WRONLY), 2);
        }
        close(fds[0]);
        execl(bin, bin, "--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--countdown", "0.3",
              "--grace", "1", "--max-rooms", "64", "--kind", "maze", "--size", "9x9", "--difficulty", "easy",
              "--db", db, "--spectator-port", spectators, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char text[512];
    size_t len = 0;
    uint64_t end = mr_now_us() / 1000u + WAIT_MS;
    const char *prefix = "listening on 127.0.0.1:", *sprefix = "spectators on 127.0.0.1:";
    while (len + 1 < sizeof text) {
        text[len] = '\0';
        const char *at = strstr(text, prefix), *sat = strstr(text, sprefix);
        if (at && sat && strchr(sat, '\n')) {
            close(fds[0]);
            spec_port = (uint16_t)atoi(sat + strlen(sprefix));
            return (uint16_t)atoi(at + strlen(prefix));
        }
        uint64_t now = mr_now_us() / 1000u;
        struct pollfd pf = {.fd = fds[0], .events = POLLIN};
        if (now >= end || poll(&pf, 1, (int)(end - now)) <= 0)
            break;
        ssize_t n = read(fds[0], text + len, sizeof text - 1 - len);
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    close(fds[0]);
    return 0;
}

static void remove_tmp_dir(void)
{
    char rm[200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", tmp_dir);
    if (tmp_dir[0] && system(rm) != 0)
        fprintf(stderr, "conformance: could not remove %s\n", tmp_dir);
}

/* start_server, or the end of the run with a message saying why (the
 * server's own stderr): no check can run without a server, and none may
 * go on with port 0. */
static uint16_t must_start_server(const char *bin, const char *db, const char *spectators)
{
    uint16_t p = start_server(bin, db, spectators);
    if (p)
        return p;
    int status = 0;
    if (server_pid > 0 && waitpid(server_pid, &status, WNOHANG) == server_pid)
        server_pid = 0;
    stop_server();
    fprintf(stderr, "conformance: %s did not start (no \"listening on\" line within %d ms)", bin, WAIT_MS);
    if (WIFEXITED(status))
        fprintf(stderr, ", exit status %d", WEXITSTATUS(status));
    fprintf(stderr, "; its stderr:\n");
    FILE *f = fopen(log_path, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        fprintf(stderr, "  | %s", line);
    if (f)
        fclose(f);
    printf("conformance: %d passed, %d failed, then the server did not start\n", passes, fails);
    exit(1);
}

/* ---- small senders ---- */

static raw_client *connect_raw(void)
{
    return raw_connect(port, NULL, NULL, WAIT_MS);
}

static void send_type(raw_client *c, int type)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = (uint8_t)type;
    if (type == WIRE_READY)
        m.ready.ready = true;
    raw_send_msg(c, &m);
}

static void send_hello(raw_client *c, const char *name, size_t len)
{
    uint8_t buf[8 + 255] = {WIRE_HELLO,          0x4D,        0x5A, 0x52, 0x43, WIRE_VERSION >> 8,
                            WIRE_VERSION & 0xFF, (uint8_t)len};
    memcpy(buf + 8, name, len);
    raw_send(c, buf, 8 + len);
}

static raw_client *hello_client(const char *name)
{
    raw_client *c = connect_raw();
    if (c && !raw_hello(c, name, WAIT_MS)) {
        raw_close(c);
        c = NULL;
    }
    return c;
}

static void send_create_id(raw_client *c, const char *id, int series)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_CREATE_ROOM;
    m.create.by_id = true;
    m.create.game_id = id;
    m.create.game_id_len = (uint16_t)strlen(id);
    m.create.series_len = (uint8_t)series;
    raw_send_msg(c, &m);
}

static void send_move(raw_client *c, uint32_t seq, pz_move mv)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_MOVE;
    m.move.seq = seq;
    m.move.move = mv;
    raw_send_msg(c, &m);
}

/* The next message c gets is an ERROR (or REFUSED) with this code. */
static bool next_error(raw_client *c, int type, int code, char *text, size_t tlen)
{
    wire_msg m;
    if (!raw_next(c, &m, WAIT_MS) || m.type != type || m.error.code != code)
        return false;
    if (text)
        snprintf(text, tlen, "%s", m.error.text);
    return true;
}

/* Nothing more arrives for QUIET_MS. */
static bool quiet(raw_client *c)
{
    raw_pump(c, QUIET_MS, false);
    int t[4];
    return raw_queued_types(c, t, 4) == 0;
}

/* ---- sequence diagrams from docs/protocol.md ----
 * A block "```flow NAME [id=GAME-ID]" holds lines "X: connect",
 * "X: disconnect", "X -> S: TYPE" (the client sends TYPE) and
 * "S -> X: TYPE [field=value ...]" (the next message X gets is TYPE, with
 * those fields); text after "--" is a comment. Replaying a flow sends what
 * it says and fails at the first message that differs; at its end no
 * client may get anything more. */

typedef struct actor {
    raw_client *c;
    char name[8];
    match_token_t first_token; /* from the first MATCH_START; "token=same" */
    uint8_t slot;
    char code[WIRE_ROOM_CODE_LEN + 1];
    match_token_t token;
    pz_move plan[4096];
    int plan_len, next;
    uint32_t seq;
    uint64_t desc_hash; /* from the last MATCH_START */
    char *desc;         /* DESC_CHUNK bytes so far */
    size_t desc_len;
} actor;

#define ACTORS 3 /* A and B play, C watches */
typedef struct flow_ctx {
    actor who[ACTORS];
    char id[256];
    char code[WIRE_ROOM_CODE_LEN + 1]; /* the last room code seen */
} flow_ctx;

/* The ROOM_LIST entry of room code, or NULL. */
static const wire_room_entry *listed(const wire_msg *m, const char *code)
{
    for (int i = 0; i < m->list.count; i++)
        if (strcmp(m->list.room[i].code, code) == 0)
            return &m->list.room[i];
    return NULL;
}

static bool field(const wire_msg *m, const actor *a, const char *code, const char *key, long *v)
{
    static const char *const none = "";
    (void)none;
#define F(k, expr)                                                                                           \
    if (strcmp(key, k) == 0) {                                                                               \
        *v = (long)(expr);                                                                                   \
        return true;                                                                                         \
    }
    switch (m->type) {
    case WIRE_ROOM_STATE:
        F("phase", m->room.phase);
        F("slot", m->room.your_slot);
        F("kind", m->room.params.kind);
        F("difficulty", m->room.params.diff);
        F("series", m->room.series_len);
        F("present1", m->room.player[1].present);
        F("connected0", m->room.player[0].connected);
        F("connected1", m->room.player[1].connected);
        F("ready", m->room.player[0].ready + m->room.player[1].ready);
        F("rematch0", m->room.player[0].rematch);
        F("rematch1", m->room.player[1].rematch);
        F("spectators", m->room.spectators);
        break;
    case WIRE_WATCH_START:
        F("game_no", m->wstart.game_no);
        F("seeded", memchr(m->wstart.game_id, '#', m->wstart.game_id_len) != NULL);
        F("started", m->wstart.start_in_ms <= 0);
        break;
    case WIRE_ROOM_LIST: {
        const wire_room_entry *e = listed(m, code);
        F("total", m->list.total);
        F("count", m->list.count);
        F("listed", e != NULL);
        F("phase", e ? e->phase : -1);
        F("spectators", e ? e->spectators : -1);
        break;
    }
    case WIRE_MATCH_START:
        F("slot", m->start.slot);
        F("game_no", m->start.game_no);
        F("seeded", memchr(m->start.game_id, '#', m->start.game_id_len) != NULL);
        F("token", match_token_equal(&m->start.token, &a->first_token) ? 1 : 0);
        F("started", m->start.start_in_ms <= 0);
        break;
    case WIRE_ACK:
        F("moves", m->ack.moves);
        F("solved", m->ack.solved);
        break;
    case WIRE_PROGRESS:
        F("slot", m->progress.slot);
        F("moves", m->progress.moves);
        F("value", m->progress.value);
        F("path_len", m->progress.path_len);
        F("solved", m->progress.solved);
        break;
    case WIRE_MATCH_END:
        F("winner", m->end.winner);
        F("reason", m->end.reason);
        F("time0", m->end.time_ms[0]);
        F("time1", m->end.time_ms[1]);
        F("solved0", m->end.solved[0]);
        F("solved1", m->end.solved[1]);
        F("moves0", m->end.moves[0]);
        F("moves1", m->end.moves[1]);
        F("series_over", m->end.series_over);
        break;
    case WIRE_REMATCH_OFFER:
        F("slot", m->rematch_offer.slot);
        break;
    case WIRE_DESC_CHUNK:
        F("game_no", m->desc.game_no);
        F("offset", m->desc.offset);
        F("complete", (uint64_t)m->desc.offset + m->desc.count == m->desc.total);
        F("same_hash", m->desc.desc_hash == a->desc_hash);
        break;
    case WIRE_MOVE_LOG:
        F("slot", m->log.slot);
        F("count", m->log.count);
        F("last", m->log.last);
        break;
    case WIRE_ERROR:
    case WIRE_REFUSED:
    case WIRE_REJECT:
        F("code", m->error.code);
        break;
    default:
        break;
    }
#undef F
    return false;
}

static int type_by_name(const char *name)
{
    for (int t = 0; t < 256; t++)
        if (strcmp(wire_type_name(t), name) == 0)
            return t;
    return -1;
}

/* Appends a DESC_CHUNK to what the actor has; once complete, the
 * description game ID must build a puzzle whose hash is MATCH_START's. */
static bool learn_chunk(actor *a, const wire_desc_chunk *d, char *why, size_t wlen)
{
    if (d->offset != a->desc_len) {
        snprintf(why, wlen, "DESC_CHUNK at offset %u, expected %zu", (unsigned)d->offset, a->desc_len);
        return false;
    }
    a->desc = mr_realloc(a->desc, a->desc_len + d->count + 1, 1);
    memcpy(a->desc + a->desc_len, d->bytes, d->count);
    a->desc_len += d->count;
    a->desc[a->desc_len] = '\0';
    if (a->desc_len < d->total)
        return true;
    char err[160];
    pz_puzzle *pz = pz_from_id(a->desc, err, sizeof err);
    if (!pz) {
        snprintf(why, wlen, "the description game ID does not build: %s", err);
        return false;
    }
    char *desc = pz_kind_of(pz)->encode_desc(pz);
    bool same = mr_hash64(desc, strlen(desc)) == a->desc_hash && d->desc_hash == a->desc_hash;
    free(desc);
    pz_kind_of(pz)->free_puzzle(pz);
    if (!same)
        snprintf(why, wlen, "the description's hash is not MATCH_START's desc_hash");
    return same;
}

/* What a received message teaches the actor (room code, slot, token,
 * the puzzle's solution); checks MATCH_START's hash against the puzzle
 * built from its game ID. */
static bool learn(flow_ctx *f, actor *a, const wire_msg *m, char *why, size_t wlen)
{
    if (m->type == WIRE_ROOM_STATE) {
        memcpy(f->code, m->room.code, sizeof f->code);
        memcpy(a->code, m->room.code, sizeof a->code);
        a->slot = m->room.your_slot;
    }
    if (m->type == WIRE_DESC_CHUNK)
        return learn_chunk(a, &m->desc, why, wlen);
    if (m->type != WIRE_MATCH_START && m->type != WIRE_WATCH_START)
        return true;
    /* A spectator's WATCH_START is checked like a MATCH_START. */
    bool watch = m->type == WIRE_WATCH_START;
    uint64_t hash = watch ? m->wstart.desc_hash : m->start.desc_hash;
    const char *gid = watch ? m->wstart.game_id : m->start.game_id;
    size_t gid_len = watch ? m->wstart.game_id_len : m->start.game_id_len;
    a->desc_hash = hash;
    if (!watch) {
        a->slot = m->start.slot;
        a->token = m->start.token;
        if (!match_token_set(&a->first_token))
            a->first_token = m->start.token;
    }
    char id[1024];
    if (gid_len >= sizeof id) {
        snprintf(why, wlen, "game ID too long for this test");
        return false;
    }
    memcpy(id, gid, gid_len);
    id[gid_len] = '\0';
    char err[160];
    pz_puzzle *pz = pz_from_id(id, err, sizeof err);
    if (!pz) {
        snprintf(why, wlen, "MATCH_START game ID %.60s does not build: %s", id, err);
        return false;
    }
    const pz_kind *k = pz_kind_of(pz);
    char *desc = k->encode_desc(pz);
    bool same = mr_hash64(desc, strlen(desc)) == hash;
    free(desc);
    a->plan_len = k->solve(pz, NULL, a->plan, (int)MR_ARRAY_LEN(a->plan));
    a->next = 0;
    k->free_puzzle(pz);
    if (!same)
        snprintf(why, wlen, "MATCH_START desc_hash is not FNV-1a-64 of %.60s's description", id);
    return same;
}

static bool do_send(flow_ctx *f, actor *a, const char *type, char *why, size_t wlen)
{
    int t = type_by_name(type);
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = (uint8_t)t;
    switch (t) {
    case WIRE_HELLO:
        return raw_hello(a->c, a->name, 0), true; /* WELCOME is a line of its own */
    case WIRE_CREATE_ROOM:
        send_create_id(a->c, f->id, 1);
        return true;
    case WIRE_JOIN_ROOM:
    case WIRE_WATCH:
        memcpy(m.join.code, f->code, sizeof m.join.code);
        break;
    case WIRE_LIST_ROOMS:
        break;
    case WIRE_READY:
        m.ready.ready = true;
        break;
    case WIRE_QUICK_MATCH:
    case WIRE_LEAVE_ROOM:
    case WIRE_REMATCH:
        break;
    case WIRE_RESUME:
        memcpy(m.resume.code, a->code, sizeof m.resume.code);
        m.resume.slot = a->slot;
        m.resume.token = a->token;
        break;
    case WIRE_DESC_REQUEST:
        m.desc_req.offset = (uint32_t)a->desc_len;
        break;
    case WIRE_MOVE:
        if (a->next >= a->plan_len) {
            snprintf(why, wlen, "no move left in the solution");
            return false;
        }
        m.move.seq = a->seq++;
        m.move.move = a->plan[a->next++];
        break;
    default:
        snprintf(why, wlen, "cannot send %s", type);
        return false;
    }
    raw_send_msg(a->c, &m);
    return true;
}

/* Replays one flow; lines points at its text (NUL-terminated lines). */
static void run_flow(const char *name, const char *id, char **lines, int n)
{
    flow_ctx f;
    memset(&f, 0, sizeof f);
    snprintf(f.id, sizeof f.id, "%s", id ? id : "");
    snprintf(f.who[0].name, sizeof f.who[0].name, "alice");
    snprintf(f.who[1].name, sizeof f.who[1].name, "bob");
    snprintf(f.who[2].name, sizeof f.who[2].name, "carol");
    char why[300] = "";
    int ln = 0;
    bool ok = true;
    for (ln = 0; ln < n && ok; ln++) {
        char line[MAX_LINE];
        snprintf(line, sizeof line, "%s", lines[ln]);
        char *cmt = strstr(line, "--");
        if (cmt)
            *cmt = '\0';
        char *tok[16];
        int nt = 0;
        for (char *s = strtok(line, " \t:"); s && nt < 16; s = strtok(NULL, " \t:"))
            tok[nt++] = s;
        if (nt == 0)
            continue;
        if (nt >= 2 && strlen(tok[0]) == 1 && tok[0][0] >= 'A' && tok[0][0] < 'A' + ACTORS) {
            actor *a = &f.who[tok[0][0] - 'A'];
            if (strcmp(tok[1], "connect") == 0) {
                raw_close(a->c);
                a->c = connect_raw();
                ok = a->c != NULL;
                snprintf(why, sizeof why, "connect failed");
            } else if (strcmp(tok[1], "disconnect") == 0) {
                raw_close(a->c);
                a->c = NULL;
            } else if (strcmp(tok[1], "->") == 0 && nt >= 4 && strcmp(tok[2], "S") == 0) {
                ok = a->c && do_send(&f, a, tok[3], why, sizeof why);
            } else {
                ok = false;
                snprintf(why, sizeof why, "cannot read the line");
            }
            continue;
        }
        if (nt >= 4 && strcmp(tok[0], "S") == 0 && strcmp(tok[1], "->") == 0 && strlen(tok[2]) == 1) {
            actor *a = &f.who[(unsigned)(tok[2][0] - 'A') % ACTORS];
            wire_msg m;
            if (!a->c || !raw_next(a->c, &m, WAIT_MS)) {
                ok = false;
                snprintf(why, sizeof why, "%s got nothing, expected %s", tok[2], tok[3]);
                break;
            }
            if (getenv("MR_CONF_DEBUG"))
                fprintf(stderr, "  %s got %s phase %d present %d%d connected %d%d\n", tok[2],
                        wire_type_name(m.type), m.room.phase, m.room.player[0].present,
                        m.room.player[1].present, m.room.player[0].connected, m.room.player[1].connected);
            if (strcmp(wire_type_name(m.type), tok[3]) != 0) {
                ok = false;
                snprintf(why, sizeof why, "%s got %s, expected %s", tok[2], wire_type_name(m.type), tok[3]);
                if (m.type == WIRE_ERROR)
                    snprintf(why + strlen(why), sizeof why - strlen(why), " (code %d: %s)", m.error.code,
                             m.error.text);
                break;
            }
            for (int i = 4; i < nt && ok; i++) {
                char *eq = strchr(tok[i], '=');
                long want, got = -1;
                if (!eq) {
                    ok = false;
                    snprintf(why, sizeof why, "bad field '%s'", tok[i]);
                    break;
                }
                *eq = '\0';
                want = strcmp(eq + 1, "same") == 0 ? 1 : strtol(eq + 1, NULL, 10);
                if (!field(&m, a, f.code, tok[i], &got) || got != want) {
                    ok = false;
                    snprintf(why, sizeof why, "%s %s: %s is %ld, expected %s", tok[2], tok[3], tok[i], got,
                             eq + 1);
                }
            }
            if (ok)
                ok = learn(&f, a, &m, why, sizeof why);
            continue;
        }
        ok = false;
        snprintf(why, sizeof why, "cannot read the line");
    }
    char label[64];
    snprintf(label, sizeof label, "FLOW-%s", name);
    if (!ok) {
        check(label, false, "diagram \"%s\", line %d (%s): %s", name, ln, lines[ln > 0 ? ln - 1 : 0], why);
    } else {
        bool rest = true;
        char extra[128] = "";
        for (int i = 0; i < ACTORS; i++) {
            if (!f.who[i].c || quiet(f.who[i].c))
                continue;
            rest = false;
            int t[1];
            raw_queued_types(f.who[i].c, t, 1);
            snprintf(extra, sizeof extra, ", but %c got %s beyond the diagram", 'A' + i,
                     wire_type_name(t[0]));
        }
        check(label, rest, "diagram \"%s\": %d lines match the wire%s", name, n, extra);
    }
    for (int i = 0; i < ACTORS; i++) {
        raw_close(f.who[i].c);
        free(f.who[i].desc);
    }
}

/* Finds every flow block in the doc and replays it; returns how many. */
static int run_flows(const char *doc_path)
{
    char *text = mr_read_file(doc_path, NULL);
    if (!text) {
        check("FLOW-doc", false, "cannot read %s", doc_path);
        return 0;
    }
    char *lines[4096];
    int nl = 0;
    for (char *s = text; s && *s && nl < 4096;) {
        lines[nl++] = s;
        char *e = strchr(s, '\n');
        if (e)
            *e++ = '\0';
        s = e;
    }
    int flows = 0;
    for (int i = 0; i < nl; i++) {
        if (strncmp(lines[i], "```flow ", 8) != 0)
            continue;
        char head[MAX_LINE];
        snprintf(head, sizeof head, "%s", lines[i] + 8);
        char *name = strtok(head, " ");
        char *id = NULL;
        for (char *t = strtok(NULL, " "); t; t = strtok(NULL, " "))
            if (strncmp(t, "id=", 3) == 0)
                id = t + 3;
        int j = i + 1;
        while (j < nl && strncmp(lines[j], "```", 3) != 0)
            j++;
        run_flow(name ? name : "?", id, lines + i + 1, j - i - 1);
        flows++;
        i = j;
    }
    free(text);
    return flows;
}

/* ---- one check per MUST (the IDs are the doc's) ---- */

/* Handshake: names, versions, the first-message rule. */
static void check_handshake(void)
{
    static const struct {
        const char *name;
        size_t len;
        const char *what;
    } bad[] = {
        {"", 0, "empty"},
        {"1234567890123456789012345", 25, "25 bytes"},
        {"a\tb", 3, "tab"},
        {"a\x7f", 2, "DEL"},
        {"a\xc2\x85", 3, "U+0085"},
        {"\xc0\xaf", 2, "overlong UTF-8"},
        {"\xed\xa0\x80", 3, "surrogate"},
        {" ", 1, "a lone space"},
        {"\xe2\x80\x8b", 3, "zero-width space"},
        {"a\xe2\x80\xae"
         "b",
         5, "right-to-left override"},
        {"a\xe2\x81\xa6"
         "b",
         5, "left-to-right isolate"},
    };
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        raw_client *c = connect_raw();
        char text[WIRE_TEXT_MAX + 1] = "";
        bool ok = c != NULL;
        if (ok) {
            send_hello(c, bad[i].name, bad[i].len);
            ok = next_error(c, WIRE_REFUSED, WIRE_ERR_BAD_NAME, text, sizeof text) && text[0] &&
                 raw_wait_disconnect(c, WAIT_MS);
        }
        check("NAME-1", ok,
              "a HELLO name that is %s gets REFUSED 3 BAD_NAME with a reason (\"%s\") and a disconnect",
              bad[i].what, text);
        raw_close(c);
    }
    const char *good[] = {"alice", "Zo\xc3\xab", "a b", "\xe6\x97\xa5\xe6\x9c\xac"};
    for (size_t i = 0; i < MR_ARRAY_LEN(good); i++) {
        raw_client *c = hello_client(good[i]);
        check("NAME-2", c != NULL, "a HELLO name that follows the rule (\"%s\") gets WELCOME", good[i]);
        raw_close(c);
    }

    raw_client *c = connect_raw();
    uint8_t other[] = {WIRE_HELLO, 0x4D, 0x5A, 0x52, 0x43, 0x7F, 0xFF, 1, 2, 3};
    bool ok = c != NULL;
    if (ok) {
        raw_send(c, other, sizeof other);
        ok = next_error(c, WIRE_REFUSED, WIRE_ERR_VERSION, NULL, 0) && raw_wait_disconnect(c, WAIT_MS);
    }
    check("HS-1", ok,
          "a HELLO of another version (any bytes after it) gets REFUSED 1 VERSION and a disconnect");
    raw_close(c);

    c = connect_raw();
    ok = c != NULL;
    if (ok) {
        send_type(c, WIRE_READY);
        ok = next_error(c, WIRE_ERROR, WIRE_ERR_HANDSHAKE, NULL, 0) && raw_connected(c);
        ok = ok && raw_hello(c, "late", WAIT_MS);
    }
    check("HS-2", ok,
          "a well-formed message other than HELLO first gets ERROR 14 HANDSHAKE; the connection stays");
    raw_close(c);

    c = connect_raw();
    ok = c != NULL;
    if (ok) {
        uint8_t cut[] = {WIRE_HELLO, 0x4D, 0x5A};
        raw_send(c, cut, sizeof cut);
        ok = next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0) && raw_hello(c, "after", WAIT_MS);
    }
    check("HS-3", ok,
          "a malformed first message gets ERROR 4 (malformed wins over handshake); HELLO still works");
    raw_close(c);

    c = hello_client("twice");
    ok = c != NULL;
    if (ok) {
        send_hello(c, "twice", 5);
        ok = next_error(c, WIRE_ERROR, WIRE_ERR_HANDSHAKE, NULL, 0);
    }
    check("HS-4", ok, "a second HELLO gets ERROR 14 HANDSHAKE");
    raw_close(c);
}

/* Malformed messages and requests made in no room. */
static void check_requests(void)
{
    raw_client *c = hello_client("carol");
    if (!c) {
        check("REQ", false, "cannot connect");
        return;
    }
    uint8_t unknown[] = {200};
    raw_send(c, unknown, 1);
    check("MSG-1", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0), "an unknown type gets ERROR 4");
    uint8_t trailing[] = {WIRE_READY, 1, 0};
    raw_send(c, trailing, sizeof trailing);
    check("MSG-2", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0), "a trailing byte gets ERROR 4");
    uint8_t badbool[] = {WIRE_READY, 2};
    raw_send(c, badbool, sizeof badbool);
    check("MSG-3", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0), "a bool of 2 gets ERROR 4");
    uint8_t *big = mr_alloc(WIRE_MSG_MAX + 1, 1);
    big[0] = WIRE_CREATE_ROOM;
    raw_send(c, big, WIRE_MSG_MAX + 1);
    free(big);
    check("MSG-4", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0),
          "a message longer than WIRE_MSG_MAX gets ERROR 4");
    uint8_t movebad[] = {WIRE_MOVE, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0};
    raw_send(c, movebad, sizeof movebad);
    check("MSG-5", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0), "a MOVE of type 5 gets ERROR 4");
    uint8_t bundle[] = {WIRE_BUNDLE, 0, 1, WIRE_LEAVE_ROOM, 0, 1, WIRE_LEAVE_ROOM}; /* well framed */
    raw_send(c, bundle, sizeof bundle);
    check("MSG-6", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, NULL, 0) && quiet(c),
          "a BUNDLE from a client gets ERROR 4, and none of its messages is acted on");

    const int no_room[] = {WIRE_LEAVE_ROOM, WIRE_READY, WIRE_REMATCH, WIRE_MOVE};
    for (size_t i = 0; i < MR_ARRAY_LEN(no_room); i++) {
        if (no_room[i] == WIRE_MOVE)
            send_move(c, 1, (pz_move){PZ_MOVE_STEP, PZ_UP, 0, 0});
        else
            send_type(c, no_room[i]);
        check("ROOM-1", next_error(c, WIRE_ERROR, WIRE_ERR_NOT_IN_ROOM, NULL, 0),
              "%s in no room gets ERROR 9 NOT_IN_ROOM", wire_type_name(no_room[i]));
    }
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_JOIN_ROOM;
    strcpy(m.join.code, "ZZZZZ");
    raw_send_msg(c, &m);
    check("ROOM-2", next_error(c, WIRE_ERROR, WIRE_ERR_NO_ROOM, NULL, 0),
          "JOIN_ROOM of an unknown code gets ERROR 5");
    memset(&m, 0, sizeof m);
    m.type = WIRE_RESUME;
    strcpy(m.resume.code, "ZZZZZ");
    m.resume.token.b[0] = 1;
    raw_send_msg(c, &m);
    check("ROOM-3", next_error(c, WIRE_ERROR, WIRE_ERR_RESUME, NULL, 0),
          "RESUME of an unknown room gets ERROR 11");

    /* CREATE_ROOM settings out of range: BAD_PARAMS with a reason. */
    static const struct {
        int off, val;
        const char *what;
    } bad[] = {
        {2, 0, "series 0"},         {2, 100, "series 100"}, {3, 7, "kind 7"},
        {5, 0, "w = 0 with h = 9"}, {8, 3, "difficulty 3"}, {17, 5, "has_seed 0 with seed 5"},
        {4, 0x10, "maze 4105x9"},
    };
    uint8_t good[18] = {WIRE_CREATE_ROOM, 0, 1, PZ_MAZE, 0, 9, 0, 9, PZ_EASY, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < MR_ARRAY_LEN(bad); i++) {
        uint8_t b[18];
        memcpy(b, good, sizeof b);
        if (bad[i].off == 5)
            b[7] = 9;
        b[bad[i].off] = (uint8_t)bad[i].val;
        raw_send(c, b, sizeof b);
        char text[WIRE_TEXT_MAX + 1] = "";
        bool ok = next_error(c, WIRE_ERROR, WIRE_ERR_BAD_PARAMS, text, sizeof text) && text[0];
        check("PARAM-1", ok, "CREATE_ROOM with %s gets ERROR 7 BAD_PARAMS (\"%s\")", bad[i].what, text);
    }
    send_create_id(c, "chess:8x8#1", 1);
    check("PARAM-2", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_PARAMS, NULL, 0),
          "CREATE_ROOM with a bad game ID gets ERROR 7");
    send_create_id(c, "ice:6x6:1.1.AAA", 0);
    check("PARAM-3", next_error(c, WIRE_ERROR, WIRE_ERR_BAD_PARAMS, NULL, 0),
          "CREATE_ROOM by ID with series 0 gets ERROR 7");

    /* In a room: state wins over parameters. */
    raw_send(c, good, sizeof good);
    bool ok =
        raw_wait(c, WIRE_ROOM_STATE, &m, WAIT_MS) && m.room.params.w == 9 && m.room.params.diff == PZ_EASY;
    check("PARAM-4", ok, "CREATE_ROOM by settings gets ROOM_STATE with those settings");
    uint8_t b[18];
    memcpy(b, good, sizeof b);
    b[2] = 0;
    raw_send(c, b, sizeof b);
    check(
        "PREC-1", next_error(c, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0),
        "CREATE_ROOM with series 0 from a player already in a room gets ERROR 10 (state before parameters)");
    send_type(c, WIRE_REMATCH);
    check("STATE-1", next_error(c, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0),
          "REMATCH while waiting gets ERROR 10");
    send_move(c, 3, (pz_move){PZ_MOVE_STEP, PZ_UP, 0, 0});
    ok = raw_next(c, &m, WAIT_MS) && m.type == WIRE_REJECT && m.error.seq == 3 &&
         m.error.code == MATCH_REJ_NOT_STARTED;
    check("MOVE-1", ok, "a MOVE in a waiting room gets REJECT 2 (not started) with its seq");
    check("MOVE-2", quiet(c), "nothing else follows");
    raw_close(c);
}

/* Two players in a room on id, both ready, until the race is on;
 * their MATCH_STARTs in sa, sb. */
static bool race_on(const char *id, raw_client **a, raw_client **b, wire_match_start *sa,
                    wire_match_start *sb)
{
    *a = hello_client("dan");
    *b = hello_client("eve");
    wire_msg m;
    if (!*a || !*b)
        return false;
    send_create_id(*a, id, 1);
    if (!raw_wait(*a, WIRE_ROOM_STATE, &m, WAIT_MS))
        return false;
    wire_msg j;
    memset(&j, 0, sizeof j);
    j.type = WIRE_JOIN_ROOM;
    memcpy(j.join.code, m.room.code, sizeof j.join.code);
    raw_send_msg(*b, &j);
    send_type(*a, WIRE_READY);
    send_type(*b, WIRE_READY);
    if (!raw_wait(*a, WIRE_MATCH_START, &m, WAIT_MS))
        return false;
    *sa = m.start;
    if (!raw_wait(*b, WIRE_MATCH_START, &m, WAIT_MS))
        return false;
    *sb = m.start;
    /* the race start: ROOM_STATE phase 2 */
    for (int i = 0; i < 8; i++)
        if (raw_wait(*a, WIRE_ROOM_STATE, &m, WAIT_MS) && m.room.phase == MATCH_RACING)
            break;
    while (raw_wait(*b, WIRE_ROOM_STATE, &m, WAIT_MS) && m.room.phase != MATCH_RACING) {
    }
    return m.room.phase == MATCH_RACING;
}

static void check_race(void)
{
    raw_client *a = NULL, *b = NULL;
    wire_match_start sa, sb;
    bool on = race_on("maze:5x5:easy#11", &a, &b, &sa, &sb);
    check("RACE-0", on, "two players get a race on maze:5x5:easy#11");
    if (!on) {
        raw_close(a);
        raw_close(b);
        return;
    }
    wire_msg m;
    send_type(a, WIRE_REMATCH);
    check("STATE-2", next_error(a, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0),
          "REMATCH during a race gets ERROR 10 STATE");
    send_type(a, WIRE_READY);
    check("STATE-3", next_error(a, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0),
          "READY during a race gets ERROR 10 STATE");
    send_create_id(a, "maze:5x5:easy#1", 1);
    check("STATE-4", next_error(a, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0),
          "CREATE_ROOM in a room gets ERROR 10 STATE");

    char err[160];
    pz_puzzle *pz = pz_from_id("maze:5x5:easy#11", err, sizeof err);
    const pz_kind *k = pz_kind_of(pz);
    pz_move plan[128];
    int n = k->solve(pz, NULL, plan, (int)MR_ARRAY_LEN(plan));
    pz_state *st = k->new_state(pz);
    /* An illegal move, a legal one, then a type-4 move on a maze: one
     * answer each, in order. */
    pz_move wall = {PZ_MOVE_STEP, PZ_DOWN, 0, 0}; /* from the bottom-left start, down is the border */
    send_move(a, 10, wall);
    send_move(a, 11, plan[0]);
    send_move(a, 12, (pz_move){PZ_MOVE_RESTART, 0, 0, 0});
    bool r1 = raw_next(a, &m, WAIT_MS) && m.type == WIRE_REJECT && m.error.seq == 10 &&
              m.error.code == MATCH_REJ_ILLEGAL;
    bool r2 = raw_next(a, &m, WAIT_MS) && m.type == WIRE_ACK && m.ack.seq == 11 && m.ack.moves == 1 &&
              !m.ack.solved;
    bool r3 = raw_next(a, &m, WAIT_MS) && m.type == WIRE_REJECT && m.error.seq == 12;
    check("MOVE-3", r1 && r2 && r3,
          "every MOVE gets one ACK or REJECT, in order (illegal, legal, RESTART on a maze)");
    k->execute_move(pz, st, plan[0], st);
    pz_progress pr;
    k->progress(pz, st, &pr);
    bool p = raw_wait(b, WIRE_PROGRESS, &m, WAIT_MS) && m.progress.slot == 0 && m.progress.moves == 1 &&
             m.progress.x == pr.x && m.progress.y == pr.y && m.progress.value == 0 &&
             m.progress.path_len == 0 && !m.progress.solved;
    check("PROG-1", p, "maze PROGRESS: x, y the mover's cell, value 0, path_len 0, moves 1");
    check("PROG-2", quiet(b), "one PROGRESS per accepted move, none for rejected ones");
    /* a solves; b gets the result. */
    for (int i = 1; i < n; i++)
        send_move(a, 20 + (uint32_t)i, plan[i]);
    bool solved = false;
    for (int i = 1; i < n; i++)
        solved = raw_wait(a, WIRE_ACK, &m, WAIT_MS) && m.ack.solved == (i == n - 1);
    bool end = raw_wait(b, WIRE_MATCH_END, &m, WAIT_MS) && m.end.winner == 0 &&
               m.end.reason == MATCH_END_SOLVED && m.end.solved[0] && !m.end.solved[1] &&
               m.end.moves[0] == (uint32_t)n && m.end.time_ms[1] >= m.end.time_ms[0];
    check("END-1", solved && end,
          "the solving move's ACK says solved; MATCH_END names the winner, reason 0, moves");
    k->free_state(st);
    k->free_puzzle(pz);
    raw_close(a);
    raw_close(b);

    /* ice RESTART is a valid message (type 4): the answer is a REJECT (at
     * the start already), not ERROR 4. */
    on = race_on("ice:6x6:easy#1", &a, &b, &sa, &sb);
    if (on) {
        send_move(a, 1, (pz_move){PZ_MOVE_RESTART, 0, 0, 0});
        on = raw_next(a, &m, WAIT_MS) && m.type == WIRE_REJECT && m.error.code == MATCH_REJ_ILLEGAL;
    }
    check("MOVE-4", on, "an ice RESTART (type 4) at the start gets REJECT 1, not ERROR 4");
    raw_close(a);
    raw_close(b);
}

/* DESC_REQUEST: a big maze comes in chunks of at most WIRE_DESC_CHUNK_MAX
 * bytes that add up to its description game ID. */
static void check_desc(void)
{
    raw_client *c = hello_client("fay");
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_DESC_REQUEST;
    if (c) {
        raw_send_msg(c, &m);
        check("DESC-1", next_error(c, WIRE_ERROR, WIRE_ERR_NOT_IN_ROOM, NULL, 0),
              "DESC_REQUEST in no room gets ERROR 9");
        send_create_id(c, "maze:9x9:easy#1", 1);
        bool ok = raw_wait(c, WIRE_ROOM_STATE, &m, WAIT_MS);
        memset(&m, 0, sizeof m);
        m.type = WIRE_DESC_REQUEST;
        raw_send_msg(c, &m);
        check("DESC-2", ok && next_error(c, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0),
              "DESC_REQUEST before any game started gets ERROR 10");
    }
    raw_close(c);

    const char *id = "maze:500x400:easy#1";
    raw_client *a = NULL, *b = NULL;
    wire_match_start sa, sb;
    bool on = race_on(id, &a, &b, &sa, &sb);
    char err[160];
    pz_puzzle *pz = pz_from_id(id, err, sizeof err);
    char *want = pz ? pz_id_format_desc(pz) : NULL;
    size_t got_len = 0, total = 0;
    char *got = NULL;
    int chunks = 0;
    bool ok = on && want;
    while (ok && chunks < 16 && (chunks == 0 || got_len < total)) {
        memset(&m, 0, sizeof m);
        m.type = WIRE_DESC_REQUEST;
        m.desc_req.offset = (uint32_t)got_len;
        raw_send_msg(a, &m);
        ok = raw_next(a, &m, WAIT_MS) && m.type == WIRE_DESC_CHUNK && m.desc.offset == got_len &&
             m.desc.count <= WIRE_DESC_CHUNK_MAX && m.desc.desc_hash == sa.desc_hash && m.desc.game_no == 1;
        if (ok) {
            total = m.desc.total;
            got = mr_realloc(got, got_len + m.desc.count + 1, 1);
            memcpy(got + got_len, m.desc.bytes, m.desc.count);
            got_len += m.desc.count;
            got[got_len] = '\0';
        }
        chunks++;
    }
    ok = ok && got && strcmp(got, want) == 0 && chunks >= 2;
    check("DESC-3", ok,
          "DESC_REQUEST on %s: %d chunks of at most %d bytes make its description game ID (%zu bytes)", id,
          chunks, WIRE_DESC_CHUNK_MAX, got_len);
    if (on) {
        memset(&m, 0, sizeof m);
        m.type = WIRE_DESC_REQUEST;
        m.desc_req.offset = (uint32_t)got_len + 1;
        raw_send_msg(a, &m);
        check("DESC-4", next_error(a, WIRE_ERROR, WIRE_ERR_BAD_PARAMS, NULL, 0),
              "DESC_REQUEST with an offset beyond the end gets ERROR 7");
    }
    free(got);
    free(want);
    if (pz)
        pz_kind_of(pz)->free_puzzle(pz);
    raw_close(a);
    raw_close(b);
}

/* Limits: a full room, the message rate, the bad-message count. */
static void check_limits(void)
{
    raw_client *a = hello_client("gus"), *b = hello_client("hal"), *c = hello_client("ivy");
    wire_msg m;
    bool ok = a && b && c;
    if (ok) {
        send_create_id(a, "maze:9x9:easy#2", 1);
        ok = raw_wait(a, WIRE_ROOM_STATE, &m, WAIT_MS);
        wire_msg j;
        memset(&j, 0, sizeof j);
        j.type = WIRE_JOIN_ROOM;
        memcpy(j.join.code, m.room.code, sizeof j.join.code);
        raw_send_msg(b, &j);
        ok = ok && raw_wait(b, WIRE_ROOM_STATE, &m, WAIT_MS);
        raw_send_msg(c, &j);
        ok = ok && next_error(c, WIRE_ERROR, WIRE_ERR_ROOM_FULL, NULL, 0);
    }
    check("ROOM-4", ok, "JOIN_ROOM of a room with both seats taken gets ERROR 6 ROOM_FULL");
    raw_close(a);
    raw_close(b);
    raw_close(c);

    /* 20 bad messages (server default --max-bad): the 20th answer says so
     * and the server disconnects. */
    c = hello_client("jay");
    ok = c != NULL;
    for (int i = 0; ok && i < 20; i++) {
        uint8_t unknown[] = {200};
        raw_send(c, unknown, 1);
        char text[WIRE_TEXT_MAX + 1] = "";
        ok = next_error(c, WIRE_ERROR, WIRE_ERR_BAD_MESSAGE, text, sizeof text);
        if (ok && i == 19)
            ok = strstr(text, "too many bad messages") != NULL;
    }
    check("BAD-1", ok && raw_wait_disconnect(c, WAIT_MS),
          "the 20th bad message gets ERROR 4 \"too many bad messages\" and a disconnect");
    raw_close(c);

    /* Over the rate (100/s, bursts of 200): ERROR 12 (400 at once stay over
     * it even if the server takes 2 s to read them). Requests answered
     * with ERROR 9 are not bad, so only the over-rate ones count. */
    c = hello_client("kim");
    ok = c != NULL;
    int rate = 0, n9 = 0;
    if (ok) {
        for (int i = 0; i < 400; i++)
            send_type(c, WIRE_LEAVE_ROOM);
        for (int i = 0; i < 400 && raw_next(c, &m, WAIT_MS) && m.type == WIRE_ERROR; i++) {
            rate += m.error.code == WIRE_ERR_RATE;
            n9 += m.error.code == WIRE_ERR_NOT_IN_ROOM;
        }
    }
    check("RATE-1", ok && rate >= 1 && n9 >= 190,
          "400 messages at once: the burst of about 200 is answered (%d ERROR 9), the rest get ERROR 12 RATE "
          "(%d)",
          n9, rate);
    raw_close(c);
}

/* A solution of the puzzle id into plan (at most max moves); its length, 0 if none. */
static int solve_id(const char *id, pz_move *plan, int max)
{
    char err[160];
    pz_puzzle *pz = pz_from_id(id, err, sizeof err);
    int n = pz ? pz_kind_of(pz)->solve(pz, NULL, plan, max) : 0;
    if (pz)
        pz_kind_of(pz)->free_puzzle(pz);
    return n;
}

/* Spectators (section 3, Spectators). */
static raw_client *watcher(const char *name, const char *code, wire_msg *first)
{
    raw_client *c = hello_client(name);
    if (!c)
        return NULL;
    wire_msg w;
    memset(&w, 0, sizeof w);
    w.type = WIRE_WATCH;
    memcpy(w.join.code, code, sizeof w.join.code);
    raw_send_msg(c, &w);
    if (!raw_next(c, first, WAIT_MS)) {
        raw_close(c);
        return NULL;
    }
    return c;
}

static void check_watch(void)
{
    raw_client *a = NULL, *b = NULL;
    wire_match_start sa, sb;
    const char *id = "maze:5x5:easy#11";
    bool on = race_on(id, &a, &b, &sa, &sb);
    pz_move plan[64];
    int n = solve_id(id, plan, 64);
    wire_msg m;
    /* The room code: LIST_ROOMS from a third client lists the race. */
    raw_client *l = hello_client("lia");
    char code[WIRE_ROOM_CODE_LEN + 1] = "";
    if (l) {
        send_type(l, WIRE_LIST_ROOMS);
        if (raw_wait(l, WIRE_ROOM_LIST, &m, WAIT_MS) && m.list.count >= 1)
            for (int i = 0; i < m.list.count; i++)
                if (strcmp(m.list.room[i].name[0], "dan") == 0 && strcmp(m.list.room[i].name[1], "eve") == 0)
                    memcpy(code, m.list.room[i].code, sizeof code);
    }
    check("WATCH-0", on && n >= 3 && code[0], "LIST_ROOMS lists a race of dan and eve on %s", id);
    if (!on || n < 3 || !code[0]) {
        raw_close(l);
        raw_close(a);
        raw_close(b);
        return;
    }
    send_move(a, 1, plan[0]);
    bool ok = raw_wait(a, WIRE_ACK, &m, WAIT_MS);

    raw_client *c = watcher("cal", code, &m);
    ok = ok && c && m.type == WIRE_ROOM_STATE && m.room.your_slot == WIRE_SLOT_WATCHER &&
         m.room.spectators == 1;
    wire_msg ma;
    bool counted = raw_wait(a, WIRE_ROOM_STATE, &ma, WAIT_MS) && ma.room.spectators == 1;
    check("WATCH-1", ok && counted,
          "WATCH: the spectator's first message is ROOM_STATE with slot 255 and spectators 1; the players' "
          "ROOM_STATE counts it");
    ok = c && raw_next(c, &m, WAIT_MS) && m.type == WIRE_WATCH_START && m.wstart.start_in_ms <= 0 &&
         m.wstart.desc_hash == sa.desc_hash;
    ok = ok && raw_next(c, &m, WAIT_MS) && m.type == WIRE_MOVE_LOG && m.log.slot == 0 && m.log.count == 1 &&
         m.log.moves[0].dir == plan[0].dir;
    ok = ok && raw_next(c, &m, WAIT_MS) && m.type == WIRE_MOVE_LOG && m.log.slot == 1 && m.log.last;
    check("WATCH-3", ok, "mid-race: WATCH_START (started, same hash), MOVE_LOG of slot 0 then slot 1 (last)");

    /* Live: the spectator sees the move after the mover's ACK left. */
    send_move(a, 2, plan[1]);
    ok = c && raw_wait(c, WIRE_PROGRESS, &m, WAIT_MS) && m.progress.slot == 0 && m.progress.moves == 2;
    raw_pump(a, 0, false);
    bool ack_first = raw_has(a, WIRE_ACK);
    check("WATCH-2", ok, "PROGRESS to the spectator for each accepted move, with the mover's slot");
    check("WATCH-5", ack_first, "when the spectator has the PROGRESS, the mover already has its ACK");
    raw_wait(a, WIRE_ACK, &m, WAIT_MS);
    for (int i = 2; i < n; i++)
        send_move(a, (uint32_t)i + 1, plan[i]);
    wire_msg ea, ec;
    ok = raw_wait(a, WIRE_MATCH_END, &ea, WAIT_MS) && c && raw_wait(c, WIRE_MATCH_END, &ec, WAIT_MS) &&
         memcmp(&ea.end, &ec.end, sizeof ea.end) == 0;
    check("WATCH-2", ok, "the spectator gets the players' MATCH_END");
    /* WATCH_START and both MOVE_LOGs were queued in one step, the last moves
     * back to back: they came in BUNDLEs, which raw_client unpacked for the
     * checks above (each entry a whole message, in order). */
    check("WATCH-9", c && raw_bundles(c) >= 1 && raw_undecodable(c) == 0,
          "a spectator's batch arrives as BUNDLE (48) packets of whole messages (%d bundles)",
          c ? raw_bundles(c) : -1);

    /* A spectator's MOVE: ERROR 21, counted as bad (the 20th disconnects). */
    ok = c != NULL;
    for (int i = 0; ok && i < 20; i++) {
        send_move(c, (uint32_t)i, plan[0]);
        char text[WIRE_TEXT_MAX + 1] = "";
        do {
            ok = raw_next(c, &m, WAIT_MS);
        } while (ok && m.type != WIRE_ERROR);
        ok = ok && m.error.code == WIRE_ERR_SPECTATOR;
        snprintf(text, sizeof text, "%s", ok ? m.error.text : "");
        if (ok && i == 19)
            ok = strstr(text, "too many bad messages") != NULL;
    }
    check("WATCH-4", ok && raw_wait_disconnect(c, WAIT_MS),
          "a spectator's MOVE gets ERROR 21, counted as bad: the 20th disconnects");
    raw_close(c);

    /* The room limit (default 16): the 17th spectator gets WATCH_FULL. */
    raw_client *s[17] = {NULL};
    ok = true;
    for (int i = 0; i < 16 && ok; i++) {
        char name[8];
        snprintf(name, sizeof name, "w%d", i);
        s[i] = watcher(name, code, &m);
        ok = s[i] && m.type == WIRE_ROOM_STATE;
    }
    s[16] = ok ? watcher("w16", code, &m) : NULL;
    ok = ok && s[16] && m.type == WIRE_ERROR && m.error.code == WIRE_ERR_WATCH_FULL;
    check("WATCH-6", ok, "16 spectators watch one room; the 17th gets ERROR 20 WATCH_FULL");
    for (int i = 0; i < 17; i++)
        raw_close(s[i]);
    raw_close(l);
    raw_close(a);
    raw_close(b);
}

/* The spectator port (section 3, "The spectator port"): a server started
 * with one answers WATCH on the game port with WATCH_AT only; the client
 * that follows it watches there as on the game port; the spectator port
 * refuses the seat requests and never sends WATCH_AT. */
static void send_code(raw_client *c, int type, const char *code)
{
    wire_msg w;
    memset(&w, 0, sizeof w);
    w.type = (uint8_t)type;
    memcpy(w.join.code, code, sizeof w.join.code);
    raw_send_msg(c, &w);
}

static void check_spectator_port(const char *bin)
{
    stop_server();
    port = must_start_server(bin, db_path, "0");
    bool up = port && spec_port && spec_port != port;
    check("WATCH-7", up, "a server started with --spectator-port 0 prints a spectator port of its own (%u)",
          (unsigned)spec_port);
    if (!up)
        return;
    raw_client *a = NULL, *b = NULL;
    wire_match_start sa, sb;
    const char *id = "maze:5x5:easy#13";
    bool on = race_on(id, &a, &b, &sa, &sb);
    wire_msg m;
    char code[WIRE_ROOM_CODE_LEN + 1] = "";
    raw_client *l = hello_client("lia");
    if (l) {
        send_type(l, WIRE_LIST_ROOMS);
        if (raw_wait(l, WIRE_ROOM_LIST, &m, WAIT_MS))
            for (int i = 0; i < m.list.count; i++)
                if (strcmp(m.list.room[i].name[0], "dan") == 0)
                    memcpy(code, m.list.room[i].code, sizeof code);
    }
    /* On the game port: WATCH_AT {code, port} and nothing else. */
    bool ok = on && code[0] && l;
    if (ok) {
        send_code(l, WIRE_WATCH, code);
        ok = raw_next(l, &m, WAIT_MS) && m.type == WIRE_WATCH_AT && strcmp(m.watch_at.code, code) == 0 &&
             m.watch_at.port == spec_port;
    }
    bool only = ok && quiet(l);
    check(
        "WATCH-7", ok && only,
        "WATCH on the game port gets WATCH_AT with the room's code and the spectator port, and nothing else");
    send_code(l, WIRE_WATCH, "ZZZZZ");
    check("WATCH-7", l && next_error(l, WIRE_ERROR, WIRE_ERR_NO_ROOM, NULL, 0),
          "WATCH of an unknown code on the game port still gets ERROR 5");

    /* Following it: HELLO and WATCH on the spectator port. */
    uint16_t game = port;
    port = m.watch_at.port;
    raw_client *c = ok ? hello_client("cal") : NULL;
    raw_client *d = ok ? hello_client("dee") : NULL;
    port = game;
    bool watching = false;
    if (c) {
        send_code(c, WIRE_WATCH, code);
        watching =
            raw_next(c, &m, WAIT_MS) && m.type == WIRE_ROOM_STATE && m.room.your_slot == WIRE_SLOT_WATCHER;
        watching = watching && raw_next(c, &m, WAIT_MS) && m.type == WIRE_WATCH_START &&
                   m.wstart.desc_hash == sa.desc_hash;
    }
    pz_move plan[64];
    int n = solve_id(id, plan, 64);
    for (int i = 0; watching && i < n; i++)
        send_move(a, (uint32_t)i + 1, plan[i]);
    bool all = watching && n > 0;
    for (int i = 0; all && i < n; i++)
        all = raw_wait(c, WIRE_PROGRESS, &m, WAIT_MS) && m.progress.slot == 0 &&
              m.progress.moves == (uint32_t)i + 1;
    wire_msg ea, ec;
    all = all && raw_wait(a, WIRE_MATCH_END, &ea, WAIT_MS) && raw_wait(c, WIRE_MATCH_END, &ec, WAIT_MS) &&
          memcmp(&ea.end, &ec.end, sizeof ea.end) == 0;
    check(
        "WATCH-7", watching && all,
        "following WATCH_AT: HELLO and WATCH on the spectator port give ROOM_STATE (slot 255), WATCH_START, "
        "every PROGRESS and the players' MATCH_END");

    /* On the spectator port: the seat requests get ERROR 10, WATCH never WATCH_AT. */
    int refused = 0;
    if (d) {
        send_code(d, WIRE_JOIN_ROOM, code);
        refused += next_error(d, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0);
        send_type(d, WIRE_QUICK_MATCH);
        refused += next_error(d, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0);
        send_code(d, WIRE_RESUME, code);
        refused += next_error(d, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0);
        send_create_id(d, id, 1);
        refused += next_error(d, WIRE_ERROR, WIRE_ERR_STATE, NULL, 0);
    }
    check("WATCH-8", refused == 4,
          "on the spectator port JOIN_ROOM, QUICK_MATCH, RESUME and CREATE_ROOM get ERROR 10 STATE (%d of 4)",
          refused);
    bool direct = false;
    if (d) {
        send_code(d, WIRE_WATCH, code);
        direct =
            raw_next(d, &m, WAIT_MS) && m.type == WIRE_ROOM_STATE && m.room.your_slot == WIRE_SLOT_WATCHER;
    }
    check("WATCH-8", direct, "WATCH on the spectator port is served there (ROOM_STATE), never WATCH_AT");
    raw_close(d);
    raw_close(c);
    raw_close(l);
    raw_close(a);
    raw_close(b);
}

/* ---- match records (section 3, Match records) ---- */

/* The answer of type to request req, skipping anything else. */
static bool rec_answer(raw_client *c, int type, uint32_t req, wire_msg *m)
{
    for (int i = 0; i < 50; i++) {
        if (!raw_wait(c, type, m, WAIT_MS))
            return false;
        uint32_t got = type == WIRE_REPLAY_CHUNK  ? m->replay.req
                       : type == WIRE_RECENT_LIST ? m->recent.req
                                                  : m->best.req;
        if (got == req)
            return true;
    }
    return false;
}

static void send_recent(raw_client *c, uint32_t req, uint64_t before, int limit)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_RECENT_REQUEST;
    m.recent_req = (wire_recent_req){req, before, (uint8_t)limit};
    raw_send_msg(c, &m);
}

static void send_replay_req(raw_client *c, uint32_t req, uint64_t id, uint32_t offset)
{
    wire_msg m;
    memset(&m, 0, sizeof m);
    m.type = WIRE_REPLAY_REQUEST;
    m.replay_req = (wire_replay_req){req, id, offset};
    raw_send_msg(c, &m);
}

static void check_records(const char *bin)
{
    /* A game ends (a forfeit), then it is listed: the store commits within
     * milliseconds, so ask a few times. */
    raw_client *a = NULL, *b = NULL;
    wire_match_start sa, sb;
    bool on = race_on("maze:5x5:easy#12", &a, &b, &sa, &sb);
    if (on)
        send_type(b, WIRE_LEAVE_ROOM);
    wire_msg m;
    bool ended = on && raw_wait(a, WIRE_MATCH_END, &m, WAIT_MS);
    bool listed = false, echoed = true;
    uint64_t id = 0;
    for (int i = 0; ended && i < 20 && !listed; i++) {
        send_recent(a, 1000u + (uint32_t)i, 0, 1);
        if (!rec_answer(a, WIRE_RECENT_LIST, 1000u + (uint32_t)i, &m)) {
            echoed = false;
            break;
        }
        listed = m.recent.status == 0 && m.recent.count == 1 &&
                 strcmp(m.recent.e[0].player[0].name, "dan") == 0 &&
                 strcmp(m.recent.e[0].game_id, "maze:5x5:easy#12") == 0 &&
                 m.recent.e[0].ending == MATCH_END_FORFEIT && m.recent.e[0].winner == 0;
        id = listed ? m.recent.e[0].match_id : 0;
        if (!listed)
            raw_pump(a, 50, false);
    }
    check("REC-1", ended && echoed && listed,
          "a finished game (dan wins by forfeit) is listed by RECENT_REQUEST; every answer echoes its req");

    /* Its replay, in chunks, is the replay text. */
    bool replay = false;
    if (listed) {
        send_replay_req(a, 7, id, 0);
        replay = rec_answer(a, WIRE_REPLAY_CHUNK, 7, &m) && m.replay.status == 0 && m.replay.offset == 0 &&
                 m.replay.count == m.replay.total && m.replay.match_id == id &&
                 strncmp(m.replay.bytes, "mazerace-replay ", 16) == 0;
    }
    check("REC-1", replay, "REPLAY_REQUEST of that match gets its replay text (\"mazerace-replay ...\")");

    send_replay_req(a, 8, (uint64_t)1 << 62, 0);
    check("REC-3",
          rec_answer(a, WIRE_REPLAY_CHUNK, 8, &m) && m.replay.status == WIRE_ERR_NO_MATCH &&
              m.replay.total == 0 && m.replay.count == 0,
          "REPLAY_REQUEST of a match that does not exist gets status 19 NO_MATCH");

    /* Eight questions at once: at most 4 are taken, the rest are BUSY, and every one gets its answer. */
    for (uint32_t r = 0; r < 8; r++)
        send_recent(a, 2000 + r, 0, 10);
    int answered = 0, busy = 0;
    for (int i = 0; i < 8; i++) {
        if (!raw_wait(a, WIRE_RECENT_LIST, &m, WAIT_MS))
            break;
        answered += m.recent.req >= 2000 && m.recent.req < 2008;
        busy += m.recent.status == WIRE_ERR_BUSY;
    }
    check("REC-4", answered == 8 && busy >= 1 && busy <= 4,
          "8 RECENT_REQUESTs at once: all 8 answered, %d of them BUSY (a client may have 4 unanswered)",
          busy);
    raw_close(a);
    raw_close(b);

    /* A server that keeps no records says so. */
    stop_server();
    port = must_start_server(bin, "none", "off");
    raw_client *c = port ? hello_client("fay") : NULL;
    bool none = false;
    if (c) {
        send_recent(c, 9, 0, 5);
        none = rec_answer(c, WIRE_RECENT_LIST, 9, &m) && m.recent.status == WIRE_ERR_NO_RECORDS &&
               m.recent.count == 0;
    }
    check("REC-2", none, "a server run with --db none answers RECENT_REQUEST with status 18 NO_RECORDS");
    raw_close(c);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: conformance MAZERACE-SERVER docs/protocol.md\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    snprintf(tmp_dir, sizeof tmp_dir, "/tmp/mr_conformance_XXXXXX");
    if (!mkdtemp(tmp_dir)) {
        perror("conformance: mkdtemp");
        return 1;
    }
    atexit(remove_tmp_dir);
    snprintf(db_path, sizeof db_path, "%s/matches.db", tmp_dir);
    snprintf(log_path, sizeof log_path, "%s/server.log", tmp_dir);
    /* The diagrams and WATCH-0..6 run against spectators on the game port
     * (--spectator-port off), where a WATCH is answered by the room itself;
     * check_spectator_port then restarts the server with a spectator port
     * of its own for WATCH-7 and WATCH-8 (and the records, which follow). */
    port = must_start_server(argv[1], db_path, "off");
    printf("conformance: %s on 127.0.0.1:%u, protocol version %d\n", argv[1], (unsigned)port, WIRE_VERSION);
    int flows = run_flows(argv[2]);
    check("FLOW-count", flows >= 5, "%d sequence diagrams found in %s", flows, argv[2]);
    check_handshake();
    check_requests();
    check_race();
    check_desc();
    check_limits();
    check_watch();
    check_spectator_port(argv[1]);
    check_records(argv[1]); /* last: it restarts the server */
    stop_server();
    printf("conformance: %d passed, %d failed\n", passes, fails);
    return fails ? 1 : 0;
}
