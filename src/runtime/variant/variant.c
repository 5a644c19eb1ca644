/*
 * variant.c - the build variants of ONNX Runtime that ortkit knows: one
 * table gives each its names, its build flags and what it needs of a host.
 *
 * Canonical names:
 *     cpu-<isa>                      cpu-avx2, cpu-armv9, cpu-x86-64, cpu-armv8.0
 *     cuda<M>.<m>-sm<NN>-<isa>       cuda12.9-sm90-avx512, cuda12.6-sm87-armv8.2
 *     isa: avx2 avx512 avx512bf16 avx512vnni armv8.2 armv9; x86-64 armv8.0 (CPU only)
 * Flox names (the form of the Flox build matrix):
 *     onnxruntime-python<py>-cpu-<isa_>
 *     onnxruntime-python<py>-cuda<M>_<m>-sm<NN>-<isa_>   (isa_ writes armv8_2)
 * py is 312 for CUDA 12.4 and 313 for everything else, as in that matrix.
 */
#include "core.h"
#include "host_cuda.h"
#include "variant_platform.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The bit of one CPU feature, for the feature sets below. */
#define FEATURE(name) ORTKIT_CPU_BIT(ORTKIT_CPU_##name)


/*
 * Driver floors.  A CUDA 12.x program runs on any driver >= 525.60.13 through
 * minor-version compatibility, as long as it needs no PTX JIT and no API
 * newer than the driver; ortkit's CUDA builds ship SASS for their SM, and
 * cuDNN 9 for CUDA 12 states the same floor.  So ortkit requires the
 * compatibility floor and reports the toolkit's own minimum as a caveat: a
 * 550 driver runs a CUDA 12.9 build, which the Flox matrix's "560+" (itself
 * not the 12.9 minimum, 575.51.03) would refuse.  CUDA 13.x has one floor,
 * 580.65.06, for both.
 */
#define CU124_DOT "12.4"
#define CU124_US "12_4"
#define CU124_NUM 12040
#define CU124_PY "312"
#define CU124_MIN "525.60.13"
#define CU124_TK "550.54.14"
#define CU124_BW "nvcc 12.4 cannot compile for Blackwell (SM 10.0 and 12.0 need CUDA 12.8)"

#define CU129_DOT "12.9"
#define CU129_US "12_9"
#define CU129_NUM 12090
#define CU129_PY "313"
#define CU129_MIN "525.60.13"
#define CU129_TK "575.51.03"
#define CU129_BW ""

#define CU130_DOT "13.0"
#define CU130_US "13_0"
#define CU130_NUM 13000
#define CU130_PY "313"
#define CU130_MIN "580.65.06"
#define CU130_TK "580.65.06"
#define CU130_BW ""

/* Jetson Orin: the CUDA of JetPack 6.1/6.2, which needs L4T R36.4; the
 * Jetson driver is part of L4T, so its floor is an L4T release. */
#define CU126_DOT "12.6"
#define CU126_US "12_6"
#define CU126_NUM 12060
#define CU126_PY "313"
#define CU126_MIN "36.4"
#define CU126_TK ""

/* CPU instruction sets: names, compiler flags, the features they need. */
#define X86_AVX2 (FEATURE(AVX) | FEATURE(AVX2) | FEATURE(FMA))
#define X86_AVX512 (X86_AVX2 | FEATURE(AVX512F) | FEATURE(AVX512DQ) | \
                    FEATURE(AVX512VL) | FEATURE(AVX512BW))
#define ARM_V82 (FEATURE(ASIMD) | FEATURE(FP16) | FEATURE(DOTPROD))

/* The generic build: the x86-64 baseline and nothing more (-march makes it
 * so where a compiler defaults higher); ORT picks its AVX2/AVX-512 kernels
 * at run time.  It needs no feature, so it fits every x86-64 host. */
#define X86_ID ORTKIT_ISA_X86_64
#define X86_C "x86-64"
#define X86_F "x86-64"
#define X86_ARCH ORTKIT_ARCH_X86_64
#define X86_FLAGS "-march=x86-64 -mtune=generic"
#define X86_FEAT 0

#define AVX2_ID ORTKIT_ISA_AVX2
#define AVX2_C "avx2"
#define AVX2_F "avx2"
#define AVX2_ARCH ORTKIT_ARCH_X86_64
#define AVX2_FLAGS "-mavx2 -mfma"
#define AVX2_FEAT X86_AVX2

#define AVX512_ID ORTKIT_ISA_AVX512
#define AVX512_C "avx512"
#define AVX512_F "avx512"
#define AVX512_ARCH ORTKIT_ARCH_X86_64
#define AVX512_FLAGS "-mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma"
#define AVX512_FEAT X86_AVX512

#define BF16_ID ORTKIT_ISA_AVX512BF16
#define BF16_C "avx512bf16"
#define BF16_F "avx512bf16"
#define BF16_ARCH ORTKIT_ARCH_X86_64
#define BF16_FLAGS AVX512_FLAGS " -mavx512bf16"
#define BF16_FEAT (X86_AVX512 | FEATURE(AVX512BF16))

#define VNNI_ID ORTKIT_ISA_AVX512VNNI
#define VNNI_C "avx512vnni"
#define VNNI_F "avx512vnni"
#define VNNI_ARCH ORTKIT_ARCH_X86_64
#define VNNI_FLAGS AVX512_FLAGS " -mavx512vnni"
#define VNNI_FEAT (X86_AVX512 | FEATURE(AVX512VNNI))

/* The generic arm64 build: the ARMv8-A baseline (-march=armv8-a: FP and
 * Advanced SIMD, which AArch64 Linux always has) and nothing more; ORT picks
 * its dot-product and other kernels at run time.  It needs no feature, so it
 * fits every aarch64 host: a Cortex-A72 (Raspberry Pi 4) has nothing else. */
#define V80_ID ORTKIT_ISA_ARMV8_0
#define V80_C "armv8.0"
#define V80_F "armv8_0"
#define V80_ARCH ORTKIT_ARCH_AARCH64
#define V80_FLAGS "-march=armv8-a -mtune=generic"
#define V80_FEAT 0

#define V82_ID ORTKIT_ISA_ARMV8_2
#define V82_C "armv8.2"
#define V82_F "armv8_2"
#define V82_ARCH ORTKIT_ARCH_AARCH64
#define V82_FLAGS "-march=armv8.2-a+fp16+dotprod"
#define V82_FEAT ARM_V82

/* armv9-a with +sve2 lets the compiler emit SVE2: Neoverse V2 (Graviton4,
 * Grace) has it, Neoverse V1 (Graviton3) has SVE only. */
#define V9_ID ORTKIT_ISA_ARMV9
#define V9_C "armv9"
#define V9_F "armv9"
#define V9_ARCH ORTKIT_ARCH_AARCH64
#define V9_FLAGS "-march=armv9-a+sve2"
#define V9_FEAT (ARM_V82 | FEATURE(SVE) | FEATURE(SVE2))

/*
 * GPU targets.  ORT's CMake turns CMAKE_CUDA_ARCHITECTURES "90", "100" and
 * "120" into sm_90a/sm_100a/sm_120a SASS (arch-specific: that exact SM only)
 * and the others into plain sm_NN SASS, which runs on the same major with an
 * equal or higher minor.  No PTX is shipped, so nothing relies on JIT.
 */
#define ROW(cu, sm, exact, sfx, isa, tegra, flox, defect)                                    \
    {{"cuda" cu##_DOT "-sm" #sm "-" isa##_C, isa##_ARCH, isa##_ID, cu##_NUM, sm, exact,     \
      tegra, #sm, "sm_" #sm sfx, isa##_FLAGS, isa##_FEAT, cu##_MIN, cu##_TK, defect,        \
      PLATFORM(tegra, isa##_ARCH)},                                                          \
     "onnxruntime-python" cu##_PY "-cuda" cu##_US "-sm" #sm "-" isa##_F, flox}
/* The CUDA a row is built with: Jetson's own (L4T), else the architecture's. */
#define PLATFORM(tegra, arch)                                                                \
    ((tegra) ? ORTKIT_CUDA_PLATFORM_L4T                                                      \
     : (arch) == ORTKIT_ARCH_X86_64 ? ORTKIT_CUDA_PLATFORM_X86_64 : ORTKIT_CUDA_PLATFORM_SBSA)
#define X86_ROWS(cu, sm, exact, sfx, flox, d)                                                \
    ROW(cu, sm, exact, sfx, AVX2, 0, flox, d), ROW(cu, sm, exact, sfx, AVX512, 0, flox, d), \
    ROW(cu, sm, exact, sfx, BF16, 0, flox, d), ROW(cu, sm, exact, sfx, VNNI, 0, flox, d)
#define ARM_ROWS(cu, sm, exact, sfx, flox)                                                   \
    ROW(cu, sm, exact, sfx, V82, 0, flox, ""), ROW(cu, sm, exact, sfx, V9, 0, flox, "")
/* The Flox matrix per CUDA release: 7 SMs x 4 x86 ISAs + SM90 x 2 arm64 ISAs. */
#define CUDA_ROWS(cu, flox)                                                                  \
    X86_ROWS(cu, 75, 0, "", flox, ""), X86_ROWS(cu, 80, 0, "", flox, ""),                   \
    X86_ROWS(cu, 86, 0, "", flox, ""), X86_ROWS(cu, 89, 0, "", flox, ""),                   \
    X86_ROWS(cu, 90, 1, "a", flox, ""), ARM_ROWS(cu, 90, 1, "a", flox),                     \
    X86_ROWS(cu, 100, 1, "a", flox, cu##_BW), X86_ROWS(cu, 120, 1, "a", flox, cu##_BW)
#define CPU_ROW(isa, flox)                                                                   \
    {{"cpu-" isa##_C, isa##_ARCH, isa##_ID, 0, 0, 0, 0, "", "", isa##_FLAGS, isa##_FEAT, "",  \
      "", "", ORTKIT_CUDA_PLATFORM_UNKNOWN},                                                 \
     "onnxruntime-python313-cpu-" isa##_F, flox}

/* Jetson Thor (SM 11.0, Neoverse V3AE: ARMv9.2) from JetPack 7, and GB10
 * (SM 12.1, DGX Spark: Cortex-X925/A725, ARMv9.2): CUDA 13.0 on SBSA.  ORT's
 * CMake makes plain sm_110 and sm_121 SASS (its arch-specific list is 90,
 * 100, 101, 120: cmake/external/cuda_configuration.cmake). */
#define SBSA_ROWS ROW(CU130, 110, 0, "", V9, 0, 0, ""), ROW(CU130, 121, 0, "", V9, 0, 0, "")

/* A row: what callers see, then what only naming needs. */
typedef struct row {
    ortkit_variant v;
    const char *flox_name;
    int flox; /* one of the 66 of the Flox matrix */
} row;

static const row table[] = {
    /* The 66 of the Flox matrix: 6 CPU-only + 30 for CUDA 12.4 + 30 for 12.9. */
    CPU_ROW(AVX2, 1), CPU_ROW(AVX512, 1), CPU_ROW(BF16, 1), CPU_ROW(VNNI, 1), CPU_ROW(V82, 1),
    CPU_ROW(V9, 1),
    CUDA_ROWS(CU124, 1),
    CUDA_ROWS(CU129, 1),
    /* Beyond it: CUDA 13.0 (which drops SM < 75, so the same SMs), the
     * arm64 GPUs that only NVIDIA's SBSA CUDA 13 serves, Jetson Orin and the
     * generic builds, the always-fitting fallbacks: x86-64 and arm64. */
    CUDA_ROWS(CU130, 0),
    SBSA_ROWS,
    ROW(CU126, 87, 0, "", V82, 1, 0, ""),
    CPU_ROW(X86, 0),
    CPU_ROW(V80, 0),
};

#define TABLE_SIZE (sizeof table / sizeof table[0])

static const char *const isa_names[] = {"avx2", "avx512", "avx512bf16", "avx512vnni",
                                        "armv8.2", "armv9", "x86-64", "armv8.0"};

const char *ortkit_isa_name(ortkit_isa isa)
{
    return (unsigned)isa < sizeof isa_names / sizeof isa_names[0] ? isa_names[isa] : "unknown";
}

size_t ortkit_variant_count(void)
{
    return TABLE_SIZE;
}

const ortkit_variant *ortkit_variant_get(size_t i)
{
    return i < TABLE_SIZE ? &table[i].v : NULL;
}

/* The row of a variant the table handed out; NULL for any other pointer. */
static const row *row_of(const ortkit_variant *v)
{
    for (size_t i = 0; v && i < TABLE_SIZE; i++)
        if (&table[i].v == v)
            return &table[i];
    return NULL;
}

/* v's row of the table, for fn with form: NULL, the error set, when the
 * form is unknown or v is not of the table. */
static const row *row_for(const char *fn, const ortkit_variant *v, ortkit_variant_form form)
{
    if (form != ORTKIT_VARIANT_CANONICAL && form != ORTKIT_VARIANT_FLOX) {
        ortkit__error_set(ORTKIT_E_INVALID_ARG, "%s: unknown form %d", fn, (int)form);
        return NULL;
    }
    const row *r = row_of(v);
    if (!r)
        ortkit__error_set(ORTKIT_E_INVALID_ARG, "%s: not a variant of ortkit's table", fn);
    return r;
}

int ortkit_variant_name(const ortkit_variant *v, char *buf, size_t size, ortkit_variant_form form)
{
    if (!v || !buf || size == 0)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_variant_name: NULL argument");
    const row *r = row_for("ortkit_variant_name", v, form);
    if (!r)
        return ORTKIT_E_INVALID_ARG;
    const char *name = form == ORTKIT_VARIANT_FLOX ? r->flox_name : v->name;
    if (strlen(name) >= size) {
        buf[0] = '\0';
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "ortkit_variant_name: '%s' needs %zu bytes, the buffer has %zu",
                                 name, strlen(name) + 1, size);
    }
    memcpy(buf, name, strlen(name) + 1);
    return ORTKIT_OK;
}

int ortkit_variant_in_matrix(const ortkit_variant *v, ortkit_variant_form form)
{
    if (!v)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_variant_in_matrix: NULL argument");
    const row *r = row_for("ortkit_variant_in_matrix", v, form);
    if (!r)
        return ORTKIT_E_INVALID_ARG;
    return form == ORTKIT_VARIANT_FLOX ? r->flox : 1;
}

/* ---- parsing ------------------------------------------------------------------ */

/* Why a name is not in the table, as precisely as can be said. */
static int explain_unknown(const char *name, const char *canon)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", canon);
    char *parts[4] = {0};
    int n = 0;
    for (char *tok = strtok(buf, "-"); tok && n < 4; tok = strtok(NULL, "-"))
        parts[n++] = tok;

    const char *isa = n == 2 ? parts[1] : n == 3 ? parts[2] : NULL;
    int cpu = n == 2 && !strcmp(parts[0], "cpu");
    int gpu = n == 3 && !strncmp(parts[0], "cuda", 4) && !strncmp(parts[1], "sm", 2);
    if (!cpu && !gpu)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "unknown variant '%s': expected cpu-<isa> or "
                                 "cuda<major>.<minor>-sm<NN>-<isa>, or a Flox name", name);
    int known_isa = 0;
    for (size_t i = 0; i < sizeof isa_names / sizeof isa_names[0]; i++)
        known_isa |= !strcmp(isa, isa_names[i]);
    if (!known_isa)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "unknown variant '%s': no instruction set '%s' (known: avx2, "
                                 "avx512, avx512bf16, avx512vnni, armv8.2, armv9, and x86-64 "
                                 "and armv8.0 for CPU only)", name, isa);
    if (cpu)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "unknown variant '%s'", name);

    /* A GPU name: is the CUDA release known, then the SM for it, then the ISA? */
    const char *cuda = parts[0] + 4;
    int cuda_known = 0;
    char sms[96] = "", isas[96] = "";
    for (size_t i = 0; i < TABLE_SIZE; i++) {
        const ortkit_variant *v = &table[i].v;
        char cuda_of[16], sm[8];
        if (!v->cuda)
            continue;
        snprintf(cuda_of, sizeof cuda_of, "%d.%d", v->cuda / 1000, (v->cuda % 1000) / 10);
        if (strcmp(cuda_of, cuda))
            continue;
        cuda_known = 1;
        snprintf(sm, sizeof sm, " %d", v->sm);
        if (!strstr(sms, sm) && strlen(sms) + strlen(sm) < sizeof sms)
            strcat(sms, sm);
        if (!strcmp(sm + 1, parts[1] + 2) && strlen(isas) + strlen(v->name) < sizeof isas)
            snprintf(isas + strlen(isas), sizeof isas - strlen(isas), " %s",
                     ortkit_isa_name(v->isa));
    }
    if (!cuda_known)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                                 "unknown variant '%s': no variants for CUDA %s (known: 12.4, "
                                 "12.6 for Jetson, 12.9, 13.0)", name, cuda);
    if (!isas[0])
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                                 "unknown variant '%s': CUDA %s has no variant for %s "
                                 "(known:%s)", name, cuda, parts[1], sms);
    return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                             "unknown variant '%s': CUDA %s for %s is built only for%s",
                             name, cuda, parts[1], isas);
}

/* "onnxruntime-python313-cuda12_9-sm90-armv8_2" -> "cuda12.9-sm90-armv8.2",
 * and the python tag; -1 when it is not of the Flox form. */
static int flox_to_canonical(const char *name, char *canon, size_t size, char *py, size_t py_size)
{
    static const char prefix[] = "onnxruntime-python";
    if (strncasecmp(name, prefix, sizeof prefix - 1))
        return -1;
    const char *p = name + sizeof prefix - 1;
    size_t digits = strspn(p, "0123456789");
    if (digits == 0 || digits >= py_size || p[digits] != '-')
        return -1;
    snprintf(py, py_size, "%.*s", (int)digits, p);
    snprintf(canon, size, "%s", p + digits + 1);
    /* Underscores stand for dots in the CUDA version and in armv8_2. */
    for (char *c = canon; *c; c++)
        if (*c == '_')
            *c = '.';
    return 0;
}

int ortkit_variant_parse(const ortkit_variant **out, const char *name)
{
    if (!out || !name)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_variant_parse: NULL argument");
    *out = NULL;
    for (size_t i = 0; i < TABLE_SIZE; i++) {
        if (!strcasecmp(name, table[i].v.name) || !strcasecmp(name, table[i].flox_name)) {
            *out = &table[i].v;
            return ORTKIT_OK;
        }
    }
    if (strlen(name) >= 100)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "unknown variant '%.40s...': too long", name);

    char canon[128], lower[128], py[8];
    size_t i;
    for (i = 0; name[i]; i++)
        lower[i] = (char)tolower((unsigned char)name[i]);
    lower[i] = '\0';
    if (flox_to_canonical(lower, canon, sizeof canon, py, sizeof py) == 0) {
        for (i = 0; i < TABLE_SIZE; i++)
            if (!strcmp(canon, table[i].v.name))
                return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                         "unknown variant '%s': the Flox name of %s is %s",
                                         name, table[i].v.name, table[i].flox_name);
        return explain_unknown(name, canon);
    }
    return explain_unknown(name, lower);
}

/* ---- host fitness -------------------------------------------------------------- */

static void cuda_text(char *buf, size_t size, int v)
{
    snprintf(buf, size, "%d.%d", v / 1000, (v % 1000) / 10);
}

/* "AVX-512 BW, AVX-512 VL and AVX-512 BF16" */
static void feature_list(char *buf, size_t size, uint64_t missing)
{
    int total = 0, done = 0;
    for (int f = 0; f < ORTKIT_CPU_FEATURE_COUNT; f++)
        total += (missing & ORTKIT_CPU_BIT(f)) != 0;
    buf[0] = '\0';
    for (int f = 0; f < ORTKIT_CPU_FEATURE_COUNT; f++) {
        if (!(missing & ORTKIT_CPU_BIT(f)))
            continue;
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%s%s", done == 0 ? "" : done == total - 1 ? " and " : ", ",
                 ortkit_cpu_feature_label((ortkit_cpu_feature)f));
        done++;
    }
}

/* Can SASS for sm (exact or not) run on compute capability major.minor? */
static int sass_runs(const ortkit_variant *v, int major, int minor)
{
    if (v->sm_exact)
        return major * 10 + minor == v->sm;
    return major == v->sm / 10 && minor >= v->sm % 10;
}

#define SAY(...) (why ? (void)snprintf(why, why_size, __VA_ARGS__) : (void)0)

static int check_gpu(const ortkit_variant *v, const ortkit_host *h, char *why, size_t why_size)
{
    int sm_major = v->sm / 10, sm_minor = v->sm % 10;
    if (h->gpu_count == 0) {
        SAY("needs an NVIDIA GPU with SM %d.%d; none found%s%s%s", sm_major, sm_minor,
            h->gpu_note[0] ? " (" : "", h->gpu_note, h->gpu_note[0] ? ")" : "");
        return 0;
    }
    for (size_t i = 0; i < h->gpu_count; i++)
        if (sass_runs(v, h->gpus[i]->cc_major, h->gpus[i]->cc_minor))
            return 1;
    const ortkit_gpu *g = h->gpus[0];
    char others[48] = "";
    if (h->gpu_count > 1)
        snprintf(others, sizeof others, ", nor on the %zu other GPU%s", h->gpu_count - 1,
                 h->gpu_count > 2 ? "s" : "");
    if (v->sm_exact && g->cc_major == sm_major)
        SAY("%s cubins run only on SM %d.%d; found SM %d.%d (%s)%s", v->cubin, sm_major,
            sm_minor, g->cc_major, g->cc_minor, g->name, others);
    else
        SAY("SM %d.%d cubins do not run on SM %d.%d (%s)%s", sm_major, sm_minor, g->cc_major,
            g->cc_minor, g->name, others);
    return 0;
}

static int check_driver(const ortkit_variant *v, const ortkit_host *h, char *why, size_t why_size)
{
    char cuda[16];
    cuda_text(cuda, sizeof cuda, v->cuda);
    /* A Jetson's driver is its L4T release's: JetPack 7's runs CUDA 13 at
     * 580.00, below the servers' 580.65.06 (nvidia-smi on Thor). */
    if (h->tegra && !v->tegra) {
        char runs[16];
        cuda_text(runs, sizeof runs, h->cuda_driver);
        if (!h->cuda_driver) {
            SAY("needs a driver that runs CUDA %s; the CUDA of this Jetson (L4T R%s) is unknown", cuda,
                h->l4t_release);
            return 0;
        }
        if (h->cuda_driver / 1000 < v->cuda / 1000) {
            SAY("needs a driver that runs CUDA %s; this Jetson's (L4T R%s) runs CUDA %s", cuda,
                h->l4t_release, runs);
            return 0;
        }
        return 1;
    }
    if (v->tegra) {
        if (!h->l4t_release[0]) {
            SAY("needs L4T R%s or newer for CUDA %s; the L4T release is unknown", v->min_driver,
                cuda);
            return 0;
        }
        if (ortkit__version_compare(h->l4t_release, v->min_driver) < 0) {
            SAY("needs L4T R%s or newer for CUDA %s; found R%s", v->min_driver, cuda,
                h->l4t_release);
            return 0;
        }
        return 1;
    }
    if (!h->driver_version[0]) {
        SAY("needs driver >= %s for CUDA %s; the driver version is unknown", v->min_driver, cuda);
        return 0;
    }
    if (ortkit__version_compare(h->driver_version, v->min_driver) < 0) {
        SAY("needs driver >= %s for CUDA %s; found %s", v->min_driver, cuda, h->driver_version);
        return 0;
    }
    if (v->toolkit_driver[0] && ortkit__version_compare(h->driver_version, v->toolkit_driver) < 0)
        SAY("driver %s is older than CUDA %s's own minimum %s; it runs through minor-version "
            "compatibility", h->driver_version, cuda, v->toolkit_driver);
    return 1;
}

int ortkit_variant_fits(const ortkit_variant *v, const ortkit_host *host, char *why,
                        size_t why_size)
{
    if (why && why_size)
        why[0] = '\0';
    else
        why = NULL;
    if (!v || !host)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_variant_fits: NULL argument");
    if (v->defect && v->defect[0]) {
        SAY("no such build can exist: %s", v->defect);
        return 0;
    }

    if (host->arch != v->arch) {
        SAY("built for %s; this host is %s", ortkit_arch_name(v->arch),
            host->arch ? ortkit_arch_name(host->arch) : "of unknown architecture");
        return 0;
    }
    /* One CUDA platform's builds never run on another's: Jetson's L4T CUDA
     * and NVIDIA's SBSA CUDA are both aarch64. */
    if (v->cuda && ortkit__cuda_platform_refuses(v->cuda_platform, v->cuda, host, why, why ? why_size : 0))
        return 0;
    uint64_t missing = v->cpu_features & ~host->cpu_features;
    if (missing) {
        char list[256];
        feature_list(list, sizeof list, missing);
        SAY("needs %s; this CPU lacks %s", list, (missing & (missing - 1)) ? "them" : "it");
        return 0;
    }
    if (!v->cuda)
        return 1;
    if (!check_gpu(v, host, why, why_size))
        return 0;
    return check_driver(v, host, why, why_size);
}
