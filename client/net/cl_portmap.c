/* cl_portmap.c: UPnP-IGD (libminiupnpc) and NAT-PMP (libnatpmp) port mapping on a thread; see cl_portmap.h.
 */
#include "cl_portmap.h"

#include <arpa/inet.h>
#include <errno.h>
#include <natpmp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>

#include <miniupnpc/miniupnpc.h>
#include <miniupnpc/upnpcommands.h>
#include <miniupnpc/upnperrors.h>

#include "worker.h"
#include "util.h"

#define LEASE_S 3600

struct cl_portmap {
    cl_portmap_cfg cfg;
    char desc[64];
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;
    int state, how;
    stun_addr external;
    char err[256];
    /* UPnP: the IGD's control URL kept for renewal and removal. */
    struct UPNPUrls urls;
    struct IGDdatas data;
    char lanaddr[64];
    bool have_urls, permanent;
    natpmp_t natpmp;
    bool have_natpmp;
};

/* Adds what was tried and why it failed to the error text. */
static void note(cl_portmap_t *pm, const char *what)
{
    size_t n = strlen(pm->err);
    snprintf(pm->err + n, sizeof pm->err - n, "%s%s", n ? "; " : "", what);
}

static bool upnp_add(cl_portmap_t *pm, bool permanent)
{
    char port[8];
    snprintf(port, sizeof port, "%u", pm->cfg.port);
    int r = UPNP_AddPortMapping(pm->urls.controlURL, pm->data.first.servicetype, port, port, pm->lanaddr,
                                pm->desc, "UDP", NULL, permanent ? "0" : "3600");
    if (r == 0)
        pm->permanent = permanent;
    return r == 0 ? true : (!permanent && r == 725 /* OnlyPermanentLeasesSupported */ && upnp_add(pm, true));
}

static bool try_upnp(cl_portmap_t *pm)
{
    int error = 0;
    struct UPNPDev *devs = upnpDiscover(pm->cfg.discover_ms, NULL, NULL, 0, 0, 2, &error);
    if (!devs) {
        char t[80];
        snprintf(t, sizeof t, "UPnP-IGD: no device answered the discovery in %d ms", pm->cfg.discover_ms);
        note(pm, t);
        return false;
    }
    int r = UPNP_GetValidIGD(devs, &pm->urls, &pm->data, pm->lanaddr, sizeof pm->lanaddr);
    freeUPNPDevlist(devs);
    if (r != 1) {
        if (r != 0)
            FreeUPNPUrls(&pm->urls);
        note(pm, r == 0   ? "UPnP-IGD: no IGD found"
                 : r == 2 ? "UPnP-IGD: the IGD is not connected"
                          : "UPnP-IGD: no IGD among the devices found");
        return false;
    }
    pm->have_urls = true;
    char ext[40] = "";
    struct in_addr ia;
    if (UPNP_GetExternalIPAddress(pm->urls.controlURL, pm->data.first.servicetype, ext) != 0 ||
        inet_pton(AF_INET, ext, &ia) != 1) {
        note(pm, "UPnP-IGD: the router gave no external address");
        return false;
    }
    if (!upnp_add(pm, false)) {
        note(pm, "UPnP-IGD: the router refused AddPortMapping");
        return false;
    }
    pm->external.ip = ntohl(ia.s_addr);
    pm->external.port = pm->cfg.port;
    pm->how = CL_PORTMAP_UPNP;
    return true;
}

/* One NAT-PMP request already sent: waits for its answer, libnatpmp
 * retransmitting, until deadline. */
static int natpmp_wait(cl_portmap_t *pm, natpmpresp_t *resp, int ms)
{
    uint64_t deadline = mr_now_us() / 1000u + (uint64_t)ms;
    for (;;) {
        fd_set fds;
        FD_ZERO(&fds);
        FD_SET(pm->natpmp.s, &fds);
        struct timeval tv;
        getnatpmprequesttimeout(&pm->natpmp, &tv);
        uint64_t now = mr_now_us() / 1000u;
        if (now >= deadline)
            return NATPMP_TRYAGAIN;
        uint64_t left = deadline - now;
        if ((uint64_t)tv.tv_sec * 1000u + (uint64_t)tv.tv_usec / 1000u > left) {
            tv.tv_sec = (time_t)(left / 1000u);
            tv.tv_usec = (suseconds_t)(left % 1000u * 1000u);
        }
        select(pm->natpmp.s + 1, &fds, NULL, NULL, &tv);
        int r = readnatpmpresponseorretry(&pm->natpmp, resp);
        if (r != NATPMP_TRYAGAIN)
            return r;
    }
}

static bool natpmp_map(cl_portmap_t *pm, uint32_t lifetime, natpmpresp_t *resp)
{
    return sendnewportmappingrequest(&pm->natpmp, NATPMP_PROTOCOL_UDP, pm->cfg.port, pm->cfg.port,
                                     lifetime) >= 0 &&
           natpmp_wait(pm, resp, pm->cfg.natpmp_ms) >= 0 && resp->type == NATPMP_RESPTYPE_UDPPORTMAPPING;
}

static bool try_natpmp(cl_portmap_t *pm)
{
    if (initnatpmp(&pm->natpmp, 0, 0) < 0) {
        note(pm, "NAT-PMP: no default gateway");
        return false;
    }
    pm->have_natpmp = true;
    char gw[INET_ADDRSTRLEN] = "?";
    struct in_addr g = {pm->natpmp.gateway};
    inet_ntop(AF_INET, &g, gw, sizeof gw);
    natpmpresp_t resp;
    if (sendpublicaddressrequest(&pm->natpmp) < 0 || natpmp_wait(pm, &resp, pm->cfg.natpmp_ms) < 0 ||
        resp.type != NATPMP_RESPTYPE_PUBLICADDRESS) {
        char t[80];
        snprintf(t, sizeof t, "NAT-PMP: no answer from the gateway %s", gw);
        note(pm, t);
        return false;
    }
    uint32_t ip = ntohl(resp.pnu.publicaddress.addr.s_addr);
    if (!natpmp_map(pm, LEASE_S, &resp)) {
        char t[80];
        snprintf(t, sizeof t, "NAT-PMP: the gateway %s refused the mapping", gw);
        note(pm, t);
        return false;
    }
    pm->external.ip = ip;
    pm->external.port = resp.pnu.newportmapping.mappedpublicport;
    pm->how = CL_PORTMAP_NATPMP;
    return true;
}

/* Waits until stop or ms pass; true if asked to stop. Called with mu held. */
static bool wait_stop(cl_portmap_t *pm, int ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    while (!pm->stop && pthread_cond_timedwait(&pm->cv, &pm->mu, &until) != ETIMEDOUT) {
    }
    return pm->stop;
}

static void *run(void *arg)
{
    cl_portmap_t *pm = arg;
    bool ok = (!pm->cfg.no_upnp && try_upnp(pm)) || (!pm->cfg.no_natpmp && try_natpmp(pm));
    pthread_mutex_lock(&pm->mu);
    pm->state = ok ? CL_PORTMAP_MAPPED : CL_PORTMAP_FAILED;
    /* Renew at half the lease until told to stop. */
    while (ok && !(pm->how == CL_PORTMAP_UPNP && pm->permanent) && !wait_stop(pm, LEASE_S / 2 * 1000)) {
        pthread_mutex_unlock(&pm->mu);
        natpmpresp_t resp;
        if (pm->how == CL_PORTMAP_UPNP)
            upnp_add(pm, false);
        else
            natpmp_map(pm, LEASE_S, &resp);
        pthread_mutex_lock(&pm->mu);
    }
    pthread_mutex_unlock(&pm->mu);
    return NULL;
}

cl_portmap_t *cl_portmap_create(const cl_portmap_cfg *cfg, const char **err)
{
    if (cfg->port == 0 || cfg->discover_ms < 0 || cfg->discover_ms > 10000 || cfg->natpmp_ms < 0 ||
        cfg->natpmp_ms > 10000 || (cfg->no_upnp && cfg->no_natpmp)) {
        *err = "port mapping needs a port, waits of at most 10000 ms and UPnP or NAT-PMP";
        return NULL;
    }
    cl_portmap_t *pm = mr_alloc(1, sizeof *pm);
    pm->cfg = *cfg;
    if (!pm->cfg.discover_ms)
        pm->cfg.discover_ms = 2000;
    if (!pm->cfg.natpmp_ms)
        pm->cfg.natpmp_ms = 2000;
    snprintf(pm->desc, sizeof pm->desc, "%s", cfg->desc ? cfg->desc : "mazerace");
    pm->cfg.desc = pm->desc;
    pthread_mutex_init(&pm->mu, NULL);
    pthread_cond_init(&pm->cv, NULL);
    if (pthread_create(&pm->thread, NULL, run, pm) != 0) {
        pthread_mutex_destroy(&pm->mu);
        pthread_cond_destroy(&pm->cv);
        free(pm);
        *err = "cannot start the port-mapping thread";
        return NULL;
    }
    return pm;
}

void cl_portmap_destroy(cl_portmap_t *pm)
{
    if (!pm)
        return;
    mr_worker_tell_stop(&pm->mu, &pm->cv, &pm->stop);
    pthread_join(pm->thread, NULL);
    if (pm->state == CL_PORTMAP_MAPPED && pm->how == CL_PORTMAP_UPNP) {
        char port[8];
        snprintf(port, sizeof port, "%u", pm->cfg.port);
        UPNP_DeletePortMapping(pm->urls.controlURL, pm->data.first.servicetype, port, "UDP", NULL);
    } else if (pm->state == CL_PORTMAP_MAPPED && pm->how == CL_PORTMAP_NATPMP) {
        natpmpresp_t resp;
        natpmp_map(pm, 0, &resp); /* lifetime 0 removes it (RFC 6886 3.4) */
    }
    if (pm->have_urls)
        FreeUPNPUrls(&pm->urls);
    if (pm->have_natpmp)
        closenatpmp(&pm->natpmp);
    pthread_mutex_destroy(&pm->mu);
    pthread_cond_destroy(&pm->cv);
    free(pm);
}

int cl_portmap_state(cl_portmap_t *pm, stun_addr *external, int *how)
{
    pthread_mutex_lock(&pm->mu);
    int st = pm->state;
    if (st == CL_PORTMAP_MAPPED) {
        *external = pm->external;
        *how = pm->how;
    }
    pthread_mutex_unlock(&pm->mu);
    return st;
}

void cl_portmap_error(cl_portmap_t *pm, char *buf, size_t cap)
{
    pthread_mutex_lock(&pm->mu);
    snprintf(buf, cap, "%s", pm->state == CL_PORTMAP_FAILED ? pm->err : "");
    pthread_mutex_unlock(&pm->mu);
}

const char *cl_portmap_how_name(int how)
{
    return how == CL_PORTMAP_UPNP ? "UPnP-IGD" : how == CL_PORTMAP_NATPMP ? "NAT-PMP" : "none";
}
