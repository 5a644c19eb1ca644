/*
 * ortkit/bundle.h - bundles: one ONNX Runtime build in a directory, usable
 * from wherever it lies.
 *
 * A bundle holds lib/ (libonnxruntime and its provider libraries, each with
 * RUNPATH $ORIGIN; the CUDA libraries of a CUDA build), include/,
 * lib/pkgconfig/libonnxruntime.pc, a CMake package (lib/cmake/onnxruntime),
 * the licence files, and manifest.json: what the build is, what it needs of
 * a host, and the size and SHA-256 of every file.  Bundles are searched in
 * ORTKIT_PATH, the user's and the system's ortkit data directories and the
 * build's default directory; with no explicit runtime, ortkit_runtime_open()
 * loads the best one that fits the host (<ortkit/select.h>).  See
 * docs/BUNDLES.md.
 *
 * Part of the stable API; programs include <ortkit.h>.
 */
#ifndef ORTKIT_INCLUDE_BUNDLE_H
#define ORTKIT_INCLUDE_BUNDLE_H

#include "ortkit/common.h"
#include "ortkit/host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The manifest schema this ortkit writes and reads. */
#define ORTKIT_BUNDLE_SCHEMA 1

typedef struct ortkit_bundle ortkit_bundle;

/* One file of a bundle.  An element of an array the caller indexes: its
 * layout is fixed. */
typedef struct ortkit_bundle_file {
    const char *path;   /* relative to the bundle: "lib/libonnxruntime.so.1.30.0" */
    uint64_t size;      /* bytes; 0 for a link */
    const char *sha256; /* 64 lowercase hex digits; "" for a link */
    const char *link;   /* a symbolic link's target, a name in the same directory; "" */
} ortkit_bundle_file;

/* A CUDA library a GPU bundle carries (an element of an array: fixed layout). */
typedef struct ortkit_bundle_gpu_library {
    const char *soname;  /* "libcudart.so.12" */
    const char *version; /* "12.4.127"; the soname's version when nothing more is known */
    const char *path;    /* "lib/libcudart.so.12", also in files */
    const char *sha256;
} ortkit_bundle_gpu_library;

/* One part of a bundle and what it needs of a host (the manifest's
 * "parts", added in 0.4): the core, or one execution provider with the
 * files it brings.  The bundle's, reached by pointer: later versions may
 * add fields at the end. */
typedef struct ortkit_bundle_part {
    const char *name;             /* "core", or the provider: "CUDAExecutionProvider" */
    size_t file_count;            /* its ELF files: "lib/libonnxruntime_providers_cuda.so" */
    const char *const *files;
    /* Every library its files need (DT_NEEDED, followed through the files
     * the bundle carries) that the bundle does not carry, sorted. */
    size_t library_count;
    const char *const *libraries;
} ortkit_bundle_part;

/* One third-party dependency compiled into a bundle that ortkit built
 * (the manifest's "build": docs/BUNDLES.md). */
typedef struct ortkit_bundle_dependency {
    const char *name;     /* ONNX Runtime's cmake/deps.txt name: "protobuf" */
    const char *version;  /* what went in: "3.21.12" */
    const char *pinned;   /* what deps.txt names: "21.12", or a commit */
    /* How it was matched: "sha1" (deps.txt's own file), "version" (the
     * pinned version), "accepted" (another version, accepted by name),
     * "named" (a source directory the builder was given as it is). */
    const char *match;
    const char *origin;   /* where its source came from, in words */
    const char *sha256;   /* of the source archive; "" for a tree */
    int patched;          /* ONNX Runtime's own patch for it was applied */
} ortkit_bundle_dependency;

/* The bundle's, reached by pointer: later versions may add fields at the end. */
typedef struct ortkit_manifest {
    int schema;               /* ORTKIT_BUNDLE_SCHEMA */
    const char *name;         /* the bundle's directory name (the manifest's when parsed) */
    const char *dir;          /* its absolute directory; "" when parsed from memory */
    const char *created_by;   /* "ortkit 0.1.0" */
    const char *ort_version;  /* "1.30.0" */
    int api_level;            /* the runtime's own C API level: its minor version */
    int headers_api_level;    /* ORT_API_VERSION of include/; 0 when unknown */
    /* "cpu" (any CPU of the architecture), or a variant of the table:
     * "cpu-avx512", "cuda12.9-sm90-avx512". */
    const char *variant;
    /* What it needs of a host. */
    ortkit_arch arch;
    uint64_t cpu_features;    /* ORTKIT_CPU_BIT()s the CPU must have */
    int cuda;                 /* CUDA toolkit, 1000*major + 10*minor; 0: CPU only */
    int sm;                   /* GPU target, 10*major + minor; 0: CPU only */
    int sm_exact;             /* 1: arch-specific cubins, that SM only */
    int tegra;                /* 1: built for Jetson's L4T CUDA (cuda_platform L4T) */
    const char *min_driver;   /* "525.60.13" (an L4T release on Jetson); "" */
    const char *library;      /* "lib/libonnxruntime.so.1.30.0" */
    size_t provider_count;    /* the execution providers the runtime reports */
    const char *const *providers;
    size_t file_count;        /* every file but manifest.json, sorted by path */
    const ortkit_bundle_file *files;
    /* What loading its ELF files needs of a host, read from them at import
     * (added in 0.1: read them only when the library's version is known to
     * have them).  The highest symbol versions any file requires: "2.28" for
     * GLIBC_2.28, "3.4.22" for GLIBCXX_3.4.22, "1.3.11" for CXXABI_1.3.11;
     * "" when none does, or when the manifest does not say (older bundles). */
    const char *needs_glibc;
    const char *needs_glibcxx;
    const char *needs_cxxabi;
    /* Every DT_NEEDED library the bundle does not carry, sorted:
     * "libc.so.6", "libstdc++.so.6"...  needs_known is 1 when the manifest
     * records these needs at all. */
    size_t needs_library_count;
    const char *const *needs_libraries;
    int needs_known;
    /* 1 when the library has been loaded: at import, or since by `ortkit
     * bundle verify` on a host that could (added in 0.1, like needs_*).
     * 0: imported without loading (for another architecture, a newer glibc,
     * a GPU the importing host lacks): "not yet verified by loading". */
    int verified_by_loading;
    /* How the import learnt ort_version: "its file name and its read-only
     * data", "--version, found in its read-only data", "loading it"; "". */
    const char *version_from;
    /* A GPU release's providers, read from their binaries at import
     * (docs/BUNDLES.md, "gpu"; added in 0.2).  gpu_known is 0 when the
     * manifest has none; then every gpu_ field is 0, "" or empty.  Such a
     * bundle's cuda is gpu_cuda (for ranking) and its sm 0. */
    int gpu_known;
    int gpu_cuda;                 /* CUDA it was built with, 1000*major + 10*minor: 12020 */
    int gpu_cudnn;                /* the cuDNN major it loads; 0: none */
    const char *gpu_min_driver;   /* the driver floor for its SASS: "525.60.13" */
    const char *gpu_ptx_driver;   /* the driver its PTX needs to JIT; "" without PTX */
    size_t gpu_sass_count;        /* "sm_80", "sm_90a" (that SM only), "sm_100f" (that family) */
    const char *const *gpu_sass;
    size_t gpu_ptx_count;         /* "compute_80" */
    const char *const *gpu_ptx;
    size_t gpu_need_count;        /* every CUDA user-space library its providers need, sorted */
    const char *const *gpu_needs;
    size_t gpu_library_count;     /* those the bundle carries */
    const ortkit_bundle_gpu_library *gpu_libraries;
    size_t gpu_missing_count;     /* those it lacks: "libcudnn.so.9: cuDNN 9 for CUDA 12" */
    const char *const *gpu_missing;
    int gpu_complete;             /* 1: gpu_missing is empty */
    /* "shared", or "static" (added in 0.3): library is lib/libonnxruntime.a,
     * linked into programs (pkg-config --static, the CMake target), never
     * loaded by ortkit; provider libraries beside it stay shared ("hybrid"),
     * loaded by ONNX Runtime from the program's directory.  Selection passes
     * static bundles over; a program that links one hands ortkit its own
     * OrtGetApiBase (<ortkit/runtime.h>). */
    const char *linkage;
    /* What each part needs (added in 0.4): parts[0] is the core, then each
     * provider library but the shared bridge, by name.  A provider's needs
     * are that provider's: without them the core loads and the provider is
     * unavailable.  part_count 0 when the manifest records no parts (a
     * build without provider libraries, or an older manifest): then needs_*
     * are the core's. */
    size_t part_count;
    const ortkit_bundle_part *const *parts;
    /* How ortkit built it (added in 0.4; build_known 0 when the manifest
     * says nothing, as for imported releases): the glibc of the build
     * environment and the floor asked for ("2.31"; "" when none), and every
     * dependency compiled into the library.  What it needs of a host stays
     * needs_*, measured on the binaries. */
    int build_known;
    const char *build_glibc;
    const char *build_glibc_floor;
    size_t build_dependency_count;
    const ortkit_bundle_dependency *build_dependencies;
    /* The CUDA a CUDA build is made with (added in 0.5): X86_64, SBSA or
     * L4T, from its variant, or from the manifest's gpu.platform for a GPU
     * release (docs/BUNDLES.md).  UNKNOWN for a CPU build, and for an
     * aarch64 GPU release imported before ortkit told SBSA from L4T:
     * selection passes those over until they are imported again with a
     * platform. */
    ortkit_cuda_platform cuda_platform;
    /* The compiler cache the build that made it went through (added in
     * 0.5; build_cache NULL when none, or the manifest does not say):
     * "ccache"; its shared remote storage as shown, a password replaced by
     * three asterisks (NULL when the cache was local only), and
     * the compiles of that build that came from the remote.  Objects from a
     * shared cache are trusted as its server is (docs/HARDENING.md). */
    const char *build_cache;
    const char *build_cache_remote;
    uint64_t build_cache_remote_hits;
    /* 1 when one of its ELF files asks for an executable stack (added in
     * 0.5, needs.exec_stack; 0 when none does, or the manifest does not
     * say): glibc 2.41 and newer refuse to load it, and selection passes it
     * over on such a host. */
    int needs_exec_stack;
    /* The local cache build_cache's compiles read (added in 0.5,
     * build.cache.local): "no-server" (one no server's objects reach:
     * remote storage off), "server" (the remote's own local copy), "none"
     * (remote only); NULL when the manifest does not say (an older ortkit,
     * whose one local cache a server may have filled). */
    const char *build_cache_local;
    /* Where `bundle complete` took each of gpu_libraries from (added in
     * 0.5, gpu.libraries[].origin): gpu_library_count entries, each the
     * path it was copied from, or NULL where the manifest does not say
     * (carried by the release itself, or completed by an older ortkit);
     * the whole list NULL when no entry says. */
    const char *const *gpu_library_origins;
} ortkit_manifest;

/* Open the bundle in dir: its manifest is read and checked strictly (unknown
 * keys, wrong types, paths leaving the bundle fail with ORTKIT_E_FORMAT).
 * Cheap checks of the library (present, its size, its ELF machine) are made
 * too; what they find is ortkit_bundle_damage(), not a failure to open. */
ORTKIT_API int ortkit_bundle_open(ortkit_bundle **out, const char *dir);
/* Parse manifest JSON held in memory (a bundle without a directory). */
ORTKIT_API int ortkit_bundle_parse(ortkit_bundle **out, const char *json, size_t size);
ORTKIT_API void ortkit_bundle_free(ortkit_bundle *bundle);
ORTKIT_API const ortkit_manifest *ortkit_bundle_manifest(const ortkit_bundle *bundle);
/* Why the bundle cannot be used, found when it was opened ("" when nothing):
 * "lib/libonnxruntime.so.1.30.0 is 1024 bytes, the manifest says 45828512". */
ORTKIT_API const char *ortkit_bundle_damage(const ortkit_bundle *bundle);

/*
 * Check a bundle against its manifest, without loading anything: every
 * file's size and SHA-256, no missing or extra files, links as listed, each
 * ELF file in lib/ built for the manifest's architecture with RUNPATH
 * $ORIGIN, and the library's read-only data holding the manifest's version
 * string (looked for only when its own checks passed).  Every problem found
 * is kept; ORTKIT_OK when there are none, else ORTKIT_E_FORMAT.  Loading the
 * library is the caller's to do, in a process it can lose (`ortkit bundle
 * verify` runs ortkit-probe as a child), and to record with
 * ortkit_bundle_record_load (<ortkit/tools/bundle_make.h>).
 */
ORTKIT_API int ortkit_bundle_verify(ortkit_bundle *bundle);
ORTKIT_API size_t ortkit_bundle_problem_count(const ortkit_bundle *bundle);
/* "lib/libonnxruntime.so.1.30.0: SHA-256 differs from the manifest ..." */
ORTKIT_API const char *ortkit_bundle_problem(const ortkit_bundle *bundle, size_t i);

/* The directories searched for bundles, in order. */
typedef enum ortkit_bundle_dir_state {
    ORTKIT_BUNDLE_DIR_OK = 0,
    ORTKIT_BUNDLE_DIR_MISSING = 1,   /* does not exist (a warning only on ORTKIT_PATH) */
    ORTKIT_BUNDLE_DIR_UNREADABLE = 2 /* not a directory, or cannot be read: a warning */
} ortkit_bundle_dir_state;

/* The list's, reached by pointer: later versions may add fields at the end. */
typedef struct ortkit_bundle_dir {
    const char *path;
    const char *source;  /* "ORTKIT_PATH", "user", "system", "default" */
    ortkit_bundle_dir_state state;
    const char *note;    /* why it is unreadable; "" */
    size_t bundle_count; /* bundles found in it */
} ortkit_bundle_dir;

/* A bundle found by the search.  The list's, reached by pointer. */
typedef struct ortkit_bundle_entry {
    const char *name;             /* its directory name */
    const char *dir;              /* its directory */
    const char *source;           /* the search directory's source */
    const ortkit_bundle *bundle;  /* NULL when its manifest cannot be used */
    const char *error;            /* why not ("" when bundle is set) */
} ortkit_bundle_entry;

typedef struct ortkit_bundle_list ortkit_bundle_list;

/* Search ORTKIT_PATH (colon-separated), $XDG_DATA_HOME/ortkit/bundles
 * (~/.local/share/ortkit/bundles), each of $XDG_DATA_DIRS + /ortkit/bundles
 * (/usr/local/share, /usr/share) and the build's default directory.  A
 * directory that cannot be read is noted, not fatal. */
ORTKIT_API int ortkit_bundle_list_open(ortkit_bundle_list **out);
ORTKIT_API void ortkit_bundle_list_free(ortkit_bundle_list *list);
ORTKIT_API size_t ortkit_bundle_list_count(const ortkit_bundle_list *list);
ORTKIT_API const ortkit_bundle_entry *ortkit_bundle_list_get(const ortkit_bundle_list *list,
                                                             size_t i);
ORTKIT_API size_t ortkit_bundle_list_dir_count(const ortkit_bundle_list *list);
ORTKIT_API const ortkit_bundle_dir *ortkit_bundle_list_dir(const ortkit_bundle_list *list,
                                                           size_t i);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_BUNDLE_H */
