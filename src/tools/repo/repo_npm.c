/*
 * repo_npm.c - Microsoft's official ONNX Runtime release, from the npm
 * registry, as a bundle (`ortkit bundle fetch`).
 *
 * The package onnxruntime-node carries Microsoft's libonnxruntime.so for
 * linux/x64 and linux/arm64 under package/bin/napi-v<N>/linux/<arch>/.  The
 * registry's metadata of one version (REGISTRY/onnxruntime-node/VERSION)
 * gives the tarball's URL and its SHA-512 (dist.integrity, "sha512-BASE64"):
 * the tarball is refused unless it hashes to that.  Only the libraries are
 * unpacked (regular files, no path but their own name), then imported as
 * any directory holding a runtime is.
 */
#include "repo.h"

#include <archive.h>
#include <archive_entry.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NPM_PACKAGE "onnxruntime-node"
#define NPM_DEFAULT_REGISTRY "https://registry.npmjs.org"
#define NPM_METADATA_MAX ((size_t)4 << 20)
#define NPM_TARBALL_MAX ((uint64_t)2 << 30)
#define NPM_LIBRARY_MAX ((uint64_t)1 << 30)

#if defined(__x86_64__)
#define NPM_ARCH "x64"
#elif defined(__aarch64__)
#define NPM_ARCH "arm64"
#else
#define NPM_ARCH NULL
#endif

static int version_ok(const char *v)
{
    if (!v || !v[0] || strlen(v) > 64 || v[0] < '0' || v[0] > '9')
        return 0;
    for (const char *p = v; *p; p++)
        if (!(*p >= '0' && *p <= '9') && !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
            *p != '.' && *p != '-')
            return 0;
    return 1;
}

static void base64(char *out, const unsigned char *in, size_t n)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0) |
                     (i + 2 < n ? in[i + 2] : 0);
        out[o++] = a[v >> 18 & 63];
        out[o++] = a[v >> 12 & 63];
        out[o++] = i + 1 < n ? a[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? a[v & 63] : '=';
    }
    out[o] = '\0';
}

/* The metadata's tarball URL and integrity, copied into url and integrity. */
static int read_metadata(char *url, size_t url_size, char *integrity, size_t integrity_size,
                         const char *text, const char *what, const char *version)
{
    int rc = ORTKIT_OK;
    cJSON *doc = cJSON_Parse(text);
    const cJSON *dist = doc ? cJSON_GetObjectItemCaseSensitive(doc, "dist") : NULL;
    const cJSON *v = doc ? cJSON_GetObjectItemCaseSensitive(doc, "version") : NULL;
    const cJSON *t = dist ? cJSON_GetObjectItemCaseSensitive(dist, "tarball") : NULL;
    const cJSON *i = dist ? cJSON_GetObjectItemCaseSensitive(dist, "integrity") : NULL;
    if (!doc || !cJSON_IsObject(doc)) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s is not the registry's JSON metadata of a "
                               "package version", what);
    } else if (!cJSON_IsString(v) || strcmp(v->valuestring, version)) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s is not the metadata of version %s", what,
                               version);
    } else if (!cJSON_IsString(t) || (strncmp(t->valuestring, "http://", 7) &&
                                      strncmp(t->valuestring, "https://", 8)) ||
               strlen(t->valuestring) >= url_size) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s gives no http(s) URL in dist.tarball", what);
    } else if (!cJSON_IsString(i) || strncmp(i->valuestring, "sha512-", 7) ||
               strlen(i->valuestring) >= integrity_size) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s publishes no SHA-512 in dist.integrity "
                               "(\"sha512-...\"): the tarball cannot be checked, so it is not "
                               "fetched", what);
    } else {
        snprintf(url, url_size, "%s", t->valuestring);
        /* Several hashes may be listed, space-separated: the first is npm's. */
        snprintf(integrity, integrity_size, "%.*s", (int)strcspn(i->valuestring, " "),
                 i->valuestring);
    }
    cJSON_Delete(doc);
    return rc;
}

static int hash_block(void *arg, const void *block, size_t n)
{
    ortkit__sha256_update(arg, block, n);
    return 0;
}

static int check_integrity(const char *path, const char *integrity, const char *url)
{
    ortkit__sha256_ctx h = {0};
    unsigned char md[ORTKIT__SHA512_SIZE];
    char b64[ORTKIT__SHA512_SIZE * 2], got[ORTKIT__SHA512_SIZE * 2 + 8];
    int fd = -1, rc = ortkit__sha512_init(&h);
    char *buf = malloc((size_t)1 << 20);
    if (!rc && !buf)
        rc = ortkit__error_nomem();
    if (!rc)
        rc = ortkit__file_open(&fd, path, 0, NULL);
    if (!rc)
        rc = ortkit__file_each_block(fd, buf, (size_t)1 << 20, path, hash_block, &h);
    if (!rc)
        rc = ortkit__sha512_final(&h, md);
    if (rc)
        goto cleanup;
    base64(b64, md, sizeof md);
    snprintf(got, sizeof got, "sha512-%s", b64);
    if (strcmp(got, integrity))
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' has %.20s..., the registry publishes "
                               "%.20s...: the tarball was changed or damaged; refused", url, got,
                               integrity);
cleanup:
    if (fd >= 0)
        close(fd);
    ortkit__sha256_discard(&h);
    free(buf);
    return rc;
}

/* "package/bin/napi-v6/linux/x64/libonnxruntime.so.1": the N-API number
 * (6) and the file's name, or 0 for any other entry. */
static int library_entry(const char *path, const char **name)
{
    static const char head[] = "package/bin/napi-v";
    static const char mid[] = "/linux/" NPM_ARCH "/";
    if (strncmp(path, head, sizeof head - 1))
        return 0;
    const char *p = path + sizeof head - 1;
    char *end;
    long n = strtol(p, &end, 10);
    if (end == p || n <= 0 || n > 1000 || strncmp(end, mid, sizeof mid - 1))
        return 0;
    *name = end + sizeof mid - 1;
    if (strncmp(*name, "libonnxruntime", 14) || strchr(*name, '/') || !strstr(*name, ".so"))
        return 0;
    return (int)n;
}

/* Unpack the newest N-API's libraries into dir: pass 0 finds it, pass 1
 * writes its files. */
static int unpack(const char *tarball, const char *dir, const char *url, int *napi)
{
    int rc = ORTKIT_OK;
    for (int pass = 0; pass < 2 && !rc; pass++) {
        struct archive *a = archive_read_new();
        struct archive_entry *e;
        if (!a)
            return ortkit__error_nomem();
        archive_read_support_filter_gzip(a);
        archive_read_support_format_tar(a);
        if (archive_read_open_filename(a, tarball, (size_t)1 << 16) != ARCHIVE_OK) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "cannot read '%s': %s", url,
                                   archive_error_string(a));
            archive_read_free(a);
            break;
        }
        int r;
        while (!rc && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
            const char *name = NULL;
            int n = library_entry(archive_entry_pathname(e), &name);
            if (!n || archive_entry_filetype(e) != AE_IFREG)
                continue;
            if (pass == 0) {
                if (n > *napi)
                    *napi = n;
                continue;
            }
            if (n != *napi)
                continue;
            if (archive_entry_size(e) < 0 || (uint64_t)archive_entry_size(e) > NPM_LIBRARY_MAX) {
                rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s': %s is too large", url,
                                       archive_entry_pathname(e));
                break;
            }
            char path[PATH_MAX];
            int fd = -1;
            if ((rc = ortkit__pathf(path, sizeof path, "%s/%s", dir, name)))
                break;
            fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0755);
            if (fd < 0) {
                rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", path,
                                       strerror(errno));
                break;
            }
            if (archive_read_data_into_fd(a, fd) != ARCHIVE_OK)
                rc = ortkit__error_set(ORTKIT_E_FORMAT, "cannot unpack %s from '%s': %s",
                                       archive_entry_pathname(e), url, archive_error_string(a));
            close(fd);
        }
        if (!rc && r != ARCHIVE_EOF)
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "cannot read '%s': %s", url,
                                   archive_error_string(a));
        archive_read_free(a);
        if (!rc && pass == 0 && !*napi)
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' holds no linux/%s library "
                                   "(package/bin/napi-v*/linux/%s/libonnxruntime.so*)", url,
                                   NPM_ARCH, NPM_ARCH);
    }
    return rc;
}

/* libonnxruntime.so.1 and libonnxruntime.so beside the versioned file,
 * as the release's own links would be. */
static int link_names(const char *dir)
{
    char one[PATH_MAX], bare[PATH_MAX];
    struct stat st;
    int rc = ortkit__pathf(one, sizeof one, "%s/libonnxruntime.so.1", dir);
    if (!rc)
        rc = ortkit__pathf(bare, sizeof bare, "%s/libonnxruntime.so", dir);
    if (rc)
        return rc;
    if (lstat(one, &st) != 0) {
        char name[PATH_MAX] = "";
        DIR *d = opendir(dir);
        struct dirent *de;
        while (d && (de = readdir(d)))
            if (!strncmp(de->d_name, "libonnxruntime.so.1.", 20))
                snprintf(name, sizeof name, "%s", de->d_name);
        if (d)
            closedir(d);
        if (!name[0] || symlink(name, one) != 0)
            return ortkit__error_set(ORTKIT_E_FORMAT, "the release holds no "
                                     "libonnxruntime.so.1*");
    }
    if (lstat(bare, &st) != 0 && symlink("libonnxruntime.so.1", bare) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot link '%s': %s", bare, strerror(errno));
    return ORTKIT_OK;
}

int ortkit_repo_fetch_release(ortkit_bundle **out, const char *version, const char *registry,
                              const char *ca_file, const ortkit_bundle_import_options *import)
{
    *out = NULL;
    if (!NPM_ARCH)
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED, "Microsoft's npm releases have Linux "
                                 "libraries for x86-64 and aarch64 only");
    if (!version_ok(version))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' is not an ONNX Runtime version "
                                 "(1.30.0)", version ? version : "(null)");
    if (!registry || !registry[0])
        registry = ortkit__env("ORTKIT_NPM_REGISTRY");
    if (!registry || !registry[0])
        registry = NPM_DEFAULT_REGISTRY;
    if (strncmp(registry, "http://", 7) && strncmp(registry, "https://", 8))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "the npm registry '%s' is not an "
                                 "http(s) URL", registry);

    ortkit__source meta = {0}, tar = {0};
    char *meta_base = NULL, *tar_base = NULL, *text = NULL;
    char tmp[PATH_MAX] = "", tarball[PATH_MAX], lib_dir[PATH_MAX], rel[64], what[4200];
    char url[4096], integrity[256];
    size_t size = 0;
    uint64_t got = 0;
    int napi = 0;
    int rc = ortkit__source_init(&meta, &meta_base, registry, ca_file);
    if (rc)
        goto cleanup;
    snprintf(rel, sizeof rel, "%s/%s", NPM_PACKAGE, version);
    snprintf(what, sizeof what, "%s/%s", meta.base, rel);
    if ((rc = ortkit__fetch_small(&text, &size, &meta, rel, NPM_METADATA_MAX))) {
        rc = ortkit__error_wrap(rc, "cannot get %s@%s's metadata from the npm registry %s",
                                NPM_PACKAGE, version, meta.base);
        goto cleanup;
    }
    if ((rc = read_metadata(url, sizeof url, integrity, sizeof integrity, text, what, version)))
        goto cleanup;

    if ((rc = ortkit__fetch_tmpdir(tmp, sizeof tmp)))
        goto cleanup;
    if ((rc = ortkit__pathf(tarball, sizeof tarball, "%s/package.tgz", tmp)) ||
        (rc = ortkit__pathf(lib_dir, sizeof lib_dir, "%s/onnxruntime-%s", tmp, version)))
        goto cleanup;
    if (mkdir(lib_dir, 0755) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", lib_dir, strerror(errno));
        goto cleanup;
    }
    /* The tarball's URL as a source (its directory) and a file in it. */
    char *slash = strrchr(url, '/');
    if (!slash[1]) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "%s: dist.tarball '%s' names no file", what, url);
        goto cleanup;
    }
    *slash = '\0';
    rc = ortkit__source_init(&tar, &tar_base, url, ca_file);
    *slash = '/';
    if (rc || (rc = ortkit__fetch_whole(&tar, slash + 1, tarball, NPM_TARBALL_MAX, &got,
                                        ortkit__import_cancel_progress, (void *)import)) ||
        (rc = check_integrity(tarball, integrity, url)) ||
        (rc = unpack(tarball, lib_dir, url, &napi)) || (rc = link_names(lib_dir)))
        goto cleanup;
    unlink(tarball);

    ortkit_bundle_import_options defaults = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    rc = ortkit_bundle_import(out, lib_dir, import ? import : &defaults);
cleanup:
    if (tmp[0])
        ortkit__rmtree(tmp);
    free(text);
    free(meta_base);
    free(tar_base);
    return rc;
}
