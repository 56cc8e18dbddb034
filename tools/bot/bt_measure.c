/* bt_measure.c: process CPU, kernel UDP drop counters and percentiles for the network bench. */
#include "bt_measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* From /proc/PID/stat: in clock ticks (10 ms), too coarse for a quiet
 * server (at 40 moves a second, one tick is 25 us a move of a 10 s window). */
static double proc_stat_cpu_s(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* The command name (field 2) may hold spaces: count fields after its
     * closing parenthesis. utime and stime are fields 14 and 15. */
    char *p = strrchr(buf, ')');
    unsigned long ut, st;
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return -1;
    long hz = sysconf(_SC_CLK_TCK);
    return (double)(ut + st) / (double)(hz > 0 ? hz : 100);
}

double bt_proc_cpu_s(int pid)
{
    /* The process's CPU-time clock: every thread, user and system, to the
     * nanosecond (the kernel adds a running thread's time up to now), as
     * enet_echo reads its server thread's. */
    clockid_t id;
    struct timespec ts;
    if (pid > 0 && clock_getcpuclockid((pid_t)pid, &id) == 0 && clock_gettime(id, &ts) == 0)
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    return pid > 0 ? proc_stat_cpu_s(pid) : -1;
}

double bt_self_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

long bt_udp_drops(int port)
{
    FILE *f = fopen("/proc/net/udp", "r");
    if (!f)
        return -1;
    char line[512];
    long total = -1;
    unsigned n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned lport;
        long d;
        /* sl local rem st tx:rx tr:tm retr uid timeout inode ref ptr drops */
        if (n++ &&
            sscanf(line, " %*d: %*x:%x %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %ld", &lport, &d) == 2 &&
            (int)lport == port)
            total = (total < 0 ? 0 : total) + d;
    }
    fclose(f);
    return total;
}

bool bt_machine_ticks(bt_cpu_ticks *out)
{
    out->total = out->steal = 0;
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return false;
    /* cpu  user nice system idle iowait irq softirq steal guest guest_nice;
     * guest time is already counted in user and nice. */
    unsigned long long v[8];
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                   &v[6], &v[7]);
    fclose(f);
    if (n < 7)
        return false;
    for (int i = 0; i < n; i++)
        out->total += v[i];
    out->steal = n == 8 ? v[7] : 0;
    return true;
}

double bt_steal_pct(const bt_cpu_ticks *a, const bt_cpu_ticks *b)
{
    if (b->total <= a->total || b->steal < a->steal)
        return -1;
    return 100.0 * (double)(b->steal - a->steal) / (double)(b->total - a->total);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

uint32_t bt_quantile(uint32_t *v, size_t n, double p, int sorted)
{
    if (n == 0)
        return 0;
    if (!sorted)
        qsort(v, n, sizeof *v, cmp_u32);
    return v[(size_t)(p * (double)(n - 1) + 0.5)];
}
