/*
 * validate.c - one ONNX backend test run in this process: the model opened,
 * each test_data_set_N fed in, the outputs compared with the reference, and
 * optionally repeated (determinism) or looped (resident-memory growth).
 */
#include "abi.h"
#include "ortkit/tools/conformance.h"
#include "validate.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Limits that keep a hostile test directory from asking for absurd work. */
#define MAX_DATA_SETS 1000
#define MAX_FILES 1000

typedef struct data_set {
    char name[32];            /* "test_data_set_0" */
    size_t n_in, n_out;
    ortkit_value **inputs;    /* in model order */
    const char **in_names;
    ortkit_value **expected;  /* in model order */
} data_set;

typedef struct run_ctx {
    ortkit_conformance_result *res;
    ortkit_session *session;
    const ortkit_conformance_options *opts;
    double rtol, atol;
    int single_thread;
} run_ctx;

/* Record the outcome; the first failure wins. */
static int verdict(ortkit_conformance_result *r, ortkit_conformance_outcome outcome,
                   const char *stage, const char *fmt, ...) ORTKIT_PRINTF(4, 5);
static int verdict(ortkit_conformance_result *r, ortkit_conformance_outcome outcome,
                   const char *stage, const char *fmt, ...)
{
    if (r->outcome != ORTKIT_CONFORMANCE_PASS)
        return -1;
    r->outcome = outcome;
    snprintf(r->stage, sizeof r->stage, "%s", stage);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
    return -1;
}

static void data_set_free(data_set *d)
{
    for (size_t i = 0; i < d->n_in && d->inputs; i++)
        ortkit_value_free(d->inputs[i]);
    for (size_t i = 0; i < d->n_out && d->expected; i++)
        ortkit_value_free(d->expected[i]);
    free(d->inputs);
    free(d->in_names);
    free(d->expected);
    memset(d, 0, sizeof *d);
}

/* Does dir hold a file named PREFIX_N.pb for N = 0..count-1?  Returns count,
 * -1 when the numbers have gaps (input_0.pb, input_2.pb), -2 when dir cannot
 * be read (errno says why). */
static long count_files(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (!d)
        return -2;
    long seen = 0, max = -1;
    size_t plen = strlen(prefix);
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        if (strncmp(e->d_name, prefix, plen) || e->d_name[plen] != '_')
            continue;
        long n = strtol(e->d_name + plen + 1, &end, 10);
        if (end == e->d_name + plen + 1 || strcmp(end, ".pb") || n < 0 || n >= MAX_FILES)
            continue;
        seen++;
        if (n > max)
            max = n;
    }
    closedir(d);
    return seen == max + 1 ? seen : -1;
}

static int set_number(const struct dirent *e)
{
    char *end;
    if (strncmp(e->d_name, "test_data_set_", 14))
        return 0;
    long n = strtol(e->d_name + 14, &end, 10);
    return end != e->d_name + 14 && !*end && n >= 0;
}

static int by_set_number(const struct dirent **a, const struct dirent **b)
{
    long x = strtol((*a)->d_name + 14, NULL, 10), y = strtol((*b)->d_name + 14, NULL, 10);
    return (x > y) - (x < y);
}

static const char *kind_word(ortkit_value_kind k)
{
    static const char *const words[] = {"unknown-type", "tensor", "sequence", "map", "optional",
                                        "sparse tensor"};
    return k <= ORTKIT_KIND_SPARSE_TENSOR ? words[k] : words[0];
}

/* The model position of a value read from file i: by its name when that is
 * one of the model's, else by its position (ORT's runner does the same). */
static size_t position_of(const ortkit_proto_value *v, size_t i, int input, const ortkit_session *s)
{
    long idx = -1;
    if (v->name[0])
        idx = input ? ortkit_session_input_index(s, v->name) : ortkit_session_output_index(s, v->name);
    return idx >= 0 ? (size_t)idx : i;
}

static int slot_taken(const data_set *d, int input, size_t k)
{
    return input ? d->inputs[k] != NULL : d->expected[k] != NULL;
}

/* Read one data set: every input as a tensor, every expected output as stored. */
static int load_data_set(run_ctx *c, const char *dir, data_set *d)
{
    ortkit_conformance_result *r = c->res;
    const ortkit_session *s = c->session;
    size_t want_in = ortkit_session_input_count(s), want_out = ortkit_session_output_count(s);
    long n_in = count_files(dir, "input"), n_out = count_files(dir, "output");
    if (n_in == -2 || n_out == -2)
        return verdict(r, ORTKIT_CONFORMANCE_FAIL, "data", "cannot read '%s': %s", dir,
                       strerror(errno));
    if (n_in < 0 || n_out < 0)
        return verdict(r, ORTKIT_CONFORMANCE_FAIL, "data", "%s: %s files are not numbered 0..N-1",
                       d->name, n_in < 0 ? "input_N.pb" : "output_N.pb");
    if ((size_t)n_in != want_in)
        return verdict(r, ORTKIT_CONFORMANCE_FAIL, "data", "%s has %ld input file%s; the model "
                       "takes %zu input%s", d->name, n_in, n_in == 1 ? "" : "s", want_in,
                       want_in == 1 ? "" : "s");
    if ((size_t)n_out != want_out)
        return verdict(r, ORTKIT_CONFORMANCE_FAIL, "data", "%s has %ld output file%s; the model "
                       "has %zu output%s", d->name, n_out, n_out == 1 ? "" : "s", want_out,
                       want_out == 1 ? "" : "s");
    d->inputs = calloc(want_in + 1, sizeof *d->inputs);
    d->in_names = calloc(want_in + 1, sizeof *d->in_names);
    d->expected = calloc(want_out + 1, sizeof *d->expected);
    if (!d->inputs || !d->in_names || !d->expected)
        return verdict(r, ORTKIT_CONFORMANCE_FAIL, "data", "out of memory");
    d->n_in = want_in;
    d->n_out = want_out;
    for (int pass = 0; pass < 2; pass++) {
        int input = pass == 0;
        size_t n = input ? want_in : want_out;
        for (size_t i = 0; i < n; i++) {
            char path[4096 + 64];
            snprintf(path, sizeof path, "%s/%s_%zu.pb", dir, input ? "input" : "output", i);
            const ortkit_io_info *io = input ? ortkit_session_input(s, i) : ortkit_session_output(s, i);
            ortkit_proto_value *v = NULL;
            if (ortkit_proto_value_read(&v, io->kind, path))
                return verdict(r, ortkit_error_code() == ORTKIT_E_UNSUPPORTED
                                      ? ORTKIT_CONFORMANCE_UNSUPPORTED : ORTKIT_CONFORMANCE_FAIL,
                               "data", "%s", ortkit_error_last());
            size_t at = position_of(v, i, input, s);
            if (slot_taken(d, input, at))
                at = i; /* a name given twice: trust the order */
            if (slot_taken(d, input, at)) {
                ortkit_proto_value_free(v);
                return verdict(r, ORTKIT_CONFORMANCE_FAIL, "data", "%s: two files give %s '%s'",
                               d->name, input ? "input" : "output",
                               input ? ortkit_session_input(s, at)->name
                                     : ortkit_session_output(s, at)->name);
            }
            int rc = ortkit__validate_value_from_proto(input ? &d->inputs[at] : &d->expected[at], v);
            ortkit_proto_value_free(v);
            const char *name = input ? ortkit_session_input(s, at)->name
                                     : ortkit_session_output(s, at)->name;
            if (rc)
                return verdict(r, rc == ORTKIT_E_UNSUPPORTED ? ORTKIT_CONFORMANCE_UNSUPPORTED
                                                             : ORTKIT_CONFORMANCE_FAIL,
                               "data", "%s: %s '%s': %s", d->name, input ? "input" : "output",
                               name, ortkit_error_last());
            if (input)
                d->in_names[at] = name;
        }
    }
    return 0;
}

/* Compare run outputs with a data set's reference; records the worst difference. */
static void check_outputs(run_ctx *c, const data_set *d, ortkit_value *const *got)
{
    ortkit_conformance_result *r = c->res;
    for (size_t i = 0; i < d->n_out; i++) {
        const char *name = ortkit_session_output(c->session, i)->name;
        ortkit_compare cmp = ORTKIT_COMPARE_INIT;
        ortkit__validate_compare(&cmp, d->expected[i], got[i], c->rtol, c->atol);
        if (cmp.max_diff > r->max_diff || !r->worst[0]) {
            r->max_diff = cmp.max_diff;
            snprintf(r->worst, sizeof r->worst, "%s: output '%.60s' %.50s", d->name, name, cmp.where);
        }
        if (!cmp.equal)
            verdict(r, ORTKIT_CONFORMANCE_FAIL, "compare", "%s: output '%s': %s", d->name, name,
                    cmp.message);
    }
}

/* A later run against the first: any bit that differs is recorded. */
static void check_repeat(run_ctx *c, const data_set *d, ortkit_value *const *first,
                         ortkit_value *const *again, unsigned long run)
{
    ortkit_conformance_result *r = c->res;
    for (size_t i = 0; i < d->n_out; i++) {
        ortkit_compare cmp = ORTKIT_COMPARE_INIT;
        ortkit__validate_identical(&cmp, first[i], again[i]);
        if (cmp.equal)
            continue;
        if (!r->unstable || cmp.max_diff > r->unstable_diff)
            r->unstable_diff = cmp.max_diff;
        r->unstable = 1;
        if (c->single_thread)
            verdict(r, ORTKIT_CONFORMANCE_FAIL, "repeat", "%s: run %lu of output '%s' differs from "
                    "the first with one thread: %s", d->name, run + 1,
                    ortkit_session_output(c->session, i)->name, cmp.message);
    }
}

static void free_outputs(ortkit_value **outs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ortkit_value_free(outs[i]);
        outs[i] = NULL;
    }
}

static int run_once(run_ctx *c, const data_set *d, ortkit_value **outs)
{
    int rc = ortkit_session_run_values(c->session, NULL, d->in_names,
                                       (const ortkit_value *const *)d->inputs, d->n_in, NULL, 0, outs);
    c->res->runs++;
    if (rc)
        return verdict(c->res, ORTKIT_CONFORMANCE_FAIL,
                       rc == ORTKIT_E_SHAPE || rc == ORTKIT_E_NAME ? "data" : "run", "%s: %s",
                       d->name, ortkit_error_last());
    return 0;
}

/* Run a data set (repeat times), check it; the outputs go. */
static int run_data_set(run_ctx *c, const data_set *d)
{
    int repeat = c->opts->repeat > 1 ? c->opts->repeat : 1;
    ortkit_value **first = calloc(d->n_out + 1, sizeof *first);
    ortkit_value **again = calloc(d->n_out + 1, sizeof *again);
    int bad = -1;
    if (!first || !again) {
        verdict(c->res, ORTKIT_CONFORMANCE_FAIL, "run", "out of memory");
        goto cleanup;
    }
    if (run_once(c, d, first))
        goto cleanup;
    check_outputs(c, d, first);
    /* Repeated even when the outputs are wrong: an op that draws random
     * numbers shows up here as unstable, which says why it fails. */
    for (int k = 1; k < repeat; k++) {
        if (run_once(c, d, again))
            break;
        check_repeat(c, d, first, again, (unsigned long)k);
        free_outputs(again, d->n_out);
    }
    bad = c->res->outcome != ORTKIT_CONFORMANCE_PASS;
cleanup:
    if (first)
        free_outputs(first, d->n_out);
    if (again)
        free_outputs(again, d->n_out);
    free(first);
    free(again);
    return bad;
}

/* Sparse tensors and types ONNX Runtime does not name are not run. */
static int kinds_supported(run_ctx *c)
{
    const ortkit_session *s = c->session;
    for (int out = 0; out < 2; out++) {
        size_t n = out ? ortkit_session_output_count(s) : ortkit_session_input_count(s);
        for (size_t i = 0; i < n; i++) {
            const ortkit_io_info *io = out ? ortkit_session_output(s, i) : ortkit_session_input(s, i);
            if (io->kind == ORTKIT_KIND_SPARSE_TENSOR || io->kind == ORTKIT_KIND_UNKNOWN)
                return verdict(c->res, ORTKIT_CONFORMANCE_UNSUPPORTED, "model", "unsupported by "
                               "ortkit: %s %s '%s'", kind_word(io->kind), out ? "output" : "input",
                               io->name);
        }
    }
    return 0;
}

static void note_provider(run_ctx *c)
{
    for (size_t i = 0; i < ortkit_session_provider_count(c->session); i++) {
        const ortkit_provider_status *p = ortkit_session_provider(c->session, i);
        if (p->active) {
            snprintf(c->res->provider, sizeof c->res->provider, "%s", p->name);
            return;
        }
    }
}

/* Keep running every data set until the soak time is over. */
static void soak(run_ctx *c, const data_set *sets, size_t n_sets, double seconds)
{
    c->res->rss_start_kb = (int64_t)(ortkit__proc_rss() / 1024);
    double end = ortkit__clock_now() + seconds;
    size_t most = 0;
    for (size_t i = 0; i < n_sets; i++)
        if (sets[i].n_out > most)
            most = sets[i].n_out;
    ortkit_value **outs = calloc(most + 1, sizeof *outs);
    if (!outs)
        return;
    while (ortkit__clock_now() < end && c->res->outcome == ORTKIT_CONFORMANCE_PASS)
        for (size_t i = 0; i < n_sets && !run_once(c, &sets[i], outs); i++)
            free_outputs(outs, sets[i].n_out);
    free(outs);
    c->res->rss_end_kb = (int64_t)(ortkit__proc_rss() / 1024);
}

static int run_test(run_ctx *c, ortkit_runtime *rt, const char *dir)
{
    ortkit_conformance_result *r = c->res;
    char model[4096], path[4096];
    snprintf(model, sizeof model, "%s/model.onnx", dir);
    struct stat st;
    if (stat(model, &st) != 0)
        return verdict(r, ORTKIT_CONFORMANCE_FAIL, "data", "cannot read '%s': %s", model,
                       strerror(errno));
    struct dirent **names = NULL;
    int n_sets = scandir(dir, &names, set_number, by_set_number);
    if (n_sets < 0)
        return verdict(r, ORTKIT_CONFORMANCE_FAIL, "data", "cannot read test directory '%s': %s",
                       dir, strerror(errno));
    data_set *sets = calloc((size_t)n_sets + 1, sizeof *sets);
    for (int i = 0; i < n_sets; i++) {
        if (sets)
            snprintf(sets[i].name, sizeof sets[i].name, "%.31s", names[i]->d_name);
        free(names[i]);
    }
    free(names);
    int bad = 0;
    if (!sets)
        bad = verdict(r, ORTKIT_CONFORMANCE_FAIL, "data", "out of memory");
    else if (n_sets == 0 || n_sets > MAX_DATA_SETS)
        bad = verdict(r, ORTKIT_CONFORMANCE_FAIL, "data", "'%s' has %d test_data_set_N "
                      "directories (1 to %d expected)", dir, n_sets, MAX_DATA_SETS);
    if (!bad && ortkit_session_open(&c->session, rt, model, c->opts->session)) {
        int provider = ortkit_error_code() == ORTKIT_E_PROVIDER;
        bad = verdict(r, ORTKIT_CONFORMANCE_FAIL, provider ? "provider" : "model", "%s",
                      ortkit_error_last());
    }
    if (!bad) {
        note_provider(c);
        bad = kinds_supported(c);
    }
    for (int i = 0; i < n_sets && !bad; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, sets[i].name);
        bad = load_data_set(c, path, &sets[i]);
        if (!bad)
            bad = run_data_set(c, &sets[i]);
        if (!bad)
            r->data_sets++;
    }
    if (!bad && c->opts->soak_seconds > 0)
        soak(c, sets, (size_t)n_sets, c->opts->soak_seconds);
    for (int i = 0; sets && i < n_sets; i++)
        data_set_free(&sets[i]);
    free(sets);
    ortkit_session_free(c->session);
    c->session = NULL;
    return bad;
}

ORTKIT__ABI_STRUCT(options_abi, ortkit_conformance_options, "conformance options",
                   "ORTKIT_CONFORMANCE_OPTIONS_INIT", ORTKIT_CONFORMANCE_OPTIONS_VERSION,
                   sizeof(ortkit_conformance_options));
ORTKIT__ABI_STRUCT(result_abi, ortkit_conformance_result, "ortkit_conformance_result",
                   "ORTKIT_CONFORMANCE_RESULT_INIT", ORTKIT_CONFORMANCE_RESULT_VERSION,
                   sizeof(ortkit_conformance_result));

int ortkit_conformance_run(ortkit_conformance_result *out, ortkit_runtime *rt, const char *dir,
                           const ortkit_conformance_options *opts)
{
    if (!out || !rt || !dir)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_conformance_run: NULL argument");
    ortkit_conformance_options o = ORTKIT_CONFORMANCE_OPTIONS_INIT;
    int rc = ortkit__abi_check(&result_abi, out->version);
    if (rc || (opts && (rc = ortkit__abi_read(&options_abi, &o, opts))))
        return rc;
    if (isnan(o.rtol) || isnan(o.atol) || o.repeat < 0 || !(o.soak_seconds >= 0))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "conformance options out of range");
    /* Made in the current layout, then written within the caller's version. */
    ortkit_conformance_result res;
    memset(&res, 0, sizeof res);
    res.version = ORTKIT_CONFORMANCE_RESULT_VERSION;
    run_ctx c = {
        .res = &res,
        .opts = &o,
        .rtol = o.rtol > 0 ? o.rtol : o.rtol < 0 ? 0 : ORTKIT_COMPARE_RTOL,
        .atol = o.atol > 0 ? o.atol : o.atol < 0 ? 0 : ORTKIT_COMPARE_ATOL,
        .single_thread = o.session && o.session->intra_op_threads == 1,
    };
    double start = ortkit__clock_now();
    run_test(&c, rt, dir);
    res.seconds = ortkit__clock_now() - start;
    return ortkit__abi_write(&result_abi, out, &res);
}
