/*
 * host_cuda.h - what the modules above host (variant, bundle, select, the
 * tools) use of its knowledge of CUDA: the platform a host takes
 * (host_platform.c) and NVIDIA's toolkits and drivers (host_cuda.c).  Not
 * installed.
 */
#ifndef ORTKIT_HOST_CUDA_H
#define ORTKIT_HOST_CUDA_H

#include "core.h"

/* The platform a host takes: its cuda_platform, or, where that is UNKNOWN
 * (a program changed the host, an older one), what arch, tegra and
 * l4t_release say. */
ortkit_cuda_platform ortkit__host_platform(const ortkit_host *h);
/* The JetPack major of an L4T release ("36.4.3": 6); 0 when unknown. */
int ortkit__jetpack_of_l4t(const char *l4t_release);
/* The JetPack major that ships a CUDA major on Jetson's L4T (12: 6); 0 when none. */
int ortkit__jetpack_of_l4t_cuda(int cuda);

/* One CUDA toolkit release: 1000*major + 10*minor, the PTX ISA it writes
 * (10*major + minor) and the driver it needs. */
typedef struct ortkit__cuda_toolkit {
    int cuda, ptx_isa;
    const char *driver;
} ortkit__cuda_toolkit;

/* The toolkits from CUDA 12.0 on, oldest first. */
const ortkit__cuda_toolkit *ortkit__cuda_toolkits(size_t *count);
/* The newest CUDA a driver runs, 1000*major + 10*minor: that of its branch
 * (the version's first number); 0 when driver is no version, or older than
 * every toolkit known. */
int ortkit__cuda_of_driver(const char *driver);

#endif
