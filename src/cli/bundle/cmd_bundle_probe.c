/*
 * cmd_bundle_probe.c - `ortkit bundle probe LIBRARY`: load a library in this
 * process and print its version and providers as JSON.  The same load
 * `bundle verify` has ortkit-probe make in a child process (load_check.c),
 * so that a library that crashes while it loads takes the child down, not
 * the command.
 */
#include "bundle_cmds.h"

const cli_opt bundle_probe_opts[] = {CLI_OPT_ARGS(1, 1, "probe needs one LIBRARY"), CLI_OPT_END};

int cmd_bundle_probe(const cli_opt_spec *spec, int argc, char **argv)
{
    cli_opt_parser p;
    if (cli_opt_parse(&p, spec, bundle_probe_opts, NULL, argc, argv))
        return p.status;
    ortkit_runtime *rt = NULL;
    if (cli_open_runtime(&rt, p.args[0]))
        return cli_fail_lib();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "version", ortkit_runtime_version(rt));
    cJSON *list = cJSON_AddArrayToObject(o, "providers");
    for (size_t i = 0; list && i < ortkit_runtime_provider_count(rt); i++)
        cJSON_AddItemToArray(list, cJSON_CreateString(ortkit_runtime_provider(rt, i)));
    ortkit_runtime_free(rt);
    return cli_json_print(o);
}
