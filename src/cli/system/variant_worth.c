/* variant_worth.c - the measured worth of CPU variants (variant_worth.h). */
#include "variant_worth.h"

#include <string.h>

/* Pairs measured with bench/bench_variants.sh (PERFORMANCE.md, "What a CPU
 * variant is worth"); a pair not here was not measured. */
static const struct measured {
    const char *higher, *lower, *text;
} measured[] = {
    {"cpu-avx2", "cpu-x86-64",
     "measured 0.85-1.13 p50 (medians of 3 rounds) on 7 models, ONNX Runtime 1.21.0 built by "
     "ortkit, AMD EPYC with AVX2, 1 and 2 threads: no consistent gain"},
    {"cpu-x86-64", "cpu",
     "measured 0.86-1.06 p50 (medians of 3 rounds) on 7 models against Microsoft's generic "
     "1.21.0, on an AMD EPYC with AVX2 and on one with AVX-512, 1 and 2 threads: faster on "
     "Silero VAD (0.86-0.88) and PP-OCRv4 det (0.92-0.98), within 6% on the rest"},
    {"cpu-avx512vnni", "cpu-x86-64",
     "measured 0.63-1.08 p50 (medians of 3 rounds) on 7 models, ONNX Runtime 1.21.0 built by "
     "ortkit, AMD EPYC (Zen 5) with AVX-512 and VNNI, 1 and 2 threads: faster only where "
     "compiled element-wise code dominates (PP-OCR cls 0.88, rec 0.91-0.95), no gain on Gemm "
     "or INT8 (MLAS picks its AVX-512 and VNNI kernels at run time in both builds)"},
    {"cpu-avx512", "cpu",
     "measured 0.79-1.03 p50 (medians of 3 rounds) on 7 models against Microsoft's generic "
     "1.21.0 (toolchain and flags together), Intel Xeon (Cascade Lake) with AVX-512, 1 and 2 "
     "threads: faster on Silero VAD (0.79-0.82) and PP-OCRv4 (0.88-0.99), none on Gemm, INT8 "
     "or element-wise (0.97-1.03)"},
};

const char *variant_worth(const char *higher, const char *lower)
{
    for (size_t i = 0; higher && lower && i < sizeof measured / sizeof measured[0]; i++)
        if (!strcmp(measured[i].higher, higher) && !strcmp(measured[i].lower, lower))
            return measured[i].text;
    return NULL;
}
