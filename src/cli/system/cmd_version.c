/* cmd_version.c - `ortkit version`: ortkit, and the runtime it would load. */
#include "cli.h"
#include "ep_devices_view.h"
#include "runtime_view.h"
#include "opt.h"

typedef struct version_args {
    const char *runtime;
    int json;
} version_args;

static const cli_opt version_opts[] = {
    {0, "runtime", 'r', "PATH", 0, "load this library or directory instead of searching",
     CLI_OPT_STRING(version_args, runtime)},
    {0, "json", 'j', NULL, 0, "print JSON", CLI_OPT_FLAG(version_args, json)},
    CLI_OPT_END};

static const cli_opt_spec version_spec = {
    "version",
    "usage: ortkit version [--runtime PATH] [--json]\n",
    "Show ortkit's version and the ONNX Runtime it loads: its path, where the\n"
    "path came from, its version, the API level in use, its execution providers\n"
    "and the EP devices it discovers (ONNX Runtime 1.22 and newer).\n",
    version_opts, NULL, NULL};

/* The view: ortkit, and the runtime it loads (or why none); what --json
 * prints and the text is drawn from. */
static cJSON *version_view(const ortkit_runtime *rt, const ortkit_ep_devices *eps)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "ortkit", ortkit_version());
    if (!rt) {
        cJSON_AddNullToObject(root, "runtime");
        cJSON_AddStringToObject(root, "error", ortkit_error_last());
        return root;
    }
    cJSON *r = cJSON_AddObjectToObject(root, "runtime");
    ortkit__json_add_strings(r, "path", ortkit_runtime_path(rt), "source", ortkit_runtime_source(rt),
                             "version", ortkit_runtime_version(rt), NULL);
    cJSON_AddNumberToObject(r, "api_level", ortkit_runtime_api_level(rt));
    cJSON *providers = cJSON_AddArrayToObject(r, "providers");
    for (size_t i = 0; i < ortkit_runtime_provider_count(rt); i++)
        cJSON_AddItemToArray(providers, cJSON_CreateString(ortkit_runtime_provider(rt, i)));
    cJSON_AddItemToObject(r, "ep_devices", ep_devices_view(eps));
    return root;
}

static void providers_cell(const cJSON *o, char *buf, size_t size)
{
    cli_view_join(cli_view_at(o, "providers"), " ", buf, size);
}

static const cli_view_field providers_fields[] = {{"providers", NULL, providers_cell, NULL, ""}};

/* The view as text. */
static void version_text(const cJSON *view)
{
    const cJSON *rt = cli_view_at(view, "runtime");
    printf("%-10s %s\n", "ortkit", cli_view_str(view, "ortkit"));
    if (!cJSON_IsObject(rt))
        return;
    runtime_view_lines(stdout, rt, "runtime", "%-10s ");
    cli_view_fields(stdout, rt, CLI_VIEW_FIELDS(providers_fields), "%-10s ");
    ep_devices_print(cli_view_at(rt, "ep_devices"));
}

int cmd_version(int argc, char **argv)
{
    version_args a = {NULL, 0};
    cli_opt_parser p;
    if (cli_opt_parse(&p, &version_spec, NULL, &a, argc, argv))
        return p.status;

    ortkit_runtime *rt = NULL;
    int rc = cli_open_runtime(&rt, a.runtime);
    ortkit_ep_devices *eps = NULL;
    if (!rc && ortkit_runtime_ep_devices(&eps, rt))
        cli_warn("%s", ortkit_error_last());
    cJSON *view = version_view(rc ? NULL : rt, eps);
    if (a.json) {
        cli_json_print(view);
    } else if (view) {
        version_text(view);
        cJSON_Delete(view);
    }
    if (rc) {
        cli_fail_lib();
        return CLI_FAIL;
    }
    ortkit_ep_devices_free(eps);
    ortkit_runtime_free(rt);
    return CLI_OK;
}
