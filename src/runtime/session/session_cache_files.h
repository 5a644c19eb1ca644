/*
 * session_cache_files.h - the files of the session cache: digests of model
 * and runtime files (remembered by the file's identity), last-use times,
 * eviction.
 */
#ifndef ORTKIT_SESSION_CACHE_FILES_H
#define ORTKIT_SESSION_CACHE_FILES_H

#include "core.h"

#include <sys/stat.h>

/*
 * The SHA-256 of the file at path.  Hashing a large file at every start
 * would cost what the cache saves, so the digest is remembered in
 * DIR/digests/ under the file's identity (device, inode, size, modification
 * and change times to the nanosecond): any write to the file changes its
 * change time, and with it the identity.
 */
int ortkit__cache_file_digest(char hex[65], const char *dir, const char *path);
/* A file's identity as text (device, inode, size, modification and change
 * times to the nanosecond); returns its length. */
#define ORTKIT__CACHE_IDENTITY_MAX 160
int ortkit__cache_file_identity(char buf[ORTKIT__CACHE_IDENTITY_MAX], const struct stat *st);
/* Mark an entry used now (its modification time is its last use). */
void ortkit__cache_touch(const char *entry);

#endif
