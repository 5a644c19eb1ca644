/* cmd_bundle_import.c - `ortkit bundle import SRC`: a bundle made from a
 * libonnxruntime.so*, a directory holding one, or an unpacked release. */
#include "bundle_cmds.h"
#include "bundle_view.h"
#include "interrupt.h"

typedef struct import_args {
    ortkit_bundle_import_options import;
    int json;
} import_args;

const cli_opt bundle_import_opts[] = {
    {0, "name", 'n', "NAME", 0, "the bundle's name (default ort-<version>-<variant>)",
     CLI_OPT_STRING(import_args, import.name)},
    {0, "variant", 'v', "V", 0,
     "what it is built for: cpu (default: any CPU of its architecture), a variant such as "
     "cuda12.9-sm90-avx512 (see 'ortkit variants'), or cudaN for a GPU release of CUDA N; a "
     "GPU release (a CUDA provider beside the library) needs none: its CUDA, driver and GPU code "
     "are read from its binaries, which any variant given must agree with",
     CLI_OPT_STRING(import_args, import.variant)},
    {0, "into", 'i', "DIR", 0,
     "where to put it (default: $XDG_DATA_HOME/ortkit/bundles, ~/.local/share/ortkit/bundles)",
     CLI_OPT_STRING(import_args, import.into)},
    {0, "force", 'f', NULL, 0, "replace a bundle of the same name", CLI_OPT_FLAG(import_args, import.force)},
    {0, "version", 'V', "X.Y.Z", 0,
     "the ONNX Runtime version, when the library's file name, SONAME and read-only data "
     "disagree or say nothing (one that contradicts them is refused)",
     CLI_OPT_STRING(import_args, import.ort_version)},
    {0, "no-load", 'N', NULL, 0,
     "never load the library (by default it is loaded only when this host can): the bundle is "
     "marked not yet verified by loading", CLI_OPT_FLAG(import_args, import.no_load)},
    {0, "providers", 'p', "DIR", 0,
     "a GPU release's provider libraries, when they are not beside the core, of the core's "
     "release (checked): the manifest records the CUDA, cuDNN and driver they need, the GPU "
     "targets of their fat binaries, and what each provider needs of a host",
     CLI_OPT_STRING(import_args, import.providers)},
    {0, "platform", 'P', "P", 0,
     "the CUDA an aarch64 CUDA build is made with: sbsa (NVIDIA's for Arm servers, and Jetson "
     "from JetPack 7) or l4t (Jetson's own, up to JetPack 6); by default the variant's, or what "
     "the providers' SASS says (Jetson's GPUs SM 5.3, 6.2, 7.2, 8.7 only: l4t; none of them: "
     "sbsa; a mix is asked for)",
     CLI_OPT_STRING(import_args, import.platform)},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(import_args, json)},
    CLI_OPT_ARGS(1, 1, "import needs SRC: a libonnxruntime.so* file or a directory"),
    CLI_OPT_END};

/* The selection's verdict on this bundle alone, on this host: why it does
 * not fit ("built for aarch64; this host is x86_64"); "" when it fits or
 * the host cannot be read. */
static void why_not_loadable(const ortkit_bundle *b, char *why, size_t size)
{
    ortkit_host *host = NULL;
    ortkit_bundle_choice *c = NULL;
    why[0] = '\0';
    if (ortkit_host_detect(&host) == 0) {
        ortkit_bundle_select(&c, host, &b, 1, NULL);
        const ortkit_bundle_verdict *v = c ? ortkit_bundle_choice_verdict(c, 0) : NULL;
        if (v && !v->fits && v->why)
            snprintf(why, size, "%s", v->why);
    }
    ortkit_bundle_choice_free(c);
    ortkit_host_free(host);
}

static void why_cell(const cJSON *o, char *buf, size_t size)
{
    const char *why = cli_view_str(o, "not_loaded_because");
    if (why[0])
        snprintf(buf, size, "this host cannot load it: %s", why);
}

static const cli_view_field imported_fields[] = {{"imported", "name", NULL, NULL, NULL},
                                                 {"into", "dir", NULL, NULL, NULL},
                                                 {"", NULL, NULL, bundle_summary_lines, NULL},
                                                 {"why", NULL, why_cell, NULL, NULL}};

int cmd_bundle_import(const cli_opt_spec *spec, int argc, char **argv)
{
    import_args a = {ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT, 0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, bundle_import_opts, &a, argc, argv))
        return p.status;
    int rc = CLI_OK;

    /* An interrupt stops the import where the library next looks (while it
     * copies and hashes files), which then removes its temporary directory. */
    ortkit_bundle *b = NULL;
    cli_interrupt_init();
    cli_interrupt_hold();
    a.import.cancel = cli_interrupt_poll;
    int irc = ortkit_bundle_import(&b, p.args[0], &a.import);
    cli_interrupt_release();
    if ((irc = cli_interrupt_outcome(irc, "nothing was imported")))
        return irc;
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    /* Not loaded: why this host cannot (as show and choose say), unless
     * --no-load is the reason. */
    char why[512] = "";
    if (!m->verified_by_loading && !a.import.no_load)
        why_not_loadable(b, why, sizeof why);
    /* The text is drawn from the JSON --json prints. */
    cJSON *o = bundle_summary_view(m);
    if (o && why[0])
        cJSON_AddStringToObject(o, "not_loaded_because", why);
    rc = cli_view_print(o, a.json, CLI_VIEW_FIELDS(imported_fields), BUNDLE_VIEW_LABEL);
    ortkit_bundle_free(b);
    return rc;
}
