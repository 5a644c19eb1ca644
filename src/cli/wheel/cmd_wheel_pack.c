/* cmd_wheel_pack.c - `ortkit wheel pack`: a build's onnxruntime package tree into a wheel. */
#include "wheel_cmds.h"
#include "view.h"
#include "ortkit/tools/wheel.h"

#include <stdlib.h>

typedef struct pack_args {
    const char *bundle, *python, *into, *numpy_headers;
    int json;
} pack_args;

const cli_opt wheel_pack_opts[] = {
    {0, "bundle", 'b', "BUNDLE", 0,
     "the bundle of the same build (its directory): the variant, CPU flags, GPU code and "
     "providers the wheel carries as facts; required", CLI_OPT_STRING(pack_args, bundle)},
    {0, "python", 0, "X.Y", 0, "the CPython the extension was compiled for, e.g. 3.11; required",
     CLI_OPT_STRING(pack_args, python)},
    {0, "into", 'o', "DIR", 0, "where the wheel goes (default: the current directory)",
     CLI_OPT_STRING(pack_args, into)},
    {0, "numpy-headers", 0, "TEXT", 0,
     "what the extension was compiled against, said in the wheel (e.g. \"numpy 2.2.4\")",
     CLI_OPT_STRING(pack_args, numpy_headers)},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(pack_args, json)},
    CLI_OPT_ARGS(1, 1, "pack needs PACKAGE_DIR: the onnxruntime directory of a build with Python"),
    CLI_OPT_END};

static void tag_cell(const cJSON *o, char *buf, size_t size)
{
    snprintf(buf, size, "%s-%s-%s", cli_view_str(o, "python_tag"), cli_view_str(o, "abi_tag"),
             cli_view_str(o, "platform_tag"));
}

static const cli_view_field packed_fields[] = {{"wheel", "wheel", NULL, NULL, ""},
                                               {"tag", NULL, tag_cell, NULL, ""},
                                               {"because", "platform_tag_from", NULL, NULL, ""}};

int cmd_wheel_pack(const cli_opt_spec *spec, int argc, char **argv)
{
    pack_args a = {NULL, NULL, ".", NULL, 0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, wheel_pack_opts, &a, argc, argv))
        return p.status;
    if (!a.bundle || !a.python)
        return cli_usage("wheel pack", "--bundle BUNDLE and --python X.Y are required");
    ortkit_wheel_pack_options o = ORTKIT_WHEEL_PACK_OPTIONS_INIT;
    o.bundle = a.bundle;
    o.python = a.python;
    o.into = a.into;
    o.numpy_headers = a.numpy_headers;
    char *path = NULL;
    if (ortkit_wheel_pack(&path, p.args[0], &o))
        return cli_fail_lib();
    ortkit_wheel *w = NULL;
    int rc = ortkit_wheel_open(&w, path) ? cli_fail_lib() : CLI_OK;
    if (!rc) {
        const ortkit_wheel_info *in = ortkit_wheel_info_get(w);
        /* The text is drawn from the JSON --json prints. */
        cJSON *j = cJSON_CreateObject();
        ortkit__json_add_strings(j, "wheel", path, "python_tag", in->python_tag, "abi_tag",
                                 in->abi_tag, "platform_tag", in->platform_tag, "platform_tag_from",
                                 in->tag_from, NULL);
        rc = cli_view_print(j, a.json, CLI_VIEW_FIELDS(packed_fields), "%-9s ");
    }
    ortkit_wheel_free(w);
    free(path);
    return rc;
}
