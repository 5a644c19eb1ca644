/*
 * repo_state.c - what a client remembers of each repository: the newest
 * serial it accepted and the hash of that index, per signing key, in a
 * directory only the user can read ($XDG_STATE_HOME/ortkit/repos, 0700).
 * A repository is known by its key, not by its address, so a mirror or a
 * stale cache cannot serve an older index under another URL; by the whole
 * public key, not minisign's 8-byte key number, which anyone can give a key
 * of their own (an index of theirs with a huge serial would otherwise make
 * the real repository's a "rollback" for ever).
 */
#include "repo.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int ortkit__state_dir(char **out, const char *option)
{
    *out = NULL;
    char path[PATH_MAX];
    int rc;
    if (option && option[0])
        rc = ortkit__pathf(path, sizeof path, "%s", option);
    else if ((rc = ortkit__xdg_dir(path, sizeof path, "XDG_STATE_HOME", ".local/state",
                                   "ortkit/repos")))
        return ortkit__error_wrap(ORTKIT_E_INVALID_ARG, "ortkit cannot remember which repository "
                                  "serial it last saw");
    if (rc || (rc = ortkit__mkdirs(path)))
        return rc;
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return ortkit__error_set(ORTKIT_E_IO, "'%s' is not a directory", path);
    if (st.st_uid != geteuid())
        return ortkit__error_set(ORTKIT_E_IO, "'%s' belongs to another user: it cannot hold "
                                 "this user's repository state", path);
    if ((st.st_mode & 0777) != 0700 && chmod(path, 0700) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot make '%s' private: %s", path, strerror(errno));
    return (*out = ortkit__strdup(path)) ? ORTKIT_OK : ortkit__error_nomem();
}

int ortkit__lock(int *fd, const char *path)
{
    *fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (*fd < 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot open the lock '%s': %s", path, strerror(errno));
    while (flock(*fd, LOCK_EX) != 0) {
        if (errno == EINTR)
            continue;
        int e = errno;
        close(*fd);
        *fd = -1;
        return ortkit__error_set(ORTKIT_E_IO, "cannot lock '%s': %s", path, strerror(e));
    }
    return ORTKIT_OK;
}

/* "serial 7 sha256 <hex>\n" */
static int read_state(uint64_t *serial, char sha[65], const char *path)
{
    char *text = NULL;
    size_t size = 0;
    *serial = 0;
    sha[0] = '\0';
    if (access(path, F_OK) != 0)
        return ORTKIT_OK;
    int rc = ortkit__file_read(&text, &size, path, 4096);
    if (rc)
        return rc;
    char hex[65];
    uint64_t n;
    if (sscanf(text, "serial %" SCNu64 " sha256 %64[0-9a-f]", &n, hex) != 2 || strlen(hex) != 64)
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is damaged; remove it to trust the "
                               "repository's next index again (rollback protection starts over)",
                               path);
    else {
        *serial = n;
        memcpy(sha, hex, 65);
    }
    free(text);
    return rc;
}

int ortkit__state_check(uint64_t *last, const char *dir, const ortkit__pubkey *pk, uint64_t serial,
                        const char *index_sha256)
{
    char path[PATH_MAX], lock[PATH_MAX], seen_sha[65], key_id[17], key_hex[65];
    int fd = -1, rc;
    *last = 0;
    ortkit__key_id_hex(key_id, pk->id);
    ortkit__hex(key_hex, pk->pk, sizeof pk->pk);
    /* "<key number>-<public key>": the number keeps the name readable. */
    if ((rc = ortkit__pathf(path, sizeof path, "%s/%s-%s", dir, key_id, key_hex)) ||
        (rc = ortkit__pathf(lock, sizeof lock, "%s/%s-%s.lock", dir, key_id, key_hex)) ||
        (rc = ortkit__lock(&fd, lock)))
        return rc;
    if ((rc = read_state(last, seen_sha, path)))
        goto cleanup;
    if (serial < *last) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "the index has serial %" PRIu64 ", older than "
                               "serial %" PRIu64 " already seen from key %s: a rollback to an "
                               "old index is refused", serial, *last, key_id);
    } else if (serial == *last && strcmp(seen_sha, index_sha256)) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "the index has serial %" PRIu64 " as one seen "
                               "before from key %s, but other contents: refused (a publisher "
                               "raises the serial with every change)", serial, key_id);
    } else if (serial > *last) {
        char text[128];
        int n = snprintf(text, sizeof text, "serial %" PRIu64 " sha256 %s\n", serial, index_sha256);
        rc = ortkit__file_write_atomic(path, text, (size_t)n);
    }
cleanup:
    close(fd);
    return rc;
}
