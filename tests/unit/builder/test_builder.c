/*
 * test_builder.c - the builder's steps on their own: the source tree and
 * pre-flight (fake trees, missing tools), the build directory's lock,
 * patches, and the report as text and JSON.
 */
#include "testutil.h"

#include "builder_compiler_cache.h"
#include "builder_plan.h"
#include "builder_preflight.h"
#include "builder_patch.h"
#include "builder_gate.h"
#include "builder_report.h"

#include <cjson/cJSON.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"

static int setup(void **state)
{
    (void)state;
    return scratch_make("builder");
}

static int teardown(void **state)
{
    (void)state;
    return scratch_remove();
}

/* Write text to name in the scratch directory, making its directories. */
static void put(const char *name, const char *text)
{
    char parent[700];
    snprintf(parent, sizeof parent, "%s", at(name));
    *strrchr(parent, '/') = '\0';
    if (ortkit__mkdirs(parent) || ortkit__file_write_atomic(at(name), text, strlen(text)))
        fail_msg("cannot write %s: %s", name, ortkit__error_message());
}

static char *slurp(const char *path)
{
    char *text = NULL;
    if (ortkit__file_read(&text, NULL, path, 1 << 20))
        fail_msg("%s", ortkit__error_message());
    return text;
}

#define assert_message_has(text)                                                            \
    do {                                                                                    \
        if (!strstr(ortkit__error_message(), (text)))                                       \
            fail_msg("error '%s' lacks '%s'", ortkit__error_message(), (text));             \
    } while (0)

/* ---- the source tree ---------------------------------------------------------- */

static void test_ort_source_tree(void **state)
{
    (void)state;
    char version[32];
    assert_int_equal(ortkit__builder_ort_version(version, sizeof version, at("none")), ORTKIT_E_IO);
    assert_message_has("is not a directory");
    assert_int_equal(ortkit__mkdirs(at("ort")), 0);
    assert_int_equal(ortkit__builder_ort_version(version, sizeof version, at("ort")),
                     ORTKIT_E_INVALID_ARG);
    assert_message_has("it has no VERSION_NUMBER");
    put("ort/VERSION_NUMBER", "1.21\n");
    assert_int_equal(ortkit__builder_ort_version(version, sizeof version, at("ort")),
                     ORTKIT_E_INVALID_ARG);
    assert_message_has("VERSION_NUMBER holds no version");
    put("ort/VERSION_NUMBER", "1.21.0\n");
    assert_int_equal(ortkit__builder_ort_version(version, sizeof version, at("ort")),
                     ORTKIT_E_INVALID_ARG);
    assert_message_has("no cmake/CMakeLists.txt");
    put("ort/cmake/CMakeLists.txt", "project(other C)\n");
    assert_int_equal(ortkit__builder_ort_version(version, sizeof version, at("ort")),
                     ORTKIT_E_INVALID_ARG);
    assert_message_has("is not ONNX Runtime's");
    put("ort/cmake/CMakeLists.txt",
        "cmake_minimum_required(VERSION 3.26)\nproject(onnxruntime C CXX)\n");
    assert_int_equal(ortkit__builder_ort_version(version, sizeof version, at("ort")), 0);
    assert_string_equal(version, "1.21.0");
}

/* ---- pre-flight ------------------------------------------------------------------ */

static int preflight(const char *source, const ortkit_variant *v, uint64_t min_disk, int ccache,
                     ortkit__builder_toolchain *tc)
{
    ortkit__builder_preflight pf = {v ? ORTKIT__BUILD_ORT : ORTKIT__BUILD_CMAKE, source,
                                    at("pf-build"), v, NULL, min_disk, ccache, NULL, 0, NULL, NULL};
    char cuda[256], cudnn[256];
    return ortkit__builder_preflight_run(&pf, tc, cuda, sizeof cuda, cudnn, sizeof cudnn, NULL);
}

/* A directory of links to the given programs, and nothing else. */
static const char *bin_with(const char *name, const char *const *programs)
{
    const char *bin = at(name);
    assert_int_equal(ortkit__mkdirs(bin), 0);
    for (size_t i = 0; programs[i]; i++) {
        char *real = NULL, link[1024];
        assert_int_equal(ortkit__path_which(&real, programs[i]), 0);
        snprintf(link, sizeof link, "%s/%s", bin, programs[i]);
        assert_int_equal(symlink(real, link), 0);
        free(real);
    }
    return bin;
}

static void test_preflight(void **state)
{
    (void)state;
    ortkit__builder_toolchain tc;
    assert_int_equal(ortkit__mkdirs(at("proj")), 0);
    assert_int_equal(preflight(at("proj"), NULL, 1, 0, &tc), ORTKIT_E_INVALID_ARG);
    assert_message_has("has no CMakeLists.txt");
    put("proj/CMakeLists.txt", "cmake_minimum_required(VERSION 3.21)\nproject(p C)\n");

    /* Disk: more than any disk has. */
    assert_int_equal(preflight(at("proj"), NULL, (uint64_t)1 << 62, 0, &tc), ORTKIT_E_IO);
    assert_message_has("not enough free disk for ");
    assert_message_has("needs 4294967296.00 GiB");

    /* Tools: none on PATH, then all but ccache. */
    char *path = strdup(getenv("PATH"));
    static const char *const no_ccache[] = {"cmake", "ninja", "cc", "c++", NULL};
    const char *bin = bin_with("bin", no_ccache);
    setenv("PATH", at("nothing"), 1);
    int rc = preflight(at("proj"), NULL, 1, 0, &tc);
    char no_cmake[256];
    snprintf(no_cmake, sizeof no_cmake, "%s", ortkit__error_message());
    setenv("PATH", bin, 1);
    int rc_ccache = preflight(at("proj"), NULL, 1, 1, &tc);
    setenv("PATH", path, 1);
    free(path);
    assert_int_equal(rc, ORTKIT_E_UNSUPPORTED);
    assert_string_equal(no_cmake, "cmake not found on PATH");
    assert_int_equal(rc_ccache, ORTKIT_E_UNSUPPORTED);
    assert_message_has("--cache ccache: ccache not found on PATH");

    /* A compiler that is not there, and one that refuses everything. */
    setenv("CC", at("nothing/cc"), 1);
    rc = preflight(at("proj"), NULL, 1, 0, &tc);
    assert_int_equal(rc, ORTKIT_E_UNSUPPORTED);
    assert_message_has("the C compiler '");
    assert_message_has("nothing/cc' is not found");
    put("badcc", "#!/bin/sh\necho 'cc: error: nothing compiles here'\nexit 1\n");
    assert_int_equal(chmod(at("badcc"), 0755), 0);
    setenv("CC", at("badcc"), 1);
    rc = preflight(at("proj"), NULL, 1, 0, &tc);
    unsetenv("CC");
    assert_int_equal(rc, ORTKIT_E_UNSUPPORTED);
    assert_message_has("rejects the flags '': cc: error: nothing compiles here");

    /* A project that needs a newer CMake than there is. */
    put("proj/CMakeLists.txt", "cmake_minimum_required(VERSION 99.1)\nproject(p C)\n");
    assert_int_equal(preflight(at("proj"), NULL, 1, 0, &tc), ORTKIT_E_UNSUPPORTED);
    assert_message_has("is too old: this project needs 99.1 or newer");

    /* All there. */
    put("proj/CMakeLists.txt", "cmake_minimum_required(VERSION 3.21)\nproject(p C)\n");
    assert_int_equal(preflight(at("proj"), NULL, 1, 0, &tc), 0);
    assert_true(tc.cmake[0] && tc.ninja[0] && tc.cc[0] && tc.cxx[0]);
    assert_non_null(strstr(tc.cmake_path, "cmake"));
    assert_string_equal(tc.nvcc, "");
    /* The test compile leaves nothing behind in the scratch directory. */
    assert_int_equal(access(at("pf-build/.ortkit/preflight.c"), F_OK), -1);
    assert_int_equal(access(at("pf-build/.ortkit/preflight.o"), F_OK), -1);
}

/* An ONNX Runtime tree and a variant whose CPU flags this compiler refuses. */
static void test_preflight_variant_flags(void **state)
{
    (void)state;
#if !defined(__x86_64__)
    skip(); /* an arm64 compiler may take these flags */
#endif
    put("ort2/VERSION_NUMBER", "1.21.0\n");
    put("ort2/cmake/CMakeLists.txt", "cmake_minimum_required(VERSION 3.21)\nproject(onnxruntime C CXX)\n");
    const ortkit_variant *v;
    assert_int_equal(ortkit_variant_parse(&v, "cpu-armv9"), 0);
    ortkit__builder_toolchain tc;
    assert_int_equal(preflight(at("ort2"), v, 1, 0, &tc), ORTKIT_E_UNSUPPORTED);
    assert_message_has("rejects the flags '-march=armv9-a+sve2'");
}

/* --ops-from needs ORT's reduction script to run: without python3 (or its
 * flatbuffers module) pre-flight says so before anything is configured. */
static void test_preflight_reduce_ops(void **state)
{
    (void)state;
    put("ort3/VERSION_NUMBER", "1.21.0\n");
    put("ort3/cmake/CMakeLists.txt", "cmake_minimum_required(VERSION 3.21)\nproject(onnxruntime C CXX)\n");
    const ortkit_variant *v;
    assert_int_equal(ortkit_variant_parse(&v, "cpu-x86-64"), 0);
    static const char *const no_python[] = {"cmake", "ninja", "cc", "c++", NULL};
    char *path = strdup(getenv("PATH"));
    setenv("PATH", bin_with("bin-nopy", no_python), 1);
    ortkit__builder_preflight pf = {ORTKIT__BUILD_ORT, at("ort3"), at("pf-build"), v, NULL, 1, 0,
                                    NULL, 1, NULL, NULL};
    ortkit__builder_toolchain tc;
    char cuda[256], cudnn[256];
    int rc = ortkit__builder_preflight_run(&pf, &tc, cuda, sizeof cuda, cudnn, sizeof cudnn, NULL);
    setenv("PATH", path, 1);
    free(path);
    assert_int_equal(rc, ORTKIT_E_UNSUPPORTED);
    assert_message_has("needs python3 with the flatbuffers module (Debian: python3-flatbuffers)");
}

/* ---- the lock ------------------------------------------------------------------- */

static void test_lock(void **state)
{
    (void)state;
    ortkit__builder_lock a = {-1}, b = {-1};
    assert_int_equal(ortkit__builder_lock_take(&a, at("locked/.ortkit")), 0);
    assert_int_equal(ortkit__builder_lock_take(&b, at("locked/.ortkit")), ORTKIT_E_IO);
    char want[256];
    snprintf(want, sizeof want, "build directory %s is in use by another ortkit build (pid %ld)",
             at("locked"), (long)getpid());
    assert_string_equal(ortkit__error_message(), want);
    assert_int_equal(b.fd, -1);
    ortkit__builder_lock_release(&a);
    assert_int_equal(ortkit__builder_lock_take(&b, at("locked/.ortkit")), 0);
    ortkit__builder_lock_release(&b);
    ortkit__builder_lock_release(&b); /* twice is harmless */
}

/* ---- patches --------------------------------------------------------------------- */

static const char two_patch[] = "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n";
static const char bad_patch[] = "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n uno\n-dos\n+DOS\n tres\n";

/* The set in patches applied to src by the build directory whose state is state_dir. */
static int apply_from(const char *state_dir, const char *patches, size_t *applied, size_t *skipped,
                      char **log_text)
{
    size_t size;
    FILE *log = open_memstream(log_text, &size);
    int rc = ortkit__builder_patch_apply(patches, at("src"), state_dir, log, applied, skipped);
    fclose(log);
    return rc;
}

static int apply(const char *patches, size_t *applied, size_t *skipped, char **log_text)
{
    return apply_from(at("state"), patches, applied, skipped, log_text);
}

static void test_patches(void **state)
{
    (void)state;
    size_t applied, skipped;
    char *log = NULL, *text;
    put("src/a.txt", "one\ntwo\nthree\n");
    put("patches/0001-two.patch", two_patch);
    put("patches/README", "not a patch\n");

    assert_int_equal(apply(at("patches"), &applied, &skipped, &log), 0);
    assert_true(applied == 1 && skipped == 0);
    assert_non_null(strstr(log, "ortkit: applied 0001-two.patch to "));
    free(log);
    assert_string_equal(text = slurp(at("src/a.txt")), "one\nTWO\nthree\n");
    free(text);
    assert_string_equal(text = slurp(at("state/patches-applied")), "0001-two.patch\n");
    free(text);

    /* Recorded and in the tree: nothing to say. */
    assert_int_equal(apply(at("patches"), &applied, &skipped, &log), 0);
    assert_true(applied == 0 && skipped == 1);
    assert_string_equal(log, "");
    free(log);

    /* Not recorded, but already in the tree: recorded and skipped. */
    assert_int_equal(unlink(at("state/patches-applied")), 0);
    assert_int_equal(apply(at("patches"), &applied, &skipped, &log), 0);
    assert_true(applied == 0 && skipped == 1);
    assert_non_null(strstr(log, "ortkit: patch 0001-two.patch is already in "));
    free(log);
    assert_string_equal(text = slurp(at("state/patches-applied")), "0001-two.patch\n");
    free(text);

    /* The tree unpacked afresh under the same build directory: the record
     * says applied, the tree does not have it: applied again. */
    put("src/a.txt", "one\ntwo\nthree\n");
    assert_int_equal(apply(at("patches"), &applied, &skipped, &log), 0);
    assert_true(applied == 1 && skipped == 0);
    assert_non_null(strstr(log, "ortkit: applied 0001-two.patch to "));
    assert_non_null(strstr(log, "(again: this build directory had applied it"));
    free(log);
    assert_string_equal(text = slurp(at("src/a.txt")), "one\nTWO\nthree\n");
    free(text);
    assert_string_equal(text = slurp(at("state/patches-applied")), "0001-two.patch\n");
    free(text);

    /* One that neither applies nor is there: a failure, the tree untouched. */
    put("patches/0002-bad.patch", bad_patch);
    assert_int_equal(apply(at("patches"), &applied, &skipped, &log), ORTKIT_E_IO);
    free(log);
    assert_message_has("patch 0002-bad.patch does not apply to ");
    assert_string_equal(text = slurp(at("src/a.txt")), "one\nTWO\nthree\n");
    free(text);
    assert_string_equal(text = slurp(at("state/patches-applied")), "0001-two.patch\n");
    free(text);

    assert_int_equal(apply(at("no-patches"), &applied, &skipped, &log), ORTKIT_E_IO);
    free(log);
    assert_message_has("cannot open patch directory");
}

/* Two patches as ONNX Runtime's 0003 and 0008 are: the first adds a block
 * after a blank line, the second a block after the first's.  With patch's
 * default fuzz both apply again to the patched tree, one block more each
 * time. */
#define CMAKE_A "file(GLOB cpu\n  \"cpu/*.cc\"\n)\n\n"
#define CMAKE_Z "file(GLOB cuda\n  \"cuda/*.h\"\n)\n"
#define CMAKE_X86 "if (X86)\n  set(inv -mno-avx)\nendif()\n"
#define CMAKE_ARM "if (ARM)\n  set(inv -march=armv8-a)\nendif()\n"
static const char x86_patch[] = "--- a/l.cmake\n+++ b/l.cmake\n@@ -2,6 +2,10 @@\n   \"cpu/*.cc\"\n"
                                " )\n \n+if (X86)\n+  set(inv -mno-avx)\n+endif()\n+\n"
                                " file(GLOB cuda\n   \"cuda/*.h\"\n )\n";
static const char arm_patch[] = "--- a/l.cmake\n+++ b/l.cmake\n@@ -5,6 +5,9 @@\n if (X86)\n"
                                "   set(inv -mno-avx)\n endif()\n+if (ARM)\n"
                                "+  set(inv -march=armv8-a)\n+endif()\n \n file(GLOB cuda\n"
                                "   \"cuda/*.h\"\n )\n";

/* One source tree, two build directories: the second finds the set in the
 * tree and applies nothing (it once applied both again). */
static void test_patches_shared_tree(void **state)
{
    (void)state;
    size_t applied, skipped;
    char *log = NULL, *text;
    static const char patched[] = CMAKE_A CMAKE_X86 CMAKE_ARM "\n" CMAKE_Z;
    put("src/l.cmake", CMAKE_A CMAKE_Z);
    put("set/0003-x86.patch", x86_patch);
    put("set/0008-arm.patch", arm_patch);

    assert_int_equal(apply_from(at("build1"), at("set"), &applied, &skipped, &log), 0);
    assert_true(applied == 2 && skipped == 0);
    free(log);
    assert_string_equal(text = slurp(at("src/l.cmake")), patched);
    free(text);

    assert_int_equal(apply_from(at("build2"), at("set"), &applied, &skipped, &log), 0);
    assert_true(applied == 0 && skipped == 2);
    assert_non_null(strstr(log, "ortkit: patch 0003-x86.patch is already in "));
    assert_non_null(strstr(log, "ortkit: patch 0008-arm.patch is already in "));
    free(log);
    assert_string_equal(text = slurp(at("src/l.cmake")), patched);
    free(text);

    /* A patch added to the set later: the two in the tree (whose contexts
     * overlap, so neither reverse-applies alone) are found in as a part,
     * the new one applied. */
    put("src/m.cmake", "m1\nm2\nm3\n");
    put("grown/0003-x86.patch", x86_patch);
    put("grown/0008-arm.patch", arm_patch);
    put("grown/0009-more.patch", "--- a/m.cmake\n+++ b/m.cmake\n@@ -1,3 +1,4 @@\n m1\n m2\n+m2b\n m3\n");
    assert_int_equal(apply_from(at("build5"), at("grown"), &applied, &skipped, &log), 0);
    assert_true(applied == 1 && skipped == 2);
    assert_non_null(strstr(log, "ortkit: applied 0009-more.patch to "));
    free(log);
    assert_string_equal(text = slurp(at("src/l.cmake")), patched);
    free(text);
    assert_string_equal(text = slurp(at("src/m.cmake")), "m1\nm2\nm2b\nm3\n");
    free(text);
    assert_string_equal(text = slurp(at("build2/patches-applied")),
                        "0003-x86.patch\n0008-arm.patch\n");
    free(text);

    /* Only the first in the tree (the second's not): the second is applied. */
    put("src/l.cmake", CMAKE_A CMAKE_X86 "\n" CMAKE_Z);
    assert_int_equal(apply_from(at("build3"), at("set"), &applied, &skipped, &log), 0);
    assert_true(applied == 1 && skipped == 1);
    assert_non_null(strstr(log, "ortkit: patch 0003-x86.patch is already in "));
    assert_non_null(strstr(log, "ortkit: applied 0008-arm.patch to "));
    free(log);
    assert_string_equal(text = slurp(at("src/l.cmake")), patched);
    free(text);

    /* The first is in the tree and would apply again further on, where its
     * context repeats: refused, the tree untouched. */
    static const char twice[] = CMAKE_A CMAKE_X86 "\n" CMAKE_Z CMAKE_A CMAKE_Z;
    put("src/l.cmake", twice);
    assert_int_equal(apply_from(at("build4"), at("set"), &applied, &skipped, &log), ORTKIT_E_IO);
    free(log);
    assert_message_has("patch 0003-x86.patch would apply to ");
    assert_message_has("but it is already in it");
    assert_string_equal(text = slurp(at("src/l.cmake")), twice);
    free(text);
}

/* Every entry under src, with its type, mode and contents (or target), in
 * one text: a tree "exactly as it was" has the same. */
static char *tree_listing(void)
{
    char cmd[2048], *text = NULL;
    snprintf(cmd, sizeof cmd, "cd '%s' && find . -printf '%%p %%y %%m %%l\\n' | sort && "
             "find . -type f | sort | xargs -r md5sum > '%s'", at("src"), at("sums"));
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    char line[1024];
    while (fgets(line, sizeof line, f))
        fputs(line, out);
    assert_int_equal(pclose(f), 0);
    char *sums = slurp(at("sums"));
    fputs(sums, out);
    free(sums);
    fclose(out);
    return text;
}

/* A patch that dry-runs but fails half-way (a git-style link made, then a
 * second part on the same file fails) is undone: the tree is as it was. A
 * patch naming a path outside the tree (GNU patch skips it, and its -R
 * --dry-run then exits 0) is refused, never "already in". */
static void test_patch_failures_leave_the_tree(void **state)
{
    (void)state;
    size_t applied, skipped;
    char *log = NULL;
    put("src/a.txt", "one\ntwo\nthree\n");
    put("src/sub/keep.txt", "kept\n");
    char *before = tree_listing();
    put("half/0001-half.patch",
        "diff --git a/sub/new/link b/sub/new/link\nnew file mode 120000\n--- /dev/null\n"
        "+++ b/sub/new/link\n@@ -0,0 +1 @@\n+../../a.txt\n\\ No newline at end of file\n"
        "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n-one\n+ONE\n"
        " two\n three\n"
        "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n-one\n+uno\n"
        " two\n three\n");
    assert_int_equal(apply(at("half"), &applied, &skipped, &log), ORTKIT_E_IO);
    free(log);
    assert_message_has("patch 0001-half.patch failed on ");
    assert_message_has("the tree was put back as it was");
    char *after = tree_listing();
    assert_string_equal(after, before);
    free(after);
    char *record = slurp(at("state/patches-applied"));
    assert_null(strstr(record, "half"));
    free(record);

    /* A removed line "-- x" reads "--- x" inside a hunk: not a file name. */
    put("src/dashes.txt", "a\n-- x\nb\n");
    put("dashes/0001-dashes.patch", "--- a/dashes.txt\n+++ b/dashes.txt\n@@ -1,3 +1,3 @@\n a\n"
        "--- x\n+++ y\n b\n");
    assert_int_equal(apply(at("dashes"), &applied, &skipped, &log), 0);
    free(log);
    char *dashes = slurp(at("src/dashes.txt"));
    assert_string_equal(dashes, "a\n++ y\nb\n");
    free(dashes);
    assert_int_equal(unlink(at("src/dashes.txt")), 0);

    put("outside/0001-out.patch", "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n-one\n+ONE\n"
        " two\n three\n--- a/../evil.txt\n+++ b/../evil.txt\n@@ -0,0 +1 @@\n+pwned\n");
    assert_int_equal(apply(at("outside"), &applied, &skipped, &log), ORTKIT_E_FORMAT);
    free(log);
    assert_message_has("names '../evil.txt', outside the source tree: refused");
    assert_int_equal(access(at("evil.txt"), F_OK), -1);
    after = tree_listing();
    assert_string_equal(after, before);
    free(after);
    free(before);
}

/* ---- the report ------------------------------------------------------------------ */

static void known_report(ortkit__builder_report *rep)
{
    memset(rep, 0, sizeof *rep);
    assert_int_equal(ortkit__builder_report_add(rep, "/src/ort/core/a/small.cc", ORTKIT__LANG_CXX,
                                                1.5, 1.25, 0, 300 * ORTKIT__MiB, 400 * ORTKIT__MiB, 0,
                                                ORTKIT__HOLD_NONE),
                     0);
    assert_int_equal(ortkit__builder_report_add(rep, "/src/ort/core/b/big.cc", ORTKIT__LANG_CXX, 4,
                                                3.5, 2, 900 * ORTKIT__MiB, 1536 * ORTKIT__MiB, 0,
                                                ORTKIT__HOLD_BUDGET),
                     0);
    assert_int_equal(ortkit__builder_report_add(rep, "libonnxruntime.so", ORTKIT__LANG_LINK, 6, 1.25,
                                                0.5, 600 * ORTKIT__MiB, 1536 * ORTKIT__MiB, 0,
                                                ORTKIT__HOLD_SLOTS),
                     0);
    rep->wall = 10;
    rep->budget = 2 * ORTKIT__GiB;
    rep->slots = 2;
    rep->steps_total = 9;
    rep->steps_done = 3;
    rep->gate.admitted = 3;
    rep->gate.max_running = 2;
    rep->gate.held_budget = 1;
    rep->gate.held_slots = 1;
    rep->gate.max_in_use = 3 * ORTKIT__GiB / 2;
    rep->gate.max_sampled = ORTKIT__GiB + 200 * ORTKIT__MiB;
}

static void test_report_text(void **state)
{
    (void)state;
    ortkit__builder_report rep;
    known_report(&rep);
    assert_true(rep.cpu == 6);
    char *text = NULL;
    size_t size;
    FILE *out = open_memstream(&text, &size);
    ortkit__builder_report_print(&rep, out);
    fclose(out);
    int cores = ortkit__proc_cpus();
    char want[2048];
    snprintf(want, sizeof want,
             "steps: 3 run (9 to do when this run started)\n"
             "wall time: 10.0 s; compile CPU time: 6.0 s; CPU utilisation: %.0f%% of %d cores\n"
             "memory: budget 2.00 GiB, 2 CPU slots; gate's peak in use 1.50 GiB; sampled "
             "compilers' peak 1.20 GiB; largest compile 900 MiB\n"
             "gate: 3 compiles, at most 2 at once; held back 1 times for memory, 0 for low system "
             "memory, 1 waited for a CPU slot\n"
             "heaviest by memory:\n"
             "     900 MiB      4.0 s  core/b/big.cc\n"
             "     600 MiB      6.0 s  libonnxruntime.so\n"
             "     300 MiB      1.5 s  core/a/small.cc\n"
             "heaviest by time:\n"
             "      6.0 s     600 MiB  libonnxruntime.so\n"
             "      4.0 s     900 MiB  core/b/big.cc\n"
             "      1.5 s     300 MiB  core/a/small.cc\n",
             60.0 / cores, cores);
    assert_string_equal(text, want);
    free(text);
    ortkit__builder_report_free(&rep);
    assert_int_equal(rep.n, 0);
}

static void test_report_json(void **state)
{
    (void)state;
    ortkit__builder_report rep;
    known_report(&rep);
    char *json = ortkit__builder_report_json(&rep, "{\"variant\": \"cpu-avx2\"}");
    assert_non_null(json);
    cJSON *root = cJSON_Parse(json);
    free(json);
    assert_non_null(root);
    assert_string_equal(cJSON_GetObjectItem(root, "variant")->valuestring, "cpu-avx2");
    assert_true(cJSON_GetObjectItem(root, "wall_s")->valuedouble == 10);
    assert_true(cJSON_GetObjectItem(root, "cpu_s")->valuedouble == 6);
    assert_true(cJSON_GetObjectItem(root, "steps_run")->valuedouble == 3);
    assert_true(cJSON_GetObjectItem(root, "steps_to_do")->valuedouble == 9);
    assert_true(cJSON_GetObjectItem(root, "budget_bytes")->valuedouble == 2.0 * ORTKIT__GiB);
    assert_true(cJSON_GetObjectItem(root, "largest_compile_bytes")->valuedouble == 900.0 * ORTKIT__MiB);
    assert_true(cJSON_GetObjectItem(root, "cores")->valuedouble == ortkit__proc_cpus());
    const cJSON *gate = cJSON_GetObjectItem(root, "gate");
    assert_true(cJSON_GetObjectItem(gate, "compiles")->valuedouble == 3);
    assert_true(cJSON_GetObjectItem(gate, "held_for_memory")->valuedouble == 1);
    assert_true(cJSON_GetObjectItem(gate, "waited_for_slot")->valuedouble == 1);
    const cJSON *mem = cJSON_GetObjectItem(root, "heaviest_by_memory");
    const cJSON *tim = cJSON_GetObjectItem(root, "heaviest_by_time");
    const cJSON *all = cJSON_GetObjectItem(root, "compiles");
    assert_int_equal(cJSON_GetArraySize(mem), 3);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(mem, 0), "path")->valuestring,
                        "/src/ort/core/b/big.cc");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(tim, 0), "path")->valuestring,
                        "libonnxruntime.so");
    /* Every compile, in the order they finished. */
    assert_int_equal(cJSON_GetArraySize(all), 3);
    const cJSON *first = cJSON_GetArrayItem(all, 0), *link = cJSON_GetArrayItem(all, 2);
    assert_string_equal(cJSON_GetObjectItem(first, "path")->valuestring, "/src/ort/core/a/small.cc");
    assert_string_equal(cJSON_GetObjectItem(first, "lang")->valuestring, "c++");
    assert_true(cJSON_GetObjectItem(first, "estimate_bytes")->valuedouble == 400.0 * ORTKIT__MiB);
    assert_string_equal(cJSON_GetObjectItem(link, "lang")->valuestring, "link");
    assert_true(cJSON_GetObjectItem(link, "waited_s")->valuedouble == 0.5);
    cJSON_Delete(root);

    /* Extra facts that are not JSON: no report rather than a wrong one. */
    assert_null(ortkit__builder_report_json(&rep, "{not json"));
    ortkit__builder_report_free(&rep);
}

/* Issue 36: the cache's password from the environment or a file of the
 * user's alone, never the command line; the URL as shown hides it. */
static void test_cache_password(void **state)
{
    (void)state;
    ortkit__builder_cache_remote r;
    unsetenv("ORTKIT_CACHE_PASSWORD");
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, "redis://127.0.0.1:6379/3"), 0);
    assert_int_equal(ortkit__builder_cache_remote_secret(&r, NULL), 0); /* nothing to add */
    assert_string_equal(r.url, "redis://127.0.0.1:6379/3");
    setenv("ORTKIT_CACHE_PASSWORD", "S3cret-pw", 1);
    assert_int_equal(ortkit__builder_cache_remote_secret(&r, NULL), 0);
    assert_string_equal(r.url, "redis://S3cret-pw@127.0.0.1:6379/3");
    assert_string_equal(r.shown, "redis://***@127.0.0.1:6379/3");
    assert_true(r.has_password);
    /* A user and a password for Redis's ACLs; a user named in an http URL. */
    setenv("ORTKIT_CACHE_PASSWORD", "ci:S3cret", 1);
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, "redis://cache.ci|read-only"), 0);
    assert_int_equal(ortkit__builder_cache_remote_secret(&r, NULL), 0);
    assert_string_equal(r.url, "redis://ci:S3cret@cache.ci|read-only");
    setenv("ORTKIT_CACHE_PASSWORD", "S3cret", 1);
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, "http://ci@cache.ci/ccache"), 0);
    assert_int_equal(ortkit__builder_cache_remote_secret(&r, NULL), 0);
    assert_string_equal(r.url, "http://ci:S3cret@cache.ci/ccache");
    assert_string_equal(r.shown, "http://ci:***@cache.ci/ccache");
    /* Refused: both ways, an http URL without a user, what a URL cannot carry. */
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, "redis://pw@cache.ci"), 0);
    assert_int_equal(ortkit__builder_cache_remote_secret(&r, NULL), ORTKIT_E_INVALID_ARG);
    assert_non_null(strstr(ortkit__error_message(), "give it one way"));
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, "http://cache.ci"), 0);
    assert_int_equal(ortkit__builder_cache_remote_secret(&r, NULL), ORTKIT_E_INVALID_ARG);
    assert_non_null(strstr(ortkit__error_message(), "http://USER@HOST"));
    setenv("ORTKIT_CACHE_PASSWORD", "a@b c", 1);
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, "redis://cache.ci"), 0);
    assert_int_equal(ortkit__builder_cache_remote_secret(&r, NULL), ORTKIT_E_INVALID_ARG);
    assert_null(strstr(ortkit__error_message(), "a@b c"));
    unsetenv("ORTKIT_CACHE_PASSWORD");
    /* The file: the user's, readable by no one else; its first line. */
    FILE *f = fopen(at("pw"), "w");
    assert_non_null(f);
    fputs("Fr0m-file\nignored\n", f);
    fclose(f);
    chmod(at("pw"), 0644);
    assert_int_equal(ortkit__builder_cache_remote_parse(&r, "redis://cache.ci"), 0);
    assert_int_equal(ortkit__builder_cache_remote_secret(&r, at("pw")), ORTKIT_E_INVALID_ARG);
    assert_non_null(strstr(ortkit__error_message(), "open to others"));
    chmod(at("pw"), 0600);
    assert_int_equal(chown(at("pw"), 65534, 0), 0);
    assert_int_equal(ortkit__builder_cache_remote_secret(&r, at("pw")), ORTKIT_E_INVALID_ARG);
    assert_non_null(strstr(ortkit__error_message(), "another user's"));
    assert_int_equal(chown(at("pw"), 0, 0), 0);
    assert_int_equal(symlink(at("pw"), at("pw-link")), 0);
    assert_int_equal(ortkit__builder_cache_remote_secret(&r, at("pw-link")), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit__builder_cache_remote_secret(&r, at("pw")), 0);
    assert_string_equal(r.url, "redis://Fr0m-file@cache.ci");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ort_source_tree),
        cmocka_unit_test(test_preflight),
        cmocka_unit_test(test_preflight_variant_flags),
        cmocka_unit_test(test_preflight_reduce_ops),
        cmocka_unit_test(test_lock),
        cmocka_unit_test(test_patches),
        cmocka_unit_test(test_patches_shared_tree),
        cmocka_unit_test(test_patch_failures_leave_the_tree),
        cmocka_unit_test(test_report_text),
        cmocka_unit_test(test_report_json),
        cmocka_unit_test(test_cache_password),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
