/* conformance_flows.c: replays the sequence diagrams of docs/protocol.md ("```flow" blocks) against the
 * server. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

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
int run_flows(const char *doc_path)
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
