/* builder_patch.h - the builder: patches (patch.c). */
#ifndef ORTKIT_BUILDER_PATCH_H
#define ORTKIT_BUILDER_PATCH_H

#include "ortkit.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Apply the .patch files of DIR in name order with `patch -p1`, those the source tree
 * does not have yet, and record them in <state>/patches-applied.  *applied counts the
 * ones applied now, *skipped those already in. */
int ortkit__builder_patch_apply(const char *patch_dir, const char *source, const char *state_dir,
                                FILE *log, size_t *applied, size_t *skipped);

#endif
