/* co_main.c: mazerace-coordinator: its settings, the one UDP socket, the poll loop, signals. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "co.h"
#include "co_metrics.h"
#include "opts.h"
#include "sv.h"
#include "sv_log.h"
#include "sv_opts.h"
#include "util.h"

typedef struct co_args {
    co_config co;
    char bind[16];
    int port;
    int log_level, log_format;
    char secret_file[256];
    char metrics[64]; /* "IPV4:PORT" or "" */
} co_args;

#define F(field) offsetof(co_args, field)

/* The settings table, the same shape as mazerace-server's (server/sv_opts.c):
 * the flag is "--" and the key with '_' written '-'; whole numbers go
 * through common/opts.c's reader and writer, the others through set/get. */
typedef struct co_opt {
    const char *key, *arg;
    int type; /* enum mr_opt_type */
    size_t off;
    long lo, hi;
    const char *help;
    const char *(*set)(co_args *a, const char *v);
    void (*get)(const co_args *a, char *b, size_t n);
} co_opt;

static const char *set_bind(co_args *a, const char *v)
{
    struct in_addr x;
    if (strlen(v) >= sizeof a->bind || inet_pton(AF_INET, v, &x) != 1)
        return "is not an IPv4 address";
    strcpy(a->bind, v);
    return NULL;
}
static void get_bind(const co_args *a, char *b, size_t n)
{
    snprintf(b, n, "%s", a->bind);
}

static const char *set_turn_server(co_args *a, const char *v)
{
    char ip[16];
    int port;
    struct in_addr x;
    const char *why = sv_opt_parse_hostport(v, ip, &port);
    if (why)
        return why;
    inet_pton(AF_INET, ip, &x);
    a->co.turn.ip = ntohl(x.s_addr);
    a->co.turn.port = (uint16_t)port;
    return NULL;
}
static void get_turn_server(const co_args *a, char *b, size_t n)
{
    struct in_addr x = {htonl(a->co.turn.ip)};
    char ip[16];
    if (!a->co.turn.ip)
        snprintf(b, n, "none");
    else
        snprintf(b, n, "%s:%u", inet_ntop(AF_INET, &x, ip, sizeof ip), (unsigned)a->co.turn.port);
}

static const char *set_turn_secret_file(co_args *a, const char *v)
{
    size_t len;
    char *s = mr_read_file(v, &len);
    if (!s)
        return "cannot be read";
    while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' '))
        s[--len] = '\0';
    bool ok = len > 0 && len < sizeof a->co.turn_secret;
    if (ok)
        memcpy(a->co.turn_secret, s, len + 1);
    free(s);
    snprintf(a->secret_file, sizeof a->secret_file, "%s", v);
    return ok ? NULL : "holds no secret (1..128 bytes)";
}
static void get_turn_secret_file(const co_args *a, char *b, size_t n)
{
    snprintf(b, n, "%s", a->secret_file[0] ? a->secret_file : "none");
}

static const char *set_log_level(co_args *a, const char *v)
{
    return sv_opt_set_log_level(&a->log_level, v);
}
static void get_log_level(const co_args *a, char *b, size_t n)
{
    snprintf(b, n, "%s", sv_log_level_name(a->log_level));
}

static const char *set_metrics(co_args *a, const char *v)
{
    return sv_opt_set_metrics(a->metrics, sizeof a->metrics, v);
}
static void get_metrics(const co_args *a, char *b, size_t n)
{
    snprintf(b, n, "%s", a->metrics[0] ? a->metrics : "off");
}

static const co_opt opts[] = {
    {"bind", "IPV4", MR_OPT_CUSTOM, 0, 0, 0, "address to listen on", set_bind, get_bind},
    {"port", "N", MR_OPT_INT, F(port), 0, 65535, "UDP port; 0 = any free port (printed)", NULL, NULL},
    {"host_ttl", "SEC", MR_OPT_INT, F(co.host_ttl_s), 5, 3600,
     "an invite code ends this long after its host's last refresh", NULL, NULL},
    {"server_ttl", "SEC", MR_OPT_INT, F(co.server_ttl_s), 5, 3600,
     "a listed server disappears this long after its last refresh", NULL, NULL},
    {"pair_ttl", "SEC", MR_OPT_INT, F(co.pair_ttl_s), 5, 3600,
     "an introduced pair may ask for relay credentials this long", NULL, NULL},
    {"max_hosts", "N", MR_OPT_INT, F(co.max_hosts), 1, 1000000, "live invite codes in all", NULL, NULL},
    {"max_servers", "N", MR_OPT_INT, F(co.max_servers), 1, 100000, "listed servers in all", NULL, NULL},
    {"per_addr", "N", MR_OPT_INT, F(co.per_addr), 1, 1000, "live codes, and listed servers, per IPv4 address",
     NULL, NULL},
    {"rate", "N", MR_OPT_INT, F(co.rate), 1, 100000, "datagrams per second per address, sustained", NULL,
     NULL},
    {"burst", "N", MR_OPT_INT, F(co.burst), 1, 100000, "datagrams per address in a burst", NULL, NULL},
    {"lookup_interval", "MS", MR_OPT_INT, F(co.lookup_rate_ms), 1, 3600000,
     "one code lookup per MS per address, sustained", NULL, NULL},
    {"lookup_burst", "N", MR_OPT_INT, F(co.lookup_burst), 1, 1000, "code lookups per address in a burst",
     NULL, NULL},
    {"turn_server", "IPV4:PORT", MR_OPT_CUSTOM, 0, 0, 0, "the TURN server (coturn) the credentials are for",
     set_turn_server, get_turn_server},
    {"turn_secret_file", "PATH", MR_OPT_CUSTOM, 0, 0, 0,
     "file holding coturn's static-auth-secret; none = no relay credentials", set_turn_secret_file,
     get_turn_secret_file},
    {"turn_ttl", "SEC", MR_OPT_INT, F(co.turn_ttl_s), 60, 86400, "relay credentials' lifetime", NULL, NULL},
    {"metrics", "ADDR:PORT", MR_OPT_CUSTOM, 0, 0, 0,
     "serve Prometheus metrics at http://ADDR:PORT/metrics (and /healthz); PORT alone = 127.0.0.1:PORT; off",
     set_metrics, get_metrics},
    {"log_level", "L", MR_OPT_CUSTOM, 0, 0, 0, "off, error, warn, info or debug", set_log_level,
     get_log_level},
};

static void get_value(const co_opt *o, const co_args *a, char *b, size_t n)
{
    if (o->type == MR_OPT_CUSTOM)
        o->get(a, b, n);
    else
        mr_opt_get_field(o->type, 1, (const char *)a + o->off, b, n);
}

static void defaults(co_args *a)
{
    memset(a, 0, sizeof *a);
    a->port = 27920;
    a->log_level = SV_LOG_INFO;
    a->log_format = SV_LOGFMT_AUTO;
    strcpy(a->bind, "0.0.0.0");
    co_config_defaults(&a->co);
}

static void usage(FILE *f)
{
    co_args d;
    defaults(&d);
    fprintf(f, "usage: mazerace-coordinator [options]\n"
               "Invite codes, introductions, relay credentials and the public server list\n"
               "for mazerace (docs/coordinator.md). One UDP socket.\n\n");
    char flag[64], v[160];
    for (size_t i = 0; i < MR_ARRAY_LEN(opts); i++) {
        mr_opt_key_flag(opts[i].key, flag, sizeof flag);
        get_value(&opts[i], &d, v, sizeof v);
        fprintf(f, "  %s %s\n      %s (default %s)\n", flag, opts[i].arg, opts[i].help, v);
    }
    fprintf(f, "  --print-config\n      print the effective settings as key = value lines\n"
               "  --help\n      this text\n  --version\n      version and protocol version\n"
               "Prints \"listening on ADDR:PORT\" on stdout once ready. SIGTERM or SIGINT stops.\n"
               "Exit status 2: bad command line; 1: could not start.\n");
}

/* 0: run; 1: printed and done; 2: error (message on stderr). */
static int parse(co_args *a, int argc, char **argv)
{
    bool print = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 1;
        }
        if (strcmp(argv[i], "--version") == 0) {
            printf("mazerace-coordinator %s (coordinator protocol %d)\n", MR_VERSION, COORD_VERSION);
            return 1;
        }
        if (strcmp(argv[i], "--print-config") == 0) {
            print = true;
            continue;
        }
        const co_opt *o = NULL;
        char flag[64];
        for (size_t k = 0; k < MR_ARRAY_LEN(opts) && !o; k++) {
            mr_opt_key_flag(opts[k].key, flag, sizeof flag);
            if (strcmp(argv[i], flag) == 0)
                o = &opts[k];
        }
        if (!o) {
            fprintf(stderr, "mazerace-coordinator: unknown option '%s' (see --help)\n", argv[i]);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "mazerace-coordinator: option %s needs a value\n", flag);
            return 2;
        }
        const char *v = argv[++i];
        char buf[96];
        const char *why = o->type == MR_OPT_CUSTOM ? o->set(a, v)
                                                   : mr_opt_set_field(o->type, o->lo, o->hi, 1,
                                                                      (char *)a + o->off, v, buf, sizeof buf);
        if (why) {
            fprintf(stderr, "mazerace-coordinator: %s: '%s' %s\n", flag, v, why);
            return 2;
        }
    }
    if (a->co.turn_secret[0] && !a->co.turn.ip) {
        fprintf(stderr, "mazerace-coordinator: --turn-secret-file needs --turn-server IPV4:PORT\n");
        return 2;
    }
    if (print) {
        char v[160];
        for (size_t k = 0; k < MR_ARRAY_LEN(opts); k++) {
            get_value(&opts[k], a, v, sizeof v);
            printf("%s = ", opts[k].key);
            mr_opt_put_value(stdout, v);
        }
        return 1;
    }
    return 0;
}

static volatile sig_atomic_t stop;
static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

int main(int argc, char **argv)
{
    co_args a;
    defaults(&a);
    int r = parse(&a, argc, argv);
    if (r)
        return r == 1 ? 0 : 2;
    sv_log lg;
    sv_log_init(&lg, a.log_level, a.log_format, stderr);
    const char *err = NULL;
    co_t *co = co_create(&a.co, &err);
    if (!co) {
        sv_logf(&lg, SV_LOG_ERROR, "cannot start: %s", err);
        return 1;
    }
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)a.port)};
    inet_pton(AF_INET, a.bind, &sa.sin_addr);
    socklen_t sl = sizeof sa;
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &sl) != 0) {
        sv_logf(&lg, SV_LOG_ERROR, "cannot listen on %s:%d: %s", a.bind, a.port, strerror(errno));
        co_destroy(co);
        return 1;
    }
    svc_http *metrics = NULL;
    if (a.metrics[0] && !(metrics = co_metrics_start(a.metrics, &err))) {
        sv_logf(&lg, SV_LOG_ERROR, "cannot serve metrics on %s: %s", a.metrics, err);
        close(fd);
        co_destroy(co);
        return 1;
    }
    struct sigaction act = {.sa_handler = on_signal};
    sigaction(SIGTERM, &act, NULL);
    sigaction(SIGINT, &act, NULL);
    printf("listening on %s:%u\n", a.bind, (unsigned)ntohs(sa.sin_port));
    if (metrics) {
        char ip[16];
        int mport;
        sv_opt_parse_hostport(a.metrics, ip, &mport);
        printf("metrics on http://%s:%u/metrics\n", ip, svc_http_port(metrics));
    }
    fflush(stdout);
    sv_logf(&lg, SV_LOG_INFO, "coordinator listening on %s:%u (relay %s)", a.bind,
            (unsigned)ntohs(sa.sin_port), a.co.turn_secret[0] ? "on" : "off");
    uint64_t last_expire = 0;
    while (!stop) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        poll(&p, 1, 1000);
        uint64_t now = mr_now_us() / 1000;
        /* At most 256 datagrams per wake, then the expiry pass. */
        for (int k = 0; k < 256 && (p.revents & POLLIN); k++) {
            uint8_t buf[COORD_MAX + 1];
            struct sockaddr_in from;
            socklen_t fl = sizeof from;
            ssize_t n = recvfrom(fd, buf, sizeof buf, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
            if (n < 0)
                break;
            coord_addr fa = {ntohl(from.sin_addr.s_addr), ntohs(from.sin_port)};
            co_out out;
            co_handle(co, fa, buf, (size_t)n, now, (uint64_t)time(NULL), &out);
            for (int i = 0; i < out.n; i++) {
                struct sockaddr_in to = {.sin_family = AF_INET,
                                         .sin_port = htons(out.to[i].port),
                                         .sin_addr.s_addr = htonl(out.to[i].ip)};
                sendto(fd, out.buf[i], out.len[i], MSG_DONTWAIT, (struct sockaddr *)&to, sizeof to);
            }
        }
        if (now - last_expire >= 1000) {
            co_expire(co, now);
            last_expire = now;
        }
        if (metrics) { /* a busy lock (a scrape copying) waits for the next wake */
            co_stats snap;
            co_get_stats(co, &snap);
            svc_http_publish(metrics, &snap, false, false);
        }
    }
    co_stats st;
    co_get_stats(co, &st);
    sv_logf(
        &lg, SV_LOG_INFO,
        "coordinator stopping: %llu datagrams, %llu bad, %llu rate-limited, %llu lookups (%llu missed), %llu "
        "relay credentials (%llu refused)",
        (unsigned long long)st.datagrams, (unsigned long long)st.bad, (unsigned long long)st.rate_limited,
        (unsigned long long)st.lookups, (unsigned long long)st.lookups_missed,
        (unsigned long long)st.turn_issued, (unsigned long long)st.turn_refused);
    svc_http_stop(metrics);
    close(fd);
    co_destroy(co);
    return 0;
}
