/*
 * cmd_bench.c - `ortkit bench MODEL`: latency, throughput, CPU and memory of
 * a model on a runtime, or of two runtimes / two settings side by side.
 */
#include "bench.h"
#include "bench_modes.h"
#include "ortkit/tools/measure.h"
#include "cli.h"
#include "interrupt.h"
#include "opt.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

typedef struct bench_args {
    bench_config cfg;
    char *ep_list[2];
    const char *runtimes[2];
    size_t n_runtimes;
    const char *bundle;
    char *bundle_path;     /* --bundle as the path to load */
    long threads, threads_b; /* threads_b -1: as A */
    int ep_b_set, runtime_b_set, compare, random_set, zeros_set;
    long seed;
    bench_mode_args mode;
} bench_args;

/* "4,1,2" into out[] (at most BENCH_MAX_LIST); -1 when not such a list. */
static int parse_long_list(const char *s, long lo, long hi, long *out, size_t *n)
{
    char buf[256];
    if (snprintf(buf, sizeof buf, "%s", s) >= (int)sizeof buf)
        return -1;
    *n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (*n == BENCH_MAX_LIST || cli_parse_long(tok, lo, hi, &out[(*n)++]))
            return -1;
    return *n ? 0 : -1;
}

/* "session,global" or "on,off" into out[]: the index of each word in words. */
static int parse_word_list(const char *s, const char *const *words, const int *values, int *out, size_t *n)
{
    char buf[256];
    if (snprintf(buf, sizeof buf, "%s", s) >= (int)sizeof buf)
        return -1;
    *n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        size_t w = 0;
        while (words[w] && strcmp(words[w], tok))
            w++;
        if (!words[w] || *n == BENCH_MAX_LIST)
            return -1;
        out[(*n)++] = values[w];
    }
    return *n ? 0 : -1;
}

/* --dim SYMBOL=LO..HI[:STEP]: a swept dimension, which starts at LO. */
static int parse_sweep(bench_args *a, char *arg)
{
    bench_mode_args *m = &a->mode;
    char *eq = strchr(arg, '='), *dots = strstr(arg, "..");
    long lo, hi, step = 1;
    char lo_s[32], hi_s[32], step_s[32] = "1";
    if (!eq || eq == arg || dots < eq || m->n_sweep == INPUTS_MAX ||
        sscanf(eq + 1, "%31[0-9]..%31[0-9]%*[:]%31[0-9]", lo_s, hi_s, step_s) < 2 ||
        cli_parse_long(lo_s, 1, INT32_MAX, &lo) || cli_parse_long(hi_s, 1, INT32_MAX, &hi) ||
        cli_parse_long(step_s, 1, INT32_MAX, &step) || hi <= lo)
        return cli_usage("bench", "--dim wants SYMBOL=LO..HI or SYMBOL=LO..HI:STEP, 1 <= LO < HI, "
                         "got '%s'", arg);
    *dots = '\0';
    m->sweep_symbol[m->n_sweep] = arg;
    m->sweep_lo[m->n_sweep] = lo;
    m->sweep_hi[m->n_sweep] = hi;
    m->sweep_step[m->n_sweep++] = step;
    return input_spec_add_dim(&a->cfg.in, "bench", arg); /* "SYMBOL=LO" */
}

static int parse_compare(bench_args *a, char *arg)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return cli_usage("bench", "--compare wants KEY=VALUE (runtime=PATH, threads=N, ep=LIST or "
                         "model=FILE), got '%s'", arg);
    *eq = '\0';
    const char *value = eq + 1;
    a->compare = 1;
    if (!strcmp(arg, "runtime")) {
        if (!*value)
            return cli_usage("bench", "--compare runtime= wants a path");
        if (a->runtime_b_set || a->n_runtimes == 2)
            return cli_usage("bench", "the runtime of B is given twice");
        a->runtime_b_set = 1;
        a->runtimes[1] = value;
    } else if (!strcmp(arg, "threads")) {
        if (cli_parse_long(value, 1, 4096, &a->threads_b))
            return cli_usage("bench", "--compare threads= wants a number from 1 to 4096, got '%s'", value);
    } else if (!strcmp(arg, "ep")) {
        a->ep_b_set = 1;
        a->ep_list[1] = eq + 1;
    } else if (!strcmp(arg, "model")) {
        if (!*value)
            return cli_usage("bench", "--compare model= wants a model file");
        a->cfg.side[1].model = value;
    } else {
        return cli_usage("bench", "--compare: unknown setting '%s' (runtime, threads, ep or model)", arg);
    }
    return 0;
}

static int add_input(cli_opt_parser *p, void *args, char *value)
{
    return input_spec_add_file(&((bench_args *)args)->cfg.in, p->spec->command, value);
}

static int add_shape(cli_opt_parser *p, void *args, char *value)
{
    return input_spec_add_shape(&((bench_args *)args)->cfg.in, p->spec->command, value);
}

/* --dim SYMBOL=SIZE, or a sweep SYMBOL=LO..HI[:STEP]. */
static int add_dim(cli_opt_parser *p, void *args, char *value)
{
    bench_args *a = args;
    return strstr(value, "..") ? parse_sweep(a, value)
                               : input_spec_add_dim(&a->cfg.in, p->spec->command, value);
}

/* --runtime, once for each side at most. */
static int add_runtime(cli_opt_parser *p, void *args, char *value)
{
    bench_args *a = args;
    if (a->n_runtimes == 2 || (a->n_runtimes == 1 && a->runtime_b_set))
        return cli_usage(p->spec->command, "at most two runtimes can be compared");
    a->runtimes[a->n_runtimes++] = value;
    return 0;
}

static int add_compare(cli_opt_parser *p, void *args, char *value)
{
    return parse_compare(args, value) ? CLI_USAGE : 0;
}

static int set_sessions(cli_opt_parser *p, void *mode, char *value)
{
    bench_mode_args *m = mode;
    if (parse_long_list(value, 1, BENCH_MAX_SESSIONS, m->sessions, &m->n_sessions))
        return cli_usage(p->spec->command, "--sessions wants numbers from 1 to %d separated by "
                         "commas (at most %d), got '%s'", BENCH_MAX_SESSIONS, BENCH_MAX_LIST, value);
    return 0;
}

static int set_pools(cli_opt_parser *p, void *mode, char *value)
{
    static const char *const words[] = {"session", "global", NULL};
    static const int values[] = {0, 1};
    bench_mode_args *m = mode;
    if (parse_word_list(value, words, values, m->global_pools, &m->n_pools))
        return cli_opt_bad_value(p, NULL);
    return 0;
}

/* --spin on|off, or a list of them for --sessions; one value is also the sessions' setting. */
static int set_spin(cli_opt_parser *p, void *mode, char *value)
{
    static const char *const words[] = {"on", "off", NULL};
    bench_mode_args *m = mode;
    if (parse_word_list(value, words, session_flags_on_off, m->spin, &m->n_spin))
        return cli_opt_bad_value(p, NULL);
    if (m->n_spin == 1)
        m->flags.spin = m->spin[0];
    return 0;
}

static const cli_opt bench_opts[] = {
    {0, "runs", 'n', "N", 0, "timed runs (per side; default 1000, at most 10000000)",
     CLI_OPT_LONG(bench_args, cfg.runs, 1, BENCH_MAX_RUNS), .want = "a number of runs from 1 to 10000000"},
    {0, "time", 't', "SECONDS", 0, "run for this long instead (per side; at most 10000000 runs)",
     CLI_OPT_DOUBLE(bench_args, cfg.duration, DBL_TRUE_MIN, 86400),
     .want = "seconds, more than 0 and at most 86400"},
    {0, "warmup", 0, "N", 0, "untimed runs before timing (default 5)",
     CLI_OPT_LONG(bench_args, cfg.warmup, 0, 1000000)},
    {0, "callers", 'c', "N", 0, "N threads calling one session at once (1 to 256)",
     CLI_OPT_LONG(bench_args, cfg.callers, 1, BENCH_MAX_CALLERS),
     .want = "1 to 256 concurrent callers (one thread each)"},
    {0, "input", 'i', "NAME=FILE", CLI_OPT_REPEATS,
     "feed input NAME from FILE: .npy, .json (a map), a directory (a sequence)",
     CLI_OPT_CALL_ARGS(add_input)},
    {0, "random", 0, NULL, 0, "generate the other inputs (default: --random)",
     CLI_OPT_FLAG(bench_args, random_set)},
    {0, "zeros", 0, NULL, CLI_OPT_SAME_LINE, NULL, CLI_OPT_FLAG(bench_args, zeros_set)},
    {0, "dim", 0, "SYMBOL=SIZE", CLI_OPT_REPEATS, "size of a symbolic dimension for generated inputs",
     CLI_OPT_CALL_ARGS(add_dim)},
    {0, "shape", 0, "NAME=D0,D1", CLI_OPT_REPEATS,
     "the whole shape of generated input NAME (for dimensions without a name)",
     CLI_OPT_CALL_ARGS(add_shape)},
    {0, "seed", 0, "N", 0, "seed for --random (default 1)", CLI_OPT_LONG(bench_args, seed, 0, UINT32_MAX)},
    {0, "threads", 0, "N", 0, "intra-op threads (default: ORT's, one per core)",
     CLI_OPT_LONG(bench_args, threads, 1, 4096)},
    SESSION_EP_ROW(bench_args, ep_list[0]),
    {0, "strict", 0, NULL, 0, "fail when a provider in --ep cannot be used",
     CLI_OPT_FLAG(bench_args, cfg.strict)},
    {0, "runtime", 0, "PATH", 0,
     "ONNX Runtime library or directory; given twice, the two runtimes run side by side",
     CLI_OPT_CALL_ARGS(add_runtime)},
    CLI_BUNDLE_ROW(bench_args, bundle),
    {0, "compare", 0, "KEY=VALUE", CLI_OPT_REPEATS,
     "side by side: B is A with one setting changed; KEY is runtime, threads, ep or model "
     "(repeat for several)", CLI_OPT_CALL_ARGS(add_compare)},
    {0, "budget", 0, "SECONDS", 0,
     "side by side, the most the verdict's rounds take, in processes of their own (default 15)",
     CLI_OPT_DOUBLE(bench_args, cfg.budget, DBL_TRUE_MIN, 86400)},
    {0, "block", 0, "N", 0, "runs per block when alternating (default: ~0.1 s)",
     CLI_OPT_LONG(bench_args, cfg.block, 1, BENCH_MAX_RUNS)},
    {0, "json", 0, NULL, 0, "print JSON", CLI_OPT_FLAG(bench_args, cfg.json)},
    {0, "plot", 0, "FILE.svg", 0, "draw the latency distribution (histogram and CDF)",
     CLI_OPT_STRING(bench_args, cfg.plot)},
    {0, "progress", 0, NULL, 0, "show progress on stderr even when it is not a terminal",
     CLI_OPT_FLAG(bench_args, cfg.progress)},
    SESSION_FLAG_ROWS_BUT_SPIN(bench_args, mode.flags),
    {0, "spin", 0, "on|off", 0, SESSION_SPIN_HELP, CLI_OPT_CALL(bench_args, mode, set_spin),
     .want = "on, off or on,off"},
    RUNTIME_FLAG_ROWS(bench_args, mode.flags),
    CLI_OPT_HEADING("Other measurements:"),
    {0, "cold", 0, "N", 0,
     "session creation only, N times from the model and N times from the session cache, "
     "alternating (the cache: --cache's directory, else a temporary one)",
     CLI_OPT_LONG(bench_args, mode.cold, 1, 100000)},
    {0, "sessions", 0, "N,...", 0,
     "N sessions (of the MODELs in turn) run by the -c callers at once: throughput, latency "
     "percentiles, CPU use; -n counts runs over all callers",
     CLI_OPT_CALL(bench_args, mode, set_sessions)},
    {0, "pools", 0, "session|global,...", 0,
     "with --sessions: a thread pool pair per session (ORT's default) or one for all; --spin "
     "takes on,off too; lists run every combination, each in its own process",
     CLI_OPT_CALL(bench_args, mode, set_pools),
     .want = "session, global or both separated by a comma"},
    CLI_OPT_TERM("--dim SYMBOL=LO..HI[:STEP]",
                 "memory: run sizes LO to HI (step 1 or STEP) and back down, -n runs each (default "
                 "3), resident memory after each"),
    CLI_OPT_ARGS(1, BENCH_MAX_MODELS, "no model given"),
    CLI_OPT_END};


static const cli_opt_spec bench_spec = {
    "bench",
    "usage: ortkit bench MODEL [-n RUNS | -t SECONDS] [--warmup N] [-c CALLERS]\n"
    "                    [-i NAME=FILE.npy]... [--random|--zeros] [--dim SYMBOL=SIZE]...\n"
    "                    [--shape NAME=D0,D1,...]... [--seed N] [--threads N] [--ep LIST]\n"
    "                    [--strict] [--runtime PATH | --bundle NAME|DIR]\n"
    "                    [--compare KEY=VALUE]... [--budget SECONDS] [--block N] [--json]\n"
    "                    [--plot FILE.svg] [--progress] [--cache[=DIR]] [--arena on|off]\n"
    "                    [--mem-pattern on|off] [--spin on|off] [--arena-extend power2|requested]\n"
    "       ortkit bench MODEL --cold N [--cache[=DIR]]\n"
    "       ortkit bench MODEL... --sessions N,... [--pools session|global,...]\n"
    "                    [--spin on|off,...] [-c CALLERS] [-n RUNS | -t SECONDS]\n"
    "       ortkit bench MODEL --dim SYMBOL=LO..HI[:STEP]... [-n RUNS] [--arena on|off]\n",
    "Measure a model: session creation, first run, then after a warm-up the\n"
    "latency of each run (min, mean, stddev, p50, p90, p95, p99, max), throughput,\n"
    "CPU use and memory.  Side by side, two runtimes or two settings run the same\n"
    "inputs in alternating blocks and every figure is shown for both with B/A.\n",
    bench_opts, NULL,
    "--dim sizes a symbolic dimension by its name, in every input that has it; a\n"
    "dimension without a name (a model exported with shape [None, 12]) has none:\n"
    "--shape X=4,12 gives generated input X its whole shape, which must agree with\n"
    "the model's fixed dimensions.\n"
    "Ctrl-C or SIGTERM stops after the runs in flight: the figures so far are\n"
    "reported (--json says \"interrupted\", the --plot says it is partial).\n"
    "Exit status: 0 ok, 1 failure, 2 usage, 130 interrupted.\n"};

static int parse_args(bench_args *a, int argc, char **argv)
{
    bench_config *cfg = &a->cfg;
    a->threads_b = -1;
    a->seed = 1;
    cfg->warmup = 5;
    cfg->callers = 1;
    cli_opt_parser p;
    if (cli_opt_parse(&p, &bench_spec, NULL, a, argc, argv))
        return p.status ? p.status : -1;
    if (session_flags_done(&a->mode.flags, "bench"))
        return CLI_USAGE;
    long threads = a->threads;
    int runs_set = cfg->runs > 0; /* -n is at least 1 */
    int modes = (a->mode.cold > 0) + (a->mode.n_sessions > 0) + (a->mode.n_sweep > 0);
    if (modes > 1)
        return cli_usage("bench", "--cold, --sessions and a --dim sweep are separate measurements: give one");
    if ((a->mode.n_pools || a->mode.n_spin > 1) && !a->mode.n_sessions)
        return cli_usage("bench", "--pools and a --spin list go with --sessions");
    if (p.n_args > 1 && !a->mode.n_sessions)
        return cli_usage("bench", "give exactly one model (several only with --sessions)");
    cfg->model = p.args[0];
    for (int i = 0; i < p.n_args; i++)
        a->mode.models[a->mode.n_models++] = p.args[i];
    if (runs_set && cfg->duration > 0)
        return cli_usage("bench", "give -n or -t, not both");
    if (!runs_set && cfg->duration <= 0)
        cfg->runs = 1000;
    if (cfg->runs && cfg->callers > cfg->runs)
        return cli_usage("bench", "-c %ld is more callers than the %ld runs of -n", cfg->callers, cfg->runs);
    if (a->random_set && a->zeros_set)
        return cli_usage("bench", "--random and --zeros exclude each other");
    if (cfg->plot) {
        size_t len = strlen(cfg->plot);
        if (len < 5 || strcasecmp(cfg->plot + len - 4, ".svg"))
            return cli_usage("bench", "--plot writes SVG; give a FILE.svg (got '%s')", cfg->plot);
    }
    cfg->in.fill = a->zeros_set ? FILL_ZEROS : FILL_RANDOM;
    cfg->in.seed = (unsigned)a->seed;
    int brc = cli_bundle_path(&a->bundle_path, "bench", a->runtimes[0], a->bundle);
    if (brc)
        return brc;
    if (a->bundle_path)
        a->runtimes[a->n_runtimes++] = a->bundle_path;
    if (a->runtimes[1] && !a->runtime_b_set)
        a->compare = 1; /* --runtime twice */

    /* Side A from the plain options; B from A plus what --compare changes. */
    cfg->n_sides = a->compare ? 2 : 1;
    bench_side *A = &cfg->side[0], *B = &cfg->side[1];
    A->runtime_path = a->runtimes[0];
    A->threads = threads;
    if (providers_split("bench", a->ep_list[0], A->providers, BENCH_MAX_EP, &A->n_providers))
        return CLI_USAGE;
    if (cfg->n_sides == 2) {
        B->runtime_path = a->runtimes[1] ? a->runtimes[1] : a->runtimes[0];
        B->threads = a->threads_b >= 0 ? a->threads_b : threads;
        if (a->ep_b_set) {
            if (providers_split("bench", a->ep_list[1], B->providers, BENCH_MAX_EP, &B->n_providers))
                return CLI_USAGE;
        } else {
            memcpy(B->providers, A->providers, sizeof A->providers);
            B->n_providers = A->n_providers;
        }
    }
    if (!cfg->progress)
        cfg->progress = isatty(STDERR_FILENO);
    if (modes && (a->n_runtimes > 1 || a->compare || cfg->plot))
        return cli_usage("bench", "--compare, a second --runtime and --plot go with latency runs only");
    bench_mode_args *m = &a->mode;
    m->runtime = a->runtimes[0];
    m->threads = threads;
    m->providers = A->providers;
    m->n_providers = A->n_providers;
    m->strict = cfg->strict;
    m->json = cfg->json;
    m->progress = cfg->progress;
    m->in = &cfg->in;
    m->callers = cfg->callers;
    m->runs = cfg->duration > 0 ? 0 : cfg->runs;
    m->duration = cfg->duration;
    m->sweep_runs = runs_set ? cfg->runs : 3;
    return 0;
}

/* "cuda,cpu" or "cpu" for a side's requested providers. */
static void ep_text(const bench_side *sd, char *buf, size_t size)
{
    snprintf(buf, size, "%s", sd->n_providers ? "" : "cpu");
    for (size_t i = 0; i < sd->n_providers; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s", i ? "," : "", sd->providers[i]);
    }
}

/* Name each side by what differs between them: "ORT 1.17.3", "threads=2". */
static void make_labels(bench_config *cfg)
{
    bench_side *A = &cfg->side[0], *B = &cfg->side[1];
    if (cfg->n_sides == 1) {
        snprintf(A->label, sizeof A->label, "ORT %s", ortkit_runtime_version(A->rt));
        return;
    }
    char ea[256], eb[256];
    ep_text(A, ea, sizeof ea);
    ep_text(B, eb, sizeof eb);
    int rt_diff = strcmp(ortkit_runtime_path(A->rt), ortkit_runtime_path(B->rt)) != 0;
    int same_version = !strcmp(ortkit_runtime_version(A->rt), ortkit_runtime_version(B->rt));
    for (size_t i = 0; i < 2; i++) {
        bench_side *sd = &cfg->side[i];
        char *l = sd->label;
        size_t size = sizeof sd->label;
        l[0] = '\0';
        if (rt_diff && !same_version)
            snprintf(l, size, "ORT %s", ortkit_runtime_version(sd->rt));
        else if (rt_diff)
            snprintf(l, size, "%s", ortkit_runtime_path(sd->rt));
        if (A->threads != B->threads) {
            size_t used = strlen(l);
            if (sd->threads)
                snprintf(l + used, size - used, "%sthreads=%ld", used ? " " : "", sd->threads);
            else
                snprintf(l + used, size - used, "%sthreads=default", used ? " " : "");
        }
        if (strcmp(ea, eb)) {
            size_t used = strlen(l);
            snprintf(l + used, size - used, "%sep=%s", used ? " " : "", i ? eb : ea);
        }
        if (B->model) {
            size_t used = strlen(l);
            snprintf(l + used, size - used, "%smodel=%s", used ? " " : "",
                     ortkit__path_last(i ? B->model : cfg->model));
        }
        if (!l[0])
            snprintf(l, size, "%s", i ? "B" : "A");
    }
}

/* Read the model once so that the first session does not pay for a cold
 * page cache that the second would then skip. */
static void warm_file_cache(const char *path)
{
    FILE *f;
    if (ortkit__file_fopen(&f, path))
        return;
    char buf[65536];
    while (fread(buf, 1, sizeof buf, f) == sizeof buf)
        ;
    fclose(f);
}

static const char *side_prefix(const bench_config *cfg, size_t idx)
{
    return cfg->n_sides < 2 ? "" : idx ? "B: " : "A: ";
}

/* Load side idx's runtime; B shares A's when both name the same library. */
static int load_runtime(bench_config *cfg, size_t idx)
{
    bench_side *sd = &cfg->side[idx];
    double rss0 = (double)ortkit__proc_rss(), t0 = ortkit__clock_now();
    ortkit_runtime_options ro = ORTKIT_RUNTIME_OPTIONS_INIT;
    ro.path = sd->runtime_path;
    session_flags_runtime(cfg->flags, &ro);
    /* A's model and how it runs: a measurement remembered for them may
     * choose A's bundle.  B found by the same search is A's runtime. */
    char shapes[4096];
    if (idx == 0) {
        ro.model = cfg->model;
        ro.model_shapes = input_spec_shapes(&cfg->in, shapes, sizeof shapes) ? NULL : shapes;
        ro.model_threads = (int)sd->threads;
    } else if (!ro.path) {
        ro.path = ortkit_runtime_path(cfg->side[0].rt);
    }
    if (cli_open_runtime_told(&sd->rt, &ro, sd->measured, sizeof sd->measured))
        return cli_fail("%s%s", side_prefix(cfg, idx), ortkit_error_last());
    sd->load_s = ortkit__clock_now() - t0;
    sd->runtime_rss = (double)ortkit__proc_rss() - rss0;
    if (idx == 1 && !strcmp(ortkit_runtime_path(sd->rt), ortkit_runtime_path(cfg->side[0].rt))) {
        ortkit_runtime_free(sd->rt);
        sd->rt = cfg->side[0].rt;
        sd->shared_rt = 1;
    }
    return 0;
}

static int open_session(bench_config *cfg, size_t idx, ortkit_session **out, double *seconds)
{
    bench_side *sd = &cfg->side[idx];
    ortkit_session_options so = ORTKIT_SESSION_OPTIONS_INIT;
    session_flags_apply(cfg->flags, &so);
    so.intra_op_threads = (int)sd->threads;
    so.providers = sd->providers;
    so.provider_count = sd->n_providers;
    so.ep_policy = cfg->strict ? ORTKIT_EP_STRICT : ORTKIT_EP_FALLBACK;
    double t0 = ortkit__clock_now();
    if (ortkit_session_open(out, sd->rt, sd->model ? sd->model : cfg->model, &so))
        return cli_fail("%s%s", side_prefix(cfg, idx), ortkit_error_last());
    /* B's own model takes A's inputs and gives as many outputs. */
    if (idx == 1 && sd->model && (ortkit_session_input_count(*out) != cfg->n_in ||
                                  ortkit_session_output_count(*out) != cfg->n_out))
        return cli_fail("B: '%s' has %zu inputs and %zu outputs, but '%s' %zu and %zu: "
                        "--compare model= wants a model that takes the same inputs",
                        sd->model, ortkit_session_input_count(*out), ortkit_session_output_count(*out),
                        cfg->model, cfg->n_in, cfg->n_out);
    *seconds = ortkit__clock_now() - t0;
    return 0;
}

/* The cold session of side idx and its first run: the runtime's one-time
 * start-up (thread pools, kernel registries, provider libraries) lands here. */
static int cold_start(bench_config *cfg, size_t idx)
{
    bench_side *sd = &cfg->side[idx];
    double rss0 = (double)ortkit__proc_rss();
    if (!sd->cold && open_session(cfg, idx, &sd->cold, &sd->cold_create_s))
        return CLI_FAIL;
    if (bench_run_once(cfg, sd->cold, sd->inputs, &sd->cold_first_s))
        return cli_fail("%s%s", side_prefix(cfg, idx), ortkit_error_last());
    sd->runtime_rss += (double)ortkit__proc_rss() - rss0;
    return 0;
}

/* The measured session; the memory it adds is counted with its warm-up. */
static int open_measured(bench_config *cfg, size_t idx)
{
    bench_side *sd = &cfg->side[idx];
    double rss0 = (double)ortkit__proc_rss();
    if (open_session(cfg, idx, &sd->session, &sd->create_s))
        return CLI_FAIL;
    sd->setup_rss = (double)ortkit__proc_rss() - rss0;
    providers_warn_skipped(sd->session);
    return 0;
}

/* A copy of t with its own storage (and so its own cached runtime value). */
static int copy_tensor(ortkit_tensor **out, const ortkit_tensor *t)
{
    ortkit_type type = ortkit_tensor_type(t);
    size_t n = ortkit_tensor_count(t);
    if (type != ORTKIT_TYPE_STRING) {
        int rc = ortkit_tensor_new(out, type, ortkit_tensor_shape(t), ortkit_tensor_rank(t));
        if (!rc && ortkit_tensor_nbytes(t))
            memcpy(ortkit_tensor_data(*out), ortkit_tensor_data(t), ortkit_tensor_nbytes(t));
        return rc;
    }
    const char **strs = calloc(n + 1, sizeof *strs);
    if (!strs)
        return ORTKIT_E_NOMEM;
    for (size_t i = 0; i < n; i++)
        strs[i] = ortkit_tensor_string(t, i);
    int rc = ortkit_tensor_new_strings(out, ortkit_tensor_shape(t), ortkit_tensor_rank(t), strs);
    free(strs);
    return rc;
}

/* A deep copy of v: every tensor in it with its own storage. */
static int copy_value(ortkit_value **out, const ortkit_value *v)
{
    *out = NULL;
    int rc = 0;
    size_t n = ortkit_value_count(v);
    switch (ortkit_value_kind_of(v)) {
    case ORTKIT_KIND_TENSOR: {
        ortkit_tensor *t = NULL;
        if ((rc = copy_tensor(&t, ortkit_value_tensor(v))) || (rc = ortkit_value_new_tensor(out, t)))
            ortkit_tensor_free(t);
        return rc;
    }
    case ORTKIT_KIND_MAP: {
        ortkit_tensor *k = NULL, *x = NULL;
        if ((rc = copy_tensor(&k, ortkit_value_map_keys(v))) ||
            (rc = copy_tensor(&x, ortkit_value_map_values(v))) || (rc = ortkit_value_new_map(out, k, x))) {
            ortkit_tensor_free(k);
            ortkit_tensor_free(x);
        }
        return rc;
    }
    case ORTKIT_KIND_OPTIONAL: {
        ortkit_value *item = NULL;
        if ((n && (rc = copy_value(&item, ortkit_value_item(v, 0)))) ||
            (rc = ortkit_value_new_optional(out, item)))
            ortkit_value_free(item);
        return rc;
    }
    default: {
        ortkit_value **items = calloc(n + 1, sizeof *items);
        if (!items)
            return ORTKIT_E_NOMEM;
        size_t made = 0;
        for (; made < n && !rc; made++)
            rc = copy_value(&items[made], ortkit_value_item(v, made));
        if (!rc)
            rc = ortkit_value_new_sequence(out, items, n);
        if (rc)
            for (size_t i = 0; i < made; i++)
                ortkit_value_free(items[i]);
        free(items);
        return rc;
    }
    }
}

/* Inputs are built once, from A's cold session, and copied for B. */
static int prepare_inputs(bench_config *cfg)
{
    bench_side *A = &cfg->side[0];
    cfg->n_in = ortkit_session_input_count(A->cold);
    cfg->n_out = ortkit_session_output_count(A->cold);
    cfg->names = calloc(cfg->n_in + 1, sizeof *cfg->names);
    for (size_t i = 0; i < cfg->n_sides; i++)
        cfg->side[i].inputs = calloc(cfg->n_in + 1, sizeof *cfg->side[i].inputs);
    if (!cfg->names || !A->inputs || (cfg->n_sides == 2 && !cfg->side[1].inputs))
        return cli_fail("out of memory");
    if (inputs_build(&cfg->in, cfg->model, A->cold, A->inputs, cfg->names))
        return CLI_FAIL;
    for (size_t i = 0; cfg->n_sides == 2 && i < cfg->n_in; i++)
        if (copy_value(&cfg->side[1].inputs[i], A->inputs[i]))
            return cli_fail_lib();
    return 0;
}

static void free_config(bench_config *cfg)
{
    for (size_t s = 0; s < 2; s++) {
        bench_side *sd = &cfg->side[s];
        for (size_t i = 0; sd->inputs && i < cfg->n_in; i++)
            ortkit_value_free(sd->inputs[i]);
        free(sd->inputs);
        free(sd->lat);
        ortkit_session_free(sd->session);
        ortkit_session_free(sd->cold);
        if (!sd->shared_rt)
            ortkit_runtime_free(sd->rt);
    }
    free(cfg->names);
    ortkit_measure_free(cfg->verdict);
}

/* Runtimes, then cold sessions (A's also tells the inputs), then the
 * sessions measured.  B's cold start is skipped when it shares A's runtime:
 * A's already paid the one-time costs for both. */
static int set_up(bench_config *cfg)
{
    warm_file_cache(cfg->model);
    for (size_t i = 0; i < cfg->n_sides; i++)
        if (load_runtime(cfg, i))
            return CLI_FAIL;
    bench_side *A = &cfg->side[0];
    double rss0 = (double)ortkit__proc_rss();
    if (open_session(cfg, 0, &A->cold, &A->cold_create_s))
        return CLI_FAIL;
    A->runtime_rss += (double)ortkit__proc_rss() - rss0;
    if (prepare_inputs(cfg))
        return CLI_FAIL;
    for (size_t i = 0; i < cfg->n_sides; i++)
        if (!cfg->side[i].shared_rt && cold_start(cfg, i))
            return CLI_FAIL;
    for (size_t i = 0; i < cfg->n_sides; i++)
        if (open_measured(cfg, i))
            return CLI_FAIL;
    make_labels(cfg);
    return 0;
}

/* Refuse a --plot path that cannot be written before spending time on runs;
 * the file itself is written at the end. */
static int check_plot_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (access(dir, W_OK | X_OK))
        return cli_fail("cannot write plot '%s': %s", path, strerror(errno));
    return 0;
}

static int bench_main(bench_args *ap, int argc, char **argv);

int cmd_bench(int argc, char **argv)
{
    bench_args a;
    memset(&a, 0, sizeof a);
    int rc = bench_main(&a, argc, argv);
    free(a.bundle_path);
    return rc;
}

static int bench_main(bench_args *ap, int argc, char **argv)
{
    bench_args a = *ap; /* zeroed; what cmd_bench frees is handed back */
    char **original = calloc((size_t)argc + 1, sizeof *original);
    for (int i = 0; original && i < argc; i++)
        if (!(original[i] = strdup(argv[i])))
            return cli_fail("out of memory");
    if (!original)
        return cli_fail("out of memory");
    int prc = parse_args(&a, argc, argv);
    ap->bundle_path = a.bundle_path;
    if (prc || !a.mode.n_sessions) {
        for (int i = 0; i < argc; i++)
            free(original[i]);
        free(original);
        original = NULL;
    }
    if (prc)
        return prc < 0 ? CLI_OK : prc;
    bench_config *cfg = &a.cfg;
    cfg->flags = &a.mode.flags;
    if (a.mode.cold)
        return bench_cold(&a.mode);
    if (a.mode.n_sweep)
        return bench_sweep(&a.mode);
    if (a.mode.n_sessions) {
        /* The child processes get the arguments as given: parsing split some in place. */
        int many_rc = bench_many(&a.mode, argc, original);
        for (int i = 0; i < argc; i++)
            free(original[i]);
        free(original);
        return many_rc;
    }
    int rc = CLI_FAIL;
    /* While the runtimes load there is nothing to report: an interrupt ends
     * the command at once.  From the first measured run on it stops the
     * runs, and the figures so far are still reported (exit 130). */
    cli_interrupt_init();
    if (cfg->plot && check_plot_dir(cfg->plot))
        goto cleanup;
    if (cfg->n_sides == 2 && bench_verdict(cfg))
        goto cleanup;
    if (set_up(cfg))
        goto cleanup;
    cli_interrupt_hold();
    if (bench_measure(cfg))
        goto cleanup;
    size_t total = 0;
    for (size_t i = 0; i < cfg->n_sides; i++) {
        bench_side *sd = &cfg->side[i];
        total += sd->n_lat;
        ortkit__stats_compute(&sd->stats, sd->lat, sd->n_lat);
    }
    if (total == 0) {
        rc = cfg->interrupted ? cli_interrupt_fail("no timed run had finished")
                              : cli_fail("no timed run");
        goto cleanup;
    }
    if (bench_report(cfg))
        goto cleanup;
    if (cfg->plot && bench_plot_svg(cfg, cfg->plot))
        goto cleanup;
    if (cfg->capped)
        fprintf(stderr, "ortkit: note: -t stopped at %d runs per side, the most bench keeps\n", BENCH_MAX_RUNS);
    if (cfg->interrupted) {
        rc = cli_interrupt_fail("after %zu timed runs; the figures above cover those", total);
        goto cleanup;
    }
    rc = CLI_OK;
cleanup:
    cli_interrupt_release();
    free_config(cfg);
    return rc;
}
