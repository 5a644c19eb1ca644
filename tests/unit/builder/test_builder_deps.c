/*
 * test_builder_deps.c - `ortkit build --deps DIR`: ONNX Runtime 1.21.0's
 * real cmake/deps.txt (a copy in tests/builder) read and mapped to source
 * archives made here with real tar, a missing and a mismatched dependency
 * refused by name, deps.txt's own file checked by SHA1, archives extracted
 * with ORT's patch applied (and hostile ones refused), the plan's lines,
 * and the build's account recorded in a real bundle's manifest and shown
 * by `ortkit bundle verify --json`.
 */
#include "testutil.h"

#include "builder_deps.h"
#include "builder_plan.h"
#include "builder_options.h"

#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"

#define DEPS_TXT ORTKIT_TEST_SOURCE_DIR "/tests/builder/deps-1.21.0.txt"

/* What a CPU build of 1.21.0 takes from deps.txt, and a version each: the
 * pinned one, or for a commit its first 8 digits. */
static const char *const cpu_deps[][2] = {
    {"abseil_cpp", "20240722.0"}, {"date", "3.0.1"}, {"eigen", "1d8b82b0"},
    {"flatbuffers", "23.5.26"}, {"json", "3.11.3"}, {"microsoft_gsl", "4.0.0"},
    {"mp11", "1.82.0"}, {"onnx", "1.17.0"}, {"protobuf", "3.21.12"},
    {"pytorch_cpuinfo", "8a1772a0"}, {"re2", "2024-07-02"}, {"safeint", "3.0.28"},
    {"utf8_range", "72c943de"}};
#define N_CPU (sizeof cpu_deps / sizeof cpu_deps[0])

static int sh(const char *fmt, ...) ORTKIT_PRINTF(1, 2);
static int sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    return system(cmd);
}

/* DIR/NAME-VERSION.tar.gz holding NAME-VERSION/CMakeLists.txt and a file. */
static void make_archive(const char *dir, const char *name, const char *version)
{
    assert_int_equal(sh("set -e; cd '%s' && mkdir -p t && cd t && mkdir '%s-%s' && "
                        "printf 'project(%s)\\n' > '%s-%s/CMakeLists.txt' && "
                        "printf 'original\\n' > '%s-%s/source.txt' && "
                        "tar -czf '../%s-%s.tar.gz' '%s-%s' && cd .. && rm -rf t",
                        dir, name, version, name, name, version, name, version, name, version,
                        name, version), 0);
}

static void make_all(const char *dir)
{
    assert_int_equal(sh("rm -rf '%s' && mkdir -p '%s'", dir, dir), 0);
    for (size_t i = 0; i < N_CPU; i++)
        make_archive(dir, cpu_deps[i][0], cpu_deps[i][1]);
}

static const ortkit__builder_dep *find(const ortkit__builder_deps *d, const char *name)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->d[i].name, name))
            return &d->d[i];
    return NULL;
}

static int setup(void **state)
{
    (void)state;
    return scratch_make("deps");
}

static int teardown(void **state)
{
    (void)state;
    return scratch_remove();
}

static void versions_come_from_the_urls(void **state)
{
    char v[64];
    int commit = -1;
    assert_int_equal(ortkit__builder_dep_version_from_url(
                         v, sizeof v, &commit,
                         "https://github.com/protocolbuffers/protobuf/archive/refs/tags/v21.12.zip"), 0);
    assert_string_equal(v, "21.12");
    assert_int_equal(commit, 0);
    assert_int_equal(ortkit__builder_dep_version_from_url(
                         v, sizeof v, &commit,
                         "https://github.com/boostorg/mp11/archive/refs/tags/boost-1.82.0.zip"), 0);
    assert_string_equal(v, "1.82.0");
    assert_int_equal(ortkit__builder_dep_version_from_url(
                         v, sizeof v, &commit,
                         "https://gitlab.com/libeigen/eigen/-/archive/1d8b82b0740839c0de7f1242a3585e3390ff5f33/"
                         "eigen-1d8b82b0740839c0de7f1242a3585e3390ff5f33.zip"), 0);
    assert_string_equal(v, "1d8b82b0740839c0de7f1242a3585e3390ff5f33");
    assert_int_equal(commit, 1);
    assert_int_equal(ortkit__builder_dep_version_from_url(
                         v, sizeof v, &commit,
                         "https://github.com/google/re2/archive/refs/tags/2024-07-02.zip"), 0);
    assert_string_equal(v, "2024-07-02");
    assert_int_not_equal(ortkit__builder_dep_version_from_url(v, sizeof v, &commit,
                                                              "https://example.com/x.zip"), 0);
}

static void the_real_deps_txt_is_read(void **state)
{
    ortkit__builder_deps d;
    assert_int_equal(ortkit__builder_deps_read(&d, DEPS_TXT, 0), 0);
    assert_int_equal(d.n, N_CPU);
    for (size_t i = 0; i < N_CPU; i++)
        assert_non_null(find(&d, cpu_deps[i][0]));
    const ortkit__builder_dep *p = find(&d, "protobuf");
    assert_string_equal(p->pinned, "21.12");
    assert_string_equal(p->content, "Protobuf");
    assert_string_equal(p->patch, "protobuf/protobuf_cmake.patch");
    assert_string_equal(p->sha1, "7cf2733949036c7d52fda017badcab093fe73bfa");
    assert_null(find(&d, "microsoft_gsl")->patch); /* ORT patches GSL for CUDA builds only */
    assert_null(find(&d, "cutlass"));
    assert_null(find(&d, "googletest"));
    int tests_unused = 0;
    for (size_t i = 0; i < d.unused.n; i++)
        tests_unused |= !strcmp(d.unused.v[i], "googletest");
    assert_true(tests_unused);
    ortkit__builder_deps_free(&d);

    assert_int_equal(ortkit__builder_deps_read(&d, DEPS_TXT, 1), 0);
    assert_int_equal(d.n, N_CPU + 2);
    assert_non_null(find(&d, "cudnn_frontend"));
    assert_string_equal(find(&d, "microsoft_gsl")->patch, "gsl/1064.patch");
    ortkit__builder_deps_free(&d);

    /* A malformed line is named. */
    assert_int_equal(ortkit__file_write_atomic(at("bad.txt"), "#c\nonnx;https://x/v1.zip\n", 25), 0);
    assert_int_not_equal(ortkit__builder_deps_read(&d, at("bad.txt"), 0), 0);
    assert_non_null(strstr(ortkit__error_message(), "bad.txt:2"));
}

static void every_dependency_maps_by_name_and_version(void **state)
{
    char dir[700];
    snprintf(dir, sizeof dir, "%s", at("sources"));
    make_all(dir);
    assert_int_equal(ortkit__file_write_atomic(at("sources/onnx-1.17.0.tar.gz.origin"),
                                               "Debian trixie source package onnx\n", 34), 0);
    assert_int_equal(ortkit__file_write_atomic(at("sources/README"), "x", 1), 0);
    ortkit__builder_deps d;
    assert_int_equal(ortkit__builder_deps_read(&d, DEPS_TXT, 0), 0);
    if (ortkit__builder_deps_resolve(&d, dir, NULL, 0, NULL, 0))
        fail_msg("%s", ortkit__error_message());
    for (size_t i = 0; i < d.n; i++) {
        assert_non_null(d.d[i].path);
        assert_int_equal(d.d[i].match, ORTKIT__DEP_VERSION);
        assert_int_equal(strlen(d.d[i].sha256), 64);
    }
    /* protobuf's 3.21.12 is deps.txt's tag v21.12. */
    assert_string_equal(find(&d, "protobuf")->version, "3.21.12");
    assert_string_equal(find(&d, "onnx")->origin, "Debian trixie source package onnx");
    assert_null(find(&d, "re2")->origin);
    assert_int_equal(d.ignored.n, 1);
    assert_string_equal(d.ignored.v[0], "README");
    ortkit__builder_deps_free(&d);
}

static void a_missing_dependency_is_refused_by_name(void **state)
{
    char dir[700];
    snprintf(dir, sizeof dir, "%s", at("sources"));
    make_all(dir);
    assert_int_equal(sh("rm '%s/re2-2024-07-02.tar.gz'", dir), 0);
    ortkit__builder_deps d;
    assert_int_equal(ortkit__builder_deps_read(&d, DEPS_TXT, 0), 0);
    assert_int_equal(ortkit__builder_deps_resolve(&d, dir, NULL, 0, NULL, 0), ORTKIT_E_IO);
    const char *msg = ortkit__error_message();
    assert_non_null(strstr(msg, "dependency re2 (deps.txt: 2024-07-02) is not in"));
    assert_non_null(strstr(msg, "re2-2024-07-02.tar.gz"));
    assert_non_null(strstr(msg, "github.com/google/re2/archive/refs/tags/2024-07-02.zip"));
    ortkit__builder_deps_free(&d);

    /* Named with --dep, it needs no source in DIR. */
    const char *named[] = {"re2"};
    assert_int_equal(ortkit__builder_deps_read(&d, DEPS_TXT, 0), 0);
    assert_int_equal(ortkit__builder_deps_resolve(&d, dir, NULL, 0, named, 1), 0);
    assert_int_equal(find(&d, "re2")->match, ORTKIT__DEP_NAMED);
    ortkit__builder_deps_free(&d);
}

static void a_mismatched_version_is_refused_unless_accepted(void **state)
{
    char dir[700];
    snprintf(dir, sizeof dir, "%s", at("sources"));
    make_all(dir);
    assert_int_equal(sh("rm '%s/protobuf-3.21.12.tar.gz'", dir), 0);
    make_archive(dir, "protobuf", "3.20.3");
    ortkit__builder_deps d;
    assert_int_equal(ortkit__builder_deps_read(&d, DEPS_TXT, 0), 0);
    assert_int_equal(ortkit__builder_deps_resolve(&d, dir, NULL, 0, NULL, 0), ORTKIT_E_INVALID_ARG);
    const char *msg = ortkit__error_message();
    assert_non_null(strstr(msg, "dependency protobuf:"));
    assert_non_null(strstr(msg, "is version 3.20.3, deps.txt pins 21.12"));
    assert_non_null(strstr(msg, "--accept-dep-version protobuf"));
    ortkit__builder_deps_free(&d);

    const char *accept[] = {"protobuf"};
    assert_int_equal(ortkit__builder_deps_read(&d, DEPS_TXT, 0), 0);
    assert_int_equal(ortkit__builder_deps_resolve(&d, dir, accept, 1, NULL, 0), 0);
    assert_int_equal(find(&d, "protobuf")->match, ORTKIT__DEP_ACCEPTED);
    assert_string_equal(find(&d, "protobuf")->version, "3.20.3");
    ortkit__builder_deps_free(&d);

    /* A commit-pinned dependency under a release version is another version too. */
    assert_int_equal(sh("rm '%s/eigen-1d8b82b0.tar.gz'", dir), 0);
    make_archive(dir, "eigen", "3.4.0");
    assert_int_equal(ortkit__builder_deps_read(&d, DEPS_TXT, 0), 0);
    assert_int_equal(ortkit__builder_deps_resolve(&d, dir, accept, 1, NULL, 0), ORTKIT_E_INVALID_ARG);
    assert_non_null(strstr(ortkit__error_message(), "deps.txt pins commit 1d8b82b0"));
    ortkit__builder_deps_free(&d);

    /* Two sources for one dependency: keep one. */
    make_archive(dir, "eigen", "1d8b82b0");
    make_archive(dir, "re2", "2024-07-02x");
    assert_int_equal(ortkit__builder_deps_read(&d, DEPS_TXT, 0), 0);
    const char *both[] = {"protobuf", "eigen", "re2"};
    assert_int_equal(ortkit__builder_deps_resolve(&d, dir, both, 3, NULL, 0), ORTKIT_E_INVALID_ARG);
    assert_non_null(strstr(ortkit__error_message(), "keep one"));
    ortkit__builder_deps_free(&d);
}

static void sha1_hex(const char *path, char out[41])
{
    char *data = NULL;
    size_t size = 0;
    unsigned char md[20];
    assert_int_equal(ortkit__file_read(&data, &size, path, 1 << 24), 0);
    EVP_Digest(data, size, md, NULL, EVP_sha1(), NULL);
    for (int i = 0; i < 20; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
    free(data);
}

/* deps.txt's own file, laid out as ORT's mirror: taken by its SHA1. */
static void deps_txt_own_file_is_checked_by_sha1(void **state)
{
    char dir[700];
    snprintf(dir, sizeof dir, "%s", at("mirror"));
    assert_int_equal(sh("rm -rf '%s' && mkdir -p '%s/github.com/onnx/onnx/archive/refs/tags'", dir,
                        dir), 0);
    make_archive(dir, "onnx", "1.17.0");
    assert_int_equal(sh("mv '%s/onnx-1.17.0.tar.gz' '%s/github.com/onnx/onnx/archive/refs/tags/v1.17.0.zip'",
                        dir, dir), 0);
    char sha1[41], line[256];
    sha1_hex(at("mirror/github.com/onnx/onnx/archive/refs/tags/v1.17.0.zip"), sha1);
    snprintf(line, sizeof line, "onnx;https://github.com/onnx/onnx/archive/refs/tags/v1.17.0.zip;%s\n", sha1);
    assert_int_equal(ortkit__file_write_atomic(at("one.txt"), line, strlen(line)), 0);
    ortkit__builder_deps d;
    assert_int_equal(ortkit__builder_deps_read(&d, at("one.txt"), 0), 0);
    assert_int_equal(ortkit__builder_deps_resolve(&d, dir, NULL, 0, NULL, 0), 0);
    assert_int_equal(d.d[0].match, ORTKIT__DEP_EXACT);
    ortkit__builder_deps_free(&d);

    /* The same path holding another file is refused with both hashes. */
    memcpy(line + strlen(line) - 41, "0000000000000000000000000000000000000000", 40);
    assert_int_equal(ortkit__file_write_atomic(at("one.txt"), line, strlen(line)), 0);
    assert_int_equal(ortkit__builder_deps_read(&d, at("one.txt"), 0), 0);
    assert_int_equal(ortkit__builder_deps_resolve(&d, dir, NULL, 0, NULL, 0), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit__error_message(), "is not the file deps.txt names"));
    assert_non_null(strstr(ortkit__error_message(), sha1));
    ortkit__builder_deps_free(&d);
}

/* A stand-in ORT source tree with ORT's own patch for onnx. */
static const char *fake_ort(void)
{
    const char *src = at("ort");
    assert_int_equal(sh("rm -rf '%s' && mkdir -p '%s/cmake/patches/onnx'", src, src), 0);
    const char *patch = "--- a/source.txt\n+++ b/source.txt\n@@ -1 +1 @@\n-original\n+patched\n";
    assert_int_equal(ortkit__file_write_atomic(at("ort/cmake/patches/onnx/onnx.patch"), patch,
                                               strlen(patch)), 0);
    return src;
}

static void sources_are_extracted_once_with_orts_patch(void **state)
{
    char dir[700], cache[700], src[700];
    snprintf(dir, sizeof dir, "%s", at("sources"));
    snprintf(cache, sizeof cache, "%s", at("cache"));
    snprintf(src, sizeof src, "%s", fake_ort());
    make_all(dir);
    assert_int_equal(sh("rm -rf '%s' && mkdir -m 700 '%s'", cache, cache), 0);
    ortkit__builder_deps d;
    assert_int_equal(ortkit__builder_deps_read(&d, DEPS_TXT, 0), 0);
    assert_int_equal(ortkit__builder_deps_resolve(&d, dir, NULL, 0, NULL, 0), 0);
    /* A plan names the directories without making them. */
    assert_int_equal(ortkit__builder_deps_prepare(&d, cache, src, 1, NULL), 0);
    char *planned = ortkit__strdup(find(&d, "onnx")->tree);
    struct stat st;
    assert_int_not_equal(stat(planned, &st), 0);
    for (size_t i = 0; i < d.n; i++) {
        free(d.d[i].tree);
        d.d[i].tree = NULL;
    }
    if (ortkit__builder_deps_prepare(&d, cache, src, 0, NULL))
        fail_msg("%s", ortkit__error_message());
    const ortkit__builder_dep *onnx = find(&d, "onnx");
    assert_string_equal(onnx->tree, planned);
    assert_true(onnx->patched);
    char path[1024], *text = NULL;
    snprintf(path, sizeof path, "%s/source.txt", onnx->tree);
    assert_int_equal(ortkit__file_read(&text, NULL, path, 100), 0);
    assert_string_equal(text, "patched\n"); /* the top directory is gone, the patch applied */
    free(text);
    snprintf(path, sizeof path, "%s/source.txt", find(&d, "re2")->tree);
    assert_int_equal(ortkit__file_read(&text, NULL, path, 100), 0);
    assert_string_equal(text, "original\n");
    free(text);
    /* Made once: a second build finds the same directories. */
    assert_int_equal(sh("touch '%s/marker'", onnx->tree), 0);
    for (size_t i = 0; i < d.n; i++) {
        free(d.d[i].tree);
        d.d[i].tree = NULL;
    }
    assert_int_equal(ortkit__builder_deps_prepare(&d, cache, src, 0, NULL), 0);
    snprintf(path, sizeof path, "%s/marker", find(&d, "onnx")->tree);
    assert_int_equal(stat(path, &st), 0);

    /* The plan: each source directory, no find_package, a line per dependency. */
    const ortkit_variant *v = NULL;
    assert_int_equal(ortkit_variant_parse(&v, "cpu-avx2"), 0);
    ortkit__builder_options o = {.glibc_floor = "2.31"};
    ortkit__builder_config cfg = {.kind = ORTKIT__BUILD_ORT, .opts = &o,
                                  .source = "/src/onnxruntime-1.21.0",
                                  .build_dir = "/build/cpu-avx2", .variant = v,
                                  .ort_version = "1.21.0", .dep_sources = &d, .deps_dir = dir,
                                  .glibc_here = "2.31"};
    ortkit__builder_plan plan;
    assert_int_equal(ortkit__builder_plan_make(&plan, &cfg), 0);
    int never = 0, source_dir = 0, line = 0, floor = 0, fetch = 0;
    char want[1200];
    snprintf(want, sizeof want, "-DFETCHCONTENT_SOURCE_DIR_PROTOBUF=%s", find(&d, "protobuf")->tree);
    for (size_t i = 0; i < plan.configure.n; i++) {
        never |= !strcmp(plan.configure.v[i], "-DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=NEVER");
        source_dir |= !strcmp(plan.configure.v[i], want);
        fetch |= !strcmp(plan.configure.v[i], "-DFETCHCONTENT_FULLY_DISCONNECTED=ON");
    }
    for (size_t i = 0; i < plan.summary.n; i++) {
        line |= !strncmp(plan.summary.v[i], "dependency\tprotobuf 3.21.12, the pinned version "
                                            "(deps.txt: 21.12) from protobuf-3.21.12.tar.gz", 78);
        floor |= !strcmp(plan.summary.v[i], "glibc floor\tat most 2.31 (--glibc-floor); this "
                                            "environment's C library is glibc 2.31");
    }
    assert_true(never && source_dir && fetch);
    assert_true(line);
    assert_true(floor);
    /* The variant's flags reach ORT's own project only. */
    assert_non_null(strstr(plan.cpu_flags_cmake, "if(PROJECT_NAME STREQUAL \"onnxruntime\")"));
    assert_non_null(strstr(plan.cpu_flags_cmake, "string(REPLACE \" -mavx2 -mfma\" \"\" CMAKE_CXX_FLAGS"));
    ortkit__builder_plan_free(&plan);
    free(planned);
    ortkit__builder_deps_free(&d);
}

static void hostile_archives_are_refused(void **state)
{
    char dir[700], cache[700], src[700];
    snprintf(dir, sizeof dir, "%s", at("hostile"));
    snprintf(cache, sizeof cache, "%s", at("cache2"));
    snprintf(src, sizeof src, "%s", fake_ort());
    assert_int_equal(sh("rm -rf '%s' '%s' && mkdir -p '%s' && mkdir -m 700 '%s'", dir, cache, dir, cache), 0);
    /* Two top-level entries. */
    assert_int_equal(sh("cd '%s' && mkdir -p a b && touch a/x b/y && tar -czf re2-2024-07-02.tar.gz a b",
                        dir), 0);
    char line[] = "re2;https://github.com/google/re2/archive/refs/tags/2024-07-02.zip;"
                  "646e1728269cde7fcef990bf4a8e87b047882e88\n";
    assert_int_equal(ortkit__file_write_atomic(at("re2.txt"), line, strlen(line)), 0);
    ortkit__builder_deps d;
    assert_int_equal(ortkit__builder_deps_read(&d, at("re2.txt"), 0), 0);
    assert_int_equal(ortkit__builder_deps_resolve(&d, dir, NULL, 0, NULL, 0), 0);
    assert_int_equal(ortkit__builder_deps_prepare(&d, cache, src, 0, NULL), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit__error_message(), "more than one top-level entry"));
    ortkit__builder_deps_free(&d);
    /* A path climbing out with "..". */
    assert_int_equal(sh("cd '%s' && rm -rf a b re2-2024-07-02.tar.gz && mkdir r && touch r/x && "
                        "tar -czf re2-2024-07-02.tar.gz r/x --transform 's,r/x,r/../../escaped,'",
                        dir), 0);
    assert_int_equal(ortkit__builder_deps_read(&d, at("re2.txt"), 0), 0);
    assert_int_equal(ortkit__builder_deps_resolve(&d, dir, NULL, 0, NULL, 0), 0);
    assert_int_not_equal(ortkit__builder_deps_prepare(&d, cache, src, 0, NULL), 0);
    struct stat st;
    assert_int_not_equal(stat(at("escaped"), &st), 0);
    ortkit__builder_deps_free(&d);
    /* A hard link whose target climbs out. */
    assert_int_equal(sh("cd '%s' && rm -f re2-2024-07-02.tar.gz && /usr/bin/python3 -c \""
                        "import io, tarfile; t = tarfile.open('re2-2024-07-02.tar.gz', 'w:gz'); "
                        "d = tarfile.TarInfo('r'); d.type = tarfile.DIRTYPE; t.addfile(d); "
                        "h = tarfile.TarInfo('r/h'); h.type = tarfile.LNKTYPE; "
                        "h.linkname = 'r/../../etc/passwd'; t.addfile(h); t.close()\"", dir), 0);
    assert_int_equal(ortkit__builder_deps_read(&d, at("re2.txt"), 0), 0);
    assert_int_equal(ortkit__builder_deps_resolve(&d, dir, NULL, 0, NULL, 0), 0);
    assert_int_equal(ortkit__builder_deps_prepare(&d, cache, src, 0, NULL), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit__error_message(), "which leads out of it"));
    /* Nothing half-made is left for the next build to use. */
    assert_int_equal(sh("test -z \"$(ls '%s')\"", cache), 0);
    ortkit__builder_deps_free(&d);
    /* A patch that does not apply names the dependency and the patch. */
    assert_int_equal(sh("cd '%s' && rm -f onnx-1.17.0.tar.gz && mkdir -p t/onnx-1.17.0 && "
                        "printf 'changed\\n' > t/onnx-1.17.0/source.txt && "
                        "tar -czf onnx-1.17.0.tar.gz -C t onnx-1.17.0 && rm -rf t", dir), 0);
    char one[] = "onnx;https://github.com/onnx/onnx/archive/refs/tags/v1.17.0.zip;"
                 "13a60ac5217c104139ce0fd024f48628e7bcf5bc\n";
    assert_int_equal(ortkit__file_write_atomic(at("onnx.txt"), one, strlen(one)), 0);
    assert_int_equal(ortkit__builder_deps_read(&d, at("onnx.txt"), 0), 0);
    if (ortkit__builder_deps_resolve(&d, dir, NULL, 0, NULL, 0))
        fail_msg("%s", ortkit__error_message());
    if (ortkit__builder_deps_prepare(&d, cache, src, 0, NULL) != ORTKIT_E_FORMAT)
        fail_msg("%s", ortkit__error_message());
    assert_non_null(strstr(ortkit__error_message(),
                           "dependency onnx: ONNX Runtime's patch cmake/patches/onnx/onnx.patch does not apply"));
    assert_int_equal(sh("test -z \"$(ls '%s')\"", cache), 0);
    ortkit__builder_deps_free(&d);
}

/* re2's archive in dir made by Python's tarfile from a list of entries. */
static void python_tar(const char *dir, const char *entries)
{
    assert_int_equal(sh("cd '%s' && rm -f re2-2024-07-02.tar.gz && /usr/bin/python3 -c \""
                        "import io, tarfile; t = tarfile.open('re2-2024-07-02.tar.gz', 'w:gz')\n"
                        "def add(name, kind, target='', data=b''):\n"
                        "    i = tarfile.TarInfo(name); i.type = kind; i.linkname = target; i.size = len(data)\n"
                        "    i.mode = 0o755 if kind == tarfile.DIRTYPE else 0o644\n"
                        "    t.addfile(i, io.BytesIO(data) if data else None)\n"
                        "D, F, S, H = tarfile.DIRTYPE, tarfile.REGTYPE, tarfile.SYMTYPE, tarfile.LNKTYPE\n"
                        "add('r', D)\n%s\nt.close()\"", dir, entries), 0);
}

static int prepare_re2(const char *dir, const char *cache, const char *src)
{
    ortkit__builder_deps d;
    assert_int_equal(ortkit__builder_deps_read(&d, at("re2.txt"), 0), 0);
    assert_int_equal(ortkit__builder_deps_resolve(&d, dir, NULL, 0, NULL, 0), 0);
    int rc = ortkit__builder_deps_prepare(&d, cache, src, 0, NULL);
    ortkit__builder_deps_free(&d);
    return rc;
}

/* Issue 36's extractions: a scratch source directory, cache and ORT tree. */
static char dir[700], cache[700], src[700];
static void round3(void)
{
    snprintf(dir, sizeof dir, "%s", at("hostile3"));
    snprintf(cache, sizeof cache, "%s", at("cache3"));
    snprintf(src, sizeof src, "%s", fake_ort());
    assert_int_equal(sh("rm -rf '%s' '%s' '%s' '%s' && mkdir -p '%s' && mkdir -m 700 '%s'", dir,
                        cache, at("real"), at("home"), dir, cache), 0);
    char line[] = "re2;https://github.com/google/re2/archive/refs/tags/2024-07-02.zip;"
                  "646e1728269cde7fcef990bf4a8e87b047882e88\n";
    assert_int_equal(ortkit__file_write_atomic(at("re2.txt"), line, strlen(line)), 0);
}

/* Links each inside by their own text, chained out (y -> ., l1 -> y/..). */
static void links_that_chain_out_are_refused(void **state)
{
    round3();
    /* Links each inside by their own text, chained out: refused, nothing left. */
    python_tar(dir, "add('r/y', S, '.')\n"
                    "for i in range(1, 13): add('r/l%d' % i, S, 'y/..' if i == 1 else 'l%d/y' % (i - 1))\n"
                    "add('r/leak', S, 'l12/etc/hostname')");
    assert_int_equal(prepare_re2(dir, cache, src), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit__error_message(), "'l1' -> 'y/..', which leads out of it through the links"));
    assert_int_equal(sh("test -z \"$(ls '%s')\"", cache), 0);
    /* A name used before a later link defines it: ".." after it is refused. */
    python_tar(dir, "add('r/a', S, 'x/..')\nadd('r/x', S, '.')");
    assert_int_equal(prepare_re2(dir, cache, src), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit__error_message(), "'a' -> 'x/..'"));
}

/* An entry that fails is named (its name was read after libarchive freed it). */
static void a_failing_entry_is_named(void **state)
{
    round3();
    /* A file through a link (y -> ., then y/x): refused, the name said
     * (the name was read after libarchive freed it: "cannot extract ''"). */
    python_tar(dir, "add('r/y', S, '.')\nadd('r/y/x', F, data=b'x')");
    assert_int_equal(prepare_re2(dir, cache, src), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit__error_message(), "'y'"));
    assert_null(strstr(ortkit__error_message(), "(null)"));
    /* Any failing entry is named: one cut short. */
    assert_int_equal(sh("cd '%s' && rm -rf t re2-2024-07-02.tar.gz && mkdir -p t/r && "
                        "head -c 200000 /dev/urandom > t/r/big && tar -cf re2.tar -C t r && "
                        "head -c 100000 re2.tar > re2-2024-07-02.tar && rm -rf t re2.tar", dir), 0);
    assert_int_equal(prepare_re2(dir, cache, src), ORTKIT_E_FORMAT);
    if (!strstr(ortkit__error_message(), "cannot extract 'r/big' of "))
        fail_msg("%s", ortkit__error_message());
    assert_int_equal(sh("rm -f '%s/re2-2024-07-02.tar'", dir), 0);
}

static void fifos_and_devices_are_refused(void **state)
{
    round3();
    /* A FIFO and a device node: never extracted into what is compiled. */
    python_tar(dir, "add('r/CMakeLists.txt', F, data=b'x')\nadd('r/h.h', tarfile.FIFOTYPE)");
    assert_int_equal(prepare_re2(dir, cache, src), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit__error_message(), "holds 'r/h.h', a FIFO"));
    python_tar(dir, "i = tarfile.TarInfo('r/null'); i.type = tarfile.CHRTYPE; i.devmajor = 1; "
                    "i.devminor = 3; t.addfile(i)");
    assert_int_equal(prepare_re2(dir, cache, src), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit__error_message(), "holds 'r/null', a character device"));
    assert_int_equal(sh("test -z \"$(ls '%s')\"", cache), 0);
}

static void links_in_the_users_prefix_are_followed(void **state)
{
    round3();
    /* An honest archive with links inside, under a cache reached through a
     * link of the user's own (/home -> /data/home): extracted, links kept. */
    python_tar(dir, "add('r/src', D)\nadd('r/src/include', D)\n"
                    "add('r/src/include/h.h', F, data=b'int x;')\nadd('r/inc', S, 'src/include')\n"
                    "add('r/sub/h2.h', S, '../inc/h.h')\nadd('r/hard.h', H, 'r/src/include/h.h')");
    assert_int_equal(sh("mkdir -p '%s' && ln -s real '%s' && mkdir -m 700 '%s'", at("real"),
                        at("home"), at("home/cache")), 0);
    if (prepare_re2(dir, at("home/cache"), src))
        fail_msg("%s", ortkit__error_message());
    char *text = NULL;
    assert_int_equal(sh("cd '%s'/re2-* && test -L inc && test \"$(cat sub/h2.h)\" = 'int x;' && "
                        "test \"$(cat hard.h)\" = 'int x;'", at("real/cache")), 0);
    free(text);
}

static void the_directories_above_the_cache_are_checked(void **state)
{
    round3();
    python_tar(dir, "add('r/CMakeLists.txt', F, data=b'x')");
    assert_int_equal(sh("mkdir -p '%s' && mkdir -m 700 '%s'", at("real"), at("real/cache")), 0);
    struct stat st;
    /* A directory above the cache that another user owns, or that others
     * may write: refused, naming it, before anything is extracted. */
    assert_int_equal(sh("chown 65534 '%s'", at("real")), 0);
    assert_int_equal(prepare_re2(dir, at("real/cache"), src), ORTKIT_E_IO);
    if (!strstr(ortkit__error_message(), "belongs to uid 65534"))
        fail_msg("%s", ortkit__error_message());
    assert_int_equal(sh("chown 0 '%s' && chmod 777 '%s'", at("real"), at("real")), 0);
    assert_int_equal(prepare_re2(dir, at("real/cache"), src), ORTKIT_E_IO);
    assert_non_null(strstr(ortkit__error_message(), "is writable by anyone"));
    assert_int_equal(sh("chmod 1777 '%s'", at("real")), 0); /* sticky, the entry root's: as /tmp */
    if (prepare_re2(dir, at("real/cache"), src))
        fail_msg("%s", ortkit__error_message());
    assert_int_equal(stat(at("real/cache"), &st), 0);
}

/* The builder's account in a real bundle: recorded, read back, shown by verify --json. */
static void the_account_is_recorded_in_the_manifest(void **state)
{
    const char *build =
        "{\"glibc\":\"2.31\",\"glibc_floor\":\"2.31\",\"dependencies\":[{\"name\":\"protobuf\","
        "\"version\":\"3.21.12\",\"pinned\":\"21.12\",\"match\":\"version\",\"origin\":\"Debian "
        "trixie source package protobuf 3.21.12-11\",\"sha256\":"
        "\"930c2c3b5ecc6c9c12615cf5ad93f1cd6e12d0aba862b572e076259970ac3a53\",\"patched\":true}],"
        "\"cache\":{\"tool\":\"ccache\",\"remote\":\"redis://***@cache.ci:6379/1\",\"remote_hits\":958,"
        "\"local\":\"server\"}}";
    ortkit_bundle_import_options io = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    io.into = at("bundles");
    io.name = "built";
    io.no_load = 1;
    io.build_json = build;
    ortkit_bundle *b = NULL;
    if (ortkit_bundle_import(&b, ORTKIT_TEST_RUNTIME_NEW, &io))
        fail_msg("%s", ortkit_error_last());
    ortkit_bundle_free(b);
    assert_int_equal(ortkit_bundle_open(&b, at("bundles/built")), 0);
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    assert_true(m->build_known);
    assert_string_equal(m->build_glibc_floor, "2.31");
    assert_int_equal(m->build_dependency_count, 1);
    assert_string_equal(m->build_dependencies[0].pinned, "21.12");
    assert_string_equal(m->build_dependencies[0].match, "version");
    assert_true(m->build_dependencies[0].patched);
    /* The shared cache its objects came from, without a password. */
    assert_string_equal(m->build_cache, "ccache");
    assert_string_equal(m->build_cache_remote, "redis://***@cache.ci:6379/1");
    assert_int_equal(m->build_cache_remote_hits, 958);
    assert_string_equal(m->build_cache_local, "server"); /* the server's own local copy */
    ortkit_bundle_free(b);

    char cmd[2048], *out = NULL;
    snprintf(cmd, sizeof cmd, "%s bundle verify '%s' --json --no-load > '%s'", ORTKIT_TEST_CLI,
             at("bundles/built"), at("verify.json"));
    assert_int_equal(system(cmd), 0);
    assert_int_equal(ortkit__file_read(&out, NULL, at("verify.json"), 1 << 20), 0);
    assert_non_null(strstr(out, "\"glibc_floor\":\t\"2.31\""));
    assert_non_null(strstr(out, "\"name\":\t\"protobuf\""));
    assert_non_null(strstr(out, "\"origin\":\t\"Debian trixie source package protobuf 3.21.12-11\""));
    assert_non_null(strstr(out, "\"remote\":\t\"redis://***@cache.ci:6379/1\""));
    free(out);
    snprintf(cmd, sizeof cmd, "%s bundle show '%s' > '%s'", ORTKIT_TEST_CLI, at("bundles/built"),
             at("show.txt"));
    assert_int_equal(system(cmd), 0);
    assert_int_equal(ortkit__file_read(&out, NULL, at("show.txt"), 1 << 20), 0);
    assert_non_null(strstr(out, "cache      ccache, shared through redis://***@cache.ci:6379/1: 958 "
                                "compiles came from it\n"));
    free(out);

    /* An account that is not one is refused, and no bundle is made. */
    io.name = "bad";
    io.build_json = "{\"glibc\":\"2.31\",\"dependencies\":[{\"name\":\"Proto buf\"}]}";
    assert_int_equal(ortkit_bundle_import(&b, ORTKIT_TEST_RUNTIME_NEW, &io), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit_error_last(), "build.dependencies[0]"));
    struct stat st;
    assert_int_not_equal(stat(at("bundles/bad"), &st), 0);
    static const char *const bad_caches[][2] = {
        {"{\"tool\":\"sccache\",\"remote\":null,\"remote_hits\":0}", "is not \"ccache\""},
        {"{\"tool\":\"ccache\",\"remote\":null}", "missing 'build.cache.remote_hits'"},
        {"{\"tool\":\"ccache\",\"remote\":\"\",\"remote_hits\":1}", "build.cache.remote must be a URL"},
        {"{\"tool\":\"ccache\",\"remote_hits\":-1}", "build.cache.remote_hits"},
        {"{\"tool\":\"ccache\",\"remote_hits\":1,\"server\":\"x\"}", "server"},
        {"{\"tool\":\"ccache\",\"remote\":null,\"remote_hits\":0,\"local\":\"server\"}",
         "does not go with no remote"},
        {"{\"tool\":\"ccache\",\"remote\":\"redis://h\",\"remote_hits\":0,\"local\":\"no-server\"}",
         "does not go with a remote"},
        {"{\"tool\":\"ccache\",\"remote\":null,\"remote_hits\":0,\"local\":\"mine\"}",
         "is not \"no-server\""},
    };
    for (size_t i = 0; i < sizeof bad_caches / sizeof bad_caches[0]; i++) {
        char json[256];
        snprintf(json, sizeof json, "{\"glibc\":\"2.31\",\"dependencies\":[],\"cache\":%s}",
                 bad_caches[i][0]);
        io.build_json = json;
        assert_int_equal(ortkit_bundle_import(&b, ORTKIT_TEST_RUNTIME_NEW, &io), ORTKIT_E_FORMAT);
        if (!strstr(ortkit_error_last(), bad_caches[i][1]))
            fail_msg("'%s': '%s' lacks '%s'", bad_caches[i][0], ortkit_error_last(), bad_caches[i][1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(versions_come_from_the_urls),
        cmocka_unit_test(the_real_deps_txt_is_read),
        cmocka_unit_test(every_dependency_maps_by_name_and_version),
        cmocka_unit_test(a_missing_dependency_is_refused_by_name),
        cmocka_unit_test(a_mismatched_version_is_refused_unless_accepted),
        cmocka_unit_test(deps_txt_own_file_is_checked_by_sha1),
        cmocka_unit_test(sources_are_extracted_once_with_orts_patch),
        cmocka_unit_test(hostile_archives_are_refused),
        cmocka_unit_test(links_that_chain_out_are_refused),
        cmocka_unit_test(a_failing_entry_is_named),
        cmocka_unit_test(fifos_and_devices_are_refused),
        cmocka_unit_test(links_in_the_users_prefix_are_followed),
        cmocka_unit_test(the_directories_above_the_cache_are_checked),
        cmocka_unit_test(the_account_is_recorded_in_the_manifest),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
