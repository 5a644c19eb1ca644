/* host_gpu.c - NVIDIA GPUs through NVML (loaded with dlopen, never linked) and Jetson boards. */
#include "host_internal.h"

#include <cjson/cJSON.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *nvml_library = "libnvidia-ml.so.1";
static void *(*nvml_resolver)(const char *symbol);

void ortkit__host_set_nvml_library(const char *path)
{
    nvml_library = path ? path : "libnvidia-ml.so.1";
}

void ortkit__host_set_nvml_resolver(void *(*resolve)(const char *symbol))
{
    nvml_resolver = resolve;
}

/* ---- NVIDIA GPUs through NVML ----------------------------------------------- */

/* The few NVML declarations used (nvml.h is not needed to build ortkit). */
typedef struct nvml_device *nvml_device;
typedef struct {
    unsigned long long total, free, used;
} nvml_memory;

struct nvml {
    int (*init)(void);
    int (*shutdown)(void);
    const char *(*error_string)(int);
    int (*driver_version)(char *, unsigned);
    int (*cuda_version)(int *);
    int (*count)(unsigned *);
    int (*handle)(unsigned, nvml_device *);
    int (*name)(nvml_device, char *, unsigned);
    int (*capability)(nvml_device, int *, int *);
    int (*memory)(nvml_device, nvml_memory *);
};

static void *nvml_sym(void *lib, const char *name)
{
    return nvml_resolver ? nvml_resolver(name) : dlsym(lib, name);
}

static const char *nvml_err(const struct nvml *n, int rc)
{
    const char *s = n->error_string ? n->error_string(rc) : NULL;
    return s ? s : "unknown error";
}

void ortkit__host_detect_nvidia(ortkit__host_data *h)
{
    void *lib = NULL;
    struct nvml n = {0};
    if (!nvml_resolver) {
        lib = dlopen(nvml_library, RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            snprintf(h->gpu_note, sizeof h->gpu_note,
                     "no NVIDIA driver: %s not found", nvml_library);
            return;
        }
    }
    /* Required entry points; the _v2 ones exist since driver 325. */
    static const char *const required[] = {
        "nvmlInit_v2", "nvmlShutdown", "nvmlSystemGetDriverVersion", "nvmlDeviceGetCount_v2",
        "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetName",
        "nvmlDeviceGetCudaComputeCapability", "nvmlDeviceGetMemoryInfo",
    };
    void *syms[sizeof required / sizeof required[0]];
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        if (!(syms[i] = nvml_sym(lib, required[i]))) {
            snprintf(h->gpu_note, sizeof h->gpu_note,
                     "the NVIDIA driver is too old: NVML lacks %s", required[i]);
            goto cleanup;
        }
    }
    n.init = (int (*)(void))syms[0];
    n.shutdown = (int (*)(void))syms[1];
    n.driver_version = (int (*)(char *, unsigned))syms[2];
    n.count = (int (*)(unsigned *))syms[3];
    n.handle = (int (*)(unsigned, nvml_device *))syms[4];
    n.name = (int (*)(nvml_device, char *, unsigned))syms[5];
    n.capability = (int (*)(nvml_device, int *, int *))syms[6];
    n.memory = (int (*)(nvml_device, nvml_memory *))syms[7];
    n.error_string = (const char *(*)(int))nvml_sym(lib, "nvmlErrorString");
    /* _v2 reads libcuda's version; older drivers only have the first one. */
    n.cuda_version = (int (*)(int *))nvml_sym(lib, "nvmlSystemGetCudaDriverVersion_v2");
    if (!n.cuda_version)
        n.cuda_version = (int (*)(int *))nvml_sym(lib, "nvmlSystemGetCudaDriverVersion");

    int rc = n.init();
    if (rc != 0) {
        snprintf(h->gpu_note, sizeof h->gpu_note, "the NVIDIA driver is not usable: %s",
                 nvml_err(&n, rc));
        goto cleanup;
    }
    char version[80] = "";
    if (n.driver_version(version, sizeof version) == 0)
        ortkit__host_copy_str(h->driver_version, sizeof h->driver_version, version);
    int cuda = 0;
    if (n.cuda_version && n.cuda_version(&cuda) == 0 && cuda > 0)
        h->cuda_driver = cuda;
    unsigned count = 0;
    if ((rc = n.count(&count)) != 0) {
        snprintf(h->gpu_note, sizeof h->gpu_note, "NVML cannot count GPUs: %s", nvml_err(&n, rc));
        count = 0;
    } else if (count == 0) {
        snprintf(h->gpu_note, sizeof h->gpu_note, "the NVIDIA driver sees no GPU");
    } else if (count > ORTKIT__HOST_MAX_GPUS) {
        snprintf(h->gpu_note, sizeof h->gpu_note, "only the first %d of %u GPUs are listed",
                 ORTKIT__HOST_MAX_GPUS, count);
        count = ORTKIT__HOST_MAX_GPUS;
    }
    for (unsigned i = 0; i < count; i++) {
        nvml_device dev;
        if (n.handle(i, &dev) != 0)
            continue;
        ortkit__gpu_data *g = &h->gpus[h->gpu_count];
        char name[96] = "";
        if (n.name(dev, name, sizeof name) != 0)
            ortkit__host_copy_str(name, sizeof name, "unknown NVIDIA GPU");
        ortkit__host_copy_str(g->name, sizeof g->name, name);
        if (n.capability(dev, &g->cc_major, &g->cc_minor) != 0)
            g->cc_major = g->cc_minor = 0;
        nvml_memory mem;
        if (n.memory(dev, &mem) == 0)
            g->memory_bytes = mem.total;
        h->gpu_count++;
    }
    n.shutdown();
cleanup:
    if (lib)
        dlclose(lib);
}

/* ---- Jetson ------------------------------------------------------------------ */

/* The CUDA that each L4T release ships with (JetPack release notes): 10.2
 * in R32 (JetPack 4), 11.4 in R34/R35 (5), 12.2 in R36.3 and 12.6 from R36.4
 * (6.0, 6.1), 13.0 in R38 (7.0, 7.1).  The Jetson driver runs that CUDA and
 * older. */
static int l4t_cuda(int major, int minor)
{
    if (major >= 38)
        return 13000;
    if (major >= 36)
        return minor >= 4 ? 12060 : 12020;
    if (major >= 34)
        return 11040;
    if (major >= 32)
        return 10020;
    return 0;
}

/* The CUDA toolkit installed where JetPack puts it: /usr/local/cuda/
 * version.json, {"cuda": {"name": "CUDA SDK", "version": "12.6.68"}, ...};
 * 0 when there is none. */
static int installed_cuda(void)
{
    char text[16384];
    if (ortkit__host_read_text("/usr/local/cuda/version.json", text, sizeof text) <= 0)
        return 0;
    cJSON *root = cJSON_Parse(text);
    const cJSON *cuda = cJSON_GetObjectItemCaseSensitive(root, "cuda");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cuda, "version");
    int major = 0, minor = 0;
    if (!cJSON_IsString(v) || sscanf(v->valuestring, "%d.%d", &major, &minor) != 2 || major < 1 ||
        major > 99 || minor < 0 || minor > 9)
        major = minor = 0;
    cJSON_Delete(root);
    return major * 1000 + minor * 10;
}

int ortkit__host_l4t_release(int *major, int *minor, int *patch)
{
    char buf[1024];
    /* "# R36 (release), REVISION: 4.3, GCID: ..., BOARD: generic, ..." */
    if (ortkit__host_read_text("/etc/nv_tegra_release", buf, sizeof buf) <= 0)
        return -1;
    int a = 0, b = 0, c = 0;
    const char *r = strstr(buf, "R");
    const char *rev = strstr(buf, "REVISION:");
    if (!r || sscanf(r, "R%d", &a) != 1 || !rev || sscanf(rev, "REVISION: %d.%d", &b, &c) < 1)
        return -1;
    if (major)
        *major = a;
    if (minor)
        *minor = b;
    if (patch)
        *patch = c;
    return 0;
}

void ortkit__host_detect_tegra(ortkit__host_data *h)
{
    char buf[1024];
    int major = 0, minor = 0, patch = 0;
    if (ortkit__host_l4t_release(&major, &minor, &patch) != 0)
        return;
    h->tegra = 1;
    snprintf(h->l4t_release, sizeof h->l4t_release, "%d.%d.%d", major, minor, patch);
    if (ortkit__host_read_text("/proc/device-tree/model", buf, sizeof buf) > 0)
        ortkit__host_copy_str(h->board, sizeof h->board, ortkit__host_trim(buf));

    /* From JetPack 7 NVML (or the kernel module's files) names the GPU. */
    if (h->gpu_count > 0)
        return;
    /* Before, NVML does not cover the integrated GPU of a Jetson: name it from
     * the SoC in the device tree ("nvidia,tegra234"), entries separated by
     * NULs (Linux, Documentation/devicetree/bindings/arm/tegra.yaml). */
    static const struct { const char *soc, *gpu; int major, minor; } socs[] = {
        {"nvidia,tegra264", "Thor (integrated)", 11, 0},
        {"nvidia,tegra234", "Orin (integrated)", 8, 7},
        {"nvidia,tegra194", "Xavier (integrated)", 7, 2},
        {"nvidia,tegra186", "TX2 (integrated)", 6, 2},
        {"nvidia,tegra210", "TX1/Nano (integrated)", 5, 3},
    };
    long len = ortkit__host_read_text("/proc/device-tree/compatible", buf, sizeof buf);
    for (long off = 0; len > 0 && off < len; off += (long)strlen(buf + off) + 1) {
        for (size_t i = 0; i < sizeof socs / sizeof socs[0]; i++) {
            if (strcmp(buf + off, socs[i].soc))
                continue;
            ortkit__gpu_data *g = &h->gpus[h->gpu_count++];
            ortkit__host_copy_str(g->name, sizeof g->name, socs[i].gpu);
            g->cc_major = socs[i].major;
            g->cc_minor = socs[i].minor;
            g->memory_bytes = h->mem_total; /* shared with the CPU */
            /* A newer toolkit than L4T's own runs on it through the CUDA
             * upgrade JetPack 5 and later allow (the cuda-compat package). */
            int own = l4t_cuda(major, minor), kit = installed_cuda();
            h->cuda_driver = kit > own ? kit : own;
            if (kit > own)
                snprintf(h->gpu_note, sizeof h->gpu_note, "Jetson: integrated GPU from the device "
                         "tree, CUDA from /usr/local/cuda/version.json");
            else
                snprintf(h->gpu_note, sizeof h->gpu_note, "Jetson: integrated GPU from the device "
                         "tree, CUDA from L4T R%d.%d", major, minor);
            return;
        }
    }
    snprintf(h->gpu_note, sizeof h->gpu_note, "Jetson with an unknown Tegra SoC");
}
