/* bench.c: timing loops and statistics shared by the per-kind benches. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "util.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_stats_of(double *s, int n, bench_stats *st)
{
    st->n = n;
    st->mean = st->median = st->p99 = st->max = 0;
    if (n <= 0)
        return;
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += s[i];
    st->mean = sum / n;
    st->median = s[n / 2];
    int i99 = (int)((n - 1) * 0.99 + 0.5);
    st->p99 = s[i99];
    st->max = s[n - 1];
}

double bench_cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

bench_stats bench_generate(const bench_opts *o, const pz_params *p)
{
    const pz_kind *k = pz_kind_by_id(p->kind);
    int count = o->quick ? (o->count < 50 ? o->count : 50) : o->count;
    double *samples = mr_alloc((size_t)count, sizeof *samples);
    double *cpu = mr_alloc((size_t)count, sizeof *cpu);
    int n = 0, fails = 0;
    uint64_t t_end = mr_now_us() + (uint64_t)(o->max_seconds * 1e6);
    for (int i = 0; i < count; i++) {
        const char *err = NULL;
        pz_grade g;
        uint64_t t0 = mr_now_us();
        double c0 = bench_cpu_us();
        pz_puzzle *pz = k->generate(p, (uint64_t)i + 1, &err);
        if (pz)
            k->grade(pz, &g);
        double c1 = bench_cpu_us();
        uint64_t t1 = mr_now_us();
        if (!pz)
            fails++;
        k->free_puzzle(pz);
        cpu[n] = c1 - c0;
        samples[n++] = (double)(t1 - t0);
        if (t1 > t_end)
            break;
    }
    bench_stats st;
    bench_stats_of(samples, n, &st);
    printf("  %-6s %5dx%-5d %-6s  median %9.1f us  p99 %9.1f us  mean %9.1f us  (n=%d, fails=%d)\n", k->name,
           p->w, p->h, pz_difficulty_name(p->diff), st.median, st.p99, st.mean, n, fails);
    printf("RESULT gen %s_%dx%d_%s median_us=%.2f p99_us=%.2f mean_us=%.2f max_us=%.2f n=%d fails=%d\n",
           k->name, p->w, p->h, pz_difficulty_name(p->diff), st.median, st.p99, st.mean, st.max, n, fails);
    bench_stats sc;
    bench_stats_of(cpu, n, &sc);
    printf("RESULT gen_cpu %s_%dx%d_%s median_us=%.2f p99_us=%.2f mean_us=%.2f max_us=%.2f n=%d\n", k->name,
           p->w, p->h, pz_difficulty_name(p->diff), sc.median, sc.p99, sc.mean, sc.max, n);
    free(cpu);
    free(samples);
    return st;
}
