/*
 * deps.c - `--deps DIR`: ONNX Runtime's third-party dependencies compiled
 * into the library from sources the user supplies, the way ORT's own
 * release build compiles them from cmake/deps.txt's downloads.
 *
 * deps.txt is read from the source tree; each entry this build uses is
 * mapped to one archive or tree in DIR, checked by name and version (and
 * by deps.txt's SHA1 where DIR holds deps.txt's own file), extracted once
 * into a content-addressed directory of the user's cache with ORT's own
 * patch for it applied (what its FetchContent PATCH_COMMAND would do), and
 * handed to FetchContent as FETCHCONTENT_SOURCE_DIR_<NAME>.  Nothing is
 * taken from the system: find_package is never tried for them.
 */
#include "builder_deps.h"

#include <archive.h>
#include <cjson/cJSON.h>
#include <archive_entry.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * What a Linux build of ORT 1.21 takes from deps.txt (cmake/external/
 * onnxruntime_external_deps.cmake and its includes): deps.txt's name, the
 * name FetchContent declares it under, ORT's patch for it (under
 * cmake/patches; applied on Linux only where ORT applies it there), and a
 * prefix its own releases carry that deps.txt's tag does not ("3." for
 * protobuf: tag v21.12 is C++ release 3.21.12).  Entries not listed here
 * are for tests, Windows, other providers or other platforms.
 */
static const struct dep_use {
    const char *name, *content, *patch;
    int only;            /* 0, or the ORTKIT__DEPS_* kind of build that alone uses it */
    int patch_cuda_only;
    const char *release_prefix;
} uses[] = {
    {"abseil_cpp", "abseil_cpp", NULL, 0, 0, NULL},
    {"date", "date", NULL, 0, 0, NULL},
    {"eigen", "eigen", NULL, 0, 0, NULL},
    {"flatbuffers", "flatbuffers", "flatbuffers/flatbuffers.patch", 0, 0, NULL},
    {"json", "nlohmann_json", NULL, 0, 0, NULL},
    {"microsoft_gsl", "GSL", "gsl/1064.patch", 0, 1, NULL},
    {"mp11", "mp11", NULL, 0, 0, NULL},
    {"onnx", "onnx", "onnx/onnx.patch", 0, 0, NULL},
    {"protobuf", "Protobuf", "protobuf/protobuf_cmake.patch", 0, 0, "3."},
    {"pytorch_cpuinfo", "pytorch_cpuinfo", NULL, 0, 0, NULL},
    {"re2", "re2", NULL, 0, 0, NULL},
    {"safeint", "safeint", NULL, 0, 0, NULL},
    {"utf8_range", "utf8_range", NULL, 0, 0, NULL},
    {"cutlass", "cutlass", NULL, ORTKIT__DEPS_CUDA, 0, NULL},
    {"cudnn_frontend", "cudnn_frontend", NULL, ORTKIT__DEPS_CUDA, 0, NULL},
    {"pybind11", "pybind11_project", NULL, ORTKIT__DEPS_PYTHON, 0, NULL},
    {"dlpack", "dlpack", NULL, ORTKIT__DEPS_PYTHON, 0, NULL},
};

static const char *const archive_exts[] = {".tar.gz", ".tar.xz", ".tar.bz2", ".tar.zst", ".tgz",
                                           ".tar", ".zip", NULL};

const char *ortkit__builder_dep_match_name(ortkit__builder_dep_match m)
{
    switch (m) {
    case ORTKIT__DEP_EXACT: return "sha1";
    case ORTKIT__DEP_VERSION: return "version";
    case ORTKIT__DEP_ACCEPTED: return "accepted";
    case ORTKIT__DEP_NAMED: return "named";
    }
    return "?";
}

static int is_hex(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]))
            return 0;
    return n > 0;
}

/* "v21.12" -> "21.12", "boost-1.82.0" -> "1.82.0". */
static const char *strip_tag(const char *tag)
{
    if (!strncmp(tag, "boost-", 6))
        return tag + 6;
    if (tag[0] == 'v' && isdigit((unsigned char)tag[1]))
        return tag + 1;
    return tag;
}

/* The length of s without an archive extension. */
static size_t without_ext(const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; archive_exts[i]; i++) {
        size_t e = strlen(archive_exts[i]);
        if (n > e && !strcmp(s + n - e, archive_exts[i]))
            return n - e;
    }
    return n;
}

int ortkit__builder_dep_version_from_url(char *buf, size_t size, int *commit, const char *url)
{
    *commit = 0;
    buf[0] = '\0';
    const char *last = ortkit__path_last(url);
    size_t n = without_ext(last);
    /* GitLab names a commit's archive NAME-<commit>.zip, GitHub <commit>.zip. */
    if (n >= 40 && is_hex(last + n - 40, 40)) {
        *commit = 1;
        return ortkit__pathf(buf, size, "%.40s", last + n - 40);
    }
    const char *tags = strstr(url, "/refs/tags/"), *rel = strstr(url, "/releases/download/");
    if (tags && !strchr(tags + 11, '/')) {
        char tag[128];
        if (ortkit__pathf(tag, sizeof tag, "%.*s", (int)n, last))
            return ORTKIT_E_INVALID_ARG;
        return ortkit__pathf(buf, size, "%s", strip_tag(tag));
    }
    if (rel) {
        const char *t = rel + 19, *e = strchr(t, '/');
        char tag[128];
        if (!e || ortkit__pathf(tag, sizeof tag, "%.*s", (int)(e - t), t))
            return ORTKIT_E_INVALID_ARG;
        return ortkit__pathf(buf, size, "%s", strip_tag(tag));
    }
    return ortkit__error_set(ORTKIT_E_FORMAT, "no version in the URL '%s'", url);
}

static void dep_clear(ortkit__builder_dep *d)
{
    free(d->name);
    free(d->url);
    free(d->pinned);
    free(d->path);
    free(d->version);
    free(d->origin);
    free(d->tree);
    memset(d, 0, sizeof *d);
}

void ortkit__builder_deps_free(ortkit__builder_deps *deps)
{
    for (size_t i = 0; i < deps->n; i++)
        dep_clear(&deps->d[i]);
    free(deps->d);
    ortkit__strv_free(&deps->ignored);
    ortkit__strv_free(&deps->unused);
    memset(deps, 0, sizeof *deps);
}

static const struct dep_use *use_of(const char *name)
{
    for (size_t i = 0; i < sizeof uses / sizeof uses[0]; i++)
        if (!strcmp(uses[i].name, name))
            return &uses[i];
    return NULL;
}

int ortkit__builder_deps_read(ortkit__builder_deps *out, const char *deps_txt, int kinds)
{
    int cuda = (kinds & ORTKIT__DEPS_CUDA) != 0;
    char *text = NULL;
    memset(out, 0, sizeof *out);
    int rc = ortkit__file_read(&text, NULL, deps_txt, 1 << 20);
    if (rc)
        return rc;
    size_t lineno = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        line[strcspn(line, "\r")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        char *f1 = strchr(line, ';'), *f2 = f1 ? strchr(f1 + 1, ';') : NULL;
        if (!f1 || !f2 || strchr(f2 + 1, ';') || strlen(f2 + 1) != 40 || !is_hex(f2 + 1, 40)) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s:%zu: not NAME;URL;SHA1 with a 40-digit SHA1",
                                   deps_txt, lineno);
            goto cleanup;
        }
        *f1 = *f2 = '\0';
        const struct dep_use *u = use_of(line);
        if (!u || (u->only && !(u->only & kinds))) {
            if ((rc = ortkit__strv_push(&out->unused, line)))
                goto cleanup;
            continue;
        }
        ortkit__builder_dep *d = realloc(out->d, (out->n + 1) * sizeof *d);
        if (!d) {
            rc = ortkit__error_nomem();
            goto cleanup;
        }
        out->d = d;
        d = &out->d[out->n++];
        memset(d, 0, sizeof *d);
        char version[128];
        if (!(d->name = ortkit__strdup(line)) || !(d->url = ortkit__strdup(f1 + 1))) {
            rc = ortkit__error_nomem();
            goto cleanup;
        }
        memcpy(d->sha1, f2 + 1, 41);
        d->content = u->content;
        d->patch = u->patch && (!u->patch_cuda_only || cuda) ? u->patch : NULL;
        d->release_prefix = u->release_prefix;
        if ((rc = ortkit__builder_dep_version_from_url(version, sizeof version, &d->pinned_commit,
                                                       d->url))) {
            rc = ortkit__error_wrap(rc, "%s:%zu (%s)", deps_txt, lineno, d->name);
            goto cleanup;
        }
        if (!(d->pinned = ortkit__strdup(version))) {
            rc = ortkit__error_nomem();
            goto cleanup;
        }
    }
cleanup:
    free(text);
    if (rc)
        ortkit__builder_deps_free(out);
    return rc;
}

/* Same version: equal, equal but for the dependency's release prefix
 * ("3.21.12" for tag "21.12"), or a supplied commit that starts deps.txt's. */
static int same_version(const ortkit__builder_dep *d, const char *v)
{
    if (d->pinned_commit)
        return strlen(v) >= 7 && is_hex(v, strlen(v)) && !strncmp(d->pinned, v, strlen(v));
    if (!strcmp(strip_tag(v), d->pinned))
        return 1;
    size_t p = d->release_prefix ? strlen(d->release_prefix) : 0;
    return p && !strncmp(v, d->release_prefix, p) && !strcmp(v + p, d->pinned);
}

/* The one-line origin beside a supplied source (NAME.origin), if any. */
static char *origin_of(const char *path)
{
    char side[PATH_MAX], *text = NULL;
    struct stat st;
    if (ortkit__pathf(side, sizeof side, "%s.origin", path) || lstat(side, &st) != 0 ||
        !S_ISREG(st.st_mode) || ortkit__file_read(&text, NULL, side, 4096))
        return NULL;
    text[strcspn(text, "\r\n")] = '\0';
    for (char *p = text; *p; p++)
        if (!isprint((unsigned char)*p))
            *p = '?';
    return text;
}

static int record(ortkit__builder_dep *d, const char *path, const char *version,
                  ortkit__builder_dep_match how, int tree)
{
    if (!(d->path = ortkit__strdup(path)) || !(d->version = ortkit__strdup(version)))
        return ortkit__error_nomem();
    d->match = how;
    d->is_tree = tree;
    d->origin = origin_of(path);
    return tree ? 0
                : ortkit__digest_file(ORTKIT__SHA256, d->sha256, sizeof d->sha256, NULL, path, 0);
}

static int listed(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcasecmp(names[i], name))
            return 1;
    return 0;
}

/* deps.txt's own file at DIR/<its URL without the scheme>, as ORT's
 * cmake/mirror is laid out: exact, so its SHA1 must be deps.txt's. */
static int find_mirrored(ortkit__builder_dep *d, const char *dir)
{
    const char *u = strstr(d->url, "://");
    char path[PATH_MAX], sha1[41];
    struct stat st;
    if (!u || strstr(u, "/../") || ortkit__pathf(path, sizeof path, "%s/%s", dir, u + 3) ||
        lstat(path, &st) != 0)
        return 0; /* not there: d->path stays NULL */
    if (!S_ISREG(st.st_mode))
        return ortkit__error_set(ORTKIT_E_FORMAT, "dependency %s: %s is %s, not the file deps.txt "
                                 "names", d->name, path, ortkit__file_kind(st.st_mode));
    int rc = ortkit__digest_file(ORTKIT__SHA1, sha1, sizeof sha1, NULL, path, 0);
    if (rc)
        return rc;
    if (strcmp(sha1, d->sha1))
        return ortkit__error_set(ORTKIT_E_FORMAT, "dependency %s: %s is not the file deps.txt names "
                                 "(SHA1 %s, deps.txt says %s): fetch it again from %s",
                                 d->name, path, sha1, d->sha1, d->url);
    return record(d, path, d->pinned, ORTKIT__DEP_EXACT, 0);
}

int ortkit__builder_deps_resolve(ortkit__builder_deps *deps, const char *dir,
                                 const char *const *accept, size_t n_accept,
                                 const char *const *named, size_t n_named)
{
    DIR *dh = opendir(dir);
    if (!dh)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read the dependency sources in '%s': %s",
                                 dir, strerror(errno));
    int rc = 0;
    struct dirent *e;
    /* Each entry of DIR: NAME-VERSION, as an archive or a tree. */
    while ((e = readdir(dh))) {
        const char *n = e->d_name;
        size_t len = strlen(n);
        if (n[0] == '.' || (len > 7 && !strcmp(n + len - 7, ".origin")) || !strcmp(n, "github.com") ||
            !strcmp(n, "gitlab.com") || !strcmp(n, "gitlab.arm.com"))
            continue;
        char path[PATH_MAX], name[64], version[128];
        struct stat st;
        if ((rc = ortkit__pathf(path, sizeof path, "%s/%s", dir, n)))
            goto cleanup;
        if (lstat(path, &st) != 0 || (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
            if ((rc = ortkit__strv_pushf(&deps->ignored, "%s (not a file or directory)", n)))
                goto cleanup;
            continue;
        }
        size_t stem = S_ISDIR(st.st_mode) ? len : without_ext(n);
        const char *dash = memchr(n, '-', stem);
        ortkit__builder_dep *d = NULL;
        if (dash && (size_t)(dash - n) < sizeof name) {
            snprintf(name, sizeof name, "%.*s", (int)(dash - n), n);
            snprintf(version, sizeof version, "%.*s", (int)(stem - (size_t)(dash - n) - 1), dash + 1);
            for (size_t i = 0; i < deps->n && !d; i++)
                if (!strcmp(deps->d[i].name, name))
                    d = &deps->d[i];
        }
        if (!d || (S_ISREG(st.st_mode) && stem == len)) {
            if ((rc = ortkit__strv_pushf(&deps->ignored, "%s", n)))
                goto cleanup;
            continue;
        }
        if (d->path) {
            rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "dependency %s: both %s and %s are in %s: "
                                   "keep one", d->name, d->path, path, dir);
            goto cleanup;
        }
        int same = same_version(d, version);
        if (!same && !listed(accept, n_accept, d->name)) {
            rc = ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                   "dependency %s: %s is version %s, deps.txt pins %s%s: supply %s, "
                                   "or take this one with --accept-dep-version %s",
                                   d->name, path, version, d->pinned_commit ? "commit " : "",
                                   d->pinned, d->pinned_commit ? "that commit" : d->pinned, d->name);
            goto cleanup;
        }
        if ((rc = record(d, path, version, same ? ORTKIT__DEP_VERSION : ORTKIT__DEP_ACCEPTED,
                         S_ISDIR(st.st_mode))))
            goto cleanup;
    }
    /* Then deps.txt's own files, where DIR mirrors their URLs. */
    for (size_t i = 0; i < deps->n; i++) {
        ortkit__builder_dep *d = &deps->d[i];
        if (listed(named, n_named, d->name) || listed(named, n_named, d->content)) {
            d->match = ORTKIT__DEP_NAMED;
            continue;
        }
        if (!d->path && (rc = find_mirrored(d, dir)))
            goto cleanup;
        if (!d->path) {
            const char *u = strstr(d->url, "://");
            rc = ortkit__error_set(ORTKIT_E_IO,
                                   "dependency %s (deps.txt: %s%s) is not in %s: add %s-%s.tar.gz "
                                   "(or a tree %s-%s/), or the file deps.txt names at %s/%s",
                                   d->name, d->pinned_commit ? "commit " : "", d->pinned, dir,
                                   d->name, d->pinned, d->name, d->pinned, dir, u ? u + 3 : d->url);
            goto cleanup;
        }
    }
cleanup:
    closedir(dh);
    return rc;
}

/* How many directories deep the entry name p sits ("a/b/c": 2). */
static int depth(const char *p)
{
    int d = 0;
    for (; *p; p++)
        d += *p == '/' && p[1] && p[1] != '/';
    return d;
}

/* An entry name: relative, no "..".  A link's target, from a directory
 * `up` levels below the archive's root: never above its top directory. */
static int inside(const char *p, int up)
{
    if (p[0] == '/')
        return 0;
    int level = up;
    for (const char *c = p; *c;) {
        size_t n = strcspn(c, "/");
        if (n == 2 && c[0] == '.' && c[1] == '.') {
            if (!up || --level < 1)
                return 0;
        } else if (n && !(n == 1 && c[0] == '.')) {
            level++;
        }
        c += n;
        while (*c == '/')
            c++;
    }
    return 1;
}

/* Links are made last, in archive order, each resolved against the tree as
 * extracted so far: a target checked by its own text alone can still leave
 * the tree through other links (y -> ., l1 -> y/..). */
typedef struct deferred_links {
    ortkit__strv name, target; /* name: under dest; the two in step */
} deferred_links;

static void links_free(deferred_links *l)
{
    ortkit__strv_free(&l->name);
    ortkit__strv_free(&l->target);
}

static int links_push(deferred_links *l, const char *name, const char *target)
{
    int rc = ortkit__strv_push(&l->name, name);
    if (!rc && (rc = ortkit__strv_push(&l->target, target))) {
        free(l->name.v[--l->name.n]); /* keep the two in step */
        l->name.v[l->name.n] = NULL;
    }
    return rc;
}

/*
 * Walk rel from cur (a directory under dest, "" for dest itself) as the
 * kernel would, through the links made so far, keeping cur relative to
 * dest.  -1 when it climbs above dest, or takes ".." after a name not there
 * yet (a link made later could send that name anywhere).  *missing: a name
 * on the way is not there (yet).
 */
static int walk_inside(const char *dest, char cur[PATH_MAX], const char *rel, int *links, int *missing)
{
    if (rel[0] == '/')
        return -1;
    for (const char *c = rel; *c;) {
        size_t n = strcspn(c, "/");
        if (n == 2 && c[0] == '.' && c[1] == '.') {
            char *slash = strrchr(cur, '/');
            if (*missing || !cur[0])
                return -1;
            if (slash)
                *slash = '\0';
            else
                cur[0] = '\0';
        } else if (n && !(n == 1 && c[0] == '.')) {
            size_t len = strlen(cur);
            if (len + 1 + n + 1 > PATH_MAX)
                return -1;
            if (len)
                cur[len++] = '/';
            memcpy(cur + len, c, n);
            cur[len + n] = '\0';
            char full[PATH_MAX], target[PATH_MAX];
            struct stat st;
            if (!*missing) {
                if (ortkit__pathf(full, sizeof full, "%s/%s", dest, cur))
                    return -1;
                if (lstat(full, &st) != 0) {
                    *missing = 1;
                } else if (S_ISLNK(st.st_mode)) {
                    ssize_t tn = readlink(full, target, sizeof target - 1);
                    if (tn < 0 || ++*links > 40)
                        return -1;
                    target[tn] = '\0';
                    cur[len ? len - 1 : 0] = '\0'; /* back to the link's directory */
                    if (walk_inside(dest, cur, target, links, missing))
                        return -1;
                }
            }
        }
        c += n;
        while (*c == '/')
            c++;
    }
    return 0;
}

/* One deferred link: its directory and its target resolved inside dest. */
static int make_link(const char *archive_path, const char *dest, const char *name, const char *target)
{
    char dir[PATH_MAX] = "", to[PATH_MAX], parent[PATH_MAX], path[PATH_MAX];
    const char *base = strrchr(name, '/');
    int links = 0, missing = 0, rc;
    if (ortkit__pathf(parent, sizeof parent, "%.*s", base ? (int)(base - name) : 0, name))
        return ortkit__error_set(ORTKIT_E_FORMAT, "the archive %s holds a name too long", archive_path);
    base = base ? base + 1 : name;
    if (walk_inside(dest, dir, parent, &links, &missing))
        goto out;
    /* Directories not there yet are made, plain: then the target is walked from there. */
    if ((rc = ortkit__pathf(path, sizeof path, "%s%s%s", dest, dir[0] ? "/" : "", dir)) ||
        (rc = ortkit__mkdirs(path)))
        return rc;
    missing = 0;
    snprintf(to, sizeof to, "%s", dir);
    if (walk_inside(dest, to, target, &links, &missing))
        goto out;
    if ((rc = ortkit__pathf(path, sizeof path, "%s%s%s/%s", dest, dir[0] ? "/" : "", dir, base)))
        return rc;
    if (symlink(target, path) != 0)
        return ortkit__error_set(ORTKIT_E_FORMAT, "cannot extract the link '%s' -> '%s' of %s: %s%s",
                                 name, target, archive_path, strerror(errno),
                                 errno == EEXIST ? " (the archive holds that name twice)" : "");
    return 0;
out:
    return ortkit__error_set(ORTKIT_E_FORMAT, "the archive %s holds the link '%s' -> '%s', which "
                             "leads out of it through the links before it: refused", archive_path,
                             name, target);
}

static const char *entry_kind(mode_t type)
{
    switch (type) {
    case AE_IFIFO: return "a FIFO";
    case AE_IFCHR: return "a character device";
    case AE_IFBLK: return "a block device";
    case AE_IFSOCK: return "a socket";
    default: return "no file, directory or link";
    }
}

/* Extract an archive into dest (made here), without its single top-level
 * directory: only regular files, directories and links that stay inside;
 * no absolute path, no "..". */
static int extract(const char *archive_path, const char *dest)
{
    struct archive *a = archive_read_new(), *w = archive_write_disk_new();
    struct archive_entry *entry;
    deferred_links links = {0};
    int rc = 0;
    char top[PATH_MAX] = "", name[PATH_MAX] = "";
    if (!a || !w) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    archive_read_support_filter_all(a);
    archive_read_support_format_all(a);
    /* Entries are written at absolute paths under dest, so libarchive's own
     * check of absolute names cannot be used: names are checked here.  Its
     * check of links on the way would also refuse links in the user's own
     * prefix (/home -> /data/home); none exist under dest while it writes,
     * since links are made last. */
    archive_write_disk_set_options(w, ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_SECURE_NODOTDOT);
    if (archive_read_open_filename(a, archive_path, 1 << 16) != ARCHIVE_OK) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "cannot read the archive %s: %s", archive_path,
                               archive_error_string(a));
        goto cleanup;
    }
    int r;
    while ((r = archive_read_next_header(a, &entry)) == ARCHIVE_OK) {
        const char *p = archive_entry_pathname(entry);
        while (p[0] == '.' && p[1] == '/')
            p += 2;
        if (!p[0])
            continue;
        /* The entry's own name goes when its path is set below: a copy for messages. */
        if ((rc = ortkit__pathf(name, sizeof name, "%s", p)))
            goto cleanup;
        p = name;
        const char *link = archive_entry_symlink(entry), *hard = archive_entry_hardlink(entry);
        if (!inside(p, 0) || (link && !inside(link, depth(p))) || (hard && !inside(hard, 0))) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "the archive %s holds '%s'%s%s, which leads out "
                                   "of it: refused", archive_path, p, link || hard ? " -> " : "",
                                   link ? link : hard ? hard : "");
            goto cleanup;
        }
        mode_t type = archive_entry_filetype(entry);
        if (!hard && type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "the archive %s holds '%s', %s: a source "
                                   "archive holds only regular files, directories and links: "
                                   "refused", archive_path, p, entry_kind(type));
            goto cleanup;
        }
        const char *slash = strchr(p, '/');
        size_t tl = slash ? (size_t)(slash - p) : strlen(p);
        if (!top[0] && tl < sizeof top)
            snprintf(top, sizeof top, "%.*s", (int)tl, p);
        /* Every entry must sit under the one top-level directory. */
        if (strncmp(p, top, tl) || strlen(top) != tl || (!slash && type != AE_IFDIR)) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "the archive %s has more than one top-level "
                                   "entry ('%s', '%s'): a source archive holds one directory",
                                   archive_path, top, p);
            goto cleanup;
        }
        if (!slash || !slash[1])
            continue;
        if (type == AE_IFLNK && !hard) {
            if (!link || (rc = links_push(&links, slash + 1, link)))
                goto bad_entry;
            continue;
        }
        char out[PATH_MAX];
        if ((rc = ortkit__pathf(out, sizeof out, "%s/%s", dest, slash + 1)))
            goto cleanup;
        archive_entry_set_pathname(entry, out);
        /* A hard link names another entry, extracted before it: a regular file under dest. */
        if (hard) {
            const char *hs = strchr(hard, '/');
            char hout[PATH_MAX];
            struct stat st;
            if (!hs || (rc = ortkit__pathf(hout, sizeof hout, "%s/%s", dest, hs + 1)))
                goto bad_entry;
            if (lstat(hout, &st) != 0 || !S_ISREG(st.st_mode)) {
                rc = ortkit__error_set(ORTKIT_E_FORMAT, "the archive %s holds the hard link '%s' "
                                       "to '%s', which is no regular file before it: refused",
                                       archive_path, p, hard);
                goto cleanup;
            }
            archive_entry_set_hardlink(entry, hout);
        }
        if (archive_write_header(w, entry) != ARCHIVE_OK)
            goto bad_entry;
        const void *buf;
        size_t size;
        la_int64_t off;
        while ((r = archive_read_data_block(a, &buf, &size, &off)) == ARCHIVE_OK)
            if (archive_write_data_block(w, buf, size, off) != ARCHIVE_OK)
                goto bad_entry;
        if (r != ARCHIVE_EOF || archive_write_finish_entry(w) != ARCHIVE_OK)
            goto bad_entry;
        continue;
    bad_entry:
        if (!rc || rc == ORTKIT_E_FORMAT) {
            const char *why = archive_error_string(archive_errno(w) ? w : a);
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "cannot extract '%s' of %s: %s", name,
                                   archive_path, why ? why : "libarchive gave no reason");
        }
        goto cleanup;
    }
    if (r != ARCHIVE_EOF) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "cannot read the archive %s: %s", archive_path,
                               archive_error_string(a));
        goto cleanup;
    }
    for (size_t i = 0; i < links.name.n && !rc; i++)
        rc = make_link(archive_path, dest, links.name.v[i], links.target.v[i]);
cleanup:
    links_free(&links);
    archive_read_free(a);
    archive_write_free(w);
    return rc;
}

static int remove_tree(const char *path)
{
    const char *argv[] = {"rm", "-rf", "--", path, NULL};
    int st = 0;
    return ortkit__spawn(argv, 1, NULL, &st) == 0 && st == 0 ? 0 : -1;
}

/* One dependency's source directory: an archive extracted into
 * <cache>/<name>-<version>-<key>, ORT's patch applied, made under a
 * temporary name and renamed, so a half-made one is never used. */
static int prepare_one(ortkit__builder_dep *d, const char *cache, const char *ort_source, int dry,
                       FILE *log)
{
    char patch[PATH_MAX] = "", patch_sha[65] = "", key_text[160], key[65], dir[PATH_MAX], tmp[PATH_MAX];
    int rc;
    struct stat st;
    if (d->patch) {
        if ((rc = ortkit__pathf(patch, sizeof patch, "%s/cmake/patches/%s", ort_source, d->patch)))
            return rc;
        if (lstat(patch, &st) != 0)
            patch[0] = '\0'; /* this version of ORT patches nothing there */
        else if ((rc = ortkit__digest_file(ORTKIT__SHA256, patch_sha, sizeof patch_sha, NULL,
                                           patch, 0)))
            return rc;
    }
    d->patched = patch[0] != '\0';
    if (d->is_tree) {
        if (d->patched)
            return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                     "dependency %s: ONNX Runtime patches it (cmake/patches/%s), "
                                     "and %s is a tree ortkit does not change: supply it as an "
                                     "archive", d->name, d->patch, d->path);
        return (d->tree = ortkit__strdup(d->path)) ? 0 : ortkit__error_nomem();
    }
    /* The key: what went in, the source and the patch. */
    snprintf(key_text, sizeof key_text, "%s %s", d->sha256, patch_sha);
    unsigned char md[ORTKIT__SHA256_SIZE];
    if ((rc = ortkit__sha256(md, key_text, strlen(key_text))))
        return rc;
    ortkit__hex(key, md, 8); /* the first 16 digits name it */
    if ((rc = ortkit__pathf(dir, sizeof dir, "%s/%s-%s-%s", cache, d->name, d->version, key)))
        return rc;
    if (dry)
        return (d->tree = ortkit__strdup(dir)) ? 0 : ortkit__error_nomem();
    if (lstat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
            return ortkit__error_set(ORTKIT_E_IO, "%s is not a directory of yours that only you can "
                                     "write: remove it", dir);
        return (d->tree = ortkit__strdup(dir)) ? 0 : ortkit__error_nomem();
    }
    if ((rc = ortkit__pathf(tmp, sizeof tmp, "%s.tmp.%ld", dir, (long)getpid())))
        return rc;
    remove_tree(tmp);
    if (mkdir(tmp, 0755) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot make %s: %s", tmp, strerror(errno));
    if (log)
        fprintf(log, "ortkit: extracting %s into %s\n", d->path, dir);
    if ((rc = extract(d->path, tmp)))
        goto fail;
    if (d->patched) {
        const char *argv[] = {"patch", "-p1", "--batch", "--forward", "--binary", "--ignore-whitespace",
                              "-s", "-d", tmp, "-i", patch, NULL};
        char *out = NULL;
        int status = 0;
        if (ortkit__spawn(argv, 1, &out, &status) != 0 || status != 0) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "dependency %s: ONNX Runtime's patch "
                                   "cmake/patches/%s does not apply to %s: %s", d->name, d->patch,
                                   d->path, out && *out ? out : "patch failed");
            free(out);
            goto fail;
        }
        free(out);
    }
    if (rename(tmp, dir) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot rename %s to %s: %s", tmp, dir, strerror(errno));
        goto fail;
    }
    return (d->tree = ortkit__strdup(dir)) ? 0 : ortkit__error_nomem();
fail:
    remove_tree(tmp);
    return rc;
}

int ortkit__builder_deps_prepare(ortkit__builder_deps *deps, const char *cache,
                                 const char *ort_source, int dry, FILE *log)
{
    /* CMake reads the trees again by name: checked is what it reads only if
     * no one else can swap a directory on the way to them. */
    char why[PATH_MAX + 128];
    int archives = 0;
    for (size_t i = 0; i < deps->n; i++)
        archives |= deps->d[i].match != ORTKIT__DEP_NAMED && !deps->d[i].is_tree;
    if (!dry && archives && ortkit__path_trusted(cache, why, sizeof why))
        return ortkit__error_set(ORTKIT_E_IO, "the dependency sources' cache %s is not yours "
                                 "alone: %s; set XDG_CACHE_HOME to a directory only you can write",
                                 cache, why);
    for (size_t i = 0; i < deps->n; i++) {
        if (deps->d[i].match == ORTKIT__DEP_NAMED)
            continue;
        int rc = prepare_one(&deps->d[i], cache, ort_source, dry, log);
        if (rc)
            return rc;
    }
    return 0;
}

/* What the bundle's manifest and the report record. */
cJSON *ortkit__builder_deps_json(const ortkit__builder_deps *deps)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < deps->n; i++) {
        const ortkit__builder_dep *d = &deps->d[i];
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(a, o)) {
            cJSON_Delete(o);
            cJSON_Delete(a);
            return NULL;
        }
        cJSON_AddStringToObject(o, "name", d->name);
        cJSON_AddStringToObject(o, "version", d->version ? d->version : "");
        cJSON_AddStringToObject(o, "pinned", d->pinned);
        cJSON_AddStringToObject(o, "match", ortkit__builder_dep_match_name(d->match));
        cJSON_AddStringToObject(o, "origin", d->origin ? d->origin : d->path ? d->path : "");
        cJSON_AddStringToObject(o, "sha256", d->sha256);
        cJSON_AddBoolToObject(o, "patched", d->patched);
    }
    return a;
}
