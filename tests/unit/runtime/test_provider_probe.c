/* test_provider_probe.c - the GPU provider probe's answer in words, the EP
 * devices, and a provider check that needs no probe. */
#include "testutil.h"

#include "provider_probe.h"

static ortkit__probe_request request(int cuda_major)
{
    ortkit__probe_request r = {.ort_name = "CUDAExecutionProvider",
                               .provider_path = "/b/libonnxruntime_providers_cuda.so",
                               .cuda_major = cuda_major};
    snprintf(r.provider_dir, sizeof r.provider_dir, "/b");
    return r;
}

#define assert_has(text, part)                                                               \
    do {                                                                                     \
        if (!strstr((text), (part)))                                                         \
            fail_msg("'%s' lacks '%s'", (text), (part));                                     \
    } while (0)

static void diagnose_ok(void **state)
{
    (void)state;
    ortkit__probe_request r = request(13);
    ortkit__probe_verdict v = {0};
    ortkit__probe_diagnose(&r, "stage\tlibraries\nstage\tprovider\nok\tCUDAExecutionProvider\n", 0,
                           0, 60, &v);
    assert_int_equal(v.usable, 1);
    assert_string_equal(v.reason, "");
}

/* Both kernel modules' wordings, as /proc/driver/nvidia/version has them. */
static void driver_version_wordings(void **state)
{
    (void)state;
    char v[64];
    ortkit__driver_version_parse(v, sizeof v, "NVRM version: NVIDIA UNIX x86_64 Kernel Module  "
                                 "580.65.06  Sun Jul 27 07:09:35 UTC 2025\nGCC version:  gcc 12.2.0\n");
    assert_string_equal(v, "580.65.06");
    ortkit__driver_version_parse(v, sizeof v, "NVRM version: NVIDIA UNIX Open Kernel Module for "
                                 "x86_64  580.159.04  Release Build  (nixbld@)  \nGCC version:  "
                                 "gcc version 15.3.0 (GCC) \n");
    assert_string_equal(v, "580.159.04");
    ortkit__driver_version_parse(v, sizeof v, "NVRM version: NVIDIA UNIX Open Kernel Module for "
                                 "aarch64  570.124.06  Release Build\n");
    assert_string_equal(v, "570.124.06");
    ortkit__driver_version_parse(v, sizeof v, "NVRM version: garbled\nGCC version: 12.2.0\n");
    assert_string_equal(v, "");
    ortkit__driver_version_parse(v, sizeof v, "");
    assert_string_equal(v, "");
}

/* A probe that ran the model is believed, whatever the floor table says. */
static void diagnose_ok_outranks_floor(void **state)
{
    (void)state;
    ortkit__probe_request r = request(13);
    ortkit__probe_verdict v = {0};
    ortkit__probe_diagnose(&r, "need\tlibcuda.so.1\tok\t/nonexistent/libcuda.so.1\n"
                           "stage\tprovider\nok\tCUDAExecutionProvider\n", 0, 0, 60, &v);
    assert_int_equal(v.usable, 1);
    assert_string_equal(v.reason, "");
}

static void diagnose_missing(void **state)
{
    (void)state;
    ortkit__probe_request r = request(12);
    ortkit__probe_verdict v = {0};
    ortkit__probe_diagnose(&r,
                           "need\tlibcublasLt.so.12\tmissing\tlibcublasLt.so.12: cannot open\n"
                           "need\tlibcuda.so.1\tmissing\tlibcuda.so.1: cannot open\n"
                           "cudnn\t-\tmissing\tlibcudnn.so.9: cannot open\n"
                           "stage\tprovider\nfail\tprovider\tFailed to load library\n",
                           1, 0, 60, &v);
    assert_int_equal(v.usable, 0);
    assert_has(v.reason, "libcublasLt.so.12 (cuBLASLt for CUDA 12) not found");
    assert_has(v.reason, "Debian's libcublaslt12 or pip's nvidia-cublas-cu12");
    assert_has(v.reason, "libcuda.so.1 is not installed");
    assert_has(v.reason, "525.60.13 or newer");
    assert_has(v.reason, "libcudnn.so.9 (cuDNN 9 for CUDA 12) not found");
    assert_string_equal(v.detail, "Failed to load library");

    /* No libcuda: the CUDA runtime calls that an insufficient driver, and
     * the reason says what is missing, not that a driver is too old (seen
     * with a CUDA 13 build on a machine without a GPU). */
    r = request(13);
    ortkit__probe_diagnose(&r,
                           "need\tlibcuda.so.1\tmissing\tlibcuda.so.1: cannot open\n"
                           "stage\tprovider\nfail\tprovider\tCUDA failure 35: CUDA driver version "
                           "is insufficient for CUDA runtime version\n",
                           1, 0, 60, &v);
    assert_int_equal(v.usable, 0);
    assert_has(v.reason, "libcuda.so.1 is not installed");
    assert_has(v.reason, "580.65.06 or newer");
    if (strstr(v.reason, "too old"))
        fail_msg("'%s' calls a missing driver too old", v.reason);
    assert_has(v.detail, "CUDA failure 35");
}

static void diagnose_cudnn_major(void **state)
{
    (void)state;
    ortkit__probe_request r = request(12);
    ortkit__probe_verdict v = {0};
    ortkit__probe_diagnose(&r, "cudnn\t/opt/cuda-13/lib/libcudnn.so.9\t13010\t91900\nok\tx\n", 0, 0,
                           60, &v);
    assert_int_equal(v.usable, 0);
    assert_has(v.reason, "libcudnn.so.9 resolved through the ld cache to /opt/cuda-13/lib/libcudnn.so.9");
    assert_has(v.reason, "a cuDNN 9.19 built for CUDA 13");
    assert_has(v.reason, "needs a cuDNN 9 built for CUDA 12");
    /* The same cuDNN for the right major is fine. */
    r = request(13);
    ortkit__probe_diagnose(&r, "cudnn\t/opt/cuda-13/lib/libcudnn.so.9\t13010\t91900\nok\tx\n", 0, 0,
                           60, &v);
    assert_int_equal(v.usable, 1);
}

static void diagnose_crash_hang_device(void **state)
{
    (void)state;
    ortkit__probe_request r = request(13);
    ortkit__probe_verdict v = {0};
    ortkit__probe_diagnose(&r, "stage\tlibraries\nstage\truntime\nstage\tprovider\n", 128 + 11, 0, 60,
                           &v);
    assert_int_equal(v.usable, 0);
    assert_has(v.reason, "the provider crashed while loading (signal 11, SIGSEGV, provider stage)");
    ortkit__probe_diagnose(&r, "stage\tprovider\n", 128 + 9, 1, 5, &v);
    assert_has(v.reason, "the probe did not finish within 5 s");
    ortkit__probe_diagnose(&r, "stage\tprovider\nfail\tprovider\tx.cc:1 sig CUDA failure 100: no "
                           "CUDA-capable device is detected ; GPU=-1\n", 1, 0, 60, &v);
    assert_has(v.reason, "no CUDA-capable device is detected");
    assert_has(v.detail, "CUDA failure 100:");
    assert_true(strncmp(v.detail, "x.cc", 4) != 0); /* ORT's signatures are left out */
    /* Silence is not a verdict. */
    ortkit__probe_diagnose(&r, "", 3, 0, 60, &v);
    assert_int_equal(v.usable, 0);
    assert_has(v.reason, "the probe failed (exit status 3");
}

static void ep_devices(void **state)
{
    (void)state;
    ortkit_runtime *rt = open_runtime(ORTKIT_TEST_RUNTIME_NEW);
    ortkit_ep_devices *list = NULL;
    assert_int_equal(ortkit_runtime_ep_devices(&list, rt), 0);
    int cpu = 0;
    for (size_t i = 0; i < ortkit_ep_devices_count(list); i++) {
        const ortkit_ep_device *d = ortkit_ep_devices_get(list, i);
        cpu |= !strcmp(d->ep_name, "CPUExecutionProvider") && !strcmp(d->device_type, "cpu");
    }
    assert_true(cpu);
    assert_null(ortkit_ep_devices_get(list, ortkit_ep_devices_count(list)));
    ortkit_ep_devices_free(list);
    ortkit_runtime_free(rt);

    rt = open_runtime(ORTKIT_TEST_RUNTIME_OLD); /* 1.17: before EP devices */
    assert_int_equal(ortkit_runtime_ep_devices(&list, rt), 0);
    assert_int_equal(ortkit_ep_devices_count(list), 0);
    ortkit_ep_devices_free(list);
    ortkit_runtime_free(rt);
    ortkit_ep_devices_free(NULL);
}

static void provider_check(void **state)
{
    (void)state;
    ortkit_runtime *rt = open_runtime(ORTKIT_TEST_RUNTIME_NEW);
    ortkit_provider_status *ps = NULL;
    assert_int_equal(ortkit_runtime_provider_check(&ps, rt, "cuda"), 0);
    assert_int_equal(ps->active, 0);
    assert_string_equal(ps->name, "CUDAExecutionProvider");
#if defined(__aarch64__)
    /* Microsoft's linux/arm64 build lists no CUDA at all. */
    assert_string_equal(ps->method, "");
    assert_has(ps->reason, "was built without CUDAExecutionProvider");
#else
    assert_string_equal(ps->method, "bridge");
    assert_has(ps->reason, "libonnxruntime_providers_cuda.so is not beside it");
#endif
    ortkit_provider_status_free(ps);
    assert_int_equal(ortkit_runtime_provider_check(&ps, rt, "cpu"), 0);
    assert_int_equal(ps->active, 1);
    assert_string_equal(ps->probe, "");
    ortkit_provider_status_free(ps);
    assert_int_equal(ortkit_runtime_provider_check(&ps, rt, "openvino"), 0);
    assert_int_equal(ps->active, 0);
    assert_has(ps->reason, "built without OpenVINOExecutionProvider");
    ortkit_provider_status_free(ps);
    assert_int_equal(ortkit_runtime_provider_check(NULL, rt, "cuda"), ORTKIT_E_INVALID_ARG);
    ortkit_runtime_free(rt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(diagnose_ok),
        cmocka_unit_test(driver_version_wordings),
        cmocka_unit_test(diagnose_ok_outranks_floor),
        cmocka_unit_test(diagnose_missing),
        cmocka_unit_test(diagnose_cudnn_major),
        cmocka_unit_test(diagnose_crash_hang_device),
        cmocka_unit_test(ep_devices),
        cmocka_unit_test(provider_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
