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

typedef enum ortkit__builder_patch_verdict {
    ORTKIT__PATCH_APPLIES = 0, /* applies, without fuzz, on top of the ones before */
    ORTKIT__PATCH_IN = 1,      /* does not apply but reverse-applies: the tree has it */
    ORTKIT__PATCH_FAILS = 2    /* neither */
} ortkit__builder_patch_verdict;

/* `ortkit build --patch-check`: whether the set applies to source as
 * ortkit__builder_patch_apply would apply it (name order, each on top of the
 * ones before, no fuzz), tried on copies of the files the set names in a
 * temporary directory; the tree is not touched.  names gets the patches,
 * *verdicts (malloc'd) one verdict each. */
int ortkit__builder_patch_check(const char *patch_dir, const char *source, ortkit__strv *names,
                                ortkit__builder_patch_verdict **verdicts);

#endif
