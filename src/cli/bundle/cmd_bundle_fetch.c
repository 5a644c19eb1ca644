/* cmd_bundle_fetch.c - `ortkit bundle fetch VERSION`: Microsoft's official
 * ONNX Runtime release for this host, from the npm registry, its published
 * SHA-512 checked, imported as a bundle (a runtime with the tool alone). */
#include "bundle_cmds.h"
#include "bundle_view.h"
#include "interrupt.h"

#include <ortkit/tools/repo.h>

typedef struct fetch_args {
    ortkit_bundle_import_options import;
    const char *registry, *ca_file;
    int json;
} fetch_args;

const cli_opt bundle_fetch_opts[] = {
    {0, "registry", 'r', "URL", 0,
     "the npm registry (default: $ORTKIT_NPM_REGISTRY, else https://registry.npmjs.org)",
     CLI_OPT_STRING(fetch_args, registry)},
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

int cmd_bundle_fetch(const cli_opt_spec *spec, int argc, char **argv)
{
    fetch_args a = {ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT, NULL, NULL, 0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, bundle_fetch_opts, &a, argc, argv))
        return p.status;
    int rc = CLI_OK;
    ortkit_bundle *b = NULL;
    fprintf(stderr, "ortkit: fetching onnxruntime-node@%s (Microsoft's release) from the npm "
            "registry\n", cli_esc(p.args[0]));
    /* Ctrl-C stops the download or the import where the library next
     * looks; its temporary directory is removed. */
    cli_interrupt_init();
    cli_interrupt_hold();
    a.import.cancel = cli_interrupt_poll;
    int frc = ortkit_repo_fetch_release(&b, p.args[0], a.registry, a.ca_file, &a.import);
    cli_interrupt_release();
    if (frc == ORTKIT_E_CANCELLED && cli_interrupted())
        return cli_interrupt_fail("nothing was fetched");
    if (frc != 0)
        return cli_fail_lib();
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    if (a.json) {
        rc = cli_json_print(bundle_summary_json(m));
    } else {
        printf("fetched    onnxruntime-node@%s (npm, SHA-512 checked)\n", cli_esc(p.args[0]));
        printf("imported   %s\n", cli_esc(m->name));
        printf("into       %s\n", cli_esc(m->dir));
        bundle_summary_print(m);
    }
    ortkit_bundle_free(b);
    return rc;
}
