/* cmd_run.c - `ortkit run MODEL`: run a model once (or N times) and show its outputs. */
#include "cli.h"
#include "inputs.h"
#include "interrupt.h"
#include "opt.h"
#include "output_dir.h"
#include "session_flags.h"
#include "value_show.h"
#include "values.h"
#include "view.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 256

typedef struct run_args {
    const char *model, *runtime, *bundle, *out_dir;
    ortkit_runtime_options ro; /* what to load (--runtime or --bundle), then the rest */
    input_spec in;
    int random, zeros;
    const char *providers[MAX_ARGS];
    size_t n_providers;
    char *ep_list;
    long threads, repeat, seed;
    int strict, json;
    session_flags flags;
    char measured[1024];       /* what choosing by measurement said; "" */
} run_args;

static const cli_opt run_opts[] = {
    {0, "input", 'i', "NAME=FILE", CLI_OPT_REPEATS,
     "feed input NAME from FILE: .npy, .json (a map), a directory (a sequence)",
     CLI_OPT_CALL(run_args, in, input_opt_file)},
    {0, "random", 0, NULL, 0, "fill inputs not given with random values (seeded)",
     CLI_OPT_FLAG(run_args, random)},
    {0, "zeros", 0, NULL, 0, "fill inputs not given with zeros", CLI_OPT_FLAG(run_args, zeros)},
    {0, "dim", 0, "SYMBOL=VALUE", CLI_OPT_REPEATS,
     "size of a symbolic dimension for generated inputs", CLI_OPT_CALL(run_args, in, input_opt_dim)},
    {0, "shape", 0, "NAME=D0,D1", CLI_OPT_REPEATS,
     "the whole shape of generated input NAME (for dimensions without a name)",
     CLI_OPT_CALL(run_args, in, input_opt_shape)},
    {0, "output", 'o', "DIR", 0, "save each output in DIR (NAME.npy, NAME.json, NAME/)",
     CLI_OPT_STRING(run_args, out_dir)},
    {0, "threads", 0, "N", 0, "intra-op threads (default: ORT's, one per core)",
     CLI_OPT_LONG(run_args, threads, 1, 4096)},
    SESSION_EP_ROW(run_args, ep_list),
    {0, "strict", 0, NULL, 0, "fail when a provider in --ep cannot be used",
     CLI_OPT_FLAG(run_args, strict)},
    {0, "repeat", 0, "N", 0, "run N times and report latency statistics",
     CLI_OPT_LONG(run_args, repeat, 1, 100000000)},
    {0, "seed", 0, "N", 0, "seed for --random (default 1)", CLI_OPT_LONG(run_args, seed, 0, UINT32_MAX)},
    {0, "runtime", 0, "PATH", 0, "ONNX Runtime library or directory to load",
     CLI_OPT_STRING(run_args, runtime)},
    CLI_BUNDLE_ROW(run_args, bundle),
    {0, "json", 0, NULL, 0, "print JSON", CLI_OPT_FLAG(run_args, json)},
    SESSION_FLAG_ROWS(run_args, flags),
    RUNTIME_FLAG_ROWS(run_args, flags),
    CLI_OPT_ARGS(1, 1, "no model given"),
    CLI_OPT_END};

static const cli_opt_spec run_spec = {
    "run",
    "usage: ortkit run MODEL [-i NAME=FILE.npy]... [--random|--zeros] [--dim SYMBOL=VALUE]...\n"
    "                  [--shape NAME=D0,D1,...]... [-o DIR] [--threads N] [--ep LIST]\n"
    "                  [--strict] [--repeat N] [--seed N] [--runtime PATH | --bundle NAME|DIR]\n"
    "                  [--json] [--cache[=DIR]] [--arena on|off] [--mem-pattern on|off]\n"
    "                  [--spin on|off]\n"
    "                  [--arena-extend power2|requested]\n",
    "Run a model and show every output (type, shape, min/max/mean, first values),\n"
    "the time to create the session and the run latency.\n",
    run_opts, NULL,
    "--dim sizes a symbolic dimension by its name, in every input that has it; a\n"
    "dimension without a name (a model exported with shape [None, 12]) has none:\n"
    "--shape X=4,12 gives generated input X its whole shape, which must agree with\n"
    "the model's fixed dimensions (NAME= for a scalar).\n"
    "-o DIR saves output NAME as DIR/NAME.npy, each character other than a letter,\n"
    "a digit, '.', '_' or '-' replaced by '_' (\".\", \"..\" and \"\" give output.npy).\n"
    "A sequence is the directory DIR/NAME/ of 0.npy, 1.npy... (0.json... for maps),\n"
    "a map DIR/NAME.json ({\"keys\": [...], \"values\": [...]}), an optional holding\n"
    "none DIR/NAME.json holding null.  -i reads the same files back.\n"
    "Outputs that would share a file are an error before the model runs: a file\n"
    "always holds the output its name says.  DIR and its parents are made as needed.\n"
    "All files or none: a failure or an interrupt leaves DIR as it was, and removes\n"
    "the directories the run made.\n"
    "Exit status: 0 ok, 1 failure, 2 usage, 130 interrupted (SIGINT or SIGTERM).\n"};

static int parse_args(run_args *a, int argc, char **argv)
{
    cli_opt_parser p;
    a->repeat = 1;
    a->seed = 1;
    if (cli_opt_parse(&p, &run_spec, NULL, a, argc, argv))
        return p.status ? p.status : -1;
    if (session_flags_done(&a->flags, "run"))
        return CLI_USAGE;
    if (a->random && a->zeros)
        return cli_usage("run", "--random and --zeros exclude each other");
    a->in.fill = a->random ? FILL_RANDOM : a->zeros ? FILL_ZEROS : FILL_NONE;
    a->model = p.args[0];
    a->in.seed = (unsigned)a->seed;
    int rc = cli_runtime_choice(&a->ro, "run", a->runtime, a->bundle);
    if (rc)
        return rc;
    return providers_split("run", a->ep_list, a->providers, MAX_ARGS, &a->n_providers);
}

/* CLI_OK, or CLI_FAIL when the output could not be written. */

/* The session fell back: a provider asked for was skipped and only the CPU is left. */
static int runs_on_cpu_instead(const ortkit_session *s)
{
    int skipped = 0, other = 0;
    for (size_t i = 0; i < ortkit_session_provider_count(s); i++) {
        const ortkit_provider_status *p = ortkit_session_provider(s, i);
        skipped |= !p->active;
        other |= p->active && strcmp(p->name, "CPUExecutionProvider");
    }
    return skipped && !other;
}

/* What a run found, once: the view --json prints (with the outputs, added
 * there), and the text is drawn from. */
static cJSON *run_view(const run_args *a, const ortkit_runtime *rt, const ortkit_session *s,
                       double create_s, const double *sorted, size_t runs, double first)
{
    double sum = 0;
    for (size_t i = 0; i < runs; i++)
        sum += sorted[i];
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "model", a->model);
    cJSON *r = cJSON_AddObjectToObject(root, "runtime");
    cJSON_AddStringToObject(r, "version", ortkit_runtime_version(rt));
    cJSON_AddStringToObject(r, "path", ortkit_runtime_path(rt));
    cJSON_AddItemToObject(r, "measured", a->measured[0] ? cJSON_CreateString(a->measured)
                                                        : cJSON_CreateNull());
    cJSON *eps = cJSON_AddArrayToObject(root, "providers");
    for (size_t i = 0; i < ortkit_session_provider_count(s); i++) {
        const ortkit_provider_status *p = ortkit_session_provider(s, i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", p->name);
        cJSON_AddBoolToObject(o, "active", p->active);
        if (!p->active)
            cJSON_AddStringToObject(o, "reason", p->reason);
        if (!p->active && p->detail[0])
            cJSON_AddStringToObject(o, "detail", p->detail);
        if (p->method[0])
            cJSON_AddStringToObject(o, "method", p->method);
        if (p->probe[0])
            cJSON_AddStringToObject(o, "probe", p->probe);
        cJSON_AddItemToArray(eps, o);
    }
    cJSON_AddBoolToObject(root, "cpu_fallback", runs_on_cpu_instead(s));
    cJSON_AddNumberToObject(root, "session_create_s", create_s);
    if (session_flags_cache_word(s))
        cJSON_AddStringToObject(root, "session_cache", session_flags_cache_word(s));
    /* The one median (stats.c), as `bench` reports its p50: of an even
     * count, the mean of the middle two. */
    CLI_VIEW_ADD_NUMBERS(cJSON_AddObjectToObject(root, "latency_s"), {"runs", (double)runs},
                         {"first", first}, {"min", sorted[0]}, {"mean", sum / (double)runs},
                         {"median", ortkit__stats_percentile(sorted, runs, 0.5)},
                         {"max", sorted[runs - 1]});
    return root;
}

static void runtime_cell(const cJSON *o, char *buf, size_t size)
{
    const cJSON *rt = cli_view_at(o, "runtime");
    snprintf(buf, size, "ONNX Runtime %s (%s)", cli_view_str(rt, "version"), cli_view_str(rt, "path"));
}

/* Only when a measurement chose the bundle: otherwise the declared order did, as ever. */
static void chosen_cell(const cJSON *o, char *buf, size_t size)
{
    const char *measured = cli_view_str(cli_view_at(o, "runtime"), "measured");
    if (!strncmp(measured, "measured: ", 10))
        snprintf(buf, size, "%s", measured);
}

static void providers_cell(const cJSON *o, char *buf, size_t size)
{
    const cJSON *p;
    size_t used = 0;
    cJSON_ArrayForEach(p, cli_view_at(o, "providers"))
        if (used < size)
            used += (size_t)snprintf(buf + used, size - used, "%s%s%s", used ? " " : "",
                                     cli_view_str(p, "name"),
                                     cli_view_bool(p, "active") ? "" : " (skipped)");
}

static void runs_on_cell(const cJSON *o, char *buf, size_t size)
{
    if (cli_view_bool(o, "cpu_fallback"))
        snprintf(buf, size, "the CPU only: the providers asked for were skipped (see above)");
}

static const cli_view_field run_fields[] = {{"model", "model", NULL, NULL, ""},
                                            {"runtime", NULL, runtime_cell, NULL, ""},
                                            {"chosen", NULL, chosen_cell, NULL, NULL},
                                            {"providers", NULL, providers_cell, NULL, ""},
                                            {"runs on", NULL, runs_on_cell, NULL, NULL}};

/* The view as text: what ran, each output's rows, the times. */
static int run_text(const cJSON *view)
{
    const cJSON *lat = cJSON_GetObjectItemCaseSensitive(view, "latency_s"), *p;
    const cJSON *cache = cJSON_GetObjectItemCaseSensitive(view, "session_cache");
    cli_view_fields(stdout, view, CLI_VIEW_FIELDS(run_fields), "%-9s ");
    printf("\n");
    static const char *const headers[] = {"output", "type", "shape", "min", "max", "mean", "first values"};
    cli_table *t = cli_table_new(7, headers);
    for (size_t c = 3; c < 6; c++)
        cli_table_align_right(t, c);
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(view, "outputs"))
        if (value_rows(t, cli_view_str(p, "name"), p))
            break;
    int printed = cli_table_print(t, stdout, "");
    cli_table_free(t);
    if (printed)
        return cli_fail("out of memory");
    char b1[32], b2[32], b3[32], b4[32];
    ortkit__human_duration(b1, sizeof b1, cli_view_num(view, "session_create_s"));
    ortkit__human_duration(b2, sizeof b2, cli_view_num(lat, "first"));
    printf("\nsession created in %s%s%s; first run %s", b1, cJSON_IsString(cache) ? ", cache: " : "",
           cJSON_IsString(cache) ? cache->valuestring : "", b2);
    if (cli_view_num(lat, "runs") > 1) {
        ortkit__human_duration(b1, sizeof b1, cli_view_num(lat, "min"));
        ortkit__human_duration(b2, sizeof b2, cli_view_num(lat, "median"));
        ortkit__human_duration(b3, sizeof b3, cli_view_num(lat, "mean"));
        ortkit__human_duration(b4, sizeof b4, cli_view_num(lat, "max"));
        printf("\n%.0f runs: min %s, median %s, mean %s, max %s", cli_view_num(lat, "runs"), b1, b2, b3,
               b4);
    }
    printf("\n");
    return CLI_OK;
}

static int report(const run_args *a, const ortkit_runtime *rt, const ortkit_session *s,
                  ortkit_value **outs, double create_s, double *lat, size_t runs)
{
    double first = lat[0];
    ortkit__stats_sort(lat, runs);
    cJSON *view = run_view(a, rt, s, create_s, lat, runs, first);
    if (!view)
        return cli_fail("out of memory");
    cJSON *outputs = cJSON_AddArrayToObject(view, "outputs");
    for (size_t i = 0; outputs && i < ortkit_session_output_count(s); i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", ortkit_session_output(s, i)->name);
        value_view(o, outs[i]);
        cJSON_AddItemToArray(outputs, o);
    }
    if (a->json)
        return cli_json_print(view);
    int rc = run_text(view);
    cJSON_Delete(view);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    run_args a = {.ro = ORTKIT_RUNTIME_OPTIONS_INIT};
    int prc = parse_args(&a, argc, argv);
    if (prc)
        return prc < 0 ? CLI_OK : prc;

    ortkit_runtime *rt = NULL;
    ortkit_session *s = NULL;
    ortkit_value **inputs = NULL, **outs = NULL;
    const char **names = NULL;
    out_file *files = NULL;
    double *lat = NULL;
    size_t n_in = 0, n_out = 0;
    int rc = CLI_FAIL;

    /* Until the outputs are saved there is nothing to undo: an interrupt ends the run at once. */
    cli_interrupt_init();

    ortkit_runtime_options ro = a.ro;
    session_flags_runtime(&a.flags, &ro);
    /* The model and how it runs: a measurement remembered for them may choose the bundle. */
    char shapes[4096];
    ro.model = a.model;
    ro.model_shapes = input_spec_shapes(&a.in, shapes, sizeof shapes) ? NULL : shapes;
    ro.model_threads = (int)a.threads;
    if (cli_open_runtime_told(&rt, &ro, a.measured, sizeof a.measured)) {
        cli_fail_lib();
        goto cleanup;
    }
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    session_flags_apply(&a.flags, &so);
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
    session_flags_warn(s);
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
    if (a.out_dir && output_dir_plan(&files, s, n_out, a.out_dir))
        goto cleanup;
    if (inputs_build(&a.in, a.model, s, inputs, names))
        goto cleanup;
    for (long r = 0; r < a.repeat; r++) {
        if (r > 0)
            for (size_t i = 0; i < n_out; i++) {
                ortkit_value_free(outs[i]);
                outs[i] = NULL;
            }
        double start = ortkit__clock_now();
        if (ortkit_session_run_values(s, NULL, names, (const ortkit_value *const *)inputs, n_in, NULL,
                                      0, outs)) {
            cli_fail_lib();
            goto cleanup;
        }
        lat[r] = ortkit__clock_now() - start;
    }
    if (a.out_dir && (rc = output_dir_save(a.out_dir, files, s, outs, n_out)))
        goto cleanup;
    rc = report(&a, rt, s, outs, create_s, lat, (size_t)a.repeat);
cleanup:
    for (size_t i = 0; inputs && i < n_in; i++)
        ortkit_value_free(inputs[i]);
    for (size_t i = 0; outs && i < n_out; i++)
        ortkit_value_free(outs[i]);
    free(inputs);
    free(outs);
    free(names);
    free(files);
    free(lat);
    ortkit_session_free(s);
    ortkit_runtime_free(rt);
    return rc;
}
