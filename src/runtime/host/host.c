/*
 * host.c - what machine is this: CPU and its instruction sets, memory, OS,
 * NVIDIA GPUs and their driver, Jetson boards.  This file holds the names,
 * memory and OS, and the entry point; the CPU is in host_cpu.c, GPUs in
 * host_gpu.c, JSON in host_json.c, the files read in host_files.c.
 *
 * Detection only reads; it never fails because a file is missing, it just
 * leaves that part empty.  Files under /proc, /sys and /etc are read below a
 * root prefix (ortkit_host_detect_root, and tests through
 * ortkit__host_set_root); below one, nothing comes from the running machine:
 * the CPU is read from /proc/cpuinfo instead of cpuid and getauxval, the
 * kernel from /proc/sys/kernel instead of uname, NVIDIA GPUs from the
 * kernel module's files instead of NVML.  NVML can be replaced by a symbol
 * resolver (ortkit__host_set_nvml_resolver), so parsing and the no-driver
 * paths are testable anywhere.
 */
#include "elf_reader.h"
#include "host_internal.h"

#include <link.h>

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

static const struct {
    const char *name;
    const char *label;
    ortkit_arch arch;
} feature_info[ORTKIT_CPU_FEATURE_COUNT] = {
    [ORTKIT_CPU_SSE3] = {"sse3", "SSE3", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_SSSE3] = {"ssse3", "SSSE3", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_SSE4_1] = {"sse4.1", "SSE4.1", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_SSE4_2] = {"sse4.2", "SSE4.2", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_POPCNT] = {"popcnt", "POPCNT", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_CX16] = {"cx16", "CMPXCHG16B", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_LAHF] = {"lahf", "LAHF/SAHF", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_MOVBE] = {"movbe", "MOVBE", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_LZCNT] = {"lzcnt", "LZCNT", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_BMI1] = {"bmi1", "BMI1", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_BMI2] = {"bmi2", "BMI2", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_AVX] = {"avx", "AVX", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_AVX2] = {"avx2", "AVX2", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_FMA] = {"fma", "FMA", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_F16C] = {"f16c", "F16C", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_AVX512F] = {"avx512f", "AVX-512 F", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_AVX512CD] = {"avx512cd", "AVX-512 CD", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_AVX512BW] = {"avx512bw", "AVX-512 BW", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_AVX512DQ] = {"avx512dq", "AVX-512 DQ", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_AVX512VL] = {"avx512vl", "AVX-512 VL", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_AVX512VNNI] = {"avx512vnni", "AVX-512 VNNI", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_AVX512BF16] = {"avx512bf16", "AVX-512 BF16", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_AVXVNNI] = {"avxvnni", "AVX-VNNI", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_AMX_TILE] = {"amx-tile", "AMX tiles", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_AMX_INT8] = {"amx-int8", "AMX INT8", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_AMX_BF16] = {"amx-bf16", "AMX BF16", ORTKIT_ARCH_X86_64},
    [ORTKIT_CPU_ASIMD] = {"asimd", "Advanced SIMD (NEON)", ORTKIT_ARCH_AARCH64},
    [ORTKIT_CPU_FP16] = {"fp16", "FP16 arithmetic", ORTKIT_ARCH_AARCH64},
    [ORTKIT_CPU_DOTPROD] = {"dotprod", "dot product (SDOT/UDOT)", ORTKIT_ARCH_AARCH64},
    [ORTKIT_CPU_I8MM] = {"i8mm", "INT8 matrix multiply", ORTKIT_ARCH_AARCH64},
    [ORTKIT_CPU_BF16] = {"bf16", "BF16", ORTKIT_ARCH_AARCH64},
    [ORTKIT_CPU_SVE] = {"sve", "SVE", ORTKIT_ARCH_AARCH64},
    [ORTKIT_CPU_SVE2] = {"sve2", "SVE2", ORTKIT_ARCH_AARCH64},
};

const char *ortkit_cpu_feature_name(ortkit_cpu_feature f)
{
    return (unsigned)f < ORTKIT_CPU_FEATURE_COUNT ? feature_info[f].name : NULL;
}

const char *ortkit_cpu_feature_label(ortkit_cpu_feature f)
{
    return (unsigned)f < ORTKIT_CPU_FEATURE_COUNT ? feature_info[f].label : NULL;
}

ortkit_arch ortkit_cpu_feature_arch(ortkit_cpu_feature f)
{
    return (unsigned)f < ORTKIT_CPU_FEATURE_COUNT ? feature_info[f].arch : ORTKIT_ARCH_UNKNOWN;
}

int ortkit_cpu_feature_from_name(const char *name)
{
    for (int f = 0; name && f < ORTKIT_CPU_FEATURE_COUNT; f++)
        if (!strcmp(feature_info[f].name, name))
            return f;
    return -1;
}

int ortkit_host_has(const ortkit_host *host, ortkit_cpu_feature f)
{
    return host && (unsigned)f < ORTKIT_CPU_FEATURE_COUNT &&
           (host->cpu_features & ORTKIT_CPU_BIT(f)) != 0;
}

/* ---- memory and OS ----------------------------------------------------------- */

static void detect_memory_os(ortkit__host_data *h)
{
    char buf[8192];
    /* What is missing stays 0: the rest of the answer still holds. */
    if (ortkit__host_read_text("/proc/meminfo", buf, sizeof buf) > 0)
        (void)ortkit__meminfo_parse(buf, &h->mem_available, &h->mem_total);
    struct utsname u;
    if (ortkit__host_root_moved()) {
        /* What uname says, as the kernel writes it under /proc. */
        if (ortkit__host_read_text("/proc/sys/kernel/ostype", buf, sizeof buf) > 0)
            ortkit__host_copy_str(h->os_name, sizeof h->os_name, ortkit__host_trim(buf));
        if (ortkit__host_read_text("/proc/sys/kernel/osrelease", buf, sizeof buf) > 0)
            ortkit__host_copy_str(h->os_release, sizeof h->os_release, ortkit__host_trim(buf));
    } else if (uname(&u) == 0) {
        ortkit__host_copy_str(h->os_name, sizeof h->os_name, u.sysname);
        ortkit__host_copy_str(h->os_release, sizeof h->os_release, u.release);
    }
    if (ortkit__host_read_text("/etc/os-release", buf, sizeof buf) > 0) {
        char *p = strstr(buf, "PRETTY_NAME=");
        if (p) {
            p += strlen("PRETTY_NAME=");
            char *eol = strchr(p, '\n');
            if (eol)
                *eol = '\0';
            if (*p == '"' || *p == '\'') {
                char quote = *p++;
                char *end = strchr(p, quote);
                if (end)
                    *end = '\0';
            }
            ortkit__host_copy_str(h->os_distro, sizeof h->os_distro, p);
        }
    }
#if defined(__GLIBC__)
    if (!ortkit__host_root_moved())
        ortkit__host_copy_str(h->glibc, sizeof h->glibc, gnu_get_libc_version());
#endif
}

/* ---- the C++ library ------------------------------------------------------------ */

static int find_loaded(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *name = info->dlpi_name, *base = name ? strrchr(name, '/') : NULL;
    if (base && !strcmp(base + 1, "libstdc++.so.6")) {
        ortkit__host_copy_str(data, PATH_MAX, name);
        return 1;
    }
    return 0;
}

/* The first library of that name in the system's library directories for
 * arch (below the root), into path; "" when none. */
static void find_system_library(char *path, const char *name, ortkit_arch arch)
{
    const char *multiarch = arch == ORTKIT_ARCH_X86_64    ? "x86_64-linux-gnu"
                            : arch == ORTKIT_ARCH_AARCH64 ? "aarch64-linux-gnu"
                                                          : "";
    const char *const dirs[] = {"/usr/lib/%s", "/lib/%s", "/usr/lib64", "/lib64", "/usr/lib"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char dir[128], rel[192];
        snprintf(dir, sizeof dir, dirs[i], multiarch);
        if (multiarch[0] == '\0' && strstr(dirs[i], "%s"))
            continue;
        snprintf(rel, sizeof rel, "%s/%s", dir, name);
        if (ortkit__host_file_path(path, PATH_MAX, rel) == 0 && access(path, R_OK) == 0)
            return;
    }
    path[0] = '\0';
}

/* The C and C++ libraries' releases, read from their version definitions
 * without loading them: the libstdc++.so.6 a program here would load (the
 * one in this process, else the first in the system's library directories),
 * and below a root also its libc.so.6, whose release this process cannot tell. */
static void detect_system_libraries(ortkit__host_data *h)
{
    char *path = malloc(PATH_MAX);
    if (!path)
        return;
    path[0] = '\0';
    int moved = ortkit__host_root_moved();
    if (moved || !dl_iterate_phdr(find_loaded, path) || !path[0])
        find_system_library(path, "libstdc++.so.6", h->arch);
    ortkit__elf e;
    if (path[0] && ortkit__elf_read(&e, path) == ORTKIT_OK) {
        ortkit__host_copy_str(h->glibcxx, sizeof h->glibcxx, e.def_glibcxx);
        ortkit__elf_free(&e);
    }
    if (moved) {
        find_system_library(path, "libc.so.6", h->arch);
        if (path[0] && ortkit__elf_read(&e, path) == ORTKIT_OK) {
            ortkit__host_copy_str(h->glibc, sizeof h->glibc, e.def_glibc);
            ortkit__elf_free(&e);
        }
    }
    free(path);
}

/* ---- the caller's view -------------------------------------------------------- */

/* One allocation: the view first (the caller's pointer is the box's), then
 * the data it points into. */
typedef struct host_box {
    ortkit_host pub;
    ortkit__host_data d;
    ortkit_gpu gpus[ORTKIT__HOST_MAX_GPUS];
    const ortkit_gpu *gpu_list[ORTKIT__HOST_MAX_GPUS];
} host_box;

static host_box *box_of(ortkit__host_data *d)
{
    return (host_box *)(void *)((char *)d - offsetof(host_box, d));
}

ortkit__host_data *ortkit__host_new(void)
{
    host_box *b = calloc(1, sizeof *b);
    if (!b) {
        ortkit__error_nomem();
        return NULL;
    }
    return &b->d;
}

ortkit_host *ortkit__host_publish(ortkit__host_data *d)
{
    host_box *b = box_of(d);
    ortkit_host *h = &b->pub;
    h->arch = d->arch;
    h->cpu_vendor = d->cpu_vendor;
    h->cpu_model = d->cpu_model;
    h->logical_cpus = d->logical_cpus;
    h->physical_cores = d->physical_cores;
    h->cache_l1d = d->cache_l1d;
    h->cache_l1i = d->cache_l1i;
    h->cache_l2 = d->cache_l2;
    h->cache_l3 = d->cache_l3;
    h->cpu_features = d->cpu_features;
    h->x86_64_level = d->x86_64_level;
    h->mem_total = d->mem_total;
    h->mem_available = d->mem_available;
    h->os_name = d->os_name;
    h->os_release = d->os_release;
    h->os_distro = d->os_distro;
    h->glibc = d->glibc;
    h->driver_version = d->driver_version;
    h->cuda_driver = d->cuda_driver;
    h->gpu_count = 0;
    for (int i = 0; i < d->gpu_count && i < ORTKIT__HOST_MAX_GPUS; i++) {
        ortkit_gpu *g = &b->gpus[i];
        g->name = d->gpus[i].name;
        g->cc_major = d->gpus[i].cc_major;
        g->cc_minor = d->gpus[i].cc_minor;
        g->memory_bytes = d->gpus[i].memory_bytes;
        b->gpu_list[h->gpu_count++] = g;
    }
    h->gpus = b->gpu_list;
    h->gpu_note = d->gpu_note;
    h->tegra = d->tegra;
    h->l4t_release = d->l4t_release;
    h->board = d->board;
    h->cuda_platform = d->cuda_platform;
    h->glibcxx = d->glibcxx;
    h->library_count = d->library_count;
    h->libraries = (const char *const *)d->libraries;
    h->libraries_known = d->libraries_known;
    return h;
}

void ortkit_host_free(ortkit_host *host)
{
    /* Every ortkit_host is the first member of a box. */
    if (host)
        ortkit__host_libraries_free(&((host_box *)(void *)host)->d);
    free(host);
}

static int detect(ortkit_host **out)
{
    ortkit__host_data *d = ortkit__host_new();
    if (!d)
        return ORTKIT_E_NOMEM;
    ortkit__host_detect_cpu(d);
    detect_memory_os(d);
    /* NVML describes the running machine only; a tree has the kernel
     * module's files. */
    if (ortkit__host_root_moved())
        ortkit__host_detect_nvidia_files(d);
    else
        ortkit__host_detect_nvidia(d);
    ortkit__host_detect_tegra(d);
    d->cuda_platform = ortkit__host_platform_of(d->arch, d->tegra, d->l4t_release);
    detect_system_libraries(d);
    ortkit__host_detect_libraries(d);
    *out = ortkit__host_publish(d);
    return ORTKIT_OK;
}

int ortkit_host_detect(ortkit_host **out)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_host_detect: out is NULL");
    *out = NULL;
    return detect(out);
}

int ortkit_host_detect_root(ortkit_host **out, const char *root)
{
    if (!out || !root)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_host_detect_root: NULL argument");
    *out = NULL;
    struct stat st;
    const char *why = NULL;
    if (!root[0])
        why = "the path is empty";
    else if (stat(root, &st) != 0)
        why = strerror(errno);
    else if (!S_ISDIR(st.st_mode))
        why = "not a directory";
    else if (access(root, R_OK | X_OK) != 0)
        why = strerror(errno);
    if (why)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read the machine described in '%s': %s", root,
                                 why);
    if (strlen(root) >= ORTKIT__HOST_ROOT_MAX)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "cannot read the machine described in '%.64s...': "
                                 "the path is longer than %d bytes", root, ORTKIT__HOST_ROOT_MAX - 1);
    /* A test may have moved the root of this thread: it is put back after. */
    char saved[ORTKIT__HOST_ROOT_MAX];
    int was_moved = ortkit__host_root_get(saved, sizeof saved);
    ortkit__host_set_root(root);
    int rc = detect(out);
    ortkit__host_set_root(was_moved ? saved : NULL);
    return rc;
}

static int cmp_name(const void *key, const void *item)
{
    return strcmp((const char *)key, *(const char *const *)item);
}

int ortkit_host_has_library(const ortkit_host *host, const char *name)
{
    if (!host || !name || !host->libraries_known)
        return -1;
    return host->library_count &&
           bsearch(name, host->libraries, host->library_count, sizeof *host->libraries, cmp_name);
}
