/*
 * bundle.h - what the bundle modules share; not installed.
 *
 *   bundle.c          a bundle: open it, what it holds, cheap checks of its library
 *   bundle_manifest.c manifest.json: read it strictly, write it
 *   bundle_verify.c   check a bundle's files against its manifest
 *   bundle_find.c     the directories searched for bundles, and listing them
 *   bundle_select.c   the best bundle for a host (select/)
 *   bundle_import.c   make a bundle from a prebuilt library or release
 *   bundle_layout.c   write a bundle's parts: copies, RUNPATH, .pc, CMake, manifest
 *   bundle_cuda.c     the CUDA libraries a CUDA build needs beside it
 *   selftest.c        a one-node model run on a runtime (ortkit doctor's live check)
 */
#ifndef ORTKIT_BUNDLE_H
#define ORTKIT_BUNDLE_H

#include "elf_reader.h"
#include "internal.h"

#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#define BUNDLE_MANIFEST "manifest.json"
/* A manifest larger than this is refused before it is parsed. */
#define BUNDLE_MANIFEST_MAX ((size_t)8 << 20)
#define BUNDLE_MAX_FILES 10000
#define BUNDLE_NAME_MAX 64

struct ortkit_bundle {
    ortkit_manifest m;     /* the public view; its strings are owned here */
    char *library_path;    /* dir + "/" + m.library; "" when parsed from memory */
    char damage[512];      /* why it cannot be used, found when it was opened; "" */
    char **problems;       /* from ortkit_bundle_verify */
    size_t problem_count;
    char **strings;        /* every string the manifest view points at */
    size_t string_count, string_cap;
};

/* The manifest's "parts" (bundle_parts.c): what the core and each provider
 * library need, apart.  collect reads them from the ELF files in dir into
 * b->m (none when the bundle has no provider library but the bridge). */
struct cJSON;
int ortkit__parts_collect(ortkit_bundle *b, const char *dir);
int ortkit__manifest_parts_read(const ortkit__json_reader *r, ortkit_bundle *b, const struct cJSON *parts);
int ortkit__manifest_parts_write(struct cJSON *root, const ortkit_manifest *m);
/* A library file name a manifest may hold: printable, no '/', not "." or "..". */
int ortkit__bundle_library_name_ok(const char *s);

/* Parse and validate manifest JSON; what names the source in messages. */
int ortkit__bundle_parse(ortkit_bundle **out, const char *json, size_t size, const char *what);
/* The listed file at path (the files are sorted), or NULL. */
const ortkit_bundle_file *ortkit__bundle_file(const ortkit_manifest *m, const char *path);
/* Manifest JSON for a bundle (pretty-printed, newline-terminated); free() it. */
int ortkit__bundle_to_json(char **out, const ortkit_manifest *m);
/* A copy of s kept with the bundle (freed with it); NULL when out of memory. */
const char *ortkit__bundle_keep(ortkit_bundle *b, const char *s);
/* A zeroed array of count elements kept with the bundle; NULL when out of memory. */
void *ortkit__bundle_keep_zeroed(ortkit_bundle *b, size_t count, size_t size);
/* Names allowed for bundles: [A-Za-z0-9][A-Za-z0-9._+-]*, at most 64 bytes. */
int ortkit__bundle_name_ok(const char *name);
/* A static bundle (lib/libonnxruntime.a): linked into programs, never loaded. */
static inline int ortkit__bundle_is_static(const ortkit_manifest *m)
{
    return m->linkage && !strcmp(m->linkage, "static");
}
/* The ISA a CPU level stands for: 0 for "cpu" (any CPU), else 1 + a rank. */
int ortkit__bundle_cpu_level(const ortkit_manifest *m, const char **label);

/* The user's bundle directory: $XDG_DATA_HOME/ortkit/bundles or
 * ~/.local/share/ortkit/bundles. */
int ortkit__bundle_user_dir(char *buf, size_t size);

/* What a library says of itself when loaded.  The bundle module reads files
 * only; loading is the business of the layer above it (open/), which hands
 * this in.  providers is malloc'd, each entry too. */
typedef struct ortkit__probe {
    char version[64];
    char **providers;
    size_t provider_count;
} ortkit__probe;
typedef int (*ortkit__probe_fn)(ortkit__probe *out, const char *library);
void ortkit__probe_free(ortkit__probe *probe);

/* ortkit_bundle_import, with the library's own account read through probe. */
int ortkit__bundle_import_with(ortkit_bundle **out, const char *src,
                               const ortkit_bundle_import_options *opts, ortkit__probe_fn probe);

/* Verify a bundle from its files alone (nothing is loaded): every listed
 * file present with its size, SHA-256 and links, owners and modes, nothing
 * extra, ELF files for the manifest's machine with RUNPATH $ORIGIN, the
 * version confirmed from the library's data.  use_cache: a bundle whose
 * files (device, inode, size, times, mode, owner) and manifest are as they
 * were when it last verified is not hashed again (*from_cache set). */
int ortkit__bundle_check(ortkit_bundle *bundle, int use_cache, int *from_cache);

/* The verified-state cache (bundle_verified.c), in a directory only the
 * user can write: $XDG_CACHE_HOME/ortkit/verified.  state is the text that
 * describes the files as they are now; *hit is set when it equals what was
 * stored for this bundle after its last successful verification. */
int ortkit__verified_lookup(const ortkit_bundle *bundle, const char *state, size_t size, int *hit);
int ortkit__verified_store(const ortkit_bundle *bundle, const char *state, size_t size);

/* SHA-256 of a file as 64 lowercase hex digits, and its size. */
int ortkit__sha256_file(char hex[65], uint64_t *size, const char *path);
/* Remove a directory tree, never following symbolic links. */
int ortkit__rmtree(const char *path);

/* ---- writing a bundle's parts (bundle_layout.c) ------------------------------ */

/* A caller's cancel callback (ortkit_bundle_import_options.cancel); fn may be NULL. */
typedef struct ortkit__cancel {
    int (*fn)(void *arg);
    void *arg;
} ortkit__cancel;
/* ORTKIT_E_CANCELLED (recorded) once the callback says stop, else 0. */
int ortkit__cancelled(const ortkit__cancel *cancel);

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
/* The manifest's "build" key (bundle_build_manifest.c). */
struct cJSON;
int ortkit__manifest_build_read(const ortkit__json_reader *r, ortkit_bundle *b, const struct cJSON *build);
int ortkit__manifest_build_write(struct cJSON *root, const ortkit_manifest *m);

/* ---- static bundles (bundle_static.c) -------------------------------------- */

/* Can archive become a static bundle beside a shared library of version for
 * arch: an ar archive of arch's objects holding that version string, and
 * libs (space-separated) only -lNAME, -l:FILE and -pthread words? */
int ortkit__static_check(const char *archive, const char *libs, ortkit_arch arch,
                         const char *version);

/* ---- ELF ------------------------------------------------------------------ */


/* ---- what a library is, read without loading it (ort_version.c) -------------- */

typedef struct ortkit__ort_version {
    char version[64];  /* "1.30.0" */
    char from[160];    /* how it was learnt: "its file name and its read-only data" */
} ortkit__ort_version;

/* The ONNX Runtime version of the library at path (resolved: its file name
 * counts), from its file name, its SONAME and the version string in its
 * read-only data, which must agree.  given (NULL: none) is the caller's
 * word, taken when the binary says nothing against it and refused
 * (ORTKIT_E_INVALID_ARG) when it does.  ORTKIT_E_FORMAT, asking for the
 * version, when the witnesses disagree or are silent. */
int ortkit__ort_version_read(ortkit__ort_version *out, const char *path, const char *soname,
                             const char *given);

/* ---- what loading needs of a host (bundle_needs.c) ---------------------------- */

/* Overrides of the judgement, from ORTKIT_IGNORE_NEEDS (a comma-separated
 * list of glibc, glibcxx, libraries, all): bits of these. */
enum { ORTKIT__IGNORE_GLIBC = 1, ORTKIT__IGNORE_GLIBCXX = 2, ORTKIT__IGNORE_LIBRARIES = 4 };
unsigned ortkit__needs_ignored(void);

/*
 * Can the host load files that need these (the manifest's needs, or one
 * library's)?  1 yes (why: "" or what was not judged, and overrides used),
 * 0 no (why: "needs glibc 2.43, this host has 2.36"; "needs libX.so.0, not
 * in the bundle, not on this host").  A host that does not say (no glibc,
 * no library list) is not refused for it.
 */
int ortkit__needs_met(const ortkit_host *host, const char *glibc, const char *glibcxx,
                      const char *const *libraries, size_t library_count, char *why, size_t size);

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
