/*
 * measure_rule.h - the statistics of choosing by measurement (measure.c):
 * medians, and the one-sided sign test that says when the fastest candidate
 * is clearly faster than another over the rounds both ran.  Not installed.
 */
#ifndef ORTKIT_MEASURE_RULE_H
#define ORTKIT_MEASURE_RULE_H

#include <stddef.h>

/* The significance of the rule: a fair coin would do as well at most this often. */
#define ORTKIT__MEASURE_ALPHA 0.01

/* The median of x[0..n) (the mean of the two middle values for an even n);
 * x is left as it was.  0 for n 0; NAN when memory runs out. */
double ortkit__measure_median(const double *x, size_t n);

/* P(X >= wins) for X ~ Binomial(n, 1/2): how often a fair coin wins at
 * least wins of n rounds.  1 for n 0. */
double ortkit__measure_sign_p(size_t wins, size_t n);

/* Is wins of n rounds clear by the rule (sign_p <= ORTKIT__MEASURE_ALPHA)? */
int ortkit__measure_clear(size_t wins, size_t n);

#endif
