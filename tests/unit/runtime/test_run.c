/* test_run.c - running models: checks, every type, outputs, threads and cancellation. */
#include "testutil.h"
#include "pbwriter.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>


static ortkit_tensor *read_npy(const char *name)
{
    ortkit_tensor *t = NULL;
    if (ortkit_npy_read(&t, model_path(name)))
        fail_msg("%s", ortkit_error_last());
    return t;
}

static void assert_close(const ortkit_tensor *got, const ortkit_tensor *want, double tol)
{
    assert_int_equal(ortkit_tensor_type(got), ortkit_tensor_type(want));
    assert_int_equal(ortkit_tensor_rank(got), ortkit_tensor_rank(want));
    assert_memory_equal(ortkit_tensor_shape(got), ortkit_tensor_shape(want),
                        ortkit_tensor_rank(want) * sizeof(int64_t));
    const float *g = ortkit_tensor_data(got), *w = ortkit_tensor_data(want);
    for (size_t i = 0; i < ortkit_tensor_count(want); i++)
        if (fabs((double)g[i] - (double)w[i]) > tol)
            fail_msg("element %zu: got %g, want %g", i, (double)g[i], (double)w[i]);
}

static void test_add_matches_reference(void **state)
{
    (void)state;
    ortkit_tensor *a = read_npy("add_a.npy"), *b = read_npy("add_b.npy"), *want = read_npy("add_sum.npy");
    for (int r = 0; r < 2; r++) {
        ortkit_session *s = open_model(runtimes[r], "add.onnx");
        const char *names[] = {"b", "a"}; /* any order */
        const ortkit_tensor *inputs[] = {b, a};
        ortkit_tensor *out = NULL;
        assert_int_equal(ortkit_session_run(s, NULL, names, inputs, 2, NULL, 0, &out), 0);
        assert_close(out, want, 0);
        /* Feed an output back in as an input: the recurrent-state pattern. */
        ortkit_tensor *again = NULL;
        const ortkit_tensor *inputs2[] = {b, out};
        assert_int_equal(ortkit_session_run(s, NULL, names, inputs2, 2, NULL, 0, &again), 0);
        const float *o1 = ortkit_tensor_data(out), *o2 = ortkit_tensor_data(again);
        const float *bv = ortkit_tensor_data(b);
        for (size_t i = 0; i < 6; i++)
            assert_true(o2[i] == o1[i] + bv[i]);
        ortkit_tensor_free(again);
        ortkit_tensor_free(out);
        ortkit_session_free(s);
    }
    ortkit_tensor_free(a);
    ortkit_tensor_free(b);
    ortkit_tensor_free(want);
}

static void test_same_tensor_two_runtimes(void **state)
{
    (void)state;
    /* One input tensor used by both runtimes in turn: each gets its own ORT value. */
    ortkit_tensor *a = read_npy("add_a.npy"), *b = read_npy("add_b.npy"), *want = read_npy("add_sum.npy");
    ortkit_session *s0 = open_model(runtimes[0], "add.onnx"), *s1 = open_model(runtimes[1], "add.onnx");
    const ortkit_tensor *inputs[] = {a, b};
    for (int i = 0; i < 3; i++) {
        ortkit_tensor *o0 = NULL, *o1 = NULL;
        assert_int_equal(ortkit_session_infer(s0, inputs, 2, &o0, 1), 0);
        assert_int_equal(ortkit_session_infer(s1, inputs, 2, &o1, 1), 0);
        assert_close(o0, want, 0);
        assert_close(o1, want, 0);
        ortkit_tensor_free(o0);
        ortkit_tensor_free(o1);
    }
    ortkit_session_free(s0);
    ortkit_session_free(s1);
    ortkit_tensor_free(a);
    ortkit_tensor_free(b);
    ortkit_tensor_free(want);
}

static void test_input_checks(void **state)
{
    (void)state;
    ortkit_session *s = open_model(runtimes[0], "add.onnx");
    ortkit_tensor *good = read_npy("add_a.npy"), *i64 = read_npy("i64_1x3.npy"), *out = NULL;
    const char *names[] = {"a", "b"};

    const ortkit_tensor *wrong_type[] = {i64, good};
    assert_int_equal(ortkit_session_run(s, NULL, names, wrong_type, 2, NULL, 0, &out), ORTKIT_E_SHAPE);
    assert_string_equal(ortkit_error_last(), "input 'a' expects float32[N,3], got int64[1,3]");

    int64_t shape3[] = {2, 3, 1}, shape_bad[] = {2, 4};
    ortkit_tensor *rank3 = NULL, *dim4 = NULL;
    assert_int_equal(ortkit_tensor_new(&rank3, ORTKIT_TYPE_FLOAT32, shape3, 3), 0);
    assert_int_equal(ortkit_tensor_new(&dim4, ORTKIT_TYPE_FLOAT32, shape_bad, 2), 0);
    const ortkit_tensor *wrong_rank[] = {good, rank3};
    assert_int_equal(ortkit_session_run(s, NULL, names, wrong_rank, 2, NULL, 0, &out), ORTKIT_E_SHAPE);
    assert_string_equal(ortkit_error_last(), "input 'b' expects float32[N,3], got float32[2,3,1]");
    const ortkit_tensor *wrong_dim[] = {good, dim4};
    assert_int_equal(ortkit_session_run(s, NULL, names, wrong_dim, 2, NULL, 0, &out), ORTKIT_E_SHAPE);

    const char *unknown[] = {"a", "zz"};
    const ortkit_tensor *two[] = {good, good};
    assert_int_equal(ortkit_session_run(s, NULL, unknown, two, 2, NULL, 0, &out), ORTKIT_E_NAME);
    assert_error_has("'zz'");
    const char *twice[] = {"a", "a"};
    assert_int_equal(ortkit_session_run(s, NULL, twice, two, 2, NULL, 0, &out), ORTKIT_E_NAME);
    assert_error_has("twice");
    assert_int_equal(ortkit_session_run(s, NULL, names, two, 1, NULL, 0, &out), ORTKIT_E_NAME);
    assert_string_equal(ortkit_error_last(), "missing input 'b' (float32[N,3])");
    const char *no_out[] = {"nope"};
    assert_int_equal(ortkit_session_run(s, NULL, names, two, 2, no_out, 1, &out), ORTKIT_E_NAME);
    assert_error_has("'nope'");
    assert_int_equal(ortkit_session_infer(s, two, 1, &out, 1), ORTKIT_E_NAME);
    assert_int_equal(ortkit_session_run(NULL, NULL, names, two, 2, NULL, 0, &out), ORTKIT_E_INVALID_ARG);
    /* Nothing was produced by any failed call. */
    assert_null(out);

    ortkit_tensor_free(rank3);
    ortkit_tensor_free(dim4);
    ortkit_tensor_free(good);
    ortkit_tensor_free(i64);
    ortkit_session_free(s);
}

/* A model with 10,000 inputs: names are found through the session's index,
 * not by a search per input (which took 7-8 s a run at 50,000 inputs). */
static void test_many_inputs(void **state)
{
    (void)state;
    enum { N = 10000 };
    /* ModelProto{ir_version 7, opset 13, graph{Sum(x0..x9999) -> y}}, each
     * float32[1]: written here, since it is larger than a test model file may be. */
    pbw node = {0}, graph = {0}, model = {0}, opset = {0}, vi = {0}, type = {0}, tt = {0},
        dims = {0}, dim = {0};
    pb_int(&dim, 1, 1);
    pb_msg(&dims, 1, &dim);
    pb_int(&tt, 1, 1); /* FLOAT */
    pb_msg(&tt, 2, &dims);
    pb_msg(&type, 1, &tt);
    char name[16];
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "x%d", i);
        pb_str(&node, 1, name);
    }
    pb_str(&node, 2, "y");
    pb_str(&node, 4, "Sum");
    pb_msg(&graph, 1, &node);
    pb_str(&graph, 2, "wide");
    for (int i = 0; i <= N; i++) {
        vi.len = 0;
        snprintf(name, sizeof name, "x%d", i);
        pb_str(&vi, 1, i < N ? name : "y");
        pb_msg(&vi, 2, &type);
        pb_msg(&graph, i < N ? 11 : 12, &vi);
    }
    pb_int(&model, 1, 7);
    pb_msg(&model, 7, &graph);
    pb_str(&opset, 1, "");
    pb_int(&opset, 2, 13);
    pb_msg(&model, 8, &opset);
    ortkit_session *s = NULL;
    if (ortkit_session_open_memory(&s, runtimes[0], model.buf, model.len, NULL))
        fail_msg("cannot open the wide model: %s", ortkit_error_last());
    pbw *parts[] = {&node, &graph, &model, &opset, &vi, &type, &tt, &dims, &dim};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        pb_free(parts[i]);
    assert_int_equal(ortkit_session_input_count(s), N);
    static char names_buf[N][8];
    static const char *names[N];
    static ortkit_tensor *ts[N];
    const int64_t shape[1] = {1};
    for (int i = 0; i < N; i++) {
        snprintf(names_buf[i], sizeof names_buf[i], "x%d", N - 1 - i); /* in reverse */
        names[i] = names_buf[i];
        assert_int_equal(ortkit_tensor_new(&ts[i], ORTKIT_TYPE_FLOAT32, shape, 1), 0);
        *(float *)ortkit_tensor_data(ts[i]) = 1.0f;
    }
    assert_int_equal(ortkit_session_input_index(s, "x0"), 0);
    assert_int_equal(ortkit_session_input_index(s, "x9999"), N - 1);
    assert_int_equal(ortkit_session_input_index(s, "x10000"), -1);
    assert_int_equal(ortkit_session_input_index(s, NULL), -1);
    assert_int_equal(ortkit_session_output_index(s, "y"), 0);
    assert_int_equal(ortkit_session_output_index(s, "x0"), -1);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int round = 0; round < 10; round++) {
        ortkit_tensor *out = NULL;
        assert_int_equal(ortkit_session_run(s, NULL, names, (const ortkit_tensor *const *)ts, N,
                                            NULL, 0, &out), 0);
        assert_true(*(const float *)ortkit_tensor_data(out) == (float)N);
        ortkit_tensor_free(out);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    /* A search per input is 5e8 string comparisons for these ten runs;
     * under qemu everything is ten or more times slower, that too. */
    double limit = test_emulated() ? 30.0 : 3.0;
    if (took > limit)
        fail_msg("10 runs of 10,000 inputs took %.2f s (limit %.0f s)", took, limit);
    const char *twice[2] = {"x5", "x5"};
    const ortkit_tensor *two[2] = {ts[0], ts[1]};
    ortkit_tensor *out = NULL;
    assert_int_equal(ortkit_session_run(s, NULL, twice, two, 2, NULL, 0, &out), ORTKIT_E_NAME);
    assert_error_has("twice");
    for (int i = 0; i < N; i++)
        ortkit_tensor_free(ts[i]);
    ortkit_session_free(s);
}

static void test_selected_outputs_and_sequences(void **state)
{
    (void)state;
    ortkit_session *s = open_model(runtimes[0], "seq_out.onnx");
    int64_t sa[] = {2}, sb[] = {3};
    ortkit_tensor *a = NULL, *b = NULL, *outs[2] = {NULL, NULL};
    assert_int_equal(ortkit_tensor_new(&a, ORTKIT_TYPE_FLOAT32, sa, 1), 0);
    assert_int_equal(ortkit_tensor_new(&b, ORTKIT_TYPE_FLOAT32, sb, 1), 0);
    const char *names[] = {"a", "b"};
    const ortkit_tensor *inputs[] = {a, b};
    assert_int_equal(ortkit_session_run(s, NULL, names, inputs, 2, NULL, 0, outs), ORTKIT_E_UNSUPPORTED);
    assert_error_has("output 'seq' is a sequence");
    const char *only_t[] = {"t"};
    assert_int_equal(ortkit_session_run(s, NULL, names, inputs, 2, only_t, 1, outs), 0);
    assert_int_equal(ortkit_tensor_count(outs[0]), 2);
    ortkit_tensor_free(outs[0]);
    ortkit_tensor_free(a);
    ortkit_tensor_free(b);
    ortkit_session_free(s);
}

static void test_every_type_round_trips(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        ortkit_session *s = open_model(runtimes[r], "identity_types.onnx");
        size_t n = ortkit_session_input_count(s);
        assert_int_equal(n, 14);
        for (size_t i = 0; i < n; i++) {
            const ortkit_io_info *io = ortkit_session_input(s, i);
            int64_t shape[] = {2, 3};
            ortkit_tensor *in = NULL, *out = NULL;
            assert_int_equal(ortkit_tensor_new(&in, io->type, shape, 2), 0);
            if (io->type == ORTKIT_TYPE_STRING) {
                const char *words[] = {"", "a", "héllo", "x y", "12345678901234567890", "z"};
                for (size_t k = 0; k < 6; k++)
                    assert_int_equal(ortkit_tensor_set_string(in, k, words[k]), 0);
            } else {
                unsigned char *d = ortkit_tensor_data(in);
                for (size_t k = 0; k < ortkit_tensor_nbytes(in); k++)
                    d[k] = (unsigned char)(k * 7 + 1);
                if (io->type == ORTKIT_TYPE_BOOL)
                    for (size_t k = 0; k < 6; k++)
                        d[k] &= 1;
            }
            char out_name[64];
            snprintf(out_name, sizeof out_name, "out_%s", io->name + 3);
            const char *out_names[] = {out_name};
            const ortkit_tensor *inputs[] = {in};
            /* Run with just this input: the others are needed too, so give zeros. */
            const ortkit_tensor **all = calloc(n, sizeof *all);
            const char **all_names = calloc(n, sizeof *all_names);
            ortkit_tensor **zeros = calloc(n, sizeof *zeros);
            for (size_t k = 0; k < n; k++) {
                const ortkit_io_info *other = ortkit_session_input(s, k);
                all_names[k] = other->name;
                if (k == i) {
                    all[k] = inputs[0];
                } else {
                    assert_int_equal(ortkit_tensor_new(&zeros[k], other->type, shape, 2), 0);
                    all[k] = zeros[k];
                }
            }
            if (ortkit_session_run(s, NULL, all_names, all, n, out_names, 1, &out))
                fail_msg("%s: %s", io->name, ortkit_error_last());
            assert_int_equal(ortkit_tensor_type(out), io->type);
            if (io->type == ORTKIT_TYPE_STRING) {
                for (size_t k = 0; k < 6; k++)
                    assert_string_equal(ortkit_tensor_string(out, k), ortkit_tensor_string(in, k));
            } else {
                assert_int_equal(ortkit_tensor_nbytes(out), ortkit_tensor_nbytes(in));
                assert_memory_equal(ortkit_tensor_data(out), ortkit_tensor_data(in), ortkit_tensor_nbytes(in));
            }
            for (size_t k = 0; k < n; k++)
                ortkit_tensor_free(zeros[k]);
            free(zeros);
            free(all);
            free(all_names);
            ortkit_tensor_free(in);
            ortkit_tensor_free(out);
        }
        ortkit_session_free(s);
    }
}

static void test_scalar(void **state)
{
    (void)state;
    ortkit_tensor *n = read_npy("n.npy"), *out = NULL;
    assert_int_equal(ortkit_tensor_rank(n), 0);
    ortkit_session *s = open_model(runtimes[1], "int_scalar.onnx");
    const ortkit_tensor *inputs[] = {n};
    assert_int_equal(ortkit_session_infer(s, inputs, 1, &out, 1), 0);
    assert_int_equal(ortkit_tensor_rank(out), 0);
    assert_int_equal(((const int64_t *)ortkit_tensor_data(out))[0], 42);
    ortkit_tensor_free(out);
    ortkit_tensor_free(n);
    ortkit_session_free(s);
}

/* An input whose type has no shape takes a tensor of any shape (it was
 * taken for a scalar: [2,3] was refused); its type still has to match. */
static void test_unknown_rank_input(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        ortkit_session *s = open_model(runtimes[r], "shapeless.onnx");
        static const int64_t shapes[][3] = {{2, 3}, {0}, {4, 1, 2}};
        static const size_t ranks[] = {2, 0, 3};
        int64_t k = 7;
        ortkit_tensor *n = NULL;
        assert_int_equal(ortkit_tensor_borrow(&n, ORTKIT_TYPE_INT64, NULL, 0, &k, sizeof k), 0);
        for (size_t c = 0; c < 3; c++) {
            ortkit_tensor *x = NULL, *out[2] = {NULL, NULL};
            assert_int_equal(ortkit_tensor_new(&x, ORTKIT_TYPE_FLOAT32, shapes[c], ranks[c]), 0);
            for (size_t i = 0; i < ortkit_tensor_count(x); i++)
                ((float *)ortkit_tensor_data(x))[i] = (float)i;
            const ortkit_tensor *in[] = {x, n};
            if (ortkit_session_infer(s, in, 2, out, 2))
                fail_msg("%s, rank %zu: %s", test_runtimes[r], ranks[c], ortkit_error_last());
            assert_int_equal(ortkit_tensor_rank(out[0]), ranks[c]);
            for (size_t i = 0; i < ortkit_tensor_count(x); i++)
                assert_true(((const float *)ortkit_tensor_data(out[0]))[i] == -(float)i);
            assert_int_equal(*(const int64_t *)ortkit_tensor_data(out[1]), 7);
            ortkit_tensor_free(out[0]);
            ortkit_tensor_free(out[1]);
            ortkit_tensor_free(x);
        }
        /* The type is still checked, and so is the declared scalar beside it. */
        int64_t shape[] = {2, 3};
        ortkit_tensor *wrong = NULL, *out[2] = {NULL, NULL};
        assert_int_equal(ortkit_tensor_new(&wrong, ORTKIT_TYPE_INT64, shape, 2), 0);
        const ortkit_tensor *bad_type[] = {wrong, n};
        assert_int_equal(ortkit_session_infer(s, bad_type, 2, out, 2), ORTKIT_E_SHAPE);
        assert_error_has("input 'x' expects float32[?...], got int64[2,3]");
        ortkit_tensor *x = NULL;
        assert_int_equal(ortkit_tensor_new(&x, ORTKIT_TYPE_FLOAT32, shape, 2), 0);
        const ortkit_tensor *bad_scalar[] = {x, wrong};
        assert_int_equal(ortkit_session_infer(s, bad_scalar, 2, out, 2), ORTKIT_E_SHAPE);
        assert_error_has("input 'n' expects int64[], got int64[2,3]");
        ortkit_tensor_free(x);
        ortkit_tensor_free(wrong);
        ortkit_tensor_free(n);
        ortkit_session_free(s);
    }
}

/* ---- many threads on one session ---- */

typedef struct worker {
    ortkit_session *session;
    const ortkit_tensor *x;
    const ortkit_tensor *expected;
    int runs, mismatches, failures;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    const char *names[] = {"x"};
    for (int i = 0; i < w->runs; i++) {
        ortkit_tensor *y = NULL;
        if (ortkit_session_run(w->session, NULL, names, &w->x, 1, NULL, 0, &y)) {
            w->failures++;
            continue;
        }
        if (ortkit_tensor_nbytes(y) != ortkit_tensor_nbytes(w->expected) ||
            memcmp(ortkit_tensor_data(y), ortkit_tensor_data(w->expected), ortkit_tensor_nbytes(y)))
            w->mismatches++;
        ortkit_tensor_free(y);
    }
    return NULL;
}

static void test_concurrent_runs(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
        o.intra_op_threads = 1;
        ortkit_session *s = NULL;
        assert_int_equal(ortkit_session_open(&s, runtimes[r], model_path("matmul.onnx"), &o), 0);
        ortkit_tensor *x = read_npy("matmul_x.npy"), *want = read_npy("matmul_y.npy"), *ref = NULL;
        const char *names[] = {"x"};
        const ortkit_tensor *in[] = {x};
        /* The single-threaded answer first; it also matches numpy closely. */
        assert_int_equal(ortkit_session_run(s, NULL, names, in, 1, NULL, 0, &ref), 0);
        assert_close(ref, want, 1e-4);
        enum { THREADS = 6 };
        pthread_t tid[THREADS];
        worker w[THREADS];
        for (int t = 0; t < THREADS; t++) {
            w[t] = (worker){s, x, ref, 60, 0, 0};
            assert_int_equal(pthread_create(&tid[t], NULL, work, &w[t]), 0);
        }
        for (int t = 0; t < THREADS; t++) {
            pthread_join(tid[t], NULL);
            assert_int_equal(w[t].failures, 0);
            assert_int_equal(w[t].mismatches, 0);
        }
        ortkit_tensor_free(ref);
        ortkit_tensor_free(x);
        ortkit_tensor_free(want);
        ortkit_session_free(s);
    }
}

/* ---- cancellation ---- */

typedef struct slow_run {
    ortkit_session *session;
    ortkit_run_control *control;
    int64_t iterations;
    int rc;
} slow_run;

static void *run_slow(void *arg)
{
    slow_run *sr = arg;
    int64_t shape[] = {1, 256}, it = sr->iterations;
    ortkit_tensor *x = NULL, *n = NULL, *y = NULL;
    ortkit_tensor_new(&x, ORTKIT_TYPE_FLOAT32, shape, 2);
    ortkit_tensor_borrow(&n, ORTKIT_TYPE_INT64, NULL, 0, &it, sizeof it);
    const char *names[] = {"x", "iterations"};
    const ortkit_tensor *inputs[] = {x, n};
    sr->rc = ortkit_session_run(sr->session, sr->control, names, inputs, 2, NULL, 0, &y);
    ortkit_tensor_free(y);
    ortkit_tensor_free(x);
    ortkit_tensor_free(n);
    return NULL;
}

static void test_cancel(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
        o.intra_op_threads = 1;
        ortkit_session *s = NULL;
        assert_int_equal(ortkit_session_open(&s, runtimes[r], model_path("slow.onnx"), &o), 0);
        ortkit_run_control *c = NULL;
        assert_int_equal(ortkit_run_control_new(&c, s), 0);
        /* Long enough (minutes) that only a cancel can end it in time for the test. */
        slow_run sr = {s, c, 100000000, 1};
        pthread_t tid;
        assert_int_equal(pthread_create(&tid, NULL, run_slow, &sr), 0);
        usleep(200 * 1000);
        ortkit_run_control_cancel(c);
        pthread_join(tid, NULL);
        assert_int_equal(sr.rc, ORTKIT_E_CANCELLED);
        /* Still cancelled until reset; after reset the control runs again. */
        sr.iterations = 2;
        run_slow(&sr);
        assert_int_equal(sr.rc, ORTKIT_E_CANCELLED);
        ortkit_run_control_reset(c);
        run_slow(&sr);
        assert_int_equal(sr.rc, 0);
        ortkit_run_control_free(c);
        ortkit_session_free(s);
    }
    ortkit_run_control_free(NULL);
}

/*
 * One thread cancels and resets a control over and over while others run
 * with it: a run's result must come from that run.  A reset landing between
 * ORT's return and the check once turned cancelled runs into ORTKIT_E_RUN
 * ("Exiting due to terminate flag being set"), up to 40% of them.
 */
enum { STRESS_RUNNERS = 3, STRESS_MS = 1500 };

typedef struct stress {
    ortkit_session *session;
    ortkit_run_control *control;
    atomic_int stop;
    unsigned scale; /* how many times slower than 2 ms a run is here (qemu: tens) */
    int ok, cancelled, other;
    char other_error[512];
} stress;

typedef struct stress_runner {
    stress *st;
    int ok, cancelled, other;
    char other_error[512];
} stress_runner;

/* One run of slow.onnx as the stress runs it: 0 when it ran. */
static int stress_once(stress *st, ortkit_run_control *control)
{
    int64_t shape[] = {1, 256}, it = 8; /* about 2 ms a run */
    ortkit_tensor *x = NULL, *n = NULL, *y = NULL;
    ortkit_tensor_new(&x, ORTKIT_TYPE_FLOAT32, shape, 2);
    ortkit_tensor_borrow(&n, ORTKIT_TYPE_INT64, NULL, 0, &it, sizeof it);
    const char *names[] = {"x", "iterations"};
    const ortkit_tensor *inputs[] = {x, n};
    int rc = ortkit_session_run(st->session, control, names, inputs, 2, NULL, 0, &y);
    ortkit_tensor_free(y);
    ortkit_tensor_free(x);
    ortkit_tensor_free(n);
    return rc;
}

static void *stress_run(void *arg)
{
    stress_runner *r = arg;
    int64_t shape[] = {1, 256}, it = 8; /* about 2 ms a run */
    ortkit_tensor *x = NULL, *n = NULL;
    ortkit_tensor_new(&x, ORTKIT_TYPE_FLOAT32, shape, 2);
    ortkit_tensor_borrow(&n, ORTKIT_TYPE_INT64, NULL, 0, &it, sizeof it);
    const char *names[] = {"x", "iterations"};
    const ortkit_tensor *inputs[] = {x, n};
    /* For a time, not a count: a cancelled run fails at once, and a count
     * of them could all fit into one cancelled spell. */
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        ortkit_tensor *y = NULL;
        int rc = ortkit_session_run(r->st->session, r->st->control, names, inputs, 2, NULL, 0, &y);
        ortkit_tensor_free(y);
        if (rc == 0)
            r->ok++;
        else if (rc == ORTKIT_E_CANCELLED)
            r->cancelled++;
        else if (r->other++ == 0)
            snprintf(r->other_error, sizeof r->other_error, "%d: %s", rc, ortkit_error_last());
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 < STRESS_MS);
    ortkit_tensor_free(x);
    ortkit_tensor_free(n);
    return NULL;
}

static void *stress_cancel(void *arg)
{
    stress *st = arg;
    unsigned k = 0;
    while (!atomic_load(&st->stop)) {
        /* Free for a few runs, then cancelled for a fraction of one. */
        usleep(st->scale * (2000 + 1000 * (k % 5)));
        ortkit_run_control_cancel(st->control);
        usleep(st->scale * (100 + 100 * (k++ % 7)));
        ortkit_run_control_reset(st->control);
    }
    return NULL;
}

static void test_cancel_reset_race(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
        o.intra_op_threads = 1;
        stress st = {0};
        assert_int_equal(ortkit_session_open(&st.session, runtimes[r], model_path("slow.onnx"), &o), 0);
        assert_int_equal(ortkit_run_control_new(&st.control, st.session), 0);
        /* The schedule follows this machine's speed: a run takes about 2 ms
         * natively, tens of times that under an emulator. */
        struct timespec t0, t1;
        assert_int_equal(stress_once(&st, NULL), 0); /* the first run pays for more */
        clock_gettime(CLOCK_MONOTONIC, &t0);
        assert_int_equal(stress_once(&st, NULL), 0);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        long us = (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000;
        st.scale = us > 2000 ? (unsigned)(us / 2000) : 1;
        if (st.scale > 50) { /* qemu: seconds a run, too few runs for the race */
            fprintf(stderr, "a run takes %ld ms here: too slow for the race to be exercised\n",
                    us / 1000);
            ortkit_run_control_free(st.control);
            ortkit_session_free(st.session);
            skip();
        }
        pthread_t canceller, tid[STRESS_RUNNERS];
        stress_runner runner[STRESS_RUNNERS];
        assert_int_equal(pthread_create(&canceller, NULL, stress_cancel, &st), 0);
        for (int t = 0; t < STRESS_RUNNERS; t++) {
            runner[t] = (stress_runner){&st, 0, 0, 0, ""};
            assert_int_equal(pthread_create(&tid[t], NULL, stress_run, &runner[t]), 0);
        }
        for (int t = 0; t < STRESS_RUNNERS; t++) {
            pthread_join(tid[t], NULL);
            st.ok += runner[t].ok;
            st.cancelled += runner[t].cancelled;
            if (runner[t].other && !st.other)
                memcpy(st.other_error, runner[t].other_error, sizeof st.other_error);
            st.other += runner[t].other;
        }
        atomic_store(&st.stop, 1);
        pthread_join(canceller, NULL);
        if (st.other)
            fail_msg("%s: %d of %d runs failed otherwise than cancelled; first: %s",
                     test_runtimes[r], st.other, st.ok + st.cancelled + st.other, st.other_error);
        /* Both outcomes happened, or the test proved nothing. */
        if (!st.ok || !st.cancelled)
            fail_msg("%s: %d runs ok, %d cancelled: the race was not exercised", test_runtimes[r],
                     st.ok, st.cancelled);
        ortkit_run_control_free(st.control);
        ortkit_session_free(st.session);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_matches_reference),
        cmocka_unit_test(test_same_tensor_two_runtimes),
        cmocka_unit_test(test_input_checks),
        cmocka_unit_test(test_many_inputs),
        cmocka_unit_test(test_selected_outputs_and_sequences),
        cmocka_unit_test(test_every_type_round_trips),
        cmocka_unit_test(test_scalar),
        cmocka_unit_test(test_unknown_rank_input),
        cmocka_unit_test(test_concurrent_runs),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_cancel_reset_race),
    };
    return cmocka_run_group_tests(tests, open_runtimes, free_runtimes);
}
