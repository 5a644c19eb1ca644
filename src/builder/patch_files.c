/*
 * patch_files.c - what one patch touches, kept aside so that the tree can
 * be put back exactly as it was: the paths a patch names (read from its
 * headers, as `patch -p1` strips them), a copy of each that exists (a
 * regular file with its mode, or a link), and the directories that did not
 * exist.  patch.c applies patches through it.
 */
#include "patch_files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The largest source file a patch touches that is kept aside. */
#define KEEP_MAX ((size_t)256 << 20)

/* "a/x/y.c" -> "x/y.c" (-p1), without a trailing tab and time stamp. */
static int strip_name(char *out, size_t size, const char *text, size_t len)
{
    size_t n = strcspn(text, "\t\r\n");
    if (n > len)
        n = len;
    if (n >= 2 && text[0] == '"')
        return -1; /* quoted (C-escaped) names are not taken apart here */
    const char *slash = memchr(text, '/', n);
    if (!slash)
        return -1;
    size_t rest = n - (size_t)(slash + 1 - text);
    if (!rest || rest >= size)
        return -1;
    memcpy(out, slash + 1, rest);
    out[rest] = '\0';
    return 0;
}

static int unsafe(const char *rel)
{
    if (rel[0] == '/')
        return 1;
    for (const char *p = rel; p; p = strchr(p, '/'), p = p ? p + 1 : NULL)
        if (!strncmp(p, "..", 2) && (p[2] == '/' || p[2] == '\0'))
            return 1;
    return 0;
}

static int add_name(ortkit__strv *names, const char *rel)
{
    for (size_t i = 0; i < names->n; i++)
        if (!strcmp(names->v[i], rel))
            return 0;
    return ortkit__strv_push(names, rel);
}

int ortkit__builder_patch_names(ortkit__strv *names, const char *patch_file)
{
    char *text = NULL;
    int rc = ortkit__file_read(&text, NULL, patch_file, (size_t)64 << 20);
    if (rc)
        return rc;
    static const char *const heads[] = {"--- ", "+++ ", "rename from ", "rename to ",
                                        "copy from ", "copy to "};
    long old_left = 0, new_left = 0; /* lines of the hunk still to come */
    for (const char *line = text; !rc && line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char rel[PATH_MAX];
        /* Inside a hunk, "--- x" is a removed line "-- x", not a header. */
        if (old_left > 0 || new_left > 0) {
            if (line[0] == ' ' || line[0] == '-')
                old_left--;
            if (line[0] == ' ' || line[0] == '+')
                new_left--;
            if (len == 0) /* an empty context line some tools write */
                old_left--, new_left--;
            line = end ? end + 1 : NULL;
            continue;
        }
        if (!strncmp(line, "@@ -", 4)) {
            long a = 0, b = 1, c = 0, d = 1;
            if (sscanf(line, "@@ -%ld,%ld +%ld,%ld @@", &a, &b, &c, &d) != 4) {
                b = d = 1;
                if (sscanf(line, "@@ -%ld +%ld,%ld @@", &a, &c, &d) != 3 &&
                    sscanf(line, "@@ -%ld,%ld +%ld @@", &a, &b, &c) != 3)
                    sscanf(line, "@@ -%ld +%ld @@", &a, &c);
            }
            old_left = b, new_left = d;
            line = end ? end + 1 : NULL;
            continue;
        }
        for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
            size_t hl = strlen(heads[h]);
            if (len <= hl || strncmp(line, heads[h], hl))
                continue;
            const char *name = line + hl;
            if (!strncmp(name, "/dev/null", 9))
                break;
            /* git's rename and copy lines carry the name without a/ or b/. */
            int plain = h >= 2;
            if (plain) {
                size_t n = strcspn(name, "\r\n");
                if (n >= sizeof rel)
                    rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s': a file name is too long",
                                           patch_file);
                else
                    memcpy(rel, name, n), rel[n] = '\0';
            } else if (strip_name(rel, sizeof rel, name, len - hl)) {
                rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s': cannot read the file name in "
                                       "'%.*s'", patch_file, (int)len, line);
            }
            if (!rc && unsafe(rel))
                rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' names '%s', outside the source "
                                       "tree: refused", patch_file, rel);
            if (!rc)
                rc = add_name(names, rel);
            break;
        }
        line = end ? end + 1 : NULL;
    }
    free(text);
    return rc;
}

/* Copy what is at from (a regular file or a link) to to. */
static int copy_entry(const char *from, const char *to, const struct stat *st)
{
    if (S_ISLNK(st->st_mode)) {
        char target[PATH_MAX];
        ssize_t n = readlink(from, target, sizeof target - 1);
        if (n < 0)
            return ortkit__error_set(ORTKIT_E_IO, "cannot read link '%s': %s", from, strerror(errno));
        target[n] = '\0';
        if (symlink(target, to) != 0)
            return ortkit__error_set(ORTKIT_E_IO, "cannot make link '%s': %s", to, strerror(errno));
        return ORTKIT_OK;
    }
    char *data = NULL;
    size_t size = 0;
    int rc = ortkit__file_read(&data, &size, from, KEEP_MAX);
    if (!rc) {
        int fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", to, strerror(errno));
        else {
            rc = ortkit__file_write_all(fd, data, size, to);
            /* The mode and the modification time too: a build compares them. */
            struct timespec times[2] = {st->st_atim, st->st_mtim};
            if (!rc && (fchmod(fd, st->st_mode & 07777) != 0 || futimens(fd, times) != 0))
                rc = ortkit__error_set(ORTKIT_E_IO, "cannot set the mode of '%s': %s", to,
                                       strerror(errno));
            close(fd);
        }
    }
    free(data);
    return rc;
}

/* base/rel's parent directories, made as needed (for the copies). */
static int make_parents(const char *base, const char *rel)
{
    char path[PATH_MAX];
    int rc = ortkit__pathf(path, sizeof path, "%s/%s", base, rel);
    char *slash = rc ? NULL : strrchr(path, '/');
    if (slash) {
        *slash = '\0';
        rc = ortkit__mkdirs(path);
    }
    return rc;
}

int ortkit__builder_patch_keep(ortkit__builder_patch_kept *k, const char *source, const ortkit__strv *names,
                       const char *scratch)
{
    memset(k, 0, sizeof *k);
    k->source = source;
    k->scratch = scratch;
    k->names = names;
    int rc = ORTKIT_OK;
    for (size_t i = 0; !rc && i < names->n; i++) {
        char from[PATH_MAX], to[PATH_MAX];
        struct stat st;
        if ((rc = ortkit__pathf(from, sizeof from, "%s/%s", source, names->v[i])) ||
            (rc = ortkit__pathf(to, sizeof to, "%s/%s", scratch, names->v[i])))
            break;
        if (lstat(from, &st) != 0) {
            if (errno != ENOENT)
                rc = ortkit__error_set(ORTKIT_E_IO, "cannot look at '%s': %s", from,
                                       strerror(errno));
            continue; /* absent: to be absent again */
        }
        if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
            rc = ortkit__error_set(ORTKIT_E_IO, "'%s' is neither a file nor a link: a patch "
                                   "cannot be applied to it", from);
        else if (!(rc = make_parents(scratch, names->v[i])))
            rc = copy_entry(from, to, &st);
    }
    /* Each directory a patch could create, deepest last: removed if it was not there. */
    for (size_t i = 0; !rc && i < names->n; i++) {
        char dir[PATH_MAX];
        if ((rc = ortkit__pathf(dir, sizeof dir, "%s/%s", source, names->v[i])))
            break;
        size_t base = strlen(source);
        for (char *p = dir + base + 1; !rc && (p = strchr(p, '/')); p++) {
            *p = '\0';
            struct stat st;
            if (lstat(dir, &st) != 0 && errno == ENOENT)
                rc = add_name(&k->new_dirs, dir);
            *p = '/';
        }
    }
    return rc;
}

int ortkit__builder_patch_restore(const ortkit__builder_patch_kept *k)
{
    int rc = ORTKIT_OK;
    for (size_t i = 0; i < k->names->n; i++) {
        const char *rel = k->names->v[i];
        static const char *const extra[] = {"", ".orig", ".rej"};
        char path[PATH_MAX], kept[PATH_MAX];
        for (size_t e = 0; e < 3; e++) {
            /* What patch wrote (and its .orig and .rej beside it) goes... */
            if (ortkit__pathf(path, sizeof path, "%s/%s%s", k->source, rel, extra[e]))
                continue;
            char kept_extra[PATH_MAX];
            struct stat st;
            if (e && !ortkit__pathf(kept_extra, sizeof kept_extra, "%s/%s%s", k->scratch, rel,
                                    extra[e]) && lstat(kept_extra, &st) == 0)
                continue; /* a .orig or .rej that was there before is the user's */
            if (unlink(path) != 0 && errno != ENOENT && errno != EISDIR && !rc)
                rc = ortkit__error_set(ORTKIT_E_IO, "cannot remove '%s': %s", path,
                                       strerror(errno));
        }
        /* ...and what was there comes back. */
        struct stat st;
        if (ortkit__pathf(kept, sizeof kept, "%s/%s", k->scratch, rel) ||
            ortkit__pathf(path, sizeof path, "%s/%s", k->source, rel) || lstat(kept, &st) != 0)
            continue;
        int r = copy_entry(kept, path, &st);
        if (r && !rc)
            rc = r;
    }
    /* Deepest first, twice over (the names came in any order); only empty
     * ones go: anything else in them is not the patch's. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = k->new_dirs.n; i-- > 0;)
            rmdir(k->new_dirs.v[i]);
    return rc;
}

void ortkit__builder_patch_kept_free(ortkit__builder_patch_kept *k) { ortkit__strv_free(&k->new_dirs); }
