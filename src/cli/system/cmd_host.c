/* cmd_host.c - `ortkit host`: what this machine (or a described one) offers. */
#include "cli.h"
#include "host_view.h"
#include "opt.h"

#include <stdlib.h>
#include <string.h>

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

#define LABEL "%-12s"

static void print_host(const ortkit_host *h)
{
    char a[32], b[32], line[256];

    if (h->arch == ORTKIT_ARCH_X86_64)
        printf(LABEL "%s (x86-64-v%d)\n", "arch", ortkit_arch_name(h->arch), h->x86_64_level);
    else
        printf(LABEL "%s\n", "arch", ortkit_arch_name(h->arch));
    if (h->cpu_model[0] || h->cpu_vendor[0])
        printf(LABEL "%s%s%s%s\n", "cpu", h->cpu_model[0] ? cli_esc(h->cpu_model) : "unknown model",
               h->cpu_vendor[0] ? " (" : "", cli_esc(h->cpu_vendor), h->cpu_vendor[0] ? ")" : "");
    if (h->logical_cpus > 0) {
        if (h->physical_cores > 0)
            printf(LABEL "%d logical, %d physical\n", "cores", h->logical_cpus,
                   h->physical_cores);
        else
            printf(LABEL "%d logical\n", "cores", h->logical_cpus);
    }

    const struct { const char *name; uint64_t size; } caches[] = {
        {"L1d", h->cache_l1d}, {"L1i", h->cache_l1i}, {"L2", h->cache_l2}, {"L3", h->cache_l3}};
    line[0] = '\0';
    for (size_t i = 0; i < sizeof caches / sizeof caches[0]; i++) {
        if (!caches[i].size)
            continue;
        ortkit__human_bytes(a, sizeof a, (double)caches[i].size);
        size_t len = strlen(line);
        snprintf(line + len, sizeof line - len, "%s%s %s", len ? ", " : "", caches[i].name, a);
    }
    if (line[0])
        printf(LABEL "%s\n", "caches", line);

    char lead[32];
    snprintf(lead, sizeof lead, LABEL, "features");
    host_view_features(stdout, lead, h, "none detected");

    if (h->mem_total) {
        ortkit__human_bytes(a, sizeof a, (double)h->mem_total);
        ortkit__human_bytes(b, sizeof b, (double)h->mem_available);
        printf(LABEL "%s total, %s available\n", "memory", a, b);
    }
    if (h->os_name[0] || h->os_distro[0]) {
        snprintf(line, sizeof line, "%s%s%s", h->os_name, h->os_release[0] ? " " : "",
                 h->os_release);
        printf(LABEL "%s%s%s%s%s", "os", cli_esc(line), line[0] && h->os_distro[0] ? ", " : "",
               cli_esc(h->os_distro), h->glibc[0] ? ", glibc " : "", cli_esc(h->glibc));
        printf("%s%s\n", h->glibcxx[0] ? ", libstdc++ GLIBCXX_" : "", cli_esc(h->glibcxx));
    }

    char cuda[16] = "";
    if (h->cuda_driver > 0)
        snprintf(cuda, sizeof cuda, "%d.%d", h->cuda_driver / 1000, (h->cuda_driver % 1000) / 10);
    if (h->driver_version[0])
        printf(LABEL "driver %s%s%s\n", "nvidia", cli_esc(h->driver_version),
               cuda[0] ? ", CUDA " : "", cuda);
    else if (h->tegra)
        printf(LABEL "L4T driver%s%s\n", "nvidia", cuda[0] ? ", CUDA " : "", cuda);
    snprintf(lead, sizeof lead, LABEL, "platform");
    host_view_platform(stdout, lead, h);
    if (h->tegra)
        printf(LABEL "L4T %s%s%s\n", "jetson", cli_esc(h->l4t_release), h->board[0] ? ", " : "",
               cli_esc(h->board));

    if (h->gpu_count == 0) {
        printf(LABEL "none%s%s%s\n", "gpus", h->gpu_note[0] ? " (" : "", cli_esc(h->gpu_note),
               h->gpu_note[0] ? ")" : "");
        return;
    }
    for (size_t i = 0; i < h->gpu_count; i++) {
        const ortkit_gpu *g = h->gpus[i];
        char label[32];
        snprintf(label, sizeof label, "gpu %zu", i);
        if (g->memory_bytes) {
            ortkit__human_bytes(a, sizeof a, (double)g->memory_bytes);
            printf(LABEL "%s, SM %d.%d, %s\n", label, cli_esc(g->name), g->cc_major, g->cc_minor, a);
        } else {
            printf(LABEL "%s, SM %d.%d\n", label, cli_esc(g->name), g->cc_major, g->cc_minor);
        }
    }
    if (h->gpu_note[0])
        printf(LABEL "%s\n", "note", cli_esc(h->gpu_note));
}


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
    int rc = CLI_OK;
    char *text = NULL;
    if (!a.json)
        print_host(host);
    else if (ortkit_host_to_json(host, &text) != 0)
        rc = cli_fail_lib();
    else
        puts(text);
    ortkit_free(text);
    ortkit_host_free(host);
    return rc;
}
