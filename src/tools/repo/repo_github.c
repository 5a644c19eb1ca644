/*
 * repo_github.c - Microsoft's official ONNX Runtime release, from the
 * tarballs of its GitHub release, as a bundle (`ortkit bundle fetch VERSION
 * --from github`).
 *
 * GitHub publishes no digest a client can trust apart from the download, so
 * the tarball must hash to the SHA-256 ortkit carries for it
 * (repo_releases.c) or to one the user gives.  It is fetched into the
 * download cache with the repositories' code (resumed, size and hash checked
 * while it streams, removed when wrong), unpacked by the rules of a
 * repository archive (nothing outside the directory, no link that leaves
 * it), and its one top directory imported as any release is: a GPU release
 * with its providers.
 */
#include "repo.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abi.h"

#define GITHUB_DEFAULT_BASE "https://github.com/microsoft/onnxruntime/releases/download"
/* A GPU tarball with CUDA 12 is about 400 MB; these leave room to grow. */
#define GITHUB_TARBALL_MAX ((uint64_t)4 << 30)
#define GITHUB_UNPACKED_MAX ((uint64_t)16 << 30)
#define TABLE_VOUCH "ortkit's table of Microsoft's releases"
#define USER_VOUCH "the SHA-256 given (--sha256)"

#if defined(__x86_64__)
#define GITHUB_ARCH "x64"
#elif defined(__aarch64__)
#define GITHUB_ARCH "aarch64"
#else
#define GITHUB_ARCH NULL
#endif

ORTKIT__ABI_STRUCT(github_abi, ortkit_repo_github_options, "GitHub release options",
                   "ORTKIT_REPO_GITHUB_OPTIONS_INIT", ORTKIT_REPO_GITHUB_OPTIONS_VERSION,
                   sizeof(ortkit_repo_github_options));

/* What to download and what it must hash to. */
typedef struct wanted {
    char file[256], url[4096], sha256[ORTKIT__SHA256_HEX];
    const char *vouch;
    uint64_t size; /* 0: not known */
} wanted;

static int hex_ok(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f') ||
              (s[n] >= 'A' && s[n] <= 'F')))
            return 0;
    return n == 64;
}

/* The flavour, the file, its URL and its SHA-256 (the table's, else the
 * user's, else refused). */
static int choose(wanted *w, const char *version, const ortkit_repo_github_options *o)
{
    const char *flavour = o->gpu ? o->gpu : "cpu";
    ortkit__version v;
    if (ortkit__version_parse(&v, version, NULL) || v.n != 3)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' is not an ONNX Runtime version "
                                 "(1.30.0)", version);
    if (strcmp(flavour, "cpu") && strcmp(flavour, "cuda12") && strcmp(flavour, "cuda13"))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' is not a GPU release (cuda12, "
                                 "cuda13)", flavour);
    if (o->gpu && strcmp(GITHUB_ARCH, "x64") && !o->url)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "Microsoft's Linux GPU releases are for "
                                 "x86-64 only (give the tarball's --url for another)");
    int rc = ortkit__release_file(w->file, sizeof w->file, version, GITHUB_ARCH, flavour);
    if (rc)
        return rc;
    const ortkit__release *known = ortkit__release_find(version, GITHUB_ARCH, flavour);
    if (o->sha256) {
        if (!hex_ok(o->sha256))
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' is not a SHA-256 (64 hex "
                                     "digits)", o->sha256);
        for (size_t i = 0; i < 65; i++)
            w->sha256[i] = (char)(o->sha256[i] >= 'A' && o->sha256[i] <= 'F' ? o->sha256[i] + 32
                                                                              : o->sha256[i]);
        w->vouch = USER_VOUCH;
    } else if (known) {
        snprintf(w->sha256, sizeof w->sha256, "%s", known->sha256);
        w->size = known->size;
        w->vouch = TABLE_VOUCH;
    } else {
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "ortkit knows no SHA-256 of %s (it "
                                 "carries those of Microsoft's releases %s to %s that it could "
                                 "source): pass the tarball's SHA-256, from a source you trust, "
                                 "with --sha256 HEX", w->file, ORTKIT__RELEASE_FIRST,
                                 ORTKIT__RELEASE_LAST);
    }
    if (o->url) {
        if (strncmp(o->url, "http://", 7) && strncmp(o->url, "https://", 8))
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' is not an http(s) URL", o->url);
        return ortkit__pathf(w->url, sizeof w->url, "%s", o->url);
    }
    const char *base = ortkit__env("ORTKIT_GITHUB_RELEASES");
    if (!base || !base[0])
        base = GITHUB_DEFAULT_BASE;
    if (strncmp(base, "http://", 7) && strncmp(base, "https://", 8))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ORTKIT_GITHUB_RELEASES '%s' is not an "
                                 "http(s) URL", base);
    return ortkit__pathf(w->url, sizeof w->url, "%s/v%s/%s", base, version, w->file);
}

/* Download w into the download cache (dir), as *path; resumed from an
 * earlier attempt's part, which a wrong hash removes. */
static int download(char *path, size_t size, const char *dir, const wanted *w, const char *ca_file,
                    const ortkit_bundle_import_options *import)
{
    ortkit__source src = {0};
    char *base = NULL, url[4096];
    int rc = ortkit__pathf(path, size, "%s/%.16s-%s", dir, w->sha256, w->file);
    if (rc || (rc = ortkit__pathf(url, sizeof url, "%s", w->url)))
        return rc;
    char *slash = strrchr(url, '/');
    if (!slash || !slash[1] || slash - url < 9)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' names no file", w->url);
    *slash = '\0';
    if ((rc = ortkit__source_init(&src, &base, url, ca_file)))
        return rc;
    ortkit__fetch_job job = {.rel = slash + 1, .part = path, .sha256 = w->sha256,
                             .progress = ortkit__import_cancel_progress,
                             .progress_arg = (void *)import, .vouch = w->vouch};
    job.size = w->size ? w->size : GITHUB_TARBALL_MAX;
    job.size_is_max = !w->size;
    rc = ortkit__fetch_file(&src, &job);
    free(base);
    return rc;
}

/* The one directory a release tarball unpacks to, into top. */
static int release_top(char *top, size_t size, const char *dir, const char *url)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int found = 0, rc = ORTKIT_OK;
    if (!d)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", dir, strerror(errno));
    while ((de = readdir(d)) && !rc) {
        struct stat st;
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (found++ || (rc = ortkit__pathf(top, size, "%s/%s", dir, de->d_name)))
            break;
        if (lstat(top, &st) != 0 || !S_ISDIR(st.st_mode))
            found = 2;
    }
    closedir(d);
    if (!rc && found != 1)
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is not laid out as Microsoft's releases "
                               "are: one directory holding lib/ and include/", url);
    return rc;
}

int ortkit_repo_fetch_github(ortkit_bundle **out, const char *version,
                             const ortkit_repo_github_options *opts,
                             const ortkit_bundle_import_options *import)
{
    *out = NULL;
    ortkit_repo_github_options o = ORTKIT_REPO_GITHUB_OPTIONS_INIT;
    if (opts && ortkit__abi_read(&github_abi, &o, opts))
        return ORTKIT_E_INVALID_ARG;
    if (!GITHUB_ARCH)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "Microsoft's Linux releases are for "
                                 "x86-64 and aarch64 only");
    wanted w = {0};
    char cache[PATH_MAX], lock[PATH_MAX], tarball[PATH_MAX], tmp[PATH_MAX] = "", top[PATH_MAX];
    int fd = -1, rc = choose(&w, version ? version : "(null)", &o);
    if (rc)
        return rc;
    /* The download cache, locked; else (no home of one's own) a directory
     * of this run. */
    if (ortkit__cache_dir(cache, sizeof cache, "downloads") == 0) {
        if ((rc = ortkit__pathf(lock, sizeof lock, "%s.lock", cache)) ||
            (rc = ortkit__lock(&fd, lock)))
            goto cleanup;
    } else if (!(rc = ortkit__fetch_tmpdir(tmp, sizeof tmp))) {
        snprintf(cache, sizeof cache, "%s", tmp);
    }
    /* The lock is held to the end: another fetch neither writes the
     * tarball nor removes it while this one reads it. */
    if (rc || (rc = download(tarball, sizeof tarball, cache, &w, o.ca_file, import)))
        goto cleanup;
    if (!tmp[0] && (rc = ortkit__fetch_tmpdir(tmp, sizeof tmp)))
        goto cleanup;
    if ((rc = ortkit__pathf(top, sizeof top, "%s/release", tmp)))
        goto cleanup;
    if (mkdir(top, 0700) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", top, strerror(errno));
        goto cleanup;
    }
    if ((rc = ortkit__unpack_gzip(tarball, top, GITHUB_UNPACKED_MAX))) {
        rc = ortkit__error_wrap(rc, "cannot unpack '%s'", w.url);
        goto cleanup;
    }
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", top);
    ortkit_bundle_import_options defaults = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    if (!(rc = release_top(top, sizeof top, dir, w.url)) &&
        !(rc = ortkit_bundle_import(out, top, import ? import : &defaults)))
        unlink(tarball); /* kept until an import succeeds: a retry need not download it again */
cleanup:
    if (fd >= 0)
        close(fd);
    if (tmp[0])
        ortkit__rmtree(tmp);
    return rc;
}
