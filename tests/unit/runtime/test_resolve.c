/* test_resolve.c - the resolver's account of the search, and loading what it found. */
#include "testutil.h"

#include <unistd.h>

static char scratch[512];

static int setup(void **state)
{
    (void)state;
    snprintf(scratch, sizeof scratch, "/tmp/ortkit-test-resolve-%ld", (long)getpid());
    char cmd[4 * sizeof scratch + 64];
    /* An empty bundle path and user data directory; no system ones. */
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/path' '%s/xdg' '%s/sys'", scratch,
             scratch, scratch, scratch);
    if (system(cmd) != 0)
        return -1;
    char path[600];
    snprintf(path, sizeof path, "%s/path", scratch);
    setenv("ORTKIT_PATH", path, 1);
    snprintf(path, sizeof path, "%s/xdg", scratch);
    setenv("XDG_DATA_HOME", path, 1);
    snprintf(path, sizeof path, "%s/sys", scratch);
    setenv("XDG_DATA_DIRS", path, 1);
    unsetenv("ORTKIT_RUNTIME");
    unsetenv("ORTKIT_BUNDLE");
    unsetenv("ONNXRUNTIME_DIR");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[sizeof scratch + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    return system(cmd) == 0 ? 0 : -1;
}

static const ortkit_resolve_step *step(const ortkit_resolution *res, const char *source)
{
    for (size_t i = 0; i < ortkit_resolution_step_count(res); i++)
        if (!strcmp(ortkit_resolution_step(res, i)->source, source))
            return ortkit_resolution_step(res, i);
    return NULL;
}

/* The places, in the documented order, with the first that decides taken. */
static void test_order_and_explicit_path(void **state)
{
    (void)state;
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    o.path = ORTKIT_TEST_RUNTIME_OLD;
    ortkit_resolution *res = NULL;
    assert_int_equal(ortkit_runtime_resolve(&res, &o, NULL, ORTKIT_RESOLVE_EXPLAIN), 0);
    static const char *const order[] = {"options", "ORTKIT_RUNTIME", "bundles", "default",
                                        "ONNXRUNTIME_DIR", "pkg-config", "system"};
    assert_int_equal(ortkit_resolution_step_count(res), 7);
    for (size_t i = 0; i < 7; i++)
        assert_string_equal(ortkit_resolution_step(res, i)->source, order[i]);
    assert_int_equal(ortkit_resolution_status(res), ORTKIT_OK);
    assert_string_equal(ortkit_resolution_source(res), "options");
    assert_non_null(strstr(ortkit_resolution_path(res), "libonnxruntime.so"));
    assert_int_equal(step(res, "options")->verdict, ORTKIT_RESOLVE_TAKEN);
    assert_string_equal(step(res, "options")->where, ORTKIT_TEST_RUNTIME_OLD);
    /* Explained, not taken: everything after the decision. */
    for (size_t i = 1; i < 7; i++)
        assert_int_equal(ortkit_resolution_step(res, i)->verdict, ORTKIT_RESOLVE_NOT_REACHED);
    assert_string_equal(step(res, "ORTKIT_RUNTIME")->detail, "not set");
    /* Only the build's default bundle directory may hold bundles here. */
    const char *said = step(res, "bundles")->detail;
    assert_true(!strcmp(said, "no bundles were found") || !strncmp(said, "would choose ", 13));

    /* Loading it gives exactly that file and source. */
    ortkit_runtime *rt = NULL;
    assert_int_equal(ortkit_runtime_open_resolved(&rt, res, NULL), 0);
    assert_string_equal(ortkit_runtime_version(rt), "1.17.3");
    assert_string_equal(ortkit_runtime_source(rt), "options");
    ortkit_runtime_free(rt);
    ortkit_resolution_free(res);

    /* Without EXPLAIN the search stops where it decides. */
    assert_int_equal(ortkit_runtime_resolve(&res, &o, NULL, 0), 0);
    assert_int_equal(ortkit_resolution_step_count(res), 3);
    assert_int_equal(step(res, "bundles")->verdict, ORTKIT_RESOLVE_NOT_REACHED);
    assert_null(ortkit_resolution_bundles(res)); /* never listed */
    ortkit_resolution_free(res);
}

/* The environment comes after the options; a bad value stops the search. */
static void test_environment_and_failure(void **state)
{
    (void)state;
    ortkit_resolution *res = NULL;
    setenv("ORTKIT_RUNTIME", ORTKIT_TEST_RUNTIME_NEW, 1);
    assert_int_equal(ortkit_runtime_resolve(&res, NULL, NULL, 0), 0);
    assert_string_equal(ortkit_resolution_source(res), "ORTKIT_RUNTIME");
    assert_int_equal(step(res, "options")->verdict, ORTKIT_RESOLVE_SKIPPED);
    assert_int_equal(step(res, "ORTKIT_RUNTIME")->verdict, ORTKIT_RESOLVE_TAKEN);
    ortkit_resolution_free(res);

    setenv("ORTKIT_RUNTIME", "/nonexistent/ort", 1);
    assert_int_equal(ortkit_runtime_resolve(&res, NULL, NULL, ORTKIT_RESOLVE_EXPLAIN), 0);
    assert_int_equal(ortkit_resolution_status(res), ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_non_null(strstr(ortkit_resolution_error(res), "/nonexistent/ort"));
    assert_int_equal(step(res, "ORTKIT_RUNTIME")->verdict, ORTKIT_RESOLVE_FAILED);
    assert_string_equal(ortkit_resolution_path(res), "");
    /* The default location is still described, for whoever reads the account. */
    assert_int_equal(step(res, "default")->verdict, ORTKIT_RESOLVE_NOT_REACHED);
    ortkit_runtime *rt = (ortkit_runtime *)1;
    assert_int_equal(ortkit_runtime_open_resolved(&rt, res, NULL), ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_null(rt);
    assert_error_has("/nonexistent/ort");
    ortkit_resolution_free(res);
    /* ortkit_runtime_open fails the same way. */
    assert_int_equal(ortkit_runtime_open(&rt, NULL), ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_error_has("(from ORTKIT_RUNTIME)");
    unsetenv("ORTKIT_RUNTIME");
}

/* A directory is searched for a regular file only: a directory or a
 * dangling link under the library's names is passed over, and the search
 * goes on to lib/ (the rule bundle import shares, ortkit__ort_library_in_dir). */
static void test_directory_takes_regular_files(void **state)
{
    (void)state;
    char top[600], cmd[4096];
    snprintf(top, sizeof top, "%s/odd-runtime", scratch);
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s/libonnxruntime.so' '%s/lib' && ln -s nowhere '%s/libonnxruntime.so.1.99.0' "
             "&& ln -s '%s/libonnxruntime.so.1' '%s/lib/libonnxruntime.so.1'",
             top, top, top, ORTKIT_TEST_RUNTIME_NEW, top);
    assert_int_equal(system(cmd), 0);
    setenv("ORTKIT_RUNTIME", top, 1);
    ortkit_resolution *res = NULL;
    assert_int_equal(ortkit_runtime_resolve(&res, NULL, NULL, 0), 0);
    assert_int_equal(ortkit_resolution_status(res), ORTKIT_OK);
    char want[700];
    snprintf(want, sizeof want, "%s/lib/libonnxruntime.so.1", top);
    assert_string_equal(ortkit_resolution_path(res), want);
    ortkit_resolution_free(res);
    /* Nothing regular anywhere: not found, naming the directory. */
    snprintf(cmd, sizeof cmd, "rm '%s/lib/libonnxruntime.so.1'", top);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(ortkit_runtime_resolve(&res, NULL, NULL, 0), 0);
    assert_int_equal(ortkit_resolution_status(res), ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_non_null(strstr(ortkit_resolution_error(res), "no libonnxruntime.so* in directory"));
    /* ... saying what it passed over, the first of them. */
    snprintf(want, sizeof want, "passed over '%s/libonnxruntime.so': it is a directory, not a "
             "regular file", top);
    assert_non_null(strstr(ortkit_resolution_error(res), want));
    ortkit_resolution_free(res);
    unsetenv("ORTKIT_RUNTIME");
}

/* Bundles: judged for the host given, pinned or best; a pin that names
 * nothing fails the search, an unpinned search with none goes on. */
static void test_bundles(void **state)
{
    (void)state;
    ortkit_bundle_import_options io = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    char into[600];
    snprintf(into, sizeof into, "%s/path", scratch);
    io.name = "r-old";
    io.into = into;
    assert_int_equal(ortkit_bundle_import(NULL, ORTKIT_TEST_RUNTIME_OLD, &io), 0);
    ortkit_host *host = NULL;
    assert_int_equal(ortkit_host_detect(&host), 0);
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    o.bundle = "r-old";
    ortkit_resolution *res = NULL;
    assert_int_equal(ortkit_runtime_resolve(&res, &o, host, 0), 0);
    assert_int_equal(ortkit_resolution_status(res), ORTKIT_OK);
    assert_string_equal(ortkit_resolution_source(res), "bundle r-old");
    const char *from = NULL;
    assert_string_equal(ortkit_resolution_pin(res, &from), "r-old");
    assert_string_equal(from, "the options");
    assert_non_null(ortkit_resolution_bundles(res));
    assert_non_null(ortkit_resolution_host(res));
    const ortkit_bundle_choice *choice = ortkit_resolution_choice(res);
    assert_non_null(choice);
    assert_int_not_equal(choice->index, ORTKIT_BUNDLE_NONE);
    assert_true(ortkit_bundle_choice_verdict(choice, choice->index)->fits);
    assert_non_null(strstr(step(res, "bundles")->detail, "pinned by name"));
    ortkit_resolution_free(res);

    /* A pin from the environment that names nothing. */
    setenv("ORTKIT_BUNDLE", "nosuch", 1);
    assert_int_equal(ortkit_runtime_resolve(&res, NULL, host, 0), 0);
    assert_int_equal(ortkit_resolution_status(res), ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_non_null(strstr(ortkit_resolution_error(res), "'nosuch' (from ORTKIT_BUNDLE)"));
    assert_string_equal(ortkit_resolution_pin(res, &from), "nosuch");
    assert_string_equal(from, "ORTKIT_BUNDLE");
    assert_int_equal(step(res, "bundles")->verdict, ORTKIT_RESOLVE_FAILED);
    ortkit_resolution_free(res);
    unsetenv("ORTKIT_BUNDLE");

    /* A described host the bundle cannot run on: passed over, search goes on. */
    host->arch = TEST_OTHER_ARCH;
    assert_int_equal(ortkit_runtime_resolve(&res, NULL, host, 0), 0);
    assert_int_equal(step(res, "bundles")->verdict, ORTKIT_RESOLVE_PASSED);
    assert_non_null(strstr(step(res, "bundles")->detail, "built for " TEST_ARCH_NAME));
    assert_false(ortkit_bundle_choice_verdict(ortkit_resolution_choice(res), 0)->fits);
    assert_int_not_equal(strncmp(ortkit_resolution_source(res), "bundle ", 7), 0);
    ortkit_resolution_free(res);
    ortkit_host_free(host);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    assert_int_equal(ortkit_runtime_resolve(NULL, NULL, NULL, 0), ORTKIT_E_INVALID_ARG);
    ortkit_runtime *rt = NULL;
    assert_int_equal(ortkit_runtime_open_resolved(&rt, NULL, NULL), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_resolution_step_count(NULL), 0);
    assert_null(ortkit_resolution_step(NULL, 0));
    assert_string_equal(ortkit_resolution_path(NULL), "");
    assert_string_equal(ortkit_resolve_verdict_name(ORTKIT_RESOLVE_NOT_REACHED), "not reached");
    ortkit_resolution_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_explicit_path),
        cmocka_unit_test(test_environment_and_failure),
        cmocka_unit_test(test_directory_takes_regular_files),
        cmocka_unit_test(test_bundles),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
