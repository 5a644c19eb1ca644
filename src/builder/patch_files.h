/*
 * patch_files.h - the files one patch touches, kept aside (patch_files.c);
 * used by patch.c only.
 */
#ifndef ORTKIT_BUILDER_PATCH_FILES_H
#define ORTKIT_BUILDER_PATCH_FILES_H

#include "util.h"

typedef struct ortkit__builder_patch_kept {
    const char *source, *scratch; /* the tree; where the copies are */
    const ortkit__strv *names;    /* paths the patch names, relative to source */
    ortkit__strv new_dirs;        /* directories under source that did not exist */
} ortkit__builder_patch_kept;

/* The paths patch_file names (its ---/+++ headers and git's rename and copy
 * lines, stripped as -p1 does); ORTKIT_E_FORMAT for an absolute name or one
 * with a '..' component, which GNU patch would skip and still exit 0. */
int ortkit__builder_patch_names(ortkit__strv *names, const char *patch_file);
/* Copy each of names that exists under source into scratch (made by the
 * caller, empty), and note the directories a patch would make. */
int ortkit__builder_patch_keep(ortkit__builder_patch_kept *k, const char *source, const ortkit__strv *names,
                       const char *scratch);
/* Put source back as it was kept: every name removed (with its .orig and
 * .rej unless those were there before) and the kept copies put back; the
 * new directories removed when empty. */
int ortkit__builder_patch_restore(const ortkit__builder_patch_kept *k);
void ortkit__builder_patch_kept_free(ortkit__builder_patch_kept *k);

#endif
