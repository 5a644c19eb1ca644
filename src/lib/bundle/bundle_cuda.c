/*
 * bundle_cuda.c - the CUDA libraries a CUDA build of ONNX Runtime needs
 * beside it.
 *
 * A scan of DT_NEEDED is not enough: ORT's CUDA provider loads cuDNN's
 * parts (libcudnn_ops.so.9, libcudnn_cnn.so.9, ...) and, in newer
 * releases, cuFFT only when a model needs them.  So the known lazy set for
 * the CUDA release is added by name.  The NVIDIA driver's libraries
 * (libcuda.so.1, libnvidia-ml.so.1) belong to the host and the C/C++
 * runtimes to the system: they are never bundled.
 */
#include "bundle.h"

#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DEPS 256

static const char *const never_prefixes[] = {
    "libc.so", "libstdc++.so", "libgcc_s.so", "libm.so", "libdl.so", "libpthread.so", "librt.so",
    "ld-linux", "libresolv.so", "libutil.so", "libmvec.so", "libanl.so",
    "libcuda.so", "libnvidia-", /* the driver's, incl. libnvidia-ml.so.1 */
};

static const char *const cuda_prefixes[] = {
    "libcudart.so", "libcublas.so", "libcublasLt.so", "libcufft.so", "libcurand.so", "libcudnn",
    "libcusparse.so", "libcusolver.so", "libnvrtc", "libnvJitLink.so", "libnvinfer",
    "libnvonnxparser",
};

static int has_prefix(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strncmp(name, list[i], strlen(list[i])))
            return 1;
    return 0;
}

int ortkit__cuda_never_bundle(const char *name)
{
    return has_prefix(name, never_prefixes, sizeof never_prefixes / sizeof never_prefixes[0]);
}

static int cuda_family(const char *name)
{
    return !ortkit__cuda_never_bundle(name) &&
           has_prefix(name, cuda_prefixes, sizeof cuda_prefixes / sizeof cuda_prefixes[0]);
}

typedef struct finder {
    ortkit_arch arch;
    char *dirs[64];
    size_t dir_count;
    char *ldcache;   /* `ldconfig -p` output, read when first needed */
    int ldcache_read;
    ortkit__dep *deps;
    size_t count;
    char *queue[MAX_DEPS];
    size_t queued;
    char missing[512];
} finder;

static void add_dir(finder *f, const char *dir, const char *sub)
{
    char path[PATH_MAX];
    if (!dir || !dir[0] || f->dir_count == sizeof f->dirs / sizeof f->dirs[0])
        return;
    snprintf(path, sizeof path, "%s%s", dir, sub);
    if ((f->dirs[f->dir_count] = strdup(path)))
        f->dir_count++;
}

/* A file of the right architecture, so an i386 or arm64 copy is passed over. */
static int usable(const finder *f, const char *path)
{
    struct stat st;
    ortkit__elf e;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || ortkit__elf_read(&e, path) != 0)
        return 0;
    int ok = e.elf_class == 2 && ortkit__elf_arch(e.machine) == f->arch;
    ortkit__elf_free(&e);
    return ok;
}

static char *ldcache_lookup(finder *f, const char *name)
{
    if (!f->ldcache_read) {
        f->ldcache_read = 1;
        int status;
        const char *const a1[] = {"/sbin/ldconfig", "-p", NULL};
        const char *const a2[] = {"ldconfig", "-p", NULL};
        if (ortkit__spawn(a1, 0, &f->ldcache, &status) != 0 || status != 0) {
            free(f->ldcache);
            f->ldcache = NULL;
            if (ortkit__spawn(a2, 0, &f->ldcache, &status) != 0 || status != 0) {
                free(f->ldcache);
                f->ldcache = NULL;
            }
        }
    }
    /* Lines look like: "\tlibcudnn.so.9 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcudnn.so.9" */
    size_t n = strlen(name);
    for (const char *line = f->ldcache; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *p = line + strspn(line, " \t");
        const char *arrow = memmem(line, len, " => ", 4);
        if (arrow && !strncmp(p, name, n) && p[n] == ' ') {
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%.*s", (int)(line + len - arrow - 4), arrow + 4);
            if (usable(f, path))
                return strdup(path);
        }
        line = end ? end + 1 : line + len;
    }
    return NULL;
}

static char *locate(finder *f, const char *name)
{
    char path[PATH_MAX];
    for (size_t i = 0; i < f->dir_count; i++) {
        snprintf(path, sizeof path, "%s/%s", f->dirs[i], name);
        if (usable(f, path))
            return strdup(path);
    }
    return ldcache_lookup(f, name);
}

static void enqueue(finder *f, const char *name)
{
    if (!cuda_family(name) || f->queued == MAX_DEPS)
        return;
    for (size_t i = 0; i < f->queued; i++)
        if (!strcmp(f->queue[i], name))
            return;
    if ((f->queue[f->queued] = strdup(name)))
        f->queued++;
}

static void enqueue_needed(finder *f, const char *path)
{
    ortkit__elf e;
    if (ortkit__elf_read(&e, path) != 0)
        return;
    for (size_t i = 0; i < e.needed_count; i++)
        enqueue(f, e.needed[i]);
    ortkit__elf_free(&e);
}

/* cuDNN 9 is split into parts that libcudnn.so.9 opens by name at run time:
 * take every libcudnn*.so.9 beside it. */
static void enqueue_cudnn_parts(finder *f, const char *cudnn_path)
{
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", cudnn_path);
    DIR *d = opendir(dirname(copy));
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (!strncmp(e->d_name, "libcudnn", 8) && n > 5 && !strcmp(e->d_name + n - 5, ".so.9"))
            enqueue(f, e->d_name);
    }
    closedir(d);
}

static int cmp_deps(const void *a, const void *b)
{
    return strcmp(((const ortkit__dep *)a)->name, ((const ortkit__dep *)b)->name);
}

int ortkit__cuda_deps(ortkit__dep **out, size_t *count, const char *const *elf_paths, size_t n,
                      const char *srcdir, int cuda, ortkit_arch arch)
{
    *out = NULL;
    *count = 0;
    finder f;
    memset(&f, 0, sizeof f);
    f.arch = arch;
    int rc = ORTKIT_OK;
    if (!(f.deps = calloc(MAX_DEPS, sizeof *f.deps)))
        return ortkit__error_nomem();

    add_dir(&f, srcdir, "");
    const char *ld = getenv("LD_LIBRARY_PATH");
    for (const char *p = ld ? ld : ""; *p;) {
        size_t len = strcspn(p, ":");
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)len, p);
        if (len)
            add_dir(&f, dir, "");
        p += len + (p[len] == ':');
    }
    const char *home = getenv("CUDA_HOME"), *cpath = getenv("CUDA_PATH");
    if (!home && !cpath)
        home = "/usr/local/cuda";
    add_dir(&f, home, "/lib64");
    add_dir(&f, home, "/lib");
    add_dir(&f, cpath, "/lib64");
    add_dir(&f, cpath, "/lib");

    for (size_t i = 0; i < n; i++)
        enqueue_needed(&f, elf_paths[i]);
    /* What the CUDA provider opens lazily, by the CUDA major release. */
    static const char *const lazy12[] = {"libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12",
                                         "libcufft.so.11", "libcurand.so.10", "libcudnn.so.9"};
    static const char *const lazy13[] = {"libcudart.so.13", "libcublas.so.13", "libcublasLt.so.13",
                                         "libcufft.so.12", "libcurand.so.10", "libcudnn.so.9"};
    const char *const *lazy = cuda >= 13000 ? lazy13 : lazy12;
    for (size_t i = 0; i < 6; i++)
        enqueue(&f, lazy[i]);

    for (size_t q = 0; q < f.queued; q++) {
        const char *name = f.queue[q];
        char *path = locate(&f, name);
        if (!path) {
            snprintf(f.missing + strlen(f.missing), sizeof f.missing - strlen(f.missing), "%s%s",
                     f.missing[0] ? ", " : "", name);
            continue;
        }
        f.deps[f.count].name = strdup(name);
        f.deps[f.count].path = path;
        if (!f.deps[f.count].name) {
            free(path);
            rc = ortkit__error_nomem();
            goto cleanup;
        }
        f.count++;
        enqueue_needed(&f, path);
        if (!strncmp(name, "libcudnn.so.", 12))
            enqueue_cudnn_parts(&f, path);
    }
    if (f.missing[0]) {
        rc = ortkit__error_set(ORTKIT_E_IO,
                               "a CUDA build needs %s beside it, not found in the source directory, "
                               "LD_LIBRARY_PATH, CUDA_HOME/CUDA_PATH or ldconfig's cache; point "
                               "LD_LIBRARY_PATH at the CUDA and cuDNN libraries", f.missing);
        goto cleanup;
    }
    qsort(f.deps, f.count, sizeof *f.deps, cmp_deps);
    *out = f.deps;
    *count = f.count;
    f.deps = NULL;
cleanup:
    ortkit__cuda_deps_free(f.deps, f.count);
    for (size_t i = 0; i < f.dir_count; i++)
        free(f.dirs[i]);
    for (size_t i = 0; i < f.queued; i++)
        free(f.queue[i]);
    free(f.ldcache);
    return rc;
}

void ortkit__cuda_deps_free(ortkit__dep *deps, size_t count)
{
    for (size_t i = 0; deps && i < count; i++) {
        free(deps[i].name);
        free(deps[i].path);
    }
    free(deps);
}
