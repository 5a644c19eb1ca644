/* builder_preflight.h - the builder: pre-flight (preflight.c). */
#ifndef ORTKIT_BUILDER_PREFLIGHT_H
#define ORTKIT_BUILDER_PREFLIGHT_H

#include "ortkit.h"
#include "util.h"
#include "builder_compiler_cache.h"
#include "builder_plan.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct ortkit__builder_toolchain {
    char cmake[32], ninja[32], cc[96], cxx[96], nvcc[32], cudnn[32], ccache[32];
    char cmake_path[256], ninja_path[256];
} ortkit__builder_toolchain;

typedef struct ortkit__builder_preflight {
    ortkit__builder_kind kind;
    const char *source;
    const char *build_dir;
    const ortkit_variant *variant;
    const char *cuda_home;   /* NULL: CUDA_HOME, then nvcc on PATH, then /usr/local/cuda */
    uint64_t min_disk;       /* 0: a default for the kind of build */
    int cache_ccache;
    const char *distcc_hosts;
    int reduce_ops;          /* --ops-from: ORT's reduction script must be able to run */
    const ortkit__builder_cache_remote *cache_remote; /* ccache must reach it (warned when not) */
    const char *cross_prefix; /* a cross build: its compilers PREFIXgcc, PREFIXg++; NULL */
} ortkit__builder_preflight;

/* The ORT version of a source tree ("1.21.0"); fails when it is not one. */
int ortkit__builder_ort_version(char *buf, size_t size, const char *source);
/*
 * Check everything that can fail before compiling; the first failure is the
 * error.  Warnings (other compilers running) go to warn (may be NULL).
 * found_cuda_home receives the toolkit that was checked (GPU variants).
 */
int ortkit__builder_preflight_run(const ortkit__builder_preflight *pf, ortkit__builder_toolchain *tc,
                                  char *found_cuda_home, size_t cuda_size,
                                  char *found_cudnn_home, size_t cudnn_size,
                                  void (*warn)(const char *msg));
/* Heavy compilers running now (cc1plus, cc1, nvcc, cicc, ptxas): "cc1plus (pid 12)". */
int ortkit__builder_heavy_compilers(char *buf, size_t size, size_t *count);

/* The build directory's lock: flock on <state>/lock, holding our PID. */
typedef struct ortkit__builder_lock {
    int fd;
} ortkit__builder_lock;
int ortkit__builder_lock_take(ortkit__builder_lock *lock, const char *state_dir);
void ortkit__builder_lock_release(ortkit__builder_lock *lock);

#endif
