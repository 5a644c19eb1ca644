/* test_runtime.c - finding, loading and hand-shaking with ONNX Runtime. */
#include "testutil.h"

#include <stdlib.h>
#include <unistd.h>

static void test_open_new_runtime(void **state)
{
    (void)state;
    ortkit_runtime *rt = open_runtime(ORTKIT_TEST_RUNTIME_NEW);
    assert_string_equal(ortkit_runtime_version(rt), "1.30.0");
    /* ortkit is built with the 1.21 header: it asks for 21, never more. */
    assert_int_equal(ortkit_runtime_api_level(rt), 21);
    assert_string_equal(ortkit_runtime_source(rt), "options");
    assert_non_null(strstr(ortkit_runtime_path(rt), "libonnxruntime.so"));
    int has_cpu = 0;
    for (size_t i = 0; i < ortkit_runtime_provider_count(rt); i++)
        has_cpu |= !strcmp(ortkit_runtime_provider(rt, i), "CPUExecutionProvider");
    assert_true(has_cpu);
    assert_null(ortkit_runtime_provider(rt, 1000));
    ortkit_runtime_free(rt);
}

static void test_open_old_runtime(void **state)
{
    (void)state;
    ortkit_runtime *rt = open_runtime(ORTKIT_TEST_RUNTIME_OLD);
    assert_string_equal(ortkit_runtime_version(rt), "1.17.3");
    assert_int_equal(ortkit_runtime_api_level(rt), 17);
    ortkit_runtime_free(rt);
}

static void test_open_library_file(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/libonnxruntime.so.1", ORTKIT_TEST_RUNTIME_OLD);
    ortkit_runtime *rt = open_runtime(path);
    assert_string_equal(ortkit_runtime_version(rt), "1.17.3");
    ortkit_runtime_free(rt);
}

static void test_discovery_order(void **state)
{
    (void)state;
    ortkit_runtime *rt = NULL;
    /* ORTKIT_RUNTIME beats the default location. */
    setenv("ORTKIT_RUNTIME", ORTKIT_TEST_RUNTIME_OLD, 1);
    assert_int_equal(ortkit_runtime_open(&rt, NULL), 0);
    assert_string_equal(ortkit_runtime_source(rt), "ORTKIT_RUNTIME");
    assert_string_equal(ortkit_runtime_version(rt), "1.17.3");
    ortkit_runtime_free(rt);
    /* An explicit path beats ORTKIT_RUNTIME. */
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    o.path = ORTKIT_TEST_RUNTIME_NEW;
    assert_int_equal(ortkit_runtime_open(&rt, &o), 0);
    assert_string_equal(ortkit_runtime_version(rt), "1.30.0");
    ortkit_runtime_free(rt);
    /* With nothing set, set-up's 1.30.0 is found: as the bundle `make build`
     * imports (deps/bundles), else where set-up put it. */
    unsetenv("ORTKIT_RUNTIME");
    assert_int_equal(ortkit_runtime_open(&rt, NULL), 0);
    const char *source = ortkit_runtime_source(rt);
    assert_true(!strcmp(source, "default") || !strcmp(source, "bundle ort-1.30.0-cpu"));
    assert_string_equal(ortkit_runtime_version(rt), "1.30.0");
    ortkit_runtime_free(rt);
    /* A user's ORTKIT_RUNTIME that is wrong is an error, not a silent fallback. */
    setenv("ORTKIT_RUNTIME", "/nonexistent/ort", 1);
    assert_int_equal(ortkit_runtime_open(&rt, NULL), ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_null(rt);
    assert_error_has("/nonexistent/ort");
    assert_error_has("ORTKIT_RUNTIME");
    unsetenv("ORTKIT_RUNTIME");
}

static int open_fails(const char *path)
{
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    o.path = path;
    ortkit_runtime *rt = (ortkit_runtime *)&o; /* must be reset to NULL */
    int rc = ortkit_runtime_open(&rt, &o);
    assert_null(rt);
    return rc;
}

static void test_missing_path(void **state)
{
    (void)state;
    assert_int_equal(open_fails("/no/such/libonnxruntime.so"), ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_error_has("/no/such/libonnxruntime.so");
    /* A directory with no library in it. */
    assert_int_equal(open_fails(ORTKIT_TEST_SOURCE_DIR "/docs"), ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_error_has("no libonnxruntime.so");
}

static void test_not_a_library(void **state)
{
    (void)state;
    char path[] = "/tmp/ortkit-notlib-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "hello\n", 6), 6);
    close(fd);
    assert_int_equal(open_fails(path), ORTKIT_E_RUNTIME_INVALID);
    assert_error_has(path);
    unlink(path);
}

static void test_missing_symbol(void **state)
{
    (void)state;
    assert_int_equal(open_fails(ORTKIT_TEST_STUBS "/libstub_no_symbol.so"), ORTKIT_E_RUNTIME_INVALID);
    assert_error_has("OrtGetApiBase");
    assert_error_has("libstub_no_symbol.so");
}

static void test_too_old(void **state)
{
    (void)state;
    assert_int_equal(open_fails(ORTKIT_TEST_STUBS "/libstub_too_old.so"), ORTKIT_E_RUNTIME_TOO_OLD);
    /* Both versions are named: the one found and the one needed. */
    assert_error_has("1.16.3");
    assert_error_has("1.17");
}

static void test_bad_options(void **state)
{
    (void)state;
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    o.version = 99;
    ortkit_runtime *rt = NULL;
    assert_int_equal(ortkit_runtime_open(&rt, &o), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_runtime_open(NULL, NULL), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_error_code(), ORTKIT_E_INVALID_ARG);
    ortkit_runtime_free(NULL);
}

static void test_error_names(void **state)
{
    (void)state;
    assert_string_equal(ortkit_status_name(ORTKIT_OK), "ORTKIT_OK");
    assert_string_equal(ortkit_status_name(ORTKIT_E_SHAPE), "ORTKIT_E_SHAPE");
    assert_string_equal(ortkit_status_name(-1000), "ORTKIT_E_UNKNOWN");
    assert_non_null(ortkit_error_last());
    assert_string_equal(ortkit_version(), ORTKIT_VERSION_STRING);
}

static void test_search_paths(void **state)
{
    (void)state;
    char buf[2048];
    assert_int_equal(ortkit_runtime_search_paths(buf, sizeof buf), 0);
    assert_non_null(strstr(buf, "ORTKIT_RUNTIME"));
    assert_non_null(strstr(buf, "pkg-config"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_new_runtime), cmocka_unit_test(test_open_old_runtime),
        cmocka_unit_test(test_open_library_file), cmocka_unit_test(test_discovery_order),
        cmocka_unit_test(test_missing_path),     cmocka_unit_test(test_not_a_library),
        cmocka_unit_test(test_missing_symbol),   cmocka_unit_test(test_too_old),
        cmocka_unit_test(test_bad_options),      cmocka_unit_test(test_error_names),
        cmocka_unit_test(test_search_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
