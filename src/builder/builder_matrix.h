/* builder_matrix.h - the builder: a matrix of variants for a CI system (matrix.c). */
#ifndef ORTKIT_BUILDER_MATRIX_H
#define ORTKIT_BUILDER_MATRIX_H

#include "ortkit.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * One job of a matrix: a variant, the wave it runs in, and what it builds
 * first for later jobs or takes from the shared cache.  The rule:
 *   - variants share by platform (architecture, Jetson or not): the
 *     dependencies, compiled without CPU flags; and by CUDA version and SM:
 *     the device code, compiled without them too;
 *   - wave 1: one job per platform, its baseline CPU-only variant when the
 *     set has one (else its first CUDA variant), builds the dependencies;
 *   - wave 2: the first variant of every other CUDA/SM group builds that
 *     group's device code, taking the dependencies;
 *   - wave 3: the rest build only their own ISA's code;
 *   - within a wave: platform (x86_64 first), CPU-only before CUDA, CUDA
 *     version, SM, then ISA from the baseline up (x86-64, avx2, avx512,
 *     avx512bf16, avx512vnni; armv8.0, armv8.2, armv9).
 */
typedef struct ortkit__builder_job_plan {
    const ortkit_variant *variant;
    int wave;                /* 1, 2 or 3 */
    char platform[32];       /* "x86_64", "aarch64", "aarch64 (Jetson)" */
    char group[64];          /* "x86_64 cpu", "x86_64 cuda12.9 sm_90a" */
    char device_code[48];    /* "CUDA 12.9 sm_90a device code", "" for CPU only */
    ortkit__strv seeds;      /* what it builds first for the others */
    ortkit__strv takes;      /* what it takes from the shared cache */
} ortkit__builder_job_plan;

#define ORTKIT__MATRIX_WAVES 3
#define ORTKIT__MATRIX_RULE                                                                     \
    "wave 1: one job per platform (its baseline CPU-only variant, else its first CUDA "        \
    "variant) builds the dependencies; wave 2: the first variant of every other CUDA/SM "      \
    "group builds that group's device code; wave 3: the rest build only their own CPU-flag "   \
    "code; within a wave: platform, CPU-only before CUDA, CUDA version, SM, ISA from the "     \
    "baseline up"

/* The jobs for variants (each once; *out freed with ortkit__builder_matrix_free). */
int ortkit__builder_matrix_order(ortkit__builder_job_plan **out, size_t *n,
                                 const ortkit_variant *const *variants, size_t n_variants);
void ortkit__builder_matrix_free(ortkit__builder_job_plan *jobs, size_t n);

#endif
