/*
 * test_measure.c - choosing by measurement: the rule (the sign test, when a
 * candidate is dropped, tied, clear), the comparison of outputs (a build
 * that answers differently is never chosen, however fast), and the memory
 * the runtime's search reads: its key (every part changes it), the
 * canonical sizes, the strict reading of an entry, and the entries it
 * refuses (corrupt, another key's, writable by others, another user's).
 * The timings here are numbers handed to the rule; the real runtimes are
 * measured in tests/cli/bundle_measure.t.
 */
#include "manifest_maker.h"
#include "measure_rule.h"
#include "measured.h"
#include "ortkit/tools/measure.h"
#include "scratch.h"
#include "work_clock.h"

#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

static ortkit_host *host;
static ortkit_bundle *bundles[3];

static int setup(void **state)
{
    (void)state;
    if (scratch_make("measure"))
        return -1;
    char cache[700];
    snprintf(cache, sizeof cache, "%s/cache", scratch);
    setenv("XDG_CACHE_HOME", cache, 1);
    if (ortkit_host_load(&host, ORTKIT_TEST_SOURCE_DIR "/tests/hosts/laptop-avx2.json"))
        return -1;
    bundles[0] = make_manifest("ort-new", "1.30.0", "cpu", "x86_64", NULL, 1);
    bundles[1] = make_manifest("ort-old", "1.17.3", "cpu", "x86_64", NULL, 1);
    bundles[2] = make_manifest("ort-avx2", "1.21.0", "cpu-avx2", "x86_64", NULL, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < 3; i++)
        ortkit_bundle_free(bundles[i]);
    ortkit_host_free(host);
    return scratch_remove();
}

/* The declared order's choice among the first n bundles. */
static ortkit_bundle_choice *choose(size_t n)
{
    ortkit_bundle_choice *c = NULL;
    assert_int_equal(ortkit_bundle_select(&c, host, (const ortkit_bundle *const *)bundles, n, NULL),
                     ORTKIT_OK);
    return c;
}

static ortkit_measure *open_measure(size_t n, const char *model, const char *shapes, int threads)
{
    ortkit_bundle_choice *c = choose(n);
    ortkit_measure *m = NULL;
    if (ortkit_measure_open(&m, host, (const ortkit_bundle *const *)bundles, n, c, model, shapes,
                            threads))
        fail_msg("ortkit_measure_open: %s", ortkit_error_last());
    ortkit_bundle_choice_free(c);
    return m;
}

/* A float tensor [n] holding v, v+1, ... */
static ortkit_tensor *floats(size_t n, float v)
{
    int64_t shape[1] = {(int64_t)n};
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_tensor_new(&t, ORTKIT_TYPE_FLOAT32, shape, 1), ORTKIT_OK);
    for (size_t i = 0; i < n; i++)
        ((float *)ortkit_tensor_data(t))[i] = v + (float)i;
    return t;
}

static void give_outputs(ortkit_measure *m, size_t i, float v)
{
    const char *names[1] = {"y"};
    ortkit_tensor *outs[1] = {floats(4, v)};
    assert_int_equal(ortkit_measure_outputs(m, i, names, outs, 1), ORTKIT_OK);
    assert_null(outs[0]); /* the measurement took it */
}

/* Two candidates on tiny.onnx at threads, begun, agreeing, ready for rounds. */
static ortkit_measure *started(int threads)
{
    ortkit_measure *m = open_measure(2, model_path("tiny.onnx"), NULL, threads);
    assert_int_equal(ortkit_measure_begin(m), ORTKIT_OK);
    give_outputs(m, 0, 1);
    give_outputs(m, 1, 1);
    assert_int_equal(ortkit_measure_compare(m), ORTKIT_OK);
    return m;
}

/* One round: candidate i ran a block of runs taking seconds[i] each. */
static int round_of(ortkit_measure *m, const double *seconds)
{
    for (size_t i = 0; i < ortkit_measure_count(m); i++) {
        if (!ortkit_measure_timing(m, i))
            continue;
        double block[5];
        for (size_t k = 0; k < 5; k++)
            block[k] = seconds[i] * (1 + 0.01 * (double)k);
        assert_int_equal(ortkit_measure_add(m, i, block, 5), ORTKIT_OK);
    }
    int r = ortkit_measure_round(m);
    assert_true(r >= 0);
    return r;
}

/* Generations of three rounds each until settled (at most max): each
 * generation is closed and judged as the command does, after its
 * processes' rounds.  The generations it took. */
static int settle(ortkit_measure *m, const double *seconds, int max)
{
    int gens = 0;
    while (gens < max) {
        int r = 0;
        for (int k = 0; k < 3 && r != 1; k++)
            r = round_of(m, seconds);
        if (r == 1)
            return gens;
        gens++;
        if (ortkit_measure_generation(m) == 1)
            return gens;
    }
    return gens;
}

/* ---- the rule ------------------------------------------------------------------------- */

static void test_generation_rule(void **state)
{
    (void)state;
    assert_true(ortkit__measure_t99(2) == 6.965 && ortkit__measure_t99(9) == 2.821);
    assert_true(ortkit__measure_t99(100) == ortkit__measure_t99(30));
    assert_true(isinf(ortkit__measure_t99(0)));
    double est, fine, twice[3] = {2, 2, 2}, same[6] = {1, 1.003, 0.997, 1, 1.004, 0.996};
    assert_int_equal(ortkit__measure_judge_generations(twice, 3, 0, &est, &fine), ORTKIT__MEASURE_SLOWER);
    assert_true(fabs(est - 2) < 1e-12);
    assert_true(fabs(fine - ORTKIT__MEASURE_FLOOR) < 1e-12); /* no spread: the floor */
    assert_int_equal(ortkit__measure_judge_generations(twice, 2, 0, &est, &fine), ORTKIT__MEASURE_OPEN);
    assert_true(isinf(fine)); /* two generations bound nothing */
    assert_int_equal(ortkit__measure_judge_generations(same, 6, 0, &est, &fine), ORTKIT__MEASURE_ALIKE);
    same[3] = 1.05; /* one generation beyond the margin: not alike */
    assert_int_equal(ortkit__measure_judge_generations(same, 6, 0, &est, &fine), ORTKIT__MEASURE_OPEN);
    /* 0.8% apart, surely: but not beyond the floor. */
    double small[6] = {1.008, 1.007, 1.009, 1.008, 1.008, 1.008};
    assert_int_equal(ortkit__measure_judge_generations(small, 6, 0, &est, &fine), ORTKIT__MEASURE_ALIKE);
    double x[] = {3, 1, 2, 10};
    assert_true(ortkit__measure_median(x, 4) == 2.5);
    assert_true(x[0] == 3); /* left as it was */
}

/* The faster candidate wins every round: clear after six generations of
 * processes (no spread: sized to the floor; six before it may stop early), the slower one
 * dropped; the account compares against the declared order's choice. */
static void test_clear_after_three_generations(void **state)
{
    (void)state;
    ortkit_measure *m = open_measure(2, model_path("tiny.onnx"), NULL, 1);
    assert_int_equal(ortkit_measure_count(m), 2);
    assert_string_equal(ortkit_measure_candidate(m, 0)->name, "ort-new"); /* the declared order */
    assert_int_equal(ortkit_measure_begin(m), ORTKIT_OK);
    give_outputs(m, 0, 1);
    give_outputs(m, 1, 1);
    assert_int_equal(ortkit_measure_compare(m), ORTKIT_OK);
    const double t[2] = {0.004, 0.002}; /* the older build twice as fast */
    /* However clear, rounds alone decide nothing: generations of processes do. */
    for (int r = 0; r < 30; r++)
        assert_int_equal(round_of(m, t), 0);
    assert_int_equal(ortkit_measure_generation(m), 0); /* one generation: too few */
    assert_true(ortkit_measure_timing(m, 0));
    assert_int_equal(settle(m, t, 10), 5);
    assert_int_equal(ortkit_measure_generations(m), 7);
    assert_false(ortkit_measure_timing(m, 0));
    assert_int_equal(ortkit_measure_finish(m, 1.5), ORTKIT_OK);
    assert_string_equal(ortkit_measure_outcome(m), "clear");
    assert_int_equal(ortkit_measure_chosen(m), 1);
    const ortkit_measure_verdict *v = ortkit_measure_candidate(m, 1);
    assert_int_equal(v->state, ORTKIT_MEASURE_FASTEST);
    assert_true(v->chosen && v->runs == 225 && v->rounds == 45);
    assert_true(fabs(v->p50 - 0.002 * 1.02) < 1e-12);
    assert_true(v->p50_low <= v->p50 && v->p50 <= v->p50_high);
    assert_true(v->pair_ratio == 1 && v->pair_rounds == 45 && v->pair_p50 == v->pair_chosen_p50);
    const ortkit_measure_verdict *w = ortkit_measure_candidate(m, 0);
    assert_true(fabs(w->pair_ratio - 2) < 1e-12 && w->pair_rounds == 45);
    assert_true(fabs(w->pair_p50 - 2 * w->pair_chosen_p50) < 1e-12);
    assert_true(fabs(w->pair_resolution - 0.01) < 1e-12);
    assert_int_equal(ortkit_measure_candidate(m, 0)->state, ORTKIT_MEASURE_SLOWER);
    assert_non_null(strstr(ortkit_measure_candidate(m, 0)->note,
                           "slower than ort-old by 100.0% (slower in 6 of 6 generations of "
                           "processes; differences of 1.0% or more told apart)"));
    assert_non_null(strstr(ortkit_measure_account(m), "measured: ort-old ran tiny.onnx in p50 "));
    assert_non_null(strstr(ortkit_measure_account(m), " for ort-new"));
    ortkit_measure_free(m);
}

/* Rounds that go both ways never become clear: the budget ends it, those
 * left are tied, and the declared order chooses among them. */
static void test_tied_keeps_declared_order(void **state)
{
    (void)state;
    ortkit_measure *m = open_measure(2, model_path("tiny.onnx"), NULL, 2);
    assert_int_equal(ortkit_measure_begin(m), ORTKIT_OK);
    give_outputs(m, 0, 1);
    give_outputs(m, 1, 1);
    assert_int_equal(ortkit_measure_compare(m), ORTKIT_OK);
    for (int r = 0; r < 20; r++) {
        const double t[2] = {r % 2 ? 0.0031 : 0.0029, r % 2 ? 0.0029 : 0.0031};
        assert_int_equal(round_of(m, t), 0);
    }
    assert_int_equal(ortkit_measure_finish(m, 5), ORTKIT_OK);
    assert_string_equal(ortkit_measure_outcome(m), "tied");
    assert_int_equal(ortkit_measure_chosen(m), 0); /* the declared order's first */
    assert_int_equal(ortkit_measure_candidate(m, 0)->state, ORTKIT_MEASURE_TIED);
    assert_int_equal(ortkit_measure_candidate(m, 1)->state, ORTKIT_MEASURE_TIED);
    assert_non_null(strstr(ortkit_measure_account(m), "not told apart in 20 rounds"));
    assert_non_null(strstr(ortkit_measure_account(m), "the declared order chooses between them: ort-new"));
    ortkit_measure_free(m);
}

/* Alike within the margin both ways (the same build twice, or one 0.5%
 * slower in every round, under the floor): no longer timed after seven
 * rounds, tied, and the declared order chooses, even when the other was the
 * quicker. */
static void test_alike_within_margin(void **state)
{
    (void)state;
    static const double slower[] = {1.0, 1.005};
    for (size_t s = 0; s < 2; s++) {
        ortkit_measure *m = started(1);
        assert_int_equal(settle(m, (const double[]){0.003 * slower[s], 0.003}, 10), 6);
        assert_int_equal(ortkit_measure_finish(m, 1), ORTKIT_OK);
        assert_string_equal(ortkit_measure_outcome(m), "tied");
        assert_int_equal(ortkit_measure_chosen(m), 0); /* the declared order's first */
        const ortkit_measure_verdict *v = ortkit_measure_candidate(m, s ? 0 : 1);
        assert_int_equal(v->state, ORTKIT_MEASURE_TIED);
        assert_non_null(strstr(v->note, "within 2% ("));
        ortkit_measure_free(m);
    }
    /* 3% and 4% slower in every round: clearly slower, by that much. */
    static const double more[] = {1.03, 1.04};
    static const char *const said[] = {"by 3.0% (slower in 6 of 6", "by 4.0% (slower in 6 of 6"};
    for (size_t s = 0; s < 2; s++) {
        ortkit_measure *m = started(1);
        assert_int_equal(settle(m, (const double[]){0.003 * more[s], 0.003}, 10), 6);
        assert_int_equal(ortkit_measure_finish(m, 1), ORTKIT_OK);
        assert_string_equal(ortkit_measure_outcome(m), "clear");
        assert_int_equal(ortkit_measure_chosen(m), 1);
        assert_non_null(strstr(ortkit_measure_candidate(m, 0)->note, said[s]));
        /* No spread at all: the resolution is the floor, and the account says it. */
        assert_true(fabs(ortkit_measure_resolution(m) - ORTKIT__MEASURE_FLOOR) < 1e-12);
        assert_non_null(strstr(ortkit_measure_account(m), "differences of 1.0% or more told apart"));
        ortkit_measure_free(m);
    }
}

/* One generation's luck (a process pair twice as slow) never makes a
 * verdict: the generations after it, alike, leave the two not told apart,
 * and the declared order chooses. */
static void test_one_generation_is_not_enough(void **state)
{
    (void)state;
    ortkit_measure *m = started(1);
    const double lucky[2] = {0.006, 0.003}, alike[2] = {0.003, 0.003};
    assert_int_equal(settle(m, lucky, 1), 1);
    assert_int_equal(settle(m, alike, 5), 5);
    assert_int_equal(ortkit_measure_generations(m), 7);
    assert_true(ortkit_measure_timing(m, 0) && ortkit_measure_timing(m, 1));
    assert_int_equal(ortkit_measure_finish(m, 1), ORTKIT_OK);
    assert_string_equal(ortkit_measure_outcome(m), "tied");
    assert_int_equal(ortkit_measure_chosen(m), 0);
    assert_non_null(strstr(ortkit_measure_candidate(m, 0)->note,
                           "not told apart from ort-old within the budget: +12.2% over 6 "
                           "generations of processes; differences of 49.0% or more told apart"));
    ortkit_measure_free(m);
}

/* The fastest build answers differently from the two that agree: it is
 * never timed, never chosen, and said so. */
static void test_differing_build_never_chosen(void **state)
{
    (void)state;
    ortkit_measure *m = open_measure(3, model_path("tiny.onnx"), NULL, 1);
    assert_int_equal(ortkit_measure_count(m), 3);
    /* Declared: ort-avx2 (CPU level), ort-new, ort-old. */
    assert_string_equal(ortkit_measure_candidate(m, 0)->name, "ort-avx2");
    assert_int_equal(ortkit_measure_begin(m), ORTKIT_OK);
    give_outputs(m, 0, 1);
    give_outputs(m, 1, 1.0001f); /* within ORTKIT_COMPARE_RTOL */
    give_outputs(m, 2, 2);       /* ort-old: another answer */
    assert_int_equal(ortkit_measure_compare(m), ORTKIT_OK);
    assert_false(ortkit_measure_timing(m, 2));
    assert_int_equal(ortkit_measure_candidate(m, 2)->state, ORTKIT_MEASURE_DIFFERS);
    assert_non_null(strstr(ortkit_measure_candidate(m, 2)->note,
                           "outputs differ from ort-avx2's: output 'y'"));
    assert_int_equal(ortkit_measure_add(m, 2, (double[]){0.001}, 1), ORTKIT_E_INVALID_ARG);
    assert_int_equal(settle(m, (const double[]){0.003, 0.002, 0.0001}, 10), 6);
    assert_int_equal(ortkit_measure_finish(m, 2), ORTKIT_OK);
    assert_int_equal(ortkit_measure_chosen(m), 1);
    assert_int_equal(ortkit_measure_candidate(m, 2)->runs, 0);
    assert_non_null(strstr(ortkit_measure_account(m), "ort-old answers differently (never chosen)"));
    ortkit_measure_free(m);

    /* Two that disagree, with nothing to side with either: the declared
     * order's first is the reference, and the other is never chosen. */
    m = open_measure(2, model_path("tiny.onnx"), NULL, 1);
    assert_int_equal(ortkit_measure_begin(m), ORTKIT_OK);
    give_outputs(m, 0, 1);
    give_outputs(m, 1, 5);
    assert_int_equal(ortkit_measure_compare(m), ORTKIT_OK);
    assert_int_equal(ortkit_measure_round(m), 1); /* one left: nothing to time */
    assert_int_equal(ortkit_measure_finish(m, 1), ORTKIT_OK);
    assert_string_equal(ortkit_measure_outcome(m), "single");
    assert_int_equal(ortkit_measure_chosen(m), 0);
    assert_int_equal(ortkit_measure_candidate(m, 1)->state, ORTKIT_MEASURE_DIFFERS);
    ortkit_measure_free(m);
}

/* A candidate that cannot load or run is reported and never chosen. */
static void test_failed_candidate(void **state)
{
    (void)state;
    ortkit_measure *m = open_measure(2, model_path("tiny.onnx"), NULL, 3);
    assert_int_equal(ortkit_measure_begin(m), ORTKIT_OK);
    assert_int_equal(ortkit_measure_failed(m, 0, "cannot load it: no such file"), ORTKIT_OK);
    give_outputs(m, 1, 1);
    assert_int_equal(ortkit_measure_compare(m), ORTKIT_OK);
    assert_int_equal(ortkit_measure_finish(m, 1), ORTKIT_OK);
    assert_int_equal(ortkit_measure_chosen(m), 1);
    assert_int_equal(ortkit_measure_candidate(m, 0)->state, ORTKIT_MEASURE_FAILED);
    assert_string_equal(ortkit_measure_candidate(m, 0)->note, "failed: cannot load it: no such file");
    ortkit_measure_free(m);
}

/* ---- the canonical sizes ------------------------------------------------------------------- */

static void test_shapes(void **state)
{
    (void)state;
    ortkit_measure *m = open_measure(2, model_path("dynamic.onnx"), "height=32,width=48,batch=2", 0);
    assert_string_equal(ortkit_measure_shapes(m), "images[2,3,32,48]");
    const char *key = ortkit_measure_key(m);
    char first[65];
    snprintf(first, sizeof first, "%s", key);
    ortkit_measure_free(m);
    /* The same sizes given another way (the whole shape; extra entries
     * that name nothing) key the same. */
    m = open_measure(2, model_path("dynamic.onnx"), "images=[2,3,32,48],unused=7", 0);
    assert_string_equal(ortkit_measure_shapes(m), "images[2,3,32,48]");
    assert_string_equal(ortkit_measure_key(m), first);
    ortkit_measure_free(m);
    /* A size nothing gives reads as '?'. */
    m = open_measure(2, model_path("dynamic.onnx"), "batch=1", 0);
    assert_string_equal(ortkit_measure_shapes(m), "images[1,3,?,?]");
    ortkit_measure_free(m);
    /* One input's shape binds the symbols it shares with the others. */
    m = open_measure(2, model_path("add.onnx"), "a=[5,3]", 0);
    assert_string_equal(ortkit_measure_shapes(m), "a[5,3] b[5,3]");
    ortkit_measure_free(m);
    m = open_measure(2, model_path("classifier_unnamed.onnx"), "X=[4,12]", 0);
    assert_string_equal(ortkit_measure_shapes(m), "X[4,12]");
    ortkit_measure_free(m);
    m = open_measure(2, model_path("shapeless.onnx"), NULL, 0);
    assert_string_equal(ortkit_measure_shapes(m), "x[*] n[]");
    ortkit_measure_free(m);

    /* Shapes that do not parse, or contradict the model, are refused. */
    ortkit_bundle_choice *c = choose(2);
    static const char *const bad[][2] = {
        {"batch", "each entry is SYMBOL=SIZE"},      {"batch=x", "a size is a whole number"},
        {"images=[1,3", "without its ']'"},          {"batch=1,", "ends in ','"},
        {"images=[1,3,2]", "has 4 dimensions"},      {"images=[1,4,2,2]", "has size 3 at dimension 1"},
        {"images=[1,,2,2]", "whole numbers"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ortkit_measure *x = NULL;
        assert_int_equal(ortkit_measure_open(&x, host, (const ortkit_bundle *const *)bundles, 2, c,
                                             model_path("dynamic.onnx"), bad[i][0], 0),
                         ORTKIT_E_INVALID_ARG);
        assert_null(x);
        assert_error_has(bad[i][1]);
    }
    /* A model that cannot be read fails the measurement. */
    ortkit_measure *x = NULL;
    assert_int_not_equal(ortkit_measure_open(&x, host, (const ortkit_bundle *const *)bundles, 2, c,
                                             model_path("no-such.onnx"), NULL, 0),
                         ORTKIT_OK);
    assert_int_not_equal(ortkit_measure_open(&x, host, (const ortkit_bundle *const *)bundles, 2, c,
                                             model_path("not_onnx.onnx"), NULL, 0),
                         ORTKIT_OK);
    ortkit_bundle_choice_free(c);
}

/* Fewer than two candidates: nothing to measure, and the model is not read. */
static void test_nothing_to_measure(void **state)
{
    (void)state;
    ortkit_measure *m = open_measure(1, "/no/such/model.onnx", NULL, 0);
    assert_int_equal(ortkit_measure_count(m), 0);
    assert_string_equal(ortkit_measure_why(m), "ort-new is the only bundle to choose from");
    assert_string_equal(ortkit_measure_account(m), "not measured: ort-new is the only bundle to choose from");
    assert_int_equal(ortkit_measure_begin(m), ORTKIT_E_INVALID_ARG);
    ortkit_measure_free(m);
}

/* ---- the key ---------------------------------------------------------------------------- */

static void key_of(char out[65], size_t n, const char *model, const char *shapes, int threads)
{
    ortkit_measure *m = open_measure(n, model, shapes, threads);
    snprintf(out, 65, "%s", ortkit_measure_key(m));
    assert_int_equal(strlen(out), 64);
    ortkit_measure_free(m);
}

static void test_key_parts(void **state)
{
    (void)state;
    char base[65], k[65];
    key_of(base, 2, model_path("matmul.onnx"), "N=8", 1);
    key_of(k, 2, model_path("matmul.onnx"), "N=8", 1);
    assert_string_equal(k, base); /* the same parts, the same key */
    key_of(k, 2, model_path("matmul.onnx"), "N=9", 1);
    assert_string_not_equal(k, base); /* the sizes */
    key_of(k, 2, model_path("matmul.onnx"), "N=8", 2);
    assert_string_not_equal(k, base); /* the threads */
    key_of(k, 2, model_path("tiny.onnx"), "N=8", 1);
    assert_string_not_equal(k, base); /* the model */
    key_of(k, 3, model_path("matmul.onnx"), "N=8", 1);
    assert_string_not_equal(k, base); /* the set of bundles */

    /* The model's contents, not its name: a copy keys the same, a change does not. */
    char *data = NULL;
    size_t size = 0;
    FILE *f = NULL;
    assert_int_equal(ortkit__file_read(&data, &size, model_path("matmul.onnx"), 1 << 24), 0);
    assert_non_null(f = fopen(at("copy.onnx"), "wb"));
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
    key_of(k, 2, at("copy.onnx"), "N=8", 1);
    assert_string_equal(k, base);
    /* One field more: the model's doc_string (field 6), which runs the same. */
    assert_non_null(f = fopen(at("copy.onnx"), "wb"));
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fwrite("\x32\x01x", 1, 3, f), 3);
    fclose(f);
    key_of(k, 2, at("copy.onnx"), "N=8", 1);
    assert_string_not_equal(k, base);
    free(data);

    /* A bundle's manifest: another digest, another key. */
    ortkit_bundle *kept = bundles[1];
    bundles[1] = make_manifest("ort-old", "1.17.3", "cpu", "x86_64", NULL, 0); /* not verified */
    key_of(k, 2, model_path("matmul.onnx"), "N=8", 1);
    assert_string_not_equal(k, base);
    ortkit_bundle_free(bundles[1]);
    bundles[1] = kept;

    /* The host: one CPU feature more. */
    uint64_t features = host->cpu_features;
    host->cpu_features |= ORTKIT_CPU_BIT(ORTKIT_CPU_AVX512F);
    key_of(k, 2, model_path("matmul.onnx"), "N=8", 1);
    host->cpu_features = features;
    assert_string_not_equal(k, base);
    key_of(k, 2, model_path("matmul.onnx"), "N=8", 1);
    assert_string_equal(k, base);
}

/* ---- the memory -------------------------------------------------------------------------- */

/* Measure and remember: ort-old clearly faster on tiny.onnx. */
static void remember_old_faster(const char *shapes)
{
    ortkit_measure *m = open_measure(2, model_path("tiny.onnx"), shapes, 1);
    assert_int_equal(ortkit_measure_begin(m), ORTKIT_OK);
    give_outputs(m, 0, 1);
    give_outputs(m, 1, 1);
    assert_int_equal(ortkit_measure_compare(m), ORTKIT_OK);
    settle(m, (const double[]){0.004, 0.002}, 40);
    assert_int_equal(ortkit_measure_finish(m, 1), ORTKIT_OK);
    assert_int_equal(ortkit_measure_remember(m), ORTKIT_OK);
    struct stat st;
    assert_int_equal(stat(ortkit_measure_path(m), &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(stat(at("cache/ortkit/measured"), &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    ortkit_measure_free(m);
}

/* What the runtime's search makes of the memory. */
static size_t lookup(char *account, size_t n, const char *model, int threads)
{
    ortkit_bundle_choice *c = choose(n);
    size_t index = 0;
    ortkit__measured_lookup(&index, account, 1024, host, (const ortkit_bundle *const *)bundles, n, c,
                            model, NULL, threads);
    ortkit_bundle_choice_free(c);
    return index;
}

static void test_remember_and_recall(void **state)
{
    (void)state;
    char account[1024];
    assert_int_equal(lookup(account, 2, model_path("tiny.onnx"), 1), ORTKIT_BUNDLE_NONE);
    assert_string_equal(account, "not measured for this model");
    remember_old_faster(NULL);
    /* The search takes ort-old, and says why. */
    assert_int_equal(lookup(account, 2, model_path("tiny.onnx"), 1), 1);
    assert_non_null(strstr(account, "measured: ort-old ran tiny.onnx in p50 2.04 ms against 4.08 ms for "
                               "ort-new (18 rounds; ort-new 100.0% slower; differences of 1.0% or "
                               "more told apart)"));
    /* Recalled by a new measurement object too. */
    ortkit_measure *m = open_measure(2, model_path("tiny.onnx"), NULL, 1);
    assert_true(ortkit_measure_recalled(m));
    assert_int_equal(ortkit_measure_chosen(m), 1);
    assert_string_equal(ortkit_measure_outcome(m), "clear");
    ortkit_measure_free(m);
    /* Any other part of the key: not measured. */
    assert_int_equal(lookup(account, 2, model_path("tiny.onnx"), 2), ORTKIT_BUNDLE_NONE);
    assert_string_equal(account, "not measured for this model");
    assert_int_equal(lookup(account, 3, model_path("tiny.onnx"), 1), ORTKIT_BUNDLE_NONE);
    assert_int_equal(lookup(account, 2, model_path("add.onnx"), 1), ORTKIT_BUNDLE_NONE);
    uint64_t features = host->cpu_features;
    host->cpu_features &= ~ORTKIT_CPU_BIT(ORTKIT_CPU_AVX2);
    assert_int_equal(lookup(account, 2, model_path("tiny.onnx"), 1), ORTKIT_BUNDLE_NONE);
    host->cpu_features = features;
    /* One bundle only: nothing to choose among. */
    assert_int_equal(lookup(account, 1, model_path("tiny.onnx"), 1), ORTKIT_BUNDLE_NONE);
    assert_string_equal(account, "not measured: ort-new is the only bundle to choose from");
    /* A model that cannot be read leaves the declared order, and says why. */
    assert_int_equal(lookup(account, 2, "/no/such/model.onnx", 1), ORTKIT_BUNDLE_NONE);
    assert_non_null(strstr(account, "not measured for this model: "));
}

/* The entry's file, for the tests that spoil it. */
static const char *entry_path(void)
{
    static char path[1024];
    ortkit_measure *m = open_measure(2, model_path("tiny.onnx"), NULL, 1);
    snprintf(path, sizeof path, "%s", ortkit_measure_path(m));
    ortkit_measure_free(m);
    return path;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    chmod(path, 0600);
}

static void expect_refused(const char *why)
{
    char account[1024];
    assert_int_equal(lookup(account, 2, model_path("tiny.onnx"), 1), ORTKIT_BUNDLE_NONE);
    if (!strstr(account, "the remembered measurement was refused: ") || !strstr(account, why))
        fail_msg("account '%s' lacks '%s'", account, why);
}

static void test_refused_entries(void **state)
{
    (void)state;
    remember_old_faster(NULL);
    const char *path = entry_path();
    char *good = NULL;
    size_t size = 0;
    assert_int_equal(ortkit__file_read(&good, &size, path, 1 << 20), 0);

    /* Corrupt: not JSON, cut short, an unknown key, a wrong type. */
    write_text(path, "not json");
    expect_refused("not valid JSON");
    write_text(path, "{\"format\": 1, \"key\":");
    expect_refused("not valid JSON");
    char *text = malloc(size + 64);
    snprintf(text, size + 64, "{\"extra\": 1,%s", good + 1);
    write_text(path, text);
    expect_refused("'extra'");
    /* Another key's entry copied over this one. */
    snprintf(text, size + 64, "%s", good);
    char *k = strstr(text, "\"key\":");
    k = strchr(k + 6, '"') + 1;
    k[0] = k[0] == 'a' ? 'b' : 'a';
    write_text(path, text);
    expect_refused("holds the key");
    /* A choice that answered differently, or is no candidate. */
    snprintf(text, size + 64, "%s", good);
    char *chosen = strstr(text, "\"chosen\":");
    memcpy(strchr(chosen + 9, '"') + 1, "ort-xyz", 7);
    write_text(path, text);
    expect_refused("'chosen' (ort-xyz) is no candidate");
    /* A candidate the key does not name, a state it does not know, a NUL,
     * text after the value. */
    snprintf(text, size + 64, "%s", good);
    char *digest = strchr(strstr(text, "\"manifest_sha256\":") + 18, '"') + 1;
    digest[0] = digest[0] == 'a' ? 'b' : 'a';
    write_text(path, text);
    expect_refused("records candidate ort-new (manifest ");
    snprintf(text, size + 64, "%s", good);
    char *st = strstr(text, "\"fastest\"");
    memcpy(st + 1, "fastes?", 7);
    write_text(path, text);
    expect_refused("unknown state 'fastes?'");
    snprintf(text, size + 64, "%s", good);
    char *note = strstr(text, "\"note\":");
    note = strchr(note + 7, '"');
    memmove(note + 7, note + 1, strlen(note + 1) + 1);
    memcpy(note + 1, "\\u0000", 6);
    write_text(path, text);
    expect_refused("\\u0000");
    snprintf(text, size + 64, "%s{}", good);
    write_text(path, text);
    expect_refused("text after the value");
    free(text);

    /* Writable by others; a link; another user's. */
    write_text(path, good);
    chmod(path, 0620);
    expect_refused("can be written by others");
    chmod(path, 0600);
    char account[1024];
    assert_int_equal(lookup(account, 2, model_path("tiny.onnx"), 1), 1); /* good again */
    assert_int_equal(rename(path, at("moved.json")), 0);
    assert_int_equal(symlink(at("moved.json"), path), 0);
    expect_refused("");
    unlink(path);
    assert_int_equal(rename(at("moved.json"), path), 0);
    if (geteuid() == 0) {
        assert_int_equal(chown(path, 1, 1), 0);
        expect_refused("belongs to another user");
        assert_int_equal(chown(path, 0, 0), 0);
    }
    /* The directory open to others: nothing in it is trusted. */
    chmod(at("cache/ortkit/measured"), 0755);
    expect_refused("is open to others");
    chmod(at("cache/ortkit/measured"), 0700);
    assert_int_equal(lookup(account, 2, model_path("tiny.onnx"), 1), 1);
    free(good);
}

/* The record through JSON and back, strictly. */
static void test_json_round_trip(void **state)
{
    (void)state;
    remember_old_faster("x=[1]");
    ortkit__measured_ctx ctx;
    ortkit__measured rec, back;
    ortkit_bundle_choice *c = choose(2);
    assert_int_equal(ortkit__measured_prepare(&ctx, host, (const ortkit_bundle *const *)bundles, 2, c,
                                              model_path("tiny.onnx"), "x=[1]", 1, 0),
                     ORTKIT_OK);
    ortkit_bundle_choice_free(c);
    char why[512];
    assert_int_equal(ortkit__measured_recall(&rec, &ctx, why, sizeof why), 0);
    char *json = NULL;
    assert_int_equal(ortkit__measured_to_json(&json, &rec), ORTKIT_OK);
    assert_int_equal(ortkit__measured_from_json(&back, json, strlen(json), "test"), ORTKIT_OK);
    assert_memory_equal(&rec, &back, sizeof rec);
    free(json);
}

/* A program built against runtime options version 3 has no model fields:
 * they are never read, whatever lies past its struct. */
static void test_options_version_3(void **state)
{
    (void)state;
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    o.version = 3;
    o.path = NULL; /* the bundles are chosen among */
    o.model = (const char *)(uintptr_t)1; /* past a version-3 struct's end: never read */
    o.model_shapes = (const char *)(uintptr_t)1;
    ortkit_resolution *res = NULL;
    assert_int_equal(ortkit_runtime_resolve(&res, &o, host, 0), ORTKIT_OK);
    assert_string_equal(ortkit_resolution_measured(res), "");
    ortkit_resolution_free(res);
}

/* ---- the work, the interference rule, the resolution ------------------------------------ */

/* The counters: forced off (as perf_event_paranoid 3 or a host without a
 * PMU would), the fallback says why and CPU time still counts the work. */
static void test_counters_fallback(void **state)
{
    (void)state;
    ortkit__work_counters c;
    setenv("ORTKIT_MEASURE_COUNTERS", "off", 1);
    ortkit__work_counters_open(&c);
    unsetenv("ORTKIT_MEASURE_COUNTERS");
    assert_int_equal(c.fd_cycles, -1);
    assert_int_equal(c.fd_instructions, -1);
    assert_string_equal(c.source, "none: ORTKIT_MEASURE_COUNTERS=off");
    ortkit__work_reading a, b;
    ortkit__work_read(&c, &a, 0);
    volatile double x = 0;
    for (int i = 0; i < 3000000; i++)
        x += i * 0.5;
    ortkit__work_read(&c, &b, 1);
    assert_true(a.cycles == -1 && b.instructions == -1);
    assert_true(b.cpu_s > a.cpu_s && b.wall_s > a.wall_s);
    assert_true(b.involuntary >= a.involuntary);
    ortkit__work_counters_close(&c);
    /* Not forced: counters, or a reason there are none; never a failure. */
    ortkit__work_counters_open(&c);
    assert_true((c.fd_cycles >= 0 && !strncmp(c.source, "perf: ", 6)) ||
                (c.fd_cycles < 0 && !strncmp(c.source, "none: ", 6)));
    if (ortkit__perf_paranoid() > 2)
        assert_non_null(strstr(c.source, "perf_event_paranoid"));
    ortkit__work_counters_close(&c);
    /* Steal time from /proc/stat's first line, in ticks. */
    assert_true(ortkit__steal_parse("cpu  10 0 5 100 0 0 1 250 0 0\n", 100) == 2.5);
    assert_true(ortkit__steal_parse("cpu  10 0 5\n", 100) == -1);
    assert_true(ortkit__steal_parse("intr 1 2 3 4 5 6 7 8\n", 100) == -1);
}

/* s at threads is disturbed (want its kind, why holding part) or not (want 0). */
static void expect_disturbed(ortkit_measure_sample s, int threads, int want, const char *part)
{
    char why[200];
    assert_int_equal(ortkit_measure_disturbed(&s, threads, why, sizeof why), want);
    if (want)
        assert_non_null(strstr(why, part));
    else
        assert_string_equal(why, "");
}

/* Which runs are disturbed, and which count: a quiet run of 99 ms of CPU
 * time changed one way at a time. */
static void test_interference_rule(void **state)
{
    (void)state;
    static const struct {
        double wall_s, cpu_s, involuntary, steal_s;
        int threads, disturbed;
        const char *why;
    } cases[] = {
        {0.100, 0.099, 0, 0, 1, 0, NULL},
        /* A busy host's routine switches are noise; many more are not. */
        {0.100, 0.099, 20, 0, 1, 0, NULL},
        {0.100, 0.099, 30, 0, 1, ORTKIT_MEASURE_SWITCHED,
         "descheduled 30 times in 99.00 ms of CPU time (at most 25 counted)"},
        /* Two threads: each may lose its core once more. */
        {0.100, 0.099, 26, 0, 2, 0, NULL},
        {0.100, 0.099, 26, 0, 1, ORTKIT_MEASURE_SWITCHED, "descheduled 26 times"},
        /* Stolen time, however little. */
        {0.100, 0.099, 0, 0.01, 4, ORTKIT_MEASURE_STOLEN, "stole 10 ms"},
        /* One thread waiting for a core: wall far above CPU (a third of a core or less). */
        {0.250, 0.099, 0, 0, 1, 0, NULL},
        {0.350, 0.099, 0, 0, 1, ORTKIT_MEASURE_WAITED, "wall time 350.00 ms against 99.00 ms of CPU time"},
        /* With more threads the wall clock is below CPU time: not a sign. */
        {0.350, 0.050, 0, 0, 2, 0, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ortkit_measure_sample s = {.wall_s = cases[i].wall_s, .cpu_s = cases[i].cpu_s,
                                   .involuntary = cases[i].involuntary, .steal_s = cases[i].steal_s,
                                   .cycles = -1, .instructions = -1};
        expect_disturbed(s, cases[i].threads, cases[i].disturbed, cases[i].why);
        assert_true(ortkit_measure_figure(&s) == cases[i].cpu_s); /* the work, not the wall clock */
    }
    assert_int_equal(ortkit_measure_disturbed(&(ortkit_measure_sample){.cpu_s = 0.001, .involuntary = 9},
                                              1, NULL, 0), ORTKIT_MEASURE_SWITCHED);
}

/* The resolution: the floor plus the bounds' half-width, from the spread
 * measured, and never finer than the generations' own rounds allow. */
static void test_resolution(void **state)
{
    (void)state;
    double est, fine;
    /* 3% apart, generations spread by 1% either way: slower, resolved to about 2.3%. */
    double r[8] = {1.02, 1.04, 1.03, 1.02, 1.04, 1.03, 1.025, 1.035};
    assert_int_equal(ortkit__measure_judge_generations(r, 8, 0, &est, &fine), ORTKIT__MEASURE_SLOWER);
    assert_true(fabs(est - 1.03) < 0.001);
    assert_true(fine > 0.018 && fine < 0.025);
    /* The same spread, but rounds that say each generation is only good to
     * 3%: the bounds widen, and 3% is not told apart. */
    assert_int_equal(ortkit__measure_judge_generations(r, 8, 0.03 * 0.03, &est, &fine), ORTKIT__MEASURE_OPEN);
    assert_true(fine > 0.03);
    /* The same build: generations around 1 by 4% either way are neither slower nor alike. */
    for (size_t i = 0; i < 8; i++)
        r[i] = 1 + (i % 2 ? 0.04 : -0.04);
    assert_int_equal(ortkit__measure_judge_generations(r, 8, 0, &est, &fine), ORTKIT__MEASURE_OPEN);
    assert_true(fine > 0.04);
    /* From ten generations on a tenth is trimmed at each end: twelve at 3%
     * (by 0.5% either way), one of them 5% the other way, as a neighbour's
     * burst of work makes one: still slower, sized to 3%.  Without the
     * trim the outlier would widen the bounds past the floor. */
    double t[12] = {1.025, 1.035, 1.03, 1.025, 1.035, 1.03, 1.025, 1.035, 1.03, 1.025, 1.035, 0.95};
    assert_int_equal(ortkit__measure_judge_generations(t, 12, 0, &est, &fine), ORTKIT__MEASURE_SLOWER);
    assert_true(fabs(est - 1.03) < 0.002 && fine < 0.02);
    assert_int_equal(ortkit__measure_judge_generations(t, 9, 0, &est, &fine), ORTKIT__MEASURE_SLOWER);
    t[5] = 0.95; /* two outliers the same way among twelve: one is kept, and no verdict */
    assert_int_equal(ortkit__measure_judge_generations(t, 12, 0, &est, &fine), ORTKIT__MEASURE_OPEN);
}

/* Rounds in which every run was disturbed pair nothing: no verdict from
 * them, however the rest went, and the account counts what was skipped. */
static void test_disturbed_rounds(void **state)
{
    (void)state;
    ortkit_measure *m = started(1);
    for (int r = 0; r < 30; r++) {
        const double block[3] = {0.002, 0.002, 0.002};
        if (ortkit_measure_timing(m, 0))
            assert_int_equal(ortkit_measure_add(m, 0, block, 3), ORTKIT_OK);
        assert_int_equal(ortkit_measure_skipped(m, 1, 12), ORTKIT_OK);
        int rc = ortkit_measure_round(m);
        assert_int_equal(rc, 0);
    }
    assert_int_equal(ortkit_measure_method(m, "CPU time, all threads; counters: none: test"), ORTKIT_OK);
    assert_int_equal(ortkit_measure_finish(m, 1), ORTKIT_OK);
    assert_string_equal(ortkit_measure_outcome(m), "tied");
    assert_int_equal(ortkit_measure_candidate(m, 1)->disturbed, 360);
    assert_int_equal(ortkit_measure_candidate(m, 1)->pair_rounds, 0);
    ortkit_measure_free(m);
}

/* Three generations whose medians agree to the digit, by chance, while
 * their rounds spread by 3% either way: no verdict.  A generation's ratio is
 * never surer than its own rounds make it (two copies of one build were
 * once called 2.9% apart this way, from three generations of 1.0%
 * "resolution"). */
static void test_chance_agreement(void **state)
{
    (void)state;
    ortkit_measure *m = started(1);
    static const double spread[3] = {1.00, 1.03, 1.06};
    for (int g = 0; g < 3; g++) {
        for (int r = 0; r < 3; r++)
            assert_int_equal(round_of(m, (const double[]){0.003 * spread[r], 0.003}), 0);
        assert_int_equal(ortkit_measure_generation(m), 0);
    }
    assert_int_equal(ortkit_measure_finish(m, 1), ORTKIT_OK);
    assert_string_equal(ortkit_measure_outcome(m), "tied");
    assert_int_equal(ortkit_measure_chosen(m), 0); /* the declared order's */
    const ortkit_measure_verdict *v = ortkit_measure_candidate(m, 1);
    assert_int_equal(v->state, ORTKIT_MEASURE_TIED);
    /* What three such generations resolve, against the choice. */
    assert_true(isfinite(v->pair_resolution) && v->pair_resolution > 0.05);
    ortkit_measure_free(m);
}

/* Runtimes side by side (bench --compare): measured like bundles, never remembered. */
static void test_runtimes_not_remembered(void **state)
{
    (void)state;
    const char *labels[2] = {"A", "B"};
    ortkit_measure *m = NULL;
    assert_int_equal(ortkit_measure_open_runtimes(&m, labels, 1, model_path("tiny.onnx"), 1),
                     ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_measure_open_runtimes(&m, labels, 2, model_path("tiny.onnx"), 1), ORTKIT_OK);
    assert_string_equal(ortkit_measure_key(m), "");
    assert_int_equal(ortkit_measure_begin(m), ORTKIT_OK);
    give_outputs(m, 0, 1);
    give_outputs(m, 1, 1);
    assert_int_equal(ortkit_measure_compare(m), ORTKIT_OK);
    assert_int_equal(settle(m, (const double[]){0.003, 0.003 * 1.06}, 10), 6);
    assert_int_equal(ortkit_measure_finish(m, 1), ORTKIT_OK);
    assert_string_equal(ortkit_measure_outcome(m), "clear");
    assert_string_equal(ortkit_measure_candidate(m, 0)->name, "A");
    assert_true(ortkit_measure_candidate(m, 0)->chosen);
    assert_int_equal(ortkit_measure_candidate(m, 1)->state, ORTKIT_MEASURE_SLOWER);
    assert_true(fabs(ortkit_measure_candidate(m, 1)->pair_ratio - 1.06) < 1e-9);
    assert_int_equal(ortkit_measure_remember(m), ORTKIT_E_INVALID_ARG);
    ortkit_measure_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generation_rule),
        cmocka_unit_test(test_clear_after_three_generations),
        cmocka_unit_test(test_tied_keeps_declared_order),
        cmocka_unit_test(test_alike_within_margin),
        cmocka_unit_test(test_one_generation_is_not_enough),
        cmocka_unit_test(test_differing_build_never_chosen),
        cmocka_unit_test(test_failed_candidate),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_nothing_to_measure),
        cmocka_unit_test(test_key_parts),
        cmocka_unit_test(test_remember_and_recall),
        cmocka_unit_test(test_refused_entries),
        cmocka_unit_test(test_json_round_trip),
        cmocka_unit_test(test_options_version_3),
        cmocka_unit_test(test_counters_fallback),
        cmocka_unit_test(test_interference_rule),
        cmocka_unit_test(test_resolution),
        cmocka_unit_test(test_disturbed_rounds),
        cmocka_unit_test(test_runtimes_not_remembered),
        cmocka_unit_test(test_chance_agreement),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
