/*
 * bundle_gpu.h - the read side of GPU release bundles: the manifest's "gpu"
 * key (bundle_gpu_manifest.c) and whether a host can run one
 * (bundle_gpu_fit.c).  Reading a release's providers and completing a
 * bundle are src/tools/bundle_make's (bundle_make.h).
 */
#ifndef ORTKIT_BUNDLE_GPU_H
#define ORTKIT_BUNDLE_GPU_H

#include "bundle.h"
#include "gpu_target.h"

struct cJSON;

#define GPU_NEEDS_MAX 64
#define GPU_DRIVER_CUDA12 "525.60.13" /* minor-version compatibility for any 12.x */
#define GPU_DRIVER_CUDA13 "580.65.06"

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
