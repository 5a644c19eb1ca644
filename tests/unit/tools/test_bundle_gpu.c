/*
 * test_bundle_gpu.c - GPU release bundles: the fat-binary reader on nvcc's
 * layouts, the manifest's gpu key read strictly, and whether the described
 * hosts can run the real releases (tests/bundles/gpu/: the manifests that
 * importing ONNX Runtime 1.19.2 for CUDA 12 and 1.29.0 for CUDA 13 writes;
 * cli/gpu_bundle.t checks they are still what import writes).
 */
#include "testutil.h"
#include "bundle_gpu.h"
#include "fatbin.h"

#include <unistd.h>

#define SRC ORTKIT_TEST_SOURCE_DIR
#define HOSTS SRC "/tests/hosts/"
#define R1192 SRC "/tests/bundles/gpu/ort-1.19.2-cuda12.json"
#define R129 SRC "/tests/bundles/gpu/ort-1.29.0-cuda13.json"
#define SEEDS SRC "/tests/fuzz/corpus/fuzz_fatbin/"
/* What this ortkit's import writes for the same releases: with "parts". */
#define R129_NOW SRC "/tests/bundles/gpu/current/ort-1.29.0-cuda13.json"
#define R130_CPU SRC "/tests/fuzz/corpus/fuzz_bundle_manifest/real_ort-1.30.0-cpu.json"

static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    char *buf = malloc(1 << 20);
    assert_non_null(buf);
    *size = fread(buf, 1, (1 << 20) - 1, f);
    buf[*size] = '\0';
    fclose(f);
    return buf;
}

/* The release's manifest; complete: as if `bundle complete` had found everything. */
static ortkit_bundle *release(const char *path, int complete)
{
    size_t size;
    char *json = slurp(path, &size), *out = NULL;
    if (complete) {
        char *missing = strstr(json, "\"missing\":"), *done = strstr(json, "\"complete\":");
        assert_non_null(missing);
        assert_non_null(done);
        char *after = strstr(done, "false");
        assert_non_null(after);
        assert_true(asprintf(&out, "%.*s\"missing\": [], \"complete\": true%s", (int)(missing - json),
                             json, after + 5) > 0);
        free(json);
        json = out;
    }
    ortkit_bundle *b = NULL;
    if (ortkit_bundle_parse(&b, json, strlen(json)) != 0)
        fail_msg("%s: %s", path, ortkit_error_last());
    free(json);
    return b;
}

static ortkit_host *host(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s.json", HOSTS, name);
    ortkit_host *h = NULL;
    if (ortkit_host_load(&h, path) != 0)
        fail_msg("%s: %s", path, ortkit_error_last());
    return h;
}

/* Fits (1/0), and why contains want ("" : no caveat). */
static void judge(ortkit_bundle *b, const char *host_name, int fits, const char *want)
{
    ortkit_host *h = host(host_name);
    char why[256];
    int got = ortkit__gpu_fits(ortkit_bundle_manifest(b), h, why, sizeof why);
    if (got != fits || (want[0] ? !strstr(why, want) : why[0] != '\0'))
        fail_msg("%s on %s: fits %d, why '%s'; expected %d with '%s'", ortkit_bundle_manifest(b)->name,
                 host_name, got, why, fits, want);
    ortkit_host_free(h);
}

static void test_fatbin_layouts(void **state)
{
    (void)state;
    size_t size;
    char *data = slurp(SEEDS "valid_cuda12_sass_ptx.bin", &size);
    ortkit__fatbin f;
    char name[32];
    assert_int_equal(ortkit__fatbin_parse(&f, (const unsigned char *)data, size), 0);
    assert_int_equal(f.sass_count, 3);
    assert_string_equal(ortkit__gpu_target_name(&f.sass[2], 0, name, sizeof name), "sm_80");
    assert_int_equal(f.ptx_count, 3);
    assert_string_equal(ortkit__gpu_target_name(&f.ptx[0], 1, name, sizeof name), "compute_60");
    assert_int_equal(f.ptx_isa, 82);
    assert_int_equal(f.compressed, 3);
    free(data);

    int found = 0;
    assert_int_equal(ortkit__fatbin_read(&f, &found, SEEDS "elf_file_cuda13.bin"), 0);
    assert_true(found);
    assert_int_equal(f.sass_count, 3);
    assert_string_equal(ortkit__gpu_target_name(&f.sass[1], 0, name, sizeof name), "sm_90a");
    assert_string_equal(ortkit__gpu_target_name(&f.sass[2], 0, name, sizeof name), "sm_120a");
    assert_int_equal(f.ptx_count, 0);

    data = slurp(SEEDS "bad_entry_payload.bin", &size);
    assert_int_equal(ortkit__fatbin_parse(&f, (const unsigned char *)data, size), ORTKIT_E_FORMAT);
    assert_non_null(strstr(ortkit_error_last(), "leave its fat binary"));
    free(data);

    /* A library without CUDA code: found 0, no error. */
    assert_int_equal(ortkit__fatbin_read(&f, &found, "/proc/self/exe"), 0);
    assert_false(found);
}

static void test_target_names(void **state)
{
    (void)state;
    ortkit__gpu_target t;
    assert_int_equal(ortkit__gpu_target_parse(&t, "sm_100f", 0), 0);
    assert_int_equal(t.sm, 100);
    assert_int_equal(t.suffix, 'f');
    assert_int_equal(ortkit__gpu_target_parse(&t, "compute_80", 1), 0);
    static const char *const bad[] = {"sm_9", "sm_090", "sm_90x", "compute_90a", "sm_", "sm_1000", "sm90"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(ortkit__gpu_target_parse(&t, bad[i], strncmp(bad[i], "compute", 7) == 0), -1);
}

static void test_real_manifests(void **state)
{
    (void)state;
    ortkit_bundle *b = release(R1192, 0);
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    assert_true(m->gpu_known);
    assert_int_equal(m->gpu_cuda, 12020);
    assert_int_equal(m->cuda, 12020);
    assert_int_equal(m->gpu_cudnn, 9);
    assert_string_equal(m->gpu_min_driver, "525.60.13");
    assert_string_equal(m->gpu_ptx_driver, "535.54.03");
    assert_int_equal(m->gpu_sass_count, 5);
    assert_string_equal(m->gpu_sass[4], "sm_80");
    assert_int_equal(m->gpu_ptx_count, 5);
    assert_int_equal(m->gpu_library_count, 5);
    assert_string_equal(m->gpu_libraries[2].soname, "libcudart.so.12");
    assert_string_equal(m->gpu_libraries[2].version, "12.4.127");
    assert_false(m->gpu_complete);
    assert_int_equal(m->gpu_missing_count, 1);
    assert_string_equal(m->gpu_missing[0], "libcudnn.so.9: cuDNN 9 for CUDA 12");
    ortkit_bundle_free(b);

    b = release(R129, 0);
    m = ortkit_bundle_manifest(b);
    assert_int_equal(m->gpu_cuda, 13000);
    assert_string_equal(m->gpu_ptx_driver, "");
    assert_int_equal(m->gpu_sass_count, 6);
    assert_string_equal(m->gpu_sass[4], "sm_90a");
    assert_string_equal(m->gpu_sass[5], "sm_120a");
    assert_int_equal(m->gpu_ptx_count, 0);
    assert_int_equal(m->gpu_missing_count, 6);
    ortkit_bundle_free(b);
}

/* A manifest whose gpu key is text: refused with msg in the error. */
static void refused(const char *gpu, const char *msg)
{
    char json[2048];
    snprintf(json, sizeof json,
             "{\"schema\": 1, \"name\": \"g\", \"onnxruntime\": {\"version\": \"1.19.2\", "
             "\"api_level\": 19}, \"variant\": \"cuda12\", \"requires\": {\"arch\": \"x86_64\", "
             "\"cpu_features\": [], \"cuda\": null, \"compute_capability\": null, \"exact_sm_only\": "
             "false, \"jetson\": false, \"min_driver\": null}, \"library\": \"lib/libonnxruntime.so.1\", "
             "\"files\": [{\"path\": \"lib/libonnxruntime.so.1\", \"size\": 1, \"sha256\": \"%064d\"}], "
             "\"gpu\": %s}", 0, gpu);
    ortkit_bundle *b = NULL;
    int rc = ortkit_bundle_parse(&b, json, strlen(json));
    if (rc != ORTKIT_E_FORMAT || !strstr(ortkit_error_last(), msg))
        fail_msg("gpu %s: rc %d, '%s'; expected '%s'", gpu, rc, ortkit_error_last(), msg);
    ortkit_bundle_free(b);
}

#define GPU_OK_HEAD "\"cuda\": \"12.2\", \"cudnn\": 9, \"min_driver\": \"525.60.13\", \"ptx_driver\": null, "

static void test_manifest_strict(void **state)
{
    (void)state;
    refused("[]", "'gpu' must be an object");
    refused("{\"cuda\": \"12\", \"cudnn\": 9, \"min_driver\": \"525.60.13\", \"complete\": true}",
            "gpu.cuda '12' is not a CUDA version");
    refused("{" GPU_OK_HEAD "\"sass\": [\"sm_8\"], \"complete\": true}", "'gpu.sass' must hold GPU targets");
    refused("{" GPU_OK_HEAD "\"sass\": [\"sm_80\", \"sm_80\"], \"complete\": true}", "names 'sm_80' twice");
    refused("{" GPU_OK_HEAD "\"missing\": [\"libcudnn.so.9: x\"], \"complete\": true}",
            "gpu.complete is true and gpu.missing has 1 entries");
    refused("{" GPU_OK_HEAD "\"complete\": true, \"extra\": 1}", "extra");
    refused("{" GPU_OK_HEAD "\"libraries\": [{\"soname\": \"libcudart.so.12\", \"version\": \"12.4\", "
            "\"path\": \"lib/libcudart.so.12\", \"sha256\": \"%064d\"}], \"complete\": true}",
            "sha256 must be 64 lowercase hex digits");
    refused("{" GPU_OK_HEAD "\"libraries\": [{\"soname\": \"libcudart.so.12\", \"version\": \"12.4\", "
            "\"path\": \"lib/../x\", \"sha256\": \"" "0000000000000000000000000000000000000000000000000000000000000000"
            "\"}], \"complete\": true}", "must be lib/ and its soname");
    refused("{\"cuda\": \"12.2\", \"cudnn\": 9, \"min_driver\": \"new\", \"complete\": true}",
            "is not a driver version");
}

/* The 1.29.0 release's manifest as if imported as variant (what `ortkit
 * build` does with a CUDA build): parsed, or refused with msg. */
static void as_variant(const char *variant, const char *msg)
{
    size_t size;
    char *json = slurp(R129, &size), *out = NULL;
    static const char vkey[] = "\"variant\":\t\"cuda13\"", fkey[] = "\"cpu_features\":\t[]";
    char *v = strstr(json, vkey), *f = strstr(json, fkey);
    assert_non_null(v);
    assert_non_null(f);
    assert_true(v < f);
    char *after_v = v + sizeof vkey - 1, *after_f = f + sizeof fkey - 1;
    assert_true(asprintf(&out, "%.*s\"variant\": \"%s\"%.*s\"cpu_features\": [\"avx\", \"avx2\", \"fma\"]%s",
                         (int)(v - json), json, variant, (int)(f - after_v), after_v, after_f) > 0);
    ortkit_bundle *b = NULL;
    int rc = ortkit_bundle_parse(&b, out, strlen(out));
    if (msg ? rc != ORTKIT_E_FORMAT || !strstr(ortkit_error_last(), msg) : rc != 0)
        fail_msg("as %s: rc %d, '%s'; expected '%s'", variant, rc, ortkit_error_last(),
                 msg ? msg : "no error");
    if (!msg) {
        const ortkit_manifest *m = ortkit_bundle_manifest(b);
        assert_string_equal(m->variant, variant);
        assert_true(m->gpu_known);
        assert_int_equal(m->cuda, 13000);
        assert_int_equal(m->sm, 0);
    }
    ortkit_bundle_free(b);
    free(out);
    free(json);
}

/* A variant's name holds only where the binaries bear it out: its CUDA
 * major and SASS for its GPU in "gpu", its CPU features in "requires". */
static void test_variant_with_evidence(void **state)
{
    (void)state;
    as_variant("cuda13.0-sm90-avx2", NULL);
    as_variant("cuda13.0-sm120-avx2", NULL);
    as_variant("cuda13.0-sm100-avx2", "does not match variant cuda13.0-sm100-avx2");
    as_variant("cuda12.9-sm90-avx2", "does not match variant cuda12.9-sm90-avx2");
    as_variant("cpu-avx2", "does not match variant cpu-avx2");
    as_variant("cuda13.0-sm90-avx512", "does not match variant cuda13.0-sm90-avx512");
}

static void test_fit_cuda13_release(void **state)
{
    (void)state;
    ortkit_bundle *b = release(R129, 1);
    judge(b, "h100-580", 1, "");
    judge(b, "t4-535", 0, "needs a driver for CUDA 13 (>= 580.65.06); the driver runs CUDA 12.2, driver 535.183.01");
    judge(b, "rtx5090-570", 0, "needs a driver for CUDA 13 (>= 580.65.06); the driver runs CUDA 12.8");
    judge(b, "rtx5090", 1, ""); /* driver 580: sm_120a is exactly SM 12.0 */
    judge(b, "h100-server", 0, "driver runs CUDA 12.8");
    judge(b, "sapphire-rapids", 0, "this host has no NVIDIA GPU");
    /* The overrides stand in for detection. */
    setenv("ORTKIT_FORCE_CUDA", "13.0", 1);
    judge(b, "rtx5090-570", 1, "");
    judge(b, "t4-535", 1, ""); /* sm_75 */
    setenv("ORTKIT_FORCE_SM", "87", 1);
    judge(b, "sapphire-rapids", 1, ""); /* sm_86 SASS runs on 8.7 */
    setenv("ORTKIT_FORCE_SM", "100", 1);
    judge(b, "t4-535", 0, "SM 10.0) runs none of its code: sm_75 sm_80 sm_86 sm_89 sm_90a sm_120a");
    setenv("ORTKIT_FORCE_SM", "121", 1); /* sm_120a is for 12.0 only */
    judge(b, "t4-535", 0, "SM 12.1) runs none of its code");
    setenv("ORTKIT_FORCE_SM", "75,90", 1);
    judge(b, "t4-535", 1, "");
    setenv("ORTKIT_FORCE_SM", "9.0", 1);
    judge(b, "t4-535", 0, "ORTKIT_FORCE_SM='9.0' is not a list");
    unsetenv("ORTKIT_FORCE_SM");
    unsetenv("ORTKIT_FORCE_CUDA");
    ortkit_bundle_free(b);

    /* Not completed: the libraries it lacks, once the GPU would run it. */
    b = release(R129, 0);
    judge(b, "h100-580", 0, "lacks 6 CUDA libraries (libcublas.so.13: cuBLAS of CUDA 13, ...); add them "
                            "with 'ortkit bundle complete'");
    ortkit_bundle_free(b);
}

static void test_fit_cuda12_release(void **state)
{
    (void)state;
    ortkit_bundle *b = release(R1192, 1);
    judge(b, "t4-535", 1, "");           /* sm_75 SASS */
    judge(b, "old-driver-3090", 1, "");  /* sm_80 SASS runs on 8.6; 525 is the 12.x floor */
    judge(b, "h100-580", 1, "GPU 0 (NVIDIA H100 80GB HBM3, SM 9.0) has no SASS in it and runs its "
                            "PTX (compute_80) through JIT compilation: it costs start-up");
    judge(b, "rtx5090-570", 1, "runs its PTX (compute_80) through JIT");
    /* PTX 8.2 needs CUDA 12.2's driver to JIT. */
    setenv("ORTKIT_FORCE_SM", "90", 1);
    judge(b, "old-driver-3090", 0, "has no SASS here and its PTX (compute_80) needs driver >= 535.54.03 to JIT");
    unsetenv("ORTKIT_FORCE_SM");
    ortkit_bundle_free(b);

    b = release(R1192, 0); /* the real one: no cuDNN for CUDA 12 to be had */
    judge(b, "t4-535", 0, "lacks 1 CUDA library (libcudnn.so.9: cuDNN 9 for CUDA 12); add it with");
    ortkit_bundle_free(b);
}

/* Every visible GPU must run the bundle; CUDA_VISIBLE_DEVICES narrows them. */
static void test_multi_gpu_policy(void **state)
{
    (void)state;
    static const char json[] =
        "{\"schema\": 1, \"arch\": \"x86_64\", \"nvidia\": {\"driver\": \"580.65.06\", \"cuda\": "
        "\"13.0\", \"gpus\": [{\"name\": \"Tesla T4\", \"compute_capability\": \"7.5\"}, "
        "{\"name\": \"Tesla P100\", \"compute_capability\": \"6.0\"}]}}";
    ortkit_host *h = NULL;
    assert_int_equal(ortkit_host_from_json(&h, json), 0);
    ortkit_bundle *b = release(R129, 1);
    char why[256];
    assert_int_equal(ortkit__gpu_fits(ortkit_bundle_manifest(b), h, why, sizeof why), 0);
    assert_non_null(strstr(why, "GPU 1 (Tesla P100, SM 6.0) runs none of its code"));
    assert_non_null(strstr(why, "every visible GPU must run it"));
    setenv("CUDA_VISIBLE_DEVICES", "0", 1);
    assert_int_equal(ortkit__gpu_fits(ortkit_bundle_manifest(b), h, why, sizeof why), 1);
    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    assert_int_equal(ortkit__gpu_fits(ortkit_bundle_manifest(b), h, why, sizeof why), 0);
    assert_string_equal(why, "CUDA_VISIBLE_DEVICES hides every GPU");
    unsetenv("CUDA_VISIBLE_DEVICES");
    ortkit_bundle_free(b);
    ortkit_host_free(h);
}

/* Selection ranks the releases that fit: a GPU build first, then the newest. */
static void test_select_releases(void **state)
{
    (void)state;
    ortkit_bundle *b[2] = {release(R1192, 1), release(R129, 1)};
    static const struct {
        const char *host;
        size_t index;
    } cases[] = {{"h100-580", 1}, {"t4-535", 0}, {"rtx5090-570", 0}, {"rtx5090", 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ortkit_host *h = host(cases[i].host);
        ortkit_bundle_choice *c = NULL;
        assert_int_equal(ortkit_bundle_select(&c, h, (const ortkit_bundle *const *)b, 2, NULL), 0);
        if (c->index != cases[i].index)
            fail_msg("%s chose %zu: %s", cases[i].host, c->index, c->reason);
        ortkit_bundle_choice_free(c);
        ortkit_host_free(h);
    }
    ortkit_host *h = host("jetson-orin");
    ortkit_bundle_choice *c = NULL;
    assert_int_equal(ortkit_bundle_select(&c, h, (const ortkit_bundle *const *)b, 2, NULL),
                     ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_non_null(strstr(ortkit_bundle_choice_verdict(c, 1)->why, "built for x86_64; this host is aarch64"));
    ortkit_bundle_choice_free(c);
    ortkit_host_free(h);
    ortkit_bundle_free(b[0]);
    ortkit_bundle_free(b[1]);
}

/* A described host that lists its libraries: the system's, CUDA 13's
 * user-space libraries, the driver's; with an H100 on driver 580, or none. */
#define SYS_LIBS "\"ld-linux-x86-64.so.2\", \"libc.so.6\", \"libdl.so.2\", \"libgcc_s.so.1\", " \
    "\"libm.so.6\", \"libpthread.so.0\", \"librt.so.1\", \"libstdc++.so.6\""
#define CUDA13_LIBS ", \"libcublas.so.13\", \"libcublasLt.so.13\", \"libcudart.so.13\", " \
    "\"libcurand.so.10\", \"libcufft.so.12\", \"libcudnn.so.9\""
#define DRIVER_LIB ", \"libcuda.so.1\""

static ortkit_host *listed_host(const char *libs, int gpu)
{
    char json[2048];
    snprintf(json, sizeof json,
             "{\"schema\": 1, \"arch\": \"x86_64\", \"os\": {\"glibc\": \"2.36\", \"glibcxx\": "
             "\"3.4.30\", \"libraries\": [%s]}, \"nvidia\": {\"driver\": \"%s\", \"cuda\": \"%s\", "
             "\"gpus\": [%s]}}", libs, gpu ? "580.65.06" : "", gpu ? "13.0" : "",
             gpu ? "{\"name\": \"NVIDIA H100 PCIe\", \"compute_capability\": \"9.0\"}" : "");
    ortkit_host *h = NULL;
    if (ortkit_host_from_json(&h, json) != 0)
        fail_msg("host: %s", ortkit_error_last());
    return h;
}

/* The verdict of bundle i among b on h: fits, the step, and why holds want. */
static void verdict(ortkit_bundle **b, size_t n, ortkit_host *h, size_t i, int fits,
                    const char *step, const char *want, size_t chosen)
{
    ortkit_bundle_choice *c = NULL;
    int rc = ortkit_bundle_select(&c, h, (const ortkit_bundle *const *)b, n, NULL);
    assert_non_null(c);
    const ortkit_bundle_verdict *v = ortkit_bundle_choice_verdict(c, i);
    if (v->fits != fits || strcmp(v->step, step) || !strstr(v->why, want) || c->index != chosen)
        fail_msg("bundle %zu: fits %d, step '%s', why '%s', chose %zu (rc %d: %s); expected %d, '%s', "
                 "'%s', %zu", i, v->fits, v->step, v->why, c->index, rc, c->reason, fits, step, want,
                 chosen);
    ortkit_bundle_choice_free(c);
    ortkit_host_free(h);
}

/* Each provider's needs are its own: the accelerator the host asks for
 * makes its provider's hard, the others only leave their provider out. */
static void test_select_parts(void **state)
{
    (void)state;
    ortkit_bundle *b[2] = {release(R129_NOW, 1), NULL};
    const ortkit_manifest *m = ortkit_bundle_manifest(b[0]);
    assert_int_equal(m->part_count, 3);
    assert_string_equal(m->parts[0]->name, "core");
    assert_string_equal(m->parts[1]->name, "CUDAExecutionProvider");
    assert_string_equal(m->parts[2]->name, "TensorrtExecutionProvider");

    /* A GPU host without TensorRT: CUDA it is, TensorRT is left out. */
    verdict(b, 1, listed_host(SYS_LIBS CUDA13_LIBS DRIVER_LIB, 1), 0, 1, "",
            "TensorrtExecutionProvider unavailable: needs libnvinfer.so.10, libnvonnxparser.so.10, "
            "not in the bundle, not on this host", 0);
    /* A GPU host whose driver library is missing: CUDA cannot run, and CUDA is what it asks for. */
    verdict(b, 1, listed_host(SYS_LIBS CUDA13_LIBS, 1), 0, 0, "accelerator",
            "CUDAExecutionProvider needs libcuda.so.1, not in the bundle, not on this host",
            ORTKIT_BUNDLE_NONE);
    /* No GPU, no driver, no CUDA: the core serves the CPU. */
    verdict(b, 1, listed_host(SYS_LIBS, 0), 0, 1, "",
            "for its CPU only: CUDAExecutionProvider unavailable (this host has no NVIDIA GPU); "
            "TensorrtExecutionProvider unavailable: needs libcublas.so.13", 0);
    /* ... after any CPU build, even an older ONNX Runtime. */
    size_t size;
    char *json = slurp(R130_CPU, &size);
    assert_int_equal(ortkit_bundle_parse(&b[1], json, size), 0);
    free(json);
    verdict(b, 2, listed_host(SYS_LIBS, 0), 1, 1, "accelerator",
            "", 1);
    ortkit_bundle_choice *c = NULL;
    ortkit_host *h = listed_host(SYS_LIBS, 0);
    assert_int_equal(ortkit_bundle_select(&c, h, (const ortkit_bundle *const *)b, 2, NULL), 0);
    assert_non_null(strstr(ortkit_bundle_choice_verdict(c, 1)->order,
                           "a CPU build; a GPU build that serves this host with its CPU only, such as "
                           "ort-1.29.0-cuda13, comes after it"));
    ortkit_bundle_choice_free(c);
    ortkit_host_free(h);
    /* On the GPU host the GPU build comes first. */
    verdict(b, 2, listed_host(SYS_LIBS CUDA13_LIBS DRIVER_LIB, 1), 0, 1, "accelerator", "", 0);
    ortkit_bundle_free(b[0]);

    /* A manifest of the previous version (no parts) still reads, and is
     * judged as before: every file's needs together. */
    b[0] = release(R129, 1);
    assert_int_equal(ortkit_bundle_manifest(b[0])->part_count, 0);
    verdict(b, 1, listed_host(SYS_LIBS, 0), 0, 0, "loadable",
            "needs libcublas.so.13, libcublasLt.so.13, libcuda.so.1, libcudart.so.13 and 4 more",
            ORTKIT_BUNDLE_NONE);
    ortkit_bundle_free(b[0]);
    ortkit_bundle_free(b[1]);
}

/* An aarch64 GPU release's manifest: its CUDA, jetson flag, gpu.platform
 * (NULL: none, as before ortkit told SBSA from L4T) and SASS, complete. */
static int arm_release(ortkit_bundle **b, const char *cuda, int jetson, const char *platform,
                       const char *sass)
{
    char json[2048], key[64] = "";
    if (platform)
        snprintf(key, sizeof key, "\"platform\": \"%s\", ", platform);
    snprintf(json, sizeof json,
             "{\"schema\": 1, \"name\": \"g-%s\", \"onnxruntime\": {\"version\": \"1.20.0\", "
             "\"api_level\": 20}, \"variant\": \"cuda%.2s\", \"requires\": {\"arch\": \"aarch64\", "
             "\"cpu_features\": [], \"cuda\": null, \"compute_capability\": null, \"exact_sm_only\": "
             "false, \"jetson\": %s, \"min_driver\": null}, \"library\": \"lib/libonnxruntime.so.1\", "
             "\"files\": [{\"path\": \"lib/libonnxruntime.so.1\", \"size\": 1, \"sha256\": \"%064d\"}], "
             "\"gpu\": {\"cuda\": \"%s\", %s\"cudnn\": 9, \"min_driver\": \"525.60.13\", "
             "\"ptx_driver\": null, \"sass\": [%s], \"ptx\": [], \"needs\": [], \"libraries\": [], "
             "\"missing\": [], \"complete\": true}}",
             platform ? platform : "none", cuda, jetson ? "true" : "false", 0, cuda, key, sass);
    *b = NULL;
    return ortkit_bundle_parse(b, json, strlen(json));
}

/* gpu.platform: read strictly, written for arm64 where it decides, and
 * never letting one platform's release reach the other's host. */
static void test_platform_releases(void **state)
{
    (void)state;
    ortkit_bundle *l4t = NULL, *sbsa = NULL, *old = NULL, *bad = NULL;
    assert_int_equal(arm_release(&l4t, "12.6", 1, "l4t", "\"sm_87\""), 0);
    assert_int_equal(ortkit_bundle_manifest(l4t)->cuda_platform, ORTKIT_CUDA_PLATFORM_L4T);
    assert_int_equal(arm_release(&sbsa, "13.0", 0, "sbsa", "\"sm_90\", \"sm_110\""), 0);
    assert_int_equal(ortkit_bundle_manifest(sbsa)->cuda_platform, ORTKIT_CUDA_PLATFORM_SBSA);
    assert_int_equal(arm_release(&old, "12.6", 0, NULL, "\"sm_87\""), 0);
    assert_int_equal(ortkit_bundle_manifest(old)->cuda_platform, ORTKIT_CUDA_PLATFORM_UNKNOWN);

    assert_int_equal(arm_release(&bad, "12.6", 0, "l4t", "\"sm_87\""), ORTKIT_E_FORMAT);
    assert_error_has("gpu.platform 'l4t' and requires.jetson false disagree");
    assert_int_equal(arm_release(&bad, "12.6", 1, "sbsa", "\"sm_87\""), ORTKIT_E_FORMAT);
    assert_error_has("gpu.platform 'sbsa' and requires.jetson true disagree");
    assert_int_equal(arm_release(&bad, "12.6", 0, "x86_64", "\"sm_87\""), ORTKIT_E_FORMAT);
    assert_error_has("gpu.platform 'x86_64' is not a platform of aarch64");
    assert_int_equal(arm_release(&bad, "12.6", 0, "jetson", "\"sm_87\""), ORTKIT_E_FORMAT);
    assert_error_has("gpu.platform 'jetson' is not \"x86_64\", \"sbsa\" or \"l4t\"");
    refused("{\"cuda\": \"12.2\", \"platform\": \"sbsa\", \"cudnn\": 9, \"min_driver\": \"525.60.13\", "
            "\"complete\": true}", "gpu.platform 'sbsa' is not a platform of x86_64");

    /* Written back for arm64 only: an x86_64 manifest reads as before. */
    char *text = NULL;
    assert_int_equal(ortkit__bundle_to_json(&text, ortkit_bundle_manifest(l4t)), 0);
    assert_non_null(strstr(text, "\"platform\":\t\"l4t\""));
    assert_non_null(strstr(text, "\"jetson\":\ttrue"));
    free(text);
    ortkit_bundle *x86 = release(R129, 1);
    assert_int_equal(ortkit__bundle_to_json(&text, ortkit_bundle_manifest(x86)), 0);
    assert_null(strstr(text, "\"platform\""));
    assert_int_equal(ortkit_bundle_manifest(x86)->cuda_platform, ORTKIT_CUDA_PLATFORM_X86_64);
    free(text);
    ortkit_bundle_free(x86);

    /* Each host takes its own platform's release; the other is refused at
     * the first step, with both platforms named. */
    ortkit_bundle *b[3] = {l4t, sbsa, old};
    verdict(b, 3, host("jetson-orin"), 0, 1, "", "", 0);
    verdict(b, 3, host("jetson-orin"), 1, 0, "architecture",
            "built for NVIDIA's SBSA CUDA (arm64 servers, and Jetson from JetPack 7); this host takes "
            "Jetson's L4T CUDA (JetPack 6, L4T R36.4.3)", 0);
    verdict(b, 3, host("jetson-thor"), 0, 0, "architecture",
            "built for Jetson's L4T CUDA (JetPack 6); this host takes NVIDIA's SBSA CUDA (a Jetson on "
            "JetPack 7, L4T R38.2.0)", 1);
    verdict(b, 3, host("grace-gh200"), 0, 0, "architecture",
            "built for Jetson's L4T CUDA (JetPack 6); this host takes NVIDIA's SBSA CUDA (arm64, not a "
            "Jetson)", 1);
    verdict(b, 3, host("grace-gh200"), 2, 0, "architecture",
            "its manifest does not say which CUDA it is built with, NVIDIA's SBSA CUDA or Jetson's L4T "
            "CUDA (imported before ortkit told them apart); import it again with --platform sbsa or "
            "--platform l4t", 1);
    /* Not even for its CPU: a Graviton without GPU does not take Orin's release. */
    verdict(b, 3, host("graviton3"), 0, 0, "architecture", "built for Jetson's L4T CUDA", 1);
    ortkit_bundle_free(l4t);
    ortkit_bundle_free(sbsa);
    ortkit_bundle_free(old);
}

int main(void)
{
    unsetenv("ORTKIT_FORCE_SM");
    unsetenv("ORTKIT_FORCE_CUDA");
    unsetenv("CUDA_VISIBLE_DEVICES");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fatbin_layouts),  cmocka_unit_test(test_target_names),
        cmocka_unit_test(test_real_manifests),  cmocka_unit_test(test_manifest_strict),
        cmocka_unit_test(test_variant_with_evidence),
        cmocka_unit_test(test_fit_cuda13_release), cmocka_unit_test(test_fit_cuda12_release),
        cmocka_unit_test(test_multi_gpu_policy), cmocka_unit_test(test_select_releases),
        cmocka_unit_test(test_select_parts), cmocka_unit_test(test_platform_releases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
