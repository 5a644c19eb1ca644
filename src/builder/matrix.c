/*
 * matrix.c - a set of variants ordered so that work they share is done
 * first: the dependencies once per platform, CUDA device code once per CUDA
 * version and SM, then each variant's own CPU-flag code (the rule is in
 * builder_matrix.h, ORTKIT__MATRIX_RULE).  `ortkit build --matrix` writes the jobs
 * for a CI system's matrix; a shared compiler cache carries the work from
 * one wave to the next.
 */
#include "builder_matrix.h"

#include <stdlib.h>
#include <string.h>

/* The baseline first: x86-64, avx2, avx512, avx512bf16, avx512vnni;
 * armv8.0, armv8.2, armv9. */
static int isa_rank(ortkit_isa isa)
{
    switch (isa) {
    case ORTKIT_ISA_X86_64:
    case ORTKIT_ISA_ARMV8_0:
        return 0;
    case ORTKIT_ISA_AVX2:
    case ORTKIT_ISA_ARMV8_2:
        return 1;
    case ORTKIT_ISA_AVX512:
    case ORTKIT_ISA_ARMV9:
        return 2;
    case ORTKIT_ISA_AVX512BF16:
        return 3;
    case ORTKIT_ISA_AVX512VNNI:
        return 4;
    }
    return 9;
}

static int same_platform(const ortkit_variant *a, const ortkit_variant *b)
{
    return a->arch == b->arch && !a->tegra == !b->tegra;
}

static int same_group(const ortkit_variant *a, const ortkit_variant *b)
{
    return same_platform(a, b) && a->cuda == b->cuda && a->sm == b->sm && !strcmp(a->cubin, b->cubin);
}

/* Platform, CPU-only before CUDA, CUDA version, SM, ISA. */
static int cmp_variant(const ortkit_variant *a, const ortkit_variant *b)
{
    if (a->arch != b->arch)
        return a->arch < b->arch ? -1 : 1;
    if (!a->tegra != !b->tegra)
        return a->tegra ? 1 : -1;
    if (a->cuda != b->cuda)
        return a->cuda < b->cuda ? -1 : 1;
    if (a->sm != b->sm)
        return a->sm < b->sm ? -1 : 1;
    int c = strcmp(a->cubin, b->cubin);
    if (c)
        return c;
    int ra = isa_rank(a->isa), rb = isa_rank(b->isa);
    return ra != rb ? (ra < rb ? -1 : 1) : strcmp(a->name, b->name);
}

static int cmp_job(const void *x, const void *y)
{
    const ortkit__builder_job_plan *a = x, *b = y;
    if (a->wave != b->wave)
        return a->wave < b->wave ? -1 : 1;
    return cmp_variant(a->variant, b->variant);
}

static int cmp_ptr(const void *x, const void *y)
{
    return cmp_variant(*(const ortkit_variant *const *)x, *(const ortkit_variant *const *)y);
}

void ortkit__builder_matrix_free(ortkit__builder_job_plan *jobs, size_t n)
{
    for (size_t i = 0; jobs && i < n; i++) {
        ortkit__strv_free(&jobs[i].seeds);
        ortkit__strv_free(&jobs[i].takes);
    }
    free(jobs);
}

int ortkit__builder_matrix_order(ortkit__builder_job_plan **out, size_t *n,
                                 const ortkit_variant *const *variants, size_t n_variants)
{
    *out = NULL;
    *n = 0;
    if (!n_variants)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "--matrix wants at least one variant");
    const ortkit_variant **v = malloc(n_variants * sizeof *v);
    ortkit__builder_job_plan *jobs = calloc(n_variants, sizeof *jobs);
    int rc = 0;
    if (!v || !jobs) {
        rc = ortkit__error_nomem();
        goto fail;
    }
    memcpy(v, variants, n_variants * sizeof *v);
    qsort(v, n_variants, sizeof *v, cmp_ptr);
    for (size_t i = 0; i < n_variants; i++) {
        if (i && v[i] == v[i - 1]) {
            rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "--matrix names %s twice", v[i]->name);
            goto fail;
        }
        if (v[i]->defect[0]) {
            rc = ortkit__error_set(ORTKIT_E_UNSUPPORTED, "variant %s cannot be built: %s", v[i]->name,
                                   v[i]->defect);
            goto fail;
        }
    }
    /* In the sorted order, the first variant of a platform (CPU-only ones
     * sort first, the baseline first among them) seeds the platform; the
     * first of every other CUDA/SM group seeds the group. */
    for (size_t i = 0; i < n_variants; i++) {
        ortkit__builder_job_plan *j = &jobs[i];
        const ortkit_variant *x = v[i];
        j->variant = x;
        snprintf(j->platform, sizeof j->platform, "%s%s", ortkit_arch_name(x->arch),
                 x->tegra ? " (Jetson)" : "");
        if (x->cuda) {
            snprintf(j->device_code, sizeof j->device_code, "CUDA %d.%d %s device code", x->cuda / 1000,
                     (x->cuda % 1000) / 10, x->cubin);
            snprintf(j->group, sizeof j->group, "%s cuda%d.%d %s", j->platform, x->cuda / 1000,
                     (x->cuda % 1000) / 10, x->cubin);
        } else {
            snprintf(j->group, sizeof j->group, "%s cpu", j->platform);
        }
        int first_of_platform = i == 0 || !same_platform(v[i - 1], x);
        int first_of_group = i == 0 || !same_group(v[i - 1], x);
        char deps[64];
        snprintf(deps, sizeof deps, "the %s dependencies", j->platform);
        j->wave = first_of_platform ? 1 : first_of_group && x->cuda ? 2 : 3;
        if (j->wave == 1)
            rc = ortkit__strv_push(&j->seeds, deps);
        else
            rc = ortkit__strv_push(&j->takes, deps);
        if (!rc && x->cuda)
            rc = ortkit__strv_push(first_of_group ? &j->seeds : &j->takes, j->device_code);
        if (rc)
            goto fail;
    }
    qsort(jobs, n_variants, sizeof *jobs, cmp_job);
    free(v);
    *out = jobs;
    *n = n_variants;
    return 0;
fail:
    free(v);
    ortkit__builder_matrix_free(jobs, n_variants);
    return rc;
}
