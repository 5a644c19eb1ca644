/* util_proc.h - signals (proc.c). */
#ifndef ORTKIT_UTIL_PROC_H
#define ORTKIT_UTIL_PROC_H

#include "util_base.h"

/* "SEGV" for SIGSEGV, NULL for a signal it does not know: a table rather
 * than sigabbrev_np(), which needs glibc 2.32 (ortkit runs on 2.31). */
const char *ortkit__signal_abbrev(int sig);

/* ---- time, memory, CPUs (clock.c, proc.c) ---------------------------------- */

/* Seconds on the monotonic clock. */
double ortkit__clock_now(void);

/* MemAvailable and MemTotal (bytes) from /proc/meminfo text; each is 0 when
 * missing, and ORTKIT_E_FORMAT is returned unless both were there. */
int ortkit__meminfo_parse(const char *text, uint64_t *available, uint64_t *total);
/* The same from this machine's /proc/meminfo (either pointer may be NULL). */
int ortkit__proc_meminfo(uint64_t *available, uint64_t *total);
/* This process's resident memory in bytes; 0 when unknown. */
uint64_t ortkit__proc_rss(void);
/* Online CPUs (at least 1). */
int ortkit__proc_cpus(void);

#endif
