/*
 * ortkit/tools/repo.h - signed bundle repositories: publish bundles to a directory
 * any static web server can serve, and install the one that fits a host.
 *
 * A repository is a directory: index.json (every bundle's manifest, archive,
 * size and SHA-256, a serial that only grows, an expiry time),
 * index.json.minisig (a minisign-compatible Ed25519 signature of it) and
 * archives/<sha256>.tar.zst.  A client trusts one public key; it refuses an
 * index whose signature does not verify with it, one past its expiry, and
 * one older than the newest it has seen (rollback).  See docs/BUNDLES.md.
 *
 * The tools tier (libortkit-tools; pkg-config ortkit-tools): what `ortkit
 * bundle publish` and `ortkit bundle install` are made of.  It may change in
 * any minor release; a program includes it by name (docs/CONVENTIONS.md).
 */
#ifndef ORTKIT_INCLUDE_TOOLS_REPO_H
#define ORTKIT_INCLUDE_TOOLS_REPO_H

#include "ortkit/bundle.h"
#include "ortkit/common.h"
#include "ortkit/host.h"
#include "ortkit/select.h"
#include "ortkit/tools/bundle_make.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The index schema this ortkit writes and reads. */
#define ORTKIT_REPO_SCHEMA 1

typedef struct ortkit_repo ortkit_repo;

/* Called while an archive downloads: bytes held so far (a resumed download
 * starts above 0) and the archive's size.  Non-zero stops the transfer
 * (ORTKIT_E_CANCELLED); what was fetched is kept for the next attempt. */
typedef int (*ortkit_repo_progress_fn)(void *arg, uint64_t done, uint64_t total);

/* Options: initialise with ORTKIT_REPO_OPTIONS_INIT. */
typedef struct ortkit_repo_options {
    unsigned version;      /* ORTKIT_REPO_OPTIONS_VERSION */
    /* The trusted public key (required): a minisign public key file, or the
     * key itself as minisign prints it ("RWQ..."). */
    const char *pubkey;
    /* PEM certificates of the authorities https servers are checked
     * against; NULL: the system's. */
    const char *ca_file;
    /* Where the newest serial seen from each key is kept; NULL:
     * $XDG_STATE_HOME/ortkit/repos (~/.local/state/ortkit/repos). */
    const char *state_dir;
    /* The time expiry is judged at, in seconds since the epoch; 0: now. */
    int64_t now;
    /* version 2: how long a download may take.  Each transfer (the index,
     * the signature, an archive) fails once it has taken timeout_s seconds
     * in all (0: 3600), or once it has been slower than min_rate bytes a
     * second for min_rate_window_s seconds (0: 1024 bytes a second over
     * 30 s); the error names the limit. */
    double timeout_s;
    uint64_t min_rate;
    double min_rate_window_s;
} ortkit_repo_options;

#define ORTKIT_REPO_OPTIONS_VERSION 2
#define ORTKIT_REPO_OPTIONS_INIT {ORTKIT_REPO_OPTIONS_VERSION, NULL, NULL, NULL, 0, 0, 0, 0}

/* The repository as its verified index describes it.  The repository's,
 * reached by pointer: later versions may add fields at the end. */
typedef struct ortkit_repo_info {
    const char *source;          /* the URL or directory it was opened from */
    uint64_t serial;             /* the index's serial */
    uint64_t last_serial;        /* the newest seen before this open; 0: none */
    int64_t created, expires;    /* seconds since the epoch */
    const char *key_id;          /* the signing key: 16 hex digits, as minisign shows it */
    const char *trusted_comment; /* the signature's trusted comment */
} ortkit_repo_info;

/* One bundle the repository offers.  The repository's, reached by pointer. */
typedef struct ortkit_repo_entry {
    const char *name;          /* the bundle's name, and its directory's once installed */
    const char *ort_version;   /* "1.30.0" */
    const char *variant;       /* "cpu", "cpu-avx512", ... */
    const char *archive;       /* "archives/<sha256>.tar.zst", relative to the repository */
    uint64_t size;             /* the archive's bytes */
    const char *sha256;        /* the archive's SHA-256, 64 lowercase hex digits */
    uint64_t unpacked_size;    /* the bundle's files, in bytes */
    const ortkit_bundle *bundle; /* its manifest, as a bundle without a directory */
} ortkit_repo_entry;

/*
 * Fetch source's index.json and index.json.minisig (source: an http:// or
 * https:// URL, or a directory), verify the signature with the trusted
 * key, the expiry and the serial, and read the index strictly.  A serial
 * lower than the newest seen from that key, or the same serial for another
 * index, is refused (ORTKIT_E_FORMAT, as a bad signature or an expired
 * index is); a higher one is recorded.
 */
ORTKIT_API int ortkit_repo_open(ortkit_repo **out, const char *source,
                                const ortkit_repo_options *opts);
ORTKIT_API void ortkit_repo_free(ortkit_repo *repo);
ORTKIT_API const ortkit_repo_info *ortkit_repo_info_get(const ortkit_repo *repo);
ORTKIT_API size_t ortkit_repo_count(const ortkit_repo *repo);
/* The entry i, or NULL when i is out of range. */
ORTKIT_API const ortkit_repo_entry *ortkit_repo_get(const ortkit_repo *repo, size_t i);

/*
 * Judge every entry for host with ortkit_bundle_select (same answers, same
 * order; verdict i is entry i's).  pin as there.
 */
ORTKIT_API int ortkit_repo_choose(ortkit_bundle_choice **out, const ortkit_repo *repo,
                                  const ortkit_host *host, const char *pin);

/* Options: initialise with ORTKIT_REPO_INSTALL_OPTIONS_INIT. */
typedef struct ortkit_repo_install_options {
    unsigned version;         /* ORTKIT_REPO_INSTALL_OPTIONS_VERSION */
    const char *into;         /* NULL: the user's bundle directory */
    ortkit_repo_progress_fn progress; /* NULL: none */
    void *progress_arg;
    /* version 2 */
    int force;                /* replace a bundle of the same name that verifies but differs */
} ortkit_repo_install_options;

#define ORTKIT_REPO_INSTALL_OPTIONS_VERSION 2
#define ORTKIT_REPO_INSTALL_OPTIONS_INIT {ORTKIT_REPO_INSTALL_OPTIONS_VERSION, NULL, NULL, NULL, 0}

typedef enum ortkit_repo_outcome {
    ORTKIT_REPO_INSTALLED = 0, /* it was not there */
    ORTKIT_REPO_UNCHANGED = 1, /* the same bundle was there and verifies: nothing done */
    ORTKIT_REPO_REPLACED = 2   /* a damaged bundle of that name (or, with force, another) was replaced */
} ortkit_repo_outcome;

/* What an install did.  Library-allocated: later versions add fields at the end. */
typedef struct ortkit_repo_report {
    const char *name;
    const char *dir;          /* where the bundle now is */
    ortkit_repo_outcome outcome;
    uint64_t downloaded;      /* bytes fetched by this call */
    uint64_t resumed_from;    /* bytes an earlier, interrupted download had kept */
} ortkit_repo_report;

/*
 * Install entry i: download its archive (resuming an interrupted download;
 * its size and SHA-256 checked while it streams), unpack it into a
 * temporary directory beside the destination, verify the bundle
 * (ortkit_bundle_verify) and that it is the one the index lists, and
 * rename it into place.  A failure leaves the destination as it was: never
 * a half bundle, and a bundle of the same name is replaced only by one
 * that verified.  A bundle of the same name that verifies but is another
 * (the user's own) is replaced only with options.force; without it the
 * install fails with ORTKIT_E_IO, naming it.  Installs into one directory
 * take turns (a lock file).
 */
ORTKIT_API int ortkit_repo_install(ortkit_repo_report **out, ortkit_repo *repo, size_t i,
                                   const ortkit_repo_install_options *opts);
ORTKIT_API void ortkit_repo_report_free(ortkit_repo_report *report);

/* ---- publishing -------------------------------------------------------------- */

/*
 * Make a key pair in minisign's format: secret_key (mode 0600) and
 * public_key.  password NULL: the secret key is stored unencrypted (as
 * `minisign -G -W`); else encrypted as minisign does (scrypt).  An
 * existing file is replaced only with force.
 */
ORTKIT_API int ortkit_repo_keygen(const char *secret_key, const char *public_key,
                                  const char *password, int force);

/* Options: initialise with ORTKIT_REPO_PUBLISH_OPTIONS_INIT. */
typedef struct ortkit_repo_publish_options {
    unsigned version;        /* ORTKIT_REPO_PUBLISH_OPTIONS_VERSION */
    const char *secret_key;  /* a minisign secret key file (required) */
    const char *password;    /* for an encrypted key; NULL */
    int64_t expires;         /* seconds since the epoch; 0: 30 days from now */
    uint64_t serial;         /* 0: one more than the repository's; else higher than it */
    const char *comment;     /* the signature's trusted comment; NULL: serial and expiry */
} ortkit_repo_publish_options;

#define ORTKIT_REPO_PUBLISH_OPTIONS_VERSION 1
#define ORTKIT_REPO_PUBLISH_OPTIONS_INIT \
    {ORTKIT_REPO_PUBLISH_OPTIONS_VERSION, NULL, NULL, 0, 0, NULL}

/*
 * Add the bundles (directories) to the repository in dir, made if needed:
 * each is verified, packed into archives/<sha256>.tar.zst and listed in
 * index.json (replacing an entry of the same name), which is signed with a
 * higher serial.  *out (may be NULL) receives the repository as published.
 */
ORTKIT_API int ortkit_repo_publish(ortkit_repo **out, const char *dir,
                                   const char *const *bundles, size_t count,
                                   const ortkit_repo_publish_options *opts);

/* ---- Microsoft's releases ---------------------------------------------------- */

/*
 * Microsoft's official ONNX Runtime release `version` (1.30.0) for this
 * host's architecture (Linux x86-64 or aarch64), from the npm registry:
 * the package onnxruntime-node@version's metadata (registry/onnxruntime-node/
 * version), its tarball checked against the SHA-512 the registry publishes
 * (dist.integrity; a tarball that does not match is refused), the library
 * (package/bin/napi-v<N>/linux/{x64,arm64}/libonnxruntime.so.*) unpacked into
 * a temporary directory under $TMPDIR and imported as a bundle with
 * ortkit_bundle_import and import (NULL: the defaults: the user's bundle
 * directory, named ort-<version>-cpu).  registry NULL: $ORTKIT_NPM_REGISTRY,
 * else https://registry.npmjs.org; ca_file NULL: the system's CAs.  The
 * import options' cancel is also asked while the tarball downloads
 * (ORTKIT_E_CANCELLED; nothing is left behind).
 */
ORTKIT_API int ortkit_repo_fetch_release(ortkit_bundle **out, const char *version,
                                         const char *registry, const char *ca_file,
                                         const ortkit_bundle_import_options *import);

/* Options of ortkit_repo_fetch_github: initialise with
 * ORTKIT_REPO_GITHUB_OPTIONS_INIT; later versions add fields at the end. */
typedef struct ortkit_repo_github_options {
    unsigned version;    /* ORTKIT_REPO_GITHUB_OPTIONS_VERSION */
    const char *gpu;     /* NULL: the CPU release; "cuda12" or "cuda13": a GPU release */
    /* The tarball's SHA-256 (64 hex digits), checked instead of ortkit's
     * table; needed for a release the table does not know.  NULL: the table. */
    const char *sha256;
    /* The tarball's whole URL.  NULL: base/vVERSION/FILE, base being
     * $ORTKIT_GITHUB_RELEASES, else
     * https://github.com/microsoft/onnxruntime/releases/download. */
    const char *url;
    const char *ca_file; /* NULL: the system's CAs */
} ortkit_repo_github_options;

#define ORTKIT_REPO_GITHUB_OPTIONS_VERSION 1
#define ORTKIT_REPO_GITHUB_OPTIONS_INIT {ORTKIT_REPO_GITHUB_OPTIONS_VERSION, NULL, NULL, NULL, NULL}

/*
 * Microsoft's official ONNX Runtime release `version` for this host's
 * architecture, from the tarballs of its GitHub release
 * (onnxruntime-linux-{x64,aarch64}-VERSION.tgz, or a GPU one:
 * onnxruntime-linux-x64-gpu-VERSION.tgz up to 1.26 for CUDA 12,
 * -gpu_cuda12- and -gpu_cuda13- after).  The tarball must hash to the
 * SHA-256 ortkit carries for it (1.17 to 1.30, where it could be sourced)
 * or to opts->sha256: one ortkit does not know is refused unless a hash is
 * given (ORTKIT_E_UNSUPPORTED), one that does not match is refused and
 * removed.  It is downloaded into the download cache
 * ($XDG_CACHE_HOME/ortkit/downloads), resumed there after a broken
 * transfer and checked while it streams; unpacked under $TMPDIR by the
 * rules of a repository archive (no path or link that leaves it), imported
 * with ortkit_bundle_import and import (NULL: the defaults; a GPU release
 * with its providers), and then removed.  The import options' cancel is
 * also asked while the tarball downloads (ORTKIT_E_CANCELLED).
 */
ORTKIT_API int ortkit_repo_fetch_github(ortkit_bundle **out, const char *version,
                                        const ortkit_repo_github_options *opts,
                                        const ortkit_bundle_import_options *import);

#ifdef __cplusplus
}
#endif

#endif /* ORTKIT_INCLUDE_TOOLS_REPO_H */
