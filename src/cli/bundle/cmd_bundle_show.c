/* cmd_bundle_show.c - `ortkit bundle show BUNDLE`: what a bundle is, from its manifest. */
#include "bundle_cmds.h"
#include "bundle_gpu_view.h"
#include "bundle_view.h"

enum { OPT_JSON = 1 };

const cli_opt bundle_show_opts[] = {{OPT_JSON, "json", 'j', NULL, 0, "print JSON"}, CLI_OPT_END};

int bundle_show(int argc, char **argv)
{
    cli_opt_parser p;
    int c, json = 0;
    cli_opt_init(&p, &bundle_spec, bundle_show_opts, argc, argv);
    while ((c = cli_opt_next(&p)) > 0)
        json |= c == OPT_JSON;
    if (c == CLI_OPT_HELP)
        return CLI_OK;
    if (c == CLI_OPT_BAD)
        return CLI_USAGE;
    if (p.n_args != 1)
        return cli_usage("bundle", p.n_args ? "show takes one BUNDLE" : "show needs BUNDLE: a "
                         "directory or the name of a bundle 'ortkit bundle list' shows");
    /* Nothing is checked or loaded: the manifest says what the bundle is
     * ('ortkit bundle verify' checks the files against it). */
    ortkit_bundle *b = NULL;
    if (bundle_open_named(&b, p.args[0]))
        return cli_fail_lib();
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    int rc = CLI_OK;
    if (json) {
        cJSON *o = bundle_summary_json(m);
        if (o)
            cJSON_AddStringToObject(o, "damage", ortkit_bundle_damage(b));
        rc = cli_json_print(o);
    } else {
        printf("bundle     %s\n", cli_esc(m->name));
        printf("dir        %s\n", cli_esc(m->dir));
        bundle_summary_print(m);
        bundle_needs_print(m);
        bundle_build_print(m);
        if (ortkit_bundle_damage(b)[0])
            printf("damaged    %s\n", cli_esc(ortkit_bundle_damage(b)));
    }
    ortkit_bundle_free(b);
    return rc;
}
