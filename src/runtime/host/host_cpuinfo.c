/*
 * host_cpuinfo.c - the CPU as the kernel's words and numbers name it: the
 * core behind /proc/cpuinfo's implementer and part (arm64 has no brand
 * string), the psABI level a set of x86-64 features makes, and the CPU of a
 * described machine from its /proc/cpuinfo: what cpuid and AT_HWCAP tell
 * the running machine.  The kernel writes the
 * features it found and enabled (x86-64 "flags" leave out AVX when the OS
 * does not save its registers, as XCR0 does), so the words carry the same
 * answer; the first processor speaks for all.
 */
#include "host_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FEATURE(name) ORTKIT_CPU_BIT(ORTKIT_CPU_##name)

/* psABI levels: x86-64-v2 adds CMPXCHG16B, LAHF, POPCNT, SSE3..SSE4.2;
 * v3 adds AVX, AVX2, BMI1/2, F16C, FMA, LZCNT, MOVBE; v4 adds AVX-512
 * F/BW/CD/DQ/VL. */
int ortkit__host_x86_level(uint64_t f)
{
#define HAS_ALL(m) ((f & (m)) == (m))
    const uint64_t v2 = FEATURE(CX16) | FEATURE(LAHF) | FEATURE(POPCNT) |
                        FEATURE(SSE3) | FEATURE(SSSE3) | FEATURE(SSE4_1) |
                        FEATURE(SSE4_2);
    const uint64_t v3 = FEATURE(AVX) | FEATURE(AVX2) | FEATURE(BMI1) |
                        FEATURE(BMI2) | FEATURE(F16C) | FEATURE(FMA) |
                        FEATURE(LZCNT) | FEATURE(MOVBE);
    const uint64_t v4 = FEATURE(AVX512F) | FEATURE(AVX512BW) |
                        FEATURE(AVX512CD) | FEATURE(AVX512DQ) | FEATURE(AVX512VL);
    if (!HAS_ALL(v2))
        return 1;
    if (!HAS_ALL(v3))
        return 2;
    return HAS_ALL(v4) ? 4 : 3;
#undef HAS_ALL
}

/* arm64 has no brand string: name the core from /proc/cpuinfo's implementer
 * and part numbers (Linux, arch/arm64/include/asm/cputype.h: Neoverse-V3AE
 * is Jetson Thor's, Cortex-X925 and A725 GB10's).  Returns 0 when they were
 * found. */
int ortkit__host_arm_cpu_name(const char *cpuinfo, char *vendor, size_t vendor_size,
                              char *model, size_t model_size)
{
    /* Implementer 0x00 is reserved for software: qemu's "max" CPU is part
     * 0x051 of it (its other -cpu models are the real cores' numbers). */
    static const struct { unsigned impl; const char *name; } vendors[] = {
        {0x41, "ARM"}, {0x42, "Broadcom"}, {0x43, "Cavium"}, {0x48, "HiSilicon"},
        {0x4e, "NVIDIA"}, {0x51, "Qualcomm"}, {0x61, "Apple"}, {0xc0, "Ampere"},
        {0x00, "QEMU"},
    };
    static const struct { unsigned impl, part; const char *name; } parts[] = {
        {0x41, 0xd03, "Cortex-A53"},   {0x41, 0xd07, "Cortex-A57"},
        {0x41, 0xd08, "Cortex-A72"},   {0x41, 0xd0b, "Cortex-A76"},
        {0x41, 0xd0c, "Neoverse-N1"},  {0x41, 0xd40, "Neoverse-V1"},
        {0x41, 0xd41, "Cortex-A78"},   {0x41, 0xd42, "Cortex-A78AE"},
        {0x41, 0xd49, "Neoverse-N2"},  {0x41, 0xd4f, "Neoverse-V2"},
        {0x41, 0xd81, "Cortex-A720"},  {0x41, 0xd82, "Cortex-X4"},
        {0x41, 0xd83, "Neoverse-V3AE"}, {0x41, 0xd84, "Neoverse-V3"},
        {0x41, 0xd85, "Cortex-X925"},  {0x41, 0xd87, "Cortex-A725"},
        {0x41, 0xd8e, "Neoverse-N3"},
        {0x4e, 0x004, "Carmel"},       {0xc0, 0xac3, "AmpereOne"},
        {0x00, 0x051, "max"},
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

/* The kernel's names (arch/x86/include/asm/cpufeatures.h; arm64's
 * Documentation/arch/arm64/elf_hwcaps.rst), one feature each. */
static const struct { const char *word; uint64_t bit; } x86_words[] = {
    {"pni", FEATURE(SSE3)},          {"ssse3", FEATURE(SSSE3)},         {"sse4_1", FEATURE(SSE4_1)},
    {"sse4_2", FEATURE(SSE4_2)},     {"popcnt", FEATURE(POPCNT)},       {"cx16", FEATURE(CX16)},
    {"lahf_lm", FEATURE(LAHF)},      {"movbe", FEATURE(MOVBE)},         {"abm", FEATURE(LZCNT)},
    {"bmi1", FEATURE(BMI1)},         {"bmi2", FEATURE(BMI2)},           {"avx", FEATURE(AVX)},
    {"avx2", FEATURE(AVX2)},         {"fma", FEATURE(FMA)},             {"f16c", FEATURE(F16C)},
    {"avx512f", FEATURE(AVX512F)},   {"avx512cd", FEATURE(AVX512CD)},   {"avx512bw", FEATURE(AVX512BW)},
    {"avx512dq", FEATURE(AVX512DQ)}, {"avx512vl", FEATURE(AVX512VL)},   {"avx512_vnni", FEATURE(AVX512VNNI)},
    {"avx512_bf16", FEATURE(AVX512BF16)}, {"avx_vnni", FEATURE(AVXVNNI)}, {"amx_tile", FEATURE(AMX_TILE)},
    {"amx_int8", FEATURE(AMX_INT8)}, {"amx_bf16", FEATURE(AMX_BF16)},
}, arm_words[] = {
    {"asimd", FEATURE(ASIMD)}, {"asimddp", FEATURE(DOTPROD)}, {"sve", FEATURE(SVE)},
    {"sve2", FEATURE(SVE2)},   {"i8mm", FEATURE(I8MM)},       {"bf16", FEATURE(BF16)},
};

/* The value of the first "key : value" line whose key is key, into buf
 * (cut to fit); NULL when there is none. */
static const char *field(const char *text, const char *key, char *buf, size_t size)
{
    size_t n = strlen(key);
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        if (strncmp(line, key, n) || (line[n] != ' ' && line[n] != '\t' && line[n] != ':'))
            continue;
        const char *colon = strchr(line, ':'), *eol = strchr(line, '\n');
        if (!colon || (eol && colon > eol))
            continue;
        size_t len = eol ? (size_t)(eol - colon - 1) : strlen(colon + 1);
        snprintf(buf, size, "%.*s", (int)len, colon + 1);
        return ortkit__host_trim(buf);
    }
    return NULL;
}

/* Is word one of the space-separated words of list? */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ' || p[-1] == '\t') && (p[n] == '\0' || p[n] == ' ' || p[n] == '\t'))
            return 1;
    return 0;
}

void ortkit__host_cpuinfo(ortkit__host_data *h, const char *cpuinfo)
{
    char value[128];
    uint64_t f = 0;
    const char *list;
    char *buf = malloc(8192); /* a "flags" line of a recent x86-64 CPU is about 1.5 KB */
    if (!buf)
        return;
    if ((list = field(cpuinfo, "flags", buf, 8192))) {
        h->arch = ORTKIT_ARCH_X86_64;
        for (size_t i = 0; i < sizeof x86_words / sizeof x86_words[0]; i++)
            if (has_word(list, x86_words[i].word))
                f |= x86_words[i].bit;
        h->cpu_features = f;
        h->x86_64_level = ortkit__host_x86_level(f);
        const char *v;
        if ((v = field(cpuinfo, "vendor_id", value, sizeof value)))
            ortkit__host_copy_str(h->cpu_vendor, sizeof h->cpu_vendor, v);
        if ((v = field(cpuinfo, "model name", value, sizeof value)))
            ortkit__host_copy_str(h->cpu_model, sizeof h->cpu_model, v);
    } else if ((list = field(cpuinfo, "Features", buf, 8192))) {
        h->arch = ORTKIT_ARCH_AARCH64;
        for (size_t i = 0; i < sizeof arm_words / sizeof arm_words[0]; i++)
            if (has_word(list, arm_words[i].word))
                f |= arm_words[i].bit;
        /* Scalar and vector half precision: -march=...+fp16 uses both. */
        if (has_word(list, "fphp") && has_word(list, "asimdhp"))
            f |= FEATURE(FP16);
        h->cpu_features = f;
        ortkit__host_arm_cpu_name(cpuinfo, h->cpu_vendor, sizeof h->cpu_vendor, h->cpu_model,
                                  sizeof h->cpu_model);
    }
    free(buf);
}
