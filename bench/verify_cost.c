/*
 * verify_cost.c - what checking a bundle before every load costs: a full
 * verification (every file hashed) against one the verified-state cache
 * vouches for (only the directories walked and the files stat'ed), and a
 * whole resolve (bundle listing, host detection, selection, verification),
 * interleaved in one process.
 *
 *   bench_verify_cost BUNDLE_DIR [ROUNDS]
 */
#include "bundle.h"

#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_verify_cost BUNDLE_DIR [ROUNDS]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 20;
    if (rounds < 1 || rounds > 10000)
        rounds = 20;
    ortkit_bundle *b = NULL;
    if (ortkit_bundle_open(&b, argv[1])) {
        fprintf(stderr, "bench_verify_cost: %s\n", ortkit_error_last());
        return 1;
    }
    double *full = calloc((size_t)rounds, sizeof *full), *cached = calloc((size_t)rounds, sizeof *cached);
    double *resolve = calloc((size_t)rounds, sizeof *resolve);
    if (!full || !cached || !resolve)
        return 1;
    uint64_t bytes = 0;
    for (size_t i = 0; i < ortkit_bundle_manifest(b)->file_count; i++)
        bytes += ortkit_bundle_manifest(b)->files[i].size;
    int hit = 0;
    ortkit__bundle_check(b, 1, &hit); /* fill the cache */
    for (int r = 0; r < rounds; r++) {
        double t0 = ortkit__clock_now();
        int rc = ortkit__bundle_check(b, 0, NULL);
        double t1 = ortkit__clock_now();
        int rc2 = ortkit__bundle_check(b, 1, &hit);
        double t2 = ortkit__clock_now();
        ortkit_resolution *res = NULL;
        int rc3 = ortkit_runtime_resolve(&res, NULL, NULL, 0);
        double t3 = ortkit__clock_now();
        ortkit_resolution_free(res);
        if (rc || rc2 || !hit || rc3) {
            fprintf(stderr, "bench_verify_cost: %s\n", ortkit_error_last());
            return 1;
        }
        full[r] = t1 - t0;
        cached[r] = t2 - t1;
        resolve[r] = t3 - t2;
    }
    double f = median(full, rounds), c = median(cached, rounds), s = median(resolve, rounds);
    printf("bundle      %s (%zu files, %.1f MiB)\n", argv[1], ortkit_bundle_manifest(b)->file_count,
           (double)bytes / 1048576.0);
    printf("rounds      %d, medians\n", rounds);
    printf("full        %8.2f ms  (every file hashed: %.0f MiB/s)\n", f * 1e3,
           (double)bytes / 1048576.0 / f);
    printf("cached      %8.3f ms  (walk and stat; %.0fx faster)\n", c * 1e3, f / c);
    printf("resolve     %8.3f ms  (list bundles, detect the host, select, verify through the cache)\n",
           s * 1e3);
    ortkit_bundle_free(b);
    free(full);
    free(cached);
    free(resolve);
    return 0;
}
