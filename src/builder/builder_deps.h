/* builder_deps.h - the builder: dependencies from supplied sources (deps.c). */
#ifndef ORTKIT_BUILDER_DEPS_H
#define ORTKIT_BUILDER_DEPS_H

#include "ortkit.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

typedef enum ortkit__builder_dep_match {
    ORTKIT__DEP_EXACT = 0,    /* deps.txt's own file: its SHA1 checked */
    ORTKIT__DEP_VERSION = 1,  /* the version deps.txt pins */
    ORTKIT__DEP_ACCEPTED = 2, /* another version, taken with --accept-dep-version */
    ORTKIT__DEP_NAMED = 3     /* a source directory named with --dep: used as it is */
} ortkit__builder_dep_match;

typedef struct ortkit__builder_dep {
    char *name, *url;          /* deps.txt's */
    char sha1[41];             /* deps.txt's SHA1 of its file */
    char *pinned;              /* the version deps.txt names: "21.12", or a commit */
    int pinned_commit;
    const char *content;       /* the name FetchContent declares: "Protobuf" */
    const char *patch;         /* ORT's patch for it, under cmake/patches; NULL */
    const char *release_prefix;
    char *path;                /* what DIR supplied (NULL for --dep) */
    char *version;             /* its version, from its name */
    char *origin;              /* NAME.origin beside it, else NULL */
    char sha256[65];           /* of the archive; "" for a tree */
    int is_tree, patched;
    ortkit__builder_dep_match match;
    char *tree;                /* the source directory FetchContent gets */
} ortkit__builder_dep;

typedef struct ortkit__builder_deps {
    ortkit__builder_dep *d;    /* deps.txt's entries this build uses, in its order */
    size_t n;
    ortkit__strv unused;       /* deps.txt's other entries (tests, Windows, other EPs) */
    ortkit__strv ignored;      /* entries of DIR that are no dependency */
} ortkit__builder_deps;

/* The version in a deps.txt URL: a tag ("v21.12" -> "21.12", "boost-1.82.0"
 * -> "1.82.0") or a 40-digit commit (*commit = 1). */
int ortkit__builder_dep_version_from_url(char *buf, size_t size, int *commit, const char *url);
/* What a build uses beyond every build's dependencies (deps_read's kinds). */
#define ORTKIT__DEPS_CUDA 1   /* a CUDA build: cutlass, cudnn_frontend */
#define ORTKIT__DEPS_PYTHON 2 /* a build with the Python package: pybind11, dlpack */
/* deps.txt's entries a Linux build of these kinds uses. */
int ortkit__builder_deps_read(ortkit__builder_deps *out, const char *deps_txt, int kinds);
/*
 * Map each entry to DIR: NAME-VERSION as an archive (.tar.gz, .tar.xz,
 * .tar.bz2, .zip, ...) or a tree, or deps.txt's own file at DIR/<its URL
 * without https://> (ORT's mirror layout; its SHA1 must match).  A version
 * other than deps.txt's is refused unless its name is in accept; names in
 * named come from --dep and are left alone.  The first entry missing,
 * mismatched or supplied twice is the error, by name.
 */
int ortkit__builder_deps_resolve(ortkit__builder_deps *deps, const char *dir,
                                 const char *const *accept, size_t n_accept,
                                 const char *const *named, size_t n_named);
/* Each archive extracted once into cache/NAME-VERSION-KEY (KEY from the
 * archive's and ORT's patch's SHA-256), the patch applied: d->tree (dry:
 * only named, for a plan). */
int ortkit__builder_deps_prepare(ortkit__builder_deps *deps, const char *cache,
                                 const char *ort_source, int dry, FILE *log);
/* The list as the manifest's build.dependencies (a cJSON array). */
struct cJSON *ortkit__builder_deps_json(const ortkit__builder_deps *deps);
const char *ortkit__builder_dep_match_name(ortkit__builder_dep_match m);
void ortkit__builder_deps_free(ortkit__builder_deps *deps);

#endif
