/* host_view.c - a host's text drawn from its JSON view (host_view.h). */
#include "host_view.h"

#include <stdlib.h>
#include <string.h>

cJSON *host_view(const ortkit_host *h)
{
    char *text = NULL;
    if (ortkit_host_to_json(h, &text) != 0)
        return NULL;
    cJSON *view = cJSON_Parse(text);
    ortkit_free(text);
    return view;
}

static const char *at(const cJSON *o, const char *path)
{
    const cJSON *it = cli_view_at(o, path);
    return cJSON_IsString(it) ? it->valuestring : "";
}

static double num_at(const cJSON *o, const char *path)
{
    const cJSON *it = cli_view_at(o, path);
    return cJSON_IsNumber(it) ? it->valuedouble : 0;
}

/* "x86_64 (x86-64-v3)"; brief (doctor) leaves out a level of 0. */
static void arch_of(const cJSON *o, char *buf, size_t size, int brief)
{
    const cJSON *level = cli_view_at(o, "cpu.x86_64_level");
    if (cJSON_IsNumber(level) && (!brief || level->valuedouble))
        snprintf(buf, size, "%s (x86-64-v%g)", at(o, "arch"), level->valuedouble);
    else
        snprintf(buf, size, "%s", at(o, "arch"));
}

static void arch_cell(const cJSON *o, char *buf, size_t size) { arch_of(o, buf, size, 0); }
static void arch_brief_cell(const cJSON *o, char *buf, size_t size) { arch_of(o, buf, size, 1); }

/* "Model (Vendor)". */
static int cpu_name(const cJSON *o, char *buf, size_t size)
{
    const char *model = at(o, "cpu.model"), *vendor = at(o, "cpu.vendor");
    return snprintf(buf, size, "%s%s%s%s", model[0] ? model : "unknown model", vendor[0] ? " (" : "",
                    vendor, vendor[0] ? ")" : "");
}

static void cpu_cell(const cJSON *o, char *buf, size_t size)
{
    if (at(o, "cpu.model")[0] || at(o, "cpu.vendor")[0])
        cpu_name(o, buf, size);
}

static void cpu_brief_cell(const cJSON *o, char *buf, size_t size)
{
    int n = cpu_name(o, buf, size);
    if (n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ", %g logical / %g physical cores",
                 num_at(o, "cpu.logical_cpus"), num_at(o, "cpu.physical_cores"));
}

static void cores_cell(const cJSON *o, char *buf, size_t size)
{
    double logical = num_at(o, "cpu.logical_cpus"), physical = num_at(o, "cpu.physical_cores");
    if (logical > 0 && physical > 0)
        snprintf(buf, size, "%g logical, %g physical", logical, physical);
    else if (logical > 0)
        snprintf(buf, size, "%g logical", logical);
}

static void caches_cell(const cJSON *o, char *buf, size_t size)
{
    static const char *const keys[][2] = {{"l1d", "L1d"}, {"l1i", "L1i"}, {"l2", "L2"}, {"l3", "L3"}};
    const cJSON *cache = cli_view_at(o, "cpu.cache");
    size_t len = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0] && len < size; i++) {
        char human[32];
        double bytes = cli_view_num(cache, keys[i][0]);
        if (!bytes)
            continue;
        ortkit__human_bytes(human, sizeof human, bytes);
        len += (size_t)snprintf(buf + len, size - len, "%s%s %s", len ? ", " : "", keys[i][1], human);
    }
}

static void features_lines(FILE *out, const char *lead, const cJSON *o)
{
    cli_view_wrapped(out, lead, cli_view_at(o, "cpu.features"), "none detected");
}

static void features_brief_lines(FILE *out, const char *lead, const cJSON *o)
{
    cli_view_wrapped(out, lead, cli_view_at(o, "cpu.features"), "none");
}

static void memory_brief_cell(const cJSON *o, char *buf, size_t size)
{
    char total[32], available[32];
    ortkit__human_bytes(total, sizeof total, num_at(o, "memory.total"));
    ortkit__human_bytes(available, sizeof available, num_at(o, "memory.available"));
    snprintf(buf, size, "%s total, %s available", total, available);
}

static void memory_cell(const cJSON *o, char *buf, size_t size)
{
    if (num_at(o, "memory.total"))
        memory_brief_cell(o, buf, size);
}

static void os_cell(const cJSON *o, char *buf, size_t size)
{
    const char *name = at(o, "os.name"), *release = at(o, "os.release"), *distro = at(o, "os.distro");
    const char *glibc = at(o, "os.glibc"), *glibcxx = at(o, "os.glibcxx");
    if (!name[0] && !distro[0])
        return;
    snprintf(buf, size, "%s%s%s%s%s%s%s%s%s", name, release[0] ? " " : "", release,
             (name[0] || release[0]) && distro[0] ? ", " : "", distro, glibc[0] ? ", glibc " : "",
             glibc, glibcxx[0] ? ", libstdc++ GLIBCXX_" : "", glibcxx);
}

static void os_brief_cell(const cJSON *o, char *buf, size_t size)
{
    const char *name = at(o, "os.name"), *distro = at(o, "os.distro"), *glibc = at(o, "os.glibc");
    snprintf(buf, size, "%s %s%s%s%s%s", name[0] ? name : "unknown", at(o, "os.release"),
             distro[0] ? ", " : "", distro, glibc[0] ? ", glibc " : "", glibc);
}

static void nvidia_cell(const cJSON *o, char *buf, size_t size)
{
    const char *driver = at(o, "nvidia.driver"), *cuda = at(o, "nvidia.cuda");
    if (driver[0])
        snprintf(buf, size, "driver %s%s%s", driver, cuda[0] ? ", CUDA " : "", cuda);
    else if (cli_view_at(o, "jetson"))
        snprintf(buf, size, "L4T driver%s%s", cuda[0] ? ", CUDA " : "", cuda);
}

static void nvidia_brief_cell(const cJSON *o, char *buf, size_t size)
{
    const char *driver = at(o, "nvidia.driver"), *cuda = at(o, "nvidia.cuda");
    int jetson = cli_view_at(o, "jetson") != NULL;
    if (driver[0])
        snprintf(buf, size, "driver %s, CUDA %s%s%s", driver, cuda[0] ? cuda : "0.0",
                 jetson ? ", Jetson L4T R" : "", at(o, "jetson.l4t"));
}

/* "sbsa: NVIDIA's SBSA CUDA (...)", on arm64 hosts only: x86-64 takes one
 * CUDA, on arm64 the platform decides which builds run.  The words are the
 * library's, for the host read back from its view. */
static void platform_cell(const cJSON *o, char *buf, size_t size)
{
    char text[192];
    ortkit_host *h = NULL;
    char *json = strcmp(at(o, "arch"), ortkit_arch_name(ORTKIT_ARCH_AARCH64))
                     ? NULL : cJSON_PrintUnformatted(o);
    if (json && ortkit_host_from_json(&h, json) == 0)
        snprintf(buf, size, "%s: %s", ortkit_cuda_platform_name(h->cuda_platform),
                 ortkit_host_platform_text(h, text, sizeof text));
    ortkit_host_free(h);
    free(json);
}

static void jetson_cell(const cJSON *o, char *buf, size_t size)
{
    const char *board = at(o, "jetson.board");
    if (cli_view_at(o, "jetson"))
        snprintf(buf, size, "L4T %s%s%s", at(o, "jetson.l4t"), board[0] ? ", " : "", board);
}

/* "none (why)" when the host has no GPU. */
static int no_gpus(FILE *out, const char *lead, const cJSON *o)
{
    const char *note = at(o, "nvidia.note");
    if (cJSON_GetArraySize(cli_view_at(o, "nvidia.gpus")) > 0)
        return 0;
    fprintf(out, "%snone%s%s%s\n", lead, note[0] ? " (" : "", cli_esc(note), note[0] ? ")" : "");
    return 1;
}

/* Each GPU: on its own line, labelled "gpu N" ("%-12s", `host`), or in
 * brief under one label (doctor); then the driver's note, unless brief. */
static void gpu_lines(FILE *out, const char *lead, const cJSON *o, int brief)
{
    const cJSON *g;
    int i = 0;
    if (no_gpus(out, lead, o))
        return;
    cJSON_ArrayForEach(g, cli_view_at(o, "nvidia.gpus")) {
        char mem[32] = "";
        if (brief || cli_view_num(g, "memory"))
            ortkit__human_bytes(mem, sizeof mem, cli_view_num(g, "memory"));
        if (brief)
            fprintf(out, "  %-10s GPU %d: ", i == 0 ? "gpus" : "", i);
        else
            fprintf(out, "gpu %-8d", i);
        fprintf(out, "%s, SM %s%s%s\n", cli_esc(cli_view_str(g, "name")),
                cli_view_str(g, "compute_capability"), mem[0] ? ", " : "", mem);
        i++;
    }
    if (!brief && at(o, "nvidia.note")[0])
        fprintf(out, "%-12s%s\n", "note", cli_esc(at(o, "nvidia.note")));
}

static void gpus_lines(FILE *out, const char *lead, const cJSON *o) { gpu_lines(out, lead, o, 0); }
static void gpus_brief_lines(FILE *out, const char *lead, const cJSON *o) { gpu_lines(out, lead, o, 1); }

const cli_view_field host_view_fields[] = {
    {"arch", NULL, arch_cell, NULL, NULL},         {"cpu", NULL, cpu_cell, NULL, NULL},
    {"cores", NULL, cores_cell, NULL, NULL},       {"caches", NULL, caches_cell, NULL, NULL},
    {"features", NULL, NULL, features_lines, NULL}, {"memory", NULL, memory_cell, NULL, NULL},
    {"os", NULL, os_cell, NULL, NULL},             {"nvidia", NULL, nvidia_cell, NULL, NULL},
    {"platform", NULL, platform_cell, NULL, NULL}, {"jetson", NULL, jetson_cell, NULL, NULL},
    {"gpus", NULL, NULL, gpus_lines, NULL}};
const size_t host_view_field_count = sizeof host_view_fields / sizeof host_view_fields[0];

const cli_view_field host_view_brief_fields[] = {
    {"arch", NULL, arch_brief_cell, NULL, NULL},   {"cpu", NULL, cpu_brief_cell, NULL, NULL},
    {"features", NULL, NULL, features_brief_lines, NULL}, {"memory", NULL, memory_brief_cell, NULL, NULL},
    {"os", NULL, os_brief_cell, NULL, NULL},       {"nvidia", NULL, nvidia_brief_cell, NULL, NULL},
    {"platform", NULL, platform_cell, NULL, NULL}, {"gpus", NULL, NULL, gpus_brief_lines, NULL}};
const size_t host_view_brief_field_count =
    sizeof host_view_brief_fields / sizeof host_view_brief_fields[0];
