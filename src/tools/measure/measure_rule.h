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
/* The smallest difference worth overturning the declared order for: a
 * candidate is clearly slower only when its rounds' p50s are, at the
 * median, at least this much above the fastest's (0.03: 3%); within it
 * both ways, the two are alike and the declared order chooses. */
#define ORTKIT__MEASURE_MARGIN 0.03

/* What the rounds both ran say of a candidate against the fastest. */
typedef enum ortkit__measure_verdict {
    ORTKIT__MEASURE_OPEN = 0,  /* not yet told */
    ORTKIT__MEASURE_SLOWER,    /* slower in enough rounds (sign test), by at least the margin */
    ORTKIT__MEASURE_ALIKE      /* within the margin both ways, in enough rounds */
} ortkit__measure_verdict;

/* ratio[0..n): for each round both ran, the other's block median over the
 * fastest's.  *median gets their median. */
ortkit__measure_verdict ortkit__measure_judge(const double *ratio, size_t n, double *median);

/* The median of x[0..n) (the mean of the two middle values for an even n);
 * x is left as it was.  0 for n 0; NAN when memory runs out. */
double ortkit__measure_median(const double *x, size_t n);

/* P(X >= wins) for X ~ Binomial(n, 1/2): how often a fair coin wins at
 * least wins of n rounds.  1 for n 0. */
double ortkit__measure_sign_p(size_t wins, size_t n);

/* Is wins of n rounds clear by the rule (sign_p <= ORTKIT__MEASURE_ALPHA)? */
int ortkit__measure_clear(size_t wins, size_t n);

#endif
