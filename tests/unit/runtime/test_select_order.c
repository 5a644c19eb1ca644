/*
 * test_select_order.c - the declared selection order (docs/BUNDLES.md), one
 * step at a time: architecture, loadable here (C library, C++ library,
 * needed libraries), accelerator, CPU level by descent, ONNX Runtime, name.
 * Hosts are described in JSON; bundles are manifests (real ones: Microsoft's
 * 1.30.0 as ortkit imported it, Debian unstable's 1.23.2 and its needs).
 * Each case checks a verdict's fits, rank, step, why and order exactly, and
 * a bundle that fails two steps is judged by the earlier one.
 */
#include "testutil.h"
#include "manifest_maker.h"

#define CORPUS ORTKIT_TEST_SOURCE_DIR "/tests/fuzz/corpus/fuzz_bundle_manifest/"
#define HOSTS ORTKIT_TEST_SOURCE_DIR "/tests/hosts/"

/* CPU features of described x86-64 hosts, by level. */
#define F_V2 "\"sse3\", \"ssse3\", \"sse4.1\", \"sse4.2\", \"popcnt\", \"cx16\", \"lahf\""
#define F_AVX2 F_V2 ", \"avx\", \"avx2\", \"fma\", \"f16c\", \"bmi1\", \"bmi2\", \"movbe\", \"lzcnt\""
#define F_AVX512 F_AVX2 ", \"avx512f\", \"avx512cd\", \"avx512bw\", \"avx512dq\", \"avx512vl\""
#define F_VNNI F_AVX512 ", \"avx512vnni\""

/* What Microsoft's 1.30.0 needs (docs/BUNDLES.md) and what Debian
 * unstable's libonnxruntime1.23 (1.23.2+dfsg-6.1) needs, as import records them. */
#define NEEDS_130 "{\"glibc\": \"2.28\", \"glibcxx\": \"3.4.22\", \"cxxabi\": \"1.3.11\", " \
    "\"libraries\": [\"ld-linux-x86-64.so.2\", \"libc.so.6\", \"libdl.so.2\", \"libgcc_s.so.1\", " \
    "\"libm.so.6\", \"libpthread.so.0\", \"librt.so.1\", \"libstdc++.so.6\"]}"
#define LIBS_123 "[\"ld-linux-x86-64.so.2\", \"libXNNPACK.so.0.20241108\", \"libc.so.6\", " \
    "\"libcpuinfo.so.0\", \"libgcc_s.so.1\", \"libm.so.6\", \"libonnx.so.1\", " \
    "\"libprotobuf.so.32\", \"libpthreadpool.so.0\", \"libre2.so.11\", \"libstdc++.so.6\"]"
#define NEEDS_123 "{\"glibc\": \"2.43\", \"glibcxx\": \"3.4.30\", \"cxxabi\": \"1.3.15\", " \
    "\"libraries\": " LIBS_123 "}"
/* The same libraries, with a C library this host has: only they can refuse it. */
#define NEEDS_123_LIBS "{\"glibc\": \"2.36\", \"glibcxx\": \"3.4.30\", \"libraries\": " LIBS_123 "}"
/* What a Debian 12 machine's loader finds, of those. */
#define HOST_LIBS "\"ld-linux-x86-64.so.2\", \"libc.so.6\", \"libdl.so.2\", \"libgcc_s.so.1\", " \
    "\"libm.so.6\", \"libpthread.so.0\", \"librt.so.1\", \"libstdc++.so.6\""

#define LAST "last of those that fit"
#define NOT_JUDGED "its 11 needed libraries are not judged: the host does not list its libraries"
#define MISSING_123 "needs libXNNPACK.so.0.20241108, libcpuinfo.so.0, libonnx.so.1, " \
    "libprotobuf.so.32 and 2 more, not in the bundle, not on this host"

/* A described host of arch: its CPU features, libraries (NULL: not listed)
 * and GPUs (NULL: none). */
static ortkit_host *host_of(const char *arch, const char *features, const char *libraries,
                            const char *gpus)
{
    char json[4096];
    snprintf(json, sizeof json,
             "{\"schema\": 1, \"arch\": \"%s\", \"cpu\": {\"features\": [%s]}, "
             "\"os\": {\"name\": \"Linux\", \"glibc\": \"2.36\", \"glibcxx\": \"3.4.30\"%s%s%s}, "
             "\"nvidia\": {\"driver\": \"%s\", \"cuda\": \"%s\", \"note\": \"\", \"gpus\": [%s]}}",
             arch, features, libraries ? ", \"libraries\": [" : "", libraries ? libraries : "",
             libraries ? "]" : "", gpus ? "570.124.06" : "", gpus ? "12.8" : "", gpus ? gpus : "");
    ortkit_host *h = NULL;
    if (ortkit_host_from_json(&h, json) != 0)
        fail_msg("host: %s", ortkit_error_last());
    return h;
}

/* A described x86-64 host. */
static ortkit_host *host(const char *features, const char *libraries, const char *gpus)
{
    return host_of("x86_64", features, libraries, gpus);
}

#define H100 "{\"name\": \"NVIDIA H100 PCIe\", \"compute_capability\": \"9.0\", \"memory\": 85520809984}"

static ortkit_bundle *cpu(const char *name, const char *version, const char *variant)
{
    return make_manifest(name, version, variant, "x86_64", NULL, 1);
}

/* The real manifest ortkit wrote when it imported Microsoft's 1.30.0. */
static ortkit_bundle *real_130(void)
{
    char *json = NULL;
    size_t size = 0;
    FILE *f = fopen(CORPUS "real_ort-1.30.0-cpu.json", "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    size = (size_t)ftell(f);
    rewind(f);
    json = malloc(size);
    assert_non_null(json);
    assert_int_equal(fread(json, 1, size, f), size);
    fclose(f);
    ortkit_bundle *b = NULL;
    if (ortkit_bundle_parse(&b, json, size) != 0)
        fail_msg("real manifest: %s", ortkit_error_last());
    free(json);
    return b;
}

/* The choice among n bundles on h; rc is checked by the caller. */
static ortkit_bundle_choice *judge(const ortkit_host *h, ortkit_bundle **b, size_t n,
                                   const char *pin, int want_rc)
{
    ortkit_bundle_choice *c = NULL;
    int rc = ortkit_bundle_select(&c, h, (const ortkit_bundle *const *)b, n, pin);
    if (rc != want_rc)
        fail_msg("select: %d (%s), want %d", rc, c ? c->reason : ortkit_error_last(), want_rc);
    assert_non_null(c);
    assert_int_equal(c->count, n);
    return c;
}

/* One verdict, whole: fits, rank, step, why and order. */
static void expect(const ortkit_bundle_choice *c, size_t i, int fits, size_t rank,
                   const char *step, const char *why, const char *order)
{
    const ortkit_bundle_verdict *v = ortkit_bundle_choice_verdict(c, i);
    assert_non_null(v);
    if (v->fits != fits || v->rank != rank || strcmp(v->step, step) || strcmp(v->why, why) ||
        strcmp(v->order, order))
        fail_msg("bundle %zu: fits %d rank %zu step '%s' why '%s' order '%s'\n"
                 "       want fits %d rank %zu step '%s' why '%s' order '%s'",
                 i, v->fits, v->rank, v->step, v->why, v->order, fits, rank, step, why, order);
}

static void free_all(ortkit_bundle **b, size_t n, ortkit_bundle_choice *c, ortkit_host *h)
{
    for (size_t i = 0; i < n; i++)
        ortkit_bundle_free(b[i]);
    ortkit_bundle_choice_free(c);
    ortkit_host_free(h);
}

static int clear_overrides(void **state)
{
    (void)state;
    unsetenv("ORTKIT_FORCE_ISA");
    unsetenv("ORTKIT_IGNORE_NEEDS");
    return 0;
}

/* 1. Architecture comes first: an arm64 build is refused for it even when
 * its C library is too new as well. */
static void test_architecture(void **state)
{
    (void)state;
    ortkit_host *h = host(F_AVX2, HOST_LIBS, NULL);
    ortkit_bundle *b[] = {
        make_manifest("arm", "1.30.0", "cpu", "aarch64", NEEDS_123, 1),
        make_manifest("arm-v82", "1.30.0", "cpu-armv8.2", NULL, NULL, 1),
        make_manifest("x86", "1.30.0", "cpu", "x86_64", NEEDS_130, 1),
    };
    ortkit_bundle_choice *c = judge(h, b, 3, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 2);
    expect(c, 0, 0, 0, "architecture", "built for aarch64; this host is x86_64", "");
    expect(c, 1, 0, 0, "architecture", "built for aarch64; this host is x86_64", "");
    expect(c, 2, 1, 1, "", "", "");
    assert_string_equal(c->reason, "the only one of 3 bundles that fits this host");
    free_all(b, 3, c, h);
}

/* 2. Loadable here: the C library, then the C++ library, then the needed
 * libraries, judged only where the host lists its libraries; and before the
 * accelerator (a GPU build that needs too new a glibc is refused for that). */
static void test_loadable(void **state)
{
    (void)state;
    ortkit_bundle *b[] = {
        make_manifest("deb-1.23.2", "1.23.2", "cpu", "x86_64", NEEDS_123, 0),
        make_manifest("cxx", "1.30.0", "cpu", "x86_64",
                      "{\"glibc\": \"2.17\", \"glibcxx\": \"3.4.33\", \"libraries\": []}", 1),
        make_manifest("libs", "1.23.2", "cpu", "x86_64", NEEDS_123_LIBS, 1),
        make_manifest("gpu", "1.30.0", "cuda12.9-sm80-avx2", NULL, NEEDS_123, 1),
        real_130(),
        make_manifest("ms-1.30.0", "1.30.0", "cpu", "x86_64", NEEDS_130, 1),
    };
    const size_t n = sizeof b / sizeof b[0];

    /* A host that lists its libraries (a Debian 12 machine's). */
    ortkit_host *h = host(F_AVX2, HOST_LIBS, NULL);
    assert_int_equal(h->libraries_known, 1);
    ortkit_bundle_choice *c = judge(h, b, n, NULL, ORTKIT_OK);
    expect(c, 0, 0, 0, "loadable", "needs glibc 2.43, this host has 2.36", "");
    expect(c, 1, 0, 0, "loadable", "needs GLIBCXX_3.4.33 (libstdc++), this host has 3.4.30", "");
    expect(c, 2, 0, 0, "loadable", MISSING_123, "");
    expect(c, 3, 0, 0, "loadable", "needs glibc 2.43, this host has 2.36", "");
    /* The real manifest records no needs: nothing to refuse it for; the
     * same bundle with its needs fits, every library found. */
    expect(c, 5, 1, 1, "name", "", "ranks the same as ort-1.30.0-cpu and its name comes first");
    expect(c, 4, 1, 2, "", "", LAST);
    assert_int_equal(c->index, 5);
    ortkit_bundle_choice_free(c);

    /* A host that does not list them: the libraries are not judged, and the
     * verdict says so; the C library still refuses. */
    ortkit_host *quiet = host(F_AVX2, NULL, NULL);
    assert_int_equal(quiet->libraries_known, 0);
    c = judge(quiet, b, n, NULL, ORTKIT_OK);
    expect(c, 0, 0, 0, "loadable", "needs glibc 2.43, this host has 2.36", "");
    expect(c, 2, 1, 3, "", NOT_JUDGED, LAST);
    expect(c, 4, 1, 2, "onnxruntime", "", "the newest ONNX Runtime: 1.30.0 (libs: 1.23.2)");
    expect(c, 5, 1, 1, "name", "its 8 needed libraries are not judged: the host does not list "
           "its libraries", "ranks the same as ort-1.30.0-cpu and its name comes first");
    assert_int_equal(c->index, 5);
    free_all(b, n, c, h);
    ortkit_host_free(quiet);
}

/* A needed library the bundle carries (one `bundle complete` added after
 * the import recorded the needs) is not asked of the host. */
static ortkit_bundle *needing_libcustom(const char *name, int carried)
{
    char json[2048];
    snprintf(json, sizeof json,
             "{\"schema\": 1, \"name\": \"%s\", \"onnxruntime\": {\"version\": \"1.30.0\", "
             "\"api_level\": 30}, \"variant\": \"cpu\", \"requires\": {\"arch\": \"x86_64\", "
             "\"cpu_features\": [], \"cuda\": null, \"compute_capability\": null, "
             "\"exact_sm_only\": false, \"jetson\": false, \"min_driver\": null}, "
             "\"library\": \"lib/libonnxruntime.so.1.30.0\", \"providers\": "
             "[\"CPUExecutionProvider\"], \"files\": [{\"path\": \"lib/libonnxruntime.so.1.30.0\", "
             "\"size\": 1, \"sha256\": \"%064d\"}%s], \"needs\": {\"glibc\": \"2.17\", "
             "\"libraries\": [\"libc.so.6\", \"libcustom.so.1\"]}, \"verified_by_loading\": true}",
             name, 0, carried ? ", {\"path\": \"lib/libcustom.so.1\", \"size\": 1, \"sha256\": "
             "\"0000000000000000000000000000000000000000000000000000000000000001\"}" : "");
    ortkit_bundle *bundle = NULL;
    if (ortkit_bundle_parse(&bundle, json, strlen(json)) != 0)
        fail_msg("manifest for %s: %s", name, ortkit_error_last());
    return bundle;
}

static void test_carried_libraries(void **state)
{
    (void)state;
    ortkit_bundle *b[] = {needing_libcustom("carries", 1), needing_libcustom("lacks", 0)};
    ortkit_host *h = host(F_AVX2, HOST_LIBS, NULL);
    ortkit_bundle_choice *c = judge(h, b, 2, NULL, ORTKIT_OK);
    expect(c, 0, 1, 1, "", "", "");
    expect(c, 1, 0, 0, "loadable", "needs libcustom.so.1, not in the bundle, not on this host", "");
    free_all(b, 2, c, h);
}

/* A bundle imported without loading fits with the caveat, not refused. */
static void test_not_yet_verified(void **state)
{
    (void)state;
    ortkit_host *h = host(F_AVX2, NULL, NULL);
    ortkit_bundle *b[] = {make_manifest("fresh", "1.30.0", "cpu", "x86_64", NULL, 0)};
    ortkit_bundle_choice *c = judge(h, b, 1, NULL, ORTKIT_OK);
    expect(c, 0, 1, 1, "", "not yet verified by loading ('ortkit bundle verify' on this host "
           "loads it)", "");
    free_all(b, 1, c, h);
}

/* 3. Accelerator: a GPU build that runs here before every CPU build, of
 * whatever level or ONNX Runtime; one that does not run is refused for the
 * GPU before its CPU level is looked at. */
static void test_accelerator(void **state)
{
    (void)state;
    ortkit_host *h = host(F_VNNI, NULL, H100 ", " H100);
    ortkit_bundle *b[] = {
        cpu("a-vnni", "1.30.0", "cpu-avx512vnni"),
        make_manifest("g-sm90", "1.20.0", "cuda12.4-sm90-avx2", NULL, NULL, 1),
        /* SM 8.0 SASS on SM 9.0, and AVX-512 BF16 this CPU lacks: the GPU says no first. */
        make_manifest("g-sm80-bf16", "1.30.0", "cuda12.9-sm80-avx512bf16", NULL, NULL, 1),
        make_manifest("g-sm90-13", "1.30.0", "cuda13.0-sm90-avx2", NULL, NULL, 1),
    };
    ortkit_bundle_choice *c = judge(h, b, 4, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 1);
    expect(c, 1, 1, 1, "accelerator", "",
           "a GPU build (cuda12.4-sm90-avx2) that this host's GPU and driver can run; GPU builds "
           "come before CPU builds such as a-vnni");
    expect(c, 0, 1, 2, "", "", LAST);
    expect(c, 2, 0, 0, "accelerator",
           "SM 8.0 cubins do not run on SM 9.0 (NVIDIA H100 PCIe), nor on the 1 other GPU", "");
    expect(c, 3, 0, 0, "accelerator", "needs driver >= 580.65.06 for CUDA 13.0; found 570.124.06", "");
    ortkit_bundle_choice_free(c);

    /* The same bundles on a host without a GPU: only the CPU build. */
    ortkit_host *none = host(F_VNNI, NULL, NULL);
    c = judge(none, b, 4, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 0);
    expect(c, 1, 0, 0, "accelerator", "needs an NVIDIA GPU with SM 9.0; none found", "");
    free_all(b, 4, c, h);
    ortkit_host_free(none);
}

/* 4. CPU level by descent: generic < avx2 < avx512 < avx512vnni, whatever
 * the ONNX Runtime versions and names say; a build for a feature the host
 * lacks is refused for it, before its ONNX Runtime is looked at. */
static void test_cpu_level(void **state)
{
    (void)state;
    /* Names and versions that would order them the other way round. */
    ortkit_bundle *b[] = {
        cpu("a-generic", "1.30.0", "cpu-x86-64"),
        cpu("b-avx2", "1.26.0", "cpu-avx2"),
        cpu("c-avx512", "1.24.0", "cpu-avx512"),
        cpu("d-vnni", "1.22.0", "cpu-avx512vnni"),
        cpu("e-bf16", "1.16.0", "cpu-avx512bf16"), /* lacks BF16 and too old: the CPU says no */
        make_manifest("f-any", "1.30.0", "cpu", "x86_64", NULL, 1),
    };
    const size_t n = sizeof b / sizeof b[0];
    ortkit_host *h = host(F_VNNI, NULL, NULL);
    ortkit_bundle_choice *c = judge(h, b, n, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 3);
    expect(c, 3, 1, 1, "cpu level", "", "the highest CPU level this host supports: avx512vnni "
           "(c-avx512: avx512), which it descends from");
    expect(c, 2, 1, 2, "cpu level", "", "the highest CPU level this host supports: avx512 "
           "(b-avx2: avx2), which it descends from");
    expect(c, 1, 1, 3, "cpu level", "", "the highest CPU level this host supports: avx2 "
           "(a-generic: x86-64), which it descends from");
    /* The generic build and the "cpu" one are the same level: ONNX Runtime,
     * then the name, tells them apart. */
    expect(c, 0, 1, 4, "name", "", "ranks the same as f-any and its name comes first");
    expect(c, 5, 1, 5, "", "", LAST);
    expect(c, 4, 0, 0, "cpu level", "needs AVX-512 BF16, which this CPU lacks", "");
    assert_string_equal(c->reason, "the highest CPU level this host supports: avx512vnni "
                        "(c-avx512: avx512), which it descends from");
    ortkit_bundle_choice_free(c);

    /* An AVX2 host: AVX-512 builds refused, AVX2 above the generic build. */
    ortkit_host *laptop = host(F_AVX2, NULL, NULL);
    c = judge(laptop, b, n, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 1);
    expect(c, 2, 0, 0, "cpu level", "needs AVX-512 F, AVX-512 BW, AVX-512 DQ, AVX-512 VL, "
           "which this CPU lacks", "");
    expect(c, 1, 1, 1, "cpu level", "", "the highest CPU level this host supports: avx2 "
           "(a-generic: x86-64), which it descends from");
    ortkit_bundle_choice_free(c);

    /* A baseline x86-64 host: the generic builds are all that fit. */
    ortkit_host *v1 = host("", NULL, NULL);
    c = judge(v1, b, n, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 0);
    expect(c, 1, 0, 0, "cpu level", "needs AVX, AVX2, FMA, which this CPU lacks", "");
    expect(c, 0, 1, 1, "name", "", "ranks the same as f-any and its name comes first");
    free_all(b, n, c, h);
    ortkit_host_free(laptop);
    ortkit_host_free(v1);
}

/* 5. ONNX Runtime: the newest unless pinned, and one too old is refused. */
static void test_onnxruntime(void **state)
{
    (void)state;
    ortkit_bundle *b[] = {
        cpu("a-1.17.3", "1.17.3", "cpu-avx2"),
        cpu("b-1.30.0", "1.30.0", "cpu-avx2"),
        cpu("c-1.22.0", "1.22.0", "cpu-avx2"),
        cpu("d-1.16.3", "1.16.3", "cpu-avx2"),
    };
    ortkit_host *h = host(F_AVX2, NULL, NULL);
    ortkit_bundle_choice *c = judge(h, b, 4, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 1);
    expect(c, 1, 1, 1, "onnxruntime", "", "the newest ONNX Runtime: 1.30.0 (c-1.22.0: 1.22.0)");
    expect(c, 2, 1, 2, "onnxruntime", "", "the newest ONNX Runtime: 1.22.0 (a-1.17.3: 1.17.3)");
    expect(c, 0, 1, 3, "", "", LAST);
    expect(c, 3, 0, 0, "onnxruntime", "ONNX Runtime 1.16.3 is older than ortkit supports (1.17)", "");
    ortkit_bundle_choice_free(c);

    /* Pinned: only those of that version are ranked; the others are passed over. */
    c = judge(h, b, 4, "1.22", ORTKIT_OK);
    assert_int_equal(c->index, 2);
    assert_string_equal(c->reason, "pinned to ONNX Runtime 1.22; the only match, and it fits "
                        "this host");
    expect(c, 2, 1, 1, "", "", "");
    expect(c, 1, 1, 0, "", "", "passed over: pinned to 1.22");
    free_all(b, 4, c, h);
}

/* 6. The name, last: equal in every other step. */
static void test_name(void **state)
{
    (void)state;
    ortkit_bundle *b[] = {cpu("zeta", "1.30.0", "cpu-avx2"), cpu("alpha", "1.30.0", "cpu-avx2"),
                          cpu("mid", "1.30.0", "cpu-avx2")};
    ortkit_host *h = host(F_AVX2, NULL, NULL);
    ortkit_bundle_choice *c = judge(h, b, 3, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 1);
    expect(c, 1, 1, 1, "name", "", "ranks the same as mid and its name comes first");
    expect(c, 2, 1, 2, "name", "", "ranks the same as zeta and its name comes first");
    expect(c, 0, 1, 3, "", "", LAST);
    free_all(b, 3, c, h);
}

/* 4 on arm64: the ARMv8-A baseline (cpu-armv8.0) < armv8.2 < armv9, as the
 * CPUs qemu emulates have them (docs/HOST_AND_VARIANTS.md): a Cortex-A72 has
 * Advanced SIMD only, a Neoverse N1 adds FP16 and the dot product, qemu's
 * "max" SVE2 too.  The generic build fits all three; a prebuilt "cpu" one
 * (Microsoft's) ranks with it, below every ISA build. */
static void test_cpu_level_arm64(void **state)
{
    (void)state;
    ortkit_bundle *b[] = {
        make_manifest("a-generic", "1.30.0", "cpu-armv8.0", "aarch64", NULL, 1),
        make_manifest("b-v82", "1.30.0", "cpu-armv8.2", "aarch64", NULL, 1),
        make_manifest("c-v9", "1.30.0", "cpu-armv9", "aarch64", NULL, 1),
        make_manifest("d-any", "1.17.3", "cpu", "aarch64", NULL, 1),
    };
    ortkit_host *max = host_of("aarch64", "\"asimd\", \"fp16\", \"dotprod\", \"i8mm\", \"bf16\", "
                                "\"sve\", \"sve2\"", NULL, NULL);
    ortkit_bundle_choice *c = judge(max, b, 4, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 2);
    expect(c, 2, 1, 1, "cpu level", "", "the highest CPU level this host supports: armv9 "
           "(b-v82: armv8.2), which it descends from");
    expect(c, 1, 1, 2, "cpu level", "", "the highest CPU level this host supports: armv8.2 "
           "(a-generic: armv8.0), which it descends from");
    expect(c, 0, 1, 3, "onnxruntime", "", "the newest ONNX Runtime: 1.30.0 (d-any: 1.17.3)");
    expect(c, 3, 1, 4, "", "", LAST);
    ortkit_bundle_choice_free(c);

    ortkit_host *n1 = host_of("aarch64", "\"asimd\", \"fp16\", \"dotprod\"", NULL, NULL);
    c = judge(n1, b, 4, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 1);
    expect(c, 2, 0, 0, "cpu level", "needs SVE, SVE2, which this CPU lacks", "");
    expect(c, 1, 1, 1, "cpu level", "", "the highest CPU level this host supports: armv8.2 "
           "(a-generic: armv8.0), which it descends from");
    ortkit_bundle_choice_free(c);

    ortkit_host *a72 = host_of("aarch64", "\"asimd\"", NULL, NULL);
    c = judge(a72, b, 4, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 0);
    expect(c, 1, 0, 0, "cpu level", "needs FP16 arithmetic, dot product (SDOT/UDOT), which this "
           "CPU lacks", "");
    expect(c, 2, 0, 0, "cpu level", "needs FP16 arithmetic, dot product (SDOT/UDOT), SVE, SVE2, "
           "which this CPU lacks", "");
    expect(c, 0, 1, 1, "onnxruntime", "", "the newest ONNX Runtime: 1.30.0 (d-any: 1.17.3)");
    expect(c, 3, 1, 2, "", "", LAST);
    ortkit_bundle_choice_free(c);

    /* ORTKIT_FORCE_ISA names the baseline too. */
    setenv("ORTKIT_FORCE_ISA", "armv8.0", 1);
    c = judge(max, b, 4, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 0);
    unsetenv("ORTKIT_FORCE_ISA");
    free_all(b, 4, c, max);
    ortkit_host_free(n1);
    ortkit_host_free(a72);
}

/* ORTKIT_FORCE_ISA: the CPU taken to have exactly a build's features, said
 * in every verdict it changes. */
static void test_force_isa(void **state)
{
    (void)state;
    ortkit_bundle *b[] = {cpu("generic", "1.30.0", "cpu-x86-64"), cpu("avx2", "1.30.0", "cpu-avx2"),
                          cpu("avx512", "1.30.0", "cpu-avx512")};
    ortkit_host *h = host(F_VNNI, NULL, NULL);

    setenv("ORTKIT_FORCE_ISA", "avx2", 1);
    ortkit_bundle_choice *c = judge(h, b, 3, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 1);
    expect(c, 2, 0, 0, "cpu level", "needs AVX-512 F, AVX-512 BW, AVX-512 DQ, AVX-512 VL, "
           "which this CPU lacks (ORTKIT_FORCE_ISA=avx2)", "");
    expect(c, 1, 1, 1, "cpu level", "", "the highest CPU level this host supports: avx2 "
           "(generic: x86-64), which it descends from" "; CPU taken as avx2 (ORTKIT_FORCE_ISA)");
    expect(c, 0, 1, 2, "", "", LAST "; CPU taken as avx2 (ORTKIT_FORCE_ISA)");
    ortkit_bundle_choice_free(c);

    /* The generic build's name: the x86-64 baseline, nothing more. */
    setenv("ORTKIT_FORCE_ISA", "x86-64", 1);
    c = judge(h, b, 3, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 0);
    expect(c, 1, 0, 0, "cpu level", "needs AVX, AVX2, FMA, which this CPU lacks "
           "(ORTKIT_FORCE_ISA=x86-64)", "");
    ortkit_bundle_choice_free(c);

    /* Upwards too, and a value that names no build of this architecture is
     * not applied (and not named). */
    ortkit_host *laptop = host(F_AVX2, NULL, NULL);
    setenv("ORTKIT_FORCE_ISA", "avx512", 1);
    c = judge(laptop, b, 3, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 2);
    ortkit_bundle_choice_free(c);
    setenv("ORTKIT_FORCE_ISA", "armv9", 1);
    c = judge(laptop, b, 3, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 1);
    expect(c, 1, 1, 1, "cpu level", "", "the highest CPU level this host supports: avx2 "
           "(generic: x86-64), which it descends from");
    unsetenv("ORTKIT_FORCE_ISA");
    free_all(b, 3, c, h);
    ortkit_host_free(laptop);
}

/* ORTKIT_IGNORE_NEEDS: selection goes past the needs it names, saying so. */
static void test_ignore_needs(void **state)
{
    (void)state;
    ortkit_bundle *b[] = {make_manifest("deb-1.23.2", "1.23.2", "cpu", "x86_64", NEEDS_123, 1)};
    ortkit_host *h = host(F_AVX2, HOST_LIBS, NULL);

    /* Past the C library, the libraries it lacks refuse it. */
    setenv("ORTKIT_IGNORE_NEEDS", "glibc", 1);
    ortkit_bundle_choice *c = judge(h, b, 1, NULL, ORTKIT_E_RUNTIME_NOT_FOUND);
    expect(c, 0, 0, 0, "loadable", MISSING_123, "");
    ortkit_bundle_choice_free(c);

    setenv("ORTKIT_IGNORE_NEEDS", "glibc,libraries", 1);
    c = judge(h, b, 1, NULL, ORTKIT_OK);
    expect(c, 0, 1, 1, "", "needs glibc 2.43, this host has 2.36 (ignored: ORTKIT_IGNORE_NEEDS); "
           MISSING_123 " (ignored: ORTKIT_IGNORE_NEEDS)", "");
    ortkit_bundle_choice_free(c);

    /* "all" is every one of them; an unknown word ignores nothing. */
    setenv("ORTKIT_IGNORE_NEEDS", "all", 1);
    c = judge(h, b, 1, NULL, ORTKIT_OK);
    ortkit_bundle_choice_free(c);
    setenv("ORTKIT_IGNORE_NEEDS", "glibc2", 1);
    c = judge(h, b, 1, NULL, ORTKIT_E_RUNTIME_NOT_FOUND);
    expect(c, 0, 0, 0, "loadable", "needs glibc 2.43, this host has 2.36", "");
    unsetenv("ORTKIT_IGNORE_NEEDS");
    free_all(b, 1, c, h);
}

/* A real described host from tests/hosts/ and the real manifests: the
 * H100 server (glibc 2.35) refuses Debian unstable's 1.23.2 and takes
 * Microsoft's 1.30.0. */
static void test_real_host_and_manifests(void **state)
{
    (void)state;
    ortkit_host *h = NULL;
    if (ortkit_host_load(&h, HOSTS "h100-server.json") != 0)
        fail_msg("%s", ortkit_error_last());
    ortkit_bundle *b[] = {make_manifest("ort-1.23.2-cpu", "1.23.2", "cpu", "x86_64", NEEDS_123, 0),
                          real_130()};
    ortkit_bundle_choice *c = judge(h, b, 2, NULL, ORTKIT_OK);
    assert_int_equal(c->index, 1);
    expect(c, 0, 0, 0, "loadable", "needs glibc 2.43, this host has 2.35", "");
    expect(c, 1, 1, 1, "", "", "");
    free_all(b, 2, c, h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_architecture, clear_overrides),
        cmocka_unit_test_setup(test_loadable, clear_overrides),
        cmocka_unit_test_setup(test_carried_libraries, clear_overrides),
        cmocka_unit_test_setup(test_not_yet_verified, clear_overrides),
        cmocka_unit_test_setup(test_accelerator, clear_overrides),
        cmocka_unit_test_setup(test_cpu_level, clear_overrides),
        cmocka_unit_test_setup(test_cpu_level_arm64, clear_overrides),
        cmocka_unit_test_setup(test_onnxruntime, clear_overrides),
        cmocka_unit_test_setup(test_name, clear_overrides),
        cmocka_unit_test_setup(test_force_isa, clear_overrides),
        cmocka_unit_test_setup(test_ignore_needs, clear_overrides),
        cmocka_unit_test_setup(test_real_host_and_manifests, clear_overrides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
