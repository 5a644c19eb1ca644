/*
 * gpu_bundle_cost.c - what importing and completing a CUDA release costs,
 * against copying the same files with `cp -r` and hashing them with
 * `sha256sum`, in alternating rounds in one process (so the page cache and
 * the machine's load treat both alike).
 *
 *   bench_gpu_bundle_cost CORE_DIR PROVIDERS_DIR CUDA_LIB_DIR SCRATCH [ROUNDS]
 *
 * The files the baseline copies are the bundle's own libraries: the core,
 * the providers and the CUDA libraries completion takes from CUDA_LIB_DIR.
 * A second baseline hashes with `openssl dgst -sha256` (libcrypto, as ortkit
 * does), so the ratio is not only coreutils' slower SHA-256.
 */
#include "ortkit.h"
#include "ortkit/tools/bundle_make.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int run(const char *fmt, const char *a, const char *b, const char *c)
{
    char cmd[16384];
    snprintf(cmd, sizeof cmd, fmt, a, b, c);
    return system(cmd);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: bench_gpu_bundle_cost CORE_DIR PROVIDERS_DIR CUDA_LIB_DIR SCRATCH [ROUNDS]\n");
        return 2;
    }
    const char *core = argv[1], *providers = argv[2], *cuda = argv[3], *scratch = argv[4];
    int rounds = argc > 5 ? atoi(argv[5]) : 3;
    if (rounds < 1 || rounds > 100)
        rounds = 3;
    double *kit = calloc((size_t)rounds, sizeof *kit), *base = calloc((size_t)rounds, sizeof *base);
    double *ossl = calloc((size_t)rounds, sizeof *ossl);
    if (!kit || !base || !ossl)
        return 1;
    char into[4096], copy[4096], bundle[4200];
    snprintf(into, sizeof into, "%s/bundles", scratch);
    snprintf(copy, sizeof copy, "%s/copy", scratch);
    for (int r = -1; r < rounds; r++) { /* round -1 warms the page cache */
        run("rm -rf '%s' '%s' && mkdir -p '%s'", into, copy, into);
        double t0 = now();
        ortkit_bundle_import_options io = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
        io.into = into;
        io.providers = providers;
        io.name = "g";
        ortkit_bundle *b = NULL;
        if (ortkit_bundle_import(&b, core, &io) != 0) {
            fprintf(stderr, "bench_gpu_bundle_cost: import: %s\n", ortkit_error_last());
            return 1;
        }
        ortkit_bundle_free(b);
        snprintf(bundle, sizeof bundle, "%s/g", into);
        const char *from[] = {cuda};
        ortkit_bundle_complete_options co = ORTKIT_BUNDLE_COMPLETE_OPTIONS_INIT;
        co.from = from;
        co.from_count = 1;
        if (ortkit_bundle_complete(&b, bundle, &co) != 0) {
            fprintf(stderr, "bench_gpu_bundle_cost: complete: %s\n", ortkit_error_last());
            return 1;
        }
        const ortkit_manifest *m = ortkit_bundle_manifest(b);
        char libs[4096] = "";
        for (size_t i = 0; i < m->gpu_library_count; i++)
            snprintf(libs + strlen(libs), sizeof libs - strlen(libs), " '%s/%s'", cuda, m->gpu_libraries[i].soname);
        ortkit_bundle_free(b);
        double t1 = now();
        /* The same libraries, copied and hashed the plain way. */
        run("mkdir -p '%s' && cp -rL '%s' '%s/core'", copy, core, copy);
        run("cp -rL '%s' '%s/providers'", providers, copy, "");
        char cmd[16384];
        snprintf(cmd, sizeof cmd, "mkdir -p '%s/cuda' && cp -L%s '%s/cuda/' && find '%s' -type f -exec sha256sum {} + >/dev/null",
                 copy, libs, copy, copy);
        if (system(cmd) != 0)
            return 1;
        double t2 = now();
        run("rm -rf '%s' && mkdir -p '%s'%s", copy, copy, "");
        run("cp -rL '%s' '%s/core'%s", core, copy, "");
        run("cp -rL '%s' '%s/providers'", providers, copy, "");
        snprintf(cmd, sizeof cmd, "mkdir -p '%s/cuda' && cp -L%s '%s/cuda/' && find '%s' -type f -exec openssl dgst -sha256 {} + >/dev/null",
                 copy, libs, copy, copy);
        if (system(cmd) != 0)
            return 1;
        double t3 = now();
        if (r >= 0) {
            kit[r] = t1 - t0;
            base[r] = t2 - t1;
            ossl[r] = t3 - t2;
            printf("round %d: ortkit import+complete %.2f s, cp -r + sha256sum %.2f s (ratio %.2f), "
                   "cp -r + openssl %.2f s (ratio %.2f)\n", r, kit[r], base[r], kit[r] / base[r], ossl[r],
                   kit[r] / ossl[r]);
        }
    }
    qsort(kit, (size_t)rounds, sizeof *kit, cmp);
    qsort(base, (size_t)rounds, sizeof *base, cmp);
    qsort(ossl, (size_t)rounds, sizeof *ossl, cmp);
    printf("median: ortkit %.2f s, cp -r + sha256sum %.2f s (ratio %.2f), cp -r + openssl %.2f s "
           "(ratio %.2f)\n", kit[rounds / 2], base[rounds / 2], kit[rounds / 2] / base[rounds / 2],
           ossl[rounds / 2], kit[rounds / 2] / ossl[rounds / 2]);
    run("rm -rf '%s' '%s'", into, copy, "");
    return 0;
}
