/*
 * test_abi.c - versioned structs across versions: a caller built against an
 * older version is read and written only within its version's bytes, and
 * what the library allocates goes back through it.
 */
#include "testutil.h"

#include "abi.h"

/* Version 1 of a struct, as an older caller was built ... */
typedef struct opts_v1 {
    unsigned version;
    int a;
    const char *b;
} opts_v1;

/* ... and version 2, which this "library" was built with. */
typedef struct opts {
    unsigned version;
    int a;
    const char *b;
    int c;      /* new in version 2 */
    double d;
} opts;

#define OPTS_VERSION 2
#define OPTS_INIT {OPTS_VERSION, 0, NULL, 7, 1.5}

ORTKIT__ABI_STRUCT(opts_abi, opts, "test options", "OPTS_INIT", OPTS_VERSION,
                   offsetof(opts, c), sizeof(opts));
ORTKIT__ABI_STRUCT(v1_abi, opts_v1, "old options", "OLD_INIT", 1, sizeof(opts_v1));

static void test_read_older_caller(void **state)
{
    (void)state;
    /* Exactly version 1's bytes: reading past them would be an overflow. */
    opts_v1 *caller = malloc(sizeof *caller);
    assert_non_null(caller);
    *caller = (opts_v1){1, 5, "x"};
    opts full = OPTS_INIT;
    assert_int_equal(ortkit__abi_read(&opts_abi, &full, caller), 0);
    assert_int_equal(full.version, OPTS_VERSION);
    assert_int_equal(full.a, 5);
    assert_string_equal(full.b, "x");
    assert_int_equal(full.c, 7); /* defaults for what version 1 lacks */
    assert_true(full.d == 1.5);
    free(caller);

    opts current = {OPTS_VERSION, 1, "y", 2, 3.0}, copy = OPTS_INIT;
    assert_int_equal(ortkit__abi_read(&opts_abi, &copy, &current), 0);
    assert_int_equal(copy.c, 2);
    assert_true(copy.d == 3.0);
}

static void test_write_older_caller(void **state)
{
    (void)state;
    struct {
        opts_v1 v;
        unsigned char after[32];
    } caller;
    memset(&caller, 0xab, sizeof caller);
    caller.v.version = 1;
    opts full = {OPTS_VERSION, 9, "z", 10, 11.0};
    assert_int_equal(ortkit__abi_write(&opts_abi, &caller.v, &full), 0);
    assert_int_equal(caller.v.version, 1); /* kept */
    assert_int_equal(caller.v.a, 9);
    assert_string_equal(caller.v.b, "z");
    for (size_t i = 0; i < sizeof caller.after; i++)
        assert_int_equal(caller.after[i], 0xab);
}

static void test_unknown_versions(void **state)
{
    (void)state;
    opts full = OPTS_INIT, caller = OPTS_INIT;
    caller.version = 0;
    assert_int_equal(ortkit__abi_read(&opts_abi, &full, &caller), ORTKIT_E_INVALID_ARG);
    assert_error_has("test options version 0: this ortkit knows versions 1 to 2; use OPTS_INIT");
    caller.version = 3;
    caller.a = 42;
    assert_int_equal(ortkit__abi_read(&opts_abi, &full, &caller), ORTKIT_E_INVALID_ARG);
    assert_int_equal(full.a, 0); /* nothing read */
    assert_int_equal(ortkit__abi_write(&opts_abi, &caller, &full), ORTKIT_E_INVALID_ARG);
    assert_int_equal(caller.a, 42); /* nothing written */
    assert_int_equal(ortkit__abi_check(&opts_abi, 2), 0);
    assert_int_equal(ortkit__abi_check(&v1_abi, 2), ORTKIT_E_INVALID_ARG);
    assert_error_has("old options version 2: this ortkit knows version 1; use OLD_INIT");
}

/* The public structs: every options and result struct refuses what it does
 * not know, naming the struct and its _INIT macro. */
static void test_public_options(void **state)
{
    (void)state;
    ortkit_runtime_options ro = ORTKIT_RUNTIME_OPTIONS_INIT;
    ro.version = ORTKIT_RUNTIME_OPTIONS_VERSION + 1;
    ortkit_runtime *rt = NULL;
    assert_int_equal(ortkit_runtime_open(&rt, &ro), ORTKIT_E_INVALID_ARG);
    assert_error_has("runtime options version 5: this ortkit knows versions 1 to 4; use "
                     "ORTKIT_RUNTIME_OPTIONS_INIT");
    ortkit_bundle_import_options io = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    io.version = 0;
    assert_int_equal(ortkit_bundle_import(NULL, "/nonexistent", &io), ORTKIT_E_INVALID_ARG);
    assert_error_has("import options version 0");
    assert_error_has("ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT");
}

static void test_library_memory(void **state)
{
    (void)state;
    ortkit_host *h = NULL;
    char *json = NULL;
    assert_int_equal(ortkit_host_from_json(&h, "{\"arch\": \"x86_64\"}"), 0);
    assert_int_equal(ortkit_host_to_json(h, &json), 0);
    assert_non_null(strstr(json, "\"x86_64\""));
    /* A changed field is what the library reads. */
    h->driver_version = "570.124.06";
    ortkit_free(json);
    assert_int_equal(ortkit_host_to_json(h, &json), 0);
    assert_non_null(strstr(json, "\"570.124.06\""));
    ortkit_free(json);
    ortkit_host_free(h);
    ortkit_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_older_caller),
        cmocka_unit_test(test_write_older_caller),
        cmocka_unit_test(test_unknown_versions),
        cmocka_unit_test(test_public_options),
        cmocka_unit_test(test_library_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
