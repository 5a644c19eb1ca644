/* cmd_host.c - `ortkit host`: what this machine (or a described one) offers. */
#include "cli.h"
#include "host_view.h"
#include "opt.h"


typedef struct host_args {
    int json;
    const char *load;
    const char *root;
} host_args;

static const cli_opt host_opts[] = {
    {0, "json", 'j', NULL, 0,
     "print JSON; 'ortkit host --json > h.json' describes this machine for --load and "
     "'ortkit variants --host'", CLI_OPT_FLAG(host_args, json)},
    {0, "load", 'l', "FILE", 0, "show the machine described in FILE instead of this one",
     CLI_OPT_STRING(host_args, load)},
    {0, "root", 'r', "DIR", 0,
     "detect the machine whose files lie in DIR (DIR/proc, DIR/sys, DIR/etc, as a copy or a "
     "mount of its /): nothing comes from this machine; the CPU is read from DIR/proc/cpuinfo, "
     "NVIDIA GPUs from DIR/proc/driver/nvidia (docs/HOST_AND_VARIANTS.md)",
     CLI_OPT_STRING(host_args, root)},
    CLI_OPT_END};

static const cli_opt_spec host_spec = {
    "host",
    "usage: ortkit host [--json] [--load FILE.json | --root DIR]\n",
    "Show this machine as ortkit sees it when it picks an ONNX Runtime build:\n"
    "CPU, instruction sets usable here (cpuid checked against what the OS\n"
    "enables; AT_HWCAP on arm64), memory, OS, glibc and libstdc++, NVIDIA\n"
    "driver and GPUs, Jetson board, and the CUDA platform it takes (x86_64;\n"
    "on arm64 NVIDIA's SBSA CUDA, or Jetson's L4T CUDA up to JetPack 6).  No\n"
    "NVIDIA driver is a normal answer, not an error.\n",
    host_opts, NULL, NULL};

int cmd_host(int argc, char **argv)
{
    host_args a = {0, NULL, NULL};
    cli_opt_parser p;
    if (cli_opt_parse(&p, &host_spec, NULL, &a, argc, argv))
        return p.status;

    if (a.load && a.root)
        return cli_usage("host", "give --load or --root, not both");
    ortkit_host *host = NULL;
    if ((a.load   ? ortkit_host_load(&host, a.load)
         : a.root ? ortkit_host_detect_root(&host, a.root)
                  : ortkit_host_detect(&host)) != 0)
        return cli_fail_lib();
    /* The text is drawn from the JSON --json prints. */
    cJSON *view = host_view(host);
    ortkit_host_free(host);
    if (!view)
        return cli_fail_lib();
    return cli_view_print(view, a.json, host_view_fields, host_view_field_count, "%-12s");
}
