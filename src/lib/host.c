/*
 * host.c - what machine is this: CPU and its instruction sets, memory, OS,
 * NVIDIA GPUs and their driver, Jetson boards.
 *
 * Detection only reads; it never fails because a file is missing, it just
 * leaves that part empty.  Files under /proc, /sys and /etc are read below a
 * root prefix that tests can move (ortkit__host_set_root), and NVML can be
 * replaced by a symbol resolver (ortkit__host_set_nvml_resolver), so parsing
 * and the no-driver paths are testable anywhere.  cpuid and getauxval are
 * always the real ones.
 */
#include "internal.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

/* Test hooks.  Not thread-safe: set them before detecting. */
void ortkit__host_set_root(const char *root);
void ortkit__host_set_nvml_library(const char *path);
void ortkit__host_set_nvml_resolver(void *(*resolve)(const char *symbol));
int ortkit__host_arm_cpu_name(const char *cpuinfo, char *vendor, size_t vendor_size,
                              char *model, size_t model_size);

static char root_prefix[256];
static const char *nvml_library = "libnvidia-ml.so.1";
static void *(*nvml_resolver)(const char *symbol);

void ortkit__host_set_root(const char *root)
{
    snprintf(root_prefix, sizeof root_prefix, "%s", root ? root : "");
}

void ortkit__host_set_nvml_library(const char *path)
{
    nvml_library = path ? path : "libnvidia-ml.so.1";
}

void ortkit__host_set_nvml_resolver(void *(*resolve)(const char *symbol))
{
    nvml_resolver = resolve;
}

/* ---- small helpers --------------------------------------------------------- */

#define X86 ORTKIT_ARCH_X86_64
#define ARM ORTKIT_ARCH_AARCH64
#define B ORTKIT_CPU_BIT

static const struct {
    const char *name;
    const char *label;
    ortkit_arch arch;
} feature_info[ORTKIT_CPU_FEATURE_COUNT] = {
    [ORTKIT_CPU_SSE3] = {"sse3", "SSE3", X86},
    [ORTKIT_CPU_SSSE3] = {"ssse3", "SSSE3", X86},
    [ORTKIT_CPU_SSE4_1] = {"sse4.1", "SSE4.1", X86},
    [ORTKIT_CPU_SSE4_2] = {"sse4.2", "SSE4.2", X86},
    [ORTKIT_CPU_POPCNT] = {"popcnt", "POPCNT", X86},
    [ORTKIT_CPU_CX16] = {"cx16", "CMPXCHG16B", X86},
    [ORTKIT_CPU_LAHF] = {"lahf", "LAHF/SAHF", X86},
    [ORTKIT_CPU_MOVBE] = {"movbe", "MOVBE", X86},
    [ORTKIT_CPU_LZCNT] = {"lzcnt", "LZCNT", X86},
    [ORTKIT_CPU_BMI1] = {"bmi1", "BMI1", X86},
    [ORTKIT_CPU_BMI2] = {"bmi2", "BMI2", X86},
    [ORTKIT_CPU_AVX] = {"avx", "AVX", X86},
    [ORTKIT_CPU_AVX2] = {"avx2", "AVX2", X86},
    [ORTKIT_CPU_FMA] = {"fma", "FMA", X86},
    [ORTKIT_CPU_F16C] = {"f16c", "F16C", X86},
    [ORTKIT_CPU_AVX512F] = {"avx512f", "AVX-512 F", X86},
    [ORTKIT_CPU_AVX512CD] = {"avx512cd", "AVX-512 CD", X86},
    [ORTKIT_CPU_AVX512BW] = {"avx512bw", "AVX-512 BW", X86},
    [ORTKIT_CPU_AVX512DQ] = {"avx512dq", "AVX-512 DQ", X86},
    [ORTKIT_CPU_AVX512VL] = {"avx512vl", "AVX-512 VL", X86},
    [ORTKIT_CPU_AVX512VNNI] = {"avx512vnni", "AVX-512 VNNI", X86},
    [ORTKIT_CPU_AVX512BF16] = {"avx512bf16", "AVX-512 BF16", X86},
    [ORTKIT_CPU_AVXVNNI] = {"avxvnni", "AVX-VNNI", X86},
    [ORTKIT_CPU_AMX_TILE] = {"amx-tile", "AMX tiles", X86},
    [ORTKIT_CPU_AMX_INT8] = {"amx-int8", "AMX INT8", X86},
    [ORTKIT_CPU_AMX_BF16] = {"amx-bf16", "AMX BF16", X86},
    [ORTKIT_CPU_ASIMD] = {"asimd", "Advanced SIMD (NEON)", ARM},
    [ORTKIT_CPU_FP16] = {"fp16", "FP16 arithmetic", ARM},
    [ORTKIT_CPU_DOTPROD] = {"dotprod", "dot product (SDOT/UDOT)", ARM},
    [ORTKIT_CPU_I8MM] = {"i8mm", "INT8 matrix multiply", ARM},
    [ORTKIT_CPU_BF16] = {"bf16", "BF16", ARM},
    [ORTKIT_CPU_SVE] = {"sve", "SVE", ARM},
    [ORTKIT_CPU_SVE2] = {"sve2", "SVE2", ARM},
};

const char *ortkit_arch_name(ortkit_arch arch)
{
    switch (arch) {
    case ORTKIT_ARCH_X86_64: return "x86_64";
    case ORTKIT_ARCH_AARCH64: return "aarch64";
    default: return "unknown";
    }
}

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

/* Copy, cutting what does not fit: the struct's fields have fixed sizes. */
static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = src ? strnlen(src, size - 1) : 0;
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Trim leading and trailing white space in place. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Read a small file below the root prefix into buf; returns bytes or -1.
 * Files in /proc and /sys report size 0, so read until EOF. */
static long read_text(const char *path, char *buf, size_t size)
{
    char full[512];
    snprintf(full, sizeof full, "%s%s", root_prefix, path);
    FILE *f = fopen(full, "rb");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    return (long)n;
}

static int read_long(const char *path, long *out)
{
    char buf[64];
    if (read_text(path, buf, sizeof buf) <= 0)
        return -1;
    char *end;
    *out = strtol(buf, &end, 10);
    return end == buf ? -1 : 0;
}

/* ---- CPU ----------------------------------------------------------------------- */

/* psABI levels: x86-64-v2 adds CMPXCHG16B, LAHF, POPCNT, SSE3..SSE4.2;
 * v3 adds AVX, AVX2, BMI1/2, F16C, FMA, LZCNT, MOVBE; v4 adds AVX-512
 * F/BW/CD/DQ/VL. */
static int x86_level(uint64_t f)
{
#define HAS_ALL(m) ((f & (m)) == (m))
    const uint64_t v2 = B(ORTKIT_CPU_CX16) | B(ORTKIT_CPU_LAHF) | B(ORTKIT_CPU_POPCNT) |
                        B(ORTKIT_CPU_SSE3) | B(ORTKIT_CPU_SSSE3) | B(ORTKIT_CPU_SSE4_1) |
                        B(ORTKIT_CPU_SSE4_2);
    const uint64_t v3 = B(ORTKIT_CPU_AVX) | B(ORTKIT_CPU_AVX2) | B(ORTKIT_CPU_BMI1) |
                        B(ORTKIT_CPU_BMI2) | B(ORTKIT_CPU_F16C) | B(ORTKIT_CPU_FMA) |
                        B(ORTKIT_CPU_LZCNT) | B(ORTKIT_CPU_MOVBE);
    const uint64_t v4 = B(ORTKIT_CPU_AVX512F) | B(ORTKIT_CPU_AVX512BW) |
                        B(ORTKIT_CPU_AVX512CD) | B(ORTKIT_CPU_AVX512DQ) | B(ORTKIT_CPU_AVX512VL);
    if (!HAS_ALL(v2))
        return 1;
    if (!HAS_ALL(v3))
        return 2;
    return HAS_ALL(v4) ? 4 : 3;
#undef HAS_ALL
}

#if defined(__x86_64__)
static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static void detect_x86(ortkit_host *h)
{
    unsigned a, b, c, d;
    uint64_t f = 0;
    unsigned max = __get_cpuid_max(0, NULL);
    if (max == 0)
        return;

    __cpuid(0, a, b, c, d);
    memcpy(h->cpu_vendor, &b, 4);
    memcpy(h->cpu_vendor + 4, &d, 4);
    memcpy(h->cpu_vendor + 8, &c, 4);
    h->cpu_vendor[12] = '\0';

#define SET(reg, bit, feat) do { if ((reg) & (1u << (bit))) f |= ORTKIT_CPU_BIT(feat); } while (0)
    unsigned ecx1 = 0;
    if (max >= 1) {
        __cpuid(1, a, b, c, d);
        ecx1 = c;
        SET(c, 0, ORTKIT_CPU_SSE3);
        SET(c, 9, ORTKIT_CPU_SSSE3);
        SET(c, 12, ORTKIT_CPU_FMA);
        SET(c, 13, ORTKIT_CPU_CX16);
        SET(c, 19, ORTKIT_CPU_SSE4_1);
        SET(c, 20, ORTKIT_CPU_SSE4_2);
        SET(c, 22, ORTKIT_CPU_MOVBE);
        SET(c, 23, ORTKIT_CPU_POPCNT);
        SET(c, 28, ORTKIT_CPU_AVX);
        SET(c, 29, ORTKIT_CPU_F16C);
    }
    if (max >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        unsigned subleaves = a;
        SET(b, 3, ORTKIT_CPU_BMI1);
        SET(b, 5, ORTKIT_CPU_AVX2);
        SET(b, 8, ORTKIT_CPU_BMI2);
        SET(b, 16, ORTKIT_CPU_AVX512F);
        SET(b, 17, ORTKIT_CPU_AVX512DQ);
        SET(b, 28, ORTKIT_CPU_AVX512CD);
        SET(b, 30, ORTKIT_CPU_AVX512BW);
        SET(b, 31, ORTKIT_CPU_AVX512VL);
        SET(c, 11, ORTKIT_CPU_AVX512VNNI);
        SET(d, 22, ORTKIT_CPU_AMX_BF16);
        SET(d, 24, ORTKIT_CPU_AMX_TILE);
        SET(d, 25, ORTKIT_CPU_AMX_INT8);
        if (subleaves >= 1) {
            __cpuid_count(7, 1, a, b, c, d);
            SET(a, 4, ORTKIT_CPU_AVXVNNI);
            SET(a, 5, ORTKIT_CPU_AVX512BF16);
        }
    }
    unsigned ext = __get_cpuid_max(0x80000000u, NULL);
    if (ext >= 0x80000001u) {
        __cpuid(0x80000001u, a, b, c, d);
        SET(c, 0, ORTKIT_CPU_LAHF);
        SET(c, 5, ORTKIT_CPU_LZCNT);
    }
#undef SET
    if (ext >= 0x80000004u) {
        unsigned brand[12];
        for (unsigned i = 0; i < 3; i++)
            __cpuid(0x80000002u + i, brand[4 * i], brand[4 * i + 1], brand[4 * i + 2],
                    brand[4 * i + 3]);
        char text[49];
        memcpy(text, brand, 48);
        text[48] = '\0';
        copy_str(h->cpu_model, sizeof h->cpu_model, trim(text));
    }

    /* A CPU may have AVX while the OS does not save the wider registers
     * (old kernels, some hypervisors): then AVX code faults.  XCR0 says what
     * the OS saves: bits 1-2 SSE/AVX state, 5-7 AVX-512 state, 17-18 AMX. */
    uint64_t xcr0 = (ecx1 & (1u << 27)) ? read_xcr0() : 0;
    int os_avx = (xcr0 & 0x6) == 0x6;
    int os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;
    int os_amx = (xcr0 & 0x60000) == 0x60000;
    if (!os_avx)
        f &= ~(B(ORTKIT_CPU_AVX) | B(ORTKIT_CPU_AVX2) | B(ORTKIT_CPU_FMA) |
               B(ORTKIT_CPU_F16C) | B(ORTKIT_CPU_AVXVNNI));
    if (!os_avx512)
        f &= ~(B(ORTKIT_CPU_AVX512F) | B(ORTKIT_CPU_AVX512CD) | B(ORTKIT_CPU_AVX512BW) |
               B(ORTKIT_CPU_AVX512DQ) | B(ORTKIT_CPU_AVX512VL) | B(ORTKIT_CPU_AVX512VNNI) |
               B(ORTKIT_CPU_AVX512BF16));
    if (!os_amx)
        f &= ~(B(ORTKIT_CPU_AMX_TILE) | B(ORTKIT_CPU_AMX_INT8) | B(ORTKIT_CPU_AMX_BF16));

    h->cpu_features = f;
    h->x86_64_level = x86_level(f);
}
#endif

#if defined(__aarch64__)
/* Linux's AT_HWCAP/AT_HWCAP2 bits (arch/arm64/include/uapi/asm/hwcap.h). */
static void detect_arm(ortkit_host *h)
{
    unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
    uint64_t f = 0;
    if (hw & (1ul << 1))
        f |= B(ORTKIT_CPU_ASIMD);
    /* FPHP and ASIMDHP: scalar and vector half precision; -march=...+fp16 uses both. */
    if ((hw & (1ul << 9)) && (hw & (1ul << 10)))
        f |= B(ORTKIT_CPU_FP16);
    if (hw & (1ul << 20))
        f |= B(ORTKIT_CPU_DOTPROD);
    if (hw & (1ul << 22))
        f |= B(ORTKIT_CPU_SVE);
    if (hw2 & (1ul << 1))
        f |= B(ORTKIT_CPU_SVE2);
    if (hw2 & (1ul << 13))
        f |= B(ORTKIT_CPU_I8MM);
    if (hw2 & (1ul << 14))
        f |= B(ORTKIT_CPU_BF16);
    h->cpu_features = f;
}
#endif

/* arm64 has no brand string: name the core from /proc/cpuinfo's implementer
 * and part numbers.  Returns 0 when they were found. */
int ortkit__host_arm_cpu_name(const char *cpuinfo, char *vendor, size_t vendor_size,
                              char *model, size_t model_size)
{
    static const struct { unsigned impl; const char *name; } vendors[] = {
        {0x41, "ARM"}, {0x42, "Broadcom"}, {0x43, "Cavium"}, {0x48, "HiSilicon"},
        {0x4e, "NVIDIA"}, {0x51, "Qualcomm"}, {0x61, "Apple"}, {0xc0, "Ampere"},
    };
    static const struct { unsigned impl, part; const char *name; } parts[] = {
        {0x41, 0xd03, "Cortex-A53"},   {0x41, 0xd07, "Cortex-A57"},
        {0x41, 0xd08, "Cortex-A72"},   {0x41, 0xd0b, "Cortex-A76"},
        {0x41, 0xd0c, "Neoverse-N1"},  {0x41, 0xd40, "Neoverse-V1"},
        {0x41, 0xd41, "Cortex-A78"},   {0x41, 0xd42, "Cortex-A78AE"},
        {0x41, 0xd49, "Neoverse-N2"},  {0x41, 0xd4f, "Neoverse-V2"},
        {0x41, 0xd84, "Neoverse-V3"},  {0x41, 0xd8e, "Neoverse-N3"},
        {0x4e, 0x004, "Carmel"},       {0xc0, 0xac3, "AmpereOne"},
    };
    const char *p = strstr(cpuinfo, "CPU implementer");
    const char *q = strstr(cpuinfo, "CPU part");
    if (!p || !q || !(p = strchr(p, ':')) || !(q = strchr(q, ':')))
        return -1;
    unsigned impl = (unsigned)strtoul(p + 1, NULL, 0);
    unsigned part = (unsigned)strtoul(q + 1, NULL, 0);
    snprintf(vendor, vendor_size, "implementer 0x%02x", impl);
    for (size_t i = 0; i < sizeof vendors / sizeof vendors[0]; i++)
        if (vendors[i].impl == impl)
            snprintf(vendor, vendor_size, "%s", vendors[i].name);
    snprintf(model, model_size, "part 0x%03x", part);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (parts[i].impl == impl && parts[i].part == part)
            snprintf(model, model_size, "%s", parts[i].name);
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Logical CPUs from the online list ("0-3,8-11"); physical cores as distinct
 * (package, core) pairs of their topology. */
static void detect_topology(ortkit_host *h)
{
    char list[4096];
    if (read_text("/sys/devices/system/cpu/online", list, sizeof list) <= 0) {
        if (!root_prefix[0]) {
            long n = sysconf(_SC_NPROCESSORS_ONLN);
            h->logical_cpus = n > 0 ? (int)n : 0;
        }
        return;
    }
    size_t cap = 1024, count = 0;
    uint64_t *keys = malloc(cap * sizeof *keys);
    if (!keys)
        return;
    int logical = 0;
    for (char *tok = strtok(list, ",\n"); tok; tok = strtok(NULL, ",\n")) {
        char *dash;
        long lo = strtol(tok, &dash, 10), hi = lo;
        if (*dash == '-')
            hi = strtol(dash + 1, NULL, 10);
        for (long cpu = lo; cpu <= hi && cpu - lo < 65536; cpu++) {
            logical++;
            char path[128];
            long core, pkg;
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/topology/core_id", cpu);
            if (read_long(path, &core) != 0)
                continue;
            snprintf(path, sizeof path,
                     "/sys/devices/system/cpu/cpu%ld/topology/physical_package_id", cpu);
            if (read_long(path, &pkg) != 0)
                pkg = 0;
            if (count == cap) {
                uint64_t *more = realloc(keys, 2 * cap * sizeof *keys);
                if (!more)
                    break;
                keys = more;
                cap *= 2;
            }
            keys[count++] = ((uint64_t)(uint32_t)pkg << 32) | (uint32_t)core;
        }
    }
    qsort(keys, count, sizeof *keys, cmp_u64);
    int cores = 0;
    for (size_t i = 0; i < count; i++)
        if (i == 0 || keys[i] != keys[i - 1])
            cores++;
    free(keys);
    h->logical_cpus = logical;
    h->physical_cores = cores;
}

/* Sizes of cpu0's caches as sysfs gives them: "48K", "2048K", "105M". */
static void detect_caches(ortkit_host *h)
{
    for (int i = 0; i < 16; i++) {
        char path[128], type[32], size[32];
        long level;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (read_long(path, &level) != 0)
            break;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (read_text(path, type, sizeof type) <= 0)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (read_text(path, size, sizeof size) <= 0)
            continue;
        char *end;
        uint64_t bytes = strtoull(size, &end, 10);
        if (*end == 'K')
            bytes <<= 10;
        else if (*end == 'M')
            bytes <<= 20;
        else if (*end == 'G')
            bytes <<= 30;
        const char *t = trim(type);
        if (level == 1 && !strcmp(t, "Data"))
            h->cache_l1d = bytes;
        else if (level == 1 && !strcmp(t, "Instruction"))
            h->cache_l1i = bytes;
        else if (level == 2)
            h->cache_l2 = bytes;
        else if (level == 3)
            h->cache_l3 = bytes;
    }
}

static void detect_cpu(ortkit_host *h)
{
#if defined(__x86_64__)
    h->arch = ORTKIT_ARCH_X86_64;
    detect_x86(h);
#elif defined(__aarch64__)
    h->arch = ORTKIT_ARCH_AARCH64;
    detect_arm(h);
#endif
    if (!h->cpu_model[0]) {
        char *info = malloc(65536);
        if (info && read_text("/proc/cpuinfo", info, 65536) > 0)
            ortkit__host_arm_cpu_name(info, h->cpu_vendor, sizeof h->cpu_vendor,
                                      h->cpu_model, sizeof h->cpu_model);
        free(info);
    }
    detect_topology(h);
    detect_caches(h);
}

/* ---- memory and OS ----------------------------------------------------------- */

static uint64_t meminfo_kb(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

static void detect_memory_os(ortkit_host *h)
{
    char buf[8192];
    if (read_text("/proc/meminfo", buf, sizeof buf) > 0) {
        h->mem_total = meminfo_kb(buf, "MemTotal:") * 1024;
        h->mem_available = meminfo_kb(buf, "MemAvailable:") * 1024;
    }
    struct utsname u;
    if (uname(&u) == 0) {
        copy_str(h->os_name, sizeof h->os_name, u.sysname);
        copy_str(h->os_release, sizeof h->os_release, u.release);
    }
    if (read_text("/etc/os-release", buf, sizeof buf) > 0) {
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
            copy_str(h->os_distro, sizeof h->os_distro, p);
        }
    }
#if defined(__GLIBC__)
    copy_str(h->glibc, sizeof h->glibc, gnu_get_libc_version());
#endif
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

static void detect_nvidia(ortkit_host *h)
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
        copy_str(h->driver_version, sizeof h->driver_version, version);
    int cuda = 0;
    if (n.cuda_version && n.cuda_version(&cuda) == 0 && cuda > 0)
        h->cuda_driver = cuda;
    unsigned count = 0;
    if ((rc = n.count(&count)) != 0) {
        snprintf(h->gpu_note, sizeof h->gpu_note, "NVML cannot count GPUs: %s", nvml_err(&n, rc));
        count = 0;
    } else if (count == 0) {
        snprintf(h->gpu_note, sizeof h->gpu_note, "the NVIDIA driver sees no GPU");
    } else if (count > ORTKIT_HOST_MAX_GPUS) {
        snprintf(h->gpu_note, sizeof h->gpu_note, "only the first %d of %u GPUs are listed",
                 ORTKIT_HOST_MAX_GPUS, count);
        count = ORTKIT_HOST_MAX_GPUS;
    }
    for (unsigned i = 0; i < count; i++) {
        nvml_device dev;
        if (n.handle(i, &dev) != 0)
            continue;
        ortkit_gpu *g = &h->gpus[h->gpu_count];
        char name[96] = "";
        if (n.name(dev, name, sizeof name) != 0)
            copy_str(name, sizeof name, "unknown NVIDIA GPU");
        copy_str(g->name, sizeof g->name, name);
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

/* The CUDA that each L4T release ships with (JetPack release notes); the
 * Jetson driver runs that CUDA and older. */
static int l4t_cuda(int major, int minor)
{
    if (major >= 36)
        return minor >= 4 ? 12060 : 12020;
    if (major >= 34)
        return 11040;
    if (major >= 32)
        return 10020;
    return 0;
}

static void detect_tegra(ortkit_host *h)
{
    char buf[1024];
    /* "# R36 (release), REVISION: 4.3, GCID: ..., BOARD: generic, ..." */
    if (read_text("/etc/nv_tegra_release", buf, sizeof buf) <= 0)
        return;
    int major = 0, minor = 0, patch = 0;
    const char *r = strstr(buf, "R");
    const char *rev = strstr(buf, "REVISION:");
    if (!r || sscanf(r, "R%d", &major) != 1 || !rev ||
        sscanf(rev, "REVISION: %d.%d", &minor, &patch) < 1)
        return;
    h->tegra = 1;
    snprintf(h->l4t_release, sizeof h->l4t_release, "%d.%d.%d", major, minor, patch);
    if (read_text("/proc/device-tree/model", buf, sizeof buf) > 0)
        copy_str(h->board, sizeof h->board, trim(buf));

    if (h->gpu_count > 0)
        return;
    /* NVML does not cover the integrated GPU of a Jetson: name it from the
     * SoC in the device tree ("nvidia,tegra234"), entries separated by NULs. */
    static const struct { const char *soc, *gpu; int major, minor; } socs[] = {
        {"nvidia,tegra234", "Orin (integrated)", 8, 7},
        {"nvidia,tegra194", "Xavier (integrated)", 7, 2},
        {"nvidia,tegra186", "TX2 (integrated)", 6, 2},
        {"nvidia,tegra210", "TX1/Nano (integrated)", 5, 3},
    };
    long len = read_text("/proc/device-tree/compatible", buf, sizeof buf);
    for (long off = 0; len > 0 && off < len; off += (long)strlen(buf + off) + 1) {
        for (size_t i = 0; i < sizeof socs / sizeof socs[0]; i++) {
            if (strcmp(buf + off, socs[i].soc))
                continue;
            ortkit_gpu *g = &h->gpus[h->gpu_count++];
            copy_str(g->name, sizeof g->name, socs[i].gpu);
            g->cc_major = socs[i].major;
            g->cc_minor = socs[i].minor;
            g->memory_bytes = h->mem_total; /* shared with the CPU */
            h->cuda_driver = l4t_cuda(major, minor);
            snprintf(h->gpu_note, sizeof h->gpu_note,
                     "Jetson: integrated GPU from the device tree, CUDA from L4T R%d.%d", major,
                     minor);
            return;
        }
    }
    snprintf(h->gpu_note, sizeof h->gpu_note, "Jetson with an unknown Tegra SoC");
}

int ortkit_host_detect(ortkit_host *out)
{
    if (!out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_host_detect: out is NULL");
    memset(out, 0, sizeof *out);
    detect_cpu(out);
    detect_memory_os(out);
    detect_nvidia(out);
    detect_tegra(out);
    return ORTKIT_OK;
}

/* ---- JSON ---------------------------------------------------------------------- */

#define HOST_JSON_SCHEMA 1

static void format_cuda(char *buf, size_t size, int v)
{
    if (v > 0)
        snprintf(buf, size, "%d.%d", v / 1000, (v % 1000) / 10);
    else
        copy_str(buf, size, "");
}

int ortkit_host_to_json(const ortkit_host *h, char **json_out)
{
    if (!h || !json_out)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_host_to_json: NULL argument");
    *json_out = NULL;
    int ok = 1, rc = ORTKIT_OK;
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return ortkit__error_nomem();
#define ADD(x) (ok &= (x) != NULL)
    ADD(cJSON_AddNumberToObject(root, "schema", HOST_JSON_SCHEMA));
    ADD(cJSON_AddStringToObject(root, "arch", ortkit_arch_name(h->arch)));

    cJSON *cpu = cJSON_AddObjectToObject(root, "cpu");
    if (!cpu)
        goto nomem;
    ADD(cJSON_AddStringToObject(cpu, "vendor", h->cpu_vendor));
    ADD(cJSON_AddStringToObject(cpu, "model", h->cpu_model));
    ADD(cJSON_AddNumberToObject(cpu, "logical_cpus", h->logical_cpus));
    ADD(cJSON_AddNumberToObject(cpu, "physical_cores", h->physical_cores));
    cJSON *cache = cJSON_AddObjectToObject(cpu, "cache");
    cJSON *features = cJSON_AddArrayToObject(cpu, "features");
    if (!cache || !features)
        goto nomem;
    ADD(cJSON_AddNumberToObject(cache, "l1d", (double)h->cache_l1d));
    ADD(cJSON_AddNumberToObject(cache, "l1i", (double)h->cache_l1i));
    ADD(cJSON_AddNumberToObject(cache, "l2", (double)h->cache_l2));
    ADD(cJSON_AddNumberToObject(cache, "l3", (double)h->cache_l3));
    for (int f = 0; f < ORTKIT_CPU_FEATURE_COUNT; f++) {
        if (!(h->cpu_features & B(f)))
            continue;
        cJSON *s = cJSON_CreateString(feature_info[f].name);
        if (!s || !cJSON_AddItemToArray(features, s)) {
            cJSON_Delete(s);
            goto nomem;
        }
    }
    if (h->arch == ORTKIT_ARCH_X86_64)
        ADD(cJSON_AddNumberToObject(cpu, "x86_64_level", h->x86_64_level));

    cJSON *mem = cJSON_AddObjectToObject(root, "memory");
    cJSON *os = cJSON_AddObjectToObject(root, "os");
    cJSON *nv = cJSON_AddObjectToObject(root, "nvidia");
    if (!mem || !os || !nv)
        goto nomem;
    ADD(cJSON_AddNumberToObject(mem, "total", (double)h->mem_total));
    ADD(cJSON_AddNumberToObject(mem, "available", (double)h->mem_available));
    ADD(cJSON_AddStringToObject(os, "name", h->os_name));
    ADD(cJSON_AddStringToObject(os, "release", h->os_release));
    ADD(cJSON_AddStringToObject(os, "distro", h->os_distro));
    ADD(cJSON_AddStringToObject(os, "glibc", h->glibc));

    char cuda[16];
    format_cuda(cuda, sizeof cuda, h->cuda_driver);
    ADD(cJSON_AddStringToObject(nv, "driver", h->driver_version));
    ADD(cJSON_AddStringToObject(nv, "cuda", cuda));
    ADD(cJSON_AddStringToObject(nv, "note", h->gpu_note));
    cJSON *gpus = cJSON_AddArrayToObject(nv, "gpus");
    if (!gpus)
        goto nomem;
    for (int i = 0; i < h->gpu_count && i < ORTKIT_HOST_MAX_GPUS; i++) {
        const ortkit_gpu *g = &h->gpus[i];
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", g->cc_major, g->cc_minor);
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(gpus, o)) {
            cJSON_Delete(o);
            goto nomem;
        }
        ADD(cJSON_AddStringToObject(o, "name", g->name));
        ADD(cJSON_AddStringToObject(o, "compute_capability", cc));
        ADD(cJSON_AddNumberToObject(o, "memory", (double)g->memory_bytes));
    }

    if (h->tegra) {
        cJSON *j = cJSON_AddObjectToObject(root, "jetson");
        if (!j)
            goto nomem;
        ADD(cJSON_AddStringToObject(j, "l4t", h->l4t_release));
        ADD(cJSON_AddStringToObject(j, "board", h->board));
    }
#undef ADD
    if (!ok)
        goto nomem;
    if (!(*json_out = cJSON_Print(root)))
        goto nomem;
    goto cleanup;
nomem:
    rc = ortkit__error_nomem();
cleanup:
    cJSON_Delete(root);
    return rc;
}

/* Reading is strict: a host file is often written by hand, and a typo
 * ("avx512_bf16", "cpu.feature") must not silently describe another machine. */

static const char *json_type(const cJSON *it)
{
    if (cJSON_IsString(it)) return "a string";
    if (cJSON_IsNumber(it)) return "a number";
    if (cJSON_IsBool(it)) return "a boolean";
    if (cJSON_IsNull(it)) return "null";
    if (cJSON_IsArray(it)) return "an array";
    if (cJSON_IsObject(it)) return "an object";
    return "invalid";
}

/* "cpu" + "model" -> "cpu.model" */
static const char *key_path(char *buf, size_t size, const char *where, const char *key)
{
    snprintf(buf, size, "%s%s%s", where, *where ? "." : "", key);
    return buf;
}

static int check_keys(const cJSON *obj, const char *where, const char *const *allowed)
{
    char path[128];
    for (const cJSON *it = obj->child; it; it = it->next) {
        int known = 0;
        for (size_t i = 0; allowed[i] && !known; i++)
            known = !strcmp(it->string, allowed[i]);
        if (!known)
            return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: unknown key '%s'",
                                     key_path(path, sizeof path, where, it->string));
        for (const cJSON *o = obj->child; o != it; o = o->next)
            if (!strcmp(o->string, it->string))
                return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: key '%s' appears twice",
                                         key_path(path, sizeof path, where, it->string));
    }
    return 0;
}

/* An optional member that must be an object; *out is NULL when absent or null. */
static int get_object(const cJSON *obj, const char *key, const char *where, const cJSON **out)
{
    char path[128];
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = NULL;
    if (!it || cJSON_IsNull(it))
        return 0;
    if (!cJSON_IsObject(it))
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: '%s' must be an object, not %s",
                                 key_path(path, sizeof path, where, key), json_type(it));
    *out = it;
    return 0;
}

static int get_string(const cJSON *obj, const char *key, const char *where, char *dst,
                      size_t size)
{
    char path[128];
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it || cJSON_IsNull(it))
        return 0;
    if (!cJSON_IsString(it))
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: '%s' must be a string, not %s",
                                 key_path(path, sizeof path, where, key), json_type(it));
    if (strlen(it->valuestring) >= size)
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: '%s' is longer than %zu bytes",
                                 key_path(path, sizeof path, where, key), size - 1);
    copy_str(dst, size, it->valuestring);
    return 0;
}

static int get_uint(const cJSON *obj, const char *key, const char *where, double max,
                    uint64_t *out)
{
    char path[128];
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it || cJSON_IsNull(it))
        return 0;
    if (!cJSON_IsNumber(it))
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: '%s' must be a number, not %s",
                                 key_path(path, sizeof path, where, key), json_type(it));
    double v = it->valuedouble;
    if (!(v >= 0 && v <= max) || (double)(uint64_t)v != v)
        return ortkit__error_set(ORTKIT_E_FORMAT,
                                 "host JSON: '%s' must be a whole number from 0 to %.0f, not %g",
                                 key_path(path, sizeof path, where, key), max, v);
    *out = (uint64_t)v;
    return 0;
}

static int get_int(const cJSON *obj, const char *key, const char *where, int max, int *out)
{
    uint64_t v = (uint64_t)*out;
    int rc = get_uint(obj, key, where, max, &v);
    *out = (int)v;
    return rc;
}

/* "570.124.06", "36.4.3": digits and dots, starting and ending with a digit. */
static int dotted_ok(const char *s)
{
    if (!isdigit((unsigned char)s[0]))
        return 0;
    for (const char *p = s; *p; p++)
        if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
            return 0;
    return 1;
}

/* "12.8" -> 12080, "9.0" -> (9, 0); 0 on success. */
static int parse_major_minor(const char *s, int max_minor, int *major, int *minor)
{
    char tail;
    if (sscanf(s, "%d.%d%c", major, minor, &tail) != 2 || *major < 1 || *major > 99 ||
        *minor < 0 || *minor > max_minor || !dotted_ok(s))
        return -1;
    return 0;
}

static int read_cpu(ortkit_host *h, const cJSON *cpu)
{
    static const char *const keys[] = {"vendor", "model", "logical_cpus", "physical_cores",
                                       "cache", "features", "x86_64_level", NULL};
    static const char *const cache_keys[] = {"l1d", "l1i", "l2", "l3", NULL};
    const double max_cache = 1099511627776.0; /* 1 TiB */
    const cJSON *cache, *features;
    int rc, level = -1;
    if ((rc = check_keys(cpu, "cpu", keys)) || (rc = get_object(cpu, "cache", "cpu", &cache)) ||
        (rc = get_string(cpu, "vendor", "cpu", h->cpu_vendor, sizeof h->cpu_vendor)) ||
        (rc = get_string(cpu, "model", "cpu", h->cpu_model, sizeof h->cpu_model)) ||
        (rc = get_int(cpu, "logical_cpus", "cpu", 1 << 20, &h->logical_cpus)) ||
        (rc = get_int(cpu, "physical_cores", "cpu", 1 << 20, &h->physical_cores)) ||
        (rc = get_int(cpu, "x86_64_level", "cpu", 4, &level)))
        return rc;
    if (cache && ((rc = check_keys(cache, "cpu.cache", cache_keys)) ||
                  (rc = get_uint(cache, "l1d", "cpu.cache", max_cache, &h->cache_l1d)) ||
                  (rc = get_uint(cache, "l1i", "cpu.cache", max_cache, &h->cache_l1i)) ||
                  (rc = get_uint(cache, "l2", "cpu.cache", max_cache, &h->cache_l2)) ||
                  (rc = get_uint(cache, "l3", "cpu.cache", max_cache, &h->cache_l3))))
        return rc;

    features = cJSON_GetObjectItemCaseSensitive(cpu, "features");
    if (features && !cJSON_IsNull(features)) {
        if (!cJSON_IsArray(features))
            return ortkit__error_set(ORTKIT_E_FORMAT,
                                     "host JSON: 'cpu.features' must be an array, not %s",
                                     json_type(features));
        int i = 0;
        for (const cJSON *it = features->child; it; it = it->next, i++) {
            if (!cJSON_IsString(it))
                return ortkit__error_set(ORTKIT_E_FORMAT,
                                         "host JSON: cpu.features[%d] must be a string, not %s",
                                         i, json_type(it));
            int f = ortkit_cpu_feature_from_name(it->valuestring);
            if (f < 0)
                return ortkit__error_set(ORTKIT_E_FORMAT,
                                         "host JSON: unknown CPU feature '%s' in cpu.features",
                                         it->valuestring);
            if (feature_info[f].arch != h->arch)
                return ortkit__error_set(ORTKIT_E_FORMAT,
                                         "host JSON: CPU feature '%s' is for %s, but arch is %s",
                                         it->valuestring, ortkit_arch_name(feature_info[f].arch),
                                         ortkit_arch_name(h->arch));
            h->cpu_features |= B(f);
        }
    }
    if (h->arch != ORTKIT_ARCH_X86_64) {
        if (level > 0)
            return ortkit__error_set(ORTKIT_E_FORMAT,
                                     "host JSON: 'cpu.x86_64_level' given, but arch is %s",
                                     ortkit_arch_name(h->arch));
    } else if (level == 0) {
        return ortkit__error_set(ORTKIT_E_FORMAT,
                                 "host JSON: 'cpu.x86_64_level' must be from 1 to 4, not 0");
    } else {
        /* Absent: what the listed features make. */
        h->x86_64_level = level > 0 ? level : x86_level(h->cpu_features);
    }
    return 0;
}

static int read_nvidia(ortkit_host *h, const cJSON *nv)
{
    static const char *const keys[] = {"driver", "cuda", "gpus", "note", NULL};
    static const char *const gpu_keys[] = {"name", "compute_capability", "memory", NULL};
    char cuda[16] = "";
    int rc;
    if ((rc = check_keys(nv, "nvidia", keys)) ||
        (rc = get_string(nv, "driver", "nvidia", h->driver_version, sizeof h->driver_version)) ||
        (rc = get_string(nv, "cuda", "nvidia", cuda, sizeof cuda)) ||
        (rc = get_string(nv, "note", "nvidia", h->gpu_note, sizeof h->gpu_note)))
        return rc;
    if (h->driver_version[0] && !dotted_ok(h->driver_version))
        return ortkit__error_set(ORTKIT_E_FORMAT,
                                 "host JSON: 'nvidia.driver' must look like \"570.124.06\", not \"%s\"",
                                 h->driver_version);
    if (cuda[0]) {
        int major, minor;
        if (parse_major_minor(cuda, 99, &major, &minor))
            return ortkit__error_set(ORTKIT_E_FORMAT,
                                     "host JSON: 'nvidia.cuda' must look like \"12.8\", not \"%s\"",
                                     cuda);
        h->cuda_driver = major * 1000 + minor * 10;
    }
    const cJSON *gpus = cJSON_GetObjectItemCaseSensitive(nv, "gpus");
    if (!gpus || cJSON_IsNull(gpus))
        return 0;
    if (!cJSON_IsArray(gpus))
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: 'nvidia.gpus' must be an array, not %s",
                                 json_type(gpus));
    if (cJSON_GetArraySize(gpus) > ORTKIT_HOST_MAX_GPUS)
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: 'nvidia.gpus' lists %d GPUs; at most %d",
                                 cJSON_GetArraySize(gpus), ORTKIT_HOST_MAX_GPUS);
    for (const cJSON *it = gpus->child; it; it = it->next) {
        char where[32], cc[16] = "";
        ortkit_gpu *g = &h->gpus[h->gpu_count];
        snprintf(where, sizeof where, "nvidia.gpus[%d]", h->gpu_count);
        if (!cJSON_IsObject(it))
            return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: '%s' must be an object, not %s",
                                     where, json_type(it));
        if ((rc = check_keys(it, where, gpu_keys)) ||
            (rc = get_string(it, "name", where, g->name, sizeof g->name)) ||
            (rc = get_string(it, "compute_capability", where, cc, sizeof cc)) ||
            (rc = get_uint(it, "memory", where, 9007199254740992.0, &g->memory_bytes)))
            return rc;
        if (parse_major_minor(cc, 9, &g->cc_major, &g->cc_minor))
            return ortkit__error_set(ORTKIT_E_FORMAT,
                                     "host JSON: '%s.compute_capability' must look like \"9.0\", not \"%s\"",
                                     where, cc);
        h->gpu_count++;
    }
    return 0;
}

int ortkit_host_from_json(ortkit_host *out, const char *json)
{
    static const char *const keys[] = {"schema", "arch", "cpu", "memory", "os",
                                       "nvidia", "jetson", NULL};
    static const char *const mem_keys[] = {"total", "available", NULL};
    static const char *const os_keys[] = {"name", "release", "distro", "glibc", NULL};
    static const char *const jetson_keys[] = {"l4t", "board", NULL};
    const double max_mem = 9007199254740992.0; /* 2^53: exact in JSON numbers */
    if (!out || !json)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_host_from_json: NULL argument");

    ortkit_host h;
    memset(&h, 0, sizeof h);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(json, &end, 1);
    int rc = ORTKIT_OK;
    const cJSON *cpu, *mem, *os, *nv, *jet;
    if (!root) {
        int line = 1, col = 1;
        for (const char *p = json; end && p < end && *p; p++, col++)
            if (*p == '\n')
                line++, col = 0;
        return ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: syntax error at line %d, column %d",
                                 line, col);
    }
    if (!cJSON_IsObject(root)) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: must be an object, not %s",
                               json_type(root));
        goto cleanup;
    }
    uint64_t schema = HOST_JSON_SCHEMA;
    char arch[16] = "";
    if ((rc = check_keys(root, "", keys)) || (rc = get_uint(root, "schema", "", 1e6, &schema)) ||
        (rc = get_string(root, "arch", "", arch, sizeof arch)))
        goto cleanup;
    if (schema != HOST_JSON_SCHEMA) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: schema %llu is not known (this ortkit reads %d)",
                               (unsigned long long)schema, HOST_JSON_SCHEMA);
        goto cleanup;
    }
    if (!strcmp(arch, "x86_64"))
        h.arch = ORTKIT_ARCH_X86_64;
    else if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))
        h.arch = ORTKIT_ARCH_AARCH64;
    else {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "host JSON: 'arch' must be \"x86_64\" or \"aarch64\"%s%s%s",
                               arch[0] ? ", not \"" : " and is missing", arch, arch[0] ? "\"" : "");
        goto cleanup;
    }
    if ((rc = get_object(root, "cpu", "", &cpu)) || (rc = get_object(root, "memory", "", &mem)) ||
        (rc = get_object(root, "os", "", &os)) || (rc = get_object(root, "nvidia", "", &nv)) ||
        (rc = get_object(root, "jetson", "", &jet)))
        goto cleanup;
    if (cpu && (rc = read_cpu(&h, cpu)))
        goto cleanup;
    if (!cpu && h.arch == ORTKIT_ARCH_X86_64)
        h.x86_64_level = 1;
    if (mem && ((rc = check_keys(mem, "memory", mem_keys)) ||
                (rc = get_uint(mem, "total", "memory", max_mem, &h.mem_total)) ||
                (rc = get_uint(mem, "available", "memory", max_mem, &h.mem_available))))
        goto cleanup;
    if (os && ((rc = check_keys(os, "os", os_keys)) ||
               (rc = get_string(os, "name", "os", h.os_name, sizeof h.os_name)) ||
               (rc = get_string(os, "release", "os", h.os_release, sizeof h.os_release)) ||
               (rc = get_string(os, "distro", "os", h.os_distro, sizeof h.os_distro)) ||
               (rc = get_string(os, "glibc", "os", h.glibc, sizeof h.glibc))))
        goto cleanup;
    if (nv && (rc = read_nvidia(&h, nv)))
        goto cleanup;
    if (jet) {
        if ((rc = check_keys(jet, "jetson", jetson_keys)) ||
            (rc = get_string(jet, "l4t", "jetson", h.l4t_release, sizeof h.l4t_release)) ||
            (rc = get_string(jet, "board", "jetson", h.board, sizeof h.board)))
            goto cleanup;
        if (!dotted_ok(h.l4t_release)) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT,
                                   "host JSON: 'jetson.l4t' must look like \"36.4.3\", not \"%s\"",
                                   h.l4t_release);
            goto cleanup;
        }
        h.tegra = 1;
    }
    *out = h;
cleanup:
    cJSON_Delete(root);
    return rc;
}

int ortkit_host_load(ortkit_host *out, const char *path)
{
    if (!out || !path)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_host_load: NULL argument");
    char *text = NULL;
    size_t size;
    int rc = ortkit__file_read(&text, &size, path, 1 << 20);
    if (rc != 0)
        return rc;
    if (strlen(text) != size)
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s': host JSON holds a NUL byte", path);
    else if ((rc = ortkit_host_from_json(out, text)) != 0)
        ortkit__error_wrap(rc, "'%s'", path);
    free(text);
    return rc;
}
