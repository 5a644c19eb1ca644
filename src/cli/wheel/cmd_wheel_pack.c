/* cmd_wheel_pack.c - `ortkit wheel pack`: a build's onnxruntime package tree into a wheel. */
#include "wheel_cmds.h"
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
        if (a.json) {
            cJSON *j = cJSON_CreateObject();
            cJSON_AddStringToObject(j, "wheel", path);
            cJSON_AddStringToObject(j, "platform_tag", in->platform_tag);
            cJSON_AddStringToObject(j, "platform_tag_from", in->tag_from);
            rc = cli_json_print(j);
        } else {
            printf("wheel     %s\n", cli_esc(path));
            printf("tag       %s-%s-%s\n", cli_esc(in->python_tag), cli_esc(in->abi_tag),
                   cli_esc(in->platform_tag));
            printf("because   %s\n", cli_esc(in->tag_from));
        }
    }
    ortkit_wheel_free(w);
    free(path);
    return rc;
}
