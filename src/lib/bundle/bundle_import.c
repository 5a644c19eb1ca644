/*
 * bundle_import.c - make a bundle from a prebuilt ONNX Runtime.
 *
 * Everything is built in a hidden directory beside the destination
 * (".NAME.tmp-PID-N") and renamed into place in one step, so a failure, or
 * a kill, never leaves half a bundle under the bundle's name; a later import
 * of the same name removes what a dead process left behind.
 */
#include "bundle.h"
#include "abi.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef ORTKIT_ORT_HEADERS_DIR
#define ORTKIT_ORT_HEADERS_DIR ""
#endif

#define MAX_PROVIDER_LIBS 32

typedef struct import {
    const ortkit_bundle_import_options *opts;
    const char *src;
    char libdir[PATH_MAX];   /* where the library and its providers are */
    char top[PATH_MAX];      /* where licence files and include/ may be */
    char lib[PATH_MAX];      /* the library, links resolved */
    char include[PATH_MAX];  /* headers to copy ("" before one is found) */
    ortkit__elf elf;
    ortkit__probe_fn probe;
    const ortkit_variant *variant; /* NULL: any CPU */
    char version[64];
    int api_level;
    char **providers;
    size_t provider_count;
    char *prov_names[MAX_PROVIDER_LIBS]; /* provider libraries beside it */
    size_t prov_count;
    int has_cuda_provider;
    char name[BUNDLE_NAME_MAX + 1];
    char into[PATH_MAX], final[PATH_MAX], stage[PATH_MAX];
    char real_name[128];     /* "libonnxruntime.so.1.30.0" */
    char soname[128];
} import;

static int find_library(char out[PATH_MAX], const char *dir)
{
    static const char *const names[] = {"libonnxruntime.so", "libonnxruntime.so.1"};
    char path[PATH_MAX];
    struct stat st;
    /* A name too long for a path is a file that is not there. */
    for (size_t i = 0; i < 2; i++) {
        if (ortkit__pathf(path, sizeof path, "%s/%s", dir, names[i]) == 0 && stat(path, &st) == 0 &&
            S_ISREG(st.st_mode))
            return realpath(path, out) ? 1 : 0;
    }
    DIR *d = opendir(dir);
    int found = 0;
    for (struct dirent *e; d && !found && (e = readdir(d));) {
        if (strncmp(e->d_name, "libonnxruntime.so.", 18))
            continue;
        found = ortkit__pathf(path, sizeof path, "%s/%s", dir, e->d_name) == 0 &&
                stat(path, &st) == 0 && S_ISREG(st.st_mode) && realpath(path, out);
    }
    if (d)
        closedir(d);
    return found;
}

static int has_headers(const char *dir)
{
    char path[PATH_MAX];
    return ortkit__pathf(path, sizeof path, "%s/onnxruntime_c_api.h", dir) == 0 &&
           access(path, R_OK) == 0;
}

/* SRC is a library file, a directory holding one, or a release (lib/, include/). */
static int resolve_source(import *im)
{
    const char *src = im->src;
    struct stat st;
    char path[PATH_MAX], copy[PATH_MAX];
    int rc;
    if (stat(src, &st) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot import '%s': %s", src, strerror(errno));
    if (S_ISDIR(st.st_mode)) {
        if (!realpath(src, im->top))
            return ortkit__error_set(ORTKIT_E_IO, "cannot import '%s': %s", src, strerror(errno));
        if ((rc = ortkit__pathf(path, sizeof path, "%s/lib", im->top)))
            return ortkit__error_wrap(rc, "cannot import '%s'", src);
        if (find_library(im->lib, path))
            rc = ortkit__pathf(im->libdir, sizeof im->libdir, "%s", path);
        else if (find_library(im->lib, im->top))
            rc = ortkit__pathf(im->libdir, sizeof im->libdir, "%s", im->top);
        else
            return ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND,
                                     "cannot import '%s': no libonnxruntime.so* in it or in its lib/",
                                     src);
        if (rc)
            return ortkit__error_wrap(rc, "cannot import '%s'", src);
    } else {
        if (!realpath(src, im->lib))
            return ortkit__error_set(ORTKIT_E_IO, "cannot import '%s': %s", src, strerror(errno));
        /* The directory of the name given, not of the link's target: that is
         * where the provider libraries are. */
        if ((rc = ortkit__pathf(copy, sizeof copy, "%s", src)))
            return ortkit__error_wrap(rc, "cannot import '%s'", src);
        if (!realpath(dirname(copy), im->libdir))
            return ortkit__error_set(ORTKIT_E_IO, "cannot import '%s': %s", src, strerror(errno));
        const char *base = strrchr(im->libdir, '/');
        if (base && !strcmp(base, "/lib") && base != im->libdir)
            rc = ortkit__pathf(im->top, sizeof im->top, "%.*s", (int)(base - im->libdir), im->libdir);
        else
            rc = ortkit__pathf(im->top, sizeof im->top, "%s", im->libdir);
        if (rc)
            return ortkit__error_wrap(rc, "cannot import '%s'", src);
    }
    if ((rc = ortkit__pathf(path, sizeof path, "%s/include", im->top)) ||
        (rc = ortkit__pathf(copy, sizeof copy, "%s/include/onnxruntime", im->top)))
        return ortkit__error_wrap(rc, "cannot import '%s'", src);
    if (has_headers(path))
        rc = ortkit__pathf(im->include, sizeof im->include, "%s", path);
    else if (has_headers(copy))
        rc = ortkit__pathf(im->include, sizeof im->include, "%s", copy);
    else if (ORTKIT_ORT_HEADERS_DIR[0] && has_headers(ORTKIT_ORT_HEADERS_DIR))
        rc = ortkit__pathf(im->include, sizeof im->include, "%s", ORTKIT_ORT_HEADERS_DIR);
    else
        return ortkit__error_set(ORTKIT_E_IO, "cannot import '%s': no ONNX Runtime headers "
                                 "(onnxruntime_c_api.h) in it, and none built into ortkit", src);
    if (rc)
        return ortkit__error_wrap(rc, "cannot import '%s'", src);
    return ORTKIT_OK;
}

/* What the library is: its machine, then what it says when loaded. */
static int inspect_library(import *im)
{
    char mach[32], kind[48];
    int rc = ortkit__elf_read(&im->elf, im->lib);
    if (rc)
        return ortkit__error_wrap(rc, "cannot import '%s'", im->src);
    ortkit_arch arch = ortkit__elf_arch(im->elf.machine);
    if (im->elf.type != 3 /* ET_DYN */ || im->elf.executable)
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                                 "cannot import '%s': it is %s (%s), not a shared library", im->lib,
                                 ortkit__elf_kind(&im->elf, kind, sizeof kind),
                                 ortkit__elf_machine_name(im->elf.machine, mach, sizeof mach));
    if (im->elf.elf_class != 2 || im->elf.type != 3 /* ET_DYN */ || arch == ORTKIT_ARCH_UNKNOWN)
        return ortkit__error_set(ORTKIT_E_RUNTIME_INVALID,
                                 "cannot import '%s': not a 64-bit x86_64 or aarch64 shared library "
                                 "(%s)", im->lib, ortkit__elf_machine_name(im->elf.machine, mach, sizeof mach));
    if (im->variant && im->variant->arch != arch)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "cannot import '%s': it is built for %s, variant %s is for %s",
                                 im->lib, ortkit_arch_name(arch), im->variant->name,
                                 ortkit_arch_name(im->variant->arch));
    if (arch != ortkit__host_arch())
        return ortkit__error_set(ORTKIT_E_UNSUPPORTED,
                                 "cannot import '%s': it is built for %s and this machine is %s; "
                                 "ortkit reads the version by loading the library, so import it on "
                                 "an %s machine", im->lib, ortkit_arch_name(arch),
                                 ortkit_arch_name(ortkit__host_arch()), ortkit_arch_name(arch));
    ortkit__probe p;
    memset(&p, 0, sizeof p);
    if ((rc = im->probe(&p, im->lib)))
        return ortkit__error_wrap(rc, "cannot import '%s'", im->src);
    snprintf(im->version, sizeof im->version, "%s", p.version);
    /* ORT's C API level is its minor version. */
    ortkit__version v;
    const char *rest;
    im->api_level = ortkit__version_parse(&v, im->version, &rest) == 0 && v.n >= 2 ? (int)v.part[1] : 0;
    im->providers = p.providers;
    im->provider_count = p.provider_count;
    snprintf(im->soname, sizeof im->soname, "%s", im->elf.soname ? im->elf.soname : "");
    snprintf(im->real_name, sizeof im->real_name, "libonnxruntime.so.%s", im->version);
    return ORTKIT_OK;
}

/* Provider libraries beside the library; a CUDA one makes it a CUDA build. */
static int find_providers(import *im)
{
    DIR *d = opendir(im->libdir);
    if (!d)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", im->libdir, strerror(errno));
    for (struct dirent *e; (e = readdir(d)) && im->prov_count < MAX_PROVIDER_LIBS;) {
        if (strncmp(e->d_name, "libonnxruntime_providers_", 25) || !strstr(e->d_name, ".so"))
            continue;
        if ((im->prov_names[im->prov_count] = strdup(e->d_name)))
            im->prov_count++;
        if (!strcmp(e->d_name, "libonnxruntime_providers_cuda.so"))
            im->has_cuda_provider = 1;
    }
    closedir(d);
    int cuda = im->variant && im->variant->cuda;
    if (im->has_cuda_provider && !cuda)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "cannot import '%s': it is a CUDA build "
                                 "(libonnxruntime_providers_cuda.so); give its variant, e.g. "
                                 "--variant cuda12.9-sm90-avx2 (see 'ortkit variants')", im->src);
    if (cuda && !im->has_cuda_provider)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "cannot import '%s' as %s: there is no "
                                 "libonnxruntime_providers_cuda.so beside the library",
                                 im->src, im->variant->name);
    return ORTKIT_OK;
}

static int add_link(const import *im, const char *name, const char *target)
{
    char path[PATH_MAX];
    if (ortkit__pathf(path, sizeof path, "%s/lib/%s", im->stage, name))
        return ORTKIT_E_IO;
    if (symlink(target, path) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", path, strerror(errno));
    return ORTKIT_OK;
}

/* ---- putting it in place --------------------------------------------------- */

static atomic_uint stage_counter;

/* Remove what imports of this name that died (kill -9, a crash) left behind. */
static void remove_stale(const import *im)
{
    DIR *d = opendir(im->into);
    if (!d)
        return;
    char prefix[BUNDLE_NAME_MAX + 8];
    snprintf(prefix, sizeof prefix, ".%s.", im->name);
    size_t n = strlen(prefix);
    for (struct dirent *e; (e = readdir(d));) {
        const char *rest = e->d_name + n;
        if (strncmp(e->d_name, prefix, n) || (strncmp(rest, "tmp-", 4) && strncmp(rest, "old-", 4)))
            continue;
        long pid = strtol(rest + 4, NULL, 10);
        if (pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
            char path[PATH_MAX];
            if (!ortkit__pathf(path, sizeof path, "%s/%s", im->into, e->d_name))
                ortkit__rmtree(path);
        }
    }
    closedir(d);
}

static int commit(const import *im, int replace)
{
    if (!replace) {
        if (renameat2(AT_FDCWD, im->stage, AT_FDCWD, im->final, RENAME_NOREPLACE) == 0)
            return ORTKIT_OK;
        if (errno == EEXIST || errno == ENOTEMPTY)
            return ortkit__error_set(ORTKIT_E_IO, "bundle '%s' appeared in '%s' meanwhile; use "
                                     "--force to replace it", im->name, im->into);
        if (errno != EINVAL && errno != ENOSYS)
            return ortkit__error_set(ORTKIT_E_IO, "cannot rename into '%s': %s", im->final, strerror(errno));
        if (rename(im->stage, im->final) != 0)
            return ortkit__error_set(ORTKIT_E_IO, "cannot rename into '%s': %s", im->final, strerror(errno));
        return ORTKIT_OK;
    }
    /* Swap new and old in one step; the old one then sits at the stage name. */
    if (renameat2(AT_FDCWD, im->stage, AT_FDCWD, im->final, RENAME_EXCHANGE) == 0) {
        ortkit__rmtree(im->stage);
        return ORTKIT_OK;
    }
    if (errno != EINVAL && errno != ENOSYS)
        return ortkit__error_set(ORTKIT_E_IO, "cannot replace '%s': %s", im->final, strerror(errno));
    char old[PATH_MAX];
    if (ortkit__pathf(old, sizeof old, "%s/.%s.old-%ld-%u", im->into, im->name, (long)getpid(),
                      atomic_fetch_add(&stage_counter, 1)))
        return ORTKIT_E_IO;
    if (rename(im->final, old) != 0)
        return ortkit__error_set(ORTKIT_E_IO, "cannot replace '%s': %s", im->final, strerror(errno));
    if (rename(im->stage, im->final) != 0) {
        int rc = ortkit__error_set(ORTKIT_E_IO, "cannot replace '%s': %s", im->final, strerror(errno));
        rename(old, im->final);
        return rc;
    }
    ortkit__rmtree(old);
    return ORTKIT_OK;
}

/* Fill the staged bundle: libraries, headers, licences, .pc, CMake, manifest. */
static int build_stage(import *im, const char *variant)
{
    char path[PATH_MAX], from[PATH_MAX];
    int rc;
    if ((rc = ortkit__pathf(path, sizeof path, "%s/lib", im->stage)) || (rc = ortkit__mkdirs(path)) ||
        (rc = ortkit__pathf(path, sizeof path, "%s/lib/%s", im->stage, im->real_name)) ||
        (rc = ortkit__copy_file(im->lib, path, 0755)))
        return rc;
    /* The name the dynamic linker looks for (SONAME), and the one -lonnxruntime finds. */
    const char *so_link = im->real_name;
    if (im->soname[0] && strcmp(im->soname, im->real_name) && !strchr(im->soname, '/') &&
        !strncmp(im->soname, "libonnxruntime.so.", 18)) {
        if ((rc = add_link(im, im->soname, im->real_name)))
            return rc;
        so_link = im->soname;
    }
    if ((rc = add_link(im, "libonnxruntime.so", so_link)))
        return rc;

    for (size_t i = 0; i < im->prov_count; i++) {
        if ((rc = ortkit__pathf(from, sizeof from, "%s/%s", im->libdir, im->prov_names[i])) ||
            (rc = ortkit__pathf(path, sizeof path, "%s/lib/%s", im->stage, im->prov_names[i])) ||
            (rc = ortkit__copy_file(from, path, 0755)))
            return rc;
    }
    if (im->variant && im->variant->cuda) {
        /* What the library and its providers need (the source's copies: same content). */
        char *copies[MAX_PROVIDER_LIBS] = {0};
        const char *elf_paths[MAX_PROVIDER_LIBS + 1] = {im->lib};
        size_t n_elf = 1;
        for (size_t i = 0; i < im->prov_count; i++)
            if (asprintf(&copies[i], "%s/%s", im->libdir, im->prov_names[i]) >= 0)
                elf_paths[n_elf++] = copies[i];
        ortkit__dep *deps = NULL;
        size_t n = 0;
        rc = ortkit__cuda_deps(&deps, &n, elf_paths, n_elf, im->libdir, im->variant->cuda,
                               im->variant->arch);
        for (size_t i = 0; i < im->prov_count; i++)
            free(copies[i]);
        for (size_t i = 0; !rc && i < n; i++) {
            if (!(rc = ortkit__pathf(path, sizeof path, "%s/lib/%s", im->stage, deps[i].name)) &&
                access(path, F_OK) != 0)
                rc = ortkit__copy_file(deps[i].path, path, 0755);
        }
        ortkit__cuda_deps_free(deps, n);
        if (rc)
            return ortkit__error_wrap(rc, "cannot import '%s'", im->src);
    }
    if ((rc = ortkit__pathf(path, sizeof path, "%s/lib", im->stage)) ||
        (rc = ortkit__set_runpaths(path)) ||
        (rc = ortkit__pathf(path, sizeof path, "%s/include", im->stage)) ||
        (rc = ortkit__copy_tree(im->include, path)))
        return rc;
    static const char *const licences[] = {"LICENSE", "LICENSE.txt", "ThirdPartyNotices.txt",
                                           "NOTICE", "NOTICE.txt"};
    for (size_t i = 0; i < sizeof licences / sizeof licences[0]; i++) {
        struct stat st;
        if ((rc = ortkit__pathf(from, sizeof from, "%s/%s", im->top, licences[i])))
            return rc;
        if (stat(from, &st) != 0 || !S_ISREG(st.st_mode)) {
            if ((rc = ortkit__pathf(from, sizeof from, "%s/%s", im->libdir, licences[i])))
                return rc;
            if (stat(from, &st) != 0 || !S_ISREG(st.st_mode))
                continue;
        }
        if ((rc = ortkit__pathf(path, sizeof path, "%s/%s", im->stage, licences[i])) ||
            (rc = ortkit__copy_file(from, path, 0644)))
            return rc;
    }
    ortkit__layout lay = {im->stage, im->name, variant, im->version, im->real_name, im->soname};
    if ((rc = ortkit__write_dev_files(&lay)))
        return rc;

    char lib[256], created[64];
    snprintf(lib, sizeof lib, "lib/%s", im->real_name);
    snprintf(created, sizeof created, "ortkit %s", ortkit_version());
    ortkit_manifest m = {0};
    m.schema = ORTKIT_BUNDLE_SCHEMA;
    m.name = im->name;
    m.dir = "";
    m.created_by = created;
    m.ort_version = im->version;
    m.api_level = im->api_level;
    m.headers_api_level = ortkit__headers_api_level(im->stage);
    m.variant = variant;
    m.arch = ortkit__elf_arch(im->elf.machine);
    m.min_driver = "";
    if (im->variant) {
        m.cpu_features = im->variant->cpu_features;
        m.cuda = im->variant->cuda;
        m.sm = im->variant->sm;
        m.sm_exact = im->variant->sm_exact;
        m.tegra = im->variant->tegra;
        m.min_driver = im->variant->min_driver;
    }
    m.library = lib;
    m.provider_count = im->provider_count;
    m.providers = (const char *const *)im->providers;
    return ortkit__write_manifest(im->stage, &m);
}

static void import_free(import *im)
{
    ortkit__elf_free(&im->elf);
    for (size_t i = 0; i < im->provider_count; i++)
        free(im->providers[i]);
    free(im->providers);
    for (size_t i = 0; i < im->prov_count; i++)
        free(im->prov_names[i]);
}

ORTKIT__ABI_STRUCT(options_abi, ortkit_bundle_import_options, "import options",
                   "ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT", ORTKIT_BUNDLE_IMPORT_OPTIONS_VERSION,
                   sizeof(ortkit_bundle_import_options));

int ortkit__bundle_import_with(ortkit_bundle **out, const char *src,
                               const ortkit_bundle_import_options *opts, ortkit__probe_fn probe)
{
    if (out)
        *out = NULL;
    if (!src || !src[0])
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_bundle_import: no source");
    ortkit_bundle_import_options o = ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT;
    if (opts && ortkit__abi_read(&options_abi, &o, opts))
        return ORTKIT_E_INVALID_ARG;
    import *im = calloc(1, sizeof *im);
    if (!im)
        return ortkit__error_nomem();
    im->opts = &o;
    im->src = src;
    im->probe = probe;
    int rc = ORTKIT_OK, staged = 0, exists = 0;
    const char *variant = "cpu";
    struct stat st;

    if (im->opts->name && !ortkit__bundle_name_ok(im->opts->name)) {
        rc = ortkit__error_set(ORTKIT_E_INVALID_ARG,
                               "'%s' is not a bundle name: at most %d letters, digits, '.', '_', "
                               "'+' or '-', starting with a letter or digit", im->opts->name,
                               BUNDLE_NAME_MAX);
        goto cleanup;
    }
    if (im->opts->variant && strcmp(im->opts->variant, "cpu")) {
        if ((rc = ortkit_variant_parse(&im->variant, im->opts->variant)))
            goto cleanup;
        if (im->variant->defect[0]) {
            rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "variant %s cannot exist: %s",
                                   im->variant->name, im->variant->defect);
            goto cleanup;
        }
        variant = im->variant->name;
    }
    if ((rc = resolve_source(im)) || (rc = inspect_library(im)) || (rc = find_providers(im)))
        goto cleanup;
    snprintf(im->name, sizeof im->name, "%s", im->opts->name ? im->opts->name : "");
    if (!im->name[0] && ((size_t)snprintf(im->name, sizeof im->name, "ort-%s-%s", im->version,
                                          variant) >= sizeof im->name ||
                         !ortkit__bundle_name_ok(im->name))) {
        rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "cannot make a bundle name from version '%s' "
                               "and variant %s; give one with --name", im->version, variant);
        goto cleanup;
    }

    char user[PATH_MAX];
    const char *into = im->opts->into;
    if (!into && (rc = ortkit__bundle_user_dir(user, sizeof user)))
        goto cleanup;
    if ((rc = ortkit__mkdirs(into ? into : user)))
        goto cleanup;
    if (!realpath(into ? into : user, im->into)) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot use '%s': %s", into ? into : user, strerror(errno));
        goto cleanup;
    }
    if ((rc = ortkit__pathf(im->final, sizeof im->final, "%s/%s", im->into, im->name)))
        goto cleanup;
    if (lstat(im->final, &st) == 0) {
        char manifest[PATH_MAX + 16];
        snprintf(manifest, sizeof manifest, "%s/%s", im->final, BUNDLE_MANIFEST);
        exists = 1;
        if (!im->opts->force) {
            rc = ortkit__error_set(ORTKIT_E_IO, "bundle '%s' already exists in '%s'; use --force "
                                   "to replace it", im->name, im->into);
            goto cleanup;
        }
        if (!S_ISDIR(st.st_mode) || access(manifest, F_OK) != 0) {
            rc = ortkit__error_set(ORTKIT_E_IO, "'%s' exists and is not a bundle; not replacing it",
                                   im->final);
            goto cleanup;
        }
    }
    remove_stale(im);
    if ((rc = ortkit__pathf(im->stage, sizeof im->stage, "%s/.%s.tmp-%ld-%u", im->into, im->name,
                            (long)getpid(), atomic_fetch_add(&stage_counter, 1))))
        goto cleanup;
    if (mkdir(im->stage, 0777) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", im->stage, strerror(errno));
        goto cleanup;
    }
    staged = 1;
    if ((rc = build_stage(im, variant)) || (rc = commit(im, exists)))
        goto cleanup;
    staged = 0;
    if (out && (rc = ortkit_bundle_open(out, im->final)))
        goto cleanup;
cleanup:
    if (staged) {
        /* Keep the message of the failure, not of the clean-up. */
        char saved[1024];
        int code = ortkit_error_code();
        snprintf(saved, sizeof saved, "%s", ortkit_error_last());
        ortkit__rmtree(im->stage);
        ortkit__error_set(code, "%s", saved);
    }
    import_free(im);
    free(im);
    return rc;
}
