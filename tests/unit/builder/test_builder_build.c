/*
 * test_builder_build.c - whole builds through the builder's entry point
 * (build.c, the driver and the compile gate): a tiny CMake project planned,
 * checked, built under the gate with the real `ortkit` as its launcher,
 * rebuilt with nothing to do, and a broken one that names its first error.
 */
#include "testutil.h"

#include "builder_cross.h"
#include "builder_plan.h"
#include "builder_preflight.h"
#include "builder_build.h"

#include <cjson/cJSON.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"

static void put(const char *name, const char *text)
{
    char parent[700];
    snprintf(parent, sizeof parent, "%s", at(name));
    *strrchr(parent, '/') = '\0';
    if (ortkit__mkdirs(parent) || ortkit__file_write_atomic(at(name), text, strlen(text)))
        fail_msg("cannot write %s: %s", name, ortkit__error_message());
}

static int setup(void **state)
{
    (void)state;
    if (scratch_make("build"))
        return -1;
    static const char lists[] = "cmake_minimum_required(VERSION 3.21)\n"
                                "project(tiny C)\n"
                                "add_executable(tiny main.c helper.c)\n"
                                "install(TARGETS tiny)\n";
    put("tiny/CMakeLists.txt", lists);
    put("tiny/main.c", "int helper(void);\nint main(void) { return helper(); }\n");
    put("tiny/helper.c", "int helper(void) { return 0; }\n");
    put("broken/CMakeLists.txt", lists);
    put("broken/main.c", "int helper(void);\nint main(void) { return helper(); }\n");
    put("broken/helper.c", "int helper(void)\n{\n    return 0 +;\n}\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return scratch_remove();
}

#define assert_message_has(text)                                                            \
    do {                                                                                    \
        if (!strstr(ortkit__error_message(), (text)))                                       \
            fail_msg("error '%s' lacks '%s'", ortkit__error_message(), (text));             \
    } while (0)

static ortkit__builder_options options(ortkit__builder_mode mode, const char *project,
                                       const char *build_dir)
{
    ortkit__builder_options o = {.mode = mode, .cmake_project = at(project),
                                 .build_dir = build_dir ? at(build_dir) : NULL,
                                 .launcher = ORTKIT_TEST_CLI, .budget = ORTKIT__GiB, .slots = 2,
                                 .min_disk = ORTKIT__MiB, .quiet = 1};
    return o;
}

static void test_plan_and_check(void **state)
{
    (void)state;
    ortkit__builder_result r;
    /* A plan: nothing is checked or written, the build directory defaults
     * to ./build-<project>. */
    ortkit__builder_options o = options(ORTKIT__BUILDER_PLAN, "tiny", NULL);
    assert_int_equal(ortkit__builder_build(&r, &o), 0);
    char cwd[512], want[600];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(want, sizeof want, "%s/build-tiny", cwd);
    assert_string_equal(r.build_dir, want);
    assert_string_equal(r.source, at("tiny"));
    assert_null(r.variant);
    assert_string_equal(r.plan.configure.v[0], "cmake");
    assert_string_equal(r.plan.configure.v[2], at("tiny"));
    assert_int_equal(access(want, F_OK), -1);
    assert_string_equal(r.toolchain.cmake, "");
    ortkit__builder_result_free(&r);

    /* Pre-flight only: the toolchain, and no plan. */
    o = options(ORTKIT__BUILDER_CHECK, "tiny", "check");
    assert_int_equal(ortkit__builder_build(&r, &o), 0);
    assert_true(r.toolchain.cmake[0] && r.toolchain.ninja[0] && r.toolchain.cc[0]);
    assert_int_equal(r.plan.configure.n, 0);
    ortkit__builder_result_free(&r);

    /* Refusals before anything runs. */
    o = options(ORTKIT__BUILDER_PLAN, "tiny", NULL);
    o.source = at("tiny");
    assert_int_equal(ortkit__builder_build(&r, &o), ORTKIT_E_INVALID_ARG);
    ortkit__builder_result_free(&r);
    o.cmake_project = NULL;
    o.variant = "cpu-avx3";
    assert_int_equal(ortkit__builder_build(&r, &o), ORTKIT_E_INVALID_ARG);
    assert_message_has("cpu-avx3"); /* the library's word, carried over */
    ortkit__builder_result_free(&r);
    o.variant = "cpu-avx2";
    assert_int_equal(ortkit__builder_build(&r, &o), ORTKIT_E_INVALID_ARG);
    assert_message_has("is not an ONNX Runtime source tree");
    ortkit__builder_result_free(&r);
}

static int count_lines_with(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static void test_build_under_gate(void **state)
{
    (void)state;
    ortkit__builder_result r;
    ortkit__builder_options o = options(ORTKIT__BUILDER_BUILD, "tiny", "b");
    int rc = ortkit__builder_build(&r, &o);
    if (rc)
        fail_msg("build: %s", ortkit__error_message());
    /* Two compiles and a link, each through the gate. */
    assert_int_equal(r.report.steps_total, 3);
    assert_int_equal(r.report.steps_done, 3);
    assert_int_equal(r.report.n, 3);
    assert_int_equal(r.report.gate.admitted, 3);
    assert_true(r.report.gate.max_running >= 1 && r.report.gate.max_running <= 2);
    assert_true(r.report.budget == ORTKIT__GiB && r.report.slots == 2);
    for (size_t i = 0; i < r.report.n; i++)
        assert_int_equal(r.report.r[i].status, 0);
    assert_string_equal(r.bundle, ""); /* a CMake project is not bundled */
    char stage_bin[1100];
    snprintf(stage_bin, sizeof stage_bin, "%s/bin/tiny", r.plan.stage_dir);
    assert_int_equal(access(stage_bin, X_OK), 0);

    /* The report: returned, and written beside the build. */
    char *saved = NULL;
    assert_int_equal(ortkit__file_read(&saved, NULL, at("b/ortkit-report.json"), 1 << 20), 0);
    /* ... and kept under the run's own name, which a later rerun does not replace. */
    char kept[600];
    assert_true(r.report_name[0]);
    snprintf(kept, sizeof kept, "%s/b/.ortkit/reports/%s", scratch, r.report_name);
    assert_int_equal(access(kept, R_OK), 0);
    assert_string_equal(saved, r.report_json);
    cJSON *json = cJSON_Parse(saved);
    assert_non_null(json);
    assert_string_equal(cJSON_GetObjectItem(json, "project")->valuestring, at("tiny"));
    assert_string_equal(cJSON_GetObjectItem(json, "chain")->valuestring, "none");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(json, "compiles")), 3);
    /* Configuring and installing are timed apart from ninja's run. */
    assert_true(cJSON_GetObjectItem(json, "configure_s")->valuedouble > 0);
    assert_true(cJSON_GetObjectItem(json, "install_s")->valuedouble > 0);
    assert_true(cJSON_GetObjectItem(json, "wall_s")->valuedouble > 0);
    cJSON_Delete(json);
    ortkit__builder_result_free(&r);

    /* The same again: not configured again, nothing compiled, and the
     * report of the build that did the work kept. */
    assert_int_equal(ortkit__builder_build(&r, &o), 0);
    assert_int_equal(r.report.n, 0);
    ortkit__builder_result_free(&r);
    char *again = NULL, *log = NULL;
    assert_int_equal(ortkit__file_read(&again, NULL, at("b/ortkit-report.json"), 1 << 20), 0);
    assert_string_equal(again, saved);
    assert_int_equal(ortkit__file_read(&log, NULL, at("b/ortkit-build.log"), 1 << 20), 0);
    assert_int_equal(count_lines_with(log, "configuration unchanged"), 1);
    free(saved);
    free(again);
    free(log);

    /* A second build of the same directory while the first holds it. */
    ortkit__builder_lock lock = {-1};
    assert_int_equal(ortkit__builder_lock_take(&lock, at("b/.ortkit")), 0);
    assert_int_equal(ortkit__builder_build(&r, &o), ORTKIT_E_IO);
    assert_message_has("is in use by another ortkit build");
    ortkit__builder_result_free(&r);
    ortkit__builder_lock_release(&lock);
}

static void test_broken_build(void **state)
{
    (void)state;
    ortkit__builder_result r;
    ortkit__builder_options o = options(ORTKIT__BUILDER_BUILD, "broken", "bb");
    assert_int_equal(ortkit__builder_build(&r, &o), ORTKIT_E_IO);
    /* The first compiler error, and where the whole log is. */
    char want[1200];
    snprintf(want, sizeof want, "build failed: %s:3:15: error:", at("broken/helper.c"));
    assert_message_has(want);
    snprintf(want, sizeof want, "(full log: %s)", at("bb/ortkit-build.log"));
    assert_message_has(want);
    /* The failed compile was seen by the gate, and nothing was reported. */
    assert_true(r.report.n >= 1);
    assert_int_equal(access(at("bb/ortkit-report.json"), F_OK), -1);
    ortkit__builder_result_free(&r);
}

/*
 * A variant of another architecture, cross-compiled for real: a source tree
 * shaped like ONNX Runtime's (VERSION_NUMBER, cmake/CMakeLists.txt) whose
 * configure runs the host protoc as ONNX's code generation does, built with
 * Debian's aarch64 (or x86-64) cross compilers under the gate.  The library
 * in the stage is an ELF for the variant's architecture.
 */
static void test_cross_build(void **state)
{
    (void)state;
    int here_x86 = ortkit_arch_here() == ORTKIT_ARCH_X86_64;
    const char *variant = here_x86 ? "cpu-armv8.2" : "cpu-x86-64";
    const char *gxx = here_x86 ? "aarch64-linux-gnu-g++" : "x86_64-linux-gnu-g++";
    char *found = NULL;
    if (ortkit__path_which(&found, gxx) != 0) {
        print_message("skipped: no %s (Debian: g++-%s)\n", gxx,
                      here_x86 ? "aarch64-linux-gnu" : "x86-64-linux-gnu");
        skip();
    }
    free(found);
    put("ortx/VERSION_NUMBER", "1.21.0\n");
    put("ortx/cmake/CMakeLists.txt",
        "cmake_minimum_required(VERSION 3.21)\n"
        "project(onnxruntime C CXX)\n"
        "if(NOT CMAKE_CROSSCOMPILING OR NOT ONNX_CUSTOM_PROTOC_EXECUTABLE)\n"
        "  message(FATAL_ERROR \"ONNX_CUSTOM_PROTOC_EXECUTABLE must be set to cross-compile.\")\n"
        "endif()\n"
        "execute_process(COMMAND ${ONNX_CUSTOM_PROTOC_EXECUTABLE} --version RESULT_VARIABLE ran\n"
        "                OUTPUT_VARIABLE said)\n"
        "if(NOT ran EQUAL 0)\n"
        "  message(FATAL_ERROR \"the host protoc does not run\")\n"
        "endif()\n"
        "file(WRITE ${CMAKE_BINARY_DIR}/protoc-said.txt \"${said}\")\n"
        "add_library(onnxruntime SHARED ort.cc)\n"
        "install(TARGETS onnxruntime)\n");
    put("ortx/cmake/ort.cc", "extern \"C\" int OrtGetApiBase() { return 1; }\n");
    put("bin-protoc/protoc", "#!/bin/sh\necho 'libprotoc 3.21.12'\n");
    assert_int_equal(chmod(at("bin-protoc/protoc"), 0755), 0);

    ortkit__builder_options o = options(ORTKIT__BUILDER_BUILD, "ortx", "bx");
    o.cmake_project = NULL;
    o.source = at("ortx");
    o.variant = variant;
    o.no_bundle = 1;
    o.host_protoc = at("bin-protoc/protoc");
    ortkit__builder_result r;
    int rc = ortkit__builder_build(&r, &o);
    if (rc)
        fail_msg("cross build: %s", ortkit__error_message());
    assert_true(r.cross.active);
    assert_string_equal(r.cross.protoc_version, "3.21.12");
    /* The cross compilers, checked by pre-flight and used for the compile. */
    assert_non_null(strstr(r.toolchain.cxx, here_x86 ? "aarch64-linux-gnu-g++" : "x86_64-linux-gnu-g++"));
    assert_int_equal(access(at("bx/.ortkit/toolchain-aarch64.cmake"), F_OK), here_x86 ? 0 : -1);
    char *said = NULL;
    assert_int_equal(ortkit__file_read(&said, NULL, at("bx/protoc-said.txt"), 1 << 10), 0);
    assert_string_equal(said, "libprotoc 3.21.12\n");
    free(said);
    /* The report says it was a cross build. */
    cJSON *json = cJSON_Parse(r.report_json);
    cJSON *cross = cJSON_GetObjectItem(json, "cross");
    assert_non_null(cross);
    assert_string_equal(cJSON_GetObjectItem(cross, "target")->valuestring, here_x86 ? "aarch64" : "x86_64");
    assert_string_equal(cJSON_GetObjectItem(cross, "protoc_from")->valuestring, ORTKIT__PROTOC_GIVEN);
    cJSON_Delete(json);
    /* The library is an ELF for the target: e_machine 183 (AArch64) or 62 (x86-64). */
    char lib[1200];
    snprintf(lib, sizeof lib, "%s/lib/libonnxruntime.so", r.plan.stage_dir);
    unsigned char head[20] = {0};
    FILE *f = fopen(lib, "rb");
    assert_non_null(f);
    assert_int_equal(fread(head, 1, sizeof head, f), sizeof head);
    fclose(f);
    assert_memory_equal(head, "\x7f" "ELF", 4);
    assert_int_equal(head[18] | head[19] << 8, here_x86 ? 183 : 62);
    ortkit__builder_result_free(&r);

    /* The cross options on a variant of this machine are a mistake. */
    o.variant = here_x86 ? "cpu-x86-64" : "cpu-armv8.2";
    o.build_dir = at("bn");
    assert_int_equal(ortkit__builder_build(&r, &o), ORTKIT_E_INVALID_ARG);
    assert_message_has("are for a cross build");
    ortkit__builder_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_and_check),
        cmocka_unit_test(test_build_under_gate),
        cmocka_unit_test(test_broken_build),
        cmocka_unit_test(test_cross_build),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
