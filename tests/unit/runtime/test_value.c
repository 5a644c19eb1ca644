/* test_value.c - values of every kind: building, reading, and running them
 * through both runtimes (sequences, maps, optionals, the classifier). */
#include "testutil.h"

#include <math.h>
#include <pthread.h>

static ortkit_value *tensor_value(ortkit_type type, const int64_t *shape, size_t rank,
                                  const void *data)
{
    ortkit_tensor *t = NULL;
    ortkit_value *v = NULL;
    assert_int_equal(ortkit_tensor_new(&t, type, shape, rank), 0);
    memcpy(ortkit_tensor_data(t), data, ortkit_tensor_nbytes(t));
    assert_int_equal(ortkit_value_new_tensor(&v, t), 0);
    return v;
}

static ortkit_value *floats(const float *data, int64_t n)
{
    return tensor_value(ORTKIT_TYPE_FLOAT32, (int64_t[]){n}, 1, data);
}

static void test_build_and_describe(void **state)
{
    (void)state;
    char buf[128];
    ortkit_value *items[2] = {floats((float[]){1, 2}, 2), floats((float[]){3}, 1)};
    ortkit_value *seq = NULL, *opt = NULL, *none = NULL;
    assert_int_equal(ortkit_value_new_sequence(&seq, items, 2), 0);
    assert_int_equal(ortkit_value_kind_of(seq), ORTKIT_KIND_SEQUENCE);
    assert_int_equal(ortkit_value_count(seq), 2);
    assert_ptr_equal(ortkit_value_item(seq, 1), items[1]);
    assert_null(ortkit_value_item(seq, 2));
    ortkit_value_describe(seq, buf, sizeof buf);
    assert_string_equal(buf, "sequence<float32>(2)");
    assert_int_equal(ortkit_value_new_optional(&opt, seq), 0);
    ortkit_value_describe(opt, buf, sizeof buf);
    assert_string_equal(buf, "optional<sequence<float32>(2)>");
    ortkit_value_type_describe(ortkit_value_type_of(opt), buf, sizeof buf);
    assert_string_equal(buf, "optional<sequence<float32>>");
    assert_int_equal(ortkit_value_new_optional(&none, NULL), 0);
    assert_int_equal(ortkit_value_count(none), 0);
    ortkit_value_describe(none, buf, sizeof buf);
    assert_string_equal(buf, "optional<none>");
    ortkit_value_free(opt);
    ortkit_value_free(none);
    ortkit_value_free(NULL);
}

static void test_bad_values(void **state)
{
    (void)state;
    /* A sequence with mixed element types is refused and gives nothing back. */
    ortkit_value *items[2] = {floats((float[]){1}, 1),
                              tensor_value(ORTKIT_TYPE_INT64, (int64_t[]){1}, 1, (int64_t[]){1})};
    ortkit_value *seq = (ortkit_value *)1;
    assert_int_equal(ortkit_value_new_sequence(&seq, items, 2), ORTKIT_E_SHAPE);
    assert_null(seq);
    assert_error_has("sequence element 1 is int64, element 0 is float32");
    ortkit_value_free(items[0]);
    ortkit_value_free(items[1]);

    /* Map keys: int64 or string, unique, as long as the values. */
    ortkit_tensor *k = NULL, *v = NULL;
    ortkit_value *m = NULL;
    assert_int_equal(ortkit_tensor_new(&k, ORTKIT_TYPE_FLOAT32, (int64_t[]){2}, 1), 0);
    assert_int_equal(ortkit_tensor_new(&v, ORTKIT_TYPE_FLOAT32, (int64_t[]){2}, 1), 0);
    assert_int_equal(ortkit_value_new_map(&m, k, v), ORTKIT_E_SHAPE);
    assert_error_has("map keys are float32");
    ortkit_tensor_free(k);
    assert_int_equal(ortkit_tensor_new(&k, ORTKIT_TYPE_INT64, (int64_t[]){2}, 1), 0);
    assert_int_equal(ortkit_value_new_map(&m, k, v), ORTKIT_E_SHAPE);
    assert_error_has("map key 0 is given twice");
    ((int64_t *)ortkit_tensor_data(k))[1] = 7;
    assert_int_equal(ortkit_value_new_map(&m, k, v), 0);
    char buf[64];
    ortkit_value_describe(m, buf, sizeof buf);
    assert_string_equal(buf, "map<int64,float32>{2}");
    ortkit_value_free(m);
}

static void test_sequences_run(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        ortkit_session *s = open_model(runtimes[r], "seq_ops.onnx");
        char buf[128];
        ortkit_io_describe(ortkit_session_input(s, 0), buf, sizeof buf);
        assert_string_equal(buf, "sequence<float32>");
        float a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8, 9, 10, 11, 12};
        ortkit_value *items[2] = {tensor_value(ORTKIT_TYPE_FLOAT32, (int64_t[]){1, 4}, 2, a),
                                  tensor_value(ORTKIT_TYPE_FLOAT32, (int64_t[]){2, 4}, 2, b)};
        ortkit_value *seq = NULL, *x = tensor_value(ORTKIT_TYPE_FLOAT32, (int64_t[]){2, 4}, 2, b);
        assert_int_equal(ortkit_value_new_sequence(&seq, items, 2), 0);
        const char *names[] = {"seq", "x"};
        const ortkit_value *in[] = {seq, x};
        ortkit_value *out[4] = {0};
        for (int run = 0; run < 2; run++) {
            assert_int_equal(ortkit_session_run_values(s, NULL, names, in, 2, NULL, 0, out), 0);
            const ortkit_tensor *cat = ortkit_value_tensor(out[0]);
            assert_int_equal(ortkit_tensor_shape(cat)[0], 3);
            /* The sequence is passed in place: a change to an element shows. */
            assert_true(((float *)ortkit_tensor_data(cat))[0] == (run ? 100.0f : 1.0f));
            assert_int_equal(*(int64_t *)ortkit_tensor_data(ortkit_value_tensor(out[1])), 2);
            assert_int_equal(ortkit_value_count(out[2]), 2);
            const ortkit_tensor *row1 = ortkit_value_tensor(ortkit_value_item(out[2], 1));
            assert_int_equal(ortkit_tensor_rank(row1), 1);
            assert_true(((float *)ortkit_tensor_data(row1))[0] == 9.0f);
            ortkit_value_describe(out[3], buf, sizeof buf);
            assert_string_equal(buf, "sequence<float32>(2)");
            for (int i = 0; i < 4; i++) {
                ortkit_value_free(out[i]);
                out[i] = NULL;
            }
            ((float *)ortkit_tensor_data(ortkit_value_tensor(items[0])))[0] = 100.0f;
        }
        /* The tensor API names the value API for other kinds. */
        ortkit_tensor *t[4] = {0};
        const ortkit_tensor *tin[] = {ortkit_value_tensor(x)};
        const char *xn[] = {"x"};
        const char *rows[] = {"rows"};
        assert_int_equal(ortkit_session_run(s, NULL, xn, tin, 1, rows, 1, t), ORTKIT_E_NAME);
        /* An empty sequence: the runtime makes it, of the declared type, and
         * takes it (ConcatFromSequence then refuses to concatenate nothing). */
        ortkit_value *empty = NULL;
        assert_int_equal(ortkit_value_new_sequence(&empty, NULL, 0), 0);
        const ortkit_value *in2[] = {empty, x};
        for (int run = 0; run < 2; run++) {
            assert_int_equal(ortkit_session_run_values(s, NULL, names, in2, 2, NULL, 0, out),
                             ORTKIT_E_RUN);
            assert_error_has("ConcatFromSequence");
        }
        /* A tensor where a sequence is declared names both. */
        const ortkit_value *in3[] = {x, x};
        assert_int_equal(ortkit_session_run_values(s, NULL, names, in3, 2, NULL, 0, out),
                         ORTKIT_E_SHAPE);
        assert_error_has("input 'seq' expects sequence<float32>, got float32[2,4]");
        ortkit_value_free(empty);
        ortkit_value_free(seq);
        ortkit_value_free(x);
        ortkit_session_free(s);
    }
}

static int has_element(const ortkit_value *v)
{
    return *(const unsigned char *)ortkit_tensor_data(ortkit_value_tensor(v));
}

static void test_optionals_run(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        ortkit_session *s = open_model(runtimes[r], "optional.onnx");
        char buf[128];
        ortkit_io_describe(ortkit_session_output(s, 1), buf, sizeof buf);
        assert_string_equal(buf, "optional<float32>");
        ortkit_value *x = floats((float[]){1, 2, 3}, 3), *none = NULL;
        assert_int_equal(ortkit_value_new_optional(&none, NULL), 0);
        const char *names[] = {"maybe"};
        ortkit_value *out[2] = {0};
        /* A tensor, none, and nothing at all (none too). */
        const ortkit_value *given[] = {x, none};
        for (int k = 0; k < 3; k++) {
            size_t n = k < 2 ? 1 : 0;
            assert_int_equal(ortkit_session_run_values(s, NULL, names, k < 2 ? &given[k] : NULL,
                                                       n, NULL, 0, out), 0);
            assert_int_equal(has_element(out[0]), k == 0);
            assert_int_equal(ortkit_value_kind_of(out[1]), ORTKIT_KIND_OPTIONAL);
            assert_int_equal(ortkit_value_count(out[1]), k == 0);
            ortkit_value_describe(out[1], buf, sizeof buf);
            assert_string_equal(buf, k == 0 ? "optional<float32[3]>" : "optional<none>");
            ortkit_value_type_describe(ortkit_value_type_of(out[1]), buf, sizeof buf);
            assert_string_equal(buf, "optional<float32>");
            ortkit_value_free(out[0]);
            ortkit_value_free(out[1]);
        }
        /* An optional given where a tensor is required is named. */
        ortkit_session *add = open_model(runtimes[r], "add.onnx");
        ortkit_value *opt = NULL, *b = floats((float[]){1, 2, 3, 4, 5, 6}, 6);
        assert_int_equal(ortkit_value_new_optional(&opt, floats((float[]){1, 2, 3, 4, 5, 6}, 6)), 0);
        const char *ab[] = {"a", "b"};
        const ortkit_value *in[] = {opt, b};
        ortkit_value *sum = NULL;
        assert_int_equal(ortkit_session_run_values(add, NULL, ab, in, 2, NULL, 0, &sum),
                         ORTKIT_E_SHAPE);
        assert_error_has("input 'a' expects float32[N,3], got optional<float32[6]>");
        ortkit_value_free(opt);
        ortkit_value_free(b);
        ortkit_session_free(add);
        ortkit_value_free(x);
        ortkit_value_free(none);
        ortkit_session_free(s);
    }
}

static void test_maps_run(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        ortkit_session *s = open_model(runtimes[r], "map_in.onnx");
        ortkit_tensor *k = NULL, *v = NULL;
        ortkit_value *m = NULL, *out = NULL;
        assert_int_equal(ortkit_tensor_new(&k, ORTKIT_TYPE_INT64, (int64_t[]){2}, 1), 0);
        assert_int_equal(ortkit_tensor_new(&v, ORTKIT_TYPE_FLOAT32, (int64_t[]){2}, 1), 0);
        memcpy(ortkit_tensor_data(k), (int64_t[]){8, 2}, 16);
        memcpy(ortkit_tensor_data(v), (float[]){0.5f, 2.5f}, 8);
        assert_int_equal(ortkit_value_new_map(&m, k, v), 0);
        const char *names[] = {"m"};
        const ortkit_value *in[] = {m};
        assert_int_equal(ortkit_session_run_values(s, NULL, names, in, 1, NULL, 0, &out), 0);
        const float *got = ortkit_tensor_data(ortkit_value_tensor(out));
        /* Vocabulary 1 2 3 5 8. */
        assert_true(got[0] == 0 && got[1] == 2.5f && got[4] == 0.5f);
        ortkit_value_free(out);
        out = NULL;
        ortkit_value_free(m);

        /* String keys where the model takes int64 ones: named, before the runtime. */
        assert_int_equal(ortkit_tensor_new_strings(&k, (int64_t[]){1}, 1, (const char *[]){"a"}), 0);
        assert_int_equal(ortkit_tensor_new(&v, ORTKIT_TYPE_FLOAT32, (int64_t[]){1}, 1), 0);
        assert_int_equal(ortkit_value_new_map(&m, k, v), 0);
        in[0] = m;
        assert_int_equal(ortkit_session_run_values(s, NULL, names, in, 1, NULL, 0, &out),
                         ORTKIT_E_SHAPE);
        assert_error_has("input 'm' expects map<int64,float32>, got map<string,float32>{1}");
        assert_null(out);
        ortkit_value_free(m);
        ortkit_session_free(s);
    }
}

/* The classifier's probabilities against those numpy computed. */
static void test_classifier(void **state)
{
    (void)state;
    ortkit_tensor *x = NULL;
    assert_int_equal(ortkit_npy_read(&x, model_path("classifier_x.npy")), 0);
    FILE *f = fopen(model_path("classifier_expected.json"), "r");
    assert_non_null(f);
    char text[8192];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    double want[8][3];
    const char *p = strstr(text, "\"probabilities\"");
    assert_non_null(p);
    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 3; c++) {
            p += strcspn(p, "0123456789-");
            char *end;
            want[i][c] = strtod(p, &end);
            p = end;
        }
    ortkit_value *xv = NULL;
    assert_int_equal(ortkit_value_new_tensor(&xv, x), 0);
    for (int r = 0; r < 2; r++) {
        ortkit_session *s = open_model(runtimes[r], "classifier.onnx");
        char buf[128];
        ortkit_io_describe(ortkit_session_output(s, 1), buf, sizeof buf);
        assert_string_equal(buf, "sequence<map<int64,float32>>");
        const char *names[] = {"x"};
        const ortkit_value *in[] = {xv};
        ortkit_value *out[2] = {0};
        assert_int_equal(ortkit_session_run_values(s, NULL, names, in, 1, NULL, 0, out), 0);
        assert_int_equal(ortkit_value_count(out[1]), 8);
        for (size_t i = 0; i < 8; i++) {
            const ortkit_value *m = ortkit_value_item(out[1], i);
            const int64_t *keys = ortkit_tensor_data(ortkit_value_map_keys(m));
            const float *probs = ortkit_tensor_data(ortkit_value_map_values(m));
            assert_int_equal(ortkit_value_count(m), 3);
            for (int c = 0; c < 3; c++) {
                assert_int_equal(keys[c], c);
                if (fabs(probs[c] - want[i][c]) > 1e-5)
                    fail_msg("row %zu class %d: %g, numpy says %g", i, c, probs[c], want[i][c]);
            }
        }
        ortkit_value_free(out[0]);
        ortkit_value_free(out[1]);
        ortkit_session_free(s);
    }
    ortkit_value_free(xv);
}

/* Threads running one session on one shared sequence value: the first runs
 * race to keep its runtime value; every run must see the same result. */
typedef struct seq_job {
    ortkit_session *s;
    const ortkit_value *const *in;
    int bad;
} seq_job;

static void *seq_worker(void *arg)
{
    seq_job *j = arg;
    const char *names[] = {"seq", "x"};
    for (int k = 0; k < 200 && !j->bad; k++) {
        ortkit_value *out[4] = {0};
        if (ortkit_session_run_values(j->s, NULL, names, j->in, 2, NULL, 0, out) ||
            *(int64_t *)ortkit_tensor_data(ortkit_value_tensor(out[1])) != 2 ||
            ((float *)ortkit_tensor_data(ortkit_value_tensor(out[0])))[4] != 5.0f)
            j->bad = 1;
        for (int i = 0; i < 4; i++)
            ortkit_value_free(out[i]);
    }
    return NULL;
}

static void test_sequences_threads(void **state)
{
    (void)state;
    ortkit_session *s = open_model(runtimes[0], "seq_ops.onnx");
    float a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8};
    ortkit_value *items[2] = {tensor_value(ORTKIT_TYPE_FLOAT32, (int64_t[]){1, 4}, 2, a),
                              tensor_value(ORTKIT_TYPE_FLOAT32, (int64_t[]){1, 4}, 2, b)};
    ortkit_value *seq = NULL, *x = tensor_value(ORTKIT_TYPE_FLOAT32, (int64_t[]){1, 4}, 2, a);
    assert_int_equal(ortkit_value_new_sequence(&seq, items, 2), 0);
    const ortkit_value *in[] = {seq, x};
    seq_job jobs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (seq_job){s, in, 0};
        assert_int_equal(pthread_create(&th[i], NULL, seq_worker, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_false(jobs[i].bad);
    }
    ortkit_value_free(seq);
    ortkit_value_free(x);
    ortkit_session_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_and_describe),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_sequences_run),
        cmocka_unit_test(test_optionals_run),
        cmocka_unit_test(test_maps_run),
        cmocka_unit_test(test_classifier),
        cmocka_unit_test(test_sequences_threads),
    };
    return cmocka_run_group_tests(tests, open_runtimes, free_runtimes);
}
