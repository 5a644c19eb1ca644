/* builder_cross.h - the builder: a build for another architecture (cross.c). */
#ifndef ORTKIT_BUILDER_CROSS_H
#define ORTKIT_BUILDER_CROSS_H

#include "ortkit.h"
#include "util.h"
#include "builder_deps.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define ORTKIT__PROTOC_GIVEN "--host-protoc"
#define ORTKIT__PROTOC_BUILT "built for this machine from the protobuf dependency's source"
#define ORTKIT__PROTOC_FETCHED "downloaded by ONNX Runtime's CMake (--fetch: deps.txt's protoc_linux_*)"
#define ORTKIT__PROTOC_MISSING "none: the build needs --host-protoc FILE, --deps DIR with protobuf's " \
                               "source, or --fetch"

typedef struct ortkit__builder_cross {
    int active;                 /* the variant's architecture is not this machine's */
    ortkit_arch build, target;
    char prefix[64];            /* "aarch64-linux-gnu-": the compilers pre-flight checks */
    char toolchain[4096];       /* the CMake toolchain file: given, or written by the build */
    char *toolchain_text;       /* what the build writes there; NULL when one was given */
    char protoc[4096];          /* a protoc that runs here (ONNX_CUSTOM_PROTOC_EXECUTABLE) */
    const char *protoc_from;    /* ORTKIT__PROTOC_*: where it comes from */
    char protoc_version[32];    /* what it says it is: "3.21.12" */
} ortkit__builder_cross;

/* A toolchain file for Debian's cross compilers PREFIXgcc/g++ (malloc'd). */
char *ortkit__builder_cross_toolchain_text(ortkit_arch target, const char *prefix);
/*
 * Whether variant v is a cross build here, and its parts: the toolchain
 * file (given, or state_dir/toolchain-ARCH.cmake to be written), the
 * compilers' prefix (default ARCH-linux-gnu-), a given host protoc.  The
 * cross options on a native build are refused.
 */
int ortkit__builder_cross_init(ortkit__builder_cross *c, const ortkit_variant *v,
                               const char *state_dir, const char *toolchain_file,
                               const char *prefix, const char *host_protoc);
/*
 * The host protoc of a cross build: the given one, else one built from the
 * protobuf dependency's tree (--deps) into BUILD/host-protoc (dry: only
 * named), else ONNX Runtime's download (fetch); none of them is an error
 * (in a plan, dry, it is said instead).
 * The one used must say protobuf's deps.txt version.
 */
int ortkit__builder_cross_protoc(ortkit__builder_cross *c, const ortkit__builder_deps *deps,
                                 int fetch, const char *build_dir, int ccache, int jobs, int dry,
                                 FILE *log);
/* A CUDA variant for another architecture is planned, not built: that needs
 * the target's CUDA toolkit and cuDNN. */
int ortkit__builder_cross_buildable(const ortkit__builder_cross *c, const ortkit_variant *v);
/* `PROTOC --version`'s libprotoc version ("3.21.12"). */
int ortkit__builder_protoc_version(char *out, size_t size, const char *protoc);
/* Whether protoc's version is deps.txt's protobuf tag ("3.21.12" for "21.12"). */
int ortkit__builder_protoc_matches(const char *protoc_version, const char *pinned);
void ortkit__builder_cross_free(ortkit__builder_cross *c);

#endif
