/* measure_rule.c - medians and the bounds over generations (measure_rule.h). */
#include "measure_rule.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double ortkit__measure_median(const double *x, size_t n)
{
    if (n == 0)
        return 0;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return NAN;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, ascending);
    double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    free(s);
    return m;
}

double ortkit__measure_t99(size_t df)
{
    static const double t[31] = {0,     31.821, 6.965, 4.541, 3.747, 3.365, 3.143, 2.998,
                                 2.896, 2.821,  2.764, 2.718, 2.681, 2.650, 2.624, 2.602,
                                 2.583, 2.567,  2.552, 2.539, 2.528, 2.518, 2.508, 2.500,
                                 2.492, 2.485,  2.479, 2.473, 2.467, 2.462, 2.457};
    if (df == 0)
        return INFINITY;
    return t[df < 30 ? df : 30];
}

/* The generations trimmed at each end: a tenth, from ten generations on. */
static size_t trimmed(size_t n) { return n / ORTKIT__MEASURE_TRIM_PER; }

ortkit__measure_verdict ortkit__measure_judge_generations(const double *gen, size_t g, double least_var,
                                                          double *estimate, double *resolution)
{
    double *y = malloc((g ? g : 1) * sizeof *y);
    size_t n = 0;
    for (size_t i = 0; y && i < g; i++)
        if (gen[i] > 0 && isfinite(gen[i]))
            y[n++] = log(gen[i]);
    *estimate = 0;
    *resolution = INFINITY;
    if (!y || n == 0) {
        free(y);
        return ORTKIT__MEASURE_OPEN;
    }
    qsort(y, n, sizeof *y, ascending);
    /* Yuen's bound: the trimmed mean, and the spread of the winsorized
     * values (those trimmed set to the nearest kept) over the h kept. */
    size_t t = trimmed(n), h = n - 2 * t;
    double mean = 0;
    for (size_t i = t; i < n - t; i++)
        mean += y[i] / (double)h;
    *estimate = exp(mean);
    if (n < ORTKIT__MEASURE_MIN_GENERATIONS) {
        free(y);
        return ORTKIT__MEASURE_OPEN;
    }
    /* Two passes: the spread, not a difference of large sums. */
    double wmean = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        wmean += y[i < t ? t : i >= n - t ? n - t - 1 : i] / (double)n;
    for (size_t i = 0; i < n; i++) {
        double d = y[i < t ? t : i >= n - t ? n - t - 1 : i] - wmean;
        ss += d * d;
    }
    free(y);
    double se2 = ss / ((double)h * (double)(h - 1)), least = least_var / (double)h;
    double half = ortkit__measure_t99(h - 1) * sqrt(se2 > least ? se2 : least);
    double lo = exp(mean - half), hi = exp(mean + half);
    /* What would be told apart: a difference beyond the floor by the bounds' half-width. */
    *resolution = (1 + ORTKIT__MEASURE_FLOOR) * exp(half) - 1;
    if (lo > 1 + ORTKIT__MEASURE_FLOOR)
        return ORTKIT__MEASURE_SLOWER;
    if (hi < 1 + ORTKIT__MEASURE_MARGIN && lo > 1 / (1 + ORTKIT__MEASURE_MARGIN))
        return ORTKIT__MEASURE_ALIKE;
    return ORTKIT__MEASURE_OPEN;
}
