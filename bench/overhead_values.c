/*
 * overhead_values.c - what ortkit's value handling (sequences, maps,
 * optionals) adds to a run, measured against the raw ORT C API.
 *
 * The method of overhead.c: one process, one runtime library, the same model,
 * inputs and thread count, sessions run in alternating blocks.  Three sides:
 *   raw       OrtApi::Run on pre-made input values, outputs released unread;
 *   raw+read  the same, then every output read as a program must read it to
 *             use it: a sequence's elements and a map's keys and values
 *             through GetValue, each tensor's type, shape and data;
 *   ortkit    ortkit_session_run_values, outputs freed (what it returns is
 *             read already: ortkit_value trees over the same copies).
 *
 *   bench_overhead_values MODEL [-i NAME=FILE.npy[,FILE.npy...]]... [--threads N]
 *                         [--rounds N] [--block N] [--only raw|raw+read|ortkit]
 *
 * --only runs one side's timed loop, so that `valgrind --tool=callgrind`
 * can count each side's instructions (noise-free, unlike time).
 *
 * An -i with several files (comma-separated) is a sequence input.  Tensor
 * inputs not given are zeros (symbolic dimensions are 1).
 */
#include <ortkit.h>

#include <onnxruntime_c_api.h>

#include "bench_common.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SIDES = 3, MAX_IN = 64, MAX_ITEMS = 256 };
static const char *const labels[SIDES] = {"raw", "raw+read", "ortkit"};

static const OrtApi *api;

static void check(OrtStatus *st, const char *what)
{
    bench_check("bench_overhead_values", api, st, what);
}

static void die(const char *what)
{
    fprintf(stderr, "bench_overhead_values: %s: %s\n", what, ortkit_error_last());
    exit(1);
}

/* Read an output as a program using it would; returns a byte of its data so
 * the reads are not optimised away. */
static unsigned read_value(OrtValue *v, OrtAllocator *alloc)
{
    enum ONNXType type;
    check(api->GetValueType(v, &type), "value type");
    unsigned sum = 0;
    if (type == ONNX_TYPE_TENSOR) {
        OrtTensorTypeAndShapeInfo *ti;
        ONNXTensorElementDataType et;
        size_t rank;
        int64_t dims[32];
        void *data = NULL;
        check(api->GetTensorTypeAndShape(v, &ti), "shape");
        check(api->GetTensorElementType(ti, &et), "type");
        check(api->GetDimensionsCount(ti, &rank), "rank");
        check(api->GetDimensions(ti, dims, rank < 32 ? rank : 32), "dims");
        api->ReleaseTensorTypeAndShapeInfo(ti);
        if (et != ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING) {
            check(api->GetTensorMutableData(v, &data), "data");
            sum = data ? *(unsigned char *)data : 0;
        }
        return sum;
    }
    size_t n = 0;
    check(api->GetValueCount(v, &n), "count");
    for (size_t i = 0; i < n; i++) {
        OrtValue *part = NULL;
        check(api->GetValue(v, (int)i, alloc, &part), "part");
        sum += read_value(part, alloc);
        api->ReleaseValue(part);
    }
    return sum;
}

static void load(ortkit_tensor **out, const char *path)
{
    if (ortkit_npy_read(out, path))
        die(path);
}

/* The input's value: a tensor from one file, a sequence from several, zeros. */
static ortkit_value *make_input(const ortkit_io_info *io, char *files)
{
    ortkit_value *v = NULL;
    if (files && strchr(files, ',')) {
        ortkit_value *items[MAX_ITEMS];
        size_t n = 0;
        for (char *f = strtok(files, ","); f && n < MAX_ITEMS; f = strtok(NULL, ",")) {
            ortkit_tensor *t;
            load(&t, f);
            if (ortkit_value_new_tensor(&items[n++], t))
                die(f);
        }
        if (ortkit_value_new_sequence(&v, items, n))
            die(io->name);
        return v;
    }
    ortkit_tensor *t = NULL;
    if (files) {
        load(&t, files);
    } else {
        int64_t shape[ORTKIT_MAX_RANK];
        for (size_t d = 0; io->rank != SIZE_MAX && d < io->rank; d++)
            shape[d] = io->dims[d].value >= 0 ? io->dims[d].value : 1;
        if (io->kind != ORTKIT_KIND_TENSOR ||
            ortkit_tensor_new(&t, io->type, shape, io->rank == SIZE_MAX ? 0 : io->rank))
            die(io->name);
    }
    if (ortkit_value_new_tensor(&v, t))
        die(io->name);
    return v;
}

/* The raw side's input, made once as a raw program would: over the same memory. */
static OrtValue *raw_input(const ortkit_value *v, OrtMemoryInfo *mem)
{
    const ortkit_tensor *t = ortkit_value_tensor(v);
    OrtValue *out = NULL;
    if (t) {
        check(api->CreateTensorWithDataAsOrtValue(mem, ortkit_tensor_data(t), ortkit_tensor_nbytes(t),
                                                  ortkit_tensor_shape(t), ortkit_tensor_rank(t),
                                                  (ONNXTensorElementDataType)ortkit_tensor_type(t), &out),
              "input");
        return out;
    }
    size_t n = ortkit_value_count(v);
    OrtValue *items[MAX_ITEMS];
    for (size_t i = 0; i < n; i++)
        items[i] = raw_input(ortkit_value_item(v, i), mem);
    check(api->CreateValue((const OrtValue *const *)items, n, ONNX_TYPE_SEQUENCE, &out), "sequence");
    for (size_t i = 0; i < n; i++)
        api->ReleaseValue(items[i]);
    return out;
}

int main(int argc, char **argv)
{
    const char *model = NULL, *usage = "usage: bench_overhead_values MODEL [-i NAME=FILE.npy[,FILE.npy...]]... "
                                       "[--threads N] [--rounds N] [--block N] [--only raw|raw+read|ortkit]\n";
    char *given_names[MAX_IN], *given_files[MAX_IN];
    size_t n_given = 0;
    int threads = 1, rounds = 200, block = 50;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-i") && i + 1 < argc && n_given < MAX_IN && strchr(argv[i + 1], '=')) {
            given_names[n_given] = argv[++i];
            given_files[n_given] = strchr(argv[i], '=') + 1;
            given_files[n_given++][-1] = '\0';
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            threads = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "--block") && i + 1 < argc) {
            block = atoi(argv[++i]);
        } else if (argv[i][0] != '-' && !model) {
            model = argv[i];
        } else {
            fputs(usage, stderr);
            return 2;
        }
    }
    if (!model || threads < 1 || rounds < 1 || block < 1) {
        fputs(usage, stderr);
        return 2;
    }
    ortkit_runtime *rt = NULL;
    ortkit_session *s = NULL;
    if (ortkit_runtime_open(&rt, NULL))
        die("runtime");
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    so.intra_op_threads = threads;
    so.inter_op_threads = 1;
    if (ortkit_session_open(&s, rt, model, &so))
        die("session");
    size_t n_in = ortkit_session_input_count(s), n_out = ortkit_session_output_count(s);
    ortkit_value *inputs[MAX_IN] = {0}, *outs[MAX_IN] = {0};
    const char *names[MAX_IN], *out_names[MAX_IN];
    if (n_in > MAX_IN || n_out > MAX_IN)
        die("too many inputs or outputs");
    for (size_t i = 0; i < n_in; i++) {
        const ortkit_io_info *io = ortkit_session_input(s, i);
        char *files = NULL;
        for (size_t k = 0; k < n_given; k++)
            if (!strcmp(given_names[k], io->name))
                files = given_files[k];
        names[i] = io->name;
        inputs[i] = make_input(io, files);
    }
    for (size_t i = 0; i < n_out; i++)
        out_names[i] = ortkit_session_output(s, i)->name;

    /* The raw side: the same library ortkit loaded, driven directly. */
    void *lib = dlopen(ortkit_runtime_path(rt), RTLD_NOW | RTLD_NOLOAD);
    const OrtApiBase *(*base)(void) = lib ? (const OrtApiBase *(*)(void))dlsym(lib, "OrtGetApiBase") : NULL;
    if (!base)
        die("OrtGetApiBase");
    api = base()->GetApi((uint32_t)ortkit_runtime_api_level(rt));
    OrtEnv *env;
    OrtSessionOptions *opts;
    OrtSession *raw;
    OrtMemoryInfo *mem;
    OrtAllocator *alloc;
    check(api->CreateEnv(ORT_LOGGING_LEVEL_FATAL, "bench", &env), "env");
    check(api->CreateSessionOptions(&opts), "options");
    check(api->SetIntraOpNumThreads(opts, threads), "threads");
    check(api->SetInterOpNumThreads(opts, 1), "threads");
    check(api->CreateSession(env, model, opts, &raw), "raw session");
    check(api->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &mem), "memory info");
    check(api->GetAllocatorWithDefaultOptions(&alloc), "allocator");
    OrtValue *raw_in[MAX_IN], *raw_out[MAX_IN] = {0};
    for (size_t i = 0; i < n_in; i++)
        raw_in[i] = raw_input(inputs[i], mem);

    double *t[SIDES];
    for (int k = 0; k < SIDES; k++)
        t[k] = calloc((size_t)rounds, sizeof *t[k]);
    volatile unsigned sink = 0;
    for (int r = -1; r < rounds; r++) { /* round -1 warms up, untimed */
        for (int j = 0; j < SIDES; j++) {
            int side = (j + (r < 0 ? 0 : r)) % SIDES; /* each side goes first in turn */
            if (only && r >= 0 && strcmp(only, labels[side]))
                continue;
            double start = bench_now();
            for (int b = 0; b < block; b++) {
                if (side == 2) {
                    if (ortkit_session_run_values(s, NULL, names, (const ortkit_value *const *)inputs,
                                                  n_in, NULL, 0, outs))
                        die("run");
                    for (size_t i = 0; i < n_out; i++)
                        ortkit_value_free(outs[i]);
                    continue;
                }
                check(api->Run(raw, NULL, names, (const OrtValue *const *)raw_in, n_in, out_names,
                               n_out, raw_out), "run");
                for (size_t i = 0; i < n_out; i++) {
                    if (side == 1)
                        sink += read_value(raw_out[i], alloc);
                    api->ReleaseValue(raw_out[i]);
                    raw_out[i] = NULL;
                }
            }
            if (r >= 0)
                t[side][r] = (bench_now() - start) / block;
        }
    }
    double med[SIDES], mean[SIDES];
    for (int k = 0; k < SIDES; k++) {
        mean[k] = 0;
        for (int r = 0; r < rounds; r++)
            mean[k] += t[k][r] / rounds;
        qsort(t[k], (size_t)rounds, sizeof *t[k], bench_cmp_double);
        med[k] = t[k][rounds / 2];
    }
    printf("model      %s\n", model);
    printf("runtime    ONNX Runtime %s, %d intra-op thread(s)\n", ortkit_runtime_version(rt), threads);
    printf("runs       %d rounds x %d runs per side, interleaved\n\n", rounds, block);
    printf("%-10s %14s %14s %16s %16s\n", "side", "median/run", "mean/run", "vs raw+read", "ratio (median)");
    for (int k = 0; k < SIDES; k++)
        printf("%-10s %11.3f us %11.3f us %+13.3f us %16.4f\n", labels[k], med[k] * 1e6, mean[k] * 1e6,
               (med[k] - med[1]) * 1e6, med[k] / med[1]);

    for (size_t i = 0; i < n_in; i++) {
        api->ReleaseValue(raw_in[i]);
        ortkit_value_free(inputs[i]);
    }
    for (int k = 0; k < SIDES; k++)
        free(t[k]);
    api->ReleaseMemoryInfo(mem);
    api->ReleaseSession(raw);
    api->ReleaseSessionOptions(opts);
    api->ReleaseEnv(env);
    ortkit_session_free(s);
    ortkit_runtime_free(rt);
    return sink == 0xdeadbeef;
}
