/* test_session.c - opening models, options, providers and introspection, on both runtimes. */
#include "testutil.h"

#include <sys/stat.h>
#include <unistd.h>


static void check_add_model(const ortkit_session *s)
{
    assert_int_equal(ortkit_session_input_count(s), 2);
    assert_int_equal(ortkit_session_output_count(s), 1);
    const ortkit_io_info *a = ortkit_session_input(s, 0);
    assert_string_equal(a->name, "a");
    assert_int_equal(a->kind, ORTKIT_KIND_TENSOR);
    assert_int_equal(a->type, ORTKIT_TYPE_FLOAT32);
    assert_int_equal(a->rank, 2);
    assert_int_equal(a->dims[0].value, -1);
    assert_string_equal(a->dims[0].symbol, "N");
    assert_int_equal(a->dims[1].value, 3);
    char desc[64];
    ortkit_io_describe(a, desc, sizeof desc);
    assert_string_equal(desc, "float32[N,3]");
    assert_int_equal(ortkit_session_input_index(s, "b"), 1);
    assert_int_equal(ortkit_session_input_index(s, "zz"), -1);
    assert_int_equal(ortkit_session_output_index(s, "sum"), 0);
    assert_null(ortkit_session_input(s, 2));

    const ortkit_model_metadata *m = ortkit_session_metadata(s);
    assert_string_equal(m->producer, "ortkit-tests");
    assert_string_equal(m->graph_name, "add_graph");
    assert_string_equal(m->domain, "ai.ortkit.test");
    assert_string_equal(m->description, "adds two tensors");
    assert_int_equal(m->version, 7);
    assert_int_equal(m->custom_count, 2);
    int seen = 0;
    for (size_t i = 0; i < m->custom_count; i++) {
        if (!strcmp(m->custom_keys[i], "author"))
            seen += !strcmp(m->custom_values[i], "ortkit");
        if (!strcmp(m->custom_keys[i], "purpose"))
            seen += !strcmp(m->custom_values[i], "testing");
    }
    assert_int_equal(seen, 2);
}

static void test_introspection(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        ortkit_session *s = open_model(runtimes[r], "add.onnx");
        check_add_model(s);
        /* Only the CPU provider was asked for, implicitly. */
        assert_int_equal(ortkit_session_provider_count(s), 1);
        assert_string_equal(ortkit_session_provider(s, 0)->name, "CPUExecutionProvider");
        assert_true(ortkit_session_provider(s, 0)->active);
        ortkit_session_free(s);
    }
}

static void test_open_from_memory(void **state)
{
    (void)state;
    FILE *f = fopen(model_path("add.onnx"), "rb");
    assert_non_null(f);
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    for (int r = 0; r < 2; r++) {
        ortkit_session *s = NULL;
        assert_int_equal(ortkit_session_open_memory(&s, runtimes[r], buf, n, NULL), 0);
        check_add_model(s);
        ortkit_session_free(s);
    }
    ortkit_session *s = NULL;
    assert_int_equal(ortkit_session_open_memory(&s, runtimes[0], buf, 0, NULL), ORTKIT_E_MODEL);
}

static void test_dynamic_and_sequence_io(void **state)
{
    (void)state;
    ortkit_session *s = open_model(runtimes[0], "dynamic.onnx");
    const ortkit_io_info *in = ortkit_session_input(s, 0);
    char desc[128];
    ortkit_io_describe(in, desc, sizeof desc);
    assert_string_equal(desc, "float32[batch,3,height,width]");
    ortkit_session_free(s);

    s = open_model(runtimes[0], "seq_out.onnx");
    long i = ortkit_session_output_index(s, "seq");
    assert_true(i >= 0);
    assert_int_equal(ortkit_session_output(s, (size_t)i)->kind, ORTKIT_KIND_SEQUENCE);
    assert_int_equal(ortkit_session_output(s, (size_t)i)->type, ORTKIT_TYPE_FLOAT32);
    ortkit_session_free(s);
}

static void expect_open_error(const char *name, int code, const char *text)
{
    for (int r = 0; r < 2; r++) {
        ortkit_session *s = (ortkit_session *)runtimes[r];
        assert_int_equal(ortkit_session_open(&s, runtimes[r], model_path(name), NULL), code);
        assert_null(s);
        assert_error_has(name);
        if (text)
            assert_error_has(text);
    }
}

static void test_bad_models(void **state)
{
    (void)state;
    expect_open_error("no-such-model.onnx", ORTKIT_E_IO, "No such file");
    expect_open_error("empty.onnx", ORTKIT_E_MODEL, "empty");
    expect_open_error("truncated.onnx", ORTKIT_E_MODEL, NULL);
    expect_open_error("random.onnx", ORTKIT_E_MODEL, NULL);
    expect_open_error("not_onnx.onnx", ORTKIT_E_MODEL, NULL);
    expect_open_error("bad_op.onnx", ORTKIT_E_MODEL, "NoSuchOp");
    ortkit_session *s = NULL;
    assert_int_equal(ortkit_session_open(&s, runtimes[0], ORTKIT_TEST_MODELS, NULL), ORTKIT_E_IO);
    assert_error_has("directory");
    assert_int_equal(ortkit_session_open(&s, NULL, model_path("add.onnx"), NULL), ORTKIT_E_INVALID_ARG);
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
    o.version = 0;
    assert_int_equal(ortkit_session_open(&s, runtimes[0], model_path("add.onnx"), &o), ORTKIT_E_INVALID_ARG);
    assert_error_has("session options version 0: this ortkit knows versions 1 to 2; use "
                     "ORTKIT_SESSION_OPTIONS_INIT");
}

/* A file's bytes, malloc'd. */
static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n > 0);
    rewind(f);
    char *buf = malloc((size_t)n);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return buf;
}

/*
 * Models nested past protobuf's limit: ONNX Runtime refuses them without a
 * crash (its parser stops at 100 levels), saying only "Protobuf parsing
 * failed"; ortkit says why.  At the limit, the runtime decodes the file and
 * refuses the type for itself.
 */
static void test_deep_models(void **state)
{
    (void)state;
    static const char *const deep[] = {"deep_type.onnx", "deep_graph.onnx", "deep_type_102.onnx"};
    for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++) {
        expect_open_error(deep[i], ORTKIT_E_MODEL, "nested deeper than 100 levels");
        size_t size;
        char *bytes = slurp(model_path(deep[i]), &size);
        for (int r = 0; r < 2; r++) {
            ortkit_session *s = NULL;
            assert_int_equal(ortkit_session_open_memory(&s, runtimes[r], bytes, size, NULL),
                             ORTKIT_E_MODEL);
            assert_null(s);
            assert_error_has("<memory>");
            assert_error_has("nested deeper than 100 levels");
        }
        free(bytes);
    }
    expect_open_error("deep_type_100.onnx", ORTKIT_E_MODEL, "Type Error");
}

/*
 * A type with no shape has an unknown rank.  ONNX Runtime reports it with
 * no dimensions, as it does a scalar; ortkit tells them apart.
 */
static void test_unknown_rank(void **state)
{
    (void)state;
    size_t size;
    char *bytes = slurp(model_path("shapeless.onnx"), &size);
    for (int r = 0; r < 4; r++) {
        ortkit_session *s = NULL;
        if (r < 2)
            s = open_model(runtimes[r], "shapeless.onnx");
        else
            assert_int_equal(ortkit_session_open_memory(&s, runtimes[r - 2], bytes, size, NULL), 0);
        const ortkit_io_info *x = ortkit_session_input(s, 0), *n = ortkit_session_input(s, 1);
        const ortkit_io_info *y = ortkit_session_output(s, 0), *n_out = ortkit_session_output(s, 1);
        assert_string_equal(x->name, "x");
        assert_int_equal(x->kind, ORTKIT_KIND_TENSOR);
        assert_int_equal(x->type, ORTKIT_TYPE_FLOAT32);
        assert_true(x->rank == SIZE_MAX);
        assert_null(x->dims);
        assert_true(y->rank == SIZE_MAX);
        assert_int_equal(n->rank, 0);
        assert_int_equal(n_out->rank, 0);
        char desc[64];
        ortkit_io_describe(x, desc, sizeof desc);
        assert_string_equal(desc, "float32[?...]");
        ortkit_io_describe(n, desc, sizeof desc);
        assert_string_equal(desc, "int64[]");
        ortkit_io_describe(x, desc, 9); /* cut short, still terminated */
        assert_string_equal(desc, "float32[");
        ortkit_session_free(s);
    }
    free(bytes);
    /* A declared scalar stays one. */
    ortkit_session *s = open_model(runtimes[0], "int_scalar.onnx");
    assert_int_equal(ortkit_session_input(s, 0)->rank, 0);
    assert_non_null(ortkit_session_input(s, 0)->dims);
    ortkit_session_free(s);
}

static void test_provider_fallback_and_strict(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        const char *providers[] = {"cuda:device_id=0", "nosuch", "cpu"};
        ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
        o.providers = providers;
        o.provider_count = 3;
        ortkit_session *s = NULL;
        /* This machine has no GPU: under fallback the session still opens on the CPU. */
        assert_int_equal(ortkit_session_open(&s, runtimes[r], model_path("add.onnx"), &o), 0);
        assert_int_equal(ortkit_session_provider_count(s), 3);
        const ortkit_provider_status *cuda = ortkit_session_provider(s, 0);
        assert_string_equal(cuda->requested, "cuda:device_id=0");
        assert_string_equal(cuda->name, "CUDAExecutionProvider");
        assert_false(cuda->active);
        assert_true(strlen(cuda->reason) > 0);
        const ortkit_provider_status *bad = ortkit_session_provider(s, 1);
        assert_false(bad->active);
        assert_non_null(strstr(bad->reason, "unknown execution provider 'nosuch'"));
        const ortkit_provider_status *cpu = ortkit_session_provider(s, 2);
        assert_string_equal(cpu->name, "CPUExecutionProvider");
        assert_true(cpu->active);
        ortkit_session_free(s);

        o.ep_policy = ORTKIT_EP_STRICT;
        assert_int_equal(ortkit_session_open(&s, runtimes[r], model_path("add.onnx"), &o),
                         ORTKIT_E_PROVIDER);
        assert_null(s);
        assert_error_has("cuda");
        providers[0] = "nosuch";
        assert_int_equal(ortkit_session_open(&s, runtimes[r], model_path("add.onnx"), &o),
                         ORTKIT_E_PROVIDER);
        assert_error_has("nosuch");
        /* A provider the runtime was not built with names the runtime. */
        providers[0] = "openvino";
        assert_int_equal(ortkit_session_open(&s, runtimes[r], model_path("add.onnx"), &o),
                         ORTKIT_E_PROVIDER);
        assert_error_has("built without OpenVINOExecutionProvider");
    }
}

static void test_options(void **state)
{
    (void)state;
    char optimized[] = "/tmp/ortkit-opt-XXXXXX";
    assert_non_null(mkdtemp(optimized));
    char out_path[256], prof_prefix[256];
    snprintf(out_path, sizeof out_path, "%s/optimized.onnx", optimized);
    snprintf(prof_prefix, sizeof prof_prefix, "%s/profile", optimized);
    const char *keys[] = {"session.intra_op.allow_spinning"};
    const char *values[] = {"0"};
    ortkit_session_options o = ORTKIT_SESSION_OPTIONS_INIT;
    o.intra_op_threads = 1;
    o.inter_op_threads = 1;
    o.graph_opt = ORTKIT_GRAPH_OPT_BASIC;
    o.exec_mode = ORTKIT_EXEC_PARALLEL;
    o.mem_pattern = ORTKIT_SWITCH_OFF;
    o.cpu_arena = ORTKIT_SWITCH_OFF;
    o.optimized_model_path = out_path;
    o.profile_prefix = prof_prefix;
    o.config_keys = keys;
    o.config_values = values;
    o.config_count = 1;
    ortkit_session *s = NULL;
    assert_int_equal(ortkit_session_open(&s, runtimes[0], model_path("matmul.onnx"), &o), 0);
    struct stat st;
    assert_int_equal(stat(out_path, &st), 0);
    assert_true(st.st_size > 0);
    ortkit_session_free(s);
    unlink(out_path);

    /* A model that fails to open leaves no optimised file behind. */
    assert_int_equal(ortkit_session_open(&s, runtimes[0], model_path("bad_op.onnx"), &o), ORTKIT_E_MODEL);
    assert_int_equal(stat(out_path, &st), -1);

    o.intra_op_threads = -1;
    assert_int_equal(ortkit_session_open(&s, runtimes[0], model_path("add.onnx"), &o), ORTKIT_E_INVALID_ARG);
    o.intra_op_threads = 0;
    o.graph_opt = (ortkit_graph_opt)42;
    assert_int_equal(ortkit_session_open(&s, runtimes[0], model_path("add.onnx"), &o), ORTKIT_E_INVALID_ARG);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", optimized);
    assert_int_equal(system(cmd), 0);
}

static void test_runtime_outlives_free(void **state)
{
    (void)state;
    /* Freeing the runtime first is safe: the session holds a reference. */
    ortkit_runtime *rt = open_runtime(ORTKIT_TEST_RUNTIME_NEW);
    ortkit_session *s = open_model(rt, "add.onnx");
    ortkit_runtime_free(rt);
    assert_int_equal(ortkit_session_input_count(s), 2);
    ortkit_session_free(s);
    ortkit_session_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_introspection),
        cmocka_unit_test(test_open_from_memory),
        cmocka_unit_test(test_dynamic_and_sequence_io),
        cmocka_unit_test(test_bad_models),
        cmocka_unit_test(test_deep_models),
        cmocka_unit_test(test_unknown_rank),
        cmocka_unit_test(test_provider_fallback_and_strict),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_runtime_outlives_free),
    };
    return cmocka_run_group_tests(tests, open_runtimes, free_runtimes);
}
