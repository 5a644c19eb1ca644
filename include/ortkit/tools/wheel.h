/*
 * ortkit/tools/wheel.h - ONNX Runtime's Python package as wheels per variant,
 * a signed package index of them, and the wheel that fits a host.
 *
 * A wheel ortkit makes installs the module `onnxruntime` itself (ONNX
 * Runtime's own Python files and pybind11 extension, built by `ortkit build
 * --python`), so programs that import it work unchanged.  It carries its
 * variant three ways: a local version label (1.21.0+cpu.avx2), the facts of
 * a bundle manifest in NAME.dist-info/ortkit.json (variant, CPU flags, GPU
 * code, CUDA, what its ELF files need, each file's SHA-256), and the
 * variant properties of the wheel-variant draft (PEP 825) in
 * NAME.dist-info/variant.json.  Its platform tag comes from what its ELF
 * files were measured to need, never from a declared value.
 *
 * An index is a directory any static web server can serve: one PEP 503
 * "simple" index per variant (VARIANT/onnxruntime/FILE.whl, linked with its
 * #sha256=), a page listing the variants, and wheels.json, every wheel's
 * facts with a serial that only grows and an expiry, signed like a bundle
 * repository's index (wheels.json.minisig, minisign's format).
 *
 * The tools tier (libortkit-tools): it may change in any minor release.
 */
#ifndef ORTKIT_INCLUDE_TOOLS_WHEEL_H
#define ORTKIT_INCLUDE_TOOLS_WHEEL_H

#include "ortkit/bundle.h"
#include "ortkit/common.h"
#include "ortkit/host.h"
#include "ortkit/tools/repo.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The platform tag of a wheel whose ELF files need these versions (the
 * highest GLIBC_, GLIBCXX_ and CXXABI_ any requires; NULL or "" for none):
 * the oldest manylinux profile of PEP 600 (auditwheel's policy: the glibc,
 * and the libstdc++ its reference distribution ships) that admits all
 * three, as "manylinux_2_31_x86_64"; "linux_x86_64" when none does.  why
 * (may be NULL) receives the version that decided, in words.
 */
ORTKIT_API int ortkit_wheel_platform_tag(char *buf, size_t size, ortkit_arch arch,
                                         const char *glibc, const char *glibcxx,
                                         const char *cxxabi, char *why, size_t why_size);

/* The local version label of a variant: "cpu-avx2" -> "cpu.avx2". */
ORTKIT_API int ortkit_wheel_local_label(char *buf, size_t size, const char *variant);

/* Options: initialise with ORTKIT_WHEEL_PACK_OPTIONS_INIT. */
typedef struct ortkit_wheel_pack_options {
    unsigned version;          /* ORTKIT_WHEEL_PACK_OPTIONS_VERSION */
    const char *bundle;        /* the bundle of the same build (required): its facts */
    const char *python;        /* the CPython it was built for, "3.11" (required) */
    const char *into;          /* the directory the wheel goes in (required) */
    /* What the extension was compiled against, said in the wheel: "numpy
     * headers ABI 0x02000000, C API 0x00000013"; NULL: not said. */
    const char *numpy_headers;
} ortkit_wheel_pack_options;

#define ORTKIT_WHEEL_PACK_OPTIONS_VERSION 1
#define ORTKIT_WHEEL_PACK_OPTIONS_INIT {ORTKIT_WHEEL_PACK_OPTIONS_VERSION, NULL, NULL, NULL, NULL}

/*
 * A wheel of the package tree package_dir (the `onnxruntime` directory a
 * build with Python writes: its .py files, capi/onnxruntime_pybind11_state.so
 * ...): regular files and directories only (a link or any other kind of file
 * is refused, __pycache__ left out), written under a temporary name and
 * renamed, then read back with ortkit_wheel_open.  *path (free() it)
 * receives the wheel's path.
 */
ORTKIT_API int ortkit_wheel_pack(char **path, const char *package_dir,
                                 const ortkit_wheel_pack_options *opts);

typedef struct ortkit_wheel ortkit_wheel;

/* What a wheel says of itself, checked.  The wheel's, reached by pointer:
 * later versions may add fields at the end. */
typedef struct ortkit_wheel_info {
    const char *path;          /* as opened */
    const char *file;          /* its file name */
    const char *name;          /* "onnxruntime" */
    const char *version;       /* "1.21.0+cpu.avx2" */
    const char *python_tag;    /* "cp311" */
    const char *abi_tag;       /* "cp311" */
    const char *platform_tag;  /* "manylinux_2_31_x86_64" */
    const char *python;        /* "3.11" */
    const char *variant;       /* "cpu-avx2" */
    const char *ort_version;   /* "1.21.0" */
    /* What its ELF files need, measured when it was opened. */
    const char *needs_glibc, *needs_glibcxx, *needs_cxxabi;
    size_t file_count;         /* files in RECORD, RECORD itself included */
    uint64_t unpacked_size;    /* their bytes */
    const char *tag_from;      /* why that platform tag */
    /* The facts selection reads: the manifest of the build's bundle, with
     * the wheel's own needs. */
    const ortkit_bundle *bundle;
    const char *facts_json;    /* NAME.dist-info/ortkit.json, as in the wheel */
} ortkit_wheel_info;

/*
 * Open a wheel and check everything it says: its file name; every member
 * a relative path inside the wheel, a regular file or a directory (a link,
 * a device, an absolute path, "..", a duplicate are refused, by name);
 * RECORD lists every file once with its size and SHA-256, and they match;
 * WHEEL's tag and METADATA's name and version are the file name's;
 * ortkit.json's needs are at least what its ELF files need, read from
 * them, and its platform tag is the one those needs earn.
 */
ORTKIT_API int ortkit_wheel_open(ortkit_wheel **out, const char *path);
ORTKIT_API const ortkit_wheel_info *ortkit_wheel_info_get(const ortkit_wheel *wheel);
ORTKIT_API void ortkit_wheel_free(ortkit_wheel *wheel);

/* ---- the index ------------------------------------------------------------------- */

/* Options: initialise with ORTKIT_WHEEL_PUBLISH_OPTIONS_INIT. */
typedef struct ortkit_wheel_publish_options {
    unsigned version;         /* ORTKIT_WHEEL_PUBLISH_OPTIONS_VERSION */
    const char *secret_key;   /* a minisign secret key file (required) */
    const char *password;     /* for an encrypted key; NULL */
    int64_t expires;          /* seconds since the epoch; 0: 30 days from now */
    uint64_t serial;          /* 0: one more than the index's; else higher than it */
} ortkit_wheel_publish_options;

#define ORTKIT_WHEEL_PUBLISH_OPTIONS_VERSION 1
#define ORTKIT_WHEEL_PUBLISH_OPTIONS_INIT {ORTKIT_WHEEL_PUBLISH_OPTIONS_VERSION, NULL, NULL, 0, 0}

/*
 * Add wheels to the index in dir (made if needed): each is opened (all of
 * ortkit_wheel_open's checks), copied to VARIANT/onnxruntime/FILE and listed
 * in wheels.json (replacing an entry of the same file); the HTML pages are
 * written again from the list and wheels.json is signed with a higher
 * serial.  An existing index whose signature does not verify with the key's
 * public half, or that lists a file that is missing or changed, is refused
 * and left as it was.
 */
ORTKIT_API int ortkit_wheel_publish(const char *dir, const char *const *wheels, size_t count,
                                    const ortkit_wheel_publish_options *opts);

typedef struct ortkit_wheel_index ortkit_wheel_index;

/* One wheel an index offers.  The index's, reached by pointer. */
typedef struct ortkit_wheel_entry {
    const char *file;          /* "cpu-avx2/onnxruntime/onnxruntime-...whl", relative to the index */
    const char *index_path;    /* "cpu-avx2/": the simple index pip is pointed at */
    const char *version;       /* "1.21.0+cpu.avx2" */
    const char *python;        /* "3.11" */
    const char *platform_tag;  /* "manylinux_2_31_x86_64" */
    const char *sha256;
    uint64_t size;
    const ortkit_bundle *bundle; /* the facts selection reads */
} ortkit_wheel_entry;

/*
 * Fetch source's wheels.json and its signature (source: an http:// or
 * https:// URL, or a directory), verify the signature with opts->pubkey,
 * the expiry and the serial (rollback, as ortkit_repo_open), and read the
 * index strictly.
 */
ORTKIT_API int ortkit_wheel_index_open(ortkit_wheel_index **out, const char *source,
                                       const ortkit_repo_options *opts);
ORTKIT_API void ortkit_wheel_index_free(ortkit_wheel_index *index);
/* serial, created, expires, key_id, source as a repository's. */
ORTKIT_API const ortkit_repo_info *ortkit_wheel_index_info(const ortkit_wheel_index *index);
ORTKIT_API size_t ortkit_wheel_index_count(const ortkit_wheel_index *index);
ORTKIT_API const ortkit_wheel_entry *ortkit_wheel_index_get(const ortkit_wheel_index *index, size_t i);
/* The absolute URL (or path) of entry i's wheel, and of its simple index (free() them). */
ORTKIT_API int ortkit_wheel_index_url(char **wheel_url, char **index_url,
                                      const ortkit_wheel_index *index, size_t i);

/*
 * Judge every entry for a host and a CPython (major.minor, "3.11"): a
 * wheel for another CPython does not fit (step "python"); the others are
 * judged by ortkit_bundle_select's order (architecture, loadable here,
 * accelerator, CPU level, ONNX Runtime, name), on the facts the index
 * carries.  Verdict i is entry i's.  The return values are
 * ortkit_bundle_select's.
 */
ORTKIT_API int ortkit_wheel_choose(ortkit_bundle_choice **out, const ortkit_wheel_index *index,
                                   const ortkit_host *host, const char *python);

/*
 * Download entry i into dir (its size and SHA-256 checked while it
 * streams, resuming an interrupted download) and open it with
 * ortkit_wheel_open; *path (free() it) is the wheel's path.  dir (made if
 * needed) and every directory above it must be the user's or root's and
 * writable by no one else (sticky allowed): what is checked is what an
 * installer then reads by name.
 */
ORTKIT_API int ortkit_wheel_index_fetch(char **path, ortkit_wheel_index *index, size_t i,
                                        const char *dir);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_TOOLS_WHEEL_H */
