/* main.c: mazerace-store-size: bytes per stored match, measured on SQLite, PostgreSQL and the spool. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "puzzle.h"
#include "st.h"
#include "st_spool.h"
#include "util.h"

/* For each kind at its default size (medium), n matches like a server
 * stores them: the winner plays a shortest solution, the loser 70% of one,
 * a move every 350 to 650 ms; IDs as the server writes them (seeded game
 * ID, full description). Each backend gets them twice, into fresh stores:
 * with the moves and without, so the figures split into a cost per match
 * and a cost per move. Sizes are whole files (SQLite: after the WAL is
 * checkpointed, by closing) and whole relations with indexes and TOAST
 * (PostgreSQL: pg_total_relation_size after VACUUM), minus the empty
 * store's. docs/storage.md has figures and the command. */

static void usage(void)
{
    fprintf(stderr, "usage: mazerace-store-size [--n N] [--pg URI] DIR\n"
                    "  DIR: an empty directory for the SQLite files and spools\n"
                    "  --pg URI: also measure PostgreSQL; URI names a database where the\n"
                    "            user may CREATE DATABASE (one new database per measurement)\n");
    exit(2);
}

/* The record of match i of this kind (moves left out when !with_moves). */
static st_match *make_match(const pz_kind *k, uint64_t seed, bool with_moves, size_t *nmoves)
{
    pz_params p = {k->id, k->default_w, k->default_h, PZ_MEDIUM};
    const char *why = NULL;
    pz_puzzle *pz = k->generate(&p, seed, &why);
    if (!pz) {
        fprintf(stderr, "%s seed %llu: %s\n", k->name, (unsigned long long)seed, why);
        exit(1);
    }
    int max = pz_max_solution(pz);
    pz_move *sol = mr_alloc((size_t)max, sizeof *sol);
    int len = k->solve(pz, NULL, sol, max);
    if (len < 0 || len > max) {
        fprintf(stderr, "%s seed %llu: no solution\n", k->name, (unsigned long long)seed);
        exit(1);
    }
    st_match *m = mr_alloc(1, sizeof *m);
    memset(m, 0, sizeof *m);
    snprintf(m->mode, sizeof m->mode, "server");
    char gid[96];
    pz_id_format_seeded(&p, seed, gid, sizeof gid);
    m->game_id = mr_strdup(gid);
    m->desc_id = pz_id_format_desc(pz);
    m->desc_hash = mr_hash64(m->desc_id, strlen(m->desc_id));
    snprintf(m->kind, sizeof m->kind, "%s", k->name);
    m->width = p.w;
    m->height = p.h;
    snprintf(m->difficulty, sizeof m->difficulty, "medium");
    m->start_utc_ms = 1764000000000 + (int64_t)seed * 90000;
    m->winner = (int)(seed & 1);
    m->ending = ST_END_SOLVED;
    m->game_no = 1;
    m->series_len = 1;
    int lose = len * 7 / 10;
    size_t total = (size_t)len + (size_t)lose;
    m->moves = mr_alloc(total ? total : 1, sizeof *m->moves);
    uint32_t t[2] = {0, 200};
    int next[2] = {0, 0}, want[2] = {m->winner == 0 ? len : lose, m->winner == 1 ? len : lose};
    uint64_t r = seed * 0x9E3779B97F4A7C15ull + 1;
    while (m->nmoves < total) { /* both players' moves, in time order */
        int who = next[0] >= want[0] ? 1 : next[1] >= want[1] ? 0 : t[0] <= t[1] ? 0 : 1;
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        t[who] += 350 + (uint32_t)(r >> 33) % 300;
        pz_move mv = sol[next[who]++];
        m->moves[m->nmoves++] = (st_move){
            .ms = t[who], .player = (uint8_t)who, .type = mv.type, .dir = mv.dir, .x = mv.x, .y = mv.y};
    }
    for (int i = 0; i < 2; i++) {
        snprintf(m->p[i].name, sizeof m->p[i].name, "player%llu",
                 (unsigned long long)(seed * 2 + (uint64_t)i) % 997);
        m->p[i].moves = (uint32_t)want[i];
        m->p[i].time_ms = t[i];
        m->p[i].solved = i == m->winner;
        m->p[i].result = i == m->winner ? ST_WON : ST_LOST;
    }
    *nmoves = m->nmoves;
    if (!with_moves) {
        free(m->moves);
        m->moves = NULL;
        m->nmoves = 0;
        m->p[0].moves = m->p[1].moves = 0;
    }
    free(sol);
    k->free_puzzle(pz);
    return m;
}

static long long file_bytes(const char *path)
{
    struct stat s;
    return stat(path, &s) == 0 ? (long long)s.st_size : 0;
}

static st *open_store(const char *loc)
{
    char err[512];
    st *s = st_open(loc, ST_OPEN_CREATE, err, sizeof err);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    return s;
}

/* PostgreSQL: a fresh database; its URI into loc. */
static void pg_fresh(const char *uri, const char *db, char *loc, size_t n)
{
    PGconn *c = PQconnectdb(uri);
    char drop[96], create[96];
    snprintf(drop, sizeof drop, "DROP DATABASE IF EXISTS %s", db);
    snprintf(create, sizeof create, "CREATE DATABASE %s", db);
    PGresult *r = NULL;
    if (PQstatus(c) == CONNECTION_OK) {
        PQclear(PQexec(c, "SET client_min_messages = warning"));
        PQclear(PQexec(c, drop));
        r = PQexec(c, create);
    }
    if (!r || PQresultStatus(r) != PGRES_COMMAND_OK) {
        fprintf(stderr, "creating database %s: %s", db, PQerrorMessage(c));
        exit(1);
    }
    PQclear(r);
    PQfinish(c);
    snprintf(loc, n, "%s%cdbname=%s", uri, strchr(uri, '?') ? '&' : '?', db);
}

static long long pg_bytes(const char *loc)
{
    PGconn *c = PQconnectdb(loc);
    PQclear(PQexec(c, "VACUUM"));
    PGresult *r = PQexec(c, "SELECT pg_total_relation_size('matches') + pg_total_relation_size('players')"
                            " + pg_total_relation_size('moves')");
    long long v = PQresultStatus(r) == PGRES_TUPLES_OK ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : -1;
    PQclear(r);
    PQfinish(c);
    return v;
}

typedef struct sizes {
    long long sqlite, pg, spool; /* bytes added by the n records */
} sizes;

/* Stores the records into fresh stores of each backend; bytes added. */
static void measure(st_match **ms, int n, const char *dir, const char *pg, const char *tag, sizes *out)
{
    char loc[1024], spool[600];
    snprintf(loc, sizeof loc, "%s/%s.db", dir, tag);
    unlink(loc);
    st *s = open_store(loc);
    st_close(s);
    long long empty = file_bytes(loc);
    s = open_store(loc);
    for (int i = 0; i < n; i += 100) {
        const char *e = st_put(s, ms + i, n - i < 100 ? n - i : 100);
        if (e) {
            fprintf(stderr, "%s\n", e);
            exit(1);
        }
    }
    st_close(s); /* checkpoints the WAL into the file */
    out->sqlite = file_bytes(loc) - empty;
    unlink(loc);

    snprintf(spool, sizeof spool, "%s/%s.spool", dir, tag);
    unlink(spool);
    char err[512];
    st_spool *sp = st_spool_open(spool, err, sizeof err);
    if (!sp || !st_spool_append(sp, ms, n, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    st_spool_close(sp);
    out->spool = file_bytes(spool) - 16;
    unlink(spool);

    out->pg = -1;
    if (pg) {
        char db[64];
        snprintf(db, sizeof db, "mr_size_%s", tag);
        pg_fresh(pg, db, loc, sizeof loc);
        s = open_store(loc);
        long long e0 = pg_bytes(loc);
        for (int i = 0; i < n; i += 100) {
            const char *e = st_put(s, ms + i, n - i < 100 ? n - i : 100);
            if (e) {
                fprintf(stderr, "%s\n", e);
                exit(1);
            }
        }
        st_close(s);
        out->pg = pg_bytes(loc) - e0;
    }
}

int main(int argc, char **argv)
{
    int n = 1000;
    const char *pg = NULL, *dir = NULL;
    for (int i = 1; i < argc; i++) {
        long v;
        if (strcmp(argv[i], "--n") == 0 && i + 1 < argc && mr_parse_long(argv[i + 1], 10, 1000000, &v)) {
            n = (int)v;
            i++;
        } else if (strcmp(argv[i], "--pg") == 0 && i + 1 < argc) {
            pg = argv[++i];
        } else if (argv[i][0] != '-' && !dir) {
            dir = argv[i];
        } else {
            usage();
        }
    }
    if (!dir)
        usage();
    printf("# %d matches per kind (default size, medium; winner: a shortest solution, loser: 70%% of one)\n",
           n);
    printf("%-6s %-6s %6s | %-22s | %-22s | %-22s\n", "", "", "moves", "SQLite bytes", "PostgreSQL bytes",
           "spool bytes");
    printf("%-6s %-6s %6s | %7s %7s %6s | %7s %7s %6s | %7s %7s %6s\n", "kind", "size", "/match", "/match",
           "fixed", "/move", "/match", "fixed", "/move", "/match", "fixed", "/move");
    for (int kid = 0;; kid++) {
        const pz_kind *k = pz_kind_by_id(kid);
        if (!k)
            break;
        st_match **full = mr_alloc((size_t)n, sizeof *full), **bare = mr_alloc((size_t)n, sizeof *bare);
        size_t moves = 0, nm = 0;
        for (int i = 0; i < n; i++) {
            full[i] = make_match(k, (uint64_t)i + 1, true, &nm);
            bare[i] = make_match(k, (uint64_t)i + 1, false, &nm);
            moves += nm;
        }
        sizes f, b;
        char tag[32];
        snprintf(tag, sizeof tag, "%s_full", k->name);
        measure(full, n, dir, pg, tag, &f);
        snprintf(tag, sizeof tag, "%s_bare", k->name);
        measure(bare, n, dir, pg, tag, &b);
        char size[16];
        snprintf(size, sizeof size, "%dx%d", k->default_w, k->default_h);
        printf("%-6s %-6s %6.1f", k->name, size, (double)moves / n);
        long long fb[3][2] = {{f.sqlite, b.sqlite}, {f.pg, b.pg}, {f.spool, b.spool}};
        for (int j = 0; j < 3; j++) {
            if (fb[j][0] < 0) {
                printf(" | %7s %7s %6s", "-", "-", "-");
                continue;
            }
            double per_move = moves ? (double)(fb[j][0] - fb[j][1]) / (double)moves : 0;
            printf(" | %7.0f %7.0f %6.1f", (double)fb[j][0] / n,
                   (double)fb[j][0] / n - per_move * (double)moves / n, per_move);
        }
        printf("\n");
        for (int i = 0; i < n; i++) {
            st_match_free(full[i]);
            st_match_free(bare[i]);
            free(full[i]);
            free(bare[i]);
        }
        free(full);
        free(bare);
        if (f.sqlite <= 0 || f.spool <= 0 || (pg && f.pg <= 0)) {
            fprintf(stderr, "%s: no bytes measured\n", k->name);
            return 1;
        }
    }
    return 0;
}
