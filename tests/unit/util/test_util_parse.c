/*
 * test_util_parse.c - what src/util reads and writes for people: version
 * numbers, strict JSON, sizes and durations.
 */
#include "testutil.h"

#include "util.h"

#include <cjson/cJSON.h>

/* ---- versions ------------------------------------------------------------------ */

static void test_version_parse(void **state)
{
    (void)state;
    ortkit__version v;
    const char *rest = NULL;
    assert_int_equal(ortkit__version_parse(&v, "1.30.0", NULL), 0);
    assert_int_equal(v.n, 3);
    assert_true(v.part[0] == 1 && v.part[1] == 30 && v.part[2] == 0);
    assert_int_equal(ortkit__version_parse(&v, "570.124.06", NULL), 0);
    assert_true(v.n == 3 && v.part[2] == 6);
    assert_int_equal(ortkit__version_parse(&v, "12", NULL), 0);
    assert_int_equal(v.n, 1);

    /* What follows the numbers: given back with rest, refused without. */
    assert_int_equal(ortkit__version_parse(&v, "1.22.0-dev", &rest), 0);
    assert_int_equal(v.n, 3);
    assert_string_equal(rest, "-dev");
    assert_int_equal(ortkit__version_parse(&v, "1.22.0-dev", NULL), ORTKIT_E_FORMAT);
    assert_error_has("'1.22.0-dev' is not a version");
    assert_int_equal(ortkit__version_parse(&v, "3.25.1 (cmake)", &rest), 0);
    assert_string_equal(rest, " (cmake)");

    static const char *const bad[] = {"", "x1", "-1.2", "1.", "1..2", ".5", "1.9999999999", " 1.2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (ortkit__version_parse(&v, bad[i], &rest) != ORTKIT_E_FORMAT)
            fail_msg("'%s' parsed as a version", bad[i]);
    assert_int_equal(ortkit__version_parse(&v, NULL, &rest), ORTKIT_E_FORMAT);

    /* At most ORTKIT__VERSION_MAX_PARTS parts: the rest is left over. */
    assert_int_equal(ortkit__version_parse(&v, "1.2.3.4.5.6.7.8.9", &rest), 0);
    assert_int_equal(v.n, ORTKIT__VERSION_MAX_PARTS);
    assert_string_equal(rest, ".9");
    assert_int_equal(ortkit__version_parse(&v, "1.2.3.4.5.6.7.8.9", NULL), ORTKIT_E_FORMAT);
}

static void test_version_compare(void **state)
{
    (void)state;
    assert_true(ortkit__version_compare("570.124.06", "570.86.16") > 0);
    assert_true(ortkit__version_compare("525.60.13", "525.60.13") == 0);
    assert_true(ortkit__version_compare("1.2", "1.2.0") == 0);
    assert_true(ortkit__version_compare("1.9", "1.10") < 0);
    assert_true(ortkit__version_compare("3.25.1", "3.21") > 0);
    assert_true(ortkit__version_compare("1.22.0-dev", "1.22.0") == 0);
    /* Text that is no version counts as 0, and comparing records nothing. */
    ortkit__error_set(ORTKIT_E_IO, "before");
    assert_true(ortkit__version_compare("", "0.1") < 0);
    assert_true(ortkit__version_compare("abc", "0") == 0);
    assert_string_equal(ortkit__error_message(), "before");
}

/* ---- strict JSON -------------------------------------------------------------- */

static const ortkit__json_reader reader = {"test JSON"};

static void test_json_keys_and_objects(void **state)
{
    (void)state;
    cJSON *root = cJSON_Parse("{\"a\": 1, \"cpu\": {\"model\": \"x\", \"flags\": []}, \"n\": null, "
                              "\"s\": \"str\", \"a\": 2}");
    assert_non_null(root);
    static const char *const top[] = {"a", "cpu", "n", "s", NULL};
    assert_int_equal(ortkit__json_check_keys(&reader, root, "", top), ORTKIT_E_FORMAT);
    assert_string_equal(ortkit__error_message(), "test JSON: key 'a' appears twice");

    const cJSON *cpu = NULL;
    assert_int_equal(ortkit__json_get_object(&reader, root, "cpu", "", 0, &cpu), 0);
    assert_non_null(cpu);
    static const char *const cpu_keys[] = {"model", NULL};
    assert_int_equal(ortkit__json_check_keys(&reader, cpu, "cpu", cpu_keys), ORTKIT_E_FORMAT);
    assert_string_equal(ortkit__error_message(), "test JSON: unknown key 'cpu.flags'");
    static const char *const all_cpu_keys[] = {"model", "flags", NULL};
    assert_int_equal(ortkit__json_check_keys(&reader, cpu, "cpu", all_cpu_keys), 0);

    /* null: missing when nullable, the wrong type when not. */
    const cJSON *o = root;
    assert_int_equal(ortkit__json_get_object(&reader, root, "n", "", ORTKIT__JSON_NULLABLE, &o), 0);
    assert_null(o);
    assert_int_equal(ortkit__json_get_object(&reader, root, "n", "", 0, &o), ORTKIT_E_FORMAT);
    assert_string_equal(ortkit__error_message(), "test JSON: 'n' must be an object, not null");
    assert_int_equal(ortkit__json_get_object(&reader, cpu, "flags", "cpu", 0, &o), ORTKIT_E_FORMAT);
    assert_string_equal(ortkit__error_message(), "test JSON: 'cpu.flags' must be an object, not an array");
    assert_int_equal(ortkit__json_get_object(&reader, root, "gone", "", 0, &o), 0);
    assert_null(o);
    assert_int_equal(ortkit__json_get_object(&reader, root, "gone", "", ORTKIT__JSON_REQUIRED, &o),
                     ORTKIT_E_FORMAT);
    assert_string_equal(ortkit__error_message(), "test JSON: missing 'gone'");
    cJSON_Delete(root);
}

static void test_json_values(void **state)
{
    (void)state;
    cJSON *root = cJSON_Parse("{\"s\": \"hello\", \"c\": \"a\\u0001b\", \"i\": 42, \"f\": 1.5, "
                              "\"neg\": -1, \"big\": 1e300, \"b\": true, \"t\": \"true\", \"n\": null}");
    assert_non_null(root);
    const char *s = NULL;
    assert_int_equal(ortkit__json_get_string(&reader, root, "s", "x", 5, 0, &s), 0);
    assert_string_equal(s, "hello");
    assert_int_equal(ortkit__json_get_string(&reader, root, "s", "x", 4, 0, &s), ORTKIT_E_FORMAT);
    assert_string_equal(ortkit__error_message(), "test JSON: 'x.s' is longer than 4 bytes");
    assert_int_equal(ortkit__json_get_string(&reader, root, "c", "", 16, 0, &s), 0);
    assert_int_equal(ortkit__json_get_string(&reader, root, "c", "", 16, ORTKIT__JSON_PLAIN, &s),
                     ORTKIT_E_FORMAT);
    assert_string_equal(ortkit__error_message(), "test JSON: 'c' holds a control character");
    assert_int_equal(ortkit__json_get_string(&reader, root, "i", "", 16, 0, &s), ORTKIT_E_FORMAT);
    assert_string_equal(ortkit__error_message(), "test JSON: 'i' must be a string, not a number");
    assert_int_equal(ortkit__json_get_string(&reader, root, "n", "", 16, ORTKIT__JSON_NULLABLE, &s), 0);
    assert_null(s);
    assert_int_equal(ortkit__json_get_string(&reader, root, "gone", "", 16, ORTKIT__JSON_REQUIRED, &s),
                     ORTKIT_E_FORMAT);

    int64_t v = 7;
    assert_int_equal(ortkit__json_get_whole(&reader, root, "i", "", 0, 100, 0, &v), 0);
    assert_int_equal(v, 42);
    v = 7;
    assert_int_equal(ortkit__json_get_whole(&reader, root, "gone", "", 0, 100, 0, &v), 0);
    assert_int_equal(v, 7); /* left alone */
    assert_int_equal(ortkit__json_get_whole(&reader, root, "i", "", 0, 41, 0, &v), ORTKIT_E_FORMAT);
    assert_string_equal(ortkit__error_message(),
                        "test JSON: 'i' must be a whole number from 0 to 41, not 42");
    assert_int_equal(ortkit__json_get_whole(&reader, root, "f", "", 0, 100, 0, &v), ORTKIT_E_FORMAT);
    assert_error_has("not 1.5");
    assert_int_equal(ortkit__json_get_whole(&reader, root, "neg", "", 0, 100, 0, &v), ORTKIT_E_FORMAT);
    assert_int_equal(ortkit__json_get_whole(&reader, root, "neg", "", -5, 100, 0, &v), 0);
    assert_int_equal(v, -1);
    assert_int_equal(ortkit__json_get_whole(&reader, root, "big", "", 0, 9007199254740992.0, 0, &v),
                     ORTKIT_E_FORMAT);
    assert_int_equal(ortkit__json_get_whole(&reader, root, "s", "", 0, 1, 0, &v), ORTKIT_E_FORMAT);
    assert_string_equal(ortkit__error_message(), "test JSON: 's' must be a number, not a string");

    int b = 0;
    assert_int_equal(ortkit__json_get_bool(&reader, root, "b", "", 0, &b), 0);
    assert_int_equal(b, 1);
    assert_int_equal(ortkit__json_get_bool(&reader, root, "t", "", 0, &b), ORTKIT_E_FORMAT);
    assert_string_equal(ortkit__error_message(), "test JSON: 't' must be true or false, not a string");

    assert_string_equal(ortkit__json_type(root), "an object");
    assert_int_equal(ortkit__json_fail(&reader, "%d problems", 2), ORTKIT_E_FORMAT);
    assert_string_equal(ortkit__error_message(), "test JSON: 2 problems");
    cJSON_Delete(root);
}

/* ---- figures for people ------------------------------------------------------ */

static void check_text(void (*format)(char *, size_t, double), double v, const char *want)
{
    char buf[32];
    format(buf, sizeof buf, v);
    if (strcmp(buf, want))
        fail_msg("%g printed as '%s', expected '%s'", v, buf, want);
}

static void check_memory(uint64_t bytes, const char *want)
{
    char buf[32];
    ortkit__human_memory(buf, sizeof buf, bytes);
    assert_string_equal(buf, want);
}

static void test_human_figures(void **state)
{
    (void)state;
    check_text(ortkit__human_duration, 12.34e-6, "12.3 us");
    check_text(ortkit__human_duration, 1.234e-3, "1.23 ms");
    check_text(ortkit__human_duration, 2.5, "2.50 s");
    check_text(ortkit__human_duration3, 2.954e-6, "2.95 us");
    check_text(ortkit__human_duration3, 14.54e-3, "14.5 ms");
    check_text(ortkit__human_duration3, 0.1234, "123 ms");
    check_text(ortkit__human_duration3, 150, "150 s");
    check_text(ortkit__human_bytes, 512, "512 B");
    check_text(ortkit__human_bytes, 4.5 * 1024 * 1024, "4.5 MiB");
    check_text(ortkit__human_bytes, 3.0 * 1024 * 1024 * 1024 * 1024 * 1024, "3072.0 TiB");
    check_memory(100, "100 B");
    check_memory(12 * ORTKIT__KiB, "12 KiB");
    check_memory(600 * ORTKIT__MiB, "600 MiB");
    check_memory(3 * ORTKIT__GiB / 2, "1.50 GiB");
}

static void test_parse_size(void **state)
{
    (void)state;
    static const struct { const char *in; uint64_t want; } ok[] = {
        {"1000000", 1000000},        {"512k", 512 * ORTKIT__KiB}, {"600M", 600 * ORTKIT__MiB},
        {"1.5G", 3 * ORTKIT__GiB / 2}, {"2GiB", 2 * ORTKIT__GiB},   {"6 gb", 6 * ORTKIT__GiB},
        {"1T", 1024 * ORTKIT__GiB},  {"10B", 10},                 {"0", 0},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        uint64_t v = 0;
        if (ortkit__human_parse_size(ok[i].in, &v) != 0 || v != ok[i].want)
            fail_msg("'%s' read as %llu, expected %llu", ok[i].in, (unsigned long long)v,
                     (unsigned long long)ok[i].want);
    }
    static const char *const bad[] = {"", "G", "-1", "1X", "1GiBx", "nan", "inf", "1e30T"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 0;
        if (ortkit__human_parse_size(bad[i], &v) != ORTKIT_E_INVALID_ARG)
            fail_msg("'%s' read as a size", bad[i]);
    }
    uint64_t v;
    assert_int_equal(ortkit__human_parse_size(NULL, &v), ORTKIT_E_INVALID_ARG);
    ortkit__human_parse_size("lots", &v);
    assert_error_has("'lots' is not a size");
    /* A number too large to hold says so, not that it is no size. */
    assert_int_equal(ortkit__human_parse_size("99999999T", &v), ORTKIT_E_INVALID_ARG);
    assert_error_has("'99999999T' is too large: at most 16 EiB");
    assert_int_equal(ortkit__human_parse_size("16383T", &v), 0);
    assert_true(v == (uint64_t)16383 << 40);
}

/* Nesting past cJSON's limit is told apart from bad syntax. */
static void test_json_depth(void **state)
{
    (void)state;
    int limit = ortkit__json_depth_limit();
    assert_int_equal(limit, 1000);
    size_t n = 5000;
    char *deep = malloc(2 * n + 1);
    assert_non_null(deep);
    memset(deep, '[', n);
    memset(deep + n, ']', n);
    deep[2 * n] = '\0';
    const char *end = NULL;
    assert_null(cJSON_ParseWithOpts(deep, &end, 1));
    assert_true(ortkit__json_too_deep(deep, end));
    /* Brackets inside strings do not count, nor closed ones. */
    static const char *const shallow[] = {"{\"a\": \"[[[[\", \"b\": [1, 2,]}", "[[]] x", "{\"k\": \"\\\"[\" ,}"};
    for (size_t i = 0; i < sizeof shallow / sizeof shallow[0]; i++) {
        end = NULL;
        assert_null(cJSON_ParseWithOpts(shallow[i], &end, 1));
        assert_false(ortkit__json_too_deep(shallow[i], end));
    }
    /* Exactly at the limit parses; one more does not, and says why. */
    memset(deep, '[', (size_t)limit);
    memset(deep + limit, ']', (size_t)limit);
    deep[2 * limit] = '\0';
    cJSON *ok = cJSON_Parse(deep);
    assert_non_null(ok);
    cJSON_Delete(ok);
    assert_false(ortkit__json_too_deep(NULL, NULL));
    free(deep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_parse),
        cmocka_unit_test(test_version_compare),
        cmocka_unit_test(test_json_keys_and_objects),
        cmocka_unit_test(test_json_values),
        cmocka_unit_test(test_human_figures),
        cmocka_unit_test(test_parse_size),
        cmocka_unit_test(test_json_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
