/*
 * bundle_gpu_complete.c - make a GPU bundle self-contained: every CUDA
 * user-space library its providers need, copied in beside them.
 *
 * The completed bundle is built beside the old one (".NAME.tmp-PID-N", so a
 * killed run is cleaned up like a killed import): the old files are hard
 * links there, the new libraries copies with RUNPATH $ORIGIN, then a new
 * manifest, whose hashing also checks the old files against the old
 * manifest; the two directories are swapped in one step.  A failure or a
 * cancel leaves the bundle as it was.
 */
#include "bundle_make.h"
#include "abi.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CUDA_PROVIDER "libonnxruntime_providers_cuda.so"

static atomic_uint stage_counter;

/* The old bundle's tree in the stage: hard links (the same, verified files),
 * a copy where the file system refuses a link. */
static int link_tree(const char *from, const char *to, int depth, const ortkit__cancel *cancel)
{
    DIR *d = opendir(from);
    if (!d)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read '%s': %s", from, strerror(errno));
    int rc = ORTKIT_OK;
    for (struct dirent *e; !rc && (e = readdir(d));) {
        char a[PATH_MAX], b[PATH_MAX], target[PATH_MAX];
        struct stat st;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            (!depth && !strcmp(e->d_name, BUNDLE_MANIFEST)))
            continue;
        if ((rc = ortkit__cancelled(cancel)) ||
            (rc = ortkit__pathf(a, sizeof a, "%s/%s", from, e->d_name)) ||
            (rc = ortkit__pathf(b, sizeof b, "%s/%s", to, e->d_name)))
            break;
        if (lstat(a, &st) != 0) {
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot stat '%s': %s", a, strerror(errno));
        } else if (S_ISDIR(st.st_mode)) {
            if (depth >= 16 || mkdir(b, 0755) != 0)
                rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", b,
                                       depth >= 16 ? "nested too deep" : strerror(errno));
            else
                rc = link_tree(a, b, depth + 1, cancel);
        } else if (S_ISLNK(st.st_mode)) {
            ssize_t n = readlink(a, target, sizeof target - 1);
            if (n < 0 || (target[n] = '\0', symlink(target, b) != 0))
                rc = ortkit__error_set(ORTKIT_E_IO, "cannot copy link '%s': %s", a, strerror(errno));
        } else if (link(a, b) != 0) {
            rc = ortkit__copy_file(a, b, st.st_mode & 0755, cancel);
        }
    }
    closedir(d);
    return rc;
}

/* "12.4.127" from the name a library file really has (libcudart.so.12.4.127),
 * else what its soname says. */
static void library_version(char *buf, size_t size, const char *path, const char *soname)
{
    char real[PATH_MAX];
    const char *base = realpath(path, real) ? strrchr(real, '/') + 1 : soname;
    const char *v = strstr(base, ".so.");
    if (!v)
        v = strstr(soname, ".so.");
    snprintf(buf, size, "%s", v ? v + 4 : "");
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

typedef struct completion {
    ortkit_bundle *b;
    char stage[PATH_MAX], final[PATH_MAX];
    ortkit__cuda_found found;
    ortkit_bundle_gpu_library libs[GPU_NEEDS_MAX * 4];
    char versions[GPU_NEEDS_MAX * 4][32], paths[GPU_NEEDS_MAX * 4][160];
    char *origins[GPU_NEEDS_MAX * 4]; /* where each came from: the manifest records it */
    size_t lib_count;
    const char *needs[GPU_NEEDS_MAX * 5];
    size_t need_count;
    char *missing[GPU_NEEDS_MAX * 4];
    char missing_names[GPU_NEEDS_MAX * 4][128];
    size_t missing_count;
} completion;

static void add_need(completion *c, const char *name)
{
    for (size_t i = 0; i < c->need_count; i++)
        if (!strcmp(c->needs[i], name))
            return;
    if (c->need_count < sizeof c->needs / sizeof c->needs[0])
        c->needs[c->need_count++] = name;
}

/* Find, copy in, and describe what the providers need. */
static int gather(completion *c, const ortkit_bundle_complete_options *o, const ortkit__cancel *cancel)
{
    const ortkit_manifest *m = &c->b->m;
    char lib[PATH_MAX], provider[PATH_MAX];
    int rc;
    if ((rc = ortkit__pathf(lib, sizeof lib, "%s/lib", c->stage)) ||
        (rc = ortkit__pathf(provider, sizeof provider, "%s/%s", lib, CUDA_PROVIDER)))
        return rc;
    /* What the bundle carries is found first, in it. */
    const char *dirs[65] = {lib};
    size_t n_dirs = 1;
    for (size_t i = 0; i < o->from_count && n_dirs < 65; i++)
        dirs[n_dirs++] = o->from[i];
    const char *elf[] = {provider};
    ortkit__cuda_query q = {elf, access(provider, F_OK) == 0, m->gpu_needs, m->gpu_need_count, dirs,
                            n_dirs, m->gpu_cuda, m->arch, 1, 1};
    if ((rc = ortkit__cuda_find(&c->found, &q)))
        return rc;
    size_t ln = strlen(lib);
    for (size_t i = 0; i < m->gpu_need_count; i++)
        add_need(c, m->gpu_needs[i]);
    for (size_t i = 0; i < c->found.count && c->lib_count < GPU_NEEDS_MAX * 4; i++) {
        const ortkit__dep *d = &c->found.deps[i];
        char to[PATH_MAX];
        add_need(c, d->name);
        if ((rc = ortkit__pathf(to, sizeof to, "%s/%s", lib, d->name)))
            return rc;
        int carried = !strncmp(d->path, lib, ln) && d->path[ln] == '/';
        ortkit_bundle_gpu_library *l = &c->libs[c->lib_count];
        library_version(c->versions[c->lib_count], sizeof c->versions[0], d->path, d->name);
        for (size_t k = 0; carried && k < m->gpu_library_count; k++)
            if (!strcmp(m->gpu_libraries[k].soname, d->name))
                snprintf(c->versions[c->lib_count], sizeof c->versions[0], "%s", m->gpu_libraries[k].version);
        snprintf(c->paths[c->lib_count], sizeof c->paths[0], "lib/%s", d->name);
        if (!carried && (rc = ortkit__copy_elf_origin(d->path, to, cancel)))
            return rc;
        /* Its origin: the path copied from (where it really lies), or what the manifest said. */
        char real[PATH_MAX];
        const char *origin = NULL;
        for (size_t k = 0; carried && m->gpu_library_origins && k < m->gpu_library_count; k++)
            if (!strcmp(m->gpu_libraries[k].soname, d->name))
                origin = m->gpu_library_origins[k];
        if (!carried)
            origin = realpath(d->path, real) ? real : d->path;
        if (origin && !(c->origins[c->lib_count] = strdup(origin)))
            return ortkit__error_nomem();
        for (char *p = c->origins[c->lib_count]; p && *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?'; /* a manifest's strings are plain */
        l->soname = d->name;
        l->version = c->versions[c->lib_count];
        l->path = c->paths[c->lib_count];
        l->sha256 = ""; /* from the manifest's own hashing */
        c->lib_count++;
    }
    for (size_t i = 0; i < c->found.missing_count; i++) {
        const char *text = c->found.missing[i];
        size_t n = strcspn(text, ";");
        char name[128], what[160];
        snprintf(name, sizeof name, "%.*s", (int)(n < 127 ? n : 127), text);
        snprintf(c->missing_names[i], sizeof c->missing_names[i], "%s", name);
        add_need(c, c->missing_names[i]);
        ortkit__gpu_describe(what, sizeof what, name, m->gpu_cuda);
        if (asprintf(&c->missing[c->missing_count], "%s%s", what, text + n) < 0)
            return ortkit__error_nomem();
        c->missing_count++;
    }
    qsort(c->needs, c->need_count, sizeof c->needs[0], cmp_str);
    return ORTKIT_OK;
}

/*
 * The old files, hashed while the new manifest was written, must be what
 * the old manifest says: verification in the same pass, so each file is
 * read once.  Anything else in the tree (an extra file, a changed one) is
 * refused rather than listed in the new manifest.
 */
static int unchanged(const completion *c)
{
    const ortkit_manifest *old = &c->b->m;
    ortkit_bundle *nb = NULL;
    int rc = ortkit_bundle_open(&nb, c->stage);
    if (rc)
        return rc;
    const ortkit_manifest *m = ortkit_bundle_manifest(nb);
    for (size_t i = 0; !rc && i < m->file_count; i++) {
        const ortkit_bundle_file *f = &m->files[i], *was = ortkit__bundle_file(old, f->path);
        int added = 0;
        for (size_t k = 0; k < c->lib_count; k++)
            added |= !strcmp(c->libs[k].path, f->path);
        if (was ? strcmp(was->sha256, f->sha256) || strcmp(was->link, f->link) || was->size != f->size
                : !added)
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "bundle '%s': %s %s; run 'ortkit bundle verify %s' "
                                   "and import it again", old->name, f->path,
                                   was ? "differs from its manifest (modified or damaged)"
                                       : "is not in its manifest (an extra file)", old->dir);
    }
    for (size_t i = 0; !rc && i < old->file_count; i++)
        if (!ortkit__bundle_file(m, old->files[i].path))
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "bundle '%s': %s is missing; import it again",
                                   old->name, old->files[i].path);
    ortkit_bundle_free(nb);
    return rc;
}

ORTKIT__ABI_STRUCT(complete_abi, ortkit_bundle_complete_options, "complete options",
                   "ORTKIT_BUNDLE_COMPLETE_OPTIONS_INIT", ORTKIT_BUNDLE_COMPLETE_OPTIONS_VERSION,
                   sizeof(ortkit_bundle_complete_options));

int ortkit_bundle_complete(ortkit_bundle **out, const char *dir, const ortkit_bundle_complete_options *opts)
{
    if (out)
        *out = NULL;
    if (!dir || !dir[0])
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_bundle_complete: no bundle");
    ortkit_bundle_complete_options o = ORTKIT_BUNDLE_COMPLETE_OPTIONS_INIT;
    if (opts && ortkit__abi_read(&complete_abi, &o, opts))
        return ORTKIT_E_INVALID_ARG;
    completion *c = calloc(1, sizeof *c);
    if (!c)
        return ortkit__error_nomem();
    ortkit__cancel cancel = {o.cancel, o.cancel_arg};
    int rc, staged = 0;
    if ((rc = ortkit_bundle_open(&c->b, dir)))
        goto cleanup;
    const ortkit_manifest *m = &c->b->m;
    if (!m->gpu_known) {
        rc = ortkit__error_set(ORTKIT_E_INVALID_ARG, "bundle '%s' records no GPU providers: import a "
                               "GPU release with --providers to make one", m->name);
        goto cleanup;
    }
    if (c->b->damage[0]) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "bundle '%s' is damaged (%s); import it again",
                               m->name, c->b->damage);
        goto cleanup;
    }
    const char *slash = strrchr(m->dir, '/');
    if ((rc = ortkit__pathf(c->final, sizeof c->final, "%s", m->dir)) ||
        (rc = ortkit__pathf(c->stage, sizeof c->stage, "%.*s/.%s.tmp-%ld-%u",
                            (int)(slash ? slash - m->dir : 0), m->dir, slash ? slash + 1 : m->dir,
                            (long)getpid(), atomic_fetch_add(&stage_counter, 1))))
        goto cleanup;
    if (mkdir(c->stage, 0755) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot create '%s': %s", c->stage, strerror(errno));
        goto cleanup;
    }
    staged = 1;
    if ((rc = link_tree(c->final, c->stage, 0, &cancel)) || (rc = gather(c, &o, &cancel)))
        goto cleanup;

    ortkit_manifest nm = *m;
    nm.gpu_libraries = c->libs;
    nm.gpu_library_count = c->lib_count;
    nm.gpu_library_origins = (const char *const *)c->origins;
    nm.gpu_needs = c->needs;
    nm.gpu_need_count = c->need_count;
    nm.gpu_missing = (const char *const *)c->missing;
    nm.gpu_missing_count = c->missing_count;
    nm.gpu_complete = c->missing_count == 0;
    nm.cuda = 0; /* written from gpu.cuda */
    if ((rc = ortkit__write_manifest(c->stage, &nm, &cancel)) || (rc = ortkit__cancelled(&cancel)) ||
        (rc = unchanged(c)))
        goto cleanup;
    if (renameat2(AT_FDCWD, c->stage, AT_FDCWD, c->final, RENAME_EXCHANGE) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot replace '%s': %s", c->final, strerror(errno));
        goto cleanup;
    }
    /* The old bundle now lies at the stage's name. */
    ortkit__rmtree(c->stage);
    staged = 0;
    if (out)
        rc = ortkit_bundle_open(out, c->final);
cleanup:
    if (staged) {
        char saved[1024];
        int code = ortkit_error_code();
        snprintf(saved, sizeof saved, "%s", ortkit_error_last());
        ortkit__rmtree(c->stage);
        ortkit__error_set(code, "%s", saved);
    }
    ortkit__cuda_found_free(&c->found);
    for (size_t i = 0; i < c->missing_count; i++)
        free(c->missing[i]);
    for (size_t i = 0; i < c->lib_count; i++)
        free(c->origins[i]);
    ortkit_bundle_free(c->b);
    free(c);
    return rc;
}
