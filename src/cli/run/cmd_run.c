/* cmd_run.c - `ortkit run MODEL`: run a model once (or N times) and show its outputs. */
#include "cli.h"
#include "inputs.h"
#include "interrupt.h"
#include "opt.h"
#include "session_flags.h"

#include "value_files.h"
#include "value_show.h"
#include "values.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
    OPT_INPUT = 1, OPT_RANDOM, OPT_ZEROS, OPT_DIM, OPT_SHAPE, OPT_OUTPUT, OPT_THREADS, OPT_EP,
    OPT_STRICT, OPT_REPEAT, OPT_SEED, OPT_RUNTIME, OPT_BUNDLE, OPT_JSON
};

static const cli_opt run_opts[] = {
    {OPT_INPUT, "input", 'i', "NAME=FILE", CLI_OPT_REPEATS,
     "feed input NAME from FILE: .npy, .json (a map), a directory (a sequence)"},
    {OPT_RANDOM, "random", 0, NULL, 0, "fill inputs not given with random values (seeded)"},
    {OPT_ZEROS, "zeros", 0, NULL, 0, "fill inputs not given with zeros"},
    {OPT_DIM, "dim", 0, "SYMBOL=VALUE", CLI_OPT_REPEATS,
     "size of a symbolic dimension for generated inputs"},
    {OPT_SHAPE, "shape", 0, "NAME=D0,D1", CLI_OPT_REPEATS,
     "the whole shape of generated input NAME (for dimensions without a name)"},
    {OPT_OUTPUT, "output", 'o', "DIR", 0, "save each output in DIR (NAME.npy, NAME.json, NAME/)"},
    {OPT_THREADS, "threads", 0, "N", 0, "intra-op threads (default: ORT's, one per core)"},
    {OPT_EP, "ep", 0, "LIST", 0, "execution providers in order, e.g. cuda,cpu"},
    {OPT_STRICT, "strict", 0, NULL, 0, "fail when a provider in --ep cannot be used"},
    {OPT_REPEAT, "repeat", 0, "N", 0, "run N times and report latency statistics"},
    {OPT_SEED, "seed", 0, "N", 0, "seed for --random (default 1)"},
    {OPT_RUNTIME, "runtime", 0, "PATH", 0, "ONNX Runtime library or directory to load"},
    CLI_BUNDLE_ROW(OPT_BUNDLE),
    {OPT_JSON, "json", 0, NULL, 0, "print JSON"},
    SESSION_FLAG_ROWS,
    RUNTIME_FLAG_ROWS,
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

#define MAX_ARGS 256

typedef struct run_args {
    const char *model, *runtime, *bundle, *out_dir;
    char *bundle_path;         /* --bundle as the path to load */
    input_spec in;
    const char *providers[MAX_ARGS];
    size_t n_providers;
    char *ep_list;
    long threads, repeat, seed;
    int strict, json;
    session_flags flags;
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
        case OPT_SHAPE:
            if (input_spec_add_shape(&a->in, "run", p.value))
                return CLI_USAGE;
            break;
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
        case OPT_BUNDLE: a->bundle = p.value; break;
        case OPT_JSON: a->json = 1; break;
        default:
            if (session_flags_parse(&a->flags, "run", c, p.value))
                return CLI_USAGE;
        }
    }
    if (c == CLI_OPT_HELP)
        return -1;
    if (c == CLI_OPT_BAD || session_flags_done(&a->flags, "run"))
        return CLI_USAGE;
    if (p.n_args != 1)
        return cli_usage("run", p.n_args ? "give exactly one model" : "no model given");
    a->model = p.args[0];
    a->in.seed = (unsigned)a->seed;
    int rc = cli_bundle_path(&a->bundle_path, "run", a->runtime, a->bundle);
    if (rc)
        return rc;
    if (a->bundle_path)
        a->runtime = a->bundle_path;
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

/* The file each output is saved in (without ".npy"). */
typedef struct out_file {
    char name[512];
    char ext[8];      /* ".npy", ".json", or "" for a sequence's directory */
    int track;        /* a sequence's staged directory, for an interrupt; -1 */
    size_t output;    /* its index among the session's outputs */
    int had_old;      /* DIR held a file of that name: kept as STAGING/old-N */
    int placed;       /* renamed into DIR */
    dev_t dev;        /* the staged file */
    ino_t ino;
} out_file;

static int cmp_out_file(const void *x, const void *y)
{
    const out_file *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->output > b->output) - (a->output < b->output);
}

/*
 * The file name of every output, refused when two outputs would share one
 * (names that differ only in characters the mapping replaces, or "." and
 * ".."): a file must say which output it holds, whatever the order.  Checked
 * before the model runs, so nothing is written.  *out is malloc'd.
 */
static int plan_files(out_file **out, const ortkit_session *s, size_t n, const char *dir)
{
    out_file *f = calloc(n + 1, sizeof *f), *sorted = calloc(n + 1, sizeof *sorted);
    if (!f || !sorted) {
        free(f);
        free(sorted);
        return cli_fail("out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        file_name_for(ortkit_session_output(s, i)->name, f[i].name, sizeof f[i].name);
        f[i].output = i;
        f[i].track = -1;
    }
    memcpy(sorted, f, n * sizeof *f);
    qsort(sorted, n, sizeof *sorted, cmp_out_file);
    for (size_t i = 1; i < n; i++) {
        if (strcmp(sorted[i - 1].name, sorted[i].name))
            continue;
        int rc = cli_fail("outputs '%s' and '%s' would both be saved as '%s/%s.npy' (characters "
                          "other than letters, digits, '.', '_' and '-' become '_'); nothing was "
                          "written",
                          ortkit_session_output(s, sorted[i - 1].output)->name,
                          ortkit_session_output(s, sorted[i].output)->name, dir, sorted[i].name);
        free(f);
        free(sorted);
        return rc;
    }
    free(sorted);
    *out = f;
    return CLI_OK;
}

static int cmp_staged(const void *x, const void *y)
{
    const out_file *a = x, *b = y;
    if (a->dev != b->dev)
        return a->dev < b->dev ? -1 : 1;
    if (a->ino != b->ino)
        return a->ino < b->ino ? -1 : 1;
    return (a->output > b->output) - (a->output < b->output);
}

/* Two outputs staged as one file (names that differ only in case, on a file
 * system that ignores it): CLI_FAIL after saying so, else CLI_OK. */
static int same_file(const char *dir, const char *staging, out_file *f, const ortkit_session *s,
                     size_t n)
{
    out_file *sorted = calloc(n + 1, sizeof *sorted);
    if (!sorted)
        return cli_fail("out of memory");
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX];
        struct stat st;
        if (ortkit__pathf(path, sizeof path, "%s/%s%s", staging, f[i].name, f[i].ext) ||
            stat(path, &st)) {
            free(sorted);
            return cli_fail("cannot read back '%s/%s%s': %s", staging, f[i].name, f[i].ext,
                            strerror(errno));
        }
        f[i].dev = st.st_dev;
        f[i].ino = st.st_ino;
    }
    memcpy(sorted, f, n * sizeof *f);
    qsort(sorted, n, sizeof *sorted, cmp_staged);
    int rc = CLI_OK;
    for (size_t i = 1; i < n && !rc; i++)
        if (sorted[i - 1].dev == sorted[i].dev && sorted[i - 1].ino == sorted[i].ino)
            rc = cli_fail("outputs '%s' and '%s' would both be saved as '%s/%s%s' on this file "
                          "system; nothing was written",
                          ortkit_session_output(s, sorted[i - 1].output)->name,
                          ortkit_session_output(s, sorted[i].output)->name, dir, sorted[i].name,
                          sorted[i].ext);
    free(sorted);
    return rc;
}

/* The test hook: pause this many seconds after each output is staged, so
 * that a test can interrupt a save half-way. */
#define SAVE_PAUSE_ENV "ORTKIT_RUN_SAVE_PAUSE_TEST"

static void test_pause(void)
{
    const char *v = getenv(SAVE_PAUSE_ENV);
    double seconds = v ? atof(v) : 0, until = ortkit__clock_now() + seconds;
    while (seconds > 0 && !cli_interrupted() && ortkit__clock_now() < until)
        nanosleep(&(struct timespec){0, 10000000}, NULL);
}

/* Put every staged output into DIR, or none: a file it replaces is first
 * kept in the staging directory (a hard link, else renamed there) and put
 * back if a later one fails. */
static int commit(const char *dir, const char *staging, out_file *f, size_t n)
{
    char from[PATH_MAX], to[PATH_MAX], old[PATH_MAX];
    size_t i = 0;
    for (; i < n; i++) {
        struct stat st;
        if (ortkit__pathf(from, sizeof from, "%s/%s%s", staging, f[i].name, f[i].ext) ||
            ortkit__pathf(to, sizeof to, "%s/%s%s", dir, f[i].name, f[i].ext) ||
            ortkit__pathf(old, sizeof old, "%s/old-%zu", staging, i)) {
            cli_fail("output directory '%s': path too long", dir);
            break;
        }
        if (lstat(to, &st) == 0) {
            if (link(to, old) != 0 && rename(to, old) != 0) {
                cli_fail("cannot replace '%s': %s", to, strerror(errno));
                break;
            }
            f[i].had_old = 1;
        } else if (errno != ENOENT) {
            cli_fail("cannot write '%s': %s", to, strerror(errno));
            break;
        }
        if (rename(from, to) != 0) {
            cli_fail("cannot write '%s': %s", to, strerror(errno));
            break;
        }
        f[i].placed = 1;
    }
    if (i == n)
        return CLI_OK;
    for (size_t j = i + 1; j-- > 0;) {
        if ((!f[j].had_old && !f[j].placed) ||
            ortkit__pathf(to, sizeof to, "%s/%s%s", dir, f[j].name, f[j].ext) ||
            ortkit__pathf(old, sizeof old, "%s/old-%zu", staging, j))
            continue;
        if (f[j].had_old)
            rename(old, to);
        else
            unlink(to);
    }
    return CLI_FAIL;
}

/* The directories inside the staging directory: sequences staged, and
 * sequences a commit moved aside (old-N). */
static void unstage_dirs(const char *staging, out_file *f, size_t n)
{
    char path[PATH_MAX];
    for (size_t i = 0; i < n; i++) {
        if (!ortkit__pathf(path, sizeof path, "%s/%s", staging, f[i].name) && !f[i].ext[0])
            cli_remove_flat_dir(path);
        if (!ortkit__pathf(path, sizeof path, "%s/old-%zu", staging, i))
            cli_remove_flat_dir(path);
        cli_interrupt_untrack(f[i].track);
        f[i].track = -1;
    }
}

/*
 * Save every output as DIR/NAME.npy (a sequence DIR/NAME/, a map DIR/NAME.json), all or nothing: each is written into a
 * staging directory inside DIR (DIR/.ortkit-run-PID-XXXXXX, so that the next
 * run can tell one whose process is gone), every destination is checked, and
 * only then are they renamed into place.  A failure or an interrupt leaves
 * DIR as it was, and removes DIR (and the parents it lacked) when this run
 * created it.
 */
static int save_outputs(const char *dir, out_file *f, const ortkit_session *s, ortkit_value **outs,
                        size_t n)
{
    struct stat st;
    int created = 0, rc = CLI_FAIL, track_dir = -1, track_staging = -1;
    size_t existed = 0;
    char staging[PATH_MAX], path[PATH_MAX];
    cli_interrupt_hold();
    if (stat(dir, &st) != 0) {
        /* DIR and the parents it lacks: made here, so removed on failure. */
        if (errno != ENOENT) {
            rc = cli_fail("cannot create output directory '%s': %s", dir, strerror(errno));
            goto release;
        }
        if (ortkit__mkdirs_made(dir, &existed)) {
            rc = cli_fail("cannot create output directory '%s': %s", dir, ortkit__error_message());
            goto release;
        }
        created = 1;
        track_dir = cli_interrupt_track_made(dir, existed);
    } else if (!S_ISDIR(st.st_mode)) {
        rc = cli_fail("output directory '%s' is not a directory", dir);
        goto release;
    }
    cli_remove_stale(dir, ".ortkit-run-");
    if (ortkit__pathf(staging, sizeof staging, "%s/.ortkit-run-%ld-XXXXXX", dir, (long)getpid())) {
        cli_fail("output directory '%s': path too long", dir);
        goto done;
    }
    if (!mkdtemp(staging)) {
        cli_fail("cannot write into '%s': %s", dir, strerror(errno));
        goto done;
    }
    track_staging = cli_interrupt_track(staging, CLI_TRACK_FLAT_DIR);
    for (size_t i = 0; i < n; i++) {
        snprintf(f[i].ext, sizeof f[i].ext, "%s", value_file_ext(outs[i]));
        f[i].track = -1;
        if (ortkit__pathf(path, sizeof path, "%s/%s%s", dir, f[i].name, f[i].ext)) {
            cli_fail("output directory '%s': path too long", dir);
            goto unstage;
        }
        if (f[i].ext[0] && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            cli_fail("output '%s': cannot replace '%s': it is a directory",
                     ortkit_session_output(s, i)->name, path);
            goto unstage;
        }
    }
    for (size_t i = 0; i < n && !cli_interrupted(); i++) {
        const char *name = ortkit_session_output(s, i)->name;
        char what[600];
        snprintf(what, sizeof what, "output '%.500s'", name);
        if (ortkit__pathf(path, sizeof path, "%s/%s", staging, f[i].name)) {
            cli_fail("output directory '%s': path too long", dir);
            goto unstage;
        }
        int failed = value_save(path, what, outs[i]);
        if (!f[i].ext[0]) /* a sequence's directory, even half-made */
            f[i].track = cli_interrupt_track(path, CLI_TRACK_FLAT_DIR);
        if (failed)
            goto unstage;
        test_pause();
    }
    if (cli_interrupted()) {
        rc = cli_interrupt_fail("nothing was written to '%s'", dir);
        goto unstage;
    }
    /* Names that differ only in case are one file on some file systems:
     * two outputs staged as one file are refused too. */
    if (same_file(dir, staging, f, s, n))
        goto unstage;
    rc = commit(dir, staging, f, n);
unstage:
    unstage_dirs(staging, f, n);
    cli_remove_flat_dir(staging);
    cli_interrupt_untrack(track_staging);
done:
    if (rc && created)
        ortkit__rmdirs_made(dir, existed);
    cli_interrupt_untrack(track_dir);
release:
    /* Once the outputs are in place an interrupt is too late to undo them:
     * the run ends as it would have. */
    cli_interrupt_release();
    return rc;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
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

static int report(const run_args *a, const ortkit_runtime *rt, const ortkit_session *s,
                   ortkit_value **outs, double create_s, double *lat, size_t runs)
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
        cJSON *l = cJSON_AddObjectToObject(root, "latency_s");
        cJSON_AddNumberToObject(l, "runs", (double)runs);
        cJSON_AddNumberToObject(l, "first", first);
        cJSON_AddNumberToObject(l, "min", lat[0]);
        cJSON_AddNumberToObject(l, "mean", mean);
        cJSON_AddNumberToObject(l, "median", median);
        cJSON_AddNumberToObject(l, "max", lat[runs - 1]);
        cJSON *outputs = cJSON_AddArrayToObject(root, "outputs");
        for (size_t i = 0; i < n_out; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", ortkit_session_output(s, i)->name);
            value_json(o, outs[i]);
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
    printf("\n");
    if (runs_on_cpu_instead(s))
        printf("runs on   the CPU only: the providers asked for were skipped (see above)\n");
    printf("\n");
    static const char *const headers[] = {"output", "type", "shape", "min", "max", "mean", "first values"};
    cli_table *t = cli_table_new(7, headers);
    for (size_t c = 3; c < 6; c++)
        cli_table_align_right(t, c);
    for (size_t i = 0; i < n_out; i++)
        if (value_rows(t, ortkit_session_output(s, i)->name, outs[i]))
            break;
    int printed = cli_table_print(t, stdout, "");
    cli_table_free(t);
    if (printed)
        return cli_fail("out of memory");
    char b1[32], b2[32], b3[32], b4[32];
    ortkit__human_duration(b1, sizeof b1, create_s);
    ortkit__human_duration(b2, sizeof b2, first);
    printf("\nsession created in %s%s%s; first run %s", b1,
           session_flags_cache_word(s) ? ", cache: " : "",
           session_flags_cache_word(s) ? session_flags_cache_word(s) : "", b2);
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
    if (prc) {
        free(a.bundle_path);
        return prc < 0 ? CLI_OK : prc;
    }

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

    ortkit_runtime_options ro = ORTKIT_RUNTIME_OPTIONS_INIT;
    ro.path = a.runtime;
    session_flags_runtime(&a.flags, &ro);
    if (cli_open_runtime_with(&rt, &ro)) {
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
    if (a.out_dir && plan_files(&files, s, n_out, a.out_dir))
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
    if (a.out_dir && (rc = save_outputs(a.out_dir, files, s, outs, n_out)))
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
    free(a.bundle_path);
    return rc;
}
