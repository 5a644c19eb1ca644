/*
 * test_bundle.c - bundles on disk: import, verify, list, and the loader's use
 * of them; tampered, truncated, foreign and hostile bundles; failed imports
 * that must leave nothing behind.  Everything happens in a scratch directory
 * (XDG_DATA_HOME, XDG_DATA_DIRS and ORTKIT_PATH point into it).
 */
#include "testutil.h"

#include "bundle_make.h"
#include "ortkit/tools/selftest.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char scratch[512];
static char ref[600]; /* a bundle of 1.17.3 imported once, copied by the tests */

static const char *at(const char *fmt, ...)
{
    static _Thread_local char buf[8][1300];
    static _Thread_local int next;
    char rel[700], *p = buf[next++ % 8];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rel, sizeof rel, fmt, ap);
    va_end(ap);
    snprintf(p, sizeof buf[0], "%s/%s", scratch, rel);
    return p;
}

static void sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (system(cmd) != 0)
        fail_msg("command failed: %s", cmd);
}

/* Entries of a directory, dot names included (but not . and ..). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

static int has_problem(const ortkit_bundle *b, const char *text)
{
    for (size_t i = 0; i < ortkit_bundle_problem_count(b); i++)
        if (strstr(ortkit_bundle_problem(b, i), text))
            return 1;
    return 0;
}

#define assert_problem(b, text)                                                             \
    do {                                                                                    \
        if (!has_problem((b), (text))) {                                                    \
            for (size_t i_ = 0; i_ < ortkit_bundle_problem_count(b); i_++)                  \
                print_message("  problem: %s\n", ortkit_bundle_problem((b), i_));          \
            fail_msg("no problem mentions '%s'", (text));                                   \
        }                                                                                   \
    } while (0)

static int import_old(ortkit_bundle **out, const char *into, const char *name, int force)
{
    ortkit_bundle_import_options o = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    o.into = into;
    o.name = name;
    o.force = force;
    return ortkit_bundle_import(out, ORTKIT_TEST_RUNTIME_OLD "/libonnxruntime.so.1.17.3", &o);
}

static int setup(void **state)
{
    (void)state;
    snprintf(scratch, sizeof scratch, "%s/ortkit-bundle.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(scratch))
        return -1;
    setenv("XDG_DATA_HOME", at("xdg"), 1);
    setenv("XDG_DATA_DIRS", at("sys"), 1);
    setenv("ORTKIT_PATH", at("path"), 1);
    unsetenv("ORTKIT_BUNDLE");
    unsetenv("ORTKIT_RUNTIME");
    ortkit_bundle *b = NULL;
    if (import_old(&b, at("ref"), "ref", 0) != 0) {
        print_error("import failed: %s\n", ortkit_error_last());
        return -1;
    }
    snprintf(ref, sizeof ref, "%s", ortkit_bundle_manifest(b)->dir);
    ortkit_bundle_free(b);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ortkit__rmtree(scratch);
    return 0;
}

static const ortkit_bundle_file *file_of(const ortkit_manifest *m, const char *path)
{
    for (size_t i = 0; i < m->file_count; i++)
        if (!strcmp(m->files[i].path, path))
            return &m->files[i];
    return NULL;
}

static void test_import_layout(void **state)
{
    (void)state;
    ortkit_bundle *b = NULL;
    assert_int_equal(ortkit_bundle_open(&b, ref), 0);
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    assert_int_equal(m->schema, 1);
    assert_string_equal(m->name, "ref");
    assert_string_equal(m->ort_version, "1.17.3");
    assert_int_equal(m->api_level, 17);
    assert_int_equal(m->headers_api_level, 21);
    assert_string_equal(m->variant, "cpu");
    assert_int_equal(m->arch, ORTKIT_ARCH_X86_64);
    assert_int_equal(m->cuda, 0);
    assert_string_equal(m->library, "lib/libonnxruntime.so.1.17.3");
    assert_string_equal(ortkit_bundle_damage(b), "");
    int cpu = 0;
    for (size_t i = 0; i < m->provider_count; i++)
        cpu |= !strcmp(m->providers[i], "CPUExecutionProvider");
    assert_true(cpu);
    /* What loading needs of a host, read from the ELF files (readelf -V, -d):
     * the runtime needs GLIBC_2.27, GLIBCXX_3.4.22, CXXABI_1.3.11; its
     * providers bridge needs less; libonnxruntime_providers_shared.so is carried. */
    assert_int_equal(m->needs_known, 1);
    assert_string_equal(m->needs_glibc, "2.27");
    assert_string_equal(m->needs_glibcxx, "3.4.22");
    assert_string_equal(m->needs_cxxabi, "1.3.11");
    static const char *const libs[] = {"ld-linux-x86-64.so.2", "libc.so.6", "libdl.so.2", "libgcc_s.so.1",
                                       "libm.so.6", "libpthread.so.0", "librt.so.1", "libstdc++.so.6",
                                       "libz.so.1"};
    assert_int_equal(m->needs_library_count, sizeof libs / sizeof libs[0]);
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++)
        assert_string_equal(m->needs_libraries[i], libs[i]);
    assert_null(m->needs_libraries[m->needs_library_count]);
    /* Every part, with checksums for files and targets for links. */
    const char *parts[] = {"lib/libonnxruntime.so.1.17.3", "lib/libonnxruntime_providers_shared.so",
                           "lib/pkgconfig/libonnxruntime.pc",
                           "lib/cmake/onnxruntime/onnxruntimeConfig.cmake",
                           "lib/cmake/onnxruntime/onnxruntimeConfigVersion.cmake",
                           "include/onnxruntime_c_api.h"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        const ortkit_bundle_file *f = file_of(m, parts[i]);
        if (!f)
            fail_msg("%s is not in the manifest", parts[i]);
        assert_int_equal(strlen(f->sha256), 64);
        assert_true(f->size > 0);
    }
    const ortkit_bundle_file *dev = file_of(m, "lib/libonnxruntime.so");
    assert_non_null(dev);
    assert_string_equal(dev->link, "libonnxruntime.so.1.17.3");
    /* Relocatable development files. */
    char *text = NULL;
    size_t size;
    char path[1024];
    snprintf(path, sizeof path, "%s/lib/pkgconfig/libonnxruntime.pc", ref);
    assert_int_equal(ortkit__file_read(&text, &size, path, 1 << 16), 0);
    assert_non_null(strstr(text, "prefix=${pcfiledir}/../..\n"));
    assert_non_null(strstr(text, "Version: 1.17.3\n"));
    free(text);
    snprintf(path, sizeof path, "%s/lib/cmake/onnxruntime/onnxruntimeConfig.cmake", ref);
    assert_int_equal(ortkit__file_read(&text, &size, path, 1 << 16), 0);
    assert_non_null(strstr(text, "\"${CMAKE_CURRENT_LIST_DIR}/../../..\" ABSOLUTE"));
    assert_non_null(strstr(text, "onnxruntime::onnxruntime"));
    free(text);
    /* Each ELF file has RUNPATH $ORIGIN (1.17.3 came with RPATH). */
    ortkit__elf e;
    snprintf(path, sizeof path, "%s/lib/libonnxruntime_providers_shared.so", ref);
    assert_int_equal(ortkit__elf_read(&e, path), 0);
    assert_true(ortkit__elf_origin(e.runpath));
    assert_null(e.rpath);
    ortkit__elf_free(&e);
    assert_int_equal(ortkit_bundle_verify(b), 0);
    assert_int_equal(ortkit_bundle_problem_count(b), 0);
    ortkit_bundle_free(b);
}

static void test_import_release_dir_default_name(void **state)
{
    (void)state;
    /* A directory source and no name: ort-<version>-cpu, a SONAME link. */
    ortkit_bundle_import_options o = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    o.into = at("new");
    ortkit_bundle *b = NULL;
    if (ortkit_bundle_import(&b, ORTKIT_TEST_RUNTIME_NEW, &o) != 0)
        fail_msg("%s", ortkit_error_last());
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    assert_string_equal(m->name, "ort-1.30.0-cpu");
    assert_int_equal(m->api_level, 30);
    assert_string_equal(m->library, "lib/libonnxruntime.so.1.30.0");
    const ortkit_bundle_file *so1 = file_of(m, "lib/libonnxruntime.so.1");
    assert_non_null(so1);
    assert_string_equal(so1->link, "libonnxruntime.so.1.30.0");
    assert_int_equal(ortkit_bundle_verify(b), 0);
    ortkit_bundle_free(b);
    ortkit__rmtree(at("new"));
}

static void test_overwrite_needs_force(void **state)
{
    (void)state;
    ortkit_bundle *b = NULL;
    assert_int_equal(import_old(&b, at("dup"), "twice", 0), 0);
    ortkit_bundle_free(b);
    sh("touch '%s/twice/marker'", at("dup"));
    assert_int_equal(import_old(&b, at("dup"), "twice", 0), ORTKIT_E_IO);
    assert_null(b);
    assert_error_has("already exists");
    assert_error_has("--force");
    /* The old bundle is untouched. */
    assert_int_equal(access(at("dup/twice/marker"), F_OK), 0);
    assert_int_equal(import_old(&b, at("dup"), "twice", 1), 0);
    assert_int_equal(ortkit_bundle_verify(b), 0);
    ortkit_bundle_free(b);
    assert_int_not_equal(access(at("dup/twice/marker"), F_OK), 0);
    /* Nothing else is left in the destination: no temporary, no old copy. */
    assert_int_equal(entries(at("dup")), 1);
    /* A directory that is not a bundle is never replaced, even with force. */
    sh("mkdir -p '%s/dup/notabundle' && touch '%s/dup/notabundle/keep'", scratch, scratch);
    assert_int_equal(import_old(&b, at("dup"), "notabundle", 1), ORTKIT_E_IO);
    assert_error_has("not a bundle");
    assert_int_equal(access(at("dup/notabundle/keep"), F_OK), 0);
    ortkit__rmtree(at("dup"));
}

static void test_failed_imports_leave_nothing(void **state)
{
    (void)state;
    const char *into = at("fail");
    sh("mkdir -p '%s' && echo 'not a library' > '%s/fake.so'", into, scratch);
    ortkit_bundle_import_options o = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    o.into = into;
    o.name = "x";
    struct {
        const char *src, *variant, *name;
        int code;
        const char *text;
    } cases[] = {
        {ORTKIT_TEST_STUBS "/libstub_too_old.so", NULL, "x", ORTKIT_E_FORMAT, "give the version with --version"},
        {NULL, NULL, "x", ORTKIT_E_FORMAT, "not an ELF file"},
        {"/nonexistent/libonnxruntime.so", NULL, "x", ORTKIT_E_IO, "No such file"},
        {ORTKIT_TEST_RUNTIME_OLD, "cuda12.9-sm90-avx512", "x", ORTKIT_E_INVALID_ARG,
         "no libonnxruntime_providers_cuda.so"},
        {ORTKIT_TEST_RUNTIME_OLD, "cuda12.4-sm100-avx2", "x", ORTKIT_E_INVALID_ARG, "cannot exist"},
        {ORTKIT_TEST_RUNTIME_OLD, "cpu-armv9", "x", ORTKIT_E_INVALID_ARG, "variant cpu-armv9 is for aarch64"},
        {ORTKIT_TEST_RUNTIME_OLD, "cpu-pentium", "x", ORTKIT_E_INVALID_ARG, "cpu-pentium"},
        {ORTKIT_TEST_RUNTIME_OLD, NULL, "../escape", ORTKIT_E_INVALID_ARG, "not a bundle name"},
        {ORTKIT_TEST_RUNTIME_OLD, NULL, ".hidden", ORTKIT_E_INVALID_ARG, "not a bundle name"},
    };
    char fake[1024];
    snprintf(fake, sizeof fake, "%s/fake.so", scratch);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ortkit_bundle *b = (ortkit_bundle *)&o;
        o.variant = cases[i].variant;
        o.name = cases[i].name;
        int rc = ortkit_bundle_import(&b, cases[i].src ? cases[i].src : fake, &o);
        if (rc != cases[i].code || !strstr(ortkit_error_last(), cases[i].text))
            fail_msg("case %zu: %s (%d), expected %s: %s", i, ortkit_status_name(rc), rc,
                     ortkit_status_name(cases[i].code), ortkit_error_last());
        assert_null(b);
        /* No bundle and no temporary directory. */
        assert_int_equal(entries(into), 0);
    }
    /* Given the version it does not say, a library this host can load is
     * loaded, and what it reports decides. */
    o.variant = NULL;
    o.name = "x";
    o.ort_version = "1.16.3";
    ortkit_bundle *old = NULL;
    assert_int_equal(ortkit_bundle_import(&old, ORTKIT_TEST_STUBS "/libstub_too_old.so", &o),
                     ORTKIT_E_RUNTIME_TOO_OLD);
    assert_null(old);
    assert_int_equal(ortkit_bundle_import(&old, ORTKIT_TEST_STUBS "/libstub_no_symbol.so", &o),
                     ORTKIT_E_RUNTIME_INVALID);
    assert_non_null(strstr(ortkit_error_last(), "OrtGetApiBase"));
    assert_null(old);
    assert_int_equal(entries(into), 0);
    o.ort_version = NULL;
    /* What a killed import left behind is removed by the next one of that name. */
    sh("mkdir -p '%s/.y.tmp-999999999-0/lib'", into);
    o.variant = NULL;
    o.name = "y";
    ortkit_bundle *b = NULL;
    assert_int_equal(ortkit_bundle_import(&b, ORTKIT_TEST_RUNTIME_OLD, &o), 0);
    ortkit_bundle_free(b);
    assert_int_equal(entries(into), 1);
    ortkit__rmtree(into);
}

/* ---- what import takes from its source --------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int import_tree(ortkit_bundle **out, const char *src, const char *into)
{
    ortkit_bundle_import_options o = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    o.into = into;
    o.name = "x";
    return ortkit_bundle_import(out, src, &o);
}

/*
 * A release tree (lib/, include/, LICENSE) with one hostile entry at a time:
 * a link out of the tree (absolute, through "..", through another link), a
 * loop, a FIFO.  Each is refused at once, naming the entry and its target,
 * before anything is loaded or written: the destination stays empty.
 */
static void test_import_stays_in_source(void **state)
{
    (void)state;
    const char *rel = at("rel"), *out = at("rel-out"), *outside = at("outside");
    sh("mkdir -p '%s/lib' '%s/include' '%s/include' '%s/hdrs' && echo secret > '%s/secret' && "
       "echo x > '%s/outside.so' && echo licence > '%s/LICENSE'",
       rel, rel, outside, rel, outside, scratch, rel);
    sh("cp '%s/lib/libonnxruntime.so.1.17.3' '%s/lib/libonnxruntime_providers_shared.so' '%s/lib/' && "
       "ln -s libonnxruntime.so.1.17.3 '%s/lib/libonnxruntime.so' && cp '%s/include/'*.h '%s/include/' && "
       "cp '%s/include/'*.h '%s/include/' && ln '%s/lib/libonnxruntime.so.1.17.3' '%s/' && "
       "echo '#define ORTKIT_INNER 1' > '%s/hdrs/inner.h'",
       ref, ref, rel, rel, ref, rel, ref, outside, rel, outside, rel);
    struct {
        const char *make, *undo; /* shell commands in rel */
        const char *named, *target;
    } cases[] = {
        {"rm LICENSE && ln -s /etc/passwd LICENSE", "rm LICENSE && echo licence > LICENSE",
         "'LICENSE' is a symbolic link to '/etc/passwd'", "leads out of the source"},
        {"rm LICENSE && ln -s ../outside/secret LICENSE", "rm LICENSE && echo licence > LICENSE",
         "'LICENSE' is a symbolic link to '../outside/secret'", "outside/secret"},
        {"rm LICENSE && ln -s ../../outside/secret lib/LICENSE", "rm lib/LICENSE && echo licence > LICENSE",
         "'lib/LICENSE' is a symbolic link to '../../outside/secret'", "leads out"},
        {"ln -s hop LICENSE.txt && ln -s ../outside/secret hop", "rm LICENSE.txt hop",
         "'LICENSE.txt' is a symbolic link to 'hop'", "outside/secret"},
        {"ln -s LICENSE.txt LICENSE.txt", "rm LICENSE.txt", "'LICENSE.txt' is a symbolic link to "
         "'LICENSE.txt'", "loops"},
        {"ln -s \"$OUTSIDE\" include/x", "rm include/x", "'include/x' is a symbolic link to '/",
         "leads out of the source"},
        {"ln -s . include/a", "rm include/a", "'include/a' is a symbolic link to '.'", "loop"},
        {"ln -s ../include include/up", "rm include/up", "'include/up' is a symbolic link to "
         "'../include'", "loop"},
        {"mkdir include/sub && ln -s ../../../outside include/sub/far", "rm -r include/sub",
         "'include/sub/far' is a symbolic link to '../../../outside'", "leads out"},
        {"mv include inc && mkdir \"$OUTSIDE/inc\" && cp inc/*.h \"$OUTSIDE/inc/\" && "
         "ln -s \"$OUTSIDE/inc\" include", "rm include && mv inc include && rm -r \"$OUTSIDE/inc\"",
         "'include' is a symbolic link to '/", "leads out"},
        {"mv lib/libonnxruntime_providers_shared.so . && "
         "ln -s ../../outside.so lib/libonnxruntime_providers_shared.so",
         "rm lib/libonnxruntime_providers_shared.so && mv libonnxruntime_providers_shared.so lib/",
         "'lib/libonnxruntime_providers_shared.so' is a symbolic link to '../../outside.so'", "leads out"},
        {"mv lib/libonnxruntime.so . && ln -s ../../outside/libonnxruntime.so.1.17.3 lib/libonnxruntime.so",
         "rm lib/libonnxruntime.so && mv libonnxruntime.so lib/",
         "'lib/libonnxruntime.so' is a symbolic link to '../../outside/libonnxruntime.so.1.17.3'",
         "leads out"},
        {"mkfifo include/pipe", "rm include/pipe", "'include/pipe' is a FIFO", "regular files"},
        {"rm LICENSE && mkfifo LICENSE", "rm LICENSE && echo licence > LICENSE",
         "'LICENSE' is a FIFO", "not a regular file"},
    };
    setenv("OUTSIDE", outside, 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sh("cd '%s' && %s", rel, cases[i].make);
        ortkit_bundle *b = (ortkit_bundle *)rel;
        double t0 = now_s();
        int rc = import_tree(&b, rel, out);
        double took = now_s() - t0;
        if (rc != ORTKIT_E_FORMAT || !strstr(ortkit_error_last(), cases[i].named) ||
            !strstr(ortkit_error_last(), cases[i].target))
            fail_msg("case %zu: %s (%d): %s", i, ortkit_status_name(rc), rc, ortkit_error_last());
        assert_non_null(strstr(ortkit_error_last(), "cannot import '"));
        assert_null(b);
        /* Found before anything was loaded or written; a loop at once. */
        if (took > 0.5)
            fail_msg("case %zu took %.3f s", i, took);
        assert_int_equal(entries(out), 0);
        sh("cd '%s' && %s", rel, cases[i].undo);
    }
    /* Links that stay inside are followed: their targets are copied. */
    sh("cd '%s' && ln -s onnxruntime_c_api.h include/same.h && ln -s ../hdrs include/d && "
       "ln -s ../LICENSE lib/NOTICE", rel);
    ortkit_bundle *b = NULL;
    if (import_tree(&b, rel, out) != 0)
        fail_msg("%s", ortkit_error_last());
    assert_int_equal(ortkit_bundle_verify(b), 0);
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    const ortkit_bundle_file *same = file_of(m, "include/same.h"), *inner = file_of(m, "include/d/inner.h");
    assert_non_null(same);
    assert_non_null(inner);
    assert_string_equal(same->link, "");
    assert_int_equal(same->size, file_of(m, "include/onnxruntime_c_api.h")->size);
    assert_non_null(file_of(m, "LICENSE"));
    assert_non_null(file_of(m, "NOTICE"));
    ortkit_bundle_free(b);
    /* The library given by name is taken wherever its link points. */
    sh("mkdir -p '%s/named' && ln -s '%s/lib/libonnxruntime.so.1.17.3' '%s/named/libonnxruntime.so'",
       scratch, rel, scratch);
    ortkit_bundle_import_options o = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    o.into = out;
    o.name = "named";
    if (ortkit_bundle_import(&b, at("named/libonnxruntime.so"), &o) != 0)
        fail_msg("%s", ortkit_error_last());
    assert_string_equal(ortkit_bundle_manifest(b)->ort_version, "1.17.3");
    ortkit_bundle_free(b);
    unsetenv("OUTSIDE");
    ortkit__rmtree(out);
    ortkit__rmtree(rel);
    ortkit__rmtree(outside);
    ortkit__rmtree(at("named"));
}

typedef struct cancel_count {
    int calls, stop_at;
} cancel_count;

static int cancel_after(void *arg)
{
    cancel_count *c = arg;
    return ++c->calls >= c->stop_at;
}

/* A cancelled import removes what it made; what dead imports left behind in
 * the destination is removed by the next import, whatever its name. */
static void test_import_cancel_and_stale(void **state)
{
    (void)state;
    const char *into = at("cancel");
    ortkit_bundle_import_options o = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    o.into = into;
    o.name = "c";
    o.cancel = cancel_after;
    /* At once, half-way through copying the library (64 KiB a poll), and in
     * the last steps (hashing for the manifest). */
    int stops[] = {1, 60, 340};
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
        cancel_count c = {0, stops[i]};
        o.cancel_arg = &c;
        ortkit_bundle *b = NULL;
        int rc = ortkit_bundle_import(&b, ORTKIT_TEST_RUNTIME_OLD "/libonnxruntime.so.1.17.3", &o);
        if (rc != ORTKIT_E_CANCELLED)
            fail_msg("stop at %d: %s: %s", stops[i], ortkit_status_name(rc), ortkit_error_last());
        assert_null(b);
        assert_int_equal(c.calls, stops[i]);
        assert_int_equal(entries(into), 0);
    }
    cancel_count never = {0, 1 << 30};
    o.cancel_arg = &never;
    ortkit_bundle *b = NULL;
    assert_int_equal(ortkit_bundle_import(&b, ORTKIT_TEST_RUNTIME_OLD, &o), 0);
    ortkit_bundle_free(b);
    /* A whole import polls often enough for the stops above. */
    assert_true(never.calls > 340);
    /* A program built before the callback existed passes version 1's bytes
     * only (allocated to that size, so reading past them is caught under
     * ASan): it is never cancelled. */
    typedef struct {
        unsigned version;
        const char *name, *variant, *into;
        int force;
    } options_v1;
    options_v1 *v1 = malloc(sizeof *v1);
    assert_non_null(v1);
    *v1 = (options_v1){1, "v1", NULL, into, 0};
    assert_int_equal(ortkit_bundle_import(&b, ORTKIT_TEST_RUNTIME_OLD,
                                          (const ortkit_bundle_import_options *)v1), 0);
    free(v1);
    assert_string_equal(ortkit_bundle_manifest(b)->name, "v1");
    ortkit_bundle_free(b);
    /* Leftovers of dead imports of any name go; a live one's and others stay. */
    sh("cd '%s' && mkdir .other.tmp-999999999-0 .ort-1.30.0-cpu.old-999999999-3 .c.tmp-%ld-9 "
       ".-bad.tmp-999999999-0 .keep && touch .other.tmp-999999999-0/f",
       into, (long)getpid());
    o.name = "d";
    o.cancel = NULL;
    assert_int_equal(ortkit_bundle_import(&b, ORTKIT_TEST_RUNTIME_OLD, &o), 0);
    ortkit_bundle_free(b);
    assert_int_not_equal(access(at("cancel/.other.tmp-999999999-0"), F_OK), 0);
    assert_int_not_equal(access(at("cancel/.ort-1.30.0-cpu.old-999999999-3"), F_OK), 0);
    char live[64];
    snprintf(live, sizeof live, "cancel/.c.tmp-%ld-9", (long)getpid());
    assert_int_equal(access(at("%s", live), F_OK), 0);
    assert_int_equal(access(at("cancel/.-bad.tmp-999999999-0"), F_OK), 0);
    assert_int_equal(access(at("cancel/.keep"), F_OK), 0);
    ortkit__rmtree(into);
}

/* Rewrite a field of a bundle's manifest (to make a consistent but foreign bundle). */
static void edit_manifest(const char *dir, const char *lib, const char *arch)
{
    char path[1024], *text = NULL, hex[65];
    size_t size;
    uint64_t lib_size;
    snprintf(path, sizeof path, "%s/%s", dir, lib);
    assert_int_equal(ortkit__sha256_file(hex, &lib_size, path), 0);
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    assert_int_equal(ortkit__file_read(&text, &size, path, 1 << 20), 0);
    cJSON *root = cJSON_Parse(text);
    free(text);
    cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(root, "files")) {
        if (!strcmp(cJSON_GetObjectItem(f, "path")->valuestring, lib)) {
            cJSON_ReplaceItemInObject(f, "size", cJSON_CreateNumber((double)lib_size));
            cJSON_ReplaceItemInObject(f, "sha256", cJSON_CreateString(hex));
        }
    }
    if (arch)
        cJSON_ReplaceItemInObject(cJSON_GetObjectItem(root, "requires"), "arch", cJSON_CreateString(arch));
    text = cJSON_Print(root);
    cJSON_Delete(root);
    assert_int_equal(ortkit__file_write_atomic(path, text, strlen(text)), 0);
    free(text);
}

/* A 64-bit ELF header for arm64: enough for anything that reads the header. */
static void write_arm64_elf(const char *path)
{
    Elf64_Ehdr h;
    memset(&h, 0, sizeof h);
    memcpy(h.e_ident, ELFMAG, SELFMAG);
    h.e_ident[EI_CLASS] = ELFCLASS64;
    h.e_ident[EI_DATA] = ELFDATA2LSB;
    h.e_ident[EI_VERSION] = EV_CURRENT;
    h.e_type = ET_DYN;
    h.e_machine = EM_AARCH64;
    h.e_version = EV_CURRENT;
    h.e_ehsize = sizeof h;
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(&h, sizeof h, 1, f), 1);
    fclose(f);
}

static int library_mapped(const char *text)
{
    char *maps = NULL;
    size_t size;
    if (ortkit__file_read(&maps, &size, "/proc/self/maps", (size_t)64 << 20) != 0)
        return -1;
    int found = strstr(maps, text) != NULL;
    free(maps);
    return found;
}

static void test_verify_names_every_problem(void **state)
{
    (void)state;
    ortkit_bundle *b = NULL;
    const char *t = at("tamper/t1");
    sh("mkdir -p '%s/tamper' && cp -a '%s' '%s'", scratch, ref, t);
    /* A changed byte, a missing file, an extra file, a link moved, a grown file. */
    sh("printf X | dd of='%s/include/onnxruntime_c_api.h' bs=1 seek=100 conv=notrunc 2>/dev/null", t);
    sh("rm '%s/include/provider_options.h'", t);
    sh("echo evil > '%s/lib/evil.so'", t);
    sh("ln -sfn libonnxruntime_providers_shared.so '%s/lib/libonnxruntime.so'", t);
    sh("echo '# more' >> '%s/lib/pkgconfig/libonnxruntime.pc'", t);
    assert_int_equal(ortkit_bundle_open(&b, t), 0);
    assert_int_equal(ortkit_bundle_verify(b), ORTKIT_E_FORMAT);
    assert_problem(b, "include/onnxruntime_c_api.h: SHA-256");
    assert_problem(b, "include/provider_options.h: missing");
    assert_problem(b, "lib/evil.so: not in the manifest");
    assert_problem(b, "lib/libonnxruntime.so: links to 'libonnxruntime_providers_shared.so'");
    assert_problem(b, "lib/pkgconfig/libonnxruntime.pc:");
    assert_problem(b, "grown");
    assert_int_equal(ortkit_bundle_problem_count(b), 5);
    assert_error_has("5 problems");
    ortkit_bundle_free(b);

    /* A truncated library: caught when opened, named by verify, never loaded. */
    const char *t2 = at("tamper/t2");
    sh("cp -a '%s' '%s' && truncate -s 4096 '%s/lib/libonnxruntime.so.1.17.3'", ref, t2, t2);
    assert_int_equal(ortkit_bundle_open(&b, t2), 0);
    assert_non_null(strstr(ortkit_bundle_damage(b), "truncated"));
    assert_int_equal(ortkit_bundle_verify(b), ORTKIT_E_FORMAT);
    assert_problem(b, "lib/libonnxruntime.so.1.17.3: 4096 bytes, the manifest says");
    ortkit_bundle_free(b);
    assert_int_equal(library_mapped("/tamper/t2/"), 0);

    /* A library for another architecture, its checksum made to match. */
    const char *t3 = at("tamper/t3");
    sh("cp -a '%s' '%s'", ref, t3);
    char lib[1024];
    snprintf(lib, sizeof lib, "%s/lib/libonnxruntime.so.1.17.3", t3);
    write_arm64_elf(lib);
    edit_manifest(t3, "lib/libonnxruntime.so.1.17.3", NULL);
    assert_int_equal(ortkit_bundle_open(&b, t3), 0);
    assert_non_null(strstr(ortkit_bundle_damage(b), "built for aarch64; the manifest says x86_64"));
    assert_int_equal(ortkit_bundle_verify(b), ORTKIT_E_FORMAT);
    assert_problem(b, "lib/libonnxruntime.so.1.17.3: built for aarch64");
    ortkit_bundle_free(b);
    /* The same, with a manifest that says aarch64: consistent, but not for this host. */
    edit_manifest(t3, "lib/libonnxruntime.so.1.17.3", "aarch64");
    assert_int_equal(ortkit_bundle_open(&b, t3), 0);
    assert_string_equal(ortkit_bundle_damage(b), "");
    /* Its library now matches the manifest; the x86_64 provider beside it does
     * not, and nothing is loaded. */
    assert_int_equal(ortkit_bundle_verify(b), ORTKIT_E_FORMAT);
    assert_false(has_problem(b, "lib/libonnxruntime.so.1.17.3: built for"));
    assert_problem(b, "lib/libonnxruntime_providers_shared.so: built for x86_64; the manifest says aarch64");

    ortkit_host *h = NULL;
    assert_int_equal(ortkit_host_detect(&h), 0);
    ortkit_bundle_choice *c = NULL;
    const ortkit_bundle *one[] = {b};
    if (h->arch == ORTKIT_ARCH_X86_64) {
        assert_int_equal(ortkit_bundle_select(&c, h, one, 1, NULL), ORTKIT_E_RUNTIME_NOT_FOUND);
        assert_non_null(strstr(ortkit_bundle_choice_verdict(c, 0)->why,
                               "built for aarch64; this host is x86_64"));
    }
    ortkit_bundle_choice_free(c);
    ortkit_host_free(h);
    ortkit_bundle_free(b);
    assert_int_equal(library_mapped("/tamper/t3/"), 0);
    ortkit__rmtree(at("tamper"));
}

/* Manifests written to mislead: each refused, naming what is wrong. */
static void test_hostile_manifests(void **state)
{
    (void)state;
#define HEAD "{\"schema\": 1, \"name\": \"h\", \"onnxruntime\": {\"version\": \"1.20.0\", \"api_level\": 20}, " \
             "\"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\"}, "
#define LIB "\"library\": \"lib/libonnxruntime.so.1\", "
#define SHA "\"0000000000000000000000000000000000000000000000000000000000000000\""
#define FILE1 "{\"path\": \"lib/libonnxruntime.so.1\", \"size\": 10, \"sha256\": " SHA "}"
    static const struct { const char *json, *text; } cases[] = {
        {"", "not valid JSON"},
        {"[1, 2]", "not a JSON object"},
        {"{\"schema\": \"1\"}", "'schema' must be a number"},
        {"{\"schema\": 2}", "schema 2 is not 1"},
        {"{\"schema\": 1e300}", "whole number"},
        {HEAD "\"files\": [" FILE1 "]}", "missing 'library'"},
        {HEAD LIB "\"files\": [" FILE1 "], \"extra\": 1}", "unknown key 'extra'"},
        {HEAD LIB "\"files\": [" FILE1 "], \"files\": []}", "appears twice"},
        {"{\"schema\": 1, \"name\": \"h\", \"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\"}, " LIB
         "\"files\": [" FILE1 "]}", "missing 'onnxruntime'"},
        {HEAD LIB "\"files\": [{\"path\": \"lib/libonnxruntime.so.1\", \"size\": 1e300, \"sha256\": " SHA "}]}",
         "files[0].size"},
        {HEAD LIB "\"files\": [{\"path\": \"lib/libonnxruntime.so.1\", \"size\": -1, \"sha256\": " SHA "}]}",
         "files[0].size"},
        {HEAD LIB "\"files\": [{\"path\": \"lib/libonnxruntime.so.1\", \"size\": 1.5, \"sha256\": " SHA "}]}",
         "files[0].size"},
        {HEAD LIB "\"files\": [{\"path\": \"lib/libonnxruntime.so.1\", \"size\": \"10\", \"sha256\": " SHA "}]}",
         "must be a number"},
        {HEAD LIB "\"files\": [" FILE1 ", {\"path\": \"../../etc/passwd\", \"size\": 1, \"sha256\": " SHA "}]}",
         "'../../etc/passwd' leaves the bundle"},
        {HEAD LIB "\"files\": [" FILE1 ", {\"path\": \"/etc/passwd\", \"size\": 1, \"sha256\": " SHA "}]}",
         "'/etc/passwd' is absolute"},
        {HEAD LIB "\"files\": [" FILE1 ", {\"path\": \"lib/../../x\", \"size\": 1, \"sha256\": " SHA "}]}",
         "leaves the bundle"},
        {HEAD LIB "\"files\": [" FILE1 ", {\"path\": \"etc/shadow\", \"size\": 1, \"sha256\": " SHA "}]}",
         "outside lib/ and include/"},
        {HEAD LIB "\"files\": [" FILE1 ", {\"path\": \"manifest.json\", \"size\": 1, \"sha256\": " SHA "}]}",
         "the manifest itself"},
        {HEAD LIB "\"files\": [" FILE1 ", {\"path\": \"lib/a\", \"link\": \"../../../etc/passwd\"}]}",
         "must name a file in the same directory"},
        {HEAD LIB "\"files\": [" FILE1 ", {\"path\": \"lib/a\", \"link\": \"nosuch\"}]}",
         "not listed"},
        {HEAD LIB "\"files\": [" FILE1 ", {\"path\": \"lib/a\", \"link\": \"b\"}, "
                  "{\"path\": \"lib/b\", \"link\": \"a\"}]}", "loop"},
        {HEAD LIB "\"files\": [" FILE1 ", " FILE1 "]}", "listed twice"},
        {HEAD "\"library\": \"lib/other.so\", \"files\": [" FILE1 "]}", "not listed in 'files'"},
        {HEAD "\"library\": \"include/libonnxruntime.so.1\", \"files\": "
              "[{\"path\": \"include/libonnxruntime.so.1\", \"size\": 1, \"sha256\": " SHA "}]}",
         "is not lib/libonnxruntime.so*"},
        {HEAD LIB "\"files\": [{\"path\": \"lib/libonnxruntime.so.1\", \"size\": 1, \"sha256\": \"ABC\"}]}",
         "64 lowercase hex"},
        {HEAD LIB "\"files\": []}", "'files' has 0 entries"},
        {HEAD LIB "\"files\": {}}", "'files' must be an array"},
        {"{\"schema\": 1, \"name\": \"h\", \"onnxruntime\": {\"version\": \"1.20.0\", \"api_level\": 20}, "
         "\"variant\": \"cpu\", \"requires\": {\"arch\": \"sparc\"}, " LIB "\"files\": [" FILE1 "]}",
         "requires.arch 'sparc'"},
        {"{\"schema\": 1, \"name\": \"h\", \"onnxruntime\": {\"version\": \"1.20.0\", \"api_level\": 20}, "
         "\"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\", \"cpu_features\": [\"avx512_bf16\"]}, "
         LIB "\"files\": [" FILE1 "]}", "unknown CPU feature 'avx512_bf16'"},
        {"{\"schema\": 1, \"name\": \"h\", \"onnxruntime\": {\"version\": \"1.20.0\", \"api_level\": 20}, "
         "\"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\", \"cpu_features\": [\"sve2\"]}, "
         LIB "\"files\": [" FILE1 "]}", "not a feature of x86_64"},
        {"{\"schema\": 1, \"name\": \"h\", \"onnxruntime\": {\"version\": \"1.20.0\", \"api_level\": 20}, "
         "\"variant\": \"cuda12.9-sm90-avx512\", \"requires\": {\"arch\": \"aarch64\"}, "
         LIB "\"files\": [" FILE1 "]}", "does not match variant cuda12.9-sm90-avx512"},
        {"{\"schema\": 1, \"name\": \"h\", \"onnxruntime\": {\"version\": \"1.20.0\", \"api_level\": 99}, "
         "\"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\"}, " LIB "\"files\": [" FILE1 "]}",
         "api_level 99 does not match"},
        {"{\"schema\": 1, \"name\": \"h\", \"onnxruntime\": {\"version\": \"1.20.0\", \"api_level\": 1e9}, "
         "\"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\"}, " LIB "\"files\": [" FILE1 "]}",
         "onnxruntime.api_level"},
        {"{\"schema\": 1, \"name\": \"h\", \"onnxruntime\": {\"version\": \"latest\", \"api_level\": 20}, "
         "\"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\"}, " LIB "\"files\": [" FILE1 "]}",
         "not a version"},
        {"{\"schema\": 1, \"name\": \"../evil\", \"onnxruntime\": {\"version\": \"1.20.0\", \"api_level\": 20}, "
         "\"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\"}, " LIB "\"files\": [" FILE1 "]}",
         "not a bundle name"},
        {"{\"schema\": 1, \"name\": \"h\\u0001\", \"onnxruntime\": {\"version\": \"1.20.0\", \"api_level\": 20}, "
         "\"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\"}, " LIB "\"files\": [" FILE1 "]}",
         "control character"},
        {"{\"schema\": 1, \"name\": \"h\", \"onnxruntime\": {\"version\": \"1.20.0\", \"api_level\": 20}, "
         "\"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\", \"cuda\": \"12.9\"}, " LIB
         "\"files\": [" FILE1 "]}", "go together"},
        {HEAD LIB "\"providers\": [\"CPU; rm -rf /\"], \"files\": [" FILE1 "]}", "provider names"},
        {HEAD LIB "\"needs\": [], \"files\": [" FILE1 "]}", "'needs' must be an object"},
        {HEAD LIB "\"needs\": {\"glibc\": \"2.28\", \"musl\": \"1.2\"}, \"files\": [" FILE1 "]}",
         "unknown key 'needs.musl'"},
        {HEAD LIB "\"needs\": {\"glibc\": \"GLIBC_2.28\"}, \"files\": [" FILE1 "]}",
         "needs.glibc 'GLIBC_2.28' is not a version like \"2.28\""},
        {HEAD LIB "\"needs\": {\"glibcxx\": \"3..4\"}, \"files\": [" FILE1 "]}", "needs.glibcxx '3..4'"},
        {HEAD LIB "\"needs\": {\"cxxabi\": 1.3}, \"files\": [" FILE1 "]}", "needs.cxxabi"},
        {HEAD LIB "\"needs\": {\"libraries\": \"libm.so.6\"}, \"files\": [" FILE1 "]}",
         "'needs.libraries' must be an array"},
        {HEAD LIB "\"needs\": {\"libraries\": [\"../lib/libm.so.6\"]}, \"files\": [" FILE1 "]}",
         "library file names"},
        {HEAD LIB "\"needs\": {\"libraries\": [\"\"]}, \"files\": [" FILE1 "]}", "library file names"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ortkit_bundle *b = (ortkit_bundle *)scratch;
        int rc = ortkit_bundle_parse(&b, cases[i].json, strlen(cases[i].json));
        if (rc != ORTKIT_E_FORMAT || !strstr(ortkit_error_last(), cases[i].text))
            fail_msg("case %zu: %s: '%s' lacks '%s'", i, ortkit_status_name(rc), ortkit_error_last(),
                     cases[i].text);
        assert_null(b);
    }
    /* The valid one these were made from. */
    const char *good = HEAD LIB "\"files\": [" FILE1 "]}";
    ortkit_bundle *b = NULL;
    assert_int_equal(ortkit_bundle_parse(&b, good, strlen(good)), 0);
    /* A manifest from before "needs": nothing known, every field empty. */
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    assert_int_equal(m->needs_known, 0);
    assert_string_equal(m->needs_glibc, "");
    assert_string_equal(m->needs_glibcxx, "");
    assert_string_equal(m->needs_cxxabi, "");
    assert_int_equal(m->needs_library_count, 0);
    ortkit_bundle_free(b);
    const char *with_needs = HEAD LIB "\"needs\": {\"glibc\": \"2.43\", \"glibcxx\": null, "
                                      "\"libraries\": [\"libXNNPACK.so.0.20241108\", \"libc.so.6\"]}, "
                                      "\"files\": [" FILE1 "]}";
    assert_int_equal(ortkit_bundle_parse(&b, with_needs, strlen(with_needs)), 0);
    m = ortkit_bundle_manifest(b);
    assert_int_equal(m->needs_known, 1);
    assert_string_equal(m->needs_glibc, "2.43");
    assert_string_equal(m->needs_glibcxx, "");
    assert_string_equal(m->needs_cxxabi, "");
    assert_int_equal(m->needs_library_count, 2);
    assert_string_equal(m->needs_libraries[0], "libXNNPACK.so.0.20241108");
    ortkit_bundle_free(b);

    /* On disk: a manifest that is a link, and one that lists a path out of the bundle. */
    const char *d = at("hostile/linked");
    sh("mkdir -p '%s' && ln -s /etc/hostname '%s/manifest.json'", d, d);
    assert_int_equal(ortkit_bundle_open(&b, d), ORTKIT_E_FORMAT);
    assert_error_has("not a regular file");
    d = at("hostile/traversal");
    sh("cp -a '%s' '%s'", ref, d);
    sh("sed -i 's|\"include/onnxruntime_c_api.h\"|\"../../../etc/passwd\"|' '%s/manifest.json'", d);
    assert_int_equal(ortkit_bundle_open(&b, d), ORTKIT_E_FORMAT);
    assert_error_has("leaves the bundle");
    assert_error_has("manifest.json");
    /* lib/ replaced by a link to somewhere else: never used. */
    d = at("hostile/liblink");
    sh("cp -a '%s' '%s' && mv '%s/lib' '%s/lib.real' && ln -s lib.real '%s/lib'", ref, d, d, d, d);
    assert_int_equal(ortkit_bundle_open(&b, d), 0);
    assert_non_null(strstr(ortkit_bundle_damage(b), "lib/ is missing or not a directory"));
    assert_int_equal(ortkit_bundle_verify(b), ORTKIT_E_FORMAT);
    assert_problem(b, "lib is a symbolic link, not a directory");
    ortkit_bundle_free(b);
    ortkit__rmtree(at("hostile"));
}

static void test_list_and_unreadable_dirs(void **state)
{
    (void)state;
    sh("mkdir -p '%s/lp' && echo file > '%s/afile'", scratch, scratch);
    sh("cp -a '%s' '%s/lp/good' && mkdir -p '%s/lp/broken' '%s/lp/notabundle' '%s/lp/.hidden'", ref,
       scratch, scratch, scratch, scratch);
    sh("echo '{' > '%s/lp/broken/manifest.json' && cp '%s/manifest.json' '%s/lp/.hidden/'", scratch,
       ref, scratch);
    char path[2048];
    snprintf(path, sizeof path, "%s:%s:%s", at("afile"), at("nosuch"), at("lp"));
    setenv("ORTKIT_PATH", path, 1);
    ortkit_bundle_list *l = NULL;
    assert_int_equal(ortkit_bundle_list_open(&l), 0);
    /* ORTKIT_PATH's three, the user's, the system's (XDG_DATA_DIRS), maybe the default. */
    assert_true(ortkit_bundle_list_dir_count(l) >= 5);
    const ortkit_bundle_dir *d0 = ortkit_bundle_list_dir(l, 0), *d1 = ortkit_bundle_list_dir(l, 1),
                            *d2 = ortkit_bundle_list_dir(l, 2), *d3 = ortkit_bundle_list_dir(l, 3),
                            *d4 = ortkit_bundle_list_dir(l, 4);
    assert_string_equal(d0->source, "ORTKIT_PATH");
    assert_int_equal(d0->state, ORTKIT_BUNDLE_DIR_UNREADABLE);
    assert_string_equal(d0->note, "not a directory");
    assert_int_equal(d1->state, ORTKIT_BUNDLE_DIR_MISSING);
    assert_int_equal(d2->state, ORTKIT_BUNDLE_DIR_OK);
    assert_int_equal(d2->bundle_count, 2);
    assert_string_equal(d3->source, "user");
    assert_string_equal(d3->path, at("xdg/ortkit/bundles"));
    assert_string_equal(d4->source, "system");
    assert_string_equal(d4->path, at("sys/ortkit/bundles"));
    /* In name order: the broken one is listed with why; dot names and
     * directories without a manifest are not bundles. */
    const ortkit_bundle_entry *e0 = ortkit_bundle_list_get(l, 0), *e1 = ortkit_bundle_list_get(l, 1);
    assert_string_equal(e0->name, "broken");
    assert_null(e0->bundle);
    assert_non_null(strstr(e0->error, "not valid JSON"));
    assert_string_equal(e1->name, "good");
    assert_non_null(e1->bundle);
    assert_string_equal(e1->error, "");
    assert_string_equal(ortkit_bundle_manifest(e1->bundle)->name, "good");
    ortkit_bundle_list_free(l);

    /* A directory that cannot be read: only without root, which reads anything. */
    if (geteuid() != 0) {
        sh("mkdir -p '%s/locked' && chmod 000 '%s/locked'", scratch, scratch);
        setenv("ORTKIT_PATH", at("locked"), 1);
        assert_int_equal(ortkit_bundle_list_open(&l), 0);
        assert_int_equal(ortkit_bundle_list_dir(l, 0)->state, ORTKIT_BUNDLE_DIR_UNREADABLE);
        ortkit_bundle_list_free(l);
        sh("chmod 755 '%s/locked'", scratch);
    }
    setenv("ORTKIT_PATH", at("path"), 1);
    ortkit__rmtree(at("lp"));
}

static void test_loader_uses_bundles(void **state)
{
    (void)state;
    sh("mkdir -p '%s/path' && cp -a '%s' '%s/path/t-old' && cp -a '%s' '%s/path/t-trunc'", scratch,
       ref, scratch, ref, scratch);
    sh("truncate -s 1000 '%s/path/t-trunc/lib/libonnxruntime.so.1.17.3'", scratch);
    sh("mkdir -p '%s/path/t-broken' && echo '[]' > '%s/path/t-broken/manifest.json'", scratch, scratch);
    ortkit_runtime *rt = NULL;
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    /* Pinned by name (options), by version (ORTKIT_BUNDLE). */
    o.bundle = "t-old";
    assert_int_equal(ortkit_runtime_open(&rt, &o), 0);
    assert_string_equal(ortkit_runtime_source(rt), "bundle t-old");
    assert_string_equal(ortkit_runtime_version(rt), "1.17.3");
    assert_non_null(strstr(ortkit_runtime_path(rt), "/path/t-old/lib/"));
    ortkit_runtime_free(rt);
    setenv("ORTKIT_BUNDLE", "1.17.3", 1);
    assert_int_equal(ortkit_runtime_open(&rt, NULL), 0);
    assert_string_equal(ortkit_runtime_version(rt), "1.17.3");
    assert_int_equal(strncmp(ortkit_runtime_source(rt), "bundle ", 7), 0);
    ortkit_runtime_free(rt);
    /* ORTKIT_RUNTIME comes first. */
    setenv("ORTKIT_RUNTIME", ORTKIT_TEST_RUNTIME_NEW, 1);
    assert_int_equal(ortkit_runtime_open(&rt, NULL), 0);
    assert_string_equal(ortkit_runtime_source(rt), "ORTKIT_RUNTIME");
    ortkit_runtime_free(rt);
    unsetenv("ORTKIT_RUNTIME");
    /* Pins that cannot be honoured are errors, and nothing is loaded for them. */
    setenv("ORTKIT_BUNDLE", "nosuch", 1);
    assert_int_equal(ortkit_runtime_open(&rt, NULL), ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_error_has("'nosuch'");
    assert_error_has("ORTKIT_BUNDLE");
    setenv("ORTKIT_BUNDLE", "t-trunc", 1);
    assert_int_equal(ortkit_runtime_open(&rt, NULL), ORTKIT_E_UNSUPPORTED);
    assert_error_has("truncated");
    setenv("ORTKIT_BUNDLE", "t-broken", 1);
    assert_int_equal(ortkit_runtime_open(&rt, NULL), ORTKIT_E_RUNTIME_INVALID);
    assert_error_has("not a JSON object");
    assert_null(rt);
    assert_int_equal(library_mapped("/path/t-trunc/"), 0);
    unsetenv("ORTKIT_BUNDLE");
    /* Unpinned: the best that fits of all found (set-up's 1.30.0 bundle when
     * `make build` imported it, else t-old); never the truncated one. */
    assert_int_equal(ortkit_runtime_open(&rt, NULL), 0);
    assert_int_equal(strncmp(ortkit_runtime_source(rt), "bundle ", 7), 0);
    assert_null(strstr(ortkit_runtime_source(rt), "t-trunc"));
    ortkit_runtime_free(rt);
    assert_int_equal(library_mapped("/path/t-trunc/"), 0);
    ortkit__rmtree(at("path"));
}

static void test_selftest(void **state)
{
    (void)state;
    for (size_t i = 0; i < 2; i++) {
        ortkit_runtime *rt = open_runtime(test_runtimes[i]);
        ortkit_selftest *t = NULL;
        assert_int_equal(ortkit_selftest_run(&t, rt, NULL), 0);
        if (!t->ok)
            fail_msg("%s: %s", test_runtimes[i], t->detail);
        assert_string_equal(t->provider, "CPUExecutionProvider");
        assert_string_equal(t->detail, "");
        assert_true(t->seconds > 0);
        ortkit_selftest_free(t);
        /* Neither npm build carries the CUDA provider's library. */
        assert_int_equal(ortkit_selftest_run(&t, rt, "CUDAExecutionProvider"), 0);
        assert_false(t->ok);
        assert_true(t->detail[0] != '\0');
        ortkit_selftest_free(t);
        ortkit_runtime_free(rt);
    }
    ortkit_selftest *t = NULL;
    assert_int_equal(ortkit_selftest_run(&t, NULL, NULL), ORTKIT_E_INVALID_ARG);
    assert_null(t);
    assert_int_equal(ortkit_selftest_run(NULL, NULL, NULL), ORTKIT_E_INVALID_ARG);
    ortkit_selftest_free(NULL);
}

/* Open the bundle pinned by name, through the whole resolve-and-load path. */
static int open_pinned(ortkit_runtime **rt, const char *name)
{
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    o.bundle = name;
    *rt = NULL;
    return ortkit_runtime_open(rt, &o);
}

/* Nothing from a bundle is loaded unless the bundle verifies, and a bundle
 * that verified is not hashed again until one of its files changes. */
static void test_verify_before_load(void **state)
{
    (void)state;
    char cache[700];
    snprintf(cache, sizeof cache, "%s/cache", scratch);
    setenv("XDG_CACHE_HOME", cache, 1);
    sh("mkdir -p '%s/path'", scratch);
    const char *v = at("path/v-good");
    sh("cp -a '%s' '%s'", ref, v);
    ortkit_bundle *b = NULL;
    int hit = -1;

    /* Hashed once, then known from the state of its files. */
    assert_int_equal(ortkit_bundle_open(&b, v), 0);
    assert_int_equal(ortkit__bundle_check(b, 1, &hit), 0);
    assert_int_equal(hit, 0);
    assert_int_equal(ortkit__bundle_check(b, 1, &hit), 0);
    assert_int_equal(hit, 1);
    ortkit_runtime *rt = NULL;
    assert_int_equal(open_pinned(&rt, "v-good"), 0);
    assert_string_equal(ortkit_runtime_source(rt), "bundle v-good");
    ortkit_runtime_free(rt);
    sh("rm -rf '%s'", v); /* loaded: it stays mapped, so it is out of the later checks */

    /* A byte changed in place (same size, mtime put back) in a bundle that
     * verified: the change time moved, so the cache does not vouch for it;
     * it is hashed again and refused, and never loaded. */
    const char *t = at("path/v-swap");
    sh("cp -a '%s' '%s'", ref, t);
    ortkit_bundle_free(b);
    assert_int_equal(ortkit_bundle_open(&b, t), 0);
    assert_int_equal(ortkit__bundle_check(b, 1, &hit), 0);
    assert_int_equal(ortkit__bundle_check(b, 1, &hit), 0);
    assert_int_equal(hit, 1);
    sh("cd '%s/lib' && t=$(stat -c %%y libonnxruntime.so.1.17.3) && "
       "printf X | dd of=libonnxruntime.so.1.17.3 bs=1 seek=4096 conv=notrunc 2>/dev/null && "
       "touch -d \"$t\" libonnxruntime.so.1.17.3", t);
    assert_int_equal(ortkit__bundle_check(b, 1, &hit), ORTKIT_E_FORMAT);
    assert_int_equal(hit, 0);
    assert_problem(b, "lib/libonnxruntime.so.1.17.3: SHA-256");
    ortkit_bundle_free(b);
    assert_int_equal(open_pinned(&rt, "v-swap"), ORTKIT_E_UNSUPPORTED);
    assert_error_has("failed verification: lib/libonnxruntime.so.1.17.3: SHA-256");
    assert_null(rt);
    assert_int_equal(library_mapped("/path/v-swap/"), 0);

    /* An extra library beside the runtime, named like one it needs: a
     * loader would find it through RUNPATH $ORIGIN. */
    const char *x = at("path/v-extra");
    sh("cp -a '%s' '%s' && cp /bin/true '%s/lib/libgcc_s.so.1'", ref, x, x);
    assert_int_equal(open_pinned(&rt, "v-extra"), ORTKIT_E_UNSUPPORTED);
    assert_error_has("lib/libgcc_s.so.1: not in the manifest");
    assert_int_equal(library_mapped("/path/v-extra/"), 0);

    /* A manifest that claims another version: not in the library's data. */
    const char *n = at("path/v-newer");
    sh("cp -a '%s' '%s' && sed -i 's/\"1.17.3\"/\"1.99.0\"/; s/\"api_level\":\t17/\"api_level\":\t99/' "
       "'%s/manifest.json'", ref, n, n);
    assert_int_equal(ortkit_bundle_open(&b, n), 0);
    assert_string_equal(ortkit_bundle_manifest(b)->ort_version, "1.99.0");
    assert_int_equal(ortkit_bundle_verify(b), ORTKIT_E_FORMAT);
    assert_problem(b, "holds no version string \"1.99.0\"");
    ortkit_bundle_free(b);
    /* Unpinned, it would win on its version: verification passes it over. */
    assert_int_equal(ortkit_runtime_open(&rt, NULL), 0);
    assert_string_not_equal(ortkit_runtime_source(rt), "bundle v-newer");
    ortkit_runtime_free(rt);
    assert_int_equal(library_mapped("/path/v-newer/"), 0);

    /* Writable by others: refused, naming the file. */
    const char *w = at("path/v-open");
    sh("cp -a '%s' '%s' && chmod g+w '%s/include/onnxruntime_c_api.h'", ref, w, w);
    assert_int_equal(ortkit_bundle_open(&b, w), 0);
    assert_int_equal(ortkit_bundle_verify(b), ORTKIT_E_FORMAT);
    assert_problem(b, "include/onnxruntime_c_api.h: writable by its group");
    ortkit_bundle_free(b);

    /* A cache directory others can write is not trusted: every check hashes. */
    const char *g = at("path/v-cache");
    sh("cp -a '%s' '%s' && chmod 0777 '%s/ortkit/verified'", ref, g, cache);
    assert_int_equal(ortkit_bundle_open(&b, g), 0);
    assert_int_equal(ortkit__bundle_check(b, 1, &hit), 0);
    assert_int_equal(ortkit__bundle_check(b, 1, &hit), 0);
    assert_int_equal(hit, 0);
    ortkit_bundle_free(b);
    sh("chmod 0700 '%s/ortkit/verified' && rm -rf '%s/path/v-'*", cache, scratch);
    unsetenv("XDG_CACHE_HOME");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_layout),
        cmocka_unit_test(test_import_release_dir_default_name),
        cmocka_unit_test(test_overwrite_needs_force),
        cmocka_unit_test(test_failed_imports_leave_nothing),
        cmocka_unit_test(test_import_stays_in_source),
        cmocka_unit_test(test_import_cancel_and_stale),
        cmocka_unit_test(test_verify_names_every_problem),
        cmocka_unit_test(test_hostile_manifests),
        cmocka_unit_test(test_list_and_unreadable_dirs),
        cmocka_unit_test(test_loader_uses_bundles),
        cmocka_unit_test(test_verify_before_load),
        cmocka_unit_test(test_selftest),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
