/* util_cache.h - the per-user cache (cache.c). */
#ifndef ORTKIT_UTIL_CACHE_H
#define ORTKIT_UTIL_CACHE_H

#include "util_base.h"
#include "util_file.h"

/* $XDG_CACHE_HOME/ortkit/NAME (else ~/.cache/ortkit/NAME) into buf, made
 * 0700; -1 when there is no home or the directory is not the user's alone
 * (then nothing is cached). */
int ortkit__cache_dir(char *buf, size_t size, const char *name);
/* dir as a place only this user can write: made 0700 when missing (its
 * parents as ortkit__mkdirs makes them), else it must be a directory, not a
 * link, owned by the user, with no access for group or others.
 * ORTKIT_E_IO naming the rule it breaks and what to do (what: "the session
 * cache"). */
int ortkit__private_dir(const char *dir, const char *what);
/* Whether only this user (or root) could replace what path names
 * (path_trust.c): every directory from "/" on the way (links followed one
 * component at a time, so the directories holding them count too) belongs
 * to the user or root and is writable by no one else, or is sticky and the
 * entry in it the user's or root's; and path itself is the user's or root's,
 * writable by no one else.  0, or -1 with the first thing that fails in why. */
int ortkit__path_trusted(const char *path, char *why, size_t size);
/* Walk path from the root as the kernel resolves it, links followed one
 * component at a time (40 at most): visit(arg, DIR, ENTRY) for each entry
 * met, with the directory holding it (non-zero stops the walk: -1).  end
 * receives where the path led.  -1 with why when it cannot be walked. */
struct stat;
int ortkit__path_walk(const char *path, char *end, size_t end_size,
                      int (*visit)(void *arg, const char *dir, const struct stat *entry),
                      void *arg, char *why, size_t size);
/* st (of path) belongs to the user or root and, unless a link, is writable
 * by its owner only: 0, or -1 with why. */
int ortkit__path_owned(const char *path, const struct stat *st, char *why, size_t size);
/* Create path for a writer that will open it again by name (ONNX Runtime):
 * O_CREAT | O_EXCL | O_NOFOLLOW with mode (less the umask), so nothing
 * planted there (a link to another file) is written through.  ORTKIT_E_IO
 * with errno kept (EEXIST: try another name). */
int ortkit__file_create_new(const char *path, unsigned mode);

#endif
