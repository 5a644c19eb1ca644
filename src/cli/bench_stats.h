/*
 * bench_stats.h - latency statistics for `ortkit bench`.
 *
 * Pure functions over arrays of seconds: no I/O, no runtime, so the unit
 * test can check them on known data.
 */
#ifndef ORTKIT_CLI_BENCH_STATS_H
#define ORTKIT_CLI_BENCH_STATS_H

#include <stddef.h>

typedef struct bench_stats {
    size_t n;
    double min, mean, stddev, max;
    double p50, p90, p95, p99;
} bench_stats;

/* Sort ascending, in place. */
void bench_sort(double *v, size_t n);

/*
 * The p-th quantile (p in [0, 1]) of sorted data, interpolated linearly
 * between the two nearest ranks (numpy's default), so p50 of an even count is
 * the mean of the middle two.  NAN when n is 0.
 */
double bench_percentile(const double *sorted, size_t n, double p);

/* Every figure of *out from samples, which are sorted in place.  Zeros when n is 0.
 * stddev is the sample standard deviation (n - 1); 0 for one sample. */
void bench_stats_compute(bench_stats *out, double *samples, size_t n);

/*
 * Count samples into `bins` equal-width bins over [lo, hi).  Samples below lo
 * go to the first bin; samples at or above hi are counted in *above, or in
 * the last bin when above is NULL.  When hi <= lo everything lands in the
 * first bin.  Returns the largest bin count.
 */
size_t bench_histogram(const double *sorted, size_t n, double lo, double hi, size_t *counts,
                       size_t bins, size_t *above);

#endif
