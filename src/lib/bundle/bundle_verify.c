/*
 * bundle_verify.c - check a bundle on disk against its manifest, and list
 * every problem, so one run tells the whole story.
 */
#include "bundle.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WALK_MAX_DEPTH 16
#define WALK_MAX_ENTRIES 100000

int ortkit__sha256_file(char hex[65], uint64_t *size, const char *path)
{
    hex[0] = '\0';
    *size = 0;
    int fd;
    int rc = ortkit__file_open(&fd, path, O_NOFOLLOW, NULL);
    if (rc)
        return rc;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    size_t cap = (size_t)1 << 20;
    unsigned char *buf = malloc(cap);
    if (!ctx || !buf || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    for (;;) {
        ssize_t n = read(fd, buf, cap);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", path, strerror(errno));
            goto cleanup;
        }
        if (n == 0)
            break;
        if (EVP_DigestUpdate(ctx, buf, (size_t)n) != 1) {
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot hash '%s'", path);
            goto cleanup;
        }
        *size += (uint64_t)n;
    }
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_DigestFinal_ex(ctx, md, &len) != 1 || len != 32) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot hash '%s'", path);
        goto cleanup;
    }
    for (unsigned i = 0; i < len; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
cleanup:
    EVP_MD_CTX_free(ctx);
    free(buf);
    close(fd);
    return rc;
}

static void problem(ortkit_bundle *b, const char *fmt, ...) ORTKIT_PRINTF(2, 3);
static void problem(ortkit_bundle *b, const char *fmt, ...)
{
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    char **grown = n >= 0 ? realloc(b->problems, (b->problem_count + 1) * sizeof *grown) : NULL;
    if (!grown) {
        free(msg);
        return;
    }
    b->problems = grown;
    b->problems[b->problem_count++] = msg;
}

/* Every directory on the way to rel must be a real directory of the bundle:
 * a link there could lead the checks (and the loader) outside it. */
static int parents_ok(ortkit_bundle *b, const char *rel)
{
    char path[PATH_MAX];
    const char *dir = b->m.dir;
    for (const char *s = strchr(rel, '/'); s; s = strchr(s + 1, '/')) {
        struct stat st;
        if (ortkit__pathf(path, sizeof path, "%s/%.*s", dir, (int)(s - rel), rel)) {
            problem(b, "%s: %s", rel, ortkit__error_message());
            return 0;
        }
        if (lstat(path, &st) != 0) {
            problem(b, "%s: missing (no directory %.*s/)", rel, (int)(s - rel), rel);
            return 0;
        }
        if (!S_ISDIR(st.st_mode)) {
            problem(b, "%s: %.*s is %s, not a directory", rel, (int)(s - rel), rel,
                    S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
            return 0;
        }
    }
    return 1;
}

/* Size, checksum or link target of one listed file; 1 when it is intact. */
static int check_file(ortkit_bundle *b, const ortkit_bundle_file *f)
{
    char path[PATH_MAX], target[PATH_MAX];
    struct stat st;
    if (ortkit__pathf(path, sizeof path, "%s/%s", b->m.dir, f->path)) {
        problem(b, "%s: %s", f->path, ortkit__error_message());
        return 0;
    }
    if (!parents_ok(b, f->path))
        return 0;
    if (lstat(path, &st) != 0) {
        problem(b, "%s: missing", f->path);
        return 0;
    }
    if (f->link[0]) {
        ssize_t n = S_ISLNK(st.st_mode) ? readlink(path, target, sizeof target - 1) : -1;
        if (n < 0) {
            problem(b, "%s: should be a link to %s, is not a link", f->path, f->link);
            return 0;
        }
        target[n] = '\0';
        if (strcmp(target, f->link)) {
            problem(b, "%s: links to '%s', the manifest says '%s'", f->path, target, f->link);
            return 0;
        }
        return 1;
    }
    if (!S_ISREG(st.st_mode)) {
        problem(b, "%s: is %s, the manifest lists a file", f->path,
                S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
        return 0;
    }
    if ((uint64_t)st.st_size != f->size) {
        problem(b, "%s: %llu bytes, the manifest says %llu (%s)", f->path,
                (unsigned long long)st.st_size, (unsigned long long)f->size,
                (uint64_t)st.st_size < f->size ? "truncated" : "grown");
        return 0;
    }
    char hex[65];
    uint64_t size;
    if (ortkit__sha256_file(hex, &size, path) != 0) {
        problem(b, "%s: %s", f->path, ortkit_error_last());
        return 0;
    }
    if (strcmp(hex, f->sha256)) {
        problem(b, "%s: SHA-256 %.12s... differs from the manifest's %.12s... (modified or damaged)",
                f->path, hex, f->sha256);
        return 0;
    }
    return 1;
}

/* Anything in the bundle that the manifest does not list. */
static void find_extras(ortkit_bundle *b, const char *rel, int depth, size_t *seen)
{
    char path[PATH_MAX];
    if (ortkit__pathf(path, sizeof path, "%s%s%s", b->m.dir, rel[0] ? "/" : "", rel)) {
        problem(b, "%s/: %s", rel[0] ? rel : ".", ortkit__error_message());
        return;
    }
    DIR *d = opendir(path);
    if (!d) {
        problem(b, "%s/: cannot be read: %s", rel[0] ? rel : ".", strerror(errno));
        return;
    }
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (++*seen > WALK_MAX_ENTRIES) {
            problem(b, "more than %d entries in the bundle; stopped looking", WALK_MAX_ENTRIES);
            break;
        }
        char child[PATH_MAX];
        if (ortkit__pathf(child, sizeof child, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name) ||
            ortkit__pathf(path, sizeof path, "%s/%s", b->m.dir, child)) {
            problem(b, "%s/%s: %s", rel[0] ? rel : ".", e->d_name, ortkit__error_message());
            continue;
        }
        if (!rel[0] && !strcmp(e->d_name, BUNDLE_MANIFEST))
            continue;
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (depth >= WALK_MAX_DEPTH)
                problem(b, "%s/: nested too deep", child);
            else
                find_extras(b, child, depth + 1, seen);
        } else if (!ortkit__bundle_file(&b->m, child)) {
            problem(b, "%s: not in the manifest (an extra file)", child);
        }
    }
    closedir(d);
}

/* The ELF files in lib/: built for the manifest's machine, RUNPATH $ORIGIN. */
static int check_elf(ortkit_bundle *b, const ortkit_bundle_file *f)
{
    char path[PATH_MAX], mach[32];
    if (ortkit__pathf(path, sizeof path, "%s/%s", b->m.dir, f->path)) {
        problem(b, "%s: %s", f->path, ortkit__error_message());
        return 0;
    }
    if (ortkit__elf_is(path) != 1)
        return 1;
    ortkit__elf e;
    if (ortkit__elf_read(&e, path) != 0) {
        problem(b, "%s: %s", f->path, ortkit_error_last());
        return 0;
    }
    int ok = 1;
    if (e.elf_class != 2 || ortkit__elf_arch(e.machine) != b->m.arch) {
        problem(b, "%s: built for %s%s; the manifest says %s", f->path,
                ortkit__elf_machine_name(e.machine, mach, sizeof mach),
                e.elf_class != 2 ? " (32-bit)" : "", ortkit_arch_name(b->m.arch));
        ok = 0;
    } else if (!ortkit__elf_origin(e.runpath)) {
        if (ortkit__elf_origin(e.rpath))
            problem(b, "%s: has RPATH $ORIGIN, not RUNPATH", f->path);
        else
            problem(b, "%s: RUNPATH is %s%s%s, not $ORIGIN: libraries beside it would not be found",
                    f->path, e.runpath ? "'" : "", e.runpath ? e.runpath : "unset",
                    e.runpath ? "'" : "");
        ok = 0;
    }
    ortkit__elf_free(&e);
    return ok;
}

/* Load the library (through probe) and compare what it says with the manifest. */
static void check_loads(ortkit_bundle *b, ortkit__probe_fn probe)
{
    const ortkit_manifest *m = &b->m;
    if (m->arch != ortkit__host_arch()) {
        problem(b, "%s: not loaded: built for %s, this machine is %s", m->library,
                ortkit_arch_name(m->arch), ortkit_arch_name(ortkit__host_arch()));
        return;
    }
    ortkit__probe p;
    memset(&p, 0, sizeof p);
    if (probe(&p, b->library_path) != 0) {
        problem(b, "%s: does not load: %s", m->library, ortkit_error_last());
        return;
    }
    if (strcmp(p.version, m->ort_version))
        problem(b, "%s: reports ONNX Runtime %s; the manifest says %s", m->library, p.version,
                m->ort_version);
    size_t n = p.provider_count;
    int same = n == m->provider_count;
    for (size_t i = 0; same && i < n; i++)
        same = !strcmp(p.providers[i], m->providers[i]);
    if (!same) {
        char has[512] = "", says[512] = "";
        for (size_t i = 0; i < n; i++)
            snprintf(has + strlen(has), sizeof has - strlen(has), " %s", p.providers[i]);
        for (size_t i = 0; i < m->provider_count; i++)
            snprintf(says + strlen(says), sizeof says - strlen(says), " %s", m->providers[i]);
        problem(b, "%s: reports providers%s; the manifest says%s", m->library, has,
                m->provider_count ? says : " none");
    }
    ortkit__probe_free(&p);
}

void ortkit__probe_free(ortkit__probe *p)
{
    for (size_t i = 0; i < p->provider_count; i++)
        free(p->providers[i]);
    free(p->providers);
    p->providers = NULL;
    p->provider_count = 0;
}

int ortkit__bundle_verify_with(ortkit_bundle *b, ortkit__probe_fn probe)
{
    if (!b)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_bundle_verify: NULL bundle");
    if (!b->m.dir[0])
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "ortkit_bundle_verify: bundle '%s' has no directory", b->m.name);
    for (size_t i = 0; i < b->problem_count; i++)
        free(b->problems[i]);
    b->problem_count = 0;

    int library_ok = 1;
    for (size_t i = 0; i < b->m.file_count; i++) {
        const ortkit_bundle_file *f = &b->m.files[i];
        int ok = check_file(b, f);
        if (ok && !f->link[0] && !strncmp(f->path, "lib/", 4) && !strchr(f->path + 4, '/'))
            ok = check_elf(b, f);
        if (!ok && !strcmp(f->path, b->m.library))
            library_ok = 0;
    }
    size_t seen = 0;
    find_extras(b, "", 0, &seen);
    /* A library that failed its checks is never loaded: it may not be ORT at all. */
    if (library_ok)
        check_loads(b, probe);
    else
        problem(b, "%s: not loaded, because it failed the checks above", b->m.library);

    if (b->problem_count == 0)
        return ORTKIT_OK;
    return ortkit__error_set(ORTKIT_E_FORMAT, "bundle '%s' has %zu problem%s; the first: %s",
                             b->m.name, b->problem_count, b->problem_count == 1 ? "" : "s",
                             b->problems[0]);
}
