/* util_file.h - files (file.c). */
#ifndef ORTKIT_UTIL_FILE_H
#define ORTKIT_UTIL_FILE_H

#include "util_base.h"

/*
 * Every file ortkit reads goes through these, so that none can hang it: a
 * FIFO would block open() until a writer comes, a device could block or
 * never end.  The path is opened without blocking, and refused unless it is
 * a regular file (after links): "cannot read 'x': it is a FIFO (named
 * pipe), not a regular file".
 */
/* "a directory", "a FIFO (named pipe)", "a device", "a socket"... for st_mode. */
const char *ortkit__file_kind(unsigned mode);
/* *fd: path opened for reading (O_RDONLY | O_CLOEXEC | flags, such as
 * O_NOFOLLOW), blocking as usual once open; *st (may be NULL) what fstat says. */
int ortkit__file_open(int *fd, const char *path, int flags, struct stat *st);
/* The same as a stdio stream. */
int ortkit__file_fopen(FILE **out, const char *path);
/* Only check, for a path another library opens itself (ONNX Runtime, the
 * dynamic loader): it exists, is a regular file (after links) and can be
 * read.  what names it in the message ("model" gives "cannot open model
 * 'x': ..."); may be NULL.  *st (may be NULL): what stat says of it. */
int ortkit__file_check(const char *path, const char *what, struct stat *st);
/* Read a whole regular file (a file of /proc too, to its end); *out is
 * malloc'd and NUL-terminated, *size (may be NULL) its length.  A file larger
 * than max_size is refused, never cut short. */
int ortkit__file_read(char **out, size_t *size, const char *path, size_t max_size);
/* Write a whole file through a unique temporary name beside it, synced, then
 * renamed over path: readers see the old file or the new one, never a part,
 * and a failure leaves no temporary file behind. */
int ortkit__file_write_atomic(const char *path, const void *data, size_t size);
/* The same with the new file's mode (less the umask): 0600 for what only
 * the user may read. */
int ortkit__file_write_atomic_mode(const char *path, const void *data, size_t size, unsigned mode);
/* One read(2) of up to cap bytes from fd, retried when a signal cuts it
 * short: *got is 0 at the end; a failure is set naming path. */
int ortkit__file_read_block(int fd, void *buf, size_t cap, size_t *got, const char *path);
/* Read fd to its end, cap bytes at a time through buf, handing each block
 * to fn; the first failure, of a read (named by path) or fn's own nonzero
 * return, ends it and is returned. */
int ortkit__file_each_block(int fd, void *buf, size_t cap, const char *path,
                            int (*fn)(void *arg, const void *block, size_t n), void *arg);
/* Write all of data to fd, retried when a signal cuts it short; a failure
 * is set naming path, and errno is left as the failed write set it. */
int ortkit__file_write_all(int fd, const void *data, size_t size, const char *path);
/* mkdir -p (mode 0777 less the umask). */
int ortkit__mkdirs(const char *path);
/* ortkit__mkdirs that also says, in *existed, how much of path was there
 * before: the length of the first made directory's parent (strlen(path)
 * when it made nothing).  A failure undoes what it made. */
int ortkit__mkdirs_made(const char *path, size_t *existed);
/* rm -r: remove a directory tree (or a file), never following symbolic
 * links; a path that does not exist is not an error. */
int ortkit__rmtree(const char *path);
/* Undo ortkit__mkdirs_made: remove path and its parents while they are
 * empty, deepest first, never the first `existed` characters.  0 when all
 * are gone; -1 (errno set) at the first that stays.  Async-signal-safe. */
int ortkit__rmdirs_made(const char *path, size_t existed);

#endif
