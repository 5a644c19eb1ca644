/*
 * bundle_verified.c - remember which bundles verified, so that opening a
 * runtime does not hash hundreds of megabytes every time.
 *
 * An entry is a SHA-256 over the bundle's manifest and the state of each of
 * its files (device, inode, size, modification and change times, mode,
 * owner), written after a verification that found nothing wrong.  Changing
 * a file changes its change time, which no one but the kernel sets, so a
 * later open that sees the same state skips the hashing.  The entries live
 * in a directory only the user can write; if it is not so, nothing is
 * cached and every open hashes.
 */
#include "bundle.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MANIFEST_MAX ((size_t)8 << 20)

static int cache_dir(char *buf, size_t size) { return ortkit__cache_dir(buf, size, "verified"); }

/* The SHA-256 of a followed by b, as hex. */
static int sha256_parts(char out[65], const void *a, size_t an, const void *b, size_t bn)
{
    ortkit__sha256_ctx h = {0};
    unsigned char md[ORTKIT__SHA256_SIZE];
    if (ortkit__sha256_init(&h))
        return -1;
    ortkit__sha256_update(&h, a, an);
    ortkit__sha256_update(&h, b, bn);
    if (ortkit__sha256_final(&h, md))
        return -1;
    ortkit__hex(out, md, sizeof md);
    return 0;
}

/* The entry's file (named for the bundle's directory) and what it should hold. */
static int entry(const ortkit_bundle *b, const char *state, size_t size, char *file,
                 size_t file_size, char want[65])
{
    char dir[PATH_MAX], name[65], manifest[PATH_MAX];
    if (cache_dir(dir, sizeof dir))
        return -1;
    if (ortkit__sha256_hex(name, b->m.dir, strlen(b->m.dir)) ||
        ortkit__pathf(file, file_size, "%s/%s", dir, name) ||
        ortkit__pathf(manifest, sizeof manifest, "%s/%s", b->m.dir, BUNDLE_MANIFEST))
        return -1;
    char *text = NULL;
    size_t text_size = 0;
    if (ortkit__file_read(&text, &text_size, manifest, MANIFEST_MAX))
        return -1;
    int rc = sha256_parts(want, text, text_size, state, size);
    free(text);
    return rc;
}

int ortkit__verified_lookup(const ortkit_bundle *b, const char *state, size_t size, int *hit)
{
    *hit = 0;
    char file[PATH_MAX], want[65];
    if (entry(b, state, size, file, sizeof file, want))
        return ORTKIT_OK; /* no usable cache: verify in full */
    char *have = NULL;
    size_t have_size = 0;
    if (ortkit__file_read(&have, &have_size, file, 256) == 0)
        *hit = have_size >= 64 && !memcmp(have, want, 64);
    free(have);
    return ORTKIT_OK;
}

int ortkit__verified_store(const ortkit_bundle *b, const char *state, size_t size)
{
    char file[PATH_MAX], want[65];
    if (entry(b, state, size, file, sizeof file, want))
        return ORTKIT_OK;
    want[64] = '\n';
    return ortkit__file_write_atomic(file, want, 65);
}
