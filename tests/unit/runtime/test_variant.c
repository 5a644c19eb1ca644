/* test_variant.c - the variant table: names, round trips, build flags, host fitness. */
#include "testutil.h"

#include "core.h"

#include <ctype.h>

#define HOSTS ORTKIT_TEST_SOURCE_DIR "/tests/hosts/"

/* The axes of the Flox matrix as its README states them (seed 001):
 * 7 SMs x 4 x86 ISAs + SM90 x 2 ARM ISAs, for CUDA 12.4 (python312) and
 * 12.9 (python313), and 6 CPU-only variants (python313). */
static const char *const flox_sms[] = {"75", "80", "86", "89", "90", "100", "120"};
static const char *const flox_x86[] = {"avx2", "avx512", "avx512bf16", "avx512vnni"};
static const char *const flox_arm[] = {"armv8_2", "armv9"};
static const char *const flox_cuda[][2] = {{"312", "12_4"}, {"313", "12_9"}};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const ortkit_variant *must_parse(const char *name)
{
    const ortkit_variant *v = NULL;
    if (ortkit_variant_parse(&v, name) != 0 || !v)
        fail_msg("'%s' does not parse: %s", name, ortkit_error_last());
    return v;
}

/* A variant's Flox name (two calls may be compared: the buffers alternate). */
static const char *flox_name(const ortkit_variant *v)
{
    static char buf[2][128];
    static int next;
    char *b = buf[next++ % 2];
    if (ortkit_variant_name(v, b, sizeof buf[0], ORTKIT_VARIANT_FLOX) != 0)
        fail_msg("%s: %s", v->name, ortkit_error_last());
    return b;
}

static int in_flox(const ortkit_variant *v)
{
    int rc = ortkit_variant_in_matrix(v, ORTKIT_VARIANT_FLOX);
    assert_true(rc == 0 || rc == 1);
    assert_int_equal(ortkit_variant_in_matrix(v, ORTKIT_VARIANT_CANONICAL), 1);
    return rc;
}

static void check_flox_name(const char *name, int *seen)
{
    const ortkit_variant *v = must_parse(name);
    assert_string_equal(flox_name(v), name);
    assert_int_equal(in_flox(v), 1);
    size_t i = 0;
    while (i < ortkit_variant_count() && ortkit_variant_get(i) != v)
        i++;
    assert_true(i < ortkit_variant_count());
    assert_int_equal(seen[i], 0); /* each expected name is its own row */
    seen[i] = 1;
}

static void test_flox_matrix_name_for_name(void **state)
{
    int seen[256] = {0};
    int expected = 0;
    char name[128];
    assert_true(ortkit_variant_count() < N(seen));

    const char *const cpu_isas[] = {"avx2", "avx512", "avx512bf16", "avx512vnni", "armv8_2",
                                    "armv9"};
    for (size_t i = 0; i < N(cpu_isas); i++, expected++) {
        snprintf(name, sizeof name, "onnxruntime-python313-cpu-%s", cpu_isas[i]);
        check_flox_name(name, seen);
    }
    for (size_t c = 0; c < N(flox_cuda); c++) {
        for (size_t s = 0; s < N(flox_sms); s++) {
            for (size_t i = 0; i < N(flox_x86); i++, expected++) {
                snprintf(name, sizeof name, "onnxruntime-python%s-cuda%s-sm%s-%s",
                         flox_cuda[c][0], flox_cuda[c][1], flox_sms[s], flox_x86[i]);
                check_flox_name(name, seen);
            }
        }
        for (size_t i = 0; i < N(flox_arm); i++, expected++) {
            snprintf(name, sizeof name, "onnxruntime-python%s-cuda%s-sm90-%s", flox_cuda[c][0],
                     flox_cuda[c][1], flox_arm[i]);
            check_flox_name(name, seen);
        }
    }
    assert_int_equal(expected, 66);

    /* ... and no other row claims to be in the matrix. */
    int flox_rows = 0;
    for (size_t i = 0; i < ortkit_variant_count(); i++) {
        flox_rows += in_flox(ortkit_variant_get(i));
        if (in_flox(ortkit_variant_get(i)))
            assert_int_equal(seen[i], 1);
    }
    assert_int_equal(flox_rows, 66);
    assert_int_equal(ortkit_variant_in_matrix(NULL, ORTKIT_VARIANT_FLOX), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_variant_in_matrix(ortkit_variant_get(0), (ortkit_variant_form)7),
                     ORTKIT_E_INVALID_ARG);
    /* Only the table's own rows have names in other forms. */
    ortkit_variant copy = *ortkit_variant_get(0);
    char buf[128];
    assert_int_equal(ortkit_variant_in_matrix(&copy, ORTKIT_VARIANT_FLOX), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_variant_name(&copy, buf, sizeof buf, ORTKIT_VARIANT_FLOX),
                     ORTKIT_E_INVALID_ARG);

    /* The examples the Flox documents give. */
    assert_string_equal(must_parse("onnxruntime-python313-cuda12_9-sm90-avx512")->name,
                        "cuda12.9-sm90-avx512");
    assert_string_equal(must_parse("onnxruntime-python312-cuda12_4-sm90-avx512")->name,
                        "cuda12.4-sm90-avx512");
    assert_string_equal(must_parse("onnxruntime-python313-cpu-avx2")->name, "cpu-avx2");
}

static void test_table_size(void **state)
{
    /* 66 from the matrix, CUDA 13.0 with the same 30 GPU targets (all SM >= 75),
     * Jetson Thor and GB10 on SBSA's CUDA 13.0, Jetson Orin and the generic
     * x86-64 and arm64 builds. */
    assert_int_equal(ortkit_variant_count(), 66 + 30 + 2 + 1 + 2);
    assert_null(ortkit_variant_get(ortkit_variant_count()));
    int cuda13 = 0, jetson = 0, generic = 0, generic_arm = 0, sbsa13 = 0;
    for (size_t i = 0; i < ortkit_variant_count(); i++) {
        const ortkit_variant *v = ortkit_variant_get(i);
        if (v->cuda == 13000) {
            cuda13++;
            assert_true(v->sm >= 75);
            assert_int_equal(in_flox(v), 0);
        }
        if (v->cuda == 13000 && (v->sm == 110 || v->sm == 121)) {
            sbsa13++;
            assert_int_equal(v->isa, ORTKIT_ISA_ARMV9);
            assert_int_equal(v->cuda_platform, ORTKIT_CUDA_PLATFORM_SBSA);
            assert_int_equal(v->tegra, 0);
        }
        /* Each CUDA build says its platform, the architecture's unless Jetson's. */
        if (v->cuda)
            assert_int_equal(v->cuda_platform, v->tegra                          ? ORTKIT_CUDA_PLATFORM_L4T
                                               : v->arch == ORTKIT_ARCH_X86_64 ? ORTKIT_CUDA_PLATFORM_X86_64
                                                                                : ORTKIT_CUDA_PLATFORM_SBSA);
        else
            assert_int_equal(v->cuda_platform, ORTKIT_CUDA_PLATFORM_UNKNOWN);
        if (v->tegra) {
            jetson++;
            assert_string_equal(v->name, "cuda12.6-sm87-armv8.2");
            assert_int_equal(v->arch, ORTKIT_ARCH_AARCH64);
        }
        if (v->isa == ORTKIT_ISA_X86_64) {
            generic++;
            assert_string_equal(v->name, "cpu-x86-64");
            assert_int_equal(v->cuda, 0);
            assert_int_equal(in_flox(v), 0);
        }
        if (v->isa == ORTKIT_ISA_ARMV8_0) {
            generic_arm++;
            assert_string_equal(v->name, "cpu-armv8.0");
            assert_int_equal(v->arch, ORTKIT_ARCH_AARCH64);
            assert_int_equal(v->cuda, 0);
            assert_int_equal(in_flox(v), 0);
        }
    }
    assert_int_equal(cuda13, 32);
    assert_int_equal(sbsa13, 2);
    assert_int_equal(jetson, 1);
    assert_int_equal(generic, 1);
    assert_int_equal(generic_arm, 1);
    assert_string_equal(ortkit_isa_name(ORTKIT_ISA_ARMV8_0), "armv8.0");
    assert_string_equal(must_parse("onnxruntime-python313-cpu-armv8_0")->name, "cpu-armv8.0");
}

/* Every row's names follow the grammar, parse back to the row in both forms
 * (any case), print back the same, and no two rows share a name. */
static void test_names_round_trip(void **state)
{
    for (size_t i = 0; i < ortkit_variant_count(); i++) {
        const ortkit_variant *v = ortkit_variant_get(i);
        char want[128], buf[128];
        const char *isa = ortkit_isa_name(v->isa);
        if (v->cuda)
            snprintf(want, sizeof want, "cuda%d.%d-sm%d-%s", v->cuda / 1000,
                     (v->cuda % 1000) / 10, v->sm, isa);
        else
            snprintf(want, sizeof want, "cpu-%s", isa);
        assert_string_equal(v->name, want);

        char flox[160];
        snprintf(flox, sizeof flox, "onnxruntime-python%s-%s", v->cuda == 12040 ? "312" : "313",
                 want);
        for (char *p = flox + strlen("onnxruntime-python3xx-"); *p; p++)
            if (*p == '.')
                *p = '_';
        assert_string_equal(flox_name(v), flox);

        const ortkit_variant *back = NULL;
        assert_int_equal(ortkit_variant_parse(&back, v->name), 0);
        assert_ptr_equal(back, v);
        assert_int_equal(ortkit_variant_parse(&back, flox), 0);
        assert_ptr_equal(back, v);
        for (size_t k = 0; k <= strlen(v->name); k++)
            buf[k] = (char)toupper((unsigned char)v->name[k]);
        assert_int_equal(ortkit_variant_parse(&back, buf), 0);
        assert_ptr_equal(back, v);

        assert_int_equal(ortkit_variant_name(v, buf, sizeof buf, ORTKIT_VARIANT_CANONICAL), 0);
        assert_string_equal(buf, v->name);
        assert_int_equal(ortkit_variant_name(v, buf, sizeof buf, ORTKIT_VARIANT_FLOX), 0);
        assert_string_equal(buf, flox);

        for (size_t j = 0; j < i; j++) {
            const ortkit_variant *w = ortkit_variant_get(j);
            assert_string_not_equal(v->name, w->name);
            assert_string_not_equal(flox_name(v), flox_name(w));
        }
    }
}

static void test_build_flags(void **state)
{
    const char *const avx512 = "-mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma";
    for (size_t i = 0; i < ortkit_variant_count(); i++) {
        const ortkit_variant *v = ortkit_variant_get(i);
        char want[160];
        switch (v->isa) {
        case ORTKIT_ISA_AVX2: snprintf(want, sizeof want, "-mavx2 -mfma"); break;
        case ORTKIT_ISA_AVX512: snprintf(want, sizeof want, "%s", avx512); break;
        case ORTKIT_ISA_AVX512BF16: snprintf(want, sizeof want, "%s -mavx512bf16", avx512); break;
        case ORTKIT_ISA_AVX512VNNI: snprintf(want, sizeof want, "%s -mavx512vnni", avx512); break;
        case ORTKIT_ISA_ARMV8_2: snprintf(want, sizeof want, "-march=armv8.2-a+fp16+dotprod"); break;
        case ORTKIT_ISA_ARMV9: snprintf(want, sizeof want, "-march=armv9-a+sve2"); break;
        case ORTKIT_ISA_X86_64: snprintf(want, sizeof want, "-march=x86-64 -mtune=generic"); break;
        case ORTKIT_ISA_ARMV8_0: snprintf(want, sizeof want, "-march=armv8-a -mtune=generic"); break;
        default: fail_msg("%s: unknown ISA %d", v->name, v->isa);
        }
        assert_string_equal(v->cpu_flags, want);
        int arm = v->isa == ORTKIT_ISA_ARMV8_2 || v->isa == ORTKIT_ISA_ARMV9 ||
                  v->isa == ORTKIT_ISA_ARMV8_0;
        assert_int_equal(v->arch, arm ? ORTKIT_ARCH_AARCH64 : ORTKIT_ARCH_X86_64);
        /* Only the generic builds need no CPU feature. */
        assert_int_equal(v->cpu_features == 0,
                         v->isa == ORTKIT_ISA_X86_64 || v->isa == ORTKIT_ISA_ARMV8_0);
        if (!v->cuda) {
            assert_string_equal(v->cuda_architectures, "");
            assert_string_equal(v->min_driver, "");
            continue;
        }
        /* ORT's CMake makes 90/100/120 arch-specific (sm_90a): exact SM only;
         * 110 and 121 plain. */
        int accel = v->sm == 90 || v->sm == 100 || v->sm == 120;
        snprintf(want, sizeof want, "%d", v->sm);
        assert_string_equal(v->cuda_architectures, want);
        snprintf(want, sizeof want, "sm_%d%s", v->sm, accel ? "a" : "");
        assert_string_equal(v->cubin, want);
        assert_int_equal(v->sm_exact, accel);
        switch (v->cuda) {
        case 12040:
            assert_string_equal(v->min_driver, "525.60.13");
            assert_string_equal(v->toolkit_driver, "550.54.14");
            break;
        case 12090:
            assert_string_equal(v->min_driver, "525.60.13");
            assert_string_equal(v->toolkit_driver, "575.51.03");
            break;
        case 13000:
            assert_string_equal(v->min_driver, "580.65.06");
            assert_string_equal(v->toolkit_driver, "580.65.06");
            break;
        case 12060:
            assert_string_equal(v->min_driver, "36.4");
            assert_int_equal(v->tegra, 1);
            break;
        default: fail_msg("%s: unexpected CUDA %d", v->name, v->cuda);
        }
        /* nvcc learnt Blackwell in 12.8: the matrix's CUDA 12.4 rows for it cannot exist. */
        assert_int_equal(v->defect[0] != 0, v->cuda == 12040 && v->sm >= 100);
    }
    const ortkit_variant *v = must_parse("cpu-avx512bf16");
    assert_true(v->cpu_features & ORTKIT_CPU_BIT(ORTKIT_CPU_AVX512BF16));
    assert_true(v->cpu_features & ORTKIT_CPU_BIT(ORTKIT_CPU_AVX512BW));
    assert_false(v->cpu_features & ORTKIT_CPU_BIT(ORTKIT_CPU_AVX512VNNI));
    v = must_parse("cpu-armv9");
    assert_true(v->cpu_features & ORTKIT_CPU_BIT(ORTKIT_CPU_SVE2));
}

static void test_parse_errors(void **state)
{
    static const struct { const char *name; int code; const char *msg; } cases[] = {
        {"", ORTKIT_E_INVALID_ARG, "expected cpu-<isa>"},
        {"gpu", ORTKIT_E_INVALID_ARG, "expected cpu-<isa>"},
        {"cpu-avx3", ORTKIT_E_INVALID_ARG, "no instruction set 'avx3'"},
        {"cuda12.9-sm90-avx3", ORTKIT_E_INVALID_ARG, "no instruction set 'avx3'"},
        {"cuda12.8-sm90-avx2", ORTKIT_E_UNSUPPORTED, "no variants for CUDA 12.8"},
        {"cuda12.9-sm61-avx2", ORTKIT_E_UNSUPPORTED, "CUDA 12.9 has no variant for sm61"},
        {"cuda13.0-sm87-armv8.2", ORTKIT_E_UNSUPPORTED, "CUDA 13.0 has no variant for sm87"},
        {"cuda12.9-sm80-armv9", ORTKIT_E_UNSUPPORTED,
         "built only for avx2 avx512 avx512bf16 avx512vnni"},
        {"onnxruntime-python312-cuda12_9-sm90-avx512", ORTKIT_E_INVALID_ARG,
         "the Flox name of cuda12.9-sm90-avx512 is onnxruntime-python313-cuda12_9-sm90-avx512"},
        {"onnxruntime-python313-cuda12_8-sm90-avx512", ORTKIT_E_UNSUPPORTED,
         "no variants for CUDA 12.8"},
        {"onnxruntime-python313-cpu-sse2", ORTKIT_E_INVALID_ARG, "no instruction set 'sse2'"},
        {"cuda12.9-sm90-avx512-extra", ORTKIT_E_INVALID_ARG, "expected cpu-<isa>"},
        {"cpu-x86", ORTKIT_E_INVALID_ARG, "no instruction set 'x86' (known: avx2, avx512, "
                                          "avx512bf16, avx512vnni, armv8.2, armv9, and x86-64 and armv8.0"},
    };
    for (size_t i = 0; i < N(cases); i++) {
        const ortkit_variant *v = (const ortkit_variant *)1;
        int rc = ortkit_variant_parse(&v, cases[i].name);
        if (rc != cases[i].code)
            fail_msg("'%s': got %d (%s), want %d", cases[i].name, rc, ortkit_error_last(),
                     cases[i].code);
        assert_null(v);
        assert_error_has(cases[i].msg);
    }
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    const ortkit_variant *v;
    assert_int_equal(ortkit_variant_parse(&v, longname), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_variant_parse(NULL, "cpu-avx2"), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_variant_parse(&v, NULL), ORTKIT_E_INVALID_ARG);

    char buf[9]; /* just room for "cpu-avx2" */
    v = must_parse("cpu-avx2");
    assert_int_equal(ortkit_variant_name(v, buf, sizeof buf, ORTKIT_VARIANT_CANONICAL), 0);
    assert_int_equal(ortkit_variant_name(v, buf, sizeof buf, ORTKIT_VARIANT_FLOX),
                     ORTKIT_E_INVALID_ARG);
    assert_string_equal(buf, "");
    assert_int_equal(ortkit_variant_name(v, buf, sizeof buf, (ortkit_variant_form)7),
                     ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_variant_name(NULL, buf, sizeof buf, ORTKIT_VARIANT_CANONICAL),
                     ORTKIT_E_INVALID_ARG);
}

static ortkit_host *load_host(const char *file)
{
    ortkit_host *h = NULL;
    char path[512];
    snprintf(path, sizeof path, "%s%s.json", HOSTS, file);
    if (ortkit_host_load(&h, path) != 0)
        fail_msg("%s", ortkit_error_last());
    return h;
}

static void expect_fit(const ortkit_host *h, const char *variant, int fits, const char *why)
{
    char got[256];
    int rc = ortkit_variant_fits(must_parse(variant), h, got, sizeof got);
    if (rc != fits || strcmp(got, why))
        fail_msg("%s: got %d \"%s\"; want %d \"%s\"", variant, rc, got, fits, why);
}

/* The described hosts x variants: fits, or exactly why not. */
static void test_fits_described_hosts(void **state)
{
    static const struct { const char *host, *variant; int fits; const char *why; } cases[] = {
        {"h100-server", "cuda12.4-sm90-avx512", 1, ""},
        {"h100-server", "cuda12.9-sm90-avx512vnni", 1,
         "driver 570.124.06 is older than CUDA 12.9's own minimum 575.51.03; it runs through "
         "minor-version compatibility"},
        {"h100-server", "cuda12.9-sm90-avx512bf16", 0, "needs AVX-512 BF16; this CPU lacks it"},
        {"h100-server", "cuda13.0-sm90-avx512", 0,
         "needs driver >= 580.65.06 for CUDA 13.0; found 570.124.06"},
        {"h100-server", "cuda12.4-sm80-avx2", 0,
         "SM 8.0 cubins do not run on SM 9.0 (NVIDIA H100 PCIe), nor on the 1 other GPU"},
        {"h100-server", "cuda12.4-sm90-armv9", 0, "built for aarch64; this host is x86_64"},
        {"h100-server", "cuda12.4-sm100-avx2", 0,
         "no such build can exist: nvcc 12.4 cannot compile for Blackwell (SM 10.0 and 12.0 "
         "need CUDA 12.8)"},
        {"graviton3", "cpu-armv8.2", 1, ""},
        {"graviton3", "cpu-armv9", 0, "needs SVE2; this CPU lacks it"},
        {"graviton3", "cpu-avx2", 0, "built for x86_64; this host is aarch64"},
        {"graviton3", "cpu-x86-64", 0, "built for x86_64; this host is aarch64"},
        {"laptop-avx2", "cpu-x86-64", 1, ""},
        {"h100-server", "cpu-x86-64", 1, ""},
        {"graviton3", "cpu-armv8.0", 1, ""},
        {"jetson-orin", "cpu-armv8.0", 1, ""},
        {"laptop-avx2", "cpu-armv8.0", 0, "built for aarch64; this host is x86_64"},
        {"graviton3", "cuda12.9-sm90-armv8.2", 0,
         "needs an NVIDIA GPU with SM 9.0; none found (no NVIDIA driver: libnvidia-ml.so.1 not "
         "found)"},
        {"laptop-avx2", "cpu-avx2", 1, ""},
        {"laptop-avx2", "cpu-avx512", 0,
         "needs AVX-512 F, AVX-512 BW, AVX-512 DQ and AVX-512 VL; this CPU lacks them"},
        {"laptop-avx2", "cpu-avx512vnni", 0,
         "needs AVX-512 F, AVX-512 BW, AVX-512 DQ, AVX-512 VL and AVX-512 VNNI; this CPU lacks them"},
        {"jetson-orin", "cuda12.6-sm87-armv8.2", 1, ""},
        {"jetson-orin", "cpu-armv8.2", 1, ""},
        {"jetson-orin", "cpu-armv9", 0, "needs SVE and SVE2; this CPU lacks them"},
        {"jetson-orin", "cuda12.9-sm90-armv8.2", 0,
         "built for NVIDIA's SBSA CUDA (arm64 servers, and Jetson from JetPack 7); this host takes "
         "Jetson's L4T CUDA (JetPack 6, L4T R36.4.3)"},
        {"jetson-orin", "cuda13.0-sm110-armv9", 0,
         "built for NVIDIA's SBSA CUDA (arm64 servers, and Jetson from JetPack 7); this host takes "
         "Jetson's L4T CUDA (JetPack 6, L4T R36.4.3)"},
        {"graviton3", "cuda12.6-sm87-armv8.2", 0,
         "built for Jetson's L4T CUDA (JetPack 6); this host takes NVIDIA's SBSA CUDA (arm64, not "
         "a Jetson)"},
        /* Thor is a Jetson on SBSA's CUDA 13: Orin's build is refused, its own taken
         * with a driver (580.00 on the board) judged by the CUDA L4T R38 runs. */
        {"jetson-thor", "cuda12.6-sm87-armv8.2", 0,
         "built for Jetson's L4T CUDA (JetPack 6); this host takes NVIDIA's SBSA CUDA (a Jetson on "
         "JetPack 7, L4T R38.2.0)"},
        {"jetson-thor", "cuda13.0-sm110-armv9", 1, ""},
        {"jetson-thor", "cuda13.0-sm121-armv9", 0,
         "SM 12.1 cubins do not run on SM 11.0 (Thor (integrated))"},
        {"jetson-thor", "cpu-armv9", 1, ""},
        {"grace-gh200", "cuda12.6-sm87-armv8.2", 0,
         "built for Jetson's L4T CUDA (JetPack 6); this host takes NVIDIA's SBSA CUDA (arm64, not "
         "a Jetson)"},
        {"grace-gh200", "cuda12.9-sm90-armv9", 1, ""},
        {"grace-gh200", "cuda13.0-sm90-armv9", 1, ""},
        {"grace-gh200", "cuda13.0-sm110-armv9", 0,
         "SM 11.0 cubins do not run on SM 9.0 (NVIDIA GH200 480GB)"},
        {"grace-gh200", "cuda13.0-sm90-avx512", 0, "built for x86_64; this host is aarch64"},
        {"old-driver-3090", "cuda12.4-sm86-avx2", 1,
         "driver 525.147.05 is older than CUDA 12.4's own minimum 550.54.14; it runs through "
         "minor-version compatibility"},
        {"old-driver-3090", "cuda12.4-sm80-avx2", 1,
         "driver 525.147.05 is older than CUDA 12.4's own minimum 550.54.14; it runs through "
         "minor-version compatibility"},
        {"old-driver-3090", "cuda12.4-sm89-avx2", 0,
         "SM 8.9 cubins do not run on SM 8.6 (NVIDIA GeForce RTX 3090)"},
        {"old-driver-3090", "cuda12.4-sm90-avx2", 0,
         "SM 9.0 cubins do not run on SM 8.6 (NVIDIA GeForce RTX 3090)"},
        {"old-driver-3090", "cuda12.4-sm86-avx512", 0,
         "needs AVX-512 F, AVX-512 BW, AVX-512 DQ and AVX-512 VL; this CPU lacks them"},
        {"old-driver-3090", "cuda13.0-sm86-avx2", 0,
         "needs driver >= 580.65.06 for CUDA 13.0; found 525.147.05"},
        {"sapphire-rapids", "cpu-avx512bf16", 1, ""},
        {"sapphire-rapids", "cpu-avx512vnni", 1, ""},
        {"sapphire-rapids", "cuda12.9-sm90-avx512", 0,
         "needs an NVIDIA GPU with SM 9.0; none found (no NVIDIA driver: libnvidia-ml.so.1 not "
         "found)"},
        {"rtx5090", "cuda12.9-sm120-avx512bf16", 1, ""},
        {"rtx5090", "cuda13.0-sm120-avx512vnni", 1, ""},
        {"rtx5090", "cuda12.9-sm100-avx512", 0,
         "SM 10.0 cubins do not run on SM 12.0 (NVIDIA GeForce RTX 5090)"},
        {"rtx5090", "cuda12.9-sm90-avx512", 0,
         "SM 9.0 cubins do not run on SM 12.0 (NVIDIA GeForce RTX 5090)"},
        {"t4", "cuda12.4-sm75-avx512", 1, ""},
        {"t4", "cuda12.9-sm75-avx2", 1,
         "driver 550.54.15 is older than CUDA 12.9's own minimum 575.51.03; it runs through "
         "minor-version compatibility"},
        {"t4", "cuda12.4-sm75-avx512vnni", 0, "needs AVX-512 VNNI; this CPU lacks it"},
        {"t4", "cuda13.0-sm75-avx2", 0, "needs driver >= 580.65.06 for CUDA 13.0; found 550.54.15"},
        {"t4", "cuda12.4-sm80-avx2", 0, "SM 8.0 cubins do not run on SM 7.5 (Tesla T4)"},
    };
    for (size_t i = 0; i < N(cases); i++) {
        ortkit_host *h = load_host(cases[i].host);
        expect_fit(h, cases[i].variant, cases[i].fits, cases[i].why);
        ortkit_host_free(h);
    }
}

/* Edges the described hosts do not reach: driver floors, L4T, minor SMs.
 * The hosts are changed in place: every check reads the host's fields. */
static void test_fits_edges(void **state)
{
    ortkit_host *h = load_host("old-driver-3090");
    h->driver_version = "515.65.01";
    expect_fit(h, "cuda12.4-sm86-avx2", 0, "needs driver >= 525.60.13 for CUDA 12.4; found 515.65.01");
    h->driver_version = "525.60.13";
    assert_int_equal(ortkit_variant_fits(must_parse("cuda12.9-sm86-avx2"), h, NULL, 0), 1);
    h->driver_version = "525.60.12";
    assert_int_equal(ortkit_variant_fits(must_parse("cuda12.9-sm86-avx2"), h, NULL, 0), 0);
    h->driver_version = "525.6";
    assert_int_equal(ortkit_variant_fits(must_parse("cuda12.9-sm86-avx2"), h, NULL, 0), 0);
    h->driver_version = "575.51.03";
    expect_fit(h, "cuda12.9-sm86-avx2", 1, "");
    h->driver_version = "";
    expect_fit(h, "cuda12.9-sm86-avx2", 0,
               "needs driver >= 525.60.13 for CUDA 12.9; the driver version is unknown");
    ortkit_host_free(h);

    /* A cubin for X.Y runs on X.Z, Z >= Y; arch-specific ones only on their SM. */
    h = load_host("rtx5090");
    ortkit_gpu g = *h->gpus[0];
    const ortkit_gpu *one[] = {&g};
    h->gpus = one;
    g.cc_minor = 1;
    expect_fit(h, "cuda12.9-sm120-avx2", 0,
               "sm_120a cubins run only on SM 12.0; found SM 12.1 (NVIDIA GeForce RTX 5090)");
    ortkit_host_free(h);
    h = load_host("old-driver-3090");
    g = *h->gpus[0];
    h->gpus = one;
    g.cc_minor = 9;
    expect_fit(h, "cuda12.4-sm86-avx2", 1,
               "driver 525.147.05 is older than CUDA 12.4's own minimum 550.54.14; it runs "
               "through minor-version compatibility");
    ortkit_host_free(h);
    /* Any one fitting GPU will do. */
    h = load_host("t4");
    ortkit_gpu ampere = *h->gpus[0];
    ampere.cc_major = 8;
    ampere.cc_minor = 0;
    const ortkit_gpu *two[] = {h->gpus[0], &ampere};
    h->gpus = two;
    h->gpu_count = 2;
    expect_fit(h, "cuda12.4-sm80-avx512", 1, "");
    h->gpu_count = 0;
    h->gpu_note = "";
    expect_fit(h, "cuda12.4-sm75-avx512", 0, "needs an NVIDIA GPU with SM 7.5; none found");
    ortkit_host_free(h);

    h = load_host("jetson-orin");
    h->l4t_release = "36.3.0";
    expect_fit(h, "cuda12.6-sm87-armv8.2", 0, "needs L4T R36.4 or newer for CUDA 12.6; found R36.3.0");
    h->l4t_release = "36.4";
    expect_fit(h, "cuda12.6-sm87-armv8.2", 1, "");
    h->l4t_release = "";
    expect_fit(h, "cuda12.6-sm87-armv8.2", 0,
               "needs L4T R36.4 or newer for CUDA 12.6; the L4T release is unknown");

    h->arch = ORTKIT_ARCH_UNKNOWN;
    expect_fit(h, "cpu-avx2", 0, "built for x86_64; this host is of unknown architecture");
    ortkit_host_free(h);

    /* A Jetson on SBSA's CUDA: its driver is judged by the CUDA its L4T runs. */
    h = load_host("jetson-thor");
    h->cuda_driver = 12060;
    expect_fit(h, "cuda13.0-sm110-armv9", 0,
               "needs a driver that runs CUDA 13.0; this Jetson's (L4T R38.2.0) runs CUDA 12.6");
    h->cuda_driver = 0;
    expect_fit(h, "cuda13.0-sm110-armv9", 0,
               "needs a driver that runs CUDA 13.0; the CUDA of this Jetson (L4T R38.2.0) is unknown");
    /* A host whose platform a program left unset: its L4T release decides. */
    h->cuda_driver = 13000;
    h->cuda_platform = ORTKIT_CUDA_PLATFORM_UNKNOWN;
    expect_fit(h, "cuda13.0-sm110-armv9", 1, "");
    h->l4t_release = "36.4.3";
    expect_fit(h, "cuda13.0-sm110-armv9", 0,
               "built for NVIDIA's SBSA CUDA (arm64 servers, and Jetson from JetPack 7); this host "
               "takes Jetson's L4T CUDA (JetPack 6, L4T R36.4.3)");
    ortkit_host_free(h);

    /* why is optional and always terminated; NULL arguments are errors. */
    char tiny[8];
    h = load_host("laptop-avx2");
    assert_int_equal(ortkit_variant_fits(must_parse("cpu-avx512"), h, tiny, sizeof tiny), 0);
    assert_string_equal(tiny, "needs A");
    assert_int_equal(ortkit_variant_fits(NULL, h, tiny, sizeof tiny), ORTKIT_E_INVALID_ARG);
    assert_int_equal(ortkit_variant_fits(must_parse("cpu-avx2"), NULL, NULL, 0),
                     ORTKIT_E_INVALID_ARG);
    ortkit_host_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flox_matrix_name_for_name),
        cmocka_unit_test(test_table_size),
        cmocka_unit_test(test_names_round_trip),
        cmocka_unit_test(test_build_flags),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_fits_described_hosts),
        cmocka_unit_test(test_fits_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
