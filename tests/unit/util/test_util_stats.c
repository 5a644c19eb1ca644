/*
 * test_util_stats.c - the statistics `ortkit bench` reports (src/util/stats.c)
 * on data with known answers (numpy's percentile, sample standard deviation).
 */
#include "testutil.h"

#include "util.h"

#include <math.h>

/* cmocka's assert_float_equal rounds to float, too coarse for seconds. */
#define assert_near(a, b, eps) check_near((a), (b), (eps), #a, __LINE__)

static void check_near(double got, double want, double eps, const char *expr, int line)
{
    if (!(fabs(got - want) <= eps))
        fail_msg("line %d: %s = %.17g, expected %.17g (within %g)", line, expr, got, want, eps);
}

static void test_percentiles(void **state)
{
    (void)state;
    double v[] = {4, 1, 3, 2};
    ortkit__stats_sort(v, 4);
    assert_true(v[0] == 1 && v[1] == 2 && v[2] == 3 && v[3] == 4);
    /* np.percentile([1, 2, 3, 4], [0, 50, 90, 100]) */
    assert_near(ortkit__stats_percentile(v, 4, 0.0), 1.0, 1e-12);
    assert_near(ortkit__stats_percentile(v, 4, 0.5), 2.5, 1e-12);
    assert_near(ortkit__stats_percentile(v, 4, 0.9), 3.7, 1e-12);
    assert_near(ortkit__stats_percentile(v, 4, 1.0), 4.0, 1e-12);
    assert_true(isnan(ortkit__stats_percentile(v, 0, 0.5)));
    /* One sample: every quantile is that sample. */
    assert_near(ortkit__stats_percentile(v, 1, 0.99), 1.0, 0);

    double hundred[100];
    for (int i = 0; i < 100; i++)
        hundred[99 - i] = i + 1; /* descending, so the sort matters */
    ortkit__stats st;
    ortkit__stats_compute(&st, hundred, 100);
    assert_int_equal(st.n, 100);
    assert_near(st.min, 1, 0);
    assert_near(st.max, 100, 0);
    assert_near(st.mean, 50.5, 1e-12);
    assert_near(st.p50, 50.5, 1e-12);
    assert_near(st.p90, 90.1, 1e-9);
    assert_near(st.p95, 95.05, 1e-9);
    assert_near(st.p99, 99.01, 1e-9);
    /* np.std(range(1, 101), ddof=1) */
    assert_near(st.stddev, 29.011491975882016, 1e-9);
}

static void test_small_and_empty(void **state)
{
    (void)state;
    ortkit__stats st;
    double one[] = {0.25};
    ortkit__stats_compute(&st, one, 1);
    assert_int_equal(st.n, 1);
    assert_near(st.stddev, 0, 0);
    assert_near(st.p99, 0.25, 0);
    assert_near(st.mean, 0.25, 0);
    ortkit__stats_compute(&st, one, 0);
    assert_int_equal(st.n, 0);
    assert_near(st.max, 0, 0);

    double four[] = {4, 1, 3, 2};
    ortkit__stats_compute(&st, four, 4);
    assert_near(st.stddev, sqrt(5.0 / 3.0), 1e-12);
}

static void test_stddev_is_exact_far_from_zero(void **state)
{
    (void)state;
    /* Latencies in seconds differ in their last digits; a one-pass sum of
     * squares would lose them.  Here the spread is exactly 1e-9. */
    double v[] = {1.000000001, 1.000000002, 1.000000003};
    ortkit__stats st;
    ortkit__stats_compute(&st, v, 3);
    assert_near(st.stddev, 1e-9, 1e-15);
    assert_near(st.p50, 1.000000002, 1e-15);
}

static void test_histogram(void **state)
{
    (void)state;
    double v[10];
    for (int i = 0; i < 10; i++)
        v[i] = i + 0.5;
    size_t counts[10], above = 99;
    assert_int_equal(ortkit__stats_histogram(v, 10, 0, 10, counts, 10, &above), 1);
    assert_int_equal(above, 0);
    for (int i = 0; i < 10; i++)
        assert_int_equal(counts[i], 1);

    /* [0, 5) in 5 bins: 5.5 .. 9.5 fall above the range. */
    size_t five[5];
    ortkit__stats_histogram(v, 10, 0, 5, five, 5, &above);
    assert_int_equal(above, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(five[i], 1);
    /* Without `above` they pile into the last bin. */
    assert_int_equal(ortkit__stats_histogram(v, 10, 0, 5, five, 5, NULL), 6);
    assert_int_equal(five[4], 6);

    /* Below lo: the first bin. */
    ortkit__stats_histogram(v, 10, 3, 13, counts, 10, &above);
    assert_int_equal(counts[0], 4); /* 0.5 1.5 2.5 3.5 */
    assert_int_equal(above, 0);

    /* An empty range (all samples equal): one bin holds them all. */
    double same[] = {2, 2, 2};
    assert_int_equal(ortkit__stats_histogram(same, 3, 2, 2, counts, 10, &above), 3);
    assert_int_equal(counts[0], 3);
    assert_int_equal(above, 0);
    assert_int_equal(ortkit__stats_histogram(same, 3, 0, 1, counts, 0, &above), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_percentiles),
        cmocka_unit_test(test_small_and_empty),
        cmocka_unit_test(test_stddev_is_exact_far_from_zero),
        cmocka_unit_test(test_histogram),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
