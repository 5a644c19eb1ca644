/* cmd_wheel_show.c - `ortkit wheel show`: a wheel checked, and what it says of itself. */
#include "wheel_cmds.h"
#include "view.h"
#include "ortkit/tools/wheel.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct show_args {
    int json;
} show_args;

const cli_opt wheel_show_opts[] = {
    {0, "json", 'j', NULL, 0, "print JSON (with the wheel's ortkit.json as \"facts\")",
     CLI_OPT_FLAG(show_args, json)},
    CLI_OPT_ARGS(1, 1, "show needs WHEEL: a .whl file"),
    CLI_OPT_END};

/* The view's data, once: the JSON printed as it is, and the text drawn from it. */
static cJSON *wheel_view(const ortkit_wheel_info *in)
{
    const ortkit_manifest *m = ortkit_bundle_manifest(in->bundle);
    cJSON *j = cJSON_CreateObject();
    ortkit__json_add_strings(j, "wheel", in->path, "version", in->version, "variant", in->variant,
                             "onnxruntime", in->ort_version, "python", in->python, "python_tag",
                             in->python_tag, "platform_tag", in->platform_tag, "platform_tag_from",
                             in->tag_from, "arch", ortkit_arch_name(m->arch), NULL);
    cJSON *n = cJSON_AddObjectToObject(j, "needs");
    ortkit__json_add_strings(n, "glibc", in->needs_glibc, "glibcxx", in->needs_glibcxx, "cxxabi",
                             in->needs_cxxabi, NULL);
    cJSON_AddNumberToObject(j, "files", (double)in->file_count);
    cJSON_AddNumberToObject(j, "unpacked_bytes", (double)in->unpacked_size);
    cJSON *prov = cJSON_AddArrayToObject(j, "providers");
    for (size_t i = 0; i < m->provider_count; i++)
        cJSON_AddItemToArray(prov, cJSON_CreateString(m->providers[i]));
    return j;
}

static void needs_cell(const cJSON *o, char *buf, size_t size)
{
    const cJSON *n = cli_view_at(o, "needs");
    snprintf(buf, size, "glibc %s, GLIBCXX %s, CXXABI %s (read from its libraries)",
             cli_view_str(n, "glibc"), cli_view_str(n, "glibcxx"), cli_view_str(n, "cxxabi"));
}

static void files_cell(const cJSON *o, char *buf, size_t size)
{
    char unpacked[32];
    ortkit__human_bytes(unpacked, sizeof unpacked, cli_view_num(o, "unpacked_bytes"));
    snprintf(buf, size, "%s, %s unpacked; RECORD's sizes and SHA-256s match", cli_view_str(o, "files"),
             unpacked);
}

static void providers_cell(const cJSON *o, char *buf, size_t size)
{
    cli_view_join(cli_view_at(o, "providers"), ", ", buf, size);
}

static const cli_view_field wheel_fields[] = {
    {"wheel", "wheel", NULL, NULL, ""},
    {"version", "version", NULL, NULL, ""},
    {"variant", "variant", NULL, NULL, ""},
    {"onnxruntime", "onnxruntime", NULL, NULL, ""},
    {"python", "python", NULL, NULL, ""},
    {"platform", "platform_tag", NULL, NULL, ""},
    {"because", "platform_tag_from", NULL, NULL, ""},
    {"arch", "arch", NULL, NULL, ""},
    {"needs", NULL, needs_cell, NULL, ""},
    {"files", NULL, files_cell, NULL, ""},
    {"providers", NULL, providers_cell, NULL, ""}};

int cmd_wheel_show(const cli_opt_spec *spec, int argc, char **argv)
{
    show_args a = {0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, wheel_show_opts, &a, argc, argv))
        return p.status;
    ortkit_wheel *w = NULL;
    if (ortkit_wheel_open(&w, p.args[0]))
        return cli_fail_lib();
    const ortkit_wheel_info *in = ortkit_wheel_info_get(w);
    cJSON *j = wheel_view(in);
    if (j && a.json)
        cJSON_AddItemToObject(j, "facts", cJSON_Parse(in->facts_json));
    int rc = cli_view_print(j, a.json, CLI_VIEW_FIELDS(wheel_fields), "%-12s ");
    ortkit_wheel_free(w);
    return rc;
}
