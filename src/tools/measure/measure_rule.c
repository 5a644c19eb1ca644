/* measure_rule.c - medians and the sign test (measure_rule.h). */
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

double ortkit__measure_sign_p(size_t wins, size_t n)
{
    if (wins == 0 || n == 0)
        return 1;
    if (wins > n)
        return 0;
    /* Summed in logarithms: C(n, k) / 2^n underflows nothing for any n. */
    double p = 0, log_half_n = (double)n * log(0.5);
    for (size_t k = wins; k <= n; k++)
        p += exp(lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) +
                 log_half_n);
    return p > 1 ? 1 : p;
}

int ortkit__measure_clear(size_t wins, size_t n)
{
    return ortkit__measure_sign_p(wins, n) <= ORTKIT__MEASURE_ALPHA;
}

ortkit__measure_verdict ortkit__measure_judge(const double *ratio, size_t n, double *median)
{
    *median = ortkit__measure_median(ratio, n);
    size_t slower = 0, below = 0, above = 0;
    for (size_t k = 0; k < n; k++) {
        slower += ratio[k] > 1;
        below += ratio[k] < 1 + ORTKIT__MEASURE_MARGIN;
        above += ratio[k] > 1 / (1 + ORTKIT__MEASURE_MARGIN);
    }
    if (ortkit__measure_clear(slower, n) && *median >= 1 + ORTKIT__MEASURE_MARGIN)
        return ORTKIT__MEASURE_SLOWER;
    /* Two one-sided tests: the ratio lies below 1 + margin, and above its
     * inverse, each with the rule's confidence. */
    if (ortkit__measure_clear(below, n) && ortkit__measure_clear(above, n))
        return ORTKIT__MEASURE_ALIKE;
    return ORTKIT__MEASURE_OPEN;
}
