/* builder_sharing.h - the builder: what variants share, read from the configured build (sharing.c). */
#ifndef ORTKIT_BUILDER_SHARING_H
#define ORTKIT_BUILDER_SHARING_H

#include "ortkit.h"
#include "util.h"
#include "builder_gate.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* A compile's part of the build: ONNX Runtime's own code, or a dependency's. */
enum { ORTKIT__PART_ORT = 0, ORTKIT__PART_DEPS = 1, ORTKIT__PARTS };

typedef struct ortkit__builder_sharing {
    int known;                 /* the build's commands were read */
    char flags[256];           /* the variant's CPU flags */
    /* compiles by [part][language][0: without the flags (shared), 1: with them] */
    uint64_t n[ORTKIT__PARTS][ORTKIT__LANG_COUNT][2];
    uint64_t stray;            /* compiles that need no CPU flags (CUDA, a dependency's) with them */
    ortkit__strv stray_files;  /* the first ten of them */
} ortkit__builder_sharing;

/*
 * One line of `ninja -t commands`: a compile through the gate's launcher is
 * counted by part (its source under the ONNX Runtime tree or the build
 * directory, not BUILD/_deps: ORT's; else a dependency's), language, and
 * whether it carries any of the variant's flags (as a word, or inside
 * -Xcompiler=A,B).  Anything else (links, custom commands) is skipped.
 */
int ortkit__builder_sharing_add(ortkit__builder_sharing *s, const char *line, const char *source,
                                const char *build_dir);
/* Every compile of the configured build in build_dir (ninja -t commands,
 * through a scratch file in the state directory). */
int ortkit__builder_sharing_read(ortkit__builder_sharing *s, const char *build_dir,
                                 const char *state_dir, const char *source, const char *flags);
void ortkit__builder_sharing_free(ortkit__builder_sharing *s);

#endif
