/* error.c - the thread-local "last error" and small shared helpers. */
#include "internal.h"

#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ERROR_MAX 1024

static _Thread_local char last_message[ERROR_MAX];
static _Thread_local int last_code;

const char *ortkit_error_last(void) { return last_message; }

int ortkit_error_code(void) { return last_code; }

const char *ortkit_version(void) { return ORTKIT_VERSION_STRING; }

const char *ortkit_status_name(int code)
{
    static const char *const names[] = {
        "ORTKIT_OK", "ORTKIT_E_INVALID_ARG", "ORTKIT_E_NOMEM", "ORTKIT_E_IO",
        "ORTKIT_E_RUNTIME_NOT_FOUND", "ORTKIT_E_RUNTIME_INVALID", "ORTKIT_E_RUNTIME_TOO_OLD",
        "ORTKIT_E_MODEL", "ORTKIT_E_PROVIDER", "ORTKIT_E_SHAPE", "ORTKIT_E_NAME", "ORTKIT_E_RUN",
        "ORTKIT_E_CANCELLED", "ORTKIT_E_FORMAT", "ORTKIT_E_UNSUPPORTED", "ORTKIT_E_ORT",
    };
    if (code > 0 || -code >= (int)(sizeof names / sizeof names[0]))
        return "ORTKIT_E_UNKNOWN";
    return names[-code];
}

static int error_vset(int code, const char *prefix_fmt, va_list ap, int wrap)
{
    char buf[ERROR_MAX];
    vsnprintf(buf, sizeof buf, prefix_fmt, ap);
    if (wrap && last_message[0]) {
        char old[ERROR_MAX];
        memcpy(old, last_message, sizeof old);
        /* Both parts fit in the message; truncation of a long one is fine. */
        size_t n = strnlen(buf, ERROR_MAX - 3);
        memcpy(last_message, buf, n);
        memcpy(last_message + n, ": ", 2);
        size_t room = sizeof last_message - n - 3, m = strnlen(old, room);
        memcpy(last_message + n + 2, old, m);
        last_message[n + 2 + m] = '\0';
    } else {
        memcpy(last_message, buf, sizeof last_message);
    }
    last_code = code;
    return code;
}

int ortkit__error_set(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_vset(code, fmt, ap, 0);
    va_end(ap);
    return code;
}

int ortkit__error_wrap(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_vset(code, fmt, ap, 1);
    va_end(ap);
    return code;
}

int ortkit__error_nomem(void) { return ortkit__error_set(ORTKIT_E_NOMEM, "out of memory"); }

char *ortkit__strdup(const char *s)
{
    char *copy = strdup(s ? s : "");
    if (!copy)
        ortkit__error_nomem();
    return copy;
}

int ortkit__file_read(char **out, size_t *size, const char *path, size_t max_size)
{
    *out = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot open '%s': %s", path, strerror(errno));
    int rc = ORTKIT_OK;
    char *buf = NULL;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot stat '%s': %s", path, strerror(errno));
        goto cleanup;
    }
    if (S_ISDIR(st.st_mode)) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': is a directory", path);
        goto cleanup;
    }
    if ((uint64_t)st.st_size > max_size) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': larger than %zu bytes", path, max_size);
        goto cleanup;
    }
    size_t want = (size_t)st.st_size, got = 0;
    buf = malloc(want + 1);
    if (!buf) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    while (got < want) {
        ssize_t n = read(fd, buf + got, want - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", path, strerror(errno));
            goto cleanup;
        }
        if (n == 0)
            break; /* the file shrank while we read it */
        got += (size_t)n;
    }
    buf[got] = '\0';
    *out = buf;
    *size = got;
    buf = NULL;
cleanup:
    free(buf);
    close(fd);
    return rc;
}

int ortkit__file_write_atomic(const char *path, const void *data, size_t size)
{
    static atomic_uint counter;
    size_t len = strlen(path) + 48;
    char *tmp = malloc(len);
    if (!tmp)
        return ortkit__error_nomem();
    /* A unique name beside the target, created with O_EXCL and mode 0666 so
     * the umask applies as for any new file; rename() then replaces the old
     * file in one step, and a failure leaves the old one untouched. */
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 100; attempt++) {
        snprintf(tmp, len, "%s.tmp.%ld.%u", path, (long)getpid(), atomic_fetch_add(&counter, 1));
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    int rc = ORTKIT_OK;
    if (fd < 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", path, strerror(errno));
        free(tmp);
        return rc;
    }
    const char *p = data;
    size_t left = size;
    while (left > 0) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot write '%s': %s", path, strerror(errno));
            goto fail;
        }
        p += n;
        left -= (size_t)n;
    }
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
