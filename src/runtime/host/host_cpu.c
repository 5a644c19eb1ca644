/* host_cpu.c - the CPU: vendor, model, instruction sets (cpuid, XCR0, AT_HWCAP), cores, caches. */
#include "host_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif
#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

/* The bit of one CPU feature, for the feature sets below. */
#define FEATURE(name) ORTKIT_CPU_BIT(ORTKIT_CPU_##name)

/* ---- CPU ----------------------------------------------------------------------- */

#if defined(__x86_64__)
static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* Where cpuid reports each feature: leaf, subleaf, register, bit. */
enum { EAX, EBX, ECX, EDX };
static const struct cpuid_bit {
    unsigned leaf, subleaf;
    unsigned char reg, bit;
    int feature;
} cpuid_bits[] = {
    {1, 0, ECX, 0, ORTKIT_CPU_SSE3},         {1, 0, ECX, 9, ORTKIT_CPU_SSSE3},
    {1, 0, ECX, 12, ORTKIT_CPU_FMA},         {1, 0, ECX, 13, ORTKIT_CPU_CX16},
    {1, 0, ECX, 19, ORTKIT_CPU_SSE4_1},      {1, 0, ECX, 20, ORTKIT_CPU_SSE4_2},
    {1, 0, ECX, 22, ORTKIT_CPU_MOVBE},       {1, 0, ECX, 23, ORTKIT_CPU_POPCNT},
    {1, 0, ECX, 28, ORTKIT_CPU_AVX},         {1, 0, ECX, 29, ORTKIT_CPU_F16C},
    {7, 0, EBX, 3, ORTKIT_CPU_BMI1},         {7, 0, EBX, 5, ORTKIT_CPU_AVX2},
    {7, 0, EBX, 8, ORTKIT_CPU_BMI2},         {7, 0, EBX, 16, ORTKIT_CPU_AVX512F},
    {7, 0, EBX, 17, ORTKIT_CPU_AVX512DQ},    {7, 0, EBX, 28, ORTKIT_CPU_AVX512CD},
    {7, 0, EBX, 30, ORTKIT_CPU_AVX512BW},    {7, 0, EBX, 31, ORTKIT_CPU_AVX512VL},
    {7, 0, ECX, 11, ORTKIT_CPU_AVX512VNNI},  {7, 0, EDX, 22, ORTKIT_CPU_AMX_BF16},
    {7, 0, EDX, 24, ORTKIT_CPU_AMX_TILE},    {7, 0, EDX, 25, ORTKIT_CPU_AMX_INT8},
    {7, 1, EAX, 4, ORTKIT_CPU_AVXVNNI},      {7, 1, EAX, 5, ORTKIT_CPU_AVX512BF16},
    {0x80000001u, 0, ECX, 0, ORTKIT_CPU_LAHF}, {0x80000001u, 0, ECX, 5, ORTKIT_CPU_LZCNT},
};

static void detect_x86(ortkit__host_data *h)
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

    unsigned ecx1 = 0, subleaves7 = 0, ext = __get_cpuid_max(0x80000000u, NULL);
    if (max >= 1) {
        __cpuid(1, a, b, c, d);
        ecx1 = c;
    }
    if (max >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        subleaves7 = a;
    }
    /* The table is in (leaf, subleaf) order: each is asked once (in a
     * virtual machine every cpuid is a trip to the hypervisor). */
    unsigned r[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < sizeof cpuid_bits / sizeof cpuid_bits[0]; i++) {
        const struct cpuid_bit *e = &cpuid_bits[i];
        if (i == 0 || e->leaf != e[-1].leaf || e->subleaf != e[-1].subleaf) {
            int known = e->leaf >= 0x80000000u ? e->leaf <= ext
                                                : e->leaf <= max && (e->leaf != 7 || e->subleaf <= subleaves7);
            memset(r, 0, sizeof r);
            if (known)
                __cpuid_count(e->leaf, e->subleaf, r[EAX], r[EBX], r[ECX], r[EDX]);
        }
        if (r[e->reg] & (1u << e->bit))
            f |= ORTKIT_CPU_BIT(e->feature);
    }
    if (ext >= 0x80000004u) {
        unsigned brand[12];
        for (unsigned i = 0; i < 3; i++)
            __cpuid(0x80000002u + i, brand[4 * i], brand[4 * i + 1], brand[4 * i + 2],
                    brand[4 * i + 3]);
        char text[49];
        memcpy(text, brand, 48);
        text[48] = '\0';
        ortkit__host_copy_str(h->cpu_model, sizeof h->cpu_model, ortkit__host_trim(text));
    }

    /* A CPU may have AVX while the OS does not save the wider registers
     * (old kernels, some hypervisors): then AVX code faults.  XCR0 says what
     * the OS saves: bits 1-2 SSE/AVX state, 5-7 AVX-512 state, 17-18 AMX. */
    uint64_t xcr0 = (ecx1 & (1u << 27)) ? read_xcr0() : 0;
    int os_avx = (xcr0 & 0x6) == 0x6;
    int os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;
    int os_amx = (xcr0 & 0x60000) == 0x60000;
    if (!os_avx)
        f &= ~(FEATURE(AVX) | FEATURE(AVX2) | FEATURE(FMA) |
               FEATURE(F16C) | FEATURE(AVXVNNI));
    if (!os_avx512)
        f &= ~(FEATURE(AVX512F) | FEATURE(AVX512CD) | FEATURE(AVX512BW) |
               FEATURE(AVX512DQ) | FEATURE(AVX512VL) | FEATURE(AVX512VNNI) |
               FEATURE(AVX512BF16));
    if (!os_amx)
        f &= ~(FEATURE(AMX_TILE) | FEATURE(AMX_INT8) | FEATURE(AMX_BF16));

    h->cpu_features = f;
    h->x86_64_level = ortkit__host_x86_level(f);
}
#endif

#if defined(__aarch64__)
/* Linux's AT_HWCAP/AT_HWCAP2 bits (arch/arm64/include/uapi/asm/hwcap.h). */
static void detect_arm(ortkit__host_data *h)
{
    unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
    uint64_t f = 0;
    if (hw & (1ul << 1))
        f |= FEATURE(ASIMD);
    /* FPHP and ASIMDHP: scalar and vector half precision; -march=...+fp16 uses both. */
    if ((hw & (1ul << 9)) && (hw & (1ul << 10)))
        f |= FEATURE(FP16);
    if (hw & (1ul << 20))
        f |= FEATURE(DOTPROD);
    if (hw & (1ul << 22))
        f |= FEATURE(SVE);
    if (hw2 & (1ul << 1))
        f |= FEATURE(SVE2);
    if (hw2 & (1ul << 13))
        f |= FEATURE(I8MM);
    if (hw2 & (1ul << 14))
        f |= FEATURE(BF16);
    h->cpu_features = f;
}
#endif

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The most CPUs a Linux kernel numbers (NR_CPUS at its largest, MAXSMP):
 * the whole online list is bounded by it, whatever its ranges say. */
#define CPUS_MAX 8192

/* Logical CPUs from the online list ("0-3,8-11"): each CPU counted once,
 * numbers at or past CPUS_MAX passed over; physical cores as distinct
 * (package, core) pairs of their topology. */
static void detect_topology(ortkit__host_data *h)
{
    char list[4096];
    if (ortkit__host_read_text("/sys/devices/system/cpu/online", list, sizeof list) <= 0) {
        if (!ortkit__host_root_moved()) { /* only the real machine has a real sysconf */
            h->logical_cpus = ortkit__proc_cpus();
        }
        return;
    }
    static const size_t words = CPUS_MAX / 64;
    uint64_t online[CPUS_MAX / 64];
    memset(online, 0, sizeof online);
    for (char *tok = strtok(list, ",\n"); tok; tok = strtok(NULL, ",\n")) {
        char *dash;
        long lo = strtol(tok, &dash, 10), hi = lo;
        if (*dash == '-')
            hi = strtol(dash + 1, NULL, 10);
        if (lo < 0)
            lo = 0;
        if (hi >= CPUS_MAX)
            hi = CPUS_MAX - 1;
        for (long cpu = lo; cpu <= hi; cpu++)
            online[cpu / 64] |= 1ull << (cpu % 64);
    }
    uint64_t *keys = malloc(CPUS_MAX * sizeof *keys);
    size_t count = 0;
    if (!keys)
        return;
    int logical = 0;
    for (size_t w = 0; w < words; w++) {
        for (int bit = 0; bit < 64 && online[w] >> bit; bit++) {
            if (!(online[w] >> bit & 1))
                continue;
            long cpu = (long)(w * 64) + bit;
            logical++;
            char path[128];
            long core, pkg;
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/topology/core_id", cpu);
            if (ortkit__host_read_long(path, &core) != 0)
                continue;
            snprintf(path, sizeof path,
                     "/sys/devices/system/cpu/cpu%ld/topology/physical_package_id", cpu);
            if (ortkit__host_read_long(path, &pkg) != 0)
                pkg = 0;
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
static void detect_caches(ortkit__host_data *h)
{
    for (int i = 0; i < 16; i++) {
        char path[128], type[32], size[32];
        long level;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (ortkit__host_read_long(path, &level) != 0)
            break;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (ortkit__host_read_text(path, type, sizeof type) <= 0)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (ortkit__host_read_text(path, size, sizeof size) <= 0)
            continue;
        char *end;
        uint64_t bytes = strtoull(size, &end, 10);
        if (*end == 'K')
            bytes <<= 10;
        else if (*end == 'M')
            bytes <<= 20;
        else if (*end == 'G')
            bytes <<= 30;
        const char *t = ortkit__host_trim(type);
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

void ortkit__host_detect_cpu(ortkit__host_data *h)
{
    /* The first processors of /proc/cpuinfo: enough for the names and the
     * features of the first, on machines with hundreds of cores. */
    char *info = malloc(65536);
    if (info && ortkit__host_read_text("/proc/cpuinfo", info, 65536) <= 0)
        info[0] = '\0';
    if (ortkit__host_root_moved()) {
        /* A described machine: what its kernel wrote, not this CPU's answers. */
        if (info)
            ortkit__host_cpuinfo(h, info);
    } else {
#if defined(__x86_64__)
        h->arch = ORTKIT_ARCH_X86_64;
        detect_x86(h);
#elif defined(__aarch64__)
        h->arch = ORTKIT_ARCH_AARCH64;
        detect_arm(h);
#endif
        if (!h->cpu_model[0] && info)
            ortkit__host_arm_cpu_name(info, h->cpu_vendor, sizeof h->cpu_vendor, h->cpu_model,
                                      sizeof h->cpu_model);
    }
    free(info);
    detect_topology(h);
    detect_caches(h);
}
