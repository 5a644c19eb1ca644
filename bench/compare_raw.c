/*
 * compare_raw.c - the measurement of `ortkit bench`, done on the raw ORT C API.
 *
 * A reference for ortkit's figures: the same method (a cold session and its
 * first run, then a second session, its first run, a warm-up, then timed
 * runs, each timed around Run alone) with nothing of ortkit in the loop.
 * ortkit is used only to read .npy files before anything is timed, and the
 * clock and the statistics are ortkit bench's own (src/util), so the two
 * differ only in what is measured.  bench/compare_raw.py alternates this
 * program with `ortkit bench` and compares their figures.
 *
 *   bench_compare_raw MODEL --runtime PATH [-i NAME=FILE.npy]... [--threads N]
 *                     [-n RUNS] [--warmup N]
 *
 * Inputs not given are zeros, symbolic dimensions 1.  Prints JSON shaped like
 * the "sides" entry of `ortkit bench --json`.
 */
#include <ortkit.h>

#include <onnxruntime_c_api.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "util.h"

#define MAX_INPUTS 64

static double cpu_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec * 1e-6;
}

static const OrtApi *api;

static void check(OrtStatus *st, const char *what)
{
    if (!st)
        return;
    fprintf(stderr, "bench_compare_raw: %s: %s\n", what, api->GetErrorMessage(st));
    exit(1);
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_compare_raw MODEL --runtime PATH [-i NAME=FILE.npy]... [--threads N] "
                    "[-n RUNS] [--warmup N]\n");
    exit(2);
}

typedef struct raw {
    OrtEnv *env;
    OrtMemoryInfo *mem;
    const char *model;
    int threads;
    size_t n_in, n_out;
    char *in_names[MAX_INPUTS], *out_names[MAX_INPUTS];
    OrtValue *inputs[MAX_INPUTS];
} raw;

static OrtSession *open_session(const raw *r, double *seconds)
{
    OrtSessionOptions *so;
    OrtSession *s;
    check(api->CreateSessionOptions(&so), "session options");
    if (r->threads)
        check(api->SetIntraOpNumThreads(so, r->threads), "threads");
    double t0 = ortkit__clock_now();
    check(api->CreateSession(r->env, r->model, so, &s), "session");
    *seconds = ortkit__clock_now() - t0;
    api->ReleaseSessionOptions(so);
    return s;
}

/* One Run; outputs released after the clock stops, as ortkit bench does. */
static double run_once(const raw *r, OrtSession *s)
{
    OrtValue *outs[MAX_INPUTS] = {0};
    double t0 = ortkit__clock_now();
    check(api->Run(s, NULL, (const char *const *)r->in_names, (const OrtValue *const *)r->inputs, r->n_in,
                   (const char *const *)r->out_names, r->n_out, outs), "run");
    double dt = ortkit__clock_now() - t0;
    for (size_t i = 0; i < r->n_out; i++)
        api->ReleaseValue(outs[i]);
    return dt;
}

/* Input and output names, and zero or .npy inputs, from the cold session. */
static void make_io(raw *r, OrtSession *s, ortkit_tensor **keep, char **names, char **files, size_t n_given)
{
    OrtAllocator *alloc;
    check(api->GetAllocatorWithDefaultOptions(&alloc), "allocator");
    check(api->SessionGetInputCount(s, &r->n_in), "inputs");
    check(api->SessionGetOutputCount(s, &r->n_out), "outputs");
    if (r->n_in > MAX_INPUTS || r->n_out > MAX_INPUTS) {
        fprintf(stderr, "bench_compare_raw: too many inputs or outputs\n");
        exit(1);
    }
    for (size_t i = 0; i < r->n_out; i++)
        check(api->SessionGetOutputName(s, i, alloc, &r->out_names[i]), "output name");
    for (size_t i = 0; i < r->n_in; i++) {
        check(api->SessionGetInputName(s, i, alloc, &r->in_names[i]), "input name");
        for (size_t k = 0; k < n_given; k++)
            if (!strcmp(names[k], r->in_names[i]) && ortkit_npy_read(&keep[i], files[k])) {
                fprintf(stderr, "bench_compare_raw: %s\n", ortkit_error_last());
                exit(1);
            }
        if (!keep[i]) {
            OrtTypeInfo *ti;
            const OrtTensorTypeAndShapeInfo *tsi;
            ONNXTensorElementDataType type;
            size_t rank;
            int64_t shape[ORTKIT_MAX_RANK];
            check(api->SessionGetInputTypeInfo(s, i, &ti), "input type");
            check(api->CastTypeInfoToTensorInfo(ti, &tsi), "input type");
            check(api->GetTensorElementType(tsi, &type), "input type");
            check(api->GetDimensionsCount(tsi, &rank), "input rank");
            check(api->GetDimensions(tsi, shape, rank), "input shape");
            for (size_t d = 0; d < rank; d++)
                shape[d] = shape[d] < 0 ? 1 : shape[d];
            api->ReleaseTypeInfo(ti);
            if (ortkit_tensor_new(&keep[i], (ortkit_type)type, shape, rank)) {
                fprintf(stderr, "bench_compare_raw: %s\n", ortkit_error_last());
                exit(1);
            }
        }
        check(api->CreateTensorWithDataAsOrtValue(r->mem, ortkit_tensor_data(keep[i]), ortkit_tensor_nbytes(keep[i]),
                                                  ortkit_tensor_shape(keep[i]), ortkit_tensor_rank(keep[i]),
                                                  (ONNXTensorElementDataType)ortkit_tensor_type(keep[i]),
                                                  &r->inputs[i]), "input value");
    }
}

static const char *library_path(const char *path, char *buf, size_t size)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(buf, size, "%s/libonnxruntime.so", path);
        return buf;
    }
    return path;
}

int main(int argc, char **argv)
{
    raw r = {0};
    const char *runtime = NULL;
    char *names[MAX_INPUTS], *files[MAX_INPUTS];
    size_t n_given = 0;
    long runs = 1000, warmup = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-i") && i + 1 < argc && n_given < MAX_INPUTS) {
            char *eq = strchr(argv[++i], '=');
            if (!eq)
                usage();
            *eq = '\0';
            names[n_given] = argv[i];
            files[n_given++] = eq + 1;
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            r.threads = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            runs = atol(argv[++i]);
        } else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) {
            warmup = atol(argv[++i]);
        } else if (!strcmp(argv[i], "--runtime") && i + 1 < argc) {
            runtime = argv[++i];
        } else if (argv[i][0] != '-' && !r.model) {
            r.model = argv[i];
        } else {
            usage();
        }
    }
    if (!r.model || !runtime || runs < 1 || warmup < 0 || r.threads < 0)
        usage();

    char buf[4096];
    double t0 = ortkit__clock_now();
    void *lib = dlopen(library_path(runtime, buf, sizeof buf), RTLD_NOW | RTLD_LOCAL);
    const OrtApiBase *(*get_base)(void) = lib ? (const OrtApiBase *(*)(void))dlsym(lib, "OrtGetApiBase") : NULL;
    if (!get_base) {
        fprintf(stderr, "bench_compare_raw: cannot load %s: %s\n", runtime, dlerror());
        return 1;
    }
    const OrtApiBase *base = get_base();
    const char *version = base->GetVersionString();
    int minor = atoi(strchr(version, '.') ? strchr(version, '.') + 1 : "0");
    api = base->GetApi((uint32_t)(minor < ORT_API_VERSION ? minor : ORT_API_VERSION));
    check(api->CreateEnv(ORT_LOGGING_LEVEL_FATAL, "raw", &r.env), "env");
    double load_s = ortkit__clock_now() - t0;
    check(api->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &r.mem), "memory info");

    ortkit_tensor *keep[MAX_INPUTS] = {0};
    double cold_create, create;
    OrtSession *cold = open_session(&r, &cold_create);
    make_io(&r, cold, keep, names, files, n_given);
    double cold_first = run_once(&r, cold);
    OrtSession *s = open_session(&r, &create);
    double first = run_once(&r, s);
    for (long w = 0; w < warmup; w++)
        run_once(&r, s);

    double *lat = malloc((size_t)runs * sizeof *lat);
    if (!lat)
        return 1;
    double cpu0 = cpu_now(), wall0 = ortkit__clock_now();
    for (long k = 0; k < runs; k++)
        lat[k] = run_once(&r, s);
    double wall = ortkit__clock_now() - wall0, cpu = cpu_now() - cpu0;
    ortkit__stats st;
    ortkit__stats_compute(&st, lat, (size_t)runs);

    printf("{\n  \"runtime\": {\"version\": \"%s\"},\n  \"runtime_load_s\": %.9g,\n", version, load_s);
    printf("  \"cold\": {\"session_create_s\": %.9g, \"first_run_s\": %.9g},\n", cold_create, cold_first);
    printf("  \"session_create_s\": %.9g,\n  \"first_run_s\": %.9g,\n  \"runs\": %ld,\n  \"wall_s\": %.9g,\n", create,
           first, runs, wall);
    printf("  \"latency_s\": {\"min\": %.9g, \"mean\": %.9g, \"stddev\": %.9g, \"p50\": %.9g, \"p90\": %.9g, "
           "\"p95\": %.9g, \"p99\": %.9g, \"max\": %.9g},\n",
           st.min, st.mean, st.stddev, st.p50, st.p90, st.p95, st.p99, st.max);
    printf("  \"throughput_runs_per_s\": %.9g,\n  \"cpu\": {\"percent_of_one_core\": %.9g}\n}\n", (double)runs / wall,
           cpu / wall * 100);

    free(lat);
    for (size_t i = 0; i < r.n_in; i++) {
        api->ReleaseValue(r.inputs[i]);
        ortkit_tensor_free(keep[i]);
    }
    OrtAllocator *alloc;
    check(api->GetAllocatorWithDefaultOptions(&alloc), "allocator");
    for (size_t i = 0; i < r.n_in; i++)
        check(api->AllocatorFree(alloc, r.in_names[i]), "free");
    for (size_t i = 0; i < r.n_out; i++)
        check(api->AllocatorFree(alloc, r.out_names[i]), "free");
    api->ReleaseSession(s);
    api->ReleaseSession(cold);
    api->ReleaseMemoryInfo(r.mem);
    api->ReleaseEnv(r.env);
    return 0;
}
