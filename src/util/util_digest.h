/* util_digest.h - digests (digest.c). */
#ifndef ORTKIT_UTIL_DIGEST_H
#define ORTKIT_UTIL_DIGEST_H

#include "util_base.h"
#include "util_file.h"

#define ORTKIT__SHA256_SIZE 32
#define ORTKIT__SHA256_HEX 65 /* 64 hex digits and a NUL */

/* n bytes as 2n lower-case hex digits and a NUL. */
void ortkit__hex(char *out, const unsigned char *in, size_t n);

/* A SHA-256 computed piece by piece.  Start it zeroed ({0}); _final or
 * _discard frees what _init took. */
typedef struct ortkit__sha256_ctx {
    void *md;   /* OpenSSL's context, left to digest.c */
    int failed; /* an update failed: _final says so */
} ortkit__sha256_ctx;

/* Begin, or begin again (what was hashed so far is dropped); ORTKIT_E_NOMEM. */
int ortkit__sha256_init(ortkit__sha256_ctx *h);
/* Add n bytes; a failure is kept for _final to report. */
void ortkit__sha256_update(ortkit__sha256_ctx *h, const void *data, size_t n);
/* The digest, and the context freed; ORTKIT_E_IO when any step failed. */
int ortkit__sha256_final(ortkit__sha256_ctx *h, unsigned char md[ORTKIT__SHA256_SIZE]);
/* Free without a digest (a zeroed or finished context too). */
void ortkit__sha256_discard(ortkit__sha256_ctx *h);
/* The same context computing a SHA-512 (npm's integrity): _init, then
 * ortkit__sha256_update, then _final (or ortkit__sha256_discard). */
#define ORTKIT__SHA512_SIZE 64
int ortkit__sha512_init(ortkit__sha256_ctx *h);
int ortkit__sha512_final(ortkit__sha256_ctx *h, unsigned char md[ORTKIT__SHA512_SIZE]);

/* The SHA-256 of size bytes at data, as bytes or as hex. */
int ortkit__sha256(unsigned char md[ORTKIT__SHA256_SIZE], const void *data, size_t size);
int ortkit__sha256_hex(char hex[ORTKIT__SHA256_HEX], const void *data, size_t size);
/* Add one printf-formatted part to h, ended by a NUL so that no two lists of
 * parts hash alike (a cache key's parts); -1 when it exceeds 8 KiB. */
int ortkit__sha256_addf(ortkit__sha256_ctx *h, const char *fmt, ...) ORTKIT_PRINTF(2, 3);

typedef enum ortkit__digest_alg {
    ORTKIT__SHA256,
    ORTKIT__SHA1 /* only to check files against ONNX Runtime's cmake/deps.txt */
} ortkit__digest_alg;

/* The digest of a regular file (opened through ortkit__file_open with flags,
 * such as O_NOFOLLOW) as hex, in hex_size bytes (65 for SHA-256, 41 for
 * SHA-1), and its size (size may be NULL).  "cannot hash 'PATH'" when the
 * digest cannot be computed. */
int ortkit__digest_file(ortkit__digest_alg alg, char *hex, size_t hex_size, uint64_t *size,
                        const char *path, int flags);
/* The SHA-256 of a file that is not a link, as 64 hex digits, and its size. */
int ortkit__sha256_file(char hex[ORTKIT__SHA256_HEX], uint64_t *size, const char *path);

#endif
