/*
 * bundle_platform.c - which CUDA an imported CUDA build is made with: NVIDIA's
 * x86_64 or SBSA toolkit, or Jetson's own in L4T.  Nothing in a provider's
 * ELF file names its toolkit: an L4T and an SBSA build need the same
 * sonames (libcudart.so.12, libcublas.so.12, libcudnn.so.9).  What tells
 * them apart is the GPU code.  SM 5.3, 6.2, 7.2 and 8.7 are Jetson's
 * integrated GPUs (TX1/Nano, TX2, Xavier, Orin), which only L4T's CUDA
 * drives, and ONNX Runtime built on aarch64 targets exactly those unless
 * told otherwise ("Support for Jetson/Tegra ARM devices":
 * CMAKE_CUDA_ARCHITECTURES 53;62;72;87 in cmake/external/
 * cuda_configuration.cmake).  So a release whose SASS is all of those is
 * an L4T build, one with none of them an SBSA build, and a mix, or no
 * SASS, is said by whoever imports it (--platform).
 */
#include "bundle_make.h"

#include <stdio.h>
#include <string.h>

static const int l4t_sms[] = {53, 62, 72, 87};

static int l4t_only(int sm)
{
    for (size_t i = 0; i < sizeof l4t_sms / sizeof l4t_sms[0]; i++)
        if (l4t_sms[i] == sm)
            return 1;
    return 0;
}

int ortkit__import_platform(ortkit_cuda_platform *out, ortkit_arch arch, const ortkit_variant *v,
                            const ortkit__fatbin *code, const char *given, const char *src)
{
    int p = given ? ortkit_cuda_platform_from_name(given) : ORTKIT_CUDA_PLATFORM_UNKNOWN;
    *out = ORTKIT_CUDA_PLATFORM_UNKNOWN;
    if (p < 0)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "unknown platform '%s': expected sbsa (NVIDIA's "
                                 "CUDA for Arm servers, and Jetson from JetPack 7), l4t (Jetson's own, "
                                 "up to JetPack 6) or x86_64", given);
    ortkit_cuda_platform arch_only = arch == ORTKIT_ARCH_X86_64 ? ORTKIT_CUDA_PLATFORM_X86_64
                                                                 : ORTKIT_CUDA_PLATFORM_UNKNOWN;
    if (p && (p == ORTKIT_CUDA_PLATFORM_X86_64) != (arch == ORTKIT_ARCH_X86_64))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "cannot import '%s' for platform %s: it is "
                                 "built for %s", src, given, ortkit_arch_name(arch));
    int cuda = (v && v->cuda) || code;
    if (!cuda) {
        if (p)
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "cannot import '%s' for platform %s: it "
                                     "is no CUDA build (a CUDA provider beside it, or a CUDA "
                                     "variant, makes one)", src, given);
        return ORTKIT_OK;
    }
    if (v && v->cuda) {
        if (p && p != (int)v->cuda_platform)
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "cannot import '%s': variant %s is built "
                                     "with %s, and --platform says %s", src, v->name,
                                     ortkit_cuda_platform_label(v->cuda_platform), given);
        *out = v->cuda_platform;
        return ORTKIT_OK;
    }
    if (p || arch_only) {
        *out = p ? (ortkit_cuda_platform)p : arch_only;
        return ORTKIT_OK;
    }
    size_t jetson = 0;
    char sass[200] = "";
    for (size_t i = 0; i < code->sass_count; i++) {
        char name[24];
        jetson += l4t_only(code->sass[i].sm);
        snprintf(sass + strlen(sass), sizeof sass - strlen(sass), "%s%s", i ? " " : "",
                 ortkit__gpu_target_name(&code->sass[i], 0, name, sizeof name));
    }
    if (code->sass_count && jetson == code->sass_count)
        *out = ORTKIT_CUDA_PLATFORM_L4T;
    else if (code->sass_count && jetson == 0)
        *out = ORTKIT_CUDA_PLATFORM_SBSA;
    else
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "cannot tell whether '%s' is built with "
                                 "NVIDIA's SBSA CUDA or Jetson's L4T CUDA: %s%s; give --platform sbsa "
                                 "or --platform l4t", src, code->sass_count ? "its SASS mixes Jetson's "
                                 "integrated GPUs (SM 5.3, 6.2, 7.2, 8.7) with others: " : "it has no "
                                 "SASS", sass);
    return ORTKIT_OK;
}
