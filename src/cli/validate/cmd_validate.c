/* cmd_validate.c - `ortkit validate [DIR...]`: run ONNX backend tests against a runtime. */
#include "run/inputs.h"
#include "interrupt.h"
#include "opt.h"
#include "session_flags.h"
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
#ifndef ORTKIT_VALIDATE_LISTS
#define ORTKIT_VALIDATE_LISTS ""
#endif

/* The test hook: the child running this test raises SIGSEGV. */
#define CRASH_HOOK_ENV "ORTKIT_VALIDATE_CRASH_TEST"

enum {
    OPT_JOBS = 1, OPT_FILTER, OPT_EXCLUDE, OPT_KNOWN, OPT_NO_KNOWN, OPT_ALLOW, OPT_TOL, OPT_RTOL,
    OPT_ATOL, OPT_TIMEOUT, OPT_REPEAT, OPT_SOAK, OPT_THREADS, OPT_EP, OPT_STRICT, OPT_JSON,
    OPT_JUNIT, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_VERBOSE, OPT_LIST, OPT_RUNTIME, OPT_BUNDLE
};

static const cli_opt validate_opts[] = {
    {OPT_JOBS, "jobs", 'j', "N", 0, "tests run at once (default: one per CPU)"},
    {OPT_FILTER, "filter", 0, "PATTERN", CLI_OPT_REPEATS,
     "run tests whose name (or suite/name) matches; repeatable"},
    {OPT_EXCLUDE, "exclude", 0, "PATTERN", CLI_OPT_REPEATS, "skip tests that match; repeatable"},
    {OPT_KNOWN, "known-failures", 0, "FILE", 0,
     "tests expected to fail: lines 'TEST  reason' (default, for the default suite: "
     "known_failures_MAJOR.MINOR.txt of the runtime's version in\n" ORTKIT_VALIDATE_LISTS ")"},
    {OPT_NO_KNOWN, "no-known-failures", 0, NULL, 0, "use no known-failures list"},
    {OPT_ALLOW, "allow-unexpected-pass", 0, NULL, 0,
     "a listed test that passes does not fail the run"},
    {OPT_TOL, "tolerances", 0, "FILE", 0, "per-test tolerances: lines 'TEST RTOL ATOL'"},
    {OPT_RTOL, "rtol", 0, "X", 0, "tolerances for floats (default 1e-3 and 1e-5)"},
    {OPT_ATOL, "atol", 0, "X", CLI_OPT_SAME_LINE, NULL},
    {OPT_TIMEOUT, "timeout", 0, "SECONDS", 0, "a test running longer is killed (default 60)"},
    {OPT_REPEAT, "repeat", 0, "N", 0, "run each data set N times; outputs must not change"},
    {OPT_SOAK, "soak", 0, "SECONDS", 0, "run each test's data this long; report memory growth"},
    {OPT_THREADS, "threads", 0, "N", 0, "intra-op threads per session (default 1; 0: ORT's)"},
    {OPT_EP, "ep", 0, "LIST", 0, "execution providers in order, e.g. cuda,cpu"},
    {OPT_STRICT, "strict", 0, NULL, 0, "fail a test whose session cannot get a provider in --ep"},
    {OPT_JSON, "json", 0, NULL, 0, "print the report as JSON"},
    {OPT_JUNIT, "junit", 0, "FILE", 0, "also write JUnit XML to FILE"},
    {OPT_PROGRESS, "progress", 0, NULL, 0, "the progress bar on stderr (default: when a terminal)"},
    {OPT_NO_PROGRESS, "no-progress", 0, NULL, CLI_OPT_SAME_LINE, NULL},
    {OPT_VERBOSE, "verbose", 'v', NULL, 0, "a line per test as it ends"},
    {OPT_LIST, "list", 0, NULL, 0, "list the tests selected, without running them"},
    {OPT_RUNTIME, "runtime", 0, "PATH", 0, "ONNX Runtime library or directory to load"},
    CLI_BUNDLE_ROW(OPT_BUNDLE),
    SESSION_FLAG_ROWS,
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

#define MAX_PATTERNS 256
#define MAX_ROOTS 256

typedef struct validate_args {
    const char *roots[MAX_ROOTS];
    size_t n_roots;
    const char *filters[MAX_PATTERNS], *excludes[MAX_PATTERNS];
    size_t n_filters, n_excludes;
    const char *known, *tolerances, *runtime, *junit, *bundle;
    char *bundle_path;     /* --bundle as the path to load */
    int no_known, allow_xpass, json, verbose, list, strict;
    int progress; /* -1: when stderr is a terminal */
    long jobs, repeat, threads;
    double timeout, soak, rtol, atol;
    char *ep_list;
    const char *providers[MAX_PATTERNS];
    size_t n_providers;
    session_flags flags;
} validate_args;

static int parse_seconds(const char *s, double min, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < min)
        return -1;
    *out = v;
    return 0;
}

static int parse_args(validate_args *a, int argc, char **argv)
{
    a->jobs = ortkit__proc_cpus();
    a->repeat = 1;
    a->threads = 1;
    a->timeout = 60;
    a->progress = -1;
    cli_opt_parser p;
    int c;
    cli_opt_init(&p, &validate_spec, NULL, argc, argv);
    while ((c = cli_opt_next(&p)) > 0) {
        switch (c) {
        case OPT_JOBS:
            if (cli_parse_long(p.value, 1, 1024, &a->jobs))
                return cli_usage("validate", "-j wants a number from 1 to 1024, got '%s'", p.value);
            break;
        case OPT_FILTER:
        case OPT_EXCLUDE: {
            size_t *n = c == OPT_FILTER ? &a->n_filters : &a->n_excludes;
            if (*n == MAX_PATTERNS)
                return cli_usage("validate", "more than %d patterns", MAX_PATTERNS);
            (c == OPT_FILTER ? a->filters : a->excludes)[(*n)++] = p.value;
            break;
        }
        case OPT_KNOWN: a->known = p.value; break;
        case OPT_NO_KNOWN: a->no_known = 1; break;
        case OPT_ALLOW: a->allow_xpass = 1; break;
        case OPT_TOL: a->tolerances = p.value; break;
        case OPT_RTOL:
        case OPT_ATOL: {
            double *tol = c == OPT_RTOL ? &a->rtol : &a->atol;
            if (parse_seconds(p.value, 0, tol))
                return cli_usage("validate", "--%s wants a number >= 0, got '%s'",
                                 c == OPT_RTOL ? "rtol" : "atol", p.value);
            if (*tol == 0)
                *tol = -1; /* the library reads 0 as "the default", -1 as none */
            break;
        }
        case OPT_TIMEOUT:
            if (parse_seconds(p.value, 0.001, &a->timeout))
                return cli_usage("validate", "--timeout wants a number of seconds > 0, got '%s'", p.value);
            break;
        case OPT_REPEAT:
            if (cli_parse_long(p.value, 1, 1000000, &a->repeat))
                return cli_usage("validate", "--repeat wants a number >= 1, got '%s'", p.value);
            break;
        case OPT_SOAK:
            if (parse_seconds(p.value, 0.001, &a->soak))
                return cli_usage("validate", "--soak wants a number of seconds > 0, got '%s'", p.value);
            break;
        case OPT_THREADS:
            if (cli_parse_long(p.value, 0, 4096, &a->threads))
                return cli_usage("validate", "--threads wants a number from 0 to 4096, got '%s'", p.value);
            break;
        case OPT_EP: a->ep_list = p.value; break;
        case OPT_STRICT: a->strict = 1; break;
        case OPT_JSON: a->json = 1; break;
        case OPT_JUNIT: a->junit = p.value; break;
        case OPT_PROGRESS: a->progress = 1; break;
        case OPT_NO_PROGRESS: a->progress = 0; break;
        case OPT_VERBOSE: a->verbose = 1; break;
        case OPT_LIST: a->list = 1; break;
        case OPT_RUNTIME: a->runtime = p.value; break;
        case OPT_BUNDLE: a->bundle = p.value; break;
        default:
            if (session_flags_parse(&a->flags, "validate", c, p.value))
                return CLI_USAGE;
        }
    }
    if (c == CLI_OPT_HELP)
        return -1;
    if (c == CLI_OPT_BAD)
        return CLI_USAGE;
    if (a->known && a->no_known)
        return cli_usage("validate", "--known-failures and --no-known-failures exclude each other");
    for (int i = 0; i < p.n_args; i++) {
        if (a->n_roots == MAX_ROOTS)
            return cli_usage("validate", "more than %d test directories", MAX_ROOTS);
        a->roots[a->n_roots++] = p.args[i];
    }
    if (a->progress < 0)
        a->progress = isatty(STDERR_FILENO);
    int rc = cli_bundle_path(&a->bundle_path, "validate", a->runtime, a->bundle);
    if (rc)
        return rc;
    if (a->bundle_path)
        a->runtime = a->bundle_path;
    return providers_split("validate", a->ep_list, a->providers, MAX_PATTERNS, &a->n_providers);
}

static int matches(const char *const *patterns, size_t n, const ortkit_conformance_test *t)
{
    char qualified[512];
    snprintf(qualified, sizeof qualified, "%s/%s", t->suite, t->name);
    for (size_t i = 0; i < n; i++)
        if (!fnmatch(patterns[i], t->name, 0) || !fnmatch(patterns[i], qualified, 0))
            return 1;
    return 0;
}

/* The known-failures list kept for this runtime's major.minor, if there is one. */
static void default_known(char *buf, size_t size, const char *version)
{
    int major = 0, minor = 0;
    buf[0] = '\0';
    if (!ORTKIT_VALIDATE_LISTS[0] || sscanf(version, "%d.%d", &major, &minor) != 2)
        return;
    snprintf(buf, size, "%s/known_failures_%d.%d.txt", ORTKIT_VALIDATE_LISTS, major, minor);
    if (access(buf, R_OK) != 0)
        buf[0] = '\0';
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

int cmd_validate(int argc, char **argv)
{
    validate_args a = {0};
    int rc = parse_args(&a, argc, argv);
    if (rc) {
        free(a.bundle_path);
        return rc < 0 ? CLI_OK : rc;
    }
    ortkit_conformance *found = NULL;
    v_test *tests = NULL;
    v_list known = {0}, tols = {0};
    char version[64] = "", rt_path[4096] = "", known_path[4096] = "";
    char *default_roots[4] = {NULL, NULL, NULL, NULL};
    /* Until the tests start there is nothing to report: an interrupt ends the command at once. */
    cli_interrupt_init();

    if (!a.n_roots) {
        static const char *const suites[] = {"node", "simple", "pytorch-converted", "pytorch-operator"};
        struct stat st;
        if (stat(ORTKIT_VALIDATE_SUITE, &st) != 0) {
            rc = cli_fail("the default test suite '%s' is missing (Debian's libonnx-testdata); "
                          "give test directories instead", ORTKIT_VALIDATE_SUITE);
            goto cleanup;
        }
        for (size_t i = 0; i < 4; i++) {
            if (asprintf(&default_roots[i], "%s/%s", ORTKIT_VALIDATE_SUITE, suites[i]) < 0) {
                default_roots[i] = NULL;
                rc = cli_fail("out of memory");
                goto cleanup;
            }
            a.roots[a.n_roots++] = default_roots[i];
        }
    }
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
    else if (!a.no_known && default_suite)
        default_known(known_path, sizeof known_path, version);
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
    for (size_t i = 0; i < total; i++) {
        const ortkit_conformance_test *t = ortkit_conformance_get(found, i);
        /* Matched before filtering, so that stale entries can be told apart. */
        const v_entry *k = v_list_match(&known, t), *tol = v_list_match(&tols, t);
        if ((a.n_filters && !matches(a.filters, a.n_filters, t)) ||
            matches(a.excludes, a.n_excludes, t))
            continue;
        tests[n] = (v_test){.t = t, .known = k, .rtol = tol ? tol->rtol : 0, .atol = tol ? tol->atol : 0};
        if (tol && tol->rtol == 0)
            tests[n].rtol = -1;
        if (tol && tol->atol == 0)
            tests[n].atol = -1;
        n++;
    }
    if (!n) {
        rc = cli_fail("no test matches the filters (%zu tests found)", total);
        goto cleanup;
    }
    if (a.list) {
        print_list(tests, n);
        goto cleanup;
    }
    if (default_suite && !a.n_filters && !a.n_excludes && known.count)
        warn_unmatched(&known);

    v_config cfg = {
        .runtime_path = rt_path,
        .runtime_version = version,
        .jobs = a.jobs,
        .timeout = a.timeout,
        .progress = a.progress,
        .verbose = a.verbose && !a.json,
        .json = a.json,
        .allow_xpass = a.allow_xpass,
        .junit = a.junit,
        .known_path = known_path,
        .crash_hook = getenv(CRASH_HOOK_ENV),
    };
    cfg.session = (ortkit_session_options)ORTKIT_SESSION_OPTIONS_INIT;
    cfg.session.intra_op_threads = (int)a.threads;
    cfg.session.providers = a.providers;
    cfg.session.provider_count = a.n_providers;
    cfg.session.ep_policy = a.strict ? ORTKIT_EP_STRICT : ORTKIT_EP_FALLBACK;
    session_flags_apply(&a.flags, &cfg.session);
    cfg.conf = (ortkit_conformance_options)ORTKIT_CONFORMANCE_OPTIONS_INIT;
    cfg.conf.rtol = a.rtol;
    cfg.conf.atol = a.atol;
    cfg.conf.repeat = (int)a.repeat;
    cfg.conf.soak_seconds = a.soak;
    if (cfg.crash_hook && !cfg.crash_hook[0])
        cfg.crash_hook = NULL;
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
    free(a.bundle_path);
    return rc;
}
