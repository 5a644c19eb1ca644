/*
 * session_cache.h - the cache of optimised sessions: the graph ONNX Runtime
 * optimised, saved in ORT format under a key of everything that shaped it,
 * loaded again instead of optimising the model a second time.
 *
 * One entry is one file, DIR/KEY.ortkit-session: a header (magic, format,
 * the key, the payload's size and SHA-256) then the ORT-format bytes.  It is
 * written under a unique temporary name and renamed into place, so readers
 * see a whole entry or none, and two processes filling one key at once both
 * succeed.  An entry whose header does not match its name and contents is
 * removed and made again; it is never given to ONNX Runtime.
 *
 * Hashing the whole entry at every load would cost a tenth of what the
 * cache saves, so a good check is remembered in DIR/KEY.ortkit-verified
 * under the entry's identity (device, inode, size, modification and change
 * times to the nanosecond) and the checksum its header gives: any write,
 * truncation, replacement or copy of the entry changes the identity, and
 * the next load checks the whole entry again.  The last use (the entry's
 * modification time, for eviction) is moved forward at most once in
 * ORTKIT__CACHE_TOUCH_SECONDS, since moving it changes the identity too.
 */
#ifndef ORTKIT_SESSION_CACHE_H
#define ORTKIT_SESSION_CACHE_H

#include "runtime_internal.h"

#include <limits.h>

#define ORTKIT__CACHE_SUFFIX ".ortkit-session"
#define ORTKIT__CACHE_VERIFIED_SUFFIX ".ortkit-verified"
#define ORTKIT__CACHE_TOUCH_SECONDS 600
#define ORTKIT__CACHE_DEFAULT_MAX ((uint64_t)1 << 30)

typedef struct ortkit__cache_plan {
    ortkit_cache_state state; /* HIT: graph holds the entry; FILLED: fill_tmp is set */
    char reason[2 * PATH_MAX + 1024]; /* why SKIPPED, or what was wrong with an entry */
    char key[65];
    char dir[PATH_MAX];
    char entry[PATH_MAX];
    char fill_tmp[PATH_MAX];  /* where ONNX Runtime saves the optimised graph */
    uint64_t max_bytes;
    const void *graph;        /* the entry's ORT-format bytes (HIT) */
    size_t graph_size;
    void *map;                /* the entry mapped */
    size_t map_size;
} ortkit__cache_plan;

/* Decide what the cache does for a session about to open (path, or data and
 * size, with the caller's options o).  Never fails: anything that keeps the
 * cache from helping leaves state SKIPPED with the reason. */
void ortkit__session_cache_begin(ortkit__cache_plan *p, ortkit_runtime *rt, const char *path,
                                 const void *data, size_t size, const ortkit_session_options *o);
/* A HIT whose graph ONNX Runtime refused (why): the entry is removed and the
 * plan turns into a fill. */
void ortkit__session_cache_reject(ortkit__cache_plan *p, const char *why);
/* After a FILLED session opened: store what ONNX Runtime saved, then keep
 * the directory within its size.  A failure only sets state SKIPPED. */
void ortkit__session_cache_store(ortkit__cache_plan *p);
/* Unmap and remove what the plan still holds. */
void ortkit__session_cache_end(ortkit__cache_plan *p);

/* Remove the least recently used entries of dir until they take at most
 * max_bytes; keep is never removed (may be NULL).  Returns entries removed. */
size_t ortkit__session_cache_evict(const char *dir, uint64_t max_bytes, const char *keep);

/* The header of an entry, for the tests that damage one on purpose. */
#define ORTKIT__CACHE_HEADER_SIZE 128

#endif
