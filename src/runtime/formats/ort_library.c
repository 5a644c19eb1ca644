/*
 * ort_library.c - what an ONNX Runtime library is, read from the file
 * without loading it, so a build host can bundle a runtime it cannot run
 * (another architecture, a newer glibc, a GPU it does not have): its
 * version, and whether a provider-bridge library needs a core it lacks.
 *
 *
 * The version has three witnesses: the file name ("libonnxruntime.so.1.17.3"), the SONAME
 * (often only "libonnxruntime.so.1") and the version string ONNX Runtime
 * keeps in its read-only data (what OrtGetApiBase()->GetVersionString()
 * returns).  Each full version they give must agree; a version given by the
 * caller is taken only where the binary has nothing to say against it.
 *
 * Both the runtime search (resolve) and bundle import look for the library
 * in a directory the same way, here.  Only a regular file (after following
 * a link) counts as the library: a directory, a FIFO, a device or a
 * dangling link under its name is no library, and taking it would end the
 * search at a file dlopen refuses (or a reader blocks on, for a FIFO) while
 * the real library may lie beside it under its versioned name.
 */
#include "ort_library.h"
#include "elf_reader.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CANDIDATES 8
/* The library's usual names (core.h), in their order; then any libonnxruntime.so.*. */
static const char *const lib_names[] = ORTKIT__ORT_LIB_NAMES;
#define LIB_PREFIX "libonnxruntime.so."
/* ONNX Runtime releases ortkit can meet: 1.8 and newer (the npm packages' range). */
#define MIN_MINOR 8

typedef struct candidates {
    char v[MAX_CANDIDATES][32];
    size_t n;
} candidates;

/* "1.17.3": 1, a dot, 1-3 digits, a dot, 1-3 digits; minor >= MIN_MINOR. */
static int looks_like_ort(const char *s, size_t n)
{
    if (n < 5 || n > 11 || s[0] != '1' || s[1] != '.')
        return 0;
    size_t a = 2, d1 = 0, d2 = 0;
    while (a < n && s[a] >= '0' && s[a] <= '9')
        a++, d1++;
    if (d1 < 1 || d1 > 3 || a >= n || s[a] != '.')
        return 0;
    for (size_t b = a + 1; b < n; b++, d2++)
        if (s[b] < '0' || s[b] > '9')
            return 0;
    return d2 >= 1 && d2 <= 3 && atoi(s + 2) >= MIN_MINOR && !(d1 > 1 && s[2] == '0');
}

/* Every string of its own (NUL before and after) in [p, p + n) that looks
 * like an ONNX Runtime version. */
static void scan(candidates *c, const char *p, size_t n)
{
    for (size_t i = 0; i + 6 < n;) {
        const char *z = memchr(p + i, '\0', n - i);
        if (!z)
            break;
        size_t start = (size_t)(z - p) + 1, end = start;
        while (end < n && p[end] && end - start < 12)
            end++;
        if (end < n && !p[end] && looks_like_ort(p + start, end - start)) {
            int seen = 0;
            for (size_t k = 0; k < c->n; k++)
                seen |= strlen(c->v[k]) == end - start && !memcmp(c->v[k], p + start, end - start);
            if (!seen && c->n < MAX_CANDIDATES)
                snprintf(c->v[c->n++], sizeof c->v[0], "%.*s", (int)(end - start), p + start);
        }
        i = start;
    }
}

/* The version strings in the library's .rodata (its whole file when it has
 * no section headers). */
static int data_versions(candidates *c, const char *path)
{
    uint64_t off = 0, size = 0;
    int rc = ortkit__elf_section(path, ".rodata", &off, &size);
    if (rc)
        return rc;
    int fd;
    if ((rc = ortkit__file_open(&fd, path, 0, NULL)))
        return rc;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size <= 0) {
        close(fd);
        return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s'", path);
    }
    if (size == 0) {
        off = 0;
        size = (uint64_t)st.st_size;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return ortkit__error_set(ORTKIT_E_IO, "cannot map '%s': %s", path, strerror(errno));
    scan(c, (const char *)map + off, (size_t)size);
    munmap(map, (size_t)st.st_size);
    return ORTKIT_OK;
}

/* The version a library name carries: "libonnxruntime.so.1.17.3" -> "1.17.3"
 * (full: 1), "libonnxruntime.so.1" -> "1" (full: 0); "" when none. */
static const char *name_version(const char *name, int *full)
{
    const char *slash = name ? strrchr(name, '/') : NULL, *p;
    *full = 0;
    if (slash)
        name = slash + 1;
    if (!name || strncmp(name, "libonnxruntime.so.", 18))
        return "";
    p = name + 18;
    ortkit__version v;
    if (ortkit__version_parse(&v, p, NULL) != 0)
        return "";
    *full = v.n >= 3 && looks_like_ort(p, strlen(p));
    return p;
}

static int has(const candidates *c, const char *v)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->v[i], v))
            return 1;
    return 0;
}

static void list(char *buf, size_t size, const candidates *c)
{
    buf[0] = '\0';
    for (size_t i = 0; i < c->n; i++)
        snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? ", " : "", c->v[i]);
}

int ortkit__ort_version_read(ortkit__ort_version *out, const char *library, const char *soname,
                             const char *given)
{
    memset(out, 0, sizeof *out);
    candidates data = {0};
    int rc = data_versions(&data, library);
    if (rc)
        return ortkit__error_wrap(rc, "cannot read the version of '%s'", library);
    int file_full, so_full;
    const char *from_file = name_version(library, &file_full);
    const char *from_so = name_version(soname, &so_full);
    char found[160];
    list(found, sizeof found, &data);

    /* The names, where they give a whole version, must agree with each other. */
    const char *named = file_full ? from_file : so_full ? from_so : "";
    if (file_full && so_full && strcmp(from_file, from_so))
        return ortkit__error_set(ORTKIT_E_FORMAT,
                                 "'%s': its file name says ONNX Runtime %s and its SONAME %s; "
                                 "it is not clear which it is", library, from_file, soname);
    if (given && given[0]) {
        ortkit__version gv;
        if (ortkit__version_parse(&gv, given, NULL) != 0 || gv.n != 3 || gv.part[0] != 1)
            return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                     "--version '%s' is not an ONNX Runtime version like 1.23.2",
                                     given);
        /* The binary's own string outranks a name, and a name outranks nothing. */
        if (data.n && !has(&data, given))
            return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                     "--version %s contradicts '%s': its read-only data holds %s %s",
                                     given, library, data.n == 1 ? "the version" : "the versions",
                                     found);
        if (!data.n && named[0] && strcmp(named, given))
            return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                     "--version %s contradicts '%s', whose name says %s", given,
                                     library, named);
        snprintf(out->version, sizeof out->version, "%s", given);
        snprintf(out->from, sizeof out->from, "--version%s",
                 data.n ? ", found in its read-only data" : named[0] ? ", as its name says"
                                                          : " (the file does not say)");
        return ORTKIT_OK;
    }
    if (named[0]) {
        if (data.n && !has(&data, named))
            return ortkit__error_set(ORTKIT_E_FORMAT,
                                     "'%s': its %s says ONNX Runtime %s but its read-only data "
                                     "holds %s; give the version with --version", library,
                                     file_full ? "file name" : "SONAME", named, found);
        snprintf(out->version, sizeof out->version, "%s", named);
        snprintf(out->from, sizeof out->from, "its %s%s", file_full ? "file name" : "SONAME",
                 data.n ? " and its read-only data" : " (no version string in its data)");
        return ORTKIT_OK;
    }
    if (data.n == 0)
        return ortkit__error_set(ORTKIT_E_FORMAT,
                                 "'%s': neither its name nor its read-only data says which ONNX "
                                 "Runtime it is; give the version with --version", library);
    if (data.n > 1)
        return ortkit__error_set(ORTKIT_E_FORMAT,
                                 "'%s': its read-only data holds several versions (%s) and its "
                                 "name none; give the version with --version", library, found);
    /* A major version in a name ("libonnxruntime.so.1") must still fit. */
    const char *major = from_file[0] ? from_file : from_so;
    if (major[0] && strncmp(data.v[0], major, strlen(major)))
        return ortkit__error_set(ORTKIT_E_FORMAT,
                                 "'%s': its name says ONNX Runtime %s, its read-only data %s; give "
                                 "the version with --version", library, major, data.v[0]);
    snprintf(out->version, sizeof out->version, "%s", data.v[0]);
    snprintf(out->from, sizeof out->from, "its read-only data%s", major[0] ? " (its name says "
             "only the major version)" : "");
    return ORTKIT_OK;
}

int ortkit__bridge_lacks_cuda_core(const char *provider, const char *core)
{
    /* GetProvider is the provider bridge's entry; a plugin EP library alone
     * exports only CreateEpFactories. */
    int bridge = 0, cuda_core = -1;
    return ortkit__elf_defines(provider, "GetProvider", &bridge) == 0 && bridge == 1 &&
           ortkit__elf_defines(core, "OrtSessionOptionsAppendExecutionProvider_CUDA", &cuda_core) == 0 &&
           cuda_core == 0;
}

/* ---- the library in a directory ------------------------------------------------ */

typedef struct passing {
    char *why;
    size_t size;
} passing;

/* dir/name is a regular file (after links); when it is there and is not,
 * the first such is said in p. */
static int regular_in(const char *dir, const char *name, passing *p)
{
    char path[PATH_MAX];
    struct stat st;
    if (ortkit__pathf(path, sizeof path, "%s/%s", dir, name) != 0)
        return 0;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        return 1;
    int there = lstat(path, &st) == 0;
    if (there && p->why && p->size && !p->why[0]) {
        struct stat target;
        if (stat(path, &target) == 0)
            snprintf(p->why, p->size, "passed over '%s': it is %s, not a regular file", path,
                     ortkit__file_kind(target.st_mode));
        else
            snprintf(p->why, p->size, "passed over '%s': a link to nothing (%s)", path,
                     strerror(errno));
    }
    return 0;
}

int ortkit__ort_library_in_dir(char *name, size_t name_size, const char *dir, char *passed,
                               size_t passed_size)
{
    passing p = {passed, passed_size};
    for (size_t i = 0; i < sizeof lib_names / sizeof lib_names[0]; i++)
        if (regular_in(dir, lib_names[i], &p))
            return (size_t)snprintf(name, name_size, "%s", lib_names[i]) < name_size;
    DIR *d = opendir(dir);
    int found = 0;
    for (struct dirent *e; d && !found && (e = readdir(d));)
        found = !strncmp(e->d_name, LIB_PREFIX, strlen(LIB_PREFIX)) &&
                regular_in(dir, e->d_name, &p) &&
                (size_t)snprintf(name, name_size, "%s", e->d_name) < name_size;
    if (d)
        closedir(d);
    return found;
}
