/*
 * work_clock.h - what a run of work cost, beside its wall time: the
 * process's CPU time (every thread), its involuntary context switches, the
 * host's steal time, and, where the host allows, user-space hardware
 * counts of cycles and instructions (perf_event_open).  For measuring one
 * build against another on a busy machine (src/tools/measure).
 */
#ifndef ORTKIT_UTIL_WORK_CLOCK_H
#define ORTKIT_UTIL_WORK_CLOCK_H

#include <stddef.h>

/* The hardware counters of this process, opened before its threads start
 * (they are inherited by the threads made later, and read summed). */
typedef struct ortkit__work_counters {
    int fd_cycles, fd_instructions; /* -1 when not counted */
    char source[160];               /* "perf: cycles, instructions (user space)", or why none */
} ortkit__work_counters;

/* One reading; differences of two readings are what a run cost. */
typedef struct ortkit__work_reading {
    double wall_s, cpu_s;        /* monotonic clock; this process's CPU time, all threads */
    double involuntary;          /* involuntary context switches, all threads */
    double steal_s;              /* the host's steal time, all CPUs (/proc/stat); 0 when unknown */
    double cycles, instructions; /* -1 when not counted */
} ortkit__work_reading;

/* Open the counters, or say why not: ORTKIT_MEASURE_COUNTERS=off forces
 * the fallback (tests, and hosts where counting is unwelcome); so do
 * /proc/sys/kernel/perf_event_paranoid above 2, or a kernel or hypervisor
 * without hardware counters.  Never fails: without counters, CPU time is
 * what is left. */
void ortkit__work_counters_open(ortkit__work_counters *c);
void ortkit__work_counters_close(ortkit__work_counters *c);

/* perf_event_paranoid's value; 99 when it cannot be read. */
int ortkit__perf_paranoid(void);

/* The steal time in /proc/stat-formatted text (its "cpu" line), seconds;
 * -1 when absent. */
double ortkit__steal_parse(const char *text, long ticks_per_second);

/* Read everything now (counters may be NULL); end: 0 before the work, 1
 * after it. */
void ortkit__work_read(const ortkit__work_counters *c, ortkit__work_reading *r, int end);

#endif
