/* cmd_version.c - `ortkit version`: ortkit, and the runtime it would load. */
#include "cli.h"
#include "opt.h"

enum { OPT_RUNTIME = 1, OPT_JSON };

static const cli_opt version_opts[] = {
    {OPT_RUNTIME, "runtime", 'r', "PATH", 0, "load this library or directory instead of searching"},
    {OPT_JSON, "json", 'j', NULL, 0, "print JSON"},
    CLI_OPT_END};

static const cli_opt_spec version_spec = {
    "version",
    "usage: ortkit version [--runtime PATH] [--json]\n",
    "Show ortkit's version and the ONNX Runtime it loads: its path, where the\n"
    "path came from, its version, the API level in use, its execution providers\n"
    "and the EP devices it discovers (ONNX Runtime 1.22 and newer).\n",
    version_opts, NULL, NULL};

/* "EP devices  CPUExecutionProvider on cpu (vendor, 0x1022)" lines; doctor shares it. */
cJSON *ep_devices_json(const ortkit_ep_devices *eps)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < ortkit_ep_devices_count(eps); i++) {
        const ortkit_ep_device *d = ortkit_ep_devices_get(eps, i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "ep", d->ep_name);
        cJSON_AddStringToObject(o, "ep_vendor", d->ep_vendor);
        cJSON_AddStringToObject(o, "type", d->device_type);
        cJSON_AddStringToObject(o, "vendor", d->vendor);
        cJSON_AddNumberToObject(o, "vendor_id", d->vendor_id);
        cJSON_AddNumberToObject(o, "device_id", d->device_id);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

void ep_devices_print(const ortkit_ep_devices *eps)
{
    size_t n = ortkit_ep_devices_count(eps);
    if (n == 0)
        printf("EP devices none listed (ONNX Runtime lists them from 1.22 on)\n");
    for (size_t i = 0; i < n; i++) {
        const ortkit_ep_device *d = ortkit_ep_devices_get(eps, i);
        printf("%-11s%s on %s (%s%s0x%04x)\n", i ? "" : "EP devices", cli_esc(d->ep_name),
               d->device_type, cli_esc(d->vendor), d->vendor[0] ? ", " : "", d->vendor_id);
    }
}

int cmd_version(int argc, char **argv)
{
    const char *runtime_path = NULL;
    int json = 0, c;
    cli_opt_parser p;
    cli_opt_init(&p, &version_spec, NULL, argc, argv);
    while ((c = cli_opt_next(&p)) > 0) {
        switch (c) {
        case OPT_RUNTIME: runtime_path = p.value; break;
        case OPT_JSON: json = 1; break;
        }
    }
    if (c == CLI_OPT_HELP)
        return CLI_OK;
    if (c == CLI_OPT_BAD)
        return CLI_USAGE;
    if (p.n_args > 0)
        return cli_usage("version", "unexpected argument '%s'", p.args[0]);

    ortkit_runtime *rt = NULL;
    int rc = cli_open_runtime(&rt, runtime_path);
    ortkit_ep_devices *eps = NULL;
    if (!rc && ortkit_runtime_ep_devices(&eps, rt))
        cli_warn("%s", ortkit_error_last());
    if (json) {
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
            cJSON_AddItemToObject(r, "ep_devices", ep_devices_json(eps));
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
            ep_devices_print(eps);
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
