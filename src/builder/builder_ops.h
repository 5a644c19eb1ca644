/* builder_ops.h - the builder: --ops-from (ops.c). */
#ifndef ORTKIT_BUILDER_OPS_H
#define ORTKIT_BUILDER_OPS_H

#include "ortkit.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Write ORT's required-operators configuration for the models' operators
 * (domain;opset;Op,Op,... lines, subgraphs included); with device_copies
 * (a build with a GPU provider) also the kernels that copy between the
 * device and the CPU. */
int ortkit__builder_ops_write(const char *path, const char *const *models, size_t n_models,
                              int device_copies, size_t *n_ops);

#endif
