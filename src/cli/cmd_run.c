/* cmd_run.c - `ortkit run MODEL`: run a model once (or N times) and show its outputs. */
#include "cli.h"
#include "inputs.h"
#include "opt.h"
#include "values.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    OPT_INPUT = 1, OPT_RANDOM, OPT_ZEROS, OPT_DIM, OPT_OUTPUT, OPT_THREADS, OPT_EP, OPT_STRICT,
    OPT_REPEAT, OPT_SEED, OPT_RUNTIME, OPT_JSON
};

static const cli_opt run_opts[] = {
    {OPT_INPUT, "input", 'i', "NAME=FILE", CLI_OPT_REPEATS,
     "feed input NAME from a .npy file (FILE alone when the model has one input)"},
    {OPT_RANDOM, "random", 0, NULL, 0, "fill inputs not given with random values (seeded)"},
    {OPT_ZEROS, "zeros", 0, NULL, 0, "fill inputs not given with zeros"},
    {OPT_DIM, "dim", 0, "SYMBOL=VALUE", CLI_OPT_REPEATS,
     "size of a symbolic dimension for generated inputs"},
    {OPT_OUTPUT, "output", 'o', "DIR", 0, "save each output as DIR/NAME.npy"},
    {OPT_THREADS, "threads", 0, "N", 0, "intra-op threads (default: ORT's, one per core)"},
    {OPT_EP, "ep", 0, "LIST", 0, "execution providers in order, e.g. cuda,cpu"},
    {OPT_STRICT, "strict", 0, NULL, 0, "fail when a provider in --ep cannot be used"},
    {OPT_REPEAT, "repeat", 0, "N", 0, "run N times and report latency statistics"},
    {OPT_SEED, "seed", 0, "N", 0, "seed for --random (default 1)"},
    {OPT_RUNTIME, "runtime", 0, "PATH", 0, "ONNX Runtime library or directory to load"},
    {OPT_JSON, "json", 0, NULL, 0, "print JSON"},
    CLI_OPT_END};

static const cli_opt_spec run_spec = {
    "run",
    "usage: ortkit run MODEL [-i NAME=FILE.npy]... [--random|--zeros] [--dim SYMBOL=VALUE]...\n"
    "                  [-o DIR] [--threads N] [--ep LIST] [--strict] [--repeat N]\n"
    "                  [--seed N] [--runtime PATH] [--json]\n",
    "Run a model and show every output (type, shape, min/max/mean, first values),\n"
    "the time to create the session and the run latency.\n",
    run_opts, NULL, NULL};

#define MAX_ARGS 256

typedef struct run_args {
    const char *model, *runtime, *out_dir;
    input_spec in;
    const char *providers[MAX_ARGS];
    size_t n_providers;
    char *ep_list;
    long threads, repeat, seed;
    int strict, json;
} run_args;

static int parse_args(run_args *a, int argc, char **argv)
{
    cli_opt_parser p;
    int c;
    a->repeat = 1;
    a->seed = 1;
    cli_opt_init(&p, &run_spec, NULL, argc, argv);
    while ((c = cli_opt_next(&p)) > 0) {
        switch (c) {
        case OPT_INPUT:
            if (input_spec_add_file(&a->in, "run", p.value))
                return CLI_USAGE;
            break;
        case OPT_RANDOM:
        case OPT_ZEROS: {
            fill_mode fill = c == OPT_RANDOM ? FILL_RANDOM : FILL_ZEROS;
            if (a->in.fill != FILL_NONE && a->in.fill != fill)
                return cli_usage("run", "--random and --zeros exclude each other");
            a->in.fill = fill;
            break;
        }
        case OPT_DIM:
            if (input_spec_add_dim(&a->in, "run", p.value))
                return CLI_USAGE;
            break;
        case OPT_OUTPUT: a->out_dir = p.value; break;
        case OPT_THREADS:
            if (cli_parse_long(p.value, 1, 4096, &a->threads))
                return cli_usage("run", "--threads wants a number from 1 to 4096, got '%s'", p.value);
            break;
        case OPT_EP: a->ep_list = p.value; break;
        case OPT_STRICT: a->strict = 1; break;
        case OPT_REPEAT:
            if (cli_parse_long(p.value, 1, 100000000, &a->repeat))
                return cli_usage("run", "--repeat wants a number >= 1, got '%s'", p.value);
            break;
        case OPT_SEED:
            if (cli_parse_long(p.value, 0, UINT32_MAX, &a->seed))
                return cli_usage("run", "--seed wants a non-negative number, got '%s'", p.value);
            break;
        case OPT_RUNTIME: a->runtime = p.value; break;
        case OPT_JSON: a->json = 1; break;
        }
    }
    if (c == CLI_OPT_HELP)
        return -1;
    if (c == CLI_OPT_BAD)
        return CLI_USAGE;
    if (p.n_args != 1)
        return cli_usage("run", p.n_args ? "give exactly one model" : "no model given");
    a->model = p.args[0];
    a->in.seed = (unsigned)a->seed;
    return providers_split("run", a->ep_list, a->providers, MAX_ARGS, &a->n_providers);
}

/* Output names as file names: anything but [A-Za-z0-9._-] becomes '_'. */
static void file_name_for(const char *name, char *buf, size_t size)
{
    size_t i = 0;
    for (; name[i] && i + 1 < size; i++) {
        char ch = name[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '.' || ch == '_' || ch == '-';
        buf[i] = ok ? ch : '_';
    }
    buf[i] = '\0';
    if (!strcmp(buf, ".") || !strcmp(buf, "..") || !buf[0])
        snprintf(buf, size, "output");
}

/* DIR/FILE.npy into buf; 0, or -1 when it does not fit (a path that long is refused). */
static int npy_path(char *buf, size_t size, const char *dir, const char *file)
{
    int n = snprintf(buf, size, "%s/%s.npy", dir, file);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* Remove a staging directory and whatever is in it (flat: .npy files only). */
static void remove_staging(const char *staging, const ortkit_session *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char file[512], path[4096];
        file_name_for(ortkit_session_output(s, i)->name, file, sizeof file);
        if (!npy_path(path, sizeof path, staging, file))
            unlink(path);
    }
    rmdir(staging);
}

/*
 * Save every output as DIR/NAME.npy, all or nothing: each is written into a
 * staging directory inside DIR, every destination is checked, and only then
 * are they renamed into place.  A failure leaves DIR as it was.
 */
static int save_outputs(const char *dir, const ortkit_session *s, ortkit_tensor **outs, size_t n)
{
    struct stat st;
    int created = 0, rc = CLI_FAIL;
    if (stat(dir, &st) != 0) {
        if (errno != ENOENT || mkdir(dir, 0777) != 0)
            return cli_fail("cannot create output directory '%s': %s", dir, strerror(errno));
        created = 1;
    } else if (!S_ISDIR(st.st_mode)) {
        return cli_fail("output directory '%s' is not a directory", dir);
    }
    char staging[4096];
    snprintf(staging, sizeof staging, "%s/.ortkit-run-XXXXXX", dir);
    if (!mkdtemp(staging)) {
        cli_fail("cannot write into '%s': %s", dir, strerror(errno));
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        char file[512], path[4096];
        const char *name = ortkit_session_output(s, i)->name;
        file_name_for(name, file, sizeof file);
        if (npy_path(path, sizeof path, staging, file)) {
            cli_fail("output directory '%s': path too long", dir);
            goto unstage;
        }
        if (ortkit_npy_write(path, outs[i])) {
            cli_fail("output '%s': %s", name, ortkit_error_last());
            goto unstage;
        }
        if (npy_path(path, sizeof path, dir, file)) {
            cli_fail("output directory '%s': path too long", dir);
            goto unstage;
        }
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            cli_fail("output '%s': cannot replace '%s': it is a directory", name, path);
            goto unstage;
        }
    }
    for (size_t i = 0; i < n; i++) {
        char file[512], from[4096], to[4096];
        file_name_for(ortkit_session_output(s, i)->name, file, sizeof file);
        if (npy_path(from, sizeof from, staging, file) || npy_path(to, sizeof to, dir, file) ||
            rename(from, to) != 0) {
            cli_fail("cannot write '%s': %s", to, strerror(errno));
            goto unstage;
        }
    }
    rc = CLI_OK;
unstage:
    remove_staging(staging, s, n);
done:
    if (rc && created)
        rmdir(dir);
    return rc;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static cJSON *shape_json(const ortkit_tensor *t)
{
    cJSON *shape = cJSON_CreateArray();
    for (size_t d = 0; d < ortkit_tensor_rank(t); d++)
        cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)ortkit_tensor_shape(t)[d]));
    return shape;
}

/* CLI_OK, or CLI_FAIL when the output could not be written. */
static int report(const run_args *a, const ortkit_runtime *rt, const ortkit_session *s,
                   ortkit_tensor **outs, double create_s, double *lat, size_t runs)
{
    size_t n_out = ortkit_session_output_count(s);
    double first = lat[0];
    qsort(lat, runs, sizeof *lat, cmp_double);
    double sum = 0;
    for (size_t i = 0; i < runs; i++)
        sum += lat[i];
    double mean = sum / (double)runs, median = lat[runs / 2];
    if (a->json) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "model", a->model);
        cJSON *r = cJSON_AddObjectToObject(root, "runtime");
        cJSON_AddStringToObject(r, "version", ortkit_runtime_version(rt));
        cJSON_AddStringToObject(r, "path", ortkit_runtime_path(rt));
        cJSON *eps = cJSON_AddArrayToObject(root, "providers");
        for (size_t i = 0; i < ortkit_session_provider_count(s); i++) {
            const ortkit_provider_status *p = ortkit_session_provider(s, i);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", p->name);
            cJSON_AddBoolToObject(o, "active", p->active);
            if (!p->active)
                cJSON_AddStringToObject(o, "reason", p->reason);
            cJSON_AddItemToArray(eps, o);
        }
        cJSON_AddNumberToObject(root, "session_create_s", create_s);
        cJSON *l = cJSON_AddObjectToObject(root, "latency_s");
        cJSON_AddNumberToObject(l, "runs", (double)runs);
        cJSON_AddNumberToObject(l, "first", first);
        cJSON_AddNumberToObject(l, "min", lat[0]);
        cJSON_AddNumberToObject(l, "mean", mean);
        cJSON_AddNumberToObject(l, "median", median);
        cJSON_AddNumberToObject(l, "max", lat[runs - 1]);
        cJSON *outputs = cJSON_AddArrayToObject(root, "outputs");
        for (size_t i = 0; i < n_out; i++) {
            const ortkit_tensor *t = outs[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", ortkit_session_output(s, i)->name);
            cJSON_AddStringToObject(o, "type", ortkit_type_name(ortkit_tensor_type(t)));
            cJSON_AddItemToObject(o, "shape", shape_json(t));
            value_summary sum_i;
            summarize(t, &sum_i);
            if (sum_i.numeric && ortkit_tensor_count(t) > sum_i.nan_count) {
                cJSON_AddNumberToObject(o, "min", sum_i.min);
                cJSON_AddNumberToObject(o, "max", sum_i.max);
                cJSON_AddNumberToObject(o, "mean", sum_i.mean);
            }
            cJSON *fv = cJSON_AddArrayToObject(o, "first");
            for (size_t k = 0; k < ortkit_tensor_count(t) && k < 8; k++)
                cJSON_AddItemToArray(fv, ortkit_tensor_type(t) == ORTKIT_TYPE_STRING
                                             ? cJSON_CreateString(ortkit_tensor_string(t, k))
                                             : cJSON_CreateNumber(value_at(t, k)));
            cJSON_AddItemToArray(outputs, o);
        }
        return cli_json_print(root);
    }
    printf("model     %s\n", cli_esc(a->model));
    printf("runtime   ONNX Runtime %s (%s)\n", cli_esc(ortkit_runtime_version(rt)),
           cli_esc(ortkit_runtime_path(rt)));
    printf("providers");
    for (size_t i = 0; i < ortkit_session_provider_count(s); i++) {
        const ortkit_provider_status *p = ortkit_session_provider(s, i);
        printf(" %s%s", cli_esc(p->name), p->active ? "" : " (skipped)");
    }
    printf("\n\n");
    static const char *const headers[] = {"output", "type", "shape", "min", "max", "mean", "first values"};
    cli_table *t = cli_table_new(7, headers);
    for (size_t c = 3; c < 6; c++)
        cli_table_align_right(t, c);
    for (size_t i = 0; i < n_out; i++) {
        char shape[256], mn[32] = "-", mx[32] = "-", me[32] = "-", fv[256];
        ortkit_tensor_describe(outs[i], shape, sizeof shape);
        const char *bracket = strchr(shape, '[');
        value_summary sm;
        summarize(outs[i], &sm);
        if (sm.numeric && ortkit_tensor_count(outs[i]) > sm.nan_count) {
            snprintf(mn, sizeof mn, "%.6g", sm.min);
            snprintf(mx, sizeof mx, "%.6g", sm.max);
            snprintf(me, sizeof me, "%.6g", sm.mean);
        }
        first_values(outs[i], 6, fv, sizeof fv);
        cli_table_add(t, (const char *const[]){ortkit_session_output(s, i)->name,
                                               ortkit_type_name(ortkit_tensor_type(outs[i])),
                                               bracket ? bracket : shape, mn, mx, me, fv});
    }
    int printed = cli_table_print(t, stdout, "");
    cli_table_free(t);
    if (printed)
        return cli_fail("out of memory");
    char b1[32], b2[32], b3[32], b4[32];
    ortkit__human_duration(b1, sizeof b1, create_s);
    ortkit__human_duration(b2, sizeof b2, first);
    printf("\nsession created in %s; first run %s", b1, b2);
    if (runs > 1) {
        ortkit__human_duration(b1, sizeof b1, lat[0]);
        ortkit__human_duration(b2, sizeof b2, median);
        ortkit__human_duration(b3, sizeof b3, mean);
        ortkit__human_duration(b4, sizeof b4, lat[runs - 1]);
        printf("\n%zu runs: min %s, median %s, mean %s, max %s", runs, b1, b2, b3, b4);
    }
    printf("\n");
    return CLI_OK;
}

int cmd_run(int argc, char **argv)
{
    run_args a = {0};
    int prc = parse_args(&a, argc, argv);
    if (prc)
        return prc < 0 ? CLI_OK : prc;

    ortkit_runtime *rt = NULL;
    ortkit_session *s = NULL;
    ortkit_tensor **inputs = NULL, **outs = NULL;
    const char **names = NULL;
    double *lat = NULL;
    size_t n_in = 0, n_out = 0;
    int rc = CLI_FAIL;

    if (cli_open_runtime(&rt, a.runtime)) {
        cli_fail_lib();
        goto cleanup;
    }
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    so.intra_op_threads = (int)a.threads;
    so.providers = a.providers;
    so.provider_count = a.n_providers;
    so.ep_policy = a.strict ? ORTKIT_EP_STRICT : ORTKIT_EP_FALLBACK;
    double t0 = ortkit__clock_now();
    if (ortkit_session_open(&s, rt, a.model, &so)) {
        cli_fail_lib();
        goto cleanup;
    }
    double create_s = ortkit__clock_now() - t0;
    providers_warn_skipped(s);
    n_in = ortkit_session_input_count(s);
    n_out = ortkit_session_output_count(s);
    inputs = calloc(n_in + 1, sizeof *inputs);
    names = calloc(n_in + 1, sizeof *names);
    outs = calloc(n_out + 1, sizeof *outs);
    lat = calloc((size_t)a.repeat, sizeof *lat);
    if (!inputs || !names || !outs || !lat) {
        cli_fail("out of memory");
        goto cleanup;
    }
    if (inputs_build(&a.in, a.model, s, inputs, names))
        goto cleanup;
    for (long r = 0; r < a.repeat; r++) {
        if (r > 0)
            for (size_t i = 0; i < n_out; i++) {
                ortkit_tensor_free(outs[i]);
                outs[i] = NULL;
            }
        double start = ortkit__clock_now();
        if (ortkit_session_run(s, NULL, names, (const ortkit_tensor *const *)inputs, n_in, NULL, 0, outs)) {
            cli_fail_lib();
            goto cleanup;
        }
        lat[r] = ortkit__clock_now() - start;
    }
    if (a.out_dir && save_outputs(a.out_dir, s, outs, n_out))
        goto cleanup;
    rc = report(&a, rt, s, outs, create_s, lat, (size_t)a.repeat);
cleanup:
    for (size_t i = 0; inputs && i < n_in; i++)
        ortkit_tensor_free(inputs[i]);
    for (size_t i = 0; outs && i < n_out; i++)
        ortkit_tensor_free(outs[i]);
    free(inputs);
    free(outs);
    free(names);
    free(lat);
    ortkit_session_free(s);
    ortkit_runtime_free(rt);
    return rc;
}
