/*
 * bundle_import.c - make a bundle from a prebuilt ONNX Runtime.
 *
 * Everything is built in a hidden directory beside the destination
 * (".NAME.tmp-PID-N") and renamed into place in one step, so a failure, or
 * a kill, never leaves half a bundle under the bundle's name; a later import
 * into the same directory removes what a dead process left behind.  The
 * caller's cancel callback is polled while files are copied and hashed: a
 * cancelled import removes its temporary directory and fails with
 * ORTKIT_E_CANCELLED (the library installs no signal handler).
 *
 * Nothing is taken from outside the source: every file imported from it is
 * resolved, and a symbolic link that leads out of the source tree, a loop or
 * a file that is not regular is an error naming it, found before anything
 * is loaded or written.  Only the library given by name (a file, or a link
 * to one) is taken wherever its link points.
 */
#include "bundle_make.h"
#include "abi.h"

#include <cjson/cJSON.h>

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

#ifndef ORTKIT_INSTALLED_HEADER_DIRS
#define ORTKIT_INSTALLED_HEADER_DIRS ""
#endif
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
    char inc_root[PATH_MAX]; /* headers to copy: inc_root/inc_rel */
    char inc_rel[32];
    ortkit__elf elf;
    ortkit__probe_fn probe;
    const ortkit_variant *variant; /* NULL: any CPU */
    char version[64];
    char version_from[200];
    int loaded;              /* the library was loaded to check it */
    int api_level;
    ortkit__strv providers;  /* what the library reports, when loaded */
    char *prov_names[MAX_PROVIDER_LIBS]; /* provider libraries beside it */
    size_t prov_count;
    int has_cuda_provider;
    char name[BUNDLE_NAME_MAX + 1];
    char into[PATH_MAX], final[PATH_MAX], stage[PATH_MAX];
    char real_name[128];     /* "libonnxruntime.so.1.30.0" */
    char soname[128];
    char *licences[8];       /* licence files found (resolved), and their names */
    const char *licence_names[8];
    size_t licence_count;
    ortkit__cancel cancel;
    ortkit__gpu_release *gpu; /* a GPU release's providers; NULL */
    /* Where a GPU release's providers are: --providers, or the library's
     * own directory when a CUDA provider lies beside it (both forms of
     * import take a release the same way); "" for none. */
    char gpu_dir[PATH_MAX];
    int gpu_major;            /* --variant cudaN: the release's CUDA major; 0 */
    ortkit_cuda_platform platform; /* a CUDA build's; UNKNOWN for a CPU build */
} import;

/* libdir relative to top: "lib", or "" when they are the same. */
static const char *libdir_rel(const import *im)
{
    size_t n = strlen(im->top);
    return im->libdir[n] == '/' ? im->libdir + n + 1 : "";
}

/* The file name beside the library, relative to top: "lib/NAME" or "NAME". */
static int beside_lib(char rel[PATH_MAX], const import *im, const char *name)
{
    const char *l = libdir_rel(im);
    return ortkit__pathf(rel, PATH_MAX, "%s%s%s", l, l[0] ? "/" : "", name);
}

static int has_headers(const char *dir)
{
    char path[PATH_MAX];
    return ortkit__pathf(path, sizeof path, "%s/onnxruntime_c_api.h", dir) == 0 &&
           access(path, R_OK) == 0;
}

/* The headers ortkit brings: an installed tree's DATADIR/ortkit/ort-headers
 * (found from where ortkit's code lies), else the build tree's. */
static int own_headers(char *dir, size_t size)
{
    if (ortkit__self_find(dir, size, ORTKIT_INSTALLED_HEADER_DIRS, "onnxruntime_c_api.h", R_OK) == 0) {
        *strrchr(dir, '/') = '\0';
        return 0;
    }
    if (ORTKIT_ORT_HEADERS_DIR[0] && has_headers(ORTKIT_ORT_HEADERS_DIR))
        return ortkit__pathf(dir, size, "%s", ORTKIT_ORT_HEADERS_DIR) ? -1 : 0;
    return -1;
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
        /* A directory: the library found in it must lie in it, like the rest. */
        char name[256], rel[300], passed[PATH_MAX + 80] = "";
        struct stat lst;
        if (!realpath(src, im->top))
            return ortkit__error_set(ORTKIT_E_IO, "cannot import '%s': %s", src, strerror(errno));
        if ((rc = ortkit__pathf(path, sizeof path, "%s/lib", im->top)))
            return ortkit__error_wrap(rc, "cannot import '%s'", src);
        if (ortkit__ort_library_in_dir(name, sizeof name, path, passed, sizeof passed))
            snprintf(rel, sizeof rel, "lib/%s", name);
        else if (ortkit__ort_library_in_dir(name, sizeof name, im->top, passed, sizeof passed))
            snprintf(rel, sizeof rel, "%s", name);
        else
            return ortkit__error_set(ORTKIT_E_RUNTIME_NOT_FOUND,
                                     "cannot import '%s': no libonnxruntime.so* in it or in its "
                                     "lib/%s%s", src, passed[0] ? ": " : "", passed);
        if ((rc = ortkit__source_resolve(im->lib, &lst, im->top, rel)))
            return ortkit__error_wrap(rc, "cannot import '%s'", src);
        if ((rc = ortkit__pathf(im->libdir, sizeof im->libdir, "%s%s", im->top,
                                strchr(rel, '/') ? "/lib" : "")))
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
    /* The headers: the source's own (checked with the rest), else ortkit's. */
    if ((rc = ortkit__pathf(path, sizeof path, "%s/include", im->top)) ||
        (rc = ortkit__pathf(copy, sizeof copy, "%s/include/onnxruntime", im->top)))
        return ortkit__error_wrap(rc, "cannot import '%s'", src);
    if (has_headers(path) || has_headers(copy)) {
        snprintf(im->inc_root, sizeof im->inc_root, "%s", im->top);
        snprintf(im->inc_rel, sizeof im->inc_rel, "%s",
                 has_headers(path) ? "include" : "include/onnxruntime");
    } else if (own_headers(copy, sizeof copy) == 0) {
        if (!realpath(copy, im->inc_root))
            return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", copy, strerror(errno));
        im->inc_rel[0] = '\0';
    } else {
        return ortkit__error_set(ORTKIT_E_IO, "cannot import '%s': no ONNX Runtime headers "
                                 "(onnxruntime_c_api.h) in it, and none installed with ortkit "
                                 "(share/ortkit/ort-headers)", src);
    }
    return ORTKIT_OK;
}

/* A file import takes from the source, by its name there: resolved into
 * out, and a regular file. */
static int source_file(const import *im, char out[PATH_MAX], const char *rel)
{
    struct stat st;
    int rc = ortkit__source_resolve(out, &st, im->top, rel);
    if (!rc && !S_ISREG(st.st_mode))
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is %s, not a regular file", rel,
                               S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket"
                               : S_ISDIR(st.st_mode) ? "a directory" : "a device");
    return rc ? ortkit__error_wrap(rc, "cannot import '%s'", im->src) : ORTKIT_OK;
}

/*
 * Everything else import takes from the source, checked before anything is
 * loaded or written: the provider libraries, the licence files (top level,
 * else beside the library; a directory of that name is passed over), and
 * the headers' tree.
 */
static int check_source(import *im)
{
    char rel[PATH_MAX], real[PATH_MAX];
    const char *lrel = libdir_rel(im);
    int rc;
    for (size_t i = 0; i < im->prov_count; i++) {
        if ((rc = beside_lib(rel, im, im->prov_names[i])) || (rc = source_file(im, real, rel)))
            return rc;
    }
    static const char *const licences[] = {"LICENSE", "LICENSE.txt", "ThirdPartyNotices.txt",
                                           "NOTICE", "NOTICE.txt"};
    for (size_t i = 0; i < sizeof licences / sizeof licences[0]; i++) {
        for (int beside = 0; beside < 2; beside++) {
            struct stat st;
            if (beside && !lrel[0])
                break;
            if ((rc = beside ? beside_lib(rel, im, licences[i])
                             : ortkit__pathf(rel, sizeof rel, "%s", licences[i])) ||
                (rc = ortkit__pathf(real, sizeof real, "%s/%s", im->top, rel)))
                return ortkit__error_wrap(rc, "cannot import '%s'", im->src);
            if (lstat(real, &st) != 0)
                continue;
            if ((rc = ortkit__source_resolve(real, &st, im->top, rel)))
                return ortkit__error_wrap(rc, "cannot import '%s'", im->src);
            if (S_ISDIR(st.st_mode))
                continue;
            if ((rc = source_file(im, real, rel)))
                return rc;
            if (!(im->licences[im->licence_count] = strdup(real)))
                return ortkit__error_nomem();
            im->licence_names[im->licence_count++] = licences[i];
            break;
        }
    }
    if ((rc = ortkit__copy_tree(im->inc_root, im->inc_rel, NULL, &im->cancel)))
        return ortkit__error_wrap(rc, "cannot import '%s'", im->src);
    return ORTKIT_OK;
}

/* Is a DT_NEEDED name one of the files the bundle carries beside the library? */
static int carried(const import *im, const char *name)
{
    for (size_t i = 0; i < im->prov_count; i++)
        if (!strcmp(im->prov_names[i], name))
            return 1;
    return !strncmp(name, "libonnxruntime.so", 17);
}

/* May the library be loaded here to check it: this machine's architecture,
 * and the C and C++ libraries and every library it needs present? */
static int loadable_here(const import *im, ortkit_arch arch)
{
    if (im->opts->no_load || arch != ortkit_arch_here())
        return 0;
    ortkit_host *h = NULL;
    if (ortkit_host_detect(&h) != 0)
        return 0;
    const char **libs = calloc(im->elf.needed_count + 1, sizeof *libs);
    size_t n = 0;
    for (size_t i = 0; libs && i < im->elf.needed_count; i++)
        if (!carried(im, im->elf.needed[i]))
            libs[n++] = im->elf.needed[i];
    char why[512];
    /* An override of the needs may let selection take a bundle, never let
     * import load a library the loader would refuse. */
    int ok = libs && ortkit__needs_met(h, im->elf.need_glibc, im->elf.need_glibcxx,
                                       im->elf.exec_stack, libs, n, why, sizeof why) == 1 &&
             !strstr(why, "ignored");
    free(libs);
    ortkit_host_free(h);
    return ok;
}

/* What the library is, from its ELF file; then, where this host can load
 * it, what it says when loaded, which must agree. */
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
    snprintf(im->soname, sizeof im->soname, "%s", im->elf.soname ? im->elf.soname : "");
    ortkit__ort_version ov;
    if ((rc = ortkit__ort_version_read(&ov, im->lib, im->soname, im->opts->ort_version)))
        return ortkit__error_wrap(rc, "cannot import '%s'", im->src);
    snprintf(im->version, sizeof im->version, "%s", ov.version);
    snprintf(im->version_from, sizeof im->version_from, "%s", ov.from);
    if (loadable_here(im, arch) && im->probe) {
        ortkit__probe p;
        memset(&p, 0, sizeof p);
        if ((rc = im->probe(&p, im->lib)))
            return ortkit__error_wrap(rc, "cannot import '%s'", im->src);
        im->providers = p.providers;
        if (strcmp(p.version, im->version))
            return ortkit__error_set(ORTKIT_E_FORMAT,
                                     "cannot import '%s': loaded, it reports ONNX Runtime %s, but %s "
                                     "says %s", im->src, p.version, ov.from, im->version);
        im->loaded = 1;
        snprintf(im->version_from + strlen(im->version_from),
                 sizeof im->version_from - strlen(im->version_from), ", confirmed by loading it");
    }
    /* ORT's C API level is its minor version. */
    ortkit__version v;
    const char *rest;
    im->api_level = ortkit__version_parse(&v, im->version, &rest) == 0 && v.n >= 2 ? (int)v.part[1] : 0;
    snprintf(im->real_name, sizeof im->real_name, "libonnxruntime.so.%s", im->version);
    return ORTKIT_OK;
}

/* Provider libraries beside the library.  A CUDA one makes it a GPU
 * release, imported as with --providers on its own directory: the
 * providers' needs and GPU code read from their binaries, the CUDA
 * libraries left to `bundle complete`.  With --providers they come from
 * that directory alone, which may be the library's own. */
static int find_providers(import *im)
{
    if (im->opts->providers)
        return ortkit__pathf(im->gpu_dir, sizeof im->gpu_dir, "%s", im->opts->providers);
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
    int cuda = (im->variant && im->variant->cuda) || im->gpu_major;
    if (cuda && !im->has_cuda_provider)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "cannot import '%s' as %s: there is no "
                                 "libonnxruntime_providers_cuda.so beside the library",
                                 im->src, im->opts->variant);
    if (!im->has_cuda_provider)
        return ORTKIT_OK;
    if (im->variant && !im->variant->cuda)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "cannot import '%s' as %s: it is a CUDA build "
                                 "(libonnxruntime_providers_cuda.so beside the library), and variant "
                                 "%s is for the CPU only", im->src, im->variant->name,
                                 im->variant->name);
    /* The release's providers are copied from their directory with the
     * release's checks, not as files beside the library. */
    for (size_t i = 0; i < im->prov_count; i++)
        free(im->prov_names[i]);
    im->prov_count = 0;
    return ortkit__pathf(im->gpu_dir, sizeof im->gpu_dir, "%s", im->libdir);
}

/* What a named CUDA variant promises, held to what its providers' binaries
 * show: the CUDA major they link and SASS for the variant's GPU. */
static int variant_matches_release(const import *im)
{
    const ortkit_variant *v = im->variant;
    const ortkit__gpu_release *g = im->gpu;
    if (!v) /* --variant cudaN: the major alone */
        return g->cuda / 1000 == im->gpu_major
                   ? ORTKIT_OK
                   : ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                       "cannot import '%s' as %s: its CUDA provider is built for "
                                       "CUDA %d", im->src, im->opts->variant, g->cuda / 1000);
    if (g->cuda / 1000 != v->cuda / 1000)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "cannot import '%s' as %s: its CUDA provider is built for CUDA "
                                 "%d, the variant is CUDA %d", im->src, v->name, g->cuda / 1000,
                                 v->cuda / 1000);
    char have[512] = "";
    for (size_t i = 0; i < g->code.sass_count; i++) {
        char name[24];
        ortkit__gpu_target_name(&g->code.sass[i], 0, name, sizeof name);
        if (!strcmp(name, v->cubin))
            return ORTKIT_OK;
        snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s", i ? " " : "", name);
    }
    return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                             "cannot import '%s' as %s: its providers carry no %s code (SASS: %s)",
                             im->src, v->name, v->cubin, have[0] ? have : "none");
}

/* A GPU release's providers from their own directory (--providers): what
 * they need and the GPU code they carry, read from the binaries.  A variant
 * given too names the bundle and its CPU needs, and must agree with them. */
static int gpu_release(import *im, const char **variant)
{
    if (!im->gpu_dir[0])
        return ORTKIT_OK;
    if (!(im->gpu = calloc(1, sizeof *im->gpu)))
        return ortkit__error_nomem();
    int rc = ortkit__gpu_release_read(im->gpu, im->gpu_dir, im->version, im->lib);
    if (rc)
        return ortkit__error_wrap(rc, "cannot import '%s'", im->src);
    /* Its messages name the source already. */
    if ((im->variant || im->gpu_major) && (rc = variant_matches_release(im)))
        return rc;
    if (!im->variant)
        *variant = im->gpu->variant;
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

/* The PID in ".NAME.tmp-PID-N" or ".NAME.old-PID-N" (NAME a bundle name), else 0. */
static long stage_pid(const char *entry)
{
    const char *p = strrchr(entry, '-'), *end;
    if (entry[0] != '.' || !p || !p[1] || strspn(p + 1, "0123456789") != strlen(p + 1))
        return 0;
    for (end = p; end > entry && end[-1] >= '0' && end[-1] <= '9'; end--)
        ;
    if (end == p || end - entry < 6 || (strncmp(end - 5, ".tmp-", 5) && strncmp(end - 5, ".old-", 5)))
        return 0;
    char name[BUNDLE_NAME_MAX + 1];
    int len = (int)(end - 5 - (entry + 1));
    if (len <= 0 || len > BUNDLE_NAME_MAX)
        return 0;
    snprintf(name, sizeof name, "%.*s", len, entry + 1);
    return ortkit__bundle_name_ok(name) ? strtol(end, NULL, 10) : 0;
}

/* Remove what imports into this directory that died (a kill, a crash, a
 * second Ctrl-C) left behind: temporary directories whose process is gone. */
static void remove_stale(const import *im)
{
    DIR *d = opendir(im->into);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        long pid = stage_pid(e->d_name);
        if (pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
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
/* The name the dynamic linker looks for (SONAME), and the one -lonnxruntime finds. */
static int add_so_links(const import *im)
{
    const char *so_link = im->real_name;
    int rc;
    if (im->soname[0] && strcmp(im->soname, im->real_name) && !strchr(im->soname, '/') &&
        !strncmp(im->soname, "libonnxruntime.so.", 18)) {
        if ((rc = add_link(im, im->soname, im->real_name)))
            return rc;
        so_link = im->soname;
    }
    return add_link(im, "libonnxruntime.so", so_link);
}

/* The import option build_json, checked as the manifest's "build" key. */
static int read_build(ortkit_bundle **out, const char *json)
{
    ortkit__json_reader r = {"the build's account (build_json)"};
    cJSON *root = cJSON_Parse(json);
    ortkit_bundle *b = calloc(1, sizeof *b);
    int rc = !root ? ortkit__json_fail(&r, "not valid JSON")
             : !b  ? ortkit__error_nomem()
                   : ortkit__manifest_build_read(&r, b, root);
    cJSON_Delete(root);
    if (rc) {
        ortkit_bundle_free(b);
        return rc;
    }
    *out = b;
    return ORTKIT_OK;
}

static int build_stage(import *im, const char *variant)
{
    char path[PATH_MAX], from[PATH_MAX];
    const char *archive = im->opts->static_archive;
    int rc;
    if ((rc = ortkit__pathf(path, sizeof path, "%s/lib", im->stage)) || (rc = ortkit__mkdirs(path)))
        return rc;
    if (archive) {
        /* The static core instead of the shared one: no libonnxruntime.so
         * anywhere in the bundle, so -lonnxruntime can only find the archive. */
        if ((rc = ortkit__pathf(path, sizeof path, "%s/lib/libonnxruntime.a", im->stage)) ||
            (rc = ortkit__copy_file(archive, path, 0644, &im->cancel)))
            return rc;
    } else if ((rc = ortkit__pathf(path, sizeof path, "%s/lib/%s", im->stage, im->real_name)) ||
               (rc = ortkit__copy_file(im->lib, path, 0755, &im->cancel)) ||
               (rc = add_so_links(im))) {
        return rc;
    }

    for (size_t i = 0; i < im->prov_count; i++) {
        char rel[PATH_MAX];
        if ((rc = beside_lib(rel, im, im->prov_names[i])) || (rc = source_file(im, from, rel)) ||
            (rc = ortkit__pathf(path, sizeof path, "%s/lib/%s", im->stage, im->prov_names[i])) ||
            (rc = ortkit__copy_file(from, path, 0755, &im->cancel)))
            return rc;
    }
    /* A GPU release's CUDA libraries are not looked for here: the manifest
     * lists them as missing, and `ortkit bundle complete` adds them. */
    if ((rc = ortkit__pathf(path, sizeof path, "%s/lib", im->stage)) ||
        (rc = ortkit__set_runpaths(path, &im->cancel)) ||
        (rc = ortkit__pathf(path, sizeof path, "%s/include", im->stage)))
        return rc;
    if ((rc = ortkit__copy_tree(im->inc_root, im->inc_rel, path, &im->cancel)))
        return rc == ORTKIT_E_CANCELLED ? rc : ortkit__error_wrap(rc, "cannot import '%s'", im->src);
    for (size_t i = 0; i < im->licence_count; i++) {
        if ((rc = ortkit__pathf(path, sizeof path, "%s/%s", im->stage, im->licence_names[i])) ||
            (rc = ortkit__copy_file(im->licences[i], path, 0644, &im->cancel)))
            return rc;
    }
    ortkit__layout lay = {im->stage, im->name, variant, im->version, im->real_name, im->soname,
                          archive ? im->opts->static_libs : NULL, archive && im->prov_count > 0};
    if ((rc = ortkit__write_dev_files(&lay)))
        return rc;

    char lib[256], created[64];
    snprintf(lib, sizeof lib, "lib/%s", archive ? "libonnxruntime.a" : im->real_name);
    snprintf(created, sizeof created, "ortkit %s", ortkit_version());
    ortkit_manifest m = {0};
    const char *gpu_names[2 * ORTKIT__GPU_TARGETS_MAX + 1];
    char gpu_bufs[2 * ORTKIT__GPU_TARGETS_MAX][24];
    if (im->gpu && (rc = ortkit__gpu_release_stage(im->gpu, im->stage, &m, gpu_names, gpu_bufs,
                                                   &im->cancel)))
        return rc;
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
    if (im->variant)
        m.cpu_features = im->variant->cpu_features;
    m.cuda_platform = im->platform;
    m.tegra = im->platform == ORTKIT_CUDA_PLATFORM_L4T;
    /* With the providers' evidence, CUDA, GPU code and driver are in "gpu". */
    if (im->variant && !im->gpu) {
        m.cuda = im->variant->cuda;
        m.sm = im->variant->sm;
        m.sm_exact = im->variant->sm_exact;
        m.min_driver = im->variant->min_driver;
    }
    m.library = lib;
    m.provider_count = im->providers.n;
    m.providers = (const char *const *)im->providers.v;
    /* A static bundle's core is the archive: "loaded" speaks of the shared
     * library of the same build, which the version line names. */
    m.verified_by_loading = im->loaded;
    if (archive)
        snprintf(im->version_from + strlen(im->version_from),
                 sizeof im->version_from - strlen(im->version_from), ", and the static archive's data");
    m.version_from = im->version_from;
    m.linkage = archive ? "static" : "shared";
    /* The builder's account of the build, read as a manifest's would be. */
    ortkit_bundle *build = NULL;
    if (im->opts->build_json && (rc = read_build(&build, im->opts->build_json)))
        return rc;
    if (build) {
        m.build_known = 1;
        m.build_glibc = build->m.build_glibc;
        m.build_glibc_floor = build->m.build_glibc_floor;
        m.build_dependency_count = build->m.build_dependency_count;
        m.build_dependencies = build->m.build_dependencies;
        m.build_cache = build->m.build_cache;
        m.build_cache_remote = build->m.build_cache_remote;
        m.build_cache_remote_hits = build->m.build_cache_remote_hits;
        m.build_cache_local = build->m.build_cache_local;
    }
    rc = ortkit__write_manifest(im->stage, &m, &im->cancel);
    ortkit_bundle_free(build);
    return rc;
}

static void import_free(import *im)
{
    if (im->gpu)
        ortkit__gpu_release_free(im->gpu);
    free(im->gpu);
    ortkit__elf_free(&im->elf);
    ortkit__strv_free(&im->providers);
    for (size_t i = 0; i < im->prov_count; i++)
        free(im->prov_names[i]);
    for (size_t i = 0; i < im->licence_count; i++)
        free(im->licences[i]);
}

ORTKIT__ABI_STRUCT(options_abi, ortkit_bundle_import_options, "import options",
                   "ORTKIT_BUNDLE_IMPORT_OPTIONS_INIT", ORTKIT_BUNDLE_IMPORT_OPTIONS_VERSION,
                   offsetof(ortkit_bundle_import_options, cancel),
                   offsetof(ortkit_bundle_import_options, ort_version),
                   offsetof(ortkit_bundle_import_options, static_archive),
                   offsetof(ortkit_bundle_import_options, build_json),
                   offsetof(ortkit_bundle_import_options, platform),
                   sizeof(ortkit_bundle_import_options));

/* The --name and --variant asked for: a bundle name checked, a variant
 * of the matrix (*variant its name) or "cudaN", a GPU release of that
 * CUDA major whose facts its binaries give. */
static int read_variant(import *im, const char **variant)
{
    if (im->opts->name && !ortkit__bundle_name_ok(im->opts->name))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG,
                                 "'%s' is not a bundle name: at most %d letters, digits, '.', '_', "
                                 "'+' or '-', starting with a letter or digit", im->opts->name,
                                 BUNDLE_NAME_MAX);
    const char *vname = im->opts->variant;
    if (vname && !strncmp(vname, "cuda", 4) && vname[4] >= '1' && vname[4] <= '9' &&
        strspn(vname + 4, "0123456789") == strlen(vname + 4) && strlen(vname) <= 6) {
        /* "cuda13": a GPU release of that CUDA major, the rest read from its binaries. */
        im->gpu_major = atoi(vname + 4);
    } else if (vname && strcmp(vname, "cpu")) {
        int rc = ortkit_variant_parse(&im->variant, im->opts->variant);
        if (rc)
            return rc;
        if (im->opts->providers && !im->variant->cuda)
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "cannot import '%s': --providers is for a "
                                     "CUDA build, and variant %s is for the CPU only", im->src,
                                     im->variant->name);
        if (im->variant->defect[0])
            return ortkit__error_set(ORTKIT_E_INVALID_ARG, "variant %s cannot exist: %s",
                                     im->variant->name, im->variant->defect);
        *variant = im->variant->name;
    }
    return ORTKIT_OK;
}

/* The bundle's name: the one given, or ort-VERSION-VARIANT with what tells
 * an arm64 build or a static bundle apart. */
static int name_bundle(import *im, const char *variant, const char *archive)
{
    snprintf(im->name, sizeof im->name, "%s", im->opts->name ? im->opts->name : "");
    /* A generic arm64 build says so in its name: "cpu" alone reads as this
     * fleet's usual x86-64. */
    int arm = ortkit__elf_arch(im->elf.machine) == ORTKIT_ARCH_AARCH64;
    /* Likewise an arm64 GPU release its CUDA: "-l4t" (Jetson) or "-sbsa". */
    char arch_suffix[16] = "";
    if (arm && !strcmp(variant, "cpu"))
        snprintf(arch_suffix, sizeof arch_suffix, "-aarch64");
    else if (arm && im->gpu && !im->variant)
        snprintf(arch_suffix, sizeof arch_suffix, "-%s", ortkit_cuda_platform_name(im->platform));
    if (!im->name[0] && ((size_t)snprintf(im->name, sizeof im->name, "ort-%s-%s%s%s", im->version,
                                          variant, arch_suffix, archive ? "-static" : "") >=
                             sizeof im->name ||
                         !ortkit__bundle_name_ok(im->name))) {
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "cannot make a bundle name from version '%s' "
                                 "and variant %s; give one with --name", im->version, variant);
    }
    return ORTKIT_OK;
}

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
    im->cancel.fn = o.cancel;
    im->cancel.arg = o.cancel_arg;
    int rc = ORTKIT_OK, staged = 0, exists = 0;
    const char *variant = "cpu";
    struct stat st;

    if ((rc = read_variant(im, &variant)))
        goto cleanup;
    /* The source is checked whole before its library is loaded. */
    if ((rc = resolve_source(im)) || (rc = find_providers(im)) || (rc = check_source(im)) ||
        (rc = ortkit__cancelled(&im->cancel)) || (rc = inspect_library(im)) ||
        (rc = gpu_release(im, &variant)) ||
        (rc = ortkit__import_platform(&im->platform, ortkit__elf_arch(im->elf.machine), im->variant,
                                      im->gpu ? &im->gpu->code : NULL, im->opts->platform, im->src)))
        goto cleanup;
    const char *archive = im->opts->static_archive;
    if (archive && (rc = ortkit__static_check(archive, im->opts->static_libs,
                                              ortkit__elf_arch(im->elf.machine), im->version)))
        goto cleanup;
    if ((rc = name_bundle(im, variant, archive)))
        goto cleanup;

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
    if ((rc = build_stage(im, variant)) || (rc = ortkit__cancelled(&im->cancel)) ||
        (rc = commit(im, exists)))
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

