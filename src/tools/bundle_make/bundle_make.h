/*
 * bundle_make.h - what the bundle-making files share; not installed.
 *
 *   bundle_import.c       make a bundle from a prebuilt library or release
 *   bundle_writer.c       write a bundle's parts: copies, RUNPATH, .pc, CMake, manifest
 *   bundle_static.c       what a static bundle adds to an import
 *   bundle_gpu_release.c  a GPU release's providers, read from their binaries
 *   bundle_gpu_complete.c `bundle complete`: the CUDA libraries copied in
 *   bundle_cuda.c         finding the CUDA libraries a CUDA build needs beside it
 *   cuda_libs.c           NVIDIA's libraries by name
 *   bundle_loaded.c       recording a load made in a child process
 *   bundle_probe.c        import's optional load of the library
 */
#ifndef ORTKIT_BUNDLE_MAKE_H
#define ORTKIT_BUNDLE_MAKE_H

#include "bundle.h"
#include "bundle_gpu.h"
#include "fatbin.h"
#include "ort_library.h"

#include <ortkit/tools/bundle_make.h>

/* What a library says of itself when loaded.  The bundle module reads files
 * only; loading is the business of the layer above it (open/), which hands
 * this in.  providers is malloc'd, each entry too. */
typedef struct ortkit__probe {
    char version[64];
    ortkit__strv providers;
} ortkit__probe;
typedef int (*ortkit__probe_fn)(ortkit__probe *out, const char *library);

/* ortkit_bundle_import, with the library's own account read through probe. */
int ortkit__bundle_import_with(ortkit_bundle **out, const char *src,
                               const ortkit_bundle_import_options *opts, ortkit__probe_fn probe);

/* A caller's cancel callback (ortkit_bundle_import_options.cancel); fn may be NULL. */
typedef struct ortkit__cancel {
    int (*fn)(void *arg);
    void *arg;
} ortkit__cancel;
/* ORTKIT_E_CANCELLED (recorded) once the callback says stop, else 0. */
int ortkit__cancelled(const ortkit__cancel *cancel);

/* ---- GPU releases (bundle_gpu_release.c) ------------------------------------- */

/* What a release's provider libraries need, read at import. */
typedef struct ortkit__gpu_release {
    char providers_dir[4096];
    char *files[32];          /* provider file names in providers_dir */
    size_t file_count;
    int cuda;                 /* 1000*major + 10*minor */
    int cudnn;
    char min_driver[32], ptx_driver[32];
    ortkit__fatbin code;      /* SASS and PTX of every provider together */
    char *needs[GPU_NEEDS_MAX];
    char *missing[GPU_NEEDS_MAX]; /* each need, described: "libcudnn.so.9: cuDNN 9 for CUDA 12" */
    size_t need_count;
    char variant[16];         /* "cuda12" */
} ortkit__gpu_release;


/* Read DIR's providers: each must be of ONNX Runtime `version` (its string
 * in the file's data); the CUDA provider's DT_NEEDED, fat binaries and the
 * lazily loaded set give the rest.  A provider-bridge CUDA provider needs a
 * core built with CUDA: core (the library file) must export
 * OrtSessionOptionsAppendExecutionProvider_CUDA, else ORTKIT_E_INVALID_ARG. */
int ortkit__gpu_release_read(ortkit__gpu_release *out, const char *dir, const char *version,
                             const char *core);
void ortkit__gpu_release_free(ortkit__gpu_release *rel);
/* bundle_platform.c: the CUDA platform of an import of a library for arch:
 * given (an --platform name, or NULL), else the CUDA variant v's, else for a
 * GPU release (code: its providers' GPU code; NULL for none) what its SASS
 * says; UNKNOWN for a CPU build.  ORTKIT_E_INVALID_ARG naming src when they
 * disagree or nothing says. */
int ortkit__import_platform(ortkit_cuda_platform *out, ortkit_arch arch, const ortkit_variant *v,
                            const ortkit__fatbin *code, const char *given, const char *src);
/* Copy the providers into stage/lib (replacing a file of the same name the
 * core brought) and fill the manifest's gpu fields (pointing into rel and
 * names; names must hold 2 * ORTKIT__GPU_TARGETS_MAX + 1 pointers). */
int ortkit__gpu_release_stage(const ortkit__gpu_release *rel, const char *stage, ortkit_manifest *m,
                              const char **names, char (*bufs)[24], const ortkit__cancel *cancel);

/* Copy a library into a bundle with RUNPATH $ORIGIN: written once by
 * patchelf when it lacks it, else copied. */
int ortkit__copy_elf_origin(const char *from, const char *to, const ortkit__cancel *cancel);

/* "libcudnn.so.9: cuDNN 9 for CUDA 12": what a library must be. */
void ortkit__gpu_describe(char *buf, size_t size, const char *soname, int cuda);
/* The driver a CUDA release needs for its SASS, and for PTX of ISA isa. */
const char *ortkit__gpu_driver_floor(int cuda);
const char *ortkit__gpu_ptx_driver(int isa);
/* The CUDA and cuDNN majors a library file was built for (0 when nothing
 * says), from its soname, DT_NEEDED, the libraries its data names, cuDNN's
 * engines beside it, or its PTX; evidence says which. */
void ortkit__gpu_library_majors(const char *path, const char *soname, int *cuda, int *cudnn,
                                char *evidence, size_t size);

/* ---- writing a bundle's parts (bundle_writer.c) ------------------------------ */



/*
 * root/rel, resolved (*out, PATH_MAX bytes, and *st its target's status),
 * where root is a resolved directory: what import takes from a source.
 * ORTKIT_E_FORMAT, naming the link and its target, when a symbolic link on
 * the way leads out of root (absolute, through "..", or through another
 * link) or loops; ORTKIT_E_IO when it cannot be read.
 */
int ortkit__source_resolve(char *out, struct stat *st, const char *root, const char *rel);
/* A new file (never an existing one) with from's content, synced to disk;
 * from must be a regular file (a FIFO or a device is refused, never opened
 * for blocking reads).  Polls cancel while it copies. */
int ortkit__copy_file(const char *from, const char *to, unsigned mode, const ortkit__cancel *cancel);
/*
 * Copy the directory root/rel to `to` (NULL: only check it): directories
 * and regular files, at most 8 deep.  A link is followed only while it stays
 * in root, and its target is copied; a link out of root, a directory that
 * contains itself (by device and inode: `include/a -> .`), and any file
 * that is not regular or a directory are errors naming the entry.  Names
 * starting with '.' are skipped.
 */
int ortkit__copy_tree(const char *root, const char *rel, const char *to, const ortkit__cancel *cancel);
/* RUNPATH $ORIGIN on every ELF file in dir (patchelf, where it is not so yet). */
int ortkit__set_runpaths(const char *dir, const ortkit__cancel *cancel);

typedef struct ortkit__layout {
    const char *dir;        /* the bundle being written */
    const char *name, *variant, *version;
    const char *real_name;  /* the library's file in lib/: "libonnxruntime.so.1.30.0" */
    const char *soname;     /* its SONAME; "" when it has none */
    /* A static bundle: what links after lib/libonnxruntime.a ("-lonnx ...");
     * NULL for a shared one. */
    const char *static_libs;
    /* A static bundle with provider libraries: ONNX Runtime 1.21 loads them
     * by bare name from the program, so programs get an RPATH to lib/. */
    int static_providers;
} ortkit__layout;

/* lib/pkgconfig/libonnxruntime.pc and lib/cmake/onnxruntime/ *.cmake. */
int ortkit__write_dev_files(const ortkit__layout *layout);
/* ORT_API_VERSION of dir/include/onnxruntime_c_api.h; 0 when unknown. */
int ortkit__headers_api_level(const char *dir);
/* dir/manifest.json from fields, with every file now in dir (size, SHA-256,
 * link target); what is written is read back through the strict reader. */
int ortkit__write_manifest(const char *dir, const ortkit_manifest *fields, const ortkit__cancel *cancel);
/* ---- static bundles (bundle_static.c) -------------------------------------- */

/* Can archive become a static bundle beside a shared library of version for
 * arch: an ar archive of arch's objects holding that version string, and
 * libs (space-separated) only -lNAME, -l:FILE and -pthread words? */
int ortkit__static_check(const char *archive, const char *libs, ortkit_arch arch,
                         const char *version);

/* ---- CUDA dependencies ---------------------------------------------------------- */

typedef struct ortkit__dep {
    char *name; /* the name it is loaded by: "libcudnn_ops.so.9" */
    char *path; /* where it was found */
} ortkit__dep;

/* The CUDA libraries a CUDA build needs beside it: the CUDA-family DT_NEEDED
 * of the given ELF files, the libraries ORT loads lazily for this CUDA
 * release (cuDNN's parts, cuBLAS, cuFFT, cuRAND, the runtime), and their own
 * CUDA-family dependencies; never the C/C++ runtime or the driver's own
 * libraries.  srcdir is searched first. */
int ortkit__cuda_deps(ortkit__dep **out, size_t *count, const char *const *elf_paths, size_t n,
                      const char *srcdir, int cuda, ortkit_arch arch);
void ortkit__cuda_deps_free(ortkit__dep *deps, size_t count);

/* Where and what to look for: the CUDA-family DT_NEEDED of elf_paths and
 * the names, in dirs (in order; with pip, also their
 * site-packages/nvidia/ * /lib and the system Python's), LD_LIBRARY_PATH,
 * CUDA_HOME/CUDA_PATH, the ld cache; each found library's own needs too. */
typedef struct ortkit__cuda_query {
    const char *const *elf_paths;
    size_t elf_count;
    const char *const *names;
    size_t name_count;
    const char *const *dirs;
    size_t dir_count;
    int cuda;        /* the release, 1000*major + 10*minor */
    ortkit_arch arch;
    int check_major; /* pass over libraries built for another CUDA major, saying why */
    int pip;
} ortkit__cuda_query;

typedef struct ortkit__cuda_found {
    ortkit__dep *deps;   /* sorted by name */
    size_t count;
    char **missing;      /* "libcudnn.so.9", with "; passed over: PATH: built for CUDA 13 (...)" */
    size_t missing_count;
} ortkit__cuda_found;

int ortkit__cuda_find(ortkit__cuda_found *res, const ortkit__cuda_query *q);
void ortkit__cuda_found_free(ortkit__cuda_found *res);
/* Libraries never bundled: the C and C++ runtimes and the NVIDIA driver's. */
int ortkit__cuda_never_bundle(const char *name);
/* A CUDA user-space library by its name (cuDNN, cuBLAS, TensorRT...), never the driver's. */
int ortkit__cuda_family(const char *name);
/* The libraries the CUDA provider of a CUDA release (1000*major + ...) opens
 * by name, lazily or not: *count entries. */
const char *const *ortkit__cuda_lazy(int cuda, size_t *count);

#endif
