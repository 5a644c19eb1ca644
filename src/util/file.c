/* file.c - whole files in and out, and directories made on the way. */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *ortkit__file_kind(unsigned mode)
{
    switch (mode & S_IFMT) {
    case S_IFREG: return "a regular file";
    case S_IFDIR: return "a directory";
    case S_IFIFO: return "a FIFO (named pipe)";
    case S_IFSOCK: return "a socket";
    case S_IFCHR:
    case S_IFBLK: return "a device";
    case S_IFLNK: return "a symbolic link";
    default: return "not a regular file";
    }
}

int ortkit__file_check(const char *path, const char *what, struct stat *st_out)
{
    struct stat st;
    const char *sep = what && *what ? " " : "";
    if (!what)
        what = "";
    if (stat(path, &st) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot open %s%s'%s': %s", what, sep, path,
                                 strerror(errno));
    if (!S_ISREG(st.st_mode))
        return ortkit__error_set(ORTKIT_E_IO, "cannot open %s%s'%s': it is %s, not a regular file",
                                 what, sep, path, ortkit__file_kind(st.st_mode));
    if (access(path, R_OK) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot open %s%s'%s': %s", what, sep, path,
                                 strerror(errno));
    if (st_out)
        *st_out = st;
    return ORTKIT_OK;
}

int ortkit__file_open(int *fd_out, const char *path, int flags, struct stat *st_out)
{
    *fd_out = -1;
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
     * writer, forever; a device could do anything.  Only a regular file is
     * read, and for it the flag means nothing until it is cleared. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | flags);
    if (fd < 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot open '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int rc = ortkit__error_set(ORTKIT_E_IO, "cannot stat '%s': %s", path, strerror(errno));
        close(fd);
        return rc;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': it is %s, not a regular file",
                                 path, ortkit__file_kind(st.st_mode));
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
        int rc = ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", path, strerror(errno));
        close(fd);
        return rc;
    }
    if (st_out)
        *st_out = st;
    *fd_out = fd;
    return ORTKIT_OK;
}

int ortkit__file_fopen(FILE **out, const char *path)
{
    *out = NULL;
    int fd, rc = ortkit__file_open(&fd, path, 0, NULL);
    if (rc)
        return rc;
    if (!(*out = fdopen(fd, "r"))) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", path, strerror(errno));
        close(fd);
    }
    return rc;
}

int ortkit__file_read(char **out, size_t *size, const char *path, size_t max_size)
{
    *out = NULL;
    if (size)
        *size = 0;
    int fd;
    struct stat st;
    int rc = ortkit__file_open(&fd, path, 0, &st);
    if (rc)
        return rc;
    char *buf = NULL;
    if ((uint64_t)st.st_size > max_size) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': larger than %zu bytes", path, max_size);
        goto cleanup;
    }
    /* A file is read in one go at the size it has; a file of /proc, which
     * says it has none, in steps.  Either way one byte more than fits is
     * asked for, so a file beyond max_size (or one that grew) is refused,
     * never returned cut short. */
    size_t cap = (size_t)st.st_size, got = 0;
    buf = malloc(cap + 1);
    if (!buf) {
        rc = ortkit__error_nomem_size(cap + 1);
        goto cleanup;
    }
    for (;;) {
        char extra;
        int full = got == cap;
        ssize_t n = full ? read(fd, &extra, 1) : read(fd, buf + got, cap - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", path, strerror(errno));
            goto cleanup;
        }
        if (n == 0)
            break; /* the end, or the file shrank while it was read */
        if (!full) {
            got += (size_t)n;
            continue;
        }
        if (cap >= max_size) {
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': larger than %zu bytes", path,
                                   max_size);
            goto cleanup;
        }
        size_t grown_cap = cap < 2048 ? 4096 : cap * 2;
        if (grown_cap > max_size)
            grown_cap = max_size;
        char *grown = realloc(buf, grown_cap + 1);
        if (!grown) {
            rc = ortkit__error_nomem_size(grown_cap + 1);
            goto cleanup;
        }
        buf = grown;
        cap = grown_cap;
        buf[got++] = extra;
    }
    buf[got] = '\0';
    *out = buf;
    if (size)
        *size = got;
    buf = NULL;
cleanup:
    free(buf);
    close(fd);
    return rc;
}

int ortkit__file_write_atomic(const char *path, const void *data, size_t size)
{
    return ortkit__file_write_atomic_mode(path, data, size, 0666);
}

int ortkit__file_write_atomic_mode(const char *path, const void *data, size_t size, unsigned mode)
{
    static atomic_uint counter;
    size_t len = strlen(path) + 48;
    char *tmp = malloc(len);
    if (!tmp)
        return ortkit__error_nomem();
    /* A unique name beside the target, created with O_EXCL (never through a
     * link) and the mode, less the umask as for any new file; rename() then
     * replaces the old file in one step, and a failure leaves the old one
     * untouched. */
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 100; attempt++) {
        snprintf(tmp, len, "%s.tmp.%ld.%u", path, (long)getpid(), atomic_fetch_add(&counter, 1));
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    int rc = ORTKIT_OK;
    if (fd < 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", path, strerror(errno));
        free(tmp);
        return rc;
    }
    if ((rc = ortkit__file_write_all(fd, data, size, path)))
        goto fail;
    int synced = fsync(fd) == 0;
    int saved = errno;
    int closed = close(fd) == 0;
    fd = -1;
    if (!synced || !closed) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot write '%s': %s", path,
                               strerror(synced ? errno : saved));
        goto fail;
    }
    if (rename(tmp, path) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot rename into '%s': %s", path, strerror(errno));
        goto fail;
    }
    free(tmp);
    return ORTKIT_OK;
fail:
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    free(tmp);
    return rc;
}

int ortkit__mkdirs(const char *path) { return ortkit__mkdirs_made(path, NULL); }

int ortkit__mkdirs_made(const char *path, size_t *existed)
{
    char buf[PATH_MAX];
    size_t keep = 0, last = 0;
    int made = 0, rc = ortkit__pathf(buf, sizeof buf, "%s", path);
    if (existed)
        *existed = strlen(buf);
    if (rc)
        return rc;
    /* Each parent in turn, then the whole; one that exists is fine.  The
     * parent of the first one made is where an undo stops. */
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char c = *p;
        *p = '\0';
        int ok = mkdir(buf, 0777) == 0;
        if (ok && !made) {
            const char *slash = strrchr(buf, '/');
            keep = !slash ? 0 : slash == buf ? 1 : (size_t)(slash - buf);
            made = 1;
        }
        if (ok)
            last = (size_t)(p - buf);
        if (!ok && errno != EEXIST) {
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", buf, strerror(errno));
            if (made) { /* undo what this call made */
                buf[last] = '\0';
                ortkit__rmdirs_made(buf, keep);
            }
            return rc;
        }
        *p = c;
        if (!c)
            break;
    }
    if (existed)
        *existed = made ? keep : strlen(buf);
    return ORTKIT_OK;
}

int ortkit__rmdirs_made(const char *path, size_t existed)
{
    char buf[PATH_MAX];
    size_t n = strlen(path);
    if (n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, n + 1);
    /* Deepest first; a directory that is not empty (or not there) stops it,
     * and nothing at or above the part that existed is touched. */
    while (n > existed) {
        while (n > 1 && buf[n - 1] == '/')
            buf[--n] = '\0';
        if (n <= existed)
            break;
        if (rmdir(buf) != 0)
            return -1;
        while (n > 0 && buf[n - 1] != '/')
            n--;
        buf[n] = '\0';
    }
    return 0;
}

int ortkit__file_read_block(int fd, void *buf, size_t cap, size_t *got, const char *path)
{
    *got = 0;
    for (;;) {
        ssize_t n = read(fd, buf, cap);
        if (n >= 0) {
            *got = (size_t)n;
            return ORTKIT_OK;
        }
        if (errno != EINTR)
            return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", path, strerror(errno));
    }
}

int ortkit__file_each_block(int fd, void *buf, size_t cap, const char *path,
                            int (*fn)(void *arg, const void *block, size_t n), void *arg)
{
    for (;;) {
        size_t n;
        int rc = ortkit__file_read_block(fd, buf, cap, &n, path);
        if (rc || n == 0)
            return rc;
        if ((rc = fn(arg, buf, n)))
            return rc;
    }
}

int ortkit__file_write_all(int fd, const void *data, size_t size, const char *path)
{
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int saved = errno;
            ortkit__error_set(ORTKIT_E_IO, "cannot write '%s': %s", path, strerror(saved));
            errno = saved; /* the caller may keep it */
            return ORTKIT_E_IO;
        }
        p += n;
        size -= (size_t)n;
    }
    return ORTKIT_OK;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path) != 0 && errno != ENOENT ? -1 : 0;
}

int ortkit__rmtree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? ORTKIT_OK
                               : ortkit__error_set(ORTKIT_E_IO, "cannot remove '%s': %s", path,
                                                   strerror(errno));
    if (nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot remove '%s': %s", path, strerror(errno));
    return ORTKIT_OK;
}
