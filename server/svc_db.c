/* svc_db.c: mazerace-server's match database: default location, opening, --list-matches and --dump-replay. */
#include "svc_db.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "st_engine.h"
#include "st_writer.h"
#include "sv_log.h"
#include "util.h"

#define DB_FILE "matches.db"
#define PGPASS_CREDENTIAL "pgpass" /* the systemd credential holding a libpq password file */

static int lock_fd = -1; /* the lock of the SQLite database this server writes, held until exit */

void svc_db_pgpass_credential(void)
{
    const char *dir = getenv("CREDENTIALS_DIRECTORY");
    const char *have = getenv("PGPASSFILE");
    if (!dir || !dir[0] || (have && have[0]))
        return;
    char p[600];
    snprintf(p, sizeof p, "%s/" PGPASS_CREDENTIAL, dir);
    if (access(p, R_OK) == 0)
        setenv("PGPASSFILE", p, 1);
}

/* Another server writing the same SQLite file would mix both servers'
 * records silently: the first takes DB.lock (flock, released when it
 * exits), the second is told who holds it. 0, or -1 with *why. */
static int lock_db(const char *path, char *why, size_t n)
{
    char lp[600];
    snprintf(lp, sizeof lp, "%s.lock", path);
    int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(why, n, "cannot open its lock file %.300s: %s", lp, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        snprintf(why, n,
                 "another mazerace-server is using it (its lock file %.300s is held); give this one "
                 "--db PATH of its own or --db none",
                 lp);
        close(fd);
        return -1;
    }
    lock_fd = fd;
    return 0;
}

const char *svc_db_path(const sv_config *cfg, char *buf, size_t n)
{
    if (strcmp(cfg->db, SV_DB_NONE) == 0) {
        snprintf(buf, n, "%s", "");
        return NULL;
    }
    if (cfg->db[0]) {
        snprintf(buf, n, "%s", cfg->db);
        return NULL;
    }
    /* systemd's StateDirectory= (the unit sets StateDirectory=mazerace:
     * /var/lib/mazerace, owned by the service's user); may list several
     * directories separated by ':', the first is ours. */
    const char *sd = getenv("STATE_DIRECTORY");
    if (sd && sd[0]) {
        size_t len = strcspn(sd, ":");
        snprintf(buf, n, "%.*s/" DB_FILE, (int)len, sd);
        return NULL;
    }
    const char *xdg = getenv("XDG_STATE_HOME");
    if (xdg && xdg[0] == '/') {
        snprintf(buf, n, "%s/mazerace/" DB_FILE, xdg);
        return NULL;
    }
    const char *home = getenv("HOME");
    if (home && home[0] == '/') {
        snprintf(buf, n, "%s/.local/state/mazerace/" DB_FILE, home);
        return NULL;
    }
    return "no default place for it: STATE_DIRECTORY, XDG_STATE_HOME and HOME are all unset";
}

/* mkdir -p of path's directory (the default location may not exist yet). */
static int make_parent(const char *path)
{
    char d[512];
    snprintf(d, sizeof d, "%s", path);
    char *slash = strrchr(d, '/');
    if (!slash || slash == d)
        return 0;
    *slash = '\0';
    for (char *p = d + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(d, 0700) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(d, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

void svc_db_close(struct st_writer *w)
{
    st_writer_destroy(w);
    if (lock_fd >= 0)
        close(lock_fd);
    lock_fd = -1;
}

int svc_db_open(const sv_config *cfg, const sv_log *lg, st_writer **w, char *path, size_t pathlen)
{
    *w = NULL;
    bool explicit = cfg->db[0] != '\0';
    const char *why = svc_db_path(cfg, path, pathlen);
    if (why) {
        sv_loge(lg, SV_LOG_WARN, "db_warning", NULL, NULL, NULL,
                "match database: %s; running without records (--db PATH to choose)", why);
        return 0;
    }
    if (!path[0])
        return 0; /* --db none */
    if (!explicit && make_parent(path) != 0) {
        sv_loge(lg, SV_LOG_WARN, "db_warning", NULL, NULL, NULL,
                "match database %s: cannot create its directory: %s; running "
                "without records (--db PATH or --db none to choose)",
                path, strerror(errno));
        return 0;
    }
    char err[512] = "";
    svc_db_pgpass_credential();
    bool file = strncmp(path, "postgres", 8) != 0 || !strstr(path, "://");
    if (file && lock_db(path, err, sizeof err) != 0) {
        if (explicit) {
            char from[300];
            sv_cli_origin("db", from, sizeof from);
            sv_loge(lg, SV_LOG_ERROR, "db_failed", NULL, NULL, NULL, "db %s (from %s): %s", path, from, err);
            return 2;
        }
        sv_loge(lg, SV_LOG_WARN, "db_warning", NULL, NULL, NULL,
                "match database %s: %s; running without records", path, err);
        return 0;
    }
    st *s = st_open(path, ST_OPEN_CREATE, err, sizeof err);
    if (!s) {
        if (explicit) {
            char from[300];
            sv_cli_origin("db", from, sizeof from);
            /* st_open's messages hide a password */
            sv_loge(lg, SV_LOG_ERROR, "db_failed", NULL, NULL, NULL, "db (from %s): %s", from, err);
            return 2;
        }
        sv_loge(lg, SV_LOG_WARN, "db_warning", NULL, NULL, NULL,
                "match database: %s; running without records (--db PATH or "
                "--db none to choose)",
                err);
        return 0;
    }
    bool network = strcmp(st_backend_name(s), "sqlite") != 0;
    if (!network && cfg->db_spool[0])
        sv_loge(lg, SV_LOG_WARN, "db_warning", NULL, NULL, NULL,
                "--db-spool %s is ignored: only a PostgreSQL --db uses a "
                "spool (an SQLite file is written directly)",
                cfg->db_spool);
    char down[512] = ""; /* why the first connection failed, when it did */
    if (network && st_unavailable(s))
        snprintf(down, sizeof down, "%s", err[0] ? err : "no answer");
    *w = st_writer_create(s, 0, 0);
    char shown[512];
    st_location_text(path, shown, sizeof shown);
    if (!*w) {
        sv_loge(lg, SV_LOG_ERROR, "db_failed", NULL, NULL, NULL, "match database %s: cannot start its thread",
                shown);
        return explicit ? 2 : 0;
    }
    /* A network database may be out of reach for a while: records wait in
     * a spool file in the default database's directory (docs/storage.md). */
    if (network) {
        sv_config d = *cfg;
        d.db[0] = '\0';
        char spool[600];
        if (cfg->db_spool[0]) {
            snprintf(spool, sizeof spool, "%s", cfg->db_spool);
            if (!st_writer_spool(*w, spool, err, sizeof err)) { /* named by the operator: a start error */
                char from[300];
                sv_cli_origin("db_spool", from, sizeof from);
                sv_loge(lg, SV_LOG_ERROR, "db_failed", NULL, NULL, NULL, "db_spool (from %s): %s", from, err);
                st_writer_destroy(*w);
                *w = NULL;
                return 2;
            }
        } else if (svc_db_path(&d, spool, sizeof spool) == NULL && make_parent(spool) == 0) {
            char *slash = strrchr(spool, '/');
            snprintf(slash ? slash + 1 : spool, sizeof spool - (size_t)(slash ? slash + 1 - spool : 0),
                     "matches.spool");
            if (!st_writer_spool(*w, spool, err, sizeof err))
                sv_loge(lg, SV_LOG_WARN, "db_warning", NULL, NULL, NULL,
                        "spool %s: %s; records are lost while the database is down", spool, err);
        } else {
            sv_loge(lg, SV_LOG_WARN, "db_warning", NULL, NULL, NULL,
                    "no directory for a spool: records are lost while the database "
                    "is down");
        }
    }
    if (down[0])
        sv_loge(lg, SV_LOG_WARN, "db_warning", NULL, NULL, NULL,
                "match database out of reach at start: %s; the server runs and "
                "keeps records in the spool until it answers",
                down);                    /* st_open's messages name the database (without its password) */
    snprintf(path, pathlen, "%s", shown); /* for the log: no password */
    return 0;
}

/* The service's database, SVC_DB_SERVICE_DIR/matches.db (or under
 * $MAZERACE_SERVICE_STATE_DIR). */
static void service_db(char *buf, size_t n)
{
    const char *d = getenv("MAZERACE_SERVICE_STATE_DIR");
    snprintf(buf, n, "%s/" DB_FILE, d && d[0] == '/' ? d : SVC_DB_SERVICE_DIR);
}

const char *svc_db_read_path(const sv_config *cfg, char *buf, size_t n, bool *service)
{
    *service = false;
    const char *why = svc_db_path(cfg, buf, n);
    const char *sd = getenv("STATE_DIRECTORY");
    if (cfg->db[0] || (sd && sd[0]))
        return why; /* named, or run as the service (its own default) */
    char svc[512];
    service_db(svc, sizeof svc);
    struct stat stb;
    /* root (the operator) means the service's database first; anyone else
     * their own default first, then the service's. */
    bool mine = !why && stat(buf, &stb) == 0;
    bool its = stat(svc, &stb) == 0 || errno == EACCES;
    if (its && (geteuid() == 0 || !mine)) {
        snprintf(buf, n, "%s", svc);
        *service = true;
        return NULL;
    }
    return why;
}

static st *open_read(const sv_config *cfg)
{
    char path[512], err[512];
    bool service;
    const char *why = svc_db_read_path(cfg, path, sizeof path, &service);
    if (why || !path[0]) {
        fprintf(stderr, "mazerace-server: no match database: %s\n", why ? why : "--db none");
        return NULL;
    }
    if (service)
        fprintf(stderr, "mazerace-server: reading the service's match database %s (--db PATH for another)\n",
                path);
    svc_db_pgpass_credential();
    st *s = st_open(path, ST_OPEN_READONLY, err, sizeof err);
    if (!s)
        fprintf(stderr, "mazerace-server: %s\n", err);
    return s;
}

int svc_db_list(const sv_config *cfg, int n, FILE *out)
{
    st *s = open_read(cfg);
    if (!s)
        return 1;
    st_match *rows = NULL;
    int count = 0;
    const char *err = st_recent(s, 0, n, &rows, &count);
    if (err) {
        fprintf(stderr, "mazerace-server: %s\n", err);
        st_close(s);
        return 1;
    }
    /* Tab-separated (names may hold spaces): newest first. */
    fprintf(out, "# id\tstart_utc\tgame_id\tplayer1\tplayer2\twinner\ttime_ms\tmoves\tending\n");
    for (int i = 0; i < count; i++) {
        const st_match *m = &rows[i];
        char when[40];
        mr_utc_text(m->start_utc_ms, when, sizeof when);
        const char *winner = m->winner == 0 || m->winner == 1 ? m->p[m->winner].name : "-";
        /* A description game ID can be long: the line keeps its first 60 bytes. */
        size_t glen = strlen(m->game_id);
        fprintf(out, "%lld\t%s\t%.60s%s\t%s\t%s\t%s\t%llu/%llu\t%u/%u\t%s\n", (long long)m->id, when,
                m->game_id, glen > 60 ? "..." : "", m->p[0].name, m->p[1].name, winner,
                (unsigned long long)m->p[0].time_ms, (unsigned long long)m->p[1].time_ms, m->p[0].moves,
                m->p[1].moves, st_ending_text(m->ending));
    }
    st_matches_free(rows, count);
    st_close(s);
    return 0;
}

int svc_db_dump_replay(const sv_config *cfg, int64_t id, FILE *out)
{
    st *s = open_read(cfg);
    if (!s)
        return 1;
    st_match m;
    bool found = false;
    const char *err = st_get(s, id, &m, &found);
    int rc = 1;
    if (err)
        fprintf(stderr, "mazerace-server: %s\n", err);
    else if (!found)
        fprintf(stderr, "mazerace-server: no match %lld in the database\n", (long long)id);
    else {
        replay *rp = st_to_replay(&m, &err);
        char *text = rp ? replay_format(rp) : NULL;
        if (!text)
            fprintf(stderr, "mazerace-server: match %lld: cannot make its replay: %s\n", (long long)id,
                    err ? err : "no text");
        else if (fputs(text, out) >= 0 && fflush(out) == 0)
            rc = 0;
        free(text);
        replay_destroy(rp);
        st_match_free(&m);
    }
    st_close(s);
    return rc;
}
