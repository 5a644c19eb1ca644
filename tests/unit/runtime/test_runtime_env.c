/* test_runtime_env.c - the runtime's environment options: global thread pools,
 * the shared CPU arena and its extend strategy, spinning; on both runtimes. */
#include "testutil.h"

static void run_add(ortkit_session *s)
{
    const int64_t shape[2] = {1, 3};
    const float a[3] = {1, 2, 3}, b[3] = {10, 20, 30};
    ortkit_tensor *in[2] = {NULL, NULL}, *out[1] = {NULL};
    assert_int_equal(ortkit_tensor_new(&in[0], ORTKIT_TYPE_FLOAT32, shape, 2), 0);
    assert_int_equal(ortkit_tensor_new(&in[1], ORTKIT_TYPE_FLOAT32, shape, 2), 0);
    memcpy(ortkit_tensor_data(in[0]), a, sizeof a);
    memcpy(ortkit_tensor_data(in[1]), b, sizeof b);
    const char *names[2] = {"a", "b"};
    assert_int_equal(ortkit_session_run(s, NULL, names, (const ortkit_tensor *const *)in, 2, NULL, 0, out), 0);
    const float *sum = ortkit_tensor_data(out[0]);
    assert_true(sum[0] == 11 && sum[1] == 22 && sum[2] == 33);
    ortkit_tensor_free(in[0]);
    ortkit_tensor_free(in[1]);
    ortkit_tensor_free(out[0]);
}

/* Global pools, their spinning off, and a shared arena growing by what is
 * asked: sessions with every session switch open and run. */
static void test_global_pools_and_shared_arena(void **state)
{
    (void)state;
    for (int r = 0; r < 2; r++) {
        ortkit_runtime_options ro = ORTKIT_RUNTIME_OPTIONS_INIT;
        ro.path = test_runtimes[r];
        ro.global_thread_pools = ORTKIT_SWITCH_ON;
        ro.global_intra_threads = 2;
        ro.global_inter_threads = 1;
        ro.global_spinning = ORTKIT_SWITCH_OFF;
        ro.cpu_arena_extend = ORTKIT_ARENA_EXTEND_REQUESTED;
        ortkit_runtime *rt = NULL;
        if (ortkit_runtime_open(&rt, &ro))
            fail_msg("%s: %s", test_runtimes[r], ortkit_error_last());
        ortkit_session *s[3] = {NULL, NULL, NULL};
        ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
        for (int i = 0; i < 3; i++) {
            so.cpu_arena = i == 2 ? ORTKIT_SWITCH_OFF : ORTKIT_SWITCH_DEFAULT;
            so.intra_op_spinning = ORTKIT_SWITCH_ON; /* the runtime's pools decide */
            if (ortkit_session_open(&s[i], rt, model_path("add.onnx"), &so))
                fail_msg("session %d: %s", i, ortkit_error_last());
        }
        for (int i = 0; i < 3; i++) {
            run_add(s[i]);
            ortkit_session_free(s[i]);
        }
        ortkit_runtime_free(rt);
    }
}

static void test_spinning_per_session(void **state)
{
    (void)state;
    ortkit_runtime *rt = open_runtime(test_runtimes[1]);
    static const ortkit_switch values[] = {ORTKIT_SWITCH_ON, ORTKIT_SWITCH_OFF};
    for (int i = 0; i < 2; i++) {
        ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
        so.intra_op_spinning = so.inter_op_spinning = values[i];
        ortkit_session *s = NULL;
        assert_int_equal(ortkit_session_open(&s, rt, model_path("add.onnx"), &so), 0);
        run_add(s);
        ortkit_session_free(s);
    }
    ortkit_session_options bad = ORTKIT_SESSION_OPTIONS_INIT;
    bad.intra_op_spinning = (ortkit_switch)7;
    ortkit_session *s = NULL;
    assert_int_equal(ortkit_session_open(&s, rt, model_path("add.onnx"), &bad), ORTKIT_E_INVALID_ARG);
    assert_error_has("intra_op_spinning");
    ortkit_runtime_free(rt);
}

static void test_bad_runtime_options(void **state)
{
    (void)state;
    ortkit_runtime_options ro = ORTKIT_RUNTIME_OPTIONS_INIT;
    ortkit_runtime *rt = NULL;
    ro.path = test_runtimes[1];
    ro.global_intra_threads = 2; /* without the pools */
    assert_int_equal(ortkit_runtime_open(&rt, &ro), ORTKIT_E_INVALID_ARG);
    assert_error_has("global_thread_pools");
    ro.global_intra_threads = 0;
    ro.cpu_arena_extend = (ortkit_arena_extend)9;
    assert_int_equal(ortkit_runtime_open(&rt, &ro), ORTKIT_E_INVALID_ARG);
    assert_error_has("arena extend");
    assert_null(rt);
}

/* A program built against version 1 of both structs still works. */
static void test_version_1_structs(void **state)
{
    (void)state;
    ortkit_runtime_options ro = ORTKIT_RUNTIME_OPTIONS_INIT;
    ro.version = 1;
    ro.path = test_runtimes[1];
    ro.global_thread_pools = (ortkit_switch)99; /* past version 1's end: never read */
    ortkit_runtime *rt = NULL;
    if (ortkit_runtime_open(&rt, &ro))
        fail_msg("%s", ortkit_error_last());
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    so.version = 1;
    so.cache_dir = "/nonexistent/never/read";
    so.intra_op_spinning = (ortkit_switch)99;
    ortkit_session *s = NULL;
    assert_int_equal(ortkit_session_open(&s, rt, model_path("add.onnx"), &so), 0);
    assert_int_equal(ortkit_session_cache(s, NULL), ORTKIT_CACHE_OFF);
    run_add(s);
    ortkit_session_free(s);
    ortkit_runtime_free(rt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_pools_and_shared_arena),
        cmocka_unit_test(test_spinning_per_session),
        cmocka_unit_test(test_bad_runtime_options),
        cmocka_unit_test(test_version_1_structs),
    };
    return cmocka_run_group_tests_name("runtime environment", tests, NULL, NULL);
}
