/* cmd_bundle_fetch.c - `ortkit bundle fetch VERSION`: Microsoft's official
 * ONNX Runtime release for this host, imported as a bundle (a runtime with
 * the tool alone): from the npm registry, its published SHA-512 checked, or
 * (--from github) from the GitHub release's tarball, checked against the
 * SHA-256 ortkit carries for it or the one given. */
#include "bundle_cmds.h"
#include "bundle_view.h"
#include "interrupt.h"

#include <ortkit/tools/repo.h>

enum { FROM_NPM, FROM_GITHUB };
enum { GPU_NONE, GPU_CUDA12, GPU_CUDA13 };
static const int fetch_from[] = {FROM_NPM, FROM_GITHUB};
static const int fetch_gpu[] = {GPU_CUDA12, GPU_CUDA13};

typedef struct fetch_args {
    ortkit_bundle_import_options import;
    const char *registry, *ca_file, *sha256, *url;
    int from, gpu, json;
} fetch_args;

const cli_opt bundle_fetch_opts[] = {
    {0, "from", 0, "npm|github", 0,
     "where from: the npm registry (default) or GitHub's release tarballs",
     CLI_OPT_CHOICE(fetch_args, from, fetch_from)},
    {0, "registry", 'r', "URL", 0,
     "the npm registry (default: $ORTKIT_NPM_REGISTRY, else https://registry.npmjs.org)",
     CLI_OPT_STRING(fetch_args, registry)},
    {0, "gpu", 0, "cuda12|cuda13", 0,
     "github: the GPU release for that CUDA (x86-64)",
     CLI_OPT_CHOICE(fetch_args, gpu, fetch_gpu)},
    {0, "sha256", 0, "HEX", 0,
     "github: the tarball's SHA-256 (default: ortkit's own)",
     CLI_OPT_STRING(fetch_args, sha256)},
    {0, "url", 0, "URL", 0,
     "github: the tarball's URL (default: $ORTKIT_GITHUB_RELEASES/vVERSION/FILE, else GitHub's)",
     CLI_OPT_STRING(fetch_args, url)},
    {0, "ca-file", 0, "FILE", 0, "the CA certificates to trust for https (default: the system's)",
     CLI_OPT_STRING(fetch_args, ca_file)},
    {0, "name", 'n', "NAME", 0, "the bundle's name (default ort-<version>-cpu)",
     CLI_OPT_STRING(fetch_args, import.name)},
    {0, "into", 'i', "DIR", 0,
     "where to put it (default: $XDG_DATA_HOME/ortkit/bundles, ~/.local/share/ortkit/bundles)",
     CLI_OPT_STRING(fetch_args, import.into)},
    {0, "force", 'f', NULL, 0, "replace a bundle of the same name",
     CLI_OPT_FLAG(fetch_args, import.force)},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(fetch_args, json)},
    CLI_OPT_ARGS(1, 1, "fetch needs the ONNX Runtime version (1.30.0)"),
    CLI_OPT_END};

/* The fetch itself, from the source a asks for; what was fetched, for people, into what. */
static int fetch(ortkit_bundle **b, const fetch_args *a, const char *version, char *what,
                 size_t what_size)
{
    if (a->from == FROM_NPM) {
        fprintf(stderr, "ortkit: fetching onnxruntime-node@%s (Microsoft's release) from the "
                "npm registry\n", cli_esc(version));
        snprintf(what, what_size, "onnxruntime-node@%s (npm, SHA-512 checked)", version);
        return ortkit_repo_fetch_release(b, version, a->registry, a->ca_file, &a->import);
    }
    ortkit_repo_github_options o = ORTKIT_REPO_GITHUB_OPTIONS_INIT;
    o.gpu = a->gpu == GPU_CUDA12 ? "cuda12" : a->gpu == GPU_CUDA13 ? "cuda13" : NULL;
    o.sha256 = a->sha256;
    o.url = a->url;
    o.ca_file = a->ca_file;
    fprintf(stderr, "ortkit: fetching ONNX Runtime %s%s%s (Microsoft's release) from GitHub\n",
            cli_esc(version), o.gpu ? " for " : "", o.gpu ? o.gpu : "");
    snprintf(what, what_size, "onnxruntime %s%s%s (GitHub, SHA-256 checked%s)", version,
             o.gpu ? " " : "", o.gpu ? o.gpu : "", a->sha256 ? " against --sha256" : "");
    return ortkit_repo_fetch_github(b, version, &o, &a->import);
}

static const cli_view_field fetched_fields[] = {{"fetched", "fetched", NULL, NULL, NULL},
                                                {"imported", "name", NULL, NULL, NULL},
                                                {"into", "dir", NULL, NULL, NULL},
                                                {"", NULL, NULL, bundle_summary_lines, NULL}};

int cmd_bundle_fetch(const cli_opt_spec *spec, int argc, char **argv)
{
    fetch_args a = {ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT, NULL, NULL, NULL, NULL, FROM_NPM,
                    GPU_NONE, 0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, bundle_fetch_opts, &a, argc, argv))
        return p.status;
    if (a.from == FROM_NPM && (a.gpu != GPU_NONE || a.sha256 || a.url))
        return cli_usage("bundle fetch", "--gpu, --sha256 and --url are for --from github");
    if (a.from == FROM_GITHUB && a.registry)
        return cli_usage("bundle fetch", "--registry is for --from npm");
    int rc = CLI_OK;
    ortkit_bundle *b = NULL;
    char what[512];
    /* Ctrl-C stops the download or the import where the library next
     * looks; its temporary directory is removed. */
    cli_interrupt_init();
    cli_interrupt_hold();
    a.import.cancel = cli_interrupt_poll;
    int frc = fetch(&b, &a, p.args[0], what, sizeof what);
    cli_interrupt_release();
    if ((frc = cli_interrupt_outcome(frc, "nothing was fetched")))
        return frc;
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    /* The text is drawn from the JSON --json prints. */
    cJSON *o = bundle_summary_view(m);
    if (o)
        cJSON_AddStringToObject(o, "fetched", what);
    rc = cli_view_print(o, a.json, CLI_VIEW_FIELDS(fetched_fields), BUNDLE_VIEW_LABEL);
    ortkit_bundle_free(b);
    return rc;
}
