/*
 * cuda_libs.c - NVIDIA's libraries by name: which are CUDA's user-space
 * libraries (bundled with a GPU build), which belong to the driver or the
 * system (never bundled), and what the CUDA provider of a CUDA release
 * opens by name.  Tables only: bundle_cuda.c finds the files,
 * bundle_gpu_release.c reads a release's needs.
 */
#include "bundle_make.h"

#include <string.h>

static const char *const never_prefixes[] = {
    "libc.so", "libstdc++.so", "libgcc_s.so", "libm.so", "libdl.so", "libpthread.so", "librt.so",
    "ld-linux", "libresolv.so", "libutil.so", "libmvec.so", "libanl.so",
    "libcuda.so", "libnvidia-", /* the driver's, incl. libnvidia-ml.so.1 */
};

static const char *const cuda_prefixes[] = {
    "libcudart.so", "libcublas.so", "libcublasLt.so", "libcufft.so", "libcurand.so", "libcudnn",
    "libcusparse.so", "libcusolver.so", "libnvrtc", "libnvJitLink.so", "libnvinfer",
    "libnvonnxparser",
};

static int has_prefix(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strncmp(name, list[i], strlen(list[i])))
            return 1;
    return 0;
}

int ortkit__cuda_never_bundle(const char *name)
{
    return has_prefix(name, never_prefixes, sizeof never_prefixes / sizeof never_prefixes[0]);
}

int ortkit__cuda_family(const char *name)
{
    return !ortkit__cuda_never_bundle(name) &&
           has_prefix(name, cuda_prefixes, sizeof cuda_prefixes / sizeof cuda_prefixes[0]);
}

const char *const *ortkit__cuda_lazy(int cuda, size_t *count)
{
    /* What the CUDA provider opens lazily, by the CUDA major release. */
    static const char *const lazy12[] = {"libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12",
                                         "libcufft.so.11", "libcurand.so.10", "libcudnn.so.9"};
    static const char *const lazy13[] = {"libcudart.so.13", "libcublas.so.13", "libcublasLt.so.13",
                                         "libcufft.so.12", "libcurand.so.10", "libcudnn.so.9"};
    *count = 6;
    return cuda >= 13000 ? lazy13 : lazy12;
}
