/*
 * test_runtime_program.c - a runtime linked into the program.  This test is
 * such a program: it links 1.30.0's libonnxruntime.so itself (DT_NEEDED,
 * tests/CMakeLists.txt) and hands ortkit its own OrtGetApiBase.
 */
#include "testutil.h"

#include "provider_probe.h"

#include <dlfcn.h>
#include <limits.h>
#include <onnxruntime_c_api.h>
#include <stdint.h>

static ortkit_runtime *open_program(const OrtApiBase *(*api_base)(void))
{
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    o.api_base = api_base;
    ortkit_runtime *rt = NULL;
    if (ortkit_runtime_open(&rt, &o))
        fail_msg("cannot open the program's runtime: %s", ortkit_error_last());
    return rt;
}

static int open_program_fails(const ortkit_runtime_options *o)
{
    ortkit_runtime *rt = (ortkit_runtime *)o; /* must be reset to NULL */
    int rc = ortkit_runtime_open(&rt, o);
    assert_null(rt);
    return rc;
}

/* The file the dynamic loader mapped this program's ONNX Runtime from. */
static void linked_library(char *buf)
{
    Dl_info info;
    assert_true(dladdr((void *)OrtGetApiBase(), &info) && info.dli_fname);
    assert_non_null(realpath(info.dli_fname, buf));
}

static void run_add(ortkit_session *s)
{
    float a[2][3] = {{1, 2, 3}, {4, 5, 6}}, b[2][3] = {{10, 20, 30}, {40, 50, 60}};
    const int64_t shape[] = {2, 3};
    ortkit_tensor *in[2] = {NULL, NULL}, *sum = NULL;
    assert_int_equal(ortkit_tensor_borrow(&in[0], ORTKIT_TYPE_FLOAT32, shape, 2, a, sizeof a), 0);
    assert_int_equal(ortkit_tensor_borrow(&in[1], ORTKIT_TYPE_FLOAT32, shape, 2, b, sizeof b), 0);
    if (ortkit_session_infer(s, (const ortkit_tensor *const *)in, 2, &sum, 1))
        fail_msg("%s", ortkit_error_last());
    const float *out = ortkit_tensor_data(sum);
    for (int i = 0; i < 6; i++)
        assert_true(out[i] == 11.0f * (float)(i + 1));
    ortkit_tensor_free(in[0]);
    ortkit_tensor_free(in[1]);
    ortkit_tensor_free(sum);
}

/* Silero VAD on three chunks of 512 samples (silence, or a deterministic
 * noisy tone), its state carried from chunk to chunk: probs[3], and the
 * last state's h into h_out. */
static void run_vad(ortkit_runtime *rt, int silent, float probs[3], float h_out[128])
{
    ortkit_session *s = NULL;
    if (ortkit_session_open(&s, rt, ORTKIT_TEST_APP_MODEL, NULL))
        fail_msg("%s", ortkit_error_last());
    static float audio[512];
    float h[2][1][64] = {{{0}}}, c[2][1][64] = {{{0}}};
    int64_t rate = 16000;
    uint32_t seed = 12345;
    const int64_t audio_shape[] = {1, 512}, state_shape[] = {2, 1, 64};
    for (int chunk = 0; chunk < 3; chunk++) {
        for (int i = 0; i < 512; i++) {
            seed = seed * 1664525u + 1013904223u;
            audio[i] = silent ? 0.0f
                              : ((i / 20) % 2 ? 0.25f : -0.25f) + (float)(seed >> 8) / (1 << 24) * 0.1f;
        }
        ortkit_tensor *in[4] = {NULL}, *out[3] = {NULL};
        assert_int_equal(ortkit_tensor_borrow(&in[0], ORTKIT_TYPE_FLOAT32, audio_shape, 2, audio,
                                              sizeof audio), 0);
        assert_int_equal(ortkit_tensor_borrow(&in[1], ORTKIT_TYPE_INT64, NULL, 0, &rate, sizeof rate), 0);
        assert_int_equal(ortkit_tensor_borrow(&in[2], ORTKIT_TYPE_FLOAT32, state_shape, 3, h, sizeof h), 0);
        assert_int_equal(ortkit_tensor_borrow(&in[3], ORTKIT_TYPE_FLOAT32, state_shape, 3, c, sizeof c), 0);
        if (ortkit_session_infer(s, (const ortkit_tensor *const *)in, 4, out, 3))
            fail_msg("%s", ortkit_error_last());
        assert_int_equal(ortkit_tensor_count(out[0]), 1);
        assert_int_equal(ortkit_tensor_count(out[1]), 128);
        probs[chunk] = *(const float *)ortkit_tensor_data(out[0]);
        memcpy(h, ortkit_tensor_data(out[1]), sizeof h);
        memcpy(c, ortkit_tensor_data(out[2]), sizeof c);
        for (int i = 0; i < 4; i++)
            ortkit_tensor_free(in[i]);
        for (int i = 0; i < 3; i++)
            ortkit_tensor_free(out[i]);
    }
    memcpy(h_out, h, sizeof h);
    ortkit_session_free(s);
}

/* The program's own symbol: nothing loaded, the library it links named. */
static void program_runtime(void **state)
{
    (void)state;
    ortkit_runtime *rt = open_program(OrtGetApiBase);
    assert_string_equal(ortkit_runtime_source(rt), "program");
    assert_string_equal(ortkit_runtime_version(rt), "1.30.0");
    assert_int_equal(ortkit_runtime_api_level(rt), 21);
    char linked[PATH_MAX], deps[PATH_MAX];
    linked_library(linked);
    assert_string_equal(ortkit_runtime_path(rt), linked);
    assert_non_null(realpath(ORTKIT_TEST_RUNTIME_NEW "/libonnxruntime.so", deps));
    assert_string_equal(ortkit_runtime_path(rt), deps);
    assert_true(ortkit_runtime_provider_count(rt) > 0);
    ortkit_session *s = NULL;
    assert_int_equal(ortkit_session_open(&s, rt, model_path("add.onnx"), NULL), 0);
    ortkit_runtime_free(rt); /* the session keeps it */
    run_add(s);
    ortkit_session_free(s);
}

/* Silero VAD gives what the same library gives when ortkit loads it by
 * path, and calls silence silence. */
static void program_runs_vad(void **state)
{
    (void)state;
    ortkit_runtime *program = open_program(OrtGetApiBase);
    ortkit_runtime *loaded = open_runtime(ORTKIT_TEST_RUNTIME_NEW);
    float p[3], q[3], hp[128], hq[128];
    run_vad(program, 0, p, hp);
    run_vad(loaded, 0, q, hq);
    int state_moved = 0;
    for (int i = 0; i < 3; i++) {
        assert_true(p[i] >= 0 && p[i] <= 1);
        assert_float_equal(p[i], q[i], 1e-6);
    }
    for (int i = 0; i < 128; i++) {
        assert_float_equal(hp[i], hq[i], 1e-6);
        state_moved |= hp[i] != 0;
    }
    assert_true(state_moved);
    run_vad(program, 1, p, hp);
    for (int i = 0; i < 3; i++)
        assert_true(p[i] >= 0 && p[i] < 0.5f);
    ortkit_runtime_free(loaded);
    ortkit_runtime_free(program);
}

/* The environment's runtime and bundle are not the program's choice. */
static void program_ignores_environment(void **state)
{
    (void)state;
    setenv("ORTKIT_RUNTIME", "/nonexistent/ort", 1);
    setenv("ORTKIT_BUNDLE", "no-such-bundle", 1);
    ortkit_runtime *rt = open_program(OrtGetApiBase);
    assert_string_equal(ortkit_runtime_source(rt), "program");
    assert_string_equal(ortkit_runtime_version(rt), "1.30.0");
    ortkit_runtime_free(rt);
    unsetenv("ORTKIT_RUNTIME");
    unsetenv("ORTKIT_BUNDLE");
}

/* A GPU provider of a runtime in a library file is judged from that file,
 * as for one loaded by path: npm's CPU package for x86-64 lists CUDA, without
 * its provider library beside it; the arm64 one was built without it. */
static void program_gpu_from_library(void **state)
{
    (void)state;
    ortkit_runtime *rt = open_program(OrtGetApiBase);
    ortkit_provider_status *ps = NULL;
    assert_int_equal(ortkit_runtime_provider_check(&ps, rt, "cuda"), 0);
    assert_false(ps->active);
#if defined(__aarch64__)
    const char *want = "was built without CUDAExecutionProvider";
#else
    const char *want = "libonnxruntime_providers_cuda.so is not beside it";
#endif
    if (!strstr(ps->reason, ortkit_runtime_path(rt)) || !strstr(ps->reason, want))
        fail_msg("reason: %s", ps->reason);
    ortkit_provider_status_free(ps);
    ortkit_runtime_free(rt);
}

/*
 * A runtime inside the executable, as with a static libonnxruntime.a: its
 * API table lies in the main program.  Here the real table is copied into
 * this executable (GetApi and GetVersionString stay the real library's), so
 * the one case this machine has no static library for is still exercised.
 */
static OrtApiBase table_copy;
static const OrtApiBase *base_in_executable(void)
{
    table_copy = *OrtGetApiBase();
    return &table_copy;
}

static void program_in_executable(void **state)
{
    (void)state;
    ortkit_runtime *rt = open_program(base_in_executable);
    char exe[PATH_MAX];
    assert_non_null(realpath("/proc/self/exe", exe));
    assert_string_equal(ortkit_runtime_path(rt), exe);
    assert_string_equal(ortkit_runtime_source(rt), "program");
    assert_string_equal(ortkit_runtime_version(rt), "1.30.0");
    assert_true(rt->in_executable);
    ortkit_session *s = NULL;
    assert_int_equal(ortkit_session_open(&s, rt, model_path("add.onnx"), NULL), 0);
    run_add(s);
    ortkit_session_free(s);
    /* The probe cannot load an executable: a GPU provider is refused, and
     * the reason says what to do. */
    ortkit__probe_verdict v = {0};
    snprintf(v.method, sizeof v.method, "bridge");
    assert_true(rt->probe_providers);
    assert_int_equal(ortkit__provider_probe(rt, "CUDAExecutionProvider",
                                            "libonnxruntime_providers_cuda.so", "", &v), 0);
    assert_int_equal(v.usable, 0);
    assert_string_equal(v.probe, "");
    if (!strstr(v.reason, "linked into the program") || !strstr(v.reason, exe) ||
        !strstr(v.reason, "link libonnxruntime.so") || !strstr(v.reason, "ORTKIT_GPU_PROBE=off"))
        fail_msg("reason: %s", v.reason);
    ortkit_runtime_free(rt);
}

static const OrtApiBase *no_base(void) { return NULL; }

static void program_errors(void **state)
{
    (void)state;
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    /* A failure a real runtime cannot produce. */
    o.api_base = no_base;
    assert_int_equal(open_program_fails(&o), ORTKIT_E_RUNTIME_INVALID);
    assert_error_has("api_base");
    assert_error_has("OrtGetApiBase() returned NULL");
    /* A runtime too old, through the stub's own OrtGetApiBase. */
    void *stub = dlopen(ORTKIT_TEST_STUBS "/libstub_too_old.so", RTLD_NOW | RTLD_LOCAL);
    assert_non_null(stub);
    *(void **)&o.api_base = dlsym(stub, "OrtGetApiBase");
    assert_non_null(o.api_base);
    assert_int_equal(open_program_fails(&o), ORTKIT_E_RUNTIME_TOO_OLD);
    assert_error_has("1.16.3");
    assert_error_has("libstub_too_old.so");
    assert_error_has("api_base");
    dlclose(stub);
    /* Another runtime named beside the program's: refused, not ignored. */
    o.api_base = OrtGetApiBase;
    o.path = ORTKIT_TEST_RUNTIME_OLD;
    assert_int_equal(open_program_fails(&o), ORTKIT_E_INVALID_ARG);
    assert_error_has("api_base and path are both set");
    o.path = NULL;
    o.bundle = "ort-1.17.3-cpu";
    assert_int_equal(open_program_fails(&o), ORTKIT_E_INVALID_ARG);
    assert_error_has("api_base and bundle are both set");
    /* A resolution names a file: it does not take the program's runtime. */
    o.bundle = NULL;
    ortkit_runtime_options by_path = ORTKIT_RUNTIME_OPTIONS_INIT;
    by_path.path = ORTKIT_TEST_RUNTIME_NEW;
    ortkit_resolution *res = NULL;
    assert_int_equal(ortkit_runtime_resolve(&res, &by_path, NULL, 0), 0);
    ortkit_runtime *rt = (ortkit_runtime *)&o;
    assert_int_equal(ortkit_runtime_open_resolved(&rt, res, &o), ORTKIT_E_INVALID_ARG);
    assert_null(rt);
    assert_error_has("api_base");
    ortkit_resolution_free(res);
}

/* A program built against version 2 of the options has no api_base: its
 * struct ends before it, and is searched and loaded as before. */
static void version_2_options(void **state)
{
    (void)state;
    size_t v2_size = offsetof(ortkit_runtime_options, api_base);
    ortkit_runtime_options full = ORTKIT_RUNTIME_OPTIONS_INIT;
    full.version = 2;
    full.path = ORTKIT_TEST_RUNTIME_OLD;
    ortkit_runtime_options *v2 = malloc(v2_size); /* ASan: not one byte more is read */
    assert_non_null(v2);
    memcpy(v2, &full, v2_size);
    ortkit_runtime *rt = NULL;
    if (ortkit_runtime_open(&rt, v2))
        fail_msg("%s", ortkit_error_last());
    assert_string_equal(ortkit_runtime_source(rt), "options");
    assert_string_equal(ortkit_runtime_version(rt), "1.17.3");
    ortkit_runtime_free(rt);
    free(v2);
    /* A whole struct that says version 2: what lies past its end is not read. */
    full.api_base = no_base;
    assert_int_equal(ortkit_runtime_open(&rt, &full), 0);
    assert_string_equal(ortkit_runtime_source(rt), "options");
    ortkit_runtime_free(rt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(program_runtime),
        cmocka_unit_test(program_runs_vad),
        cmocka_unit_test(program_ignores_environment),
        cmocka_unit_test(program_gpu_from_library),
        cmocka_unit_test(program_in_executable),
        cmocka_unit_test(program_errors),
        cmocka_unit_test(version_2_options),
    };
    return cmocka_run_group_tests_name("runtime linked into the program", tests, NULL, NULL);
}
