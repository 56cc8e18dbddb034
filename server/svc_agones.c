/* svc_agones.c: the Agones SDK sidecar's REST API over libcurl, on its own thread, fed by the game loop
 * through a mutex held only for a copy; a second thread reads the GameServer's changes from the SDK's watch
 * stream. */
#include "svc_agones.h"

#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "puzzle.h"
#include "sv_log.h"
#include "svc_agones_gs.h"
#include "util.h"
#include "wire.h"

#define REQUEST_TIMEOUT_MS 2000 /* one call; the sidecar is on localhost */
#define CONNECT_TIMEOUT_MS 500
#define BACKOFF_FIRST_MS 100 /* a failed call is retried after this, doubling... */
#define BACKOFF_MAX_MS 5000  /* ...up to this */
#define SHUTDOWN_TRY_MS 5000 /* how long the last POST /shutdown is retried */
#define WAKE_MS 200          /* the thread looks at its jobs at least this often */
#define REPLY_MAX 65536      /* GET /gameserver, one watch line: more is refused whole */
#define WATCH_PATH "/watch/gameserver"

#define RESV_QUEUE 32  /* reservations read and not yet taken by the loop */
#define RESV_SEEN 1024 /* entries remembered (taken or refused), so each is acted on once */

enum { C_PLAYERS, C_ROOMS, C_COUNT };
static const char *const counter_names[C_COUNT] = {"players", "rooms"};

/* One kind of call the thread retries on failure. */
typedef struct job {
    uint64_t next_ms; /* not before */
    int backoff_ms;
    bool failing; /* logged once when it starts failing, once when it recovers */
} job;

struct svc_agones {
    pthread_t th;
    pthread_mutex_t lock; /* guards the fields below it; held for a copy only */
    pthread_cond_t wake;
    unsigned health_calls;
    int players, rooms;
    bool draining, stop, allocated;
    svc_agones_resv queue[RESV_QUEUE];
    int queued;
    bool catch_up; /* a watch stream (re)opened: one GET /gameserver at once */
    /* The host ports of "game" (high 16 bits) and "spectate" (low 16) from
     * the last good status.ports; 0 = not known. Lock-free for the loop. */
    _Atomic uint32_t mapped;
    atomic_bool ports_read;    /* set once a good status.ports was read (after mapped) */
    atomic_int resv_waiting;   /* queued (a lock-free look for the game loop) */
    atomic_bool quit;          /* stopping: the watch stream ends at its next progress call */
    atomic_bool watch_live;    /* a watch stream is open: no GET /gameserver after each ping */
    atomic_bool want_allocate; /* a reservation came to a Ready GameServer: POST /allocate */

    /* Set before the thread starts, then read-only. */
    const sv_log *lg;
    char base[40]; /* "http://127.0.0.1:PORT" */
    int cap[C_COUNT];
    int idle_ready_ms; /* Allocated and empty this long: POST /ready (0 = never) */

    /* The thread's own. */
    CURL *curl;
    struct curl_slist *headers;
    char reply[REPLY_MAX];
    size_t reply_len;
    bool reply_cut; /* the answer was longer than REPLY_MAX - 1 */

    /* The watch thread's own. */
    pthread_t wth;
    bool wth_started;
    job watch_job; /* the stream's failures and recovery, logged once each */
    CURL *wcurl;
    char line[REPLY_MAX]; /* the watch line being received */
    size_t line_len;
    bool line_cut; /* longer than REPLY_MAX - 1: refused when its newline comes */

    /* What both threads read GameServers into, under gs_lock. */
    pthread_mutex_t gs_lock;
    char gs_why[128];      /* the last refusal of a whole GameServer JSON logged ("": the last was read) */
    const char *ports_why; /* the last status.ports refusal logged (NULL: the ports were good) */
    uint32_t ports_logged; /* the last mapped value logged, + 1 (0: none yet) */
    char seen[RESV_SEEN][SVC_AGONES_ENTRY_MAX + 1]; /* a ring of the entries met */
    int seen_next;
};

static uint64_t now_ms(void)
{
    return mr_now_us() / 1000u;
}

static size_t on_body(char *data, size_t size, size_t n, void *cls)
{
    svc_agones *a = cls;
    size_t len = size * n, room = sizeof a->reply - 1 - a->reply_len;
    memcpy(a->reply + a->reply_len, data, len < room ? len : room);
    a->reply_len += len < room ? len : room;
    a->reply_cut |= len > room;
    return len; /* the rest is dropped, not an error */
}

/* One call: the HTTP status, or -1 if none came (refused, timed out). */
static long call(svc_agones *a, const char *method, const char *path, const char *body, long timeout_ms)
{
    char url[160];
    snprintf(url, sizeof url, "%s%s", a->base, path);
    a->reply_len = 0;
    a->reply_cut = false;
    a->reply[0] = '\0';
    curl_easy_setopt(a->curl, CURLOPT_URL, url);
    curl_easy_setopt(a->curl, CURLOPT_TIMEOUT_MS, timeout_ms);
    if (body) {
        curl_easy_setopt(a->curl, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(a->curl, CURLOPT_CUSTOMREQUEST, method);
    } else {
        curl_easy_setopt(a->curl, CURLOPT_HTTPGET, 1L);
        curl_easy_setopt(a->curl, CURLOPT_CUSTOMREQUEST, NULL);
    }
    long status = -1;
    if (curl_easy_perform(a->curl) == CURLE_OK)
        curl_easy_getinfo(a->curl, CURLINFO_RESPONSE_CODE, &status);
    a->reply[a->reply_len] = '\0';
    return status;
}

/* Books the outcome of a call on its job: on failure the next try waits
 * twice as long as the last (from BACKOFF_FIRST_MS to BACKOFF_MAX_MS). */
static bool settle(svc_agones *a, job *j, const char *what, long status)
{
    bool ok = status >= 200 && status < 300;
    if (ok) {
        if (j->failing)
            sv_loge(a->lg, SV_LOG_INFO, "agones_recovered", NULL, NULL, what, "agones: %s works again", what);
        j->failing = false;
        j->backoff_ms = 0;
        j->next_ms = 0;
        return true;
    }
    if (!j->failing) {
        char why[32];
        snprintf(why, sizeof why, status < 0 ? "no answer" : "HTTP %ld", status);
        sv_loge(a->lg, SV_LOG_WARN, "agones_failed", NULL, NULL, why,
                "agones: %s to the SDK sidecar at %s failed (%s); retrying with back-off", what, a->base,
                why);
    }
    j->failing = true;
    j->backoff_ms = j->backoff_ms ? j->backoff_ms * 2 : BACKOFF_FIRST_MS;
    if (j->backoff_ms > BACKOFF_MAX_MS)
        j->backoff_ms = BACKOFF_MAX_MS;
    j->next_ms = now_ms() + (uint64_t)j->backoff_ms;
    return false;
}

/* A label value Kubernetes accepts: [A-Za-z0-9._-], at most 63 bytes. */
static void label_value(char *out, size_t cap, const char *v)
{
    size_t n = 0;
    for (; *v && n + 1 < cap && n < 63; v++)
        out[n++] = (*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z') || (*v >= '0' && *v <= '9') ||
                           *v == '.' || *v == '_' || *v == '-'
                       ? *v
                       : '_';
    out[n] = '\0';
}

/* The labels, in order: version, protocol, then kind-NAME = "true" for each
 * puzzle kind this server plays (Agones prefixes "agones.dev/sdk-"). */
enum { LABEL_VERSION, LABEL_PROTOCOL, LABEL_KINDS, LABEL_COUNT = LABEL_KINDS + PZ_KIND_COUNT };
static void label_body(int i, char *body, size_t cap)
{
    char v[64];
    if (i == LABEL_VERSION) {
        label_value(v, sizeof v, MR_VERSION);
        snprintf(body, cap, "{\"key\":\"version\",\"value\":\"%s\"}", v);
    } else if (i == LABEL_PROTOCOL) {
        snprintf(body, cap, "{\"key\":\"protocol\",\"value\":\"%d\"}", WIRE_VERSION);
    } else {
        const pz_kind *k = pz_kind_by_id(i - LABEL_KINDS);
        label_value(v, sizeof v, k ? k->name : "unknown");
        snprintf(body, cap, "{\"key\":\"kind-%s\",\"value\":\"true\"}", v);
    }
}

const char *svc_agones_parse_entry(const char *entry, svc_agones_resv *out, char *err, size_t errlen)
{
    const char *eq = strchr(entry, '=');
    size_t len = strlen(entry);
    if (len > SVC_AGONES_ENTRY_MAX)
        return "longer than 160 bytes";
    if (!eq || eq - entry != WIRE_ROOM_CODE_LEN)
        return "the key does not end in a five-letter room code";
    memcpy(out->code, entry, WIRE_ROOM_CODE_LEN);
    out->code[WIRE_ROOM_CODE_LEN] = '\0';
    if (!wire_room_code_ok(out->code))
        return "not a room code (five of " WIRE_ROOM_ALPHABET ")";
    snprintf(out->game_id, sizeof out->game_id, "%s", eq + 1);
    pz_id id;
    return pz_id_parse(out->game_id, &id, err, errlen);
}

/* Remembers entry; false if it was already met. */
static bool first_time(svc_agones *a, const char *entry)
{
    for (int i = 0; i < RESV_SEEN; i++)
        if (strcmp(a->seen[i], entry) == 0)
            return false;
    snprintf(a->seen[a->seen_next], sizeof a->seen[0], "%s", entry);
    a->seen_next = (a->seen_next + 1) % RESV_SEEN;
    return true;
}

/* The room annotations of a GameServer: a good one queued for the loop,
 * a bad one logged; each entry once. */
static void take_rooms(svc_agones *a, const svc_agones_gs *gs)
{
    bool ready = strcmp(gs->state, "Ready") == 0;
    for (int i = 0; i < gs->n_rooms; i++) {
        const char *entry = gs->rooms[i].entry, *bad = gs->rooms[i].bad;
        if (!first_time(a, entry))
            continue;
        svc_agones_resv r;
        char why[200];
        if (!bad)
            bad = svc_agones_parse_entry(entry, &r, why, sizeof why);
        if (!bad) {
            pthread_mutex_lock(&a->lock);
            if (a->queued < RESV_QUEUE)
                a->queue[a->queued++] = r;
            else
                bad = "too many reservations at once";
            atomic_store(&a->resv_waiting, a->queued);
            pthread_mutex_unlock(&a->lock);
            /* A room reserved on a Ready GameServer (an allocation that met
             * our return to Ready): in use again, so not to be scaled down. */
            if (!bad && ready)
                atomic_store(&a->want_allocate, true);
        }
        if (bad)
            sv_loge(a->lg, SV_LOG_WARN, "agones_bad_reservation", NULL, NULL, bad,
                    "agones: ignoring annotation %s%s: %s (docs/scaling.md)", SVC_AGONES_ROOM_PREFIX, entry,
                    bad);
    }
}

/* The host ports of a GameServer's status.ports: published for the loop
 * when the whole array read well (a refusal keeps the last good ports);
 * changes and refusals logged once. */
static void take_ports(svc_agones *a, const svc_agones_gs *gs)
{
    const char *why = gs->ports_why;
    if (why) {
        if (why != a->ports_why)
            sv_loge(a->lg, SV_LOG_WARN, "agones_bad_ports", NULL, NULL, why,
                    "agones: ignoring status.ports of the GameServer: %s; %s (docs/scaling.md)", why,
                    a->ports_logged ? "keeping the ports read before" : "no mapped ports known");
        a->ports_why = why;
        return;
    }
    a->ports_why = NULL;
    uint16_t game = svc_agones_port_named(&gs->ports, SVC_AGONES_PORT_GAME);
    uint16_t spectate = svc_agones_port_named(&gs->ports, SVC_AGONES_PORT_SPECTATE);
    uint32_t v = (uint32_t)game << 16 | spectate;
    atomic_store(&a->mapped, v);
    atomic_store(&a->ports_read, true);
    if (a->ports_logged == v + 1)
        return;
    a->ports_logged = v + 1;
    char g[16] = "none", sp[16] = "none";
    if (game)
        snprintf(g, sizeof g, "%u", (unsigned)game);
    if (spectate)
        snprintf(sp, sizeof sp, "%u", (unsigned)spectate);
    sv_loge(a->lg, SV_LOG_INFO, "agones_ports", NULL, NULL, NULL,
            "agones: GameServer host ports: \"" SVC_AGONES_PORT_GAME "\" %s, \"" SVC_AGONES_PORT_SPECTATE
            "\" %s",
            g, sp);
}

/* The state of a GameServer just read: Allocated or not (an empty state,
 * one the reader could not take, changes nothing). */
static void take_state(svc_agones *a, const char *state)
{
    if (!state[0])
        return;
    bool allocated = strcmp(state, "Allocated") == 0;
    pthread_mutex_lock(&a->lock);
    bool was = a->allocated;
    a->allocated = allocated;
    pthread_mutex_unlock(&a->lock);
    if (allocated && !was)
        sv_loge(a->lg, SV_LOG_INFO, "agones_allocated", NULL, NULL, NULL, "agones: GameServer is Allocated");
    else if (!allocated && was)
        sv_loge(a->lg, SV_LOG_INFO, "agones_state", NULL, NULL, state, "agones: GameServer is %s", state);
}

/* One GameServer text (a GET /gameserver answer, or a watch line: from),
 * parsed once: its ports, room reservations and state. A text that is not
 * one JSON object (or was cut at REPLY_MAX) changes nothing and is said
 * once. Either thread; gs_lock keeps their reads apart. */
static void apply_gameserver(svc_agones *a, const char *text, size_t len, bool cut, bool watch)
{
    svc_agones_gs gs;
    char err[128];
    pthread_mutex_lock(&a->gs_lock);
    const char *why = cut     ? "the text is longer than 64 KiB"
                      : watch ? svc_agones_gs_read_watch(text, len, &gs, err, sizeof err)
                              : svc_agones_gs_read(text, len, &gs, err, sizeof err);
    if (why) {
        if (strcmp(why, a->gs_why) != 0)
            sv_loge(a->lg, SV_LOG_WARN, "agones_bad_gameserver", NULL, NULL, why,
                    "agones: ignoring the GameServer of %s: %s; nothing read from it (docs/scaling.md)",
                    watch ? "GET " WATCH_PATH : "GET /gameserver", why);
        snprintf(a->gs_why, sizeof a->gs_why, "%s", why);
        if (!cut)
            svc_agones_gs_free(&gs);
        pthread_mutex_unlock(&a->gs_lock);
        return;
    }
    a->gs_why[0] = '\0';
    take_ports(a, &gs);
    take_rooms(a, &gs);
    take_state(a, gs.state);
    svc_agones_gs_free(&gs);
    pthread_mutex_unlock(&a->gs_lock);
}

/* What the thread has done so far. */
typedef struct progress {
    job ready, label, health, counter[C_COUNT], gameserver, allocate, back;
    bool is_ready;
    int labels_done;
    unsigned health_seen;
    int sent_count[C_COUNT], sent_cap[C_COUNT];
    bool counter_missing[C_COUNT]; /* 404: the GameServer has no such Counter */
    uint64_t next_counter_ms;
    uint64_t idle_since; /* Allocated with nobody since (0: not idle, or not Allocated) */
} progress;

static void do_counters(svc_agones *a, progress *pr, const int count[C_COUNT], bool draining, uint64_t now)
{
    if (now < pr->next_counter_ms)
        return;
    for (int c = 0; c < C_COUNT; c++) {
        /* Draining: no free places, so no allocation picks this server. */
        int cap = draining ? count[c] : a->cap[c];
        if (pr->counter_missing[c] || (count[c] == pr->sent_count[c] && cap == pr->sent_cap[c]) ||
            now < pr->counter[c].next_ms)
            continue;
        char path[64], body[96], what[80];
        snprintf(path, sizeof path, "/v1beta1/counters/%s", counter_names[c]);
        snprintf(body, sizeof body, "{\"count\":\"%d\",\"capacity\":\"%d\"}", count[c], cap);
        snprintf(what, sizeof what, "PATCH %s", path);
        long st = call(a, "PATCH", path, body, REQUEST_TIMEOUT_MS);
        if (st == 404) {
            pr->counter_missing[c] = true;
            sv_loge(a->lg, SV_LOG_WARN, "agones_no_counter", NULL, NULL, counter_names[c],
                    "agones: the GameServer has no Counter \"%s\" (404); not reporting it (docs/scaling.md)",
                    counter_names[c]);
            continue;
        }
        if (settle(a, &pr->counter[c], what, st)) {
            pr->sent_count[c] = count[c];
            pr->sent_cap[c] = cap;
        }
    }
    pr->next_counter_ms = now + SVC_AGONES_COUNTER_MS;
}

/* GET /gameserver: what it says is read (ports, reservations, state). */
static void poll_gameserver(svc_agones *a, progress *pr)
{
    if (now_ms() >= pr->gameserver.next_ms &&
        settle(a, &pr->gameserver, "GET /gameserver", call(a, "GET", "/gameserver", NULL, 1000)))
        apply_gameserver(a, a->reply, a->reply_len, a->reply_cut, false);
}

/* Allocated, and no player nor room for idle_ready_ms: POST /ready puts the
 * GameServer back in the Fleet's pool of Ready ones, which the Fleet may
 * scale down or replace (docs/scaling.md, "Back to Ready"). A reservation
 * that comes to a Ready GameServer anyway (an allocation at that moment)
 * makes it Allocated again (POST /allocate). */
static void idle_and_allocate(svc_agones *a, progress *pr, const int count[C_COUNT], bool draining,
                              uint64_t now)
{
    if (atomic_load(&a->want_allocate) && now >= pr->allocate.next_ms &&
        settle(a, &pr->allocate, "POST /allocate", call(a, "POST", "/allocate", "{}", REQUEST_TIMEOUT_MS))) {
        atomic_store(&a->want_allocate, false);
        pr->idle_since = 0;
        sv_loge(a->lg, SV_LOG_INFO, "agones_allocate", NULL, NULL, NULL,
                "agones: a room was reserved on a Ready GameServer: Allocated again (POST /allocate)");
    }
    pthread_mutex_lock(&a->lock);
    bool allocated = a->allocated;
    pthread_mutex_unlock(&a->lock);
    if (!a->idle_ready_ms || !allocated || draining || count[C_PLAYERS] > 0 || count[C_ROOMS] > 0 ||
        atomic_load(&a->resv_waiting) > 0) {
        pr->idle_since = 0;
        return;
    }
    if (!pr->idle_since)
        pr->idle_since = now;
    if (now - pr->idle_since < (uint64_t)a->idle_ready_ms || now < pr->back.next_ms)
        return;
    if (!settle(a, &pr->back, "POST /ready (back to Ready)",
                call(a, "POST", "/ready", "{}", REQUEST_TIMEOUT_MS)))
        return;
    pthread_mutex_lock(&a->lock);
    a->allocated = false;
    pthread_mutex_unlock(&a->lock);
    pr->idle_since = 0;
    sv_loge(a->lg, SV_LOG_INFO, "agones_back_to_ready", NULL, NULL, NULL,
            "agones: Allocated with no player and no room for %d ms: back to Ready", a->idle_ready_ms);
}

/* One round of whatever is due. */
static void step(svc_agones *a, progress *pr, unsigned health_calls, const int count[C_COUNT], bool draining)
{
    uint64_t now = now_ms();
    if (!pr->is_ready) {
        if (now >= pr->ready.next_ms &&
            settle(a, &pr->ready, "POST /ready", call(a, "POST", "/ready", "{}", REQUEST_TIMEOUT_MS))) {
            pr->is_ready = true;
            sv_loge(a->lg, SV_LOG_INFO, "agones_ready", NULL, NULL, NULL, "agones: GameServer marked Ready");
        }
        if (!pr->is_ready)
            return;
    }
    if (health_calls != pr->health_seen) {
        /* One ping per call of the loop, none saved up for later. */
        pr->health_seen = health_calls;
        settle(a, &pr->health, "POST /health", call(a, "POST", "/health", "{}", REQUEST_TIMEOUT_MS));
        /* Without a watch stream the GameServer rides along with the pings. */
        if (!atomic_load(&a->watch_live))
            poll_gameserver(a, pr);
    }
    /* A watch stream just opened: what changed before it is read once. */
    pthread_mutex_lock(&a->lock);
    bool catch_up = a->catch_up;
    a->catch_up = false;
    pthread_mutex_unlock(&a->lock);
    if (catch_up)
        poll_gameserver(a, pr);
    idle_and_allocate(a, pr, count, draining, now_ms());
    now = now_ms();
    while (pr->labels_done < LABEL_COUNT && now >= pr->label.next_ms) {
        char body[128];
        label_body(pr->labels_done, body, sizeof body);
        if (!settle(a, &pr->label, "PUT /metadata/label",
                    call(a, "PUT", "/metadata/label", body, REQUEST_TIMEOUT_MS)))
            break;
        pr->labels_done++;
    }
    do_counters(a, pr, count, draining, now_ms());
}

static void *run(void *arg)
{
    svc_agones *a = arg;
    progress pr;
    memset(&pr, 0, sizeof pr);
    for (int c = 0; c < C_COUNT; c++)
        pr.sent_count[c] = pr.sent_cap[c] = -1;
    for (;;) {
        pthread_mutex_lock(&a->lock);
        bool stop = a->stop, draining = a->draining;
        unsigned health_calls = a->health_calls;
        int count[C_COUNT] = {a->players, a->rooms};
        pthread_mutex_unlock(&a->lock);
        if (stop) {
            /* The last counts (capacity down to them), unless the sidecar
             * is failing anyway: the server is going. */
            if (pr.is_ready && !pr.counter[C_PLAYERS].failing && !pr.counter[C_ROOMS].failing) {
                pr.next_counter_ms = 0;
                do_counters(a, &pr, count, true, now_ms());
            }
            break;
        }
        step(a, &pr, health_calls, count, draining);

        pthread_mutex_lock(&a->lock);
        if (!a->stop && a->health_calls == health_calls && !a->catch_up) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += WAKE_MS * 1000000L;
            if (until.tv_nsec >= 1000000000L) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&a->wake, &a->lock, &until);
        }
        pthread_mutex_unlock(&a->lock);
    }
    /* The end: Shutdown, retried for a while (it may be what tells Agones
     * to delete the pod). */
    uint64_t end = now_ms() + SHUTDOWN_TRY_MS;
    job j = {0, 0, false};
    for (;;) {
        uint64_t now = now_ms();
        if (now >= end)
            break;
        long left = (long)(end - now);
        if (settle(
                a, &j, "POST /shutdown",
                call(a, "POST", "/shutdown", "{}", left < REQUEST_TIMEOUT_MS ? left : REQUEST_TIMEOUT_MS))) {
            sv_loge(a->lg, SV_LOG_INFO, "agones_shutdown", NULL, NULL, NULL,
                    "agones: GameServer Shutdown sent");
            return NULL;
        }
        now = now_ms();
        if (now < end && j.next_ms > now) {
            uint64_t wait = (j.next_ms < end ? j.next_ms : end) - now;
            struct timespec ts = {(time_t)(wait / 1000u), (long)(wait % 1000u) * 1000000L};
            while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
                ;
        }
    }
    sv_loge(a->lg, SV_LOG_WARN, "agones_shutdown_failed", NULL, NULL, NULL,
            "agones: no answer to Shutdown within %d s; Agones will see the process end",
            SHUTDOWN_TRY_MS / 1000);
    return NULL;
}

/* ---- the watch stream (GET /watch/gameserver) ---- */

/* Newline-delimited JSON: each whole line is one {"result": GameServer}. */
static size_t on_watch_body(char *data, size_t size, size_t n, void *cls)
{
    svc_agones *a = cls;
    size_t len = size * n;
    for (size_t i = 0; i < len; i++) {
        if (data[i] != '\n') {
            if (a->line_len < sizeof a->line - 1)
                a->line[a->line_len++] = data[i];
            else
                a->line_cut = true;
            continue;
        }
        size_t k = a->line_len;
        while (k > 0 && (a->line[k - 1] == '\r' || a->line[k - 1] == ' '))
            k--;
        if (k > 0 || a->line_cut)
            apply_gameserver(a, a->line, k, a->line_cut, true);
        a->line_len = 0;
        a->line_cut = false;
    }
    return len;
}

/* The end of the headers: a 200 means the stream is open. */
static size_t on_watch_header(char *data, size_t size, size_t n, void *cls)
{
    svc_agones *a = cls;
    size_t len = size * n;
    long status = 0;
    if ((len == 2 && data[0] == '\r') || (len == 1 && data[0] == '\n')) {
        curl_easy_getinfo(a->wcurl, CURLINFO_RESPONSE_CODE, &status);
        if (status == 200) {
            settle(a, &a->watch_job, "GET " WATCH_PATH, status);
            atomic_store(&a->watch_live, true);
            pthread_mutex_lock(&a->lock);
            a->catch_up = true; /* a change made before the stream opened is read by one GET */
            pthread_cond_signal(&a->wake);
            pthread_mutex_unlock(&a->lock);
        }
    }
    return len;
}

/* Ends the transfer (non-zero) once svc_agones_stop was called. */
static int on_watch_progress(void *cls, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
    (void)dt, (void)dn, (void)ut, (void)un;
    return atomic_load(&((svc_agones *)cls)->quit) ? 1 : 0;
}

/* Sleeps until ms (a monotonic time) or the stop, whichever is first. */
static void watch_wait(svc_agones *a, uint64_t until)
{
    while (!atomic_load(&a->quit)) {
        uint64_t now = now_ms();
        if (now >= until)
            return;
        uint64_t ms = until - now < 50 ? until - now : 50;
        struct timespec ts = {0, (long)ms * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* The watch thread: keeps one GET /watch/gameserver open and reads its
 * lines; reopened with the usual back-off when it ends or fails. A sidecar
 * without the path (404) leaves the GameServer to the polling after each
 * health ping. */
static void *watch_run(void *arg)
{
    svc_agones *a = arg;
    job *j = &a->watch_job;
    char url[160];
    snprintf(url, sizeof url, "%s" WATCH_PATH, a->base);
    curl_easy_setopt(a->wcurl, CURLOPT_URL, url);
    curl_easy_setopt(a->wcurl, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(a->wcurl, CURLOPT_TIMEOUT_MS, 0L); /* a stream: no end expected */
    curl_easy_setopt(a->wcurl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(a->wcurl, CURLOPT_CONNECTTIMEOUT_MS, (long)CONNECT_TIMEOUT_MS);
    curl_easy_setopt(a->wcurl, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(a->wcurl, CURLOPT_HTTPHEADER, a->headers);
    curl_easy_setopt(a->wcurl, CURLOPT_WRITEFUNCTION, on_watch_body);
    curl_easy_setopt(a->wcurl, CURLOPT_WRITEDATA, a);
    curl_easy_setopt(a->wcurl, CURLOPT_HEADERFUNCTION, on_watch_header);
    curl_easy_setopt(a->wcurl, CURLOPT_HEADERDATA, a);
    curl_easy_setopt(a->wcurl, CURLOPT_XFERINFOFUNCTION, on_watch_progress);
    curl_easy_setopt(a->wcurl, CURLOPT_XFERINFODATA, a);
    curl_easy_setopt(a->wcurl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(a->wcurl, CURLOPT_PROTOCOLS_STR, "http");
    curl_easy_setopt(a->wcurl, CURLOPT_PROXY, "");
    while (!atomic_load(&a->quit)) {
        watch_wait(a, j->next_ms);
        if (atomic_load(&a->quit))
            break;
        a->line_len = 0;
        a->line_cut = false;
        long status = -1;
        if (curl_easy_perform(a->wcurl) != CURLE_ABORTED_BY_CALLBACK)
            curl_easy_getinfo(a->wcurl, CURLINFO_RESPONSE_CODE, &status);
        bool was_live = atomic_exchange(&a->watch_live, false);
        if (atomic_load(&a->quit))
            break;
        if (status == 404) {
            sv_loge(a->lg, SV_LOG_WARN, "agones_no_watch", NULL, NULL, NULL,
                    "agones: the SDK sidecar has no " WATCH_PATH " (404): reading the GameServer after each "
                    "health ping instead (docs/scaling.md)");
            break;
        }
        /* A stream that was open and ended (the sidecar restarted) is
         * reopened like a failed call: at once, then with the back-off. */
        settle(a, j, was_live ? "GET " WATCH_PATH " (the stream ended)" : "GET " WATCH_PATH,
               was_live && status == 200 ? -1 : status);
        if (was_live)
            j->next_ms = now_ms() + BACKOFF_FIRST_MS;
    }
    return NULL;
}

/* Frees a (its locks and condition too if made) and libcurl's globals. */
static void release(svc_agones *a, bool sync_made)
{
    if (sync_made) {
        pthread_cond_destroy(&a->wake);
        pthread_mutex_destroy(&a->lock);
        pthread_mutex_destroy(&a->gs_lock);
    }
    curl_slist_free_all(a->headers);
    curl_easy_cleanup(a->curl);
    curl_easy_cleanup(a->wcurl);
    free(a);
    curl_global_cleanup();
}

svc_agones *svc_agones_start(int port, int max_players, int max_rooms, int idle_ready_ms,
                             const struct sv_log *lg, const char **err)
{
    if (port < 1 || port > 65535) {
        *err = "the SDK sidecar port must be 1..65535";
        return NULL;
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        *err = "libcurl did not initialise";
        return NULL;
    }
    svc_agones *a = mr_alloc(1, sizeof *a);
    atomic_init(&a->mapped, 0);
    atomic_init(&a->ports_read, false);
    atomic_init(&a->resv_waiting, 0);
    atomic_init(&a->quit, false);
    atomic_init(&a->watch_live, false);
    atomic_init(&a->want_allocate, false);
    a->idle_ready_ms = idle_ready_ms > 0 ? idle_ready_ms : 0;
    snprintf(a->base, sizeof a->base, "http://127.0.0.1:%d", port);
    a->lg = lg;
    a->cap[C_PLAYERS] = max_players;
    a->cap[C_ROOMS] = max_rooms;
    a->curl = curl_easy_init();
    a->wcurl = curl_easy_init();
    a->headers = curl_slist_append(NULL, "Content-Type: application/json");
    if (!a->curl || !a->wcurl || !a->headers) {
        release(a, false);
        *err = "libcurl could not make a handle";
        return NULL;
    }
    curl_easy_setopt(a->curl, CURLOPT_NOSIGNAL, 1L); /* no SIGALRM for time-outs: we are a thread */
    curl_easy_setopt(a->curl, CURLOPT_CONNECTTIMEOUT_MS, (long)CONNECT_TIMEOUT_MS);
    curl_easy_setopt(a->curl, CURLOPT_HTTPHEADER, a->headers);
    curl_easy_setopt(a->curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(a->curl, CURLOPT_WRITEDATA, a);
    curl_easy_setopt(a->curl, CURLOPT_PROTOCOLS_STR, "http");
    curl_easy_setopt(a->curl, CURLOPT_PROXY, ""); /* never an http_proxy from the environment */
    pthread_mutex_init(&a->lock, NULL);
    pthread_mutex_init(&a->gs_lock, NULL);
    pthread_cond_init(&a->wake, NULL);
    if (pthread_create(&a->th, NULL, run, a) != 0) {
        release(a, true);
        *err = "cannot start the Agones thread";
        return NULL;
    }
    /* Without the watch thread the GameServer is still read after each
     * ping: not a reason to refuse the start. */
    a->wth_started = pthread_create(&a->wth, NULL, watch_run, a) == 0;
    if (!a->wth_started)
        sv_loge(lg, SV_LOG_WARN, "agones_no_watch", NULL, NULL, NULL,
                "agones: cannot start the watch thread: reading the GameServer after each health ping");
    return a;
}

void svc_agones_health(svc_agones *a)
{
    pthread_mutex_lock(&a->lock);
    a->health_calls++;
    pthread_cond_signal(&a->wake);
    pthread_mutex_unlock(&a->lock);
}

void svc_agones_publish(svc_agones *a, int players, int rooms, bool draining)
{
    pthread_mutex_lock(&a->lock);
    a->players = players;
    a->rooms = rooms;
    a->draining = draining;
    pthread_mutex_unlock(&a->lock);
}

bool svc_agones_allocated(svc_agones *a)
{
    pthread_mutex_lock(&a->lock);
    bool v = a->allocated;
    pthread_mutex_unlock(&a->lock);
    return v;
}

bool svc_agones_ports_known(svc_agones *a)
{
    return atomic_load(&a->ports_read);
}

uint16_t svc_agones_game_port(svc_agones *a)
{
    return (uint16_t)(atomic_load(&a->mapped) >> 16);
}

uint16_t svc_agones_spectate_port(svc_agones *a)
{
    return (uint16_t)(atomic_load(&a->mapped) & 0xFFFFu);
}

bool svc_agones_take_reservation(svc_agones *a, svc_agones_resv *out)
{
    if (atomic_load(&a->resv_waiting) == 0)
        return false; /* the usual case, looked at on every turn of the loop: no lock */
    pthread_mutex_lock(&a->lock);
    bool got = a->queued > 0;
    if (got) {
        *out = a->queue[0];
        memmove(a->queue, a->queue + 1, (size_t)--a->queued * sizeof a->queue[0]);
        atomic_store(&a->resv_waiting, a->queued);
    }
    pthread_mutex_unlock(&a->lock);
    return got;
}

void svc_agones_stop(svc_agones *a)
{
    if (!a)
        return;
    atomic_store(&a->quit, true);
    pthread_mutex_lock(&a->lock);
    a->stop = true;
    pthread_cond_signal(&a->wake);
    pthread_mutex_unlock(&a->lock);
    if (a->wth_started)
        pthread_join(a->wth, NULL);
    pthread_join(a->th, NULL);
    release(a, true);
}
