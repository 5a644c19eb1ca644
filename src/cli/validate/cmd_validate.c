/* cmd_validate.c - `ortkit validate [DIR...]`: run ONNX backend tests against a runtime. */
#include "interrupt.h"
#include "opt.h"
#include "session_flags.h"
#include "test_hooks.h"
#include "validate_cli.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef ORTKIT_VALIDATE_SUITE
#define ORTKIT_VALIDATE_SUITE "/usr/share/libonnx-testdata/data"
#endif
/* Where the known-failure lists are installed, for --help; the tool looks
 * for them relative to where it lies (ORTKIT_VALIDATE_LIST_DIRS: the build
 * tree's copy beside it, then the installed tree's). */
#ifndef ORTKIT_VALIDATE_LISTS
#define ORTKIT_VALIDATE_LISTS "share/ortkit/validate"
#endif
#ifndef ORTKIT_VALIDATE_LIST_DIRS
#define ORTKIT_VALIDATE_LIST_DIRS "share/ortkit/validate:../share/ortkit/validate"
#endif

typedef struct validate_args {
    const char **roots;
    size_t n_roots;
    ortkit__strv filters, excludes;
    const char *known, *tolerances, *runtime, *junit, *bundle;
    char *bundle_path;     /* --bundle as the path to load */
    int no_known, allow_xpass, json, verbose, list, strict;
    int progress; /* -1: when stderr is a terminal */
    long jobs, repeat, threads;
    double timeout, soak, rtol, atol; /* rtol, atol NAN: not given */
    char *ep_list;
    const char *providers[256];
    size_t n_providers;
    session_flags flags;
} validate_args;

static const cli_opt validate_opts[] = {
    {0, "jobs", 'j', "N", 0, "tests run at once (default: one per CPU)",
     CLI_OPT_LONG(validate_args, jobs, 1, 1024)},
    {0, "filter", 0, "PATTERN", CLI_OPT_REPEATS,
     "run tests whose name (or suite/name) matches; repeatable", CLI_OPT_STRV(validate_args, filters)},
    {0, "exclude", 0, "PATTERN", CLI_OPT_REPEATS, "skip tests that match; repeatable",
     CLI_OPT_STRV(validate_args, excludes)},
    {0, "known-failures", 0, "FILE", 0,
     "tests expected to fail: lines 'TEST  reason' (default, for the default suite: "
     "known_failures_MAJOR.MINOR.txt of the runtime's version or else of the nearest release,\n"
     "installed with ortkit in\n"
     "PREFIX/" ORTKIT_VALIDATE_LISTS ")",
     CLI_OPT_STRING(validate_args, known)},
    {0, "no-known-failures", 0, NULL, 0, "use no known-failures list",
     CLI_OPT_FLAG(validate_args, no_known)},
    {0, "allow-unexpected-pass", 0, NULL, 0, "a listed test that passes does not fail the run",
     CLI_OPT_FLAG(validate_args, allow_xpass)},
    {0, "tolerances", 0, "FILE", 0, "per-test tolerances: lines 'TEST RTOL ATOL'",
     CLI_OPT_STRING(validate_args, tolerances)},
    {0, "rtol", 0, "X", 0, "tolerances for floats (default 1e-3 and 1e-5)",
     CLI_OPT_DOUBLE(validate_args, rtol, 0, INFINITY)},
    {0, "atol", 0, "X", CLI_OPT_SAME_LINE, NULL, CLI_OPT_DOUBLE(validate_args, atol, 0, INFINITY)},
    {0, "timeout", 0, "SECONDS", 0, "a test running longer is killed (default 60)",
     CLI_OPT_DOUBLE(validate_args, timeout, 0.001, INFINITY), .want = "a number of seconds > 0"},
    {0, "repeat", 0, "N", 0, "run each data set N times; outputs must not change",
     CLI_OPT_LONG(validate_args, repeat, 1, 1000000)},
    {0, "soak", 0, "SECONDS", 0, "run each test's data this long; report memory growth",
     CLI_OPT_DOUBLE(validate_args, soak, 0.001, INFINITY), .want = "a number of seconds > 0"},
    {0, "threads", 0, "N", 0, "intra-op threads per session (default 1; 0: ORT's)",
     CLI_OPT_LONG(validate_args, threads, 0, 4096)},
    SESSION_EP_ROW(validate_args, ep_list),
    {0, "strict", 0, NULL, 0, "fail a test whose session cannot get a provider in --ep",
     CLI_OPT_FLAG(validate_args, strict)},
    {0, "json", 0, NULL, 0, "print the report as JSON", CLI_OPT_FLAG(validate_args, json)},
    {0, "junit", 0, "FILE", 0, "also write JUnit XML to FILE", CLI_OPT_STRING(validate_args, junit)},
    {0, "progress", 0, NULL, 0, "the progress bar on stderr (default: when a terminal)",
     CLI_OPT_SET(validate_args, progress, 1)},
    {0, "no-progress", 0, NULL, CLI_OPT_SAME_LINE, NULL, CLI_OPT_SET(validate_args, progress, 0)},
    {0, "verbose", 'v', NULL, 0, "a line per test as it ends", CLI_OPT_FLAG(validate_args, verbose)},
    {0, "list", 0, NULL, 0, "list the tests selected, without running them",
     CLI_OPT_FLAG(validate_args, list)},
    {0, "runtime", 0, "PATH", 0, "ONNX Runtime library or directory to load",
     CLI_OPT_STRING(validate_args, runtime)},
    CLI_BUNDLE_ROW(validate_args, bundle),
    SESSION_FLAG_ROWS(validate_args, flags),
    CLI_OPT_ARGS(0, CLI_OPT_ANY, NULL),
    CLI_OPT_END};

static const cli_opt_spec validate_spec = {
    "validate",
    "usage: ortkit validate [DIR...] [--runtime PATH | --bundle NAME|DIR] [-j N]\n"
    "                       [--filter PATTERN]...\n"
    "                       [--exclude PATTERN]... [--known-failures FILE] [--tolerances FILE]\n"
    "                       [--timeout SECONDS] [--repeat N] [--soak SECONDS] [--threads N]\n"
    "                       [--ep LIST] [--strict] [--json] [--junit FILE] [--list]\n"
    "                       [--cache[=DIR]] [--arena on|off] [--mem-pattern on|off] [--spin on|off]\n",
    "Run ONNX backend tests (test_*/model.onnx with test_data_set_N/input_N.pb and\n"
    "output_N.pb) against a runtime, each in its own process, and compare the outputs\n"
    "with the reference as ONNX Runtime's test runner does.  Without DIR, runs the\n"
    "suites node, simple, pytorch-converted and pytorch-operator of\n"
    "  " ORTKIT_VALIDATE_SUITE "\n",
    validate_opts, NULL,
    "Exit status: 0 when every test passed or failed as listed, 1 on other failures,\n"
    "2 on usage errors, 130 when interrupted (SIGINT or SIGTERM).  Interrupted, the\n"
    "report covers the tests that finished, and a --junit file says the run was\n"
    "interrupted in an <error> element, so that it counts as a failure.\n"};

static int parse_args(validate_args *a, int argc, char **argv)
{
    a->jobs = ortkit__proc_cpus();
    a->repeat = 1;
    a->threads = 1;
    a->timeout = 60;
    a->rtol = a->atol = NAN;
    a->progress = -1;
    cli_opt_parser p;
    if (cli_opt_parse(&p, &validate_spec, NULL, a, argc, argv))
        return p.status ? p.status : -1;
    if (session_flags_done(&a->flags, "validate"))
        return CLI_USAGE;
    /* The library reads 0 as "the default", -1 as none. */
    a->rtol = isnan(a->rtol) ? 0 : a->rtol == 0 ? -1 : a->rtol;
    a->atol = isnan(a->atol) ? 0 : a->atol == 0 ? -1 : a->atol;
    if (a->known && a->no_known)
        return cli_usage("validate", "--known-failures and --no-known-failures exclude each other");
    a->roots = (const char **)p.args;
    a->n_roots = (size_t)p.n_args;
    if (a->progress < 0)
        a->progress = isatty(STDERR_FILENO);
    int rc = cli_bundle_path(&a->bundle_path, "validate", a->runtime, a->bundle);
    if (rc)
        return rc;
    if (a->bundle_path)
        a->runtime = a->bundle_path;
    return providers_split("validate", a->ep_list, a->providers,
                           sizeof a->providers / sizeof a->providers[0], &a->n_providers);
}

static void free_args(validate_args *a)
{
    ortkit__strv_free(&a->filters);
    ortkit__strv_free(&a->excludes);
    free(a->bundle_path);
}

static int matches(ortkit__strv patterns, const ortkit_conformance_test *t)
{
    char qualified[512];
    snprintf(qualified, sizeof qualified, "%s/%s", t->suite, t->name);
    for (size_t i = 0; i < patterns.n; i++)
        if (!fnmatch(patterns.v[i], t->name, 0) || !fnmatch(patterns.v[i], qualified, 0))
            return 1;
    return 0;
}

static void print_list(const v_test *tests, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const ortkit_conformance_test *t = tests[i].t;
        char opset[32] = "-";
        if (t->opset)
            snprintf(opset, sizeof opset, "%lld", (long long)t->opset);
        printf("%s/%s\t%s\topset %s%s%s\n", t->suite[0] ? cli_esc(t->suite) : "-", cli_esc(t->name),
               t->op[0] ? cli_esc(t->op) : "-", opset, tests[i].known ? "\tknown failure: " : "",
               tests[i].known ? cli_esc(tests[i].known->text) : "");
    }
}

/* Entries of the list that name no test at all: stale, or misspelt. */
static void warn_unmatched(const v_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        if (!list->entries[i].matched)
            fprintf(stderr, "ortkit validate: %s:%d: '%s' matches no test\n", cli_esc(list->path),
                    list->entries[i].line, cli_esc(list->entries[i].pattern));
}

/* No test directories given: the default suite's four, into roots (kept
 * in default_roots to be freed). */
static int use_default_suite(validate_args *a, char **default_roots, const char **suite_roots)
{
    static const char *const suites[] = {"node", "simple", "pytorch-converted", "pytorch-operator"};
    struct stat st;
    if (stat(ORTKIT_VALIDATE_SUITE, &st) != 0)
        return cli_fail("the default test suite '%s' is missing (Debian's libonnx-testdata); "
                        "give test directories instead", ORTKIT_VALIDATE_SUITE);
    for (size_t i = 0; i < 4; i++) {
        if (asprintf(&default_roots[i], "%s/%s", ORTKIT_VALIDATE_SUITE, suites[i]) < 0) {
            default_roots[i] = NULL;
            return cli_fail("out of memory");
        }
        suite_roots[i] = default_roots[i];
    }
    a->roots = suite_roots;
    a->n_roots = 4;
    return CLI_OK;
}

/* The tests the filters keep, each with its known failure and tolerances,
 * into tests: how many.  Every test is matched against the lists, which
 * mark the entries that matched. */
static size_t select_tests(v_test *tests, const ortkit_conformance *found, const validate_args *a,
                           v_list *known, v_list *tols)
{
    size_t n = 0;
    for (size_t i = 0; i < ortkit_conformance_count(found); i++) {
        const ortkit_conformance_test *t = ortkit_conformance_get(found, i);
        /* Matched before filtering, so that stale entries can be told apart. */
        const v_entry *k = v_list_match(known, t), *tol = v_list_match(tols, t);
        if ((a->filters.n && !matches(a->filters, t)) || matches(a->excludes, t))
            continue;
        tests[n] = (v_test){.t = t, .known = k, .rtol = tol ? tol->rtol : 0, .atol = tol ? tol->atol : 0};
        if (tol && tol->rtol == 0)
            tests[n].rtol = -1;
        if (tol && tol->atol == 0)
            tests[n].atol = -1;
        n++;
    }
    return n;
}

/* The run's settings from the options: the sessions' and the comparisons'. */
static void config_of(v_config *cfg, validate_args *a, const char *rt_path, const char *version,
                      const char *known_path)
{
    *cfg = (v_config){
        .runtime_path = rt_path,
        .runtime_version = version,
        .jobs = a->jobs,
        .timeout = a->timeout,
        .progress = a->progress,
        .verbose = a->verbose && !a->json,
        .json = a->json,
        .allow_xpass = a->allow_xpass,
        .junit = a->junit,
        .known_path = known_path,
        .crash_hook = cli_hook_crash_test(), /* test_hooks.h: the tool has none */
    };
    cfg->session = (ortkit_session_options)ORTKIT_SESSION_OPTIONS_INIT;
    cfg->session.intra_op_threads = (int)a->threads;
    cfg->session.providers = a->providers;
    cfg->session.provider_count = a->n_providers;
    cfg->session.ep_policy = a->strict ? ORTKIT_EP_STRICT : ORTKIT_EP_FALLBACK;
    session_flags_apply(&a->flags, &cfg->session);
    cfg->conf = (ortkit_conformance_options)ORTKIT_CONFORMANCE_OPTIONS_INIT;
    cfg->conf.rtol = a->rtol;
    cfg->conf.atol = a->atol;
    cfg->conf.repeat = (int)a->repeat;
    cfg->conf.soak_seconds = a->soak;
}

int cmd_validate(int argc, char **argv)
{
    validate_args a = {0};
    int rc = parse_args(&a, argc, argv);
    if (rc) {
        free_args(&a);
        return rc < 0 ? CLI_OK : rc;
    }
    ortkit_conformance *found = NULL;
    v_test *tests = NULL;
    v_list known = {0}, tols = {0};
    char version[64] = "", rt_path[4096] = "", known_path[4096] = "";
    v_known_choice pick = {0};
    char *default_roots[4] = {NULL, NULL, NULL, NULL};
    const char *suite_roots[4];
    /* Until the tests start there is nothing to report: an interrupt ends the command at once. */
    cli_interrupt_init();

    if (!a.n_roots && (rc = use_default_suite(&a, default_roots, suite_roots)))
        goto cleanup;
    if (ortkit_conformance_find(&found, a.roots, a.n_roots)) {
        rc = cli_fail_lib();
        goto cleanup;
    }
    if ((rc = v_probe_runtime(a.runtime, version, sizeof version, rt_path, sizeof rt_path)))
        goto cleanup;
    /* The lists kept in the tree describe the default suite; other
     * directories get a list only when one is named. */
    int default_suite = default_roots[0] != NULL;
    if (a.known)
        snprintf(known_path, sizeof known_path, "%s", a.known);
    else if (!a.no_known && default_suite) {
        /* The list kept for this runtime's major.minor, else the nearest, said in one line. */
        v_known_pick(&pick, ORTKIT_VALIDATE_LIST_DIRS, version);
        snprintf(known_path, sizeof known_path, "%s", pick.path);
        if (pick.note[0])
            cli_warn("%s", pick.note);
    }
    if (known_path[0] && (rc = v_list_load(&known, known_path, V_LIST_KNOWN_FAILURES)))
        goto cleanup;
    if (a.tolerances && (rc = v_list_load(&tols, a.tolerances, V_LIST_TOLERANCES)))
        goto cleanup;

    size_t total = ortkit_conformance_count(found), n = 0;
    tests = calloc(total + 1, sizeof *tests);
    if (!tests) {
        rc = cli_fail("out of memory");
        goto cleanup;
    }
    n = select_tests(tests, found, &a, &known, &tols);
    if (!n) {
        rc = cli_fail("no test matches the filters (%zu tests found)", total);
        goto cleanup;
    }
    /* --list too, so that a list can be checked without running the suite. */
    if (default_suite && !a.filters.n && !a.excludes.n && known.count)
        warn_unmatched(&known);
    if (a.list) {
        print_list(tests, n);
        goto cleanup;
    }

    v_config cfg;
    config_of(&cfg, &a, rt_path, version, known_path);
    cfg.known_release = pick.release;
    cfg.known_note = pick.note;
    if (a.progress)
        fprintf(stderr, "ortkit validate: %zu tests on ONNX Runtime %s, %ld at a time\n", n, cli_esc(version),
                a.jobs);

    /* From here an interrupt stops the tests, and what finished is reported. */
    double seconds = 0;
    cli_interrupt_hold();
    int run_rc = v_run_all(tests, n, &cfg, &seconds);
    if (run_rc && run_rc != CLI_INTERRUPTED) {
        cli_interrupt_release();
        rc = run_rc;
        goto cleanup;
    }
    int report_rc = v_report(tests, n, &cfg, seconds, run_rc == CLI_INTERRUPTED ? cli_interrupted() : 0);
    cli_interrupt_release();
    size_t failed = 0, xpassed = 0;
    for (size_t i = 0; i < n; i++) {
        failed += tests[i].verdict == V_FAIL;
        xpassed += tests[i].verdict == V_XPASS;
    }
    if (run_rc == CLI_INTERRUPTED)
        rc = CLI_INTERRUPTED;
    else if (failed || (xpassed && !a.allow_xpass) || report_rc)
        rc = CLI_FAIL;
cleanup:
    free(tests);
    v_list_free(&known);
    v_list_free(&tols);
    ortkit_conformance_free(found);
    for (size_t i = 0; i < 4; i++)
        free(default_roots[i]);
    free_args(&a);
    return rc;
}
