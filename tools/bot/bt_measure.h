/* bt_measure.h: what the network bench reads: process CPU time, kernel UDP drops, percentiles. */
#ifndef MR_BT_MEASURE_H
#define MR_BT_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CPU seconds (user + system, every thread) of process pid, to the
 * nanosecond from its CPU-time clock (clock_getcpuclockid; /proc/PID/stat's
 * 10 ms ticks if that clock cannot be read), or -1. */
double bt_proc_cpu_s(int pid);
/* CPU seconds of this process (all threads). */
double bt_self_cpu_s(void);
/* Datagrams the kernel dropped on the UDP socket bound to local port
 * (/proc/net/udp, IPv4), summed over sockets on that port; -1 if none. */
long bt_udp_drops(int port);
/* The machine's CPU time so far from /proc/stat, in clock ticks, all CPUs:
 * total, and steal (time a virtual CPU was ready to run but the hypervisor
 * ran something else). Returns false if /proc/stat cannot be read. */
typedef struct bt_cpu_ticks {
    unsigned long long total, steal;
} bt_cpu_ticks;
bool bt_machine_ticks(bt_cpu_ticks *out);
/* Steal as a percentage of all CPU time between a and b; -1 if unknown. */
double bt_steal_pct(const bt_cpu_ticks *a, const bt_cpu_ticks *b);
/* Sorts v (n values) and returns the p-quantile (0..1) the way enet_echo
 * does (nearest rank on n - 1); 0 for n == 0. */
uint32_t bt_quantile(uint32_t *v, size_t n, double p, int sorted);

#endif
