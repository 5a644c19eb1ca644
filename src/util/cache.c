/*
 * cache.c - ortkit's per-user cache directories ($XDG_CACHE_HOME/ortkit/NAME,
 * else ~/.cache/ortkit/NAME): what is remembered between runs, kept where
 * only the user can write.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ortkit__cache_dir(char *buf, size_t size, const char *name)
{
    char base[PATH_MAX];
    if (ortkit__xdg_dir(base, sizeof base, "XDG_CACHE_HOME", ".cache", "ortkit") ||
        ortkit__pathf(buf, size, "%s/%s", base, name) || ortkit__mkdirs(base))
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

int ortkit__private_dir(const char *dir, const char *what)
{
    char parent[PATH_MAX];
    int rc = ortkit__pathf(parent, sizeof parent, "%s", dir);
    if (rc)
        return rc;
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) {
        *slash = '\0';
        if ((rc = ortkit__mkdirs(parent)))
            return rc;
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return ortkit__error_set(ORTKIT_E_IO, "cannot create %s '%s': %s", what, dir,
                                 strerror(errno));
    struct stat st;
    if (lstat(dir, &st) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot look at %s '%s': %s", what, dir,
                                 strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return ortkit__error_set(ORTKIT_E_IO, "%s '%s' is not a directory (a link is not "
                                 "followed): not used", what, dir);
    if (st.st_uid != geteuid())
        return ortkit__error_set(ORTKIT_E_IO, "%s '%s' belongs to uid %u, not to this user: not "
                                 "used (give a directory of your own)", what, dir,
                                 (unsigned)st.st_uid);
    /* Others who can write it can plant or swap entries; reading leaks them. */
    if (st.st_mode & 077)
        return ortkit__error_set(ORTKIT_E_IO, "%s '%s' is open to others (mode %04o): not used "
                                 "(chmod 700 it, or give another directory)", what, dir,
                                 (unsigned)(st.st_mode & 07777));
    return ORTKIT_OK;
}

int ortkit__file_create_new(const char *path, unsigned mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
    if (fd < 0) {
        int e = errno;
        ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", path, strerror(e));
        errno = e; /* EEXIST: the caller may try another name */
        return ORTKIT_E_IO;
    }
    close(fd);
    return ORTKIT_OK;
}
