/*
 * test_builder_static.c - a static core from a real CMake build: a tiny
 * project shaped like ONNX Runtime's (static libraries, one depending on
 * the other, linked into a shared library named onnxruntime with -lm) is
 * configured with the file API query and built with real cmake and ninja;
 * the link is read from CMake's reply, the archives merged with real ar,
 * and a C program linked against the merged archive alone runs.
 */
#include "testutil.h"

#include "builder_static.h"
#include "elf_reader.h"

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

static int sh(const char *fmt, const char *a, const char *b)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, fmt, a, b);
    return system(cmd);
}

static int setup(void **state)
{
    (void)state;
    if (scratch_make("static"))
        return -1;
    /* libm by its versioned file too, as CMake gives imported targets:
     * the development link beside it makes both one -lm. */
    FILE *f = popen("gcc -print-file-name=libm.so.6", "r");
    char libm[512] = "";
    if (!f || !fgets(libm, sizeof libm, f) || pclose(f) != 0 || libm[0] != '/')
        return -1;
    libm[strcspn(libm, "\n")] = '\0';
    char lists[2048];
    snprintf(lists, sizeof lists,
        "cmake_minimum_required(VERSION 3.21)\n"
        "project(core C)\n"
        "add_library(core_a STATIC a.c)\n"
        "add_library(core_b STATIC b.c)\n"
        "target_link_libraries(core_b PRIVATE core_a m %s)\n"
        "set_target_properties(core_a core_b PROPERTIES POSITION_INDEPENDENT_CODE ON)\n"
        "add_library(onnxruntime SHARED exports.c)\n"
        "target_link_libraries(onnxruntime PRIVATE core_b)\n", libm);
    put("proj/CMakeLists.txt", lists);
    put("proj/a.c", "int core_a(void) { return 40; }\n");
    put("proj/b.c", "#include <math.h>\nint core_a(void);\n"
                    "int core_b(double x) { return core_a() + (int)sqrt(x); }\n");
    /* Like ONNX Runtime's generated symbols file: the shared library's own
     * source only references what it exports. */
    put("proj/exports.c", "int core_b(double);\nvoid *core_exports[] = {(void *)core_b};\n");
    put("app.c", "#include <stdio.h>\nint core_b(double);\n"
                 "int main(void) { printf(\"%d\\n\", core_b(4.0)); return 0; }\n");
    /* The query first, as the builder's configure step writes it. */
    if (ortkit__builder_file_api_query(at("build")) ||
        sh("cmake -S '%s' -B '%s' -G Ninja >/dev/null", at("proj"), at("build")) ||
        sh("cmake --build '%s' >/dev/null%s", at("build"), ""))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return scratch_remove();
}

static void link_is_read_from_the_target_graph(void **state)
{
    (void)state;
    assert_true(ortkit__builder_file_api_ready(at("build")));
    ortkit__builder_link l;
    if (ortkit__builder_link_read(&l, at("build"), "onnxruntime"))
        fail_msg("%s", ortkit__error_message());
    /* core_b before core_a (it uses it), each once, absolute. */
    assert_int_equal(l.archives.n, 2);
    assert_string_equal(l.archives.v[0], at("build/libcore_b.a"));
    assert_string_equal(l.archives.v[1], at("build/libcore_a.a"));
    char *words = ortkit__builder_link_words(&l);
    assert_non_null(words);
    /* A C target: no C++ runtime is added. */
    assert_string_equal(words, "-lm");
    free(words);
    ortkit__builder_link_free(&l);
}

static void merged_archive_links_a_program(void **state)
{
    (void)state;
    ortkit__builder_link l;
    assert_int_equal(ortkit__builder_link_read(&l, at("build"), "onnxruntime"), 0);
    if (ortkit__builder_archive_merge(at("libonnxruntime.a"), &l.archives))
        fail_msg("%s", ortkit__error_message());
    ortkit__builder_link_free(&l);
    /* Both archives' members, with a symbol index. */
    assert_int_equal(sh("ar t '%s' | sort | tr '\\n' ' ' | grep -qx 'a.c.o b.c.o '%s",
                        at("libonnxruntime.a"), ""), 0);
    assert_int_equal(sh("nm -s '%s' | grep -q '^core_a in a.c.o'%s", at("libonnxruntime.a"), ""), 0);
    unsigned machine = 0;
    size_t objects = 0;
    assert_int_equal(ortkit__elf_archive_machine(at("libonnxruntime.a"), &machine, &objects), 0);
    assert_int_equal(objects, 2);
    /* A program linked with the merged archive and the words after it
     * alone runs, and loads no onnxruntime library. */
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cc -o '%s' '%s' '%s' -lm && '%s' | grep -qx 42", at("app"),
             at("app.c"), at("libonnxruntime.a"), at("app"));
    assert_int_equal(system(cmd), 0);
    assert_int_not_equal(sh("ldd '%s' | grep -q onnxruntime%s", at("app"), ""), 0);
}

static void failures_say_what_and_keep_the_old_archive(void **state)
{
    (void)state;
    ortkit__builder_link l;
    assert_int_not_equal(ortkit__builder_link_read(&l, at("build"), "nope"), 0);
    assert_non_null(strstr(ortkit__error_message(), "no CMake target 'nope'"));
    /* A static library is not a link to read. */
    assert_int_not_equal(ortkit__builder_link_read(&l, at("build"), "core_b"), 0);
    assert_non_null(strstr(ortkit__error_message(), "not a shared library"));
    /* A build directory configured without the query. */
    assert_int_not_equal(ortkit__builder_link_read(&l, at("proj"), "onnxruntime"), 0);
    assert_non_null(strstr(ortkit__error_message(), "configure the build again"));

    /* ar fails on a file that is no archive: the archive already there stays. */
    put("good.a", "the archive a previous merge made\n");
    put("not-an-archive.a", "plain text\n");
    ortkit__strv bad = {0};
    assert_int_equal(ortkit__strv_push(&bad, at("not-an-archive.a")), 0);
    assert_int_not_equal(ortkit__builder_archive_merge(at("good.a"), &bad), 0);
    assert_non_null(strstr(ortkit__error_message(), "ar could not merge 1 static libraries"));
    ortkit__strv_free(&bad);
    char *text = NULL;
    assert_int_equal(ortkit__file_read(&text, NULL, at("good.a"), 1024), 0);
    assert_string_equal(text, "the archive a previous merge made\n");
    free(text);
    assert_int_equal(sh("ls '%s' | grep -q tmp%s", scratch, ""), 256);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(link_is_read_from_the_target_graph),
        cmocka_unit_test(merged_archive_links_a_program),
        cmocka_unit_test(failures_say_what_and_keep_the_old_archive),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
