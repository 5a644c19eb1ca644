/*
 * test_bundle_static.c - static bundles: the real 1.30.0 library of a
 * release gives the version, its providers and needs, a static archive
 * made here with cc and ar takes its place; the bundle's pkg-config file
 * and CMake package link a C program against the archive alone, verify
 * and open accept it, selection passes it over, and what is not an
 * archive of that version, or words that are not libraries, are refused
 * with nothing left behind.
 */
#include "testutil.h"

#include "bundle_make.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <unistd.h>

#include "scratch.h"

static int run(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    return system(cmd);
}

static void put(const char *name, const char *text)
{
    if (ortkit__file_write_atomic(at(name), text, strlen(text)))
        fail_msg("cannot write %s: %s", name, ortkit__error_message());
}

/* An archive that says 1.30.0 (NUL before and after, as ORT's data has
 * it) and defines core_answer(); and one that says nothing. */
static int setup(void **state)
{
    (void)state;
    if (scratch_make("bundle-static"))
        return -1;
    put("core.c", "__attribute__((used)) static const char version[] = \"\\0\" \"1.30.0\";\n"
                  "int core_answer(void) { return 42; }\n");
    put("other.c", "int core_answer(void) { return 7; }\n");
    put("app.c", "#include <stdio.h>\nint core_answer(void);\n"
                 "int main(void) { printf(\"%d\\n\", core_answer()); return 0; }\n");
    if (run("cd '%s' && cc -c -fPIC core.c other.c && ar rcs core.a core.o && ar rcs other.a other.o",
            scratch))
        return -1;
    setenv("XDG_DATA_HOME", at("xdg"), 1);
    unsetenv("ORTKIT_PATH");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return scratch_remove();
}

static int import_static(ortkit_bundle **b, const char *archive, const char *libs, const char *into)
{
    ortkit_bundle_import_options o = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    o.into = into;
    o.static_archive = archive;
    o.static_libs = libs;
    return ortkit_bundle_import(b, ORTKIT_TEST_RUNTIME_NEW, &o);
}

static void test_static_bundle_links_and_is_never_chosen(void **state)
{
    (void)state;
    ortkit_bundle *b = NULL;
    if (import_static(&b, at("core.a"), "-lm -pthread", at("bundles")))
        fail_msg("%s", ortkit_error_last());
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    assert_string_equal(m->name, "ort-1.30.0-cpu-static");
    assert_string_equal(m->linkage, "static");
    assert_string_equal(m->library, "lib/libonnxruntime.a");
    assert_string_equal(m->ort_version, "1.30.0");
    assert_string_equal(ortkit_bundle_damage(b), "");
    /* No shared core anywhere in it: -lonnxruntime can only find the archive. */
    for (size_t i = 0; i < m->file_count; i++)
        assert_null(strstr(m->files[i].path, "libonnxruntime.so"));
    assert_int_equal(ortkit_bundle_verify(b), 0);

    /* pkg-config --static gives the whole line; a C program links and runs. */
    assert_int_equal(run("PKG_CONFIG_PATH='%s/lib/pkgconfig' pkg-config --static --libs "
                         "libonnxruntime | grep -q -- '-lonnxruntime -lm -pthread'", m->dir), 0);
    assert_int_equal(run("cc -o '%s' '%s' $(PKG_CONFIG_PATH='%s/lib/pkgconfig' pkg-config "
                         "--static --cflags --libs libonnxruntime) && '%s' | grep -qx 42",
                         at("app"), at("app.c"), m->dir, at("app")), 0);
    assert_int_not_equal(run("ldd '%s' | grep -q onnxruntime", at("app")), 0);

    /* The CMake package: an imported static target, linked by a C project. */
    assert_int_equal(run("mkdir -p '%s' && cp '%s' '%s/app.c' && printf '%%s\\n' "
                         "'cmake_minimum_required(VERSION 3.21)' 'project(app C)' "
                         "'find_package(onnxruntime 1.30 REQUIRED CONFIG)' "
                         "'add_executable(app app.c)' "
                         "'target_link_libraries(app PRIVATE onnxruntime::onnxruntime)' "
                         ">'%s/CMakeLists.txt'", at("cm"), at("app.c"), at("cm"), at("cm")), 0);
    assert_int_equal(run("cmake -S '%s' -B '%s' -G Ninja -Donnxruntime_DIR='%s/lib/cmake/onnxruntime' "
                         ">/dev/null && cmake --build '%s' >/dev/null && '%s/app' | grep -qx 42",
                         at("cm"), at("cm/build"), m->dir, at("cm/build"), at("cm/build")), 0);

    /* Selection passes it over, saying why. */
    ortkit_host *h = NULL;
    ortkit_bundle_choice *c = NULL;
    const ortkit_bundle *one[] = {b};
    assert_int_equal(ortkit_host_detect(&h), 0);
    assert_int_equal(ortkit_bundle_select(&c, h, one, 1, NULL), ORTKIT_E_RUNTIME_NOT_FOUND);
    const ortkit_bundle_verdict *v = ortkit_bundle_choice_verdict(c, 0);
    assert_false(v->fits);
    assert_string_equal(v->step, "loadable");
    assert_non_null(strstr(v->why, "a static bundle"));
    ortkit_bundle_choice_free(c);
    ortkit_host_free(h);

    /* Reopened from disk, the same. */
    char dir[600];
    snprintf(dir, sizeof dir, "%s", m->dir);
    ortkit_bundle_free(b);
    assert_int_equal(ortkit_bundle_open(&b, dir), 0);
    assert_string_equal(ortkit_bundle_manifest(b)->linkage, "static");
    assert_string_equal(ortkit_bundle_damage(b), "");
    ortkit_bundle_free(b);

    /* An archive replaced by another is damage, found on open. */
    assert_int_equal(run("cp '%s' '%s/lib/libonnxruntime.a'", at("other.a"), dir), 0);
    assert_int_equal(ortkit_bundle_open(&b, dir), 0);
    assert_non_null(strstr(ortkit_bundle_damage(b), "lib/libonnxruntime.a is"));
    ortkit_bundle_free(b);
}

static void test_refusals_leave_nothing(void **state)
{
    (void)state;
    ortkit_bundle *b = NULL;
    static const struct {
        const char *archive, *libs, *error;
    } cases[] = {
        {"other.a", "-lm", "holds no version string \"1.30.0\""},
        {"app.c", "-lm", "is not a static library"},
        {"core.a", "-lm -Wl,--wrap=malloc", "'-Wl,--wrap=malloc' is not a library to link"},
        {"core.a", "/usr/lib/libevil.so", "is not a library to link"},
        {"core.a", NULL, "no list of the libraries it links"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_not_equal(import_static(&b, at(cases[i].archive), cases[i].libs, at("refused")), 0);
        assert_null(b);
        if (!strstr(ortkit_error_last(), cases[i].error))
            fail_msg("case %zu: '%s' lacks '%s'", i, ortkit_error_last(), cases[i].error);
    }
    assert_int_not_equal(run("ls -A '%s' 2>/dev/null | grep -q .", at("refused")), 0);
}

/* A manifest that says static must name the archive; no other linkage. */
static void test_manifest_linkage_is_checked(void **state)
{
    (void)state;
    ortkit_bundle *b = NULL;
    assert_int_equal(import_static(&b, at("core.a"), "", at("m")), 0);
    char *json = NULL;
    assert_int_equal(ortkit__bundle_to_json(&json, ortkit_bundle_manifest(b)), 0);
    ortkit_bundle_free(b);
    static const struct {
        const char *from, *to, *error;
    } cases[] = {
        {"\"static\"", "\"dynamic\"", "neither \"shared\" nor \"static\""},
        {"\"static\"", "1", "linkage"},
        {"\"static\"", "\"shared\"", "is not lib/libonnxruntime.so*"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* The value after the key (pretty-printed: a tab may follow the colon). */
        char *key = strstr(json, "\"linkage\":");
        assert_non_null(key);
        char *at_ = strstr(key, cases[i].from);
        assert_non_null(at_);
        char edited[1 << 16];
        snprintf(edited, sizeof edited, "%.*s%s%s", (int)(at_ - json), json, cases[i].to,
                 at_ + strlen(cases[i].from));
        assert_int_equal(ortkit_bundle_parse(&b, edited, strlen(edited)), ORTKIT_E_FORMAT);
        if (!strstr(ortkit_error_last(), cases[i].error))
            fail_msg("case %zu: '%s' lacks '%s'", i, ortkit_error_last(), cases[i].error);
    }
    /* Unedited it parses, and says static. */
    assert_int_equal(ortkit_bundle_parse(&b, json, strlen(json)), 0);
    assert_string_equal(ortkit_bundle_manifest(b)->linkage, "static");
    ortkit_bundle_free(b);
    free(json);
}

/* A hybrid bundle (static core, shared providers): programs get an RPATH
 * to lib/, where ONNX Runtime's bare-name dlopen from the program finds
 * the providers; a CPU-only static bundle needs none. */
static void test_hybrid_dev_files(void **state)
{
    (void)state;
    for (int providers = 0; providers < 2; providers++) {
        char dir[700];
        snprintf(dir, sizeof dir, "%s/dev-%d", scratch, providers);
        assert_int_equal(ortkit__mkdirs(dir), 0);
        ortkit__layout lay = {dir, "ort-1.21.0-cuda13.0-sm90-avx2-static", "cuda13.0-sm90-avx2",
                              "1.21.0", "libonnxruntime.so.1.21.0", "libonnxruntime.so.1",
                              "-lonnx -lstdc++ -lm", providers};
        assert_int_equal(ortkit__write_dev_files(&lay), 0);
        char *pc = NULL, *cfg = NULL, path[800];
        snprintf(path, sizeof path, "%s/lib/pkgconfig/libonnxruntime.pc", dir);
        assert_int_equal(ortkit__file_read(&pc, NULL, path, 1 << 16), 0);
        snprintf(path, sizeof path, "%s/lib/cmake/onnxruntime/onnxruntimeConfig.cmake", dir);
        assert_int_equal(ortkit__file_read(&cfg, NULL, path, 1 << 16), 0);
        assert_non_null(strstr(pc, providers ? "Libs: -L${libdir} -lonnxruntime -Wl,-rpath,${libdir}\n"
                                             : "Libs: -L${libdir} -lonnxruntime\n"));
        assert_non_null(strstr(pc, "Libs.private: -lonnx -lstdc++ -lm\n"));
        assert_non_null(strstr(cfg, "INTERFACE_LINK_LIBRARIES \"-lonnx;-lstdc++;-lm\""));
        assert_true(!strstr(cfg, "LINKER:-rpath") == !providers);
        free(pc);
        free(cfg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_static_bundle_links_and_is_never_chosen),
        cmocka_unit_test(test_refusals_leave_nothing),
        cmocka_unit_test(test_manifest_linkage_is_checked),
        cmocka_unit_test(test_hybrid_dev_files),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
