/*
 * overhead.c - what ortkit adds to a run, measured against the raw ORT C API.
 *
 * One process, one runtime library, the same model, inputs and thread count.
 * Two sessions (one through ortkit, one through the raw API) run in
 * alternating blocks so that drift in clock speed or cache state hits both
 * alike.  Reports the median and mean time per run of each and their ratio.
 *
 *   bench_overhead MODEL [-i NAME=FILE.npy]... [--threads N] [--rounds N] [--block N]
 *                  [--raw-first] [--only kit|raw]
 *
 * --only runs one side's timed loop, so that `valgrind --tool=callgrind`
 * can count each side's instructions (noise-free, unlike time).
 *
 * Inputs not given are zeros (symbolic dimensions are 1).
 */
#include <ortkit.h>

#include <onnxruntime_c_api.h>

#include "bench_common.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void die_ort(const OrtApi *api, OrtStatus *st, const char *what)
{
    bench_check("bench_overhead", api, st, what);
}

static void die(const char *what)
{
    fprintf(stderr, "bench_overhead: %s: %s\n", what, ortkit_error_last());
    exit(1);
}

/* The raw side: the same library ortkit loaded, driven directly. */
typedef struct raw_side {
    const OrtApi *api;
    OrtEnv *env;
    OrtSessionOptions *opts;
    OrtSession *session;
    OrtMemoryInfo *mem;
} raw_side;

static void raw_open(raw_side *r, const ortkit_runtime *rt, const char *model, int threads)
{
    void *lib = dlopen(ortkit_runtime_path(rt), RTLD_NOW | RTLD_NOLOAD);
    const OrtApiBase *(*get_base)(void) = lib ? (const OrtApiBase *(*)(void))dlsym(lib, "OrtGetApiBase") : NULL;
    if (!get_base) {
        fprintf(stderr, "bench_overhead: cannot reach OrtGetApiBase in %s\n", ortkit_runtime_path(rt));
        exit(1);
    }
    const OrtApi *api = r->api = get_base()->GetApi((uint32_t)ortkit_runtime_api_level(rt));
    die_ort(api, api->CreateEnv(ORT_LOGGING_LEVEL_FATAL, "bench", &r->env), "env");
    die_ort(api, api->CreateSessionOptions(&r->opts), "options");
    die_ort(api, api->SetIntraOpNumThreads(r->opts, threads), "threads");
    die_ort(api, api->SetInterOpNumThreads(r->opts, 1), "threads");
    die_ort(api, api->CreateSession(r->env, model, r->opts, &r->session), "raw session");
    die_ort(api, api->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &r->mem), "memory info");
}

int main(int argc, char **argv)
{
    const char *model = NULL, *in_names[64], *in_files[64];
    size_t n_given = 0;
    int threads = 1, rounds = 200, block = 50, raw_first = 0;
    const char *only = NULL; /* "kit" or "raw": one side only, for instruction counts */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-i") && i + 1 < argc && n_given < 64) {
            char *eq = strchr(argv[++i], '=');
            if (!eq) {
                fprintf(stderr, "bench_overhead: -i wants NAME=FILE.npy\n");
                return 2;
            }
            *eq = '\0';
            in_names[n_given] = argv[i];
            in_files[n_given++] = eq + 1;
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            threads = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "--raw-first")) {
            raw_first = 1; /* create the raw session first: a control for creation order */
        } else if (!strcmp(argv[i], "--block") && i + 1 < argc) {
            block = atoi(argv[++i]);
        } else if (argv[i][0] != '-' && !model) {
            model = argv[i];
        } else {
            fprintf(stderr, "usage: bench_overhead MODEL [-i NAME=FILE.npy]... [--threads N] "
                            "[--rounds N] [--block N] [--raw-first] [--only kit|raw]\n");
            return 2;
        }
    }
    if (!model || threads < 1 || rounds < 1 || block < 1) {
        fprintf(stderr, "usage: bench_overhead MODEL [-i NAME=FILE.npy]... [--threads N] [--rounds N] [--block N] [--raw-first] [--only kit|raw]\n");
        return 2;
    }

    /* ---- ortkit side ---- */
    ortkit_runtime *rt = NULL;
    ortkit_session *s = NULL;
    if (ortkit_runtime_open(&rt, NULL))
        die("runtime");
    raw_side raw_s;
    if (raw_first)
        raw_open(&raw_s, rt, model, threads);
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    so.intra_op_threads = threads;
    so.inter_op_threads = 1;
    if (ortkit_session_open(&s, rt, model, &so))
        die("session");
    size_t n_in = ortkit_session_input_count(s), n_out = ortkit_session_output_count(s);
    ortkit_tensor **inputs = calloc(n_in, sizeof *inputs);
    const char **names = calloc(n_in, sizeof *names);
    ortkit_tensor **outs = calloc(n_out, sizeof *outs);
    for (size_t i = 0; i < n_in; i++) {
        const ortkit_io_info *io = ortkit_session_input(s, i);
        names[i] = io->name;
        for (size_t k = 0; k < n_given; k++)
            if (!strcmp(in_names[k], io->name) && ortkit_npy_read(&inputs[i], in_files[k]))
                die(in_files[k]);
        if (!inputs[i]) {
            int64_t shape[ORTKIT_MAX_RANK];
            for (size_t d = 0; d < io->rank; d++)
                shape[d] = io->dims[d].value >= 0 ? io->dims[d].value : 1;
            if (ortkit_tensor_new(&inputs[i], io->type, shape, io->rank))
                die(io->name);
        }
    }

    if (!raw_first)
        raw_open(&raw_s, rt, model, threads);
    const OrtApi *api = raw_s.api;
    OrtSession *raw = raw_s.session;
    OrtMemoryInfo *mem = raw_s.mem;
    OrtValue **raw_in = calloc(n_in, sizeof *raw_in), **raw_out = calloc(n_out, sizeof *raw_out);
    const char **out_names = calloc(n_out, sizeof *out_names);
    for (size_t i = 0; i < n_out; i++)
        out_names[i] = ortkit_session_output(s, i)->name;
    for (size_t i = 0; i < n_in; i++)
        die_ort(api, api->CreateTensorWithDataAsOrtValue(
                         mem, ortkit_tensor_data(inputs[i]), ortkit_tensor_nbytes(inputs[i]),
                         ortkit_tensor_shape(inputs[i]), ortkit_tensor_rank(inputs[i]),
                         (ONNXTensorElementDataType)ortkit_tensor_type(inputs[i]), &raw_in[i]),
                "input");

    /* ---- interleaved timing ---- */
    double *t_kit = calloc((size_t)rounds, sizeof *t_kit), *t_raw = calloc((size_t)rounds, sizeof *t_raw);
    for (int warm = 0; warm < 20; warm++) {
        if (ortkit_session_run(s, NULL, names, (const ortkit_tensor *const *)inputs, n_in, NULL, 0, outs))
            die("run");
        for (size_t i = 0; i < n_out; i++)
            ortkit_tensor_free(outs[i]);
        die_ort(api, api->Run(raw, NULL, names, (const OrtValue *const *)raw_in, n_in, out_names, n_out, raw_out), "run");
        for (size_t i = 0; i < n_out; i++) {
            api->ReleaseValue(raw_out[i]);
            raw_out[i] = NULL;
        }
    }
    for (int r = 0; r < rounds; r++) {
        for (int side = 0; side < 2; side++) {
            /* Alternate which side goes first, so neither always follows the other. */
            int kit = (side == 0) == (r % 2 == 0);
            if (only && strcmp(only, kit ? "kit" : "raw"))
                continue;
            double start = bench_now();
            for (int b = 0; b < block; b++) {
                if (kit) {
                    if (ortkit_session_run(s, NULL, names, (const ortkit_tensor *const *)inputs, n_in,
                                           NULL, 0, outs))
                        die("run");
                    for (size_t i = 0; i < n_out; i++)
                        ortkit_tensor_free(outs[i]);
                } else {
                    die_ort(api, api->Run(raw, NULL, names, (const OrtValue *const *)raw_in, n_in,
                                          out_names, n_out, raw_out), "run");
                    for (size_t i = 0; i < n_out; i++) {
                        api->ReleaseValue(raw_out[i]);
                        raw_out[i] = NULL;
                    }
                }
            }
            (kit ? t_kit : t_raw)[r] = (bench_now() - start) / block;
        }
    }
    double mean_kit = 0, mean_raw = 0;
    for (int r = 0; r < rounds; r++) {
        mean_kit += t_kit[r] / rounds;
        mean_raw += t_raw[r] / rounds;
    }
    qsort(t_kit, (size_t)rounds, sizeof *t_kit, bench_cmp_double);
    qsort(t_raw, (size_t)rounds, sizeof *t_raw, bench_cmp_double);
    double med_kit = t_kit[rounds / 2], med_raw = t_raw[rounds / 2];
    printf("model      %s\n", model);
    printf("runtime    ONNX Runtime %s, %d intra-op thread(s)\n", ortkit_runtime_version(rt), threads);
    printf("runs       %d rounds x %d runs per side, interleaved; %s session created first\n\n",
           rounds, block, raw_first ? "raw" : "ortkit");
    printf("           %12s %12s %12s\n", "raw C API", "ortkit", "ortkit-raw");
    printf("median/run %10.3f us %9.3f us %+9.3f us\n", med_raw * 1e6, med_kit * 1e6, (med_kit - med_raw) * 1e6);
    printf("mean/run   %10.3f us %9.3f us %+9.3f us\n", mean_raw * 1e6, mean_kit * 1e6, (mean_kit - mean_raw) * 1e6);
    printf("ratio      %.4f (median), %.4f (mean)\n", med_kit / med_raw, mean_kit / mean_raw);

    for (size_t i = 0; i < n_in; i++) {
        api->ReleaseValue(raw_in[i]);
        ortkit_tensor_free(inputs[i]);
    }
    api->ReleaseMemoryInfo(mem);
    api->ReleaseSession(raw);
    api->ReleaseSessionOptions(raw_s.opts);
    api->ReleaseEnv(raw_s.env);
    free(raw_in);
    free(raw_out);
    free(out_names);
    free(inputs);
    free(names);
    free(outs);
    free(t_kit);
    free(t_raw);
    ortkit_session_free(s);
    ortkit_runtime_free(rt);
    return 0;
}
