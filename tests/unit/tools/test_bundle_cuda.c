/*
 * test_bundle_cuda.c - which CUDA libraries a CUDA build of ONNX Runtime
 * takes with it.  Small real shared libraries are linked with the C compiler
 * in a scratch directory, under the SONAMEs of the CUDA toolkit's, cuDNN's
 * and the driver's libraries, each needing the others the way the test
 * wants; a stand-in for the CUDA provider needs them and the C/C++ runtimes.
 */
#include "testutil.h"
#include "scratch.h"

#include "bundle_make.h"

#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * src/    what the search finds: CUDA 12 and 13 toolkits, cuDNN 9 and its
 *         parts, an older cuDNN part, the driver's libraries, a non-CUDA one
 * gone/   libraries the provider stand-ins link with but no search finds
 * provider.so, needs_missing.so: the ELF files handed to the search
 */
static const char build_script[] =
    "set -e\n"
    "cd \"$1\"\n"
    "mkdir -p src gone arm empty home13/lib64 home9/lib\n"
    "printf 'int ortkit_test_stub;\\n' > stub.c\n"
    "cc -c -fPIC -o stub.o stub.c\n"
    "stub() { n=$1; d=$2; shift 2;\n"
    "  cc -shared -nostdlib -o \"$d/$n\" -Wl,-soname,\"$n\" stub.o -Lsrc -Lgone -Wl,--no-as-needed \"$@\"; }\n"
    "for n in libcudart.so.12 libcublasLt.so.12 libcurand.so.10 libcudnn.so.9 libcudnn_ops.so.9 \\\n"
    "    libcudnn_cnn.so.9 libcudnn_graph.so.9 libcudnn_adv.so.8 libnvrtc.so.12 libcusparse.so.12 \\\n"
    "    libcuda.so.1 libnvidia-ml.so.1 libfoo.so.1 \\\n"
    "    libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libcufft.so.12; do stub $n src; done\n"
    "stub libcublas.so.12 src -l:libcublasLt.so.12\n"
    "stub libnvJitLink.so.12 src -l:libnvrtc.so.12 -l:libcuda.so.1\n"
    "stub libcufft.so.11 src -l:libnvJitLink.so.12\n"
    "ln -s libcudnn.so.9 src/libcudnn.so\n"
    "stub libcublas.so.99 gone\n"
    "stub libcusolver.so.98 gone\n"
    "cc -shared -o provider.so -Wl,-soname,libonnxruntime_providers_cuda.so stub.o -Lsrc \\\n"
    "  -Wl,--no-as-needed -l:libcudart.so.12 -l:libcublas.so.12 -l:libcudnn.so.9 -l:libcufft.so.11 \\\n"
    "  -l:libcusparse.so.12 -l:libcuda.so.1 -l:libnvidia-ml.so.1 -l:libfoo.so.1 -lstdc++ -lgcc_s -lm\n"
    "stub needs_missing.so . -l:libcublas.so.99 -l:libcusolver.so.98 -l:libcudart.so.12\n"
    "cp src/libcudart.so.12 arm/\n"
    "cp src/libcudart.so.13 src/libcublas.so.13 src/libcublasLt.so.13 src/libcufft.so.12 \\\n"
    "   src/libcurand.so.10 home13/lib64/\n"
    "cp src/libcudnn*.so.9 home9/lib/\n";

/* Make path's ELF machine AArch64: the same file, for another architecture. */
static int make_foreign(const char *path)
{
    FILE *f = fopen(path, "r+b");
    const unsigned char machine[2] = {EM_AARCH64 & 0xff, EM_AARCH64 >> 8};
    int ok = f && fseek(f, EI_NIDENT + 2, SEEK_SET) == 0 && fwrite(machine, 1, 2, f) == 2;
    return (f && fclose(f) == 0 && ok) ? 0 : -1;
}

static int make_libraries(void **state)
{
    (void)state;
    if (scratch_make("cuda"))
        return -1;
    FILE *f = fopen(at("build.sh"), "w");
    if (!f || fputs(build_script, f) < 0 || fclose(f) != 0)
        return -1;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "sh '%s' '%s'", at("build.sh"), scratch);
    if (system(cmd) != 0) {
        print_error("cannot build the stand-in libraries: %s\n", cmd);
        return -1;
    }
    return make_foreign(at("arm/libcudart.so.12"));
}

static int remove_libraries(void **state)
{
    (void)state;
    return scratch_remove();
}

/* Each test starts from a search that finds nothing outside the scratch
 * directory but what ldconfig's cache may hold. */
static int clear_env(void **state)
{
    (void)state;
    unsetenv("LD_LIBRARY_PATH");
    unsetenv("CUDA_PATH");
    return setenv("CUDA_HOME", at("no-cuda-here"), 1);
}

/* The search's result is exactly names (sorted), each found in dir. */
static void assert_deps(const ortkit__dep *deps, size_t count, const char *const *names, size_t n,
                        const char *dir)
{
    int same = count == n;
    for (size_t i = 0; same && i < n; i++) {
        char path[800];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        same = !strcmp(deps[i].name, names[i]) && !strcmp(deps[i].path, path);
    }
    if (same)
        return;
    for (size_t i = 0; i < count; i++)
        print_message("  found %s at %s\n", deps[i].name, deps[i].path);
    fail_msg("expected %zu libraries, all in %s", n, dir);
}

static ortkit__dep *search(size_t *count, const char *elf, const char *srcdir, int cuda)
{
    ortkit__dep *deps = NULL;
    const char *const elfs[] = {elf};
    if (ortkit__cuda_deps(&deps, count, elfs, elf ? 1 : 0, srcdir, cuda, ortkit_arch_here()))
        fail_msg("CUDA dependency search failed: %s", ortkit_error_last());
    return deps;
}

/* What cuda 12.x always takes: the lazily loaded set, cuDNN 9's parts beside
 * libcudnn.so.9, and what those need in turn (cuFFT -> nvJitLink -> NVRTC). */
#define CUDA12_SET                                                                                \
    "libcublas.so.12", "libcublasLt.so.12", "libcudart.so.12", "libcudnn.so.9", "libcudnn_cnn.so.9", \
        "libcudnn_graph.so.9", "libcudnn_ops.so.9", "libcufft.so.11", "libcurand.so.10"

static void test_provider(void **state)
{
    (void)state;
    /* The stand-in really needs the runtimes and the driver's libraries ... */
    static const char *const system_libs[] = {"libc.so.6",    "libstdc++.so.6",    "libgcc_s.so.1",
                                              "libcuda.so.1", "libnvidia-ml.so.1", "libm.so.6"};
    ortkit__elf e;
    assert_int_equal(ortkit__elf_read(&e, at("provider.so")), 0);
    for (size_t i = 0; i < sizeof system_libs / sizeof system_libs[0]; i++) {
        int found = 0;
        for (size_t j = 0; j < e.needed_count; j++)
            found |= !strcmp(e.needed[j], system_libs[i]);
        if (!found)
            fail_msg("provider.so does not need %s", system_libs[i]);
    }
    ortkit__elf_free(&e);

    /* ... yet none of them is taken, even with libcuda.so.1 and
     * libnvidia-ml.so.1 lying in the source directory; nor libfoo.so.1, which
     * is no CUDA library, nor the older cuDNN part or the unversioned link. */
    static const char *const want[] = {CUDA12_SET, "libcusparse.so.12", "libnvJitLink.so.12",
                                       "libnvrtc.so.12"};
    size_t count;
    ortkit__dep *deps = search(&count, at("provider.so"), at("src"), 12080);
    assert_deps(deps, count, want, sizeof want / sizeof want[0], at("src"));
    ortkit__cuda_deps_free(deps, count);
}

/* With no ELF files, the lazy set for the release: cuSPARSE, which only the
 * provider needs, is not there; CUDA 13's libraries are not either. */
static void test_lazy_cuda12(void **state)
{
    (void)state;
    static const char *const want[] = {CUDA12_SET, "libnvJitLink.so.12", "libnvrtc.so.12"};
    size_t count;
    ortkit__dep *deps = search(&count, NULL, at("src"), 12040);
    assert_deps(deps, count, want, sizeof want / sizeof want[0], at("src"));
    ortkit__cuda_deps_free(deps, count);
}

static void test_lazy_cuda13(void **state)
{
    (void)state;
    static const char *const want[] = {
        "libcublas.so.13",     "libcublasLt.so.13", "libcudart.so.13", "libcudnn.so.9",
        "libcudnn_cnn.so.9",   "libcudnn_graph.so.9", "libcudnn_ops.so.9", "libcufft.so.12",
        "libcurand.so.10"};
    size_t count;
    ortkit__dep *deps = search(&count, NULL, at("src"), 13000);
    assert_deps(deps, count, want, sizeof want / sizeof want[0], at("src"));
    ortkit__cuda_deps_free(deps, count);
}

/* CUDA_HOME's lib64 and CUDA_PATH's lib are searched when the source
 * directory has nothing. */
static void test_cuda_home(void **state)
{
    (void)state;
    assert_int_equal(setenv("CUDA_HOME", at("home13"), 1), 0);
    assert_int_equal(setenv("CUDA_PATH", at("home9"), 1), 0);
    size_t count;
    ortkit__dep *deps = search(&count, NULL, at("empty"), 13000);
    assert_int_equal(count, 9);
    for (size_t i = 0; i < count; i++) {
        const char *home = strncmp(deps[i].name, "libcudnn", 8) ? "home13/lib64" : "home9/lib";
        char path[800];
        snprintf(path, sizeof path, "%s/%s", at(home), deps[i].name);
        assert_string_equal(deps[i].path, path);
    }
    ortkit__cuda_deps_free(deps, count);
}

/* A copy for another architecture is passed over; the search goes on along
 * LD_LIBRARY_PATH (empty entries skipped). */
static void test_foreign_copy(void **state)
{
    (void)state;
    char ld[1600];
    snprintf(ld, sizeof ld, "::%s:%s:", at("no-such-dir"), at("src"));
    assert_int_equal(setenv("LD_LIBRARY_PATH", ld, 1), 0);
    size_t count;
    ortkit__dep *deps = search(&count, NULL, at("arm"), 12080);
    static const char *const want[] = {CUDA12_SET, "libnvJitLink.so.12", "libnvrtc.so.12"};
    assert_deps(deps, count, want, sizeof want / sizeof want[0], at("src"));
    ortkit__cuda_deps_free(deps, count);
}

/* One library looked for in dir alone (and LD_LIBRARY_PATH): found, or
 * missing with why each copy was passed over (in *why). */
static int find_one(const char *name, const char *dir, char *why, size_t size)
{
    const char *const names[] = {name}, *const dirs[] = {dir};
    ortkit__cuda_query q = {NULL, 0, names, 1, dirs, 1, 12080, ortkit_arch_here(), 0, 0};
    ortkit__cuda_found res;
    assert_int_equal(ortkit__cuda_find(&res, &q), 0);
    int found = res.count == 1;
    snprintf(why, size, "%s", res.missing_count ? res.missing[0] : "");
    ortkit__cuda_found_free(&res);
    return found;
}

/* Issue 36: another user's library, or one others may change, or one in a
 * directory whose owner could swap it, is never taken (bundle complete's
 * --from, pip layouts and LD_LIBRARY_PATH alike); the reason is said. */
static void test_foreign_owners(void **state)
{
    (void)state;
    char why[2048], ld[800];
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "set -e; cd '%s'; rm -rf theirs open grp up; mkdir theirs open grp up up/in; "
             "for d in theirs open grp up/in; do cp src/libcudart.so.12 $d/; done; "
             "chown -R 65534 theirs; chmod 666 open/libcudart.so.12; chmod 775 grp; chown 65534 up",
             scratch);
    assert_int_equal(system(cmd), 0);
    assert_false(find_one("libcudart.so.12", at("theirs"), why, sizeof why));
    if (!strstr(why, "belongs to uid 65534"))
        fail_msg("%s", why);
    assert_false(find_one("libcudart.so.12", at("open"), why, sizeof why));
    if (!strstr(why, "libcudart.so.12 is writable by anyone"))
        fail_msg("%s", why);
    assert_false(find_one("libcudart.so.12", at("grp"), why, sizeof why));
    if (!strstr(why, "is writable by its group"))
        fail_msg("%s", why);
    assert_false(find_one("libcudart.so.12", at("up/in"), why, sizeof why));
    if (!strstr(why, "the directory") || !strstr(why, "/up belongs to uid 65534"))
        fail_msg("%s", why);
    /* The same through LD_LIBRARY_PATH; a copy of the user's own is taken. */
    snprintf(ld, sizeof ld, "%s", at("theirs"));
    assert_int_equal(setenv("LD_LIBRARY_PATH", ld, 1), 0);
    assert_false(find_one("libcudart.so.12", at("empty"), why, sizeof why));
    assert_non_null(strstr(why, "belongs to uid 65534"));
    assert_true(find_one("libcudart.so.12", at("src"), why, sizeof why));
}

/* What is found nowhere is named, every one of it, and nothing is returned. */
static void test_missing(void **state)
{
    (void)state;
    ortkit__dep *deps = (ortkit__dep *)&deps;
    size_t count = 99;
    const char *const elfs[] = {at("needs_missing.so")};
    assert_int_equal(ortkit__cuda_deps(&deps, &count, elfs, 1, at("src"), 12080, ortkit_arch_here()),
                     ORTKIT_E_IO);
    assert_null(deps);
    assert_int_equal(count, 0);
    assert_error_has("libcublas.so.99, libcusolver.so.98");
    assert_error_has("LD_LIBRARY_PATH");
    if (strstr(ortkit_error_last(), "libcudart.so.12"))
        fail_msg("'%s' names a library that was found", ortkit_error_last());
}

/* Asked for another architecture, nothing here fits: all of the lazy set is
 * missing (ldconfig's cache lists this machine's libraries only). */
static void test_other_arch(void **state)
{
    (void)state;
    ortkit_arch other =
        ortkit_arch_here() == ORTKIT_ARCH_AARCH64 ? ORTKIT_ARCH_X86_64 : ORTKIT_ARCH_AARCH64;
    ortkit__dep *deps = NULL;
    size_t count = 0;
    const char *const elfs[] = {at("provider.so")};
    assert_int_equal(ortkit__cuda_deps(&deps, &count, elfs, 1, at("src"), 12080, other), ORTKIT_E_IO);
    assert_null(deps);
    static const char *const lazy[] = {"libcudart.so.12", "libcublas.so.12",  "libcublasLt.so.12",
                                       "libcufft.so.11",  "libcurand.so.10", "libcudnn.so.9",
                                       "libcusparse.so.12"};
    for (size_t i = 0; i < sizeof lazy / sizeof lazy[0]; i++)
        assert_error_has(lazy[i]);
    /* The arm/ copy is the one file that fits AArch64 here. */
    if (other == ORTKIT_ARCH_AARCH64) {
        deps = NULL;
        assert_int_equal(ortkit__cuda_deps(&deps, &count, elfs, 1, at("arm"), 12080, other), ORTKIT_E_IO);
        if (strstr(ortkit_error_last(), "libcudart.so.12"))
            fail_msg("'%s' names the AArch64 copy in arm/", ortkit_error_last());
    }
}

/* An input that cannot be read adds nothing (the bundle's own checks report it). */
static void test_unreadable_input(void **state)
{
    (void)state;
    static const char *const want[] = {CUDA12_SET, "libnvJitLink.so.12", "libnvrtc.so.12"};
    size_t count;
    ortkit__dep *deps = search(&count, at("stub.c"), at("src"), 12000);
    assert_deps(deps, count, want, sizeof want / sizeof want[0], at("src"));
    ortkit__cuda_deps_free(deps, count);
    ortkit__cuda_deps_free(NULL, 0);
}

static void test_never_bundle(void **state)
{
    (void)state;
    static const char *const never[] = {
        "libc.so.6",         "libstdc++.so.6",  "libgcc_s.so.1",  "libm.so.6",
        "libdl.so.2",        "libpthread.so.0", "librt.so.1",     "ld-linux-x86-64.so.2",
        "ld-linux-aarch64.so.1", "libcuda.so.1", "libcuda.so",     "libnvidia-ml.so.1",
        "libnvidia-ptxjitcompiler.so.1"};
    static const char *const may[] = {
        "libcudart.so.12", "libcudnn.so.9", "libcublasLt.so.13", "libnvrtc.so.12",
        "libnvJitLink.so.12", "libonnxruntime.so.1", "libcrypto.so.3", "libz.so.1", "libcufft.so.11"};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
        if (!ortkit__cuda_never_bundle(never[i]))
            fail_msg("%s would be bundled", never[i]);
    for (size_t i = 0; i < sizeof may / sizeof may[0]; i++)
        if (ortkit__cuda_never_bundle(may[i]))
            fail_msg("%s would never be bundled", may[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_provider, clear_env),
        cmocka_unit_test_setup(test_lazy_cuda12, clear_env),
        cmocka_unit_test_setup(test_lazy_cuda13, clear_env),
        cmocka_unit_test_setup(test_cuda_home, clear_env),
        cmocka_unit_test_setup(test_foreign_copy, clear_env),
        cmocka_unit_test_setup(test_missing, clear_env),
        cmocka_unit_test_setup(test_other_arch, clear_env),
        cmocka_unit_test_setup(test_unreadable_input, clear_env),
        cmocka_unit_test(test_never_bundle),
        cmocka_unit_test_setup(test_foreign_owners, clear_env),
    };
    return cmocka_run_group_tests(tests, make_libraries, remove_libraries);
}
