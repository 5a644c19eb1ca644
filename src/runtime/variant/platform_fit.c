/*
 * platform_fit.c - a CUDA build runs only on the platform its toolkit is
 * for: x86_64, SBSA (Arm servers, and Jetson from JetPack 7) or Jetson's
 * L4T.  Both of the last two are aarch64, so the architecture alone lets a
 * Jetson bundle reach a Grace server; this is the check that does not.
 */
#include "host_cuda.h"
#include "variant_platform.h"

#include <stdio.h>

void ortkit__cuda_platform_build_text(char *buf, size_t size, ortkit_cuda_platform platform, int cuda)
{
    const char *label = ortkit_cuda_platform_label(platform);
    int jetpack = ortkit__jetpack_of_l4t_cuda(cuda);
    if (platform == ORTKIT_CUDA_PLATFORM_L4T && jetpack)
        snprintf(buf, size, "%s (JetPack %d)", label, jetpack);
    else if (platform == ORTKIT_CUDA_PLATFORM_SBSA)
        snprintf(buf, size, "%s (arm64 servers, and Jetson from JetPack 7)", label);
    else
        snprintf(buf, size, "%s", label);
}

int ortkit__cuda_platform_refuses(ortkit_cuda_platform platform, int cuda, const ortkit_host *host,
                                  char *why, size_t why_size)
{
    ortkit_cuda_platform takes = ortkit__host_platform(host);
    if (platform == takes)
        return 0;
    if (why_size) {
        char built[96], here[160];
        ortkit__cuda_platform_build_text(built, sizeof built, platform, cuda);
        snprintf(why, why_size, "built for %s; this host takes %s", built,
                 ortkit_host_platform_text(host, here, sizeof here));
    }
    return 1;
}
