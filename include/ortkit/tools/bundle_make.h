/*
 * ortkit/tools/bundle_make.h - making bundles: importing a build of ONNX
 * Runtime, completing a GPU bundle with its CUDA libraries, recording a
 * load made in a child process.
 *
 * The tools tier (libortkit-tools; pkg-config ortkit-tools): what `ortkit
 * bundle` and `ortkit build` are made of.  It may change in any minor
 * release, and <ortkit.h> does not include it: a program that wants it
 * includes it by name and follows its changes (docs/CONVENTIONS.md).
 */
#ifndef ORTKIT_INCLUDE_TOOLS_BUNDLE_MAKE_H
#define ORTKIT_INCLUDE_TOOLS_BUNDLE_MAKE_H

#include "ortkit/bundle.h"
#include "ortkit/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options: initialise with ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT.  Later
 * versions add fields at the end; the library reads only the fields of the
 * version a program was built with, and gives the others their defaults. */
typedef struct ortkit_bundle_import_options {
    unsigned version;     /* ORTKIT_BUNDLE_IMPORT_OPTIONS_VERSION */
    const char *name;     /* NULL: "ort-<version>-<variant>" */
    /* NULL or "cpu": a build for any CPU of the library's architecture;
     * else a variant name ("cuda12.9-sm90-avx512"), which a CUDA build needs. */
    const char *variant;
    const char *into;     /* NULL: the user's bundle directory */
    int force;            /* replace a bundle of the same name */
    /* Version 2.  Polled while the import copies and hashes files; once it
     * returns non-zero the import stops, removes what it made and fails with
     * ORTKIT_E_CANCELLED.  The library installs no signal handler: a program
     * that stops on Ctrl-C sets a flag in its own and returns it here.
     * NULL: never cancelled. */
    int (*cancel)(void *arg);
    void *cancel_arg;     /* handed to cancel */
    /* Version 3.  The ONNX Runtime version, read from the library itself
     * (file name, SONAME, the version string in its read-only data); this is
     * taken only where those say nothing against it, and needed only where
     * they disagree or are silent.  NULL: none given. */
    const char *ort_version;
    /* 1: never load the library.  0: load it (to cross-check the version and
     * read its providers) only when this host can: same architecture, the
     * C and C++ libraries and every library it needs present.  A bundle not
     * loaded is marked "not yet verified by loading" (see verify). */
    int no_load;
    /* Version 3 too.  A directory of provider libraries of the same release
     * (libonnxruntime_providers_*.so), imported with the core: their ONNX
     * Runtime version must be the core's, and what the CUDA provider needs
     * (CUDA, cuDNN, driver, GPU targets) is read from its binaries into the
     * manifest's gpu fields.  NULL: the providers beside the library only. */
    const char *providers;
    /* Version 4.  A static bundle (`ortkit build --static`): it carries
     * static_archive, a libonnxruntime.a made from the same build as src's
     * shared library, instead of that library (which still gives the
     * version, the providers and what the core needs of a host, and must
     * name its version string in the archive).  Provider libraries stay
     * shared beside it.  static_libs: what a program links after the
     * archive, in link order ("-lonnx -lprotobuf -lstdc++ -lm"; only -l and
     * -pthread words), for the bundle's pkg-config Libs.private and its
     * CMake target.  NULL: a shared bundle. */
    const char *static_archive;
    const char *static_libs;
    /* Version 5.  How the library was built, as the manifest's "build"
     * object in JSON text ({"glibc": "2.31", "glibc_floor": "2.31",
     * "dependencies": [...]}; docs/BUNDLES.md), checked as strictly as the
     * rest of the manifest and recorded.  NULL: none. */
    const char *build_json;
    /* Version 6.  The CUDA an aarch64 CUDA build is made with: "sbsa"
     * (NVIDIA's for Arm servers, and Jetson from JetPack 7) or "l4t"
     * (Jetson's own up to JetPack 6); "x86_64" for an x86_64 one.  NULL:
     * the variant's, or for a GPU release what its providers' SASS says
     * (docs/BUNDLES.md); a platform given must agree with the variant. */
    const char *platform;
} ortkit_bundle_import_options;

#define ORTKIT_BUNDLE_IMPORT_OPTIONS_VERSION 6
#define ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT \
    {ORTKIT_BUNDLE_IMPORT_OPTIONS_VERSION, NULL, NULL, NULL, 0, NULL, NULL, NULL, 0, NULL, NULL, NULL, \
     NULL, NULL}

/*
 * Make a bundle from src: a libonnxruntime.so* file, a directory holding
 * one, or an unpacked release (lib/ and include/).  Its version and what it
 * needs are read from its ELF file; it is loaded (to cross-check the version
 * and read its providers) only as opts->no_load says, and only when this
 * host can load it.  Nothing is taken from outside src:
 * a symbolic link in it that leads out (or loops), or a file that is not
 * regular, is an error naming it (ORTKIT_E_FORMAT), found before anything
 * is loaded; only a library file given as src is taken wherever its link
 * points.  The bundle is built under a temporary name in the destination
 * and renamed into place: a failure or a cancel leaves nothing behind, and
 * an existing bundle is replaced only with force (and kept if the import
 * fails).  *out (may be NULL) receives the new bundle.
 */
ORTKIT_API int ortkit_bundle_import(ortkit_bundle **out, const char *src,
                                    const ortkit_bundle_import_options *opts);

/* Options of ortkit_bundle_complete: initialise with ORTKIT_BUNDLE_COMPLETE_OPTIONS_INIT. */
typedef struct ortkit_bundle_complete_options {
    unsigned version;               /* ORTKIT_BUNDLE_COMPLETE_OPTIONS_VERSION */
    /* Directories searched first, in order (each also for pip's layout
     * site-packages/nvidia/ * /lib below it); then CUDA_HOME, the ld cache. */
    const char *const *from;
    size_t from_count;
    int (*cancel)(void *arg);       /* as in the import options; NULL: never */
    void *cancel_arg;
} ortkit_bundle_complete_options;

#define ORTKIT_BUNDLE_COMPLETE_OPTIONS_VERSION 1
#define ORTKIT_BUNDLE_COMPLETE_OPTIONS_INIT {ORTKIT_BUNDLE_COMPLETE_OPTIONS_VERSION, NULL, 0, NULL, NULL}

/*
 * Make a GPU bundle self-contained: copy in every CUDA user-space library
 * its providers need (gpu_needs) and it does not carry, with RUNPATH
 * $ORIGIN, never the driver's or the C/C++ runtime's.  A library built for
 * another CUDA major is passed over and named.  What cannot be found stays
 * in gpu_missing (gpu_complete 0): that is not an error, the bundle says
 * what it lacks.  The bundle is rebuilt beside itself and swapped in; a
 * failure or a cancel leaves it as it was.  *out (may be NULL) receives the
 * bundle as it now is.  ORTKIT_E_INVALID_ARG for a bundle without GPU fields.
 */
ORTKIT_API int ortkit_bundle_complete(ortkit_bundle **out, const char *dir,
                                      const ortkit_bundle_complete_options *opts);

/*
 * Record that the bundle's library was loaded and reported version (which
 * must be the manifest's) and these providers (count 0: keep the list): the
 * manifest is rewritten atomically with verified_by_loading set, and the
 * bundle verified again from its files.  What `ortkit bundle verify` does
 * after loading a bundle imported without loading, in a child process.
 */
ORTKIT_API int ortkit_bundle_record_load(ortkit_bundle *bundle, const char *version,
                                         const char *const *providers, size_t count);
#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_TOOLS_BUNDLE_MAKE_H */
