/* main.c: mazerace-server, the dedicated server: command line, signals, and the service loop. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "sv.h"
#include "util.h"
#include "wire.h"

static sv_t *running;

static void on_stop(int sig)
{
    (void)sig;
    if (running)
        sv_request_stop(running);
}

static void on_stats(int sig)
{
    (void)sig;
    if (running)
        sv_request_stats(running);
}

static void install(int sig, void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

int main(int argc, char **argv)
{
    sv_config cfg;
    sv_config_defaults(&cfg);
    char err[256];
    switch (sv_cli_parse(&cfg, argc, argv, err, sizeof err)) {
    case SV_CLI_HELP:
        sv_cli_print_usage(stdout);
        return 0;
    case SV_CLI_VERSION:
        printf("mazerace-server %s (protocol %d)\n", MR_VERSION, WIRE_VERSION);
        return 0;
    case SV_CLI_ERROR:
        fprintf(stderr, "mazerace-server: %s\n", err);
        return 2;
    default:
        break;
    }
    const char *why = NULL;
    sv_t *sv = sv_create(&cfg, &why);
    if (!sv) {
        fprintf(stderr, "mazerace-server: %s\n", why ? why : "cannot start");
        return 1;
    }
    running = sv;
    install(SIGINT, on_stop);
    install(SIGTERM, on_stop);
    install(SIGUSR1, on_stats);
    signal(SIGPIPE, SIG_IGN);
    /* Parseable by tests and scripts (the port matters with --port 0). */
    printf("listening on %s:%u\n", sv_bind_text(sv), (unsigned)sv_port(sv));
    if (sv_discovery_port(sv))
        printf("discovery on %s:%u\n", sv_bind_text(sv), (unsigned)sv_discovery_port(sv));
    fflush(stdout);
    int rc = sv_run(sv);
    running = NULL;
    sv_destroy(sv);
    return rc;
}
