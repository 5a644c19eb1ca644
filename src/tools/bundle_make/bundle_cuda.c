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
#include "bundle_make.h"

#include <dirent.h>
#include <glob.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DEPS 256

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
    int cuda_major;  /* refuse libraries built for another CUDA major; 0: take any */
    char *rejected[MAX_DEPS]; /* per queue entry: why copies found were passed over */
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

/* A library of another CUDA major is passed over, and why is kept. */
static int right_major(finder *f, const char *name, const char *path, size_t q)
{
    int cuda, cudnn;
    char evidence[160];
    if (!f->cuda_major)
        return 1;
    ortkit__gpu_library_majors(path, name, &cuda, &cudnn, evidence, sizeof evidence);
    if (!cuda || cuda == f->cuda_major)
        return 1;
    /* Named once, by where it really is (lib64 and lib are often one). */
    char real[PATH_MAX], *old = f->rejected[q], *now = NULL;
    if (!realpath(path, real))
        snprintf(real, sizeof real, "%s", path);
    if (old && strstr(old, real))
        return 0;
    if (asprintf(&now, "%s%s%s: built for CUDA %d (%s)", old ? old : "", old ? "; " : "", real, cuda,
                 evidence) >= 0) {
        free(old);
        f->rejected[q] = now;
    }
    return 0;
}

/* Code others could change is code others could run: a library is taken
 * only from where no one but the user or root can replace it (the rule
 * bundles follow, for the file and every directory on the way to it). */
static int trusted(finder *f, const char *path, size_t q)
{
    char why[PATH_MAX + 128], *old = f->rejected[q], *now = NULL;
    if (ortkit__path_trusted(path, why, sizeof why) == 0)
        return 1;
    if (old && strstr(old, why))
        return 0;
    if (asprintf(&now, "%s%s%s: %s", old ? old : "", old ? "; " : "", path, why) >= 0) {
        free(old);
        f->rejected[q] = now;
    }
    return 0;
}

static char *ldcache_lookup(finder *f, const char *name, size_t q)
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
            if (usable(f, path) && trusted(f, path, q) && right_major(f, name, path, q))
                return strdup(path);
        }
        line = end ? end + 1 : line + len;
    }
    return NULL;
}

static char *locate(finder *f, const char *name, size_t q)
{
    char path[PATH_MAX];
    for (size_t i = 0; i < f->dir_count; i++) {
        snprintf(path, sizeof path, "%s/%s", f->dirs[i], name);
        if (usable(f, path) && trusted(f, path, q) && right_major(f, name, path, q))
            return strdup(path);
    }
    return ldcache_lookup(f, name, q);
}

static void enqueue(finder *f, const char *name)
{
    if (!ortkit__cuda_family(name) || f->queued == MAX_DEPS)
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

static void finder_free(finder *f)
{
    ortkit__cuda_deps_free(f->deps, f->count);
    for (size_t i = 0; i < f->dir_count; i++)
        free(f->dirs[i]);
    for (size_t i = 0; i < f->queued; i++) {
        free(f->queue[i]);
        free(f->rejected[i]);
    }
    free(f->ldcache);
}

/* Find what the queue names, following each library's own needs. */
static int resolve(finder *f, ortkit__cuda_found *res)
{
    for (size_t q = 0; q < f->queued; q++) {
        const char *name = f->queue[q];
        char *path = locate(f, name, q);
        if (!path) {
            char *text = NULL;
            if (asprintf(&text, "%s%s%s", name, f->rejected[q] ? "; passed over: " : "",
                         f->rejected[q] ? f->rejected[q] : "") < 0)
                return ortkit__error_nomem();
            res->missing[res->missing_count++] = text;
            continue;
        }
        f->deps[f->count].name = strdup(name);
        f->deps[f->count].path = path;
        if (!f->deps[f->count].name) {
            free(path);
            return ortkit__error_nomem();
        }
        f->count++;
        enqueue_needed(f, path);
        if (!strncmp(name, "libcudnn.so.", 12))
            enqueue_cudnn_parts(f, path);
    }
    qsort(f->deps, f->count, sizeof *f->deps, cmp_deps);
    res->deps = f->deps;
    res->count = f->count;
    f->deps = NULL;
    f->count = 0;
    return ORTKIT_OK;
}

static void add_env_dirs(finder *f)
{
    for (ortkit__path_list it = {.rest = ortkit__env("LD_LIBRARY_PATH")};
         ortkit__path_list_next(&it);) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)it.len, it.entry);
        add_dir(f, dir, "");
    }
    const char *home = ortkit__env("CUDA_HOME"), *cpath = ortkit__env("CUDA_PATH");
    if (!home && !cpath)
        home = "/usr/local/cuda";
    add_dir(f, home, "/lib64");
    add_dir(f, home, "/lib");
    add_dir(f, cpath, "/lib64");
    add_dir(f, cpath, "/lib");
}

/* pip's layout: site-packages/nvidia/<package>/lib, below dir. */
static void add_pip_dirs(finder *f, const char *dir)
{
    static const char *const patterns[] = {"/nvidia/*/lib", "/site-packages/nvidia/*/lib",
                                           "/lib/python3*/site-packages/nvidia/*/lib",
                                           "/dist-packages/nvidia/*/lib",
                                           "/lib/python3*/dist-packages/nvidia/*/lib"};
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        char pattern[PATH_MAX];
        glob_t g;
        snprintf(pattern, sizeof pattern, "%s%s", dir, patterns[i]);
        if (glob(pattern, 0, NULL, &g) != 0)
            continue;
        for (size_t k = 0; k < g.gl_pathc; k++)
            add_dir(f, g.gl_pathv[k], "");
        globfree(&g);
    }
}

int ortkit__cuda_find(ortkit__cuda_found *res, const ortkit__cuda_query *q)
{
    memset(res, 0, sizeof *res);
    finder f;
    memset(&f, 0, sizeof f);
    f.arch = q->arch;
    f.cuda_major = q->check_major ? q->cuda / 1000 : 0;
    if (!(f.deps = calloc(MAX_DEPS, sizeof *f.deps)) ||
        !(res->missing = calloc(MAX_DEPS, sizeof *res->missing))) {
        free(f.deps);
        return ortkit__error_nomem();
    }
    for (size_t i = 0; i < q->dir_count; i++) {
        add_dir(&f, q->dirs[i], "");
        if (q->pip)
            add_pip_dirs(&f, q->dirs[i]);
    }
    add_env_dirs(&f);
    if (q->pip) {
        /* The Python installations' own packages. */
        const char *home = ortkit__home_dir();
        add_pip_dirs(&f, "/usr/local");
        add_pip_dirs(&f, "/usr");
        if (home) {
            char local[PATH_MAX];
            snprintf(local, sizeof local, "%s/.local", home);
            add_pip_dirs(&f, local);
        }
    }
    for (size_t i = 0; i < q->elf_count; i++)
        enqueue_needed(&f, q->elf_paths[i]);
    for (size_t i = 0; i < q->name_count; i++)
        enqueue(&f, q->names[i]);
    int rc = resolve(&f, res);
    finder_free(&f);
    if (rc)
        ortkit__cuda_found_free(res);
    return rc;
}

void ortkit__cuda_found_free(ortkit__cuda_found *res)
{
    ortkit__cuda_deps_free(res->deps, res->count);
    for (size_t i = 0; i < res->missing_count; i++)
        free(res->missing[i]);
    free(res->missing);
    memset(res, 0, sizeof *res);
}

int ortkit__cuda_deps(ortkit__dep **out, size_t *count, const char *const *elf_paths, size_t n,
                      const char *srcdir, int cuda, ortkit_arch arch)
{
    *out = NULL;
    *count = 0;
    size_t n_lazy;
    const char *const *lazy = ortkit__cuda_lazy(cuda, &n_lazy);
    ortkit__cuda_query q = {elf_paths, n, lazy, n_lazy, &srcdir, srcdir ? 1 : 0, cuda, arch, 0, 0};
    ortkit__cuda_found res;
    int rc = ortkit__cuda_find(&res, &q);
    if (rc)
        return rc;
    if (res.missing_count) {
        char missing[512] = "";
        for (size_t i = 0; i < res.missing_count; i++)
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s",
                     i ? ", " : "", res.missing[i]);
        rc = ortkit__error_set(ORTKIT_E_IO,
                               "a CUDA build needs %s beside it, not found in the source directory, "
                               "LD_LIBRARY_PATH, CUDA_HOME/CUDA_PATH or ldconfig's cache; point "
                               "LD_LIBRARY_PATH at the CUDA and cuDNN libraries", missing);
        ortkit__cuda_found_free(&res);
        return rc;
    }
    *out = res.deps;
    *count = res.count;
    res.deps = NULL;
    res.count = 0;
    ortkit__cuda_found_free(&res);
    return ORTKIT_OK;
}

void ortkit__cuda_deps_free(ortkit__dep *deps, size_t count)
{
    for (size_t i = 0; deps && i < count; i++) {
        free(deps[i].name);
        free(deps[i].path);
    }
    free(deps);
}
