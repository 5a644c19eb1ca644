/* test_host.c - host detection (real and against fake /proc, /sys, /etc and
 * NVML), and host JSON: round trips and strict reading. */
#include "testutil.h"

#include "core.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

#define HOSTS ORTKIT_TEST_SOURCE_DIR "/tests/hosts/"

/* Test hooks of host.c. */
#include "elf_reader.h"
#include "host_cuda.h"
#include "host_internal.h"
#include "host_libs.h"

#include <dlfcn.h>
#include <link.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Each call makes a new host: these free the one before. */
static int detect(ortkit_host **h)
{
    ortkit_host_free(*h);
    return ortkit_host_detect(h);
}

static int load(ortkit_host **h, const char *path)
{
    ortkit_host_free(*h);
    return ortkit_host_load(h, path);
}

static int from_json(ortkit_host **h, const char *json)
{
    ortkit_host_free(*h);
    return ortkit_host_from_json(h, json);
}

/* The host as JSON (defined with the JSON tests below). */
static char *to_json(const ortkit_host *h);

static char tmpdir[] = "/tmp/ortkit_test_host_XXXXXX";

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

static int group_setup(void **state)
{
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int group_teardown(void **state)
{
    return nftw(tmpdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* Each test starts with the real machine. */
static int reset_hooks(void **state)
{
    ortkit__host_set_root(NULL);
    ortkit__host_set_nvml_library(NULL);
    ortkit__host_set_nvml_resolver(NULL);
    return 0;
}

/* Write root/rel (size bytes of data), creating directories. */
static void put_file(const char *root, const char *rel, const char *data, size_t size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    mkdir(root, 0755);
    for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        mkdir(path, 0755);
        *p = '/';
    }
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
}

static void put(const char *root, const char *rel, const char *text)
{
    put_file(root, rel, text, strlen(text));
}

static void test_feature_names(void **state)
{
    for (int f = 0; f < ORTKIT_CPU_FEATURE_COUNT; f++) {
        const char *name = ortkit_cpu_feature_name((ortkit_cpu_feature)f);
        assert_non_null(name);
        assert_non_null(ortkit_cpu_feature_label((ortkit_cpu_feature)f));
        assert_int_equal(ortkit_cpu_feature_from_name(name), f);
        assert_true(ortkit_cpu_feature_arch((ortkit_cpu_feature)f) ==
                    (f >= ORTKIT_CPU_ASIMD ? ORTKIT_ARCH_AARCH64 : ORTKIT_ARCH_X86_64));
    }
    assert_true(ORTKIT_CPU_FEATURE_COUNT <= 64);
    assert_null(ortkit_cpu_feature_name(ORTKIT_CPU_FEATURE_COUNT));
    assert_int_equal(ortkit_cpu_feature_from_name("avx1024"), -1);
    assert_int_equal(ortkit_cpu_feature_from_name(NULL), -1);
    assert_string_equal(ortkit_cpu_feature_label(ORTKIT_CPU_AVX512BF16), "AVX-512 BF16");
    assert_string_equal(ortkit_arch_name(ORTKIT_ARCH_AARCH64), "aarch64");
}

/* The kernel's cpuinfo words also reflect what the OS enables: read as a
 * described machine's, they must give what cpuid + XCR0 (or AT_HWCAP) give. */
static void check_against_cpuinfo(const ortkit_host *h)
{
    /* /proc files report size 0: read until EOF. */
    size_t cap = 1 << 22;
    char *text = malloc(cap);
    assert_non_null(text);
    FILE *f = fopen("/proc/cpuinfo", "r");
    assert_non_null(f);
    text[fread(text, 1, cap - 1, f)] = '\0';
    fclose(f);
    ortkit__host_data d;
    memset(&d, 0, sizeof d);
    ortkit__host_cpuinfo(&d, text);
    assert_int_equal(d.arch, h->arch);
    for (int i = 0; i < ORTKIT_CPU_FEATURE_COUNT; i++) {
        int in_cpuinfo = (d.cpu_features & ORTKIT_CPU_BIT(i)) != 0;
        if (in_cpuinfo != ortkit_host_has(h, (ortkit_cpu_feature)i))
            fail_msg("%s: detection says %d, /proc/cpuinfo says %d",
                     ortkit_cpu_feature_name((ortkit_cpu_feature)i), ortkit_host_has(h, (ortkit_cpu_feature)i),
                     in_cpuinfo);
    }
    free(text);
}

static void test_detect_this_machine(void **state)
{
    ortkit_host *h = NULL;
    assert_int_equal(detect(&h), 0);
    check_against_cpuinfo(h);
#if defined(__x86_64__)
    assert_int_equal(h->arch, ORTKIT_ARCH_X86_64);
    assert_int_equal(h->cuda_platform, ORTKIT_CUDA_PLATFORM_X86_64);
    assert_true(h->x86_64_level >= 1 && h->x86_64_level <= 4);
    assert_true(h->cpu_vendor[0] && h->cpu_model[0]);
    /* Every x86-64 Linux machine ortkit targets has SSE4.2. */
    assert_true(ortkit_host_has(h, ORTKIT_CPU_SSE4_2));
#elif defined(__aarch64__)
    assert_int_equal(h->arch, ORTKIT_ARCH_AARCH64);
    assert_true(ortkit_host_has(h, ORTKIT_CPU_ASIMD));
#endif
    assert_int_equal(h->logical_cpus, (int)sysconf(_SC_NPROCESSORS_ONLN));
    /* Some VMs and containers lack sysfs topology or cache entries. */
    if (access("/sys/devices/system/cpu/cpu0/topology/core_id", R_OK) == 0)
        assert_true(h->physical_cores >= 1 && h->physical_cores <= h->logical_cpus);
    if (access("/sys/devices/system/cpu/cpu0/cache/index0/size", R_OK) == 0)
        assert_true(h->cache_l1d > 0 || h->cache_l1i > 0 || h->cache_l2 > 0);
    assert_true(h->mem_total > 0 && h->mem_available <= h->mem_total);
    assert_string_equal(h->os_name, "Linux");
#if defined(__GLIBC__)
    assert_string_equal(h->glibc, gnu_get_libc_version());
#endif
    /* The C++ library the loader finds: what its version definitions say. */
    void *cxx = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
    if (cxx) {
        struct link_map *map = NULL;
        assert_int_equal(dlinfo(cxx, RTLD_DI_LINKMAP, &map), 0);
        ortkit__elf e;
        assert_int_equal(ortkit__elf_read(&e, map->l_name), 0);
        assert_true(e.def_glibcxx[0]);
        assert_string_equal(h->glibcxx, e.def_glibcxx);
        ortkit__elf_free(&e);
        /* Found the same way while it is loaded in this process. */
        ortkit_host *again = NULL;
        assert_int_equal(detect(&again), 0);
        assert_string_equal(again->glibcxx, h->glibcxx);
        ortkit_host_free(again);
        dlclose(cxx);
    }
    /* No driver is an answer with a reason, not an error. */
    if (h->gpu_count == 0 && !h->tegra)
        assert_true(h->gpu_note[0] != '\0');
    ortkit_host_free(h);
    assert_int_equal(ortkit_host_detect(NULL), ORTKIT_E_INVALID_ARG);
}

static void test_no_driver(void **state)
{
    ortkit__host_set_nvml_library("/nonexistent/libnvidia-ml.so.1");
    ortkit_host *h = NULL;
    assert_int_equal(detect(&h), 0);
    assert_int_equal(h->gpu_count, 0);
    assert_string_equal(h->driver_version, "");
    assert_string_equal(h->gpu_note, "no NVIDIA driver: /nonexistent/libnvidia-ml.so.1 not found");
    ortkit_host_free(h);
}

/* ---- a fake NVML ---- */

typedef struct fake_device *fake_device;
typedef struct {
    unsigned long long total, free, used;
} fake_memory;

static struct {
    int init_rc;
    unsigned count;
    int have_v2;
    int shutdowns;
} nvml;

static struct fake_device {
    const char *name;
    int major, minor;
    unsigned long long memory;
} devices[] = {
    {"NVIDIA H100 80GB HBM3", 9, 0, 85520809984ull},
    {"NVIDIA A100-SXM4-40GB", 8, 0, 42949672960ull},
};

static int fake_init(void) { return nvml.init_rc; }
static int fake_shutdown(void) { nvml.shutdowns++; return 0; }
static const char *fake_error_string(int rc) { return rc == 9 ? "Driver Not Loaded" : "Unknown Error"; }
static int fake_driver_version(char *buf, unsigned len)
{
    snprintf(buf, len, "570.124.06");
    return 0;
}
static int fake_cuda_v2(int *v) { *v = 12080; return 0; }
static int fake_cuda_v1(int *v) { *v = 12020; return 0; }
static int fake_count(unsigned *n) { *n = nvml.count; return 0; }
static int fake_handle(unsigned i, fake_device *dev)
{
    *dev = &devices[i % N(devices)];
    return 0;
}
static int fake_name(fake_device dev, char *buf, unsigned len)
{
    snprintf(buf, len, "%s", dev->name);
    return 0;
}
static int fake_capability(fake_device dev, int *major, int *minor)
{
    *major = dev->major;
    *minor = dev->minor;
    return 0;
}
static int fake_memory_info(fake_device dev, fake_memory *m)
{
    m->total = dev->memory;
    m->free = dev->memory / 2;
    m->used = dev->memory - m->free;
    return 0;
}

static void *fake_resolve(const char *symbol)
{
    static const struct { const char *name; void *fn; } syms[] = {
        {"nvmlInit_v2", (void *)fake_init},
        {"nvmlShutdown", (void *)fake_shutdown},
        {"nvmlErrorString", (void *)fake_error_string},
        {"nvmlSystemGetDriverVersion", (void *)fake_driver_version},
        {"nvmlSystemGetCudaDriverVersion", (void *)fake_cuda_v1},
        {"nvmlDeviceGetCount_v2", (void *)fake_count},
        {"nvmlDeviceGetHandleByIndex_v2", (void *)fake_handle},
        {"nvmlDeviceGetName", (void *)fake_name},
        {"nvmlDeviceGetCudaComputeCapability", (void *)fake_capability},
        {"nvmlDeviceGetMemoryInfo", (void *)fake_memory_info},
    };
    if (!strcmp(symbol, "nvmlSystemGetCudaDriverVersion_v2"))
        return nvml.have_v2 ? (void *)fake_cuda_v2 : NULL;
    for (size_t i = 0; i < N(syms); i++)
        if (!strcmp(symbol, syms[i].name))
            return syms[i].fn;
    return NULL;
}

static void *old_resolve(const char *symbol)
{
    return strcmp(symbol, "nvmlDeviceGetCount_v2") ? fake_resolve(symbol) : NULL;
}

static void test_nvml(void **state)
{
    ortkit_host *h = NULL;
    ortkit__host_set_nvml_resolver(fake_resolve);

    nvml.init_rc = 0, nvml.count = 2, nvml.have_v2 = 1, nvml.shutdowns = 0;
    assert_int_equal(detect(&h), 0);
    assert_string_equal(h->driver_version, "570.124.06");
    assert_int_equal(h->cuda_driver, 12080);
    assert_int_equal(h->gpu_count, 2);
    assert_string_equal(h->gpus[0]->name, "NVIDIA H100 80GB HBM3");
    assert_int_equal(h->gpus[0]->cc_major, 9);
    assert_int_equal(h->gpus[0]->cc_minor, 0);
    assert_int_equal(h->gpus[0]->memory_bytes, 85520809984ull);
    assert_string_equal(h->gpus[1]->name, "NVIDIA A100-SXM4-40GB");
    assert_int_equal(h->gpus[1]->cc_major, 8);
    assert_string_equal(h->gpu_note, "");
    assert_int_equal(nvml.shutdowns, 1);

    /* Older drivers: the CUDA version from the first entry point. */
    nvml.have_v2 = 0;
    assert_int_equal(detect(&h), 0);
    assert_int_equal(h->cuda_driver, 12020);

    nvml.count = 0;
    assert_int_equal(detect(&h), 0);
    assert_int_equal(h->gpu_count, 0);
    assert_string_equal(h->gpu_note, "the NVIDIA driver sees no GPU");

    nvml.count = 20;
    assert_int_equal(detect(&h), 0);
    assert_int_equal(h->gpu_count, ORTKIT__HOST_MAX_GPUS);
    assert_string_equal(h->gpu_note, "only the first 16 of 20 GPUs are listed");

    nvml.init_rc = 9, nvml.shutdowns = 0;
    assert_int_equal(detect(&h), 0);
    assert_int_equal(h->gpu_count, 0);
    assert_string_equal(h->driver_version, "");
    assert_string_equal(h->gpu_note, "the NVIDIA driver is not usable: Driver Not Loaded");
    assert_int_equal(nvml.shutdowns, 0);

    ortkit__host_set_nvml_resolver(old_resolve);
    nvml.init_rc = 0;
    assert_int_equal(detect(&h), 0);
    assert_int_equal(h->gpu_count, 0);
    assert_string_equal(h->gpu_note, "the NVIDIA driver is too old: NVML lacks nvmlDeviceGetCount_v2");
    ortkit_host_free(h);
}

/* A Jetson AGX Orin as its files describe it. */
static void make_jetson_root(const char *root)
{
    put(root, "proc/meminfo",
        "MemTotal:       64335836 kB\nMemFree:        50000000 kB\n"
        "MemAvailable:   58123456 kB\nBuffers:          123456 kB\n");
    put(root, "sys/devices/system/cpu/online", "0-3,6\n");
    static const int core[] = {0, 0, 1, 1, -1, -1, 0};
    static const int pkg[] = {0, 0, 0, 0, -1, -1, 1};
    for (int cpu = 0; cpu < 7; cpu++) {
        char rel[128], val[16];
        if (core[cpu] < 0)
            continue;
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
        snprintf(val, sizeof val, "%d\n", core[cpu]);
        put(root, rel, val);
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
        snprintf(val, sizeof val, "%d\n", pkg[cpu]);
        put(root, rel, val);
    }
    static const char *const caches[][3] = {
        {"1", "Data", "64K"}, {"1", "Instruction", "64K"}, {"2", "Unified", "256K"},
        {"3", "Unified", "2048K"}};
    for (int i = 0; i < 4; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        put(root, rel, caches[i][0]);
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        put(root, rel, caches[i][1]);
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        put(root, rel, caches[i][2]);
    }
    put(root, "etc/os-release",
        "NAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\nPRETTY_NAME=\"Ubuntu 22.04.5 LTS\"\nID=ubuntu\n");
    put(root, "etc/nv_tegra_release",
        "# R36 (release), REVISION: 4.3, GCID: 38968081, BOARD: generic, EABI: aarch64, "
        "DATE: Wed Jan  8 01:49:37 UTC 2025\n# KERNEL_VARIANT: oot\n");
    put_file(root, "proc/device-tree/model", "NVIDIA Jetson AGX Orin Developer Kit",
             sizeof "NVIDIA Jetson AGX Orin Developer Kit");
    static const char compatible[] = "nvidia,p3737-0000+p3701-0005\0nvidia,p3701-0005\0nvidia,tegra234";
    put_file(root, "proc/device-tree/compatible", compatible, sizeof compatible);
    put(root, "proc/cpuinfo",
        "processor\t: 0\nBogoMIPS\t: 62.50\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 "
        "atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp uscat ilrcpc flagm paca pacg\n"
        "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd42\n"
        "CPU revision\t: 1\n\n");
}

/* Issue 36: a 4 KB online list of 511 ranges "0-65535" counted 33.5 M CPUs
 * and took 37 s: the whole list is bounded, each CPU counted once. */
static void test_online_list_is_bounded(void **state)
{
    (void)state;
    char root[512], *list = malloc(4096);
    assert_non_null(list);
    snprintf(root, sizeof root, "%s/many", tmpdir);
    size_t n = 0;
    for (int i = 0; i < 511; i++)
        n += (size_t)snprintf(list + n, 4096 - n, "0-65535,");
    put(root, "sys/devices/system/cpu/online", list);
    put(root, "sys/devices/system/cpu/cpu0/topology/core_id", "0\n");
    put(root, "sys/devices/system/cpu/cpu8191/topology/core_id", "1\n");
    ortkit__host_set_root(root);
    ortkit__host_set_nvml_library("/nonexistent/libnvidia-ml.so.1");
    ortkit_host *h = NULL;
    double t0 = ortkit__clock_now();
    assert_int_equal(detect(&h), 0);
    double took = ortkit__clock_now() - t0;
    assert_int_equal(h->logical_cpus, 8192);
    assert_int_equal(h->physical_cores, 2);
    if (took > 2.0)
        fail_msg("detection took %.1f s", took);
    /* Ranges given twice or in any order count once; numbers past the
     * kernel's most are passed over. */
    put(root, "sys/devices/system/cpu/online", "4-7,0-5,6,100000-100003\n");
    assert_int_equal(detect(&h), 0);
    assert_int_equal(h->logical_cpus, 8);
    ortkit_host_free(h);
    ortkit__host_set_root(NULL);
    free(list);
}

static void test_detect_fake_root(void **state)
{
    char root[512];
    snprintf(root, sizeof root, "%s/jetson", tmpdir);
    make_jetson_root(root);
    ortkit__host_set_root(root);
    ortkit__host_set_nvml_library("/nonexistent/libnvidia-ml.so.1");

    ortkit_host *h = NULL;
    assert_int_equal(detect(&h), 0);
    assert_int_equal(h->mem_total, 64335836ull * 1024);
    assert_int_equal(h->mem_available, 58123456ull * 1024);
    assert_int_equal(h->logical_cpus, 5);
    assert_int_equal(h->physical_cores, 3); /* (0,0) (0,1) (1,0) */
    assert_int_equal(h->cache_l1d, 64 * 1024);
    assert_int_equal(h->cache_l1i, 64 * 1024);
    assert_int_equal(h->cache_l2, 256 * 1024);
    assert_int_equal(h->cache_l3, 2 * 1024 * 1024);
    assert_string_equal(h->os_distro, "Ubuntu 22.04.5 LTS");
    assert_int_equal(h->tegra, 1);
    assert_string_equal(h->l4t_release, "36.4.3");
    assert_string_equal(h->board, "NVIDIA Jetson AGX Orin Developer Kit");
    assert_int_equal(h->gpu_count, 1);
    assert_string_equal(h->gpus[0]->name, "Orin (integrated)");
    assert_int_equal(h->gpus[0]->cc_major, 8);
    assert_int_equal(h->gpus[0]->cc_minor, 7);
    assert_int_equal(h->gpus[0]->memory_bytes, h->mem_total);
    assert_int_equal(h->cuda_driver, 12060);
    /* The CPU from the tree's /proc/cpuinfo, not this machine's cpuid. */
    assert_int_equal(h->arch, ORTKIT_ARCH_AARCH64);
    assert_string_equal(h->cpu_model, "Cortex-A78AE");
    assert_int_equal(h->cpu_features, ORTKIT_CPU_BIT(ORTKIT_CPU_ASIMD) | ORTKIT_CPU_BIT(ORTKIT_CPU_FP16) |
                                          ORTKIT_CPU_BIT(ORTKIT_CPU_DOTPROD));
    assert_int_equal(h->cuda_platform, ORTKIT_CUDA_PLATFORM_L4T);
    assert_int_equal(h->libraries_known, 0);

    /* A toolkit newer than L4T's own, installed: what the Jetson runs. */
    put(root, "usr/local/cuda/version.json",
        "{\"cuda\": {\"name\": \"CUDA SDK\", \"version\": \"12.8.93\"}}");
    assert_int_equal(detect(&h), 0);
    assert_int_equal(h->cuda_driver, 12080);
    assert_string_equal(h->gpu_note, "Jetson: integrated GPU from the device tree, CUDA from "
                                     "/usr/local/cuda/version.json");
    /* An older or unreadable one changes nothing. */
    put(root, "usr/local/cuda/version.json", "{\"cuda\": {\"version\": \"12.2.140\"}}");
    assert_int_equal(detect(&h), 0);
    assert_int_equal(h->cuda_driver, 12060);
    put(root, "usr/local/cuda/version.json", "{\"cuda\": \"12.9\"}");
    assert_int_equal(detect(&h), 0);
    assert_int_equal(h->cuda_driver, 12060);

    /* JetPack 6's display driver (OpenRM) is no GPU's: the device tree still names it. */
    put(root, "proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  "
        "540.4.0  Release Build  (buildbrain@mobile-u64-6336-d8000)  Tue Jan  7 17:35:12 PST 2025\n");
    assert_int_equal(detect(&h), 0);
    assert_string_equal(h->driver_version, "");
    assert_string_equal(h->gpus[0]->name, "Orin (integrated)");

    /* JetPack 7 (L4T R38) is SBSA's CUDA 13, on the same kind of board. */
    put(root, "etc/nv_tegra_release", "# R38 (release), REVISION: 2.0, GCID: 41844464, BOARD: generic\n");
    assert_int_equal(detect(&h), 0);
    assert_int_equal(h->tegra, 1);
    assert_int_equal(h->cuda_platform, ORTKIT_CUDA_PLATFORM_SBSA);
    assert_int_equal(h->cuda_driver, 13000);

    /* JetPack 6.0 shipped CUDA 12.2. */
    put(root, "etc/nv_tegra_release", "# R36 (release), REVISION: 3.0, GCID: 36191598\n");
    assert_int_equal(detect(&h), 0);
    assert_string_equal(h->l4t_release, "36.3.0");
    assert_int_equal(h->cuda_driver, 12020);

    /* An empty root: nothing to read is no error, only empty fields. */
    snprintf(root, sizeof root, "%s/empty", tmpdir);
    mkdir(root, 0755);
    ortkit__host_set_root(root);
    assert_int_equal(detect(&h), 0);
    assert_int_equal(h->tegra, 0);
    assert_int_equal(h->mem_total, 0);
    assert_int_equal(h->logical_cpus, 0);
    assert_string_equal(h->os_distro, "");
    assert_int_equal(h->gpu_count, 0);
    ortkit_host_free(h);
}

/* The machines described as file trees in tests/hosts/root: what detection
 * reads from each, and the host file it matches. */
static void test_detect_trees(void **state)
{
    static const struct {
        const char *tree, *json, *gpu, *cuda_note;
        ortkit_cuda_platform platform;
        int tegra, cc_major, cc_minor, cuda;
    } trees[] = {
        {"orin-jp6", NULL, "Orin (integrated)", "CUDA from L4T R36.4", ORTKIT_CUDA_PLATFORM_L4T, 1, 8, 7,
         12060},
        {"thor-jp7", "jetson-thor", "Thor (integrated)", "CUDA from L4T R38.2", ORTKIT_CUDA_PLATFORM_SBSA,
         1, 11, 0, 13000},
        {"grace-gh200", "grace-gh200", "NVIDIA GH200 480GB", "compute capability by name",
         ORTKIT_CUDA_PLATFORM_SBSA, 0, 9, 0, 13000},
    };
    for (size_t i = 0; i < N(trees); i++) {
        char root[512];
        snprintf(root, sizeof root, HOSTS "root/%s", trees[i].tree);
        ortkit_host *h = NULL;
        if (ortkit_host_detect_root(&h, root) != 0)
            fail_msg("%s: %s", root, ortkit_error_last());
        assert_int_equal(h->arch, ORTKIT_ARCH_AARCH64);
        assert_int_equal(h->cuda_platform, trees[i].platform);
        assert_int_equal(h->tegra, trees[i].tegra);
        assert_int_equal(h->gpu_count, 1);
        assert_string_equal(h->gpus[0]->name, trees[i].gpu);
        assert_int_equal(h->gpus[0]->cc_major, trees[i].cc_major);
        assert_int_equal(h->gpus[0]->cc_minor, trees[i].cc_minor);
        assert_int_equal(h->cuda_driver, trees[i].cuda);
        assert_non_null(strstr(h->gpu_note, trees[i].cuda_note));
        assert_string_equal(h->glibc, ""); /* no libc.so.6 in the trees */
        assert_int_equal(h->libraries_known, 0);
        if (trees[i].json) {
            char path[512];
            ortkit_host *described = NULL;
            snprintf(path, sizeof path, HOSTS "%s.json", trees[i].json);
            assert_int_equal(load(&described, path), 0);
            char *a = to_json(h), *b = to_json(described);
            assert_string_equal(a, b);
            ortkit_free(a);
            ortkit_free(b);
            ortkit_host_free(described);
        }
        ortkit_host_free(h);
    }
}

/* A server's driver and GPUs from its kernel module's files. */
static void test_driver_files(void **state)
{
    char root[512];
    snprintf(root, sizeof root, "%s/server", tmpdir);
    put(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) "
                              "Platinum 8480+\nflags\t\t: fpu sse2 pni ssse3 sse4_1 sse4_2 popcnt cx16 "
                              "lahf_lm avx avx2 fma\n\n");
    put(root, "proc/driver/nvidia/version",
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15  Wed Jan 22 2025\n"
        "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n");
    static const struct { const char *bus, *model; int major, minor; } gpus[] = {
        {"0000:01:00.0", "NVIDIA H100 80GB HBM3", 9, 0},
        {"0000:02:00.0", "NVIDIA A100-SXM4-40GB", 8, 0},
        {"0000:03:00.0", "Tesla T4", 7, 5},
        {"0000:04:00.0", "NVIDIA GeForce RTX 5090", 12, 0},
        {"0000:05:00.0", "NVIDIA A10G", 8, 6},
        {"0000:06:00.0", "NVIDIA L40S", 8, 9},
        {"0000:07:00.0", "NVIDIA B200", 10, 0},
    };
    for (size_t i = 0; i < N(gpus); i++) {
        char rel[128], text[256];
        snprintf(rel, sizeof rel, "proc/driver/nvidia/gpus/%s/information", gpus[i].bus);
        snprintf(text, sizeof text, "Model: \t\t %s\nIRQ:   \t\t 42\nBus Location: \t %s\n"
                 "Device Minor: \t %zu\nGPU Excluded:\t No\n", gpus[i].model, gpus[i].bus, i);
        put(root, rel, text);
    }
    ortkit_host *h = NULL;
    assert_int_equal(ortkit_host_detect_root(&h, root), 0);
    assert_int_equal(h->arch, ORTKIT_ARCH_X86_64);
    assert_int_equal(h->cuda_platform, ORTKIT_CUDA_PLATFORM_X86_64);
    assert_string_equal(h->cpu_model, "Intel(R) Xeon(R) Platinum 8480+");
    assert_true(ortkit_host_has(h, ORTKIT_CPU_AVX2) && ortkit_host_has(h, ORTKIT_CPU_SSE3));
    assert_false(ortkit_host_has(h, ORTKIT_CPU_AVX512F));
    assert_string_equal(h->driver_version, "570.86.15");
    assert_int_equal(h->cuda_driver, 12080);
    assert_int_equal(h->gpu_count, N(gpus));
    for (size_t i = 0; i < N(gpus); i++) {
        assert_string_equal(h->gpus[i]->name, gpus[i].model);
        assert_int_equal(h->gpus[i]->cc_major, gpus[i].major);
        assert_int_equal(h->gpus[i]->cc_minor, gpus[i].minor);
        assert_int_equal(h->gpus[i]->memory_bytes, 0);
    }
    assert_string_equal(h->gpu_note, "GPUs from /proc/driver/nvidia: compute capability by name, "
                                     "memory unknown");

    /* A name ortkit does not know is said; Jetson Thor's driver runs 13.0 at 580.00. */
    put(root, "proc/driver/nvidia/gpus/0000:08:00.0/information", "Model: \t\t NVIDIA Quadro Future\n");
    put(root, "proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  "
        "580.00  Release Build\n");
    ortkit_host_free(h);
    assert_int_equal(ortkit_host_detect_root(&h, root), 0);
    assert_int_equal(h->cuda_driver, 13000);
    assert_int_equal(h->gpus[7]->cc_major, 0);
    assert_string_equal(h->gpu_note, "'NVIDIA Quadro Future' is not in ortkit's table of GPU names: "
                                     "its compute capability is unknown");

    /* A driver without GPUs, and none at all. */
    snprintf(root, sizeof root, "%s/nogpu", tmpdir);
    put(root, "proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
        "575.57.08  Release Build  (dvs-builder@U16)  Tue May 20 2025\n");
    ortkit_host_free(h);
    assert_int_equal(ortkit_host_detect_root(&h, root), 0);
    assert_string_equal(h->driver_version, "575.57.08");
    assert_int_equal(h->cuda_driver, 12090);
    assert_string_equal(h->gpu_note, "the NVIDIA driver sees no GPU");
    snprintf(root, sizeof root, "%s/nodriver", tmpdir);
    put(root, "etc/os-release", "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n");
    ortkit_host_free(h);
    assert_int_equal(ortkit_host_detect_root(&h, root), 0);
    assert_string_equal(h->gpu_note, "no NVIDIA driver: no /proc/driver/nvidia/version");
    assert_int_equal(h->arch, ORTKIT_ARCH_UNKNOWN); /* no /proc/cpuinfo */

    /* What a driver branch runs. */
    assert_int_equal(ortkit__cuda_of_driver("525.147.05"), 12000);
    assert_int_equal(ortkit__cuda_of_driver("550.54.15"), 12040);
    assert_int_equal(ortkit__cuda_of_driver("580.65.06"), 13000);
    assert_int_equal(ortkit__cuda_of_driver("590.44.01"), 13000);
    assert_int_equal(ortkit__cuda_of_driver("515.65.01"), 0);
    assert_int_equal(ortkit__cuda_of_driver("latest"), 0);
    assert_int_equal(ortkit__cuda_of_driver(NULL), 0);
    ortkit_host_free(h);
}

/* Reading a tree takes nothing from this machine but what it is asked to;
 * "/" read as a tree is this machine's files. */
static void test_detect_root(void **state)
{
    ortkit_host *h = NULL, *here = NULL;
    assert_int_equal(ortkit_host_detect_root(&h, "/nonexistent/tree"), ORTKIT_E_IO);
    assert_null(h);
    assert_error_has("cannot read the machine described in '/nonexistent/tree': No such file");
    assert_int_equal(ortkit_host_detect_root(&h, "/etc/os-release"), ORTKIT_E_IO);
    assert_error_has("'/etc/os-release': not a directory");
    assert_int_equal(ortkit_host_detect_root(&h, ""), ORTKIT_E_IO);
    assert_error_has("the path is empty");
    assert_int_equal(ortkit_host_detect_root(NULL, "/"), ORTKIT_E_INVALID_ARG);

    assert_int_equal(ortkit_host_detect_root(&h, "/"), 0);
    assert_int_equal(detect(&here), 0);
    assert_int_equal(h->arch, here->arch);
    assert_int_equal(h->cpu_features, here->cpu_features);
    assert_int_equal(h->logical_cpus, here->logical_cpus);
    assert_string_equal(h->os_release, here->os_release);
    assert_string_equal(h->glibc, here->glibc);
    assert_int_equal(h->libraries_known, 0);
    ortkit_host_free(h);

    /* A test's root of this thread is put back after. */
    char root[512];
    snprintf(root, sizeof root, "%s/jetson", tmpdir);
    make_jetson_root(root);
    ortkit__host_set_root(root);
    h = NULL;
    assert_int_equal(ortkit_host_detect_root(&h, HOSTS "root/grace-gh200"), 0);
    assert_int_equal(h->tegra, 0);
    assert_int_equal(detect(&here), 0);
    assert_int_equal(here->tegra, 1);
    ortkit_host_free(h);
    ortkit_host_free(here);
}

static void test_platform_names(void **state)
{
    static const char *const names[] = {"unknown", "x86_64", "sbsa", "l4t"};
    for (int p = 0; p < 4; p++) {
        assert_string_equal(ortkit_cuda_platform_name((ortkit_cuda_platform)p), names[p]);
        assert_int_equal(ortkit_cuda_platform_from_name(names[p]), p ? p : -1);
    }
    assert_string_equal(ortkit_cuda_platform_name((ortkit_cuda_platform)9), "unknown");
    assert_int_equal(ortkit_cuda_platform_from_name("jetson"), -1);
    assert_int_equal(ortkit_cuda_platform_from_name(NULL), -1);
    assert_string_equal(ortkit_cuda_platform_label(ORTKIT_CUDA_PLATFORM_L4T), "Jetson's L4T CUDA");
    assert_int_equal(ortkit__jetpack_of_l4t("32.7.1"), 4);
    assert_int_equal(ortkit__jetpack_of_l4t("35.4.1"), 5);
    assert_int_equal(ortkit__jetpack_of_l4t("36.4.3"), 6);
    assert_int_equal(ortkit__jetpack_of_l4t("38.2.0"), 7);
    assert_int_equal(ortkit__jetpack_of_l4t("40.0"), 0);

    char buf[160];
    ortkit_host *h = NULL;
    assert_int_equal(load(&h, HOSTS "jetson-orin.json"), 0);
    assert_string_equal(ortkit_host_platform_text(h, buf, sizeof buf),
                        "Jetson's L4T CUDA (JetPack 6, L4T R36.4.3)");
    h->l4t_release = "40.1.0";
    h->cuda_platform = ORTKIT_CUDA_PLATFORM_UNKNOWN; /* then the release decides */
    assert_string_equal(ortkit_host_platform_text(h, buf, sizeof buf),
                        "NVIDIA's SBSA CUDA (a Jetson on L4T R40.1.0)");
    assert_string_equal(ortkit_host_platform_text(h, buf, 8), "");
    assert_int_equal(load(&h, HOSTS "h100-server.json"), 0);
    assert_string_equal(ortkit_host_platform_text(h, buf, sizeof buf), "NVIDIA's x86_64 CUDA");
    assert_int_equal(load(&h, HOSTS "graviton3.json"), 0);
    assert_string_equal(ortkit_host_platform_text(h, buf, sizeof buf),
                        "NVIDIA's SBSA CUDA (arm64, not a Jetson)");
    /* A description written before the key: what the rest says. */
    assert_int_equal(from_json(&h, "{\"arch\": \"aarch64\", \"jetson\": {\"l4t\": \"38.2.0\"}}"), 0);
    assert_int_equal(h->cuda_platform, ORTKIT_CUDA_PLATFORM_SBSA);
    assert_int_equal(from_json(&h, "{\"arch\": \"aarch64\", \"jetson\": {\"l4t\": \"36.4.3\"}}"), 0);
    assert_int_equal(h->cuda_platform, ORTKIT_CUDA_PLATFORM_L4T);
    assert_int_equal(from_json(&h, "{\"arch\": \"x86_64\"}"), 0);
    assert_int_equal(h->cuda_platform, ORTKIT_CUDA_PLATFORM_X86_64);
    ortkit_host_free(h);
}

static void test_arm_cpu_name(void **state)
{
    char vendor[32], model[64];
    const char graviton3[] = "processor\t: 0\nBogoMIPS\t: 2100.00\n"
                             "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics "
                             "fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop sha3 sm3 sm4 "
                             "asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs paca pacg "
                             "dcpodp svei8mm svebf16 i8mm bf16 dgh rng\n"
                             "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x1\n"
                             "CPU part\t: 0xd40\nCPU revision\t: 1\n";
    assert_int_equal(ortkit__host_arm_cpu_name(graviton3, vendor, sizeof vendor, model,
                                               sizeof model), 0);
    assert_string_equal(vendor, "ARM");
    assert_string_equal(model, "Neoverse-V1");
    assert_int_equal(ortkit__host_arm_cpu_name("CPU implementer\t: 0x99\nCPU part\t: 0x123\n",
                                               vendor, sizeof vendor, model, sizeof model), 0);
    assert_string_equal(vendor, "implementer 0x99");
    assert_string_equal(model, "part 0x123");
    /* qemu-aarch64 -cpu max, as qemu 10's /proc/cpuinfo says it. */
    assert_int_equal(ortkit__host_arm_cpu_name("CPU implementer\t: 0x00\nCPU architecture: 8\n"
                                               "CPU variant\t: 0x0\nCPU part\t: 0x051\n",
                                               vendor, sizeof vendor, model, sizeof model), 0);
    assert_string_equal(vendor, "QEMU");
    assert_string_equal(model, "max");
    assert_int_equal(ortkit__host_arm_cpu_name("model name\t: Intel\n", vendor, sizeof vendor,
                                               model, sizeof model), -1);
}

/* ---- JSON ---- */

static char *to_json(const ortkit_host *h)
{
    char *s = NULL;
    if (ortkit_host_to_json(h, &s) != 0)
        fail_msg("to_json: %s", ortkit_error_last());
    return s;
}

static void round_trip(const ortkit_host *h)
{
    char *a = to_json(h);
    ortkit_host *back = NULL;
    if (ortkit_host_from_json(&back, a) != 0)
        fail_msg("from_json: %s\n%s", ortkit_error_last(), a);
    char *b = to_json(back);
    assert_string_equal(a, b);
    assert_int_equal(back->cpu_features, h->cpu_features);
    assert_int_equal(back->gpu_count, h->gpu_count);
    assert_int_equal(back->x86_64_level, h->x86_64_level);
    ortkit_host_free(back);
    ortkit_free(a);
    ortkit_free(b);
}

static void test_json_round_trip(void **state)
{
    static const char *const files[] = {"h100-server", "graviton3", "laptop-avx2",
                                        "jetson-orin", "old-driver-3090", "sapphire-rapids",
                                        "rtx5090", "t4", "jetson-thor", "grace-gh200"};
    for (size_t i = 0; i < N(files); i++) {
        char path[512];
        ortkit_host *h = NULL;
        snprintf(path, sizeof path, "%s%s.json", HOSTS, files[i]);
        if (load(&h, path) != 0)
            fail_msg("%s", ortkit_error_last());
        round_trip(h);
        ortkit_host_free(h);
    }
    ortkit_host *h = NULL;
    assert_int_equal(detect(&h), 0);
    round_trip(h);

    /* What the files say, read back. */
    assert_int_equal(load(&h, HOSTS "h100-server.json"), 0);
    assert_int_equal(h->arch, ORTKIT_ARCH_X86_64);
    assert_int_equal(h->x86_64_level, 4);
    assert_int_equal(h->cuda_driver, 12080);
    assert_int_equal(h->gpu_count, 2);
    assert_int_equal(h->gpus[1]->cc_major, 9);
    assert_true(ortkit_host_has(h, ORTKIT_CPU_AVX512VNNI));
    assert_false(ortkit_host_has(h, ORTKIT_CPU_AVX512BF16));
    assert_int_equal(load(&h, HOSTS "jetson-orin.json"), 0);
    assert_int_equal(h->tegra, 1);
    assert_string_equal(h->l4t_release, "36.4.3");
    assert_int_equal(h->x86_64_level, 0);

    /* A minimal description; the psABI level follows from the features. */
    assert_int_equal(from_json(&h, "{\"arch\": \"x86_64\", \"cpu\": {\"features\": "
                                               "[\"sse3\", \"ssse3\", \"sse4.1\", \"sse4.2\", "
                                               "\"popcnt\", \"cx16\", \"lahf\"]}}"), 0);
    assert_int_equal(h->x86_64_level, 2);
    assert_int_equal(from_json(&h, "{\"arch\": \"arm64\"}"), 0);
    assert_int_equal(h->arch, ORTKIT_ARCH_AARCH64);
    assert_string_equal(h->glibcxx, ""); /* an older description, without the C++ library */
    assert_int_equal(from_json(&h, "{\"arch\": \"x86_64\", \"os\": {\"glibc\": \"2.41\", "
                                   "\"glibcxx\": \"3.4.33\"}}"), 0);
    assert_string_equal(h->glibc, "2.41");
    assert_string_equal(h->glibcxx, "3.4.33");
    assert_int_equal(h->gpu_count, 0);
    assert_int_equal(from_json(&h, "{\"arch\": \"x86_64\", \"os\": {\"glibcxx\": 3.4}}"), ORTKIT_E_FORMAT);
    assert_error_has("glibcxx");
    ortkit_host_free(h);
}

/* Nesting past what cJSON reads is named as such, not as a syntax error. */
static void test_json_too_deep(void **state)
{
    (void)state;
    size_t n = 100000;
    char *deep = malloc(2 * n + 1);
    assert_non_null(deep);
    memset(deep, '[', n);
    memset(deep + n, ']', n);
    deep[2 * n] = '\0';
    ortkit_host *h = NULL;
    assert_int_equal(from_json(&h, deep), ORTKIT_E_FORMAT);
    assert_null(h);
    assert_error_has("host JSON: arrays and objects nest deeper than 1000 levels, the most ortkit "
                     "reads (at line 1, column 1001)");
    /* Deep inside a member, after a newline. */
    static const char head[] = "{\"arch\": \"x86_64\",\n \"cpu\": ";
    memcpy(deep, head, sizeof head - 1);
    assert_int_equal(from_json(&h, deep), ORTKIT_E_FORMAT);
    assert_error_has("nest deeper than 1000 levels");
    assert_error_has("at line 2");
    free(deep);
}

static void test_json_errors(void **state)
{
    static const struct { const char *json, *msg; } cases[] = {
        {"", "syntax error at line 1"},
        {"{\"arch\": \"x86_64\",\n \"cpu\": {]", "syntax error at line 2"},
        {"[]", "must be an object, not an array"},
        {"{}", "'arch' must be \"x86_64\" or \"aarch64\" and is missing"},
        {"{\"arch\": \"sparc\"}", "'arch' must be \"x86_64\" or \"aarch64\", not \"sparc\""},
        {"{\"arch\": 64}", "'arch' must be a string, not a number"},
        {"{\"arch\": \"x86_64\", \"schema\": 2}", "schema 2 is not known"},
        {"{\"arch\": \"x86_64\", \"cpus\": {}}", "unknown key 'cpus'"},
        {"{\"arch\": \"x86_64\", \"arch\": \"aarch64\"}", "key 'arch' appears twice"},
        {"{\"arch\": \"x86_64\", \"cpu\": {\"features\": [\"avx2\", \"avx1024\"]}}",
         "unknown CPU feature 'avx1024' in cpu.features"},
        {"{\"arch\": \"x86_64\", \"cpu\": {\"features\": [\"avx512_bf16\"]}}",
         "unknown CPU feature 'avx512_bf16'"},
        {"{\"arch\": \"x86_64\", \"cpu\": {\"features\": [\"sve2\"]}}",
         "CPU feature 'sve2' is for aarch64, but arch is x86_64"},
        {"{\"arch\": \"x86_64\", \"cpu\": {\"features\": \"avx2\"}}",
         "'cpu.features' must be an array, not a string"},
        {"{\"arch\": \"x86_64\", \"cpu\": {\"features\": [2]}}",
         "cpu.features[0] must be a string, not a number"},
        {"{\"arch\": \"x86_64\", \"cpu\": {\"flags\": []}}", "unknown key 'cpu.flags'"},
        {"{\"arch\": \"x86_64\", \"cpu\": {\"logical_cpus\": \"8\"}}",
         "'cpu.logical_cpus' must be a number, not a string"},
        {"{\"arch\": \"x86_64\", \"cpu\": {\"logical_cpus\": -1}}",
         "'cpu.logical_cpus' must be a whole number from 0 to 1048576, not -1"},
        {"{\"arch\": \"x86_64\", \"cpu\": {\"logical_cpus\": 2.5}}",
         "'cpu.logical_cpus' must be a whole number"},
        {"{\"arch\": \"x86_64\", \"cpu\": {\"cache\": {\"l4\": 1}}}", "unknown key 'cpu.cache.l4'"},
        {"{\"arch\": \"x86_64\", \"cpu\": {\"cache\": []}}", "'cpu.cache' must be an object"},
        {"{\"arch\": \"x86_64\", \"cpu\": {\"x86_64_level\": 5}}",
         "'cpu.x86_64_level' must be a whole number from 0 to 4, not 5"},
        {"{\"arch\": \"x86_64\", \"cpu\": {\"x86_64_level\": 0}}",
         "'cpu.x86_64_level' must be from 1 to 4, not 0"},
        {"{\"arch\": \"aarch64\", \"cpu\": {\"x86_64_level\": 3}}",
         "'cpu.x86_64_level' given, but arch is aarch64"},
        {"{\"arch\": \"x86_64\", \"memory\": {\"total\": 1e300}}",
         "'memory.total' must be a whole number from 0 to 9007199254740992"},
        {"{\"arch\": \"x86_64\", \"memory\": {\"total\": true}}",
         "'memory.total' must be a number, not a boolean"},
        {"{\"arch\": \"x86_64\", \"os\": {\"kernel\": \"6.1\"}}", "unknown key 'os.kernel'"},
        {"{\"arch\": \"x86_64\", \"os\": {\"name\": \"Linux Linux Linux Linux Linux Linux\"}}",
         "'os.name' is longer than 31 bytes"},
        {"{\"arch\": \"x86_64\", \"nvidia\": {\"driver\": \"latest\"}}",
         "'nvidia.driver' must look like \"570.124.06\", not \"latest\""},
        {"{\"arch\": \"x86_64\", \"nvidia\": {\"driver\": \"570.\"}}",
         "'nvidia.driver' must look like"},
        {"{\"arch\": \"x86_64\", \"nvidia\": {\"cuda\": \"12\"}}",
         "'nvidia.cuda' must look like \"12.8\", not \"12\""},
        {"{\"arch\": \"x86_64\", \"nvidia\": {\"gpus\": {}}}",
         "'nvidia.gpus' must be an array, not an object"},
        {"{\"arch\": \"x86_64\", \"nvidia\": {\"gpus\": [1]}}",
         "'nvidia.gpus[0]' must be an object, not a number"},
        {"{\"arch\": \"x86_64\", \"nvidia\": {\"gpus\": [{\"name\": \"x\"}]}}",
         "'nvidia.gpus[0].compute_capability' must look like \"9.0\", not \"\""},
        {"{\"arch\": \"x86_64\", \"nvidia\": {\"gpus\": [{\"compute_capability\": \"9.0\"}, "
         "{\"compute_capability\": \"9.10\"}]}}",
         "'nvidia.gpus[1].compute_capability' must look like \"9.0\", not \"9.10\""},
        {"{\"arch\": \"x86_64\", \"nvidia\": {\"gpus\": [{\"compute_capability\": \"9.0\", "
         "\"sm\": 90}]}}", "unknown key 'nvidia.gpus[0].sm'"},
        {"{\"arch\": \"aarch64\", \"jetson\": {\"l4t\": \"R36\"}}",
         "'jetson.l4t' must look like \"36.4.3\", not \"R36\""},
        {"{\"arch\": \"aarch64\", \"jetson\": true}", "'jetson' must be an object, not a boolean"},
        {"{\"arch\": \"aarch64\", \"nvidia\": {\"platform\": \"jetson\"}}",
         "'nvidia.platform' must be \"x86_64\", \"sbsa\" or \"l4t\", not \"jetson\""},
        {"{\"arch\": \"x86_64\", \"nvidia\": {\"platform\": \"sbsa\"}}",
         "'nvidia.platform' is \"sbsa\", but arch is x86_64"},
        {"{\"arch\": \"aarch64\", \"nvidia\": {\"platform\": \"x86_64\"}}",
         "'nvidia.platform' is \"x86_64\", but arch is aarch64"},
        {"{\"arch\": \"aarch64\", \"nvidia\": {\"platform\": \"l4t\"}}",
         "'nvidia.platform' is \"l4t\", Jetson's own CUDA, but there is no 'jetson' section"},
    };
    for (size_t i = 0; i < N(cases); i++) {
        ortkit_host *h = NULL;
        int rc = ortkit_host_from_json(&h, cases[i].json);
        if (rc != ORTKIT_E_FORMAT)
            fail_msg("%s: got %d (%s)", cases[i].json, rc, ortkit_error_last());
        assert_error_has("host JSON: ");
        assert_error_has(cases[i].msg);
        assert_null(h); /* nothing on failure */
    }

    /* 17 GPUs is more than a host holds. */
    char json[4096] = "{\"arch\": \"x86_64\", \"nvidia\": {\"gpus\": [";
    for (int i = 0; i < 17; i++)
        strcat(json, i ? ", {\"compute_capability\": \"8.0\"}" : "{\"compute_capability\": \"8.0\"}");
    strcat(json, "]}}");
    ortkit_host *h = NULL;
    assert_int_equal(from_json(&h, json), ORTKIT_E_FORMAT);
    assert_error_has("'nvidia.gpus' lists 17 GPUs; at most 16");

    char path[512];
    snprintf(path, sizeof path, "%s/bad.json", tmpdir);
    put(tmpdir, "bad.json", "{\"arch\": \"x86_64\", \"cpu\": {\"features\": [\"avx3\"]}}");
    assert_int_equal(load(&h, path), ORTKIT_E_FORMAT);
    assert_error_has("bad.json': host JSON: unknown CPU feature 'avx3'");
    put_file(tmpdir, "nul.json", "{\"arch\": \"x86_64\"}\0{}", 21);
    snprintf(path, sizeof path, "%s/nul.json", tmpdir);
    assert_int_equal(load(&h, path), ORTKIT_E_FORMAT);
    assert_error_has("NUL byte");
    assert_int_equal(load(&h, "/nonexistent/host.json"), ORTKIT_E_IO);
    assert_int_equal(ortkit_host_from_json(NULL, "{}"), ORTKIT_E_INVALID_ARG);
    assert_int_equal(from_json(&h, NULL), ORTKIT_E_INVALID_ARG);
    assert_null(h);
    char *out;
    assert_int_equal(ortkit_host_to_json(NULL, &out), ORTKIT_E_INVALID_ARG);
    ortkit_host_free(NULL);
    ortkit_free(NULL);
}

/* A library's file found as ld.so finds a name: LD_LIBRARY_PATH first, then
 * the ld.so cache, then the default directories; none is an error. */
static void test_library_path(void **state)
{
    (void)state;
    char *path = NULL, *old = getenv("LD_LIBRARY_PATH") ? strdup(getenv("LD_LIBRARY_PATH")) : NULL;
    setenv("LD_LIBRARY_PATH", "/nonexistent::" ORTKIT_TEST_RUNTIME_OLD, 1);
    assert_int_equal(ortkit__host_library_path(&path, "libonnxruntime.so.1"), 0);
    assert_string_equal(path, ORTKIT_TEST_RUNTIME_OLD "/libonnxruntime.so.1");
    free(path);
    /* The C library: in the ld.so cache (or a default directory) of every glibc system. */
    unsetenv("LD_LIBRARY_PATH");
    assert_int_equal(ortkit__host_library_path(&path, "libc.so.6"), 0);
    assert_non_null(strstr(path, "/libc.so.6"));
    assert_int_equal(access(path, R_OK), 0);
    free(path);
    assert_int_equal(ortkit__host_library_path(&path, "libno-such-library.so.9"), ORTKIT_E_RUNTIME_NOT_FOUND);
    assert_null(path);
    if (old)
        setenv("LD_LIBRARY_PATH", old, 1);
    free(old);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_feature_names, reset_hooks),
        cmocka_unit_test_setup(test_detect_this_machine, reset_hooks),
        cmocka_unit_test_setup(test_no_driver, reset_hooks),
        cmocka_unit_test_setup(test_nvml, reset_hooks),
        cmocka_unit_test_setup(test_detect_fake_root, reset_hooks),
        cmocka_unit_test_setup(test_detect_trees, reset_hooks),
        cmocka_unit_test_setup(test_driver_files, reset_hooks),
        cmocka_unit_test_setup(test_detect_root, reset_hooks),
        cmocka_unit_test_setup(test_platform_names, reset_hooks),
        cmocka_unit_test_setup(test_arm_cpu_name, reset_hooks),
        cmocka_unit_test_setup(test_json_round_trip, reset_hooks),
        cmocka_unit_test_setup(test_json_errors, reset_hooks),
        cmocka_unit_test(test_json_too_deep),
        cmocka_unit_test(test_library_path),
        cmocka_unit_test_setup(test_online_list_is_bounded, reset_hooks),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
