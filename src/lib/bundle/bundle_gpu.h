/*
 * bundle_gpu.h - GPU release bundles: what the providers need, read from
 * their binaries (bundle_gpu_release.c), the manifest's "gpu" key
 * (bundle_gpu_manifest.c), completion with CUDA libraries
 * (bundle_gpu_complete.c) and whether a host can run one (bundle_gpu_fit.c).
 */
#ifndef ORTKIT_BUNDLE_GPU_H
#define ORTKIT_BUNDLE_GPU_H

#include "bundle.h"
#include "fatbin.h"

struct cJSON;

#define GPU_NEEDS_MAX 64
#define GPU_DRIVER_CUDA12 "525.60.13" /* minor-version compatibility for any 12.x */
#define GPU_DRIVER_CUDA13 "580.65.06"

/* What a release's provider libraries need, read at import. */
typedef struct ortkit__gpu_release {
    char providers_dir[4096];
    char *files[32];          /* provider file names in providers_dir */
    size_t file_count;
    int cuda;                 /* 1000*major + 10*minor */
    int cudnn;
    char min_driver[32], ptx_driver[32];
    ortkit__fatbin code;      /* SASS and PTX of every provider together */
    char *needs[GPU_NEEDS_MAX];
    char *missing[GPU_NEEDS_MAX]; /* each need, described: "libcudnn.so.9: cuDNN 9 for CUDA 12" */
    size_t need_count;
    char variant[16];         /* "cuda12" */
} ortkit__gpu_release;

/*
 * 1 when provider is a provider-bridge library (it exports GetProvider) and
 * core was built without CUDA (it does not export
 * OrtSessionOptionsAppendExecutionProvider_CUDA): the provider calls back
 * into the core for the CPU half of many kernels (If, Loop, Scan, Einsum,
 * GatherElements, Concat, NLLLoss: ORT's cpu_provider_shared), which only a
 * core built with CUDA has, so the pair loads, registers and runs simple
 * models, then crashes the process on the first such node.  0 otherwise,
 * or when either file's symbols cannot be read.
 */
int ortkit__bridge_lacks_cuda_core(const char *provider, const char *core);

/* Read DIR's providers: each must be of ONNX Runtime `version` (its string
 * in the file's data); the CUDA provider's DT_NEEDED, fat binaries and the
 * lazily loaded set give the rest.  A provider-bridge CUDA provider needs a
 * core built with CUDA: core (the library file) must export
 * OrtSessionOptionsAppendExecutionProvider_CUDA, else ORTKIT_E_INVALID_ARG. */
int ortkit__gpu_release_read(ortkit__gpu_release *out, const char *dir, const char *version,
                             const char *core);
void ortkit__gpu_release_free(ortkit__gpu_release *rel);
/* Copy the providers into stage/lib (replacing a file of the same name the
 * core brought) and fill the manifest's gpu fields (pointing into rel and
 * names; names must hold 2 * ORTKIT__FATBIN_MAX_TARGETS + 1 pointers). */
int ortkit__gpu_release_stage(const ortkit__gpu_release *rel, const char *stage, ortkit_manifest *m,
                              const char **names, char (*bufs)[24], const ortkit__cancel *cancel);

/* Copy a library into a bundle with RUNPATH $ORIGIN: written once by
 * patchelf when it lacks it, else copied. */
int ortkit__copy_elf_origin(const char *from, const char *to, const ortkit__cancel *cancel);

/* "libcudnn.so.9: cuDNN 9 for CUDA 12": what a library must be. */
void ortkit__gpu_describe(char *buf, size_t size, const char *soname, int cuda);
/* The driver a CUDA release needs for its SASS, and for PTX of ISA isa. */
const char *ortkit__gpu_driver_floor(int cuda);
const char *ortkit__gpu_ptx_driver(int isa);
/* The CUDA and cuDNN majors a library file was built for (0 when nothing
 * says), from its soname, DT_NEEDED, the libraries its data names, cuDNN's
 * engines beside it, or its PTX; evidence says which. */
void ortkit__gpu_library_majors(const char *path, const char *soname, int *cuda, int *cudnn,
                                char *evidence, size_t size);

/* manifest.json's "gpu": read (into b->m) and write. */
int ortkit__manifest_gpu_read(const ortkit__json_reader *r, ortkit_bundle *b, const struct cJSON *gpu);
int ortkit__manifest_gpu_write(struct cJSON *root, const ortkit_manifest *m);

/* How many GPUs a process on this host would see (ORTKIT_FORCE_SM,
 * CUDA_VISIBLE_DEVICES); -1 when ORTKIT_FORCE_SM cannot be read.  A host
 * that shows none asks for no GPU: a GPU bundle serves it with its CPU. */
int ortkit__gpu_visible(const ortkit_host *h);
/* Whether a host can run a GPU release bundle (m->gpu_known); why says why
 * not, or a caveat (PTX JIT).  1 fits, 0 does not. */
int ortkit__gpu_fits(const ortkit_manifest *m, const ortkit_host *host, char *why, size_t why_size);

#endif
