/*
 * cmd_bundle_choose.c - `ortkit bundle choose [--host FILE] [--json] [DIR...]`:
 * every candidate's verdict under the one selection order, and for those
 * that fit, the step that put each above the next.  DIR is a bundle, or a
 * directory of bundles; without one, the bundles the search finds.
 *
 * With --model MODEL, what measuring that model here found (remembered by
 * an earlier --measure) beside the order; with --measure, each candidate
 * runs it in a process of its own until the fastest whose outputs agree is
 * clear (choose_measure.c), and the result is remembered for the runtime's
 * search.
 */
#include "bundle_cmds.h"
#include "choice_view.h"
#include "choose_measure.h"
#include "view.h"

#include <dirent.h>
#include <float.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct choose_args {
    const char *host;
    int json;
    const char *model;
    input_spec in;
    int random, zeros, measure;
    long seed, threads;
    double budget;
} choose_args;

const cli_opt bundle_choose_opts[] = {
    {0, "host", 'H', "FILE", 0,
     "judge for the machine described in FILE ('ortkit host --json'; its os.libraries, when "
     "given, are the libraries it has) instead of this one", CLI_OPT_STRING(choose_args, host)},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(choose_args, json)},
    CLI_OPT_HEADING("Choosing by measurement:"),
    {0, "model", 'm', "MODEL", 0,
     "the model to choose for: what measuring it on this host found (--measure measures it)",
     CLI_OPT_STRING(choose_args, model)},
    {0, "measure", 0, NULL, 0,
     "run the model on each fitting candidate, each in its own process, alternating, until the "
     "fastest whose outputs agree is clear or the budget is spent; remember it for this host",
     CLI_OPT_FLAG(choose_args, measure)},
    {0, "budget", 0, "SECONDS", 0, "the most the timed rounds take (default: 7.5 s per candidate)",
     CLI_OPT_DOUBLE(choose_args, budget, DBL_TRUE_MIN, 86400),
     .want = "seconds, more than 0 and at most 86400"},
    {0, "threads", 0, "N", 0, "intra-op threads the model runs with (default: ORT's)",
     CLI_OPT_LONG(choose_args, threads, 1, 4096)},
    {0, "input", 'i', "NAME=FILE", CLI_OPT_REPEATS,
     "feed input NAME from FILE: .npy, .json (a map), a directory (a sequence)",
     CLI_OPT_CALL(choose_args, in, input_opt_file)},
    {0, "dim", 0, "SYMBOL=SIZE", CLI_OPT_REPEATS, "size of a symbolic dimension for generated inputs",
     CLI_OPT_CALL(choose_args, in, input_opt_dim)},
    {0, "shape", 0, "NAME=D0,D1", CLI_OPT_REPEATS,
     "the whole shape of generated input NAME (for dimensions without a name)",
     CLI_OPT_CALL(choose_args, in, input_opt_shape)},
    {0, "zeros", 0, NULL, 0, "fill inputs not given with zeros (default: random, seeded)",
     CLI_OPT_FLAG(choose_args, zeros)},
    {0, "seed", 0, "N", 0, "seed for the random inputs (default 1)",
     CLI_OPT_LONG(choose_args, seed, 0, UINT32_MAX)},
    CLI_OPT_ARGS(0, CLI_OPT_ANY, NULL),
    CLI_OPT_END};

typedef struct candidates {
    choice_row *rows;
    ortkit_bundle **owned;
    char **texts;
    size_t n, cap;
} candidates;

static int add(candidates *c, const char *dir, const char *name)
{
    /* The three grow together (three texts a row); c->cap counts rows. */
    size_t rows = c->cap, owned = c->cap, texts = 3 * c->cap;
    if (ortkit__array_reserve(&c->rows, &rows, c->n + 1, sizeof *c->rows, 16) ||
        ortkit__array_reserve(&c->owned, &owned, c->n + 1, sizeof *c->owned, 16) ||
        ortkit__array_reserve(&c->texts, &texts, 3 * (c->n + 1), sizeof *c->texts, 48))
        return -1;
    c->cap = rows;
    size_t i = c->n++;
    ortkit_bundle *b = NULL;
    int rc = ortkit_bundle_open(&b, dir);
    c->owned[i] = b;
    c->texts[3 * i] = strdup(name);
    c->texts[3 * i + 1] = strdup(dir);
    c->texts[3 * i + 2] = strdup(rc ? ortkit_error_last() : "");
    c->rows[i] = (choice_row){c->texts[3 * i] ? c->texts[3 * i] : "?",
                              c->texts[3 * i + 1] ? c->texts[3 * i + 1] : "?", "argument", b,
                              c->texts[3 * i + 2] ? c->texts[3 * i + 2] : ""};
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A bundle directory, or each bundle in a directory of them (by name). */
static int add_argument(candidates *c, const char *arg)
{
    char manifest[PATH_MAX];
    struct stat st;
    const char *base = strrchr(arg, '/') && strrchr(arg, '/')[1] ? strrchr(arg, '/') + 1 : arg;
    snprintf(manifest, sizeof manifest, "%s/manifest.json", arg);
    if (stat(manifest, &st) == 0)
        return add(c, arg, base);
    DIR *d = opendir(arg);
    if (!d)
        return cli_fail("cannot read '%s': not a bundle (no manifest.json) nor a directory of "
                        "bundles", arg);
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char path[PATH_MAX];
        if (e->d_name[0] == '.' ||
            (size_t)snprintf(path, sizeof path, "%s/%s/manifest.json", arg, e->d_name) >= sizeof path ||
            stat(path, &st) != 0)
            continue;
        char **grown = realloc(names, (n + 1) * sizeof *names);
        if (!grown || !(grown[n] = strdup(e->d_name))) {
            names = grown ? grown : names;
            break;
        }
        names = grown;
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    int rc = CLI_OK;
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", arg, names[i]);
        if (!rc && add(c, path, names[i]))
            rc = cli_fail("out of memory");
        free(names[i]);
    }
    free(names);
    return rc;
}

static void host_line(const ortkit_host *h, const char *file)
{
    printf("host       %s", ortkit_arch_name(h->arch));
    if (h->x86_64_level)
        printf(" (x86-64-v%d)", h->x86_64_level);
    printf(", glibc %s, GLIBCXX %s, ", h->glibc[0] ? cli_esc(h->glibc) : "unknown",
           h->glibcxx[0] ? cli_esc(h->glibcxx) : "unknown");
    if (h->libraries_known)
        printf("%zu libraries", h->library_count);
    else
        printf("libraries not listed (needed libraries are not judged)");
    printf(", %zu GPU%s%s%s\n", h->gpu_count, h->gpu_count == 1 ? "" : "s",
           file ? "; described in " : "", file ? cli_esc(file) : "");
}

/* The measurement's lines of the header, drawn from its view (measure_json):
 * what it is keyed by, what it found. */
static void measure_lines(const cJSON *m)
{
    char threads[32];
    long n_threads = (long)cli_view_num(m, "threads");
    if (n_threads)
        snprintf(threads, sizeof threads, "%ld thread%s", n_threads, n_threads == 1 ? "" : "s");
    else
        snprintf(threads, sizeof threads, "default threads");
    printf("model      %s: %s, %s\n", cli_esc(cli_view_str(m, "model")), cli_esc(cli_view_str(m, "shapes")),
           threads);
    if (!cli_view_num(m, "candidates")) {
        printf("measured   nothing to measure: %s\n", cli_esc(cli_view_str(m, "why_none")));
        return;
    }
    const char *outcome = cli_view_str(m, "outcome"), *refused = cli_view_str(m, "refused");
    if (!outcome[0]) {
        printf("measured   not yet for this host, model, sizes, threads and bundles%s%s%s "
               "(--measure measures it)\n", refused[0] ? " (the remembered result was refused: " : "",
               cli_esc(refused), refused[0] ? ")" : "");
        return;
    }
    size_t rounds = (size_t)cli_view_num(m, "rounds");
    printf("measured   %s: %zu round%s in %.2f s, set-up included; %s%s\n",
           cli_view_bool(m, "recalled") ? "remembered" : "now", rounds, rounds == 1 ? "" : "s",
           cli_view_num(m, "seconds"), outcome,
           !strcmp(outcome, "tied") ? " within the budget (the declared order chooses among those tied)" : "");
    printf("memory     %s\n", cli_esc(cli_view_str(m, "memory")));
}

static cJSON *measure_json(const ortkit_measure *mm, const choose_args *a, const char *declared)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "model", a->model);
    cJSON_AddStringToObject(o, "shapes", ortkit_measure_shapes(mm));
    cJSON_AddNumberToObject(o, "threads", (double)a->threads);
    cJSON_AddNumberToObject(o, "candidates", (double)ortkit_measure_count(mm));
    cJSON_AddStringToObject(o, "why_none", ortkit_measure_why(mm));
    cJSON_AddStringToObject(o, "key", ortkit_measure_key(mm));
    cJSON_AddStringToObject(o, "memory", ortkit_measure_path(mm));
    cJSON_AddBoolToObject(o, "recalled", ortkit_measure_recalled(mm));
    cJSON_AddStringToObject(o, "refused", ortkit_measure_refused(mm));
    const char *outcome = ortkit_measure_outcome(mm);
    cJSON_AddItemToObject(o, "outcome", outcome[0] ? cJSON_CreateString(outcome) : cJSON_CreateNull());
    cJSON_AddNumberToObject(o, "rounds", (double)ortkit_measure_rounds(mm));
    cJSON_AddNumberToObject(o, "seconds", ortkit_measure_seconds(mm));
    cJSON_AddStringToObject(o, "account", ortkit_measure_account(mm));
    cJSON_AddItemToObject(o, "declared", declared ? cJSON_CreateString(declared) : cJSON_CreateNull());
    return o;
}

/* What the model's measurement says, measuring it first with --measure:
 * CLI_OK with *mm set, or the failure, said. */
static int measured_for_model(ortkit_measure **mm, choose_args *a, const ortkit_host *h,
                              const ortkit_bundle **arr, size_t n, const ortkit_bundle_choice *choice)
{
    char shapes[4096];
    if (input_spec_shapes(&a->in, shapes, sizeof shapes))
        return cli_fail("the inputs' sizes are too long to key a measurement by");
    if (ortkit_measure_open(mm, h, (const ortkit_bundle *const *)arr, n, choice, a->model, shapes,
                            (int)a->threads))
        return cli_fail_lib();
    if (a->measure && !ortkit_measure_count(*mm)) {
        cli_warn("nothing to measure: %s", ortkit_measure_why(*mm));
    } else if (a->measure) {
        measure_plan plan = {a->model, &a->in, a->threads,
                             a->budget > 0 ? a->budget
                                           : ORTKIT_MEASURE_BUDGET_PER_CANDIDATE * (double)ortkit_measure_count(*mm),
                             isatty(STDERR_FILENO)};
        return choose_measure(*mm, (const ortkit_bundle *const *)arr, &plan);
    }
    return CLI_OK;
}

/* The choice: its view printed as JSON, or the text, whose last lines are
 * drawn from the view. */
static int print_report(const choose_args *a, const ortkit_host *h, const candidates *cand,
                        const ortkit_bundle_choice *choice, const ortkit_measure *mm, int chosen)
{
    const char *host_file = a->host;
    /* The measurement, when one is known, chooses what the runtime's search takes. */
    size_t taken = chosen ? choice->index : ORTKIT_BUNDLE_NONE;
    size_t measured = mm ? ortkit_measure_chosen(mm) : ORTKIT_BUNDLE_NONE;
    if (measured != ORTKIT_BUNDLE_NONE)
        taken = ortkit_measure_bundle(mm, measured);
    const char *declared = chosen ? cand->rows[choice->index].name : NULL;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "host", host_file ? cJSON_CreateString(host_file) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "overrides", choice_view_overrides_json());
    cJSON_AddItemToObject(o, "candidates", choice_view_json_measured(cand->rows, cand->n, choice, mm));
    cJSON_AddItemToObject(o, "chosen", taken != ORTKIT_BUNDLE_NONE
                                           ? cJSON_CreateString(cand->rows[taken].name)
                                           : cJSON_CreateNull());
    cJSON_AddStringToObject(o, "reason", measured != ORTKIT_BUNDLE_NONE ? ortkit_measure_account(mm)
                                                                      : choice->reason);
    if (mm)
        cJSON_AddItemToObject(o, "measurement", measure_json(mm, a, declared));
    if (a->json)
        return cli_json_print(o);
    host_line(h, host_file);
    choice_view_preamble(stdout, "");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "measurement");
    if (m)
        measure_lines(m);
    if (cand->n) {
        printf("\n");
        if (choice_view_print_measured(stdout, cand->rows, cand->n, choice, mm, "  ")) {
            cJSON_Delete(o);
            return cli_fail("out of memory");
        }
        printf("\n");
    }
    const char *chosen_name = cli_view_str(o, "chosen");
    printf("choice     %s\n", chosen_name[0] ? cli_esc(chosen_name) : "none");
    printf("why        %s\n", cli_esc(cli_view_str(o, "reason")));
    if (measured != ORTKIT_BUNDLE_NONE)
        printf("declared   %s: %s\n", cli_esc(cli_view_str(m, "declared")), cli_esc(choice->reason));
    else if (mm && chosen)
        printf("measured   %s\n", cli_esc(cli_view_str(m, "account")));
    cJSON_Delete(o);
    return CLI_OK;
}

int cmd_bundle_choose(const cli_opt_spec *spec, int argc, char **argv)
{
    choose_args a = {0};
    a.seed = 1;
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, bundle_choose_opts, &a, argc, argv))
        return p.status;
    const char *host_file = a.host;
    if (!a.model && (a.measure || a.budget > 0 || a.threads || a.in.n_files || a.in.n_dims ||
                     a.in.n_shapes || a.zeros))
        return cli_usage("bundle choose", "--measure, --budget, --threads and the input options "
                         "go with --model");
    if (a.measure && host_file)
        return cli_usage("bundle choose", "--measure runs the model on this host; a described "
                         "host (--host) cannot be measured");
    a.in.fill = a.zeros ? FILL_ZEROS : FILL_RANDOM;
    a.in.seed = (unsigned)a.seed;

    ortkit_host *h = NULL;
    ortkit_bundle_list *list = NULL;
    ortkit_bundle_choice *choice = NULL;
    ortkit_measure *mm = NULL;
    candidates cand = {0};
    const ortkit_bundle **arr = NULL;
    int rc = CLI_OK;
    if (host_file ? ortkit_host_load(&h, host_file) : ortkit_host_detect(&h))
        return cli_fail_lib();
    if (p.n_args) {
        for (int i = 0; !rc && i < p.n_args; i++)
            rc = add_argument(&cand, p.args[i]);
        if (rc)
            goto cleanup;
    } else {
        if (ortkit_bundle_list_open(&list)) {
            rc = cli_fail_lib();
            goto cleanup;
        }
        cand.rows = choice_rows_of_list(list, &cand.n);
    }
    arr = calloc(cand.n ? cand.n : 1, sizeof *arr);
    if (!arr || (cand.n && !cand.rows)) {
        rc = cli_fail("out of memory");
        goto cleanup;
    }
    for (size_t i = 0; i < cand.n; i++)
        arr[i] = cand.rows[i].bundle;
    int sel = ortkit_bundle_select(&choice, h, arr, cand.n, NULL);
    if (!choice) {
        rc = cli_fail_lib();
        goto cleanup;
    }
    int chosen = sel == 0 && choice->index != ORTKIT_BUNDLE_NONE;
    if (a.model && (rc = measured_for_model(&mm, &a, h, arr, cand.n, choice)))
        goto cleanup;
    rc = print_report(&a, h, &cand, choice, mm, chosen);
    if (!rc && !chosen)
        rc = CLI_FAIL;
cleanup:
    for (size_t i = 0; cand.owned && i < cand.n; i++) {
        ortkit_bundle_free(cand.owned[i]);
        free(cand.texts[3 * i]);
        free(cand.texts[3 * i + 1]);
        free(cand.texts[3 * i + 2]);
    }
    ortkit_measure_free(mm);
    free(cand.owned);
    free(cand.texts);
    free(cand.rows);
    free(arr);
    ortkit_bundle_choice_free(choice);
    ortkit_bundle_list_free(list);
    ortkit_host_free(h);
    return rc;
}
