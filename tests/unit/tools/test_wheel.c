/*
 * test_wheel.c - the wheel module's pure parts: the platform tag earned by
 * needs (every profile's edge, both architectures, needs past the newest),
 * local version labels, wheel file names, RECORD's hash encoding, CPython
 * tags, and wheels.json read strictly.  (Packing real trees, hostile wheels
 * and a served index are tests/cli/wheel.t's.)
 */
#include "testutil.h"

#include "wheel_internal.h"

#include <string.h>

static void tag_is(const char *glibc, const char *glibcxx, const char *cxxabi, const char *want)
{
    char tag[64], why[512];
    assert_int_equal(ortkit_wheel_platform_tag(tag, sizeof tag, ORTKIT_ARCH_X86_64, glibc, glibcxx,
                                               cxxabi, why, sizeof why), 0);
    assert_string_equal(tag, want);
    assert_true(why[0] != '\0');
}

static void test_platform_tag(void **state)
{
    (void)state;
    /* Nothing versioned, or old versions: the oldest profile. */
    tag_is("", "", "", "manylinux_2_17_x86_64");
    tag_is(NULL, NULL, NULL, "manylinux_2_17_x86_64");
    tag_is("2.17", "3.4.19", "1.3.7", "manylinux_2_17_x86_64");
    /* One step past a profile's edge moves to the next. */
    tag_is("2.18", "", "", "manylinux_2_24_x86_64");
    tag_is("2.17", "3.4.20", "", "manylinux_2_24_x86_64");
    tag_is("2.17", "", "1.3.8", "manylinux_2_24_x86_64");
    /* Microsoft's 1.30.0: glibc 2.28, GLIBCXX_3.4.22, CXXABI_1.3.11. */
    tag_is("2.28", "3.4.22", "1.3.11", "manylinux_2_28_x86_64");
    /* A Debian 11 build: glibc 2.29 alone would earn 2_31 too, but GLIBCXX_3.4.26
     * alone, with an old glibc, still does: AlmaLinux 8's libstdc++ lacks it. */
    tag_is("2.29", "3.4.26", "1.3.11", "manylinux_2_31_x86_64");
    tag_is("2.17", "3.4.26", "", "manylinux_2_31_x86_64");
    tag_is("2.34", "3.4.28", "", "manylinux_2_34_x86_64");
    tag_is("2.17", "3.4.30", "", "manylinux_2_35_x86_64");
    tag_is("2.39", "3.4.33", "1.3.15", "manylinux_2_39_x86_64");
    /* Past every profile: no manylinux promise. */
    tag_is("2.41", "", "", "linux_x86_64");
    tag_is("2.17", "3.4.34", "", "linux_x86_64");

    char tag[64], why[512];
    assert_int_equal(ortkit_wheel_platform_tag(tag, sizeof tag, ORTKIT_ARCH_AARCH64, "2.31", "3.4.28",
                                               "1.3.12", why, sizeof why), 0);
    assert_string_equal(tag, "manylinux_2_31_aarch64");
    assert_non_null(strstr(why, "stops at glibc 2.28 and GLIBCXX 3.4.25 and CXXABI 1.3.11"));
    assert_int_not_equal(ortkit_wheel_platform_tag(tag, sizeof tag, ORTKIT_ARCH_UNKNOWN, "", "", "",
                                                   NULL, 0), 0);
    assert_int_not_equal(ortkit_wheel_platform_tag(tag, 8, ORTKIT_ARCH_X86_64, "", "", "", NULL, 0), 0);
}

static void test_local_label(void **state)
{
    (void)state;
    char l[64];
    assert_int_equal(ortkit_wheel_local_label(l, sizeof l, "cpu-avx2"), 0);
    assert_string_equal(l, "cpu.avx2");
    assert_int_equal(ortkit_wheel_local_label(l, sizeof l, "cuda12.9-sm90-avx512"), 0);
    assert_string_equal(l, "cuda12.9.sm90.avx512");
    assert_int_equal(ortkit_wheel_local_label(l, sizeof l, "cpu-x86-64"), 0);
    assert_string_equal(l, "cpu.x86.64");
    assert_int_not_equal(ortkit_wheel_local_label(l, sizeof l, "cpu avx2"), 0);
    assert_int_not_equal(ortkit_wheel_local_label(l, sizeof l, "-cpu"), 0);
    assert_int_not_equal(ortkit_wheel_local_label(l, sizeof l, "cpu--avx2"), 0);
    assert_int_not_equal(ortkit_wheel_local_label(l, sizeof l, ""), 0);
    assert_int_not_equal(ortkit_wheel_local_label(l, 4, "cpu-avx2"), 0);
}

static void test_name(void **state)
{
    (void)state;
    ortkit__wheel_name n;
    assert_int_equal(ortkit__wheel_name_parse(&n, "onnxruntime-1.21.0+cpu.avx2-cp311-cp311-manylinux_2_31_x86_64.whl"), 0);
    assert_string_equal(n.dist, "onnxruntime");
    assert_string_equal(n.version, "1.21.0+cpu.avx2");
    assert_null(n.build);
    assert_string_equal(n.python_tag, "cp311");
    assert_string_equal(n.platform_tag, "manylinux_2_31_x86_64");
    assert_int_equal(ortkit__wheel_name_parse(&n, "onnxruntime-1.21.0-1-cp311-cp311-linux_x86_64.whl"), 0);
    assert_string_equal(n.build, "1");
    static const char *const bad[] = {
        "onnxruntime-1.21.0-cp311-cp311.whl",            /* a part missing */
        "onnxruntime-1.21.0-x-1-2-cp311-cp311-linux.whl", /* too many */
        "onnxruntime-1.21.0-b1-cp311-cp311-linux_x86_64.whl", /* a build tag not a number */
        "onnxruntime-1.21.0-cp311-cp311-linux_x86_64.zip",
        "onnxruntime-1.21.0-cp311-cp311-linux x86_64.whl",
        "onnxruntime-1.21.0-cp311-cp311-../x.whl",
        "onnxruntime--cp311-cp311-linux_x86_64.whl",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_not_equal(ortkit__wheel_name_parse(&n, bad[i]), 0);
}

static void test_record_hash_and_python(void **state)
{
    (void)state;
    unsigned char md[32];
    char h[WHEEL_RECORD_HASH];
    /* SHA-256 of "" in pip's RECORD form. */
    assert_int_equal(ortkit__sha256(md, "", 0), 0);
    ortkit__wheel_record_hash(h, md);
    assert_string_equal(h, "sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU");
    char tag[16];
    int a = 0, b = 0;
    assert_int_equal(ortkit__wheel_python_tag(tag, sizeof tag, "3.13", &a, &b), 0);
    assert_string_equal(tag, "cp313");
    assert_int_equal(b, 13);
    assert_int_not_equal(ortkit__wheel_python_tag(tag, sizeof tag, "2.7", NULL, NULL), 0);
    assert_int_not_equal(ortkit__wheel_python_tag(tag, sizeof tag, "3.11.2", NULL, NULL), 0);
    assert_int_not_equal(ortkit__wheel_python_tag(tag, sizeof tag, "3", NULL, NULL), 0);
}

static void test_index_strict(void **state)
{
    (void)state;
    ortkit__wheel_list l;
    static const char *const bad[] = {
        "{}",
        "{\"schema\": 2, \"serial\": 1, \"created\": \"2026-01-01T00:00:00Z\", \"expires\": "
        "\"2026-02-01T00:00:00Z\", \"wheels\": []}",
        "{\"schema\": 1, \"serial\": 0, \"created\": \"2026-01-01T00:00:00Z\", \"expires\": "
        "\"2026-02-01T00:00:00Z\", \"wheels\": []}",
        /* a file outside its index */
        "{\"schema\": 1, \"serial\": 1, \"created\": \"2026-01-01T00:00:00Z\", \"expires\": "
        "\"2026-02-01T00:00:00Z\", \"wheels\": [{\"file\": \"../onnxruntime/x.whl\", \"index\": "
        "\"cpu/\", \"sha256\": \"" "0000000000000000000000000000000000000000000000000000000000000000"
        "\", \"size\": 1, \"facts\": {}}]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_not_equal(ortkit__wheel_index_parse(&l, bad[i], strlen(bad[i]), "t"), 0);
    const char *empty = "{\"schema\": 1, \"serial\": 3, \"created\": \"2026-01-01T00:00:00Z\", "
                        "\"expires\": \"2026-02-01T00:00:00Z\", \"wheels\": []}";
    assert_int_equal(ortkit__wheel_index_parse(&l, empty, strlen(empty), "t"), 0);
    assert_int_equal(l.serial, 3);
    assert_int_equal(l.count, 0);
    ortkit__wheel_index_clear(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_platform_tag),
        cmocka_unit_test(test_local_label),
        cmocka_unit_test(test_name),
        cmocka_unit_test(test_record_hash_and_python),
        cmocka_unit_test(test_index_strict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
