/*
 * variant_platform.h - whether a CUDA build may run on a host's CUDA
 * platform (platform_fit.c), for variants, bundles and selection.  Not
 * installed.
 */
#ifndef ORTKIT_VARIANT_PLATFORM_H
#define ORTKIT_VARIANT_PLATFORM_H

#include "core.h"

/* 1 when a build for platform (of CUDA cuda, 1000*major + 10*minor) cannot
 * run on the host's platform, with why (when why_size > 0): "built for
 * Jetson's L4T CUDA (JetPack 6); this host takes NVIDIA's SBSA CUDA (a
 * Jetson on JetPack 7, L4T R38.2.0)"; 0 when the platforms agree. */
int ortkit__cuda_platform_refuses(ortkit_cuda_platform platform, int cuda, const ortkit_host *host,
                                  char *why, size_t why_size);
/* What a build for platform is, in words: "Jetson's L4T CUDA (JetPack 6)". */
void ortkit__cuda_platform_build_text(char *buf, size_t size, ortkit_cuda_platform platform, int cuda);

#endif
