/*
 * session_cache_files.c - digests of the files a cache key names, and the
 * cache directory kept within its size (least recently used entries go).
 */
#include "session_cache.h"
#include "session_cache_files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Temporary files older than this are left over from a process that died
 * while filling; younger ones may be another process's fill in progress. */
#define STALE_TMP_SECONDS 3600

static int is_hex64(const char *s)
{
    for (size_t i = 0; i < 64; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return 1;
}

int ortkit__cache_file_identity(char buf[ORTKIT__CACHE_IDENTITY_MAX], const struct stat *st)
{
    return snprintf(buf, ORTKIT__CACHE_IDENTITY_MAX, "%llu %llu %lld %lld.%09ld %lld.%09ld",
                    (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
                    (long long)st->st_size, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
                    (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
}

int ortkit__cache_file_digest(char hex[65], const char *dir, const char *path)
{
    int fd;
    struct stat st;
    int rc = ortkit__file_open(&fd, path, 0, &st);
    if (rc)
        return rc;
    char identity[ORTKIT__CACHE_IDENTITY_MAX], id_hex[65], memo[PATH_MAX];
    int n = ortkit__cache_file_identity(identity, &st);
    char *text = NULL;
    size_t len = 0;
    if ((rc = ortkit__sha256_hex(id_hex, identity, (size_t)n)) ||
        (rc = ortkit__pathf(memo, sizeof memo, "%s/digests/%s", dir, id_hex)))
        goto cleanup;
    if (!ortkit__file_read(&text, &len, memo, 256) && len == 65 && is_hex64(text) && text[64] == '\n') {
        memcpy(hex, text, 64);
        hex[64] = '\0';
        goto cleanup;
    }
    void *m = st.st_size > 0 ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
    if (m == MAP_FAILED) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", path, strerror(errno));
        goto cleanup;
    }
    rc = ortkit__sha256_hex(hex, m ? m : "", m ? (size_t)st.st_size : 0);
    if (m)
        munmap(m, (size_t)st.st_size);
    char line[66];
    snprintf(line, sizeof line, "%s\n", hex);
    char sub[PATH_MAX];
    /* Remembering is an optimisation: a directory that refuses it only
     * means hashing again next time. */
    if (!rc && !ortkit__pathf(sub, sizeof sub, "%s/digests", dir) && !ortkit__mkdirs(sub))
        ortkit__file_write_atomic(memo, line, 65);
cleanup:
    free(text);
    close(fd);
    return rc;
}

void ortkit__cache_touch(const char *entry) { utimensat(AT_FDCWD, entry, NULL, 0); }

typedef struct entry_file {
    char name[NAME_MAX + 1];
    uint64_t size;
    struct timespec used;
} entry_file;

static int older_first(const void *a, const void *b)
{
    const entry_file *x = a, *y = b;
    if (x->used.tv_sec != y->used.tv_sec)
        return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
    if (x->used.tv_nsec != y->used.tv_nsec)
        return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && !strcmp(s + n - m, suffix);
}

size_t ortkit__session_cache_evict(const char *dir, uint64_t max_bytes, const char *keep)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    entry_file *files = NULL;
    size_t n = 0, cap = 0, removed = 0;
    uint64_t total = 0;
    const char *keep_name = keep ? strrchr(keep, '/') : NULL;
    keep_name = keep_name ? keep_name + 1 : keep;
    time_t now = time(NULL);
    for (struct dirent *e; (e = readdir(d));) {
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
            continue;
        if (strstr(e->d_name, ".tmp.")) {
            if (now - st.st_mtim.tv_sec > STALE_TMP_SECONDS)
                unlinkat(dirfd(d), e->d_name, 0);
            continue;
        }
        if (!ends_with(e->d_name, ORTKIT__CACHE_SUFFIX) || strlen(e->d_name) > NAME_MAX)
            continue;
        if (ortkit__array_reserve(&files, &cap, n + 1, sizeof *files, 64))
            goto cleanup;
        snprintf(files[n].name, sizeof files[n].name, "%s", e->d_name);
        files[n].size = (uint64_t)st.st_size;
        files[n].used = st.st_mtim;
        total += files[n].size;
        n++;
    }
    if (total <= max_bytes)
        goto cleanup;
    qsort(files, n, sizeof *files, older_first);
    for (size_t i = 0; i < n && total > max_bytes; i++) {
        if (keep_name && !strcmp(files[i].name, keep_name))
            continue;
        /* Another process may have removed it first: it is gone either way. */
        if (unlinkat(dirfd(d), files[i].name, 0) == 0 || errno == ENOENT) {
            total -= files[i].size;
            removed++;
            /* Its verification record goes with it. */
            char memo[NAME_MAX + 1];
            size_t stem = strlen(files[i].name) - strlen(ORTKIT__CACHE_SUFFIX);
            if (snprintf(memo, sizeof memo, "%.*s%s", (int)stem, files[i].name, ORTKIT__CACHE_VERIFIED_SUFFIX) <
                (int)sizeof memo)
                unlinkat(dirfd(d), memo, 0);
        }
    }
cleanup:
    free(files);
    closedir(d);
    return removed;
}
