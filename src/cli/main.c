/* main.c - `ortkit <command> [args]`: find the command and run it. */
#include "cli.h"
#include "opt.h"

#include <stdlib.h>
#include <string.h>

static const cli_command commands[] = {
    {"run", cmd_run, "run a model on inputs and show its outputs"},
    {"bench", cmd_bench, "measure latency, throughput, CPU and memory; compare two set-ups"},
    {"validate", cmd_validate, "run ONNX backend tests: conformance, determinism, memory"},
    {"info", cmd_info, "show a model's inputs, outputs, metadata and opsets"},
    {"compare", cmd_compare, "compare saved outputs (or validate reports), A against B"},
    {"version", cmd_version, "show ortkit's version and the runtime it loads"},
    {"host", cmd_host, "show this machine: CPU features, memory, NVIDIA GPUs and driver"},
    {"build", cmd_build, "build ONNX Runtime from source for a variant, under a memory budget"},
    {"variants", cmd_variants, "list the ORT build variants and which fit this host"},
    {"bundle", cmd_bundle, "relocatable ONNX Runtime bundles: import, fetch, complete, verify, choose, publish, install"},
    {"wheel", cmd_wheel, "ONNX Runtime's Python package per variant: pack, show, publish, choose"},
    {"doctor", cmd_doctor, "explain which runtime is loaded here, and check that it works"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: ortkit <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'ortkit <command> --help' describes a command.\n");
}

int main(int argc, char **argv)
{
    /* ONNX Runtime 1.30's Linux builds start a usage-telemetry client with
     * each environment (a database under ~/.cache/Microsoft, an empty
     * /tmp/mat-debug-PID.log every time).  The tool keeps it off unless the
     * user says otherwise; set here, before any thread exists. */
    setenv("ORT_DISABLE_TELEMETRY", "1", 0);
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(name, "--version"))
        name = "version";
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, name))
            return commands[i].run(argc - 1, argv + 1);
    const char *names[sizeof commands / sizeof commands[0]];
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        names[i] = commands[i].name;
    const char *near = cli_opt_suggest(name, strlen(name), names, sizeof names / sizeof names[0]);
    if (near)
        cli_fail("unknown command '%s'; did you mean '%s'?", name, near);
    else
        cli_fail("unknown command '%s'", name);
    usage(stderr);
    return CLI_USAGE;
}
