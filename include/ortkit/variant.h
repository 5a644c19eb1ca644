/*
 * ortkit/variant.h - the build variants of ONNX Runtime: one table gives
 * each (CUDA toolkit, GPU architecture, CPU instruction set) its names, its
 * build flags and what it needs of a host.
 *
 * Part of the stable API; programs include <ortkit.h>.
 */
#ifndef ORTKIT_INCLUDE_VARIANT_H
#define ORTKIT_INCLUDE_VARIANT_H

#include "ortkit/common.h"
#include "ortkit/host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The CPU instruction set a variant is built for. */
typedef enum ortkit_isa {
    ORTKIT_ISA_AVX2 = 0,        /* -mavx2 -mfma */
    ORTKIT_ISA_AVX512 = 1,      /* -mavx512f -mavx512dq -mavx512vl -mavx512bw -mfma */
    ORTKIT_ISA_AVX512BF16 = 2,  /* AVX-512 + -mavx512bf16 */
    ORTKIT_ISA_AVX512VNNI = 3,  /* AVX-512 + -mavx512vnni */
    ORTKIT_ISA_ARMV8_2 = 4,     /* -march=armv8.2-a+fp16+dotprod */
    ORTKIT_ISA_ARMV9 = 5,       /* -march=armv9-a+sve2 */
    ORTKIT_ISA_X86_64 = 6,      /* -march=x86-64: the baseline, no ISA flags beyond it; picks
                                 * its kernels at run time and fits every x86-64 host */
    ORTKIT_ISA_ARMV8_0 = 7      /* -march=armv8-a: the ARMv8-A baseline, likewise for every
                                 * aarch64 host (a Cortex-A72, a Raspberry Pi 4) */
} ortkit_isa;

/* "avx2", "avx512", "avx512bf16", "avx512vnni", "armv8.2", "armv9", "x86-64", "armv8.0". */
ORTKIT_API const char *ortkit_isa_name(ortkit_isa isa);

/* One row of the table.  Rows are the library's, reached by pointer
 * (ortkit_variant_get, ortkit_variant_parse): later versions may add fields
 * at the end, and a program never makes one of its own. */
typedef struct ortkit_variant {
    const char *name;        /* canonical: "cuda12.9-sm90-avx512", "cpu-avx2", "cpu-x86-64",
                              * "cpu-armv8.0" */
    ortkit_arch arch;
    ortkit_isa isa;
    int cuda;                /* CUDA toolkit, 1000*major + 10*minor (12090); 0: CPU only */
    int sm;                  /* target GPU, 10*major + minor (90, 120); 0: CPU only */
    int sm_exact;            /* 1: arch-specific cubins (sm_90a) that run on that SM only */
    int tegra;               /* 1: built for Jetson's own CUDA, in Linux for Tegra (L4T):
                              * cuda_platform is ORTKIT_CUDA_PLATFORM_L4T */
    const char *cuda_architectures; /* CMAKE_CUDA_ARCHITECTURES: "90"; "" for CPU only */
    const char *cubin;       /* the SASS it carries: "sm_90a"; "" for CPU only */
    const char *cpu_flags;   /* compiler flags: "-mavx2 -mfma" */
    uint64_t cpu_features;   /* ORTKIT_CPU_BIT()s the CPU must have */
    /* Driver floor ortkit requires: minor-version compatibility for CUDA
     * 12.x (525.60.13), 13.x (580.65.06); for Jetson's L4T CUDA, the L4T
     * release.  A Jetson on SBSA CUDA (JetPack 7) is judged by the CUDA its
     * L4T release's driver runs. */
    const char *min_driver;
    const char *toolkit_driver; /* the toolkit's own minimum: "575.51.03"; "" */
    /* Why no such build can exist ("" when it can): kept because the Flox
     * matrix names it (CUDA 12.4 for SM 10.0/12.0); it never fits a host. */
    const char *defect;
    /* The CUDA it is built with (added in 0.5: read it only when the
     * library's version is known to have it): X86_64, SBSA (arm64 servers,
     * Jetson Thor) or L4T (Jetson Orin); UNKNOWN for CPU only.  It runs only
     * on a host that takes the same. */
    ortkit_cuda_platform cuda_platform;
} ortkit_variant;

/* A naming scheme, and the matrix of builds that goes with it. */
typedef enum ortkit_variant_form {
    ORTKIT_VARIANT_CANONICAL = 0, /* cuda12.9-sm90-avx512: every variant */
    ORTKIT_VARIANT_FLOX = 1       /* onnxruntime-python313-cuda12_9-sm90-avx512: the Flox
                                   * matrix names 66 of them */
} ortkit_variant_form;

ORTKIT_API size_t ortkit_variant_count(void);
/* Row i of the table, or NULL when i is out of range. */
ORTKIT_API const ortkit_variant *ortkit_variant_get(size_t i);
/* Find a variant by its canonical or Flox name (case-insensitive). */
ORTKIT_API int ortkit_variant_parse(const ortkit_variant **out, const char *name);
/* Write a variant's name in the given form; fails when buf is too small. */
ORTKIT_API int ortkit_variant_name(const ortkit_variant *v, char *buf, size_t size,
                                   ortkit_variant_form form);
/* Is v one of the builds the matrix of that form lists?  1 or 0; every
 * variant is in the canonical one.  Negative on bad arguments. */
ORTKIT_API int ortkit_variant_in_matrix(const ortkit_variant *v, ortkit_variant_form form);
/*
 * Can this host run this variant?  1: yes; why is "" or a caveat (e.g. a
 * driver below the toolkit's own minimum, accepted through minor-version
 * compatibility).  0: no; why says exactly why.  Negative on bad arguments.
 * why may be NULL.
 */
ORTKIT_API int ortkit_variant_fits(const ortkit_variant *v, const ortkit_host *host,
                                   char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_VARIANT_H */
