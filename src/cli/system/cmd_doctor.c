/*
 * cmd_doctor.c - `ortkit doctor`: the host, every bundle and whether it fits,
 * the choice and why, and a live check of the runtime that gets loaded.  The
 * report is meant to be pasted whole into a bug report.
 */
#include "cli.h"
#include "host_view.h"
#include "bundle/bundle_view.h"
#include "bundle/choice_view.h"
#include "doctor_python.h"
#include "ep_devices_view.h"
#include "runtime_view.h"
#include "view.h"
#include "ortkit/tools/selftest.h"
#include "opt.h"
#include "run/inputs.h"

#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct doctor_args {
    int json;
    const char *host, *bundle;
    const char *model, *python;
    input_spec in;
    long threads;
} doctor_args;

static const cli_opt doctor_opts[] = {
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(doctor_args, json)},
    {0, "host", 'H', "FILE", 0,
     "judge the bundles for the machine described in FILE ('ortkit host --json'); nothing is "
     "loaded then", CLI_OPT_STRING(doctor_args, host)},
    {0, "bundle", 'b', "NAME", 0,
     "pin a bundle by name or ONNX Runtime version, as ORTKIT_BUNDLE does",
     CLI_OPT_STRING(doctor_args, bundle)},
    {0, "model", 'm', "MODEL", 0,
     "the model a program will run: the choice as the runtime's search makes it for MODEL, "
     "with what 'ortkit bundle choose --model MODEL --measure' measured",
     CLI_OPT_STRING(doctor_args, model)},
    {0, "threads", 0, "N", 0, "with --model: the intra-op threads it runs with (default: ORT's)",
     CLI_OPT_LONG(doctor_args, threads, 1, 4096)},
    {0, "input", 'i', "NAME=FILE", CLI_OPT_REPEATS, "with --model: an input's file (its shape counts)",
     CLI_OPT_CALL(doctor_args, in, input_opt_file)},
    {0, "dim", 0, "SYMBOL=SIZE", CLI_OPT_REPEATS, "with --model: the size of a symbolic dimension",
     CLI_OPT_CALL(doctor_args, in, input_opt_dim)},
    {0, "shape", 0, "NAME=D0,D1", CLI_OPT_REPEATS, "with --model: an input's whole shape",
     CLI_OPT_CALL(doctor_args, in, input_opt_shape)},
    {0, "python", 0, "PYTHON", 0,
     "instead: which ONNX Runtime PYTHON imports, what its package says it is (an ortkit wheel's "
     "variant), whether it fits this host (or --host's) and which CPU level would fit better",
     CLI_OPT_STRING(doctor_args, python)},
    CLI_OPT_END};

static const cli_opt_spec doctor_spec = {
    "doctor",
    "usage: ortkit doctor [--json] [--host FILE.json] [--bundle NAME]\n"
    "                     [--model MODEL [--threads N] [-i NAME=FILE]... [--dim SYMBOL=SIZE]...\n"
    "                     [--shape NAME=D0,D1]...]\n",
    "Explain which ONNX Runtime ortkit loads here and check that it works: the\n"
    "host, the directories searched for bundles, every bundle found and whether\n"
    "it fits (and exactly why not), the choice and why, the chosen bundle's\n"
    "integrity, and a tiny model run on each execution provider that should\n"
    "work.  Exits 0 when a runtime was found and works, 1 otherwise.\n",
    doctor_opts, NULL, NULL};

typedef struct check {
    const char *provider;
    const char *result; /* "ok", "failed", "not tried" */
    double seconds;
    char detail[300];
} check;

typedef struct report {
    ortkit_host *host;
    const char *host_file;
    const char *pin;
    ortkit_resolution *res;         /* the search, exactly as the runtime open acts on it */
    const ortkit_bundle_list *list;
    size_t count;
    const ortkit_bundle_choice *choice;
    int chosen_ok;
    size_t taken;                   /* the bundle the search takes: choice->index, or measured */
    const ortkit_bundle *chosen;
    const char *model;              /* --model, and how it runs */
    char shapes[4096];
    long threads;
    ortkit_measure *measure;        /* what measuring it found (recalled) */
    ortkit_bundle *verified;        /* the chosen bundle, opened again for verify */
    int verify_ok;
    ortkit_runtime *rt;
    char rt_error[1024];
    check checks[32];
    size_t check_count;
    int ok;
} report;

/* ---- gathering ----------------------------------------------------------------- */

static int gpu_runtime_expected(const report *r)
{
    if (r->chosen && !strncmp(ortkit_runtime_source(r->rt), "bundle ", 7))
        return ortkit_bundle_manifest(r->chosen)->cuda != 0;
    return r->host->gpu_count > 0;
}

/* Should this provider work here?  NULL: yes; else why it is not tried. */
static const char *why_not_try(const report *r, const char *p, char *buf, size_t size)
{
    if (!strcmp(p, "CPUExecutionProvider") || !strcmp(p, "XnnpackExecutionProvider") ||
        !strcmp(p, "DnnlExecutionProvider"))
        return NULL;
    if (!strcmp(p, "CUDAExecutionProvider") || !strcmp(p, "TensorrtExecutionProvider")) {
        if (r->host->gpu_count == 0)
            return "this host has no NVIDIA GPU";
        if (!gpu_runtime_expected(r))
            return "the runtime is a CPU build (no CUDA libraries beside it)";
        /* A provider's own libraries, as the manifest records them per part. */
        if (r->chosen && !strncmp(ortkit_runtime_source(r->rt), "bundle ", 7) &&
            bundle_provider_unavailable(ortkit_bundle_manifest(r->chosen), p, r->host, buf, size))
            return buf;
        if (!strcmp(p, "TensorrtExecutionProvider")) {
            char dir[PATH_MAX], lib[PATH_MAX + 48];
            snprintf(dir, sizeof dir, "%s", ortkit_runtime_path(r->rt));
            snprintf(lib, sizeof lib, "%s/libonnxruntime_providers_tensorrt.so", dirname(dir));
            if (access(lib, F_OK) != 0)
                return "no libonnxruntime_providers_tensorrt.so beside the runtime";
        }
        return NULL;
    }
    snprintf(buf, size, "needs hardware or drivers ortkit does not check for");
    return buf;
}

static void live_checks(report *r)
{
    size_t n = ortkit_runtime_provider_count(r->rt);
    for (size_t i = 0; i < n && r->check_count < sizeof r->checks / sizeof r->checks[0]; i++) {
        check *c = &r->checks[r->check_count++];
        char buf[sizeof c->detail];
        c->provider = ortkit_runtime_provider(r->rt, i);
        const char *skip = why_not_try(r, c->provider, buf, sizeof buf);
        if (skip) {
            c->result = "not tried";
            snprintf(c->detail, sizeof c->detail, "%s", skip);
            continue;
        }
        ortkit_selftest *t = NULL;
        if (ortkit_selftest_run(&t, r->rt, c->provider) != 0) {
            c->result = "failed";
            snprintf(c->detail, sizeof c->detail, "%s", ortkit_error_last());
            r->ok = 0;
            continue;
        }
        c->result = t->ok ? "ok" : "failed";
        c->seconds = t->seconds;
        snprintf(c->detail, sizeof c->detail, "%s", t->detail);
        if (!t->ok)
            r->ok = 0;
        ortkit_selftest_free(t);
    }
}

static const ortkit_bundle_verdict *verdict(const report *r, size_t i)
{
    return ortkit_bundle_choice_verdict(r->choice, i);
}

/* The first bundle the search passed over because its files do not match
 * its manifest: someone changed code that was about to be loaded. */
static const char *failed_verification(const report *r)
{
    for (size_t i = 0; r->choice && i < r->count; i++) {
        const ortkit_bundle_verdict *v = verdict(r, i);
        if (!v->fits && strstr(v->why, "failed verification: "))
            return ortkit_bundle_list_get(r->list, i)->name;
    }
    return NULL;
}

static int gather(report *r)
{
    if (r->host_file ? ortkit_host_load(&r->host, r->host_file) : ortkit_host_detect(&r->host))
        return cli_fail_lib();
    /* Every place is looked at, so the report shows bundles and variables
     * even when an earlier place decides. */
    ortkit_runtime_options o = ORTKIT_RUNTIME_OPTIONS_INIT;
    o.bundle = r->pin;
    o.model = r->model;
    o.model_shapes = r->model ? r->shapes : NULL;
    o.model_threads = (int)r->threads;
    if (ortkit_runtime_resolve(&r->res, &o, r->host, ORTKIT_RESOLVE_EXPLAIN) != 0)
        return cli_fail_lib();
    r->pin = ortkit_resolution_pin(r->res, NULL);
    r->list = ortkit_resolution_bundles(r->res);
    r->count = ortkit_bundle_list_count(r->list);
    r->choice = ortkit_resolution_choice(r->res);
    r->chosen_ok = r->choice && r->choice->index != ORTKIT_BUNDLE_NONE;
    r->taken = r->chosen_ok ? r->choice->index : ORTKIT_BUNDLE_NONE;
    /* A measurement may have chosen another of those that fit. */
    const ortkit_bundle *took = ortkit_resolution_bundle(r->res);
    for (size_t i = 0; took && i < r->count; i++)
        if (ortkit_bundle_list_get(r->list, i)->bundle == took)
            r->taken = i;
    if (r->chosen_ok)
        r->chosen = ortkit_bundle_list_get(r->list, r->taken)->bundle;
    if (r->model && r->chosen_ok) {
        const ortkit_bundle **arr = calloc(r->count + 1, sizeof *arr);
        if (!arr)
            return cli_fail("out of memory");
        for (size_t i = 0; i < r->count; i++)
            arr[i] = ortkit_bundle_list_get(r->list, i)->bundle;
        /* Its figures for the table; the account is the search's own. */
        if (ortkit_measure_open(&r->measure, r->host, arr, r->count, r->choice, r->model,
                                r->shapes, (int)r->threads))
            cli_warn("%s", ortkit_error_last());
        free(arr);
    }
    r->ok = r->chosen_ok;
    if (r->host_file)
        return CLI_OK; /* a described machine: nothing here is loaded for it */

    /* The chosen bundle's files, as `ortkit bundle verify` checks them. */
    if (r->chosen && ortkit_bundle_open(&r->verified, ortkit_bundle_manifest(r->chosen)->dir) == 0)
        r->verify_ok = ortkit_bundle_verify(r->verified) == 0;
    /* The runtime exactly as a program would get it: the same resolution, loaded. */
    if (ortkit_runtime_open_resolved(&r->rt, r->res, &o) != 0) {
        snprintf(r->rt_error, sizeof r->rt_error, "%s", ortkit_error_last());
        r->ok = 0;
        return CLI_OK;
    }
    r->ok = (!r->chosen || r->verify_ok) && !failed_verification(r);
    live_checks(r); /* a provider that should work and does not clears ok */
    return CLI_OK;
}

/* ---- the views: each section's data once, as --json prints it ------------------ */

/* What each part of the chosen bundle needs that this host lacks: a
 * provider's libraries are that provider's (without them the core loads and
 * the provider is unavailable). */
static cJSON *parts_view(const report *r, const ortkit_manifest *m)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < m->part_count; i++) {
        char missing[512];
        int got = bundle_part_missing(m, m->parts[i], r->host, missing, sizeof missing);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", m->parts[i]->name);
        cJSON_AddStringToObject(o, "on_this_host", got > 0 ? "unavailable" : got == 0 ? "ok" : "not judged");
        cJSON_AddStringToObject(o, "lacks", got > 0 ? missing : "");
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* The search's places in order, and what each one decided. */
static cJSON *search_view(const report *r)
{
    cJSON *search = cJSON_CreateArray();
    for (size_t i = 0; search && i < ortkit_resolution_step_count(r->res); i++) {
        const ortkit_resolve_step *st = ortkit_resolution_step(r->res, i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "source", st->source);
        cJSON_AddStringToObject(o, "where", st->where);
        cJSON_AddStringToObject(o, "result", ortkit_resolve_verdict_name(st->verdict));
        cJSON_AddStringToObject(o, "detail", st->detail);
        cJSON_AddItemToArray(search, o);
    }
    return search;
}

/* The live check on each provider. */
static cJSON *checks_view(const report *r)
{
    cJSON *checks = cJSON_CreateArray();
    for (size_t i = 0; checks && i < r->check_count; i++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "provider", r->checks[i].provider);
        cJSON_AddStringToObject(c, "result", r->checks[i].result);
        cJSON_AddNumberToObject(c, "seconds", r->checks[i].seconds);
        cJSON_AddStringToObject(c, "detail", r->checks[i].detail);
        cJSON_AddItemToArray(checks, c);
    }
    return checks;
}

/* CUDA and TensorRT as a session would get them: the probe's verdict and
 * the way they are added. */
static cJSON *gpu_providers_view(const report *r)
{
    static const char *const names[] = {"cuda", "tensorrt"};
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < 2; i++) {
        ortkit_provider_status *ps = NULL;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(a, o);
        if (ortkit_runtime_provider_check(&ps, r->rt, names[i]) != 0) {
            cJSON_AddStringToObject(o, "provider", names[i]);
            cJSON_AddStringToObject(o, "error", ortkit_error_last());
            continue;
        }
        cJSON_AddStringToObject(o, "provider", ps->name);
        cJSON_AddBoolToObject(o, "usable", ps->active);
        ortkit__json_add_strings(o, "method", ps->method, "probe", ps->probe, "reason", ps->reason,
                                 "detail", ps->detail, NULL);
        ortkit_provider_status_free(ps);
    }
    return a;
}

/* The EP devices the runtime discovers; NULL when it cannot say. */
static cJSON *runtime_ep_devices_view(const report *r)
{
    ortkit_ep_devices *eps = NULL;
    if (ortkit_runtime_ep_devices(&eps, r->rt) != 0)
        return NULL;
    cJSON *a = ep_devices_view(eps);
    ortkit_ep_devices_free(eps);
    return a;
}

/* The variables that change what is found, for whoever reads the report. */
static const char *const env_vars[] = {"ORTKIT_RUNTIME", "ORTKIT_BUNDLE", "ORTKIT_PATH",
                                       "XDG_DATA_HOME", "XDG_DATA_DIRS", "ONNXRUNTIME_DIR",
                                       "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_VISIBLE_DEVICES",
                                       "ORTKIT_FORCE_CUDA", "ORTKIT_FORCE_SM"};

/* Every variable ortkit reads (the table in src/util/env.c), set or not,
 * with what each does and which part reads it: what else, beyond the list
 * above, changes what ortkit does. */
static cJSON *variables_view(void)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < ortkit__env_count(); i++) {
        const ortkit__env_var *e = ortkit__env_at(i);
        const char *v = ortkit__env(e->name);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", e->name);
        cJSON_AddItemToObject(o, "value", v ? cJSON_CreateString(v) : cJSON_CreateNull());
        cJSON_AddStringToObject(o, "what", e->what);
        cJSON_AddStringToObject(o, "read_by", e->part);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* ---- the report's view: what --json prints and the text is drawn from ----------- */

/* What the report says of the chosen bundle: where it lies, the
 * declared order's choice when a measurement took another, what to know of
 * it, its parts, and (on this machine) its files against its manifest. */
static void add_chosen(cJSON *ch, const report *r)
{
    const ortkit_manifest *m = ortkit_bundle_manifest(r->chosen);
    cJSON_AddStringToObject(ch, "dir", m->dir);
    if (r->taken != r->choice->index)
        cJSON_AddStringToObject(cJSON_AddObjectToObject(ch, "declared"), "bundle",
                                ortkit_bundle_manifest(
                                    ortkit_bundle_list_get(r->list, r->choice->index)->bundle)->name);
    cJSON_AddStringToObject(ch, "caveat", verdict(r, r->taken)->why);
    CLI_VIEW_ADD_NUMBERS(ch, {"api_level", m->api_level}, {"headers_api_level", m->headers_api_level});
    cJSON_AddItemToObject(ch, "parts", parts_view(r, m));
    if (r->host_file)
        return;
    cJSON_AddBoolToObject(ch, "integrity_ok", r->verify_ok);
    cJSON_AddNumberToObject(ch, "files", (double)m->file_count);
    cJSON *p = cJSON_AddArrayToObject(ch, "problems");
    for (size_t i = 0; r->verified && i < ortkit_bundle_problem_count(r->verified); i++)
        cJSON_AddItemToArray(p, cJSON_CreateString(ortkit_bundle_problem(r->verified, i)));
}

/* The report's view: what --json prints and the text is drawn from. */
static cJSON *json_report(const report *r)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "ortkit", ortkit_version());
    cJSON_AddItemToObject(root, "host", host_view(r->host));
    cJSON_AddItemToObject(root, "host_file", r->host_file ? cJSON_CreateString(r->host_file)
                                                          : cJSON_CreateNull());
    cJSON *env = cJSON_AddObjectToObject(root, "environment");
    for (size_t i = 0; i < sizeof env_vars / sizeof env_vars[0]; i++) {
        const char *v = ortkit__env(env_vars[i]);
        cJSON_AddItemToObject(env, env_vars[i], v ? cJSON_CreateString(v) : cJSON_CreateNull());
    }
    cJSON_AddItemToObject(root, "variables", variables_view());
    cJSON_AddItemToObject(root, "dirs", bundle_dirs_view(r->list));
    size_t n_rows = 0;
    choice_row *rows = choice_rows_of_list(r->list, &n_rows);
    if (rows && r->choice)
        cJSON_AddItemToObject(root, "bundles", choice_view_json_measured(rows, n_rows, r->choice,
                                                                          r->measure));
    else
        cJSON_AddArrayToObject(root, "bundles");
    free(rows);
    cJSON_AddItemToObject(root, "overrides", choice_view_overrides_json());
    cJSON_AddItemToObject(root, "search", search_view(r));
    cJSON *ch = cJSON_AddObjectToObject(root, "choice");
    cJSON_AddItemToObject(ch, "bundle", r->chosen ? cJSON_CreateString(ortkit_bundle_manifest(r->chosen)->name)
                                                  : cJSON_CreateNull());
    cJSON_AddItemToObject(ch, "pin", r->pin ? cJSON_CreateString(r->pin) : cJSON_CreateNull());
    cJSON_AddStringToObject(ch, "reason", r->choice ? r->choice->reason : "no bundles were found");
    cJSON_AddItemToObject(ch, "model", r->model ? cJSON_CreateString(r->model) : cJSON_CreateNull());
    cJSON_AddStringToObject(ch, "measured", ortkit_resolution_measured(r->res));
    if (r->chosen)
        add_chosen(ch, r);
    if (r->rt) {
        cJSON *o = cJSON_AddObjectToObject(root, "runtime");
        cJSON_AddStringToObject(o, "version", ortkit_runtime_version(r->rt));
        cJSON_AddStringToObject(o, "path", ortkit_runtime_path(r->rt));
        cJSON_AddStringToObject(o, "source", ortkit_runtime_source(r->rt));
        cJSON_AddNumberToObject(o, "api_level", ortkit_runtime_api_level(r->rt));
        cJSON_AddItemToObject(root, "checks", checks_view(r));
        cJSON_AddItemToObject(root, "gpu_providers", gpu_providers_view(r));
        cJSON *eps = runtime_ep_devices_view(r);
        cJSON_AddItemToObject(root, "ep_devices", eps ? eps : cJSON_CreateArray());
    } else {
        cJSON_AddNullToObject(root, "runtime");
        if (!r->host_file)
            cJSON_AddStringToObject(root, "error", r->rt_error);
    }
    cJSON_AddBoolToObject(root, "ok", r->host_file ? r->chosen_ok : r->ok);
    return root;
}

/* ---- text: drawn from the view (the bundles' account by choice_view) -------------- */

/* A part's LACKS: what it misses, or why nothing was judged. */
static void lacks_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "%s", !strcmp(cli_view_str(o, "on_this_host"), "not judged")
                                  ? "the host does not list its libraries" : cli_view_str(o, "lacks"));
}

/* A check's time, only for one that ran. */
static void check_time_cell(const cJSON *o, char *buf, size_t size)
{
    if (!strcmp(cli_view_str(o, "result"), "ok"))
        ortkit__human_duration(buf, size, cli_view_num(o, "seconds"));
}

/* A GPU provider's CAUSE: a failed check's error, or the probe's reason
 * with ONNX Runtime's own words. */
static void cause_cell(const cJSON *o, char *buf, size_t size)
{
    const char *detail = cli_view_str(o, "detail");
    if (cJSON_GetObjectItemCaseSensitive(o, "error"))
        snprintf(buf, size, "%s", cli_view_str(o, "error"));
    else
        snprintf(buf, size, "%s%s%s%s", cli_view_str(o, "reason"), detail[0] ? " (ONNX Runtime: " : "",
                 detail, detail[0] ? ")" : "");
}

/* A directory's STATE, with why one cannot be read. */
static void dir_state_cell(const cJSON *o, char *buf, size_t size)
{
    const char *state = cli_view_str(o, "state");
    int unreadable = !strcmp(state, "unreadable");
    snprintf(buf, size, "%s%s%s", state, unreadable ? ": " : "", unreadable ? cli_view_str(o, "note") : "");
}

static const cli_view_column bundle_dir_columns[] = {{"FROM", "source", NULL, 0, NULL},
                                                     {"STATE", NULL, dir_state_cell, 0, NULL},
                                                     {"BUNDLES", "bundles", NULL, 1, NULL},
                                                     {"DIRECTORY", "path", NULL, 0, NULL}};
static const cli_view_column part_columns[] = {{"PART", "name", NULL, 0, NULL},
                                               {"ON THIS HOST", "on_this_host", NULL, 0, NULL},
                                               {"LACKS", NULL, lacks_cell, 0, NULL}};
static const cli_view_column search_columns[] = {{"PLACE", "source", NULL, 0, NULL},
                                                 {"RESULT", "result", NULL, 0, NULL},
                                                 {"DETAIL", "detail", NULL, 0, NULL}};
static const cli_view_column check_columns[] = {{"PROVIDER", "provider", NULL, 0, NULL},
                                                {"RESULT", "result", NULL, 0, NULL},
                                                {"TIME", NULL, check_time_cell, 1, NULL},
                                                {"DETAIL", "detail", NULL, 0, NULL}};
/* A provider whose check failed has no verdict: not usable. */
static const cli_view_column gpu_provider_columns[] = {{"PROVIDER", "provider", NULL, 0, NULL},
                                                       {"USABLE", "usable", NULL, 0, "no"},
                                                       {"METHOD", "method", NULL, 0, NULL},
                                                       {"PROBE", "probe", NULL, 0, NULL},
                                                       {"CAUSE", NULL, cause_cell, 0, NULL}};

#define LABEL "  %-10s "

/* The chosen bundle: its name and directory, or none. */
static void bundle_cell(const cJSON *o, char *buf, size_t size)
{
    if (!cJSON_IsString(cli_view_at(o, "bundle")))
        snprintf(buf, size, "none");
    else
        snprintf(buf, size, "%s (%s)", cli_view_str(o, "bundle"), cli_view_str(o, "dir"));
}

/* Why: the measurement's words when it took another bundle than the
 * declared order, else the order's reason. */
static void why_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "%s", cli_view_at(o, "declared") ? cli_view_str(o, "measured")
                                                          : cli_view_str(o, "reason"));
}

static void declared_cell(const cJSON *o, char *buf, size_t size)
{
    const cJSON *d = cli_view_at(o, "declared");
    if (d)
        snprintf(buf, size, "%s: %s", cli_view_str(d, "bundle"), cli_view_str(o, "reason"));
}

static void measured_cell(const cJSON *o, char *buf, size_t size)
{
    if (cJSON_IsString(cli_view_at(o, "bundle")) && !cli_view_at(o, "declared"))
        snprintf(buf, size, "%s", cli_view_str(o, "measured"));
}

static void parts_lines(FILE *out, const char *lead, const cJSON *o)
{
    const cJSON *parts = cli_view_at(o, "parts");
    if (cJSON_GetArraySize(parts) > 0 &&
        cli_view_titled_table(out, "  parts      what each part needs of this host (libraries the "
                              "bundle does not carry)\n", parts, CLI_VIEW_COLUMNS(part_columns),
                              "    ") != 0)
        fprintf(out, "    (out of memory)\n");
}

/* The chosen bundle's files against its manifest (a loaded host only). */
static void integrity_lines(FILE *out, const char *lead, const cJSON *o)
{
    const cJSON *problems = cli_view_at(o, "problems"), *p;
    int n = cJSON_GetArraySize(problems);
    if (cli_view_bool(o, "integrity_ok"))
        fprintf(out, "%sok: %g files match the manifest (sizes, SHA-256), RUNPATH $ORIGIN\n", lead,
                cli_view_num(o, "files"));
    else if (n > 0)
        fprintf(out, "%s%d problem%s\n", lead, n, n == 1 ? "" : "s");
    cJSON_ArrayForEach(p, problems)
        fprintf(out, "             %s\n", cli_esc(p->valuestring));
}

static void note_cell(const cJSON *o, char *buf, size_t size)
{
    double headers = cli_view_num(o, "headers_api_level"), api = cli_view_num(o, "api_level");
    if (headers > api)
        snprintf(buf, size, "include/ has API %g headers; a program built with them must ask for "
                 "API %g or lower", headers, api);
}

static const cli_view_field choice_fields[] = {
    {"bundle", NULL, bundle_cell, NULL, NULL},       {"why", NULL, why_cell, NULL, NULL},
    {"declared", NULL, declared_cell, NULL, NULL},   {"measured", NULL, measured_cell, NULL, NULL},
    {"caveat", "caveat", NULL, NULL, NULL},          {"parts", NULL, NULL, parts_lines, NULL},
    {"integrity", NULL, NULL, integrity_lines, NULL}, {"note", NULL, note_cell, NULL, NULL}};

/* The place of the search that decided, or NULL. */
static const cJSON *taken_step(const cJSON *view)
{
    const cJSON *s;
    cJSON_ArrayForEach(s, cli_view_at(view, "search"))
        if (!strcmp(cli_view_str(s, "result"), "taken") || !strcmp(cli_view_str(s, "result"), "failed"))
            return s;
    return NULL;
}

static void decided_cell(const cJSON *o, char *buf, size_t size)
{
    const cJSON *taken = taken_step(o);
    if (cJSON_IsString(cli_view_at(o, "choice.bundle")) && taken &&
        strcmp(cli_view_str(taken, "source"), "bundles"))
        snprintf(buf, size, "%s decided: it comes before any bundle", cli_view_str(taken, "source"));
}

static const cli_view_field decided_fields[] = {{"note", NULL, decided_cell, NULL, NULL}};

/* The runtime as loaded, and each provider checked live: 0, or -1 when a
 * table could not be made. */
static int runtime_lines(FILE *out, const cJSON *view)
{
    const cJSON *eps = cli_view_at(view, "ep_devices");
    fprintf(out, "\nRuntime\n");
    if (cJSON_IsString(cli_view_at(view, "host_file"))) {
        fprintf(out, "  not loaded: the host is a described one, not this machine\n");
        return 0;
    }
    if (!cJSON_IsObject(cli_view_at(view, "runtime"))) {
        fprintf(out, LABEL "none: %s\n", "error", cli_esc(cli_view_str(view, "error")));
        return 0;
    }
    runtime_view_lines(out, cli_view_at(view, "runtime"), "version", LABEL);
    cli_view_fields(out, view, CLI_VIEW_FIELDS(decided_fields), LABEL);
    fprintf(out, "\nLive check: Neg on float32[4], built in memory, run on each provider\n");
    if (cli_view_titled_table(out, "", cli_view_at(view, "checks"), CLI_VIEW_COLUMNS(check_columns),
                              "  ") ||
        cli_view_titled_table(out, "\nGPU providers: decided in a probe process, cached per "
                              "runtime and host\n", cli_view_at(view, "gpu_providers"),
                              CLI_VIEW_COLUMNS(gpu_provider_columns), "  "))
        return -1;
    fprintf(out, "  ");
    ep_devices_print(eps);
    return 0;
}

/* The environment: the variables that change what is found, and those of
 * every variable ortkit reads that are set here. */
static void environment_lines(FILE *out, const cJSON *view)
{
    const cJSON *v;
    int any = 0;
    fprintf(out, "\nEnvironment\n");
    cJSON_ArrayForEach(v, cli_view_at(view, "environment"))
        fprintf(out, "  %-20s %s\n", v->string, cJSON_IsString(v) ? cli_esc(v->valuestring) : "(unset)");
    fprintf(out, "\nVariables ortkit reads, those set\n");
    cJSON_ArrayForEach(v, cli_view_at(view, "variables")) {
        if (!cJSON_IsString(cli_view_at(v, "value")))
            continue;
        fprintf(out, "  %s = %s\n", cli_view_str(v, "name"), cli_esc(cli_view_str(v, "value")));
        any = 1;
    }
    if (!any)
        fprintf(out, "  none\n");
}

/* The last line: whether a runtime works here (or a bundle fits the described host). */
static void verdict_cell(const cJSON *view, char *buf, size_t size)
{
    const cJSON *rt = cli_view_at(view, "runtime");
    if (cJSON_IsString(cli_view_at(view, "host_file")))
        snprintf(buf, size, "%s", cJSON_IsString(cli_view_at(view, "choice.bundle"))
                                      ? "a bundle fits the described host"
                                      : "no bundle fits the described host");
    else if (cli_view_bool(view, "ok"))
        snprintf(buf, size, "ok: ONNX Runtime %s (%s) works on this host",
                 cli_view_str(rt, "version"), cli_view_str(rt, "source"));
    else
        snprintf(buf, size, "%s", cJSON_IsObject(rt) ? "problems: see above" : "no usable ONNX Runtime");
}

/* The report as text, drawn from its view; the bundles' account is drawn
 * by choice_view from the report's rows.  0, or -1 when a table could not
 * be made (the report stops there). */
static int print_text(const cJSON *view, const report *r)
{
    const char *host_file = cli_view_str(view, "host_file"), *pin = cli_view_str(cli_view_at(view, "choice"), "pin");
    char verdict_text[2048];
    printf("ortkit doctor: ortkit %s\n\n", cli_view_str(view, "ortkit"));
    printf("Host%s%s\n", host_file[0] ? " described in " : "", cli_esc(host_file));
    cli_view_fields(stdout, cli_view_at(view, "host"), host_view_brief_fields,
                    host_view_brief_field_count, LABEL);
    environment_lines(stdout, view);
    if (cli_view_titled_table(stdout, "\nBundle directories, searched in this order\n",
                              cli_view_at(view, "dirs"), CLI_VIEW_COLUMNS(bundle_dir_columns), "  "))
        return -1;
    printf("\nBundles\n");
    if (r->count == 0) {
        printf("  none found; make one with 'ortkit bundle import'\n");
    } else {
        size_t n = 0;
        choice_row *rows = choice_rows_of_list(r->list, &n);
        if (!rows)
            return -1;
        choice_view_preamble(stdout, "  ");
        int rc = choice_view_print_measured(stdout, rows, n, r->choice, r->measure, "  ");
        free(rows);
        if (rc)
            return rc;
    }
    printf("\nChoice%s%s%s\n", pin[0] ? " (pinned: " : "", cli_esc(pin), pin[0] ? ")" : "");
    cli_view_fields(stdout, cli_view_at(view, "choice"), CLI_VIEW_FIELDS(choice_fields), LABEL);
    if (cli_view_titled_table(stdout, "\nSearch, in order: the first place that decides is what "
                              "gets loaded\n", cli_view_at(view, "search"),
                              CLI_VIEW_COLUMNS(search_columns), "  "))
        return -1;
    if (runtime_lines(stdout, view))
        return -1;
    verdict_cell(view, verdict_text, sizeof verdict_text);
    printf("\nVerdict: %s\n", cli_esc(verdict_text));
    return 0;
}

int cmd_doctor(int argc, char **argv)
{
    report r;
    memset(&r, 0, sizeof r);
    doctor_args a;
    memset(&a, 0, sizeof a);
    cli_opt_parser p;
    if (cli_opt_parse(&p, &doctor_spec, NULL, &a, argc, argv))
        return p.status;
    int json = a.json;
    r.host_file = a.host;
    r.pin = a.bundle;
    r.model = a.model;
    r.threads = a.threads;
    if (!a.model && (a.threads || a.in.n_files || a.in.n_dims || a.in.n_shapes))
        return cli_usage("doctor", "--threads, -i, --dim and --shape go with --model");
    if (a.model && input_spec_shapes(&a.in, r.shapes, sizeof r.shapes))
        return cli_fail("the inputs' sizes are too long to key a measurement by");
    if (a.python)
        return doctor_python(a.python, a.host, json);

    int rc = gather(&r);
    if (rc == CLI_OK) {
        cJSON *view = json_report(&r);
        int printed = !view ? cli_fail("out of memory")
                      : json ? cli_json_print(view)
                      : print_text(view, &r) ? cli_fail("out of memory") : CLI_OK;
        if (!json)
            cJSON_Delete(view);
        int ok = r.host_file ? r.chosen_ok : r.ok;
        rc = ok ? CLI_OK : CLI_FAIL;
        if (printed != CLI_OK)
            rc = printed;
        else if (ok)
            rc = CLI_OK;
        else if (r.host_file)
            cli_fail("%s", r.choice ? r.choice->reason : "no bundles were found");
        else if (!r.rt)
            cli_fail("%s", r.rt_error);
        else if (r.chosen && !r.verify_ok)
            cli_fail("bundle '%s' does not match its manifest; see the report",
                     ortkit_bundle_manifest(r.chosen)->name);
        else if (failed_verification(&r))
            cli_fail("bundle '%s' failed verification and was passed over; see the report",
                     failed_verification(&r));
        else
            cli_fail("a live check failed; see the report");
    }
    ortkit_measure_free(r.measure);
    ortkit_runtime_free(r.rt);
    ortkit_bundle_free(r.verified);
    ortkit_resolution_free(r.res);
    ortkit_host_free(r.host);
    return rc;
}
