/*
 * cache.c - ortkit's per-user cache directories ($XDG_CACHE_HOME/ortkit/NAME,
 * else ~/.cache/ortkit/NAME): what is remembered between runs, kept where
 * only the user can write.
 */
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int ortkit__cache_dir(char *buf, size_t size, const char *name)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char base[PATH_MAX];
    /* The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored. */
    if (xdg && xdg[0] == '/') {
        if (ortkit__pathf(base, sizeof base, "%s/ortkit", xdg))
            return -1;
    } else if (home && home[0] == '/') {
        if (ortkit__pathf(base, sizeof base, "%s/.cache/ortkit", home))
            return -1;
    } else {
        return -1;
    }
    if (ortkit__pathf(buf, size, "%s/%s", base, name) || ortkit__mkdirs(base))
        return -1;
    if (mkdir(buf, 0700) != 0 && errno != EEXIST)
        return -1;
    /* Another user's directory, or one others may write, is not trusted. */
    struct stat st;
    if (lstat(buf, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
        (st.st_mode & 077))
        return -1;
    return 0;
}
