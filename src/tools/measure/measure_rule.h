/*
 * measure_rule.h - the statistics of choosing by measurement (measure.c):
 * medians, and the bounds over generations of processes that say when the
 * fastest candidate is clearly faster than another.  Not installed.
 */
#ifndef ORTKIT_MEASURE_RULE_H
#define ORTKIT_MEASURE_RULE_H

#include <stddef.h>

/* The significance of the rule: each bound holds 99 times in 100 (ortkit__measure_t99). */
#define ORTKIT__MEASURE_ALPHA 0.01
/* The difference a candidate must be surely beyond to be called slower
 * (0.01: 1%): below it, what sets two processes or two copies of one build
 * apart (where their memory, and the library's pages in the page cache,
 * landed) can outweigh what sets two builds apart. */
#define ORTKIT__MEASURE_FLOOR 0.01
/* Alike: the confidence bounds of the ratio lie within this both ways
 * (0.02: 2%); the declared order then chooses. */
#define ORTKIT__MEASURE_MARGIN 0.02
/* A difference found before the budget ends stops the measurement only once
 * its resolution is this fine (0.01: 1%); otherwise the budget is spent and
 * the verdict comes from all of it. */
#define ORTKIT__MEASURE_STOP 0.01
/* ... and only after this many generations: three that agree by chance
 * are not rare when a measurement looks after every one. */
#define ORTKIT__MEASURE_STOP_GENERATIONS 6

/* What the generations say of a candidate against the fastest. */
typedef enum ortkit__measure_verdict {
    ORTKIT__MEASURE_OPEN = 0,  /* not yet told */
    ORTKIT__MEASURE_SLOWER,    /* the lower confidence bound is above 1 + the floor */
    ORTKIT__MEASURE_ALIKE      /* both confidence bounds within the margin */
} ortkit__measure_verdict;

/* Generations of processes needed before any verdict, and the rounds one
 * generation runs at least. */
#define ORTKIT__MEASURE_MIN_GENERATIONS 3
#define ORTKIT__MEASURE_GEN_ROUNDS 2

/* The one-sided 99% quantile of Student's t with df degrees of freedom
 * (df >= 1; beyond 30, 30's: a little wide, never narrow). */
double ortkit__measure_t99(size_t df);

/* One generation in this many is trimmed at each end (10: a tenth, so from
 * ten generations on): a generation that a neighbour's burst of work
 * slowed for one candidate only (the processes of a generation share a
 * few tenths of a second) is an outlier the plain mean would follow. */
#define ORTKIT__MEASURE_TRIM_PER 10

/* The verdict over generations of processes: gen[0..g), each generation's
 * median ratio of the other's figure over the fastest's.  A process pair
 * carries a bias of its own (where its memory landed), which its rounds
 * share: the generation, not the round, is the unit that replicates.  The
 * bounds are Yuen's for the trimmed mean of the log ratios: t-distributed
 * with h - 1 degrees of freedom (h generations kept), over the winsorized
 * spread, its variance never below least_var / h (least_var: what one
 * generation's own rounds imply).  Each holds 99 times in 100.  *estimate
 * is the trimmed mean's ratio, *resolution the smallest difference they
 * would tell apart, the floor plus the bounds' half-width (INFINITY with
 * fewer than ORTKIT__MEASURE_MIN_GENERATIONS).  Slower when the lower
 * bound is above 1 + the floor; alike when both bounds lie within the
 * margin. */
ortkit__measure_verdict ortkit__measure_judge_generations(const double *gen, size_t g, double least_var,
                                                          double *estimate, double *resolution);

/* The median of x[0..n) (the mean of the two middle values for an even n);
 * x is left as it was.  0 for n 0; NAN when memory runs out. */
double ortkit__measure_median(const double *x, size_t n);

#endif
