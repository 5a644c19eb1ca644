/*
 * host_platform.c - which CUDA a machine takes (ortkit_cuda_platform), from
 * what detection found.  NVIDIA ships CUDA per platform: x86_64, SBSA (Arm
 * servers) and, up to JetPack 6, Jetson's own in Linux for Tegra (L4T).
 * CUDA 13 made one toolkit for Arm, and JetPack 7 (L4T R38, Jetson Thor) is
 * the first Jetson release on it; Orin stays on L4T's (NVIDIA, "What's New
 * in CUDA Toolkit 13.0 for Jetson Thor").  So the L4T release decides for a
 * Jetson, and every other aarch64 machine takes SBSA.
 */
#include "host_internal.h"
#include "host_cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"unknown", "x86_64", "sbsa", "l4t"};
static const char *const labels[] = {"an unknown CUDA platform", "NVIDIA's x86_64 CUDA",
                                     "NVIDIA's SBSA CUDA", "Jetson's L4T CUDA"};
#define PLATFORMS (sizeof names / sizeof names[0])

/* The first L4T major on NVIDIA's SBSA CUDA: R38, JetPack 7. */
#define L4T_SBSA_FROM 38

const char *ortkit_cuda_platform_name(ortkit_cuda_platform p)
{
    return (unsigned)p < PLATFORMS ? names[p] : names[0];
}

const char *ortkit_cuda_platform_label(ortkit_cuda_platform p)
{
    return (unsigned)p < PLATFORMS ? labels[p] : labels[0];
}

int ortkit_cuda_platform_from_name(const char *name)
{
    for (size_t i = 1; name && i < PLATFORMS; i++)
        if (!strcmp(name, names[i]))
            return (int)i;
    return -1;
}

/* JetPack by L4T major (NVIDIA's JetPack release notes): R32 is JetPack 4,
 * R34 and R35 5, R36 6, R38 7. */
int ortkit__jetpack_of_l4t(const char *l4t_release)
{
    static const struct { int l4t, jetpack; } map[] = {{32, 4}, {34, 5}, {35, 5}, {36, 6}, {38, 7}};
    int major = l4t_release ? atoi(l4t_release) : 0;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].l4t == major)
            return map[i].jetpack;
    return 0;
}

/* The CUDA majors of L4T's own CUDA: 10.2 in JetPack 4, 11.4 in 5, 12.x in 6. */
int ortkit__jetpack_of_l4t_cuda(int cuda)
{
    int major = cuda / 1000;
    return major == 10 ? 4 : major == 11 ? 5 : major == 12 ? 6 : 0;
}

ortkit_cuda_platform ortkit__host_platform_of(ortkit_arch arch, int tegra, const char *l4t_release)
{
    if (arch == ORTKIT_ARCH_X86_64)
        return ORTKIT_CUDA_PLATFORM_X86_64;
    if (arch != ORTKIT_ARCH_AARCH64)
        return ORTKIT_CUDA_PLATFORM_UNKNOWN;
    /* A Jetson whose release is unknown is taken for one of the older, L4T ones. */
    if (tegra && (!l4t_release || !l4t_release[0] || atoi(l4t_release) < L4T_SBSA_FROM))
        return ORTKIT_CUDA_PLATFORM_L4T;
    return ORTKIT_CUDA_PLATFORM_SBSA;
}

ortkit_cuda_platform ortkit__host_platform(const ortkit_host *h)
{
    if (h->cuda_platform != ORTKIT_CUDA_PLATFORM_UNKNOWN)
        return h->cuda_platform;
    return ortkit__host_platform_of(h->arch, h->tegra, h->l4t_release);
}

const char *ortkit_host_platform_text(const ortkit_host *h, char *buf, size_t size)
{
    if (!buf || !size)
        return buf;
    buf[0] = '\0';
    if (!h)
        return buf;
    ortkit_cuda_platform p = ortkit__host_platform(h);
    const char *label = ortkit_cuda_platform_label(p);
    char jetson[96] = "";
    if (h->tegra) {
        int jp = ortkit__jetpack_of_l4t(h->l4t_release);
        if (jp)
            snprintf(jetson, sizeof jetson, "JetPack %d, L4T R%.32s", jp, h->l4t_release);
        else if (h->l4t_release[0])
            snprintf(jetson, sizeof jetson, "L4T R%.32s", h->l4t_release);
        else
            snprintf(jetson, sizeof jetson, "L4T release unknown");
    }
    int n;
    if (p == ORTKIT_CUDA_PLATFORM_L4T)
        n = snprintf(buf, size, "%s (%s)", label, jetson);
    else if (p == ORTKIT_CUDA_PLATFORM_SBSA)
        n = snprintf(buf, size, "%s (%s%s)", label, h->tegra ? "a Jetson on " : "arm64, not a Jetson",
                     jetson);
    else
        n = snprintf(buf, size, "%s", label);
    if (n < 0 || (size_t)n >= size)
        buf[0] = '\0';
    return buf;
}
