/* test_validate.c - the conformance engine: tensor comparison, finding backend
 * test directories, and running one test on both real runtimes. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw */
#endif
#include "testutil.h"

#include "core.h"
#include "ortkit/tools/compare.h"
#include "ortkit/tools/conformance.h"
#include "ortkit/tools/proto.h"
#include "pbwriter.h"

#include <ftw.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/ortkit_test_validate_XXXXXX";

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

static int setup(void **state)
{
    if (!mkdtemp(tmpdir))
        return -1;
    return open_runtimes(state);
}

static int teardown(void **state)
{
    free_runtimes(state);
    return nftw(tmpdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* ---- comparison ------------------------------------------------------------------ */

static ortkit_tensor *tensor_of(ortkit_type type, const int64_t *shape, size_t rank, const void *data)
{
    ortkit_tensor *t = NULL;
    assert_int_equal(ortkit_tensor_new(&t, type, shape, rank), 0);
    memcpy(ortkit_tensor_data(t), data, ortkit_tensor_nbytes(t));
    return t;
}

static ortkit_compare compare2(ortkit_type type, const int64_t *shape, size_t rank, const void *a,
                               const void *b, int exact)
{
    ortkit_tensor *x = tensor_of(type, shape, rank, a), *y = tensor_of(type, shape, rank, b);
    ortkit_compare c = ORTKIT_COMPARE_INIT;
    if (exact)
        assert_int_equal(ortkit_tensor_identical(&c, x, y), 0);
    else
        assert_int_equal(ortkit_tensor_compare(&c, x, y, ORTKIT_COMPARE_RTOL, ORTKIT_COMPARE_ATOL), 0);
    ortkit_tensor_free(x);
    ortkit_tensor_free(y);
    return c;
}

static void test_compare_floats(void **state)
{
    const int64_t shape[] = {2, 3};
    const float want[] = {1, 2, 3, 1000, 0, -5};
    float got[] = {1, 2, 3, 1000.5f, 0.000009f, -5};
    /* 0.5 <= 1e-5 + 1e-3 * 1000, and 9e-6 <= 1e-5: equal. */
    ortkit_compare c = compare2(ORTKIT_TYPE_FLOAT32, shape, 2, want, got, 0);
    assert_true(c.equal);
    assert_string_equal(c.where, "[1,0]");
    assert_true(c.max_diff == 0.5);
    got[5] = -5.01f; /* 0.01 > 1e-5 + 5e-3 */
    got[1] = 2.001f; /* 1e-3 <= 1e-5 + 2e-3: fine */
    c = compare2(ORTKIT_TYPE_FLOAT32, shape, 2, want, got, 0);
    assert_false(c.equal);
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.worst, 5);
    assert_string_equal(c.where, "[1,2]");
    assert_true(strstr(c.message, "1 of 6 values differ; worst at [1,2]: expected -5, got -5.01"));

    /* NaN matches NaN only; an infinity only itself. */
    const float special[] = {NAN, INFINITY, -INFINITY, 1};
    const int64_t four[] = {4};
    c = compare2(ORTKIT_TYPE_FLOAT32, four, 1, special, special, 0);
    assert_true(c.equal);
    float off[] = {1, INFINITY, -INFINITY, 1};
    c = compare2(ORTKIT_TYPE_FLOAT32, four, 1, special, off, 0);
    assert_false(c.equal);
    assert_true(isinf(c.max_diff));
    float flip[] = {NAN, -INFINITY, -INFINITY, NAN};
    c = compare2(ORTKIT_TYPE_FLOAT32, four, 1, special, flip, 0);
    assert_int_equal(c.mismatches, 2);
    float big[] = {NAN, 3e38f, -INFINITY, 1};
    c = compare2(ORTKIT_TYPE_FLOAT32, four, 1, special, big, 0);
    assert_int_equal(c.mismatches, 1);

    const double dw[] = {1e-300, 2.0}, dg[] = {0.0, 2.0000001};
    const int64_t two[] = {2};
    assert_true(compare2(ORTKIT_TYPE_FLOAT64, two, 1, dw, dg, 0).equal);
}

static void test_compare_exact_types(void **state)
{
    const int64_t two[] = {2};
    /* 2^53 and 2^53 + 1 are one double apart from nothing: compared as bits. */
    const int64_t a[] = {INT64_C(9007199254740992), 7}, b[] = {INT64_C(9007199254740993), 7};
    ortkit_compare c = compare2(ORTKIT_TYPE_INT64, two, 1, a, b, 0);
    assert_false(c.equal);
    assert_int_equal(c.worst, 0);
    const uint8_t t1[] = {1, 0}, t2[] = {1, 1};
    assert_false(compare2(ORTKIT_TYPE_BOOL, two, 1, t1, t2, 0).equal);
    const int8_t i1[] = {-3, 4};
    assert_true(compare2(ORTKIT_TYPE_INT8, two, 1, i1, i1, 0).equal);

    ortkit_tensor *s1 = NULL, *s2 = NULL;
    const char *w1[] = {"a", "monday"}, *w2[] = {"a", "MONDAY"};
    assert_int_equal(ortkit_tensor_new_strings(&s1, two, 1, w1), 0);
    assert_int_equal(ortkit_tensor_new_strings(&s2, two, 1, w2), 0);
    assert_int_equal(ortkit_tensor_compare(&c, s1, s2, 0, 0), 0);
    assert_false(c.equal);
    assert_true(strstr(c.message, "first at [1]: expected \"monday\", got \"MONDAY\""));
    ortkit_tensor_free(s1);
    ortkit_tensor_free(s2);

    /* Type and shape. */
    const int64_t three[] = {3}, row[] = {1, 2};
    ortkit_tensor *x = tensor_of(ORTKIT_TYPE_INT8, two, 1, i1), *y = tensor_of(ORTKIT_TYPE_UINT8, two, 1, i1);
    assert_int_equal(ortkit_tensor_compare(&c, x, y, 0, 0), 0);
    assert_false(c.equal);
    assert_string_equal(c.message, "type differs: expected int8[2], got uint8[2]");
    ortkit_tensor_free(y);
    y = tensor_of(ORTKIT_TYPE_INT8, row, 2, i1);
    assert_int_equal(ortkit_tensor_compare(&c, x, y, 0, 0), 0);
    assert_string_equal(c.message, "shape differs: expected int8[2], got int8[1,2]");
    ortkit_tensor_free(y);
    int8_t i3[3] = {0};
    y = tensor_of(ORTKIT_TYPE_INT8, three, 1, i3);
    assert_int_equal(ortkit_tensor_compare(&c, x, y, 0, 0), 0);
    assert_false(c.equal);
    ortkit_tensor_free(y);

    /* Arguments. */
    assert_int_equal(ortkit_tensor_compare(&c, x, NULL, 0, 0), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_tensor_compare(&c, x, x, -1, 0), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_tensor_identical(NULL, x, x), ORTKIT_E_INVALID_ARG);
    /* A result of a version this library does not know is refused, untouched. */
    ortkit_compare unknown = ORTKIT_COMPARE_INIT;
    unknown.version = ORTKIT_COMPARE_VERSION + 1;
    assert_int_equal(ortkit_tensor_compare(&unknown, x, x, 0, 0), ORTKIT_E_INVALID_ARG);
    assert_error_has("ortkit_compare version 2: this ortkit knows version 1; use ORTKIT_COMPARE_INIT");
    assert_int_equal(unknown.equal, 0);
    unknown.version = 0;
    assert_int_equal(ortkit_tensor_identical(&unknown, x, x), ORTKIT_E_INVALID_ARG);
    assert_int_equal(unknown.equal, 0);
    unknown.version = ORTKIT_COMPARE_VERSION;
    assert_int_equal(ortkit_tensor_identical(&unknown, x, x), 0);
    assert_int_equal(unknown.equal, 1);
    assert_int_equal(unknown.version, ORTKIT_COMPARE_VERSION);
    ortkit_tensor_free(x);

    /* Empty tensors are equal. */
    const int64_t none[] = {0, 4};
    ortkit_compare e = compare2(ORTKIT_TYPE_FLOAT32, none, 2, "", "", 0);
    assert_true(e.equal);
    assert_string_equal(e.where, "");
}

static void test_compare_small_floats(void **state)
{
    const int64_t two[] = {2};
    /* float16 1.0 against its next two values: 9.8e-4 is within 1e-5 + 1e-3, 2e-3 is not. */
    const uint16_t h[] = {0x3c00, 0x3c00}, h1[] = {0x3c01, 0x3c02};
    ortkit_compare c = compare2(ORTKIT_TYPE_FLOAT16, two, 1, h, h1, 0);
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.worst, 1);
    assert_true(c.expected == 1.0 && c.actual == 1.001953125);
    /* bfloat16: 0x3f80 is 1.0, 0x4000 is 2.0. */
    const uint16_t b[] = {0x3f80, 0x7fc0}, b1[] = {0x4000, 0x7fc1};
    c = compare2(ORTKIT_TYPE_BFLOAT16, two, 1, b, b1, 0);
    assert_int_equal(c.mismatches, 1);
    assert_true(c.expected == 1.0 && c.actual == 2.0);
    /* The float8 formats: 1.0 everywhere, then each one's NaN or infinity. */
    const struct {
        ortkit_type type;
        uint8_t one, special;
        int nan;
    } f8[] = {{ORTKIT_TYPE_FLOAT8E4M3FN, 0x38, 0x7f, 1},
              {ORTKIT_TYPE_FLOAT8E4M3FNUZ, 0x40, 0x80, 1},
              {ORTKIT_TYPE_FLOAT8E5M2, 0x3c, 0x7c, 0},
              {ORTKIT_TYPE_FLOAT8E5M2FNUZ, 0x40, 0x80, 1}};
    for (size_t i = 0; i < 4; i++) {
        const uint8_t x[] = {f8[i].one, f8[i].special}, y[] = {f8[i].special, f8[i].special};
        c = compare2(f8[i].type, two, 1, x, y, 0);
        assert_int_equal(c.mismatches, 1);
        assert_true(c.expected == 1.0);
        assert_true(f8[i].nan ? isnan(c.actual) : isinf(c.actual));
    }
    /* int4: 0xf is -1 signed, 15 unsigned; the second element is the high nibble. */
    const uint8_t n1[] = {0xf1}, n2[] = {0x71};
    c = compare2(ORTKIT_TYPE_INT4, two, 1, n1, n2, 0);
    assert_int_equal(c.worst, 1);
    assert_true(c.expected == -1 && c.actual == 7);
    c = compare2(ORTKIT_TYPE_UINT4, two, 1, n1, n2, 0);
    assert_true(c.expected == 15);
    /* complex64: the worse part is named. */
    const float z1[] = {1, 2, 3, 4}, z2[] = {1, 2, 3, 5};
    c = compare2(ORTKIT_TYPE_COMPLEX64, two, 1, z1, z2, 0);
    assert_int_equal(c.worst, 1);
    assert_string_equal(c.where, "[1].imag");
}

static void test_compare_identical(void **state)
{
    const int64_t three[] = {3};
    const float a[] = {0.0f, NAN, 1.0f}, b[] = {-0.0f, NAN, 1.0f};
    ortkit_compare c = compare2(ORTKIT_TYPE_FLOAT32, three, 1, a, b, 1);
    assert_false(c.equal);
    assert_int_equal(c.worst, 0);
    assert_true(c.max_diff == 0); /* numerically the same, bitwise not */
    assert_true(strstr(c.message, "differ bit for bit"));
    c = compare2(ORTKIT_TYPE_FLOAT32, three, 1, a, a, 1);
    assert_true(c.equal);
    const float d[] = {0.0f, NAN, 1.5f};
    c = compare2(ORTKIT_TYPE_FLOAT32, three, 1, a, d, 1);
    assert_true(c.max_diff == 0.5);
}

/* ---- test directories --------------------------------------------------------------- */

static const char *tp(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *tp(const char *fmt, ...)
{
    static char buf[8][1024];
    static int next;
    char *p = buf[next++ % 8];
    int n = snprintf(p, sizeof buf[0], "%s/", tmpdir);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p + n, sizeof buf[0] - (size_t)n, fmt, ap);
    va_end(ap);
    return p;
}

static void mkdirs(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *s = buf + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(buf, 0755);
            *s = '/';
        }
    mkdir(buf, 0755);
}

static void copy_model(const char *model, const char *dir)
{
    char *data = NULL, to[1024];
    size_t size = 0;
    assert_int_equal(ortkit__file_read(&data, &size, model_path(model), 1 << 26), 0);
    snprintf(to, sizeof to, "%s/model.onnx", dir);
    FILE *f = fopen(to, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
    free(data);
}

static void save_floats(const char *path, const char *name, const float *v, size_t rows)
{
    pbw w = {0};
    const int64_t dims[] = {(int64_t)rows, 3};
    pb_float_tensor(&w, name, dims, 2, v, rows * 3);
    assert_int_equal(pb_save(&w, path), 0);
    pb_free(&w);
}

/* A backend test of add.onnx under tmpdir/rel: sum = a + b, plus delta on sum[1]. */
static const char *make_add_test(const char *rel, float delta)
{
    const char *dir = tp("%s", rel);
    mkdirs(tp("%s/test_data_set_0", rel));
    copy_model("add.onnx", dir);
    const float a[] = {1, 2, 3, 4, 5, 6}, b[] = {0.5f, 0.25f, 1, -1, 2, 3};
    float sum[6];
    for (int i = 0; i < 6; i++)
        sum[i] = a[i] + b[i];
    sum[1] += delta;
    /* Files named by their tensors, in reverse order: names decide, not positions. */
    save_floats(tp("%s/test_data_set_0/input_0.pb", rel), "b", b, 2);
    save_floats(tp("%s/test_data_set_0/input_1.pb", rel), "a", a, 2);
    save_floats(tp("%s/test_data_set_0/output_0.pb", rel), "sum", sum, 2);
    return dir;
}

static void test_find(void **state)
{
    ortkit_conformance *c = NULL;
    const char *missing = tp("nosuch");
    assert_int_equal(ortkit_conformance_find(&c, &missing, 1), ORTKIT_E_IO);
    assert_null(c);
    assert_error_has("nosuch");
    assert_error_has("No such file");
    const char *file = model_path("add.onnx");
    assert_int_equal(ortkit_conformance_find(&c, &file, 1), ORTKIT_E_IO);
    assert_error_has("not a directory");
    mkdirs(tp("empty/nothing"));
    const char *empty = tp("empty");
    assert_int_equal(ortkit_conformance_find(&c, &empty, 1), ORTKIT_E_IO);
    assert_error_has("no tests under");

    make_add_test("tree/s2/test_add", 0);
    make_add_test("tree/s1/test_b", 0);
    mkdirs(tp("tree/s1/test_a_no_model"));
    mkdirs(tp("tree/s2/test_matmul_loop"));
    copy_model("slow.onnx", tp("tree/s2/test_matmul_loop"));
    mkdirs(tp("tree/s2/test_add_expanded"));
    copy_model("slow.onnx", tp("tree/s2/test_add_expanded"));
    mkdirs(tp("tree/s2/test_other"));
    copy_model("slow.onnx", tp("tree/s2/test_other"));
    const char *roots[] = {tp("tree"), tp("tree/s2/test_add")};
    assert_int_equal(ortkit_conformance_find(&c, roots, 2), 0);
    assert_int_equal(ortkit_conformance_count(c), 7);
    static const struct {
        const char *suite, *name, *op;
    } want[] = {{"", "test_add", "Add"},           {"s1", "test_a_no_model", ""},
                {"s1", "test_b", "Add"},            {"s2", "test_add", "Add"},
                {"s2", "test_add_expanded", "Add"}, {"s2", "test_matmul_loop", "MatMul"},
                {"s2", "test_other", ""}};
    for (size_t i = 0; i < 7; i++) {
        const ortkit_conformance_test *t = ortkit_conformance_get(c, i);
        assert_string_equal(t->suite, want[i].suite);
        assert_string_equal(t->name, want[i].name);
        assert_string_equal(t->op, want[i].op);
    }
    assert_int_equal(ortkit_conformance_get(c, 2)->opset, 17);
    assert_int_equal(ortkit_conformance_get(c, 1)->opset, 0);
    assert_null(ortkit_conformance_get(c, 7));
    ortkit_conformance_free(c);
    ortkit_conformance_free(NULL);
    assert_int_equal(ortkit_conformance_find(NULL, roots, 1), ORTKIT_E_INVALID_ARG);
}

static ortkit_conformance_result run_dir(ortkit_runtime *rt, const char *dir,
                                         const ortkit_conformance_options *o)
{
    ortkit_conformance_result r = ORTKIT_CONFORMANCE_RESULT_INIT;
    assert_int_equal(ortkit_conformance_run(&r, rt, dir, o), 0);
    assert_int_equal(r.version, ORTKIT_CONFORMANCE_RESULT_VERSION);
    return r;
}

#define assert_outcome(r, want, stage_, text)                                                   \
    do {                                                                                        \
        if ((r).outcome != (want) || strcmp((r).stage, (stage_)) || !strstr((r).message, (text))) \
            fail_msg("got outcome %d stage '%s': %s", (int)(r).outcome, (r).stage, (r).message); \
    } while (0)

static void test_run_passes(void **state)
{
    const char *dir = make_add_test("run/test_add", 0);
    for (int k = 0; k < 2; k++) {
        ortkit_conformance_result r = run_dir(runtimes[k], dir, NULL);
        assert_outcome(r, ORTKIT_CONFORMANCE_PASS, "", "");
        assert_string_equal(r.provider, "CPUExecutionProvider");
        assert_int_equal(r.data_sets, 1);
        assert_int_equal(r.runs, 1);
        assert_true(r.max_diff == 0);
        assert_true(strstr(r.worst, "output 'sum'") != NULL);

        /* Repeated with one thread: the same bits every time. */
        ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
        so.intra_op_threads = 1;
        ortkit_conformance_options o = ORTKIT_CONFORMANCE_OPTIONS_INIT;
        o.session = &so;
        o.repeat = 3;
        r = run_dir(runtimes[k], dir, &o);
        assert_outcome(r, ORTKIT_CONFORMANCE_PASS, "", "");
        assert_int_equal(r.runs, 3);
        assert_false(r.unstable);

        /* A short soak keeps running and measures memory. */
        o.repeat = 0;
        o.soak_seconds = 0.2;
        r = run_dir(runtimes[k], dir, &o);
        assert_outcome(r, ORTKIT_CONFORMANCE_PASS, "", "");
        assert_true(r.runs > 2);
        assert_true(r.rss_start_kb > 0 && r.rss_end_kb > 0);
    }
}

static void test_run_compare(void **state)
{
    const char *dir = make_add_test("cmp/test_add", 0.01f);
    ortkit_conformance_result r = run_dir(runtimes[0], dir, NULL);
    assert_outcome(r, ORTKIT_CONFORMANCE_FAIL, "compare",
                   "test_data_set_0: output 'sum': 1 of 6 values differ; worst at [0,1]");
    assert_true(fabs(r.max_diff - 0.01) < 1e-6);
    /* A looser tolerance lets it pass; none at all fails even a tiny difference. */
    ortkit_conformance_options o = ORTKIT_CONFORMANCE_OPTIONS_INIT;
    o.atol = 0.02;
    assert_outcome(run_dir(runtimes[0], dir, &o), ORTKIT_CONFORMANCE_PASS, "", "");
    dir = make_add_test("cmp/test_tiny", 1e-6f);
    assert_outcome(run_dir(runtimes[1], dir, NULL), ORTKIT_CONFORMANCE_PASS, "", "");
    o.atol = -1;
    o.rtol = -1;
    assert_outcome(run_dir(runtimes[1], dir, &o), ORTKIT_CONFORMANCE_FAIL, "compare", "> 0)");
}

static void test_run_bad_data(void **state)
{
    ortkit_runtime *rt = runtimes[0];
    /* An output file the model does not have. */
    const char *dir = make_add_test("bad/test_extra", 0);
    save_floats(tp("bad/test_extra/test_data_set_0/output_1.pb"), "more", (float[6]){0}, 2);
    assert_outcome(run_dir(rt, dir, NULL), ORTKIT_CONFORMANCE_FAIL, "data",
                   "test_data_set_0 has 2 output files; the model has 1 output");
    /* A missing input, by a gap in the numbers. */
    dir = make_add_test("bad/test_gap", 0);
    rename(tp("bad/test_gap/test_data_set_0/input_1.pb"), tp("bad/test_gap/test_data_set_0/input_2.pb"));
    assert_outcome(run_dir(rt, dir, NULL), ORTKIT_CONFORMANCE_FAIL, "data", "not numbered 0..N-1");
    /* Two files naming the same input, where order cannot settle it. */
    dir = make_add_test("bad/test_twice", 0);
    save_floats(tp("bad/test_twice/test_data_set_0/input_1.pb"), "b", (float[6]){0}, 2);
    assert_outcome(run_dir(rt, dir, NULL), ORTKIT_CONFORMANCE_FAIL, "data",
                   "test_data_set_0: two files give input 'b'");
    /* A truncated file, named. */
    dir = make_add_test("bad/test_cut", 0);
    assert_int_equal(truncate(tp("bad/test_cut/test_data_set_0/input_1.pb"), 20), 0);
    ortkit_conformance_result r = run_dir(rt, dir, NULL);
    assert_outcome(r, ORTKIT_CONFORMANCE_FAIL, "data", "input_1.pb");
    /* A tensor of the wrong type for the input. */
    dir = make_add_test("bad/test_type", 0);
    pbw w = {0};
    const int64_t dims[] = {2, 3}, six[] = {1, 2, 3, 4, 5, 6};
    pb_dims(&w, dims, 2);
    pb_int(&w, TP_DATA_TYPE, ORTKIT_TYPE_INT64);
    pb_packed(&w, TP_INT64, six, 6);
    assert_int_equal(pb_save(&w, tp("bad/test_type/test_data_set_0/input_0.pb")), 0);
    pb_free(&w);
    assert_outcome(run_dir(rt, dir, NULL), ORTKIT_CONFORMANCE_FAIL, "data",
                   "expects float32[N,3], got int64[2,3]");
    /* No model, no data sets, a model that is not one. */
    mkdirs(tp("bad/test_nomodel/test_data_set_0"));
    assert_outcome(run_dir(rt, tp("bad/test_nomodel"), NULL), ORTKIT_CONFORMANCE_FAIL, "data",
                   "model.onnx");
    mkdirs(tp("bad/test_nodata"));
    copy_model("add.onnx", tp("bad/test_nodata"));
    assert_outcome(run_dir(rt, tp("bad/test_nodata"), NULL), ORTKIT_CONFORMANCE_FAIL, "data",
                   "has 0 test_data_set_N directories");
    dir = make_add_test("bad/test_notonnx", 0);
    copy_model("not_onnx.onnx", dir);
    assert_outcome(run_dir(rt, dir, NULL), ORTKIT_CONFORMANCE_FAIL, "model", "cannot open model");
}

static void test_run_unsupported_and_providers(void **state)
{
    /* seq_out.onnx returns a sequence: compared element by element, its
     * length exactly. */
    char seq_dir[1024];
    snprintf(seq_dir, sizeof seq_dir, "%s", tp("seq/test_seq_out"));
    const char *dir = seq_dir;
    mkdirs(tp("seq/test_seq_out/test_data_set_0"));
    copy_model("seq_out.onnx", dir);
    const float a[] = {1, 2}, b[] = {3, 4, 5};
    for (int short_seq = 0; short_seq < 2; short_seq++) {
        pbw w = {0}, ta = {0}, tb = {0};
        pb_float_tensor(&ta, "a", (int64_t[]){2}, 1, a, 2);
        pb_float_tensor(&tb, "b", (int64_t[]){3}, 1, b, 3);
        assert_int_equal(pb_save(&ta, tp("seq/test_seq_out/test_data_set_0/input_0.pb")), 0);
        assert_int_equal(pb_save(&tb, tp("seq/test_seq_out/test_data_set_0/input_1.pb")), 0);
        pb_str(&w, 1, "seq");   /* SequenceProto.name */
        pb_int(&w, 2, 1);       /* .elem_type = TENSOR */
        pb_msg(&w, 3, &ta);     /* .tensor_values */
        if (!short_seq)
            pb_msg(&w, 3, &tb);
        assert_int_equal(pb_save(&w, tp("seq/test_seq_out/test_data_set_0/output_0.pb")), 0);
        assert_int_equal(pb_save(&ta, tp("seq/test_seq_out/test_data_set_0/output_1.pb")), 0);
        pb_free(&w);
        pb_free(&ta);
        pb_free(&tb);
        for (int k = 0; k < 2; k++) {
            if (short_seq)
                assert_outcome(run_dir(runtimes[k], dir, NULL), ORTKIT_CONFORMANCE_FAIL, "compare",
                               "output 'seq': expected sequence<float32>(1), got sequence<float32>(2)");
            else
                assert_outcome(run_dir(runtimes[k], dir, NULL), ORTKIT_CONFORMANCE_PASS, "", "");
        }
    }

    /* A provider that cannot be had: recorded and skipped, or a failure when strict. */
    dir = make_add_test("ep/test_add", 0);
    const char *eps[] = {"nosuch"};
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    so.providers = eps;
    so.provider_count = 1;
    ortkit_conformance_options o = ORTKIT_CONFORMANCE_OPTIONS_INIT;
    o.session = &so;
    ortkit_conformance_result r = run_dir(runtimes[0], dir, &o);
    assert_outcome(r, ORTKIT_CONFORMANCE_PASS, "", "");
    assert_string_equal(r.provider, "CPUExecutionProvider");
    so.ep_policy = ORTKIT_EP_STRICT;
    assert_outcome(run_dir(runtimes[0], dir, &o), ORTKIT_CONFORMANCE_FAIL, "provider", "nosuch");

    /* Arguments. */
    assert_int_equal(ortkit_conformance_run(NULL, runtimes[0], dir, NULL), ORTKIT_E_INVALID_ARG);
    o.version = 99;
    assert_int_equal(ortkit_conformance_run(&r, runtimes[0], dir, &o), ORTKIT_E_INVALID_ARG);
    assert_error_has("conformance options version 99");
    o.version = ORTKIT_CONFORMANCE_OPTIONS_VERSION;
    r.version = 0;
    assert_int_equal(ortkit_conformance_run(&r, runtimes[0], dir, &o), ORTKIT_E_INVALID_ARG);
    assert_error_has("ortkit_conformance_result version 0");
    r.version = ORTKIT_CONFORMANCE_RESULT_VERSION;
    o.repeat = -1;
    assert_int_equal(ortkit_conformance_run(&r, runtimes[0], dir, &o), ORTKIT_E_INVALID_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_floats),
        cmocka_unit_test(test_compare_exact_types),
        cmocka_unit_test(test_compare_small_floats),
        cmocka_unit_test(test_compare_identical),
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_run_passes),
        cmocka_unit_test(test_run_compare),
        cmocka_unit_test(test_run_bad_data),
        cmocka_unit_test(test_run_unsupported_and_providers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
