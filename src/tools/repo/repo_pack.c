/*
 * repo_pack.c - a bundle into a tar + zstd archive, and an archive back
 * into a directory, with libarchive.
 *
 * Packing takes exactly the files the manifest lists (and manifest.json),
 * each as what it is: a regular file's content, a link's target; nothing
 * is followed.  Entries are sorted and carry no owner or time, so the same
 * bundle packs to the same bytes and the same name.
 *
 * Unpacking writes only regular files, directories and links to a name in
 * the same directory, never through an existing file, under a byte budget.
 */
#include "bundle.h"
#include "repo.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK ((size_t)1 << 20)

/* ---- packing ---------------------------------------------------------------------- */

typedef struct sink {
    int fd;
    ortkit__sha256_ctx sha;
    uint64_t size;
    int error; /* errno of a failed write */
} sink;

static la_ssize_t sink_write(struct archive *a, void *arg, const void *buf, size_t n)
{
    (void)a;
    sink *s = arg;
    if (ortkit__file_write_all(s->fd, buf, n, "the archive")) {
        s->error = errno;
        archive_set_error(a, errno, "write failed");
        return -1;
    }
    ortkit__sha256_update(&s->sha, buf, n);
    s->size += n;
    return (la_ssize_t)n;
}

static int entry_header(struct archive *a, struct archive_entry *e, const char *path, unsigned type,
                        unsigned mode, int64_t size, const char *link)
{
    archive_entry_clear(e);
    archive_entry_set_pathname(e, path);
    archive_entry_set_filetype(e, type);
    archive_entry_set_perm(e, mode & 0777);
    archive_entry_set_size(e, size);
    if (link)
        archive_entry_set_symlink(e, link);
    archive_entry_set_mtime(e, 0, 0);
    return archive_write_header(a, e) == ARCHIVE_OK ? ORTKIT_OK
                                                    : ortkit__error_set(ORTKIT_E_IO, "cannot pack "
                                                                        "'%s': %s", path,
                                                                        archive_error_string(a));
}

/* Every directory on the way to path not yet written ("lib/", "lib/cmake/"...). */
static int parents(struct archive *a, struct archive_entry *e, const char *path, char *last,
                   size_t last_size)
{
    char dir[PATH_MAX];
    for (const char *slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
        size_t n = (size_t)(slash - path) + 1;
        if (n >= sizeof dir)
            return ortkit__error_set(ORTKIT_E_FORMAT, "'%s': path too long", path);
        memcpy(dir, path, n);
        dir[n] = '\0';
        /* Sorted paths: a directory already written is a prefix of the last one. */
        if (!strncmp(last, dir, n))
            continue;
        int rc = entry_header(a, e, dir, AE_IFDIR, 0755, 0, NULL);
        if (rc)
            return rc;
        snprintf(last, last_size, "%s", dir);
    }
    return ORTKIT_OK;
}

typedef struct packing {
    struct archive *a;
    const char *rel;
    uint64_t *unpacked;
} packing;

static int pack_block(void *arg, const void *block, size_t n)
{
    packing *p = arg;
    if (archive_write_data(p->a, block, n) != (la_ssize_t)n)
        return ortkit__error_set(ORTKIT_E_IO, "cannot pack '%s': %s", p->rel,
                                 archive_error_string(p->a));
    *p->unpacked += (uint64_t)n;
    return 0;
}

static int pack_file(struct archive *a, struct archive_entry *e, const char *root, const char *rel,
                     uint64_t *unpacked, unsigned char *buf)
{
    char path[PATH_MAX];
    int fd = -1, rc = ortkit__pathf(path, sizeof path, "%s/%s", root, rel);
    struct stat st;
    if (rc || (rc = ortkit__file_open(&fd, path, O_NOFOLLOW, &st)))
        return rc;
    if ((rc = entry_header(a, e, rel, AE_IFREG, st.st_mode, st.st_size, NULL)))
        goto cleanup;
    packing p = {a, rel, unpacked};
    rc = ortkit__file_each_block(fd, buf, BLOCK, path, pack_block, &p);
cleanup:
    close(fd);
    return rc;
}

int ortkit__pack(char sha256[65], uint64_t *size, uint64_t *unpacked, const ortkit_bundle *bundle,
                 const char *dir)
{
    const ortkit_manifest *m = ortkit_bundle_manifest(bundle);
    char tmp[PATH_MAX], final[PATH_MAX], last[PATH_MAX] = "";
    sink s = {-1, {0}, 0, 0};
    struct archive *a = archive_write_new();
    struct archive_entry *e = archive_entry_new();
    unsigned char *buf = malloc(BLOCK);
    int rc = ORTKIT_OK, opened = 0;
    *unpacked = 0;
    if (!a || !e || !buf || ortkit__sha256_init(&s.sha)) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    if ((rc = ortkit__pathf(tmp, sizeof tmp, "%s/" REPO_ARCHIVES "/.pack-XXXXXX", dir)))
        goto cleanup;
    if ((s.fd = mkstemp(tmp)) < 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", tmp, strerror(errno));
        goto cleanup;
    }
    fchmod(s.fd, 0644);
    if (archive_write_add_filter_zstd(a) != ARCHIVE_OK ||
        archive_write_set_filter_option(a, "zstd", "compression-level", "3") != ARCHIVE_OK ||
        archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
        archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
        archive_write_open(a, &s, NULL, sink_write, NULL) != ARCHIVE_OK) {
        rc = ortkit__error_set(ORTKIT_E_UNSUPPORTED, "cannot write a tar + zstd archive: %s",
                               archive_error_string(a));
        goto cleanup;
    }
    opened = 1;
    if ((rc = pack_file(a, e, m->dir, BUNDLE_MANIFEST, unpacked, buf)))
        goto cleanup;
    for (size_t i = 0; i < m->file_count; i++) {
        const ortkit_bundle_file *f = &m->files[i];
        if ((rc = parents(a, e, f->path, last, sizeof last)))
            goto cleanup;
        if (f->link[0]) {
            /* The link as the manifest lists it: its target is a name beside it. */
            char path[PATH_MAX], target[PATH_MAX];
            ssize_t n;
            if ((rc = ortkit__pathf(path, sizeof path, "%s/%s", m->dir, f->path)))
                goto cleanup;
            if ((n = readlink(path, target, sizeof target - 1)) < 0 ||
                ((void)(target[n] = '\0'), strcmp(target, f->link))) {
                rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is not a link to '%s' as the "
                                       "manifest says", path, f->link);
                goto cleanup;
            }
            rc = entry_header(a, e, f->path, AE_IFLNK, 0777, 0, f->link);
        } else {
            rc = pack_file(a, e, m->dir, f->path, unpacked, buf);
        }
        if (rc)
            goto cleanup;
    }
    if (archive_write_close(a) != ARCHIVE_OK) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot write '%s': %s", tmp,
                               s.error ? strerror(s.error) : archive_error_string(a));
        goto cleanup;
    }
    opened = 0;
    unsigned char md[ORTKIT__SHA256_SIZE];
    if ((rc = ortkit__sha256_final(&s.sha, md)))
        goto cleanup;
    ortkit__hex(sha256, md, sizeof md);
    *size = s.size;
    if (fsync(s.fd) != 0 || close(s.fd) != 0) {
        s.fd = -1;
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot write '%s': %s", tmp, strerror(errno));
        goto cleanup;
    }
    s.fd = -1;
    if ((rc = ortkit__pathf(final, sizeof final, "%s/" REPO_ARCHIVES "/%s.tar.zst", dir, sha256)))
        goto cleanup;
    if (rename(tmp, final) != 0)
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot rename '%s' to '%s': %s", tmp, final,
                               strerror(errno));
    else
        tmp[0] = '\0';
cleanup:
    if (opened)
        archive_write_fail(a);
    archive_write_free(a);
    archive_entry_free(e);
    ortkit__sha256_discard(&s.sha);
    free(buf);
    if (s.fd >= 0)
        close(s.fd);
    if (rc && tmp[0])
        unlink(tmp);
    return rc;
}

/* ---- unpacking -------------------------------------------------------------------- */

/* A relative path of plain components: no "", ".", ".." and no leading '/'. */
static int path_ok(const char *p)
{
    if (!p || !p[0] || p[0] == '/')
        return 0;
    for (const char *c = p; *c;) {
        const char *slash = strchr(c, '/');
        size_t n = slash ? (size_t)(slash - c) : strlen(c);
        if ((n == 0 && slash && slash[1]) || (n == 1 && c[0] == '.') ||
            (n == 2 && c[0] == '.' && c[1] == '.'))
            return 0;
        c += n + (slash ? 1 : 0);
    }
    return 1;
}

/* What unpacking allows: bytes left, and the archive's kind. */
typedef struct unpack_rules {
    uint64_t budget;
    int gzip; /* a release tarball: tar + gzip, a leading "./" allowed */
} unpack_rules;

static int write_entry_data(struct archive *a, int fd, const char *path, unpack_rules *rules)
{
    uint64_t *budget = &rules->budget;
    const void *block;
    size_t n;
    la_int64_t offset;
    int r;
    while ((r = archive_read_data_block(a, &block, &n, &offset)) == ARCHIVE_OK) {
        if (n > *budget)
            return rules->gzip ? ortkit__error_set(ORTKIT_E_FORMAT, "the archive unpacks to "
                                                   "more than a release may hold")
                               : ortkit__error_set(ORTKIT_E_FORMAT, "the archive holds more "
                                                   "than the index says the bundle has");
        *budget -= n;
        if (lseek(fd, offset, SEEK_SET) < 0)
            return ortkit__error_set(ORTKIT_E_IO, "cannot write '%s': %s", path, strerror(errno));
        if (ortkit__file_write_all(fd, block, n, path))
            return ORTKIT_E_IO;
    }
    if (r != ARCHIVE_EOF)
        return ortkit__error_set(ORTKIT_E_FORMAT, "the archive is damaged at '%s': %s", path,
                                 archive_error_string(a));
    return ORTKIT_OK;
}

static int unpack_entry(struct archive *a, struct archive_entry *e, const char *to,
                        unpack_rules *rules)
{
    const char *name = archive_entry_pathname(e);
    char path[PATH_MAX];
    while (rules->gzip && name && !strncmp(name, "./", 2))
        name += 2;
    if (rules->gzip && name && !name[0] && archive_entry_filetype(e) == AE_IFDIR)
        return ORTKIT_OK; /* "./" itself */
    if (!path_ok(name))
        return ortkit__error_set(ORTKIT_E_FORMAT, "the archive holds a path that leaves the "
                                 "bundle: '%s'", name ? name : "");
    int rc = ortkit__pathf(path, sizeof path, "%s/%s", to, name);
    if (rc)
        return rc;
    size_t n = strlen(path);
    if (path[n - 1] == '/')
        path[n - 1] = '\0';
    unsigned mode = archive_entry_perm(e) & 0755; /* writable by the owner only */
    switch (archive_entry_filetype(e)) {
    case AE_IFDIR:
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            return ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", path, strerror(errno));
        return ORTKIT_OK;
    case AE_IFLNK: {
        const char *target = archive_entry_symlink(e);
        if (!target || !path_ok(target) || strchr(target, '/'))
            return ortkit__error_set(ORTKIT_E_FORMAT, "the archive holds a link that leaves "
                                     "its directory: '%s' -> '%s'", name, target ? target : "");
        if (symlink(target, path) != 0)
            return ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", path, strerror(errno));
        return ORTKIT_OK;
    }
    case AE_IFREG: {
        if (archive_entry_hardlink(e))
            break;
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd < 0)
            return ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", path, strerror(errno));
        rc = write_entry_data(a, fd, path, rules);
        if (!rc && (fchmod(fd, mode) != 0 || fdatasync(fd) != 0))
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot write '%s': %s", path, strerror(errno));
        if (close(fd) != 0 && !rc)
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot write '%s': %s", path, strerror(errno));
        return rc;
    }
    default:
        break;
    }
    return ortkit__error_set(ORTKIT_E_FORMAT, "the archive holds '%s', which is not a regular "
                             "file, a directory or a link", name);
}

static int unpack_with(const char *archive, const char *to, unpack_rules *rules)
{
    struct archive *a = archive_read_new();
    struct archive_entry *e;
    int rc = ORTKIT_OK, r;
    size_t entries = 0;
    const char *kind = rules->gzip ? "tar + gzip" : "tar + zstd";
    if (!a)
        return ortkit__error_nomem();
    if ((rules->gzip ? archive_read_support_filter_gzip(a)
                     : archive_read_support_filter_zstd(a)) != ARCHIVE_OK ||
        archive_read_support_format_tar(a) != ARCHIVE_OK) {
        rc = ortkit__error_set(ORTKIT_E_UNSUPPORTED, "libarchive reads no %s: %s", kind,
                               archive_error_string(a));
        goto cleanup;
    }
    if (archive_read_open_filename(a, archive, BLOCK) != ARCHIVE_OK) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot open '%s': %s", archive,
                               archive_error_string(a));
        goto cleanup;
    }
    while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
        if (++entries > 2 * BUNDLE_MAX_FILES) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' holds too many entries", archive);
            goto cleanup;
        }
        if ((rc = unpack_entry(a, e, to, rules)))
            goto cleanup;
    }
    if (r != ARCHIVE_EOF)
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is not a whole %s archive: %s", archive,
                               kind, archive_error_string(a));
cleanup:
    archive_read_free(a);
    return rc;
}

int ortkit__unpack(const char *archive, const char *to, uint64_t max_bytes)
{
    unpack_rules rules = {max_bytes, 0};
    return unpack_with(archive, to, &rules);
}

int ortkit__unpack_gzip(const char *archive, const char *to, uint64_t max_bytes)
{
    unpack_rules rules = {max_bytes, 1};
    return unpack_with(archive, to, &rules);
}
