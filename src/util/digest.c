/*
 * digest.c - the one place ortkit computes digests: SHA-256 (streamed, of a
 * buffer, of a file) and the SHA-1 ONNX Runtime's cmake/deps.txt names its
 * downloads by, and the one hex encoder.  Nothing else in ortkit touches
 * OpenSSL.
 *
 * OpenSSL's libcrypto does the work, not libsodium (which the repositories
 * use for signatures): libcrypto's SHA-256 uses the CPU's SHA extensions
 * (SHA-NI, the ARMv8 crypto instructions) where there are some, libsodium's
 * is portable C, several times slower, and bundles are verified by hashing
 * ONNX Runtime libraries of hundreds of megabytes.
 */
#include "util.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <unistd.h>

void ortkit__hex(char *out, const unsigned char *in, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}

static const EVP_MD *algorithm(ortkit__digest_alg alg)
{
    return alg == ORTKIT__SHA1 ? EVP_sha1() : EVP_sha256();
}

/* ---- streamed -------------------------------------------------------------------- */

static int begin(ortkit__sha256_ctx *h, const EVP_MD *md)
{
    h->failed = 0;
    if (!h->md && !(h->md = EVP_MD_CTX_new()))
        return ortkit__error_nomem();
    if (EVP_DigestInit_ex(h->md, md, NULL) != 1) {
        ortkit__sha256_discard(h);
        return ortkit__error_nomem();
    }
    return ORTKIT_OK;
}

int ortkit__sha256_init(ortkit__sha256_ctx *h) { return begin(h, EVP_sha256()); }

int ortkit__sha512_init(ortkit__sha256_ctx *h) { return begin(h, EVP_sha512()); }

void ortkit__sha256_update(ortkit__sha256_ctx *h, const void *data, size_t n)
{
    if (!h->md || EVP_DigestUpdate(h->md, data, n) != 1)
        h->failed = 1;
}

/* The digest (size bytes) into md, the context freed. */
static int finish(ortkit__sha256_ctx *h, unsigned char *md, unsigned size)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    int ok = h->md && !h->failed && EVP_DigestFinal_ex(h->md, out, &len) == 1 && len == size;
    ortkit__sha256_discard(h);
    if (!ok)
        return ortkit__error_set(ORTKIT_E_IO, "cannot compute a %s",
                                 size == 20 ? "SHA-1" : size == 64 ? "SHA-512" : "SHA-256");
    for (unsigned i = 0; i < size; i++)
        md[i] = out[i];
    return ORTKIT_OK;
}

int ortkit__sha256_final(ortkit__sha256_ctx *h, unsigned char md[ORTKIT__SHA256_SIZE])
{
    return finish(h, md, ORTKIT__SHA256_SIZE);
}

int ortkit__sha512_final(ortkit__sha256_ctx *h, unsigned char md[ORTKIT__SHA512_SIZE])
{
    return finish(h, md, ORTKIT__SHA512_SIZE);
}

void ortkit__sha256_discard(ortkit__sha256_ctx *h)
{
    EVP_MD_CTX_free(h->md);
    h->md = NULL;
}

/* ---- whole buffers and files ----------------------------------------------------- */

int ortkit__sha256(unsigned char md[ORTKIT__SHA256_SIZE], const void *data, size_t size)
{
    unsigned len = 0;
    if (EVP_Digest(data, size, md, &len, EVP_sha256(), NULL) != 1 || len != ORTKIT__SHA256_SIZE)
        return ortkit__error_set(ORTKIT_E_IO, "cannot compute a SHA-256");
    return ORTKIT_OK;
}

int ortkit__sha256_hex(char hex[ORTKIT__SHA256_HEX], const void *data, size_t size)
{
    unsigned char md[ORTKIT__SHA256_SIZE];
    int rc = ortkit__sha256(md, data, size);
    if (rc) {
        hex[0] = '\0';
        return rc;
    }
    ortkit__hex(hex, md, sizeof md);
    return ORTKIT_OK;
}

int ortkit__sha256_addf(ortkit__sha256_ctx *h, const char *fmt, ...)
{
    char line[8192];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line)
        return -1;
    ortkit__sha256_update(h, line, (size_t)n + 1);
    return 0;
}

typedef struct file_hash {
    ortkit__sha256_ctx h;
    uint64_t *size;
} file_hash;

static int hash_block(void *arg, const void *block, size_t n)
{
    file_hash *f = arg;
    ortkit__sha256_update(&f->h, block, n);
    if (f->size)
        *f->size += (uint64_t)n;
    return 0;
}

int ortkit__digest_file(ortkit__digest_alg alg, char *hex, size_t hex_size, uint64_t *size,
                        const char *path, int flags)
{
    unsigned md_size = alg == ORTKIT__SHA1 ? 20 : ORTKIT__SHA256_SIZE;
    if (hex_size)
        hex[0] = '\0';
    if (size)
        *size = 0;
    if (hex_size < 2 * (size_t)md_size + 1)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "digest buffer too small");
    int fd;
    int rc = ortkit__file_open(&fd, path, flags, NULL);
    if (rc)
        return rc;
    file_hash f = {{0}, size};
    size_t cap = (size_t)1 << 20;
    unsigned char *buf = malloc(cap), md[EVP_MAX_MD_SIZE];
    if (!buf)
        rc = ortkit__error_nomem();
    else if (!(rc = begin(&f.h, algorithm(alg))) &&
             !(rc = ortkit__file_each_block(fd, buf, cap, path, hash_block, &f))) {
        if (finish(&f.h, md, md_size))
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot hash '%s'", path);
        else
            ortkit__hex(hex, md, md_size);
    }
    ortkit__sha256_discard(&f.h);
    free(buf);
    close(fd);
    return rc;
}

int ortkit__sha256_file(char hex[ORTKIT__SHA256_HEX], uint64_t *size, const char *path)
{
    return ortkit__digest_file(ORTKIT__SHA256, hex, ORTKIT__SHA256_HEX, size, path, O_NOFOLLOW);
}
