/* bench_common.h - what the raw-API benchmarks share: a clock, a sort order
 * for latencies, and stopping on an ORT error.  Header-only. */
#ifndef ORTKIT_BENCH_COMMON_H
#define ORTKIT_BENCH_COMMON_H

#include <onnxruntime_c_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* qsort order for doubles. */
static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Stop the program with ORT's message when st is an error. */
static inline void bench_check(const char *prog, const OrtApi *api, OrtStatus *st, const char *what)
{
    if (!st)
        return;
    fprintf(stderr, "%s: %s: %s\n", prog, what, api->GetErrorMessage(st));
    exit(1);
}

#endif
