/* work_clock.c - CPU time, context switches, steal time and hardware
 * counters of this process (work_clock.h). */
#include "work_clock.h"
#include "util.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int ortkit__perf_paranoid(void)
{
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    int v = 99;
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = 99;
        fclose(f);
    }
    return v;
}

static int open_counter(uint64_t config, int *err)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = config;
    a.exclude_kernel = 1; /* what paranoid 2 allows, and the runtime's own work */
    a.exclude_hv = 1;
    a.inherit = 1;        /* the intra-op threads started later count too */
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    *err = fd < 0 ? errno : 0;
    return fd;
}

void ortkit__work_counters_open(ortkit__work_counters *c)
{
    c->fd_cycles = c->fd_instructions = -1;
    const char *env = ortkit__env("ORTKIT_MEASURE_COUNTERS");
    int paranoid = ortkit__perf_paranoid();
    if (env && !strcmp(env, "off")) {
        snprintf(c->source, sizeof c->source, "none: ORTKIT_MEASURE_COUNTERS=off");
        return;
    }
    if (paranoid > 2) {
        snprintf(c->source, sizeof c->source, "none: perf_event_paranoid is %d (counting needs 2 or "
                 "less)", paranoid);
        return;
    }
    int err = 0;
    c->fd_cycles = open_counter(PERF_COUNT_HW_CPU_CYCLES, &err);
    if (c->fd_cycles >= 0)
        c->fd_instructions = open_counter(PERF_COUNT_HW_INSTRUCTIONS, &err);
    if (c->fd_cycles < 0 || c->fd_instructions < 0) {
        ortkit__work_counters_close(c);
        snprintf(c->source, sizeof c->source, "none: %s", err == ENOENT || err == EOPNOTSUPP
                 ? "no hardware counters on this host (a virtual machine without a PMU?)"
                 : strerror(err));
        return;
    }
    snprintf(c->source, sizeof c->source, "perf: cycles, instructions (user space)");
}

void ortkit__work_counters_close(ortkit__work_counters *c)
{
    if (c->fd_cycles >= 0)
        close(c->fd_cycles);
    if (c->fd_instructions >= 0)
        close(c->fd_instructions);
    c->fd_cycles = c->fd_instructions = -1;
}

double ortkit__steal_parse(const char *text, long ticks_per_second)
{
    /* cpu  user nice system idle iowait irq softirq steal ... */
    unsigned long long v[8];
    if (!text || strncmp(text, "cpu ", 4) || ticks_per_second <= 0)
        return -1;
    if (sscanf(text + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
               &v[4], &v[5], &v[6], &v[7]) != 8)
        return -1;
    return (double)v[7] / (double)ticks_per_second;
}

static double steal_now(void)
{
    char line[512];
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return 0;
    double s = fgets(line, sizeof line, f) ? ortkit__steal_parse(line, sysconf(_SC_CLK_TCK)) : -1;
    fclose(f);
    return s < 0 ? 0 : s;
}

static double counter(int fd)
{
    uint64_t v = 0;
    if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v)
        return -1;
    return (double)v;
}

static void read_cpu(ortkit__work_reading *r)
{
    struct timespec cpu;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    r->cpu_s = (double)cpu.tv_sec + (double)cpu.tv_nsec * 1e-9;
}

static void read_rest(const ortkit__work_counters *c, ortkit__work_reading *r)
{
    struct rusage ru;
    r->cycles = c ? counter(c->fd_cycles) : -1;
    r->instructions = c ? counter(c->fd_instructions) : -1;
    getrusage(RUSAGE_SELF, &ru);
    r->involuntary = (double)ru.ru_nivcsw;
    r->steal_s = steal_now();
}

/* The clocks are read nearest the work, the slower rest farther from it:
 * after it at the start, before it at the end. */
void ortkit__work_read(const ortkit__work_counters *c, ortkit__work_reading *r, int end)
{
    if (end) {
        r->wall_s = ortkit__clock_now();
        read_cpu(r);
        read_rest(c, r);
    } else {
        read_rest(c, r);
        read_cpu(r);
        r->wall_s = ortkit__clock_now();
    }
}
