/* sv_opts.c: the table of server settings (key, flag, type, range, help) and its readers and writers. */
#include "sv_opts.h"

#include <arpa/inet.h>
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "puzzle.h"
#include "st.h"
#include "sv_log.h"
#include "util.h"
#include "wire.h"

#define F(field) offsetof(sv_config, field)
/* A number macro's value as a string literal: a row's default from a constant the protocol shares. */
#define SV_STR(x) #x
#define SV_XSTR(x) SV_STR(x)

const char *const sv_opt_section_names[SV_SEC_COUNT] = {
    "Network", "Rooms (kind, size, difficulty and series: what quick match plays)",
    "Limits per connected player", "Service", "Output"};

static const char *set_bind(sv_config *cfg, const char *v)
{
    if (!*v || strlen(v) >= sizeof cfg->bind_addr)
        return "is not an address (IPv4 or host name, at most 63 bytes)";
    strcpy(cfg->bind_addr, v);
    return NULL;
}
static void get_bind(const sv_config *cfg, char *b, size_t n)
{
    snprintf(b, n, "%s", cfg->bind_addr);
}

static const char *set_name(sv_config *cfg, const char *v)
{
    size_t len = strlen(v);
    if (len == 0 || len > SV_NAME_MAX || !txt_name_ok(v, len))
        return "is not a valid name: 1..24 bytes of UTF-8, no control, invisible or text-direction "
               "characters, not blank";
    memcpy(cfg->name, v, len + 1);
    return NULL;
}
static void get_name(const sv_config *cfg, char *b, size_t n)
{
    snprintf(b, n, "%s", cfg->name);
}

/* A port setting's words, each standing for a value below 0 (NULL-terminated). */
typedef struct sv_port_word {
    const char *word;
    int value;
} sv_port_word;

/* A port number 0..65535 or one of words into *port; false if neither. */
static bool set_port_or_word(int *port, const char *v, const sv_port_word *words)
{
    for (const sv_port_word *w = words; w->word; w++)
        if (strcmp(v, w->word) == 0) {
            *port = w->value;
            return true;
        }
    long p;
    if (!mr_parse_long(v, 0, 65535, &p))
        return false;
    *port = (int)p;
    return true;
}
static void get_port_or_word(int port, const sv_port_word *words, char *b, size_t n)
{
    for (const sv_port_word *w = words; w->word; w++)
        if (port == w->value) {
            snprintf(b, n, "%s", w->word);
            return;
        }
    snprintf(b, n, "%d", port);
}

static const sv_port_word discovery_words[] = {{"off", -1}, {NULL, 0}};
static const char *set_discovery(sv_config *cfg, const char *v)
{
    return set_port_or_word(&cfg->discovery_port, v, discovery_words)
               ? NULL
               : "is not a port number 0..65535 or off";
}
static void get_discovery(const sv_config *cfg, char *b, size_t n)
{
    get_port_or_word(cfg->discovery_port, discovery_words, b, n);
}

static const sv_port_word spectator_port_words[] = {
    {"off", SV_SPECTATOR_PORT_OFF}, {"auto", SV_SPECTATOR_PORT_AUTO}, {NULL, 0}};
static const char *set_spectator_port(sv_config *cfg, const char *v)
{
    return set_port_or_word(&cfg->spectator_port, v, spectator_port_words)
               ? NULL
               : "is not a port number 0..65535, auto or off";
}
static void get_spectator_port(const sv_config *cfg, char *b, size_t n)
{
    get_port_or_word(cfg->spectator_port, spectator_port_words, b, n);
}

static const char *set_kind(sv_config *cfg, const char *v)
{
    const pz_kind *k = pz_kind_by_name(v);
    if (!k)
        return "is not a kind: sum, maze, ice or pipes";
    cfg->kind = k->id;
    return NULL;
}
static void get_kind(const sv_config *cfg, char *b, size_t n)
{
    const pz_kind *k = pz_kind_by_id(cfg->kind);
    snprintf(b, n, "%s", k ? k->name : "?");
}

static const char *set_size(sv_config *cfg, const char *v)
{
    if (strcmp(v, "default") == 0) {
        cfg->w = cfg->h = 0;
        return NULL;
    }
    int w, h;
    if (!mr_parse_size(v, &w, &h) || w < 1 || h < 1 || w > 100000 || h > 100000)
        return "is not WxH (columns x rows, e.g. 25x20) or default";
    cfg->w = w;
    cfg->h = h;
    return NULL;
}
static void get_size(const sv_config *cfg, char *b, size_t n)
{
    if (cfg->w == 0 && cfg->h == 0)
        snprintf(b, n, "default");
    else
        snprintf(b, n, "%dx%d", cfg->w, cfg->h);
}

static const char *set_difficulty(sv_config *cfg, const char *v)
{
    int d = pz_difficulty_by_name(v);
    if (d < 0)
        return "is not easy, medium or hard";
    cfg->diff = d;
    return NULL;
}
static void get_difficulty(const sv_config *cfg, char *b, size_t n)
{
    snprintf(b, n, "%s", pz_difficulty_name(cfg->diff));
}

const char *sv_opt_set_log_level(int *level, const char *v)
{
    int l = sv_log_level_by_name(v);
    if (l < 0)
        return "is not off, error, warn, info or debug";
    *level = l;
    return NULL;
}
static const char *set_log_level(sv_config *cfg, const char *v)
{
    return sv_opt_set_log_level(&cfg->log_level, v);
}
static void get_log_level(const sv_config *cfg, char *b, size_t n)
{
    snprintf(b, n, "%s", sv_log_level_name(cfg->log_level));
}

static const char *const log_formats[] = {"auto", "text", "journal", "json"};
static const char *set_log_format(sv_config *cfg, const char *v)
{
    for (int i = 0; i < (int)MR_ARRAY_LEN(log_formats); i++)
        if (strcmp(v, log_formats[i]) == 0) {
            cfg->log_format = i;
            return NULL;
        }
    return "is not auto, text, journal or json";
}
static void get_log_format(const sv_config *cfg, char *b, size_t n)
{
    int f = cfg->log_format;
    snprintf(b, n, "%s", f >= 0 && f < (int)MR_ARRAY_LEN(log_formats) ? log_formats[f] : "?");
}

const char *sv_opt_parse_hostport(const char *v, char ip[16], int *port)
{
    const char *bad = "is not PORT, :PORT or IPV4:PORT (port 0..65535), or off";
    const char *colon = strrchr(v, ':');
    const char *ps = colon ? colon + 1 : v;
    size_t alen = colon ? (size_t)(colon - v) : 0;
    long p;
    if (!mr_parse_long(ps, 0, 65535, &p) || alen >= 16)
        return bad;
    if (alen == 0) {
        strcpy(ip, "127.0.0.1");
    } else {
        memcpy(ip, v, alen);
        ip[alen] = '\0';
        struct in_addr a;
        if (inet_pton(AF_INET, ip, &a) != 1)
            return bad;
    }
    *port = (int)p;
    return NULL;
}

const char *sv_opt_set_metrics(char *dst, size_t cap, const char *v)
{
    if (strcmp(v, "off") == 0 || !*v) {
        dst[0] = '\0';
        return NULL;
    }
    char ip[16];
    int port;
    const char *why = sv_opt_parse_hostport(v, ip, &port);
    if (why)
        return why;
    snprintf(dst, cap, "%s:%d", ip, port);
    return NULL;
}
static const char *set_metrics(sv_config *cfg, const char *v)
{
    return sv_opt_set_metrics(cfg->metrics, sizeof cfg->metrics, v);
}
static void get_metrics(const sv_config *cfg, char *b, size_t n)
{
    snprintf(b, n, "%s", cfg->metrics[0] ? cfg->metrics : "off");
}

static const char *set_coordinator(sv_config *cfg, const char *v)
{
    const char *colon = strrchr(v, ':');
    long p;
    if (strcmp(v, "off") == 0 || !*v) {
        cfg->coordinator[0] = '\0';
        return NULL;
    }
    if (!colon || colon == v || strlen(v) >= sizeof cfg->coordinator ||
        !mr_parse_long(colon + 1, 1, 65535, &p))
        return "is not HOST:PORT (an IPv4 address or host name, port 1..65535) or off";
    snprintf(cfg->coordinator, sizeof cfg->coordinator, "%s", v);
    return NULL;
}
static void get_coordinator(const sv_config *cfg, char *b, size_t n)
{
    snprintf(b, n, "%s", cfg->coordinator[0] ? cfg->coordinator : "off");
}

/* A path, or "default" (stored as ""): false if empty or cap bytes or longer. */
static bool set_path(char *dst, size_t cap, const char *v)
{
    if (!*v || strlen(v) >= cap)
        return false;
    snprintf(dst, cap, "%s", strcmp(v, "default") == 0 ? "" : v);
    return true;
}

static const char *set_db(sv_config *cfg, const char *v)
{
    return set_path(cfg->db, sizeof cfg->db, v) ? NULL : "is not a path (1..255 bytes), none or default";
}
/* Shown without a URI's password (--print-config, reload lines): keep it
 * in ~/.pgpass or PGPASSFILE rather than in the setting. */
static void get_db(const sv_config *cfg, char *b, size_t n)
{
    st_location_text(cfg->db[0] ? cfg->db : "default", b, n);
}

static const char *set_db_spool(sv_config *cfg, const char *v)
{
    return set_path(cfg->db_spool, sizeof cfg->db_spool, v) ? NULL
                                                            : "is not a path (1..255 bytes) or default";
}
static void get_db_spool(const sv_config *cfg, char *b, size_t n)
{
    snprintf(b, n, "%s", cfg->db_spool[0] ? cfg->db_spool : "default");
}

/* The order here is the order of --help, --print-config and the docs. A
 * row's default (its third field) is all sv_config_defaults knows of it. */
const sv_opt sv_opts[] = {
    {"bind", "ADDR", "0.0.0.0", SV_OPT_CUSTOM, 0, 0, 0, 1, SV_SEC_NETWORK, false,
     "IPv4 address or host name to listen on; 0.0.0.0 = every interface (discovery binds it too)", set_bind,
     get_bind},
    {"port", "N", SV_XSTR(SV_DEFAULT_PORT), SV_OPT_INT, F(port), 0, 65535, 1, SV_SEC_NETWORK, false,
     "game port, UDP (ENet); 0 = any free port (printed in the listening line)", NULL, NULL},
    {"discovery", "N", SV_XSTR(SV_DEFAULT_DISCOVERY_PORT), SV_OPT_CUSTOM, 0, 0, 0, 1, SV_SEC_NETWORK, false,
     "LAN discovery port, UDP: the first free of N..N+3; 0 = any free port; off = do not answer probes "
     "(flag: --no-discovery)",
     set_discovery, get_discovery},
    {"spectator_port", "N", "auto", SV_OPT_CUSTOM, 0, 0, 0, 1, SV_SEC_NETWORK, false,
     "spectators' port, UDP, served by a thread of its own; auto = the game port + 2 (any free port with "
     "port 0; if it cannot bind, a warning and spectators on the game port); 0 = any free port; off = "
     "spectators on the game port",
     set_spectator_port, get_spectator_port},
    {"sockbuf", "KIB", "4096", SV_OPT_INT, F(sockbuf_bytes), 0, 262144, 1024, SV_SEC_NETWORK, false,
     "SO_RCVBUF and SO_SNDBUF of the game socket in KiB; 0 = ENet's 256 KiB", NULL, NULL},
    {"name", "NAME", "mazerace", SV_OPT_CUSTOM, 0, 0, 0, 1, SV_SEC_NETWORK, false,
     "server name in discovery replies and WELCOME: the protocol's name rule (docs/protocol.md, Names)",
     set_name, get_name},
    {"max_clients", "N", "1024", SV_OPT_INT, F(max_clients), 1, SV_MAX_CLIENTS, 1, SV_SEC_NETWORK, false,
     "connected players, 1..64000 (at most 4000 per host: see hosts)", NULL, NULL},
    {"hosts", "N", "0", SV_OPT_INT, F(hosts), 0, SV_MAX_HOSTS, 1, SV_SEC_NETWORK, false,
     "ENet hosts sharing the game port (SO_REUSEPORT), served by the one game loop, 0..16; a client is "
     "steered to one by its source port; 0 = auto: 1 up to 4000 max clients, else one per 625 players, at "
     "most 16",
     NULL, NULL},
    {"max_rooms", "N", "1024", SV_OPT_INT, F(max_rooms), 1, SV_MAX_ROOMS, 1, SV_SEC_NETWORK, false,
     "rooms open at once, 1..65536", NULL, NULL},
    {"max_per_ip", "N", "0", SV_OPT_INT, F(max_per_ip), 0, SV_HOST_MAX_CLIENTS, 1, SV_SEC_NETWORK, false,
     "players from one IPv4 address over every host (and connections on each host); 0 = no limit (players "
     "behind one NAT share an address)",
     NULL, NULL},
    {"room_spectators", "N", "16", SV_OPT_INT, F(room_spectators), 0, 1024, 1, SV_SEC_NETWORK, true,
     "spectators watching one room, 0..1024; 0 = no watching; beyond: ERROR WATCH_FULL", NULL, NULL},
    {"max_spectators", "N", "512", SV_OPT_INT, F(max_spectators), 0, SV_HOST_MAX_CLIENTS, 1, SV_SEC_NETWORK,
     true,
     "spectators on the whole server, 0..4000 (they count as connected players too); beyond: ERROR "
     "WATCH_FULL",
     NULL, NULL},
    {"spectator_batch", "MS", "250", SV_OPT_INT, F(spectator_batch_ms), 0, 1000, 1, SV_SEC_NETWORK, true,
     "spectators' messages go out together every MS ms (after the players'), 0..1000; 0 = every step", NULL,
     NULL},
    {"progress_hold", "MS", "50", SV_OPT_INT, F(progress_hold_ms), 0, 1000, 1, SV_SEC_NETWORK, true,
     "how long the opponent's PROGRESS may wait for a fast player's next packet, 0..1000 ms; 0 = at once",
     NULL, NULL},
    {"kind", "KIND", "maze", SV_OPT_CUSTOM, 0, 0, 0, 1, SV_SEC_ROOMS, true,
     "room default: sum, maze, ice or pipes", set_kind, get_kind},
    {"size", "WxH", "default", SV_OPT_CUSTOM, 0, 0, 0, 1, SV_SEC_ROOMS, true,
     "room default: columns x rows within the kind's limits; default = the kind's default size", set_size,
     get_size},
    {"difficulty", "D", "medium", SV_OPT_CUSTOM, 0, 0, 0, 1, SV_SEC_ROOMS, true,
     "room default: easy, medium or hard", set_difficulty, get_difficulty},
    {"countdown", "SEC", "3", SV_OPT_SECONDS, F(countdown_ms), 0, 60, 1, SV_SEC_ROOMS, true,
     "countdown before each race, 0..60 s (up to 3 decimals)", NULL, NULL},
    {"grace", "SEC", "30", SV_OPT_SECONDS, F(grace_ms), 0, 3600, 1, SV_SEC_ROOMS, true,
     "how long a dropped player keeps the seat, 0..3600 s", NULL, NULL},
    {"series", "N", "1", SV_OPT_INT, F(series), 1, 99, 1, SV_SEC_ROOMS, true,
     "room default: best of N games, 1..99", NULL, NULL},
    {"rate", "N", "100", SV_OPT_INT, F(msg_rate), 1, 100000, 1, SV_SEC_LIMITS, true,
     "messages per second a player may send, sustained, 1..100000", NULL, NULL},
    {"burst", "N", "200", SV_OPT_INT, F(msg_burst), 1, 100000, 1, SV_SEC_LIMITS, true,
     "messages a player may send in one burst, 1..100000", NULL, NULL},
    {"max_bad", "N", "20", SV_OPT_INT, F(max_bad), 1, 1000000, 1, SV_SEC_LIMITS, true,
     "bad or over-rate messages before the player is disconnected, 1..1000000", NULL, NULL},
    {"gen_rate", "MS", "250", SV_OPT_INT, F(gen_rate_ms), 1, 1000, 1, SV_SEC_LIMITS, true,
     "puzzle generation CPU a player may use, ms per second, 1..1000 (its address: 4x); over it: ERROR BUSY",
     NULL, NULL},
    {"gen_burst", "MS", "4000", SV_OPT_INT, F(gen_burst_ms), 1, 600000, 1, SV_SEC_LIMITS, true,
     "generation CPU a player may save up, ms, 1..600000 (its address: 4x)", NULL, NULL},
    {"gen_queue", "N", "64", SV_OPT_INT, F(gen_queue), 1, 4096, 1, SV_SEC_LIMITS, false,
     "generation jobs queued or running at once, 1..4096 (big puzzles: at most 3/4); beyond: ERROR BUSY",
     NULL, NULL},
    {"puzzle_mem", "MIB", "1024", SV_OPT_INT, F(puzzle_mem_mb), 1, 65536, 1, SV_SEC_LIMITS, true,
     "estimated puzzle memory of all rooms, MiB, 1..65536; one address may hold 1/8; beyond: ERROR MEMORY; "
     "default 1024, or half the cgroup's memory.max when that is less (a container or MemoryMax=)",
     NULL, NULL},
    {"drain_timeout", "SEC", "60", SV_OPT_SECONDS, F(drain_timeout_ms), 0, 3600, 1, SV_SEC_SERVICE, true,
     "on SIGTERM, how long running races may finish before the stop, 0..3600 s; 0 = stop at once", NULL,
     NULL},
    {"metrics", "ADDR:PORT", "off", SV_OPT_CUSTOM, 0, 0, 0, 1, SV_SEC_SERVICE, false,
     "serve Prometheus metrics at http://ADDR:PORT/metrics (and /healthz); PORT alone = 127.0.0.1:PORT; off",
     set_metrics, get_metrics},
    {"coordinator", "HOST:PORT", "off", SV_OPT_CUSTOM, 0, 0, 0, 1, SV_SEC_SERVICE, false,
     "the mazerace-coordinator (docs/coordinator.md) that public lists this server on; off", set_coordinator,
     get_coordinator},
    {"public", NULL, "no", SV_OPT_BOOL, F(public_list), 0, 1, 1, SV_SEC_SERVICE, false,
     "list this server (name, version, players, rooms, capacity) on the coordinator's public list, refreshed "
     "from the game loop without blocking it; needs coordinator (yes/no)",
     NULL, NULL},
    {"agones", NULL, "no", SV_OPT_BOOL, F(agones), 0, 1, 1, SV_SEC_SERVICE, false,
     "run as an Agones GameServer: Ready, Health, Counters, labels and Shutdown through the SDK sidecar at "
     "127.0.0.1:$AGONES_SDK_HTTP_PORT (default 9358); on by itself when AGONES_SDK_HTTP_PORT is set (yes/no)",
     NULL, NULL},
    {"agones_health", "SEC", "2", SV_OPT_SECONDS, F(agones_health_ms), 0, 60, 1, SV_SEC_SERVICE, false,
     "Agones: the game loop pings the sidecar's /health this often, 0.1..60 s (keep it under the Fleet's "
     "health periodSeconds)",
     NULL, NULL},
    {"agones_reserve_wait", "SEC", "60", SV_OPT_SECONDS, F(agones_reserve_ms), 0, 3600, 1, SV_SEC_SERVICE,
     true,
     "Agones: a room a matchmaker reserved (annotation mazerace.io/room-CODE) closes if nobody joins it "
     "within this, 0.1..3600 s",
     NULL, NULL},
    {"agones_idle_shutdown", "SEC", "0", SV_OPT_SECONDS, F(agones_idle_ms), 0, 86400, 1, SV_SEC_SERVICE, true,
     "Agones: once the GameServer is Allocated, drain and shut down after this long with no player "
     "connected, "
     "0..86400 s; 0 = never (a long-lived server of many rooms)",
     NULL, NULL},
    {"agones_idle_ready", "SEC", "60", SV_OPT_SECONDS, F(agones_idle_ready_ms), 0, 86400, 1, SV_SEC_SERVICE,
     false,
     "Agones: once the GameServer is Allocated, go back to Ready (POST /ready) after this long with no "
     "player "
     "and no room, so the Fleet may scale it down or replace it, 0..86400 s; 0 = never; agones_idle_shutdown "
     "wins when set",
     NULL, NULL},
    {"db", "PATH", "default", SV_OPT_CUSTOM, 0, 0, 0, 1, SV_SEC_SERVICE, false,
     "the match database: every finished match with both move logs; a file (SQLite), or a "
     "postgresql:// URI shared by a fleet of servers; none = keep no records; "
     "default = $STATE_DIRECTORY/matches.db under systemd, else $XDG_STATE_HOME/mazerace/matches.db "
     "(~/.local/state/mazerace/matches.db); an SQLite file is locked (FILE.lock) by the server that writes "
     "it. "
     "A database given here that cannot be opened, or that another server holds, stops the start "
     "(exit 2); the default one only warns",
     set_db, get_db},
    {"db_spool", "PATH", "default", SV_OPT_CUSTOM, 0, 0, 0, 1, SV_SEC_SERVICE, false,
     "where records wait while a postgresql:// database is out of reach, sent when it is back; default = "
     "matches.spool beside the default database (one spool per server: it is locked)",
     set_db_spool, get_db_spool},
    {"log_level", "L", "info", SV_OPT_CUSTOM, 0, 0, 0, 1, SV_SEC_OUTPUT, true,
     "off, error, warn, info or debug", set_log_level, get_log_level},
    {"log_format", "F", "auto", SV_OPT_CUSTOM, 0, 0, 0, 1, SV_SEC_OUTPUT, false,
     "auto (journal under systemd, else text), text, journal (<N> prefixes, no time) or json", set_log_format,
     get_log_format},
    {"log_moves", NULL, "no", SV_OPT_BOOL, F(log_moves), 0, 1, 1, SV_SEC_OUTPUT, true,
     "one log line per move, at debug level (yes/no)", NULL, NULL},
    {"stats", NULL, "no", SV_OPT_BOOL, F(stats), 0, 1, 1, SV_SEC_OUTPUT, false,
     "print the statistics block on stdout at exit (yes/no)", NULL, NULL},
};
const size_t sv_opts_count = MR_ARRAY_LEN(sv_opts);

const sv_opt *sv_opts_next_in(int s, size_t *i)
{
    while (*i < sv_opts_count) {
        const sv_opt *o = &sv_opts[(*i)++];
        if (o->section == s)
            return o;
    }
    return NULL;
}

const sv_opt *sv_opt_by_key(const char *key)
{
    for (size_t i = 0; i < sv_opts_count; i++)
        if (strcmp(sv_opts[i].key, key) == 0)
            return &sv_opts[i];
    return NULL;
}

void sv_opt_flag(const sv_opt *o, char *buf, size_t n)
{
    mr_opt_key_flag(o->key, buf, n);
}

const sv_opt *sv_opt_by_flag(const char *flag)
{
    char buf[40];
    for (size_t i = 0; i < sv_opts_count; i++) {
        sv_opt_flag(&sv_opts[i], buf, sizeof buf);
        if (strcmp(buf, flag) == 0)
            return &sv_opts[i];
    }
    return NULL;
}

const char *sv_opt_set(const sv_opt *o, sv_config *cfg, const char *val, char *buf, size_t n)
{
    if (o->type == SV_OPT_CUSTOM)
        return o->set(cfg, val);
    return mr_opt_set_field(o->type, o->lo, o->hi, o->scale, (char *)cfg + o->off, val, buf, n);
}

void sv_opt_get(const sv_opt *o, const sv_config *cfg, char *buf, size_t n)
{
    if (o->type == SV_OPT_CUSTOM)
        o->get(cfg, buf, n);
    else
        mr_opt_get_field(o->type, o->scale, (const char *)cfg + o->off, buf, n);
}

void sv_config_defaults(sv_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    /* The fields that are no setting: the HELLO time-out (docs/server.md,
     * "No HELLO within 5 s"); quick_rooms and lan_host stay false (the game's
     * own server sets them). */
    cfg->hello_timeout_ms = 5000;
    char why[96];
    for (size_t i = 0; i < sv_opts_count; i++) {
        const sv_opt *o = &sv_opts[i];
        const char *bad = sv_opt_set(o, cfg, o->def, why, sizeof why);
        if (bad) { /* a row whose default its own setter refuses: a programming error */
            fprintf(stderr, "sv_opts: the default of %s, \"%s\", %s\n", o->key, o->def, bad);
            abort();
        }
    }
}

bool sv_opt_equal(const sv_opt *o, const sv_config *a, const sv_config *b)
{
    char x[128], y[128];
    sv_opt_get(o, a, x, sizeof x);
    sv_opt_get(o, b, y, sizeof y);
    return strcmp(x, y) == 0;
}

int sv_opts_apply_reloadable(sv_config *dst, const sv_config *src)
{
    int changed = 0;
    char v[128], why[96];
    for (size_t i = 0; i < sv_opts_count; i++) {
        const sv_opt *o = &sv_opts[i];
        if (!o->reload || sv_opt_equal(o, dst, src))
            continue;
        sv_opt_get(o, src, v, sizeof v);
        /* src passed sv_config_check: its own text always reads back. */
        const char *bad = sv_opt_set(o, dst, v, why, sizeof why);
        assert(!bad);
        (void)bad;
        changed++;
    }
    return changed;
}

void sv_opts_print_config(const sv_config *cfg, FILE *f)
{
    char v[128];
    for (size_t i = 0; i < sv_opts_count; i++) {
        sv_opt_get(&sv_opts[i], cfg, v, sizeof v);
        fprintf(f, "%s = ", sv_opts[i].key);
        mr_opt_put_value(f, v);
    }
}

void sv_opts_print_doc(FILE *f)
{
    sv_config d;
    sv_config_defaults(&d);
    char v[128], flag[40];
    fprintf(f, "| key | flag | default | SIGHUP | meaning |\n|---|---|---|---|---|\n");
    for (size_t i = 0; i < sv_opts_count; i++) {
        const sv_opt *o = &sv_opts[i];
        sv_opt_get(o, &d, v, sizeof v);
        sv_opt_flag(o, flag, sizeof flag);
        fprintf(f, "| `%s` | `%s%s%s` | `%s` | %s | ", o->key, flag, o->arg ? " " : "", o->arg ? o->arg : "",
                v, o->reload ? "reloads" : "restart");
        for (const char *p = o->help; *p; p++) /* Markdown: no HTML tags, no cell breaks */
            fputs(*p == '<' ? "&lt;" : *p == '>' ? "&gt;" : *p == '|' ? "\\|" : (char[2]){*p, 0}, f);
        fputs(" |\n", f);
    }
}

void sv_opts_print_template(FILE *f)
{
    sv_config d;
    sv_config_defaults(&d);
    char v[128];
    fprintf(f,
            "# /etc/mazerace/server.conf: mazerace-server settings (docs/server.md, man mazerace-server).\n"
            "# One \"key = value\" a line; lines starting with # are comments. Every key is\n"
            "# shown below, commented out, with its default. Command-line flags override\n"
            "# this file. After an edit: systemctl reload mazerace-server (keys marked\n"
            "# [reload]) or systemctl restart mazerace-server (the others).\n");
    for (int s = 0; s < SV_SEC_COUNT; s++) {
        fprintf(f, "\n## %s\n", sv_opt_section_names[s]);
        size_t i = 0;
        for (const sv_opt *o; (o = sv_opts_next_in(s, &i));) {
            sv_opt_get(o, &d, v, sizeof v);
            fprintf(f, "\n# %s%s\n#%s = ", o->help, o->reload ? " [reload]" : "", o->key);
            mr_opt_put_value(f, v);
        }
    }
}
