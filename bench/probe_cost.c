/*
 * probe_cost.c - what deciding GPU providers in a probe process costs:
 * the probe itself (cold: the cache emptied before each round; cached),
 * a session asking for CUDA whose verdict is cached against one asking
 * for nothing, and ortkit_runtime_open with GPU bundles present against a
 * bundle-less open.  Interleaved in one process, medians of ROUNDS.
 *
 *   bench_probe_cost GPU_RUNTIME MODEL GPU_BUNDLES_DIR EMPTY_DIR [ROUNDS]
 *
 * XDG_CACHE_HOME and XDG_DATA_HOME are pointed at EMPTY_DIR/... so nothing
 * of the user's is used or changed.
 */
#include <ortkit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

static int check(ortkit_runtime *rt, const char *probe_want)
{
    ortkit_provider_status *ps = NULL;
    if (ortkit_runtime_provider_check(&ps, rt, "cuda"))
        return -1;
    int ok = probe_want == NULL || !strcmp(ps->probe, probe_want);
    ortkit_provider_status_free(ps);
    return ok ? 0 : -1;
}

static int session(ortkit_runtime *rt, const char *model, int cuda)
{
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    const char *const list[] = {"cuda"};
    so.providers = list;
    so.provider_count = cuda ? 1 : 0;
    ortkit_session *s = NULL;
    int rc = ortkit_session_open(&s, rt, model, &so);
    ortkit_session_free(s);
    return rc;
}

static int open_default(const char *bundles)
{
    setenv("ORTKIT_PATH", bundles, 1);
    ortkit_runtime *rt = NULL;
    int rc = ortkit_runtime_open(&rt, NULL);
    ortkit_runtime_free(rt);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: bench_probe_cost GPU_RUNTIME MODEL GPU_BUNDLES_DIR EMPTY_DIR [ROUNDS]\n");
        return 2;
    }
    int rounds = argc > 5 ? atoi(argv[5]) : 10;
    if (rounds < 1 || rounds > 1000)
        rounds = 10;
    char cache[4096], rm[4200];
    snprintf(cache, sizeof cache, "%s/cache", argv[4]);
    setenv("XDG_CACHE_HOME", cache, 1);
    setenv("XDG_DATA_HOME", argv[4], 1);
    setenv("XDG_DATA_DIRS", argv[4], 1);
    unsetenv("ORTKIT_RUNTIME");
    snprintf(rm, sizeof rm, "rm -rf '%s/ortkit/probe'", cache);

    ortkit_runtime_options ro = ORTKIT_RUNTIME_OPTIONS_INIT;
    ro.path = argv[1];
    ortkit_runtime *rt = NULL;
    if (ortkit_runtime_open(&rt, &ro)) {
        fprintf(stderr, "bench_probe_cost: %s\n", ortkit_error_last());
        return 1;
    }
    double *t[6];
    for (int i = 0; i < 6; i++)
        if (!(t[i] = calloc((size_t)rounds, sizeof *t[i])))
            return 1;
    for (int r = 0; r < rounds; r++) {
        if (system(rm) != 0)
            return 1;
        double t0 = now();
        int bad = check(rt, "ran");
        double t1 = now();
        bad |= check(rt, "cached");
        double t2 = now();
        bad |= session(rt, argv[2], 1);
        double t3 = now();
        bad |= session(rt, argv[2], 0);
        double t4 = now();
        bad |= open_default(argv[3]);
        double t5 = now();
        bad |= open_default(argv[4]);
        double t6 = now();
        if (bad) {
            fprintf(stderr, "bench_probe_cost: round %d failed: %s\n", r, ortkit_error_last());
            return 1;
        }
        t[0][r] = t1 - t0, t[1][r] = t2 - t1, t[2][r] = t3 - t2;
        t[3][r] = t4 - t3, t[4][r] = t5 - t4, t[5][r] = t6 - t5;
    }
    static const char *const what[] = {
        "probe, cold (a process)", "probe, cached", "session with --ep cuda (cached verdict)",
        "session, no providers", "runtime open, GPU bundles present", "runtime open, no bundles"};
    printf("%-42s %10s\n", "median of rounds", "ms");
    for (int i = 0; i < 6; i++)
        printf("%-42s %10.3f\n", what[i], median(t[i], rounds) * 1e3);
    ortkit_runtime_free(rt);
    return 0;
}
