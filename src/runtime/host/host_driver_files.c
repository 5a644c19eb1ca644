/*
 * host_driver_files.c - the NVIDIA driver and GPUs of a described machine,
 * from what its kernel module writes: /proc/driver/nvidia/version ("NVRM
 * version: NVIDIA UNIX Open Kernel Module for aarch64  580.95.05  Release
 * Build ...", older modules "NVIDIA UNIX x86_64 Kernel Module  570.86.15
 * ...") and /proc/driver/nvidia/gpus/<PCI address>/information, one per
 * GPU, whose "Model:" line names it.  NVML answers for the running machine
 * only.  These files give no compute capability and no memory: the compute
 * capability comes from the GPU's name (the table below), the memory stays
 * unknown, and the CUDA the driver runs from its branch (host_cuda.c).
 * On a Jetson of L4T (JetPack 6) the module drives the display only; its
 * GPU is the device tree's (host_gpu.c).
 */
#include "host_cuda.h"
#include "host_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVIDIA_DIR "/proc/driver/nvidia"

/* Compute capabilities by a word of the GPU's name (NVIDIA, "CUDA GPUs -
 * Compute Capability"): "NVIDIA H100 80GB HBM3" is an H100. */
static const struct { const char *word; int major, minor; } gpu_names[] = {
    {"V100", 7, 0},  {"T4", 7, 5},    {"A100", 8, 0},  {"A800", 8, 0},  {"A30", 8, 0},
    {"A10", 8, 6},   {"A10G", 8, 6},  {"A16", 8, 6},   {"A2", 8, 6},    {"A40", 8, 6},
    {"L4", 8, 9},    {"L40", 8, 9},   {"L40S", 8, 9},  {"H100", 9, 0},  {"H20", 9, 0},
    {"H200", 9, 0},  {"H800", 9, 0},  {"GH200", 9, 0}, {"B200", 10, 0}, {"GB200", 10, 0},
    {"B300", 10, 3}, {"GB300", 10, 3}, {"Thor", 11, 0}, {"GB10", 12, 1},
};
/* GeForce "RTX NNxx" by series: 20 Turing, 30 Ampere, 40 Ada, 50 Blackwell. */
static const struct { const char *series; int major, minor; } rtx[] = {
    {"20", 7, 5}, {"30", 8, 6}, {"40", 8, 9}, {"50", 12, 0},
};

/* The compute capability a GPU name says; 0 when the name is not known. */
static int capability_of(const char *name, int *major, int *minor)
{
    char words[96];
    snprintf(words, sizeof words, "%s", name);
    const char *prev = "";
    for (char *save = NULL, *w = strtok_r(words, " -", &save); w; prev = w, w = strtok_r(NULL, " -", &save)) {
        for (size_t i = 0; i < sizeof gpu_names / sizeof gpu_names[0]; i++)
            if (!strcmp(w, gpu_names[i].word)) {
                *major = gpu_names[i].major;
                *minor = gpu_names[i].minor;
                return 1;
            }
        for (size_t i = 0; !strcmp(prev, "RTX") && strlen(w) == 4 && i < sizeof rtx / sizeof rtx[0]; i++)
            if (!strncmp(w, rtx[i].series, 2)) {
                *major = rtx[i].major;
                *minor = rtx[i].minor;
                return 1;
            }
    }
    return 0;
}

/* The version after "Kernel Module" (and "for <arch>"), into out. */
static int driver_version(const char *text, char *out, size_t size)
{
    const char *p = strstr(text, "Kernel Module");
    if (!p)
        return -1;
    p += strlen("Kernel Module");
    p += strspn(p, " \t");
    if (!strncmp(p, "for ", 4)) {
        p += 4;
        p += strcspn(p, " \t\n");
        p += strspn(p, " \t");
    }
    size_t n = strspn(p, "0123456789.");
    if (n == 0 || n >= size || !memchr(p, '.', n) || p[0] == '.' || p[n - 1] == '.')
        return -1;
    snprintf(out, size, "%.*s", (int)n, p);
    return 0;
}

/* One GPU's information file: its "Model:" line. */
static void add_gpu(ortkit__host_data *h, const char *dir, char *unknown, size_t unknown_size)
{
    char path[320], text[2048];
    snprintf(path, sizeof path, NVIDIA_DIR "/gpus/%s/information", dir);
    if (ortkit__host_read_text(path, text, sizeof text) <= 0)
        return;
    const char *model = strstr(text, "Model:");
    if (!model)
        return;
    model += strlen("Model:");
    char name[96];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(model, "\n"), model);
    ortkit__gpu_data *g = &h->gpus[h->gpu_count++];
    ortkit__host_copy_str(g->name, sizeof g->name, ortkit__host_trim(name));
    if (!capability_of(g->name, &g->cc_major, &g->cc_minor) && !unknown[0])
        snprintf(unknown, unknown_size, "%s", g->name);
}

void ortkit__host_detect_nvidia_files(ortkit__host_data *h)
{
    char text[1024];
    int major = 0;
    if (ortkit__host_l4t_release(&major, NULL, NULL) == 0 && major < 38)
        return; /* L4T: the device tree names the GPU */
    if (ortkit__host_read_text(NVIDIA_DIR "/version", text, sizeof text) <= 0) {
        snprintf(h->gpu_note, sizeof h->gpu_note, "no NVIDIA driver: no " NVIDIA_DIR "/version");
        return;
    }
    if (driver_version(text, h->driver_version, sizeof h->driver_version) == 0)
        h->cuda_driver = ortkit__cuda_of_driver(h->driver_version);
    char **dirs = ortkit__host_list_dir(NVIDIA_DIR "/gpus");
    char unknown[96] = "";
    size_t total = 0;
    for (size_t i = 0; dirs && dirs[i]; i++, total++)
        if (h->gpu_count < ORTKIT__HOST_MAX_GPUS)
            add_gpu(h, dirs[i], unknown, sizeof unknown);
    ortkit__host_list_free(dirs);
    if (h->gpu_count == 0)
        snprintf(h->gpu_note, sizeof h->gpu_note, "the NVIDIA driver sees no GPU");
    else if (total > ORTKIT__HOST_MAX_GPUS)
        snprintf(h->gpu_note, sizeof h->gpu_note, "only the first %d of %zu GPUs are listed",
                 ORTKIT__HOST_MAX_GPUS, total);
    else if (unknown[0])
        snprintf(h->gpu_note, sizeof h->gpu_note,
                 "'%.64s' is not in ortkit's table of GPU names: its compute capability is unknown",
                 unknown);
    else
        snprintf(h->gpu_note, sizeof h->gpu_note, "GPUs from " NVIDIA_DIR ": compute capability "
                 "by name, memory unknown");
}
