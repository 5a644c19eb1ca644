/* stats.c - percentiles, mean, spread and histograms (latencies, mostly). */
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

void ortkit__stats_sort(double *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, cmp_double);
}

double ortkit__stats_percentile(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return NAN;
    if (p <= 0)
        return sorted[0];
    if (p >= 1)
        return sorted[n - 1];
    double pos = p * (double)(n - 1);
    size_t lo = (size_t)pos;
    double frac = pos - (double)lo;
    if (lo + 1 >= n)
        return sorted[n - 1];
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

void ortkit__stats_compute(ortkit__stats *out, double *samples, size_t n)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return;
    ortkit__stats_sort(samples, n);
    /* Two passes: the mean first, then squared deviations from it, which
     * keeps the variance exact for latencies that differ only slightly. */
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += samples[i];
    double mean = sum / (double)n, sq = 0;
    for (size_t i = 0; i < n; i++)
        sq += (samples[i] - mean) * (samples[i] - mean);
    out->n = n;
    out->min = samples[0];
    out->max = samples[n - 1];
    out->mean = mean;
    out->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
    out->p50 = ortkit__stats_percentile(samples, n, 0.50);
    out->p90 = ortkit__stats_percentile(samples, n, 0.90);
    out->p95 = ortkit__stats_percentile(samples, n, 0.95);
    out->p99 = ortkit__stats_percentile(samples, n, 0.99);
}

size_t ortkit__stats_histogram(const double *sorted, size_t n, double lo, double hi,
                               size_t *counts, size_t bins, size_t *above)
{
    size_t peak = 0;
    if (above)
        *above = 0;
    if (!bins)
        return 0;
    memset(counts, 0, bins * sizeof *counts);
    double width = (hi - lo) / (double)bins;
    for (size_t i = 0; i < n; i++) {
        double v = sorted[i];
        size_t b = 0;
        if (!(width > 0)) {
            b = 0; /* an empty range: one bin holds everything */
        } else if (v >= hi) {
            if (above) {
                (*above)++;
                continue;
            }
            b = bins - 1;
        } else if (v > lo) {
            b = (size_t)((v - lo) / width);
            if (b >= bins) /* rounding just below hi */
                b = bins - 1;
        }
        if (++counts[b] > peak)
            peak = counts[b];
    }
    return peak;
}
