/* util_path.h - paths (path.c). */
#ifndef ORTKIT_UTIL_PATH_H
#define ORTKIT_UTIL_PATH_H

#include "util_base.h"

/* snprintf for paths: ORTKIT_E_IO (recorded) when the result does not fit,
 * so a cut-off path is never used, least of all to remove something. */
int ortkit__pathf(char *buf, size_t size, const char *fmt, ...) ORTKIT_PRINTF(3, 4)
    ORTKIT_MUST_CHECK;
/* *out: an absolute, normalised path for path, which need not exist ("."
 * and ".." are resolved by name, links are not followed); malloc'd. */
int ortkit__path_absolute(char **out, const char *path);
/* The last component of path: what follows its last '/' (path itself when
 * it has none). */
const char *ortkit__path_last(const char *path);
/* A colon-separated list (PATH, LD_LIBRARY_PATH, a RUNPATH, ORTKIT_PATH),
 * entry by entry, empty entries passed over.  Start it at the list (NULL:
 * empty); each entry is it.len bytes at it.entry, not NUL-terminated:
 *     for (ortkit__path_list it = {.rest = dirs}; ortkit__path_list_next(&it);)
 *         printf("%.*s\n", (int)it.len, it.entry);
 */
typedef struct ortkit__path_list {
    const char *rest;  /* what is left of the list; NULL once at its end */
    const char *entry; /* the current entry */
    size_t len;
} ortkit__path_list;
/* 1 with the next entry, 0 at the end. */
int ortkit__path_list_next(ortkit__path_list *it);
/* The current entry into buf, NUL-terminated: ORTKIT_E_IO when it does not fit. */
int ortkit__path_list_entry(const ortkit__path_list *it, char *buf, size_t size) ORTKIT_MUST_CHECK;
/* *out: the executable program on PATH (or program itself when it holds a
 * '/'); malloc'd.  ORTKIT_E_IO when there is none. */
int ortkit__path_which(char **out, const char *program);
/* buf: the first of SELF/DIR/name that access(2) allows with mode, SELF
 * the directory of the file holding ortkit's code in this process
 * (libortkit.so, or the program linking libortkit.a) and DIR taken in order
 * from rel_dirs (relative directories separated by ':'), so an installed
 * tree finds its own parts wherever it was moved; -1 (nothing recorded)
 * when there is none. */
int ortkit__self_find(char *buf, size_t size, const char *rel_dirs, const char *name, int mode);

#endif
