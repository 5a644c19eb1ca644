/* cmd_version.c - `ortkit version`: ortkit, and the runtime it would load. */
#include "cli.h"

#include <getopt.h>
#include <string.h>

static const char usage_text[] =
    "usage: ortkit version [--runtime PATH] [--json]\n"
    "\n"
    "Show ortkit's version and the ONNX Runtime it loads: its path, where the\n"
    "path came from, its version, the API level in use and its execution providers.\n"
    "\n"
    "  --runtime PATH  load this library or directory instead of searching\n"
    "  --json          print JSON\n";

int cmd_version(int argc, char **argv)
{
    static const struct option longopts[] = {{"runtime", required_argument, NULL, 'r'},
                                             {"json", no_argument, NULL, 'j'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *runtime_path = NULL;
    int json = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "r:jh", longopts, NULL)) != -1) {
        switch (c) {
        case 'r': runtime_path = optarg; break;
        case 'j': json = 1; break;
        case 'h': fputs(usage_text, stdout); return CLI_OK;
        default: return cli_bad_option("version", argv);
        }
    }
    if (optind < argc)
        return cli_usage("version", "unexpected argument '%s'", argv[optind]);

    ortkit_runtime *rt = NULL;
    int rc = cli_open_runtime(&rt, runtime_path);
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
            cJSON *p = cJSON_AddArrayToObject(r, "providers");
            for (size_t i = 0; i < ortkit_runtime_provider_count(rt); i++)
                cJSON_AddItemToArray(p, cJSON_CreateString(ortkit_runtime_provider(rt, i)));
        }
        cli_json_print(root);
    } else {
        printf("ortkit     %s\n", ortkit_version());
        if (!rc) {
            printf("runtime    ONNX Runtime %s\n", ortkit_runtime_version(rt));
            printf("path       %s\n", ortkit_runtime_path(rt));
            printf("found by   %s\n", ortkit_runtime_source(rt));
            printf("API level  %d (ortkit supports %d and newer)\n", ortkit_runtime_api_level(rt),
                   ORTKIT_MIN_ORT_API);
            printf("providers ");
            for (size_t i = 0; i < ortkit_runtime_provider_count(rt); i++)
                printf(" %s", ortkit_runtime_provider(rt, i));
            printf("\n");
        }
    }
    if (rc) {
        cli_fail_lib();
        return CLI_FAIL;
    }
    ortkit_runtime_free(rt);
    return CLI_OK;
}
