/* util_stats.h - statistics (stats.c). */
#ifndef ORTKIT_UTIL_STATS_H
#define ORTKIT_UTIL_STATS_H

#include "util_base.h"

typedef struct ortkit__stats {
    size_t n;
    double min, mean, stddev, max;
    double p50, p90, p95, p99;
} ortkit__stats;

/* Sort ascending, in place. */
void ortkit__stats_sort(double *v, size_t n);
/*
 * The p-th quantile (p in [0, 1]) of sorted data, interpolated linearly
 * between the two nearest ranks (numpy's default), so p50 of an even count is
 * the mean of the middle two.  NAN when n is 0.
 */
double ortkit__stats_percentile(const double *sorted, size_t n, double p);
/* Every figure of *out from samples, which are sorted in place.  Zeros when n is 0.
 * stddev is the sample standard deviation (n - 1); 0 for one sample. */
void ortkit__stats_compute(ortkit__stats *out, double *samples, size_t n);
/*
 * Count samples into `bins` equal-width bins over [lo, hi).  Samples below lo
 * go to the first bin; samples at or above hi are counted in *above, or in
 * the last bin when above is NULL.  When hi <= lo everything lands in the
 * first bin.  Returns the largest bin count.
 */
size_t ortkit__stats_histogram(const double *sorted, size_t n, double lo, double hi,
                               size_t *counts, size_t bins, size_t *above);

#endif
