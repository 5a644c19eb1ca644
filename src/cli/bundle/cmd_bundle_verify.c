/* cmd_bundle_verify.c - `ortkit bundle verify BUNDLE`: a bundle checked
 * against its manifest from the files alone, then loaded in a child process
 * when it has not been yet and this host can. */
#include "bundle_arg.h"
#include "bundle_cmds.h"
#include "bundle_view.h"
#include "load_check.h"

#include <string.h>

typedef struct verify_args {
    int no_load, json;
} verify_args;

const cli_opt bundle_verify_opts[] = {
    {0, "no-load", 'N', NULL, 0,
     "check the files only: do not load a bundle not yet verified by loading, even where this "
     "host can", CLI_OPT_FLAG(verify_args, no_load)},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(verify_args, json)},
    CLI_OPT_ARGS(1, 1, "verify needs BUNDLE: a bundle directory or name"),
    CLI_OPT_END};

/*
 * The load check of a bundle not yet verified by loading: only where this
 * host can load it (the bundle fits here), in a child process, and recorded
 * in its manifest.  text says what happened; 1 when loading failed.
 */
static int load_check(ortkit_bundle *b, int skip, char *text, size_t size)
{
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    if (m->verified_by_loading)
        return 0;
    if (skip) {
        snprintf(text, size, "not yet verified by loading (--no-load)");
        return 0;
    }
    ortkit_host *h = NULL;
    ortkit_bundle_choice *c = NULL;
    const ortkit_bundle *one[] = {b};
    if (ortkit_host_detect(&h) != 0 || !h) {
        snprintf(text, size, "not yet verified by loading: %s", ortkit_error_last());
        return 0;
    }
    ortkit_bundle_select(&c, h, one, 1, NULL);
    const ortkit_bundle_verdict *v = ortkit_bundle_choice_verdict(c, 0);
    int failed = 0;
    if (!v || !v->fits) {
        snprintf(text, size, "not yet verified by loading: this host cannot load it (%s)",
                 v ? v->why : ortkit_error_last());
        goto cleanup;
    }
    char lib[4096], why[512], *version = NULL, **providers = NULL;
    size_t count = 0;
    snprintf(lib, sizeof lib, "%s/%s", m->dir, m->library);
    if (load_check_run(lib, &version, &providers, &count, why, sizeof why)) {
        snprintf(text, size, "failed, in a child process: %s", why);
        failed = 1;
        goto cleanup;
    }
    if (ortkit_bundle_record_load(b, version, (const char *const *)providers, count))
        snprintf(text, size, "loaded in a child process (ONNX Runtime %s, %zu providers), but "
                 "not recorded: %s", version, count, ortkit_error_last());
    else
        snprintf(text, size, "loaded in a child process: ONNX Runtime %s, %zu providers; "
                 "recorded in its manifest", version, count);
    failed = strcmp(version, m->ort_version) != 0;
    load_check_free(version, providers, count);
cleanup:
    ortkit_bundle_choice_free(c);
    ortkit_host_free(h);
    return failed;
}

static void runtime_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "ONNX Runtime %s, variant %s, %s", cli_view_str(o, "ort_version"),
             cli_view_str(o, "variant"), cli_view_str(o, "arch"));
}

static void checked_lines(FILE *out, const char *lead, const cJSON *o)
{
    char bytes[32];
    ortkit__human_bytes(bytes, sizeof bytes, cli_view_num(o, "bytes"));
    fprintf(out, "%s%s files (%s): sizes, SHA-256, links, missing and extra files,\n"
             "           owners and modes, ELF machine and RUNPATH $ORIGIN in lib/, the\n"
             "           version in the library's data; nothing was loaded\n", lead,
             cli_view_str(o, "files"), bytes);
}

/* The verdict, then each problem. */
static void result_lines(FILE *out, const char *lead, const cJSON *o)
{
    const cJSON *problems = cli_view_at(o, "problems"), *p;
    int n = cJSON_GetArraySize(problems);
    if (n)
        fprintf(out, "%s%d problem%s\n", lead, n, n == 1 ? "" : "s");
    else
        fprintf(out, "%s%s\n", lead, cli_view_bool(o, "ok") ? "ok" : "the files are intact; loading failed");
    cJSON_ArrayForEach(p, problems)
        fprintf(out, "  %s\n", cli_esc(p->valuestring));
}

static const cli_view_field verified_fields[] = {{"bundle", "name", NULL, NULL, NULL},
                                                 {"dir", "dir", NULL, NULL, NULL},
                                                 {"runtime", NULL, runtime_cell, NULL, NULL},
                                                 {"checked", NULL, NULL, checked_lines, NULL},
                                                 {"loading", "load_check", NULL, NULL, NULL},
                                                 {"", NULL, NULL, bundle_needs_lines, NULL},
                                                 {"result", NULL, NULL, result_lines, NULL}};

int cmd_bundle_verify(const cli_opt_spec *spec, int argc, char **argv)
{
    verify_args a = {0, 0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, bundle_verify_opts, &a, argc, argv))
        return p.status;

    ortkit_bundle *b = NULL;
    int rc = bundle_open_named(&b, p.args[0]);
    if (rc)
        return rc;
    int bad = ortkit_bundle_verify(b) != 0;
    size_t n = ortkit_bundle_problem_count(b);
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    if (bad && n == 0) {
        rc = cli_fail_lib();
        goto cleanup;
    }
    char load[600] = "";
    int load_failed = 0;
    if (!bad)
        load_failed = load_check(b, a.no_load, load, sizeof load);
    m = ortkit_bundle_manifest(b);
    /* The text is drawn from the JSON --json prints. */
    cJSON *o = bundle_summary_view(m);
    if (o) {
        cJSON_AddBoolToObject(o, "ok", !bad && !load_failed);
        cJSON_AddStringToObject(o, "load_check", load);
        cJSON *problems = cJSON_AddArrayToObject(o, "problems");
        for (size_t i = 0; problems && i < n; i++)
            cJSON_AddItemToArray(problems, cJSON_CreateString(ortkit_bundle_problem(b, i)));
    }
    rc = cli_view_print(o, a.json, CLI_VIEW_FIELDS(verified_fields), BUNDLE_VIEW_LABEL);
    if (bad && rc == CLI_OK)
        rc = cli_fail("bundle '%s' failed verification: %zu problem%s", m->name, n,
                      n == 1 ? "" : "s");
    else if (load_failed && rc == CLI_OK)
        rc = cli_fail("bundle '%s' does not load: %s", m->name, load);
cleanup:
    ortkit_bundle_free(b);
    return rc;
}
