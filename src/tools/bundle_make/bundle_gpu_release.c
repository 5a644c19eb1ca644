/*
 * bundle_gpu_release.c - what a GPU release's provider libraries need, read
 * from the binaries: the ONNX Runtime release (its version string in each
 * provider's read-only data), the CUDA major (DT_NEEDED libcudart.so.N) and
 * the lowest minor the code allows, the cuDNN major, the driver floors, and
 * the GPU targets of the fat binaries.
 */

#include "bundle_make.h"
#include "host_cuda.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RODATA_MAX ((size_t)256 << 20)
#define CUDA_PROVIDER "libonnxruntime_providers_cuda.so"

const char *ortkit__gpu_driver_floor(int cuda)
{
    return cuda >= 13000 ? GPU_DRIVER_CUDA13 : GPU_DRIVER_CUDA12;
}

/* The first toolkit that writes PTX of this ISA (or newer). */
static const ortkit__cuda_toolkit *toolkit_of_ptx(int isa)
{
    size_t n;
    const ortkit__cuda_toolkit *toolkits = ortkit__cuda_toolkits(&n);
    for (size_t i = 0; i < n; i++)
        if (toolkits[i].ptx_isa >= isa)
            return &toolkits[i];
    return NULL;
}

const char *ortkit__gpu_ptx_driver(int isa)
{
    const ortkit__cuda_toolkit *t = toolkit_of_ptx(isa);
    return t ? t->driver : "";
}

/* "libcudart.so.12" -> 12; 0 when name is not base ".so." number. */
static int so_major(const char *name, const char *base)
{
    size_t n = strlen(base);
    if (strncmp(name, base, n) || strncmp(name + n, ".so.", 4))
        return 0;
    return atoi(name + n + 4);
}

/* "libcublasLt.so.13" in a file's .rodata (a library that opens another by
 * name, as cuDNN opens cuBLASLt and NVRTC): the major; 0 when none. */
static int rodata_cuda_major(const char *path, char *lib, size_t lib_size)
{
    static const char *const bases[] = {"libcublasLt.so.", "libnvrtc.so.", "libcudart.so."};
    unsigned char *data;
    size_t size;
    int major = 0;
    if (ortkit__elf_section_read(&data, &size, path, ".rodata", RODATA_MAX) != 0 || !data)
        return 0;
    for (size_t b = 0; !major && b < 3; b++) {
        size_t n = strlen(bases[b]);
        const unsigned char *p = data, *end = data + size;
        while (!major && (p = memmem(p, (size_t)(end - p), bases[b], n))) {
            p += n;
            if (p < end && *p >= '1' && *p <= '9') {
                major = atoi((const char *)p); /* .rodata strings end in NUL */
                snprintf(lib, lib_size, "%s%d", bases[b], major);
            }
        }
    }
    free(data);
    return major > 99 ? 0 : major;
}

void ortkit__gpu_library_majors(const char *path, const char *soname, int *cuda, int *cudnn,
                                char *evidence, size_t size)
{
    /* The sonames that carry the CUDA major (cuFFT's is one less). */
    static const struct {
        const char *base;
        int offset;
    } sonames[] = {{"libcudart", 0}, {"libcublasLt", 0}, {"libcublas", 0}, {"libnvrtc", 0},
                   {"libnvJitLink", 0}, {"libcufft", 1}};
    char lib[64];
    *cuda = 0;
    *cudnn = so_major(soname, "libcudnn");
    snprintf(evidence, size, "nothing in it says");
    for (size_t i = 0; i < sizeof sonames / sizeof sonames[0]; i++) {
        int m = so_major(soname, sonames[i].base);
        if (m) {
            *cuda = m + sonames[i].offset;
            snprintf(evidence, size, "its soname %s", soname);
            return;
        }
    }
    ortkit__elf e;
    if (ortkit__elf_read(&e, path) == 0) {
        for (size_t i = 0; !*cuda && i < e.needed_count; i++) {
            for (size_t k = 0; !*cuda && k < 3; k++)
                if ((*cuda = so_major(e.needed[i], sonames[k].base)))
                    snprintf(evidence, size, "it needs %s", e.needed[i]);
        }
        ortkit__elf_free(&e);
        if (*cuda)
            return;
    }
    if ((*cuda = rodata_cuda_major(path, lib, sizeof lib))) {
        snprintf(evidence, size, "it opens %s", lib);
        return;
    }
    /* cuDNN's small front library says nothing; its engines beside it do. */
    if (*cudnn) {
        char sibling[PATH_MAX], copy[PATH_MAX];
        snprintf(copy, sizeof copy, "%s", path);
        char *slash = strrchr(copy, '/');
        if (slash) {
            *slash = '\0';
            if (ortkit__pathf(sibling, sizeof sibling, "%s/libcudnn_engines_precompiled.so.%d", copy,
                              *cudnn) == 0 &&
                (*cuda = rodata_cuda_major(sibling, lib, sizeof lib))) {
                snprintf(evidence, size, "libcudnn_engines_precompiled.so.%d beside it opens %s",
                         *cudnn, lib);
                return;
            }
        }
    }
    ortkit__fatbin code;
    int found = 0;
    if (ortkit__fatbin_read(&code, &found, path) == 0 && found && code.ptx_isa) {
        const ortkit__cuda_toolkit *t = toolkit_of_ptx(code.ptx_isa);
        if (t) {
            *cuda = t->cuda / 1000;
            snprintf(evidence, size, "its PTX is ISA %d.%d, written by CUDA %d", code.ptx_isa / 10,
                     code.ptx_isa % 10, *cuda);
        }
    }
}

/* The ONNX Runtime versions ("1.19.2") a file holds as strings of their own
 * in .rodata: how ORT keeps its version.  list gets up to max, count all. */
static int rodata_versions(const char *path, char list[][16], size_t max, size_t *count)
{
    unsigned char *data;
    size_t size;
    *count = 0;
    int rc = ortkit__elf_section_read(&data, &size, path, ".rodata", RODATA_MAX);
    if (rc)
        return rc;
    for (size_t i = 1; i + 6 < size; i++) {
        if (data[i - 1] || data[i] != '1' || data[i + 1] != '.')
            continue;
        size_t n = strnlen((const char *)data + i, size - i);
        const char *s = (const char *)data + i;
        int a, b, c, used = 0;
        if (n >= 5 && n < 16 && i + n < size && sscanf(s, "%d.%d.%d%n", &a, &b, &c, &used) == 3 &&
            (size_t)used == n && b >= 10) {
            int seen = 0;
            for (size_t k = 0; k < *count && k < max; k++)
                seen |= !strcmp(list[k], s);
            if (!seen && *count < max)
                snprintf(list[(*count)++], 16, "%s", s);
        }
        i += n;
    }
    free(data);
    return ORTKIT_OK;
}

static int add_need(ortkit__gpu_release *rel, const char *name)
{
    for (size_t i = 0; i < rel->need_count; i++)
        if (!strcmp(rel->needs[i], name))
            return ORTKIT_OK;
    if (rel->need_count == GPU_NEEDS_MAX)
        return ORTKIT_OK;
    return (rel->needs[rel->need_count] = strdup(name)) ? (rel->need_count++, ORTKIT_OK)
                                                         : ortkit__error_nomem();
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One provider: same release as the core; the CUDA one says what it needs. */
static int read_provider(ortkit__gpu_release *rel, const char *path, const char *name,
                         const char *version)
{
    char found[8][16];
    size_t n;
    int rc = rodata_versions(path, found, 8, &n);
    if (rc)
        return rc;
    int same = 0, cuda = !strcmp(name, CUDA_PROVIDER);
    for (size_t i = 0; i < n && i < 8; i++)
        same |= !strcmp(found[i], version);
    /* The bridge (_shared) and some TensorRT builds hold no version: the
     * CUDA provider of the same directory vouches for the release. */
    if (!same && (n || cuda))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' is ONNX Runtime %s, the core is %s; "
                                 "take the providers of the core's release", name,
                                 n ? found[0] : "of no version it states", version);
    ortkit__fatbin code;
    int has_code;
    if ((rc = ortkit__fatbin_read(&code, &has_code, path)))
        return rc;
    for (size_t i = 0; has_code && i < code.sass_count; i++)
        if (rel->code.sass_count < ORTKIT__GPU_TARGETS_MAX) {
            /* Merged by re-walking would cost reads; keep each target once. */
            size_t k = 0;
            while (k < rel->code.sass_count && (rel->code.sass[k].sm != code.sass[i].sm ||
                                                rel->code.sass[k].suffix != code.sass[i].suffix))
                k++;
            if (k == rel->code.sass_count)
                rel->code.sass[rel->code.sass_count++] = code.sass[i];
        }
    for (size_t i = 0; has_code && i < code.ptx_count; i++) {
        size_t k = 0;
        while (k < rel->code.ptx_count && rel->code.ptx[k].sm != code.ptx[i].sm)
            k++;
        if (k == rel->code.ptx_count && k < ORTKIT__GPU_TARGETS_MAX)
            rel->code.ptx[rel->code.ptx_count++] = code.ptx[i];
    }
    if (code.ptx_isa > rel->code.ptx_isa)
        rel->code.ptx_isa = code.ptx_isa;
    if (!cuda)
        return ORTKIT_OK;

    ortkit__elf e;
    if ((rc = ortkit__elf_read(&e, path)))
        return rc;
    for (size_t i = 0; !rc && i < e.needed_count; i++) {
        int m = so_major(e.needed[i], "libcudart"), d = so_major(e.needed[i], "libcudnn");
        if (m)
            rel->cuda = m * 1000;
        if (d)
            rel->cudnn = d;
        if (ortkit__cuda_family(e.needed[i]))
            rc = add_need(rel, e.needed[i]);
    }
    ortkit__elf_free(&e);
    if (!rc && !rel->cuda)
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' names no libcudart.so.N among the libraries "
                               "it needs: cannot tell its CUDA release", name);
    return rc;
}

static int cmp_target(const void *a, const void *b)
{
    const ortkit__gpu_target *x = a, *y = b;
    return x->sm != y->sm ? x->sm - y->sm : x->suffix - y->suffix;
}

void ortkit__gpu_describe(char *buf, size_t size, const char *soname, int cuda)
{
    static const struct {
        const char *base, *what;
    } names[] = {{"libcudnn", "cuDNN"}, {"libcublasLt", "cuBLASLt"}, {"libcublas", "cuBLAS"},
                 {"libcudart", "the CUDA runtime"}, {"libcufft", "cuFFT"}, {"libcurand", "cuRAND"},
                 {"libnvrtc", "NVRTC"}, {"libnvJitLink", "nvJitLink"}, {"libcusparse", "cuSPARSE"},
                 {"libcusolver", "cuSOLVER"}};
    const char *dot = strstr(soname, ".so.");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i].base);
        if (!strncmp(soname, names[i].base, n) && (soname[n] == '.' || soname[n] == '_')) {
            if (!strcmp(names[i].base, "libcudnn"))
                snprintf(buf, size, "%s: cuDNN %s for CUDA %d", soname, dot ? dot + 4 : "?", cuda / 1000);
            else
                snprintf(buf, size, "%s: %s of CUDA %d", soname, names[i].what, cuda / 1000);
            return;
        }
    }
    snprintf(buf, size, "%s: a CUDA %d library", soname, cuda / 1000);
}

int ortkit__gpu_release_read(ortkit__gpu_release *out, const char *dir, const char *version,
                             const char *core)
{
    memset(out, 0, sizeof *out);
    int rc = ORTKIT_OK, has_cuda = 0;
    if (!realpath(dir, out->providers_dir))
        return ortkit__error_set(ORTKIT_E_IO, "cannot use providers '%s': %s", dir, strerror(errno));
    DIR *d = opendir(out->providers_dir);
    if (!d)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read providers '%s': %s", dir, strerror(errno));
    for (struct dirent *e; (e = readdir(d)) && out->file_count < 32;) {
        size_t n = strlen(e->d_name);
        if (strncmp(e->d_name, "libonnxruntime_providers_", 25) || n < 29 ||
            strcmp(e->d_name + n - 3, ".so"))
            continue;
        if (!(out->files[out->file_count++] = strdup(e->d_name))) {
            rc = ortkit__error_nomem();
            break;
        }
        has_cuda |= !strcmp(e->d_name, CUDA_PROVIDER);
    }
    closedir(d);
    if (rc)
        return rc;
    qsort(out->files, out->file_count, sizeof *out->files, cmp_str);
    if (!has_cuda)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "providers '%s' hold no %s: not a CUDA "
                                 "release's providers", dir, CUDA_PROVIDER);
    for (size_t i = 0; i < out->file_count; i++) {
        char path[PATH_MAX];
        struct stat st;
        if ((rc = ortkit__pathf(path, sizeof path, "%s/%s", out->providers_dir, out->files[i])))
            return rc;
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            return ortkit__error_set(ORTKIT_E_FORMAT, "provider '%s' is not a regular file", path);
        if ((rc = read_provider(out, path, out->files[i], version)))
            return rc;
    }
    char cuda_path[PATH_MAX];
    if (core && !ortkit__pathf(cuda_path, sizeof cuda_path, "%s/%s", out->providers_dir, CUDA_PROVIDER) &&
        ortkit__bridge_lacks_cuda_core(cuda_path, core))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "this core was built without CUDA (it does not export "
                                 "OrtSessionOptionsAppendExecutionProvider_CUDA), and %s in '%s' is a "
                                 "provider-bridge library that needs one built with CUDA (with this "
                                 "core it crashes on If, Loop, Einsum, GatherElements and other shared "
                                 "kernels); take the libonnxruntime.so of the same GPU release",
                                 CUDA_PROVIDER, out->providers_dir);
    qsort(out->code.sass, out->code.sass_count, sizeof out->code.sass[0], cmp_target);
    qsort(out->code.ptx, out->code.ptx_count, sizeof out->code.ptx[0], cmp_target);

    /* The minor: the lowest toolkit that writes its PTX, or that knows its
     * newest SASS (SM 10.0 and 12.0 came with CUDA 12.8). */
    int major = out->cuda / 1000, minor = 0;
    const ortkit__cuda_toolkit *t = out->code.ptx_isa ? toolkit_of_ptx(out->code.ptx_isa) : NULL;
    if (t && t->cuda / 1000 == major)
        minor = (t->cuda % 1000) / 10;
    int top = out->code.sass_count ? out->code.sass[out->code.sass_count - 1].sm : 0;
    if (major == 12 && top >= 100 && minor < 8)
        minor = 8;
    out->cuda = major * 1000 + minor * 10;
    /* ORT 1.19 and later load cuDNN 9 by name when it is not linked. */
    if (!out->cudnn)
        out->cudnn = 9;
    size_t n_lazy;
    const char *const *lazy = ortkit__cuda_lazy(out->cuda, &n_lazy);
    for (size_t i = 0; !rc && i < n_lazy; i++)
        rc = add_need(out, lazy[i]);
    if (rc)
        return rc;
    qsort(out->needs, out->need_count, sizeof *out->needs, cmp_str);
    for (size_t i = 0; i < out->need_count; i++) {
        char what[160];
        ortkit__gpu_describe(what, sizeof what, out->needs[i], out->cuda);
        if (!(out->missing[i] = strdup(what)))
            return ortkit__error_nomem();
    }
    snprintf(out->min_driver, sizeof out->min_driver, "%s", ortkit__gpu_driver_floor(out->cuda));
    snprintf(out->ptx_driver, sizeof out->ptx_driver, "%s",
             out->code.ptx_count ? ortkit__gpu_ptx_driver(out->code.ptx_isa) : "");
    snprintf(out->variant, sizeof out->variant, "cuda%d", major);
    return ORTKIT_OK;
}

void ortkit__gpu_release_free(ortkit__gpu_release *rel)
{
    for (size_t i = 0; i < rel->file_count; i++)
        free(rel->files[i]);
    for (size_t i = 0; i < rel->need_count; i++) {
        free(rel->needs[i]);
        free(rel->missing[i]);
    }
    rel->file_count = rel->need_count = 0;
}

int ortkit__copy_elf_origin(const char *from, const char *to, const ortkit__cancel *cancel)
{
    ortkit__elf e;
    int rc = ortkit__elf_read(&e, from);
    if (rc)
        return rc;
    int fine = ortkit__elf_origin(e.runpath) && !e.rpath;
    ortkit__elf_free(&e);
    if (fine)
        return ortkit__copy_file(from, to, 0755, cancel);
    if ((rc = ortkit__cancelled(cancel)))
        return rc;
    /* Written once with its RUNPATH, rather than copied and then rewritten. */
    const char *const argv[] = {"patchelf", "--set-rpath", "$ORIGIN", "--output", to, from, NULL};
    char *output = NULL;
    int status;
    if ((rc = ortkit__spawn(argv, 1, &output, &status)))
        rc = ortkit__error_wrap(rc, "cannot set RUNPATH of '%s' (install patchelf)", from);
    else if (status != 0)
        rc = ortkit__error_set(ORTKIT_E_IO, "patchelf failed on '%s': %.200s", from,
                               output && output[0] ? output : "no message");
    else if (chmod(to, 0755) != 0)
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot chmod '%s': %s", to, strerror(errno));
    free(output);
    return rc;
}

int ortkit__gpu_release_stage(const ortkit__gpu_release *rel, const char *stage, ortkit_manifest *m,
                              const char **names, char (*bufs)[24], const ortkit__cancel *cancel)
{
    int rc;
    for (size_t i = 0; i < rel->file_count; i++) {
        char from[PATH_MAX], to[PATH_MAX];
        if ((rc = ortkit__pathf(from, sizeof from, "%s/%s", rel->providers_dir, rel->files[i])) ||
            (rc = ortkit__pathf(to, sizeof to, "%s/lib/%s", stage, rel->files[i])))
            return rc;
        /* The release's own copy wins over one the core brought. */
        if (unlink(to) != 0 && errno != ENOENT)
            return ortkit__error_set(ORTKIT_E_IO, "cannot replace '%s': %s", to, strerror(errno));
        if ((rc = ortkit__copy_elf_origin(from, to, cancel)))
            return rc;
    }
    m->gpu_known = 1;
    m->gpu_cuda = rel->cuda;
    m->gpu_cudnn = rel->cudnn;
    m->gpu_min_driver = rel->min_driver;
    m->gpu_ptx_driver = rel->ptx_driver;
    size_t k = 0;
    for (size_t i = 0; i < rel->code.sass_count; i++, k++)
        names[k] = ortkit__gpu_target_name(&rel->code.sass[i], 0, bufs[k], 24);
    m->gpu_sass = names;
    m->gpu_sass_count = rel->code.sass_count;
    for (size_t i = 0; i < rel->code.ptx_count; i++, k++)
        names[k] = ortkit__gpu_target_name(&rel->code.ptx[i], 1, bufs[k], 24);
    m->gpu_ptx = names + rel->code.sass_count;
    m->gpu_ptx_count = rel->code.ptx_count;
    m->gpu_needs = (const char *const *)rel->needs;
    m->gpu_need_count = rel->need_count;
    /* Nothing is carried yet: `ortkit bundle complete` adds the libraries. */
    m->gpu_missing = (const char *const *)rel->missing;
    m->gpu_missing_count = rel->need_count;
    m->gpu_complete = rel->need_count == 0;
    return ORTKIT_OK;
}
