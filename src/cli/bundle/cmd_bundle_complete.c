/* cmd_bundle_complete.c - `ortkit bundle complete`: a GPU bundle made
 * self-contained with the CUDA libraries its providers need. */
#include "bundle_arg.h"
#include "bundle_cmds.h"
#include "bundle_gpu_view.h"
#include "bundle_view.h"
#include "interrupt.h"

typedef struct complete_args {
    ortkit__strv from;
    int json;
} complete_args;

const cli_opt bundle_complete_opts[] = {
    {0, "from", 'F', "DIR", CLI_OPT_REPEATS,
     "look here first (and in its site-packages/nvidia/*/lib, pip's layout); then CUDA_HOME, "
     "the Python installations' nvidia packages and the ld cache", CLI_OPT_STRV(complete_args, from)},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(complete_args, json)},
    CLI_OPT_ARGS(1, 1, "complete needs BUNDLE: a directory or a bundle's name"),
    CLI_OPT_END};

static const cli_opt_spec complete_spec = {
    "bundle",
    "usage: ortkit bundle complete BUNDLE [--from DIR]... [--json]\n",
    NULL, bundle_complete_opts, NULL, NULL};

/* complete BUNDLE with the libraries found in a's places. */
static void bundle_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "%s (%s)", cli_view_str(o, "name"), cli_view_str(o, "dir"));
}

static const cli_view_field completed_fields[] = {{"bundle", NULL, bundle_cell, NULL, NULL},
                                                  {"", NULL, NULL, bundle_gpu_lines, NULL}};

static int complete(const complete_args *a, const char *what)
{
    ortkit_bundle *b = NULL;
    int rc = bundle_open_named(&b, what);
    if (rc)
        return rc;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", ortkit_bundle_manifest(b)->dir);
    ortkit_bundle_free(b);
    b = NULL;

    ortkit_bundle_complete_options o = ORTKIT_BUNDLE_COMPLETE_OPTIONS_INIT;
    o.from = (const char *const *)a->from.v;
    o.from_count = a->from.n;
    o.cancel = cli_interrupt_poll;
    cli_interrupt_init();
    cli_interrupt_hold();
    fprintf(stderr, "ortkit: completing '%s' (copying CUDA libraries, then hashing)\n", cli_esc(dir));
    int lrc = ortkit_bundle_complete(&b, dir, &o);
    cli_interrupt_release();
    if ((lrc = cli_interrupt_outcome(lrc, "the bundle is as it was")))
        return lrc;
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    rc = m->gpu_complete ? CLI_OK : CLI_FAIL;
    /* The text is drawn from the JSON --json prints. */
    cJSON *view = cJSON_CreateObject();
    if (view) {
        ortkit__json_add_strings(view, "name", m->name, "dir", m->dir, NULL);
        cJSON_AddItemToObject(view, "gpu", bundle_gpu_view(m));
    }
    if (cli_view_print(view, a->json, CLI_VIEW_FIELDS(completed_fields), BUNDLE_VIEW_LABEL))
        rc = CLI_FAIL;
    if (!m->gpu_complete)
        fprintf(stderr, "ortkit: bundle '%s' is incomplete: %zu CUDA %s missing (listed above); "
                "give the directory holding %s with --from\n", cli_esc(m->name), m->gpu_missing_count,
                m->gpu_missing_count == 1 ? "library is" : "libraries are",
                m->gpu_missing_count == 1 ? "it" : "them");
    ortkit_bundle_free(b);
    return rc;
}

/* Its own --help, not the whole command's. */
int cmd_bundle_complete(const cli_opt_spec *spec, int argc, char **argv)
{
    complete_args a = {{NULL, 0, 0}, 0};
    cli_opt_parser p;
    (void)spec;
    int rc = cli_opt_parse(&p, &complete_spec, bundle_complete_opts, &a, argc, argv)
                 ? p.status
                 : complete(&a, p.args[0]);
    ortkit__strv_free(&a.from);
    return rc;
}
