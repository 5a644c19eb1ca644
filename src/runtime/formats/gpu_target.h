/* gpu_target.h - GPU code targets by name (gpu_target.c). */
#ifndef ORTKIT_GPU_TARGET_H
#define ORTKIT_GPU_TARGET_H

#include <stddef.h>

/* The most targets of each kind a library or a manifest lists. */
#define ORTKIT__GPU_TARGETS_MAX 64

/* One GPU target: SASS for sm_<sm><suffix>, or PTX for compute_<sm>. */
typedef struct ortkit__gpu_target {
    int sm;      /* 10*major + minor: 90 for sm_90 */
    char suffix; /* 0, 'a' (that SM only) or 'f' (that family) */
} ortkit__gpu_target;

/* "sm_90a" / "compute_80" into buf. */
const char *ortkit__gpu_target_name(const ortkit__gpu_target *t, int ptx, char *buf, size_t size);
/* Parse "sm_90a" or "compute_80" (ptx tells which); 0 ok, -1 not one. */
int ortkit__gpu_target_parse(ortkit__gpu_target *out, const char *text, int ptx);

#endif
