/* cmd_version.c - `ortkit version`: ortkit, and the runtime it would load. */
#include "cli.h"
#include "ep_devices_view.h"
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
    if (a.json) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "ortkit", ortkit_version());
        if (rc) {
            cJSON_AddNullToObject(root, "runtime");
            cJSON_AddStringToObject(root, "error", ortkit_error_last());
        } else {
            cJSON *r = cJSON_AddObjectToObject(root, "runtime");
            cJSON_AddStringToObject(r, "path", ortkit_runtime_path(rt));
            cJSON_AddStringToObject(r, "source", ortkit_runtime_source(rt));
            cJSON_AddStringToObject(r, "version", ortkit_runtime_version(rt));
            cJSON_AddNumberToObject(r, "api_level", ortkit_runtime_api_level(rt));
            cJSON *providers = cJSON_AddArrayToObject(r, "providers");
            for (size_t i = 0; i < ortkit_runtime_provider_count(rt); i++)
                cJSON_AddItemToArray(providers, cJSON_CreateString(ortkit_runtime_provider(rt, i)));
            cJSON_AddItemToObject(r, "ep_devices", ep_devices_view(eps));
        }
        cli_json_print(root);
    } else {
        printf("ortkit     %s\n", ortkit_version());
        if (!rc) {
            printf("runtime    ONNX Runtime %s\n", cli_esc(ortkit_runtime_version(rt)));
            printf("path       %s\n", cli_esc(ortkit_runtime_path(rt)));
            printf("found by   %s\n", cli_esc(ortkit_runtime_source(rt)));
            printf("API level  %d (ortkit supports %d and newer)\n", ortkit_runtime_api_level(rt),
                   ORTKIT_MIN_ORT_API);
            printf("providers ");
            for (size_t i = 0; i < ortkit_runtime_provider_count(rt); i++)
                printf(" %s", cli_esc(ortkit_runtime_provider(rt, i)));
            printf("\n");
            cJSON *devices = ep_devices_view(eps);
            ep_devices_print(devices);
            cJSON_Delete(devices);
        }
    }
    if (rc) {
        cli_fail_lib();
        return CLI_FAIL;
    }
    ortkit_ep_devices_free(eps);
    ortkit_runtime_free(rt);
    return CLI_OK;
}
