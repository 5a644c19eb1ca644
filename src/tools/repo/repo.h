/*
 * repo.h - what the repository modules share; not installed.
 *
 *   repo_sign.c     minisign's key and signature files: read, write, sign, verify
 *   repo_index.c    index.json: read it strictly, write it
 *   repo_pack.c     a bundle into a tar + zstd archive, and back (never a link out)
 *   repo_fetch.c    files from a directory or over http(s), resumed, checked while streaming
 *   repo_state.c    the newest serial seen from each key; lock files
 *   repo_open.c     open a repository: fetch, verify, judge
 *   repo_install.c  install one entry
 *   repo_publish.c  publish bundles, make key pairs
 *   repo_npm.c      Microsoft's release from the npm registry, checked, as a bundle
 *   repo_releases.c Microsoft's GitHub release tarballs: names, the SHA-256s ortkit carries
 *   repo_github.c   Microsoft's release from GitHub, checked against them, as a bundle
 */
#ifndef ORTKIT_REPO_H
#define ORTKIT_REPO_H

#include "core.h"
#include "ortkit/tools/repo.h"

#include <limits.h>
#include <stdint.h>

#define REPO_INDEX "index.json"
#define REPO_SIGNATURE "index.json.minisig"
#define REPO_ARCHIVES "archives"
/* An index or a signature larger than this is refused before it is read. */
#define REPO_INDEX_MAX ((size_t)64 << 20)
#define REPO_SIGNATURE_MAX ((size_t)4096)
#define REPO_MAX_ENTRIES 4096

/* ---- keys and signatures (repo_sign.c) --------------------------------------- */

typedef struct ortkit__pubkey {
    unsigned char id[8]; /* minisign's key number, as stored */
    unsigned char pk[32];
} ortkit__pubkey;

typedef struct ortkit__seckey {
    unsigned char id[8];
    unsigned char sk[64]; /* libsodium's Ed25519 secret key (seed + public key) */
} ortkit__seckey;

typedef struct ortkit__signature {
    int prehashed;                /* "ED": over BLAKE2b-512 of the file; "Ed": over the file */
    unsigned char id[8];
    unsigned char sig[64];
    char trusted_comment[1024];
    unsigned char global_sig[64]; /* over sig and the trusted comment */
} ortkit__signature;

/* "0123456789ABCDEF": the key number as minisign prints it. */
void ortkit__key_id_hex(char out[17], const unsigned char id[8]);
/* A public key file's text, or the key's base64 line alone. */
int ortkit__pubkey_parse(ortkit__pubkey *out, const char *text, size_t size);
/* The trusted key of options: a path, or the base64 key itself ("RW..."). */
int ortkit__pubkey_load(ortkit__pubkey *out, const char *path_or_key);
/* A secret key file's text; password for an encrypted one (NULL: none). */
int ortkit__seckey_parse(ortkit__seckey *out, const char *text, size_t size, const char *password);
/* The public and secret key files' text for sk (malloc'd). */
int ortkit__pubkey_format(char **out, const ortkit__seckey *sk);
int ortkit__seckey_format(char **out, const ortkit__seckey *sk, const char *password,
                          uint64_t opslimit, uint64_t memlimit);
/* A signature file's text. */
int ortkit__signature_parse(ortkit__signature *out, const char *text, size_t size);
/* Sign data (prehashed, as minisign does by default): the file's text (malloc'd). */
int ortkit__sign(char **out, const ortkit__seckey *sk, const void *data, size_t size,
                 const char *trusted_comment);
/* Verify data against a parsed signature with the trusted key: ORTKIT_E_FORMAT
 * naming what failed (another key, the file, the trusted comment). */
int ortkit__verify(const ortkit__signature *sig, const ortkit__pubkey *pk, const void *data,
                   size_t size, const char *what);

/* The file at path, whose signature is at sig_path, read (at most max bytes)
 * and verified with the public half of sk: what a publisher checks before
 * it signs over an index it made earlier.  *text is freed on failure. */
int ortkit__read_verified(char **text, size_t *size, const char *path, const char *sig_path,
                          size_t max, const ortkit__seckey *sk);

/* ---- the index (repo_index.c) ----------------------------------------------------- */

typedef struct ortkit__repo_index {
    uint64_t serial;
    int64_t created, expires;
    size_t count;
    ortkit_repo_entry *entries;   /* strings and bundles owned by the index */
} ortkit__repo_index;

int ortkit__index_parse(ortkit__repo_index *out, const char *json, size_t size, const char *what);
void ortkit__index_free(ortkit__repo_index *index);
void ortkit__entry_free(ortkit_repo_entry *entry);
/* index.json's text for an index (pretty-printed, newline-terminated); free() it. */
int ortkit__index_to_json(char **out, const ortkit__repo_index *index);

/* ---- archives (repo_pack.c) ----------------------------------------------------- */

/* Pack the bundle into dir/archives/<sha256>.tar.zst: *sha256 and *size
 * describe the archive, *unpacked the files' bytes. */
int ortkit__pack(char sha256[65], uint64_t *size, uint64_t *unpacked, const ortkit_bundle *bundle,
                 const char *dir);
/* Unpack archive into the empty directory to: regular files, directories
 * and links to a name in the same directory only, at most max_bytes. */
int ortkit__unpack(const char *archive, const char *to, uint64_t max_bytes);
/* The same rules for a tar + gzip release tarball (a leading "./" is
 * allowed); max_bytes bounds what it unpacks to. */
int ortkit__unpack_gzip(const char *archive, const char *to, uint64_t max_bytes);

/* ---- fetching (repo_fetch.c) ---------------------------------------------------- */

typedef struct ortkit__source {
    const char *base;    /* a URL or a directory, without a trailing '/' */
    int remote;          /* http(s) */
    const char *ca_file; /* NULL: the system's */
    /* Limits of one transfer (ortkit_repo_options; 0: the defaults). */
    double timeout_s;
    uint64_t min_rate;
    double min_rate_window_s;
} ortkit__source;

#define REPO_DEFAULT_TIMEOUT_S 3600.0
#define REPO_DEFAULT_MIN_RATE 1024
#define REPO_DEFAULT_MIN_RATE_WINDOW_S 30.0

int ortkit__source_init(ortkit__source *src, char **base, const char *source, const char *ca_file);
/* A small file whole (the index, its signature), at most max bytes. */
int ortkit__fetch_small(char **out, size_t *size, const ortkit__source *src, const char *rel,
                        size_t max);
/* Fetch rel into part (appending to what an earlier attempt kept there),
 * checking the size and the SHA-256 while it streams.  On a transfer failure
 * the part is kept for the next attempt; on a wrong size or hash it is
 * removed. */
typedef struct ortkit__fetch_job {
    const char *rel, *part;
    uint64_t size;
    const char *sha256;
    ortkit_repo_progress_fn progress;
    void *progress_arg;
    uint64_t resumed_from, downloaded; /* out */
    /* 1: size is only the most there may be (the file's own is not known);
     * the hash decides.  vouch: who gives size and sha256, in messages
     * (NULL: "the signed index"). */
    int size_is_max;
    const char *vouch;
} ortkit__fetch_job;
int ortkit__fetch_file(const ortkit__source *src, ortkit__fetch_job *job);
/* Fetch rel whole into path (made afresh, removed on failure), at most max
 * bytes; *got: its size.  What it holds is for the caller to check.
 * progress (NULL: none) is called as bytes arrive, with max as the total;
 * nonzero from it stops the transfer (ORTKIT_E_CANCELLED). */
int ortkit__fetch_whole(const ortkit__source *src, const char *rel, const char *path, uint64_t max,
                        uint64_t *got, ortkit_repo_progress_fn progress, void *progress_arg);
/* A progress function (arg: the ortkit_bundle_import_options, or NULL) that
 * stops a download when the import's cancel says so. */
int ortkit__import_cancel_progress(void *arg, uint64_t done, uint64_t total);
/* A new directory $TMPDIR/ortkit-fetch-XXXXXX (else under /tmp) into out;
 * out is "" on failure. */
int ortkit__fetch_tmpdir(char *out, size_t size);

/* ---- Microsoft's GitHub releases (repo_releases.c) ------------------------------ */

/* The releases ortkit knows the SHA-256 of: 1.17 to 1.30. */
#define ORTKIT__RELEASE_FIRST "1.17"
#define ORTKIT__RELEASE_LAST "1.30"

typedef struct ortkit__release {
    const char *version; /* "1.30.0" */
    const char *arch;    /* Microsoft's word: "x64", "aarch64" */
    const char *flavour; /* "cpu", "cuda12", "cuda13" */
    const char *file;    /* onnxruntime-linux-x64-1.30.0.tgz */
    uint64_t size;       /* 0: not known */
    const char *sha256;  /* 64 lower-case hex digits */
} ortkit__release;

size_t ortkit__release_count(void);
const ortkit__release *ortkit__release_at(size_t i);
/* The row of version, arch and flavour; NULL: ortkit knows no hash of it. */
const ortkit__release *ortkit__release_find(const char *version, const char *arch,
                                            const char *flavour);
/* The tarball's file name as Microsoft names it. */
int ortkit__release_file(char *out, size_t size, const char *version, const char *arch,
                         const char *flavour);

/* ---- state and locks (repo_state.c) --------------------------------------------- */

/* $XDG_STATE_HOME/ortkit/repos, made 0700. */
int ortkit__state_dir(char **out, const char *option);
/* Check serial and the index's hash against the newest seen from the public
 * key pk (the whole key, not its number) and record them if newer: *last is
 * the serial seen before (0: none). */
int ortkit__state_check(uint64_t *last, const char *dir, const ortkit__pubkey *pk, uint64_t serial,
                        const char *index_sha256);
/* An exclusive lock on path (made 0600), waited for; *fd to close. */
int ortkit__lock(int *fd, const char *path);

/* ---- a repository (repo_open.c) ------------------------------------------------ */

struct ortkit_repo {
    ortkit_repo_info info;
    ortkit__repo_index index;
    ortkit__source src;
    char *base, *source, *comment;
    char key_id[17];
    char ca_file[PATH_MAX];
};

/* The download limits of options (0: the defaults) set on src; a negative one refused. */
int ortkit__source_limits(ortkit__source *src, const ortkit_repo_options *o);
/* A signed index from src, trusted in this order: name and its signature
 * sig_name are fetched (at most max bytes), and the signature must verify
 * with pk before anything of the text is read; *text (free() it) is then
 * the caller's to parse, and comment receives the signature's trusted
 * comment.  what names the index in messages. */
int ortkit__fetch_signed(char **text, size_t *size, char comment[1024], const ortkit__source *src,
                         const char *name, const char *sig_name, size_t max,
                         const ortkit__pubkey *pk, const char *what);
/* A parsed index still current: not past expires at now (0: the clock),
 * and its serial not older than the newest seen from pk (rollback; a newer
 * one is recorded in the state directory of option, NULL: the default).
 * republish says how its publisher makes a new one. */
int ortkit__index_current(uint64_t *last, const char *what, int64_t expires, int64_t now,
                          const char *republish, const ortkit__pubkey *pk, uint64_t serial,
                          const char *text, size_t size, const char *state_option);

/* A repository at source with no index yet. */
int ortkit__repo_new(ortkit_repo **out, const char *source, const char *ca_file);
/* Make index the repository's (index is left empty), signed by key_id with
 * the signature's trusted comment; on failure (memory) index is untouched. */
int ortkit__repo_take_index(ortkit_repo *repo, ortkit__repo_index *index, const unsigned char key_id[8],
                            const char *comment);

#endif
