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

ortkit__measure_verdict ortkit__measure_judge_generations(const double *gen, size_t g, double least_var,
                                                          double *estimate, double *resolution)
{
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < g; i++) {
        if (gen[i] > 0 && isfinite(gen[i])) {
            sum += log(gen[i]);
            n++;
        }
    }
    *estimate = n ? exp(sum / (double)n) : 0;
    *resolution = INFINITY;
    if (n < ORTKIT__MEASURE_MIN_GENERATIONS)
        return ORTKIT__MEASURE_OPEN;
    /* Two passes: the spread, not a difference of large sums. */
    double mean = sum / (double)n, ss = 0;
    for (size_t i = 0; i < g; i++)
        if (gen[i] > 0 && isfinite(gen[i]))
            ss += (log(gen[i]) - mean) * (log(gen[i]) - mean);
    double var = ss / (double)(n - 1);
    var = var > least_var ? var : least_var;
    double half = ortkit__measure_t99(n - 1) * sqrt(var > 0 ? var : 0) / sqrt((double)n);
    double lo = exp(mean - half), hi = exp(mean + half);
    /* What would be told apart: a difference beyond the floor by the bounds' half-width. */
    *resolution = (1 + ORTKIT__MEASURE_FLOOR) * exp(half) - 1;
    if (lo > 1 + ORTKIT__MEASURE_FLOOR)
        return ORTKIT__MEASURE_SLOWER;
    if (hi < 1 + ORTKIT__MEASURE_MARGIN && lo > 1 / (1 + ORTKIT__MEASURE_MARGIN))
        return ORTKIT__MEASURE_ALIKE;
    return ORTKIT__MEASURE_OPEN;
}
