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

/* Rounds until settled (at most max), starting a new generation of
 * processes whenever the rule asks; the rounds it took. */
static int settle(ortkit_measure *m, const double *seconds, int max)
{
    int rounds = 0, r = 0;
    while (r != 1 && rounds < max) {
        r = round_of(m, seconds);
        rounds++;
        if (r == 2)
            assert_int_equal(ortkit_measure_generation(m), ORTKIT_OK);
    }
    return rounds;
}

/* ---- the rule ------------------------------------------------------------------------- */

static void test_sign_test(void **state)
{
    (void)state;
    assert_true(fabs(ortkit__measure_sign_p(7, 7) - 1.0 / 128) < 1e-12);
    assert_true(ortkit__measure_clear(7, 7));
    assert_false(ortkit__measure_clear(6, 6));   /* 1/64 > 0.01 */
    assert_false(ortkit__measure_clear(9, 10));  /* 11/1024 */
    assert_true(ortkit__measure_clear(10, 11));  /* 12/2048 */
    assert_false(ortkit__measure_clear(10, 12)); /* 79/4096 */
    assert_true(ortkit__measure_clear(13, 15));
    assert_true(ortkit__measure_clear(16, 20));
    assert_false(ortkit__measure_clear(15, 20));
    assert_true(ortkit__measure_sign_p(0, 5) == 1);
    double med, twice[7] = {2, 2, 2, 2, 2, 2, 2}, same[7] = {1, 1.01, 0.99, 1, 1.02, 0.98, 1};
    assert_int_equal(ortkit__measure_judge(twice, 7, &med), ORTKIT__MEASURE_SLOWER);
    assert_true(med == 2);
    assert_int_equal(ortkit__measure_judge(twice, 6, &med), ORTKIT__MEASURE_OPEN);
    assert_int_equal(ortkit__measure_judge(same, 7, &med), ORTKIT__MEASURE_ALIKE);
    same[3] = 1.05; /* one round beyond the margin: not yet alike */
    assert_int_equal(ortkit__measure_judge(same, 7, &med), ORTKIT__MEASURE_OPEN);
    assert_true(ortkit__measure_sign_p(500, 1000) > 0.5); /* no overflow for many rounds */
    double x[] = {3, 1, 2, 10};
    assert_true(ortkit__measure_median(x, 4) == 2.5);
    assert_true(x[0] == 3); /* left as it was */
}

/* The faster candidate wins every round: clear after seven, the slower one
 * dropped; the account compares against the declared order's choice. */
static void test_clear_after_seven_rounds(void **state)
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
    /* Seven rounds say it; the next generation's seven must say it again. */
    for (int r = 0; r < 6; r++)
        assert_int_equal(round_of(m, t), 0);
    assert_int_equal(round_of(m, t), 2);
    assert_true(ortkit_measure_timing(m, 0)); /* not yet decided */
    assert_int_equal(ortkit_measure_generation(m), ORTKIT_OK);
    assert_int_equal(settle(m, t, 30), 7);
    assert_int_equal(ortkit_measure_generations(m), 2);
    assert_false(ortkit_measure_timing(m, 0));
    assert_int_equal(ortkit_measure_finish(m, 1.5), ORTKIT_OK);
    assert_string_equal(ortkit_measure_outcome(m), "clear");
    assert_int_equal(ortkit_measure_chosen(m), 1);
    const ortkit_measure_verdict *v = ortkit_measure_candidate(m, 1);
    assert_int_equal(v->state, ORTKIT_MEASURE_FASTEST);
    assert_true(v->chosen && v->runs == 70 && v->rounds == 14);
    assert_true(fabs(v->p50 - 0.002 * 1.02) < 1e-12);
    assert_true(v->p50_low <= v->p50 && v->p50 <= v->p50_high);
    assert_true(v->pair_ratio == 1 && v->pair_rounds == 14 && v->pair_p50 == v->pair_chosen_p50);
    const ortkit_measure_verdict *w = ortkit_measure_candidate(m, 0);
    assert_true(fabs(w->pair_ratio - 2) < 1e-12 && w->pair_rounds == 14);
    assert_true(fabs(w->pair_p50 - 2 * w->pair_chosen_p50) < 1e-12);
    assert_int_equal(ortkit_measure_candidate(m, 0)->state, ORTKIT_MEASURE_SLOWER);
    assert_non_null(strstr(ortkit_measure_candidate(m, 0)->note,
                           "slower than ort-old in 7 of 7 rounds of the last of 2 generations of "
                           "processes, by 100.0% at the median"));
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

/* Alike within the margin both ways (the same build twice, or one 2%
 * slower in every round): no longer timed after seven rounds, tied, and the
 * declared order chooses, even when the other was the quicker. */
static void test_alike_within_margin(void **state)
{
    (void)state;
    static const double slower[] = {1.0, 1.02};
    for (size_t s = 0; s < 2; s++) {
        ortkit_measure *m = started(1);
        assert_int_equal(settle(m, (const double[]){0.003 * slower[s], 0.003}, 40), 14);
        assert_int_equal(ortkit_measure_finish(m, 1), ORTKIT_OK);
        assert_string_equal(ortkit_measure_outcome(m), "tied");
        assert_int_equal(ortkit_measure_chosen(m), 0); /* the declared order's first */
        const ortkit_measure_verdict *v = ortkit_measure_candidate(m, s ? 0 : 1);
        assert_int_equal(v->state, ORTKIT_MEASURE_TIED);
        assert_non_null(strstr(v->note, "within 3% ("));
        ortkit_measure_free(m);
    }
    /* 4% slower in every round: beyond the margin, clearly slower. */
    ortkit_measure *m = started(1);
    assert_int_equal(settle(m, (const double[]){0.003 * 1.04, 0.003}, 40), 14);
    assert_int_equal(ortkit_measure_finish(m, 1), ORTKIT_OK);
    assert_string_equal(ortkit_measure_outcome(m), "clear");
    assert_int_equal(ortkit_measure_chosen(m), 1);
    assert_non_null(strstr(ortkit_measure_candidate(m, 0)->note, "by 4.0% at the median"));
    ortkit_measure_free(m);
}

/* A verdict holds only when two generations of processes in a row reach
 * it: a first process pair's luck (twice as slow) is not confirmed by the
 * next (alike), and the one after that decides. */
static void test_generations_must_agree(void **state)
{
    (void)state;
    ortkit_measure *m = started(1);
    const double lucky[2] = {0.006, 0.003}, alike[2] = {0.003, 0.003};
    for (int r = 0; r < 7; r++)
        assert_int_equal(round_of(m, lucky), r < 6 ? 0 : 2);
    assert_int_equal(ortkit_measure_generation(m), ORTKIT_OK);
    for (int r = 0; r < 7; r++)
        assert_int_equal(round_of(m, alike), r < 6 ? 0 : 2); /* not what the first said */
    assert_int_equal(ortkit_measure_generation(m), ORTKIT_OK);
    for (int r = 0; r < 7; r++)
        assert_int_equal(round_of(m, alike), r < 6 ? 0 : 1);
    assert_int_equal(ortkit_measure_generations(m), 3);
    assert_int_equal(ortkit_measure_finish(m, 1), ORTKIT_OK);
    assert_string_equal(ortkit_measure_outcome(m), "tied");
    assert_int_equal(ortkit_measure_chosen(m), 0);
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
    assert_int_equal(settle(m, (const double[]){0.003, 0.002, 0.0001}, 40), 14);
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
                                    "ort-new (14 rounds)"));
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sign_test),
        cmocka_unit_test(test_clear_after_seven_rounds),
        cmocka_unit_test(test_tied_keeps_declared_order),
        cmocka_unit_test(test_alike_within_margin),
        cmocka_unit_test(test_generations_must_agree),
        cmocka_unit_test(test_differing_build_never_chosen),
        cmocka_unit_test(test_failed_candidate),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_nothing_to_measure),
        cmocka_unit_test(test_key_parts),
        cmocka_unit_test(test_remember_and_recall),
        cmocka_unit_test(test_refused_entries),
        cmocka_unit_test(test_json_round_trip),
        cmocka_unit_test(test_options_version_3),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
