/* cmd_bundle_show.c - `ortkit bundle show BUNDLE`: what a bundle is, from its manifest. */
#include "bundle_arg.h"
#include "bundle_cmds.h"
#include "bundle_view.h"

typedef struct show_args {
    int json;
} show_args;

const cli_opt bundle_show_opts[] = {
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(show_args, json)},
    CLI_OPT_ARGS(1, 1, "show needs BUNDLE: a directory or the name of a bundle 'ortkit bundle "
                       "list' shows"),
    CLI_OPT_END};

static const cli_view_field show_fields[] = {{"bundle", "name", NULL, NULL, NULL},
                                             {"dir", "dir", NULL, NULL, NULL},
                                             {"", NULL, NULL, bundle_summary_lines, NULL},
                                             {"", NULL, NULL, bundle_needs_lines, NULL},
                                             {"damaged", "damage", NULL, NULL, NULL}};

int cmd_bundle_show(const cli_opt_spec *spec, int argc, char **argv)
{
    show_args a = {0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, bundle_show_opts, &a, argc, argv))
        return p.status;
    int json = a.json;
    /* Nothing is checked or loaded: the manifest says what the bundle is
     * ('ortkit bundle verify' checks the files against it). */
    ortkit_bundle *b = NULL;
    if (bundle_open_named(&b, p.args[0]))
        return cli_fail_lib();
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    /* The text is drawn from the JSON --json prints. */
    cJSON *o = bundle_summary_view(m);
    if (o)
        cJSON_AddStringToObject(o, "damage", ortkit_bundle_damage(b));
    int rc = cli_view_print(o, json, CLI_VIEW_FIELDS(show_fields), BUNDLE_VIEW_LABEL);
    ortkit_bundle_free(b);
    return rc;
}
