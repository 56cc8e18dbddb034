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
#include "sv.h"
#include "sv_log.h"
#include "sv_opts.h"
#include "util.h"

typedef struct co_args {
    co_config co;
    char bind[16];
    int port;
    int log_level, log_format;
} co_args;

#define F(field) offsetof(co_args, field)

/* The settings: flag, value placeholder, the int field, range, help. The
 * custom ones (addresses, secret file, log) are read in set_custom. */
static const struct opt {
    const char *flag, *arg;
    size_t off; /* SIZE_MAX: custom */
    long lo, hi;
    const char *help;
} opts[] = {
    {"--bind", "IPV4", SIZE_MAX, 0, 0, "address to listen on (default 0.0.0.0)"},
    {"--port", "N", F(port), 0, 65535, "UDP port (default 27920; 0 = any free port, printed)"},
    {"--host-ttl", "SEC", F(co.host_ttl_s), 5, 3600,
     "an invite code ends this long after its host's last refresh (60)"},
    {"--server-ttl", "SEC", F(co.server_ttl_s), 5, 3600,
     "a listed server disappears this long after its last refresh (90)"},
    {"--pair-ttl", "SEC", F(co.pair_ttl_s), 5, 3600,
     "an introduced pair may ask for relay credentials this long (120)"},
    {"--max-hosts", "N", F(co.max_hosts), 1, 1000000, "live invite codes (4096)"},
    {"--max-servers", "N", F(co.max_servers), 1, 100000, "listed servers (1024)"},
    {"--per-addr", "N", F(co.per_addr), 1, 1000, "live codes, and listed servers, per IPv4 address (4)"},
    {"--rate", "N", F(co.rate), 1, 100000, "datagrams per second per address, sustained (20)"},
    {"--burst", "N", F(co.burst), 1, 100000, "datagrams per address in a burst (40)"},
    {"--lookup-interval", "MS", F(co.lookup_rate_ms), 1, 3600000,
     "one code lookup per MS per address, sustained (2000)"},
    {"--lookup-burst", "N", F(co.lookup_burst), 1, 1000, "code lookups per address in a burst (10)"},
    {"--turn-server", "IPV4:PORT", SIZE_MAX, 0, 0, "the TURN server (coturn) credentials are for"},
    {"--turn-secret-file", "PATH", SIZE_MAX, 0, 0,
     "file holding coturn's static-auth-secret (no TURN without)"},
    {"--turn-ttl", "SEC", F(co.turn_ttl_s), 60, 86400, "relay credentials' lifetime (3600)"},
    {"--log-level", "L", SIZE_MAX, 0, 0, "off, error, warn, info or debug (info)"},
};

static const char *set_custom(co_args *a, const char *flag, const char *v)
{
    if (strcmp(flag, "--bind") == 0) {
        struct in_addr x;
        if (strlen(v) >= sizeof a->bind || inet_pton(AF_INET, v, &x) != 1)
            return "is not an IPv4 address";
        strcpy(a->bind, v);
    } else if (strcmp(flag, "--turn-server") == 0) {
        char ip[16];
        int port;
        struct in_addr x;
        const char *why = sv_opt_parse_hostport(v, ip, &port);
        if (why)
            return why;
        inet_pton(AF_INET, ip, &x);
        a->co.turn.ip = ntohl(x.s_addr);
        a->co.turn.port = (uint16_t)port;
    } else if (strcmp(flag, "--turn-secret-file") == 0) {
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
        if (!ok)
            return "holds no secret (1..128 bytes)";
    } else {
        a->log_level = sv_log_level_by_name(v);
        if (a->log_level < 0)
            return "is not off, error, warn, info or debug";
    }
    return NULL;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: mazerace-coordinator [options]\n"
               "Invite codes, introductions, relay credentials and the public server list\n"
               "for mazerace (docs/coordinator.md). One UDP socket.\n\n");
    for (size_t i = 0; i < MR_ARRAY_LEN(opts); i++)
        fprintf(f, "  %s %-10s %s\n", opts[i].flag, opts[i].arg, opts[i].help);
    fprintf(f, "  --help           this text\n  --version        version\n"
               "Prints \"listening on ADDR:PORT\" on stdout once ready. SIGTERM or SIGINT stops.\n");
}

/* 0: run; 1: printed and done; 2: error (message on stderr). */
static int parse(co_args *a, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 1;
        }
        if (strcmp(argv[i], "--version") == 0) {
            printf("mazerace-coordinator %s (coordinator protocol %d)\n", MR_VERSION, COORD_VERSION);
            return 1;
        }
        const struct opt *o = NULL;
        for (size_t k = 0; k < MR_ARRAY_LEN(opts); k++)
            if (strcmp(argv[i], opts[k].flag) == 0)
                o = &opts[k];
        if (!o) {
            fprintf(stderr, "mazerace-coordinator: unknown option '%s' (see --help)\n", argv[i]);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "mazerace-coordinator: option %s needs a value\n", o->flag);
            return 2;
        }
        const char *v = argv[++i], *why = NULL;
        long n;
        if (o->off == SIZE_MAX)
            why = set_custom(a, o->flag, v);
        else if (mr_parse_long(v, o->lo, o->hi, &n))
            *(int *)((char *)a + o->off) = (int)n;
        else
            why = "is out of range (see --help)";
        if (why) {
            fprintf(stderr, "mazerace-coordinator: %s: '%s' %s\n", o->flag, v, why);
            return 2;
        }
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
    co_args a = {.port = 27920, .log_level = SV_LOG_INFO, .log_format = SV_LOGFMT_AUTO};
    strcpy(a.bind, "0.0.0.0");
    co_config_defaults(&a.co);
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
    struct sigaction act = {.sa_handler = on_signal};
    sigaction(SIGTERM, &act, NULL);
    sigaction(SIGINT, &act, NULL);
    printf("listening on %s:%u\n", a.bind, (unsigned)ntohs(sa.sin_port));
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
    close(fd);
    co_destroy(co);
    return 0;
}
